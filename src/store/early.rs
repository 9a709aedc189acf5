//! The checks' kept state decoded on another thread while the plan is
//! restored (issue 17): a one-shot write at 100,000 nodes spends about a
//! third of its time decoding the state the checks kept (`checkpoint.kept`)
//! and most of the rest restoring the plan and folding the tail on one
//! thread; the decoding needs only the file's bytes, so it starts as soon
//! as they are mapped and the checks take its result when they run.
//!
//! The state is read in parts, and the checks that take the result read
//! the parts not read yet themselves ([`Early::take`]), beside the decoding
//! thread, instead of waiting for it with a core idle (session 23). (The
//! main thread reading parts once its share of the restore was done, before
//! its own work after the restore, made a `connect` at 100,000 nodes
//! slower: a large part it claimed just before the restore ended held up
//! that work.)
//!
//! The store does not know what the checks keep: the caller gives a
//! [`Decoder`] (the forge gives one over `check::incremental::Kept`'s
//! parts) and takes back what it made as `Box<dyn Any + Send>`. A
//! decoding that panicked or was never started gives nothing, and the
//! checks decode the bytes themselves.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// What the checks make of their kept bytes.
pub(crate) type Made = Box<dyn Any + Send>;

/// A kept state's bytes, shared with what is made of them (the checks
/// keep parts of the mapped file to decode when first used).
pub(crate) type Bytes = Arc<dyn std::ops::Deref<Target = [u8]> + Send + Sync>;

/// A kept state being read in parts by any thread that helps.
pub(crate) trait Job: Send + Sync {
    /// Reads parts nobody claimed yet, until none is left or `stop` says
    /// so (asked before each).
    fn help(&self, stop: &dyn Fn() -> bool);
    /// What the parts make (reading those left here), once no other
    /// thread reads them.
    fn made(&self) -> Made;
}

/// Opens a kept state's bytes for reading in parts; `None` when they are
/// not such a state (nothing is started then).
pub(crate) type Open = dyn Fn(&Bytes) -> Option<Arc<dyn Job>> + Send + Sync;

/// Decodes a kept state's bytes (see the module doc).
#[derive(Clone)]
pub(crate) struct Decoder(pub(crate) Arc<Open>);

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Decoder")
    }
}

/// A decoding under way on another thread, taken once.
#[derive(Clone, Default)]
pub(crate) struct Early(Arc<Running>);

/// The thread of an [`Early`] (which says whether the bytes were sound),
/// the reading it helps, and the flag that tells it its work is not
/// wanted.
#[derive(Default)]
struct Running {
    handle: Mutex<Option<JoinHandle<bool>>>,
    job: Option<Arc<dyn Job>>,
    unwanted: Arc<AtomicBool>,
}

impl Drop for Running {
    /// A decoding nobody took (a refused write, a refold) ends with the
    /// last handle to it, not after: it reads the mapped kept file, and a
    /// thread that outlived its command read a file that another program
    /// had since cut in place — the kernel ends such a read with SIGBUS.
    /// Told its work is not wanted, the thread stops before its next part;
    /// one it is reading is waited for.
    fn drop(&mut self) {
        self.unwanted.store(true, Ordering::Relaxed);
        let handle = match self.handle.get_mut() {
            Ok(h) => h.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

impl std::fmt::Debug for Early {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Early")
    }
}

impl Early {
    /// `bytes` decoded by `decoder` on a new thread, once `sound` says
    /// they are whole (their checksum: reading it is work this thread
    /// takes off the caller's); none when they are not a kept state or no
    /// thread can be had (the checks decode them when they run). Bytes
    /// that are not sound make nothing the checks take (the unit value).
    pub(crate) fn start<B>(
        decoder: &Decoder,
        bytes: B,
        sound: impl FnOnce(&B) -> bool + Send + 'static,
    ) -> Early
    where
        B: std::ops::Deref<Target = [u8]> + Clone + Send + Sync + 'static,
    {
        let shared: Bytes = Arc::new(bytes.clone());
        let Some(job) = (decoder.0)(&shared) else {
            return Early::default();
        };
        let unwanted = Arc::new(AtomicBool::new(false));
        let (stop, reader) = (unwanted.clone(), job.clone());
        let handle = std::thread::Builder::new()
            .name("kept".into())
            .spawn(move || -> bool {
                if !sound(&bytes) || stop.load(Ordering::Relaxed) {
                    return false;
                }
                reader.help(&|| stop.load(Ordering::Relaxed));
                true
            })
            .ok();
        Early(Arc::new(Running {
            handle: Mutex::new(handle),
            job: Some(job),
            unwanted,
        }))
    }

    /// What the decoding made, reading the parts left here and waiting
    /// for the thread; `None` when there was none, it was taken already
    /// or it panicked.
    pub(crate) fn take(&self) -> Option<Made> {
        let handle = self.0.handle.lock().ok()?.take()?;
        let job = self.0.job.as_ref()?;
        let helped = catch_unwind(AssertUnwindSafe(|| job.help(&|| false)));
        if !handle.join().ok()? {
            // Not sound (or not wanted): nothing decoded is used.
            return Some(Box::new(()));
        }
        helped.ok()?;
        catch_unwind(AssertUnwindSafe(|| job.made())).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How the test states are read.
    type Read = Arc<dyn Fn(&[u8]) -> u64 + Send + Sync>;

    /// A state of one part, read by `read` on whichever thread claims it.
    struct One {
        bytes: Bytes,
        claimed: AtomicBool,
        read: Read,
        out: Mutex<Option<u64>>,
    }

    impl Job for One {
        fn help(&self, stop: &dyn Fn() -> bool) {
            if stop() || self.claimed.swap(true, Ordering::SeqCst) {
                return;
            }
            let v = (self.read)(&self.bytes);
            *self.out.lock().unwrap() = Some(v);
        }
        fn made(&self) -> Made {
            self.help(&|| false);
            Box::new(self.out.lock().unwrap().take())
        }
    }

    fn decoder(read: impl Fn(&[u8]) -> u64 + Send + Sync + 'static) -> Decoder {
        let read: Read = Arc::new(read);
        Decoder(Arc::new(move |b: &Bytes| -> Option<Arc<dyn Job>> {
            Some(Arc::new(One {
                bytes: b.clone(),
                claimed: AtomicBool::new(false),
                read: read.clone(),
                out: Mutex::new(None),
            }))
        }))
    }

    /// The decoding made on the other thread (or by the taker, when it
    /// claims the part first) is what the decoder makes of the state's
    /// bytes, taken once; one that panicked gives nothing, as do bytes the
    /// decoder refuses.
    #[test]
    fn a_decoding_started_early_is_taken_once_and_a_panic_gives_nothing() {
        let sum = decoder(|b| b.iter().map(|&x| u64::from(x)).sum());
        let early = Early::start(&sum, vec![1u8, 2, 3], |_| true);
        let made = early.take().and_then(|m| m.downcast::<Option<u64>>().ok());
        assert_eq!(made.map(|m| *m), Some(Some(6)));
        assert!(early.take().is_none(), "taken once");
        assert!(Early::default().take().is_none(), "never started");
        let panics = decoder(|_| panic!("a damaged state"));
        assert!(Early::start(&panics, vec![1u8], |_| true).take().is_none());
        let refused = Decoder(Arc::new(|_: &Bytes| -> Option<Arc<dyn Job>> { None }));
        assert!(Early::start(&refused, vec![1u8], |_| true).take().is_none());
        let unsound = Early::start(&sum, vec![1u8], |_| false).take();
        assert!(
            unsound.is_some_and(|m| m.downcast::<Option<u64>>().is_err()),
            "not decoded"
        );
    }

    /// A decoding nobody takes has ended when the last handle to it is
    /// dropped: it does not read its bytes after its command.
    #[test]
    fn a_decoding_nobody_takes_ends_with_its_last_handle() {
        let (started, wait) = std::sync::mpsc::channel();
        let (go, told) = std::sync::mpsc::channel::<()>();
        let (started, told) = (Mutex::new(started), Mutex::new(told));
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        let slow = decoder(move |_| {
            started.lock().unwrap().send(()).unwrap();
            told.lock().unwrap().recv().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(50));
            flag.store(true, Ordering::SeqCst);
            0
        });
        let early = Early::start(&slow, vec![1u8], |_| true);
        let other = early.clone();
        wait.recv().unwrap();
        drop(early);
        assert!(!done.load(Ordering::SeqCst), "a handle is left");
        go.send(()).unwrap();
        drop(other);
        assert!(done.load(Ordering::SeqCst), "the decoding ended first");
    }
}
