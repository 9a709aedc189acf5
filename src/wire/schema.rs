//! The JSON Schema (draft 2020-12) of plan documents, for editors and other
//! validators: what `planforge schema` prints and `schema/plan.schema.json`
//! holds.
//!
//! It is built from the tables the reader and the checks use — the document
//! keys, the node kinds and each kind's definition fields
//! (`model::shape`), the handles, the bounds' names, the lifecycle states —
//! so it cannot drift from them. What it accepts reads back without error
//! and without a shape finding (`missing_field`, `unknown_field`, a wrong
//! type); what it rejects is refused by the reader or flagged by a check.
//! Findings that need the whole graph or the registry (cycles, dangling
//! edges, unknown tools, a handle the source's kind does not allow) are
//! beyond a schema: `planforge validate` reports them.

use crate::model::lifecycle::State;
use crate::model::shape::{self, Field, Shape};
use crate::model::{Bounds, Handle, NodeKind};
use crate::wire::codec::DOCUMENT_KEYS;
use crate::wire::convert::{PARAM_KEY, REF_KEY};
use serde_json::{Map, Value, json};

/// The `$schema` of the schema itself.
pub const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The schema's `$id`: a name, not a download address.
pub const ID: &str = "urn:planforge:schema:plan-document:1";

/// `^[a-z0-9_]{1,64}$`, as [`crate::model::ids::is_valid_node_id`].
pub const NODE_ID: &str = "^[a-z0-9_]{1,64}$";
/// `^[A-Za-z0-9_-]{1,64}$`, as [`crate::model::ids::is_valid_edge_id`].
pub const EDGE_ID: &str = "^[A-Za-z0-9_-]{1,64}$";
/// As [`crate::model::ids::is_valid_plan_id`].
pub const PLAN_ID: &str = "^plan-[A-Za-z0-9_-]{1,64}$";
/// A dot path without empty segments (a `$ref`'s `path`).
const DOT_PATH: &str = "^[^.]+(\\.[^.]+)*$";
/// A phase: no leading or trailing whitespace, one line.
const PHASE: &str = "^\\S(.*\\S)?$";

fn defs(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

/// A closed object of `props` (name, schema) with the `required` names.
fn closed(props: Vec<(&str, Value)>, required: &[&str]) -> Value {
    let properties: Map<String, Value> =
        props.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let mut m = Map::new();
    m.insert("type".into(), "object".into());
    m.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        m.insert("required".into(), json!(required));
    }
    m.insert("additionalProperties".into(), false.into());
    Value::Object(m)
}

/// The schema of one shape of the definition table.
fn shape_schema(s: &Shape) -> Value {
    match s {
        Shape::Str => json!({"type": "string"}),
        Shape::Bool => json!({"type": "boolean"}),
        Shape::Int { min } => json!({"type": "integer", "minimum": min}),
        Shape::Enum(c) => json!({ "enum": c }),
        Shape::Any => defs("value"),
        // Values anywhere in a document are read with the reserved keys
        // (`$ref`, `$param`), a JSON Schema's own `$ref`s included.
        Shape::Record | Shape::SchemaObject => {
            json!({"type": "object", "additionalProperties": defs("value")})
        }
        Shape::Ref => defs("reference"),
        Shape::Array(item) => json!({"type": "array", "items": shape_schema(item)}),
        Shape::Object(fields) => fields_schema(fields),
        Shape::DeclaredField => defs("declaredField"),
        Shape::PromptPart => json!({
            "anyOf": [closed(vec![("text", json!({"type": "string"}))], &["text"]), defs("reference")]
        }),
        Shape::Emit => json!({
            "oneOf": [
                closed(
                    vec![("as", json!({"const": "value"})), ("field", json!({"type": "string"}))],
                    &["as", "field"],
                ),
                closed(vec![("as", json!({"const": "rows"}))], &["as"]),
            ]
        }),
    }
}

fn fields_schema(fields: &[Field]) -> Value {
    let required: Vec<&str> = fields
        .iter()
        .filter(|f| f.required)
        .map(|f| f.name)
        .collect();
    closed(
        fields
            .iter()
            .map(|f| (f.name, shape_schema(f.shape)))
            .collect(),
        &required,
    )
}

/// `{path, type, …}` by type, as `model::shape` checks declared fields.
fn declared_field() -> Value {
    let path = || ("path", json!({"type": "string"}));
    let ty = |t: &str| ("type", json!({ "const": t }));
    json!({
        "description": "A declared field of an entry's input or a node's output.",
        "oneOf": [
            closed(
                vec![path(), ty("string"), ("maxBytes", json!({"type": "integer", "minimum": 1}))],
                &["path", "type"],
            ),
            closed(vec![path(), ty("number")], &["path", "type"]),
            closed(vec![path(), ty("boolean")], &["path", "type"]),
            closed(
                vec![
                    path(),
                    ty("enum"),
                    ("values", json!({"type": "array", "items": {"type": "string"}, "minItems": 1})),
                ],
                &["path", "type", "values"],
            ),
        ]
    })
}

/// `{"$ref": {node, select, path?, branchId?}}`.
fn reference() -> Value {
    let select = json!({
        "oneOf": [
            {"enum": ["first", "last", "all"]},
            closed(vec![("index", json!({"type": "integer", "minimum": 0}))], &["index"]),
        ]
    });
    let segment = json!({
        "oneOf": [
            closed(vec![("edge", json!({"type": "string"}))], &["edge"]),
            closed(
                vec![
                    ("join", json!({"type": "string"})),
                    ("of", json!({"type": "array", "items": {"type": "string"}})),
                ],
                &["join", "of"],
            ),
        ]
    });
    let branch = closed(
        vec![("segments", json!({"type": "array", "items": segment}))],
        &["segments"],
    );
    let body = closed(
        vec![
            (
                "node",
                json!({"type": "string", "description": "The id of the node read."}),
            ),
            ("select", select),
            ("path", json!({"type": "string", "pattern": DOT_PATH})),
            ("branchId", branch),
        ],
        &["node", "select"],
    );
    let mut r = closed(vec![(REF_KEY, body)], &[REF_KEY]);
    r["description"] = "A reference: a read of another node's output.".into();
    r
}

/// `{"$param": {path}}`.
fn param() -> Value {
    let body = closed(
        vec![("path", json!({"type": "string", "minLength": 1}))],
        &["path"],
    );
    let mut p = closed(vec![(PARAM_KEY, body)], &[PARAM_KEY]);
    p["description"] = "A template hole, filled when a template is instantiated.".into();
    p
}

/// Any value: a single-key object with `$ref` or `$param` must be a well
/// formed reference or hole (beside other keys it is a literal).
fn value() -> Value {
    let only = |key: &str| json!({"type": "object", "required": [key], "maxProperties": 1});
    json!({
        "description": "Any JSON value; a single-key `$ref` or `$param` object is a reference or a hole.",
        "if": only(REF_KEY),
        "then": defs("reference"),
        "else": {
            "if": only(PARAM_KEY),
            "then": defs("param"),
            "else": {"items": defs("value"), "additionalProperties": defs("value")}
        }
    })
}

/// The definition's name in `$defs`: `entryDefinition`, `callDefinition`…
fn definition_name(kind: NodeKind) -> String {
    format!("{}Definition", kind.as_str())
}

/// A node: `{id, phase?, kind, definition}`, its definition by kind.
fn node() -> Value {
    let mut n = closed(
        vec![
            ("id", json!({"type": "string", "pattern": NODE_ID})),
            (
                "phase",
                json!({
                    "type": "string", "minLength": 1, "maxLength": 64, "pattern": PHASE,
                    "not": {"const": crate::model::ids::UNPHASED},
                    "description": "A label for reading; edges alone order execution."
                }),
            ),
            ("kind", json!({ "enum": NodeKind::names() })),
            ("definition", json!({"type": "object"})),
        ],
        &["id", "kind"],
    );
    let by_kind: Vec<Value> = NodeKind::ALL
        .iter()
        .map(|&k| {
            let mut then = json!({"properties": {"definition": defs(&definition_name(k))}});
            // A definition left out is an empty one.
            if shape::fields(k).iter().any(|f| f.required) {
                then["required"] = json!(["definition"]);
            }
            json!({
                "if": {"properties": {"kind": {"const": k.as_str()}}, "required": ["kind"]},
                "then": then
            })
        })
        .collect();
    n["allOf"] = Value::Array(by_kind);
    n
}

/// `^(always|match|…|case_.+)$`, from [`Handle::NAMED`].
fn handle_pattern() -> String {
    format!("^({}|case_.+)$", Handle::NAMED.join("|"))
}

fn edge() -> Value {
    let handles: Vec<String> = NodeKind::ALL
        .iter()
        .map(|k| format!("{}: {}", k, k.allowed_handles().join(", ")))
        .collect();
    closed(
        vec![
            (
                "id",
                json!({"type": "string", "pattern": EDGE_ID, "description": "Left out, one is made: `<from>__<to>`."}),
            ),
            ("from", json!({"type": "string", "pattern": NODE_ID})),
            ("to", json!({"type": "string", "pattern": NODE_ID})),
            (
                "handle",
                json!({
                    "type": "string", "pattern": handle_pattern(), "default": "always",
                    "description": format!("The handle the edge leaves its source by; by the source's kind: {}.", handles.join("; "))
                }),
            ),
        ],
        &["from", "to"],
    )
}

fn bounds() -> Value {
    let one = json!({"type": "integer", "minimum": 1});
    closed(
        Bounds::NAMES.iter().map(|n| (*n, one.clone())).collect(),
        &Bounds::NAMES,
    )
}

fn provenance() -> Value {
    json!({
        "oneOf": [
            closed(
                vec![
                    ("kind", json!({"const": "clone"})),
                    ("parent", json!({"type": "string"})),
                    ("parentDigest", json!({"type": "string"})),
                    ("parentRevision", json!({"type": "integer", "minimum": 0})),
                ],
                &["kind", "parent", "parentDigest", "parentRevision"],
            ),
            closed(
                vec![
                    ("kind", json!({"const": "template"})),
                    ("template", json!({"type": "string"})),
                    ("args", json!({"type": "object", "additionalProperties": defs("value")})),
                ],
                &["kind", "template"],
            ),
        ]
    })
}

/// The schema of one top-level document key.
fn document_key(key: &str) -> Value {
    let states = [State::Editable, State::Reviewable, State::Executable].map(State::as_str);
    match key {
        "$schema" => {
            json!({"type": "string", "description": "The schema an editor validates the document with; planforge ignores it."})
        }
        "formatVersion" => json!({"const": 1}),
        "planId" => json!({"type": "string", "pattern": PLAN_ID}),
        "label" => json!({
            "type": "string", "maxLength": crate::model::ids::MAX_LABEL_CHARS, "pattern": "^[^\\n\\r]*$"
        }),
        "state" => json!({
            "enum": states,
            "description": "What the plan was when exported; an import always starts editable."
        }),
        "revision" => json!({"type": "integer", "minimum": 0}),
        "digest" => json!({
            "type": "string", "pattern": "^[0-9a-f]{64}$",
            "description": "SHA-256 of the content; a hand edit must remove it (or export with --no-digest)."
        }),
        "bounds" => defs("bounds"),
        "nodes" => json!({"type": "array", "items": defs("node")}),
        "edges" => json!({"type": "array", "items": defs("edge")}),
        "provenance" => defs("provenance"),
        _ => json!({}),
    }
}

/// The JSON Schema of plan documents.
pub fn plan_schema() -> Value {
    let mut d = Map::new();
    for (name, v) in [
        ("node", node()),
        ("edge", edge()),
        ("bounds", bounds()),
        ("provenance", provenance()),
        ("declaredField", declared_field()),
        ("reference", reference()),
        ("param", param()),
        ("value", value()),
    ] {
        d.insert(name.into(), v);
    }
    for k in NodeKind::ALL {
        d.insert(definition_name(k), fields_schema(shape::fields(k)));
    }
    let mut s = closed(
        DOCUMENT_KEYS
            .iter()
            .map(|k| (*k, document_key(k)))
            .collect(),
        &[],
    );
    let head = json!({
        "$schema": DIALECT,
        "$id": ID,
        "title": "planforge plan document",
        "description": "A plan as `planforge export` writes it and `import` and `validate` read it (formatVersion 1). Checks that need the whole graph or the registry are left to `planforge validate`.",
    });
    let mut out = head.as_object().cloned().unwrap_or_default();
    if let Some(m) = s.as_object_mut() {
        out.append(m);
    }
    out.insert("$defs".into(), Value::Object(d));
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_key_and_handle_is_in_the_schema() {
        let s = plan_schema();
        assert_eq!(s["$schema"], DIALECT);
        for k in DOCUMENT_KEYS {
            assert!(s["properties"].get(k).is_some(), "{k}");
        }
        assert!(s["properties"].get("$schema").is_some());
        for k in NodeKind::ALL {
            let def = &s["$defs"][definition_name(k)];
            for f in shape::fields(k) {
                assert!(def["properties"].get(f.name).is_some(), "{k}.{}", f.name);
            }
        }
        let text = s.to_string();
        for h in Handle::NAMED {
            assert!(text.contains(h), "{h}");
        }
        assert_eq!(
            s["$defs"]["node"]["allOf"].as_array().map(Vec::len),
            Some(7)
        );
    }
}
