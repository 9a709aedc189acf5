//! The arguments of a tool call, checked against the tool's own JSON Schema.
//!
//! MCP clients may not validate arguments, and rmcp does not, so every call
//! is checked here, against the very schema `tools/list` publishes. Only the
//! keywords below are used by the tool schemas (a test keeps it so), so no
//! constraint a client reads is silently ignored: `type`, `properties`,
//! `required`, `additionalProperties: false`, `enum`, `minimum`, `minLength`,
//! `items`, `description`.

use crate::model::Value;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::suggest;
use serde_json::Value as J;

/// Keywords the validator understands.
#[cfg(test)]
pub(crate) const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "enum",
    "minimum",
    "minLength",
    "items",
    "description",
];

/// At most this many problems are listed in one refusal.
const MAX_PROBLEMS: usize = 8;

/// Checks `args` (already converted from the wire) against `schema`; the
/// refusal lists every problem (up to eight), naming each argument by its
/// dotted path.
pub(crate) fn check(tool: &str, schema: &J, args: &Value) -> Result<(), Error> {
    let mut problems = Vec::new();
    let mut unknown = false;
    walk(schema, args, "", &mut problems, &mut unknown);
    if problems.is_empty() {
        return Ok(());
    }
    let more = problems.len().saturating_sub(MAX_PROBLEMS);
    problems.truncate(MAX_PROBLEMS);
    if more > 0 {
        problems.push(format!("… and {more} more"));
    }
    let kind = if unknown {
        ErrorKind::UnknownKey
    } else {
        ErrorKind::InvalidInput
    };
    Err(Error::new(kind, problems.join("\n")).with_help(format!(
        "nothing was changed; {tool} takes {}",
        signature(schema)
    )))
}

/// `{planId: string, node: object, expectedRevision?: integer ≥ 0}`.
pub(crate) fn signature(schema: &J) -> String {
    let Some(props) = schema.get("properties").and_then(J::as_object) else {
        return "no arguments".into();
    };
    if props.is_empty() {
        return "no arguments: pass {}".into();
    }
    let required = required_of(schema);
    let parts: Vec<String> = props
        .iter()
        .map(|(k, s)| {
            let opt = if required.contains(&k.as_str()) {
                ""
            } else {
                "?"
            };
            format!("{k}{opt}: {}", short(s))
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

fn required_of(schema: &J) -> Vec<&str> {
    schema
        .get("required")
        .and_then(J::as_array)
        .map(|r| r.iter().filter_map(J::as_str).collect())
        .unwrap_or_default()
}

/// A short type name for signatures: `string`, `integer ≥ 0`, `"a"|"b"`.
fn short(s: &J) -> String {
    if let Some(e) = s.get("enum").and_then(J::as_array) {
        return e
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("|");
    }
    let types = types_of(s);
    if types.is_empty() {
        return "any".into();
    }
    let mut t = types.join("|");
    if let Some(m) = s.get("minimum") {
        t.push_str(&format!(" ≥ {m}"));
    }
    t
}

fn types_of(s: &J) -> Vec<&str> {
    match s.get("type") {
        Some(J::String(t)) => vec![t.as_str()],
        Some(J::Array(ts)) => ts.iter().filter_map(J::as_str).collect(),
        _ => Vec::new(),
    }
}

/// `a string`, `an integer ≥ 0`, `a string or null`, `one of "a", "b"`.
fn expected(s: &J) -> String {
    if let Some(e) = s.get("enum").and_then(J::as_array) {
        return format!(
            "one of {}",
            e.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let names: Vec<String> = types_of(s)
        .iter()
        .map(|t| {
            let base = match *t {
                "string" => "a string".to_string(),
                "integer" => "an integer".to_string(),
                "number" => "a number".to_string(),
                "boolean" => "a boolean (true or false)".to_string(),
                "object" => "an object".to_string(),
                "array" => "an array".to_string(),
                "null" => "null".to_string(),
                other => other.to_string(),
            };
            match s.get("minimum") {
                Some(m) if matches!(*t, "integer" | "number") => format!("{base} ≥ {m}"),
                _ => base,
            }
        })
        .collect();
    if names.is_empty() {
        "any value".into()
    } else {
        names.join(" or ")
    }
}

fn has_type(v: &Value, t: &str) -> bool {
    match t {
        "string" => matches!(v, Value::String(_)),
        "integer" => matches!(v, Value::Number(n) if n.fract() == 0.0),
        "number" => matches!(v, Value::Number(_)),
        "boolean" => matches!(v, Value::Bool(_)),
        "object" => matches!(v, Value::Object(_)),
        "array" => matches!(v, Value::Array(_)),
        "null" => matches!(v, Value::Null),
        _ => false,
    }
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(schema: &J, v: &Value, path: &str, out: &mut Vec<String>, unknown: &mut bool) {
    let what = if path.is_empty() {
        "the arguments".to_string()
    } else {
        format!("`{path}`")
    };
    let types = types_of(schema);
    if !types.is_empty() && !types.iter().any(|t| has_type(v, t)) {
        out.push(format!(
            "{what} must be {}, not {}",
            expected(schema),
            v.type_name()
        ));
        return;
    }
    if let Some(allowed) = schema.get("enum").and_then(J::as_array) {
        let as_json = crate::wire::convert::to_json(v);
        if !allowed.contains(&as_json) {
            out.push(format!(
                "{what} must be {}, not {}",
                expected(schema),
                crate::model::text::cut(&as_json.to_string(), 80)
            ));
            return;
        }
    }
    match v {
        Value::Number(n) => {
            if let Some(min) = schema.get("minimum").and_then(J::as_f64)
                && *n < min
            {
                out.push(format!(
                    "{what} must be {}, not {}",
                    expected(schema),
                    crate::wire::json::compact(v)
                ));
            }
        }
        Value::String(s) => {
            if let Some(min) = schema.get("minLength").and_then(J::as_u64)
                && (s.chars().count() as u64) < min
            {
                out.push(format!("{what} must not be empty"));
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                for (i, x) in items.iter().enumerate() {
                    walk(item, x, &format!("{path}[{i}]"), out, unknown);
                }
            }
        }
        Value::Object(m) => {
            let Some(props) = schema.get("properties").and_then(J::as_object) else {
                return;
            };
            let closed = schema.get("additionalProperties") == Some(&J::Bool(false));
            let names: Vec<&str> = props.keys().map(String::as_str).collect();
            for k in m.keys() {
                if closed && !props.contains_key(k.as_str()) {
                    *unknown = true;
                    let hint = suggest::did_you_mean(k, names.iter().copied());
                    let list = if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    };
                    out.push(if path.is_empty() {
                        format!("unknown argument `{k}`{hint}; the arguments are {list}")
                    } else {
                        format!("{what} has no key `{k}`{hint}; its keys are {list}")
                    });
                }
            }
            for r in required_of(schema) {
                if !m.contains_key(r) {
                    let s = &props[r];
                    out.push(if path.is_empty() {
                        format!("missing argument `{r}` ({})", expected(s))
                    } else {
                        format!("{what} needs `{r}` ({})", expected(s))
                    });
                }
            }
            for (k, x) in m {
                if let Some(s) = props.get(k.as_str()) {
                    walk(s, x, &child(path, k), out, unknown);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(text: &str) -> Value {
        crate::wire::convert::from_json(&serde_json::from_str(text).unwrap(), "").unwrap()
    }

    fn schema() -> J {
        json!({
            "type": "object",
            "properties": {
                "planId": {"type": "string", "minLength": 1},
                "edge": {"type": "object", "properties": {
                    "from": {"type": "string"}, "to": {"type": "string"}
                }, "required": ["from", "to"], "additionalProperties": false},
                "audience": {"enum": ["model", "operator"]},
                "rev": {"type": "integer", "minimum": 0},
                "phase": {"type": ["string", "null"]},
            },
            "required": ["planId"],
            "additionalProperties": false
        })
    }

    fn refusal(text: &str) -> Error {
        check("demo", &schema(), &args(text)).unwrap_err()
    }

    #[test]
    fn good_arguments_pass() {
        check(
            "demo",
            &schema(),
            &args(r#"{"planId":"plan-a","edge":{"from":"a","to":"b"},"audience":"model","rev":0,"phase":null}"#),
        )
        .unwrap();
    }

    #[test]
    fn unknown_keys_are_named_with_a_suggestion() {
        let e = refusal(r#"{"planId":"plan-a","planid":"x"}"#);
        assert_eq!(e.kind, ErrorKind::UnknownKey);
        assert!(
            e.message
                .contains("unknown argument `planid` (did you mean `planId`?)"),
            "{}",
            e.message
        );
        let e = refusal(r#"{"planId":"plan-a","edge":{"from":"a","to":"b","hndle":"x"}}"#);
        assert!(
            e.message.contains("`edge` has no key `hndle`"),
            "{}",
            e.message
        );
    }

    #[test]
    fn wrong_types_name_the_expected_type() {
        let e = refusal(r#"{"planId":3,"rev":-1,"phase":4,"audience":"x","edge":"a"}"#);
        for needle in [
            "`planId` must be a string, not a number",
            "`rev` must be an integer ≥ 0, not -1",
            "`phase` must be a string or null, not a number",
            "`audience` must be one of \"model\", \"operator\", not \"x\"",
            "`edge` must be an object, not a string",
        ] {
            assert!(e.message.contains(needle), "{needle}: {}", e.message);
        }
    }

    #[test]
    fn missing_required_arguments_are_named() {
        let e = refusal(r#"{"edge":{"from":"a"}}"#);
        assert!(e.message.contains("missing argument `planId` (a string)"));
        assert!(e.message.contains("`edge` needs `to` (a string)"));
        assert!(e.help.unwrap().contains("planId: string"));
    }

    #[test]
    fn a_reference_is_not_an_object() {
        let e = refusal(r#"{"planId":"p","edge":{"$ref":{"node":"a","select":"first"}}}"#);
        assert!(e.message.contains("`edge` must be an object, not a $ref"));
    }
}
