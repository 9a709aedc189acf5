//! Complexity: O(n) registry lookups.

use crate::check::support::{TransformSource, is_canonical, transform_source};
use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::registry::Returns;
use crate::model::remedy::{Fill, Remedy};

declare_check! {
    /// ## What it finds
    /// A transform whose source call's tool is declared to return `text`,
    /// `bytes` or `media` rather than an artifact. Needs a registry.
    ///
    /// ## Why it matters
    /// Transform steps are defined per artifact class (`artifact_head`,
    /// `artifact_json_get`, …). Text, bytes and media have no class, so no
    /// step applies.
    ///
    /// ## How to fix
    /// Use a tool that returns an artifact as the source; to use text output,
    /// reference the call's declared fields directly.
    ///
    /// ## Example
    /// A transform whose source calls `tickets_get`, declared `returns: text`.
    /// Fixed: source a call of `report_fetch`
    /// (`returns: {kind: artifact, class: json_document}`).
    pub TransformSourceNotArtifact { code: "transform_source_not_artifact", severity: Blocking, needs: REGISTRY, source: Check, scope: Refs }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Transform || !is_canonical(g, i) {
                continue;
            }
            let TransformSource::Call { call, tool: Some(tool) } = transform_source(g, n) else { continue };
            let Some(returns) = reg.tool(tool).and_then(|e| e.returns.as_ref()) else { continue };
            if matches!(returns, Returns::Artifact { .. }) {
                continue;
            }
            let artifact_tools: Vec<&str> = reg
                .tools
                .iter()
                .filter(|(_, e)| matches!(e.returns, Some(Returns::Artifact { .. })))
                .map(|(k, _)| k.as_str())
                .collect();
            let options = if artifact_tools.is_empty() {
                "the registry declares no tool that returns an artifact".to_string()
            } else {
                format!(
                    "tools that return one: {}",
                    crate::model::suggest::choices(tool, artifact_tools)
                )
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "transform `{}` works on the output of call `{}`, whose tool `{tool}` returns {}, not an artifact, so no transform step applies ({options}; `{}`'s declared fields can also be read directly)",
                        n.id,
                        g.node(call).id,
                        returns.describe(),
                        g.node(call).id
                    ),
                )
                .node(n.id.clone())
                .at("/definition/source")
                .fix(Remedy::SetField {
                    node: n.id.to_string(),
                    path: "source".into(),
                    value: Fill::choose("a reference to a call whose tool returns an artifact"),
                }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TransformSourceNotArtifact;
    use crate::check::testing::*;

    use serde_json::json;

    const REG: &str = "tools: {txt: {returns: text}, report: {returns: {kind: artifact, class: doc}}}\nartifactClasses: {doc: {}}";

    #[test]
    fn fires_on_a_text_tool() {
        let p = plan(
            vec![call_with("a", "txt", json!({}), &[]), transform("t", "a")],
            vec![],
        );
        let issues = run_reg(&TransformSourceNotArtifact, &p, &registry(REG));
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("`report`"));
        assert!(matches!(
            &issues[0].fixes[0].remedy,
            crate::model::remedy::Remedy::SetField { node, path, .. } if node == "t" && path == "source"
        ));
    }

    #[test]
    fn passes_an_artifact_tool() {
        let p = plan(
            vec![
                call_with("a", "report", json!({}), &[]),
                transform("t", "a"),
            ],
            vec![],
        );
        assert!(run_reg(&TransformSourceNotArtifact, &p, &registry(REG)).is_empty());
    }
}
