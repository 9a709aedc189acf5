//! Waiting out the clock tick of the log's last change before a cache
//! keyed by the log's times is written (git's "racily clean" case): a
//! rewrite of the same length within that tick would not move the times,
//! and the cache would be trusted for a log it is not about.
//!
//! File times are taken from the kernel's coarse clock. Where that clock
//! can be read (Linux: `CLOCK_REALTIME_COARSE`, the clock the kernel stamps
//! files with), the wait ends as soon as it shows a time past the log's
//! change time: any change from then on is stamped later. That is one
//! tick of the clock (1–10 ms, 4 ms on most kernels) after the change, and
//! usually less, since the change was made. Elsewhere, or when the clock
//! does not move past the change time within [`TICK`] (a file time ahead
//! of this machine's clock: a network file system), the wait is [`TICK`]
//! from the change, as git waits out its index's timestamp.

use std::os::unix::fs::MetadataExt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Longer than one tick of the coarse clock file times are taken from
/// (1–10 ms): how long after the log's last change its times are trusted
/// to show the next change, when that clock cannot be read.
const TICK: Duration = Duration::from_millis(12);

/// Waits until a change to the log made from now on would show in its
/// times (see the module's doc).
pub(super) fn past_tick(md: &std::fs::Metadata) {
    past_tick_at(md.ctime(), md.ctime_nsec());
}

/// As [`past_tick`], for a log last changed at `ctime` (seconds,
/// nanoseconds).
pub(super) fn past_tick_at(ctime: i64, ctime_nsec: i64) {
    let changed =
        UNIX_EPOCH + Duration::new(ctime.max(0) as u64, ctime_nsec.clamp(0, 999_999_999) as u32);
    if coarse::passed(changed) {
        return;
    }
    match SystemTime::now().duration_since(changed) {
        Ok(since) if since < TICK => std::thread::sleep(TICK - since),
        Ok(_) => {}
        // A clock that went back: wait one tick.
        Err(_) => std::thread::sleep(TICK),
    }
}

#[cfg(target_os = "linux")]
mod coarse {
    use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

    fn read(clock: libc::clockid_t, get: bool) -> Option<Duration> {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec the call writes to.
        let rc = unsafe {
            if get {
                libc::clock_gettime(clock, &mut ts)
            } else {
                libc::clock_getres(clock, &mut ts)
            }
        };
        let secs = u64::try_from(ts.tv_sec).ok()?;
        let nanos = u32::try_from(ts.tv_nsec)
            .ok()
            .filter(|n| *n < 1_000_000_000)?;
        (rc == 0).then(|| Duration::new(secs, nanos))
    }

    /// Whether the coarse clock file times are taken from showed a time
    /// past `changed`, waiting for it at most [`super::TICK`]; false when
    /// it cannot be read or did not get there in that time.
    pub(super) fn passed(changed: SystemTime) -> bool {
        let Ok(changed) = changed.duration_since(UNIX_EPOCH) else {
            return false;
        };
        let Some(res) = read(libc::CLOCK_REALTIME_COARSE, false) else {
            return false;
        };
        // One tick of the clock at most between two reads.
        let step = res.clamp(Duration::from_micros(100), super::TICK);
        let deadline = Instant::now() + super::TICK;
        loop {
            let Some(now) = read(libc::CLOCK_REALTIME_COARSE, true) else {
                return false;
            };
            if now > changed {
                return true;
            }
            // The clock's next tick is at most one tick after what it
            // shows: wait until then, as the fine clock counts.
            let fine = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or(now);
            let next = (now + step).saturating_sub(fine);
            let wait = next.clamp(Duration::from_micros(50), step);
            if Instant::now() + wait > deadline {
                return false;
            }
            std::thread::sleep(wait);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod coarse {
    /// No coarse clock to read here: the fallback waits.
    pub(super) fn passed(_: std::time::SystemTime) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::MetadataExt;

    /// The point of the wait: a change made right after it shows in the
    /// file's change time, however soon after the last one it comes.
    #[test]
    fn a_change_right_after_the_wait_moves_the_change_time() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("ops.jsonl");
        for round in 0..20 {
            std::fs::write(&path, format!("{round:04}")).expect("write");
            let before = std::fs::metadata(&path).expect("stat");
            super::past_tick(&before);
            std::fs::write(&path, format!("{:04}", round + 100)).expect("rewrite");
            let after = std::fs::metadata(&path).expect("stat");
            assert_eq!(before.len(), after.len());
            assert_ne!(
                (before.ctime(), before.ctime_nsec()),
                (after.ctime(), after.ctime_nsec()),
                "round {round}: a same-length rewrite after the wait shows in the change time"
            );
        }
    }

    /// A change time well in the past needs no wait, and one ahead of the
    /// clock (another machine's) is waited out for the fallback's tick:
    /// both return (the bound is far above either wait; it is not a
    /// measure of speed).
    #[test]
    fn old_and_future_change_times_end_the_wait() {
        let t = std::time::Instant::now();
        super::past_tick_at(1_000_000_000, 0);
        let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(3600);
        let secs = ahead
            .duration_since(std::time::UNIX_EPOCH)
            .expect("after 1970");
        super::past_tick_at(secs.as_secs() as i64, 0);
        assert!(t.elapsed() < std::time::Duration::from_secs(10));
    }
}
