//! The checks' kept state decoded on another thread while the plan is
//! restored (issue 17): a one-shot write at 100,000 nodes spends about a
//! third of its time decoding the state the checks kept (`checkpoint.kept`)
//! and most of the rest restoring the plan and folding the tail on one
//! thread; the decoding needs only the file's bytes, so it starts as soon
//! as they are mapped and the checks take its result when they run.
//!
//! The store does not know what the checks keep: the caller gives a
//! [`Decoder`] (the forge gives `check::incremental::Kept::from_shared`) and
//! takes back what it made as `Box<dyn Any + Send>`. A decoding that
//! panicked or was never started gives nothing, and the checks decode the
//! bytes themselves.

use std::any::Any;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// What the checks make of their kept bytes.
pub(crate) type Made = Box<dyn Any + Send>;

/// A kept state's bytes, shared with what is made of them (the checks
/// keep parts of the mapped file to decode when first used).
pub(crate) type Bytes = Arc<dyn std::ops::Deref<Target = [u8]> + Send + Sync>;

/// A function from a kept state's bytes to what the checks make of them.
pub(crate) type Decode = dyn Fn(&Bytes) -> Made + Send + Sync;

/// Decodes a kept state's bytes (see the module doc).
#[derive(Clone)]
pub(crate) struct Decoder(pub(crate) Arc<Decode>);

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Decoder")
    }
}

/// A decoding under way on another thread, taken once.
#[derive(Clone, Default)]
pub(crate) struct Early(Arc<Running>);

/// The thread of an [`Early`] and the flag that tells it its work is not
/// wanted.
#[derive(Default)]
struct Running {
    handle: Mutex<Option<JoinHandle<Made>>>,
    unwanted: Arc<AtomicBool>,
}

impl Drop for Running {
    /// A decoding nobody took (a refused write, a refold) ends with the
    /// last handle to it, not after: it reads the mapped kept file, and a
    /// thread that outlived its command read a file that another program
    /// had since cut in place — the kernel ends such a read with SIGBUS.
    /// Told its work is not wanted, the thread stops before decoding; one
    /// already decoding is waited for.
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
    /// takes off the caller's); none when no thread can be had (the checks
    /// decode them when they run). Bytes that are not sound make nothing
    /// the checks take (the unit value).
    pub(crate) fn start<B>(
        decoder: &Decoder,
        bytes: B,
        sound: impl FnOnce(&B) -> bool + Send + 'static,
    ) -> Early
    where
        B: std::ops::Deref<Target = [u8]> + Send + Sync + 'static,
    {
        let decoder = decoder.0.clone();
        let unwanted = Arc::new(AtomicBool::new(false));
        let stop = unwanted.clone();
        let handle = std::thread::Builder::new()
            .name("kept".into())
            .spawn(move || -> Made {
                if !sound(&bytes) || stop.load(Ordering::Relaxed) {
                    return Box::new(());
                }
                let bytes: Bytes = Arc::new(bytes);
                decoder(&bytes)
            })
            .ok();
        Early(Arc::new(Running {
            handle: Mutex::new(handle),
            unwanted,
        }))
    }

    /// What the decoding made, waiting for it; `None` when there was none,
    /// it was taken already or it panicked.
    pub(crate) fn take(&self) -> Option<Made> {
        let handle = self.0.handle.lock().ok()?.take()?;
        handle.join().ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The decoding made on the other thread is what the decoder makes
    /// of the state's bytes, taken once; one that panicked gives nothing.
    #[test]
    fn a_decoding_started_early_is_taken_once_and_a_panic_gives_nothing() {
        let sum = Decoder(Arc::new(|b: &Bytes| -> Made {
            Box::new(b.iter().map(|&x| u64::from(x)).sum::<u64>())
        }));
        let early = Early::start(&sum, vec![1u8, 2, 3], |_| true);
        let made = early.take().and_then(|m| m.downcast::<u64>().ok());
        assert_eq!(made.map(|m| *m), Some(6));
        assert!(early.take().is_none(), "taken once");
        assert!(Early::default().take().is_none(), "never started");
        let panics = Decoder(Arc::new(|_: &Bytes| -> Made { panic!("a damaged state") }));
        assert!(Early::start(&panics, vec![1u8], |_| true).take().is_none());
        let unsound = Early::start(&sum, vec![1u8], |_| false).take();
        assert!(
            unsound.is_some_and(|m| m.downcast::<u64>().is_err()),
            "not decoded"
        );
    }

    /// A decoding nobody takes has ended when the last handle to it is
    /// dropped: it does not read its bytes after its command.
    #[test]
    fn a_decoding_nobody_takes_ends_with_its_last_handle() {
        let (started, wait) = std::sync::mpsc::channel();
        let (go, told) = std::sync::mpsc::channel::<()>();
        let told = Mutex::new(told);
        let done = Arc::new(AtomicBool::new(false));
        let flag = done.clone();
        let slow = Decoder(Arc::new(move |_: &Bytes| -> Made {
            started.send(()).unwrap();
            told.lock().unwrap().recv().unwrap();
            std::thread::sleep(std::time::Duration::from_millis(50));
            flag.store(true, Ordering::SeqCst);
            Box::new(())
        }));
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
