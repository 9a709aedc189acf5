//! What planforge itself appended to a plan's log (`checkpoint.appends`,
//! beside `ops.jsonl`, ignored by git as the other checkpoint files).
//!
//! A kept fold (a warm session's, or the snapshot a one-shot command reads)
//! is the fold of a prefix of the log, known by the log's stamp when it was
//! read: device, inode, length and change time (ctime, which every write
//! moves and no user process can set back). When the log is longer now, the
//! fold can be extended by the new bytes only if nothing but appends
//! happened since: an editor that rewrote a byte in the middle and a later
//! append look, by length and by the bytes at the ends, the same as two
//! appends.
//!
//! So every append under the plan's lock records here the stamp before and
//! after it: a run of stamps `start … end` such that the log went from
//! `start` to `end` by planforge's appends only. The run continues while
//! each append finds the log at the last recorded `end`; a log found
//! anywhere else (written by something else) starts a new run there. A
//! reader trusts a longer log only when it is at the run's `end` and the
//! reader's own stamp lies inside the run; otherwise it verifies the
//! prefix byte for byte or folds the log afresh.
//!
//! Like git's index, it trusts the clock of file times: a rewrite by some
//! other program within the same clock tick as a planforge append, to the
//! same length, is not seen. It is a cache: a missing, unreadable or
//! damaged file only means "verify", never an error.

use std::fs::{Metadata, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

/// A file's identity, length and last change (ctime): what must not have
/// moved while a log was read for it to be kept.
pub(crate) type Stamp = (u64, u64, u64, i64, i64);

pub(crate) fn stamp(md: &Metadata) -> Stamp {
    (md.dev(), md.ino(), md.len(), md.ctime(), md.ctime_nsec())
}

/// The file's name, beside `ops.jsonl`.
pub(crate) const FILE: &str = "checkpoint.appends";
/// The first word of the file (its format).
const MAGIC: &str = "planforge-appends-1";
/// Longer than any record: more is not ours.
const MAX_LEN: u64 = 512;

/// A run of planforge appends: the log went from `start` to `end` by them
/// alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    start: Stamp,
    end: Stamp,
}

/// Records an append to the log in `dir` under the plan's lock: `before`
/// is the log's metadata right before it (`None`: there was no log), `after`
/// right after. `pure` says the append only added bytes at the end (no
/// torn tail cut off, no rewrite). Failures are ignored.
pub(crate) fn record(dir: &Path, before: Option<&Metadata>, after: &Metadata, pure: bool) {
    let end = stamp(after);
    let start = match (before.map(stamp), read(dir)) {
        (Some(b), Some(run)) if pure && run.end == b => run.start,
        (Some(b), _) if pure => b,
        _ => end,
    };
    let _ = write(dir, Run { start, end });
}

/// Whether the log in `dir`, whose metadata is `now`, went from `since`
/// (the stamp of a prefix of it some fold was made from) to `now` by
/// planforge's appends only.
pub(crate) fn vouches(dir: &Path, since: &Stamp, now: &Metadata) -> bool {
    let now = stamp(now);
    let Some(run) = read(dir) else {
        return false;
    };
    let same_file = |s: &Stamp| (s.0, s.1) == (now.0, now.1);
    run.end == now
        && same_file(&run.start)
        && same_file(since)
        && run.start.2 <= since.2
        && since.2 <= now.2
        && (run.start.3, run.start.4) <= (since.3, since.4)
        && (since.3, since.4) <= (now.3, now.4)
}

fn read(dir: &Path) -> Option<Run> {
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(dir.join(FILE))
        .ok()?;
    let md = file.metadata().ok()?;
    if !md.file_type().is_file() || md.len() > MAX_LEN {
        return None;
    }
    let mut text = String::new();
    (&mut file).take(MAX_LEN).read_to_string(&mut text).ok()?;
    parse(&text)
}

fn parse(text: &str) -> Option<Run> {
    let mut words = text.strip_suffix('\n')?.split(' ');
    if words.next()? != MAGIC {
        return None;
    }
    let mut n = || words.next()?.parse::<i64>().ok();
    let mut stamp = || -> Option<Stamp> {
        Some((
            u64::try_from(n()?).ok()?,
            u64::try_from(n()?).ok()?,
            u64::try_from(n()?).ok()?,
            n()?,
            n()?,
        ))
    };
    let run = Run {
        start: stamp()?,
        end: stamp()?,
    };
    words.next().is_none().then_some(run)
}

fn text(run: &Run) -> String {
    let s = |s: &Stamp| format!("{} {} {} {} {}", s.0, s.1, s.2, s.3, s.4);
    format!("{MAGIC} {} {}\n", s(&run.start), s(&run.end))
}

/// Replaces the file: a temporary file renamed into place, not synced (a
/// record lost or torn by a crash reads as none).
fn write(dir: &Path, run: Run) -> std::io::Result<()> {
    let mut tmp = super::atomic::Temp::in_dir(dir)?;
    tmp.write_all(text(&run).as_bytes())?;
    tmp.persist(&dir.join(FILE))?;
    Ok(())
}

/// The log's metadata, when it is an ordinary file.
pub(crate) fn metadata(path: &Path) -> Option<Metadata> {
    let md = std::fs::symlink_metadata(path).ok()?;
    md.file_type().is_file().then_some(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn append(path: &Path, bytes: &[u8]) {
        let mut f = OpenOptions::new().append(true).open(path).unwrap();
        f.write_all(bytes).unwrap();
    }

    /// Waits out the file-time clock tick, so the next write moves ctime.
    fn tick() {
        std::thread::sleep(std::time::Duration::from_millis(25));
    }

    #[test]
    fn a_run_of_appends_vouches_for_a_prefix_inside_it_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("ops.jsonl");
        std::fs::write(&log, b"one\n").unwrap();
        let first = metadata(&log).unwrap();
        let since = stamp(&first);
        // Nothing recorded yet: nothing vouched for.
        tick();
        append(&log, b"two\n");
        assert!(!vouches(dir.path(), &since, &metadata(&log).unwrap()));
        // Two recorded appends from `first`.
        let b = metadata(&log).unwrap();
        record(dir.path(), Some(&first), &b, true);
        tick();
        append(&log, b"three\n");
        let c = metadata(&log).unwrap();
        record(dir.path(), Some(&b), &c, true);
        assert!(vouches(dir.path(), &since, &c));
        assert!(vouches(dir.path(), &stamp(&b), &c));
        // A rewrite in place by someone else, then an append: the run
        // starts again where the append found the log.
        tick();
        let f = OpenOptions::new().write(true).open(&log).unwrap();
        std::os::unix::fs::FileExt::write_all_at(&f, b"ONE", 0).unwrap();
        let edited = metadata(&log).unwrap();
        assert!(!vouches(dir.path(), &since, &edited));
        tick();
        append(&log, b"four\n");
        let d = metadata(&log).unwrap();
        record(dir.path(), Some(&edited), &d, true);
        assert!(!vouches(dir.path(), &since, &d));
        assert!(!vouches(dir.path(), &stamp(&c), &d));
        assert!(vouches(dir.path(), &stamp(&edited), &d));
        // An append that cut a torn tail or rewrote the log starts a run
        // at its own end.
        record(dir.path(), Some(&edited), &d, false);
        assert!(!vouches(dir.path(), &stamp(&edited), &d));
        assert!(vouches(dir.path(), &stamp(&d), &d));
    }

    #[test]
    fn a_damaged_or_foreign_record_vouches_for_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("ops.jsonl");
        std::fs::write(&log, b"one\n").unwrap();
        let md = metadata(&log).unwrap();
        let s = stamp(&md);
        let good = text(&Run { start: s, end: s });
        assert_eq!(parse(&good), Some(Run { start: s, end: s }));
        for bad in [
            String::new(),
            good.trim_end().to_string(),
            good.replace(MAGIC, "planforge-appends-0"),
            format!("{} 7\n", good.trim_end()),
            good.replacen(' ', " -", 2),
        ] {
            std::fs::write(dir.path().join(FILE), &bad).unwrap();
            assert!(!vouches(dir.path(), &s, &md), "{bad:?}");
        }
        // A symlink to a good record elsewhere is not read.
        let other = tempfile::tempdir().unwrap();
        std::fs::write(other.path().join(FILE), &good).unwrap();
        std::fs::remove_file(dir.path().join(FILE)).unwrap();
        std::os::unix::fs::symlink(other.path().join(FILE), dir.path().join(FILE)).unwrap();
        assert!(!vouches(dir.path(), &s, &md));
        std::fs::remove_file(dir.path().join(FILE)).unwrap();
        std::fs::write(dir.path().join(FILE), &good).unwrap();
        assert!(vouches(dir.path(), &s, &md));
    }
}
