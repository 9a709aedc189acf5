//! Complexity: O(n) lookups, plus one nearest-first ordering of the registry's
//! tool names per distinct unknown tool (memoised).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::hash::FastMap as HashMap;
use crate::model::remedy::{Fill, Remedy};
use crate::model::suggest;
use crate::model::{NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A call whose `tool` is not in the registry — the one allowlist of
    /// tools a plan may invoke. Needs a registry (one given with the plan, or
    /// the store's `registry.yaml`).
    ///
    /// ## Why it matters
    /// Approval covers what a plan will do. A tool outside the allowlist has
    /// no declared return, required arguments or side effects, so nothing
    /// about the call can be checked, and an executor must refuse it. It is
    /// also how a typo (`ticket_get`) or an invented tool shows up.
    ///
    /// ## How to fix
    /// Use one of the registry's tools (the message lists them, nearest
    /// first). If the tool should be callable, add it to `registry.yaml` with
    /// what it returns and the args it requires — adding it to an agent does
    /// not add it here.
    ///
    /// ## Example
    /// ```json
    /// {"id": "wipe", "kind": "call", "definition": {"tool": "rm_rf", "…": "…"}}
    /// ```
    /// Fixed: a tool from the registry, e.g. `"tool": "report_failure"`.
    pub UnknownTool { code: "unknown_tool", severity: Blocking, needs: REGISTRY, source: Check, scope: Node }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        let mut memo: HashMap<&str, (String, Option<&str>)> = HashMap::default();
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Call || !is_canonical(g, i) {
                continue;
            }
            let Some(tool) = n.tool() else { continue };
            if reg.tool(tool).is_some() {
                continue;
            }
            let (advice, near) = memo
                .entry(tool)
                .or_insert_with(|| {
                    if reg.tools.is_empty() {
                        ("the registry lists no tools at all".to_string(), None)
                    } else {
                        let near = suggest::closest(tool, reg.tool_names());
                        (
                            format!(
                                "{}, which is not in the registry (the allowlist of tools a plan may call); the available tools are {}",
                                near.map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default(),
                                suggest::choices(tool, reg.tool_names())
                            ),
                            near,
                        )
                    }
                })
                .clone();
            let message = if reg.tools.is_empty() {
                format!("call `{}` invokes the tool `{tool}`, but {advice}", n.id)
            } else {
                format!("call `{}` invokes the tool `{tool}`{advice}", n.id)
            };
            let value = match near {
                Some(c) => Fill::Value(Value::String(c.into())),
                None => Fill::choose("a tool from the registry"),
            };
            let mut issue = Issue::new(CODE, message)
                .node(n.id.clone())
                .at("/definition/tool");
            if !reg.tools.is_empty() {
                issue = issue.fix(Remedy::SetField { node: n.id.to_string(), path: "tool".into(), value });
            }
            out.push(issue.fix(
                Remedy::AddToRegistry { tool: tool.to_string() }
                    .when(format!("if `{tool}` should be callable")),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnknownTool;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn a_tool_of_any_length_is_named_in_part_in_prose_and_whole_in_the_fix() {
        let reg = registry("tools: {report_failure: {returns: text}}");
        let tool = "t".repeat(30_000);
        let p = plan(vec![call_with("c1", &tool, json!({}), &[])], vec![]);
        let issues = run_reg(&UnknownTool, &p, &reg);
        assert_eq!(issues.len(), 1);
        let i = &issues[0];
        assert!(i.message.len() < 600, "{} bytes", i.message.len());
        assert!(i.message.contains("tttt…`"), "{}", i.message);
        let add = i.fixes.last().unwrap();
        assert_eq!(add.remedy, Remedy::AddToRegistry { tool: tool.clone() });
        assert!(add.when.as_ref().unwrap().len() < 200);
    }

    #[test]
    fn fires_on_a_tool_outside_the_allowlist() {
        let reg =
            registry("tools: {tickets_get: {returns: text}, report_failure: {returns: text}}");
        let p = plan(
            vec![
                call_with("wipe", "rm_rf", json!({}), &[]),
                call_with("fetch", "ticket_get", json!({}), &[]),
            ],
            vec![],
        );
        let issues = run_reg(&UnknownTool, &p, &reg);
        assert_eq!(issues.len(), 2);
        assert!(
            issues[0].message.contains("`tickets_get`")
                && issues[0].message.contains("`report_failure`")
        );
        assert!(
            issues[1].message.contains("(did you mean `tickets_get`?)"),
            "{}",
            issues[1].message
        );
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/tool"));
        assert_eq!(
            issues[1].fixes[0].remedy,
            Remedy::SetField {
                node: "fetch".into(),
                path: "tool".into(),
                value: Fill::Value(crate::model::Value::String("tickets_get".into())),
            }
        );
        assert_eq!(
            issues[0].fixes[1].remedy,
            Remedy::AddToRegistry {
                tool: "rm_rf".into()
            }
        );
    }

    #[test]
    fn passes_registered_tools() {
        let reg = registry("tools: {tickets_get: {returns: text}}");
        let p = plan(
            vec![call_with("fetch", "tickets_get", json!({}), &[])],
            vec![],
        );
        assert!(run_reg(&UnknownTool, &p, &reg).is_empty());
    }
}
