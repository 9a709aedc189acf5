//! Complexity: O(1) (the graph lists entry nodes once).

use crate::model::Issue;

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
            out.push(Issue::new(CODE,
                "the plan has no entry node, so nothing can start; add one node of kind `entry` (e.g. `planforge add-node start --kind entry`) and connect it to the first step",
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NoEntry;
    use crate::check::testing::*;

    #[test]
    fn fires_on_a_plan_without_entry() {
        assert_eq!(run_one(&NoEntry, &plan(vec![join("j")], vec![])).len(), 1);
        assert_eq!(run_one(&NoEntry, &plan(vec![], vec![])).len(), 1);
    }

    #[test]
    fn passes_with_one_entry() {
        assert!(run_one(&NoEntry, &plan(vec![entry("s")], vec![])).is_empty());
    }
}
