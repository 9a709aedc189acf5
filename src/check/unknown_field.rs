//! Complexity: O(size of the definitions).

use crate::model::Issue;
use crate::model::remedy::Remedy;
use crate::model::shape::ProblemKind;
use crate::model::suggest;

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
    /// it: replace the node's definition with one without the key.
    ///
    /// ## Example
    /// ```json
    /// {"id": "fetch", "kind": "call", "definition": {"tool": "tickets_get", "outputs": [], "…": "…"}}
    /// ```
    /// Fixed: `"output": []`.
    pub UnknownField { code: "unknown_field", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (i, n) in cx.nodes() {
            for p in cx.shape_problems(i) {
                let ProblemKind::Unknown { key, allowed } = &p.kind else {
                    continue;
                };
                let at = format!("definition{}", p.pointer);
                let parent = at.rsplit_once('/').map(|(p, _)| p).unwrap_or("definition");
                let closest = suggest::closest(key, allowed.iter().copied());
                let hint = closest.map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
                let without = match closest {
                    Some(c) => format!("without the key `{key}` (under `{c}`, if that is the field meant)"),
                    None => format!("without the key `{key}`"),
                };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "{} node `{}` has the key `{key}` at {parent}, which {} definition does not have{hint}; the allowed keys there are {}",
                            n.kind,
                            n.id,
                            n.kind.a(),
                            allowed.join(", ")
                        ),
                    )
                    .node(n.id.clone())
                    .at(format!("/definition{}", p.pointer))
                    .fix(Remedy::SetDefinition { node: n.id.to_string() }.when(without)),
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
    use crate::model::remedy::Remedy;
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
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetDefinition { node: "c".into() }
        );
        assert_eq!(
            issues[0].fixes[0].when.as_deref(),
            Some("without the key `outputs` (under `output`, if that is the field meant)")
        );
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
