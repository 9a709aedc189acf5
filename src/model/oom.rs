//! What the process says when memory runs out (session 29): a clear error
//! and exit code 3, and — when a change was already written to a plan's
//! log — that the change stays, instead of the runtime's abort (exit 134,
//! "memory allocation of N bytes failed"), which read as if the command
//! had changed nothing.
//!
//! The allocator (`main.rs`) calls [`out_of_memory`] when a block cannot
//! be had; the store calls [`wrote`] once a change is in a plan's log.
//! Neither allocates: the plan's id is copied into a fixed buffer, and the
//! message is composed on the stack and written to stderr (stdout under
//! `--format json`) in one write, past the standard library's buffers.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// The longest plan id kept for the message (ids are far shorter).
const ID_MAX: usize = 128;

/// The plan whose log this process last wrote a change to: its id's bytes
/// and their length (0: none yet).
static WROTE: Mutex<([u8; ID_MAX], usize)> = Mutex::new(([0; ID_MAX], 0));

/// Records that a change was written to plan `id`'s log (the append is
/// done: whatever fails after it, the change stays).
pub fn wrote(id: &str) {
    let mut cut = id.len().min(ID_MAX);
    while !id.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut w = WROTE.lock().unwrap_or_else(|e| e.into_inner());
    w.0[..cut].copy_from_slice(&id.as_bytes()[..cut]);
    w.1 = cut;
}

/// The longest path of a temporary file kept for removal.
const PATH_MAX: usize = 4096;

/// The temporary files being written now (a path's bytes, NUL-ended, and
/// its length; 0: a free slot): what [`out_of_memory`] removes, since
/// nothing will finish or rename them. More at once than there are slots
/// are left to the store's sweep of stale temporaries.
static PENDING: [Mutex<([u8; PATH_MAX], usize)>; 4] = [const { Mutex::new(([0; PATH_MAX], 0)) }; 4];

/// A temporary file being written, recorded for removal should memory run
/// out before it is renamed into place or dropped ([`pending`]); the
/// record goes when this does.
pub struct Pending(Option<usize>);

/// Records `path`, a temporary file this process is writing, for removal
/// should memory run out before the returned [`Pending`] is dropped.
pub fn pending(path: &std::path::Path) -> Pending {
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes.is_empty() || bytes.len() >= PATH_MAX || bytes.contains(&0) {
        return Pending(None);
    }
    for (k, slot) in PENDING.iter().enumerate() {
        if let Ok(mut s) = slot.try_lock()
            && s.1 == 0
        {
            s.0[..bytes.len()].copy_from_slice(bytes);
            s.0[bytes.len()] = 0;
            s.1 = bytes.len();
            return Pending(Some(k));
        }
    }
    Pending(None)
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some(k) = self.0 {
            PENDING[k].lock().unwrap_or_else(|e| e.into_inner()).1 = 0;
        }
    }
}

/// Removes the temporary files [`pending`] recorded (without allocating).
fn remove_pending() {
    for slot in &PENDING {
        if let Ok(s) = slot.try_lock()
            && s.1 > 0
        {
            unlink(&s.0[..=s.1]);
        }
    }
}

/// Removes the file at `path` (its bytes, NUL-ended).
#[cfg(unix)]
fn unlink(path: &[u8]) {
    // SAFETY: `path` ends with its NUL and lives through the call.
    unsafe {
        libc::unlink(path.as_ptr().cast());
    }
}

#[cfg(not(unix))]
fn unlink(_path: &[u8]) {}

/// Whether the answer is a JSON document ([`answer_in_json`]).
static JSON: AtomicBool = AtomicBool::new(false);

/// The exit code of the answer already given, once a one-shot command has
/// given it ([`answered`]); -1 before.
static ANSWERED: AtomicI32 = AtomicI32::new(-1);

/// The command's answer is a JSON document (`--format json`): so is the
/// error, on stdout, `{"formatVersion": 1, "error": {"code":
/// "out_of_memory", "message", "help"}}`.
pub fn answer_in_json() {
    JSON.store(true, Ordering::Relaxed);
}

/// A one-shot command's answer is out with exit code `code`: what runs
/// after it (the snapshot it leaves for the next command, a cache) cannot
/// make it fail; memory running out then ends the process with `code`.
pub fn answered(code: u8) {
    ANSWERED.store(i32::from(code), Ordering::Relaxed);
}

/// What to say when `bytes` more could not be had, written without
/// allocating: what happened and whether a change was written before it
/// (and so stays) to `message`, how to go on to `help`.
fn explain(message: &mut impl Write, help: &mut impl Write, bytes: usize) -> std::io::Result<()> {
    write!(
        message,
        "planforge ran out of memory (a block of {bytes} bytes could not be had) and stopped"
    )?;
    let last = WROTE.try_lock().ok();
    let id = last
        .as_ref()
        .and_then(|w| std::str::from_utf8(&w.0[..w.1]).ok())
        .filter(|id| !id.is_empty());
    match id {
        Some(id) => {
            write!(
                message,
                " after its change to plan `{id}` was written to the plan's log: that change stays"
            )?;
            write!(
                help,
                "read it back with `planforge status -p {id}`; to do more, free memory or raise the limit (ulimit -v)"
            )
        }
        None => {
            write!(message, "; nothing was changed")?;
            write!(
                help,
                "free memory or raise the limit (ulimit -v), then run the command again"
            )
        }
    }
}

/// The error for `bytes` more that could not be had, as the command's
/// answer would be: a JSON document ([`answer_in_json`]) or the text
/// every error has on stderr. Written without allocating, from buffers on
/// the stack (a message longer than them is cut).
fn report(out: &mut impl Write, bytes: usize, json: bool) -> std::io::Result<()> {
    let (mut m, mut h) = ([0u8; 512], [0u8; 256]);
    let (mut mc, mut hc) = (
        std::io::Cursor::new(&mut m[..]),
        std::io::Cursor::new(&mut h[..]),
    );
    let _ = explain(&mut mc, &mut hc, bytes);
    let (ml, hl) = (mc.position() as usize, hc.position() as usize);
    let (message, help) = (&m[..ml], &h[..hl]);
    if !json {
        out.write_all(b"error[out_of_memory]: ")?;
        out.write_all(message)?;
        out.write_all(b"\n  help: ")?;
        out.write_all(help)?;
        return out.write_all(b"\n");
    }
    out.write_all(b"{\n  \"formatVersion\": 1,\n  \"error\": {\n    \"code\": \"out_of_memory\",\n    \"message\": \"")?;
    json_text(out, message)?;
    out.write_all(b"\",\n    \"help\": \"")?;
    json_text(out, help)?;
    out.write_all(b"\"\n  }\n}\n")
}

/// `text` inside a JSON string: quotes, backslashes and control
/// characters escaped (a plan id has none, but the text is not trusted).
fn json_text(out: &mut impl Write, text: &[u8]) -> std::io::Result<()> {
    for &b in text {
        match b {
            b'"' => out.write_all(b"\\\"")?,
            b'\\' => out.write_all(b"\\\\")?,
            0..0x20 => write!(out, "\\u{b:04x}")?,
            _ => out.write_all(&[b])?,
        }
    }
    Ok(())
}

/// Set by the first [`out_of_memory`]: another thread's, while the first
/// one says what happened, waits for the process to end instead of ending
/// it with the message half written.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Says that `bytes` more could not be had ([`report`]: on stdout as a
/// JSON document with `--format json`, else on stderr, in one write) and
/// ends the process with exit code 3 (an internal failure), running
/// nothing more that could need memory. After a one-shot command's answer
/// ([`answered`]) it ends with that answer's code and a note instead.
pub fn out_of_memory(bytes: usize) -> ! {
    if ENDING.swap(true, Ordering::AcqRel) {
        // The first one ends the process in a moment; should it not (it
        // is this same thread, out of memory inside the handler), end here.
        std::thread::sleep(std::time::Duration::from_secs(5));
        end(3);
    }
    remove_pending();
    let given = ANSWERED.load(Ordering::Relaxed);
    if given >= 0 {
        let _ = (&*raw(2)).write_all(
            b"note: planforge ran out of memory after its answer, while writing its cache for the next command; the answer stands\n",
        );
        end(given);
    }
    let json = JSON.load(Ordering::Relaxed);
    // The whole message composed first, then written at once: a reader
    // never sees half of it.
    let mut buf = [0u8; 8192];
    let mut at = std::io::Cursor::new(&mut buf[..]);
    let _ = report(&mut at, bytes, json);
    let n = at.position() as usize;
    let _ = (&*raw(if json { 1 } else { 2 })).write_all(&buf[..n]);
    end(3)
}

/// File descriptor `fd` (1: stdout, 2: stderr) written to directly: the
/// standard library's stdout makes its buffer on first use, and that
/// allocation would call here again.
#[cfg(unix)]
fn raw(fd: std::os::fd::RawFd) -> std::mem::ManuallyDrop<std::fs::File> {
    use std::os::fd::FromRawFd;
    // SAFETY: 1 and 2 are open for the whole process (or writes to them
    // fail, which is ignored); ManuallyDrop never closes them.
    std::mem::ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) })
}

/// Elsewhere stderr (unbuffered) takes both.
#[cfg(not(unix))]
fn raw(_fd: i32) -> std::mem::ManuallyDrop<std::io::Stderr> {
    std::mem::ManuallyDrop::new(std::io::stderr())
}

#[cfg(target_os = "linux")]
fn end(code: i32) -> ! {
    // SAFETY: `_exit` ends the process at once; it touches no memory of
    // this process.
    unsafe { libc::_exit(code) }
}

#[cfg(not(target_os = "linux"))]
fn end(code: i32) -> ! {
    std::process::exit(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(bytes: usize, json: bool) -> String {
        let mut out = Vec::new();
        report(&mut out, bytes, json).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_pending_temporary_is_removed_and_a_finished_one_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let (kept, left) = (dir.path().join(".tmp-kept"), dir.path().join(".tmp-left"));
        std::fs::write(&kept, "x").unwrap();
        std::fs::write(&left, "y").unwrap();
        drop(pending(&kept));
        let _writing = pending(&left);
        remove_pending();
        assert!(kept.exists(), "a finished temporary is not the handler's");
        assert!(!left.exists(), "a temporary being written is removed");
    }

    /// One test, in order: the record is process-wide.
    #[test]
    fn the_message_says_whether_a_change_was_written_before() {
        let before = said(4096, false);
        // Another test in this process may have written a change already.
        if before.contains("nothing was changed") {
            assert!(before.contains("a block of 4096 bytes"), "{before}");
            assert!(!before.contains("stays"), "{before}");
        }
        wrote("plan-a");
        let after = said(14336, false);
        assert!(after.starts_with("error[out_of_memory]: "), "{after}");
        assert!(after.contains("a block of 14336 bytes"), "{after}");
        assert!(
            after.contains(
                "change to plan `plan-a` was written to the plan's log: that change stays"
            ),
            "{after}"
        );
        assert!(after.contains("planforge status -p plan-a"), "{after}");
        // A long id is cut on a character's boundary, never mid-character.
        let long = "é".repeat(100);
        wrote(&long);
        let cut = said(1, false);
        assert!(cut.contains(&"é".repeat(64)), "{cut}");
        assert!(!cut.contains(&"é".repeat(65)), "{cut}");
        // As a JSON document: one, parsed whole, its text escaped.
        wrote("plan-\"q\"");
        let doc: serde_json::Value = serde_json::from_str(&said(7, true)).unwrap();
        assert_eq!(doc["formatVersion"], 1);
        assert_eq!(doc["error"]["code"], "out_of_memory");
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(message.contains("a block of 7 bytes"), "{message}");
        assert!(message.contains("plan `plan-\"q\"`"), "{message}");
        let help = doc["error"]["help"].as_str().unwrap();
        assert!(
            help.starts_with("read it back with `planforge status"),
            "{help}"
        );
    }
}
