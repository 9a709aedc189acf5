//! Exclusive file locks with a bounded wait (SPEC §3).

use crate::error::{Error, ErrorKind, Result};
use std::fs::{File, OpenOptions};
use std::path::Path;
use std::time::{Duration, Instant};

/// Held while a write is in progress; released on drop.
#[derive(Debug)]
pub struct LockGuard {
    file: File,
}

impl Drop for LockGuard {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// How long to wait for a lock: `PLANFORGE_LOCK_TIMEOUT_MS`, else 5 s.
pub fn wait_limit() -> Duration {
    std::env::var("PLANFORGE_LOCK_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(5))
}

/// Takes the exclusive lock on `path`, waiting up to [`wait_limit`].
pub fn acquire(path: &Path, what: &str) -> Result<LockGuard> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io("open the lock file", path, &e))?;
    let limit = wait_limit();
    let start = Instant::now();
    let mut pause = Duration::from_millis(2);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(LockGuard { file }),
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
