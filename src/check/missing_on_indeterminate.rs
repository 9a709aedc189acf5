//! Complexity: O(n).

use crate::model::remedy::{Fill, Remedy};
use crate::model::{Issue, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A call without `onIndeterminate`. (A value other than `retry`, `halt`
    /// or `skip` is `missing_field`.)
    ///
    /// ## Why it matters
    /// A call can end with no known outcome: the tool may or may not have
    /// acted. The plan must say what happens then — try again, stop the run,
    /// or go on without the result — and there is deliberately no default,
    /// because the safe choice depends on the tool.
    ///
    /// ## How to fix
    /// Set the call's `onIndeterminate` to `"halt"` (stop the run), `"skip"`
    /// (go on without its result), or `"retry"` (only with `replaySafe:
    /// true`).
    ///
    /// ## Example
    /// ```json
    /// {"id": "pay", "kind": "call", "definition": {"tool": "payments_send", "replaySafe": false, "…": "…"}}
    /// ```
    /// Fixed: add `"onIndeterminate": "halt"`.
    pub MissingOnIndeterminate { code: "missing_on_indeterminate", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (_, n) in cx.nodes() {
            if n.kind != NodeKind::Call || n.get("onIndeterminate").is_some() {
                continue;
            }
            let unsafe_to_repeat = n.get("replaySafe").and_then(|v| v.as_bool()) == Some(false);
            let set = |v: &str| Remedy::SetField {
                node: n.id.to_string(),
                path: "onIndeterminate".into(),
                value: Fill::Value(Value::String(v.into())),
            };
            let issue = Issue::new(CODE,
                format!(
                    "call `{}` does not say what to do when its outcome is unknown (a timeout, a lost reply): `onIndeterminate` is required and has no default",
                    n.id
                ),
            )
            .node(n.id.clone())
            .at("/definition/onIndeterminate")
            .fix(set("halt").when("to stop the run"))
            .fix(set("skip").when("to go on without its result"));
            out.push(if unsafe_to_repeat {
                issue
            } else {
                issue.fix(set("retry").when("only if repeating it is harmless"))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingOnIndeterminate;
    use crate::check::testing::*;
    use crate::model::Value;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn fires_without_on_indeterminate() {
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.shift_remove("onIndeterminate");
        let issues = run_one(&MissingOnIndeterminate, &plan(vec![n], vec![]));
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].pointer.as_deref(),
            Some("/definition/onIndeterminate")
        );
        assert_eq!(issues[0].fixes.len(), 3);
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "pay".into(),
                path: "onIndeterminate".into(),
                value: Fill::Value(Value::String("halt".into())),
            }
        );
        // Not `retry` for a call that is unsafe to repeat.
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.shift_remove("onIndeterminate");
        n.definition.insert("replaySafe".into(), false.into());
        let issues = run_one(&MissingOnIndeterminate, &plan(vec![n], vec![]));
        assert_eq!(issues[0].fixes.len(), 2);
    }

    #[test]
    fn passes_when_set() {
        let n = call_with("pay", "t", json!({}), &[]);
        assert!(run_one(&MissingOnIndeterminate, &plan(vec![n], vec![])).is_empty());
    }
}
