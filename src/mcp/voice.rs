//! Fixes worded for a model: each remedy as the tool call that carries it
//! out, with its arguments in wire form (`set_node_field {"planId": …}`).
//! Nothing here names a CLI command, flag or shorthand.

use crate::model::remedy::{Fill, Pick, Remedy, Voice};
use serde_json::{Map, Value as J, json};

/// Words remedies as tool calls on `plan` (when the answer is about one).
#[derive(Debug, Clone, Default)]
pub(crate) struct ToolVoice {
    pub(crate) plan: Option<String>,
}

impl ToolVoice {
    pub(crate) fn about(plan: &str) -> ToolVoice {
        ToolVoice {
            plan: Some(plan.to_string()),
        }
    }

    /// An edge disconnected, then connected again from `from` to `to`.
    fn reconnect(&self, edge: &str, from: &str, to: J, handle: &str) -> String {
        format!(
            "{}, then {}",
            self.call("disconnect_edge", json!({ "edgeId": edge })),
            self.call(
                "connect_nodes",
                json!({"edge": {"from": from, "to": to, "handle": handle}})
            )
        )
    }

    /// `tool {"planId": …, args…}` with the plan first.
    fn call(&self, tool: &str, args: J) -> String {
        let mut m = Map::new();
        if let Some(p) = &self.plan {
            m.insert("planId".into(), p.clone().into());
        }
        if let J::Object(a) = args {
            m.extend(a);
        }
        format!("{tool} {}", compact(&J::Object(m)))
    }
}

/// What the model fills in itself, as a marked placeholder string.
fn choose(what: &str) -> J {
    J::String(format!("<{what}>"))
}

fn pick(p: &Pick) -> J {
    match p {
        Pick::Id(id) => id.clone().into(),
        Pick::Any(what) => choose(what),
    }
}

fn fill(f: &Fill) -> J {
    match f {
        Fill::Value(v) => crate::wire::convert::to_json(v),
        Fill::Choose(what) => choose(what),
    }
}

/// Compact JSON text.
fn compact(v: &J) -> String {
    serde_json::to_string(v).expect("JSON values always serialise")
}

impl Voice for ToolVoice {
    fn say(&self, r: &Remedy) -> String {
        match r {
            Remedy::SetField { node, path, value } => self.call(
                "set_node_field",
                json!({"nodeId": node, "path": path, "value": fill(value)}),
            ),
            Remedy::AddField { node, path, value } => self.call(
                "set_node_field",
                json!({"nodeId": node, "path": path, "value": fill(value), "add": true}),
            ),
            Remedy::SetPhase { node, phase } => self.call(
                "set_node_phase",
                json!({"nodeId": node, "phase": phase.as_ref().map_or(J::Null, fill)}),
            ),
            Remedy::SetDefinition { node } => self.call(
                "set_node_config",
                json!({"nodeId": node, "definition": {"kind": "<its kind>", "definition": "<the whole definition>"}}),
            ),
            Remedy::Connect { from, to, handle } => {
                let mut edge = json!({"from": pick(from), "to": pick(to)});
                if let Some(h) = handle {
                    edge["handle"] = h.clone().into();
                }
                self.call("connect_nodes", json!({ "edge": edge }))
            }
            Remedy::Disconnect { edge } => self.call("disconnect_edge", json!({ "edgeId": edge })),
            Remedy::ChangeHandle {
                edge,
                from,
                to,
                handle,
            } => self.reconnect(edge, from, json!(to), handle),
            Remedy::Retarget {
                edge,
                from,
                to,
                handle,
            } => self.reconnect(edge, from, pick(to), handle),
            Remedy::RemoveNode { node } => self.call("remove_node", json!({ "nodeId": node })),
            Remedy::AddNode { id, kind } => self.call(
                "add_node",
                json!({"node": {
                    "id": id.clone().map_or_else(|| choose("a new id"), J::from),
                    "kind": kind.map_or_else(|| choose("its kind"), |k| k.as_str().into()),
                    "definition": "<its definition>",
                }}),
            ),
            Remedy::SetBound { bound, value } => format!(
                "{} (set_bounds replaces all five bounds: give the other four as they are now)",
                self.call("set_bounds", json!({"bounds": {bound.key(): value}}))
            ),
            Remedy::Freeze => self.call("freeze_plan", json!({})),
            Remedy::Submit => self.call(
                "submit_plan",
                json!({"decidedBy": "<who approves, as the owner says>"}),
            ),
            Remedy::Unfreeze => self.call("unfreeze_plan", json!({})),
            Remedy::Clone => {
                let mut args = Map::new();
                if let Some(p) = &self.plan {
                    args.insert("sourcePlanId".into(), p.clone().into());
                }
                args.insert("newPlanId".into(), "plan-<new-name>".into());
                format!("clone_plan {}", compact(&J::Object(args)))
            }
            Remedy::Outline => self.call("plan_outline", json!({})),
            Remedy::ReadNode { node } => self.call("plan_read", json!({ "node": node })),
            Remedy::ReadPhase { phase } => self.call("plan_read", json!({ "phase": phase })),
            Remedy::Status => self.call("plan_status", json!({})),
            Remedy::Validate => self.call("validate_plan", json!({})),
            Remedy::ValidateWithin { max_bytes } => {
                self.call("validate_plan", json!({ "maxBytes": max_bytes }))
            }
            Remedy::Explain { code } => format!("explain_issue {}", json!({ "code": code })),
            Remedy::ListTemplates => "list_templates {}".into(),
            Remedy::Author => format!(
                "author_plan {}",
                json!({"request": "<the owner's request, verbatim>"})
            ),
            Remedy::CreatePlan => "create_plan {}".into(),
            Remedy::AddToRegistry { tool } => {
                // A tool the registry `init` writes has: its entry, as data
                // the owner can add.
                let entry = crate::forge::templates::default_registry()
                    .ok()
                    .and_then(|r| r.tool(tool).cloned())
                    .map(|e| {
                        let mut m = serde_json::Map::new();
                        if let Some(r) = &e.returns {
                            m.insert("returns".into(), json!(r.describe()));
                        }
                        if !e.required_args.is_empty() {
                            m.insert("requiredArgs".into(), json!(e.required_args));
                        }
                        if e.spawns_agent {
                            m.insert("spawnsAgent".into(), json!(true));
                        }
                        if !e.writes.is_empty() {
                            m.insert("writes".into(), json!(e.writes));
                        }
                        format!(
                            " (the registry a new store starts with has it as {})",
                            serde_json::Value::Object(m)
                        )
                    })
                    .unwrap_or_default();
                format!(
                    "ask the owner to add `{}` to the store's registry{entry} (no tool adds registry entries)",
                    crate::model::ids::quote_id(tool)
                )
            }
            Remedy::RegisterTool { tool, field } => {
                let what = match field {
                    None => "under a valid tool name".to_string(),
                    Some(f) => format!("with a valid `{}`", f.key()),
                };
                format!(
                    "ask the owner to add `{}` to the store's registry {what} (no tool adds registry entries)",
                    crate::model::ids::quote_id(tool)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Ref, Value};

    #[test]
    fn remedies_read_as_tool_calls() {
        let v = ToolVoice::about("plan-x");
        // A key the registry does not name: the call says it is meant.
        assert_eq!(
            v.say(&Remedy::AddField {
                node: "s".into(),
                path: "args.noSpawn".into(),
                value: Fill::Value(Value::Bool(true)),
            }),
            r#"set_node_field {"planId":"plan-x","nodeId":"s","path":"args.noSpawn","value":true,"add":true}"#
        );
        assert_eq!(
            v.say(&Remedy::SetField {
                node: "w".into(),
                path: "args.content".into(),
                value: Fill::Value(Value::Ref(Box::new(Ref::new("accept")))),
            }),
            r#"set_node_field {"planId":"plan-x","nodeId":"w","path":"args.content","value":{"$ref":{"node":"accept","select":"first"}}}"#
        );
        assert_eq!(
            v.say(&Remedy::Connect {
                from: Pick::any("a step before it"),
                to: Pick::id("n"),
                handle: Some("default".into()),
            }),
            r#"connect_nodes {"planId":"plan-x","edge":{"from":"<a step before it>","to":"n","handle":"default"}}"#
        );
        assert_eq!(
            v.say(&Remedy::Retarget {
                edge: "e4".into(),
                from: "gate".into(),
                to: Pick::id("report"),
                handle: "no_match".into(),
            }),
            r#"disconnect_edge {"planId":"plan-x","edgeId":"e4"}, then connect_nodes {"planId":"plan-x","edge":{"from":"gate","to":"report","handle":"no_match"}}"#
        );
        assert_eq!(
            v.say(&Remedy::Clone),
            r#"clone_plan {"sourcePlanId":"plan-x","newPlanId":"plan-<new-name>"}"#
        );
    }
}
