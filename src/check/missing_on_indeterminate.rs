//! Complexity: O(n).

use crate::model::Issue;
use crate::model::NodeKind;

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
    /// `planforge set <call> onIndeterminate halt` (stop the run), `skip` (go
    /// on without its result), or `retry` (only with `replaySafe: true`).
    ///
    /// ## Example
    /// ```json
    /// {"id": "pay", "kind": "call", "definition": {"tool": "payments_send", "replaySafe": false, "…": "…"}}
    /// ```
    /// Fixed: add `"onIndeterminate": "halt"`.
    pub MissingOnIndeterminate { code: "missing_on_indeterminate", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for n in &cx.content.nodes {
            if n.kind != NodeKind::Call || n.get("onIndeterminate").is_some() {
                continue;
            }
            let retry = if n.get("replaySafe").and_then(|v| v.as_bool()) == Some(false) {
                "(not `retry`: the call is marked unsafe to repeat)"
            } else {
                "or `retry` (only if repeating it is harmless)"
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` does not say what to do when its outcome is unknown (a timeout, a lost reply): `onIndeterminate` is required and has no default. Set it with `planforge set {} onIndeterminate halt` to stop the run, `skip` to go on without its result, {retry}",
                        n.id, n.id
                    ),
                )
                .node(n.id.clone())
                .at("/definition/onIndeterminate"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingOnIndeterminate;
    use crate::check::testing::*;
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
    }

    #[test]
    fn passes_when_set() {
        let n = call_with("pay", "t", json!({}), &[]);
        assert!(run_one(&MissingOnIndeterminate, &plan(vec![n], vec![])).is_empty());
    }
}
