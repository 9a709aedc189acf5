//! Complexity: O(n + e): one pass in topological order carries, per node, the
//! nearest join above it (see `flow::nearest_joins_and_meets`); no walk per join.

use crate::check::support::is_canonical;
use crate::model::Issue;

declare_check! {
    /// ## What it finds
    /// A `join` whose region — the nodes strictly between its fork (immediate
    /// dominator) and itself — contains another join. One issue per outer
    /// join, naming the inner join nearest to it.
    ///
    /// ## Why it matters
    /// A diamond is one fan-out closed by one barrier. A barrier inside it
    /// means the outer join's arrivals are themselves the product of a
    /// barrier; the pairing of executions (which arrival belongs with which)
    /// is then ambiguous, and plans stay readable only when each diamond is
    /// flat.
    ///
    /// ## How to fix
    /// Flatten it: let the outer fork fan out to every parallel branch
    /// directly and close them with one join, or run the inner diamond
    /// entirely before or after the outer one.
    ///
    /// ## Example
    /// `start → a, b`; `a → x, y → inner`; `inner → outer`; `b → outer`:
    /// `inner` sits inside the diamond `start … outer`.
    /// Fixed: `start → x, y, b → outer`, one join.
    pub NestedJoin { code: "nested_join", severity: Blocking, needs: ROUTES, source: Check, scope: Graph }
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
            let (Some(fork), [Some((inner, at)), _]) = (idom[i], g.nearest_above(i)) else { continue };
            if at <= pos[fork] {
                continue;
            }
            let fork_id = g.node(fork).id.as_str();
            let inner_id = g.node(inner).id.as_str();
            out.push(
                Issue::new(CODE,
                    format!(
                        "join `{}` closes the routes its fork `{fork_id}` opens, but the join `{inner_id}` sits between them; a diamond may not contain another barrier. Flatten it: fan out from `{fork_id}` to every parallel branch and close them with one join, or move the diamond of `{inner_id}` entirely before `{fork_id}` or after `{}`",
                        n.id, n.id
                    ),
                )
                .node(n.id.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NestedJoin;
    use crate::check::testing::*;

    #[test]
    fn fires_on_a_diamond_inside_a_diamond() {
        let p = plan(
            vec![
                entry("s"),
                step("a"),
                step("b"),
                step("x"),
                step("y"),
                join("inner"),
                join("outer"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "a", "x", "always"),
                edge("e4", "a", "y", "always"),
                edge("e5", "x", "inner", "always"),
                edge("e6", "y", "inner", "always"),
                edge("e7", "inner", "outer", "always"),
                edge("e8", "b", "outer", "always"),
            ],
        );
        let issues = run_one(&NestedJoin, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].node_id.as_deref(), Some("outer"));
        assert!(issues[0].message.contains("`inner`"));
    }

    #[test]
    fn passes_diamonds_in_sequence() {
        let p = plan(
            vec![
                entry("s"),
                step("a"),
                step("b"),
                join("j1"),
                step("c"),
                step("d"),
                join("j2"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "a", "j1", "always"),
                edge("e4", "b", "j1", "always"),
                edge("e5", "j1", "c", "always"),
                edge("e6", "j1", "d", "always"),
                edge("e7", "c", "j2", "always"),
                edge("e8", "d", "j2", "always"),
            ],
        );
        assert!(run_one(&NestedJoin, &p).is_empty());
    }
}
