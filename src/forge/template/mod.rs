//! Plan templates (SPEC §9): `{id, summary, params, nodes, edges, bounds?}`
//! whose definitions may hold holes (`Param`), in YAML or JSON.
//!
//! Templates come from the built-ins embedded in the binary (generated from
//! the orchestration emitter, see [`builtin`]) and from the store's
//! `templates/` folder, one file each, named after the template's id. Each
//! one is checked when it is loaded (`unknown_param`, `unknown_tool`,
//! `param_not_declassified`); a template with a blocking finding is refused.
//! Instantiation converts the args by their params' types (`invalid_args`)
//! and fills every hole.

pub mod builtin;

use crate::model::Issue;
use crate::model::registry::Registry;
use crate::model::{Bounds, Content, DeclaredField, Edge, Map, Node, NodeKind, Value};
use crate::wire::codec;
use crate::wire::parse::{ParseError, Syntax};
use std::path::Path;

/// The keys a template document may have, in the order they are written.
pub const TEMPLATE_KEYS: [&str; 6] = ["id", "summary", "params", "nodes", "edges", "bounds"];

/// Where a template was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Embedded in the binary.
    Builtin,
    /// A file of the store's `templates/` folder (its name).
    Store(String),
}

impl Origin {
    /// `built-in` or `templates/<file>`.
    pub fn describe(&self) -> String {
        match self {
            Origin::Builtin => "built-in".into(),
            Origin::Store(f) => format!("templates/{f}"),
        }
    }
}

/// A template, read and hydrated (holes are real `Param`s).
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    pub id: String,
    pub summary: String,
    /// Declared params, in declared order (the order args are checked in).
    pub params: Vec<DeclaredField>,
    /// The nodes and edges (plan id = the template id; default bounds).
    pub content: Content,
    /// The bounds the template asks for (`None`: the defaults).
    pub bounds: Option<Bounds>,
    pub origin: Origin,
}

/// Template id: `^[a-z0-9][a-z0-9_-]{0,63}$` (it is also a file name).
pub fn is_valid_template_id(s: &str) -> bool {
    let b = s.as_bytes();
    (1..=64).contains(&b.len())
        && (b[0].is_ascii_lowercase() || b[0].is_ascii_digit())
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_' || *c == b'-')
}

fn err(at: &str, message: impl Into<String>) -> ParseError {
    codec::error(at, message)
}

/// Reads a template document. Refuses what cannot be represented (bad
/// syntax, a malformed hole or reference, a missing key, an unknown key, a
/// malformed param, a node id used twice); everything else is left to the
/// checks.
pub fn parse(text: &str, syntax: Syntax, origin: Origin) -> Result<Template, ParseError> {
    let v = crate::wire::parse::parse(text, syntax)?;
    let v = crate::wire::convert::hydrated(v, "")?;
    let m = codec::object(&v, "", "a template")?;
    for k in m.keys() {
        if !TEMPLATE_KEYS.contains(&k.as_str()) {
            let hint = crate::model::suggest::did_you_mean(k, TEMPLATE_KEYS);
            return Err(err(
                &format!("/{k}"),
                format!(
                    "a template has the unknown key `{k}`{hint}; its keys are {}",
                    TEMPLATE_KEYS.join(", ")
                ),
            ));
        }
    }
    let id = match m.get("id") {
        Some(Value::String(s)) if is_valid_template_id(s) => s.clone(),
        Some(Value::String(s)) => {
            return Err(err(
                "/id",
                format!(
                    "the template id `{}` is not allowed: template ids are 1–64 lowercase letters, digits, `_` or `-`, starting with a letter or digit",
                    crate::model::ids::quote_id(s)
                ),
            ));
        }
        Some(other) => {
            return Err(err(
                "/id",
                format!(
                    "a template's `id` must be a string, not {}",
                    other.type_name()
                ),
            ));
        }
        None => return Err(err("", "a template needs an `id`")),
    };
    let summary = match m.get("summary") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(Value::String(_)) => {
            return Err(err(
                "/summary",
                format!("template `{id}` has an empty `summary`; say in one line what it is for"),
            ));
        }
        Some(other) => {
            return Err(err(
                "/summary",
                format!(
                    "template `{id}`'s `summary` must be a string, not {}",
                    other.type_name()
                ),
            ));
        }
        None => {
            return Err(err(
                "",
                format!("template `{id}` needs a `summary`: one line saying what it is for"),
            ));
        }
    };
    let params = params(m.get("params"), &id)?;
    let mut nodes: Vec<Node> = Vec::new();
    match m.get("nodes") {
        Some(Value::Array(a)) => {
            for (i, n) in a.iter().enumerate() {
                let at = format!("/nodes/{i}");
                let node = codec::node(n, &at)?;
                if nodes.iter().any(|x| x.id == node.id) {
                    return Err(err(
                        &format!("{at}/id"),
                        format!(
                            "template `{id}` has two nodes with the id `{}`; node ids are unique",
                            crate::model::ids::quote_id(&node.id)
                        ),
                    ));
                }
                nodes.push(node);
            }
        }
        Some(other) => {
            return Err(err(
                "/nodes",
                format!("`nodes` must be an array, not {}", other.type_name()),
            ));
        }
        None => return Err(err("", format!("template `{id}` needs `nodes`"))),
    }
    let mut raw = Vec::new();
    match m.get("edges") {
        None => {}
        Some(Value::Array(a)) => {
            for (i, e) in a.iter().enumerate() {
                raw.push(codec::edge(e, &format!("/edges/{i}"))?);
            }
        }
        Some(other) => {
            return Err(err(
                "/edges",
                format!("`edges` must be an array, not {}", other.type_name()),
            ));
        }
    }
    let mut taken: std::collections::HashSet<String> =
        raw.iter().filter_map(|e| e.0.clone()).collect();
    let edges: Vec<Edge> = raw
        .into_iter()
        .map(|(eid, from, to, handle)| {
            let eid = eid.unwrap_or_else(|| {
                let minted = codec::mint_edge_id(&from, &to, &handle, |c| taken.contains(c));
                taken.insert(minted.clone());
                minted
            });
            Edge {
                id: eid,
                from,
                to,
                handle,
            }
        })
        .collect();
    let bounds = match m.get("bounds") {
        None | Some(Value::Null) => None,
        Some(b) => Some(codec::bounds(b, "/bounds")?),
    };
    let mut content = Content::empty(id.clone());
    content.nodes = nodes;
    content.edges = edges;
    if let Some(b) = bounds {
        content.bounds = b;
    }
    Ok(Template {
        id,
        summary,
        params,
        content,
        bounds,
        origin,
    })
}

/// Reads `params`: an array of declared fields with unique paths.
fn params(v: Option<&Value>, id: &str) -> Result<Vec<DeclaredField>, ParseError> {
    let Some(v) = v else { return Ok(Vec::new()) };
    // The entry's `input` has exactly the shape of a params list.
    let mut probe = Map::new();
    probe.insert("input".into(), v.clone());
    if let Some(p) = crate::model::shape::check_definition(NodeKind::Entry, &probe).first() {
        let pointer = p
            .pointer
            .strip_prefix("/input")
            .map(|rest| format!("/params{rest}"))
            .unwrap_or_else(|| "/params".into());
        let what = match &p.kind {
            crate::model::shape::ProblemKind::Missing { field, expected } => {
                format!("lacks `{field}` ({expected})")
            }
            crate::model::shape::ProblemKind::Wrong { expected, found } => {
                format!("has {found} where {expected} is expected")
            }
            crate::model::shape::ProblemKind::Unknown { key, allowed } => {
                format!(
                    "has the unknown key `{key}` (a param has {})",
                    allowed.join(", ")
                )
            }
        };
        return Err(err(
            &pointer,
            format!(
                "template `{id}`'s params are declared fields ({{path, type: string|number|boolean|enum, maxBytes?, values?}}); this one {what}"
            ),
        ));
    }
    let fields = crate::model::node::declared_fields(Some(v));
    for (i, f) in fields.iter().enumerate() {
        if f.path.is_empty() {
            return Err(err(
                &format!("/params/{i}/path"),
                format!("template `{id}` has a param with an empty `path`"),
            ));
        }
        if fields[..i].iter().any(|g| g.path == f.path) {
            return Err(err(
                &format!("/params/{i}/path"),
                format!("template `{id}` declares the param `{}` twice", f.path),
            ));
        }
    }
    Ok(fields)
}

/// The template as a document value (wire form), keys in [`TEMPLATE_KEYS`]
/// order.
pub fn to_json(t: &Template) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("id".into(), t.id.clone().into());
    m.insert("summary".into(), t.summary.clone().into());
    m.insert(
        "params".into(),
        serde_json::Value::Array(t.params.iter().map(param_json).collect()),
    );
    m.insert(
        "nodes".into(),
        serde_json::Value::Array(t.content.nodes.iter().map(codec::node_json).collect()),
    );
    m.insert(
        "edges".into(),
        serde_json::Value::Array(t.content.edges.iter().map(codec::edge_json).collect()),
    );
    if let Some(b) = &t.bounds {
        m.insert("bounds".into(), codec::bounds_json(b));
    }
    serde_json::Value::Object(m)
}

/// A declared field in wire form.
pub fn param_json(p: &DeclaredField) -> serde_json::Value {
    use crate::model::FieldType;
    match &p.ty {
        FieldType::String { max_bytes: None } => {
            serde_json::json!({"path": p.path, "type": "string"})
        }
        FieldType::String { max_bytes: Some(n) } => {
            serde_json::json!({"path": p.path, "type": "string", "maxBytes": n})
        }
        FieldType::Number => serde_json::json!({"path": p.path, "type": "number"}),
        FieldType::Boolean => serde_json::json!({"path": p.path, "type": "boolean"}),
        FieldType::Enum(vs) => serde_json::json!({"path": p.path, "type": "enum", "values": vs}),
    }
}

/// Every finding on a template, in catalogue order: `unknown_param`,
/// `unknown_tool` (when a registry is given), `param_not_declassified`.
pub fn check(t: &Template, registry: Option<&Registry>) -> Vec<Issue> {
    let mut out = Vec::new();
    crate::check::unknown_param::find(&t.content, &t.params, &mut out);
    if let Some(reg) = registry
        && let Some(unknown_tool) = crate::check::by_code("unknown_tool")
    {
        let cx = crate::check::Cx::new(&t.content, Some(reg));
        unknown_tool.run(&cx, &mut out);
    }
    crate::check::param_not_declassified::find(&t.content, &mut out);
    out
}

/// Fills every hole of the template's nodes with its param's value.
/// `args` must hold a value for every hole (see `invalid_args::convert_args`
/// and `unknown_param`); a hole without one is an internal error.
pub fn substitute(t: &Template, args: &Map) -> Result<Vec<Node>, String> {
    fn fill(v: &mut Value, args: &Map) -> Result<(), String> {
        match v {
            Value::Param(p) => match args.get(&p.path) {
                Some(x) => {
                    *v = x.clone();
                    Ok(())
                }
                None => Err(p.path.clone()),
            },
            Value::Array(items) => items.iter_mut().try_for_each(|x| fill(x, args)),
            Value::Object(m) => m.values_mut().try_for_each(|x| fill(x, args)),
            _ => Ok(()),
        }
    }
    let mut nodes = t.content.nodes.clone();
    for n in &mut nodes {
        for v in n.definition.values_mut() {
            fill(v, args)?;
        }
    }
    Ok(nodes)
}

/// A file of `templates/` that could not be read as a template.
#[derive(Debug, Clone, PartialEq)]
pub struct Malformed {
    /// The file name.
    pub file: String,
    /// The id the file is named for (its stem).
    pub id: String,
    pub message: String,
}

/// The built-in templates, parsed (they are tested to parse and to be
/// clean against the registry `init` writes).
pub fn builtins() -> Vec<Template> {
    builtin::FILES
        .iter()
        .filter_map(|(_, text)| parse(text, Syntax::Yaml, Origin::Builtin).ok())
        .collect()
}

/// Reads every template file of a store's `templates/` folder (`.yaml`,
/// `.yml`, `.json`; other files are ignored), sorted by file name. A file
/// must be named after its template's id and may not take a built-in's id.
pub fn load_dir(dir: &Path) -> Vec<Result<Template, Malformed>> {
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return vec![Err(Malformed {
            file: String::new(),
            id: "templates".into(),
            message: "templates/ is a symbolic link; planforge does not follow links inside a store, so no template is read from it".into(),
        })];
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, std::path::PathBuf)> = entries
        .filter_map(|e| e.ok())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with('.') && Syntax::from_path(name).is_some())
        .filter(|(name, _)| !name.to_ascii_lowercase().ends_with(".jsonl"))
        .collect();
    files.sort();
    let builtin_ids: Vec<String> = builtins().into_iter().map(|t| t.id).collect();
    let mut seen: Vec<String> = Vec::new();
    files
        .into_iter()
        .map(|(name, path)| {
            let stem = name
                .rsplit_once('.')
                .map(|(s, _)| s.to_string())
                .unwrap_or_else(|| name.clone());
            let malformed = |message: String| Malformed {
                file: name.clone(),
                id: stem.clone(),
                message,
            };
            let kind = std::fs::symlink_metadata(&path).map(|m| m.file_type());
            if kind.as_ref().is_ok_and(|k| k.is_symlink()) {
                return Err(malformed(format!(
                    "templates/{name} is a symbolic link; planforge does not follow links inside a store"
                )));
            }
            // A pipe or a device would block the read (or never end).
            if !kind.as_ref().is_ok_and(|k| k.is_file() || k.is_dir()) {
                return Err(malformed(format!(
                    "templates/{name} is not an ordinary file (a pipe, socket or device); a template is a YAML or JSON file"
                )));
            }
            let text = std::fs::read(&path)
                .map_err(|e| malformed(format!("could not read templates/{name}: {e}")))
                .and_then(|b| {
                    String::from_utf8(b).map_err(|_| {
                        malformed(format!("templates/{name} is not valid UTF-8 text"))
                    })
                })?;
            let syntax = Syntax::from_path(&name).unwrap_or(Syntax::Yaml);
            let t = parse(&text, syntax, Origin::Store(name.clone()))
                .map_err(|e| malformed(format!("templates/{name}: {e}")))?;
            if t.id != stem {
                return Err(malformed(format!(
                    "templates/{name} declares the id `{}`; a template file is named after its id (templates/{}.yaml)",
                    t.id, t.id
                )));
            }
            if builtin_ids.contains(&t.id) {
                return Err(malformed(format!(
                    "templates/{name} takes the id `{}`, which is a built-in template's; choose another id (and file name)",
                    t.id
                )));
            }
            if seen.contains(&t.id) {
                return Err(malformed(format!(
                    "templates/{name} repeats the id `{}` of another file; keep one",
                    t.id
                )));
            }
            seen.push(t.id.clone());
            Ok(t)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = r#"
id: demo
summary: a demo
params:
  - {path: goal, type: string, maxBytes: 100}
  - {path: n, type: number}
nodes:
  - {id: start, kind: entry, definition: {input: []}}
  - id: use
    kind: call
    definition: {tool: t, args: {goal: {$param: {path: goal}}, n: {$param: {path: n}}}}
edges:
  - {from: start, to: use}
"#;

    #[test]
    fn parses_holes_and_mints_edge_ids() {
        let t = parse(T, Syntax::Yaml, Origin::Builtin).unwrap();
        assert_eq!(t.id, "demo");
        assert_eq!(t.params.len(), 2);
        assert_eq!(t.content.edges[0].id, "start__use");
        let args = t.content.nodes[1].definition["args"].as_object().unwrap();
        assert!(matches!(args["goal"], Value::Param(_)));
        // JSON round trip through to_json keeps the template.
        let text = serde_json::to_string(&to_json(&t)).unwrap();
        let back = parse(&text, Syntax::Json, Origin::Builtin).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn refuses_what_cannot_be_a_template() {
        for (bad, needle) in [
            (T.replace("id: demo", "id: Demo"), "not allowed"),
            (
                T.replace("summary: a demo", "summary: ''"),
                "empty `summary`",
            ),
            (
                T.replace("type: number", "type: integer"),
                "params are declared fields",
            ),
            (T.replace("path: n,", "path: goal,"), "twice"),
            (
                T.replace("edges:", "phases: []\nedges:"),
                "unknown key `phases`",
            ),
            (T.replace("{$param: {path: n}}", "{$param: {}}"), "$param"),
        ] {
            let e = parse(&bad, Syntax::Yaml, Origin::Builtin).unwrap_err();
            assert!(e.message.contains(needle), "{needle}: {e}");
        }
    }

    #[test]
    fn substitution_fills_every_hole() {
        let t = parse(T, Syntax::Yaml, Origin::Builtin).unwrap();
        let mut args = Map::new();
        args.insert("goal".into(), "survey".into());
        args.insert("n".into(), Value::Number(3.0));
        let nodes = substitute(&t, &args).unwrap();
        let a = nodes[1].definition["args"].as_object().unwrap();
        assert_eq!(a["goal"], Value::String("survey".into()));
        assert_eq!(a["n"], Value::Number(3.0));
        args.shift_remove("n");
        assert_eq!(substitute(&t, &args).unwrap_err(), "n");
    }

    #[test]
    fn store_files_are_named_after_their_id() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("demo.yaml"), T).unwrap();
        std::fs::write(dir.path().join("other.yaml"), T).unwrap();
        std::fs::write(
            dir.path().join("single.yaml"),
            T.replace("id: demo", "id: single"),
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        let loaded = load_dir(dir.path());
        assert_eq!(loaded.len(), 3);
        assert!(loaded[0].is_ok());
        let other = loaded[1].as_ref().unwrap_err();
        assert!(
            other.message.contains("named after its id"),
            "{}",
            other.message
        );
        let single = loaded[2].as_ref().unwrap_err();
        assert!(single.message.contains("built-in"), "{}", single.message);
    }
}
