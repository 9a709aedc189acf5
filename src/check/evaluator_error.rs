//! Complexity: O(size of the predicates); nesting is capped at 256 levels.

use crate::check::predicate::{self, STRUCTURED};
use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::NodeKind;

declare_check! {
    /// ## What it finds
    /// A `branch` or `select` using the built-in `structured` evaluator whose
    /// predicate the evaluator refuses:
    /// - a branch predicate must be one predicate: a test
    ///   `{"path": "node.field", "op": OP, "value": V}` (ops `eq ne lt lte gt
    ///   gte in contains` need `value`; `truthy` and `exists` take none; `in`
    ///   needs a list), or `{"all": [ … ]}`, `{"any": [ … ]}`, `{"not": … }`,
    ///   exactly one form per object, nested at most 256 levels;
    /// - a select predicate maps each of its `cases` to such a predicate; a
    ///   case without an entry is refused (keys that are not cases are
    ///   ignored).
    ///
    /// Other evaluators are only checked for wiring (`unwired_evaluator`).
    ///
    /// ## Why it matters
    /// A predicate the evaluator cannot read never matches, so the run would
    /// take `no_match`/`default` every time, silently.
    ///
    /// ## How to fix
    /// Rewrite the part the message points at in one of the forms above.
    ///
    /// ## Example
    /// ```json
    /// {"evaluator": "structured", "predicate": {"path": "fetch.status", "op": "truthy", "value": 1}}
    /// ```
    /// Fixed: `{"path": "fetch.status", "op": "eq", "value": "open"}`, or
    /// `truthy` without `value`.
    pub EvaluatorError { code: "evaluator_error", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if !matches!(n.kind, NodeKind::Branch | NodeKind::Select) || !is_canonical(g, i) {
                continue;
            }
            if n.str_field("evaluator") != Some(STRUCTURED) {
                continue;
            }
            let Some(pred) = n.get("predicate") else { continue };
            let problems = if n.kind == NodeKind::Branch {
                predicate::parse(pred).err().into_iter().collect()
            } else {
                predicate::parse_select(pred, &n.cases()).1
            };
            for e in problems {
                let at = format!("/definition/predicate{}", e.pointer);
                let place = if e.pointer.is_empty() {
                    String::new()
                } else {
                    format!(" (at `predicate{}`)", e.pointer)
                };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "{} node `{}` has a structured predicate the evaluator cannot use{place}: {}",
                            n.kind, n.id, e.message
                        ),
                    )
                    .node(n.id.clone())
                    .at(at),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EvaluatorError;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    #[test]
    fn fires_on_bad_branch_and_select_predicates() {
        let br = node(
            "b",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {"path": "x", "op": "truthy", "value": 1}}),
        );
        let sel = node(
            "c",
            NodeKind::Select,
            json!({"evaluator": "structured", "cases": ["bug", "feature"],
            "predicate": {"bug": {"path": "x.kind", "op": "eq", "value": "bug"}}}),
        );
        let issues = run_one(&EvaluatorError, &plan(vec![br, sel], vec![]));
        assert_eq!(issues.len(), 2);
        assert_eq!(
            issues[0].pointer.as_deref(),
            Some("/definition/predicate/value")
        );
        assert!(
            issues[1]
                .message
                .contains("case `feature` has no predicate")
        );
    }

    #[test]
    fn fires_past_the_depth_cap() {
        let mut br = node("b", NodeKind::Branch, json!({"evaluator": "structured"}));
        br.definition.insert(
            "predicate".into(),
            crate::check::predicate::tests::not_chain(257),
        );
        let issues = run_one(&EvaluatorError, &plan(vec![br], vec![]));
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("flatten"));
    }

    #[test]
    fn passes_good_predicates_and_other_evaluators() {
        let br = node(
            "b",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {"any": [{"path": "x.a", "op": "exists"}]}}),
        );
        let sel = node(
            "c",
            NodeKind::Select,
            json!({"evaluator": "structured", "cases": ["bug"],
            "predicate": {"bug": {"path": "x.kind", "op": "eq", "value": "bug"}, "other": 1}}),
        );
        let lua = node(
            "d",
            NodeKind::Branch,
            json!({"evaluator": "lua", "predicate": "return true"}),
        );
        assert!(run_one(&EvaluatorError, &plan(vec![br, sel, lua], vec![])).is_empty());
    }
}
