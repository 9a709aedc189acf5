//! The server's two threads besides its loop: the validator, which runs
//! `validate` on the latest version of each document changed (its
//! diagnostics), and the reader, which then reads that version's span index
//! and shape for the editor's queries (navigation, hover, completion, the
//! outline). They are two so that a change is never queued behind a
//! reading for queries: at 10,000 nodes that reading costs about what the
//! validation does, and the diagnostics of the next change wait for
//! neither. The reader reads only once no document has been waiting to be
//! validated or being validated ([`Busy`]) for [`QUIET`] (a pause in
//! typing): on a shared machine its reading would otherwise take the
//! validator's processor time; for the same reason it runs at the lowest
//! priority (nice 19). A query that comes before the reader is done reads
//! the version itself, at the loop's priority, never waiting for the
//! reader (see [`crate::forge::editor::Doc::read_aside`]).

use super::documents::{Open, Validated};
use crate::forge::editor::Doc;
use crate::forge::editor::context::Sources;
use crate::forge::validate::{self, Rereads, Target};
use crate::model::error::{Error, Result};
use crossbeam_channel::{Receiver, Sender};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The threads' stack: as deep as the YAML reader's (see `wire::parse`).
pub(crate) const STACK: usize = 64 * 1024 * 1024;

/// What the validator has to do, for the reader to wait for.
#[derive(Debug, Default)]
pub(crate) struct Busy {
    /// Documents changed and not sent to the validator yet (the loop's).
    pub(crate) due: AtomicUsize,
    /// The validator is at work.
    validating: AtomicBool,
}

/// How often the reader looks whether the validator is done.
const POLL: Duration = Duration::from_millis(10);

/// How long nothing must be due or validated before the reader reads (a
/// pause in typing, as long as the default debounce).
const QUIET: Duration = Duration::from_millis(200);

/// The running threads (they end once the jobs' sender is dropped).
pub(crate) struct Threads {
    handles: Vec<JoinHandle<()>>,
}

impl Threads {
    pub(crate) fn join(self) {
        for h in self.handles {
            let _ = h.join();
        }
    }
}

/// Starts the validator and the reader: jobs in, validations out.
pub(crate) fn start(
    sources: Sources,
    busy: Arc<Busy>,
) -> Result<(Sender<Job>, Receiver<Done>, Threads)> {
    let (jobs_tx, jobs_rx) = crossbeam_channel::unbounded::<Job>();
    let (done_tx, done_rx) = crossbeam_channel::unbounded::<Done>();
    let (reads_tx, reads_rx) = crossbeam_channel::unbounded::<(String, Doc)>();
    // The threads read and check documents as deep as `validate` takes
    // (MAX_DEPTH levels, whose readers recurse): give them the stack the
    // main thread has and more, reserved rather than used by shallow
    // documents.
    let spawn = |name: &str, f: Box<dyn FnOnce() + Send>| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(STACK)
            .spawn(f)
            .map_err(|e| Error::internal(format!("lsp: cannot start the {name}: {e}")))
    };
    let still = {
        let (busy, jobs) = (Arc::clone(&busy), jobs_rx.clone());
        move || {
            busy.due.load(Ordering::Acquire) == 0
                && !busy.validating.load(Ordering::Acquire)
                && jobs.is_empty()
        }
    };
    let reader = spawn("lsp-reader", Box::new(move || read(&reads_rx, &still)))?;
    let validator = spawn(
        "lsp-validator",
        Box::new(move || work(&sources, &jobs_rx, &done_tx, &reads_tx, &busy)),
    )?;
    Ok((
        jobs_tx,
        done_rx,
        Threads {
            handles: vec![validator, reader],
        },
    ))
}

/// Reads the documents' versions for the queries, the latest version of
/// each only (a version the editor changed since is not read), once the
/// validator is `still`.
fn read(docs: &Receiver<(String, Doc)>, still: &dyn Fn() -> bool) {
    background();
    while let Ok(first) = docs.recv() {
        // Still for a while: the next change of someone typing comes
        // first, and its validation has the processor to itself.
        let mut since: Option<Instant> = None;
        loop {
            if !still() {
                since = None;
            } else if since.get_or_insert_with(Instant::now).elapsed() >= QUIET {
                break;
            }
            std::thread::sleep(POLL);
        }
        let mut latest: Vec<(String, Doc)> = vec![first];
        while let Ok(d) = docs.try_recv() {
            latest.retain(|o| o.0 != d.0);
            latest.push(d);
        }
        for (_, d) in latest {
            // A bug in a reading must not end the session: the queries
            // then read the version themselves (and answer that bug).
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| d.read_aside()));
        }
    }
}

/// Lowers the calling thread to the lowest priority (nice 19): the reader's
/// reading of a 10,000-node YAML text costs about a second of processor
/// time, and on a busy machine it would otherwise take that time from the
/// validation of the next change (measured: edit → diagnostics 0.95 s
/// median, 1.34 s max, with it at normal priority; see docs/performance.md).
/// Queries that need the reading before it is done make it themselves, at
/// the loop's priority. Elsewhere than Linux the thread keeps its priority.
fn background() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid and setpriority take and return plain integers;
        // on Linux, PRIO_PROCESS with a thread id sets that thread's
        // nice value only. A failure leaves the priority as it was.
        let _ = unsafe { libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19) };
    }
}

/// A validation to run.
pub(crate) struct Job {
    pub(crate) uri: String,
    pub(crate) version: i32,
    pub(crate) open: Open,
}

/// A validation done.
pub(crate) struct Done {
    pub(crate) uri: String,
    pub(crate) validated: Validated,
}

/// Runs validations, the latest version of each document only.
fn work(
    sources: &Sources,
    jobs: &Receiver<Job>,
    done: &Sender<Done>,
    reads: &Sender<(String, Doc)>,
    busy: &Busy,
) {
    let mut rereads = Rereads::new();
    while let Ok(first) = jobs.recv() {
        busy.validating.store(true, Ordering::Release);
        let mut latest: Vec<Job> = vec![first];
        while let Ok(j) = jobs.try_recv() {
            latest.retain(|o| o.uri != j.uri);
            latest.push(j);
        }
        for j in latest {
            // A bug in a check must not end the session: the document then
            // gets no diagnostics for this version.
            let Ok(validated) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                validate_now(sources, &j.open, j.version, Some(&mut rereads))
            })) else {
                // What was kept may be half made: read anew.
                rereads = Rereads::new();
                continue;
            };
            if done
                .send(Done {
                    uri: j.uri.clone(),
                    validated,
                })
                .is_err()
            {
                return;
            }
            // The version's index and shape, for the editor's queries, are
            // read by the reader thread: a change that comes now is
            // validated at once, not after them.
            let _ = reads.send((j.uri, j.open.doc));
        }
        busy.validating.store(false, Ordering::Release);
    }
}

/// Validates one version of a document, as `validate FILE` would (with the
/// registry of its store); a registry that cannot be read is reported as
/// the document's input error. A large YAML document is read again only
/// where it changed since the last version `rereads` read of it.
pub(crate) fn validate_now(
    sources: &Sources,
    open: &Open,
    version: i32,
    rereads: Option<&mut Rereads>,
) -> Validated {
    if !open.doc.is_plan_document() {
        return Validated {
            version,
            target: None,
            registry: None,
            no_registry: false,
            elsewhere: None,
        };
    }
    let (target, registry): (Target, _) = match sources.context(open.path.as_deref()) {
        Ok(ctx) => {
            // The settings file's selection applies, as in `validate`.
            let opts = validate::Options {
                policy: Arc::new(ctx.policy),
                ..validate::Options::default()
            };
            // The text is read once here: validate reads it as a document
            // and places its findings pointer by pointer (JSON), or with the
            // version's index when it was made already (YAML: by
            // `is_plan_document`). The index for the editor's queries is
            // built after the diagnostics are out (`work`).
            let index = open.doc.index_if_read();
            let text = &open.doc.text;
            let read = validate::read_edited(&open.name, text, open.doc.syntax, rereads);
            let registry = ctx.registry.as_deref();
            (
                validate::check_read(
                    &open.name,
                    text,
                    open.doc.syntax,
                    read,
                    index.as_ref(),
                    registry,
                    &opts,
                ),
                ctx.registry,
            )
        }
        Err(broken) => return failed(version, &open.name, &broken),
    };
    Validated {
        version,
        target: Some(Arc::new(target)),
        no_registry: registry.is_none(),
        registry,
        elsewhere: None,
    }
}

/// A version whose settings or registry cannot be read: that error is its
/// one finding (the registry is not missing, it is broken), and where in
/// that file it is.
fn failed(version: i32, name: &str, broken: &crate::forge::editor::context::Broken) -> Validated {
    let elsewhere = broken.file.as_ref().and_then(|path| {
        let (text, span) = broken.place()?;
        Some(Arc::new(super::documents::Elsewhere {
            path: path.clone(),
            text,
            span,
            message: broken.error.message.clone(),
        }))
    });
    Validated {
        version,
        target: Some(Arc::new(validate::failure(name, &broken.error))),
        registry: None,
        no_registry: false,
        elsewhere,
    }
}

#[cfg(test)]
mod tests {
    use super::{Open, Sources, validate_now};

    const PLAN: &str = r#"{"formatVersion": 1, "nodes": [
  {"id": "start", "kind": "entry", "definition": {"input": []}},
  {"id": "get", "kind": "call", "definition": {"tool": "tickets_get", "args": {},
    "output": [], "onMissingValue": "fail", "authority": [], "replaySafe": true,
    "onIndeterminate": "halt"}}],
  "edges": [{"id": "e1", "from": "start", "to": "get"}]}"#;

    #[test]
    fn a_document_with_no_registry_says_its_checks_were_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("plan.json");
        std::fs::write(&file, PLAN).unwrap();
        let uri = format!("file://{}", file.display());
        let open = Open::new(&uri, "json", PLAN, 1);
        let none = validate_now(&Sources::default(), &open, 1, None);
        assert!(none.no_registry);
        let d = super::super::diagnostics::no_registry();
        assert_eq!(d.severity, Some(lsp_types::DiagnosticSeverity::INFORMATION));
        assert!(d.message.starts_with("no registry was found"));
        // Named with --registry: checked, nothing to note.
        let reg = dir.path().join("registry.yaml");
        std::fs::write(&reg, "tools: {}\n").unwrap();
        let named = Sources {
            registry: Some(reg),
            ..Sources::default()
        };
        let found = validate_now(&named, &open, 1, None);
        assert!(!found.no_registry);
        assert!(found.registry.is_some());
        // A registry that cannot be read is the document's error, not "none".
        std::fs::write(dir.path().join("registry.yaml"), "tools: [\n").unwrap();
        let broken = validate_now(&named, &open, 1, None);
        assert!(!broken.no_registry);
    }

    /// The nice value of this process's thread named `name` (Linux).
    #[cfg(target_os = "linux")]
    fn nice_of(name: &str) -> Option<i64> {
        for t in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
            let comm = std::fs::read_to_string(t.path().join("comm")).unwrap_or_default();
            if comm.trim_end() != name {
                continue;
            }
            let stat = std::fs::read_to_string(t.path().join("stat")).ok()?;
            // After the `(comm)` field: state is field 3, nice field 19.
            let rest = &stat[stat.rfind(')')? + 2..];
            return rest.split(' ').nth(16)?.parse().ok();
        }
        None
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_reader_runs_below_the_validator() {
        let busy = std::sync::Arc::new(super::Busy::default());
        let (jobs, _done, threads) = super::start(Sources::default(), busy).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let reader = loop {
            match nice_of("lsp-reader") {
                Some(19) => break Some(19),
                other if std::time::Instant::now() > deadline => break other,
                _ => std::thread::sleep(std::time::Duration::from_millis(5)),
            }
        };
        assert_eq!(reader, Some(19), "the reader's nice value");
        // The validator thread may not be named yet on a loaded machine.
        let own = loop {
            match nice_of("lsp-validator") {
                Some(n) => break n,
                None if std::time::Instant::now() > deadline => panic!("no validator thread"),
                None => std::thread::sleep(std::time::Duration::from_millis(5)),
            }
        };
        assert!(own < 19, "the validator's nice value is {own}");
        drop(jobs);
        threads.join();
    }
}
