//! Complexity: O(n).

use crate::model::remedy::{Fill, Remedy};
use crate::model::{Issue, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A call without `replaySafe`. (A `replaySafe` that is not a boolean is
    /// `missing_field`.)
    ///
    /// ## Why it matters
    /// When a call's outcome is unknown — a timeout, a lost reply — the
    /// executor must decide whether running it again is harmless. Only the
    /// author knows: reading a ticket twice is fine, sending a payment twice
    /// is not. There is deliberately no default.
    ///
    /// ## How to fix
    /// Set the call's `replaySafe` to `true` when calling the tool again with
    /// the same args does no harm (a read, an idempotent write), else to
    /// `false`.
    ///
    /// ## Example
    /// ```json
    /// {"id": "pay", "kind": "call", "definition": {"tool": "payments_send", "onIndeterminate": "halt", "…": "…"}}
    /// ```
    /// Fixed: add `"replaySafe": false`.
    pub MissingReplaySafe { code: "missing_replay_safe", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (_, n) in cx.nodes() {
            if n.kind != NodeKind::Call || n.get("replaySafe").is_some() {
                continue;
            }
            let set = |v: bool| Remedy::SetField {
                node: n.id.to_string(),
                path: "replaySafe".into(),
                value: Fill::Value(Value::Bool(v)),
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` does not say whether it is safe to run twice: `replaySafe` is required and has no default",
                        n.id
                    ),
                )
                .node(n.id.clone())
                .at("/definition/replaySafe")
                .fix(set(true).when("if calling the tool again with the same args does no harm, as for a read or an idempotent write"))
                .fix(set(false).when("otherwise")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingReplaySafe;
    use crate::check::testing::*;
    use crate::model::Value;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn fires_without_replay_safe() {
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.shift_remove("replaySafe");
        let issues = run_one(&MissingReplaySafe, &plan(vec![n], vec![]));
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/replaySafe"));
        assert!(!issues[0].message.contains("planforge"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "pay".into(),
                path: "replaySafe".into(),
                value: Fill::Value(Value::Bool(true)),
            }
        );
        assert_eq!(issues[0].fixes[1].when.as_deref(), Some("otherwise"));
    }

    #[test]
    fn passes_when_set_even_to_false() {
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.insert("replaySafe".into(), false.into());
        assert!(run_one(&MissingReplaySafe, &plan(vec![n], vec![])).is_empty());
    }
}
