//! The JSON form of findings: `{code, severity, message, nodeId?, edgeId?,
//! pointer?}` (SPEC §8), written and read back (a cache keeps them).

use crate::model::error::Error;
use crate::model::{Cause, Code, Issue, Report};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
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

/// A report as JSON: its issues and the checks that were skipped (as
/// [`report_text`] writes it).
#[cfg(test)]
fn report_json(r: &Report) -> Value {
    json!({
        "issues": r.issues.iter().map(issue_json).collect::<Vec<_>>(),
        "skipped": skipped_json(r),
    })
}

fn skipped_json(r: &Report) -> Value {
    r.skipped
        .iter()
        .map(|(c, why)| json!({"code": c, "reason": why}))
        .collect()
}

/// [`report_json`]'s text, written a finding at a time: the value of every
/// finding at once was most of the memory a check of a plan with half a
/// million findings touched (about 2 GB at 100,000 nodes), only to be
/// written out.
pub(crate) fn report_text(r: &Report) -> String {
    let mut out = b"{\"issues\":[".to_vec();
    for (k, i) in r.issues.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        serde_json::to_writer(&mut out, &issue_json(i)).expect("JSON values always serialise");
    }
    out.extend_from_slice(b"],\"skipped\":");
    serde_json::to_writer(&mut out, &skipped_json(r)).expect("JSON values always serialise");
    out.push(b'}');
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Reads back what [`report_text`] wrote; `code` maps a code's text to the
/// declared code (unknown codes make the whole report unreadable).
pub(crate) fn report_from_json(v: &Value, code: impl Fn(&str) -> Option<Code>) -> Option<Report> {
    let issues = v
        .get("issues")?
        .as_array()?
        .iter()
        .map(|i| issue_from_json(i, &code))
        .collect::<Option<Vec<_>>>()?;
    let skipped = skipped_from(v.get("skipped")?, &code)?;
    Some(Report { issues, skipped })
}

/// Reads back what [`report_text`] wrote, a finding at a time: the value
/// of every finding at once was most of the memory a read of a large
/// findings cache touched (a 183 MB cache of 500,000 findings). `None`
/// when any part does not read.
pub(crate) fn report_from_text(text: &str, code: impl Fn(&str) -> Option<Code>) -> Option<Report> {
    let mut de = serde_json::Deserializer::from_str(text);
    let report = ReportSeed(&code).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(report)
}

/// The report object: `issues` read one by one, `skipped` as a value.
struct ReportSeed<'c, F>(&'c F);

impl<'de, F: Fn(&str) -> Option<Code>> DeserializeSeed<'de> for ReportSeed<'_, F> {
    type Value = Report;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Report, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, F: Fn(&str) -> Option<Code>> Visitor<'de> for ReportSeed<'_, F> {
    type Value = Report;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a report")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Report, A::Error> {
        let (mut issues, mut skipped) = (None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "issues" => issues = Some(map.next_value_seed(IssuesSeed(self.0))?),
                "skipped" => {
                    let v: Value = map.next_value()?;
                    skipped = Some(skipped_from(&v, self.0).ok_or_else(unreadable)?);
                }
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(Report {
            issues: issues.ok_or_else(unreadable)?,
            skipped: skipped.ok_or_else(unreadable)?,
        })
    }
}

/// The issues, each read as a value, made an issue and dropped.
struct IssuesSeed<'c, F>(&'c F);

impl<'de, F: Fn(&str) -> Option<Code>> DeserializeSeed<'de> for IssuesSeed<'_, F> {
    type Value = Vec<Issue>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<Issue>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, F: Fn(&str) -> Option<Code>> Visitor<'de> for IssuesSeed<'_, F> {
    type Value = Vec<Issue>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of issues")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Issue>, A::Error> {
        let mut issues = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element::<Value>()? {
            issues.push(issue_from_json(&v, self.0).ok_or_else(unreadable)?);
        }
        Ok(issues)
    }
}

fn unreadable<E: de::Error>() -> E {
    E::custom("a finding that does not read")
}

fn skipped_from(
    v: &Value,
    code: &impl Fn(&str) -> Option<Code>,
) -> Option<Vec<(&'static str, String)>> {
    v.as_array()?
        .iter()
        .map(|s| {
            Some((
                code(s.get("code")?.as_str()?)?.name,
                s.get("reason")?.as_str()?.to_string(),
            ))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The text written a finding at a time is the text of the whole
    /// report's value, for real findings with fixes, causes and pointers,
    /// and reads back to the same report.
    #[test]
    fn the_report_text_is_the_report_values_text() {
        let doc = crate::wire::codec::document(
            r#"{"planId": "plan-f", "nodes": [
                {"id": "start", "kind": "entry", "definition": {"input": [{"path": "q", "type": "string"}]}},
                {"id": "c", "kind": "call", "definition": {"tool": "no_such_tool", "args": {"x": {"$ref": {"node": "ghost", "select": "first", "path": "q"}}}}},
                {"id": "j", "kind": "join", "definition": {}}],
              "edges": [{"id": "e1", "from": "start", "to": "c"}, {"id": "e2", "from": "c", "to": "nowhere"},
                        {"id": "e3", "from": "j", "to": "j"}]}"#,
            crate::wire::parse::Syntax::Json,
        )
        .unwrap();
        let mut content = crate::model::Content::empty("plan-f");
        content.nodes = doc.nodes;
        content.edges = doc.edges;
        let mut report = crate::check::run(&content, None, Vec::new());
        report.skipped.push(("cycle", "a reason".into()));
        assert!(report.issues.len() > 3, "{report:?}");
        assert!(report.issues.iter().any(|i| !i.fixes.is_empty()));
        let text = report_text(&report);
        assert_eq!(text, report_json(&report).to_string());
        let back: Value = serde_json::from_str(&text).unwrap();
        let codes = |c: &str| crate::check::by_code(c).map(|c| c.code());
        let again = report_from_json(&back, codes).unwrap();
        assert_eq!(report_text(&again), text, "read back whole");
        let streamed = report_from_text(&text, codes).unwrap();
        assert_eq!(
            report_text(&streamed),
            text,
            "read back a finding at a time"
        );
        // Anything that does not read is no report: cut, an unknown code,
        // a finding without its message, another shape.
        assert!(report_from_text(&text[..text.len() - 1], codes).is_none());
        assert!(
            report_from_text(&text.replacen("\"code\":\"", "\"code\":\"x", 1), codes).is_none()
        );
        assert!(report_from_text(&text.replacen("\"message\":", "\"note\":", 1), codes).is_none());
        assert!(report_from_text(r#"{"issues": []}"#, codes).is_none());
        assert!(report_from_text(r#"[]"#, codes).is_none());
        assert!(report_from_text(r#"{"issues": [], "skipped": []}"#, codes).is_some());
        let empty = Report::default();
        assert_eq!(report_text(&empty), report_json(&empty).to_string());
    }
}
