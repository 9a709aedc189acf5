//! An id → position index for the kept state (issue 17): every id's text
//! in one buffer, the positions in one vector, and over them a
//! [`hashbrown::HashTable`] of entry numbers (`u32`), hashed by the ids'
//! text. On disk the text, the ends, the positions and the entries in
//! the order of their ids are written; the table is made again when first
//! needed after a load (one hash and one insert per id, no string
//! allocation: ≈ 24 M instructions at 100,000 ids), and until then an id
//! is found by bisection (a one-shot write looks up a few ids; session 16). A `HashMap<String, usize>` of the same ids cost an
//! allocation and an insert per id on load (`Core::idx`, `KeptReach::at`:
//! ≈ 60 M instructions of the 438 M the kept state cost at 100,000 nodes).
//!
//! Read from disk, the entries stay where they lie in the kept bytes
//! ([`Base`]: the text and the three lists, read where asked; session 30):
//! a copy of them was 1.2 ms of the 2.2 ms an index of 100,000 ids took
//! to read, and an index read back is cloned (`KeptReach::at`) for the
//! price of a share. The entries added since are the index's own.
//!
//! Entries are only added (the kept structures that use it make it again
//! on a removal); the first position given for an id stays.

use super::kept_disk::{Blob, Words, bisect};
use crate::model::hash::FastState;
use hashbrown::HashTable;
use std::cell::{Cell, OnceCell};
use std::hash::BuildHasher;

/// An id's hash for the table (the process's seeded fast hasher; a word
/// by word hash of its own without the hasher's buffer saved ≈ 4 M
/// instructions at 100,000 nodes, not worth its code).
#[inline]
fn hash(id: &[u8]) -> u64 {
    FastState.hash_one(id)
}

/// The entries read from disk, as they lie in the kept bytes: their ids'
/// text (UTF-8, each id on character boundaries: checked when read),
/// where each id ends in it, each entry's position, and the entries in
/// the order of their ids.
#[derive(Clone, Default)]
struct Base {
    text: Blob,
    ends: Words,
    pos: Words,
    sorted: Words,
}

impl Base {
    fn len(&self) -> usize {
        self.ends.len()
    }

    /// Entry `k`'s id (`k` below [`Base::len`]).
    #[inline]
    fn id(&self, k: usize) -> &[u8] {
        &self.text[self.ends.span(k)]
    }
}

/// Node id → position (see the module doc).
#[derive(Clone, Default)]
pub(crate) struct IdIndex {
    /// The entries read from disk (the first [`Base::len`]).
    base: Base,
    /// The ids' text of the entries after the base's, in the order added.
    text: String,
    /// Per entry after the base's: where its id ends in `text` (it starts
    /// where the one before ends).
    ends: Vec<u32>,
    /// Per entry after the base's: its position.
    pos: Vec<u32>,
    /// Entry numbers, by their id's hash: made whole, or when first
    /// needed after a read from disk (see `Base::sorted`).
    table: OnceCell<HashTable<u32>>,
    /// The entries added since the read from disk while the table was not
    /// made, by their id's hash (a tail of many `add-node`s is looked up
    /// without making the whole table).
    recent: HashTable<u32>,
    /// How many lookups were made without the table.
    probes: Cell<u32>,
}

/// Lookups by bisection before the table is made: a one-shot write looks
/// up a few ids, a whole check run most of them.
const PROBES: u32 = 512;

/// `x` as a `u32`: ids' text, entries and positions stay below 2^32 (a
/// plan's nodes are far fewer, their ids at most 64 bytes).
fn small(x: usize) -> u32 {
    u32::try_from(x).expect("fewer than 2^32 nodes and bytes of ids")
}

/// Entry `k`'s id in an index of `base` and the entries after it
/// (`text`, `ends`).
#[inline]
fn id_in<'t>(base: &'t Base, text: &'t str, ends: &[u32], k: usize) -> &'t [u8] {
    let b = base.len();
    if k < b {
        return base.id(k);
    }
    let k = k - b;
    let start = if k == 0 { 0 } else { ends[k - 1] as usize };
    &text.as_bytes()[start..ends[k] as usize]
}

impl IdIndex {
    /// An empty index with room for `n` ids.
    pub(crate) fn with_capacity(n: usize) -> IdIndex {
        IdIndex {
            ends: Vec::with_capacity(n),
            pos: Vec::with_capacity(n),
            table: OnceCell::from(HashTable::with_capacity(n)),
            ..IdIndex::default()
        }
    }

    /// How many ids it holds.
    pub(crate) fn len(&self) -> usize {
        self.base.len() + self.ends.len()
    }

    /// Entry `k`'s id, as bytes.
    #[inline]
    fn id(&self, k: usize) -> &[u8] {
        id_in(&self.base, &self.text, &self.ends, k)
    }

    /// Entry `k`'s position.
    #[inline]
    fn pos(&self, k: usize) -> usize {
        let b = self.base.len();
        if k < b {
            self.base.pos.get(k) as usize
        } else {
            self.pos[k - b] as usize
        }
    }

    /// The table, made now when it was not.
    fn table(&self) -> &HashTable<u32> {
        self.table.get_or_init(|| {
            let n = self.len();
            let mut table = HashTable::with_capacity(n + n / 4 + 16);
            for k in 0..n {
                let h = hash(self.id(k));
                table.insert_unique(h, small(k), |&j| hash(self.id(j as usize)));
            }
            table
        })
    }

    /// The entry holding `id`.
    #[inline]
    fn entry(&self, id: &str) -> Option<usize> {
        let table = match self.table.get() {
            Some(t) => t,
            None => {
                let p = self.probes.get() + 1;
                self.probes.set(p);
                if p <= PROBES {
                    return self.search(id);
                }
                self.table()
            }
        };
        let id = id.as_bytes();
        table
            .find(hash(id), |&k| self.id(k as usize) == id)
            .map(|&k| k as usize)
    }

    /// The entry holding `id`, found without the table: by bisection among
    /// the entries read from disk, then among those added since.
    fn search(&self, id: &str) -> Option<usize> {
        let id = id.as_bytes();
        let sorted = &self.base.sorted;
        let at = |j: usize| sorted.get(j) as usize;
        if let Ok(j) = bisect(sorted.len(), |j| self.base.id(at(j)).cmp(id)) {
            return Some(at(j));
        }
        self.recent
            .find(hash(id), |&k| self.id(k as usize) == id)
            .map(|&k| k as usize)
    }

    /// The position of `id`, when it is there.
    #[inline]
    pub(crate) fn get(&self, id: &str) -> Option<usize> {
        self.entry(id).map(|k| self.pos(k))
    }

    /// Whether `id` is there.
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.entry(id).is_some()
    }

    /// Adds `id` at position `at` unless it is there: then its position is
    /// returned and kept.
    pub(crate) fn insert_first(&mut self, id: &str, at: usize) -> Option<usize> {
        if let Some(k) = self.entry(id) {
            return Some(self.pos(k));
        }
        let k = small(self.len());
        self.text.push_str(id);
        self.ends.push(small(self.text.len()));
        self.pos.push(small(at));
        // Into the table or the recent entries, whichever is in use
        // (borrowed apart from the entries its hasher reads).
        let (base, text, ends) = (&self.base, &self.text, &self.ends);
        let into = match self.table.get_mut() {
            Some(table) => table,
            None => &mut self.recent,
        };
        into.insert_unique(hash(id.as_bytes()), k, |&j| {
            hash(id_in(base, text, ends, j as usize))
        });
        None
    }

    /// The number of `id` in an index used to number ids (each added at
    /// its entry's number): its number, added when it is new.
    pub(crate) fn number(&mut self, id: &str) -> usize {
        let n = self.len();
        self.insert_first(id, n).unwrap_or(n)
    }

    /// Entry `k`'s id (`k` below [`IdIndex::len`]).
    pub(crate) fn at(&self, k: usize) -> &str {
        // On character boundaries of UTF-8 text: checked when read (the
        // base) or made from a `str` (the rest).
        std::str::from_utf8(self.id(k)).unwrap_or_default()
    }

    /// Whether `other` holds the same ids at the same positions, added in
    /// the same order.
    pub(crate) fn same(&self, other: &IdIndex) -> bool {
        if self.len() != other.len() {
            return false;
        }
        // Bases of one length (a clone's, or one file's read twice): their
        // bytes, then the entries added since, compared whole.
        let (a, b) = (&self.base, &other.base);
        if a.len() == b.len() {
            return (&*a.text, a.ends.bytes(), a.pos.bytes())
                == (&*b.text, b.ends.bytes(), b.pos.bytes())
                && (&self.text, &self.ends, &self.pos) == (&other.text, &other.ends, &other.pos);
        }
        (0..self.len()).all(|k| self.pos(k) == other.pos(k) && self.id(k) == other.id(k))
    }

    /// Every (id, position), in the order added.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        (0..self.len()).map(|k| (self.at(k), self.pos(k)))
    }

    /// Every entry in the order of their ids: those read from disk as they
    /// were, those added since put in their places (all sorted again when
    /// they are many).
    fn in_order(&self) -> Vec<u32> {
        let (m, n) = (self.base.len(), self.len());
        let by_id = |a: &u32, b: &u32| self.id(*a as usize).cmp(self.id(*b as usize));
        if (n - m) * 8 > n {
            let mut all: Vec<u32> = (0..small(n)).collect();
            all.sort_unstable_by(by_id);
            return all;
        }
        let mut all = Vec::with_capacity(n);
        all.extend(self.base.sorted.iter());
        for k in m..n {
            let at = all.partition_point(|j| by_id(j, &small(k)).is_lt());
            all.insert(at, small(k));
        }
        all
    }
}

impl std::fmt::Debug for IdIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The same ids at the same positions (in whatever order added).
impl PartialEq for IdIndex {
    fn eq(&self, other: &IdIndex) -> bool {
        self.len() == other.len() && self.iter().all(|(id, p)| other.get(id) == Some(p))
    }
}
impl Eq for IdIndex {}

/// On disk: the text, then the ends, the positions and the entries in the
/// order of their ids as little-endian `u32` arrays; read back, they stay
/// where they lie ([`Base`]) and the table is made again from them when
/// needed. Ends that go back, pass the text or cut a character, a length
/// that differs, or an order naming an entry past the last read as
/// damaged; that the order is the ids' is trusted as the file's checksum
/// is (see `get`).
impl super::kept_disk::Persist for IdIndex {
    fn put(&self, out: &mut super::kept_disk::Out) {
        // The base's text and lists as they lie, then the entries added
        // since (their ends past the base's text).
        let base = &self.base;
        let mut text = String::with_capacity(base.text.len() + self.text.len());
        // UTF-8 (checked when read).
        text.push_str(std::str::from_utf8(&base.text).unwrap_or_default());
        text.push_str(&self.text);
        let off = small(base.text.len());
        let ends: Vec<u32> = base
            .ends
            .iter()
            .chain(self.ends.iter().map(|e| e + off))
            .collect();
        let pos: Vec<u32> = base.pos.iter().chain(self.pos.iter().copied()).collect();
        text.put(out);
        out.u32s(&ends);
        out.u32s(&pos);
        out.u32s(&self.in_order());
    }
    fn get(inp: &mut super::kept_disk::In<'_>) -> Option<IdIndex> {
        let base = Base {
            text: inp.text_kept()?,
            ends: inp.u32s_kept()?,
            pos: inp.u32s_kept()?,
            sorted: inp.u32s_kept()?,
        };
        // UTF-8 as a whole (the kept text is), so an end on a character
        // boundary is one where no continuation byte starts.
        let text: &[u8] = &base.text;
        let boundary = |e: usize| e == text.len() || (e < text.len() && (text[e] as i8) >= -0x40);
        let n = base.len();
        if !base.ends.ends_at(text.len())
            || !base.ends.iter().all(|e| boundary(e as usize))
            || base.pos.len() != n
            || base.sorted.len() != n
        {
            return None;
        }
        // Every entry of the order below `n` (a lookup reads what it
        // names). That the order is the ids' and names each entry once is
        // not checked again: a kept state is read only after its checksum
        // (written by this binary over what it made sorted), and comparing
        // the ids in their order touched the text at random (≈ 3 ms of a
        // one-shot write at 100,000 nodes). An order that is not the ids'
        // (a file forged with its checksum) misleads a lookup, which never
        // reads out of bounds, and the findings it feeds; it decides no
        // verdict (see `store::snapshot::kept`).
        if base.sorted.iter().any(|k| k as usize >= n) {
            return None;
        }
        Some(IdIndex {
            base,
            ..IdIndex::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::IdIndex;
    use crate::check::kept_disk::{Out, Persist, from_bytes};

    #[test]
    fn keeps_the_first_position_and_grows() {
        let mut ix = IdIndex::default();
        assert_eq!(ix.get("a"), None);
        for i in 0..1000 {
            assert_eq!(ix.insert_first(&format!("n{i}"), i), None);
        }
        assert_eq!(ix.insert_first("n7", 5000), Some(7));
        assert_eq!(ix.insert_first("", 1000), None);
        assert_eq!(ix.len(), 1001);
        assert_eq!(ix.get("n999"), Some(999));
        assert_eq!(ix.get(""), Some(1000));
        assert!(!ix.contains("n1000"));
        assert!(ix.contains("n0"));
    }

    #[test]
    fn reads_back_and_refuses_damage() {
        let mut ix = IdIndex::with_capacity(3);
        for (i, id) in ["ä", "b", "cc"].iter().enumerate() {
            ix.insert_first(id, i * 2);
        }
        let mut out = Out::default();
        ix.put(&mut out);
        let back: IdIndex = from_bytes(&out.finish()).expect("reads back");
        assert_eq!(back, ix);
        assert_eq!(back.get("cc"), Some(4));
        assert_eq!(format!("{back:?}"), r#"{"ä": 0, "b": 2, "cc": 4}"#);
        // An end inside `ä`, ends past the text or going back, short of
        // the text, positions of another length, an order naming an entry
        // past the last or missing one.
        let order = vec![1u32, 2, 0];
        for (text, ends, pos, sorted) in [
            ("äbcc", vec![1u32, 3, 5], vec![0u32, 1, 2], order.clone()),
            ("äbcc", vec![2, 3, 9], vec![0, 1, 2], order.clone()),
            ("äbcc", vec![3, 2, 5], vec![0, 1, 2], order.clone()),
            ("äbcc", vec![2, 3, 4], vec![0, 1, 2], order.clone()),
            ("äbcc", vec![2, 3, 5], vec![0, 1], order.clone()),
            ("äbcc", vec![2, 3, 5], vec![0, 1, 2], vec![1, 2, 3]),
            ("äbcc", vec![2, 3, 5], vec![0, 1, 2], vec![1, 2]),
        ] {
            let mut out = Out::default();
            text.to_string().put(&mut out);
            out.u32s(&ends);
            out.u32s(&pos);
            out.u32s(&sorted);
            assert!(
                from_bytes::<IdIndex>(&out.finish()).is_none(),
                "{text} {ends:?} {pos:?} {sorted:?}"
            );
        }
        // The same form with sound values reads back.
        let mut out = Out::default();
        "äb".to_string().put(&mut out);
        out.u32s(&[2, 3]);
        out.u32s(&[0, 1]);
        out.u32s(&[1, 0]);
        let ok: IdIndex = from_bytes(&out.finish()).expect("reads back");
        assert_eq!(ok.get("bb"), None);
        assert_eq!(ok.get("b"), Some(1));
        // An order that is not the ids' (only a forged file, its checksum
        // made again, gets this far) misleads a lookup without reading out
        // of bounds.
        let mut out = Out::default();
        "äbcc".to_string().put(&mut out);
        out.u32s(&[2, 3, 5]);
        out.u32s(&[0, 1, 2]);
        out.u32s(&[2, 1, 0]);
        let forged: IdIndex = from_bytes(&out.finish()).expect("read as it lies");
        for id in ["ä", "b", "cc", "d"] {
            assert!(forged.get(id).is_none_or(|p| p < 3), "{id}");
        }
    }

    /// Read from a shared buffer (the mapped kept state), the entries stay
    /// in it: a clone shares them, and each index adds its own.
    #[test]
    fn read_from_a_shared_buffer_the_entries_stay_where_they_lie() {
        let mut ix = IdIndex::with_capacity(3);
        for (i, id) in ["b", "ä", "a"].iter().enumerate() {
            ix.insert_first(id, 10 + i);
        }
        let bytes: crate::check::kept_disk::Shared =
            std::sync::Arc::new(crate::check::kept_disk::to_bytes(&ix));
        let back: IdIndex = crate::check::kept_disk::from_shared(&bytes).expect("reads back");
        assert!(matches!(
            back.base.text,
            crate::check::kept_disk::Blob::Part(..)
        ));
        assert_eq!((back.base.len(), back.len()), (3, 3));
        let mut other = back.clone();
        assert_eq!(other.insert_first("c", 20), None);
        assert_eq!(other.insert_first("ä", 30), Some(11));
        assert_eq!((back.get("c"), other.get("c")), (None, Some(20)));
        assert_eq!(other.at(3), "c");
        assert!(back.same(&ix) && !other.same(&ix));
        // One base (a clone's): the same with the same entries added.
        let (mut x, mut y) = (back.clone(), back.clone());
        assert!(x.same(&y));
        x.insert_first("c", 20);
        y.insert_first("d", 20);
        assert!(!x.same(&y) && x.same(&other));
        // Written again, the shared entries and the added one.
        let again: IdIndex =
            from_bytes(&crate::check::kept_disk::to_bytes(&other)).expect("reads back");
        assert_eq!(
            format!("{again:?}"),
            r#"{"b": 10, "ä": 11, "a": 12, "c": 20}"#
        );
    }

    /// Read from disk, ids are found by bisection and the ids added since
    /// through a table of their own, then (after enough lookups) through
    /// the whole table, with the same answers; the
    /// order written after adds is the ids' order.
    #[test]
    fn lookups_before_and_after_the_table_agree() {
        let ids: Vec<String> = (0..300)
            .map(|i| format!("id{}", (i * 7919) % 1000))
            .collect();
        let mut ix = IdIndex::with_capacity(ids.len());
        for (i, id) in ids.iter().enumerate() {
            ix.insert_first(id, i);
        }
        let bytes = crate::check::kept_disk::to_bytes(&ix);
        for adds in [0, 5, 40, 400] {
            let mut back: IdIndex = from_bytes(&bytes).expect("reads back");
            assert!(back.table.get().is_none(), "made when needed");
            for k in 0..adds {
                assert_eq!(back.insert_first(&format!("new{k}"), 1000 + k), None);
                assert_eq!(back.insert_first(&ids[k % 300], 5000), Some(k % 300));
            }
            // Each add looks its id up first: the table is made after
            // enough lookups, not because of the adds.
            assert_eq!(
                back.table.get().is_some(),
                2 * adds > super::PROBES as usize,
                "{adds}"
            );
            for _ in 0..2 {
                for (i, id) in ids.iter().enumerate() {
                    assert_eq!(back.get(id), Some(i));
                }
                for k in 0..adds {
                    assert_eq!(back.get(&format!("new{k}")), Some(1000 + k));
                }
                assert_eq!(back.get("id1000"), None);
            }
            assert!(back.table.get().is_some(), "made after many lookups");
            let again: IdIndex =
                from_bytes(&crate::check::kept_disk::to_bytes(&back)).expect("reads back");
            assert_eq!(again, back);
            assert_eq!(again.len(), 300 + adds);
        }
    }
}
