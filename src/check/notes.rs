//! The fold's and the store's notes, worded as findings by the checks whose
//! codes they are.

use crate::model::Issue;
use crate::model::note::Note;

/// Every note as its finding, in order.
pub fn issues(notes: &[Note]) -> Vec<Issue> {
    notes.iter().map(issue).collect()
}

fn issue(note: &Note) -> Issue {
    match note {
        Note::DanglingEdge { edge, missing } => super::dangling_edge::issue(edge, missing),
        Note::UnknownNode { node } => super::unknown_node::issue(node),
        Note::DuplicateEdgeId { kept, lost } => super::duplicate_edge_id::issue(kept, lost),
        Note::DuplicateNodeId { id, lost, kept } => super::duplicate_node_id::issue(id, lost, kept),
        Note::TornTail { ops, lines } => super::torn_tail::issue(*ops, lines),
        Note::ApprovalVoid {
            approval,
            by,
            reasons,
        } => super::approval_mismatch::issue(approval, by, reasons),
        Note::FreezeNotHeld {
            digest,
            revision,
            by,
            reason,
        } => super::freeze_mismatch::issue(digest, *revision, by, reason),
    }
}
