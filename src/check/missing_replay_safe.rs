//! Complexity: O(n).

use crate::model::Issue;
use crate::model::NodeKind;

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
    /// `planforge set <call> replaySafe true` when calling the tool again
    /// with the same args does no harm (a read, an idempotent write), else
    /// `false`.
    ///
    /// ## Example
    /// ```json
    /// {"id": "pay", "kind": "call", "definition": {"tool": "payments_send", "onIndeterminate": "halt", "…": "…"}}
    /// ```
    /// Fixed: add `"replaySafe": false`.
    pub MissingReplaySafe { code: "missing_replay_safe", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for n in &cx.content.nodes {
            if n.kind != NodeKind::Call || n.get("replaySafe").is_some() {
                continue;
            }
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` does not say whether it is safe to run twice: `replaySafe` is required and has no default. Set it with `planforge set {} replaySafe true` if repeating the tool call with the same args does no harm (a read, an idempotent write), else `false`",
                        n.id, n.id
                    ),
                )
                .node(n.id.clone())
                .at("/definition/replaySafe"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingReplaySafe;
    use crate::check::testing::*;
    use serde_json::json;

    #[test]
    fn fires_without_replay_safe() {
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.shift_remove("replaySafe");
        let issues = run_one(&MissingReplaySafe, &plan(vec![n], vec![]));
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/replaySafe"));
    }

    #[test]
    fn passes_when_set_even_to_false() {
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.insert("replaySafe".into(), false.into());
        assert!(run_one(&MissingReplaySafe, &plan(vec![n], vec![])).is_empty());
    }
}
