//! An id → position index for the kept state (issue 17, session 13) that
//! reads back from disk without a string allocation or a hash per id:
//! every id's text is in one buffer, the positions in one vector, and the
//! hash table over them holds entry numbers only (`u32`), written as it is
//! with its seed and read back in bulk. A `HashMap<String, usize>` of the
//! same ids cost one allocation and one insert per id on load
//! (`Core::idx`, `KeptReach::at`: ≈ 60 M instructions of the 438 M the
//! kept state cost at 100,000 nodes); making the table again on load
//! (hashing every id) cost ≈ 15 M per index.
//!
//! Entries are only added (the kept structures that use it make it again
//! on a removal); the first position given for an id stays.

use crate::model::hash::FastState;
use std::hash::BuildHasher;

/// An id's hash for the table: FxHash's multiply-rotate over 8-byte words
/// (as [`crate::model::hash::FastHasher`]) from the process's seed, with
/// no copy of the last bytes through a buffer (this runs once per id on
/// every load).
#[inline]
fn hash(seed: u64, id: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let b = id.as_bytes();
    let mut h = seed ^ b.len() as u64;
    let mut words = b.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(K);
    }
    let rest = words.remainder();
    let last = if rest.is_empty() {
        0
    } else if b.len() >= 8 {
        // The last eight bytes (overlapping the last whole word).
        let w = &b[b.len() - 8..];
        u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]])
    } else {
        rest.iter()
            .enumerate()
            .fold(0, |acc, (i, &x)| acc | u64::from(x) << (8 * i))
    };
    h = (h.rotate_left(5) ^ last).wrapping_mul(K);
    h ^ (h >> 29) ^ (h >> 47)
}

/// The seed of [`hash`] for a new index: the process's (an index read
/// back keeps the one it was made with, written with its table).
fn seed() -> u64 {
    FastState.hash_one(0u64)
}

/// Node id → position (see the module doc).
#[derive(Clone)]
pub(crate) struct IdIndex {
    /// Every id's text, in the order added.
    text: String,
    /// Per entry: where its id ends in `text` (it starts where the one
    /// before ends).
    ends: Vec<u32>,
    /// Per entry: its position.
    pos: Vec<u32>,
    /// Open addressing, linear probing: 0 for an empty slot, else the
    /// entry's number + 1 in the low 32 bits and the high 32 bits of its
    /// id's hash above (compared before the id). Its length is a power of
    /// two, at least twice the entries (or 0 when there are none).
    slots: Vec<u64>,
    /// The seed of [`hash`].
    seed: u64,
}

impl Default for IdIndex {
    fn default() -> IdIndex {
        IdIndex {
            text: String::new(),
            ends: Vec::new(),
            pos: Vec::new(),
            slots: Vec::new(),
            seed: seed(),
        }
    }
}

/// `x` as a `u32`: ids' text, entries and positions stay below 2^32 (a
/// plan's nodes are far fewer, their ids at most 64 bytes).
fn small(x: usize) -> u32 {
    u32::try_from(x).expect("fewer than 2^32 nodes and bytes of ids")
}

impl IdIndex {
    /// An empty index with room for `n` ids.
    pub(crate) fn with_capacity(n: usize) -> IdIndex {
        let mut ix = IdIndex {
            ends: Vec::with_capacity(n),
            pos: Vec::with_capacity(n),
            ..IdIndex::default()
        };
        ix.slots = vec![0; table_len(n)];
        ix
    }

    /// How many ids it holds.
    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Entry `k`'s id.
    #[inline]
    fn id(&self, k: usize) -> &str {
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.text[start..self.ends[k] as usize]
    }

    /// Entry `k`'s id as bytes (no character boundary checks).
    #[inline]
    fn id_bytes(&self, k: usize) -> &[u8] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] as usize };
        &self.text.as_bytes()[start..self.ends[k] as usize]
    }

    /// The entry holding `id` (whose hash is `h`), or the empty slot where
    /// it would go.
    #[inline]
    fn find(&self, h: u64, id: &str) -> Result<usize, usize> {
        let mask = self.slots.len().wrapping_sub(1);
        let tag = h >> 32;
        let mut s = (h as usize) & mask;
        loop {
            match self.slots[s] {
                0 => return Err(s),
                e => {
                    let k = (e & 0xffff_ffff) as usize - 1;
                    if e >> 32 == tag && self.id_bytes(k) == id.as_bytes() {
                        return Ok(k);
                    }
                }
            }
            s = (s + 1) & mask;
        }
    }

    /// Entry `k`'s slot value, its id's hash being `h`.
    fn slot(h: u64, k: usize) -> u64 {
        (h >> 32 << 32) | u64::from(small(k + 1))
    }

    /// The position of `id`, when it is there.
    #[inline]
    pub(crate) fn get(&self, id: &str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        self.find(hash(self.seed, id), id)
            .ok()
            .map(|k| self.pos[k] as usize)
    }

    /// Whether `id` is there.
    pub(crate) fn contains(&self, id: &str) -> bool {
        self.get(id).is_some()
    }

    /// Adds `id` at position `at` unless it is there: then its position is
    /// returned and kept.
    pub(crate) fn insert_first(&mut self, id: &str, at: usize) -> Option<usize> {
        if let Some(p) = self.get(id) {
            return Some(p);
        }
        if (self.len() + 1) * 2 > self.slots.len() {
            self.rehash(table_len(self.len() + 1));
        }
        self.text.push_str(id);
        self.ends.push(small(self.text.len()));
        self.pos.push(small(at));
        let k = self.len() - 1;
        let h = hash(self.seed, id);
        let s = self.find(h, id).expect_err("a new id has no entry yet");
        self.slots[s] = Self::slot(h, k);
        None
    }

    /// The table made again with `len` slots from the entries (distinct
    /// ids).
    fn rehash(&mut self, len: usize) {
        self.slots = vec![0; len];
        for k in 0..self.len() {
            let h = hash(self.seed, self.id(k));
            if let Err(s) = self.find(h, self.id(k)) {
                self.slots[s] = Self::slot(h, k);
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

    /// Every (id, position), in the order added.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, usize)> + '_ {
        (0..self.len()).map(|k| (self.id(k), self.pos[k] as usize))
    }
}

/// Slots for `n` entries: a power of two, at least twice `n`, at least 8.
fn table_len(n: usize) -> usize {
    (n.saturating_mul(2)).next_power_of_two().max(8)
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
/// arrays, the seed and the table (read in bulk, not hashed again). Ends
/// that go back, pass the text or cut a character, a length that differs,
/// a table whose length is not a power of two at least twice the entries,
/// or that does not hold every entry exactly once, read as damaged. Where
/// each entry sits in the table is not checked again (that would hash
/// every id): the file's checksum and the binary that wrote it (the store
/// checks both) vouch for it.
impl super::kept_disk::Persist for IdIndex {
    fn put(&self, out: &mut super::kept_disk::Out) {
        self.text.put(out);
        out.u32s(&self.ends);
        out.u32s(&self.pos);
        self.seed.put(out);
        out.u64s(&self.slots);
    }
    fn get(inp: &mut super::kept_disk::In<'_>) -> Option<IdIndex> {
        let text = String::get(inp)?;
        let ends = inp.u32s()?;
        let pos = inp.u32s()?;
        let seed = u64::get(inp)?;
        let slots = inp.u64s()?;
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
        let n = ends.len();
        let sized = if n == 0 {
            slots.is_empty() || slots.len().is_power_of_two()
        } else {
            slots.len().is_power_of_two() && slots.len() >= 2 * n
        };
        if !sized {
            return None;
        }
        let mut seen = vec![false; n];
        for &e in &slots {
            if e == 0 {
                continue;
            }
            let k = ((e & 0xffff_ffff) as usize).checked_sub(1)?;
            if k >= n || std::mem::replace(&mut seen[k], true) {
                return None;
            }
        }
        seen.iter().all(|&s| s).then_some(IdIndex {
            text,
            ends,
            pos,
            slots,
            seed,
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
        // An end inside `ä`, ends past the text; a table not a power of
        // two, too small, with an entry twice or missing, or past the end.
        for (text, ends, slots) in [
            ("äbcc", vec![1u32, 3, 5], vec![1, 2, 3, 0, 0, 0, 0, 0]),
            ("äbcc", vec![2, 3, 9], vec![1, 2, 3, 0, 0, 0, 0, 0]),
            ("äbcc", vec![2, 3, 5], vec![1, 2, 3, 0, 0, 0, 0]),
            ("äbcc", vec![2, 3, 5], vec![1, 2, 3, 0]),
            ("äbcc", vec![2, 3, 5], vec![1, 2, 2, 3, 0, 0, 0, 0]),
            ("äbcc", vec![2, 3, 5], vec![1, 2, 0, 0, 0, 0, 0, 0]),
            ("äbcc", vec![2, 3, 5], vec![1, 2, 3, 4, 0, 0, 0, 0]),
        ] {
            let mut out = Out::default();
            text.to_string().put(&mut out);
            out.u32s(&ends);
            out.u32s(&[0, 1, 2]);
            7u64.put(&mut out);
            out.u64s(&slots);
            assert!(
                from_bytes::<IdIndex>(&out.finish()).is_none(),
                "{text} {ends:?} {slots:?}"
            );
        }
    }
}
