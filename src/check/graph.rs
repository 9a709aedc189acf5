//! The graph view the checks share: node and edge indices, adjacency, a
//! topological order, and analyses computed once on demand.
//!
//! Everything here is linear in nodes + edges, except the dominator
//! intersection, which is near-linear on DAGs processed in topological order.

use super::kahn::{Nearest, kahn_into};
use crate::model::{Content, Edge, Node, NodeKind};
use std::cell::OnceCell;

/// Route counts saturate here: past it a count is "too many to trust".
pub(crate) const MAX_ROUTES: u64 = 10_000;

pub(crate) struct Graph<'a> {
    pub(crate) content: &'a Content,
    /// Indices, adjacency and a topological order: made for this content,
    /// or kept between incremental runs ([`Core::update`]).
    core: CoreRef<'a>,
    reach: OnceCell<Vec<bool>>,
    idom: OnceCell<Vec<Option<usize>>>,
    topo_pos: OnceCell<Vec<usize>>,
    dom_tree: OnceCell<DomTree>,
    executions: OnceCell<Vec<u64>>,
    topo2_pos: OnceCell<Vec<usize>>,
    after_join: OnceCell<Vec<Option<usize>>>,
    /// See [`Graph::nearest_above`] (made again each run: not kept).
    nearest: OnceCell<Nearest>,
    /// See [`Graph::join_nodes`].
    join_nodes: OnceCell<Vec<usize>>,
    /// The kept analyses not decoded yet: each is when first asked for.
    later: std::cell::RefCell<Analyses>,
}

/// The graph analyses a run made ([`super::Graph`]'s reachability,
/// dominators, executions, orders, joins upstream), kept for the next run.
/// They are brought up to a change that only added nodes and edges
/// (`Analyses::follow` in `kept_graph.rs` says which follow an added edge
/// and which are dropped); any other change drops them, and the next run
/// makes what it needs again.
///
/// Read back from disk, each is kept as its bytes until it is used
/// ([`Later`]): one the change drops, or no check asks for, is never
/// decoded.
#[derive(Debug, Default)]
pub(crate) struct Analyses {
    pub(crate) reach: Option<Later<Vec<bool>>>,
    pub(crate) idom: Option<Later<Vec<Option<usize>>>>,
    pub(crate) topo_pos: Option<Later<Vec<usize>>>,
    pub(crate) dom_tree: Option<Later<DomTree>>,
    pub(crate) executions: Option<Later<Vec<u64>>>,
    pub(crate) topo2_pos: Option<Later<Vec<usize>>>,
    pub(crate) after_join: Option<Later<Vec<Option<usize>>>>,
}

/// What a [`Graph`] knows of its content's shape, owned so that it can be
/// kept from one content to the next (`src/check/kept_graph.rs`).
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Core {
    /// Node id → index (first occurrence).
    pub(crate) idx: super::kept_ids::IdIndex,
    /// Outgoing / incoming edge indices per node (edges whose both ends
    /// exist), in edge order.
    pub(crate) out: EdgeLists,
    pub(crate) inc: EdgeLists,
    /// Per edge: (from, to) node indices when both exist.
    pub(crate) ends: EdgeEnds,
    /// The entry nodes, in node order.
    pub(crate) entries: Vec<usize>,
    /// Per node: whether it is a join (executions and joins upstream
    /// depend on it).
    pub(crate) joins: Vec<bool>,
    /// Per node: whether it is the first with its id (a duplicated id is
    /// reported once, at its first node).
    pub(crate) canonical: Vec<bool>,
    /// A topological order (Kahn's, see [`kahn_into`]), when the graph is acyclic.
    pub(crate) topo: Option<Vec<usize>>,
    /// The edges with an end that does not exist, in edge order.
    pub(crate) dangling: Vec<usize>,
    /// Whether some id is repeated.
    pub(crate) repeated: bool,
}

/// A graph's [`Core`]: its own, or one kept by the incremental checks.
enum CoreRef<'a> {
    Own(Box<Core>),
    Kept(&'a Core),
}

impl std::ops::Deref for Graph<'_> {
    type Target = Core;
    fn deref(&self) -> &Core {
        match &self.core {
            CoreRef::Own(c) => c,
            CoreRef::Kept(c) => c,
        }
    }
}

impl Core {
    /// The shape of `content`, made from scratch. O(n + e).
    pub(crate) fn new(content: &Content) -> Core {
        Core::made(content).0
    }

    /// [`Core::new`], with the nearest joins and meets its sort made on
    /// the way (see [`kahn_into`]; none for a cyclic graph).
    pub(crate) fn made(content: &Content) -> (Core, Option<Nearest>) {
        let n = content.nodes.len();
        let mut idx = super::kept_ids::IdIndex::with_capacity(n);
        let mut canonical = vec![false; n];
        for (i, node) in content.nodes.iter().enumerate() {
            canonical[i] = idx.insert_first(&node.id, i).is_none();
        }
        let mut out = vec![Lanes::new(); n];
        let mut inc = vec![Lanes::new(); n];
        let mut ends = EdgeEnds::with_capacity(content.edges.len());
        let mut dangling = Vec::new();
        for (ei, e) in content.edges.iter().enumerate() {
            match edge_ends(&idx, e) {
                Some((f, t)) => {
                    out[f].push(ei);
                    inc[t].push(ei);
                    ends.push(Some((f, t)));
                }
                None => {
                    dangling.push(ei);
                    ends.push(None);
                }
            }
        }
        let entries: Vec<usize> = content
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.kind == NodeKind::Entry)
            .map(|(i, _)| i)
            .collect();
        let joins: Vec<bool> = content
            .nodes
            .iter()
            .map(|n| n.kind == NodeKind::Join)
            .collect();
        let (out, inc) = (EdgeLists::from(out), EdgeLists::from(inc));
        let (topo, nearest) = kahn_into(Vec::new(), n, &out, &ends, &joins, &entries).unzip();
        let repeated = canonical.iter().any(|c| !c);
        let core = Core {
            idx,
            out,
            inc,
            ends,
            entries,
            joins,
            canonical,
            topo,
            dangling,
            repeated,
        };
        (core, nearest)
    }
}

/// The (from, to) node indices of `e`, when both exist.
pub(crate) fn edge_ends(idx: &super::kept_ids::IdIndex, e: &Edge) -> Option<(usize, usize)> {
    Some((idx.get(&e.from)?, idx.get(&e.to)?))
}

/// The dominator tree, numbered for O(1) dominance tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DomTree {
    /// Preorder entry / exit times (`usize::MAX` for unreachable nodes).
    pub(crate) tin: Vec<usize>,
    pub(crate) tout: Vec<usize>,
    /// Depth below the entry (0 for the entry).
    pub(crate) depth: Vec<usize>,
}

impl<'a> Graph<'a> {
    pub(crate) fn new(content: &'a Content) -> Graph<'a> {
        let (core, nearest) = Core::made(content);
        Graph::with(content, CoreRef::Own(Box::new(core))).with_nearest(nearest)
    }

    /// The graph, with the nearest joins and meets already made when
    /// `nearest` is some (by the sort that made the order, see
    /// [`kahn_into`]). A debug build compares them with a fresh pass.
    pub(crate) fn with_nearest(self, nearest: Option<Nearest>) -> Graph<'a> {
        if let Some(v) = nearest {
            debug_assert_eq!(
                v.pairs(),
                super::flow::nearest_joins_and_meets(&Graph::kept(self.content, &self)),
                "the sort's nearest joins equal a fresh pass"
            );
            let _ = self.nearest.set(v);
        }
        self
    }

    /// The graph of `content` over `core`, which must be its shape
    /// ([`Core::new`] of it, or kept up to it by [`Core::update`]).
    pub(crate) fn kept(content: &'a Content, core: &'a Core) -> Graph<'a> {
        Graph::with(content, CoreRef::Kept(core))
    }

    /// As [`Graph::kept`], with the analyses `kept` holds already made
    /// (brought up to `content` by [`Analyses::follow`]). A debug build
    /// compares each with a fresh computation.
    pub(crate) fn kept_with(content: &'a Content, core: &'a Core, kept: Analyses) -> Graph<'a> {
        let g = Graph::kept(content, core);
        let mut later = Analyses {
            reach: made_into(&g.reach, kept.reach),
            idom: made_into(&g.idom, kept.idom),
            topo_pos: made_into(&g.topo_pos, kept.topo_pos),
            dom_tree: made_into(&g.dom_tree, kept.dom_tree),
            executions: made_into(&g.executions, kept.executions),
            topo2_pos: made_into(&g.topo2_pos, kept.topo2_pos),
            after_join: made_into(&g.after_join, kept.after_join),
        };
        std::mem::swap(&mut *g.later.borrow_mut(), &mut later);
        #[cfg(debug_assertions)]
        g.assert_kept_analyses();
        g
    }

    /// A kept analysis not decoded yet (in `later`), decoded now; `None`
    /// when there is none or it does not read back. A debug build compares
    /// it (through `view`) with a fresh computation (`fresh`).
    fn decode_kept<T, V: PartialEq + std::fmt::Debug + ?Sized>(
        &self,
        slot: impl FnOnce(&mut Analyses) -> &mut Option<Later<T>>,
        view: impl FnOnce(&T) -> &V,
        fresh: impl for<'g, 'h> FnOnce(&'g Graph<'h>) -> &'g V,
    ) -> Option<T> {
        let taken = slot(&mut self.later.borrow_mut()).take();
        let v = taken?.into_made()?;
        #[cfg(debug_assertions)]
        assert_eq!(
            view(&v),
            fresh(&Graph::kept(self.content, self)),
            "a kept analysis equals a fresh one"
        );
        #[cfg(not(debug_assertions))]
        let _ = (view, fresh);
        Some(v)
    }

    /// Each analysis made so far, compared with a fresh computation.
    #[cfg(debug_assertions)]
    fn assert_kept_analyses(&self) {
        let fresh = Graph::kept(self.content, self);
        let what = "a kept analysis equals a fresh one";
        if let Some(v) = self.reach.get() {
            assert_eq!(v.as_slice(), fresh.reachable(), "reach: {what}");
        }
        if let Some(v) = self.idom.get() {
            assert_eq!(v.as_slice(), fresh.idom(), "idom: {what}");
        }
        if let Some(v) = self.topo_pos.get() {
            assert_eq!(v.as_slice(), fresh.topo_pos(), "topo_pos: {what}");
        }
        if let Some(v) = self.dom_tree.get() {
            assert_eq!(v, fresh.dom_tree(), "dom_tree: {what}");
        }
        if let Some(v) = self.executions.get() {
            assert_eq!(v.as_slice(), fresh.executions(), "executions: {what}");
        }
        if let Some(v) = self.topo2_pos.get() {
            assert_eq!(v.as_slice(), fresh.topo2_pos(), "topo2_pos: {what}");
        }
        if let Some(v) = self.after_join.get() {
            assert_eq!(v.as_slice(), fresh.after_join(), "after_join: {what}");
        }
    }

    /// The analyses made so far, to keep for the next content.
    /// (those kept and never asked for go back as they came).
    pub(crate) fn take_analyses(&mut self) -> Analyses {
        let later = self.later.get_mut();
        Analyses {
            reach: made_or(self.reach.take(), later.reach.take()),
            idom: made_or(self.idom.take(), later.idom.take()),
            topo_pos: made_or(self.topo_pos.take(), later.topo_pos.take()),
            dom_tree: made_or(self.dom_tree.take(), later.dom_tree.take()),
            executions: made_or(self.executions.take(), later.executions.take()),
            topo2_pos: made_or(self.topo2_pos.take(), later.topo2_pos.take()),
            after_join: made_or(self.after_join.take(), later.after_join.take()),
        }
    }

    fn with(content: &'a Content, core: CoreRef<'a>) -> Graph<'a> {
        Graph {
            content,
            core,
            reach: OnceCell::new(),
            idom: OnceCell::new(),
            topo_pos: OnceCell::new(),
            dom_tree: OnceCell::new(),
            executions: OnceCell::new(),
            topo2_pos: OnceCell::new(),
            after_join: OnceCell::new(),
            nearest: OnceCell::new(),
            join_nodes: OnceCell::new(),
            later: Default::default(),
        }
    }

    pub(crate) fn node(&self, i: usize) -> &'a Node {
        &self.content.nodes[i]
    }
    pub(crate) fn edge(&self, ei: usize) -> &'a Edge {
        &self.content.edges[ei]
    }
    pub(crate) fn index_of(&self, id: &str) -> Option<usize> {
        self.idx.get(id)
    }
    pub(crate) fn len(&self) -> usize {
        self.content.nodes.len()
    }
    /// The single entry, when there is exactly one.
    pub(crate) fn entry(&self) -> Option<usize> {
        (self.entries.len() == 1).then(|| self.entries[0])
    }

    /// Whether route, dominator and taint analyses can run: acyclic with
    /// exactly one entry.
    pub(crate) fn is_routable(&self) -> bool {
        self.topo.is_some() && self.entries.len() == 1
    }

    /// Successor node indices of `i` (one per edge: parallel edges repeat).
    pub(crate) fn succs(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.out[i]
            .iter()
            .filter_map(move |&e| self.ends.get(e).map(|(_, t)| t))
    }
    pub(crate) fn preds(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.inc[i]
            .iter()
            .filter_map(move |&e| self.ends.get(e).map(|(f, _)| f))
    }

    /// Reachable from an entry over any handle (from any of them when there
    /// are several; all false without one). Cycles are fine. O(n + e).
    pub(crate) fn reachable(&self) -> &[bool] {
        self.reach.get_or_init(|| {
            self.decode_kept(|a| &mut a.reach, |v| v.as_slice(), |g| g.reachable())
                .unwrap_or_else(|| {
                    let mut seen = vec![false; self.len()];
                    spread(&mut seen, self.entries.iter().copied(), |i| self.succs(i));
                    seen
                })
        })
    }

    /// Position of each node in the topological order (usize::MAX if none).
    pub(crate) fn topo_pos(&self) -> &[usize] {
        self.topo_pos.get_or_init(|| {
            self.decode_kept(|a| &mut a.topo_pos, |v| v.as_slice(), |g| g.topo_pos())
                .unwrap_or_else(|| {
                    let mut pos = vec![usize::MAX; self.len()];
                    if let Some(t) = &self.topo {
                        for (p, &i) in t.iter().enumerate() {
                            pos[i] = p;
                        }
                    }
                    pos
                })
        })
    }

    /// Immediate dominators from the entry (Cooper–Harvey–Kennedy, one pass
    /// in topological order, which suffices on a DAG). `None` for the entry
    /// and for unreachable nodes. Requires [`is_routable`](Self::is_routable).
    pub(crate) fn idom(&self) -> &[Option<usize>] {
        self.idom.get_or_init(|| {
            self.decode_kept(|a| &mut a.idom, |v| v.as_slice(), |g| g.idom())
                .unwrap_or_else(|| {
                    let n = self.len();
                    let mut idom: Vec<Option<usize>> = vec![None; n];
                    let (Some(entry), Some(topo)) = (self.entry(), &self.topo) else {
                        return idom;
                    };
                    let reach = self.reachable();
                    let pos = self.topo_pos();
                    idom[entry] = Some(entry);
                    for &b in topo {
                        if b == entry || !reach[b] {
                            continue;
                        }
                        let mut new: Option<usize> = None;
                        for p in self.preds(b) {
                            if idom[p].is_none() {
                                continue;
                            }
                            new = Some(match new {
                                None => p,
                                Some(cur) => intersect(&idom, pos, cur, p),
                            });
                        }
                        idom[b] = new;
                    }
                    idom[entry] = None;
                    idom
                })
        })
    }

    /// The dominator tree with preorder numbering. O(n). Requires
    /// [`is_routable`](Self::is_routable) (else every node is unnumbered).
    pub(crate) fn dom_tree(&self) -> &DomTree {
        self.dom_tree.get_or_init(|| {
            self.decode_kept(|a| &mut a.dom_tree, |v| v, |g| g.dom_tree())
                .unwrap_or_else(|| {
                    let n = self.len();
                    let mut tree = DomTree {
                        tin: vec![usize::MAX; n],
                        tout: vec![usize::MAX; n],
                        depth: vec![0; n],
                    };
                    let Some(entry) = self.entry() else {
                        return tree;
                    };
                    if self.topo.is_none() {
                        return tree;
                    }
                    let idom = self.idom();
                    // Each node's children in node order, in one flat list (`at[v]
                    // .. at[v + 1]`): not a vector per node (100,000 of them, most
                    // empty, grown by pushes, at 100,000 nodes).
                    let mut at = vec![0usize; n + 1];
                    for d in idom.iter().flatten() {
                        at[*d + 1] += 1;
                    }
                    for v in 0..n {
                        at[v + 1] += at[v];
                    }
                    let mut flat = vec![0usize; at[n]];
                    let mut fill = at.clone();
                    for (i, d) in idom.iter().enumerate() {
                        if let Some(d) = d {
                            flat[fill[*d]] = i;
                            fill[*d] += 1;
                        }
                    }
                    let children = |v: usize| &flat[at[v]..at[v + 1]];
                    let mut clock = 0usize;
                    // Frames: (node, next child position).
                    let mut frames = vec![(entry, 0usize)];
                    tree.tin[entry] = clock;
                    clock += 1;
                    while let Some(&mut (v, ref mut next)) = frames.last_mut() {
                        if *next < children(v).len() {
                            let c = children(v)[*next];
                            *next += 1;
                            tree.tin[c] = clock;
                            tree.depth[c] = tree.depth[v] + 1;
                            clock += 1;
                            frames.push((c, 0));
                        } else {
                            tree.tout[v] = clock;
                            clock += 1;
                            frames.pop();
                        }
                    }
                    tree
                })
        })
    }

    /// Whether `a` dominates `b` (every route from the entry to `b` passes
    /// `a`; a node dominates itself). False when either is unreachable. O(1).
    pub(crate) fn dominates(&self, a: usize, b: usize) -> bool {
        let t = self.dom_tree();
        t.tin[a] != usize::MAX
            && t.tin[b] != usize::MAX
            && t.tin[a] <= t.tin[b]
            && t.tout[b] <= t.tout[a]
    }

    /// Whether `a` dominates `b`, as [`dominates`](Self::dominates)
    /// answers: by the dominator tree when it is made or `make`; else by
    /// walking up `b`'s dominators while they come after `a` in the
    /// topological order (a dominator comes before what it dominates), so
    /// a few questions cost the dominators between, not the tree's pass
    /// over every node.
    pub(crate) fn dominates_by(&self, a: usize, b: usize, make: bool) -> bool {
        if make || self.dom_tree.get().is_some() {
            return self.dominates(a, b);
        }
        let (idom, pos) = (self.idom(), self.topo_pos());
        let mut x = b;
        while pos[x] > pos[a] {
            let Some(d) = idom[x] else { return false };
            x = d;
        }
        x == a
    }

    /// The nearest common dominator of two reachable nodes. O(depth).
    pub(crate) fn common_dominator(&self, mut a: usize, mut b: usize) -> Option<usize> {
        let t = self.dom_tree();
        if t.tin[a] == usize::MAX || t.tin[b] == usize::MAX {
            return None;
        }
        let idom = self.idom();
        while t.depth[a] > t.depth[b] {
            a = idom[a]?;
        }
        while t.depth[b] > t.depth[a] {
            b = idom[b]?;
        }
        while a != b {
            a = idom[a]?;
            b = idom[b]?;
        }
        Some(a)
    }

    /// How many executions (routes, as `branchId`s name them) each node has,
    /// saturating at `MAX_ROUTES + 1`. Unlike
    /// [`routes_from_entry`](Self::routes_from_entry), a join collapses the
    /// routes that meet at it: it runs once per execution of its fork (its
    /// immediate dominator), as ir.md §5 builds join segments. Parallel edges
    /// into other nodes stay distinct executions. O(n + e). Requires
    /// [`is_routable`](Self::is_routable).
    pub(crate) fn executions(&self) -> &[u64] {
        self.executions.get_or_init(|| {
            self.decode_kept(|a| &mut a.executions, |v| v.as_slice(), |g| g.executions())
                .unwrap_or_else(|| {
                    let mut count = vec![0u64; self.len()];
                    let (Some(entry), Some(topo)) = (self.entry(), &self.topo) else {
                        return count;
                    };
                    let idom = self.idom();
                    count[entry] = 1;
                    for &i in topo {
                        if i == entry {
                            continue;
                        }
                        if self.node(i).kind == NodeKind::Join {
                            if let Some(f) = idom[i] {
                                count[i] = count[f];
                            }
                            continue;
                        }
                        let mut c = 0u64;
                        for p in self.preds(i) {
                            c = (c + count[p]).min(MAX_ROUTES + 1);
                        }
                        count[i] = c;
                    }
                    count
                })
        })
    }

    /// [`topo2_pos`](Self::topo2_pos) when it is made, or when `make`.
    pub(crate) fn topo2_pos_if(&self, make: bool) -> Option<&[usize]> {
        match self.topo2_pos.get() {
            Some(v) => Some(v),
            None => make.then(|| self.topo2_pos()),
        }
    }

    /// Positions in a second topological order (a depth-first reverse
    /// postorder, with a different tie-break than [`topo`](Self::topo)), for
    /// cheap "cannot reach" tests. `usize::MAX` everywhere when cyclic. O(n + e).
    pub(crate) fn topo2_pos(&self) -> &[usize] {
        self.topo2_pos.get_or_init(|| {
            self.decode_kept(|a| &mut a.topo2_pos, |v| v.as_slice(), |g| g.topo2_pos())
                .unwrap_or_else(|| {
                    let n = self.len();
                    let mut pos = vec![usize::MAX; n];
                    if self.topo.is_none() {
                        return pos;
                    }
                    let mut done = vec![false; n];
                    let mut post = Vec::with_capacity(n);
                    // One stack for every root (not one made per root).
                    let mut frames: Vec<(usize, usize)> = Vec::new();
                    for root in (0..n).rev() {
                        if done[root] {
                            continue;
                        }
                        done[root] = true;
                        frames.push((root, 0));
                        while let Some(&mut (v, ref mut next)) = frames.last_mut() {
                            if *next < self.out[v].len() {
                                let e = self.out[v][*next];
                                *next += 1;
                                if let Some((_, t)) = self.ends.get(e)
                                    && !done[t]
                                {
                                    done[t] = true;
                                    frames.push((t, 0));
                                }
                            } else {
                                post.push(v);
                                frames.pop();
                            }
                        }
                    }
                    for (p, &v) in post.iter().rev().enumerate() {
                        pos[v] = p;
                    }
                    pos
                })
        })
    }

    /// Node `i`'s nearest reachable proper ancestors that are, first, a
    /// join and, second, a reconverging node (not a join, more than one
    /// incoming edge), each with its position in the topological order
    /// (made once for both join region rules: by the sort, see
    /// [`super::kahn`], else by [`super::flow::nearest_joins_and_meets`]).
    pub(crate) fn nearest_above(&self, i: usize) -> [Option<(usize, usize)>; 2] {
        let near = self
            .nearest
            .get_or_init(|| Nearest::Passed(super::flow::nearest_joins_and_meets(self)));
        let topo = self.topo.as_deref().unwrap_or_default();
        near.at(i).map(|p| {
            let p = (p as usize).checked_sub(1)?;
            Some((topo[p], p))
        })
    }

    /// The joins' positions, in order (made once a run, for the join
    /// rules: see [`super::Cx::joins_where`]).
    pub(crate) fn join_nodes(&self) -> &[usize] {
        self.join_nodes.get_or_init(|| {
            let joins = self.joins.iter().enumerate();
            joins.filter(|&(_, &j)| j).map(|(i, _)| i).collect()
        })
    }

    /// Per node, a join it is or runs after (reached from it over edges),
    /// `None` when no join is upstream or itself. Which join, when several:
    /// among the joins with a path to the node through no other join, the
    /// one of highest index (the walk below claims each node for the first
    /// join that reaches it, last join first), which an added edge can only
    /// improve. O(n + e).
    pub(crate) fn after_join(&self) -> &[Option<usize>] {
        self.after_join.get_or_init(|| {
            self.decode_kept(|a| &mut a.after_join, |v| v.as_slice(), |g| g.after_join())
                .unwrap_or_else(|| {
                    let mut after: Vec<Option<usize>> = vec![None; self.len()];
                    let mut stack: Vec<usize> = Vec::new();
                    for (i, n) in self.content.nodes.iter().enumerate() {
                        if n.kind == NodeKind::Join {
                            after[i] = Some(i);
                            stack.push(i);
                        }
                    }
                    while let Some(v) = stack.pop() {
                        for t in self.succs(v) {
                            if after[t].is_none() {
                                after[t] = after[v];
                                stack.push(t);
                            }
                        }
                    }
                    after
                })
        })
    }

    /// Whether `a` reaches `b` (a ≠ b) over any handle. Bounded search;
    /// used sparingly by checks that compare few pairs.
    pub(crate) fn reaches(&self, a: usize, b: usize) -> bool {
        let pos = self.topo_pos();
        let limit = pos.get(b).copied().unwrap_or(usize::MAX);
        let mut seen = crate::model::hash::FastSet::default();
        let mut stack = vec![a];
        while let Some(i) = stack.pop() {
            for t in self.succs(i) {
                if t == b {
                    return true;
                }
                // In a DAG nothing after b in topological order leads to b.
                if pos[t] != usize::MAX && limit != usize::MAX && pos[t] > limit {
                    continue;
                }
                if seen.insert(t) {
                    stack.push(t);
                }
            }
        }
        false
    }
}

fn intersect(idom: &[Option<usize>], pos: &[usize], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while pos[a] > pos[b] {
            a = idom[a].expect("processed nodes have an idom");
        }
        while pos[b] > pos[a] {
            b = idom[b].expect("processed nodes have an idom");
        }
    }
    a
}

/// A kept analysis: put in `cell` when it is made; else what is left to
/// decode when asked for (or nothing).
fn made_into<T>(cell: &OnceCell<T>, kept: Option<Later<T>>) -> Option<Later<T>> {
    match kept {
        Some(Later::Made(v)) => {
            let _ = cell.set(v);
            None
        }
        other => other,
    }
}

/// An analysis made this run, else the one kept and never decoded.
fn made_or<T>(made: Option<T>, kept: Option<Later<T>>) -> Option<Later<T>> {
    made.map(Later::Made).or(kept)
}

/// Marks in `seen` what `seeds` reach over `succs`: each seed not seen
/// yet, then everything after it not seen yet (a depth-first walk; cycles
/// are fine). Shared by the fresh reachability and the kept one that
/// walks on from an added edge.
pub(crate) fn spread<I: IntoIterator<Item = usize>>(
    seen: &mut [bool],
    seeds: impl IntoIterator<Item = usize>,
    succs: impl Fn(usize) -> I,
) {
    let mut stack: Vec<usize> = Vec::new();
    for s in seeds {
        if !seen[s] {
            seen[s] = true;
            stack.push(s);
        }
    }
    while let Some(v) = stack.pop() {
        for t in succs(v) {
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
}

// The kept state on disk (see `super::kept_disk`).
// Long lists of positions and flags go through the bulk codecs.
use super::kept_disk::{Bits, Flat, Opt, Opts};
pub(crate) use super::kept_lanes::Lanes;
pub(crate) use super::kept_lanes::{EdgeEnds, EdgeLists};
use super::kept_later::{Later, Lazily, Plain};
super::kept_disk::persist_fields!(Core {
    idx,
    out as super::kept_lanes::FlatLists,
    inc as super::kept_lanes::FlatLists,
    ends as super::kept_lanes::Pairs,
    entries as Flat,
    joins as Bits,
    canonical as Bits,
    topo as Opt<Flat>,
    dangling as Flat,
    repeated
});
super::kept_disk::persist_fields!(DomTree {
    tin as Flat,
    tout as Flat,
    depth as Flat
});
super::kept_disk::persist_fields!(Analyses {
    reach as Lazily<Bits>,
    idom as Lazily<Opts>,
    topo_pos as Lazily<Flat>,
    dom_tree as Lazily<Plain>,
    executions as Lazily<Plain>,
    topo2_pos as Lazily<Flat>,
    after_join as Lazily<Opts>
});
