//! Complexity: O(size of the definitions).

use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::remedy::{Fill, Remedy};
use crate::model::shape::ProblemKind;
use crate::model::value::dot_path;

declare_check! {
    /// ## What it finds
    /// A required field missing from a node's definition, or a field of the
    /// wrong type or value — at any depth (a declared field without `type`,
    /// an authority claim with an unknown verb, a transform `source` that is
    /// not a reference). The message names the field and the shape it must
    /// have. A call's missing `replaySafe` or `onIndeterminate` is reported
    /// by `missing_replay_safe` / `missing_on_indeterminate` instead.
    ///
    /// ## Why it matters
    /// Authoring is incremental: a node may be added half-written and
    /// completed later. This is the list of what is still to be filled in;
    /// an incomplete step cannot run.
    ///
    /// ## How to fix
    /// Set the field to a value of the shape the message names (for example
    /// `onMissingValue` to `"fail"`), or replace the node's whole definition.
    ///
    /// ## Example
    /// ```json
    /// {"id": "think", "kind": "reason", "definition": {"prompt": [{"text": "Summarise"}], "outputSchema": {"type": "object"}}}
    /// ```
    /// Fixed: add `"maxAttempts": 2`.
    pub MissingField { code: "missing_field", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (i, n) in cx.nodes() {
            for p in cx.shape_problems(i) {
                match &p.kind {
                    ProblemKind::Missing { .. }
                        if n.kind == NodeKind::Call
                            && matches!(p.pointer.as_str(), "/replaySafe" | "/onIndeterminate") =>
                    {
                        continue;
                    }
                    ProblemKind::Missing { .. } | ProblemKind::Wrong { .. } => {}
                    ProblemKind::Unknown { .. } => continue,
                }
                let at = format!("definition{}", p.pointer);
                let (message, expected) = match &p.kind {
                    ProblemKind::Missing { field, expected } => (
                        format!("{} node `{}` is missing the required field `{field}` at {at}, which takes {expected}", n.kind, n.id),
                        expected,
                    ),
                    ProblemKind::Wrong { expected, found } => (
                        format!("{} node `{}` has {found} at {at} where {expected} is expected", n.kind, n.id),
                        expected,
                    ),
                    ProblemKind::Unknown { .. } => continue,
                };
                let pointer = format!("/definition{}", p.pointer);
                let fix = if p.pointer.is_empty() {
                    Remedy::SetDefinition { node: n.id.to_string() }
                } else {
                    Remedy::SetField {
                        node: n.id.to_string(),
                        path: dot_path(&pointer),
                        value: Fill::choose(expected.clone()),
                    }
                };
                out.push(
                    Issue::new(CODE, message)
                        .node(n.id.clone())
                        .at(pointer)
                        .fix(fix),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingField;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn fires_on_missing_and_mistyped_fields() {
        let think = node(
            "think",
            NodeKind::Reason,
            json!({"prompt": [{"text": "x"}], "outputSchema": {}}),
        );
        let c = node(
            "c",
            NodeKind::Call,
            json!({"tool": 3, "args": {}, "output": [{"path": "x"}],
            "onMissingValue": "fail", "authority": []}),
        );
        let issues = run_one(&MissingField, &plan(vec![think, c], vec![]));
        let at: Vec<_> = issues
            .iter()
            .map(|i| i.pointer.as_deref().unwrap())
            .collect();
        assert_eq!(
            at,
            vec![
                "/definition/maxAttempts",
                "/definition/tool",
                "/definition/output/0/type"
            ]
        );
        assert!(
            issues[0].message.contains("`maxAttempts`") && issues[0].message.contains("integer")
        );
        assert_eq!(
            issues[2].fixes[0].remedy,
            Remedy::SetField {
                node: "c".into(),
                path: "output.0.type".into(),
                value: Fill::choose("one of string, number, boolean, enum"),
            }
        );
    }

    #[test]
    fn passes_complete_definitions_and_leaves_safety_fields_to_their_codes() {
        let mut c = call_with("c", "t", json!({}), &["x"]);
        c.definition.shift_remove("replaySafe");
        c.definition.shift_remove("onIndeterminate");
        assert!(run_one(&MissingField, &plan(vec![c, entry("s"), join("j")], vec![])).is_empty());
    }
}
