//! An id → position index for the kept state (issue 17): every id's text
//! in one buffer, the positions in one vector, and over them a
//! [`hashbrown::HashTable`] of entry numbers (`u32`), hashed by the ids'
//! text. On disk only the text, the ends and the positions are written;
//! the table is made again on load (one hash and one insert per id, no
//! string allocation). A `HashMap<String, usize>` of the same ids cost an
//! allocation and an insert per id on load (`Core::idx`, `KeptReach::at`:
//! ≈ 60 M instructions of the 438 M the kept state cost at 100,000 nodes).
//!
//! Entries are only added (the kept structures that use it make it again
//! on a removal); the first position given for an id stays.

use crate::model::hash::FastState;
use hashbrown::HashTable;
use std::hash::BuildHasher;

/// An id's hash for the table (the process's seeded fast hasher; a word
/// by word hash of its own without the hasher's buffer saved ≈ 4 M
/// instructions at 100,000 nodes, not worth its code).
#[inline]
fn hash(id: &str) -> u64 {
    FastState.hash_one(id)
}

/// Node id → position (see the module doc).
#[derive(Clone, Default)]
pub(crate) struct IdIndex {
    /// Every id's text, in the order added.
    text: String,
    /// Per entry: where its id ends in `text` (it starts where the one
    /// before ends).
    ends: Vec<u32>,
    /// Per entry: its position.
    pos: Vec<u32>,
    /// Entry numbers, by their id's hash.
    table: HashTable<u32>,
}

/// `x` as a `u32`: ids' text, entries and positions stay below 2^32 (a
/// plan's nodes are far fewer, their ids at most 64 bytes).
fn small(x: usize) -> u32 {
    u32::try_from(x).expect("fewer than 2^32 nodes and bytes of ids")
}

/// Entry `k`'s id in `text` with `ends` (no character boundary checks:
/// the ends are on boundaries, checked when read from disk).
#[inline]
fn id_in<'t>(text: &'t str, ends: &[u32], k: usize) -> &'t str {
    let start = if k == 0 { 0 } else { ends[k - 1] as usize };
    &text[start..ends[k] as usize]
}

impl IdIndex {
    /// An empty index with room for `n` ids.
    pub(crate) fn with_capacity(n: usize) -> IdIndex {
        IdIndex {
            ends: Vec::with_capacity(n),
            pos: Vec::with_capacity(n),
            table: HashTable::with_capacity(n),
            ..IdIndex::default()
        }
    }

    /// How many ids it holds.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Entry `k`'s id.
    #[inline]
    fn id(&self, k: usize) -> &str {
        id_in(&self.text, &self.ends, k)
    }

    /// The entry holding `id`.
    #[inline]
    fn entry(&self, id: &str) -> Option<usize> {
        self.table
            .find(hash(id), |&k| self.id(k as usize) == id)
            .map(|&k| k as usize)
    }

    /// The position of `id`, when it is there.
    #[inline]
    pub(crate) fn get(&self, id: &str) -> Option<usize> {
        self.entry(id).map(|k| self.pos[k] as usize)
    }

    /// Whether `id` is there.
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.entry(id).is_some()
    }

    /// Adds `id` at position `at` unless it is there: then its position is
    /// returned and kept.
    pub(crate) fn insert_first(&mut self, id: &str, at: usize) -> Option<usize> {
        let (text, ends) = (&self.text, &self.ends);
        match self.table.entry(
            hash(id),
            |&k| id_in(text, ends, k as usize) == id,
            |&k| hash(id_in(text, ends, k as usize)),
        ) {
            hashbrown::hash_table::Entry::Occupied(e) => Some(self.pos[*e.get() as usize] as usize),
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(small(self.ends.len()));
                self.text.push_str(id);
                self.ends.push(small(self.text.len()));
                self.pos.push(small(at));
                None
            }
        }
    }

    /// The number of `id` in an index used to number ids (each added at
    /// its entry's number): its number, added when it is new.
    pub(crate) fn number(&mut self, id: &str) -> usize {
        let n = self.len();
        self.insert_first(id, n).unwrap_or(n)
    }

    /// Entry `k`'s id (`k` below [`IdIndex::len`]).
    pub(crate) fn at(&self, k: usize) -> &str {
        self.id(k)
    }

    /// Whether `other` holds the same ids at the same positions, added in
    /// the same order.
    pub(crate) fn same(&self, other: &IdIndex) -> bool {
        self.text == other.text && self.ends == other.ends && self.pos == other.pos
    }

    /// Every (id, position), in the order added.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        (0..self.len()).map(|k| (self.id(k), self.pos[k] as usize))
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

/// On disk: the text, then the ends and positions as little-endian `u32`
/// arrays; the table is made again from them. Ends that go back, pass the
/// text or cut a character, a length that differs, or an id that comes
/// twice read as damaged.
impl super::kept_disk::Persist for IdIndex {
    fn put(&self, out: &mut super::kept_disk::Out) {
        self.text.put(out);
        out.u32s(&self.ends);
        out.u32s(&self.pos);
    }
    fn get(inp: &mut super::kept_disk::In<'_>) -> Option<IdIndex> {
        let text = String::get(inp)?;
        let ends = inp.u32s()?;
        let pos = inp.u32s()?;
        let mut last = 0;
        for &e in &ends {
            let e = e as usize;
            if e < last || !text.is_char_boundary(e) {
                return None;
            }
            last = e;
        }
        if last != text.len() || pos.len() != ends.len() {
            return None;
        }
        let mut table = HashTable::with_capacity(ends.len());
        for k in 0..ends.len() {
            let id = id_in(&text, &ends, k);
            match table.entry(
                hash(id),
                |&j| id_in(&text, &ends, j as usize) == id,
                |&j| hash(id_in(&text, &ends, j as usize)),
            ) {
                hashbrown::hash_table::Entry::Occupied(_) => return None,
                hashbrown::hash_table::Entry::Vacant(v) => drop(v.insert(small(k))),
            }
        }
        Some(IdIndex {
            text,
            ends,
            pos,
            table,
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
        // the text, positions of another length, an id twice.
        for (text, ends, pos) in [
            ("äbcc", vec![1u32, 3, 5], vec![0u32, 1, 2]),
            ("äbcc", vec![2, 3, 9], vec![0, 1, 2]),
            ("äbcc", vec![3, 2, 5], vec![0, 1, 2]),
            ("äbcc", vec![2, 3, 4], vec![0, 1, 2]),
            ("äbcc", vec![2, 3, 5], vec![0, 1]),
            ("äbb", vec![2, 3, 4], vec![0, 1, 2]),
        ] {
            let mut out = Out::default();
            text.to_string().put(&mut out);
            out.u32s(&ends);
            out.u32s(&pos);
            assert!(
                from_bytes::<IdIndex>(&out.finish()).is_none(),
                "{text} {ends:?} {pos:?}"
            );
        }
        // The same form with sound values reads back.
        let mut out = Out::default();
        "äb".to_string().put(&mut out);
        out.u32s(&[2, 3]);
        out.u32s(&[0, 1]);
        let ok: IdIndex = from_bytes(&out.finish()).expect("reads back");
        assert_eq!(ok.get("bb"), None);
        assert_eq!(ok.get("b"), Some(1));
    }
}
