//! Complexity: O(n + e): one walk forward from every join at once, marking
//! each node with a join it follows; then O(1) per reference.

use crate::check::support::{place, ref_text};
use crate::model::remedy::{Fill, Remedy};
use crate::model::value::dot_path;
use crate::model::{Issue, NodeKind, Select, Value};

declare_check! {
    /// ## What it finds
    /// A reference with `select: "first"` or `"last"` to a node that is a
    /// join or runs after one.
    ///
    /// ## Why it matters
    /// Before a join, "first" and "last" are about one branch's executions in
    /// order. At and after a join, arrivals from several branches are merged
    /// and their order is a race; there is no defined pairing of executions,
    /// so first/last would read whichever branch happened to finish first.
    ///
    /// ## How to fix
    /// Say which execution you mean: add a `branchId` naming its route, read
    /// every execution with `select: "all"`, or pick one with
    /// `{"index": n}`.
    ///
    /// ## Example
    /// ```json
    /// {"$ref": {"node": "after_merge", "select": "first", "path": "summary"}}
    /// ```
    /// Fixed: `{"$ref": {"node": "after_merge", "select": "all", "path": "summary"}}`.
    pub FirstLastAcrossJoin { code: "first_last_across_join", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        let g = &cx.graph;
        let refs: Vec<_> = cx
            .data_refs()
            .iter()
            .filter(|d| matches!(d.r.select, Select::First | Select::Last))
            .collect();
        if refs.is_empty() {
            return;
        }
        // A join each node follows (itself for a join), by one forward walk.
        let mut after: Vec<Option<usize>> = vec![None; g.len()];
        let mut stack: Vec<usize> = Vec::new();
        for (i, n) in cx.content.nodes.iter().enumerate() {
            if n.kind == NodeKind::Join {
                after[i] = Some(i);
                stack.push(i);
            }
        }
        while let Some(v) = stack.pop() {
            for t in g.succs(v) {
                if after[t].is_none() {
                    after[t] = after[v];
                    stack.push(t);
                }
            }
        }
        for d in refs {
            let Some(j) = after[d.target] else { continue };
            let reader = g.node(d.node);
            let target = g.node(d.target);
            let join_id = g.node(j).id.as_str();
            let position = if j == d.target {
                format!("`{}` is a join", target.id)
            } else {
                format!("`{}` runs after the join `{join_id}`", target.id)
            };
            let mut issue = Issue::new(CODE,
                format!(
                    "node `{}` reads {} at {} with select \"{}\", but {position}, where executions from several branches are merged and their order is a race, so \"{}\" has no defined meaning",
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
                node: reader.id.clone(),
                path: dot_path(&d.pointer),
                value,
            };
            let mut all = d.r.clone();
            all.select = Select::All;
            if d.r.branch_id.is_none() {
                issue = issue.fix(
                    set(Fill::choose("the same reference with a branchId naming its route"))
                        .when("to read one route's execution"),
                );
            }
            out.push(
                issue
                    .fix(set(Fill::Value(Value::Ref(Box::new(all)))).when("to read every execution"))
                    .fix(
                        set(Fill::choose("the same reference with select {\"index\": n}"))
                            .when("to read the n-th arrival"),
                    ),
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

    fn diamond(reader_args: serde_json::Value) -> crate::model::Content {
        plan(
            vec![
                entry("s"),
                step("l"),
                step("r"),
                join("j"),
                call_with("after", "t", json!({}), &["x"]),
                call_with("reader", "t", reader_args, &[]),
            ],
            vec![
                edge("e1", "s", "l", "always"),
                edge("e2", "s", "r", "always"),
                edge("e3", "l", "j", "always"),
                edge("e4", "r", "j", "always"),
                edge("e5", "j", "after", "always"),
                edge("e6", "after", "reader", "always"),
            ],
        )
    }

    #[test]
    fn fires_on_first_after_a_join() {
        let last = json!({"$ref": {"node": "j", "select": "last", "path": "via"}});
        let p = diamond(json!({"a": r("after", Some("x")), "b": last}));
        let issues = run_one(&FirstLastAcrossJoin, &p);
        assert_eq!(issues.len(), 2);
        assert!(issues[0].message.contains("after the join `j`"));
        assert!(issues[1].message.contains("is a join"));
        let all = crate::model::Ref {
            node: "j".into(),
            select: crate::model::Select::All,
            path: Some("via".into()),
            branch_id: None,
        };
        assert_eq!(
            issues[1].fixes[1].remedy,
            Remedy::SetField {
                node: "reader".into(),
                path: "args.b".into(),
                value: Fill::Value(crate::model::Value::Ref(Box::new(all))),
            }
        );
    }

    #[test]
    fn passes_all_index_and_refs_before_the_join() {
        let all = json!({"$ref": {"node": "after", "select": "all", "path": "x"}});
        let idx = json!({"$ref": {"node": "after", "select": {"index": 0}, "path": "x"}});
        let p = diamond(json!({"a": all, "b": idx, "c": r("l", None)}));
        assert!(run_one(&FirstLastAcrossJoin, &p).is_empty());
    }
}
