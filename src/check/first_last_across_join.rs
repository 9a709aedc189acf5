//! Complexity: O(n + e): one walk forward from every join at once, marking
//! each node with a join it follows; then O(1) per reference.

use crate::check::flow::routes_to;
use crate::check::support::{branch_fixes, first_last_after_join, place, ref_text};
use crate::model::hash::FastMap;
use crate::model::remedy::{Fill, Remedy};
use crate::model::value::dot_path;
use crate::model::{BranchId, Issue, Select, Value};

declare_check! {
    /// ## What it finds
    /// A reference with `select: "first"` or `"last"` and no `branchId` to a
    /// node that is a join or runs after one, when that node runs more than
    /// once. Runs are counted as `ambiguous_reference` counts them: a join
    /// runs once per execution of its fork, so a node after a well-formed
    /// diamond runs once and its first execution is its only one. (Where runs
    /// cannot be counted, with no single entry or a cycle, every such
    /// reference is reported.)
    ///
    /// ## Why it matters
    /// Before a join, "first" and "last" are about one branch's executions in
    /// order. At and after a join, arrivals from several branches are merged
    /// and their order is a race; there is no defined pairing of executions,
    /// so first/last would read whichever branch happened to finish first.
    ///
    /// ## How to fix
    /// Say which execution you mean: add a `branchId` naming its route (the
    /// fixes give each route when there are few), or read every execution
    /// with `select: "all"`. An index is an arrival order, as much a race as
    /// first and last.
    ///
    /// ## Example
    /// `after_merge` follows a join and is reached on two edges from it:
    /// ```json
    /// {"$ref": {"node": "after_merge", "select": "first", "path": "summary"}}
    /// ```
    /// Fixed: `{"$ref": {"node": "after_merge", "select": "all", "path": "summary"}}`.
    pub FirstLastAcrossJoin { code: "first_last_across_join", severity: Blocking, needs: NOTHING, source: Check, scope: Graph }
    fn run(cx, out) {
        let g = &cx.graph;
        // Only first or last without a branch can be one (see
        // `first_last_after_join`); the others are not read.
        let refs = cx.data_refs_where(|_, tag, _| tag.first_or_last() && !tag.branch());
        if refs.is_empty() {
            return;
        }
        let after = g.after_join();
        let mut memo: FastMap<usize, Option<Vec<BranchId>>> = FastMap::default();
        for d in refs.iter().filter(|d| first_last_after_join(g, after, d)) {
            let Some(j) = after[d.target] else { continue };
            let reader = g.node(d.node);
            let target = g.node(d.target);
            let join_id = g.node(j).id.as_str();
            let position = if j == d.target {
                format!("`{}` is a join", target.id)
            } else {
                format!("`{}` runs after the join `{join_id}`", target.id)
            };
            let runs = match g.executions()[d.target] {
                0 => String::new(),
                n => format!(" ({n} routes from the entry reach it)"),
            };
            let issue = Issue::new(CODE,
                format!(
                    "node `{}` reads {} at {} with select \"{}\", but {position}{runs}, where executions from several branches are merged and their order is a race, so \"{}\" has no defined meaning",
                    reader.id,
                    ref_text(d.r),
                    place(&d.pointer),
                    d.r.select.describe(),
                    d.r.select.describe()
                ),
            )
            .node(reader.id.clone())
            .at(d.pointer.clone());
            let set = |value| Remedy::SetField {
                node: reader.id.to_string(),
                path: dot_path(&d.pointer),
                value,
            };
            let routes = memo
                .entry(d.target)
                .or_insert_with(|| routes_to(g, d.target, 4));
            let issue = branch_fixes(&reader.id, &d.pointer, d.r, routes.as_deref())
                .into_iter()
                .fold(issue, Issue::fix);
            let mut all = d.r.clone();
            all.select = Select::All;
            out.push(
                issue.fix(set(Fill::Value(Value::Ref(Box::new(all)))).when("to read every execution")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FirstLastAcrossJoin;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    /// A well-formed diamond `s → l, r → j`, then `j → after → reader`
    /// (with `twice`, on two parallel edges from `j`: `after` runs twice).
    fn diamond(reader_args: serde_json::Value, twice: bool) -> crate::model::Content {
        let mut edges = vec![
            edge("e1", "s", "l", "always"),
            edge("e2", "s", "r", "always"),
            edge("e3", "l", "j", "always"),
            edge("e4", "r", "j", "always"),
            edge("e5", "j", "after", "always"),
            edge("e6", "after", "reader", "always"),
        ];
        if twice {
            edges.push(edge("e5b", "j", "after", "always"));
        }
        plan(
            vec![
                entry("s"),
                step("l"),
                step("r"),
                join("j"),
                call_with("after", "t", json!({}), &["x"]),
                call_with("reader", "t", reader_args, &[]),
            ],
            edges,
        )
    }

    #[test]
    fn fires_on_first_after_a_join_when_the_target_runs_twice() {
        let p = diamond(json!({"a": r("after", Some("x"))}), true);
        let issues = run_one(&FirstLastAcrossJoin, &p);
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert!(issues[0].message.contains("after the join `j` (2 routes"));
        // One fix per route (a branchId), then every execution.
        assert_eq!(issues[0].fixes.len(), 3);
        let all = crate::model::Ref {
            node: "after".into(),
            select: crate::model::Select::All,
            path: Some("x".into()),
            branch_id: None,
        };
        assert_eq!(
            issues[0].fixes[2].remedy,
            Remedy::SetField {
                node: "reader".into(),
                path: "args.a".into(),
                value: Fill::Value(crate::model::Value::Ref(Box::new(all))),
            }
        );
        // ambiguous_reference leaves it to this check: one finding, not two.
        assert!(run_one(&super::super::ambiguous_reference::AmbiguousReference, &p).is_empty());
    }

    #[test]
    fn passes_first_and_last_after_a_well_formed_diamond_and_all_and_branch_ids() {
        // After a well-formed diamond the node runs once, as
        // ambiguous_reference counts it: first and last are that run.
        let last = json!({"$ref": {"node": "j", "select": "last", "path": "via"}});
        let p = diamond(
            json!({"a": r("after", Some("x")), "b": last, "c": r("l", None)}),
            false,
        );
        assert!(run_one(&FirstLastAcrossJoin, &p).is_empty());
        let all = json!({"$ref": {"node": "after", "select": "all", "path": "x"}});
        let routed = json!({"$ref": {"node": "after", "select": "first", "path": "x",
            "branchId": {"segments": [{"join": "j", "of": ["e3", "e4"]}, {"edge": "e5"}]}}});
        let p = diamond(json!({"a": all, "b": routed}), true);
        assert!(run_one(&FirstLastAcrossJoin, &p).is_empty());
    }
}
