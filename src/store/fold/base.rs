//! Positions by id that a fold on top of a restored plan asks instead of
//! scanning its slots or indexing every id (issue 17): the id index of the
//! snapshot the plan was restored from (`snapshot::ids`), followed through
//! the folds on top of it while they add and remove a few nodes and edges.
//! A one-shot command folds a short tail and its own ops on top of a
//! 100,000-node plan and looks up a handful of ids: each scan was a pass
//! over every node, and indexing every id about 15 ms.
//!
//! Every answer is checked where it is used: the position given must hold
//! that id; an answer that does not, or a lookup that cannot tell (a
//! damaged part), sends the caller back to its scan.

use crate::model::hash::FastSet as HashSet;
use std::sync::Arc;

/// Positions by id in one content (see the module doc).
pub(crate) trait Lookup: Send + Sync {
    /// How many nodes the content it is about holds.
    fn nodes(&self) -> usize;
    /// How many edges.
    fn edges(&self) -> usize;
    /// The position of the node with `id`: `Some(None)` when no node has
    /// it, `None` when the lookup cannot tell (a damaged part).
    fn node(&self, id: &str) -> Option<Option<usize>>;
    /// As [`Lookup::node`], for the edge with `id`.
    fn edge(&self, id: &str) -> Option<Option<usize>>;
    /// The positions of the edges from or to node `id`, in order; `None`
    /// when the lookup cannot tell (or does not index them).
    fn edges_touching(&self, _id: &str) -> Option<Vec<usize>> {
        None
    }
}

/// Slots added on top of a [`Base`] that a lookup scans before asking it,
/// and slots removed from it that it follows; past these, the fold indexes
/// its ids itself (a warm session adding node after node on top of a
/// restored plan). A one-shot command folds the whole tail after the
/// snapshot on top of it, up to `snapshot::REWRITE_TAIL` (256 KiB, about
/// 1,100 ops): with 64, a script of `add-node` and `connect` lines made
/// every command after its 32nd pair index every id of a 100,000-node
/// plan (and scan them 16 times first), about 30 ms a command; a scan of
/// 1,024 slots is a few microseconds.
const FOLLOWED: usize = 1024;

/// Nodes (0) or edges (1).
pub(crate) type Side = usize;
pub(crate) const NODES: Side = 0;
pub(crate) const EDGES: Side = 1;

/// A [`Lookup`] about the content a fold was restored as, and the positions
/// of that content's nodes and edges removed since (sorted): a content
/// made on top of it holds that content's other slots in order, then the
/// slots added since.
#[derive(Clone)]
pub(crate) struct Base {
    lookup: Arc<dyn Lookup>,
    gone: Arc<[Vec<usize>; 2]>,
    /// An edge of the lookup's content was replaced in its slot since
    /// (its ends may be new): the lookup's edges of a node no longer hold.
    reshaped: bool,
}

impl std::fmt::Debug for Base {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (n, e) = (self.lookup.nodes(), self.lookup.edges());
        write!(f, "Base({n} nodes, {e} edges, {:?} gone)", self.gone)
    }
}

impl Base {
    pub(crate) fn new(lookup: Arc<dyn Lookup>) -> Base {
        Base {
            lookup,
            gone: Arc::new([Vec::new(), Vec::new()]),
            reshaped: false,
        }
    }

    /// This base, an edge of its content having been replaced in its slot.
    pub(crate) fn reshaped(self) -> Base {
        Base {
            reshaped: true,
            ..self
        }
    }

    /// The slots among `edges` of the edges from or to node `id`, in
    /// order: the lookup's that are still there, then those added since;
    /// `None` when it cannot tell (an edge replaced in its slot, too many
    /// added: the caller scans).
    pub(crate) fn edges_touching(
        &self,
        edges: &[crate::model::Edge],
        id: &str,
    ) -> Option<Vec<usize>> {
        let end = self.end(EDGES);
        if self.reshaped || end > edges.len() || edges.len() - end > FOLLOWED {
            return None;
        }
        let touches = |k: &usize| edges[*k].from == id || edges[*k].to == id;
        let mut found: Vec<usize> = (self.lookup.edges_touching(id)?)
            .into_iter()
            .filter_map(|p| self.now(p, EDGES))
            .filter(|&k| k < end)
            .collect();
        // Each of the lookup's still holds its ends: one that does not is
        // not this content's (the caller scans).
        if !found.iter().all(touches) {
            return None;
        }
        found.dedup();
        found.extend((end..edges.len()).filter(touches));
        Some(found)
    }

    /// How many of a content's slots stand for the lookup's (the slots
    /// after them were added since).
    pub(crate) fn end(&self, side: Side) -> usize {
        let n = if side == NODES {
            self.lookup.nodes()
        } else {
            self.lookup.edges()
        };
        n - self.gone[side].len()
    }

    /// The slot now of the lookup's position `p`; `None` when removed.
    fn now(&self, p: usize, side: Side) -> Option<usize> {
        match self.gone[side].binary_search(&p) {
            Ok(_) => None,
            Err(k) => Some(p - k),
        }
    }

    /// The lookup's position of slot `s` (below [`Base::end`]).
    fn then(&self, s: usize, side: Side) -> usize {
        let mut p = s;
        for &g in &self.gone[side] {
            if g > p {
                break;
            }
            p += 1;
        }
        p
    }

    /// The slot among `slots` present with `id` (`gone`: a slot emptied
    /// in the fold in progress), the slots added since scanned first;
    /// `None` when too many were added or the answer does not hold (the
    /// caller scans).
    pub(crate) fn find<T>(
        &self,
        slots: &[T],
        gone: impl Fn(usize) -> bool,
        id_of: impl Fn(&T) -> &str,
        id: &str,
        side: Side,
    ) -> Option<Option<usize>> {
        let end = self.end(side);
        if end > slots.len() || slots.len() - end > FOLLOWED {
            return None;
        }
        let present = |i: usize| id_of(&slots[i]) == id && !gone(i);
        if let Some(i) = (end..slots.len()).rev().find(|&i| present(i)) {
            return Some(Some(i));
        }
        let at = if side == NODES {
            self.lookup.node(id)?
        } else {
            self.lookup.edge(id)?
        };
        let Some(i) = at.map(|p| self.now(p, side)) else {
            return Some(None);
        };
        match i {
            // Removed since (and not added again: not among the slots added).
            None => Some(None),
            Some(i) if i < end && id_of(&slots[i]) == id => Some((!gone(i)).then_some(i)),
            Some(_) => None,
        }
    }

    /// The base of the content a fold makes from slots whose `removed`
    /// ones (per side) are taken out; `None` when it would follow more
    /// removals than it does.
    pub(crate) fn after(&self, removed: [&HashSet<usize>; 2]) -> Option<Base> {
        if removed.iter().all(|r| r.is_empty()) {
            return Some(self.clone());
        }
        let mut gone = (*self.gone).clone();
        for side in [NODES, EDGES] {
            let end = self.end(side);
            let mut more: Vec<usize> = removed[side]
                .iter()
                .filter(|&&s| s < end)
                .map(|&s| self.then(s, side))
                .collect();
            gone[side].append(&mut more);
            gone[side].sort_unstable();
            if gone[side].len() > FOLLOWED {
                return None;
            }
        }
        Some(Base {
            lookup: self.lookup.clone(),
            gone: Arc::new(gone),
            reshaped: self.reshaped,
        })
    }
}

/// Nodes and edges as a snapshot's index answers for them (for tests of a
/// base, and of a fold on top of a restored plan): each node's position,
/// each edge's, and the edges from or to each node id, in order.
#[cfg(test)]
pub(super) struct Indexed(
    pub(super) Vec<crate::model::Node>,
    pub(super) Vec<crate::model::Edge>,
);

#[cfg(test)]
impl Lookup for Indexed {
    fn nodes(&self) -> usize {
        self.0.len()
    }
    fn edges(&self) -> usize {
        self.1.len()
    }
    fn node(&self, id: &str) -> Option<Option<usize>> {
        Some(self.0.iter().position(|n| n.id == id))
    }
    fn edge(&self, id: &str) -> Option<Option<usize>> {
        Some(self.1.iter().rposition(|e| e.id == id))
    }
    fn edges_touching(&self, id: &str) -> Option<Vec<usize>> {
        let all = self.1.iter().enumerate();
        Some(
            all.filter(|(_, e)| e.from == id || e.to == id)
                .map(|(k, _)| k)
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::hash::FastMap;

    /// The positions of a list of ids, as a snapshot's index gives them.
    struct Listed(FastMap<String, usize>, usize);

    impl Lookup for Listed {
        fn nodes(&self) -> usize {
            self.1
        }
        fn edges(&self) -> usize {
            0
        }
        fn node(&self, id: &str) -> Option<Option<usize>> {
            Some(self.0.get(id).copied())
        }
        fn edge(&self, _: &str) -> Option<Option<usize>> {
            Some(None)
        }
    }

    /// Up to [`FOLLOWED`] slots added on top, a lookup scans them and asks
    /// the base; past that it says it cannot tell (the fold indexes its
    /// ids itself).
    #[test]
    fn a_base_follows_up_to_its_limit_of_added_slots() {
        let mut slots: Vec<String> = (0..10).map(|i| format!("n{i}")).collect();
        let listed = slots
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i))
            .collect();
        let base = Base::new(Arc::new(Listed(listed, 10)));
        slots.extend((0..super::FOLLOWED).map(|k| format!("a{k}")));
        let find = |slots: &[String], id: &str| {
            base.find(slots, |_| false, |s: &String| s.as_str(), id, NODES)
        };
        assert_eq!(find(&slots, "n3"), Some(Some(3)));
        assert_eq!(find(&slots, "a0"), Some(Some(10)));
        assert_eq!(find(&slots, "nope"), Some(None));
        slots.push("one more".into());
        assert_eq!(find(&slots, "n3"), None);
    }

    fn edge(id: &str, from: &str, to: &str) -> crate::model::Edge {
        crate::model::Edge {
            id: id.into(),
            from: from.into(),
            to: to.into(),
            handle: crate::model::Handle::Always,
        }
    }

    /// A node's edges: the lookup's still there (at their slots now) and
    /// those added since, in order; an edge replaced in its slot, or one
    /// the lookup lists that does not touch the node, makes it say it
    /// cannot tell.
    #[test]
    fn a_base_lists_a_nodes_edges_after_removals_and_additions() {
        let mut edges = vec![
            edge("e0", "a", "b"),
            edge("e1", "b", "c"),
            edge("e2", "a", "c"),
            edge("e3", "c", "a"),
        ];
        let base = Base::new(Arc::new(Indexed(Vec::new(), edges.clone())));
        assert_eq!(base.edges_touching(&edges, "a"), Some(vec![0, 2, 3]));
        // e0 removed, e4 added.
        let gone = HashSet::from_iter([0usize]);
        let empty = HashSet::default();
        let after = base.after([&empty, &gone]).expect("follows one removal");
        edges.remove(0);
        edges.push(edge("e4", "d", "a"));
        assert_eq!(after.edges_touching(&edges, "a"), Some(vec![1, 2, 3]));
        assert_eq!(after.edges_touching(&edges, "b"), Some(vec![0]));
        assert_eq!(after.edges_touching(&edges, "z"), Some(vec![]));
        // The lookup's list no longer holds: it cannot tell.
        edges[1] = edge("e2", "x", "y");
        assert_eq!(after.edges_touching(&edges, "a"), None);
        // Replaced in its slot: it cannot tell, even for a node it lists.
        assert_eq!(after.clone().reshaped().edges_touching(&edges, "b"), None);
    }

    proptest::proptest! {
        /// Through rounds of removals and additions (each round a fold
        /// that takes its removed slots out), the base finds every id at
        /// its position in the content made, and no removed id.
        #[test]
        fn a_base_follows_the_slots_removed_and_added(
            n in 1usize..120,
            rounds in proptest::collection::vec(
                (proptest::collection::vec(0usize..200, 0..6), 0usize..4), 1..6),
        ) {
            let mut slots: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
            let listed = slots.iter().enumerate().map(|(i, s)| (s.clone(), i)).collect();
            let mut base = Some(Base::new(Arc::new(Listed(listed, n))));
            let mut removed_ids: Vec<String> = Vec::new();
            for (r, (removals, added)) in rounds.iter().enumerate() {
                let gone: HashSet<usize> = removals
                    .iter()
                    .filter(|_| !slots.is_empty())
                    .map(|&k| k % slots.len())
                    .collect();
                let empty = HashSet::default();
                base = base.and_then(|b| b.after([&gone, &empty]));
                removed_ids.extend(gone.iter().map(|&i| slots[i].clone()));
                slots = slots
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| !gone.contains(i))
                    .map(|(_, s)| s)
                    .collect();
                slots.extend((0..*added).map(|k| format!("a{r}_{k}")));
                let Some(b) = &base else { break };
                for (i, id) in slots.iter().enumerate() {
                    let got = b.find(&slots, |_| false, |s: &String| s.as_str(), id, NODES);
                    proptest::prop_assert_eq!(got, Some(Some(i)), "{} in round {}", id, r);
                }
                for id in &removed_ids {
                    let got = b.find(&slots, |_| false, |s: &String| s.as_str(), id, NODES);
                    proptest::prop_assert_eq!(got, Some(None), "{} removed", id);
                }
            }
        }
    }
}
