//! Lists of positions per node (adjacency: a node's edges, the nodes it
//! leads to, the ids it names) for the kept state (issue 17, session 14):
//! one flat vector of values and every list's span in it, made whole or
//! added since. A list changed to a longer one moves to the end of the
//! vector; the vector is made again when more than half of it is left
//! behind so.
//!
//! Read back from disk, the lists stay where they lie in the kept bytes
//! (where each ends and the values, little-endian `u32`s, read when
//! asked; session 30): a one-shot write reads and changes a few of them,
//! and decoding all four such lists of the kept state into vectors cost
//! ≈ 4 ms at 100,000 nodes. A list read from disk and then changed is
//! moved into the flat vector.
//!
//! A `Vec<Vec<usize>>` of the same lists costs an allocation per non-empty
//! list on load (≈ 9 M instructions per pair of lists at 100,000 nodes).
//! Used by `KeptReach` and `Readers`, whose lists are read by their own
//! updates only. `Core`'s edge lists, read on every step of the graph
//! walks of a warm session, stay a vector per node (through spans they
//! made a warm `connect_nodes` at 100,000 nodes 4 % slower:
//! docs/performance.md, session 14).

use super::kept_disk::{In, Out, Words, bisect};
use crate::model::hash::FastMap;

/// Lists of positions (see the module doc); [`Adj::list`] is list `i`.
#[derive(Clone, Default)]
pub(crate) struct Adj {
    /// The lists read from disk (the first [`Adj::kept_len`]): where each
    /// ends among the values, and the values.
    kept: (Words, Words),
    /// The kept lists changed since: where they are now in `flat`.
    moved: FastMap<usize, [u32; 2]>,
    /// Per list after the kept ones: where it starts and ends in `flat`.
    spans: Vec<[u32; 2]>,
    /// The values of the lists made here or moved (and of those since
    /// moved again).
    flat: Vec<usize>,
    /// How many values of `flat` no list covers.
    left: usize,
}

/// One list of an [`Adj`], where it lies.
#[derive(Clone, Copy)]
pub(crate) enum List<'a> {
    Own(&'a [usize]),
    /// Values `.1 .. .2` of the kept ones.
    Kept(&'a Words, usize, usize),
}

impl<'a> List<'a> {
    pub(crate) fn len(&self) -> usize {
        match self {
            List::Own(v) => v.len(),
            List::Kept(_, s, e) => e - s,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Value `j` (below [`List::len`]).
    #[inline]
    pub(crate) fn get(&self, j: usize) -> usize {
        match self {
            List::Own(v) => v[j],
            List::Kept(w, s, _) => w.get(s + j) as usize,
        }
    }

    /// The values, in order.
    pub(crate) fn iter(self) -> impl ExactSizeIterator<Item = usize> + 'a {
        (0..self.len()).map(move |j| self.get(j))
    }

    /// Where `x` is (or would go), in a sorted list.
    pub(crate) fn binary_search(&self, x: usize) -> Result<usize, usize> {
        bisect(self.len(), |j| self.get(j).cmp(&x))
    }

    pub(crate) fn to_vec(self) -> Vec<usize> {
        self.iter().collect()
    }
}

impl Adj {
    /// How many lists.
    pub(crate) fn len(&self) -> usize {
        self.kept_len() + self.spans.len()
    }

    /// How many lists were read from disk.
    fn kept_len(&self) -> usize {
        self.kept.0.len()
    }

    /// List `i`.
    #[inline]
    pub(crate) fn list(&self, i: usize) -> List<'_> {
        let k = self.kept_len();
        let span = if i < k {
            match self.moved.get(&i) {
                Some(&span) => span,
                None => {
                    let r = self.kept.0.span(i);
                    return List::Kept(&self.kept.1, r.start, r.end);
                }
            }
        } else {
            self.spans[i - k]
        };
        List::Own(&self.flat[span[0] as usize..span[1] as usize])
    }

    /// Every list, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = List<'_>> + '_ {
        (0..self.len()).map(|i| self.list(i))
    }

    /// Whether every value is below `n` (those of lists moved since
    /// included).
    pub(crate) fn all_below(&self, n: usize) -> bool {
        self.kept.1.iter().all(|k| (k as usize) < n) && self.flat.iter().all(|&k| k < n)
    }

    /// List `i`, to change: a copy, written back when dropped.
    pub(crate) fn list_mut(&mut self, i: usize) -> ListMut<'_> {
        let list = self.list(i).to_vec();
        ListMut { adj: self, i, list }
    }

    /// Adds `list` at the end.
    pub(crate) fn push(&mut self, list: Vec<usize>) {
        let at = small(self.flat.len());
        self.flat.extend_from_slice(&list);
        self.spans.push([at, small(self.flat.len())]);
    }

    /// Room for what a warm session adds next (see [`room`]).
    pub(crate) fn make_room(&mut self) {
        room(&mut self.spans);
        room(&mut self.flat);
    }

    /// List `i` is now `list`: in its place when it fits, else at the end
    /// (a kept list, at the end).
    fn set(&mut self, i: usize, list: &[usize]) {
        let k = self.kept_len();
        let now = if i < k {
            self.moved.get(&i).copied()
        } else {
            Some(self.spans[i - k])
        };
        let span = match now.map(|[s, e]| (s as usize, e as usize)) {
            Some((s, e)) if list.len() <= e - s => {
                self.flat[s..s + list.len()].copy_from_slice(list);
                self.left += e - s - list.len();
                [small(s), small(s + list.len())]
            }
            old => {
                let at = self.flat.len();
                self.flat.extend_from_slice(list);
                self.left += old.map_or(0, |(s, e)| e - s);
                [small(at), small(self.flat.len())]
            }
        };
        if i < k {
            self.moved.insert(i, span);
        } else {
            self.spans[i - k] = span;
        }
        if self.left > 1024 && self.left * 2 > self.flat.len() {
            *self = Adj::from(self.iter().map(List::to_vec).collect::<Vec<_>>());
        }
    }
}

/// A list of an [`Adj`] being changed (see [`Adj::list_mut`]).
pub(crate) struct ListMut<'a> {
    adj: &'a mut Adj,
    i: usize,
    list: Vec<usize>,
}

impl std::ops::Deref for ListMut<'_> {
    type Target = Vec<usize>;
    fn deref(&self) -> &Vec<usize> {
        &self.list
    }
}

impl std::ops::DerefMut for ListMut<'_> {
    fn deref_mut(&mut self) -> &mut Vec<usize> {
        &mut self.list
    }
}

impl Drop for ListMut<'_> {
    fn drop(&mut self) {
        self.adj.set(self.i, &self.list);
    }
}

/// Room in `v` for the nodes (or edges) a warm session adds next, made
/// when it has almost none: a vector made afresh (exactly sized, as after
/// an added edge) would otherwise be moved whole by the next add, a copy
/// of every element per add at 100,000 nodes. Made after the run
/// that made it, it is moved once per quarter of its length added.
pub(crate) fn room<T>(v: &mut Vec<T>) {
    if v.capacity() - v.len() < 16 {
        v.reserve_exact(v.len() / 4 + 16);
    }
}

/// `x` as a `u32` (fewer than 2^32 values).
fn small(x: usize) -> u32 {
    u32::try_from(x).expect("fewer than 2^32 values")
}

/// The lists made flat.
impl From<Vec<Vec<usize>>> for Adj {
    fn from(lists: Vec<Vec<usize>>) -> Adj {
        let mut flat = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        let mut spans = Vec::with_capacity(lists.len());
        for l in &lists {
            let at = small(flat.len());
            flat.extend_from_slice(l);
            spans.push([at, small(flat.len())]);
        }
        Adj {
            spans,
            flat,
            ..Adj::default()
        }
    }
}

impl std::fmt::Debug for Adj {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(List::to_vec))
            .finish()
    }
}

/// The same lists (however they are held).
impl PartialEq for Adj {
    fn eq(&self, other: &Adj) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .zip(other.iter())
                .all(|(a, b)| a.iter().eq(b.iter()))
    }
}
impl Eq for Adj {}

/// On disk: where each list ends among the values, then the values, as
/// little-endian `u32` lists (read back where they lie). Ends that go
/// back or do not end at the values' end read as damaged.
impl super::kept_disk::Persist for Adj {
    fn put(&self, out: &mut Out) {
        let mut ends = Vec::with_capacity(self.len());
        let mut values = Vec::new();
        for l in self.iter() {
            values.extend(l.iter().map(small));
            ends.push(small(values.len()));
        }
        out.u32s(&ends);
        out.u32s(&values);
    }
    fn get(inp: &mut In<'_>) -> Option<Adj> {
        let (ends, values) = (inp.u32s_kept()?, inp.u32s_kept()?);
        ends.ends_at(values.len()).then(|| Adj {
            kept: (ends, values),
            ..Adj::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Adj, List};
    use crate::check::kept_disk::{Out, Shared, from_bytes, from_shared, to_bytes};

    fn lists(a: &Adj) -> Vec<Vec<usize>> {
        a.iter().map(List::to_vec).collect()
    }

    #[test]
    fn lists_change_in_place_and_read_back() {
        let mut a = Adj::from(vec![vec![1, 2], vec![], vec![3]]);
        assert_eq!(a.len(), 3);
        assert_eq!(a.list(0).to_vec(), [1, 2]);
        assert!(a.list(1).is_empty());
        a.list_mut(1).push(7);
        a.list_mut(0).retain(|&x| x != 1);
        a.push(vec![9, 8]);
        a.list_mut(3).insert(0, 5);
        a.list_mut(3).remove(0);
        let want: Vec<Vec<usize>> = vec![vec![2], vec![7], vec![3], vec![9, 8]];
        assert_eq!(lists(&a), want);
        assert_eq!(a, Adj::from(want.clone()));
        let back: Adj = from_bytes(&to_bytes(&a)).expect("reads back");
        assert_eq!(back, a);
        assert_eq!(back.list(3).to_vec(), [9, 8]);
        let mut e = Adj::default();
        e.push(Vec::new());
        e.push(vec![4]);
        assert_eq!(e, Adj::from(vec![vec![], vec![4]]));
        // Lists moved often: the values left behind are dropped in time.
        for k in 0..5000 {
            e.list_mut(k % 2).push(k);
        }
        assert_eq!(e.list(0).len(), 2500);
        assert_eq!(e.list(1).len(), 2501);
        assert!(e.flat.len() <= 2 * 5001 + 1024, "{}", e.flat.len());
        // Ends going back, or short of the values or past them: nothing.
        for (ends, values) in [
            (vec![2u32, 1], vec![7u32, 8]),
            (vec![1], vec![7, 8]),
            (vec![3], vec![7, 8]),
        ] {
            let mut o = Out::default();
            o.u32s(&ends);
            o.u32s(&values);
            assert!(from_bytes::<Adj>(&o.finish()).is_none(), "{ends:?}");
        }
    }

    /// Read from a shared buffer, lists stay where they lie until changed;
    /// sorted lists are searched where they lie; changed, added and kept
    /// lists read back together.
    #[test]
    fn kept_lists_are_read_where_they_lie_and_moved_when_changed() {
        let want: Vec<Vec<usize>> = (0..50).map(|i| (i..i + i % 4).collect()).collect();
        let bytes: Shared = std::sync::Arc::new(to_bytes(&Adj::from(want.clone())));
        let mut a: Adj = from_shared(&bytes).expect("reads back");
        assert_eq!((a.kept_len(), a.flat.len()), (50, 0), "nothing decoded");
        assert_eq!(lists(&a), want);
        assert!(a.all_below(50) && !a.all_below(49));
        assert_eq!(a.list(7).binary_search(9), Ok(2));
        assert_eq!(a.list(7).binary_search(10), Err(3));
        assert_eq!(a.list(8).binary_search(1), Err(0));
        a.list_mut(7).push(100);
        a.list_mut(8).push(1);
        a.list_mut(7).clear();
        a.push(vec![5]);
        let mut changed = want.clone();
        changed[7].clear();
        changed[8].push(1);
        changed.push(vec![5]);
        assert_eq!(lists(&a), changed);
        assert_eq!(a.moved.len(), 2);
        let again: Adj = from_bytes(&to_bytes(&a)).expect("reads back");
        assert_eq!(again, a);
        assert!(!a.all_below(100) && a.all_below(101));
    }
}
