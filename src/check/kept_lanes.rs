//! The graph's shape as the walks read it (issue 17, session 31): each
//! edge's ends ([`EdgeEnds`]) and the edge lists per node (`Core::out`,
//! `Core::inc`, [`EdgeLists`]).
//!
//! An edge's ends are two `u32` positions (none: `u32::MAX`), not an
//! `Option<(usize, usize)>` (24 bytes): 0.9 MB instead of 2.6 MB at
//! 100,000 nodes, for the graph and again for the unreachable walk, each
//! made fresh when a one-shot write reads the kept state.
//!
//! The edge lists — a slice of edge positions per node — are held two
//! ways:
//!
//! - made here (a full check, a warm session): a [`Lanes`] per node;
//! - read back from the kept state: every list's values in one vector and
//!   where each list ends, the lists changed since a [`Lanes`] of their
//!   own and the nodes added since one each after them.
//!
//! Read back as a [`Lanes`] per node, the two lists cost a one-shot write
//! at 100,000 nodes ≈ 4 ms of a thread in a profile and 4.8 MB of fresh
//! memory (the kept thread's largest part); read back flat, two vectors
//! (1.6 MB) made in one pass each. Either
//! way list `i` is a slice (`lists[i]`), read as fast as before by the
//! walks of a warm session (spans read value by value made them slower:
//! session 14).

use super::kept_disk::{In, Out, Raw, Via, roomy, with_room};
use crate::model::hash::FastMap;

/// A node's edge positions (one way), as made here: most nodes have one
/// or two, held in place (a vector each cost 200,000 allocations at
/// 100,000 nodes).
pub(crate) type Lanes = smallvec::SmallVec<[usize; 2]>;

/// One list of edge positions per node (see the module doc).
#[derive(Clone, Default)]
pub(crate) struct EdgeLists {
    /// Where each list read back ends in `values` (the first
    /// `ends.len()` lists).
    ends: Vec<u32>,
    values: Vec<usize>,
    /// The lists read back and changed since, and a bit per list read
    /// back set for those (a walk tests a bit, not a hash, per list).
    moved: FastMap<usize, Lanes>,
    moved_bits: Vec<u64>,
    /// The lists after those read back.
    more: Vec<Lanes>,
}

impl EdgeLists {
    /// How many lists.
    pub(crate) fn len(&self) -> usize {
        self.ends.len() + self.more.len()
    }

    /// A list added at the end.
    pub(crate) fn push(&mut self, list: Lanes) {
        self.more.push(list);
    }

    /// List `i`, to change.
    pub(crate) fn list_mut(&mut self, i: usize) -> &mut Lanes {
        let kept = self.ends.len();
        if i >= kept {
            return &mut self.more[i - kept];
        }
        if self.moved_bits.is_empty() {
            self.moved_bits = vec![0; kept.div_ceil(64)];
        }
        self.moved_bits[i / 64] |= 1 << (i % 64);
        let (ends, values) = (&self.ends, &self.values);
        self.moved
            .entry(i)
            .or_insert_with(|| Lanes::from_slice(&values[span(ends, i)]))
    }

    /// Every list, in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = &[usize]> + '_ {
        (0..self.len()).map(|i| &self[i])
    }

    /// Room for what a warm session adds next (see
    /// [`super::kept_adj::room`]).
    pub(crate) fn make_room(&mut self) {
        super::kept_adj::room(&mut self.more);
    }
}

/// Where list `i` lies among the values read back.
#[inline]
fn span(ends: &[u32], i: usize) -> std::ops::Range<usize> {
    super::kept_disk::span_by(i, |k| ends[k] as usize)
}

impl std::ops::Index<usize> for EdgeLists {
    type Output = [usize];
    /// A list read back and not changed since, inline (every walk over
    /// the graph asks for each node's: an out-of-line call was a third of
    /// the join regions' pass at 100,000 nodes); any other through
    /// [`EdgeLists::other`].
    #[inline(always)]
    fn index(&self, i: usize) -> &[usize] {
        match self.ends.get(i) {
            Some(&end) if !self.moved_at(i) => {
                let start = self.ends.get(i.wrapping_sub(1)).map_or(0, |&s| s as usize);
                &self.values[start..end as usize]
            }
            _ => self.other(i),
        }
    }
}

impl EdgeLists {
    /// Whether list `i` (read back) was changed since.
    #[inline(always)]
    fn moved_at(&self, i: usize) -> bool {
        self.moved_bits
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// List `i` when it is not one read back and unchanged: one after
    /// those read back, or one changed since.
    #[inline(never)]
    fn other(&self, i: usize) -> &[usize] {
        let kept = self.ends.len();
        if i >= kept {
            return &self.more[i - kept];
        }
        match self.moved.get(&i) {
            Some(l) => l,
            None => &self.values[span(&self.ends, i)],
        }
    }
}

/// A list per node, as made.
impl From<Vec<Lanes>> for EdgeLists {
    fn from(more: Vec<Lanes>) -> EdgeLists {
        EdgeLists {
            more,
            ..EdgeLists::default()
        }
    }
}

impl std::fmt::Debug for EdgeLists {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The same lists, however they are held.
impl PartialEq for EdgeLists {
    fn eq(&self, other: &EdgeLists) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}
impl Eq for EdgeLists {}

/// On disk: every list's length, then all their values, each a
/// [`super::kept_disk::Flat`] list (the form a `Vec` of [`Lanes`] had);
/// read back flat (lengths that add up past the values, or short of
/// them, read as damaged).
pub(crate) struct FlatLists;

impl Via<EdgeLists> for FlatLists {
    fn put(v: &EdgeLists, out: &mut Out) {
        super::kept_disk::Flat::put(&v.iter().map(<[usize]>::len).collect(), out);
        super::kept_disk::Flat::put(&v.iter().flatten().copied().collect(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<EdgeLists> {
        let lens = Raw::get(inp)?;
        let values = Raw::get(inp)?;
        let mut ends = Vec::with_capacity(lens.len());
        let mut at = 0usize;
        for n in lens.iter() {
            at = at.checked_add(n)?;
            ends.push(u32::try_from(at).ok()?);
        }
        (at == values.len()).then(|| EdgeLists {
            ends,
            values: roomy(values.iter()),
            ..EdgeLists::default()
        })
    }
}

/// Each edge's (from, to) node positions, or none when an end does not
/// exist (see the module doc).
#[derive(Clone, Default, PartialEq, Eq)]
pub(crate) struct EdgeEnds(Vec<[u32; 2]>);

/// The ends of an edge with an end that does not exist.
const NO_ENDS: [u32; 2] = [u32::MAX; 2];

/// `x` as a position (fewer than 2^32 − 1 nodes).
fn position(x: usize) -> u32 {
    u32::try_from(x)
        .ok()
        .filter(|&p| p != u32::MAX)
        .expect("fewer than 2^32 - 1 nodes")
}

fn pack(ends: Option<(usize, usize)>) -> [u32; 2] {
    ends.map_or(NO_ENDS, |(f, t)| [position(f), position(t)])
}

impl EdgeEnds {
    pub(crate) fn with_capacity(n: usize) -> EdgeEnds {
        EdgeEnds(Vec::with_capacity(n))
    }

    /// How many edges.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Edge `k`'s ends.
    #[inline]
    pub(crate) fn get(&self, k: usize) -> Option<(usize, usize)> {
        let [f, t] = self.0[k];
        (f != u32::MAX).then_some((f as usize, t as usize))
    }

    pub(crate) fn push(&mut self, ends: Option<(usize, usize)>) {
        self.0.push(pack(ends));
    }

    /// Edge `k`'s ends are now `ends`.
    pub(crate) fn set(&mut self, k: usize, ends: Option<(usize, usize)>) {
        self.0[k] = pack(ends);
    }

    /// `n` edges: the ones added without ends.
    pub(crate) fn resize(&mut self, n: usize) {
        self.0.resize(n, NO_ENDS);
    }

    /// Every edge's ends, in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = Option<(usize, usize)>> + '_ {
        (0..self.len()).map(|k| self.get(k))
    }

    /// Room for what a warm session adds next (see
    /// [`super::kept_adj::room`]).
    pub(crate) fn make_room(&mut self) {
        super::kept_adj::room(&mut self.0);
    }

    /// A copy with room for a few edges more (a copy at the exact length
    /// is moved whole by the first edge added).
    pub(crate) fn clone_roomy(&self) -> EdgeEnds {
        let mut v = with_room(self.0.len());
        v.extend_from_slice(&self.0);
        EdgeEnds(v)
    }
}

impl std::fmt::Debug for EdgeEnds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// On disk: one [`super::kept_disk::Flat`] list of pairs, each position
/// plus one, (0, 0) for none; half a pair, a pair with one end 0 or a
/// position past 2^32 − 2 reads as damaged.
pub(crate) struct Pairs;

impl Via<EdgeEnds> for Pairs {
    fn put(v: &EdgeEnds, out: &mut Out) {
        let pair = |[f, t]: [u32; 2]| match f {
            u32::MAX => [0, 0],
            _ => [f as usize + 1, t as usize + 1],
        };
        super::kept_disk::Flat::put(&v.0.iter().flat_map(|&e| pair(e)).collect(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<EdgeEnds> {
        let pos = |p: usize| u32::try_from(p - 1).ok().filter(|&p| p != u32::MAX);
        let pairs = Raw::get(inp)?.pairs()?;
        let mut v = with_room(pairs.len());
        for (f, t) in pairs {
            v.push(match (f, t) {
                (0, 0) => NO_ENDS,
                (0, _) | (_, 0) => return None,
                (f, t) => [pos(f)?, pos(t)?],
            });
        }
        Some(EdgeEnds(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::kept_disk::Out;

    fn lanes(v: &[usize]) -> Lanes {
        Lanes::from_slice(v)
    }

    fn read_back(l: &EdgeLists) -> Option<EdgeLists> {
        let mut o = Out::default();
        FlatLists::put(l, &mut o);
        from_bytes_via(&o.finish())
    }

    fn from_bytes_via(bytes: &[u8]) -> Option<EdgeLists> {
        let mut inp = In::open(bytes)?;
        let v = FlatLists::get(&mut inp)?;
        inp.is_empty().then_some(v)
    }

    /// Read back flat, lists read as made; changed and added ones read
    /// as changed, and all of them read back again the same.
    #[test]
    fn lists_read_back_flat_change_and_read_back_again() {
        let made = EdgeLists::from(vec![
            lanes(&[1, 2]),
            lanes(&[]),
            lanes(&[3]),
            lanes(&[4, 5, 6]),
        ]);
        let mut back = read_back(&made).expect("reads back");
        assert_eq!(back, made);
        assert_eq!((back.ends.len(), back.more.len()), (4, 0), "read back flat");
        assert_eq!(&back[3], &[4, 5, 6]);
        assert!(back[1].is_empty());
        back.list_mut(1).push(9);
        back.list_mut(0).retain(|x| *x != 1);
        back.push(lanes(&[7]));
        back.list_mut(4).push(8);
        let want = EdgeLists::from(vec![
            lanes(&[2]),
            lanes(&[9]),
            lanes(&[3]),
            lanes(&[4, 5, 6]),
            lanes(&[7, 8]),
        ]);
        assert_eq!(back, want);
        assert_eq!(back.len(), 5);
        assert_eq!(format!("{back:?}"), "[[2], [9], [3], [4, 5, 6], [7, 8]]");
        assert_eq!(read_back(&back).expect("reads back"), want);
    }

    /// Ends read back as written; half a pair, one end missing or a
    /// position too large for a `u32`: damaged.
    #[test]
    fn ends_read_back_and_damage_reads_as_nothing() {
        let mut ends = EdgeEnds::with_capacity(3);
        for e in [Some((0, 3)), None, Some((2, 0))] {
            ends.push(e);
        }
        let mut o = Out::default();
        Pairs::put(&ends, &mut o);
        let bytes = o.finish();
        let back = In::open(&bytes)
            .and_then(|mut i| Pairs::get(&mut i))
            .expect("reads back");
        assert_eq!(back, ends);
        assert_eq!(
            back.iter().collect::<Vec<_>>(),
            [Some((0, 3)), None, Some((2, 0))]
        );
        let mut grown = back.clone();
        grown.resize(5);
        grown.set(4, Some((1, 1)));
        assert_eq!(
            (grown.get(3), grown.get(4), grown.len()),
            (None, Some((1, 1)), 5)
        );
        for bad in [
            vec![1usize, 2, 3],
            vec![0, 4],
            vec![4, 0],
            vec![1, u32::MAX as usize + 1],
        ] {
            let mut o = Out::default();
            super::super::kept_disk::Flat::put(&bad, &mut o);
            let bytes = o.finish();
            let got = In::open(&bytes).and_then(|mut i| Pairs::get(&mut i));
            assert!(got.is_none(), "{bad:?}");
        }
    }

    /// Lengths that add up past the values, or short of them: damaged.
    #[test]
    fn lengths_that_do_not_cover_the_values_read_as_damaged() {
        for (lens, values) in [
            (vec![2usize, 1], vec![7usize, 8]),
            (vec![1], vec![7, 8]),
            (vec![usize::MAX, 2], vec![1]),
        ] {
            let mut o = Out::default();
            super::super::kept_disk::Flat::put(&lens, &mut o);
            super::super::kept_disk::Flat::put(&values, &mut o);
            assert!(from_bytes_via(&o.finish()).is_none(), "{lens:?}");
        }
    }
}
