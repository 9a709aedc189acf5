//! The JSON form of findings: `{code, severity, message, nodeId?, edgeId?,
//! pointer?}` (SPEC §8), written and read back (a cache keeps them).

use crate::model::error::Error;
use crate::model::{Cause, Code, Issue, Report};
use serde_json::{Value, json};

/// An issue as JSON (`{code, severity, message, nodeId?, edgeId?, pointer?}`).
pub(crate) fn issue_json(i: &Issue) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), i.code.name.into());
    m.insert("severity".into(), i.severity().as_str().into());
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
    super::remedy::insert_fixes(&mut m, &i.fixes);
    if let Some(c) = &i.cause {
        m.insert("cause".into(), cause_json(c));
    }
    Value::Object(m)
}

/// `{code, nodeId?, edgeId?}`: the finding another one follows from.
pub(crate) fn cause_json(c: &Cause) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), c.code.name.into());
    if let Some(n) = &c.node_id {
        m.insert("nodeId".into(), n.clone().into());
    }
    if let Some(e) = &c.edge_id {
        m.insert("edgeId".into(), e.clone().into());
    }
    Value::Object(m)
}

/// A report as JSON: its issues and the checks that were skipped.
pub(crate) fn report_json(r: &Report) -> Value {
    json!({
        "issues": r.issues.iter().map(issue_json).collect::<Vec<_>>(),
        "skipped": r.skipped.iter().map(|(c, why)| json!({"code": c, "reason": why})).collect::<Vec<_>>(),
    })
}

/// Reads back what [`report_json`] wrote; `code` maps a code's text to the
/// declared code (unknown codes make the whole report unreadable).
pub(crate) fn report_from_json(v: &Value, code: impl Fn(&str) -> Option<Code>) -> Option<Report> {
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
                code(s.get("code")?.as_str()?)?.name,
                s.get("reason")?.as_str()?.to_string(),
            ))
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Report { issues, skipped })
}

fn issue_from_json(v: &Value, codes: &impl Fn(&str) -> Option<Code>) -> Option<Issue> {
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
    let code = codes(v.get("code")?.as_str()?)?;
    if v.get("severity")?.as_str()? != code.severity.as_str() {
        return None;
    }
    Some(Issue {
        code,
        message: s("message")?,
        node_id: s("nodeId"),
        edge_id: s("edgeId"),
        pointer: s("pointer"),
        fixes: super::remedy::fixes_from(v.as_object()?)?,
        cause: match v.get("cause") {
            None => None,
            Some(c) => Some(Cause {
                code: codes(c.get("code")?.as_str()?)?,
                node_id: c.get("nodeId").and_then(Value::as_str).map(str::to_string),
                edge_id: c.get("edgeId").and_then(Value::as_str).map(str::to_string),
            }),
        },
    })
}

/// The `{formatVersion, error: {...}}` document of `--format json`.
pub(crate) fn error_json(err: &Error) -> serde_json::Value {
    let mut e = serde_json::Map::new();
    e.insert("code".into(), err.code().into());
    e.insert("message".into(), err.message.clone().into());
    if let Some(h) = &err.help {
        e.insert("help".into(), h.to_string().into());
    }
    super::remedy::insert_fixes(&mut e, &err.fixes);
    if let Some(i) = &err.issue {
        e.insert("issue".into(), i.code.name.into());
    }
    if let Some(loc) = &err.location {
        if let Some(f) = &loc.file {
            e.insert("file".into(), f.clone().into());
        }
        if let Some(p) = &loc.pointer {
            e.insert("pointer".into(), p.clone().into());
        }
        if let Some(l) = loc.line {
            e.insert("line".into(), l.into());
        }
        if let Some(c) = loc.column {
            e.insert("column".into(), c.into());
        }
    }
    serde_json::json!({"formatVersion": 1, "error": e})
}
