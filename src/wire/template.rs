//! The wire form of a plan template (SPEC §9): the document
//! `{id, summary, params, nodes, edges, bounds?}`, in YAML or JSON, whose
//! definitions may hold holes (`{"$param": {"path": …}}`, read as real
//! `Param`s and written back in that form).

use super::codec;
use super::parse::{ParseError, Syntax};
use crate::model::{Bounds, Content, DeclaredField, Edge, Map, Node, NodeKind, Value};

/// The keys a template document may have, in the order they are written.
pub(crate) const TEMPLATE_KEYS: [&str; 6] = ["id", "summary", "params", "nodes", "edges", "bounds"];

/// A template document, read and hydrated (holes are real `Param`s).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct TemplateDocument {
    pub(crate) id: String,
    pub(crate) summary: String,
    /// Declared params, in declared order.
    pub(crate) params: Vec<DeclaredField>,
    /// The nodes and edges (plan id = the template id; the bounds asked for,
    /// else the defaults).
    pub(crate) content: Content,
    /// The bounds the template asks for (`None`: the defaults).
    pub(crate) bounds: Option<Bounds>,
}

fn err(at: &str, message: impl Into<String>) -> ParseError {
    codec::error(at, message)
}

/// Reads a template document. Refuses what cannot be represented (bad
/// syntax, a malformed hole or reference, a missing key, an unknown key, a
/// malformed param, a node id used twice); everything else is left to the
/// checks.
pub(crate) fn document(text: &str, syntax: Syntax) -> Result<TemplateDocument, ParseError> {
    let v = super::parse::parse(text, syntax)?;
    let v = super::convert::hydrated(v, "")?;
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
    let id = id(m)?;
    let summary = summary(m, &id)?;
    let params = params(m.get("params"), &id)?;
    let nodes = nodes(m, &id)?;
    let edges = edges(m)?;
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
    Ok(TemplateDocument {
        id,
        summary,
        params,
        content,
        bounds,
    })
}

/// Reads `id`: a valid template id.
fn id(m: &Map) -> Result<String, ParseError> {
    match m.get("id") {
        Some(Value::String(s)) if crate::model::ids::is_valid_template_id(s) => Ok(s.to_string()),
        Some(Value::String(s)) => Err(err(
            "/id",
            format!(
                "the template id `{}` is not allowed: template ids are 1–64 lowercase letters, digits, `_` or `-`, starting with a letter or digit",
                crate::model::ids::quote_id(s)
            ),
        )),
        Some(other) => Err(err(
            "/id",
            format!(
                "a template's `id` must be a string, not {}",
                other.type_name()
            ),
        )),
        None => Err(err("", "a template needs an `id`")),
    }
}

/// Reads `summary`: one non-empty line.
fn summary(m: &Map, id: &str) -> Result<String, ParseError> {
    match m.get("summary") {
        Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.to_string()),
        Some(Value::String(_)) => Err(err(
            "/summary",
            format!("template `{id}` has an empty `summary`; say in one line what it is for"),
        )),
        Some(other) => Err(err(
            "/summary",
            format!(
                "template `{id}`'s `summary` must be a string, not {}",
                other.type_name()
            ),
        )),
        None => Err(err(
            "",
            format!("template `{id}` needs a `summary`: one line saying what it is for"),
        )),
    }
}

/// Reads `nodes`: an array of nodes with unique ids.
fn nodes(m: &Map, id: &str) -> Result<Vec<Node>, ParseError> {
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
    Ok(nodes)
}

/// Reads `edges` (optional), minting the ids of edges written without one.
fn edges(m: &Map) -> Result<Vec<Edge>, ParseError> {
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
    Ok(codec::document::named_edges(raw))
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

/// A template as a document value (wire form), keys in [`TEMPLATE_KEYS`]
/// order: its id, summary, params, the content's nodes and edges, and the
/// bounds it asks for.
#[cfg(test)]
pub(crate) fn document_json(
    id: &str,
    summary: &str,
    params: &[DeclaredField],
    content: &Content,
    bounds: Option<&Bounds>,
) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("id".into(), id.into());
    m.insert("summary".into(), summary.into());
    m.insert(
        "params".into(),
        serde_json::Value::Array(params.iter().map(param_json).collect()),
    );
    m.insert(
        "nodes".into(),
        serde_json::Value::Array(content.nodes.iter().map(codec::node_json).collect()),
    );
    m.insert(
        "edges".into(),
        serde_json::Value::Array(content.edges.iter().map(codec::edge_json).collect()),
    );
    if let Some(b) = bounds {
        m.insert("bounds".into(), codec::bounds_json(b));
    }
    serde_json::Value::Object(m)
}

/// A declared field in wire form.
pub(crate) fn param_json(p: &DeclaredField) -> serde_json::Value {
    super::convert::to_json(&p.to_value())
}
