//! Lists of positions per node (adjacency: a node's edges, the nodes it
//! leads to, the ids it names) for the kept state (issue 17, session 14):
//! one flat vector and every list's offset in it, as read back from disk
//! or made whole, plus owned lists for those changed or added since.
//!
//! A `Vec<Vec<usize>>` of the same lists cost an allocation per non-empty
//! list on load (≈ 480,000 lists at 100,000 nodes over `Core`, `KeptReach`
//! and `Readers`: ≈ 50 M instructions); the flat form reads back in two
//! bulk copies, and a change copies out only the lists it changes.

use super::kept_disk::{Flat, In, Out, Via};

/// No owned list (see [`Adj::own`]).
const NONE: u32 = u32::MAX;

/// Lists of positions (see the module doc); `adj[i]` is list `i`.
#[derive(Clone, Default)]
pub(crate) struct Adj {
    /// Per list of the flat part, and one more: where it starts in `flat`.
    off: Vec<usize>,
    /// The flat part's values, list after list.
    flat: Vec<usize>,
    /// Empty while no list is owned; else per list: its index in `owned`,
    /// or [`NONE`] when it is in the flat part.
    own: Vec<u32>,
    /// The lists changed or added since the flat part was made.
    owned: Vec<Vec<usize>>,
}

impl Adj {
    /// How many lists.
    pub(crate) fn len(&self) -> usize {
        if self.own.is_empty() {
            self.off.len().saturating_sub(1)
        } else {
            self.own.len()
        }
    }

    /// Every list, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[usize]> + '_ {
        (0..self.len()).map(|i| &self[i])
    }

    /// List `i`, to change (copied out of the flat part the first time).
    pub(crate) fn list_mut(&mut self, i: usize) -> &mut Vec<usize> {
        if self.own.is_empty() {
            self.own = vec![NONE; self.len()];
        }
        if self.own[i] == NONE {
            let list = self.flat[self.off[i]..self.off[i + 1]].to_vec();
            self.own[i] = small(self.owned.len());
            self.owned.push(list);
        }
        &mut self.owned[self.own[i] as usize]
    }

    /// Room for what a warm session adds next (see
    /// [`super::kept_graph::room`]).
    pub(crate) fn make_room(&mut self) {
        if !self.own.is_empty() {
            super::kept_graph::room(&mut self.own);
            super::kept_graph::room(&mut self.owned);
        }
    }

    /// Adds `list` at the end.
    pub(crate) fn push(&mut self, list: Vec<usize>) {
        if self.own.is_empty() {
            self.own = vec![NONE; self.len()];
        }
        self.own.push(small(self.owned.len()));
        self.owned.push(list);
    }
}

/// `x` as a `u32` (fewer than 2^32 lists).
fn small(x: usize) -> u32 {
    u32::try_from(x).expect("fewer than 2^32 lists")
}

/// The lists made flat.
impl From<Vec<Vec<usize>>> for Adj {
    fn from(lists: Vec<Vec<usize>>) -> Adj {
        let mut off = Vec::with_capacity(lists.len() + 1);
        let mut flat = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        off.push(0);
        for l in &lists {
            flat.extend_from_slice(l);
            off.push(flat.len());
        }
        Adj {
            off,
            flat,
            ..Adj::default()
        }
    }
}

impl std::ops::Index<usize> for Adj {
    type Output = [usize];
    #[inline]
    fn index(&self, i: usize) -> &[usize] {
        match self.own.get(i) {
            Some(&o) if o != NONE => &self.owned[o as usize],
            _ => &self.flat[self.off[i]..self.off[i + 1]],
        }
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
        Flat::put(&self.iter().map(<[usize]>::len).collect(), out);
        Flat::put(&self.iter().flatten().copied().collect(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Adj> {
        let lens = Flat::get(inp)?;
        let flat = Flat::get(inp)?;
        let mut off = Vec::with_capacity(lens.len() + 1);
        let mut at = 0usize;
        off.push(0);
        for n in lens {
            at = at.checked_add(n)?;
            off.push(at);
        }
        (at == flat.len()).then_some(Adj {
            off,
            flat,
            ..Adj::default()
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
        // Lengths past the values, or short of them: nothing.
        for (lens, values) in [(vec![2, 1], vec![7, 8]), (vec![1], vec![7, 8])] {
            let mut o = Out::default();
            Flat::put(&lens, &mut o);
            Flat::put(&values, &mut o);
            assert!(from_bytes::<Adj>(&o.finish()).is_none());
        }
    }
}
