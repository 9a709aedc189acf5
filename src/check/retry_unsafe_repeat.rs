//! Complexity: O(n).

use crate::model::remedy::{Fill, Remedy};
use crate::model::{Issue, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A call with `onIndeterminate: "retry"` and `replaySafe: false`.
    ///
    /// ## Why it matters
    /// The two fields contradict each other: the call is declared unsafe to
    /// run twice, and also told to run again when its outcome is unknown — a
    /// duplicate payment or message waiting to happen.
    ///
    /// ## How to fix
    /// If repeating is in fact harmless, set `replaySafe: true`; otherwise
    /// choose `onIndeterminate: "halt"` or `"skip"`.
    ///
    /// ## Example
    /// ```json
    /// {"tool": "payments_send", "replaySafe": false, "onIndeterminate": "retry"}
    /// ```
    /// Fixed: `"onIndeterminate": "halt"`.
    pub RetryUnsafeRepeat { code: "retry_unsafe_repeat", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (_, n) in cx.nodes() {
            if n.kind != NodeKind::Call
                || n.str_field("onIndeterminate") != Some("retry")
                || n.get("replaySafe").and_then(|v| v.as_bool()) != Some(false)
            {
                continue;
            }
            let set = |path: &str, value: Value| Remedy::SetField {
                node: n.id.to_string(),
                path: path.into(),
                value: Fill::Value(value),
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` is marked unsafe to repeat (`replaySafe: false`) but set to retry when its outcome is unknown (`onIndeterminate: retry`), which could run it twice",
                        n.id
                    ),
                )
                .node(n.id.clone())
                .at("/definition/onIndeterminate")
                .fix(set("onIndeterminate", Value::String("halt".into())).when("to stop the run"))
                .fix(set("onIndeterminate", Value::String("skip".into())).when("to go on without its result"))
                .fix(set("replaySafe", Value::Bool(true)).when("if repeating it is in fact harmless")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RetryUnsafeRepeat;
    use crate::check::testing::*;
    use crate::model::Value;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    fn with(replay: bool, on: &str) -> crate::model::Content {
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.insert("replaySafe".into(), replay.into());
        n.definition.insert("onIndeterminate".into(), on.into());
        plan(vec![n], vec![])
    }

    #[test]
    fn fires_on_retry_of_an_unsafe_call() {
        let issues = run_one(&RetryUnsafeRepeat, &with(false, "retry"));
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].fixes[2].remedy,
            Remedy::SetField {
                node: "pay".into(),
                path: "replaySafe".into(),
                value: Fill::Value(Value::Bool(true)),
            }
        );
    }

    #[test]
    fn passes_retry_when_safe_and_halt_when_unsafe() {
        assert!(run_one(&RetryUnsafeRepeat, &with(true, "retry")).is_empty());
        assert!(run_one(&RetryUnsafeRepeat, &with(false, "halt")).is_empty());
    }
}
