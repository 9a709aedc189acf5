//! The fold's and the store's notes, worded as findings by the checks whose
//! codes they are.

use crate::model::note::Note;
use crate::model::{Content, Issue};

/// Every note as its finding, in order.
pub fn issues(notes: &[Note]) -> Vec<Issue> {
    notes.iter().map(issue).collect()
}

/// As [`issues`], for the notes of a fold whose content is at hand: a
/// dropped edge whose missing node is a near miss of one of `content`'s
/// gets the did-you-mean ([`super::dangling_edge::near_misses`]).
pub fn issues_in(notes: &[Note], content: &Content) -> Vec<Issue> {
    let mut out = issues(notes);
    super::dangling_edge::near_misses(notes, &mut out, content);
    out
}

/// As [`issues_in`], for a plan document being checked (`validate FILE`,
/// an editor): a dangling edge is one the document has, naming a node it
/// lacks, not one a history dropped.
pub fn issues_in_document(notes: &[Note], content: &Content) -> Vec<Issue> {
    let mut out = issues_in(notes, content);
    super::dangling_edge::in_document(notes, &mut out);
    out
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
