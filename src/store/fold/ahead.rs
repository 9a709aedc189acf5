//! Digests computed ahead (issue 17): one long-lived worker thread per warm
//! session hashes the digest of a fold a write has just made, while the
//! write checks and answers, so that a read that follows finds it made.
//!
//! The guarantees are those of a thread per write, which this replaces: a
//! read that names the digest waits for the one under way (or hashes it
//! itself when none is); a write that folds on top of a fold stops its
//! digest first and waits until the worker lets go of the fold (so the
//! write folds on top of it without a copy); a stopped digest keeps
//! nothing. What the worker saves is a thread started and ended per write
//! (and the allocator's heap of each ended thread, whose blocks the main
//! thread then freed one by one).

use super::Folded;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// How long the worker waits before it starts hashing a fold given with a
/// pause: a client that sends its next call at once (a script, pipelined
/// requests) is a write that would only stop it, or a read that starts it
/// at once; a model thinks for much longer than this between its calls.
pub(super) const AHEAD_PAUSE: std::time::Duration = std::time::Duration::from_millis(5);

/// The state of one fold's digest computed ahead.
#[derive(Debug, Default)]
pub(super) struct Ahead {
    /// True from when it is given to the worker until the worker let go
    /// of the fold (done, stopped, or taken off the queue).
    running: Mutex<bool>,
    idle: Condvar,
    /// Wakes the worker from its pause ([`AHEAD_PAUSE`]).
    wake: Condvar,
    /// Set when the digest is no longer wanted (the worker gives up).
    stop: AtomicBool,
    /// Set when a reader wants it now (the worker starts at once).
    now: AtomicBool,
}

impl Ahead {
    fn lock(&self) -> MutexGuard<'_, bool> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Marks it under way; false when it is already.
    pub(super) fn start(&self) -> bool {
        let mut running = self.lock();
        if *running {
            return false;
        }
        *running = true;
        self.stop.store(false, Relaxed);
        self.now.store(false, Relaxed);
        true
    }

    /// Waits until the worker let go of the fold, waking it from its pause
    /// when it waits to start.
    pub(super) fn wait(&self) {
        let mut running = self.lock();
        if *running {
            self.now.store(true, Relaxed);
            self.wake.notify_all();
        }
        while *running {
            running = self.idle.wait(running).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// The worker's pause before it starts: whether to go on (not stopped).
    pub(super) fn pause(&self) -> bool {
        let running = self.lock();
        let _ = self
            .wake
            .wait_timeout_while(running, AHEAD_PAUSE, |_| {
                !self.stop.load(Relaxed) && !self.now.load(Relaxed)
            })
            .unwrap_or_else(|p| p.into_inner());
        !self.stop.load(Relaxed)
    }

    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    pub(super) fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }

    /// Asks the worker to give up, waking it from its pause.
    fn ask_stop(&self) {
        self.stop.store(true, Relaxed);
        let _held = self.lock();
        self.wake.notify_all();
    }

    fn done(&self) {
        *self.lock() = false;
        self.idle.notify_all();
    }
}

/// A fold's own [`Ahead`]: a copy of the fold starts with none running.
#[derive(Debug, Default)]
pub(super) struct AheadCell(pub(super) Arc<Ahead>);

impl Clone for AheadCell {
    fn clone(&self) -> AheadCell {
        AheadCell::default()
    }
}

/// A fold given to the worker, and whether it waits before it starts.
struct Job {
    folded: Arc<Folded>,
    pause: bool,
}

/// What the session and its worker share.
#[derive(Default)]
struct Queue {
    jobs: Mutex<Jobs>,
    ready: Condvar,
}

#[derive(Default)]
struct Jobs {
    waiting: VecDeque<Job>,
    /// Whether the worker thread was started.
    started: bool,
    /// Set when the session lets go of the worker (the thread ends).
    closed: bool,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, Jobs> {
        self.jobs.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Takes the job of `ahead` off the queue when it has not started.
    fn take(&self, ahead: &Arc<Ahead>) -> Option<Job> {
        let mut jobs = self.lock();
        let at = jobs
            .waiting
            .iter()
            .position(|j| Arc::ptr_eq(&j.folded.ahead.0, ahead))?;
        jobs.waiting.remove(at)
    }

    /// The worker thread: one job after another until the session closes.
    fn run(&self) {
        loop {
            let job = {
                let mut jobs = self.lock();
                loop {
                    if jobs.closed {
                        // Given up: each fold let go of, then marked idle.
                        let rest: Vec<Job> = jobs.waiting.drain(..).collect();
                        drop(jobs);
                        for job in rest {
                            let _idle = Idle(job.folded.ahead.0.clone());
                            drop(job);
                        }
                        return;
                    }
                    if let Some(job) = jobs.waiting.pop_front() {
                        break job;
                    }
                    jobs = self.ready.wait(jobs).unwrap_or_else(|p| p.into_inner());
                }
            };
            // Marks the digest idle once the fold is let go of (`job`,
            // declared after it, is dropped first), even after a panic,
            // which ends that job only.
            let _idle = Idle(job.folded.ahead.0.clone());
            let Job { folded, pause } = job;
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                folded.digest_on_worker(pause);
            }));
        }
    }
}

/// Marks an [`Ahead`] idle when dropped.
struct Idle(Arc<Ahead>);

impl Drop for Idle {
    fn drop(&mut self) {
        self.0.done();
    }
}

/// A warm session's digest worker: one thread, started with the first
/// digest it is given, that hashes the folds given to it one after
/// another, and ends when the session lets go of it.
#[derive(Default)]
pub(crate) struct Worker {
    queue: Arc<Queue>,
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let jobs = self.queue.lock();
        f.debug_struct("Worker")
            .field("started", &jobs.started)
            .field("waiting", &jobs.waiting.len())
            .finish()
    }
}

impl Worker {
    /// Gives `folded` to the worker (`ahead`, its own, marked under way),
    /// starting the thread the first time; `None` (and nothing under way)
    /// when no thread can be started: the digest is then computed when it
    /// is asked for.
    pub(super) fn submit(
        &self,
        folded: Arc<Folded>,
        pause: bool,
        ahead: Arc<Ahead>,
    ) -> Option<DigestAhead> {
        let mut jobs = self.queue.lock();
        if !jobs.started {
            let queue = self.queue.clone();
            let spawned = std::thread::Builder::new()
                .name("digest-ahead".into())
                .spawn(move || queue.run());
            if spawned.is_err() {
                drop(jobs);
                drop(folded);
                ahead.done();
                return None;
            }
            jobs.started = true;
        }
        jobs.waiting.push_back(Job { folded, pause });
        drop(jobs);
        self.queue.ready.notify_one();
        Some(DigestAhead {
            ahead,
            queue: self.queue.clone(),
        })
    }

    /// Whether the worker thread was started (for tests).
    #[cfg(test)]
    pub(crate) fn started(&self) -> bool {
        self.queue.lock().started
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.queue.lock().closed = true;
        self.queue.ready.notify_all();
    }
}

/// One fold's digest given to the worker (see [`Folded::digest_ahead`]).
/// Dropped, it asks the worker to give up without waiting for it.
pub(crate) struct DigestAhead {
    ahead: Arc<Ahead>,
    queue: Arc<Queue>,
}

impl std::fmt::Debug for DigestAhead {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DigestAhead").finish_non_exhaustive()
    }
}

impl DigestAhead {
    /// Stops the digest and waits until the worker let go of the fold (a
    /// write is about to fold on top of it, without copying it): taken
    /// off the queue when it has not started. What was computed before it
    /// stopped is kept only if it finished.
    pub(crate) fn stop(self) {
        if let Some(job) = self.queue.take(&self.ahead) {
            drop(job);
            self.ahead.done();
            return;
        }
        self.ahead.ask_stop();
        self.ahead.wait();
    }
}

impl Drop for DigestAhead {
    fn drop(&mut self) {
        self.ahead.ask_stop();
    }
}
