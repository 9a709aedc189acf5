//! Complexity: O(n) registry lookups.

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::registry::Returns;
use crate::model::remedy::{Fill, Remedy};
use crate::model::{NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A call whose tool returns `bytes` or `media` (per the registry) and
    /// that declares `output` fields. Needs a registry.
    ///
    /// ## Why it matters
    /// Bytes and media have no fields: there is no `path` to read inside an
    /// image or a PDF. Declared fields would promise references something
    /// the tool can never produce, and every read of them would fail.
    ///
    /// ## How to fix
    /// Set the call's `output` to `[]`; to read something inside the
    /// content, use a tool that returns text or an artifact (and a transform
    /// for artifacts).
    ///
    /// ## Example
    /// ```json
    /// {"tool": "render_chart", "output": [{"path": "title", "type": "string"}]}
    /// ```
    /// where `render_chart` returns `media`. Fixed: `"output": []`.
    pub MediaFeedsFields { code: "media_feeds_fields", severity: Blocking, needs: REGISTRY, source: Check, scope: Node }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Call || !is_canonical(g, i) {
                continue;
            }
            let Some(tool) = n.tool() else { continue };
            let Some(entry) = reg.tool(tool) else { continue };
            let Some(returns @ (Returns::Bytes | Returns::Media)) = &entry.returns else { continue };
            let declared = match n.get("output") {
                Some(Value::Array(a)) if !a.is_empty() => n.declared_paths(),
                _ => continue,
            };
            let names = if declared.is_empty() {
                "output fields".to_string()
            } else {
                format!("the output fields {}", crate::model::suggest::capped_list(&declared, 20))
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` declares {names}, but its tool `{tool}` returns {}, which has no fields to read (the content can only be passed on whole; a tool that returns text or an artifact has something to read inside)",
                        n.id,
                        returns.describe()
                    ),
                )
                .node(n.id.clone())
                .at("/definition/output")
                .fix(Remedy::SetField {
                    node: n.id.to_string(),
                    path: "output".into(),
                    value: Fill::Value(Value::Array(Vec::new())),
                }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MediaFeedsFields;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    const REG: &str =
        "tools: {chart: {returns: media}, blob: {returns: bytes}, text: {returns: text}}";

    #[test]
    fn fires_on_fields_of_media_and_bytes() {
        let p = plan(
            vec![
                call_with("a", "chart", json!({}), &["title"]),
                call_with("b", "blob", json!({}), &["x"]),
            ],
            vec![],
        );
        let issues = run_reg(&MediaFeedsFields, &p, &registry(REG));
        assert_eq!(issues.len(), 2);
        assert!(issues[0].message.contains("`title`") && issues[0].message.contains("media"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "a".into(),
                path: "output".into(),
                value: Fill::Value(crate::model::Value::Array(vec![])),
            }
        );
    }

    #[test]
    fn passes_media_without_fields_and_text_with_fields() {
        let p = plan(
            vec![
                call_with("a", "chart", json!({}), &[]),
                call_with("b", "text", json!({}), &["x"]),
            ],
            vec![],
        );
        assert!(run_reg(&MediaFeedsFields, &p, &registry(REG)).is_empty());
    }
}
