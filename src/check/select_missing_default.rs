//! Complexity: O(n + e).

use crate::model::Issue;
use crate::model::remedy::{Pick, Remedy};
use crate::model::{Handle, NodeKind};

declare_check! {
    /// ## What it finds
    /// A `select` node with no outgoing `default` edge.
    ///
    /// ## Why it matters
    /// When no case matches, a select routes to `default`. Without one the run
    /// has nowhere to go and stops at the select, silently.
    ///
    /// ## How to fix
    /// Connect the select to a fallback step on `default`. (A `branch` does not
    /// need one: `match` and `no_match` cover every outcome.)
    ///
    /// ## Example
    /// ```json
    /// {"id": "route", "kind": "select", "definition": {"evaluator": "structured", "predicate": {}, "cases": ["bug"]}}
    /// ```
    /// Fixed: connect `route` to `triage` on `default`.
    pub SelectMissingDefault { code: "select_missing_default", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Select || cx.graph.index_of(&n.id) != Some(i) {
                continue;
            }
            if !cx.graph.out[i].iter().any(|&e| cx.graph.edge(e).handle == Handle::Default) {
                out.push(
                    Issue::new(CODE,
                        format!(
                            "select node `{}` has no `default` edge, so a run where no case matches stops there",
                            n.id
                        ),
                    )
                    .node(n.id.clone())
                    .fix(Remedy::Connect {
                        from: Pick::id(&n.id),
                        to: Pick::any("a fallback step"),
                        handle: Some("default".into()),
                    }),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SelectMissingDefault;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::remedy::{Pick, Remedy};
    use serde_json::json;

    fn sel() -> crate::model::Node {
        node(
            "c",
            NodeKind::Select,
            json!({"evaluator": "structured", "predicate": {}, "cases": ["x"]}),
        )
    }

    #[test]
    fn fires_without_default() {
        let p = plan(vec![sel(), join("j")], vec![edge("e", "c", "j", "case_x")]);
        let issues = run_one(&SelectMissingDefault, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Connect {
                from: Pick::id("c"),
                to: Pick::any("a fallback step"),
                handle: Some("default".into())
            }
        );
    }

    #[test]
    fn passes_with_default_and_ignores_branches() {
        let p = plan(vec![sel(), join("j")], vec![edge("e", "c", "j", "default")]);
        assert!(run_one(&SelectMissingDefault, &p).is_empty());
        let br = node(
            "b",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {}}),
        );
        let p = plan(vec![br, join("j")], vec![edge("e", "b", "j", "match")]);
        assert!(run_one(&SelectMissingDefault, &p).is_empty());
    }
}
