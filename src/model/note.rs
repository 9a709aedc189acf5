//! What the fold and the store notice about a log: facts, not findings. The
//! checks word each as a finding (`check::notes`), so an issue code is
//! declared and worded in one place, its check's file.

use crate::model::{Edge, NodeKind};

/// A node as a note describes it: its kind and phase.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSketch {
    pub kind: NodeKind,
    pub phase: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// An edge was dropped: its endpoint `missing` no longer exists.
    DanglingEdge { edge: Edge, missing: String },
    /// Ops edited a node that did not exist when they applied.
    UnknownNode { node: String },
    /// An `add_edge` replaced another edge of the same id with a different
    /// `(from, to, handle)`: `kept` won, `lost` is gone.
    DuplicateEdgeId { kept: Edge, lost: Edge },
    /// Two different nodes were added under one id in one transaction; the
    /// later was kept. `same_shape`: same kind and phase, other definitions.
    DuplicateNodeId {
        id: String,
        lost: NodeSketch,
        kept: NodeSketch,
    },
    /// Ops of an unfinished transaction were ignored.
    TornTail { ops: usize },
    /// A non-editable plan's content no longer hashes to its frozen digest.
    DigestMismatch {
        plan: String,
        state: crate::model::lifecycle::State,
        frozen: String,
        actual: String,
    },
}
