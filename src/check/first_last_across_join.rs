//! Complexity: O(n + e): one walk forward from every join at once, marking
//! each node with a join it follows; then O(1) per reference.

use crate::check::support::{place, ref_text};
use crate::model::Issue;
use crate::model::{NodeKind, Select};

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
            let fix = if d.r.branch_id.is_some() {
                "read every execution with select \"all\", or pick one with {\"index\": n}"
            } else {
                "name the execution with a branchId, read every execution with select \"all\", or pick one with {\"index\": n}"
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "node `{}` reads {} at {} with select \"{}\", but {position}, where executions from several branches are merged and their order is a race, so \"{}\" has no defined meaning; {fix}",
                        reader.id,
                        ref_text(d.r),
                        place(&d.pointer),
                        d.r.select.describe(),
                        d.r.select.describe()
                    ),
                )
                .node(reader.id.clone())
                .at(d.pointer.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::FirstLastAcrossJoin;
    use crate::check::testing::*;
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
    }

    #[test]
    fn passes_all_index_and_refs_before_the_join() {
        let all = json!({"$ref": {"node": "after", "select": "all", "path": "x"}});
        let idx = json!({"$ref": {"node": "after", "select": {"index": 0}, "path": "x"}});
        let p = diamond(json!({"a": all, "b": idx, "c": r("l", None)}));
        assert!(run_one(&FirstLastAcrossJoin, &p).is_empty());
    }
}
