//! What the fold and the store notice about a log: facts, not findings. The
//! checks word each as a finding (`check::notes`), so an issue code is
//! declared and worded in one place, its check's file.

use crate::model::lifecycle::{Approval, State};
use crate::model::{AuthorityClaim, Edge, NodeKind};

/// A node as a note describes it: its kind and phase.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeSketch {
    pub kind: NodeKind,
    pub phase: Option<super::ids::Id>,
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
    /// Ops of unfinished transactions were ignored: how many, and the log
    /// lines (1-based) they are on, at most 20.
    TornTail { ops: usize, lines: Vec<usize> },
    /// The approval on record does not hold: the plan is not executable.
    ApprovalVoid {
        approval: Approval,
        by: OpRef,
        reasons: Vec<VoidReason>,
    },
    /// The plan's latest freeze does not hold: it is editable again.
    FreezeNotHeld {
        digest: String,
        revision: u64,
        by: OpRef,
        reason: FreezeReason,
    },
}

/// One op, as a note names it: who, when, what.
#[derive(Debug, Clone, PartialEq)]
pub struct OpRef {
    pub actor: crate::model::ids::Id,
    pub lamport: u64,
    pub at: crate::model::ids::Id,
    /// The op's kind (`add_node`, `unfreeze`, …).
    pub kind: &'static str,
    /// The node it is about, if any.
    pub node: Option<crate::model::ids::Id>,
}

/// Ops named by a note: the first few, and how many in all.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpRefs {
    pub first: Vec<OpRef>,
    pub total: usize,
}

impl OpRefs {
    /// How many a note names before saying "and N more".
    pub const SHOWN: usize = 20;

    pub fn push(&mut self, r: OpRef) {
        if self.first.len() < OpRefs::SHOWN {
            self.first.push(r);
        }
        self.total += 1;
    }
}

/// Why an approval on record does not hold.
#[derive(Debug, Clone, PartialEq)]
pub enum VoidReason {
    /// The plan was not reviewable where the approval stands in the log.
    NotReviewable { state: State },
    /// The record approves another plan.
    OtherPlan { plan: String },
    /// The record approves other content than the plan's.
    DigestDiffers { approved: String, actual: String },
    /// The record's authority set is not what the content requests.
    AuthorityDiffers {
        approved: Vec<AuthorityClaim>,
        requested: Vec<AuthorityClaim>,
    },
    /// Content ops come after the approval.
    ContentAfter(OpRefs),
    /// The plan was unfrozen after it was approved.
    UnfrozenAfter(OpRef),
    /// The record itself is not one planforge writes: who decided is not
    /// an actor name, or when is not a time.
    BadRecord { what: String },
}

/// Why a freeze does not hold.
#[derive(Debug, Clone, PartialEq)]
pub enum FreezeReason {
    /// Content ops come after the freeze (a merge, a hand edit).
    ContentAfter(OpRefs),
    /// The freeze records a digest the content did not have where it stands.
    DigestDiffers { actual: String },
}
