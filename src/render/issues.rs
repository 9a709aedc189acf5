//! Issue lists: `  · (<severity>) <code> [node X]: <message>`.

use crate::model::Counts;
use crate::model::Issue;
use serde_json::{Value, json};

/// One issue line.
pub fn line(i: &Issue) -> String {
    let at = match (&i.node_id, &i.edge_id) {
        (Some(n), Some(e)) => format!(" [node {n}, edge {e}]"),
        (Some(n), None) => format!(" [node {n}]"),
        (None, Some(e)) => format!(" [edge {e}]"),
        (None, None) => String::new(),
    };
    format!(
        "  · ({}) {}{at}: {}",
        i.severity.as_str(),
        i.code,
        i.message
    )
}

/// `No issues.` or `Issues (<n>):` followed by one line each.
pub fn list(issues: &[Issue]) -> String {
    if issues.is_empty() {
        return "No issues.".into();
    }
    let mut out = format!("Issues ({}):", issues.len());
    for i in issues {
        out.push('\n');
        out.push_str(&line(i));
    }
    out
}

/// `3 blocking, 1 advisory`.
pub fn counts(c: &Counts) -> String {
    format!("{} blocking, {} advisory", c.blocking, c.advisory)
}

pub fn counts_json(c: &Counts) -> Value {
    json!({"blocking": c.blocking, "advisory": c.advisory})
}

/// An issue as JSON (`{code, severity, message, nodeId?, edgeId?, pointer?}`).
pub fn json(i: &Issue) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), i.code.into());
    m.insert("severity".into(), i.severity.as_str().into());
    m.insert("message".into(), i.message.clone().into());
    if let Some(n) = &i.node_id {
        m.insert("nodeId".into(), n.clone().into());
    }
    if let Some(e) = &i.edge_id {
        m.insert("edgeId".into(), e.clone().into());
    }
    if let Some(p) = &i.pointer {
        m.insert("pointer".into(), p.clone().into());
    }
    Value::Object(m)
}

pub fn json_list(issues: &[Issue]) -> Value {
    Value::Array(issues.iter().map(json).collect())
}
