//! Complexity: O(n) registry lookups.

use crate::check::support::{TransformSource, is_canonical, transform_source};
use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::remedy::{Fill, Remedy};

declare_check! {
    /// ## What it finds
    /// A transform whose source call uses a tool for which the registry does
    /// not declare what it returns — or a tool not in the registry at all.
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// Which steps a transform may run depends on the artifact class the tool
    /// returns. Without a declared return nothing can be checked, and the
    /// checks never guess a class.
    ///
    /// ## How to fix
    /// Declare the tool's return in the registry
    /// (`returns: {kind: artifact, class: <class>}`), or take the source from
    /// a call whose tool declares one.
    ///
    /// ## Example
    /// ```yaml
    /// tools:
    ///   report_fetch: {summary: "Fetch a report"}
    /// ```
    /// Fixed: `report_fetch: {returns: {kind: artifact, class: json_document}}`.
    pub TransformUndeclaredTool { code: "transform_undeclared_tool", severity: Blocking, needs: REGISTRY, source: Check, scope: Refs }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Transform || !is_canonical(g, i) {
                continue;
            }
            let TransformSource::Call { call, tool: Some(tool) } = transform_source(g, n) else { continue };
            let why = match reg.tool(tool) {
                None => format!("its tool `{tool}` is not in the registry (see unknown_tool), so what it returns is unknown"),
                Some(e) if e.returns.is_none() => {
                    format!("the registry does not declare what its tool `{tool}` returns")
                }
                Some(_) => continue,
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "transform `{}` works on the output of call `{}`, but {why} (the registry's owner can declare it as `returns: {{kind: artifact, class: <class>}}`)",
                        n.id,
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
    use super::TransformUndeclaredTool;
    use crate::check::testing::*;

    use serde_json::json;

    const REG: &str = "tools: {quiet: {summary: x}, report: {returns: {kind: artifact, class: doc}}}\nartifactClasses: {doc: {}}";

    #[test]
    fn fires_on_unknown_and_undeclared_returns() {
        let p = plan(
            vec![
                call_with("a", "quiet", json!({}), &[]),
                call_with("b", "nope", json!({}), &[]),
                transform("ta", "a"),
                transform("tb", "b"),
            ],
            vec![],
        );
        let issues = run_reg(&TransformUndeclaredTool, &p, &registry(REG));
        assert_eq!(issues.len(), 2);
        assert!(issues[1].message.contains("not in the registry"));
    }

    #[test]
    fn passes_a_declared_return() {
        let p = plan(
            vec![
                call_with("a", "report", json!({}), &[]),
                transform("t", "a"),
            ],
            vec![],
        );
        assert!(run_reg(&TransformUndeclaredTool, &p, &registry(REG)).is_empty());
    }
}
