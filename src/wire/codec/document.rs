//! Plan documents in wire form (SPEC §8): what `export` writes and
//! `import`/`validate` read, and the raw view of a plan's content.

use super::fields::{closed, error, object, opt_str, req_u64, take_object};
use super::graph::{edge, edge_json, mint_edge_id, node, node_json};
use super::plan::{bounds, bounds_json, provenance, provenance_json};
use crate::model::hash::FastSet;
use crate::model::ids::Id;
use crate::model::value::{Map, Value};
use crate::model::{Bounds, Content, Edge, Handle, Node, Provenance};
use crate::wire::parse::{ParseError, Syntax};

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
        let text = crate::wire::jcs::content_of(&crate::wire::jcs::Parts {
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

/// The keys of a plan document. `$schema` (the JSON Schema an editor checks
/// the document with, `planforge schema`) is allowed and ignored.
pub const DOCUMENT_KEYS: [&str; 11] = [
    "$schema",
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

/// [`document`] the general way: text → value → references → document.
/// Every refusal is worded here.
pub(super) fn general_document(text: &str, syntax: Syntax) -> Result<Document, ParseError> {
    let v = crate::wire::parse::parse(text, syntax)?;
    let v = crate::wire::convert::hydrated(v, "")?;
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
                crate::wire::json::compact(fv)
            ),
        ));
    }
    opt_str(m, "$schema", "", "a plan document")?;
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
    let edges = named_edges(raw_edges);
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

/// An edge as read, its id still optional.
pub(crate) type RawEdge = (Option<Id>, Id, Id, Handle);

/// The edges of a document, those written without an id given a minted one
/// (never one another edge of the document has).
pub(crate) fn named_edges(raw_edges: Vec<RawEdge>) -> Vec<Edge> {
    let mut taken: FastSet<Id> = raw_edges.iter().filter_map(|e| e.0.clone()).collect();
    raw_edges
        .into_iter()
        .map(|(id, from, to, handle)| {
            let id = id.unwrap_or_else(|| {
                let id = Id::from(mint_edge_id(&from, &to, &handle, |c| taken.contains(c)));
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
        .collect()
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
            n.definition = d.into();
        }
    }
    Ok(doc)
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

#[cfg(test)]
mod tests {
    use super::super::direct::document;
    use super::*;

    #[test]
    fn a_schema_key_is_allowed_and_ignored() {
        let with = document(
            r#"{"$schema":"../schema/plan.schema.json","planId":"plan-a","nodes":[]}"#,
            Syntax::Json,
        );
        let without = document(r#"{"planId":"plan-a","nodes":[]}"#, Syntax::Json);
        assert_eq!(with.unwrap(), without.unwrap());
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
            (r#"{"$schema":1}"#, "`$schema` must be a string"),
        ] {
            let e = document(doc, Syntax::Json).unwrap_err();
            assert!(e.message.contains(needle), "{doc}: {e}");
        }
    }
}
