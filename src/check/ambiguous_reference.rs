//! Complexity: O(n + e) to count executions once (saturating, never
//! enumerating); messages enumerate routes only when at most 4 exist, within a
//! fixed budget.

use crate::check::flow::routes_to;
use crate::check::graph::MAX_ROUTES;
use crate::check::support::{branch_fixes, first_last_after_join, place, ref_text};
use crate::model::{BranchId, Issue};

declare_check! {
    /// ## What it finds
    /// A reference without a `branchId` to a node that runs more than once
    /// in a run, because more than one route from the entry reaches it
    /// (`select: "all"` reads every execution, so it is not ambiguous; a
    /// `first` or `last` after a join is `first_last_across_join`'s).
    ///
    /// Routes are counted the way `branchId`s name executions: each edge
    /// into an ordinary node is a separate route (parallel edges too), while
    /// a join runs once per execution of its fork (its immediate dominator),
    /// so a node after a well-formed diamond is not ambiguous. Counts stop
    /// at 10,000; past that the message says so instead of giving a number.
    /// The reference implementation counts every simple route, which flags
    /// every node after a diamond.
    ///
    /// ## Why it matters
    /// Each route is a separate execution with its own output. A reference
    /// that does not say which one reads an arbitrary one, so the plan means
    /// different things on different runs.
    ///
    /// ## How to fix
    /// Add a `branchId` naming the route to read (the fixes give each route
    /// when there are few), or restructure so the target runs once (for example,
    /// close parallel branches with a join and read the join or a node after
    /// it).
    ///
    /// ## Example
    /// `check → notify` on `match` and `check → notify` on `no_match`;
    /// `report` reads `{"$ref": {"node": "notify", "select": "first"}}`.
    /// Fixed: `{"$ref": {"node": "notify", "select": "first", "branchId": {"segments": [{"edge": "e1"}, {"edge": "on_match"}]}}}`.
    pub AmbiguousReference { code: "ambiguous_reference", severity: Blocking, needs: ROUTES, source: Check, scope: Graph }
    fn run(cx, out) {
        let g = &cx.graph;
        let exec = g.executions();
        let mut memo: crate::model::hash::FastMap<usize, Option<Vec<BranchId>>> =
            crate::model::hash::FastMap::default();
        let after = g.after_join();
        // Without a branch, not all, to a node that runs more than once:
        // the others are not read.
        let refs = cx.data_refs_where(|_, tag, target| {
            !tag.branch() && !tag.all() && exec[target] > 1
        });
        for d in refs.iter() {
            // first/last after a join is first_last_across_join's, with the
            // same fixes.
            if d.r.branch_id.is_some()
                || d.r.select == crate::model::Select::All
                || exec[d.target] <= 1
                || first_last_after_join(g, after, d)
            {
                continue;
            }
            let reader = g.node(d.node);
            let target = g.node(d.target);
            let count = exec[d.target];
            let how_many = if count > MAX_ROUTES {
                format!("more than {MAX_ROUTES} routes from the entry reach `{}` (counting stops there, so the exact number is not known)", target.id)
            } else {
                format!("{count} routes from the entry reach `{}`", target.id)
            };
            let routes = memo
                .entry(d.target)
                .or_insert_with(|| routes_to(g, d.target, 4));
            let issue = Issue::new(CODE,
                    format!(
                        "node `{}` reads {} at {} without a branchId, but {how_many}, and it runs once per route, so the reference does not say which execution to read. Making `{}` run once (closing the parallel branches with a join first) also settles it",
                        reader.id,
                        ref_text(d.r),
                        place(&d.pointer),
                        target.id
                    ),
                )
                .node(reader.id.clone())
                .at(d.pointer.clone());
            out.push(
                branch_fixes(&reader.id, &d.pointer, d.r, routes.as_deref())
                    .into_iter()
                    .fold(issue, Issue::fix),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AmbiguousReference;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use crate::model::{NodeKind, Value};
    use serde_json::json;

    #[test]
    fn fires_on_two_routes_and_lists_them() {
        let br = node(
            "check",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {}}),
        );
        let p = plan(
            vec![
                entry("s"),
                br,
                call_with("notify", "t", json!({}), &["x"]),
                call_with("report", "t", json!({"a": r("notify", Some("x"))}), &[]),
            ],
            vec![
                edge("e1", "s", "check", "always"),
                edge("m", "check", "notify", "match"),
                edge("n", "check", "notify", "no_match"),
                edge("e2", "notify", "report", "always"),
            ],
        );
        let issues = run_one(&AmbiguousReference, &p);
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("2 routes"));
        // One fix per route, each the reference with that route's branchId.
        assert_eq!(issues[0].fixes.len(), 2);
        let Remedy::SetField { node, path, value } = &issues[0].fixes[0].remedy else {
            panic!("{:?}", issues[0].fixes)
        };
        assert_eq!((node.as_str(), path.as_str()), ("report", "args.a"));
        let Fill::Value(Value::Ref(with)) = value else {
            panic!("{value:?}")
        };
        assert_eq!(
            crate::check::flow::branch_json(with.branch_id.as_ref().unwrap()),
            r#"{"segments":[{"edge":"e1"},{"edge":"m"}]}"#
        );
        assert_eq!(
            issues[0].fixes[1].when.as_deref(),
            Some("to read the execution along `e1` → `n`")
        );
    }

    #[test]
    fn says_when_the_count_saturates() {
        // 14 stacked pairs of parallel edges: 2^14 routes.
        let mut nodes = vec![entry("s")];
        let mut edges = Vec::new();
        let mut prev = "s".to_string();
        for k in 0..14 {
            let id = format!("n{k}");
            nodes.push(call_with(&id, "t", json!({}), &[]));
            edges.push(edge(&format!("a{k}"), &prev, &id, "always"));
            edges.push(edge(&format!("b{k}"), &prev, &id, "always"));
            prev = id;
        }
        nodes.push(call_with("reader", "t", json!({"x": r(&prev, None)}), &[]));
        edges.push(edge("last", &prev, "reader", "always"));
        let issues = run_one(&AmbiguousReference, &plan(nodes, edges));
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("more than 10000 routes"));
        assert!(matches!(
            &issues[0].fixes[..],
            [f] if matches!(&f.remedy, Remedy::SetField { value: Fill::Choose(_), .. })
        ));
    }

    #[test]
    fn passes_one_route_a_branch_id_and_nodes_after_a_join() {
        let p = plan(
            vec![
                entry("s"),
                step("l"),
                step("r"),
                join("j"),
                call_with("after", "t", json!({}), &["x"]),
                call_with(
                    "reader",
                    "t",
                    json!({"a": r("after", Some("x")), "b": r("s", None), "c": r("j", Some("via"))}),
                    &[],
                ),
            ],
            vec![
                edge("e1", "s", "l", "always"),
                edge("e2", "s", "r", "always"),
                edge("e3", "l", "j", "always"),
                edge("e4", "r", "j", "always"),
                edge("e5", "j", "after", "always"),
                edge("e6", "after", "reader", "always"),
            ],
        );
        assert!(run_one(&AmbiguousReference, &p).is_empty());
    }
}
