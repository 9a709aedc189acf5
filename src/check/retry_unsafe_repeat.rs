//! Complexity: O(n).

use crate::model::Issue;
use crate::model::NodeKind;

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
    pub RetryUnsafeRepeat { code: "retry_unsafe_repeat", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for n in &cx.content.nodes {
            if n.kind != NodeKind::Call
                || n.str_field("onIndeterminate") != Some("retry")
                || n.get("replaySafe").and_then(|v| v.as_bool()) != Some(false)
            {
                continue;
            }
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` is marked unsafe to repeat (`replaySafe: false`) but set to retry when its outcome is unknown (`onIndeterminate: retry`), which could run it twice; set `onIndeterminate` to `halt` or `skip` (`planforge set {} onIndeterminate halt`), or, if repeating it is in fact harmless, set `replaySafe` to true",
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
    use super::RetryUnsafeRepeat;
    use crate::check::testing::*;
    use serde_json::json;

    fn with(replay: bool, on: &str) -> crate::model::Content {
        let mut n = call_with("pay", "t", json!({}), &[]);
        n.definition.insert("replaySafe".into(), replay.into());
        n.definition.insert("onIndeterminate".into(), on.into());
        plan(vec![n], vec![])
    }

    #[test]
    fn fires_on_retry_of_an_unsafe_call() {
        assert_eq!(run_one(&RetryUnsafeRepeat, &with(false, "retry")).len(), 1);
    }

    #[test]
    fn passes_retry_when_safe_and_halt_when_unsafe() {
        assert!(run_one(&RetryUnsafeRepeat, &with(true, "retry")).is_empty());
        assert!(run_one(&RetryUnsafeRepeat, &with(false, "halt")).is_empty());
    }
}
