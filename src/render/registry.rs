//! `registry list` and `registry show`: the tools a call may invoke.

use crate::model::registry::{Registry, ToolEntry};
use serde_json::{Value, json};

fn returns(e: &ToolEntry) -> String {
    e.returns
        .as_ref()
        .map(|r| r.describe())
        .unwrap_or_else(|| "(unsaid)".into())
}

/// One line per tool: name, what it returns, its summary.
pub(crate) fn list_text(source: &str, r: &Registry) -> String {
    let width = r.tools.keys().map(|k| super::width(k)).max().unwrap_or(0);
    let mut out = vec![format!("Tools in {source} ({}):", r.tools.len())];
    for (name, e) in &r.tools {
        out.push(format!(
            "  {}  {}  {}",
            super::pad(name, width),
            returns(e),
            e.summary.as_deref().unwrap_or("")
        ));
    }
    out.join("\n")
}

/// One tool in full.
pub(crate) fn show_text(name: &str, e: &ToolEntry) -> String {
    let mut out = vec![format!("Tool {name}")];
    if let Some(s) = &e.summary {
        out.push(format!("  summary: {s}"));
    }
    out.push(format!("  returns: {}", returns(e)));
    let list = |v: &[String]| {
        if v.is_empty() {
            "(none)".to_string()
        } else {
            v.join(", ")
        }
    };
    out.push(format!("  required args: {}", list(&e.required_args)));
    if e.spawns_agent {
        out.push("  spawns an agent".into());
    }
    if let Some(a) = &e.tools_arg {
        out.push(format!("  tools arg: {a}"));
    }
    if !e.writes.is_empty() {
        out.push(format!(
            "  writes (args naming artifacts): {}",
            list(&e.writes)
        ));
    }
    out.join("\n")
}

pub(crate) fn tool_json(name: &str, e: &ToolEntry) -> Value {
    let returns = match &e.returns {
        Some(crate::model::registry::Returns::Artifact { class }) => {
            json!({"kind": "artifact", "class": class})
        }
        Some(r) => json!(r.describe()),
        None => Value::Null,
    };
    json!({
        "name": name, "summary": e.summary, "returns": returns,
        "requiredArgs": e.required_args, "spawnsAgent": e.spawns_agent,
        "toolsArg": e.tools_arg, "writes": e.writes,
    })
}

pub(crate) fn list_json(source: &str, r: &Registry) -> Value {
    json!({
        "registry": source,
        "tools": r.tools.iter().map(|(n, e)| tool_json(n, e)).collect::<Vec<_>>(),
    })
}
