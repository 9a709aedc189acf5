//! The JSON form of findings: `{code, severity, message, nodeId?, edgeId?,
//! pointer?}` (SPEC §8), written and read back (a cache keeps them).

use crate::model::{Issue, Report, Severity};
use serde_json::{Value, json};

/// An issue as JSON (`{code, severity, message, nodeId?, edgeId?, pointer?}`).
pub fn issue_json(i: &Issue) -> Value {
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

/// A report as JSON: its issues and the checks that were skipped.
pub fn report_json(r: &Report) -> Value {
    json!({
        "issues": r.issues.iter().map(issue_json).collect::<Vec<_>>(),
        "skipped": r.skipped.iter().map(|(c, why)| json!({"code": c, "reason": why})).collect::<Vec<_>>(),
    })
}

/// Reads back what [`report_json`] wrote; `code` maps a code's text to the
/// declared code (unknown codes make the whole report unreadable).
pub fn report_from_json(v: &Value, code: impl Fn(&str) -> Option<&'static str>) -> Option<Report> {
    let issues = v
        .get("issues")?
        .as_array()?
        .iter()
        .map(|i| issue_from_json(i, &code))
        .collect::<Option<Vec<_>>>()?;
    let skipped = v
        .get("skipped")?
        .as_array()?
        .iter()
        .map(|s| {
            Some((
                code(s.get("code")?.as_str()?)?,
                s.get("reason")?.as_str()?.to_string(),
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Report { issues, skipped })
}

fn issue_from_json(v: &Value, code: &impl Fn(&str) -> Option<&'static str>) -> Option<Issue> {
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
    let severity = match v.get("severity")?.as_str()? {
        "blocking" => Severity::Blocking,
        "advisory" => Severity::Advisory,
        _ => return None,
    };
    Some(Issue {
        code: code(v.get("code")?.as_str()?)?,
        severity,
        message: s("message")?,
        node_id: s("nodeId"),
        edge_id: s("edgeId"),
        pointer: s("pointer"),
    })
}
