//! Complexity: O(n + e) (the dominator tree once, then each join's in-edges).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::remedy::{Pick, Remedy};

declare_check! {
    /// ## What it finds
    /// A `join` that closes fewer than two routes from its fork (its
    /// immediate dominator). Routes are counted as sequences of nodes:
    /// several parallel edges between the same two nodes are one route, so
    /// `a → j` twice is not a diamond. (The reference implementation counts
    /// each parallel edge and lets that pass.) Since the fork dominates the
    /// join, two routes exist exactly when the join has two different
    /// reachable predecessors.
    ///
    /// ## Why it matters
    /// A join waits for parallel branches to meet. With a single route there
    /// is nothing to wait for; the join is either superfluous or a sign that
    /// branches meet earlier than intended (for example `fork → l, r →
    /// shared → join`, where `shared` is the real meeting point).
    ///
    /// ## How to fix
    /// Connect a second branch from the fork into the join, or remove the
    /// join and connect its predecessor straight to what follows. If the
    /// branches already meet at another node, put the join there.
    ///
    /// ## Example
    /// ```json
    /// {"edges": [{"id": "e1", "from": "start", "to": "a", "handle": "always"},
    ///            {"id": "e2", "from": "a", "to": "merge", "handle": "always"}]}
    /// ```
    /// Fixed: add `b` with `start → b → merge`, so `merge` closes two routes
    /// from `start`.
    pub JoinNotDiamond { code: "join_not_diamond", severity: Blocking, needs: ROUTES, source: Check, scope: Graph }
    fn run(cx, out) {
        let g = &cx.graph;
        let idom = g.idom();
        let reach = g.reachable();
        for (i, n) in cx.joins_where(|i| is_canonical(g, i)) {
            let Some(fork) = idom[i] else { continue };
            // The reachable predecessors: how many edges, and whether they
            // come from two nodes or more (no list made per join).
            let (mut first, mut edges, mut two) = (None, 0usize, false);
            for p in g.preds(i).filter(|&p| reach[p]) {
                edges += 1;
                two |= first.is_some_and(|f| f != p);
                first.get_or_insert(p);
            }
            let Some(only) = first.filter(|_| !two) else { continue };
            let only = g.node(only).id.as_str();
            let parallel = if edges > 1 {
                format!(" (its {edges} parallel edges from `{only}` are one route: they carry the same step's result)")
            } else {
                String::new()
            };
            let fork_id = g.node(fork).id.as_str();
            out.push(
                Issue::new(CODE,
                    format!(
                        "join `{}` closes only one route from its fork `{fork_id}`: every route into it comes from `{only}`{parallel}, so there is nothing to wait for",
                        n.id
                    ),
                )
                .node(n.id.clone())
                .fix(Remedy::Connect {
                    from: Pick::any(format!("a second branch that starts at `{fork_id}`")),
                    to: Pick::id(&n.id),
                    handle: None,
                })
                .fix(
                    Remedy::RemoveNode { node: n.id.to_string() }
                        .when(format!("then connect `{only}` to what followed the join")),
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::JoinNotDiamond;
    use crate::check::testing::*;
    use crate::model::remedy::{Pick, Remedy};

    #[test]
    fn fires_on_a_single_route_and_on_reconvergence_before_the_join() {
        let p = plan(
            vec![entry("s"), step("a"), join("j")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "j", "always"),
            ],
        );
        let issues = run_one(&JoinNotDiamond, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Connect {
                from: Pick::any("a second branch that starts at `a`"),
                to: Pick::id("j"),
                handle: None
            }
        );
        // fork → l | r → shared → join: the fork slides to `shared`.
        let p = plan(
            vec![entry("s"), step("l"), step("r"), step("shared"), join("j")],
            vec![
                edge("e1", "s", "l", "always"),
                edge("e2", "s", "r", "always"),
                edge("e3", "l", "shared", "always"),
                edge("e4", "r", "shared", "always"),
                edge("e5", "shared", "j", "always"),
            ],
        );
        let issues = run_one(&JoinNotDiamond, &p);
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("fork `shared`"));
    }

    #[test]
    fn parallel_edges_are_one_route() {
        let p = plan(
            vec![entry("s"), step("a"), join("j")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "j", "always"),
                edge("e3", "a", "j", "always"),
            ],
        );
        let issues = run_one(&JoinNotDiamond, &p);
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("parallel"));
    }

    #[test]
    fn passes_a_diamond() {
        let p = plan(
            vec![entry("s"), step("a"), step("b"), join("j")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "a", "j", "always"),
                edge("e4", "b", "j", "always"),
            ],
        );
        assert!(run_one(&JoinNotDiamond, &p).is_empty());
    }
}
