//! Complexity: O(size of the definitions).

use crate::model::Issue;
use crate::model::shape::ProblemKind;

declare_check! {
    /// ## What it finds
    /// A key in a node's definition (at any depth) that its kind does not
    /// have — `outputs` for `output`, `retry` on a call, `text` beside a
    /// reference in a prompt. The message names the allowed keys.
    ///
    /// ## Why it matters
    /// An unknown key is ignored by everything that runs the plan, so what
    /// the author meant by it silently does not happen; it is most often a
    /// misspelling of a real field, which is then also missing.
    ///
    /// ## How to fix
    /// Rename it to the field you meant (the message suggests one), or remove
    /// it (`planforge edit <node>`).
    ///
    /// ## Example
    /// ```json
    /// {"id": "fetch", "kind": "call", "definition": {"tool": "tickets_get", "outputs": [], "…": "…"}}
    /// ```
    /// Fixed: `"output": []`.
    pub UnknownField { code: "unknown_field", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for (i, n) in cx.content.nodes.iter().enumerate() {
            for p in cx.shape_problems(i) {
                if !matches!(p.kind, ProblemKind::Unknown { .. }) {
                    continue;
                }
                out.push(
                    Issue::new(CODE, p.describe(&n.id, n.kind))
                        .node(n.id.clone())
                        .at(format!("/definition{}", p.pointer)),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnknownField;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    #[test]
    fn fires_on_keys_the_kind_lacks() {
        let mut c = call_with("c", "t", json!({}), &[]);
        c.definition
            .insert("outputs".into(), crate::model::Value::Array(vec![]));
        let j = node(
            "j",
            NodeKind::Join,
            json!({"kind": "diamond", "wait": true}),
        );
        let issues = run_one(&UnknownField, &plan(vec![c, j], vec![]));
        assert_eq!(issues.len(), 2);
        assert!(
            issues[0].message.contains("did you mean `output`"),
            "{}",
            issues[0].message
        );
        assert_eq!(issues[1].pointer.as_deref(), Some("/definition/wait"));
    }

    #[test]
    fn passes_known_keys() {
        let j = node("j", NodeKind::Join, json!({"kind": "diamond"}));
        assert!(
            run_one(
                &UnknownField,
                &plan(
                    vec![j, call_with("c", "t", json!({"anything": 1}), &[])],
                    vec![]
                )
            )
            .is_empty()
        );
    }
}
