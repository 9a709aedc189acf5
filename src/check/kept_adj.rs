//! Lists of positions per node (adjacency: a node's edges, the nodes it
//! leads to, the ids it names) for the kept state (issue 17, session 14):
//! one flat vector of values and every list's span in it, as read back
//! from disk or made whole. A list changed to a longer one moves to the
//! end of the vector; the vector is made again when more than half of it
//! is left behind so.
//!
//! A `Vec<Vec<usize>>` of the same lists costs an allocation per non-empty
//! list on load (≈ 9 M instructions per pair of lists at 100,000 nodes);
//! the flat form reads back in two bulk copies, and reading a list costs
//! a span's load and a bounds check more. Used by `KeptReach` and
//! `Readers`, whose lists are read by their own updates only. `Core`'s
//! edge lists, read on every step of the graph walks of a warm session,
//! stay a vector per node (through spans they made a warm `connect_nodes`
//! at 100,000 nodes 4 % slower: docs/performance.md, session 14).

use super::kept_disk::{Flat, In, Out, Via};

/// Lists of positions (see the module doc); `adj[i]` is list `i`.
#[derive(Clone, Default)]
pub(crate) struct Adj {
    /// Per list: where it starts and ends in `flat`.
    spans: Vec<[u32; 2]>,
    /// The lists' values (and those of lists since moved).
    flat: Vec<usize>,
    /// How many values of `flat` no list covers.
    left: usize,
}

impl Adj {
    /// How many lists.
    pub(crate) fn len(&self) -> usize {
        self.spans.len()
    }

    /// Every list, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[usize]> + '_ {
        (0..self.len()).map(|i| &self[i])
    }

    /// Whether every value is below `n` (those of lists moved since
    /// included).
    pub(crate) fn all_below(&self, n: usize) -> bool {
        self.flat.iter().all(|&k| k < n)
    }

    /// Every list's length, in order.
    pub(crate) fn lens(&self) -> impl Iterator<Item = usize> + '_ {
        self.spans.iter().map(|&[s, e]| (e - s) as usize)
    }

    /// List `i`, to change: a copy, written back when dropped.
    pub(crate) fn list_mut(&mut self, i: usize) -> ListMut<'_> {
        let list = self[i].to_vec();
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

    /// List `i` is now `list`: in its place when it fits, else at the end.
    fn set(&mut self, i: usize, list: &[usize]) {
        let [s, e] = self.spans[i].map(|x| x as usize);
        if list.len() <= e - s {
            self.flat[s..s + list.len()].copy_from_slice(list);
            self.spans[i] = [small(s), small(s + list.len())];
            self.left += e - s - list.len();
        } else {
            let at = self.flat.len();
            self.flat.extend_from_slice(list);
            self.spans[i] = [small(at), small(self.flat.len())];
            self.left += e - s;
        }
        if self.left > 1024 && self.left * 2 > self.flat.len() {
            *self = Adj::from(self.iter().map(<[usize]>::to_vec).collect::<Vec<_>>());
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
            left: 0,
        }
    }
}

impl std::ops::Index<usize> for Adj {
    type Output = [usize];
    #[inline]
    fn index(&self, i: usize) -> &[usize] {
        let [s, e] = self.spans[i];
        &self.flat[s as usize..e as usize]
    }
}

impl std::fmt::Debug for Adj {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The same lists (however they are held).
impl PartialEq for Adj {
    fn eq(&self, other: &Adj) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}
impl Eq for Adj {}

/// On disk: every list's length, then all their values, as two [`Flat`]
/// lists (read back as the flat part). Lengths that do not add up to the
/// values read as damaged.
impl super::kept_disk::Persist for Adj {
    fn put(&self, out: &mut Out) {
        Flat::put(&self.lens().collect(), out);
        Flat::put(&self.iter().flatten().copied().collect(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Adj> {
        let lens = super::kept_disk::Raw::get(inp)?.iter();
        let flat = Flat::get(inp)?;
        u32::try_from(flat.len()).ok()?;
        let mut spans = super::kept_disk::with_room(lens.len());
        let mut at = 0usize;
        for n in lens {
            let end = at.checked_add(n)?;
            spans.push([at as u32, u32::try_from(end).ok()?]);
            at = end;
        }
        (at == flat.len()).then_some(Adj {
            spans,
            flat,
            left: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Adj;
    use crate::check::kept_disk::{Flat, Out, Via, from_bytes, to_bytes};

    #[test]
    fn lists_change_in_place_and_read_back() {
        let mut a = Adj::from(vec![vec![1, 2], vec![], vec![3]]);
        assert_eq!(a.len(), 3);
        assert_eq!(&a[0], &[1, 2]);
        assert!(a[1].is_empty());
        a.list_mut(1).push(7);
        a.list_mut(0).retain(|&x| x != 1);
        a.push(vec![9, 8]);
        a.list_mut(3).insert(0, 5);
        a.list_mut(3).remove(0);
        let want: Vec<Vec<usize>> = vec![vec![2], vec![7], vec![3], vec![9, 8]];
        assert_eq!(a.iter().map(<[usize]>::to_vec).collect::<Vec<_>>(), want);
        assert_eq!(a, Adj::from(want.clone()));
        let back: Adj = from_bytes(&to_bytes(&a)).expect("reads back");
        assert_eq!(back, a);
        assert_eq!(&back[3], &[9, 8]);
        let mut e = Adj::default();
        e.push(Vec::new());
        e.push(vec![4]);
        assert_eq!(e, Adj::from(vec![vec![], vec![4]]));
        // Lists moved often: the values left behind are dropped in time.
        for k in 0..5000 {
            e.list_mut(k % 2).push(k);
        }
        assert_eq!(e[0].len(), 2500);
        assert_eq!(e[1].len(), 2501);
        assert!(e.flat.len() <= 2 * 5001 + 1024, "{}", e.flat.len());
        // Lengths past the values, or short of them: nothing.
        for (lens, values) in [(vec![2, 1], vec![7, 8]), (vec![1], vec![7, 8])] {
            let mut o = Out::default();
            Flat::put(&lens, &mut o);
            Flat::put(&values, &mut o);
            assert!(from_bytes::<Adj>(&o.finish()).is_none());
        }
    }
}
