//! What a change touched (issue 17): the node ids whose own record or
//! incident edges a run of content ops changed, worked out from the ops and
//! the content they apply to. The incremental checks re-check those nodes
//! (and what can see them) and keep every other node's findings.

use super::hash::FastSet;
use super::{Content, OpBody};

/// The nodes a change touched, and whether it changed the bounds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Touched {
    /// Ids of nodes added, removed, replaced or edited, and both ends of
    /// every edge added, removed or replaced (ends in `before` included).
    pub nodes: FastSet<String>,
    /// The bounds were set.
    pub bounds: bool,
}

impl Touched {
    /// What `ops`, applied in this order to `before`, touch. Lifecycle ops
    /// touch nothing. Looking up a removed or replaced edge's ends scans
    /// `before`'s edges (a string compare per edge, only for those ops).
    pub fn of<'o>(before: &Content, ops: impl IntoIterator<Item = &'o OpBody>) -> Touched {
        let mut t = Touched::default();
        for op in ops {
            t.add(before, op);
        }
        t
    }

    /// Adds what one op touches.
    pub fn add(&mut self, before: &Content, op: &OpBody) {
        match op {
            OpBody::AddNode { node } | OpBody::ReplaceNode { node } => {
                self.nodes.insert(node.id.clone());
            }
            OpBody::RemoveNode { node_id, .. } => {
                self.nodes.insert(node_id.clone());
                // Every edge at the node goes with it (listed or not: the
                // fold drops an edge whose end is gone).
                for e in &before.edges {
                    if e.from == *node_id || e.to == *node_id {
                        self.nodes.insert(e.from.clone());
                        self.nodes.insert(e.to.clone());
                    }
                }
            }
            OpBody::SetNodeField { node_id, .. }
            | OpBody::SetNodeDefinition { node_id, .. }
            | OpBody::SetNodePhase { node_id, .. } => {
                self.nodes.insert(node_id.clone());
            }
            OpBody::AddEdge { edge } => {
                self.nodes.insert(edge.from.clone());
                self.nodes.insert(edge.to.clone());
                self.edge_ends(before, &edge.id);
            }
            OpBody::RemoveEdge { edge_id } => self.edge_ends(before, edge_id),
            OpBody::SetBounds { .. } => self.bounds = true,
            _ => {}
        }
    }

    /// Both ends of the edge `id` in `before`, if it is there.
    fn edge_ends(&mut self, before: &Content, id: &str) {
        if let Some(e) = before.edges.iter().find(|e| e.id == id) {
            self.nodes.insert(e.from.clone());
            self.nodes.insert(e.to.clone());
        }
    }

    /// Both changes, one after the other.
    pub fn merge(&mut self, later: Touched) {
        self.nodes.extend(later.nodes);
        self.bounds |= later.bounds;
    }
}
