//! Complexity: O(1) (the graph lists entry nodes once).

use crate::model::remedy::Remedy;
use crate::model::{Issue, NodeKind};

declare_check! {
    /// ## What it finds
    /// A plan without an `entry` node.
    ///
    /// ## Why it matters
    /// The entry is where a run starts and where the run input arrives. Without
    /// one nothing can execute, and the route, dominator and taint checks have
    /// nowhere to start from, so they are skipped.
    ///
    /// ## How to fix
    /// Add exactly one node of kind `entry` declaring the run input, and
    /// connect it to the first step.
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "fetch", "kind": "call", "definition": {"tool": "tickets_get"}}], "edges": []}
    /// ```
    /// Fixed:
    /// ```json
    /// {"nodes": [{"id": "start", "kind": "entry", "definition": {"input": []}},
    ///            {"id": "fetch", "kind": "call", "definition": {"tool": "tickets_get"}}],
    ///  "edges": [{"id": "start__fetch", "from": "start", "to": "fetch", "handle": "always"}]}
    /// ```
    pub NoEntry { code: "no_entry", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        if cx.graph.entries.is_empty() {
            out.push(
                Issue::new(CODE, "the plan has no entry node, so nothing can start")
                    .fix(
                        Remedy::AddNode {
                            id: cx.graph.index_of("start").is_none().then(|| "start".into()),
                            kind: Some(NodeKind::Entry),
                        }
                            .when("then connect it to the first step"),
                    ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NoEntry;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn fires_on_a_plan_without_entry() {
        let issues = run_one(&NoEntry, &plan(vec![join("j")], vec![]));
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::AddNode {
                id: Some("start".into()),
                kind: Some(crate::model::NodeKind::Entry)
            }
        );
        assert_eq!(run_one(&NoEntry, &plan(vec![], vec![])).len(), 1);
    }

    #[test]
    fn passes_with_one_entry() {
        assert!(run_one(&NoEntry, &plan(vec![entry("s")], vec![])).is_empty());
    }
}
