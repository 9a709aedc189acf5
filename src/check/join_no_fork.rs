//! Complexity: O(n + e) (the dominator tree, computed once and shared).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::remedy::{Pick, Remedy};

declare_check! {
    /// ## What it finds
    /// A `join` that has no fork: no single step that every route to it
    /// passes (its immediate dominator). With one entry and no cycle this
    /// happens exactly when the join cannot be reached from the entry.
    ///
    /// ## Why it matters
    /// A join is a barrier that waits for the routes one fork opened. Without
    /// a fork there is no set of arrivals to wait for, so it can never
    /// release.
    ///
    /// ## How to fix
    /// Connect the join's branches from a step that runs (the fork), or
    /// remove the join.
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "start", "kind": "entry", "definition": {"input": []}},
    ///            {"id": "merge", "kind": "join", "definition": {}}], "edges": []}
    /// ```
    /// Fixed: connect two branches that both start after one step into `merge`.
    pub JoinNoFork { code: "join_no_fork", severity: Blocking, needs: ROUTES, source: Check, scope: Graph }
    fn run(cx, out) {
        let g = &cx.graph;
        let idom = g.idom();
        for (i, n) in cx.joins_where(|i| is_canonical(g, i) && idom[i].is_none()) {
            out.push(
                Issue::new(CODE,
                    format!(
                        "join `{}` has no fork: it cannot be reached from the entry, so no step opens the routes it would wait for and it can never release",
                        n.id
                    ),
                )
                .node(n.id.clone())
                .fix(
                    Remedy::Connect {
                        from: Pick::any("each branch it should close"),
                        to: Pick::id(&n.id),
                        handle: None,
                    }
                    .when("two or more branches that start after one common step"),
                )
                .fix(Remedy::RemoveNode { node: n.id.to_string() }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::JoinNoFork;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn fires_on_an_unreachable_join() {
        let p = plan(
            vec![entry("s"), step("a"), step("b"), join("j")],
            vec![
                edge("e1", "a", "j", "always"),
                edge("e2", "b", "j", "always"),
            ],
        );
        let issues = run_one(&JoinNoFork, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].node_id.as_deref(), Some("j"));
        assert_eq!(
            issues[0].fixes[1].remedy,
            Remedy::RemoveNode { node: "j".into() }
        );
    }

    #[test]
    fn passes_a_reachable_diamond() {
        let p = plan(
            vec![entry("s"), step("a"), step("b"), join("j")],
            vec![
                edge("e0", "s", "a", "always"),
                edge("e3", "s", "b", "always"),
                edge("e1", "a", "j", "always"),
                edge("e2", "b", "j", "always"),
            ],
        );
        assert!(run_one(&JoinNoFork, &p).is_empty());
    }
}
