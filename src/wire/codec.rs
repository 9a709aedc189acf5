//! Wire ⇄ model for nodes, edges, bounds, provenance, ops and plan documents.
//!
//! Decoding takes hydrated values (references already converted) and refuses
//! only what cannot be represented (SPEC §1.1 "shape vs findings"); everything
//! else is kept for the checks to report.

use super::convert::{map_to_json, to_json};
use super::parse::{ParseError, Syntax};
use crate::model::ids;
use crate::model::value::{MAX_SAFE_INTEGER, Map, Value, push_pointer_token};
use crate::model::{Bounds, Content, Edge, Handle, Node, NodeKind, Op, OpBody, Provenance};
use serde_json::json;

pub fn error(at: &str, message: impl Into<String>) -> ParseError {
    ParseError {
        message: message.into(),
        pointer: Some(at.to_string()),
        line: None,
        column: None,
    }
}

fn child(at: &str, key: &str) -> String {
    let mut p = at.to_string();
    p.push('/');
    push_pointer_token(&mut p, key);
    p
}

pub fn object<'v>(v: &'v Value, at: &str, what: &str) -> Result<&'v Map, ParseError> {
    v.as_object().ok_or_else(|| {
        error(
            at,
            format!("{what} must be an object, not {}", v.type_name()),
        )
    })
}

fn closed(m: &Map, at: &str, what: &str, allowed: &[&str]) -> Result<(), ParseError> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            let hint = crate::model::suggest::did_you_mean(k, allowed.iter().copied());
            return Err(error(
                &child(at, k),
                format!(
                    "{what} has the unknown key `{k}`{hint}; allowed keys: {}",
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn req_str<'v>(m: &'v Map, key: &str, at: &str, what: &str) -> Result<&'v str, ParseError> {
    match m.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(error(
            &child(at, key),
            format!(
                "{what}'s `{key}` must be a string, not {}",
                other.type_name()
            ),
        )),
        None => Err(error(at, format!("{what} needs `{key}`"))),
    }
}

fn opt_str<'v>(m: &'v Map, key: &str, at: &str, what: &str) -> Result<Option<&'v str>, ParseError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(error(
            &child(at, key),
            format!(
                "{what}'s `{key}` must be a string, not {}",
                other.type_name()
            ),
        )),
    }
}

fn req_u64(m: &Map, key: &str, at: &str, what: &str) -> Result<u64, ParseError> {
    match m.get(key) {
        Some(v) => v.as_u64().ok_or_else(|| {
            error(
                &child(at, key),
                format!(
                    "{what}'s `{key}` must be a non-negative integer, not {}",
                    super::json::compact(v)
                ),
            )
        }),
        None => Err(error(at, format!("{what} needs `{key}`"))),
    }
}

/// Takes the object at `key` out of `m` (leaving an empty object), so a
/// large definition is moved instead of copied by the owned decoders.
fn take_object(m: Option<&mut Value>, key: &str) -> Option<Map> {
    let Some(Value::Object(m)) = m else {
        return None;
    };
    match m.get_mut(key) {
        Some(slot @ Value::Object(_)) => match std::mem::replace(slot, Value::Object(Map::new())) {
            Value::Object(taken) => Some(taken),
            _ => None,
        },
        _ => None,
    }
}

/// As [`node`], consuming the value (the definition is moved, not copied).
pub fn node_owned(mut v: Value, at: &str) -> Result<Node, ParseError> {
    let def = take_object(Some(&mut v), "definition");
    let mut n = node(&v, at)?;
    if let Some(d) = def {
        n.definition = d;
    }
    Ok(n)
}

/// As [`op`], consuming the value (node definitions and values are moved).
pub fn op_owned(mut v: Value, at: &str) -> Result<Op, ParseError> {
    let mut node_def = None;
    let mut definition = None;
    let mut value = None;
    if let Value::Object(m) = &mut v {
        node_def = take_object(m.get_mut("node"), "definition");
        value = m
            .get_mut("value")
            .map(|slot| std::mem::replace(slot, Value::Null));
    }
    if let Value::Object(m) = &v
        && m.get("op").and_then(Value::as_str) == Some("set_node_definition")
    {
        definition = take_object(Some(&mut v), "definition");
    }
    let mut o = op(&v, at)?;
    match &mut o.body {
        OpBody::AddNode { node } => {
            if let Some(d) = node_def {
                node.definition = d;
            }
        }
        OpBody::SetNodeDefinition {
            definition: slot, ..
        } => {
            if let Some(d) = definition {
                *slot = d;
            }
        }
        OpBody::SetNodeField { value: slot, .. } => {
            if let Some(val) = value {
                *slot = val;
            }
        }
        _ => {}
    }
    Ok(o)
}

/// As [`document_from_value`], consuming the value.
pub fn document_owned(mut v: Value) -> Result<Document, ParseError> {
    let mut defs: Vec<Option<Map>> = Vec::new();
    if let Value::Object(m) = &mut v
        && let Some(Value::Array(nodes)) = m.get_mut("nodes")
    {
        defs = nodes
            .iter_mut()
            .map(|n| take_object(Some(n), "definition"))
            .collect();
    }
    let mut doc = document_from_value(&v)?;
    for (n, d) in doc.nodes.iter_mut().zip(defs) {
        if let Some(d) = d {
            n.definition = d;
        }
    }
    Ok(doc)
}

/// A node from its wire object: `{id, phase?, kind, definition}`.
pub fn node(v: &Value, at: &str) -> Result<Node, ParseError> {
    let m = object(v, at, "a node")?;
    closed(m, at, "a node", &["id", "phase", "kind", "definition"])?;
    let id = match m.get("id") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => {
            return Err(error(
                &child(at, "id"),
                format!("a node's `id` must be a string, not {}", other.type_name()),
            ));
        }
        None => {
            return Err(error(
                at,
                "a node needs an `id` (lowercase letters, digits and underscores, at most 64)",
            ));
        }
    };
    let what = format!("node `{}`", ids::quote_id(&id));
    let kind = match m.get("kind") {
        Some(Value::String(k)) => NodeKind::parse(k).ok_or_else(|| {
            let hint = crate::model::suggest::did_you_mean(k, NodeKind::names());
            error(
                &child(at, "kind"),
                format!(
                    "{what} has the unknown kind `{k}`{hint}; the kinds are {}",
                    NodeKind::names().join(", ")
                ),
            )
        })?,
        Some(other) => {
            return Err(error(
                &child(at, "kind"),
                format!(
                    "{what}'s `kind` must be a string, not {}",
                    other.type_name()
                ),
            ));
        }
        None => {
            return Err(error(
                at,
                format!(
                    "{what} needs a `kind`: one of {}",
                    NodeKind::names().join(", ")
                ),
            ));
        }
    };
    let phase = opt_str(m, "phase", at, &what)?
        .filter(|p| !p.is_empty())
        .map(str::to_string);
    let definition = match m.get("definition") {
        None => Map::new(),
        Some(Value::Object(d)) => d.clone(),
        Some(other) => {
            return Err(error(
                &child(at, "definition"),
                format!(
                    "{what}'s `definition` must be an object, not {}",
                    other.type_name()
                ),
            ));
        }
    };
    Ok(Node {
        id,
        phase,
        kind,
        definition,
    })
}

pub fn node_json(n: &Node) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("id".into(), n.id.clone().into());
    if let Some(p) = &n.phase {
        m.insert("phase".into(), p.clone().into());
    }
    m.insert("kind".into(), n.kind.as_str().into());
    m.insert("definition".into(), map_to_json(&n.definition));
    serde_json::Value::Object(m)
}

/// An edge from its wire object. `id` may be absent (the caller mints one).
pub fn edge(v: &Value, at: &str) -> Result<(Option<String>, String, String, Handle), ParseError> {
    let m = object(v, at, "an edge")?;
    closed(m, at, "an edge", &["id", "from", "to", "handle"])?;
    let id = opt_str(m, "id", at, "an edge")?.map(str::to_string);
    let from = req_str(m, "from", at, "an edge")?.to_string();
    let to = req_str(m, "to", at, "an edge")?.to_string();
    let handle = Handle::parse(opt_str(m, "handle", at, "an edge")?.unwrap_or("always"));
    Ok((id, from, to, handle))
}

pub fn edge_json(e: &Edge) -> serde_json::Value {
    json!({"id": e.id, "from": e.from, "to": e.to, "handle": e.handle.as_str()})
}

pub fn bounds(v: &Value, at: &str) -> Result<Bounds, ParseError> {
    let m = object(v, at, "bounds")?;
    closed(m, at, "bounds", &Bounds::NAMES)?;
    let mut vals = [0u64; 5];
    for (i, name) in Bounds::NAMES.iter().enumerate() {
        let n = req_u64(m, name, at, "bounds")?;
        if n < 1 {
            return Err(error(
                &child(at, name),
                format!("bounds' `{name}` must be at least 1"),
            ));
        }
        vals[i] = n;
    }
    Ok(Bounds::from_members(vals))
}

pub fn bounds_json(b: &Bounds) -> serde_json::Value {
    serde_json::Value::Object(
        b.members()
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect(),
    )
}

pub fn provenance(v: &Value, at: &str) -> Result<Provenance, ParseError> {
    let m = object(v, at, "provenance")?;
    match req_str(m, "kind", at, "provenance")? {
        "clone" => {
            closed(
                m,
                at,
                "clone provenance",
                &["kind", "parent", "parentDigest", "parentRevision"],
            )?;
            Ok(Provenance::Clone {
                parent: req_str(m, "parent", at, "provenance")?.to_string(),
                parent_digest: req_str(m, "parentDigest", at, "provenance")?.to_string(),
                parent_revision: req_u64(m, "parentRevision", at, "provenance")?,
            })
        }
        "template" => {
            closed(m, at, "template provenance", &["kind", "template", "args"])?;
            let args = match m.get("args") {
                None => Map::new(),
                Some(a) => object(a, &child(at, "args"), "template provenance args")?.clone(),
            };
            Ok(Provenance::Template {
                template: req_str(m, "template", at, "provenance")?.to_string(),
                args,
            })
        }
        other => Err(error(
            &child(at, "kind"),
            format!("provenance kind `{other}` is unknown; it is \"clone\" or \"template\""),
        )),
    }
}

pub fn provenance_json(p: &Provenance) -> serde_json::Value {
    match p {
        Provenance::Clone {
            parent,
            parent_digest,
            parent_revision,
        } => json!({
            "kind": "clone", "parent": parent, "parentDigest": parent_digest, "parentRevision": parent_revision
        }),
        Provenance::Template { template, args } => json!({
            "kind": "template", "template": template, "args": map_to_json(args)
        }),
    }
}

/// One line of `ops.jsonl`.
pub fn op(v: &Value, at: &str) -> Result<Op, ParseError> {
    let m = object(v, at, "an op")?;
    let op_id = req_str(m, "opId", at, "an op")?.to_string();
    let actor_id = req_str(m, "actorId", at, "an op")?.to_string();
    let lamport = req_u64(m, "lamport", at, "an op")?;
    let at_time = req_str(m, "at", at, "an op")?.to_string();
    let tx = req_str(m, "tx", at, "an op")?.to_string();
    let tx_end = match m.get("txEnd") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            return Err(error(
                &child(at, "txEnd"),
                "an op's `txEnd` must be a boolean",
            ));
        }
    };
    let kind = req_str(m, "op", at, "an op")?;
    let common = ["opId", "actorId", "lamport", "at", "tx", "txEnd", "op"];
    let allow = |extra: &[&str]| -> Result<(), ParseError> {
        let all: Vec<&str> = common.iter().chain(extra.iter()).copied().collect();
        closed(m, at, &format!("a {kind} op"), &all)
    };
    let body = match kind {
        "add_node" => {
            allow(&["node"])?;
            OpBody::AddNode {
                node: node(
                    m.get("node")
                        .ok_or_else(|| error(at, "add_node needs `node`"))?,
                    &child(at, "node"),
                )?,
            }
        }
        "remove_node" => {
            allow(&["nodeId", "incidentEdgeIds"])?;
            let ids = match m.get("incidentEdgeIds") {
                None => Vec::new(),
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|e| e.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| {
                        error(
                            &child(at, "incidentEdgeIds"),
                            "incidentEdgeIds must be strings",
                        )
                    })?,
                Some(_) => {
                    return Err(error(
                        &child(at, "incidentEdgeIds"),
                        "incidentEdgeIds must be an array",
                    ));
                }
            };
            OpBody::RemoveNode {
                node_id: req_str(m, "nodeId", at, "an op")?.to_string(),
                incident_edge_ids: ids,
            }
        }
        "set_node_field" => {
            allow(&["nodeId", "path", "value"])?;
            let path = req_str(m, "path", at, "an op")?;
            // Each segment is a level the fold creates: a path deeper than any
            // value may be would build a definition nothing can walk safely.
            if path.split('.').count() > super::parse::MAX_DEPTH {
                return Err(error(
                    &child(at, "path"),
                    format!(
                        "a set_node_field path has more than {} segments",
                        super::parse::MAX_DEPTH
                    ),
                ));
            }
            OpBody::SetNodeField {
                node_id: req_str(m, "nodeId", at, "an op")?.to_string(),
                path: path.to_string(),
                value: m.get("value").cloned().unwrap_or(Value::Null),
            }
        }
        "set_node_definition" => {
            allow(&["nodeId", "definition"])?;
            let d = m
                .get("definition")
                .ok_or_else(|| error(at, "set_node_definition needs `definition`"))?;
            OpBody::SetNodeDefinition {
                node_id: req_str(m, "nodeId", at, "an op")?.to_string(),
                definition: object(d, &child(at, "definition"), "a definition")?.clone(),
            }
        }
        "set_node_phase" => {
            allow(&["nodeId", "phase"])?;
            OpBody::SetNodePhase {
                node_id: req_str(m, "nodeId", at, "an op")?.to_string(),
                phase: opt_str(m, "phase", at, "an op")?
                    .filter(|p| !p.is_empty())
                    .map(str::to_string),
            }
        }
        "add_edge" => {
            allow(&["edge"])?;
            let e = m
                .get("edge")
                .ok_or_else(|| error(at, "add_edge needs `edge`"))?;
            let (id, from, to, handle) = edge(e, &child(at, "edge"))?;
            let id = id.ok_or_else(|| error(&child(at, "edge"), "a stored edge needs an `id`"))?;
            OpBody::AddEdge {
                edge: Edge {
                    id,
                    from,
                    to,
                    handle,
                },
            }
        }
        "remove_edge" => {
            allow(&["edgeId"])?;
            OpBody::RemoveEdge {
                edge_id: req_str(m, "edgeId", at, "an op")?.to_string(),
            }
        }
        "set_bounds" => {
            allow(&["bounds"])?;
            OpBody::SetBounds {
                bounds: bounds(
                    m.get("bounds")
                        .ok_or_else(|| error(at, "set_bounds needs `bounds`"))?,
                    &child(at, "bounds"),
                )?,
            }
        }
        other => {
            return Err(error(
                &child(at, "op"),
                format!("unknown op kind `{other}`"),
            ));
        }
    };
    Ok(Op {
        op_id,
        actor_id,
        lamport,
        at: at_time,
        tx,
        tx_end,
        body,
    })
}

pub fn op_json(o: &Op) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("opId".into(), o.op_id.clone().into());
    m.insert("actorId".into(), o.actor_id.clone().into());
    m.insert("lamport".into(), o.lamport.into());
    m.insert("at".into(), o.at.clone().into());
    m.insert("tx".into(), o.tx.clone().into());
    if o.tx_end {
        m.insert("txEnd".into(), true.into());
    }
    m.insert("op".into(), o.body.kind().into());
    match &o.body {
        OpBody::AddNode { node } => {
            m.insert("node".into(), node_json(node));
        }
        OpBody::RemoveNode {
            node_id,
            incident_edge_ids,
        } => {
            m.insert("nodeId".into(), node_id.clone().into());
            m.insert("incidentEdgeIds".into(), json!(incident_edge_ids));
        }
        OpBody::SetNodeField {
            node_id,
            path,
            value,
        } => {
            m.insert("nodeId".into(), node_id.clone().into());
            m.insert("path".into(), path.clone().into());
            m.insert("value".into(), to_json(value));
        }
        OpBody::SetNodeDefinition {
            node_id,
            definition,
        } => {
            m.insert("nodeId".into(), node_id.clone().into());
            m.insert("definition".into(), map_to_json(definition));
        }
        OpBody::SetNodePhase { node_id, phase } => {
            m.insert("nodeId".into(), node_id.clone().into());
            m.insert(
                "phase".into(),
                phase
                    .clone()
                    .map(serde_json::Value::from)
                    .unwrap_or(serde_json::Value::Null),
            );
        }
        OpBody::AddEdge { edge } => {
            m.insert("edge".into(), edge_json(edge));
        }
        OpBody::RemoveEdge { edge_id } => {
            m.insert("edgeId".into(), edge_id.clone().into());
        }
        OpBody::SetBounds { bounds } => {
            m.insert("bounds".into(), bounds_json(bounds));
        }
    }
    serde_json::Value::Object(m)
}

/// How many levels a value takes in wire form (a scalar takes none).
pub fn wire_depth(v: &Value) -> usize {
    match v {
        Value::Array(items) => 1 + items.iter().map(wire_depth).max().unwrap_or(0),
        Value::Object(m) => map_depth(m),
        // {"$ref": {"node", "select", "branchId": {"segments": [{"join", "of": [..]}]}}}
        Value::Ref(_) => 6,
        // {"$param": {"path"}}
        Value::Param(_) => 2,
        _ => 0,
    }
}

/// [`wire_depth`] of an object.
pub fn map_depth(m: &Map) -> usize {
    1 + m.values().map(wire_depth).max().unwrap_or(0)
}

/// The deepest a definition may nest: a plan document holds it three levels
/// down (document → nodes → node), and JSON documents are read up to
/// [`MAX_DEPTH`](super::parse::MAX_DEPTH) levels, so an exported plan always
/// reads back.
pub const MAX_DEFINITION_DEPTH: usize = super::parse::MAX_DEPTH - 4;

/// One op as its `ops.jsonl` line (without the newline).
pub fn op_line(o: &Op) -> String {
    serde_json::to_string(&op_json(o)).expect("JSON values always serialise")
}

/// Parses one `ops.jsonl` line.
pub fn parse_op_line(line: &str) -> Result<Op, ParseError> {
    let v = super::parse::json(line)?;
    let v = super::convert::hydrated(v, "")?;
    op_owned(v, "")
}

/// A plan document (SPEC §8): what `export` writes and `import`/`validate` read.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub plan_id: Option<String>,
    pub label: Option<String>,
    pub state: Option<String>,
    pub revision: Option<u64>,
    pub digest: Option<String>,
    pub bounds: Option<Bounds>,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub provenance: Option<Provenance>,
}

impl Document {
    /// The digest of the content the document holds (what its `digest`
    /// field claims, when it was exported unchanged).
    pub fn content_digest(&self) -> String {
        let text = super::jcs::content_of(&super::jcs::Parts {
            plan_id: self.plan_id.as_deref().unwrap_or(""),
            revision: self.revision.unwrap_or(0),
            bounds: &self.bounds.unwrap_or_default(),
            nodes: &self.nodes,
            edges: &self.edges,
            provenance: self.provenance.as_ref(),
        });
        crate::model::hash::hex_sha256(text.as_bytes())
    }
}

pub const DOCUMENT_KEYS: [&str; 10] = [
    "formatVersion",
    "planId",
    "label",
    "state",
    "revision",
    "digest",
    "bounds",
    "nodes",
    "edges",
    "provenance",
];

/// Reads a plan document from text.
pub fn document(text: &str, syntax: Syntax) -> Result<Document, ParseError> {
    let v = super::parse::parse(text, syntax)?;
    let v = super::convert::hydrated(v, "")?;
    document_owned(v)
}

pub fn document_from_value(v: &Value) -> Result<Document, ParseError> {
    let m = object(v, "", "a plan document")?;
    closed(m, "", "a plan document", &DOCUMENT_KEYS)?;
    if let Some(fv) = m.get("formatVersion")
        && fv.as_u64() != Some(1)
    {
        return Err(error(
            "/formatVersion",
            format!(
                "formatVersion {} is not supported; this planforge reads formatVersion 1",
                super::json::compact(fv)
            ),
        ));
    }
    let plan_id = opt_str(m, "planId", "", "a plan document")?.map(str::to_string);
    let label = opt_str(m, "label", "", "a plan document")?.map(str::to_string);
    let state = opt_str(m, "state", "", "a plan document")?.map(str::to_string);
    let revision = match m.get("revision") {
        None | Some(Value::Null) => None,
        Some(_) => Some(req_u64(m, "revision", "", "a plan document")?),
    };
    let digest = opt_str(m, "digest", "", "a plan document")?.map(str::to_string);
    let bounds = match m.get("bounds") {
        None | Some(Value::Null) => None,
        Some(b) => Some(bounds(b, "/bounds")?),
    };
    let mut nodes = Vec::new();
    match m.get("nodes") {
        None => {}
        Some(Value::Array(a)) => {
            for (i, n) in a.iter().enumerate() {
                nodes.push(node(n, &format!("/nodes/{i}"))?);
            }
        }
        Some(other) => {
            return Err(error(
                "/nodes",
                format!("`nodes` must be an array, not {}", other.type_name()),
            ));
        }
    }
    let mut raw_edges = Vec::new();
    match m.get("edges") {
        None => {}
        Some(Value::Array(a)) => {
            for (i, e) in a.iter().enumerate() {
                raw_edges.push(edge(e, &format!("/edges/{i}"))?);
            }
        }
        Some(other) => {
            return Err(error(
                "/edges",
                format!("`edges` must be an array, not {}", other.type_name()),
            ));
        }
    }
    let mut taken: std::collections::HashSet<String> =
        raw_edges.iter().filter_map(|e| e.0.clone()).collect();
    let edges = raw_edges
        .into_iter()
        .map(|(id, from, to, handle)| {
            let id = id.unwrap_or_else(|| {
                let id = mint_edge_id(&from, &to, &handle, |c| taken.contains(c));
                taken.insert(id.clone());
                id
            });
            Edge {
                id,
                from,
                to,
                handle,
            }
        })
        .collect();
    let provenance = match m.get("provenance") {
        None | Some(Value::Null) => None,
        Some(p) => Some(provenance(p, "/provenance")?),
    };
    Ok(Document {
        plan_id,
        label,
        state,
        revision,
        digest,
        bounds,
        nodes,
        edges,
        provenance,
    })
}

/// A readable edge id: `<from>__<to>` (then `_2`, `_3`…), or `e_` + 16 hex
/// digits of SHA-256(from, to, handle) when that would exceed 64 characters.
pub fn mint_edge_id(from: &str, to: &str, handle: &Handle, taken: impl Fn(&str) -> bool) -> String {
    let base = format!("{from}__{to}");
    if ids::is_valid_edge_id(&base) {
        if !taken(&base) {
            return base;
        }
        for n in 2.. {
            let cand = format!("{base}_{n}");
            if cand.len() > 64 {
                break;
            }
            if !taken(&cand) {
                return cand;
            }
        }
    }
    let hash = crate::model::hash::hex_sha256(
        format!("{from}\u{0}{to}\u{0}{}", handle.as_str()).as_bytes(),
    );
    let base = format!("e_{}", &hash[..16]);
    if !taken(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|c| !taken(c))
        .expect("an unused id exists")
}

/// Plan content (and the document-level extras) as a document value.
pub fn document_json(
    c: &Content,
    label: Option<&str>,
    state: Option<&str>,
    digest: Option<&str>,
) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("formatVersion".into(), 1.into());
    m.insert("planId".into(), c.plan_id.clone().into());
    if let Some(l) = label {
        m.insert("label".into(), l.into());
    }
    if let Some(s) = state {
        m.insert("state".into(), s.into());
    }
    m.insert("revision".into(), c.revision.into());
    if let Some(d) = digest {
        m.insert("digest".into(), d.into());
    }
    m.insert("bounds".into(), bounds_json(&c.bounds));
    m.insert(
        "nodes".into(),
        serde_json::Value::Array(c.nodes.iter().map(node_json).collect()),
    );
    m.insert(
        "edges".into(),
        serde_json::Value::Array(c.edges.iter().map(edge_json).collect()),
    );
    if let Some(p) = &c.provenance {
        m.insert("provenance".into(), provenance_json(p));
    }
    serde_json::Value::Object(m)
}

/// The raw view (`raw_plan`): `{planId, digest, revision, bounds, nodes, edges, provenance?}`.
pub fn raw_json(c: &Content, digest: &str) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("planId".into(), c.plan_id.clone().into());
    m.insert("digest".into(), digest.into());
    m.insert("revision".into(), c.revision.into());
    m.insert("bounds".into(), bounds_json(&c.bounds));
    m.insert(
        "nodes".into(),
        serde_json::Value::Array(c.nodes.iter().map(node_json).collect()),
    );
    m.insert(
        "edges".into(),
        serde_json::Value::Array(c.edges.iter().map(edge_json).collect()),
    );
    if let Some(p) = &c.provenance {
        m.insert("provenance".into(), provenance_json(p));
    }
    serde_json::Value::Object(m)
}

/// Guards integral JSON numbers for bounds given on the command line.
pub fn checked_bound(n: u64) -> Option<u64> {
    (n >= 1 && (n as f64) <= MAX_SAFE_INTEGER).then_some(n)
}

/// An authority claim in wire form.
pub fn claim_json(c: &crate::model::AuthorityClaim) -> serde_json::Value {
    json!({"capability": c.capability, "scope": c.scope, "verb": c.verb.as_str()})
}

/// An approval record in wire form (SPEC §4).
pub fn approval_json(a: &crate::model::lifecycle::Approval) -> serde_json::Value {
    json!({
        "planId": a.plan_id,
        "digest": a.digest,
        "authoritySet": a.authority_set.iter().map(claim_json).collect::<Vec<_>>(),
        "decidedBy": a.decided_by,
        "decidedAt": a.decided_at,
        "disposition": "approved",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_lines_round_trip() {
        let line = r#"{"opId":"a:plan-x:1:t","actorId":"a","lamport":1,"at":"2026-01-01T00:00:00Z","tx":"t","txEnd":true,"op":"add_node","node":{"id":"n","kind":"call","definition":{"args":{"x":{"$ref":{"node":"s","select":"first","path":"q"}}}}}}"#;
        let op = parse_op_line(line).unwrap();
        assert_eq!(op_line(&op), line);
        for line in [
            r#"{"opId":"a:plan-x:2:t","actorId":"a","lamport":2,"at":"t","tx":"t","op":"set_node_definition","nodeId":"n","definition":{"tool":"x","args":{"a":[1,{"b":null}]}}}"#,
            r#"{"opId":"a:plan-x:3:t","actorId":"a","lamport":3,"at":"t","tx":"t","op":"set_node_field","nodeId":"n","path":"args.a","value":{"$ref":{"node":"s","select":"all"}}}"#,
            r#"{"opId":"a:plan-x:4:t","actorId":"a","lamport":4,"at":"t","tx":"t","txEnd":true,"op":"remove_node","nodeId":"n","incidentEdgeIds":["e"]}"#,
        ] {
            let owned = parse_op_line(line).unwrap();
            let borrowed = super::op(
                &crate::wire::convert::hydrated(crate::wire::parse::json(line).unwrap(), "")
                    .unwrap(),
                "",
            )
            .unwrap();
            assert_eq!(owned, borrowed);
            assert_eq!(op_line(&owned), line);
        }
    }

    #[test]
    fn an_op_path_deeper_than_any_value_is_refused() {
        let line = |segments: usize| {
            format!(
                r#"{{"opId":"a:p:1:t","actorId":"a","lamport":1,"at":"t","tx":"t","txEnd":true,"op":"set_node_field","nodeId":"n","path":"{}","value":1}}"#,
                vec!["a"; segments].join(".")
            )
        };
        assert!(parse_op_line(&line(super::super::parse::MAX_DEPTH)).is_ok());
        let e = parse_op_line(&line(100_000)).unwrap_err();
        assert_eq!(e.pointer.as_deref(), Some("/path"));
    }

    #[test]
    fn documents_refuse_what_cannot_be_represented() {
        for (doc, needle) in [
            (r#"{"nodes":[{"kind":"call"}]}"#, "needs an `id`"),
            (
                r#"{"nodes":[{"id":"a","kind":"cal"}]}"#,
                "did you mean `call`",
            ),
            (
                r#"{"nodes":[{"id":"a","kind":"call","definition":[]}]}"#,
                "must be an object",
            ),
            (r#"{"nodes":[],"phases":[]}"#, "unknown key `phases`"),
        ] {
            let e = document(doc, Syntax::Json).unwrap_err();
            assert!(e.message.contains(needle), "{doc}: {e}");
        }
    }

    #[test]
    fn minted_edge_ids() {
        let h = Handle::Always;
        assert_eq!(mint_edge_id("a", "b", &h, |_| false), "a__b");
        assert_eq!(mint_edge_id("a", "b", &h, |c| c == "a__b"), "a__b_2");
        let long = "x".repeat(40);
        let id = mint_edge_id(&long, &long, &h, |_| false);
        assert!(id.starts_with("e_") && id.len() == 18, "{id}");
    }
}
