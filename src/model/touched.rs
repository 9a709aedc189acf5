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
    /// A node or an edge was removed: the ones after it moved up (every
    /// other change keeps each node and edge at its position, and adds at
    /// the end).
    pub removed: bool,
    /// Ids of the edges added that `before` did not have. (The fold leaves
    /// an edge with a missing end out of the content until that end is
    /// added: then it comes back at its place, not at the end.)
    pub new_edges: FastSet<String>,
    /// Ids of the nodes added, removed, replaced or edited themselves (not
    /// the ends of an edge added or removed): a part of `nodes`.
    pub edited: FastSet<String>,
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
                self.nodes.insert(node.id.to_string());
                self.edited.insert(node.id.to_string());
            }
            OpBody::RemoveNode { node_id, .. } => {
                self.removed = true;
                self.nodes.insert(node_id.clone());
                self.edited.insert(node_id.clone());
                // Every edge at the node goes with it (listed or not: the
                // fold drops an edge whose end is gone).
                for e in &before.edges {
                    if e.from == *node_id || e.to == *node_id {
                        self.nodes.insert(e.from.to_string());
                        self.nodes.insert(e.to.to_string());
                    }
                }
            }
            OpBody::SetNodeField { node_id, .. }
            | OpBody::SetNodeDefinition { node_id, .. }
            | OpBody::SetNodePhase { node_id, .. } => {
                self.nodes.insert(node_id.clone());
                self.edited.insert(node_id.clone());
            }
            OpBody::AddEdge { edge } => {
                self.nodes.insert(edge.from.to_string());
                self.nodes.insert(edge.to.to_string());
                if !self.edge_ends(before, &edge.id) {
                    self.new_edges.insert(edge.id.to_string());
                }
            }
            OpBody::RemoveEdge { edge_id } => {
                self.removed = true;
                self.edge_ends(before, edge_id);
            }
            OpBody::SetBounds { .. } => self.bounds = true,
            _ => {}
        }
    }

    /// Both ends of the edge `id` in `before`, if it is there (then true).
    fn edge_ends(&mut self, before: &Content, id: &str) -> bool {
        let Some(e) = before.edges.iter().find(|e| e.id == id) else {
            return false;
        };
        self.nodes.insert(e.from.to_string());
        self.nodes.insert(e.to.to_string());
        true
    }

    /// Both changes, one after the other.
    pub fn merge(&mut self, later: Touched) {
        self.nodes.extend(later.nodes);
        self.bounds |= later.bounds;
        self.removed |= later.removed;
        self.new_edges.extend(later.new_edges);
        self.edited.extend(later.edited);
    }
}
