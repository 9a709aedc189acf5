//! Complexity: O(ops), inside the fold (`store::fold`), which emits this code.

use crate::model::Issue;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// Ops in the log that edit a node (set one of its fields, its whole
    /// definition or its phase) which does not exist when they apply and is
    /// absent from the folded plan. The edits had no effect (advisory).
    ///
    /// ## Why it matters
    /// Edits that silently do nothing hide intent: usually a node was removed
    /// in one history and edited in another, merged later.
    ///
    /// ## How to fix
    /// Add the node again if the edits still matter, and re-apply them;
    /// otherwise ignore this advisory.
    ///
    /// ## Example
    /// The log sets the phase of node `ghost` to `act`, and the plan has no
    /// `ghost` node. Fixed: add the call node `ghost`, then set its phase to
    /// `act` again.
    pub UnknownNode { code: "unknown_node", severity: Advisory, needs: NOTHING, source: Fold }
    fn run(cx, out) {}
}

/// The finding for edits of a node that was absent when they applied.
pub(crate) fn issue(node: &str) -> Issue {
    Issue::new(
        CODE,
        format!(
            "the log edits node `{node}`, which does not exist when the edit applies; those edits had no effect"
        ),
    )
    .node(node.to_string())
    .fix(
        Remedy::AddNode {
            id: Some(node.to_string()),
            kind: None,
        }
        .when("if the edits are still wanted: add the node first, then make them again"),
    )
}

#[cfg(test)]
mod tests {
    use crate::check::testing::*;
    use crate::model::OpBody;

    fn phase_op(node: &str) -> Vec<OpBody> {
        vec![
            OpBody::AddNode { node: join("a") },
            OpBody::SetNodePhase {
                node_id: node.into(),
                phase: Some("p".into()),
            },
        ]
    }

    #[test]
    fn fires_on_edits_to_a_missing_node() {
        let ops = crate::store::transaction("t", "plan-t", 0, phase_op("ghost"));
        let f = crate::store::fold::fold("plan-t", &ops);
        assert!(
            crate::check::notes::issues(&f.notes)
                .iter()
                .any(|i| i.code == "unknown_node" && i.node_id.as_deref() == Some("ghost"))
        );
    }

    #[test]
    fn passes_on_edits_to_a_present_node() {
        let ops = crate::store::transaction("t", "plan-t", 0, phase_op("a"));
        assert!(crate::store::fold::fold("plan-t", &ops).notes.is_empty());
    }
}
