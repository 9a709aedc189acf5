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

use super::graph::{Analyses, Core, edge_ends, kahn};
use crate::model::touched::Touched;
use crate::model::{Content, NodeKind};

impl Core {
    /// Brings the shape up to `content`, `touched` being what changed since
    /// the content it was made for. False when it cannot (then it is to be
    /// made again with [`Core::new`]; it may be half updated).
    pub(crate) fn update(&mut self, content: &Content, touched: &Touched) -> bool {
        let (n0, e0) = (self.canonical.len(), self.ends.len());
        let (n, e) = (content.nodes.len(), content.edges.len());
        if touched.removed || self.repeated || n < n0 || e < e0 {
            return false;
        }
        // An edge back from the fold's dangling ones comes at its place:
        // then an old edge is past the old end.
        if !content.edges[e0..]
            .iter()
            .all(|x| touched.new_edges.contains(&x.id))
        {
            return false;
        }
        for (i, node) in content.nodes.iter().enumerate().skip(n0) {
            if self.idx.insert(node.id.clone(), i).is_some() {
                return false;
            }
            self.canonical.push(true);
            self.out.push(Vec::new());
            self.inc.push(Vec::new());
        }
        let mut again: Vec<usize> = std::mem::take(&mut self.dangling);
        let mut at: Vec<usize> = (n0..n).collect();
        for id in &touched.nodes {
            let Some(&i) = self.idx.get(id.as_str()) else {
                continue;
            };
            if i < n0 {
                at.push(i);
                again.extend(self.out[i].iter().chain(&self.inc[i]));
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
        self.ends.resize(e, None);
        let mut moved = false;
        for k in again {
            let new = edge_ends(&self.idx, &content.edges[k]);
            let old = self.ends[k];
            if new.is_none() {
                self.dangling.push(k);
            }
            if new == old {
                continue;
            }
            moved = true;
            if let Some((f, t)) = old {
                set_sorted(&mut self.out[f], k, false);
                set_sorted(&mut self.inc[t], k, false);
            }
            if let Some((f, t)) = new {
                set_sorted(&mut self.out[f], k, true);
                set_sorted(&mut self.inc[t], k, true);
            }
            self.ends[k] = new;
        }
        if moved {
            self.topo = kahn(n, &self.out, &self.inc, &self.ends);
        } else if let Some(order) = &mut self.topo {
            order.extend(n0..n);
        }
        debug_assert_eq!(*self, Core::new(content), "the kept graph equals a new one");
        true
    }
}

/// What the analyses depend on in a kept [`Core`], taken before
/// [`Core::update`] to tell afterwards whether the change only added
/// nodes without edges.
pub(crate) struct Shape {
    nodes: usize,
    edges: usize,
    entries: Vec<usize>,
    dangling: Vec<usize>,
}

impl Shape {
    pub(crate) fn of(core: &Core) -> Shape {
        Shape {
            nodes: core.canonical.len(),
            edges: core.ends.len(),
            entries: core.entries.clone(),
            dangling: core.dangling.clone(),
        }
    }

    /// Whether `core`, updated in place from this shape after `touched`,
    /// differs only by nodes at the end with no edge at all, not entries:
    /// then every old node keeps its edges, entry, reachability,
    /// dominators, executions and order positions, and each new one is
    /// unreachable, in no dominator tree, run 0 times, last in both orders.
    pub(crate) fn only_loose_nodes(&self, core: &Core, touched: &Touched) -> bool {
        core.ends.len() == self.edges
            && core.entries == self.entries
            && core.dangling == self.dangling
            && touched
                .nodes
                .iter()
                .all(|id| core.idx.get(id.as_str()).is_none_or(|&i| i >= self.nodes))
    }
}

impl Analyses {
    /// The analyses of `content` (whose kept shape `core` grew from
    /// `before` by [`Shape::only_loose_nodes`] only): each made one is
    /// extended by the new nodes' values.
    pub(crate) fn follow(mut self, content: &Content, core: &Core, before: &Shape) -> Analyses {
        let (n0, n) = (before.nodes, content.nodes.len());
        let routable = core.topo.is_some();
        let grow =
            |v: &mut Vec<usize>| v.extend((n0..n).map(|i| if routable { i } else { usize::MAX }));
        if let Some(v) = &mut self.reach {
            v.resize(n, false);
        }
        if let Some(v) = &mut self.idom {
            v.resize(n, None);
        }
        if let Some(v) = &mut self.topo_pos {
            grow(v);
        }
        if let Some(t) = &mut self.dom_tree {
            t.tin.resize(n, usize::MAX);
            t.tout.resize(n, usize::MAX);
            t.depth.resize(n, 0);
        }
        if let Some(v) = &mut self.executions {
            v.resize(n, 0);
        }
        if let Some(v) = &mut self.topo2_pos {
            grow(v);
        }
        if let Some(v) = &mut self.after_join {
            v.extend((n0..n).map(|i| (content.nodes[i].kind == NodeKind::Join).then_some(i)));
        }
        self
    }
}

/// Puts `x` in the sorted `v` (`on`) or takes it out.
fn set_sorted(v: &mut Vec<usize>, x: usize, on: bool) {
    match (v.binary_search(&x), on) {
        (Err(at), true) => v.insert(at, x),
        (Ok(at), false) => {
            v.remove(at);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{edge, entry, join, plan, step};
    use crate::model::OpBody;

    /// Applies `ops` as the fold would (no removals) and checks the kept
    /// shape against a new one.
    fn step_to(core: &mut Core, c: &mut Content, ops: Vec<OpBody>) -> bool {
        let before = c.clone();
        for op in &ops {
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
        let kept = core.update(c, &Touched::of(&before, &ops));
        if kept {
            assert!(*core == Core::new(c));
        }
        kept
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
        assert_eq!(core.ends[1], Some((1, 4)));
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
        assert!(!core.update(&c, &Touched::of(&before, [&op])));
        // So is a content with a repeated id.
        let mut core = Core::new(&c);
        let before = c.clone();
        c.nodes.push(step("a"));
        let op = add(step("a"));
        assert!(!core.update(&c, &Touched::of(&before, [&op])));
    }

    /// The analyses of a graph with a join: kept and extended after loose
    /// nodes are added (a join among them: its own join upstream), equal
    /// to fresh ones; dropped after an edge, an entry, a dangling edge's
    /// end arriving, or an old node touched.
    #[test]
    fn the_kept_analyses_follow_loose_nodes_and_drop_otherwise() {
        use crate::check::Graph;
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
        let mut kept = {
            let mut g = Graph::kept(&c, &core);
            let _ = (g.executions(), g.dom_tree(), g.topo2_pos(), g.after_join());
            g.take_analyses()
        };
        let add = |n| OpBody::AddNode { node: n };
        // Loose nodes, a join among them: followed.
        for n in [step("c"), join("k")] {
            let before = Shape::of(&core);
            let t0 = c.clone();
            assert!(step_to(&mut core, &mut c, vec![add(n)]));
            let ops = [add(c.nodes.last().unwrap().clone())];
            assert!(before.only_loose_nodes(&core, &Touched::of(&t0, &ops)));
            kept = kept.follow(&c, &core, &before);
            // Graph::kept_with compares each with a fresh one (debug).
            let mut g = Graph::kept_with(&c, &core, kept);
            assert_eq!(g.after_join()[4], Some(3));
            assert_eq!(
                g.after_join().last(),
                Some(&(c.nodes.len() == 7).then_some(6))
            );
            assert_eq!(g.executions()[4], 1);
            kept = g.take_analyses();
        }
        // Not loose: a new edge, the missing end of e6, an old node touched.
        let cases = [
            OpBody::AddEdge {
                edge: edge("e7", "t", "c", "always"),
            },
            add(step("x")),
            add(join("a")),
        ];
        for op in cases {
            let before = Shape::of(&core);
            let t0 = c.clone();
            assert!(step_to(&mut core, &mut c, vec![op.clone()]));
            assert!(!before.only_loose_nodes(&core, &Touched::of(&t0, [&op])));
        }
    }
}
