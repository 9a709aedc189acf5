//! The graph's shape ([`Core`]: id index, adjacency, entries, topological
//! order) kept between incremental runs (issue 17) and brought up to the
//! new content from what a change touched, so that a change costs what it
//! changes instead of a new index of every id and edge.
//!
//! Without a removal every node and edge stays at its position and new
//! ones come at the end ([`Touched::removed`]), unless the fold brings back
//! an edge it left out while an end was missing (it comes back at its
//! place: then an edge past the old end is not one of
//! [`Touched::new_edges`], and the shape is made again). New nodes are indexed, the
//! touched nodes' kinds decide the entries, and the edges to look at again
//! are the new ones, those at a touched node (an edge replaced in place has
//! its old and new ends touched) and the dangling ones (a new node may be
//! their missing end). Kahn's order is made again when an edge's ends
//! changed; new nodes without edges come last in it, as a fresh sort puts
//! them. Anything else (a removal, a repeated id, fewer nodes or edges) is
//! left to a rebuild, which [`Core::update`] asks for by returning false.
//! In a debug build the result is compared with a rebuild.

use super::graph::{Analyses, Core, Lanes, MAX_ROUTES, edge_ends, spread};
use super::kahn::{Nearest, kahn_into};
use super::kept_adj::room;
use super::kept_later::{Later, made_mut};
use crate::model::hash::{FastMap, FastSet};
use crate::model::touched::Touched;
use crate::model::{Content, NodeKind};

/// What [`Core::update`] changed that the kept analyses must follow.
#[derive(Debug, Default)]
pub(crate) struct Delta {
    /// The edges that now have both ends and had not before (new ones, or
    /// dangling ones whose missing end arrived), as (from, to).
    pub(crate) added: Vec<(usize, usize)>,
    /// An old edge lost or changed its ends (a replacement in place).
    pub(crate) moved: bool,
    /// An old node became or stopped being a join.
    pub(crate) joins: bool,
    /// Kahn's order was made again (else new nodes were put last in it).
    pub(crate) resorted: bool,
    /// The nearest joins and meets the sort made on the way, when it was
    /// made again (see [`kahn_into`]).
    pub(crate) nearest: Option<Nearest>,
}

impl Core {
    /// Room for what a warm session adds next (see [`room`]).
    pub(crate) fn make_room(&mut self) {
        self.out.make_room();
        self.inc.make_room();
        self.ends.make_room();
        room(&mut self.joins);
        room(&mut self.canonical);
        if let Some(t) = &mut self.topo {
            room(t);
        }
    }

    /// Brings the shape up to `content`, `touched` being what changed since
    /// the content it was made for, and says what changed. `None` when it
    /// cannot (then it is to be made again with [`Core::new`]; it may be
    /// half updated).
    pub(crate) fn update(&mut self, content: &Content, touched: &Touched) -> Option<Delta> {
        let (n0, e0) = (self.canonical.len(), self.ends.len());
        let (n, e) = (content.nodes.len(), content.edges.len());
        if touched.removed || self.repeated || n < n0 || e < e0 {
            return None;
        }
        // An edge back from the fold's dangling ones comes at its place:
        // then an old edge is past the old end.
        if !content.edges[e0..]
            .iter()
            .all(|x| touched.new_edges.contains(x.id.as_str()))
        {
            return None;
        }
        for (i, node) in content.nodes.iter().enumerate().skip(n0) {
            if self.idx.insert_first(&node.id, i).is_some() {
                return None;
            }
            self.canonical.push(true);
            self.out.push(Lanes::new());
            self.inc.push(Lanes::new());
            self.joins.push(node.kind == NodeKind::Join);
        }
        let mut delta = Delta::default();
        let mut again: Vec<usize> = std::mem::take(&mut self.dangling);
        let mut at: Vec<usize> = (n0..n).collect();
        for id in &touched.nodes {
            let Some(i) = self.idx.get(id) else {
                continue;
            };
            if i < n0 {
                at.push(i);
                again.extend(self.out[i].iter().chain(&self.inc[i]));
                let join = content.nodes[i].kind == NodeKind::Join;
                delta.joins |= self.joins[i] != join;
                self.joins[i] = join;
            }
        }
        for i in at {
            set_sorted(
                &mut self.entries,
                i,
                content.nodes[i].kind == NodeKind::Entry,
            );
        }
        again.extend(e0..e);
        again.sort_unstable();
        again.dedup();
        self.ends.resize(e);
        for k in again {
            let new = edge_ends(&self.idx, &content.edges[k]);
            let old = self.ends.get(k);
            if new.is_none() {
                self.dangling.push(k);
            }
            if new == old {
                continue;
            }
            match (old, new) {
                (None, Some(ends)) => delta.added.push(ends),
                _ => delta.moved = true,
            }
            if let Some((f, t)) = old {
                set_sorted(self.out.list_mut(f), k, false);
                set_sorted(self.inc.list_mut(t), k, false);
            }
            if let Some((f, t)) = new {
                set_sorted(self.out.list_mut(f), k, true);
                set_sorted(self.inc.list_mut(t), k, true);
            }
            self.ends.set(k, new);
        }
        let same_order = !delta.moved && self.kahn_keeps(n0, &delta.added);
        if let (true, Some(order)) = (same_order, &mut self.topo) {
            order.extend(n0..n);
        } else {
            let old = self.topo.take().unwrap_or_default();
            let sorted = kahn_into(old, n, &self.out, &self.ends, &self.joins, &self.entries);
            (self.topo, delta.nearest) = sorted.unzip();
            delta.resorted = true;
        }
        debug_assert_eq!(*self, Core::new(content), "the kept graph equals a new one");
        Some(delta)
    }

    /// Whether Kahn's order ([`kahn_into`]) of the graph with the `added`
    /// edges (already in the lists) is the kept one with the nodes from
    /// `n0` on put last. Each added edge `f → t` between old nodes must
    /// have `f` come before `q`, the last of `t`'s other predecessors in
    /// the order: `t` was pushed when `q` was taken, and is still, since
    /// `f` now counts down `t` earlier and pushes nothing. (`t` with no
    /// other predecessor, or `f` after `q` — a cycle, or `t` readied
    /// later — moves things: made again.) One pass over the order for the
    /// positions, up to the last one asked.
    fn kahn_keeps(&self, n0: usize, added: &[(usize, usize)]) -> bool {
        let Some(order) = &self.topo else {
            return false;
        };
        if added.iter().any(|&(f, t)| f >= n0 || t >= n0) || order.len() != n0 {
            return false;
        }
        // Per added edge: its source, and its target's other predecessors.
        let mut asked: Vec<usize> = Vec::new();
        for &(f, t) in added {
            asked.push(f);
            asked.extend(self.other_preds(t, f));
        }
        asked.sort_unstable();
        asked.dedup();
        let mut pos: FastMap<usize, usize> = FastMap::default();
        for (p, &v) in order.iter().enumerate() {
            if asked.binary_search(&v).is_ok() {
                pos.insert(v, p);
                if pos.len() == asked.len() {
                    break;
                }
            }
        }
        added.iter().all(|&(f, t)| {
            let last = self.other_preds(t, f).filter_map(|p| pos.get(&p)).max();
            last.is_some_and(|&q| pos.get(&f).is_some_and(|&pf| pf < q))
        })
    }

    /// `t`'s predecessors over its edges but the ones from `f`.
    fn other_preds(&self, t: usize, f: usize) -> impl Iterator<Item = usize> + '_ {
        self.preds(t).filter(move |&p| p != f)
    }

    /// Predecessor node indices of `i`, one per edge.
    fn preds(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.inc[i]
            .iter()
            .filter_map(move |&e| self.ends.get(e).map(|(f, _)| f))
    }

    /// Successor node indices of `i`, one per edge.
    fn succs(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.out[i]
            .iter()
            .filter_map(move |&e| self.ends.get(e).map(|(_, t)| t))
    }

    fn is_routable(&self) -> bool {
        self.topo.is_some() && self.entries.len() == 1
    }
}

/// What the analyses depend on in a kept [`Core`], taken before
/// [`Core::update`] to tell afterwards which of them still hold.
pub(crate) struct Shape {
    nodes: usize,
    entries: Vec<usize>,
    acyclic: bool,
    routable: bool,
}

impl Shape {
    pub(crate) fn of(core: &Core) -> Shape {
        Shape {
            nodes: core.canonical.len(),
            entries: core.entries.clone(),
            acyclic: core.topo.is_some(),
            routable: core.is_routable(),
        }
    }
}

impl Analyses {
    /// Room for what a warm session adds next (see [`room`]) in the
    /// analyses made (a warm session's are; one still kept as bytes is
    /// made with its room when decoded).
    pub(crate) fn make_room(&mut self) {
        if let Some(Later::Made(v)) = &mut self.reach {
            room(v);
        }
        if let Some(Later::Made(v)) = &mut self.idom {
            room(v);
        }
        if let Some(Later::Made(v)) = &mut self.topo_pos {
            room(v);
        }
        if let Some(Later::Made(t)) = &mut self.dom_tree {
            room(&mut t.tin);
            room(&mut t.tout);
            room(&mut t.depth);
        }
        if let Some(Later::Made(v)) = &mut self.executions {
            room(v);
        }
        if let Some(Later::Made(v)) = &mut self.topo2_pos {
            room(v);
        }
        if let Some(Later::Made(v)) = &mut self.after_join {
            room(v);
        }
    }

    /// Decodes now (on the thread reading the kept state, beside the
    /// plan's restore) the analyses nearly every run after a change uses:
    /// reachability, the dominators, the first order's positions, the
    /// executions and the joins upstream. The dominator tree and the second
    /// order, asked for by many reachability questions only, stay bytes
    /// until then.
    pub(crate) fn decode_likely(&mut self) {
        let _ = made_mut(&mut self.reach);
        let _ = made_mut(&mut self.idom);
        let _ = made_mut(&mut self.topo_pos);
        let _ = made_mut(&mut self.executions);
        let _ = made_mut(&mut self.after_join);
    }

    /// The analyses of `content`, whose kept shape `core` was brought up
    /// from `before` by [`Core::update`] with `delta`. New nodes are added
    /// as they come without edges (unreachable, in no dominator tree, run
    /// 0 times, last in both orders, a join its own join upstream); then
    /// each added edge is followed where that costs what it changes, and
    /// an analysis it cannot follow is dropped (the run makes it again
    /// when a check asks):
    /// - reachability walks on from an edge's target when its source is
    ///   reachable, through the nodes it newly reaches;
    /// - dominators, the dominator tree and executions stay when no added
    ///   edge leaves a reachable node (an unreachable one adds no route and
    ///   dominates nothing), or when the graph is not routable before or
    ///   after (they are empty then); else dropped;
    /// - a node's join upstream is the join of highest index with a path
    ///   to it through no other join ([`super::Graph::after_join`]): an
    ///   edge offers its source's to its target, and a better one walks on
    ///   through the nodes it improves;
    /// - the first order's positions stay unless Kahn's order was made
    ///   again, the second's unless an edge was added to an acyclic graph.
    ///
    /// A change of the entries, of an old node's kind to or from join, an
    /// edge that lost or changed its ends, or a cycle made or broken drops
    /// everything but reachability and the joins upstream (which hold on
    /// any graph); the entries changed drops reachability too.
    pub(crate) fn follow(
        mut self,
        content: &Content,
        core: &Core,
        before: &Shape,
        delta: &Delta,
    ) -> Analyses {
        if delta.moved || delta.joins || core.entries != before.entries {
            return Analyses::default();
        }
        self.grow(content, core, before.nodes);
        if delta.added.is_empty() {
            return self;
        }
        if before.acyclic != core.topo.is_some() {
            self = Analyses {
                reach: self.reach,
                after_join: self.after_join,
                ..Analyses::default()
            };
        }
        if let Some(reach) = made_mut(&mut self.reach) {
            walk_on(core, reach, &delta.added);
            let routed = delta.added.iter().any(|&(f, _)| reach[f]);
            let near = before.routable && core.is_routable() && self.near_dominators(core, delta);
            if routed && (before.routable || core.is_routable()) && !near {
                (self.idom, self.dom_tree, self.executions) = (None, None, None);
            }
        } else {
            (self.idom, self.dom_tree, self.executions) = (None, None, None);
        }
        if before.routable != core.is_routable() {
            (self.idom, self.dom_tree, self.executions) = (None, None, None);
        }
        if let Some(after) = made_mut(&mut self.after_join) {
            better_joins(core, after, &delta.added);
        }
        if delta.resorted && core.topo.is_some() {
            // Made again in the memory of the one made (a one-shot write
            // decodes it beside the restore): no fresh pages for it on the
            // main thread.
            match &mut self.topo_pos {
                Some(Later::Made(pos)) => positions_into(pos, core),
                _ => self.topo_pos = None,
            }
        }
        if core.topo.is_some() {
            self.topo2_pos = None;
        }
        self
    }

    /// On a graph routable before and after, the dominators and
    /// executions brought up to the `delta`'s edges from reachable sources
    /// when the nodes downstream of their targets are few (at most
    /// [`NEAR`]): only those can gain a route, so each is made again from
    /// its predecessors in a topological order of their own (a node's
    /// dominator is the nearest common dominator of its reachable
    /// predecessors; its executions, the sum of theirs, or its fork's for a
    /// join). The dominator tree's numbering is global: dropped when a
    /// dominator changed. False (nothing changed) when there are too many
    /// or `idom` was not made.
    fn near_dominators(&mut self, core: &Core, delta: &Delta) -> bool {
        let (Some(reach), Some(idom)) = (
            self.reach.as_ref().and_then(Later::made),
            made_mut(&mut self.idom),
        ) else {
            return false;
        };
        let Some(order) = downstream_order(core, reach, &delta.added) else {
            return false;
        };
        let entry = core.entries[0];
        // The depths the dominator tree holds when it is decoded (else
        // found by walking up the dominators: the same).
        let old_depth = self
            .dom_tree
            .as_ref()
            .and_then(Later::made)
            .map(|t| &t.depth);
        let mut depth: FastMap<usize, usize> = FastMap::default();
        let depth_of = |x: usize, depth: &FastMap<usize, usize>, idom: &[Option<usize>]| {
            if let Some(&d) = depth.get(&x) {
                return d;
            }
            if let Some(t) = old_depth {
                return t[x];
            }
            let (mut d, mut y) = (0, x);
            while let Some(up) = idom[y] {
                (d, y) = (d + 1, up);
            }
            d
        };
        let mut changed = false;
        for &w in &order {
            let mut new: Option<usize> = None;
            for p in core.preds(w) {
                if !reach[p] {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut b = p;
                        let (mut da, mut db) =
                            (depth_of(a, &depth, idom), depth_of(b, &depth, idom));
                        while da > db {
                            (a, da) = (idom[a].unwrap_or(entry), da - 1);
                        }
                        while db > da {
                            (b, db) = (idom[b].unwrap_or(entry), db - 1);
                        }
                        while a != b {
                            a = idom[a].unwrap_or(entry);
                            b = idom[b].unwrap_or(entry);
                        }
                        a
                    }
                });
            }
            changed |= idom[w] != new;
            idom[w] = new;
            let d = new.map_or(0, |d| depth_of(d, &depth, idom) + 1);
            depth.insert(w, d);
        }
        if changed {
            self.dom_tree = None;
        }
        if let Some(count) = made_mut(&mut self.executions) {
            for &w in &order {
                count[w] = if core.joins[w] {
                    idom[w].map_or(0, |f| count[f])
                } else {
                    core.preds(w)
                        .fold(0, |c, p| (c + count[p]).min(MAX_ROUTES + 1))
                };
            }
        }
        true
    }

    /// Each analysis extended by the nodes from `n0` on, as nodes without
    /// edges (one kept as bytes is decoded for it; none is when there is
    /// no new node).
    fn grow(&mut self, content: &Content, core: &Core, n0: usize) {
        let n = content.nodes.len();
        if n == n0 {
            return;
        }
        let routable = core.topo.is_some();
        let grow =
            |v: &mut Vec<usize>| v.extend((n0..n).map(|i| if routable { i } else { usize::MAX }));
        if let Some(v) = made_mut(&mut self.reach) {
            v.resize(n, false);
        }
        if let Some(v) = made_mut(&mut self.idom) {
            v.resize(n, None);
        }
        if let Some(v) = made_mut(&mut self.topo_pos) {
            grow(v);
        }
        if let Some(t) = made_mut(&mut self.dom_tree) {
            t.tin.resize(n, usize::MAX);
            t.tout.resize(n, usize::MAX);
            t.depth.resize(n, 0);
        }
        if let Some(v) = made_mut(&mut self.executions) {
            v.resize(n, 0);
        }
        if let Some(v) = made_mut(&mut self.topo2_pos) {
            grow(v);
        }
        if let Some(v) = made_mut(&mut self.after_join) {
            v.extend((n0..n).map(|i| core.joins[i].then_some(i)));
        }
    }
}

/// At most this many nodes downstream of an added edge from a reachable
/// node have their dominators and executions made again in place
/// ([`Analyses::follow`]); past it they are dropped and made again whole.
const NEAR: usize = 64;

/// The nodes downstream of the targets of the `added` edges whose source is
/// reachable (the targets included), in a topological order of their own;
/// `None` when there are more than [`NEAR`].
fn downstream_order(core: &Core, reach: &[bool], added: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut seen: FastSet<usize> = FastSet::default();
    let mut stack: Vec<usize> = added
        .iter()
        .filter(|&&(f, _)| reach[f])
        .map(|&(_, t)| t)
        .collect();
    while let Some(v) = stack.pop() {
        if seen.insert(v) {
            if seen.len() > NEAR {
                return None;
            }
            stack.extend(core.succs(v));
        }
    }
    // Kahn's algorithm over them, counting only the edges among them.
    let mut indeg: FastMap<usize, usize> = seen.iter().map(|&v| (v, 0)).collect();
    for &v in &seen {
        for t in core.succs(v) {
            if let Some(d) = indeg.get_mut(&t) {
                *d += 1;
            }
        }
    }
    let mut ready: Vec<usize> = indeg
        .iter()
        .filter(|(_, d)| **d == 0)
        .map(|(&v, _)| v)
        .collect();
    let mut order = Vec::with_capacity(seen.len());
    while let Some(v) = ready.pop() {
        order.push(v);
        for t in core.succs(v) {
            if let Some(d) = indeg.get_mut(&t) {
                *d -= 1;
                if *d == 0 {
                    ready.push(t);
                }
            }
        }
    }
    Some(order)
}

/// Marks what the `added` edges newly make reachable: from each target
/// whose source is reachable, through the nodes not reached before.
fn walk_on(core: &Core, reach: &mut [bool], added: &[(usize, usize)]) {
    let seeds: Vec<usize> = added
        .iter()
        .filter(|&&(f, _)| reach[f])
        .map(|&(_, t)| t)
        .collect();
    spread(reach, seeds, |v| core.succs(v));
}

/// Brings each node's join upstream up to the `added` edges: the source's
/// join is offered to the target (a join keeps itself), and a node whose
/// join improves (a higher index, or one where there was none) offers it
/// on to its successors.
fn better_joins(core: &Core, after: &mut [Option<usize>], added: &[(usize, usize)]) {
    let mut stack: Vec<(usize, Option<usize>)> =
        added.iter().map(|&(f, t)| (t, after[f])).collect();
    while let Some((v, offer)) = stack.pop() {
        if core.joins[v] || offer <= after[v] {
            continue;
        }
        after[v] = offer;
        stack.extend(core.succs(v).map(|t| (t, offer)));
    }
}

/// `pos` made each node's position in `core`'s topological order
/// (`usize::MAX` for none), as [`super::graph::Graph::topo_pos`] makes it.
fn positions_into(pos: &mut Vec<usize>, core: &Core) {
    pos.clear();
    pos.resize(core.canonical.len(), usize::MAX);
    for (p, &i) in core.topo.iter().flatten().enumerate() {
        pos[i] = p;
    }
}

/// Puts `x` in the sorted `v` (`on`) or takes it out.
fn set_sorted(v: &mut impl Sorted, x: usize, on: bool) {
    match (v.binary_search(&x), on) {
        (Err(at), true) => v.put(at, x),
        (Ok(at), false) => v.take(at),
        _ => {}
    }
}

/// A sorted list of positions (a vector, or a node's [`Lanes`]).
trait Sorted: std::ops::Deref<Target = [usize]> {
    fn put(&mut self, at: usize, x: usize);
    fn take(&mut self, at: usize);
}

/// [`Sorted`] for a list type with `insert` and `remove` at a position.
macro_rules! sorted {
    ($t:ty) => {
        impl Sorted for $t {
            fn put(&mut self, at: usize, x: usize) {
                self.insert(at, x);
            }
            fn take(&mut self, at: usize) {
                self.remove(at);
            }
        }
    };
}
sorted!(Vec<usize>);
sorted!(Lanes);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{edge, entry, join, plan, step};
    use crate::model::OpBody;

    /// Applies `ops` to `c` as the fold would (no removals).
    fn apply(c: &mut Content, ops: &[OpBody]) {
        for op in ops {
            match op {
                OpBody::AddNode { node } => match c.nodes.iter_mut().find(|n| n.id == node.id) {
                    Some(n) => *n = node.clone(),
                    None => c.nodes.push(node.clone()),
                },
                OpBody::AddEdge { edge } => match c.edges.iter_mut().find(|e| e.id == edge.id) {
                    Some(e) => *e = edge.clone(),
                    None => c.edges.push(edge.clone()),
                },
                _ => unreachable!("the test makes adds only"),
            }
        }
    }

    /// Applies `ops` as the fold would (no removals) and checks the kept
    /// shape against a new one.
    fn step_to(core: &mut Core, c: &mut Content, ops: Vec<OpBody>) -> bool {
        updated(core, c, ops).is_some()
    }

    /// [`step_to`], with what changed.
    fn updated(core: &mut Core, c: &mut Content, ops: Vec<OpBody>) -> Option<Delta> {
        let before = c.clone();
        apply(c, &ops);
        let delta = core.update(c, &Touched::of(&before, &ops));
        if delta.is_some() {
            assert!(*core == Core::new(c));
            // Kahn's in-degrees are counted over the edges' ends: each
            // incoming list holds exactly the edges whose ends are both
            // there and whose target it is.
            let mut count = vec![0; core.inc.len()];
            for (_, t) in core.ends.iter().flatten() {
                count[t] += 1;
            }
            assert!(core.inc.iter().map(<[usize]>::len).eq(count));
        }
        delta
    }

    /// Adds of nodes and edges, an edge replaced in place, a dangling edge
    /// whose missing end comes later, and a node that becomes the entry:
    /// each leaves the kept shape equal to a new one; a removal and a
    /// repeated id are left to a rebuild.
    #[test]
    fn the_kept_shape_follows_adds_and_leaves_removals_to_a_rebuild() {
        let mut c = plan(
            vec![entry("s"), step("a"), step("b")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "x", "always"),
            ],
        );
        let mut core = Core::new(&c);
        assert_eq!(core.dangling, vec![1]);
        let add = |n| OpBody::AddNode { node: n };
        let connect = |id: &str, f: &str, t: &str| OpBody::AddEdge {
            edge: edge(id, f, t, "always"),
        };
        // An isolated node: last in the order, no sort again.
        assert!(step_to(&mut core, &mut c, vec![add(step("c"))]));
        assert_eq!(core.topo.as_ref().unwrap().last(), Some(&3));
        // The missing end of e2 arrives.
        assert!(step_to(&mut core, &mut c, vec![add(step("x"))]));
        assert_eq!(core.ends.get(1), Some((1, 4)));
        // A new edge, then e1 replaced in place (new ends), backwards.
        assert!(step_to(&mut core, &mut c, vec![connect("e3", "x", "b")]));
        assert!(step_to(&mut core, &mut c, vec![connect("e1", "b", "c")]));
        // A step replaced by an entry.
        assert!(step_to(&mut core, &mut c, vec![add(entry("c"))]));
        assert_eq!(core.entries, vec![0, 3]);
        // A cycle, then a node added to the cyclic graph.
        assert!(step_to(&mut core, &mut c, vec![connect("e4", "c", "a")]));
        assert!(step_to(&mut core, &mut c, vec![connect("e5", "a", "b")]));
        assert!(core.topo.is_none());
        assert!(step_to(&mut core, &mut c, vec![add(step("d"))]));
        // A removal is left to a rebuild.
        let before = c.clone();
        c.edges.pop();
        let op = OpBody::RemoveEdge {
            edge_id: "e5".into(),
        };
        assert!(core.update(&c, &Touched::of(&before, [&op])).is_none());
        // So is a content with a repeated id.
        let mut core = Core::new(&c);
        let before = c.clone();
        c.nodes.push(step("a"));
        let op = add(step("a"));
        assert!(core.update(&c, &Touched::of(&before, [&op])).is_none());
    }

    /// An added edge whose source comes before the last of its target's
    /// other predecessors in Kahn's order leaves the order as it was (not
    /// made again); one into a node that had no predecessor, one from a
    /// source after them, and a parallel edge from that last predecessor
    /// make it again. Each time the order is a new shape's.
    #[test]
    fn kahns_order_is_kept_when_the_added_edge_readies_nothing_earlier() {
        let mut c = plan(
            vec![entry("s"), step("a"), step("b"), step("t"), step("z")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
                edge("e3", "b", "t", "always"),
                edge("e4", "s", "z", "always"),
            ],
        );
        let mut core = Core::new(&c);
        let mut resorted = |c: &mut Content, id: &str, f: &str, t: &str| {
            let op = OpBody::AddEdge {
                edge: edge(id, f, t, "always"),
            };
            updated(&mut core, c, vec![op])
                .expect("an added edge")
                .resorted
        };
        // `a` comes before `b`, `t`'s last predecessor: `t` is readied
        // when `b` is taken, as before.
        assert!(!resorted(&mut c, "e5", "a", "t"));
        // `s` comes before `a`, `b`'s predecessor: kept.
        assert!(!resorted(&mut c, "e6", "s", "b"));
        // `b` is `t`'s last predecessor: a second edge from it moves when
        // `t` is pushed among `b`'s edges.
        assert!(resorted(&mut c, "e7", "b", "t"));
        // `t` comes after `z`'s other predecessors: `z` readied later.
        assert!(resorted(&mut c, "e8", "t", "z"));
        // Into the entry (no predecessor): it is no longer ready at the start.
        assert!(resorted(&mut c, "e9", "z", "s"));
        assert!(core.topo.is_none(), "a cycle");
    }

    /// Makes every analysis of `c` over `core` and takes them.
    fn made(c: &Content, core: &Core) -> Analyses {
        let mut g = crate::check::Graph::kept(c, core);
        let _ = (g.executions(), g.dom_tree(), g.topo2_pos(), g.after_join());
        g.take_analyses()
    }

    /// Applies `op` to `c` and `core`, and follows `kept` through it:
    /// `Graph::kept_with` compares each kept analysis with a fresh one
    /// (debug builds). Returns which were kept (reach, idom, executions,
    /// after_join, topo_pos, topo2_pos).
    fn follow(
        core: &mut Core,
        c: &mut Content,
        kept: Analyses,
        op: OpBody,
    ) -> (Analyses, [bool; 6]) {
        let before = Shape::of(core);
        let t0 = c.clone();
        apply(c, std::slice::from_ref(&op));
        let delta = core.update(c, &Touched::of(&t0, [&op])).unwrap();
        let kept = kept.follow(c, core, &before, &delta);
        let which = [
            kept.reach.is_some(),
            kept.idom.is_some(),
            kept.executions.is_some(),
            kept.after_join.is_some(),
            kept.topo_pos.is_some(),
            kept.topo2_pos.is_some(),
        ];
        let mut g = crate::check::Graph::kept_with(c, core, kept);
        let _ = (g.executions(), g.dom_tree(), g.topo2_pos(), g.after_join());
        (g.take_analyses(), which)
    }

    /// The analyses of a graph with a join, followed through loose nodes
    /// (a join among them: its own join upstream), through edges from an
    /// unreachable join (dominators and executions kept, the join offered
    /// downstream) and from reachable nodes (reachability walks on, the
    /// dominators and executions of the few nodes downstream made again in
    /// place; the order's positions made again in their memory when the
    /// order is), each equal to a fresh one; everything dropped after an
    /// old node became a join or an entry.
    #[test]
    fn the_kept_analyses_follow_loose_nodes_and_added_edges() {
        let mut c = plan(
            vec![entry("s"), step("a"), step("b"), join("j"), step("t")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "a", "j", "always"),
                edge("e4", "b", "j", "always"),
                edge("e5", "j", "t", "always"),
                edge("e6", "t", "x", "always"),
            ],
        );
        let mut core = Core::new(&c);
        let mut kept = made(&c, &core);
        let add = |n| OpBody::AddNode { node: n };
        let connect = |id: &str, f: &str, t: &str| OpBody::AddEdge {
            edge: edge(id, f, t, "always"),
        };
        // Loose nodes, a join among them: everything followed.
        for n in [step("c"), join("k"), step("d")] {
            let which;
            (kept, which) = follow(&mut core, &mut c, kept, add(n));
            assert_eq!(which, [true; 6]);
        }
        // From the unreachable join `k` to `d`, then `d` to `t`: `t` takes
        // `k` as its join upstream (index 6 over `j`'s 3); dominators and
        // executions kept.
        let which;
        (kept, which) = follow(&mut core, &mut c, kept, connect("e7", "k", "d"));
        assert_eq!(which, [true, true, true, true, true, false]);
        let which;
        (kept, which) = follow(&mut core, &mut c, kept, connect("e8", "d", "t"));
        assert_eq!(which, [true, true, true, true, true, false]);
        let mut g = crate::check::Graph::kept_with(&c, &core, kept);
        assert_eq!(g.after_join()[4], Some(6));
        assert_eq!(g.executions()[4], 1);
        kept = g.take_analyses();
        // From the reachable `t` to the loose `c`: reached now, dominated
        // by `t` and run once, made in place (few nodes downstream).
        let which;
        (kept, which) = follow(&mut core, &mut c, kept, connect("e9", "t", "c"));
        assert_eq!(which, [true, true, true, true, true, false]);
        let mut g = crate::check::Graph::kept_with(&c, &core, kept);
        assert!(g.reachable()[5]);
        assert_eq!((g.idom()[5], g.executions()[5]), (Some(4), 1));
        kept = g.take_analyses();
        // From `s` to `c` too: `c` is now dominated by `s` and runs twice.
        let which;
        (kept, which) = follow(&mut core, &mut c, kept, connect("e10", "s", "c"));
        assert_eq!(which, [true, true, true, true, true, false]);
        let g = crate::check::Graph::kept_with(&c, &core, kept);
        assert_eq!((g.idom()[5], g.executions()[5]), (Some(0), 2));
        drop(g);
        // An old node turned join, or entry: everything dropped.
        for n in [join("a"), entry("b")] {
            let kept = made(&c, &core);
            let (_, which) = follow(&mut core, &mut c, kept, add(n));
            assert_eq!(which, [false; 6]);
        }
    }
}
