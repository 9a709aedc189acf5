//! Ops in wire form: one line of `ops.jsonl` each.

use super::fields::{child, closed, error, object, opt_str, req_str, req_u64, take_object};
use super::graph::{edge, edge_json, node, node_json};
use super::plan::{bounds, bounds_json};
use crate::model::value::{Map, Value};
use crate::model::{Edge, Op, OpBody};
use crate::wire::convert::{map_to_json, to_json};
use crate::wire::parse::ParseError;
use serde_json::json;

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
        OpBody::AddNode { node } | OpBody::ReplaceNode { node } => {
            if let Some(d) = node_def {
                node.definition = d.into();
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

/// One line of `ops.jsonl`.
pub fn op(v: &Value, at: &str) -> Result<Op, ParseError> {
    let m = object(v, at, "an op")?;
    let op_id = req_str(m, "opId", at, "an op")?.to_string();
    let actor_id = req_str(m, "actorId", at, "an op")?.into();
    let lamport = req_u64(m, "lamport", at, "an op")?;
    let at_time = req_str(m, "at", at, "an op")?.into();
    let tx = req_str(m, "tx", at, "an op")?.into();
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
    if let Some(body) = super::lifecycle::body(kind, m, at, &common) {
        return Ok(Op {
            op_id,
            actor_id,
            lamport,
            at: at_time,
            tx,
            tx_end,
            body: body?,
        });
    }
    let body = content_body(kind, m, at, &common)?;
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

/// The body of a content op of `kind`.
fn content_body(kind: &str, m: &Map, at: &str, common: &[&str]) -> Result<OpBody, ParseError> {
    let allow = |extra: &[&str]| -> Result<(), ParseError> {
        let all: Vec<&str> = common.iter().chain(extra.iter()).copied().collect();
        closed(m, at, &format!("a {kind} op"), &all)
    };
    Ok(match kind {
        "add_node" | "replace_node" => {
            allow(&["node"])?;
            let node = node(
                m.get("node")
                    .ok_or_else(|| error(at, format!("{kind} needs `node`")))?,
                &child(at, "node"),
            )?;
            if kind == "add_node" {
                OpBody::AddNode { node }
            } else {
                OpBody::ReplaceNode { node }
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
            if path.split('.').count() > crate::wire::parse::MAX_DEPTH {
                return Err(error(
                    &child(at, "path"),
                    format!(
                        "a set_node_field path has more than {} segments",
                        crate::wire::parse::MAX_DEPTH
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
    })
}

pub fn op_json(o: &Op) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("opId".into(), o.op_id.clone().into());
    m.insert("actorId".into(), o.actor_id.as_str().into());
    m.insert("lamport".into(), o.lamport.into());
    m.insert("at".into(), o.at.as_str().into());
    m.insert("tx".into(), o.tx.as_str().into());
    if o.tx_end {
        m.insert("txEnd".into(), true.into());
    }
    m.insert("op".into(), o.body.kind().into());
    if super::lifecycle::insert(&o.body, &mut m) {
        return serde_json::Value::Object(m);
    }
    match &o.body {
        OpBody::AddNode { node } | OpBody::ReplaceNode { node } => {
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
        _ => unreachable!("lifecycle ops are written above"),
    }
    serde_json::Value::Object(m)
}

/// One op as its `ops.jsonl` line (without the newline).
pub fn op_line(o: &Op) -> String {
    serde_json::to_string(&op_json(o)).expect("JSON values always serialise")
}

/// What the start of an op line says: its transaction, actor and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpHead<'a> {
    pub tx: &'a str,
    pub actor: &'a str,
    pub kind: &'a str,
}

/// The head of a line spelled as [`op_line`] writes it (its first keys in
/// that order, their strings without escapes), read without parsing the
/// rest of the line; `None` for any other spelling, which only a parse of
/// the whole line reads right.
pub fn op_head(line: &[u8]) -> Option<OpHead<'_>> {
    /// A string's text up to its closing quote, and what follows it.
    fn string(b: &[u8]) -> Option<(&str, &[u8])> {
        let end = memchr::memchr2(b'"', b'\\', b)?;
        if b[end] != b'"' {
            return None;
        }
        Some((std::str::from_utf8(&b[..end]).ok()?, &b[end + 1..]))
    }
    let (_, rest) = string(line.strip_prefix(br#"{"opId":""#)?)?;
    let (actor, rest) = string(rest.strip_prefix(br#","actorId":""#)?)?;
    let rest = rest.strip_prefix(br#","lamport":"#)?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (_, rest) = string(rest.get(digits..)?.strip_prefix(br#","at":""#)?)?;
    let (tx, rest) = string(rest.strip_prefix(br#","tx":""#)?)?;
    let rest = rest.strip_prefix(br#","txEnd":true"#).unwrap_or(rest);
    let (kind, _) = string(rest.strip_prefix(br#","op":""#)?)?;
    (digits > 0).then_some(OpHead { tx, actor, kind })
}

/// Whether ops of `kind` (an op line's `op`) change the content, as
/// [`OpBody::is_content`] says of their bodies.
pub fn kind_is_content(kind: &str) -> bool {
    !matches!(
        kind,
        "create_plan" | "set_label" | "freeze" | "unfreeze" | "approve"
    )
}

/// How a line of the log spells the string `s` when planforge wrote it
/// (quotes included), and the escapes with which another writer could
/// spell a string differently (`\u0061` for `a`, `\/` for `/`): a line
/// that names `s` holds the first or one of the others.
pub fn spellings(s: &str) -> (String, [&'static str; 2]) {
    (
        serde_json::to_string(s).expect("strings always serialise"),
        ["\\u", "\\/"],
    )
}

/// Parses one `ops.jsonl` line: a node or an edge added straight into the
/// model (see `direct_op`), any other line — and any refusal — the
/// general way.
pub fn parse_op_line(line: &str) -> Result<Op, ParseError> {
    match super::direct_op::op(line) {
        Some(op) => Ok(op),
        None => general_op_line(line),
    }
}

/// Parses one `ops.jsonl` line through the value of the whole line.
pub(crate) fn general_op_line(line: &str) -> Result<Op, ParseError> {
    let v = crate::wire::parse::json(line)?;
    let v = crate::wire::convert::hydrated(v, "")?;
    op_owned(v, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_of_a_line_is_read_as_its_parse_reads_it_or_not_at_all() {
        use crate::model::lifecycle::Approval;
        use crate::model::{Bounds, Edge, Handle, Node, NodeKind};
        let node = Node {
            id: "n \"q\"".into(),
            phase: None,
            kind: NodeKind::Join,
            definition: Map::new().into(),
        };
        let bodies = vec![
            OpBody::CreatePlan {
                label: Some("l".into()),
                request: None,
                provenance: None,
            },
            OpBody::SetLabel {
                label: Some("x".into()),
            },
            OpBody::Freeze {
                revision: 1,
                digest: "d".into(),
            },
            OpBody::Unfreeze,
            OpBody::Approve {
                approval: Approval {
                    plan_id: "plan-x".into(),
                    digest: "d".into(),
                    authority_set: Vec::new(),
                    decided_by: "ann".into(),
                    decided_at: "t".into(),
                },
            },
            OpBody::AddNode { node: node.clone() },
            OpBody::ReplaceNode { node },
            OpBody::RemoveNode {
                node_id: "n".into(),
                incident_edge_ids: vec!["e".into()],
            },
            OpBody::SetNodeField {
                node_id: "n".into(),
                path: "a".into(),
                value: Value::Bool(true),
            },
            OpBody::SetNodeDefinition {
                node_id: "n".into(),
                definition: Map::new(),
            },
            OpBody::SetNodePhase {
                node_id: "n".into(),
                phase: None,
            },
            OpBody::AddEdge {
                edge: Edge {
                    id: "e".into(),
                    from: "a".into(),
                    to: "b".into(),
                    handle: Handle::Always,
                },
            },
            OpBody::RemoveEdge {
                edge_id: "e".into(),
            },
            OpBody::SetBounds {
                bounds: Bounds::default(),
            },
        ];
        for (i, body) in bodies.into_iter().enumerate() {
            let content = body.is_content();
            for actor in ["ann", "b\"c"] {
                let o = Op {
                    op_id: format!("{actor}:plan-x:{i}:t{i}"),
                    actor_id: actor.into(),
                    lamport: i as u64,
                    at: "2026-01-01T00:00:00Z".into(),
                    tx: format!("t{i}").into(),
                    tx_end: i % 2 == 0,
                    body: body.clone(),
                };
                let line = op_line(&o);
                let parsed = parse_op_line(&line).unwrap();
                match op_head(line.as_bytes()) {
                    Some(h) => {
                        assert_eq!(h.tx, parsed.tx);
                        assert_eq!(h.actor, parsed.actor_id);
                        assert_eq!(h.kind, parsed.body.kind());
                        assert_eq!(kind_is_content(h.kind), content, "{line}");
                    }
                    // Only an escaped string is left to the parse.
                    None => assert!(actor.contains('"'), "{line}"),
                }
            }
        }
        // Another spelling of the same op is left to the parse.
        for line in [
            r#"{"actorId":"a","opId":"a:p:1:t","lamport":1,"at":"t","tx":"t","op":"unfreeze"}"#,
            r#"{"opId":"a:p:1:t","actorId":"a","lamport":1,"at":"t","tx":"t","txEnd":false,"op":"unfreeze"}"#,
            r#"{"opId":"a:p:1:t","actorId":"a","lamport":1,"at":"t","tx":"\u0074","op":"unfreeze"}"#,
            r#"{"opId":"a:p:1:t", "actorId":"a","lamport":1,"at":"t","tx":"t","op":"unfreeze"}"#,
        ] {
            assert!(parse_op_line(line).is_ok(), "{line}");
            assert_eq!(op_head(line.as_bytes()), None, "{line}");
        }
        assert_eq!(spellings("a\"b").0, r#""a\"b""#);
    }

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
        assert!(parse_op_line(&line(crate::wire::parse::MAX_DEPTH)).is_ok());
        let e = parse_op_line(&line(100_000)).unwrap_err();
        assert_eq!(e.pointer.as_deref(), Some("/path"));
    }
}
