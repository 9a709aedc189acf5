//! A list of kept values read from disk as bytes and each decoded when
//! first used (issue 17, session 16): a one-shot write reads back the
//! state of 100,000 nodes and uses a handful of them, so decoding every
//! value up front (an allocation per string) cost more than the run.
//!
//! On disk: where each value's bytes end, then the bytes, each value as
//! [`super::kept_disk`] writes one value alone. A value never decoded and
//! never replaced is written back as the bytes it was read from (copied
//! forward, not decoded and encoded again).
//!
//! The bytes of one value are checked only when it is decoded: a value
//! that does not read back is reported by [`Lazy::get`] as `None` and
//! remembered ([`Lazy::damaged`]), so that its user can put its answer
//! aside and check everything afresh (`incremental::run`). Its value then
//! reads as `T::default()` for the rest of the run.

use super::kept_disk::{Blob, In, Out, Persist};
use crate::model::hash::FastSet;
use std::cell::{Cell, OnceCell};

/// Positions taken out of a list (after a removal), in order, and where
/// each position left moves up to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Gone(Vec<usize>);

impl Gone {
    pub(crate) fn new(mut at: Vec<usize>) -> Gone {
        at.sort_unstable();
        at.dedup();
        Gone(at)
    }

    /// How many positions went.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether position `i` went.
    pub(crate) fn has(&self, i: usize) -> bool {
        self.0.binary_search(&i).is_ok()
    }

    /// Where position `i` (one left) is now.
    pub(crate) fn up(&self, i: usize) -> usize {
        i - self.0.partition_point(|&x| x < i)
    }

    /// The items of `v` at the positions left, in order.
    pub(crate) fn keep<T>(&self, mut v: Vec<T>) -> Vec<T> {
        let mut k = 0;
        v.retain(|_| {
            k += 1;
            !self.has(k - 1)
        });
        v
    }
}

/// Values by position, decoded on first use (see the module doc).
#[derive(Default)]
pub(crate) struct Lazy<T> {
    /// The bytes of the values read from disk, one after the other.
    raw: Blob,
    /// Per value read from disk: where its bytes end in `raw` (they start
    /// where the one before ends).
    ends: Vec<u32>,
    /// The values' cells, [`PAGE`] to a page; a page is made when one of
    /// its values is first decoded or set.
    pages: Vec<OnceCell<Box<[OnceCell<T>]>>>,
    /// How many values.
    len: usize,
    /// The values read from disk replaced since (their bytes are stale).
    replaced: FastSet<usize>,
    /// Whether some value's bytes did not read back.
    damaged: Cell<bool>,
}

/// Values to a page of cells. A cell per value made up front cost a
/// one-shot write at 100,000 nodes 7 MB of empty cells (and 14 MB more
/// when its first added node outgrew them) to decode a handful of them.
const PAGE: usize = 256;

fn new_page<T>() -> Box<[OnceCell<T>]> {
    (0..PAGE).map(|_| OnceCell::new()).collect()
}

impl<T: Persist + Default> Lazy<T> {
    /// How many values.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The cell of value `i` (below [`Lazy::len`]), its page made if it
    /// was not.
    fn cell(&self, i: usize) -> &OnceCell<T> {
        assert!(i < self.len, "value {i} of {}", self.len);
        &self.pages[i / PAGE].get_or_init(new_page)[i % PAGE]
    }

    /// Value `i` (below [`Lazy::len`]), decoded when first asked for;
    /// `None` when its bytes do not read back (then [`Lazy::damaged`]).
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        let cell = self.cell(i);
        if let Some(v) = cell.get() {
            return Some(v);
        }
        match super::kept_disk::from_bytes::<T>(self.bytes(i)) {
            Some(v) => Some(cell.get_or_init(|| v)),
            None => {
                self.damaged.set(true);
                let _ = cell.set(T::default());
                None
            }
        }
    }

    /// Value `i` when it was decoded or set already (no decoding).
    pub(crate) fn peek(&self, i: usize) -> Option<&T> {
        assert!(i < self.len, "value {i} of {}", self.len);
        self.pages[i / PAGE].get()?[i % PAGE].get()
    }

    /// Value `i` is now `v`.
    pub(crate) fn set(&mut self, i: usize, v: T) {
        if i < self.ends.len() {
            self.replaced.insert(i);
        }
        self.cell(i);
        let page = self.pages[i / PAGE].get_mut().expect("made by cell");
        page[i % PAGE] = OnceCell::from(v);
    }

    /// Adds `v` at the end.
    pub(crate) fn push(&mut self, v: T) {
        if self.len == self.pages.len() * PAGE {
            self.pages.push(OnceCell::new());
        }
        self.len += 1;
        self.set(self.len - 1, v);
    }

    /// Whether a value's bytes did not read back.
    pub(crate) fn damaged(&self) -> bool {
        self.damaged.get()
    }

    /// The bytes value `i` was read from (empty for one added since).
    fn bytes(&self, i: usize) -> &[u8] {
        if i >= self.ends.len() {
            return &[];
        }
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.raw[start..self.ends[i] as usize]
    }

    /// The values but those at the positions `gone`, the later ones moved
    /// up: the bytes of those read and not decoded are
    /// copied, not decoded (a removal at 100,000 nodes keeps the facts of
    /// every other node without reading them).
    pub(crate) fn without(mut self, gone: &Gone) -> Lazy<T> {
        let read = self.ends.len();
        let mut out = Lazy::default();
        let mut raw = Vec::with_capacity(self.raw.len());
        for i in (0..read).filter(|&i| !gone.has(i)) {
            raw.extend_from_slice(self.bytes(i));
            out.ends
                .push(u32::try_from(raw.len()).expect("kept values under 4 GiB"));
        }
        out.raw = Blob::Own(raw);
        out.len = out.ends.len();
        out.pages = (0..out.len.div_ceil(PAGE))
            .map(|_| OnceCell::new())
            .collect();
        out.damaged.set(self.damaged.get());
        for (at, i) in (0..self.len).filter(|&i| !gone.has(i)).enumerate() {
            let value = self.pages[i / PAGE]
                .get_mut()
                .and_then(|page| page[i % PAGE].take());
            match (i < read, value) {
                (true, Some(v)) => {
                    let replaced = self.replaced.contains(&i);
                    out.set(at, v);
                    if !replaced {
                        out.replaced.remove(&at);
                    }
                }
                (true, None) => {}
                (false, v) => out.push(v.unwrap_or_default()),
            }
        }
        out
    }

    /// The values made whole, with room for `extra` more.
    pub(crate) fn with(values: impl Iterator<Item = T>, extra: usize) -> Lazy<T> {
        let mut l = Lazy::default();
        l.pages.reserve(extra.div_ceil(PAGE));
        for v in values {
            l.push(v);
        }
        l
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Lazy<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lazy")
            .field("len", &self.len)
            .field("read", &self.ends.len())
            .field("damaged", &self.damaged.get())
            .finish_non_exhaustive()
    }
}

/// On disk: the ends, then the bytes. Ends that go back or do not end at
/// the bytes' end read as damaged; each value's own bytes are checked when
/// it is decoded.
impl<T: Persist + Default> Persist for Lazy<T> {
    fn put(&self, out: &mut Out) {
        let mut bytes = Vec::with_capacity(self.raw.len() + 64);
        let mut ends = Vec::with_capacity(self.len);
        for i in 0..self.len {
            match self.peek(i) {
                Some(v) if i >= self.ends.len() || self.replaced.contains(&i) => {
                    bytes.extend_from_slice(&super::kept_disk::to_bytes(v));
                }
                // Read from disk (decoded or not): its bytes as read.
                _ => bytes.extend_from_slice(self.bytes(i)),
            }
            ends.push(u32::try_from(bytes.len()).expect("kept values under 4 GiB"));
        }
        out.u32s(&ends);
        out.blob(&bytes);
    }
    fn get(inp: &mut In<'_>) -> Option<Lazy<T>> {
        let ends = inp.u32s()?;
        let raw = inp.blob_kept()?;
        let mut last = 0;
        for &e in &ends {
            if e < last {
                return None;
            }
            last = e;
        }
        if last as usize != raw.len() {
            return None;
        }
        let pages = (0..ends.len().div_ceil(PAGE))
            .map(|_| OnceCell::new())
            .collect();
        Some(Lazy {
            raw,
            len: ends.len(),
            ends,
            pages,
            ..Lazy::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Lazy;
    use crate::check::kept_disk::{from_bytes, to_bytes};

    /// Values read back as written; one never decoded is copied forward as
    /// its bytes, a replaced one written anew, and damage inside one value
    /// shows when that value is decoded, not before.
    #[test]
    fn values_decode_when_used_and_damage_shows_then() {
        let words = ["alpha", "", "gamma é"].map(String::from);
        let mut l = Lazy::with(words.iter().cloned(), 4);
        l.push("delta".to_string());
        let bytes = to_bytes(&l);
        let mut back: Lazy<String> = from_bytes(&bytes).expect("reads back");
        assert_eq!(back.len(), 4);
        assert_eq!(back.get(2).map(String::as_str), Some("gamma é"));
        assert!(back.peek(0).is_none(), "not decoded");
        // Copied forward as read: the same bytes.
        assert_eq!(to_bytes(&back), bytes);
        back.set(0, "zeta".to_string());
        back.push("eta".to_string());
        let again: Lazy<String> = from_bytes(&to_bytes(&back)).expect("reads back");
        let all: Vec<_> = (0..again.len()).map(|i| again.get(i).cloned()).collect();
        let want = ["zeta", "", "gamma é", "delta", "eta"].map(|s| Some(s.to_string()));
        assert_eq!(all, want);
        assert!(!again.damaged());
        // Value 2's length made longer than its text: the list reads, value 0
        // decodes, value 2 is damaged when asked for.
        let at = bytes.len() - to_bytes(&"delta".to_string()).len() - 1;
        let mut bad = bytes.clone();
        assert_eq!(bad[at], "gamma é".len() as u8, "value 2's length");
        bad[at] += 1;
        let hurt: Lazy<String> = from_bytes(&bad).expect("the list itself reads");
        assert_eq!(hurt.get(0).map(String::as_str), Some("alpha"));
        assert!(!hurt.damaged());
        assert_eq!(hurt.get(2), None);
        assert!(hurt.damaged());
        assert_eq!(
            hurt.get(2).map(String::as_str),
            Some(""),
            "then the default"
        );
        // Ends that go back or pass the bytes: nothing.
        assert!(from_bytes::<Lazy<String>>(&bytes[..bytes.len() - 1]).is_none());
    }

    /// Across pages: values decode, are set and pushed past a page's end,
    /// and only the pages of the values used are made.
    #[test]
    fn values_over_several_pages_read_back_and_make_only_their_pages() {
        let words: Vec<String> = (0..2 * super::PAGE + 3).map(|i| format!("w{i}")).collect();
        let bytes = to_bytes(&Lazy::with(words.iter().cloned(), 0));
        let mut back: Lazy<String> = from_bytes(&bytes).expect("reads back");
        assert_eq!(back.len(), words.len());
        let last = words.len() - 1;
        assert_eq!(back.get(last), Some(&words[last]));
        let made = |l: &Lazy<String>| l.pages.iter().filter(|p| p.get().is_some()).count();
        assert_eq!(made(&back), 1, "only the last value's page");
        back.set(super::PAGE, "set".to_string());
        for i in 0..super::PAGE {
            back.push(format!("pushed {i}"));
        }
        // The last value's page, the set value's, the one the pushes opened.
        assert_eq!(made(&back), 3);
        assert!(back.pages[0].get().is_none());
        let again: Lazy<String> = from_bytes(&to_bytes(&back)).expect("reads back");
        let all: Vec<String> = (0..again.len())
            .map(|i| again.get(i).cloned().unwrap_or_default())
            .collect();
        let mut want = words.clone();
        want[super::PAGE] = "set".to_string();
        want.extend((0..super::PAGE).map(|i| format!("pushed {i}")));
        assert_eq!(all, want);
        assert!(!again.damaged());
    }

    /// Read from a shared buffer, the values' bytes are a part of it (no
    /// copy) and decode as from a copy.
    #[test]
    fn values_read_from_a_shared_buffer_keep_their_bytes_in_it() {
        use crate::check::kept_disk::{Blob, Shared, from_shared};
        let words: Vec<String> = ["alpha", "", "gamma é"].map(String::from).into();
        let shared: Shared = std::sync::Arc::new(to_bytes(&Lazy::with(words.iter().cloned(), 0)));
        let back: Lazy<String> = from_shared(&shared).expect("reads back");
        assert!(matches!(back.raw, Blob::Part(..)), "a part of the buffer");
        let all: Vec<String> = (0..back.len())
            .map(|i| back.get(i).cloned().unwrap_or_default())
            .collect();
        assert_eq!(all, words);
        assert_eq!(to_bytes(&back), **shared, "written back as read");
    }

    /// Values taken out by position: the others keep their values (read,
    /// decoded, replaced or added) in order, and write as they would have.
    #[test]
    fn values_taken_out_leave_the_others_in_order() {
        let words: Vec<String> = (0..2 * super::PAGE + 3).map(|i| format!("w{i}")).collect();
        let bytes = to_bytes(&Lazy::with(words.iter().cloned(), 0));
        let mut back: Lazy<String> = from_bytes(&bytes).expect("reads back");
        let mut want = words.clone();
        back.get(5);
        back.get(super::PAGE + 1);
        back.set(7, "seven".to_string());
        want[7] = "seven".to_string();
        back.push("added".to_string());
        want.push("added".to_string());
        let gone = [0, 5, 6, super::PAGE, 2 * super::PAGE + 2, words.len()];
        for &g in gone.iter().rev() {
            want.remove(g);
        }
        let left = back.without(&super::Gone::new(gone.to_vec()));
        assert_eq!(left.len(), want.len());
        assert!(left.peek(0).is_none(), "not decoded by the move");
        // Old value PAGE + 1, four values before it gone.
        let moved = super::PAGE + 1 - 4;
        assert_eq!(
            left.peek(moved),
            Some(&want[moved]),
            "decoded before: moved"
        );
        assert_eq!(want[moved], format!("w{}", super::PAGE + 1));
        let all: Vec<String> = (0..left.len())
            .map(|i| left.get(i).cloned().unwrap_or_default())
            .collect();
        assert_eq!(all, want);
        let again: Lazy<String> = from_bytes(&to_bytes(&left)).expect("reads back");
        let all: Vec<String> = (0..again.len())
            .map(|i| again.get(i).cloned().unwrap_or_default())
            .collect();
        assert_eq!(all, want);
        assert!(!again.damaged());
    }
}
