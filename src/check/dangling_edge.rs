//! Complexity: O(e), inside the fold (`store::fold`), which emits this code;
//! the did-you-mean ([`near_misses`]) is O(n) per distinct missing id, for at most
//! `GUESS_BUDGET` ids on a plan over `GUESS_ALWAYS_UP_TO` nodes.

use crate::model::note::Note;
use crate::model::remedy::{Pick, Remedy};
use crate::model::{Content, Edge, Issue};

declare_check! {
    /// ## What it finds
    /// An edge whose `from` or `to` node no longer exists once the op log is
    /// folded. The fold drops the edge and reports it (advisory). In a plan
    /// document (`validate FILE`, an editor) the edge is there and names a
    /// node the document does not have: the finding says so.
    ///
    /// ## Why it matters
    /// It usually means a node was removed in one history while another history
    /// (merged later) connected it. The link the author made is gone; the plan
    /// still loads, but a step may now be disconnected.
    ///
    /// ## How to fix
    /// Look at the named edge's endpoints: add the missing node back, or
    /// connect the surviving node to where it should lead. When the missing
    /// id is a near miss of a node that exists (a typo), the finding says
    /// which, and its first fix connects the edge to that node (an editor
    /// offers it as a rename of the endpoint).
    ///
    /// ## Example
    /// The log adds the edge `e1` from `a` to `b`; then (merged from another
    /// branch) it removes the node `b`. Fixed: connect `a` to `c`, the step
    /// that replaced `b`.
    pub DanglingEdge { code: "dangling_edge", severity: Advisory, needs: NOTHING, source: Fold }
    fn run(cx, out) {}
}

/// The finding for an edge the fold dropped.
pub(crate) fn issue(edge: &Edge, missing: &str) -> Issue {
    let (from, to) = if missing == edge.to {
        (Pick::id(&edge.from), Pick::any("the step that replaced it"))
    } else {
        (Pick::any("the step that replaced it"), Pick::id(&edge.to))
    };
    Issue::new(CODE, said(edge, missing, false))
        .edge(edge.id.clone())
        .fix(
            Remedy::Connect {
                from,
                to,
                handle: Some(edge.handle.as_str().into_owned()),
            }
            .when("if the link is still wanted"),
        )
}

/// The finding's first sentence: of a stored plan's history (the edge was
/// dropped), or of a document (it names a node the document lacks).
fn said(edge: &Edge, missing: &str, document: bool) -> String {
    let (id, from, to) = (&edge.id, &edge.from, &edge.to);
    if document {
        format!(
            "edge `{id}` ({from} → {to}) names node `{missing}`, which the document does not have"
        )
    } else {
        format!("edge `{id}` ({from} → {to}) was dropped because node `{missing}` no longer exists")
    }
}

/// The findings of `notes` (`issues`, in their order) said of a plan
/// document being checked rather than of a stored plan's history: nothing
/// was dropped from a document, its edge names a node it does not have.
pub(crate) fn in_document(notes: &[Note], issues: &mut [Issue]) {
    for (note, issue) in notes.iter().zip(issues.iter_mut()) {
        let Note::DanglingEdge { edge, missing } = note else {
            continue;
        };
        if let Some(rest) = issue.message.strip_prefix(&said(edge, missing, false)) {
            issue.message = format!("{}{rest}", said(edge, missing, true));
        }
    }
}

/// Plans up to this many nodes get a guess for every dropped edge.
const GUESS_ALWAYS_UP_TO: usize = 2000;
/// Distinct missing ids that get a guess on a larger plan.
const GUESS_BUDGET: usize = 32;

/// The did-you-mean of each dropped edge (`issues`: the findings of
/// `notes`, in their order): when its missing node is a near miss of a node
/// of `content`, the finding names it and its first fix connects the edge
/// to it instead.
pub(crate) fn near_misses(notes: &[Note], issues: &mut [Issue], content: &Content) {
    // Each guess scans every id: on a large plan only the first few distinct
    // missing ids get one, so thousands of dropped edges stay linear.
    let large = content.nodes.len() > GUESS_ALWAYS_UP_TO;
    let mut guessed: std::collections::HashMap<&str, Option<&str>> = Default::default();
    for (note, issue) in notes.iter().zip(issues.iter_mut()) {
        let Note::DanglingEdge { edge, missing } = note else {
            continue;
        };
        let near = match guessed.get(missing.as_str()) {
            Some(near) => *near,
            None if large && guessed.len() >= GUESS_BUDGET => None,
            None => {
                let ids = content.nodes.iter().map(|n| n.id.as_str());
                let near = crate::model::suggest::closest(missing, ids);
                guessed.insert(missing, near);
                near
            }
        };
        let Some(near) = near else {
            continue;
        };
        let (from, to) = if *missing == edge.to {
            (edge.from.as_str(), near)
        } else {
            (near, edge.to.as_str())
        };
        issue.message.push_str(&format!("; did you mean `{near}`?"));
        let fix = Remedy::Connect {
            from: Pick::id(from),
            to: Pick::id(to),
            handle: Some(edge.handle.as_str().into_owned()),
        }
        .when(format!("if `{near}` is the node meant"));
        issue.fixes.insert(0, fix);
    }
}

#[cfg(test)]
mod tests {
    use crate::check::testing::*;
    use crate::model::{Op, OpBody};

    fn ops(with_edge_to_ghost: bool) -> Vec<Op> {
        let mut bodies = vec![
            OpBody::AddNode { node: join("a") },
            OpBody::AddNode { node: join("b") },
        ];
        bodies.push(OpBody::AddEdge {
            edge: edge(
                "e1",
                "a",
                if with_edge_to_ghost { "ghost" } else { "b" },
                "always",
            ),
        });
        crate::store::transaction("t", "plan-t", 0, bodies)
    }

    #[test]
    fn fires_when_an_endpoint_is_missing() {
        let f = crate::store::fold::fold("plan-t", &ops(true));
        assert!(
            crate::check::notes::issues(&f.notes)
                .iter()
                .any(|i| i.code == "dangling_edge" && i.edge_id.as_deref() == Some("e1"))
        );
        assert!(f.content.edges.is_empty());
    }

    /// The edge's target, misspelt.
    fn typo_ops(to: &str) -> Vec<Op> {
        let bodies = vec![
            OpBody::AddNode {
                node: join("fetch"),
            },
            OpBody::AddNode {
                node: join("summarise"),
            },
            OpBody::AddEdge {
                edge: edge("e1", "fetch", to, "always"),
            },
        ];
        crate::store::transaction("t", "plan-t", 0, bodies)
    }

    fn with_near_misses(ops: &[Op]) -> Vec<crate::model::Issue> {
        let f = crate::store::fold::fold("plan-t", ops);
        let mut issues = crate::check::notes::issues(&f.notes);
        super::near_misses(&f.notes, &mut issues, &f.content);
        issues
    }

    #[test]
    fn in_a_document_the_edge_names_a_node_the_document_lacks() {
        let f = crate::store::fold::fold("plan-t", &typo_ops("sumarise"));
        let mut issues = crate::check::notes::issues_in(&f.notes, &f.content);
        super::in_document(&f.notes, &mut issues);
        let i = issues.iter().find(|i| i.code == "dangling_edge").unwrap();
        assert_eq!(
            i.message,
            "edge `e1` (fetch → sumarise) names node `sumarise`, which the document does not have; did you mean `summarise`?"
        );
        // A stored plan's history keeps its wording.
        let stored = with_near_misses(&typo_ops("sumarise"));
        assert!(
            stored[0]
                .message
                .contains("was dropped because node `sumarise` no longer exists")
        );
    }

    #[test]
    fn a_near_miss_names_the_node_and_connects_to_it_first() {
        use crate::model::remedy::{Pick, Remedy};
        let issues = with_near_misses(&typo_ops("sumarise"));
        let i = issues.iter().find(|i| i.code == "dangling_edge").unwrap();
        assert!(
            i.message.ends_with("did you mean `summarise`?"),
            "{}",
            i.message
        );
        assert_eq!(
            i.fixes[0].remedy,
            Remedy::Connect {
                from: Pick::id("fetch"),
                to: Pick::id("summarise"),
                handle: Some("always".into()),
            }
        );
        // The fix without a guess is still offered, after it.
        assert_eq!(i.fixes.len(), 2);
    }

    #[test]
    fn an_id_like_no_node_gets_no_guess() {
        let issues = with_near_misses(&typo_ops("publish_report"));
        let i = issues.iter().find(|i| i.code == "dangling_edge").unwrap();
        assert!(!i.message.contains("did you mean"), "{}", i.message);
        assert_eq!(i.fixes.len(), 1);
    }

    #[test]
    fn passes_when_both_ends_exist() {
        let f = crate::store::fold::fold("plan-t", &ops(false));
        assert!(crate::check::notes::issues(&f.notes).is_empty());
    }
}
