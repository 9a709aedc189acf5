//! Complexity: O(n).

use crate::check::predicate::STRUCTURED;
use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::remedy::{Fill, Remedy};
use crate::model::suggest;
use crate::model::{NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A `branch` or `select` whose `evaluator` is not wired: neither the
    /// built-in `structured` evaluator nor an id the registry lists under
    /// `evaluators`.
    ///
    /// Without a registry only `structured` is known; other ids are then not
    /// reported (they cannot be confirmed or refuted offline), and
    /// `evaluator_error` does not validate their predicates either.
    ///
    /// ## Why it matters
    /// The evaluator decides which way a branch or select goes. One the
    /// executor does not have cannot decide anything, so the run stops at
    /// that node.
    ///
    /// ## How to fix
    /// Use `structured` (built in; predicates like
    /// `{"path": "fetch.status", "op": "eq", "value": "open"}`), or an
    /// evaluator the registry lists; to wire a new one, add its id to the
    /// registry's `evaluators`.
    ///
    /// ## Example
    /// ```json
    /// {"id": "is_open", "kind": "branch", "definition": {"evaluator": "jexl", "predicate": "status == 'open'"}}
    /// ```
    /// Fixed: `{"evaluator": "structured", "predicate": {"path": "fetch.status", "op": "eq", "value": "open"}}`.
    pub UnwiredEvaluator { code: "unwired_evaluator", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        let mut wired: Vec<&str> = vec![STRUCTURED];
        for e in &reg.evaluators {
            if !wired.contains(&e.as_str()) {
                wired.push(e);
            }
        }
        for (i, n) in cx.nodes() {
            if !matches!(n.kind, NodeKind::Branch | NodeKind::Select) || !is_canonical(g, i) {
                continue;
            }
            let Some(ev) = n.str_field("evaluator") else { continue };
            if reg.has_evaluator(ev) {
                continue;
            }
            let near = suggest::closest(ev, wired.iter().copied());
            let set = |e: &str| Remedy::SetField {
                node: n.id.to_string(),
                path: "evaluator".into(),
                value: Fill::Value(Value::String(e.into())),
            };
            let mut issue = Issue::new(CODE,
                format!(
                    "{} node `{}` uses the evaluator `{ev}`{}, which is not wired (the registry does not list it under `evaluators`, where its owner can add it), so nothing could decide where the run goes; {}",
                    n.kind,
                    n.id,
                    near.map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default(),
                    if wired.len() == 1 {
                        "the built-in `structured` evaluator takes predicates like {\"path\": \"node.field\", \"op\": \"eq\", \"value\": …}".to_string()
                    } else {
                        format!("the wired evaluators are {} (`structured` is built in)", suggest::choices(ev, wired.iter().copied()))
                    }
                ),
            )
            .node(n.id.clone())
            .at("/definition/evaluator");
            if let Some(near) = near.filter(|c| *c != STRUCTURED) {
                issue = issue.fix(set(near).when(format!("if `{near}` is the evaluator meant")));
            }
            out.push(issue.fix(
                set(STRUCTURED).when("then write its predicate in the structured form"),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnwiredEvaluator;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    fn br(ev: &str) -> crate::model::Node {
        node(
            "b",
            NodeKind::Branch,
            json!({"evaluator": ev, "predicate": "x"}),
        )
    }

    #[test]
    fn fires_on_an_unlisted_evaluator() {
        let issues = run_reg(
            &UnwiredEvaluator,
            &plan(vec![br("jexl")], vec![]),
            &registry("evaluators: [structured, lua]"),
        );
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("`structured`") && issues[0].message.contains("`lua`"));
        assert_eq!(
            issues[0].fixes.last().unwrap().remedy,
            Remedy::SetField {
                node: "b".into(),
                path: "evaluator".into(),
                value: Fill::Value(crate::model::Value::String("structured".into())),
            }
        );
    }

    #[test]
    fn passes_structured_and_listed_ones_and_skips_without_a_registry() {
        let reg = registry("evaluators: [lua]");
        assert!(
            run_reg(
                &UnwiredEvaluator,
                &plan(vec![br("structured")], vec![]),
                &reg
            )
            .is_empty()
        );
        assert!(run_reg(&UnwiredEvaluator, &plan(vec![br("lua")], vec![]), &reg).is_empty());
        assert!(run_one(&UnwiredEvaluator, &plan(vec![br("jexl")], vec![])).is_empty());
    }
}
