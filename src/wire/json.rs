//! Text output of wire values: compact JSON for messages, pretty JSON and YAML
//! for documents.

use crate::model::Value;

/// Compact JSON text of an IR value, in wire form.
pub fn compact(v: &Value) -> String {
    serde_json::to_string(&super::convert::to_json(v)).expect("JSON values always serialise")
}

/// Compact JSON, cut to at most `max` bytes (on a char boundary) with `…`.
pub fn compact_cut(v: &Value, max: usize) -> String {
    crate::model::text::cut(&compact(v), max)
}

/// A short name of a JSON value's type, for messages ("a number",
/// "an array", …), as [`Value::type_name`] names the model's.
pub fn type_name(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Pretty JSON with a 2-space indent and a trailing newline.
pub fn pretty(v: &serde_json::Value) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("JSON values always serialise");
    s.push('\n');
    s
}

/// YAML text of a JSON value.
pub fn yaml(v: &serde_json::Value) -> String {
    serde_saphyr::to_string(v).expect("JSON values always serialise to YAML")
}
