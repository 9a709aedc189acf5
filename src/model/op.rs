//! The op log's entries (SPEC §2).

use super::ids::Id;
use super::lifecycle::Approval;
use super::node::{Edge, Node};
use super::plan::{Bounds, Provenance};
use super::value::{Map, Value};

/// One entry of a plan's op log.
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    /// `<actor>:<planId>:<lamport>:<tx>`.
    pub op_id: String,
    /// The actor, the time and the transaction are short (an actor id is
    /// at most 64 characters, usually a few; a time 20; a transaction 16
    /// hex digits): kept inline, a large log's ops hold three allocations
    /// fewer each.
    pub actor_id: Id,
    pub lamport: u64,
    /// RFC 3339 UTC time of the write.
    pub at: Id,
    /// The transaction this op belongs to; all ops of one command share it.
    pub tx: Id,
    /// Set on the last op of its transaction.
    pub tx_end: bool,
    pub body: OpBody,
}

#[derive(Debug, Clone, PartialEq)]
pub enum OpBody {
    AddNode {
        node: Node,
    },
    /// A node put in place of the one under its id (`add-node --replace`):
    /// an add of an id that exists is a replace only when it says so, so
    /// that two clones adding one id is found (`duplicate_node_id`).
    ReplaceNode {
        node: Node,
    },
    RemoveNode {
        node_id: String,
        incident_edge_ids: Vec<String>,
    },
    /// `path` is a dot path relative to the node's definition.
    SetNodeField {
        node_id: String,
        path: String,
        value: Value,
    },
    SetNodeDefinition {
        node_id: String,
        definition: Map,
    },
    SetNodePhase {
        node_id: String,
        phase: Option<String>,
    },
    AddEdge {
        edge: Edge,
    },
    RemoveEdge {
        edge_id: String,
    },
    SetBounds {
        bounds: Bounds,
    },
    // The lifecycle: ops like any other, so that two clones that append to
    // one plan merge without conflict, and the fold proves every approval
    // against the content it approved.
    /// The plan comes to be: its label, the owner's request verbatim, and
    /// where it came from (provenance, which is content).
    CreatePlan {
        label: Option<String>,
        request: Option<String>,
        provenance: Option<Provenance>,
    },
    SetLabel {
        label: Option<String>,
    },
    /// The plan became reviewable at `revision`, bound to `digest`.
    Freeze {
        revision: u64,
        digest: String,
    },
    Unfreeze,
    /// The plan became executable: the whole approval record.
    Approve {
        approval: Approval,
    },
}

impl OpBody {
    pub fn kind(&self) -> &'static str {
        match self {
            OpBody::AddNode { .. } => "add_node",
            OpBody::ReplaceNode { .. } => "replace_node",
            OpBody::RemoveNode { .. } => "remove_node",
            OpBody::SetNodeField { .. } => "set_node_field",
            OpBody::SetNodeDefinition { .. } => "set_node_definition",
            OpBody::SetNodePhase { .. } => "set_node_phase",
            OpBody::AddEdge { .. } => "add_edge",
            OpBody::RemoveEdge { .. } => "remove_edge",
            OpBody::SetBounds { .. } => "set_bounds",
            OpBody::CreatePlan { .. } => "create_plan",
            OpBody::SetLabel { .. } => "set_label",
            OpBody::Freeze { .. } => "freeze",
            OpBody::Unfreeze => "unfreeze",
            OpBody::Approve { .. } => "approve",
        }
    }

    /// Whether the op changes the plan's content (and so counts as a
    /// revision); the others are the lifecycle and metadata.
    pub fn is_content(&self) -> bool {
        !matches!(
            self,
            OpBody::CreatePlan { .. }
                | OpBody::SetLabel { .. }
                | OpBody::Freeze { .. }
                | OpBody::Unfreeze
                | OpBody::Approve { .. }
        )
    }

    /// The edges an op names: the one it adds or removes, and those a node's
    /// removal lists as its incident edges.
    pub fn edge_ids(&self) -> Vec<&str> {
        match self {
            OpBody::AddEdge { edge } => vec![edge.id.as_str()],
            OpBody::RemoveEdge { edge_id } => vec![edge_id.as_str()],
            OpBody::RemoveNode {
                incident_edge_ids, ..
            } => incident_edge_ids.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// The node an op is about, if any.
    pub fn node_id(&self) -> Option<&str> {
        match self {
            OpBody::AddNode { node } | OpBody::ReplaceNode { node } => Some(&node.id),
            OpBody::RemoveNode { node_id, .. }
            | OpBody::SetNodeField { node_id, .. }
            | OpBody::SetNodeDefinition { node_id, .. }
            | OpBody::SetNodePhase { node_id, .. } => Some(node_id),
            _ => None,
        }
    }
}

impl Op {
    /// The fold's total order: `(lamport, actorId, opId)`.
    pub fn sort_key(&self) -> (u64, &str, &str) {
        (self.lamport, &self.actor_id, &self.op_id)
    }
}
