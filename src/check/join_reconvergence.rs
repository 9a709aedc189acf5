//! Complexity: O(n + e): one pass in topological order carries, per node, the
//! nearest reconverging node above it (see `flow::nearest_joins_and_meets`); no walk
//! per join.

use crate::check::support::is_canonical;
use crate::model::Issue;

declare_check! {
    /// ## What it finds
    /// A `join` whose region — the nodes strictly between its fork (immediate
    /// dominator) and itself — contains a node other than a join with more
    /// than one incoming edge (every incoming edge counts, from anywhere).
    /// One issue per join, naming the reconverging node nearest to it. A join
    /// inside the region is `nested_join` instead.
    ///
    /// ## Why it matters
    /// Inside a diamond each branch must run on its own until the join. A
    /// node where branches meet early runs once per arriving route, so the
    /// join receives more (and differently paired) arrivals than the branches
    /// the fork opened.
    ///
    /// ## How to fix
    /// Let the branches meet only at the join: give each branch its own copy
    /// of the shared step, or move the shared step after the join.
    ///
    /// ## Example
    /// `start → a, b`; `a → c`, `b → c`, `b → merge`, `c → merge`: `c` is
    /// reached twice inside the diamond `start … merge`.
    /// Fixed: `start → a, b`; `a → c`; `c → merge`, `b → merge`.
    pub JoinReconvergence { code: "join_reconvergence", severity: Blocking, needs: ROUTES, source: Check, scope: Graph }
    fn run(cx, out) {
        let g = &cx.graph;
        let joins = cx.joins_where(|i| is_canonical(g, i));
        if joins.is_empty() {
            return;
        }
        let idom = g.idom();
        // A join without a fork has no region (a new loose one: no walk).
        if joins.iter().all(|(i, _)| idom[*i].is_none()) {
            return;
        }
        let pos = g.topo_pos();
        for (i, n) in joins {
            let (Some(fork), [_, Some((meet, at))]) = (idom[i], g.nearest_above(i)) else { continue };
            if at <= pos[fork] {
                continue;
            }
            let fork_id = g.node(fork).id.as_str();
            let meet_id = g.node(meet).id.as_str();
            let from: Vec<&str> = g.inc[meet].iter().map(|&e| g.edge(e).id.as_str()).collect();
            out.push(
                Issue::new(CODE,
                    format!(
                        "inside the diamond from `{fork_id}` to join `{}`, the node `{meet_id}` has {} incoming edges ({}), so branches meet before the join and `{meet_id}` runs once per arriving route; let the branches meet only at `{}`: give each branch its own step instead of `{meet_id}`, or move `{meet_id}` after the join",
                        n.id,
                        from.len(),
                        crate::model::suggest::capped_list(&from, 20),
                        n.id
                    ),
                )
                .node(n.id.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::JoinReconvergence;
    use crate::check::testing::*;

    #[test]
    fn fires_when_branches_meet_inside() {
        let p = plan(
            vec![entry("s"), step("a"), step("b"), step("c"), join("j")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "a", "c", "always"),
                edge("e4", "b", "c", "always"),
                edge("e5", "c", "j", "always"),
                edge("e6", "b", "j", "always"),
            ],
        );
        let issues = run_one(&JoinReconvergence, &p);
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("`c`"));
    }

    #[test]
    fn passes_when_reconvergence_is_before_the_fork() {
        // a and b meet at m (in-degree 2), which then forks: m is the fork,
        // not inside the diamond.
        let p = plan(
            vec![
                entry("s"),
                step("a"),
                step("b"),
                step("m"),
                step("x"),
                step("y"),
                join("j"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "a", "m", "always"),
                edge("e4", "b", "m", "always"),
                edge("e5", "m", "x", "always"),
                edge("e6", "m", "y", "always"),
                edge("e7", "x", "j", "always"),
                edge("e8", "y", "j", "always"),
            ],
        );
        assert!(run_one(&JoinReconvergence, &p).is_empty());
    }
}
