//! The incremental checks' state beside the snapshot (issue 17):
//! `plan-<name>/checkpoint.kept`, what the checks of a one-shot process
//! kept, so that the next one checks only what changed since instead of
//! the whole plan. The store keeps it as bytes it does not read (the
//! checks write and read them, `check::incremental::Kept`), keyed by the
//! log prefix their content is the fold of ([`Stamp`], the snapshot's
//! scheme), the binary that wrote them and the plan.
//!
//! ```text
//! magic (8) | checksum of the rest (8) | binary | plan | stamp | state
//! ```
//!
//! (each of the last four a length and its bytes, the stamp as
//! [`Stamp::put`] writes it). Like the snapshot it is a cache that never
//! decides: verdicts (freeze, submit, validate) never read it, a file that
//! is missing, damaged, cut, another binary's or another plan's, or keyed
//! by a prefix that is not the log's means "check everything", and a
//! failure to write it is ignored. Its name matches `*/checkpoint*`, so
//! git ignores it as it ignores the snapshot.

use super::chunks::checksum;
use super::stamp::{Reader, Stamp};
use crate::store::load::KeptState as State;
use std::io::Write;
use std::path::Path;

/// The file's name, beside `ops.jsonl`.
pub(crate) const FILE: &str = "checkpoint.kept";
/// The file starts with this (the layout's version is its last byte).
const MAGIC: &[u8; 8] = b"PFKEPT\x00\x01";

/// The largest kept state read for a log of `log_len` bytes: the state is
/// about the plan the log folds to (at 100,000 nodes, 21 MB beside an 80 MB
/// log), so a file far larger is not one this binary wrote for it and is
/// not read into memory.
pub(crate) fn limit(log_len: u64) -> u64 {
    log_len.saturating_mul(8).max(16 << 20)
}

/// The state kept in `dir` for plan `plan_id` by this binary, and the log
/// prefix it is about; `None` for anything else, and for a file of more
/// than `max` bytes.
pub(crate) fn read(dir: &Path, plan_id: &str, max: u64) -> Option<(Stamp, State)> {
    let path = dir.join(FILE);
    // Only an ordinary file of a sane size: not a link, not a pipe that
    // never ends.
    let md = std::fs::symlink_metadata(&path).ok()?;
    if !md.file_type().is_file() || md.len() > max {
        return None;
    }
    // Mapped, not read: the kept state of a large plan (24 MB at 100,000
    // nodes) is used where it lies in the page cache instead of copied
    // into fresh memory. The file is only ever replaced by a rename (see
    // [`write`]), so the mapped bytes do not change under the reader.
    let file = std::fs::File::open(&path).ok()?;
    let opened = file.metadata().ok()?;
    if !opened.file_type().is_file() || opened.len() > max {
        return None;
    }
    // SAFETY: planforge never writes this file in place (a new state is a
    // new file renamed over it), so the mapping is not changed by another
    // planforge process while it is read.
    let bytes = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return None;
    }
    // The checksum is read when the state is used (`State::sound`): the
    // rest of the file is read here as it lies, with every length checked.
    let sum = u64::from_le_bytes(bytes[8..16].try_into().ok()?);
    let mut r = Reader(&bytes[16..]);
    let binary = r.bytes()?;
    let plan = r.bytes()?;
    if binary != super::super::checkpoint::binary_identity().as_bytes()
        || plan != plan_id.as_bytes()
    {
        return None;
    }
    let (stamp, rest) = Stamp::get(r.0)?;
    let mut r = Reader(rest);
    let state = r.bytes()?;
    if !r.0.is_empty() {
        return None;
    }
    // The state is the file's end: it is read in place (not copied out).
    let at = bytes.len() - state.len();
    Some((stamp, State::new(bytes, at, (16, sum, checksum))))
}

/// Keeps `state` for plan `plan_id`, about the log prefix `stamp`: a
/// temporary file renamed into place (a reader sees the old file or the
/// new one, whole).
pub(super) fn write(dir: &Path, plan_id: &str, stamp: &Stamp, state: &[u8]) -> std::io::Result<()> {
    let mut body = Vec::with_capacity(state.len() + 8192);
    let binary = super::super::checkpoint::binary_identity();
    for part in [binary.as_bytes(), plan_id.as_bytes()] {
        body.extend_from_slice(&(part.len() as u64).to_le_bytes());
        body.extend_from_slice(part);
    }
    stamp.put(&mut body);
    body.extend_from_slice(&(state.len() as u64).to_le_bytes());
    body.extend_from_slice(state);
    let mut tmp = crate::store::atomic::Temp::in_dir(dir)?;
    {
        let f = tmp.as_file_mut();
        f.write_all(MAGIC)?;
        f.write_all(&checksum(&body).to_le_bytes())?;
        f.write_all(&body)?;
    }
    tmp.persist(&dir.join(FILE))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_state_larger_than_the_limit_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join(crate::store::OPS_FILE);
        std::fs::write(&log, "{}\n").unwrap();
        let md = std::fs::metadata(&log).unwrap();
        let file = std::fs::File::open(&log).unwrap();
        let stamp = Stamp::read(&file, &md).unwrap();
        write(dir.path(), "plan-k", &stamp, &[7u8; 1000]).unwrap();
        let size = std::fs::metadata(dir.path().join(FILE)).unwrap().len();
        let (_, state) = read(dir.path(), "plan-k", size).unwrap();
        assert_eq!(&*state, &[7u8; 1000][..]);
        assert!(read(dir.path(), "plan-k", size - 1).is_none());
        assert_eq!(limit(1), 16 << 20);
        assert_eq!(limit(100 << 20), 800 << 20);
    }
}
