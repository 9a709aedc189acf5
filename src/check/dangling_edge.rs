//! Complexity: O(e), inside the fold (`store::fold`), which emits this code.

use crate::model::remedy::{Pick, Remedy};
use crate::model::{Edge, Issue};

declare_check! {
    /// ## What it finds
    /// An edge whose `from` or `to` node no longer exists once the op log is
    /// folded. The fold drops the edge and reports it (advisory).
    ///
    /// ## Why it matters
    /// It usually means a node was removed in one history while another history
    /// (merged later) connected it. The link the author made is gone; the plan
    /// still loads, but a step may now be disconnected.
    ///
    /// ## How to fix
    /// Look at the named edge's endpoints: add the missing node back, or
    /// connect the surviving node to where it should lead.
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
    Issue::new(
        CODE,
        format!(
            "edge `{}` ({} → {}) was dropped because node `{missing}` no longer exists",
            edge.id, edge.from, edge.to
        ),
    )
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

    #[test]
    fn passes_when_both_ends_exist() {
        let f = crate::store::fold::fold("plan-t", &ops(false));
        assert!(crate::check::notes::issues(&f.notes).is_empty());
    }
}
