//! Kahn's topological order, and on the same walk the nearest joins and
//! meets above each node ([`Nearest`]), which the join region rules ask
//! for after every change that sorts the graph again.
//!
//! When a node is taken, each of its predecessors has been, so what it
//! passes on (its own position when it is a join or a meet, else the best
//! it was passed) is final, and so is whether an entry reaches it. Made
//! here, the answer costs the walk Kahn's order makes anyway; made by a
//! pass of its own ([`super::flow::nearest_joins_and_meets`], when the
//! order is kept), it walked every out-list and edge end again (≈ 12 M
//! instructions and ≈ 2 ms at 100,000 nodes).

use super::kept_lanes::{EdgeEnds, EdgeLists};

/// A node's slot in the walk: its incoming edges not passed yet, its
/// flags, and the nearest join and meet above it. One slot per node, so
/// that passing an edge on touches one place in memory, not three.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Slot {
    left: u32,
    flags: u32,
    near: [u32; 2],
}

/// [`Slot::flags`]: a join; a meet (not a join, more than one incoming
/// edge); reached from an entry (so far).
const JOIN: u32 = 1;
const MEET: u32 = 2;
const REACHED: u32 = 4;

/// Per node, the reachable proper ancestors that come last in the order
/// among the joins and among the meets: their positions plus one (0:
/// none). Made by the sort ([`kahn_into`]) or by a pass of its own.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Nearest {
    Sorted(Vec<Slot>),
    Passed(Vec<[u32; 2]>),
}

impl Nearest {
    /// Node `i`'s nearest join and meet, as positions plus one.
    pub(crate) fn at(&self, i: usize) -> [u32; 2] {
        match self {
            Nearest::Sorted(v) => v[i].near,
            Nearest::Passed(v) => v[i],
        }
    }

    /// Every node's, in node order.
    pub(crate) fn pairs(&self) -> Vec<[u32; 2]> {
        match self {
            Nearest::Sorted(v) => v.iter().map(|s| s.near).collect(),
            Nearest::Passed(v) => v.clone(),
        }
    }
}

/// Kahn's algorithm; `None` when a cycle remains. O(n + e). The order is
/// made in `order`'s memory (a kept order made again after a change: no
/// fresh pages for it at 100,000 nodes), with the [`Nearest`] joins and
/// meets on the way. `joins` and `entries` are the graph's
/// ([`super::graph::Core`]).
pub(crate) fn kahn_into(
    mut order: Vec<usize>,
    n: usize,
    out: &EdgeLists,
    ends: &EdgeEnds,
    joins: &[bool],
    entries: &[usize],
) -> Option<(Vec<usize>, Nearest)> {
    let mut slots = counted(n, ends, joins, entries);
    let mut ready: Vec<usize> = (0..n).filter(|&i| slots[i].left == 0).rev().collect();
    order.clear();
    order.reserve(n);
    while let Some(i) = ready.pop() {
        let here = u32::try_from(order.len() + 1).expect("fewer than 2^32 nodes");
        order.push(i);
        let Slot {
            flags, mut near, ..
        } = slots[i];
        if flags & JOIN != 0 {
            near[0] = here;
        } else if flags & MEET != 0 {
            near[1] = here;
        }
        for &e in out[i].iter().rev() {
            if let Some((_, t)) = ends.get(e) {
                let s = &mut slots[t];
                if flags & REACHED != 0 {
                    s.flags |= REACHED;
                    s.near = [s.near[0].max(near[0]), s.near[1].max(near[1])];
                }
                s.left -= 1;
                if s.left == 0 {
                    ready.push(t);
                }
            }
        }
    }
    (order.len() == n).then_some((order, Nearest::Sorted(slots)))
}

/// The slots before the walk: each node's incoming edges, counted over
/// the edges' ends in one pass (a node's incoming list holds exactly the
/// edges whose ends are both there and whose target it is; not list by
/// list through the kept lists' lookups, ≈ 5 M instructions at 100,000
/// nodes), its kind, and the entries reached.
fn counted(n: usize, ends: &EdgeEnds, joins: &[bool], entries: &[usize]) -> Vec<Slot> {
    let mut slots = vec![Slot::default(); n];
    for (_, t) in ends.iter().flatten() {
        if let Some(s) = slots.get_mut(t) {
            s.left += 1;
        }
    }
    for (s, &join) in slots.iter_mut().zip(joins) {
        s.flags = match (join, s.left > 1) {
            (true, _) => JOIN,
            (false, true) => MEET,
            (false, false) => 0,
        };
    }
    for &e in entries {
        slots[e].flags |= REACHED;
    }
    slots
}
