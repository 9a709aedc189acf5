//! Complexity: O(ops), inside the fold (`store::fold`), which emits this code
//! (a document is folded like an import, so it is found there too).

use crate::model::Issue;
use crate::model::note::NodeSketch;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// Two different nodes added under the same id: in one change (a plan
    /// document being checked or imported, or a template, that lists the id
    /// twice), or in two changes that did not see each other (two clones of
    /// the store each added the id, then merged). The fold keeps the later
    /// node, so the other one is gone. Replacing a node on purpose
    /// (a `replace_node` op, which replacing a node writes) is not this.
    ///
    /// ## Why it matters
    /// Node ids are how edges, references and people name a node. With two
    /// nodes under one id, one of them silently disappears from the plan, and
    /// the edges and references meant for it now reach the other.
    ///
    /// ## How to fix
    /// Give one of the nodes another id, and point the edges and references
    /// that meant it at the new id. If both entries describe the same step,
    /// keep one.
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "fetch", "kind": "call", "definition": {"tool": "tickets_get"}},
    ///            {"id": "fetch", "kind": "call", "definition": {"tool": "users_get"}}]}
    /// ```
    /// Fixed: rename the second to `fetch_user`.
    pub DuplicateNodeId { code: "duplicate_node_id", severity: Blocking, needs: NOTHING, source: Fold }
    fn run(cx, out) {}
}

/// The finding for two different nodes added under one id in one change.
pub(crate) fn issue(id: &str, lost: &NodeSketch, kept: &NodeSketch) -> Issue {
    let what = |n: &NodeSketch| match &n.phase {
        Some(p) => format!("{} in phase `{p}`", n.kind.a()),
        None => n.kind.a().to_string(),
    };
    let both = if lost == kept {
        format!("two {} nodes with different definitions", kept.kind)
    } else {
        format!("{} and {}", what(lost), what(kept))
    };
    Issue::new(
        CODE,
        format!(
            "two nodes were added under the id `{id}` ({both}), in one change or in two that did not see each other (a merge); the later one was kept and the other is lost. Node ids identify nodes"
        ),
    )
    .node(id.to_string())
    .fix(
        Remedy::AddNode {
            id: None,
            kind: Some(lost.kind),
        }
        .when("to keep the lost node: under another id, then update the edges and references that mean it"),
    )
}

#[cfg(test)]
mod tests {
    use crate::check::testing::*;
    use crate::model::OpBody;

    fn add(node: crate::model::Node) -> OpBody {
        OpBody::AddNode { node }
    }

    #[test]
    fn fires_on_two_clones_adding_one_id_but_not_on_a_replace() {
        let first = crate::store::transaction("alice", "plan-t", 0, vec![add(step("review"))]);
        let second = crate::store::transaction("bob", "plan-t", 1, vec![add(join("review"))]);
        let merged: Vec<_> = first.iter().chain(&second).cloned().collect();
        let f = crate::store::fold::fold("plan-t", &merged);
        let issues = crate::check::notes::issues(&f.notes);
        assert!(
            issues.iter().any(|i| i.code == "duplicate_node_id"),
            "{issues:?}"
        );
        // Near miss: the second change says it replaces the node.
        let replace = crate::store::transaction(
            "bob",
            "plan-t",
            1,
            vec![OpBody::ReplaceNode {
                node: join("review"),
            }],
        );
        let merged: Vec<_> = first.iter().chain(&replace).cloned().collect();
        let f = crate::store::fold::fold("plan-t", &merged);
        let issues = crate::check::notes::issues(&f.notes);
        assert!(
            !issues.iter().any(|i| i.code == "duplicate_node_id"),
            "{issues:?}"
        );
        assert_eq!(f.content.nodes[0].kind, crate::model::NodeKind::Join);
    }

    #[test]
    fn fires_on_two_different_nodes_in_one_change() {
        let ops = crate::store::transaction(
            "t",
            "plan-t",
            0,
            vec![add(step("fetch")), add(join("fetch"))],
        );
        let f = crate::store::fold::fold("plan-t", &ops);
        let issues = crate::check::notes::issues(&f.notes);
        let i = issues
            .iter()
            .find(|i| i.code == "duplicate_node_id")
            .expect("reported");
        assert!(i.is_blocking());
        assert_eq!(i.node_id.as_deref(), Some("fetch"));
        assert!(i.message.contains("a call and a join"), "{}", i.message);
        assert_eq!(f.content.nodes.len(), 1);
    }

    #[test]
    fn a_replace_in_a_later_change_and_an_identical_repeat_are_not_duplicates() {
        let mut ops = crate::store::transaction("t", "plan-t", 0, vec![add(step("fetch"))]);
        ops.extend(crate::store::transaction(
            "t",
            "plan-t",
            1,
            vec![OpBody::ReplaceNode {
                node: join("fetch"),
            }],
        ));
        let f = crate::store::fold::fold("plan-t", &ops);
        assert!(
            crate::check::notes::issues(&f.notes).is_empty(),
            "{:?}",
            crate::check::notes::issues(&f.notes)
        );
        let same = crate::store::transaction(
            "t",
            "plan-t",
            0,
            vec![add(step("fetch")), add(step("fetch"))],
        );
        assert!(crate::store::fold::fold("plan-t", &same).notes.is_empty());
    }
}
