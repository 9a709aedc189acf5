//! The file store (SPEC §3): one folder per plan holding an append-only op
//! log and `meta.json`. The store checks state, revision and legality only;
//! policy (the checks) lives above it.

pub mod checkpoint;
pub mod exit;
pub mod fold;
pub mod lock;
pub mod log;
pub mod meta;

use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids;
use crate::model::lifecycle::{Meta, State};
use crate::model::note::Note;
use crate::model::remedy::Remedy;
use crate::model::{Content, Op, OpBody};
use fold::Folded;
use log::{Log, LogInfo};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const OPS_FILE: &str = "ops.jsonl";
pub const META_FILE: &str = "meta.json";
pub const LOCK_FILE: &str = "lock";
pub const CURRENT_FILE: &str = "current";

const GITIGNORE: &str =
    "# written by planforge init\ncurrent\n*/lock\n*/checkpoint*\n.lock\n.tmp-*\n";
const GITATTRIBUTES: &str = "# written by planforge init: concurrent histories of a plan merge line by line;\n# the fold orders them\n*/ops.jsonl merge=union\n";

/// A plan read from the store and folded.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub plan_id: String,
    pub meta: Meta,
    /// Where the log file stands (for the next writer).
    pub log: LogInfo,
    /// Ops of complete transactions, in log order (revision N = the first
    /// N); kept only when asked for (see [`Loaded::ops`]).
    ops: Option<Vec<Op>>,
    pub folded: Folded,
    pub digest: String,
    /// Byte length of the canonical text the digest hashes.
    pub encoded_len: usize,
    /// The log file's (length, mtime) this was read from, when exact.
    stamp: Option<(u64, u128)>,
    /// Findings cached in the checkpoint, with their key.
    cached: Option<(String, serde_json::Value)>,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if crate::store::exit::one_shot() {
            // The process is about to exit: skip freeing the plan's many
            // small allocations (see `util::set_one_shot`).
            std::mem::forget(std::mem::take(&mut self.folded.content.nodes));
            std::mem::forget(std::mem::take(&mut self.folded.content.edges));
            std::mem::forget(self.ops.take());
        }
    }
}

impl Loaded {
    /// Assembles a loaded plan (for stores' tests and in-memory plans).
    pub fn new(
        plan_id: &str,
        meta: Meta,
        log: LogInfo,
        ops: Option<Vec<Op>>,
        folded: Folded,
        digest: String,
        encoded_len: usize,
    ) -> Loaded {
        Loaded {
            plan_id: plan_id.to_string(),
            meta,
            log,
            ops,
            folded,
            digest,
            encoded_len,
            stamp: None,
            cached: None,
        }
    }

    /// Findings cached for this exact plan under `key`, if any.
    pub fn cached_findings(&self, key: &str) -> Option<&serde_json::Value> {
        self.cached
            .as_ref()
            .filter(|(k, _)| k == key)
            .map(|(_, r)| r)
    }

    /// The ops of complete transactions, in log order. Only plans loaded with
    /// `load_with_ops` / `load_at_with_ops` (or inside `commit_labeled`) keep
    /// them: most readers need the folded content only.
    pub fn ops(&self) -> Result<&[Op]> {
        self.ops.as_deref().ok_or_else(|| {
            Error::internal(format!(
                "plan {} was loaded without its op log; this is a bug in planforge",
                self.plan_id
            ))
        })
    }

    pub fn content(&self) -> &Content {
        &self.folded.content
    }
    pub fn revision(&self) -> u64 {
        self.folded.content.revision
    }
    pub fn state(&self) -> State {
        self.meta.state
    }

    /// What the fold noticed, plus the integrity check of a non-editable
    /// plan: its content must still hash to the digest recorded at freeze.
    pub fn notes(&self) -> Vec<Note> {
        let mut out = self.folded.notes.clone();
        if self.meta.state != State::Editable
            && let Some(f) = &self.meta.frozen
            && f.digest != self.digest
        {
            out.push(Note::DigestMismatch {
                plan: self.plan_id.clone(),
                state: self.meta.state,
                frozen: f.digest.clone(),
                actual: self.digest.clone(),
            });
        }
        out
    }
}

/// The store: a folder of plans.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

/// Builds the ops of one transaction: lamports R+1…R+k, one tx id, the last
/// op closing it.
pub fn transaction(actor: &str, plan_id: &str, revision: u64, bodies: Vec<OpBody>) -> Vec<Op> {
    transaction_labeled(actor, plan_id, revision, "", bodies)
}

/// As [`transaction`], with a tx id that starts with `label` (e.g. `undo-…`,
/// so later readers can tell what a transaction was for).
pub fn transaction_labeled(
    actor: &str,
    plan_id: &str,
    revision: u64,
    label: &str,
    bodies: Vec<OpBody>,
) -> Vec<Op> {
    let tx = format!("{label}{}", crate::model::mint::tx_id());
    let at = crate::model::clock::now();
    let k = bodies.len();
    bodies
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            let lamport = revision + i as u64 + 1;
            Op {
                op_id: format!("{actor}:{plan_id}:{lamport}:{tx}"),
                actor_id: actor.to_string(),
                lamport,
                at: at.clone(),
                tx: tx.clone(),
                tx_end: i + 1 == k,
                body,
            }
        })
        .collect()
}

/// Folds ops with a plan's provenance and digests the result.
pub fn fold_and_digest(plan_id: &str, ops: &[Op], meta: &Meta) -> (Folded, String, usize) {
    let folded = fold::fold(plan_id, ops, meta.provenance.clone());
    let (digest, len) = crate::wire::jcs::digest(&folded.content);
    (folded, digest, len)
}

fn refuse_symlink(path: &Path) -> Result<()> {
    if let Ok(md) = fs::symlink_metadata(path)
        && md.file_type().is_symlink()
    {
        return Err(Error::new(
            ErrorKind::CorruptStore,
            format!("{} is a symbolic link; planforge does not follow links inside a store, so nothing is read or written outside it", path.display()),
        )
        .with_help("replace the link with the real file or folder"));
    }
    Ok(())
}

/// As [`refuse_symlink`], and refuses anything but an ordinary file where a
/// store file is expected: reading a pipe would wait forever, a device would
/// never end.
fn refuse_special(path: &Path) -> Result<()> {
    refuse_symlink(path)?;
    if let Ok(md) = fs::symlink_metadata(path)
        && !md.is_file()
    {
        return Err(Error::new(
            ErrorKind::CorruptStore,
            format!(
                "{} is not an ordinary file (a folder, pipe or device); planforge reads only ordinary files in a store",
                path.display()
            ),
        )
        .with_help("replace it with the real file"));
    }
    Ok(())
}

fn sync_dir(path: &Path) {
    if let Ok(d) = fs::File::open(path) {
        let _ = d.sync_all();
    }
}

/// Replaces a file atomically: temp file in the same folder, sync, rename,
/// sync the folder.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .map_err(|e| Error::io("create a temporary file in", dir, &e))?;
    tmp.write_all(bytes)
        .map_err(|e| Error::io("write", tmp.path(), &e))?;
    // Temporary files are private; the store's files are ordinary files
    // (committed, shared): keep an existing file's mode, else rw-r--r--.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(path)
            .map(|m| m.permissions().mode())
            .unwrap_or(0o644);
        let _ = tmp
            .as_file()
            .set_permissions(fs::Permissions::from_mode(mode));
    }
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::io("sync", tmp.path(), &e))?;
    tmp.persist(path)
        .map_err(|e| Error::io("replace", path, &e.error))?;
    sync_dir(dir);
    Ok(())
}

impl Store {
    /// Opens an existing store folder.
    pub fn open(root: impl Into<PathBuf>) -> Result<Store> {
        let root = root.into();
        match fs::metadata(&root) {
            Ok(md) if md.is_dir() => Ok(Store { root }),
            Ok(_) => Err(Error::new(ErrorKind::CorruptStore, format!("the store {} is not a folder", root.display()))),
            Err(_) => Err(Error::new(ErrorKind::CorruptStore, format!("there is no plan store at {}", root.display()))
                .with_help("create one with `planforge init`, or point --store / PLANFORGE_STORE at an existing one")),
        }
    }

    /// Creates (or completes) a store folder: `.gitignore`, `.gitattributes`,
    /// `registry` as `registry.yaml` and `templates/`. Existing files are
    /// kept.
    pub fn init(root: impl Into<PathBuf>, registry: &str) -> Result<(Store, Vec<String>)> {
        let root = root.into();
        fs::create_dir_all(&root).map_err(|e| Error::io("create", &root, &e))?;
        let store = Store::open(root)?;
        let mut written = Vec::new();
        let has_registry =
            store.root.join("registry.yaml").exists() || store.root.join("registry.json").exists();
        let mut files: Vec<(&str, &str)> =
            vec![(".gitignore", GITIGNORE), (".gitattributes", GITATTRIBUTES)];
        if !has_registry {
            files.push(("registry.yaml", registry));
        }
        for (name, text) in files {
            let p = store.root.join(name);
            if !p.exists() {
                write_atomic(&p, text.as_bytes())?;
                written.push(name.to_string());
            }
        }
        let t = store.root.join("templates");
        if !t.exists() {
            fs::create_dir_all(&t).map_err(|e| Error::io("create", &t, &e))?;
            written.push("templates/".into());
        }
        Ok((store, written))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder of a plan. The id must match the plan id rule, so the path
    /// can never leave the store.
    pub fn plan_dir(&self, id: &str) -> Result<PathBuf> {
        if !ids::is_valid_plan_id(id) {
            return Err(Error::invalid(format!(
                "`{}` is not a plan id: plan ids look like `plan-<name>` where the name is 1–64 letters, digits, `_` or `-`",
                ids::quote_id(id)
            )));
        }
        Ok(self.root.join(id))
    }

    pub fn exists(&self, id: &str) -> bool {
        self.plan_dir(id)
            .map(|d| d.join(META_FILE).is_file())
            .unwrap_or(false)
    }

    /// Every plan id in the store, sorted.
    pub fn plan_ids(&self) -> Result<Vec<String>> {
        let rd = fs::read_dir(&self.root).map_err(|e| Error::io("list", &self.root, &e))?;
        let mut ids = Vec::new();
        for entry in rd.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if !ids::is_valid_plan_id(&name) {
                continue;
            }
            let Ok(ft) = entry.file_type() else { continue };
            if ft.is_dir() && entry.path().join(META_FILE).is_file() {
                ids.push(name);
            }
        }
        ids.sort();
        Ok(ids)
    }

    fn unknown_plan(&self, id: &str) -> Error {
        let known = self.plan_ids().unwrap_or_default();
        let hint = crate::model::suggest::did_you_mean(id, known.iter().map(String::as_str));
        Error::new(
            ErrorKind::UnknownPlan,
            format!(
                "there is no plan `{}` in {}{hint}",
                ids::quote_id(id),
                self.root.display()
            ),
        )
        .with_help(if known.is_empty() {
            "create one with `planforge create`, or import a document with `planforge import FILE`"
                .to_string()
        } else {
            format!(
                "plans here: {}",
                crate::model::suggest::choices(id, known.iter().map(String::as_str))
            )
        })
    }

    fn read_meta(&self, id: &str, dir: &Path) -> Result<Meta> {
        refuse_symlink(dir)?;
        let path = dir.join(META_FILE);
        refuse_special(&path)?;
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(self.unknown_plan(id)),
            Err(e) => {
                return Err(Error::new(
                    ErrorKind::CorruptStore,
                    format!("could not read {}: {e}", path.display()),
                ));
            }
        };
        Meta::parse(&text, &format!("{id}/{META_FILE}"))
    }

    /// Loads and folds a plan at its current revision (without keeping its
    /// ops).
    pub fn load(&self, id: &str) -> Result<Loaded> {
        self.load_impl(id, None, false)
    }

    /// As [`load`](Self::load), keeping the ops (for history: diff, undo, ops).
    pub fn load_with_ops(&self, id: &str) -> Result<Loaded> {
        self.load_impl(id, None, true)
    }

    /// Loads a plan folded at `revision` (its first N ops), or at its current
    /// revision.
    pub fn load_at(&self, id: &str, revision: Option<u64>) -> Result<Loaded> {
        self.load_impl(id, revision, false)
    }

    /// As [`load_at`](Self::load_at), keeping the ops.
    pub fn load_at_with_ops(&self, id: &str, revision: Option<u64>) -> Result<Loaded> {
        self.load_impl(id, revision, true)
    }

    fn load_impl(&self, id: &str, revision: Option<u64>, keep_ops: bool) -> Result<Loaded> {
        let dir = self.plan_dir(id)?;
        let meta = self.read_meta(id, &dir)?;
        let ops_path = dir.join(OPS_FILE);
        refuse_special(&ops_path)?;
        // Stat before reading: a write in between changes the length.
        let stamp = checkpoint::log_stamp(&ops_path);
        let Log { mut ops, info } = log::read(&ops_path, id)?;
        let stamp = stamp.filter(|(len, _)| *len == info.len);
        let whole = match revision {
            Some(r) if r > ops.len() as u64 => {
                return Err(Error::new(
                    ErrorKind::UnknownRevision,
                    format!(
                        "plan {id} has no revision {r}; its revisions run from 0 to {}",
                        ops.len()
                    ),
                ));
            }
            Some(r) if r < ops.len() as u64 => {
                ops.truncate(r as usize);
                false
            }
            _ => true,
        };
        let (mut folded, ops) = if keep_ops {
            (fold::fold(id, &ops, meta.provenance.clone()), Some(ops))
        } else {
            (fold::fold_owned(id, ops, meta.provenance.clone()), None)
        };
        // The digest of an unchanged log is in the checkpoint.
        let saved = if whole {
            stamp.and_then(|_| checkpoint::read(&dir))
        } else {
            None
        };
        let fresh = saved.filter(|c| {
            Some((c.log_len, c.log_modified)) == stamp && c.revision == folded.content.revision
        });
        let (digest, encoded_len, cached) = match fresh {
            Some(c) => (c.digest, c.encoded_len, c.findings),
            None => {
                let (digest, encoded_len) = crate::wire::jcs::digest(&folded.content);
                if whole && let Some((log_len, log_modified)) = stamp {
                    let c = checkpoint::Checkpoint {
                        log_len,
                        log_modified,
                        revision: folded.content.revision,
                        digest: digest.clone(),
                        encoded_len,
                        findings: None,
                    };
                    checkpoint::write(&dir, &c);
                }
                (digest, encoded_len, None)
            }
        };
        if whole && info.unfinished > 0 {
            folded.notes.push(Note::TornTail {
                ops: info.unfinished,
            });
        }
        Ok(Loaded {
            plan_id: id.to_string(),
            meta,
            log: info,
            ops,
            folded,
            digest,
            encoded_len,
            stamp: if whole { stamp } else { None },
            cached,
        })
    }

    /// Keeps a plan's findings in its checkpoint, valid under `key` (the
    /// caller's digest of everything the findings depend on).
    pub fn save_findings(&self, loaded: &Loaded, key: &str, findings: serde_json::Value) {
        let Some((log_len, log_modified)) = loaded.stamp else {
            return;
        };
        let Ok(dir) = self.plan_dir(&loaded.plan_id) else {
            return;
        };
        let c = checkpoint::Checkpoint {
            log_len,
            log_modified,
            revision: loaded.revision(),
            digest: loaded.digest.clone(),
            encoded_len: loaded.encoded_len,
            findings: Some((key.to_string(), findings)),
        };
        checkpoint::write(&dir, &c);
    }

    /// Runs one write transaction on a plan under its lock: checks the state
    /// and the expected revision, asks `build` for the ops (it sees the plan
    /// folded under the lock and may refuse), appends them in one write and
    /// returns the plan after the write. No ops → nothing is written.
    pub fn commit<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnOnce(&Loaded) -> Result<Vec<OpBody>>,
    {
        self.commit_labeled(id, actor, expect_rev, "", build)
    }

    /// As [`commit`](Self::commit), with a tx id starting with `label`.
    pub fn commit_labeled<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        label: &str,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnOnce(&Loaded) -> Result<Vec<OpBody>>,
    {
        let dir = self.plan_dir(id)?;
        if !dir.join(META_FILE).exists() {
            return Err(self.unknown_plan(id));
        }
        refuse_symlink(&dir)?;
        let _guard = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
        // A labelled transaction (undo) reads history; others need only the
        // folded plan.
        let before = if label.is_empty() {
            self.load(id)?
        } else {
            self.load_with_ops(id)?
        };
        ensure_editable(&before)?;
        if let Some(want) = expect_rev
            && want != before.revision()
        {
            return Err(Error::new(
                ErrorKind::RevisionMoved,
                format!("plan {id} is at revision {}, not {want}: someone changed it since you read it", before.revision()),
            )
            .with_help("read the plan again (status, outline or read) and redo the change against the new revision"));
        }
        let bodies = build(&before)?;
        if bodies.is_empty() {
            return Ok((before, Vec::new()));
        }
        refuse_too_deep(&bodies)?;
        // New ops must sort after every op in the log. A log planforge wrote
        // numbers its ops 1, 2, 3 … so that is the revision (SPEC §2); a log
        // with lines removed or edited by hand can hold higher lamports, and
        // ops numbered from the revision would sort before them and be lost.
        let base = before.revision().max(before.log.max_lamport);
        if base.saturating_add(bodies.len() as u64) > crate::model::value::MAX_SAFE_INTEGER as u64 {
            return Err(Error::new(
                ErrorKind::CorruptStore,
                format!(
                    "{}: the highest lamport in the log is {}, too close to 2^53−1 for another change to be numbered after it",
                    dir.join(OPS_FILE).display(),
                    before.log.max_lamport
                ),
            )
            .with_help(format!("the log was edited by hand; export the plan (`planforge export -p {id}`) and import it under a new id")));
        }
        let ops = transaction_labeled(actor, id, base, label, bodies);
        log::append(&dir.join(OPS_FILE), &before.log, &ops)?;
        let mut meta = before.meta.clone();
        meta.updated_at = crate::model::clock::now();
        write_atomic(
            &dir.join(META_FILE),
            crate::wire::json::pretty(&meta.to_json()).as_bytes(),
        )?;
        // The new ops sort after every older one (their lamports are above
        // every lamport in the log), so they apply on top of the fold already
        // made.
        let mut before = before;
        let folded = std::mem::replace(&mut before.folded, fold::Folded::empty(id));
        let after = match fold::fold_after(folded, before.log.max_lamport, &ops) {
            Some(folded) => {
                let (digest, encoded_len) = crate::wire::jcs::digest(&folded.content);
                let max_lamport = ops
                    .iter()
                    .map(|o| o.lamport)
                    .max()
                    .unwrap_or(0)
                    .max(before.log.max_lamport);
                let log = LogInfo {
                    max_lamport,
                    unfinished: 0,
                    head: before.log.head + ops.len() as u64,
                    ..before.log
                };
                let kept = before.ops.take().map(|mut all| {
                    all.extend(ops.iter().cloned());
                    all
                });
                // Under the lock the file is ours: its stamp now is exact.
                let stamp = checkpoint::log_stamp(&dir.join(OPS_FILE));
                Loaded {
                    plan_id: id.to_string(),
                    meta,
                    log,
                    ops: kept,
                    folded,
                    digest,
                    encoded_len,
                    stamp,
                    cached: None,
                }
            }
            None => {
                drop(before);
                let mut reloaded = self.load(id)?;
                reloaded.meta = meta;
                reloaded
            }
        };
        Ok((after, ops))
    }

    /// Changes a plan's metadata (lifecycle transitions) under its lock.
    pub fn update_meta<F>(&self, id: &str, change: F) -> Result<Loaded>
    where
        F: FnOnce(&Loaded, &mut Meta) -> Result<()>,
    {
        let dir = self.plan_dir(id)?;
        if !dir.join(META_FILE).exists() {
            return Err(self.unknown_plan(id));
        }
        refuse_symlink(&dir)?;
        let _guard = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
        let mut loaded = self.load(id)?;
        let mut meta = loaded.meta.clone();
        change(&loaded, &mut meta)?;
        meta.updated_at = crate::model::clock::now();
        write_atomic(
            &dir.join(META_FILE),
            crate::wire::json::pretty(&meta.to_json()).as_bytes(),
        )?;
        loaded.meta = meta;
        Ok(loaded)
    }

    /// Creates a plan from a first transaction (no ops: an empty plan).
    pub fn create(&self, id: &str, actor: &str, meta: Meta, bodies: Vec<OpBody>) -> Result<Loaded> {
        let ops = if bodies.is_empty() {
            Vec::new()
        } else {
            transaction(actor, id, 0, bodies)
        };
        self.create_with_ops(id, meta, ops)
    }

    /// Creates a plan holding exactly `ops` (complete transactions). The
    /// folder is built under a temporary name inside the store and renamed
    /// into place, so a plan appears whole or not at all.
    pub fn create_with_ops(&self, id: &str, meta: Meta, ops: Vec<Op>) -> Result<Loaded> {
        let dir = self.plan_dir(id)?;
        // The commands that create a plan then make it current: a `current`
        // that cannot be written refuses before anything is created, not after.
        refuse_special(&self.root.join(CURRENT_FILE))?;
        refuse_too_deep(ops.iter().map(|o| &o.body))?;
        let _guard = lock::acquire(&self.root.join(".lock"), "the store")?;
        if fs::symlink_metadata(&dir).is_ok() {
            return Err(Error::new(
                ErrorKind::DuplicateId,
                format!("a plan `{id}` already exists in {}", self.root.display()),
            )
            .with_help("choose another id, or remove the existing plan first"));
        }
        let tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempdir_in(&self.root)
            .map_err(|e| Error::io("create a temporary folder in", &self.root, &e))?;
        log::write_new(&tmp.path().join(OPS_FILE), &ops)?;
        let meta_text = crate::wire::json::pretty(&meta.to_json());
        let mp = tmp.path().join(META_FILE);
        fs::write(&mp, meta_text).map_err(|e| Error::io("write", &mp, &e))?;
        fs::File::open(&mp)
            .and_then(|f| f.sync_all())
            .map_err(|e| Error::io("sync", &mp, &e))?;
        sync_dir(tmp.path());
        let tmp_path = tmp.keep();
        if let Err(e) = fs::rename(&tmp_path, &dir) {
            let _ = fs::remove_dir_all(&tmp_path);
            return Err(Error::io("move the new plan into", &dir, &e));
        }
        sync_dir(&self.root);
        let (folded, digest, encoded_len) = fold_and_digest(id, &ops, &meta);
        let info = LogInfo {
            max_lamport: ops.iter().map(|o| o.lamport).max().unwrap_or(0),
            ends_with_newline: true,
            head: ops.len() as u64,
            ..LogInfo::default()
        };
        let stamp = checkpoint::log_stamp(&dir.join(OPS_FILE));
        Ok(Loaded {
            plan_id: id.to_string(),
            meta,
            log: info,
            ops: Some(ops),
            folded,
            digest,
            encoded_len,
            stamp,
            cached: None,
        })
    }

    /// Deletes a plan: renamed aside first, so readers see it whole or gone.
    pub fn remove(&self, id: &str) -> Result<()> {
        let dir = self.plan_dir(id)?;
        if !dir.join(META_FILE).exists() {
            return Err(self.unknown_plan(id));
        }
        refuse_symlink(&dir)?;
        let _store = lock::acquire(&self.root.join(".lock"), "the store")?;
        let _plan = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
        let aside = self
            .root
            .join(format!(".tmp-removed-{}", crate::model::mint::tx_id()));
        fs::rename(&dir, &aside).map_err(|e| Error::io("remove", &dir, &e))?;
        sync_dir(&self.root);
        fs::remove_dir_all(&aside).map_err(|e| Error::io("remove", &aside, &e))?;
        if self.current()?.as_deref() == Some(id) {
            let _ = fs::remove_file(self.root.join(CURRENT_FILE));
        }
        Ok(())
    }

    /// The store's current plan id, if set.
    pub fn current(&self) -> Result<Option<String>> {
        let p = self.root.join(CURRENT_FILE);
        refuse_special(&p)?;
        match fs::read_to_string(&p) {
            Ok(s) => {
                let s = s.trim();
                Ok((!s.is_empty()).then(|| s.to_string()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io("read", &p, &e)),
        }
    }

    pub fn set_current(&self, id: &str) -> Result<()> {
        self.plan_dir(id)?;
        let p = self.root.join(CURRENT_FILE);
        refuse_symlink(&p)?;
        write_atomic(&p, format!("{id}\n").as_bytes())
    }

    /// The registry file of the store, if any (both present is an error).
    pub fn registry_path(&self) -> Result<Option<PathBuf>> {
        let y = self.root.join("registry.yaml");
        let j = self.root.join("registry.json");
        refuse_special(&y)?;
        refuse_special(&j)?;
        match (y.is_file(), j.is_file()) {
            (true, true) => Err(Error::new(
                ErrorKind::CorruptStore,
                format!(
                    "the store {} holds both registry.yaml and registry.json; keep one",
                    self.root.display()
                ),
            )),
            (true, false) => Ok(Some(y)),
            (false, true) => Ok(Some(j)),
            (false, false) => Ok(None),
        }
    }

    /// The store's templates folder.
    pub fn templates_dir(&self) -> PathBuf {
        self.root.join("templates")
    }
}

/// Refuses a definition nested deeper than a plan can hold: written anyway,
/// its op line would be refused by the next read (the plan would no longer
/// load), and its document by the next import.
fn refuse_too_deep<'a>(bodies: impl IntoIterator<Item = &'a OpBody>) -> Result<()> {
    use crate::wire::codec::{MAX_DEFINITION_DEPTH, map_depth};
    for b in bodies {
        let (node, def) = match b {
            OpBody::AddNode { node } => (&node.id, &node.definition),
            OpBody::SetNodeDefinition {
                node_id,
                definition,
            } => (node_id, definition),
            _ => continue,
        };
        let depth = map_depth(def);
        if depth > MAX_DEFINITION_DEPTH {
            return Err(Error::invalid(format!(
                "the definition of `{}` is nested {depth} levels deep; a plan holds definitions up to {MAX_DEFINITION_DEPTH} levels (so that its op log and its documents read back); flatten it",
                ids::quote_id(node),
            )));
        }
    }
    Ok(())
}

/// Refuses writes to a plan that is not editable, saying how to proceed.
pub fn ensure_editable(p: &Loaded) -> Result<()> {
    match p.meta.state {
        State::Editable => Ok(()),
        State::Reviewable => Err(Error::new(
            ErrorKind::NotEditable,
            format!(
                "plan {} is reviewable (frozen at revision {}); its content cannot change",
                p.plan_id,
                p.revision()
            ),
        )
        .on_plan(&p.plan_id)
        .fix(Remedy::Unfreeze.when("to edit it again (the freeze is then undone)"))
        .with_help("or submit it as it is")),
        State::Executable => Err(Error::new(
            ErrorKind::NotEditable,
            format!(
                "plan {} is executable (approved); nothing can change it, ever",
                p.plan_id
            ),
        )
        .on_plan(&p.plan_id)
        .fix(Remedy::Clone.when("to keep working on a copy"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Node, NodeKind, Value};
    use crate::wire::codec::MAX_DEFINITION_DEPTH;

    /// A definition `{"x": [[…]]}` exactly `depth` levels deep.
    fn nested(depth: usize) -> crate::model::value::Map {
        let mut v = Value::Array(Vec::new());
        for _ in 2..depth {
            v = Value::Array(vec![v]);
        }
        let mut m = crate::model::value::Map::new();
        m.insert("x".into(), v);
        m
    }

    fn add(store: &Store, id: &str, depth: usize) -> Result<(Loaded, Vec<Op>)> {
        store.commit("plan-d", "t", None, |_| {
            Ok(vec![OpBody::AddNode {
                node: Node {
                    id: id.into(),
                    phase: None,
                    kind: NodeKind::Join,
                    definition: nested(depth),
                },
            }])
        })
    }

    #[test]
    fn a_definition_deeper_than_a_plan_holds_is_refused_before_it_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::init(dir.path(), crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
        store
            .create("plan-d", "t", Meta::new("2026-01-01T00:00:00Z"), vec![])
            .unwrap();
        assert_eq!(crate::wire::codec::map_depth(&nested(7)), 7);
        let e = add(&store, "deep", MAX_DEFINITION_DEPTH + 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidInput, "{}", e.message);
        assert_eq!(store.load("plan-d").unwrap().revision(), 0);
        // At the bound it is written, the plan loads, and its export reads
        // back, as JSON and as YAML.
        add(&store, "edge", MAX_DEFINITION_DEPTH).unwrap();
        let p = store.load("plan-d").unwrap();
        assert_eq!(p.revision(), 1);
        let doc = crate::wire::codec::document_json(p.content(), None, None, None);
        let json = crate::wire::json::pretty(&doc);
        let back = crate::wire::codec::document(&json, crate::wire::Syntax::Json).unwrap();
        assert_eq!(back.nodes, p.content().nodes);
        let yaml = crate::wire::json::yaml(&doc);
        let back = crate::wire::codec::document(&yaml, crate::wire::Syntax::Yaml).unwrap();
        assert_eq!(back.nodes, p.content().nodes);
    }
}
