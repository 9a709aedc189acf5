//! Complexity: O(n + e): two walks from the entries — the shared one
//! (`Graph::reachable`) and an independent breadth-first walk over the raw
//! edge list with its own index. In a warm session the second walk is kept
//! ([`KeptReach`]): a change that only adds costs what it reaches.

use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::hash::FastMap as HashMap;
use crate::model::remedy::{Pick, Remedy};
use std::collections::VecDeque;

/// A second reachability walk, deliberately sharing nothing with `Graph`:
/// its own id index, its own adjacency and a queue instead of a stack.
fn independent_reach(content: &crate::model::Content) -> Vec<bool> {
    let n = content.nodes.len();
    let mut at: HashMap<&str, usize> = HashMap::with_capacity_and_hasher(n, Default::default());
    for (i, node) in content.nodes.iter().enumerate() {
        at.entry(node.id.as_str()).or_insert(i);
    }
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &content.edges {
        if let (Some(&f), Some(&t)) = (at.get(e.from.as_str()), at.get(e.to.as_str())) {
            next[f].push(t);
        }
    }
    let mut seen = vec![false; n];
    let mut queue = VecDeque::new();
    for (i, node) in content.nodes.iter().enumerate() {
        if node.kind == NodeKind::Entry && !seen[i] {
            seen[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(v) = queue.pop_front() {
        for &t in &next[v] {
            if !seen[t] {
                seen[t] = true;
                queue.push_back(t);
            }
        }
    }
    seen
}

/// The second walk's index, adjacency and result, kept between
/// incremental runs (issue 17) and brought up to each change by code of
/// its own (nothing shared with `Graph` or its kept shape). A change that
/// only adds (nodes, edges, an entry) only adds reachability: the walk goes
/// on from what the additions reach. Anything that can take reachability
/// away (a removal, an edge moved or replaced in place, an entry no longer
/// one, a repeated id) makes it all again.
#[derive(Debug, Default)]
pub(crate) struct KeptReach {
    /// Node id → index (first occurrence).
    at: super::kept_ids::IdIndex,
    /// Per edge: its (from, to) indices when both ends exist.
    ends: super::kept_lanes::EdgeEnds,
    /// Per node: the nodes its edges lead to.
    next: super::kept_adj::Adj,
    /// Per node: the positions of the edges at it (either end).
    edges_at: super::kept_adj::Adj,
    /// The edges with an end that does not exist (yet).
    loose: Vec<usize>,
    /// Per node: whether it is an entry.
    entry: Vec<bool>,
    /// Per node: reached from an entry.
    seen: Vec<bool>,
}

impl KeptReach {
    /// The walk made from scratch on `content`.
    pub(crate) fn new(content: &crate::model::Content) -> KeptReach {
        let mut k = KeptReach::default();
        k.grow(content, &[]);
        k
    }

    /// Room for what a warm session adds next (see
    /// [`super::kept_adj::room`]).
    pub(crate) fn make_room(&mut self) {
        self.next.make_room();
        self.edges_at.make_room();
    }

    /// Reached from an entry, per node.
    pub(crate) fn seen(&self) -> &[bool] {
        &self.seen
    }

    /// Brings the walk up to `content`, `touched` being what changed since
    /// the content it was made for; made again when the change may have
    /// taken reachability away.
    pub(crate) fn update(
        &mut self,
        content: &crate::model::Content,
        touched: &crate::model::touched::Touched,
    ) {
        if !self.only_adds(content, touched) {
            *self = KeptReach::new(content);
            return;
        }
        let old: Vec<usize> = touched
            .nodes
            .iter()
            .filter_map(|id| self.at.get(id))
            .collect();
        self.grow(content, &old);
        debug_assert_eq!(
            self.seen,
            independent_reach(content),
            "the kept walk equals a new one"
        );
    }

    /// Whether the change from the kept content to `content` only added:
    /// no removal, every old edge still at its place with the same ends
    /// (an edge at a touched node is looked at again), no entry lost, new
    /// nodes and edges at the end, no id repeated.
    fn only_adds(
        &self,
        content: &crate::model::Content,
        touched: &crate::model::touched::Touched,
    ) -> bool {
        let (n0, e0) = (self.seen.len(), self.ends.len());
        if touched.removed || content.nodes.len() < n0 || content.edges.len() < e0 {
            return false;
        }
        if !content.edges[e0..]
            .iter()
            .all(|e| touched.new_edges.contains(e.id.as_str()))
        {
            return false;
        }
        let mut ids = HashMap::default();
        for (i, node) in content.nodes.iter().enumerate().skip(n0) {
            if self.at.contains(&node.id) || ids.insert(node.id.as_str(), i).is_some() {
                return false;
            }
        }
        for id in &touched.nodes {
            let Some(i) = self.at.get(id) else {
                continue;
            };
            if self.entry[i] && content.nodes[i].kind != NodeKind::Entry {
                return false;
            }
            for k in self.edges_at.list(i).iter() {
                let e = &content.edges[k];
                if self.ends.get(k) != self.ends_of(e, &ids) {
                    return false;
                }
            }
        }
        true
    }

    /// An edge's (from, to) indices, among the kept ids and `new`.
    fn ends_of(
        &self,
        e: &crate::model::Edge,
        new: &HashMap<&str, usize>,
    ) -> Option<(usize, usize)> {
        let find = |id: &str| self.at.get(id).or_else(|| new.get(id).copied());
        Some((find(&e.from)?, find(&e.to)?))
    }

    /// Indexes the nodes and edges past the kept ones, the loose edges
    /// whose ends now exist, the entries among them and `old` (touched
    /// nodes already indexed), and walks on from what they reach.
    fn grow(&mut self, content: &crate::model::Content, old: &[usize]) {
        let (n0, e0) = (self.seen.len(), self.ends.len());
        let mut queue = VecDeque::new();
        for (i, node) in content.nodes.iter().enumerate().skip(n0) {
            self.at.insert_first(&node.id, i);
            self.next.push(Vec::new());
            self.edges_at.push(Vec::new());
            self.entry.push(false);
            self.seen.push(false);
        }
        for i in old.iter().copied().chain(n0..content.nodes.len()) {
            if content.nodes[i].kind == NodeKind::Entry {
                self.entry[i] = true;
                if !self.seen[i] {
                    self.seen[i] = true;
                    queue.push_back(i);
                }
            }
        }
        let none = HashMap::default();
        let loose = std::mem::take(&mut self.loose);
        self.ends.resize(content.edges.len());
        for k in loose.into_iter().chain(e0..content.edges.len()) {
            let Some((f, t)) = self.ends_of(&content.edges[k], &none) else {
                self.loose.push(k);
                continue;
            };
            self.ends.set(k, Some((f, t)));
            self.next.list_mut(f).push(t);
            self.edges_at.list_mut(f).push(k);
            if t != f {
                self.edges_at.list_mut(t).push(k);
            }
            if self.seen[f] && !self.seen[t] {
                self.seen[t] = true;
                queue.push_back(t);
            }
        }
        while let Some(v) = queue.pop_front() {
            let next = self.next.list(v);
            for j in 0..next.len() {
                let t = next.get(j);
                if !self.seen[t] {
                    self.seen[t] = true;
                    queue.push_back(t);
                }
            }
        }
    }
}

declare_check! {
    /// ## What it finds
    /// A `call` that cannot be reached from the entry (from any entry, when a
    /// plan has several). It also gets
    /// `unreachable_node`; this code exists because a call that can never
    /// run is the costliest kind of dead step, and it is computed by a second
    /// reachability walk that shares no code with the first, so a bug in one
    /// cannot hide an unreachable call (that bug has shipped before). A call
    /// missed by either walk is reported.
    ///
    /// ## Why it matters
    /// A call is where a plan acts on the world. One that can never run is a
    /// step the author expects (a notification, a write) that never happens,
    /// and its authority is left out of the set a reviewer approves.
    ///
    /// ## How to fix
    /// Connect it from a step that runs before it, or remove it.
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "start", "kind": "entry", "definition": {"input": []}},
    ///            {"id": "notify", "kind": "call", "definition": {"tool": "send_mail", "…": "…"}}], "edges": []}
    /// ```
    /// Fixed: connect `start` to `notify`.
    pub UnreachableCall { code: "unreachable_call", severity: Blocking, needs: REACH, source: Check, scope: Graph }
    fn run(cx, out) {
        let first = cx.graph.reachable();
        let fresh;
        let second = match cx.kept_reach {
            Some(k) => k.seen(),
            None => {
                fresh = independent_reach(cx.content);
                &fresh
            }
        };
        let entry = crate::check::support::entries_text(&cx.graph);
        for (i, n) in cx.nodes_where(|i| !(first[i] && second[i])) {
            if n.kind != NodeKind::Call {
                continue;
            }
            let disagree = if first[i] != second[i] {
                " (the two reachability walks disagree here, which is a bug in the checks: please report it)"
            } else {
                ""
            };
            let tool = n.tool().map(|t| format!(" (tool `{t}`)")).unwrap_or_default();
            let issue = Issue::new(CODE,
                format!(
                    "call `{}`{tool} can never run: no route from {entry} reaches it{disagree}, so its tool is never invoked and its authority is not part of what is approved",
                    n.id
                ),
            )
            .node(n.id.clone());
            // `unreachable_node` reports the same node just before, with these
            // fixes, unless the first walk reached it or the node is a
            // duplicate: answers stay short when both fire.
            let reported = !first[i] && cx.graph.index_of(&n.id) == Some(i);
            out.push(if reported {
                issue
            } else {
                issue
                    .fix(Remedy::Connect { from: Pick::any("a step before it"), to: Pick::id(&n.id), handle: None })
                    .fix(Remedy::RemoveNode { node: n.id.to_string() })
            });
        }
    }
}

/// The kept walk on disk (see `super::kept_disk`), field by field, long
/// lists of positions and flags through the bulk codecs. Its id index
/// holds the same ids at the same positions as the kept graph's
/// (`Core::idx`) whenever both were kept from one content: it is then
/// written as a flag and read back as a copy of `graph`'s (one index
/// fewer to read and hash: ≈ 20 M instructions at 100,000 nodes); so are
/// the edges' ends, the same as the graph's (`Core::ends`) when both were
/// made from one content (≈ 7 M instructions; session 16).
pub(crate) fn put_reach(
    reach: Option<&KeptReach>,
    graph: Option<&super::graph::Core>,
    out: &mut super::kept_disk::Out,
) {
    use super::kept_disk::{Bits, Flat, Persist, Via};
    let Some(r) = reach else {
        return false.put(out);
    };
    true.put(out);
    let shared = graph.is_some_and(|g| g.idx.same(&r.at));
    shared.put(out);
    if !shared {
        r.at.put(out);
    }
    let same_ends = graph.is_some_and(|g| g.ends == r.ends);
    same_ends.put(out);
    if !same_ends {
        super::kept_lanes::Pairs::put(&r.ends, out);
    }
    r.next.put(out);
    r.edges_at.put(out);
    Flat::put(&r.loose, out);
    Bits::put(&r.entry, out);
    Bits::put(&r.seen, out);
}

/// What [`put_reach`] wrote, `graph` being the kept graph read before it;
/// `None` when damaged (a shared index or shared ends without a graph
/// too).
pub(crate) fn get_reach(
    inp: &mut super::kept_disk::In<'_>,
    graph: Option<&super::graph::Core>,
) -> Option<Option<KeptReach>> {
    use super::kept_disk::{Bits, Flat, Persist, Via};
    if !bool::get(inp)? {
        return Some(None);
    }
    let at = if bool::get(inp)? {
        graph?.idx.clone()
    } else {
        Persist::get(inp)?
    };
    let ends = if bool::get(inp)? {
        // With room: a clone is made at the exact length.
        graph?.ends.clone_roomy()
    } else {
        super::kept_lanes::Pairs::get(inp)?
    };
    let r = KeptReach {
        at,
        ends,
        next: Persist::get(inp)?,
        edges_at: Persist::get(inp)?,
        loose: Flat::get(inp)?,
        entry: Bits::get(inp)?,
        seen: Bits::get(inp)?,
    };
    // A list or flag per node (an id repeated is indexed once), nodes and
    // edges that are there.
    let (n, e) = (r.seen.len(), r.ends.len());
    let whole = [r.next.len(), r.edges_at.len(), r.entry.len()] == [n; 3]
        && r.at.len() <= n
        && r.next.all_below(n)
        && r.edges_at.all_below(e)
        && r.loose.iter().all(|&k| k < e)
        && r.ends.iter().flatten().all(|(f, t)| f < n && t < n);
    whole.then_some(Some(r))
}

#[cfg(test)]
mod tests {
    use super::{KeptReach, UnreachableCall, independent_reach};
    use crate::check::testing::*;
    use crate::model::remedy::{Pick, Remedy};
    use crate::model::touched::Touched;
    use crate::model::{Content, OpBody};

    /// Applies `op` (an add, or an edge's removal) as the fold would and
    /// brings the kept walk up to it.
    fn apply(kept: &mut KeptReach, c: &mut Content, op: OpBody) {
        let before = c.clone();
        match &op {
            OpBody::AddNode { node } => c.nodes.push(node.clone()),
            OpBody::AddEdge { edge } => match c.edges.iter_mut().find(|e| e.id == edge.id) {
                Some(e) => *e = edge.clone(),
                None => c.edges.push(edge.clone()),
            },
            OpBody::RemoveEdge { edge_id } => c.edges.retain(|e| e.id != *edge_id),
            _ => unreachable!("the test makes adds and edge removals only"),
        }
        kept.update(c, &Touched::of(&before, [&op]));
        assert_eq!(kept.seen(), independent_reach(c).as_slice(), "{op:?}");
    }

    /// The walk reads back from its bytes, its id index and edges' ends as
    /// copies of the graph's when they are the same, written whole when
    /// they differ; shared ones without a graph read as damaged.
    #[test]
    fn the_kept_walk_reads_back_sharing_the_graphs_index() {
        use super::{get_reach, put_reach};
        use crate::check::graph::Core;
        use crate::check::kept_disk::{In, Out};
        let c = plan(
            vec![entry("s"), step("a"), step("b")],
            vec![edge("e1", "s", "a", "always")],
        );
        let kept = KeptReach::new(&c);
        let graph = Core::new(&c);
        let other = Core::new(&plan(vec![step("x")], vec![]));
        let read = |bytes: &[u8], g: Option<&Core>| {
            In::open(bytes).and_then(|mut inp| {
                let r = get_reach(&mut inp, g)?;
                inp.is_empty().then_some(r)
            })
        };
        let bytes = |g: Option<&Core>| {
            let mut out = Out::default();
            put_reach(Some(&kept), g, &mut out);
            out.finish()
        };
        let (shared, whole) = (bytes(Some(&graph)), bytes(Some(&other)));
        assert!(shared.len() < whole.len(), "the same index is not written");
        assert_eq!(whole, bytes(None));
        for (b, g) in [(&shared, Some(&graph)), (&whole, None)] {
            let back = read(b, g).flatten().expect("reads back");
            assert_eq!(back.seen(), kept.seen());
            assert_eq!(back.at, kept.at);
            assert_eq!(back.ends, kept.ends);
            assert_eq!(format!("{back:?}"), format!("{kept:?}"));
        }
        assert!(read(&shared, None).is_none());
        // The same ends with another index: the ends alone shared.
        let mut moved = Core::new(&c);
        moved.idx = other.idx.clone();
        let ends_only = bytes(Some(&moved));
        assert!(ends_only.len() < whole.len() && ends_only.len() > shared.len());
        let back = read(&ends_only, Some(&moved))
            .flatten()
            .expect("reads back");
        assert_eq!((back.at == kept.at, back.ends == kept.ends), (true, true));
    }

    /// Adds walk on from what they reach; an edge moved in place, an edge
    /// removed and a dangling edge whose end comes later leave the kept walk
    /// equal to a new one.
    #[test]
    fn the_kept_walk_follows_adds_moves_and_removals() {
        let mut c = plan(
            vec![entry("s"), step("a")],
            vec![edge("e1", "s", "a", "always")],
        );
        let mut kept = KeptReach::new(&c);
        assert_eq!(kept.seen(), [true, true]);
        apply(&mut kept, &mut c, OpBody::AddNode { node: step("b") });
        assert_eq!(kept.seen(), [true, true, false]);
        apply(
            &mut kept,
            &mut c,
            OpBody::AddEdge {
                edge: edge("e2", "a", "c", "always"),
            },
        );
        apply(&mut kept, &mut c, OpBody::AddNode { node: step("c") });
        assert_eq!(
            kept.seen(),
            [true, true, false, true],
            "the dangling edge now leads to c"
        );
        apply(
            &mut kept,
            &mut c,
            OpBody::AddEdge {
                edge: edge("e2", "a", "b", "always"),
            },
        );
        assert_eq!(
            kept.seen(),
            [true, true, true, false],
            "e2 moved from c to b"
        );
        apply(
            &mut kept,
            &mut c,
            OpBody::RemoveEdge {
                edge_id: "e1".into(),
            },
        );
        assert_eq!(kept.seen(), [true, false, false, false]);
    }

    #[test]
    fn fires_on_a_detached_call_only() {
        let p = plan(
            vec![entry("s"), step("a"), step("lost"), join("lost_join")],
            vec![edge("e", "s", "a", "always")],
        );
        let issues = run_one(&UnreachableCall, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].node_id.as_deref(), Some("lost"));
        // `unreachable_node` carries the fixes for the same node.
        assert!(issues[0].fixes.is_empty());
        let by_node = run_one(&crate::check::unreachable_node::UnreachableNode, &p);
        let lost = by_node
            .iter()
            .find(|i| i.node_id.as_deref() == Some("lost"))
            .expect("reported by unreachable_node too");
        assert_eq!(
            lost.fixes[0].remedy,
            Remedy::Connect {
                from: Pick::any("a step before it"),
                to: Pick::id("lost"),
                handle: None
            }
        );
    }

    #[test]
    fn passes_reached_calls_and_the_walks_agree() {
        let p = plan(
            vec![entry("s"), step("a"), step("b")],
            vec![edge("e", "s", "a", "always"), edge("f", "a", "b", "error")],
        );
        assert!(run_one(&UnreachableCall, &p).is_empty());
        let g = crate::check::Graph::new(&p);
        assert_eq!(independent_reach(&p), g.reachable());
    }
}
