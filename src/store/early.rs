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
pub(crate) struct Early(Arc<Mutex<Option<JoinHandle<Made>>>>);

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
        let handle = std::thread::Builder::new()
            .name("kept".into())
            .spawn(move || -> Made {
                if !sound(&bytes) {
                    return Box::new(());
                }
                let bytes: Bytes = Arc::new(bytes);
                decoder(&bytes)
            })
            .ok();
        Early(Arc::new(Mutex::new(handle)))
    }

    /// What the decoding made, waiting for it; `None` when there was none,
    /// it was taken already or it panicked.
    pub(crate) fn take(&self) -> Option<Made> {
        let handle = self.0.lock().ok()?.take()?;
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
}
