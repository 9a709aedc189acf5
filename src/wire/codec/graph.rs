//! Nodes and edges in wire form: `{id, phase?, kind, definition}` and
//! `{id, from, to, handle}`, the edge ids minted for edges written without
//! one, authority claims, and how deep a definition nests.

use super::fields::{child, closed, error, object, opt_str, req_str, take_object};
use crate::model::ids;
use crate::model::value::{Map, Value};
use crate::model::{Edge, Handle, Node, NodeKind};
use crate::wire::convert::map_to_json;
use crate::wire::parse::ParseError;
use serde_json::json;

/// As [`node`], consuming the value (the definition is moved, not copied).
pub fn node_owned(mut v: Value, at: &str) -> Result<Node, ParseError> {
    let def = take_object(Some(&mut v), "definition");
    let mut n = node(&v, at)?;
    if let Some(d) = def {
        n.definition = d.into();
    }
    Ok(n)
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
        .map(ids::Id::from);
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
        definition: definition.into(),
    })
}

pub fn node_json(n: &Node) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("id".into(), n.id.as_str().into());
    if let Some(p) = &n.phase {
        m.insert("phase".into(), p.as_str().into());
    }
    m.insert("kind".into(), n.kind.as_str().into());
    m.insert("definition".into(), map_to_json(&n.definition));
    serde_json::Value::Object(m)
}

/// An edge from its wire object. `id` may be absent (the caller mints one).
pub fn edge(
    v: &Value,
    at: &str,
) -> Result<(Option<ids::Id>, ids::Id, ids::Id, Handle), ParseError> {
    let m = object(v, at, "an edge")?;
    closed(m, at, "an edge", &["id", "from", "to", "handle"])?;
    let id = opt_str(m, "id", at, "an edge")?.map(ids::Id::from);
    let from = ids::Id::from(req_str(m, "from", at, "an edge")?);
    let to = ids::Id::from(req_str(m, "to", at, "an edge")?);
    let handle = Handle::parse(opt_str(m, "handle", at, "an edge")?.unwrap_or("always"));
    Ok((id, from, to, handle))
}

pub fn edge_json(e: &Edge) -> serde_json::Value {
    json!({
        "id": e.id.as_str(),
        "from": e.from.as_str(),
        "to": e.to.as_str(),
        "handle": e.handle.as_str()
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

/// An authority claim in wire form.
pub fn claim_json(c: &crate::model::AuthorityClaim) -> serde_json::Value {
    json!({"capability": c.capability, "scope": c.scope, "verb": c.verb.as_str()})
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
/// [`MAX_DEPTH`](crate::wire::parse::MAX_DEPTH) levels, so an exported plan always
/// reads back.
pub const MAX_DEFINITION_DEPTH: usize = crate::wire::parse::MAX_DEPTH - 4;

#[cfg(test)]
mod tests {
    use super::*;

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
