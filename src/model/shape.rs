//! The shape of each kind's definition (SPEC §1.1), written once.
//!
//! The same table drives the `missing_field` / `unknown_field` findings, the
//! refusal of wrong types and unknown keys in mutations, and the JSON Schema of
//! the model-facing tools.

use super::node::NodeKind;
use super::value::{Map, Value, push_pointer_token};

/// The placeholder `add-node --scaffold` writes into missing required
/// strings, and `scaffold_placeholder` blocks at freeze until replaced.
pub const PLACEHOLDER: &str = "lorem ipsum";

/// What a value must look like.
#[derive(Debug)]
pub enum Shape {
    Str,
    Bool,
    /// An integer ≥ `min`.
    Int {
        min: u64,
    },
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// Any value (references allowed anywhere inside).
    Any,
    /// An object whose values may be anything.
    Record,
    /// A JSON Schema: an object.
    SchemaObject,
    /// A `$ref`.
    Ref,
    Array(&'static Shape),
    /// A closed object.
    Object(&'static [Field]),
    DeclaredField,
    /// `{text}` or a `$ref`.
    PromptPart,
    /// `{as: value, field}` or `{as: rows}`.
    Emit,
}

#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub shape: &'static Shape,
    pub required: bool,
}

const fn req(name: &'static str, shape: &'static Shape) -> Field {
    Field {
        name,
        shape,
        required: true,
    }
}
const fn opt(name: &'static str, shape: &'static Shape) -> Field {
    Field {
        name,
        shape,
        required: false,
    }
}

static DECLARED_FIELDS: Shape = Shape::Array(&Shape::DeclaredField);
static STRINGS: Shape = Shape::Array(&Shape::Str);
static AUTHORITY: Shape = Shape::Array(&Shape::Object(&[
    req("capability", &Shape::Str),
    req("scope", &Shape::Str),
    req(
        "verb",
        &Shape::Enum(&["list", "read", "create", "update", "delete"]),
    ),
]));
static STEPS: Shape = Shape::Array(&Shape::Object(&[
    req("name", &Shape::Str),
    opt("args", &Shape::Record),
]));
static PROMPT: Shape = Shape::Array(&Shape::PromptPart);
/// `suppress`, allowed on every kind: findings of these codes on this node
/// are not reported by `validate`, each for the reason given.
static SUPPRESSIONS: Shape = Shape::Array(&Shape::Object(&[
    req("code", &Shape::Str),
    req("reason", &Shape::Str),
]));
/// The key every kind's definition may carry for inline suppressions.
pub const SUPPRESS: &str = "suppress";

static ENTRY: &[Field] = &[req("input", &DECLARED_FIELDS), opt(SUPPRESS, &SUPPRESSIONS)];
static CALL: &[Field] = &[
    req("tool", &Shape::Str),
    req("args", &Shape::Record),
    req("output", &DECLARED_FIELDS),
    req("onMissingValue", &Shape::Enum(&["fail", "omit"])),
    req("authority", &AUTHORITY),
    req("replaySafe", &Shape::Bool),
    req("onIndeterminate", &Shape::Enum(&["retry", "halt", "skip"])),
    opt("declassifies", &STRINGS),
    opt(SUPPRESS, &SUPPRESSIONS),
];
static REASON: &[Field] = &[
    req("prompt", &PROMPT),
    req("outputSchema", &Shape::SchemaObject),
    req("maxAttempts", &Shape::Int { min: 1 }),
    opt(SUPPRESS, &SUPPRESSIONS),
];
static TRANSFORM: &[Field] = &[
    req("source", &Shape::Ref),
    req("steps", &STEPS),
    req("emit", &Shape::Emit),
    req("output", &DECLARED_FIELDS),
    opt(SUPPRESS, &SUPPRESSIONS),
];
static BRANCH: &[Field] = &[
    req("evaluator", &Shape::Str),
    req("predicate", &Shape::Any),
    opt(SUPPRESS, &SUPPRESSIONS),
];
static SELECT: &[Field] = &[
    req("evaluator", &Shape::Str),
    req("predicate", &Shape::Any),
    req("cases", &STRINGS),
    opt(SUPPRESS, &SUPPRESSIONS),
];
static JOIN: &[Field] = &[
    opt(
        "kind",
        &Shape::Enum(&[super::node::DIAMOND, super::node::SETTLE]),
    ),
    opt(SUPPRESS, &SUPPRESSIONS),
];

/// The fields of a kind's definition.
pub fn fields(kind: NodeKind) -> &'static [Field] {
    match kind {
        NodeKind::Entry => ENTRY,
        NodeKind::Call => CALL,
        NodeKind::Reason => REASON,
        NodeKind::Transform => TRANSFORM,
        NodeKind::Branch => BRANCH,
        NodeKind::Select => SELECT,
        NodeKind::Join => JOIN,
    }
}

/// One way a definition departs from its kind's shape.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeProblem {
    /// JSON pointer relative to the definition (`/output/0/type`).
    pub pointer: String,
    pub kind: ProblemKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ProblemKind {
    /// A required field is absent.
    Missing { field: String, expected: String },
    /// Present, of the wrong type or value.
    Wrong { expected: String, found: String },
    /// A key this place does not have.
    Unknown {
        key: String,
        allowed: Vec<&'static str>,
    },
}

impl ShapeProblem {
    /// A sentence addressed to the author; `node` is the node id.
    pub fn describe(&self, node: &str, kind: NodeKind) -> String {
        let at = if self.pointer.is_empty() {
            "definition".to_string()
        } else {
            format!("definition{}", self.pointer)
        };
        match &self.kind {
            ProblemKind::Missing { field, expected } => format!(
                "{kind} node `{node}` is missing the required field `{field}` at {at}; add it as {expected}"
            ),
            ProblemKind::Wrong { expected, found } => format!(
                "{kind} node `{node}` has {found} at {at} where {expected} is expected; replace it with {expected}"
            ),
            ProblemKind::Unknown { key, allowed } => {
                let parent = at.rsplit_once('/').map(|(p, _)| p).unwrap_or("definition");
                let hint = crate::model::suggest::did_you_mean(key, allowed.iter().copied());
                format!(
                    "{kind} node `{node}` has the key `{key}` at {parent}, which {} definition does not have{hint}; remove it (allowed keys: {})",
                    kind.a(),
                    allowed.join(", ")
                )
            }
        }
    }
}

/// Checks a definition against its kind's shape, collecting every problem.
pub fn check_definition(kind: NodeKind, def: &Map) -> Vec<ShapeProblem> {
    let mut out = Vec::new();
    let mut ptr = Path::default();
    check_fields(fields(kind), def, &mut ptr, &mut out);
    out
}

/// Where the walk is in a definition: the steps from its root, written as a
/// JSON pointer only for a problem (almost no definition has one, and
/// writing the pointer of every field visited was most of the walk's cost).
#[derive(Default)]
struct Path(Vec<Step>);

#[derive(Clone, Copy)]
enum Step {
    Field(&'static str),
    Item(usize),
}

impl Path {
    /// The pointer of `key` in the object the path names.
    fn member(&self, key: &str) -> String {
        let mut p = self.to_string();
        p.push('/');
        push_pointer_token(&mut p, key);
        p
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for step in &self.0 {
            match step {
                Step::Field(name) => {
                    let mut token = String::new();
                    push_pointer_token(&mut token, name);
                    write!(f, "/{token}")?;
                }
                Step::Item(i) => write!(f, "/{i}")?,
            }
        }
        Ok(())
    }
}

fn check_fields(fields: &'static [Field], obj: &Map, ptr: &mut Path, out: &mut Vec<ShapeProblem>) {
    for f in fields {
        match obj.get(f.name) {
            Some(v) => {
                ptr.0.push(Step::Field(f.name));
                check(f.shape, v, ptr, out);
                ptr.0.pop();
            }
            None if f.required => out.push(ShapeProblem {
                pointer: ptr.member(f.name),
                kind: ProblemKind::Missing {
                    field: f.name.into(),
                    expected: describe(f.shape),
                },
            }),
            None => {}
        }
    }
    for key in obj.keys() {
        if !fields.iter().any(|f| f.name == key) {
            out.push(ShapeProblem {
                pointer: ptr.member(key),
                kind: ProblemKind::Unknown {
                    key: key.to_string(),
                    allowed: fields.iter().map(|f| f.name).collect(),
                },
            });
        }
    }
}

fn wrong(shape: &Shape, v: &Value, ptr: &dyn std::fmt::Display, out: &mut Vec<ShapeProblem>) {
    let found = match v {
        Value::String(s) if s.len() <= 40 => format!("the string {:?}", s),
        Value::Number(n) => format!("the number {}", crate::model::number::number(*n)),
        other => other.type_name().to_string(),
    };
    out.push(ShapeProblem {
        pointer: ptr.to_string(),
        kind: ProblemKind::Wrong {
            expected: describe(shape),
            found,
        },
    });
}

fn check(shape: &'static Shape, v: &Value, ptr: &mut Path, out: &mut Vec<ShapeProblem>) {
    match shape {
        Shape::Any => {}
        Shape::Str => {
            if v.as_str().is_none() {
                wrong(shape, v, ptr, out)
            }
        }
        Shape::Bool => {
            if v.as_bool().is_none() {
                wrong(shape, v, ptr, out)
            }
        }
        Shape::Int { min } => match v.as_u64() {
            Some(n) if n >= *min => {}
            _ => wrong(shape, v, ptr, out),
        },
        Shape::Enum(choices) => match v.as_str() {
            Some(s) if choices.contains(&s) => {}
            _ => wrong(shape, v, ptr, out),
        },
        Shape::Record | Shape::SchemaObject => {
            if v.as_object().is_none() {
                wrong(shape, v, ptr, out)
            }
        }
        Shape::Ref => {
            if v.as_ref_value().is_none() {
                wrong(shape, v, ptr, out)
            }
        }
        Shape::Array(item) => match v.as_array() {
            Some(items) => {
                for (i, it) in items.iter().enumerate() {
                    ptr.0.push(Step::Item(i));
                    check(item, it, ptr, out);
                    ptr.0.pop();
                }
            }
            None => wrong(shape, v, ptr, out),
        },
        Shape::Object(fields) => match v.as_object() {
            Some(m) => check_fields(fields, m, ptr, out),
            None => wrong(shape, v, ptr, out),
        },
        Shape::PromptPart => match v {
            Value::Ref(_) => {}
            Value::Object(m) => check_fields(TEXT_PART, m, ptr, out),
            _ => wrong(shape, v, ptr, out),
        },
        Shape::Emit => match v.as_object() {
            Some(m) => match m.get("as").and_then(Value::as_str) {
                Some("value") => check_fields(EMIT_VALUE, m, ptr, out),
                Some("rows") => check_fields(EMIT_ROWS, m, ptr, out),
                _ => {
                    let p = ptr.member("as");
                    match m.get("as") {
                        None => out.push(ShapeProblem {
                            pointer: p,
                            kind: ProblemKind::Missing {
                                field: "as".into(),
                                expected: "\"value\" or \"rows\"".into(),
                            },
                        }),
                        Some(found) => wrong(&Shape::Enum(&["value", "rows"]), found, &p, out),
                    }
                }
            },
            None => wrong(shape, v, ptr, out),
        },
        Shape::DeclaredField => check_declared_field(v, ptr, out),
    }
}

static TEXT_PART: &[Field] = &[req("text", &Shape::Str)];
static EMIT_VALUE: &[Field] = &[req("as", &Shape::Str), req("field", &Shape::Str)];
static EMIT_ROWS: &[Field] = &[req("as", &Shape::Str)];
static DF_STRING: &[Field] = &[
    req("path", &Shape::Str),
    req("type", &Shape::Str),
    opt("maxBytes", &Shape::Int { min: 1 }),
];
static DF_PLAIN: &[Field] = &[req("path", &Shape::Str), req("type", &Shape::Str)];
static ENUM_VALUES: Shape = Shape::Array(&Shape::Str);
static DF_ENUM: &[Field] = &[
    req("path", &Shape::Str),
    req("type", &Shape::Str),
    req("values", &ENUM_VALUES),
];

fn check_declared_field(v: &Value, ptr: &mut Path, out: &mut Vec<ShapeProblem>) {
    let Some(m) = v.as_object() else {
        return wrong(&Shape::DeclaredField, v, ptr, out);
    };
    let fields = match m.get("type").and_then(Value::as_str) {
        Some("string") => DF_STRING,
        Some("number") | Some("boolean") => DF_PLAIN,
        Some("enum") => {
            if let Some(vals) = m.get("values").and_then(Value::as_array)
                && vals.is_empty()
            {
                out.push(ShapeProblem {
                    pointer: format!("{ptr}/values"),
                    kind: ProblemKind::Wrong {
                        expected: "at least one string".into(),
                        found: "an empty array".into(),
                    },
                });
            }
            DF_ENUM
        }
        _ => {
            let p = format!("{ptr}/type");
            match m.get("type") {
                None => out.push(ShapeProblem {
                    pointer: p,
                    kind: ProblemKind::Missing {
                        field: "type".into(),
                        expected: "one of string, number, boolean, enum".into(),
                    },
                }),
                Some(t) => wrong(
                    &Shape::Enum(&["string", "number", "boolean", "enum"]),
                    t,
                    &p,
                    out,
                ),
            }
            if m.get("path").and_then(Value::as_str).is_none() {
                out.push(ShapeProblem {
                    pointer: format!("{ptr}/path"),
                    kind: ProblemKind::Missing {
                        field: "path".into(),
                        expected: "a string".into(),
                    },
                });
            }
            return;
        }
    };
    check_fields(fields, m, ptr, out);
}

/// How a shape is named in messages.
pub fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Str => "a string".into(),
        Shape::Bool => "a boolean (true or false)".into(),
        Shape::Int { min } => format!("an integer ≥ {min}"),
        Shape::Enum(c) => format!(
            "one of {}",
            c.iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Shape::Any => "any value".into(),
        Shape::Record => "an object of named values".into(),
        Shape::SchemaObject => "a JSON Schema object".into(),
        Shape::Ref => "a reference ({\"$ref\": {\"node\": …, \"select\": …}})".into(),
        Shape::Array(item) => match item {
            Shape::DeclaredField => {
                "an array of declared fields ({path, type: string|number|boolean|enum})".into()
            }
            Shape::PromptPart => "an array of prompt parts (each {\"text\": …} or a $ref)".into(),
            other => format!("an array of {}", strip_article(&describe(other))),
        },
        Shape::Object(fields) => {
            let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
            format!("an object {{{}}}", names.join(", "))
        }
        Shape::DeclaredField => {
            "a declared field ({path, type: string|number|boolean|enum})".into()
        }
        Shape::PromptPart => "a prompt part ({\"text\": …} or a $ref)".into(),
        Shape::Emit => "{\"as\": \"value\", \"field\": …} or {\"as\": \"rows\"}".into(),
    }
}

fn strip_article(s: &str) -> String {
    s.strip_prefix("a ")
        .or_else(|| s.strip_prefix("an "))
        .map(|r| format!("{r}s"))
        .unwrap_or_else(|| s.to_string())
}

/// Required string fields of a kind, for `--scaffold` (which fills them with
/// the placeholder `lorem ipsum`).
pub fn required_string_fields(kind: NodeKind) -> impl Iterator<Item = &'static str> {
    fields(kind)
        .iter()
        .filter(|f| f.required && matches!(f.shape, Shape::Str))
        .map(|f| f.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::value::Ref;

    fn obj(pairs: Vec<(&str, Value)>) -> Map {
        pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
    }

    #[test]
    fn complete_call_has_no_problems() {
        let def = obj(vec![
            ("tool", "t".into()),
            ("args", Value::Object(Map::new())),
            (
                "output",
                Value::Array(vec![Value::Object(obj(vec![
                    ("path", "x".into()),
                    ("type", "string".into()),
                ]))]),
            ),
            ("onMissingValue", "fail".into()),
            ("authority", Value::Array(vec![])),
            ("replaySafe", true.into()),
            ("onIndeterminate", "halt".into()),
        ]);
        assert_eq!(check_definition(NodeKind::Call, &def), vec![]);
    }

    #[test]
    fn missing_wrong_and_unknown_are_all_reported() {
        let def = obj(vec![("tool", Value::Number(3.0)), ("bogus", true.into())]);
        let problems = check_definition(NodeKind::Call, &def);
        assert!(
            problems
                .iter()
                .any(|p| p.pointer == "/tool" && matches!(p.kind, ProblemKind::Wrong { .. }))
        );
        assert!(
            problems
                .iter()
                .any(|p| p.pointer == "/args" && matches!(p.kind, ProblemKind::Missing { .. }))
        );
        assert!(
            problems
                .iter()
                .any(|p| p.pointer == "/bogus" && matches!(p.kind, ProblemKind::Unknown { .. }))
        );
    }

    #[test]
    fn transform_source_must_be_a_ref() {
        let mut def = obj(vec![
            ("source", Value::String("x".into())),
            ("steps", Value::Array(vec![])),
            ("emit", Value::Object(obj(vec![("as", "rows".into())]))),
            ("output", Value::Array(vec![])),
        ]);
        assert_eq!(check_definition(NodeKind::Transform, &def).len(), 1);
        def.insert("source".into(), Ref::new("a").into());
        assert!(check_definition(NodeKind::Transform, &def).is_empty());
    }

    #[test]
    fn enum_field_needs_values() {
        let def = obj(vec![(
            "input",
            Value::Array(vec![Value::Object(obj(vec![
                ("path", "x".into()),
                ("type", "enum".into()),
            ]))]),
        )]);
        let p = check_definition(NodeKind::Entry, &def);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].pointer, "/input/0/values");
    }
}
