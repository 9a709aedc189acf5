//! Exclusive file locks with a bounded wait (SPEC §3).
//!
//! Test hook (`model::hooks`): `PLANFORGE_TEST_HOLD_LOCK_MS=N` makes a
//! process sleep N ms right after it takes a lock, still holding it, so
//! tests can stop (SIGSTOP) a writer that deterministically holds a lock.

use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use std::fs::{File, OpenOptions};
use std::path::Path;
use std::time::{Duration, Instant};

/// Held while a write is in progress; released on drop.
#[derive(Debug)]
pub(crate) struct LockGuard {
    file: File,
    path: std::path::PathBuf,
}

impl LockGuard {
    /// Whether the lock file this guard holds is still the one at its path:
    /// a lock file removed (`git clean -X`) or replaced while held no longer
    /// keeps other writers out, so a writer checks before it commits.
    pub(crate) fn still_held(&self) -> bool {
        same_file(&self.file, &self.path)
    }
}

/// Whether `path` names the file `file` has open.
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::symlink_metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// How long to wait for a lock: `PLANFORGE_LOCK_TIMEOUT_MS`, else 5 s.
pub(crate) fn wait_limit() -> Duration {
    std::env::var("PLANFORGE_LOCK_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(5))
}

/// Takes the exclusive lock on `path`, waiting up to [`wait_limit`].
pub(crate) fn acquire(path: &Path, what: &str) -> Result<LockGuard> {
    // A lock file that is a link could create or lock a file outside the
    // store: refuse it like every other link inside a store.
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Error::new(
            ErrorKind::CorruptStore,
            format!(
                "{} is a symbolic link; planforge does not follow links inside a store, so nothing is read or written outside it",
                path.display()
            ),
        )
        .with_help("remove the link; planforge recreates the lock file when it needs it"));
    }
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(Error::new(
            ErrorKind::CorruptStore,
            format!(
                "{} is not an ordinary file (a folder, pipe or device), so it cannot serve as a lock",
                path.display()
            ),
        )
        .with_help("remove it; planforge recreates the lock file when it needs it"));
    }
    let limit = wait_limit();
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    let mut file = open(path)?;
    loop {
        match file.try_lock() {
            // A lock file removed or replaced while we waited is not the
            // lock any more: take the one at the path now.
            Ok(()) if !same_file(&file, path) && start.elapsed() < limit => {
                let _ = file.unlock();
                file = open(path)?;
            }
            Ok(()) => {
                hold_for_tests();
                return Ok(LockGuard {
                    file,
                    path: path.to_path_buf(),
                });
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                if start.elapsed() >= limit {
                    return Err(Error::new(
                        ErrorKind::StoreBusy,
                        format!("{what} is locked by another planforge process, and it stayed locked for {} ms", limit.as_millis()),
                    )
                    .with_help("retry in a moment; if no other planforge is running, a stopped process may hold the lock (it is released when that process ends)"));
                }
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(25));
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(Error::io("lock", path, &e)),
        }
    }
}

fn open(path: &Path) -> Result<File> {
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io("open the lock file", path, &e))
}

/// The `PLANFORGE_TEST_HOLD_LOCK_MS` hook: sleeps while holding a lock.
fn hold_for_tests() {
    if let Some(ms) = crate::model::hooks::hold_lock_ms() {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_linked_lock_file_is_refused_and_nothing_is_created_where_it_points() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        let link = dir.path().join("lock");
        std::os::unix::fs::symlink(&outside, &link).unwrap();
        let e = acquire(&link, "plan x").unwrap_err();
        assert_eq!(e.kind, ErrorKind::CorruptStore);
        assert!(!outside.exists(), "the lock followed the link");
    }

    #[test]
    fn a_lock_is_exclusive_until_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("lock");
        let held = acquire(&path, "plan x").unwrap();
        let other = File::open(&path).unwrap();
        assert!(matches!(
            other.try_lock(),
            Err(std::fs::TryLockError::WouldBlock)
        ));
        drop(held);
        assert!(other.try_lock().is_ok());
    }
}
