//! The kept state read in parts by whichever threads are free (issue 17,
//! session 23).
//!
//! A one-shot write at 100,000 nodes has three threads of work for two
//! cores: the plan's restore on two (the main thread and one more) and
//! the kept state's decoding on a third. When the main thread was done
//! with its own work before the decoding, it waited for it with a core
//! idle. Written as parts, each a buffer of its own
//! ([`super::kept_disk::Out::part`]), the state is read by every thread
//! that asks: each claims the next part not claimed yet (largest first),
//! so that the main thread, when it wants the state, reads the parts left
//! beside the decoding thread instead of waiting for it.
//!
//! A part is read whole by the one thread that claimed it; what it made
//! waits in its slot until the thread that reads the last part joins them
//! all, and [`Parts::take`] (called once every other thread reading parts
//! has stopped) gives what they joined into.

use super::kept_disk::{In, Shared};
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The parts of a kept state, each read once by whichever thread claims
/// it, and what they make together (`T`), made by the thread that reads
/// the last part.
pub(crate) struct Parts<P, T> {
    bytes: Shared,
    /// Where each part lies in `bytes`.
    spans: Vec<Range<usize>>,
    /// The parts in the order they are claimed (the largest first: the
    /// last one claimed is then a short one, and the threads end
    /// together).
    order: &'static [usize],
    /// How many of `order` were claimed.
    next: AtomicUsize,
    /// Per part: what it read as (`Some(None)`: it does not read back).
    made: Vec<Mutex<Option<Option<P>>>>,
    /// How many parts were read.
    done: AtomicUsize,
    read: fn(usize, &mut In<'_>) -> Option<P>,
    join: fn(Vec<P>) -> Option<T>,
    /// What the parts made together, once every one was read.
    joined: Mutex<Option<T>>,
}

/// `m` locked (what a thread that panicked left in it is whole: each
/// slot is set by one assignment).
fn lock<V>(m: &Mutex<V>) -> std::sync::MutexGuard<'_, V> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl<P: Send, T: Send> Parts<P, T> {
    /// The parts of `bytes`, after what `head` reads (and accepts), each
    /// read by `read` with its number and all of them joined by `join`;
    /// `None` when the bytes are not such parts, one per entry of `order`
    /// (a permutation of their numbers).
    pub(crate) fn open(
        bytes: &Shared,
        head: impl FnOnce(&mut In<'_>) -> Option<()>,
        order: &'static [usize],
        read: fn(usize, &mut In<'_>) -> Option<P>,
        join: fn(Vec<P>) -> Option<T>,
    ) -> Option<Parts<P, T>> {
        debug_assert!((0..order.len()).all(|k| order.contains(&k)));
        let mut inp = In::open_shared(bytes)?;
        head(&mut inp)?;
        let spans = (0..order.len())
            .map(|_| inp.part_span())
            .collect::<Option<Vec<_>>>()?;
        inp.is_empty().then(|| Parts {
            bytes: bytes.clone(),
            spans,
            order,
            next: AtomicUsize::new(0),
            made: order.iter().map(|_| Mutex::new(None)).collect(),
            done: AtomicUsize::new(0),
            read,
            join,
            joined: Mutex::new(None),
        })
    }

    /// Reads parts not claimed yet, one after the other, until none is
    /// left or `stop` says so (asked before each); the thread that reads
    /// the last part joins them all.
    pub(crate) fn help(&self, stop: &dyn Fn() -> bool) {
        while !stop() {
            let Some(&k) = self.order.get(self.next.fetch_add(1, Ordering::Relaxed)) else {
                return;
            };
            let made = In::open_part(&self.bytes, self.spans[k].clone()).and_then(|mut inp| {
                let v = (self.read)(k, &mut inp)?;
                inp.is_empty().then_some(v)
            });
            *lock(&self.made[k]) = Some(made);
            if self.done.fetch_add(1, Ordering::AcqRel) + 1 == self.order.len() {
                let parts = self.made.iter().map(|m| lock(m).take().flatten());
                *lock(&self.joined) = parts.collect::<Option<Vec<P>>>().and_then(self.join);
            }
        }
    }

    /// What the parts make together, reading what is left to read here;
    /// `None` when one does not read back, they do not join, or one was
    /// claimed by a thread that stopped before it was read (one that
    /// panicked). To call once every other thread that read parts has
    /// stopped.
    pub(crate) fn take(&self) -> Option<T> {
        self.help(&|| false);
        lock(&self.joined).take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::kept_disk::{Out, Persist};

    /// Three parts and a head, written as [`Out::part`]s.
    fn written(values: [&[u64]; 3]) -> Shared {
        let mut out = Out::default();
        7u64.put(&mut out);
        for v in values {
            out.part(|o| v.to_vec().put(o));
        }
        std::sync::Arc::new(out.finish())
    }

    fn read(k: usize, inp: &mut In<'_>) -> Option<(usize, Vec<u64>)> {
        Some((k, Vec::get(inp)?))
    }

    /// The parts joined as they are (and refused when the first is empty).
    fn join(parts: Vec<(usize, Vec<u64>)>) -> Option<Vec<(usize, Vec<u64>)>> {
        (!parts[0].1.is_empty()).then_some(parts)
    }

    fn head(inp: &mut In<'_>) -> Option<()> {
        (u64::get(inp)? == 7).then_some(())
    }

    /// Parts read on two threads, each claiming the next, come back whole
    /// and in their order; a damaged part, parts that do not join, or a
    /// head that is refused, give nothing.
    #[test]
    fn parts_read_on_two_threads_come_back_in_order() {
        let bytes = written([&[1, 2], &[3], &(0..5000).collect::<Vec<_>>()]);
        let parts = Parts::open(&bytes, head, &[2, 0, 1], read, join).expect("opens");
        std::thread::scope(|s| {
            s.spawn(|| parts.help(&|| false));
            parts.help(&|| false);
        });
        let got = parts.take().expect("every part reads back");
        assert_eq!(got.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(got[0].1, [1, 2]);
        assert_eq!(got[2].1.len(), 5000);
        // Read once: taken again, nothing.
        assert!(parts.take().is_none());
        // Parts not read by a helper are read by the taker.
        let alone = Parts::open(&bytes, head, &[0, 1, 2], read, join).expect("opens");
        assert_eq!(alone.take().map(|v| v.len()), Some(3));
        // A stopped helper reads nothing.
        let stopped = Parts::open(&bytes, head, &[0, 1, 2], read, join).expect("opens");
        stopped.help(&|| true);
        assert_eq!(stopped.next.load(Ordering::Relaxed), 0);
        // Another head, another count of parts, or a part cut short.
        assert!(Parts::open(&bytes, |_| None, &[0, 1, 2], read, join).is_none());
        assert!(Parts::open(&bytes, head, &[0, 1], read, join).is_none());
        let mut cut = (*bytes).to_vec();
        let last = cut.len() - 1;
        cut[last] = 0x80;
        let cut: Shared = std::sync::Arc::new(cut);
        let damaged = Parts::open(&cut, head, &[0, 1, 2], read, join).expect("opens");
        assert!(damaged.take().is_none(), "the last part does not read back");
        let unjoined = written([&[], &[3], &[4]]);
        let parts = Parts::open(&unjoined, head, &[0, 1, 2], read, join).expect("opens");
        assert!(parts.take().is_none(), "the parts do not join");
    }
}
