//! Complexity: O(n + Σ length of the tools lists).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::remedy::{Fill, Remedy};
use crate::model::{NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A call of a spawning tool (`spawnsAgent: true` in the registry) that
    /// could let the subagent spawn further agents, or where that cannot be
    /// proven:
    /// - its tools argument (the registry entry's `toolsArg`) lists a tool
    ///   that itself spawns agents (names compared trimmed and case-folded,
    ///   as `orchestrate` removes them: a runtime may trim or fold tool
    ///   names, so ` Spawn_Subagent ` is `spawn_subagent`);
    /// - the argument is missing, or not a literal list of tool names (a
    ///   reference, say), so what the subagent may use is unknown;
    /// - the registry entry names no `toolsArg` at all.
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// Orchestration depth stays 1: only the plan spawns agents. A subagent
    /// that can spawn its own escapes the plan's bounds, its review and its
    /// reconciliation — nobody verifies what the grandchildren write.
    /// In seed 003 this check carries step 4 (orchestration depth = 1),
    /// with `incomplete_spawn_spec` for the explicit no-spawn prohibition.
    ///
    /// ## How to fix
    /// Pass the subagent a literal list of tools without spawning tools, e.g.
    /// `"tools": ["read_artifact"]`; if the registry entry lacks `toolsArg`,
    /// add it there.
    ///
    /// ## Example
    /// ```json
    /// {"tool": "spawn_subagent", "args": {"tools": ["read_artifact", "spawn_subagent"], "…": "…"}}
    /// ```
    /// Fixed: `"tools": ["read_artifact"]`.
    pub NestedSpawn { code: "nested_spawn", severity: Blocking, needs: REGISTRY, source: Check, scope: Node }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Call || !is_canonical(g, i) {
                continue;
            }
            let Some(tool) = n.tool() else { continue };
            let Some(entry) = reg.tool(tool) else { continue };
            if !entry.spawns_agent {
                continue;
            }
            let issue = |message: String, at: String| {
                Issue::new(CODE, message).node(n.id.clone()).at(at)
            };
            let Some(arg) = entry.tools_arg.as_deref() else {
                out.push(issue(
                    format!(
                        "call `{}` spawns an agent with `{tool}`, but the registry entry of `{tool}` does not name its `toolsArg`, so which tools the subagent gets (and whether it could spawn agents itself) cannot be checked; the registry's owner can add `toolsArg: <arg name>` to `{tool}`",
                        n.id
                    ),
                    "/definition/tool".into(),
                ));
                continue;
            };
            let at = format!("/definition/args/{arg}");
            let list = n.get("args").and_then(Value::as_object).and_then(|a| a.get(arg));
            let names: Option<Vec<&str>> = list
                .and_then(Value::as_array)
                .and_then(|a| a.iter().map(Value::as_str).collect());
            let set = |value| Remedy::SetField {
                node: n.id.to_string(),
                path: format!("args.{arg}"),
                value,
            };
            let Some(names) = names else {
                let what = match list {
                    None => "does not pass it".to_string(),
                    Some(v) => format!("passes {} there instead of a literal list of tool names", v.type_name()),
                };
                out.push(
                    issue(
                        format!(
                            "call `{}` spawns an agent with `{tool}`, whose `{arg}` argument lists the tools the subagent may use, but it {what}, so it cannot be shown that the subagent will not spawn agents itself",
                            n.id
                        ),
                        at,
                    )
                    .fix(set(Fill::choose("a literal list of tool names, none of which spawns agents"))),
                );
                continue;
            };
            let (spawning, kept): (Vec<&str>, Vec<&str>) = names
                .into_iter()
                .partition(|t| spawns_agent(reg, t));
            if spawning.is_empty() {
                continue;
            }
            let kept = kept.into_iter().map(Value::from).collect();
            out.push(
                issue(
                    format!(
                        "call `{}` spawns an agent with `{tool}` and gives it {}, which {} agents itself; orchestration depth stays 1 (only the plan spawns agents)",
                        n.id,
                        crate::model::suggest::capped_list(&spawning, 20),
                        if spawning.len() == 1 { "spawns" } else { "spawn" }
                    ),
                    at,
                )
                .fix(set(Fill::Value(Value::Array(kept)))),
            );
        }
    }
}

/// Whether `name` names a spawning tool, compared as `orchestrate` removes
/// them: trimmed and case-folded, since a runtime may trim or fold tool
/// names (` Spawn_Subagent ` is `spawn_subagent`).
fn spawns_agent(reg: &crate::model::registry::Registry, name: &str) -> bool {
    if reg.tool(name).is_some_and(|e| e.spawns_agent) {
        return true;
    }
    let folded = name.trim().to_lowercase();
    reg.tool_names()
        .filter(|t| t.trim().to_lowercase() == folded)
        .any(|t| reg.tool(t).is_some_and(|e| e.spawns_agent))
}

#[cfg(test)]
mod tests {
    use super::NestedSpawn;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true, toolsArg: tools}, loose: {returns: text, spawnsAgent: true}, read: {returns: text}}";

    #[test]
    fn fires_on_spawning_tools_non_literal_lists_and_missing_tools_arg() {
        let p = plan(
            vec![
                call_with("a", "spawn", json!({"tools": ["read", "spawn"]}), &[]),
                call_with("b", "spawn", json!({"tools": r("s", Some("tools"))}), &[]),
                call_with("c", "spawn", json!({}), &[]),
                call_with("d", "loose", json!({}), &[]),
            ],
            vec![],
        );
        let issues = run_reg(&NestedSpawn, &p, &registry(REG));
        assert_eq!(issues.len(), 4);
        assert!(issues[0].message.contains("`spawn`"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "a".into(),
                path: "args.tools".into(),
                value: Fill::Value(crate::model::Value::Array(vec!["read".into()])),
            }
        );
        assert!(issues[1].message.contains("a $ref"));
        assert!(issues[2].message.contains("does not pass it"));
        assert!(issues[3].message.contains("toolsArg"));
    }

    #[test]
    fn fires_on_a_spawning_tool_in_another_case_or_with_spaces() {
        for name in ["Spawn", " spawn ", "spawn\t", "SPAWN"] {
            let p = plan(
                vec![call_with(
                    "a",
                    "spawn",
                    json!({"tools": ["read", name]}),
                    &[],
                )],
                vec![],
            );
            let issues = run_reg(&NestedSpawn, &p, &registry(REG));
            assert_eq!(issues.len(), 1, "{name:?}: {issues:#?}");
        }
        // Near miss: another name (a hyphen is not an underscore).
        let p = plan(
            vec![call_with(
                "a",
                "spawn",
                json!({"tools": ["read", "spawn-x"]}),
                &[],
            )],
            vec![],
        );
        assert!(run_reg(&NestedSpawn, &p, &registry(REG)).is_empty());
    }

    #[test]
    fn passes_a_literal_list_without_spawners() {
        let p = plan(
            vec![call_with("a", "spawn", json!({"tools": ["read"]}), &[])],
            vec![],
        );
        assert!(run_reg(&NestedSpawn, &p, &registry(REG)).is_empty());
    }
}
