//! The wire form of references and holes, both ways.
//!
//! In: a single-key object `{"$ref": {...}}` / `{"$param": {...}}` becomes a
//! [`Ref`] / [`Param`]; a malformed one is refused with its pointer; one with
//! other keys beside it stays a literal (and `ref_lookalike` reports it).
//! Out: IR values become `serde_json::Value`s in wire form.

use super::parse::ParseError;
use crate::model::value::{BranchId, Map, Param, Ref, Segment, Select, Value, push_pointer_token};
use serde_json::json;

pub const REF_KEY: &str = "$ref";
pub const PARAM_KEY: &str = "$param";

fn refuse(pointer: &str, message: String) -> ParseError {
    ParseError {
        message,
        pointer: Some(pointer.to_string()),
        line: None,
        column: None,
    }
}

/// Converts every wire reference and hole in `v` (in place), refusing
/// malformed ones. `pointer` is where `v` sits, for messages.
pub fn hydrate(v: &mut Value, pointer: &mut String) -> Result<(), ParseError> {
    match v {
        Value::Object(m)
            if m.len() == 1 && (m.contains_key(REF_KEY) || m.contains_key(PARAM_KEY)) =>
        {
            let (key, body) = m.first().map(|(k, b)| (k.clone(), b)).expect("one key");
            let len = pointer.len();
            pointer.push('/');
            push_pointer_token(pointer, &key);
            let converted = if key == REF_KEY {
                Value::Ref(Box::new(ref_from_wire(body, pointer)?))
            } else {
                Value::Param(param_from_wire(body, pointer)?)
            };
            pointer.truncate(len);
            *v = converted;
            Ok(())
        }
        Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                let len = pointer.len();
                pointer.push('/');
                push_pointer_token(pointer, k);
                hydrate(child, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        Value::Array(items) => {
            for (i, child) in items.iter_mut().enumerate() {
                let len = pointer.len();
                pointer.push('/');
                pointer.push_str(&i.to_string());
                hydrate(child, pointer)?;
                pointer.truncate(len);
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Hydrates a value that sits at the document root or at `at`.
pub fn hydrated(mut v: Value, at: &str) -> Result<Value, ParseError> {
    // Walk without building pointers; only a failure walks again to name
    // where (records converted so far are no longer objects, so the second
    // walk stops at the same one).
    if hydrate_quietly(&mut v).is_err() {
        let mut p = at.to_string();
        hydrate(&mut v, &mut p)?;
    }
    Ok(v)
}

pub(crate) fn hydrate_quietly(v: &mut Value) -> Result<(), ()> {
    match v {
        Value::Object(m)
            if m.len() == 1 && (m.contains_key(REF_KEY) || m.contains_key(PARAM_KEY)) =>
        {
            let (key, body) = m.first().expect("one key");
            let converted = if key == REF_KEY {
                Value::Ref(Box::new(ref_from_wire(body, "").map_err(|_| ())?))
            } else {
                Value::Param(param_from_wire(body, "").map_err(|_| ())?)
            };
            *v = converted;
            Ok(())
        }
        Value::Object(m) => m.values_mut().try_for_each(hydrate_quietly),
        Value::Array(items) => items.iter_mut().try_for_each(hydrate_quietly),
        _ => Ok(()),
    }
}

const REF_SHAPE: &str = r#"{"$ref": {"node": "<node id>", "select": "first" | "last" | "all" | {"index": n}, "path"?: "dot.path", "branchId"?: {"segments": [...]}}}"#;

fn ref_from_wire(body: &Value, at: &str) -> Result<Ref, ParseError> {
    let Some(m) = body.as_object() else {
        return Err(refuse(
            at,
            format!(
                "`$ref` is reserved for references, and its value must be an object, not {}; write {REF_SHAPE}",
                body.type_name()
            ),
        ));
    };
    for k in m.keys() {
        if !matches!(k.as_str(), "node" | "select" | "path" | "branchId") {
            let hint =
                crate::model::suggest::did_you_mean(k, ["node", "select", "path", "branchId"]);
            return Err(refuse(
                at,
                format!(
                    "a `$ref` has the key `{k}`{hint}; a reference holds only node, select, path and branchId: {REF_SHAPE}"
                ),
            ));
        }
    }
    let node = match m.get("node") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(refuse(
                at,
                format!(
                    "a `$ref`'s `node` must be a node id string, not {}",
                    other.type_name()
                ),
            ));
        }
        None => {
            return Err(refuse(
                at,
                format!("a `$ref` needs `node`, the id of the node it reads: {REF_SHAPE}"),
            ));
        }
    };
    let select = match m.get("select") {
        Some(v) => select_from_wire(v).ok_or_else(|| {
            refuse(
                at,
                format!(
                    "`$ref` to `{node}` has an unknown select {}; use \"first\", \"last\", \"all\" or {{\"index\": n}}",
                    serde_json::to_string(&to_json(v)).expect("JSON values always serialise")
                ),
            )
        })?,
        None => {
            return Err(refuse(
                at,
                format!("`$ref` to `{node}` needs `select`: \"first\", \"last\", \"all\" or {{\"index\": n}}"),
            ));
        }
    };
    let path = match m.get("path") {
        None => None,
        Some(Value::String(s)) if !s.is_empty() && !s.split('.').any(str::is_empty) => {
            Some(s.to_string())
        }
        Some(Value::String(_)) => {
            return Err(refuse(
                at,
                format!(
                    "`$ref` to `{node}` has an empty path or path segment; leave `path` out to read the whole output, or write a dot path like \"result.items\""
                ),
            ));
        }
        Some(other) => {
            return Err(refuse(
                at,
                format!(
                    "`$ref` to `{node}` has a `path` that is {}, not a dot-path string",
                    other.type_name()
                ),
            ));
        }
    };
    let branch_id = match m.get("branchId") {
        None => None,
        Some(v) => Some(branch_from_wire(v).ok_or_else(|| {
            refuse(
                at,
                format!("`$ref` to `{node}` has a malformed branchId; write {{\"segments\": [{{\"edge\": \"<edge id>\"}}, {{\"join\": \"<join id>\", \"of\": [\"<edge id>\", …]}}]}}"),
            )
        })?),
    };
    Ok(Ref {
        node: node.to_string(),
        select,
        path,
        branch_id,
    })
}

fn select_from_wire(v: &Value) -> Option<Select> {
    match v {
        Value::String(s) => match s.as_str() {
            "first" => Some(Select::First),
            "last" => Some(Select::Last),
            "all" => Some(Select::All),
            _ => None,
        },
        Value::Object(m) if m.len() == 1 => {
            m.get("index").and_then(Value::as_u64).map(Select::Index)
        }
        _ => None,
    }
}

fn branch_from_wire(v: &Value) -> Option<BranchId> {
    let m = v.as_object()?;
    if m.len() != 1 {
        return None;
    }
    let segs = m.get("segments")?.as_array()?;
    let mut segments = Vec::with_capacity(segs.len());
    for s in segs {
        let sm = s.as_object()?;
        if sm.len() == 1 {
            segments.push(Segment::Edge(sm.get("edge")?.as_str()?.to_string()));
        } else if sm.len() == 2 {
            let join = sm.get("join")?.as_str()?.to_string();
            let of = sm
                .get("of")?
                .as_array()?
                .iter()
                .map(|e| e.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()?;
            segments.push(Segment::Join { join, of });
        } else {
            return None;
        }
    }
    Some(BranchId { segments })
}

fn param_from_wire(body: &Value, at: &str) -> Result<Param, ParseError> {
    let shape = r#"{"$param": {"path": "<param name>"}}"#;
    match body.as_object() {
        Some(m) if m.len() == 1 => match m.get("path") {
            Some(Value::String(p)) if !p.is_empty() => Ok(Param {
                path: p.to_string(),
            }),
            _ => Err(refuse(
                at,
                format!("`$param` needs a non-empty string `path`: {shape}"),
            )),
        },
        _ => Err(refuse(
            at,
            format!("`$param` is reserved for template holes and must be written {shape}"),
        )),
    }
}

/// Whether `key` is reserved for references and holes (`$ref`, `$param`).
pub fn is_reserved_key(key: &str) -> bool {
    key == REF_KEY || key == PARAM_KEY
}

/// Whether an object is a reserved-key look-alike kept as a literal
/// (`$ref`/`$param` beside other keys).
pub fn is_lookalike(m: &Map) -> bool {
    m.len() > 1 && (m.contains_key(REF_KEY) || m.contains_key(PARAM_KEY))
}

/// A look-alike object with only its `$ref` (or `$param`) key, when that
/// reads as a reference (or a hole): what its author most likely meant.
pub fn lookalike_meant(m: &Map) -> Option<Value> {
    let key = if m.contains_key(REF_KEY) {
        REF_KEY
    } else {
        PARAM_KEY
    };
    let only = serde_json::json!({ key: to_json(m.get(key)?) });
    from_json(&only, "")
        .ok()
        .filter(|v| matches!(v, Value::Ref(_) | Value::Param(_)))
}

/// IR → wire JSON.
pub fn to_json(v: &Value) -> serde_json::Value {
    match v {
        Value::Null => serde_json::Value::Null,
        Value::Bool(b) => serde_json::Value::Bool(*b),
        Value::Number(n) => number_to_json(*n),
        Value::String(s) => serde_json::Value::String(s.to_string()),
        Value::Array(a) => serde_json::Value::Array(a.iter().map(to_json).collect()),
        Value::Object(m) => map_to_json(m),
        Value::Ref(r) => json!({ REF_KEY: ref_body_json(r) }),
        Value::Param(p) => json!({ PARAM_KEY: {"path": p.path} }),
    }
}

pub fn map_to_json(m: &Map) -> serde_json::Value {
    serde_json::Value::Object(m.iter().map(|(k, v)| (k.to_string(), to_json(v))).collect())
}

/// Integral numbers are written without a fraction (`3`, not `3.0`).
pub fn number_to_json(n: f64) -> serde_json::Value {
    if n.fract() == 0.0 && n.abs() <= crate::model::value::MAX_SAFE_INTEGER {
        serde_json::Value::from(n as i64)
    } else {
        serde_json::Number::from_f64(n)
            .map(serde_json::Value::Number)
            .unwrap_or(serde_json::Value::Null)
    }
}

fn ref_body_json(r: &Ref) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("node".into(), r.node.clone().into());
    m.insert("select".into(), select_json(&r.select));
    if let Some(p) = &r.path {
        m.insert("path".into(), p.clone().into());
    }
    if let Some(b) = &r.branch_id {
        m.insert("branchId".into(), branch_json(b));
    }
    serde_json::Value::Object(m)
}

pub fn select_json(s: &Select) -> serde_json::Value {
    match s {
        Select::First => "first".into(),
        Select::Last => "last".into(),
        Select::All => "all".into(),
        Select::Index(n) => json!({ "index": n }),
    }
}

pub fn branch_json(b: &BranchId) -> serde_json::Value {
    let segs: Vec<serde_json::Value> = b
        .segments
        .iter()
        .map(|s| match s {
            Segment::Edge(e) => json!({ "edge": e }),
            Segment::Join { join, of } => json!({ "join": join, "of": of }),
        })
        .collect();
    json!({ "segments": segs })
}

/// A plain `serde_json::Value` (e.g. tool arguments) → a hydrated IR value.
pub fn from_json(v: &serde_json::Value, at: &str) -> Result<Value, ParseError> {
    let text = serde_json::to_string(v).map_err(|e| refuse(at, e.to_string()))?;
    let plain = super::parse::json(&text).map_err(|mut e| {
        e.pointer = Some(format!("{at}{}", e.pointer.unwrap_or_default()));
        e
    })?;
    hydrated(plain, at)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::parse::json as parse;

    fn h(text: &str) -> Result<Value, ParseError> {
        hydrated(parse(text).unwrap(), "")
    }

    #[test]
    fn refs_convert_both_ways() {
        let text = r#"{"a":{"$ref":{"node":"n","select":{"index":2},"path":"x.y","branchId":{"segments":[{"edge":"e1"},{"join":"j","of":["e2","e3"]}]}}},"b":{"$param":{"path":"p"}}}"#;
        let v = h(text).unwrap();
        let m = v.as_object().unwrap();
        let r = m["a"].as_ref_value().unwrap();
        assert_eq!(r.node, "n");
        assert_eq!(r.select, Select::Index(2));
        assert_eq!(r.branch_id.as_ref().unwrap().segments.len(), 2);
        assert!(matches!(m["b"], Value::Param(_)));
        assert_eq!(serde_json::to_string(&to_json(&v)).unwrap(), text);
    }

    #[test]
    fn malformed_refs_are_refused_with_location() {
        for (text, needle) in [
            (r#"{"x":[{"$ref":"x"}]}"#, "must be an object"),
            (r#"{"x":{"$ref":{"select":"first"}}}"#, "needs `node`"),
            (r#"{"x":{"$ref":{"node":"a"}}}"#, "needs `select`"),
            (
                r#"{"x":{"$ref":{"node":"a","select":"middle"}}}"#,
                "unknown select",
            ),
            (r#"{"x":{"$param":{}}}"#, "$param"),
        ] {
            let e = h(text).unwrap_err();
            assert!(e.message.contains(needle), "{text}: {e}");
            assert!(
                e.pointer.as_deref().unwrap().starts_with("/x"),
                "{text}: {e}"
            );
        }
    }

    #[test]
    fn lookalikes_stay_literal() {
        let v = h(r#"{"$ref":{"node":"a","select":"first"},"x":1}"#).unwrap();
        assert!(is_lookalike(v.as_object().unwrap()));
    }
}
