//! The snapshot's archived form (rkyv): mirror types of the fold, made for
//! loading without parsing, and the conversions both ways. The model keeps
//! no derive of a binary format; only this file knows the layout.
//!
//! Reading goes from the validated archive straight into the model (no
//! owned mirror in between), and a node can be read on its own
//! ([`node`]), in place.

use crate::model::lifecycle::{Approval, Frozen, Meta, State};
use crate::model::note::OpRef;
use crate::model::value::{BranchId, Map, Param, Ref, Segment, Select, Value};
use crate::model::{AuthorityClaim, Bounds, Edge, Handle, Node, NodeKind, Provenance};
use rkyv::{Archive, Serialize};

/// A definition's value.
#[derive(Archive, Serialize)]
#[rkyv(serialize_bounds(
    __S: rkyv::ser::Writer + rkyv::ser::Allocator,
    __S::Error: rkyv::rancor::Source,
))]
#[rkyv(bytecheck(bounds(
    __C: rkyv::validation::ArchiveContext,
    __C::Error: rkyv::rancor::Source,
)))]
pub(super) enum SValue {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(#[rkyv(omit_bounds)] Vec<SValue>),
    /// Keys and values, in order.
    Object(Vec<String>, #[rkyv(omit_bounds)] Vec<SValue>),
    /// Boxed: inline, a reference (48 bytes archived) would set the size of
    /// every value (56 bytes instead of 24).
    Ref(Box<SRef>),
    Param(String),
}

#[derive(Archive, Serialize)]
pub(super) struct SRef {
    node: String,
    /// 0 first, 1 last, 2 all, 3 index.
    select: u8,
    index: u64,
    path: Option<String>,
    branch: Option<Vec<SSegment>>,
}

#[derive(Archive, Serialize)]
pub(super) struct SSegment {
    /// `None`: an edge (`of[0]`); else the join and its incoming edges.
    join: Option<String>,
    of: Vec<String>,
}

#[derive(Archive, Serialize)]
pub(super) struct SNode {
    pub(super) id: String,
    pub(super) phase: Option<String>,
    /// Its position in `NodeKind::ALL`.
    pub(super) kind: u8,
    pub(super) keys: Vec<String>,
    pub(super) values: Vec<SValue>,
}

#[derive(Archive, Serialize)]
pub(super) struct SEdge {
    pub(super) id: String,
    pub(super) from: String,
    pub(super) to: String,
    handle: String,
}

/// The digest's marks (see `fold::digest::Marks`): items before each,
/// bytes hashed before each, the hasher's state; then the bytes before the
/// canonical text's tail.
#[derive(Archive, Serialize)]
pub(super) struct SMarks {
    pub(super) edges: Vec<(u64, u64, Vec<u8>)>,
    pub(super) nodes: Vec<(u64, u64, Vec<u8>)>,
    pub(super) end: u64,
}

/// One id in the id index: the node that has it ([`super::chunks::NO_NODE`]
/// when none does), and the edges from or to it, in fold order.
#[derive(Archive, Serialize)]
pub(super) struct SIdEntry {
    pub(super) id: String,
    pub(super) node: u32,
    pub(super) edges: Vec<u32>,
}

/// An edge's id and position.
#[derive(Archive, Serialize)]
pub(super) struct SEdgeId {
    pub(super) id: String,
    pub(super) at: u32,
}

/// One bucket of the id index: the ids that hash to it.
#[derive(Archive, Serialize)]
pub(super) struct SBucket {
    pub(super) ids: Vec<SIdEntry>,
    pub(super) edges: Vec<SEdgeId>,
}

#[derive(Archive, Serialize)]
pub(super) struct SProvenance {
    /// `Some`: a clone (parent, its digest and revision); else a template.
    clone: Option<(String, String, u64)>,
    template: String,
    keys: Vec<String>,
    values: Vec<SValue>,
}

#[derive(Archive, Serialize)]
pub(super) struct SApproval {
    plan_id: String,
    digest: String,
    /// Capability, scope, verb.
    authority: Vec<(String, String, String)>,
    decided_by: String,
    decided_at: String,
}

#[derive(Archive, Serialize)]
pub(super) struct SMeta {
    state: String,
    label: Option<String>,
    request: Option<String>,
    provenance: Option<SProvenance>,
    approval: Option<SApproval>,
    frozen: Option<(u64, String)>,
    freezes: Vec<u64>,
    created_at: String,
    updated_at: String,
}

#[derive(Archive, Serialize)]
pub(super) struct SOpRef {
    actor: String,
    lamport: u64,
    at: String,
    kind: String,
    node: Option<String>,
}

/// Bounds, in their fixed order.
pub(super) fn bounds_to(b: &Bounds) -> [u64; 5] {
    [
        b.max_nodes,
        b.max_edges,
        b.max_steps,
        b.max_concurrent_frames,
        b.max_encoded_bytes,
    ]
}

pub(super) fn bounds_from(a: &[rkyv::rend::u64_le; 5]) -> Bounds {
    Bounds {
        max_nodes: a[0].to_native(),
        max_edges: a[1].to_native(),
        max_steps: a[2].to_native(),
        max_concurrent_frames: a[3].to_native(),
        max_encoded_bytes: a[4].to_native(),
    }
}

fn map_to(m: &Map) -> (Vec<String>, Vec<SValue>) {
    m.iter().map(|(k, v)| (k.clone(), value_to(v))).unzip()
}

fn map_from(
    keys: &rkyv::vec::ArchivedVec<rkyv::string::ArchivedString>,
    values: &rkyv::vec::ArchivedVec<ArchivedSValue>,
) -> Option<Map> {
    if keys.len() != values.len() {
        return None;
    }
    let mut m = Map::with_capacity(keys.len());
    for (k, v) in keys.iter().zip(values.iter()) {
        m.insert(k.as_str().to_string(), value_from(v)?);
    }
    Some(m)
}

pub(super) fn value_to(v: &Value) -> SValue {
    match v {
        Value::Null => SValue::Null,
        Value::Bool(b) => SValue::Bool(*b),
        Value::Number(n) => SValue::Number(*n),
        Value::String(s) => SValue::String(s.clone()),
        Value::Array(a) => SValue::Array(a.iter().map(value_to).collect()),
        Value::Object(m) => {
            let (k, v) = map_to(m);
            SValue::Object(k, v)
        }
        Value::Ref(r) => SValue::Ref(Box::new(SRef {
            node: r.node.clone(),
            select: match r.select {
                Select::First => 0,
                Select::Last => 1,
                Select::All => 2,
                Select::Index(_) => 3,
            },
            index: match r.select {
                Select::Index(i) => i,
                _ => 0,
            },
            path: r.path.clone(),
            branch: r.branch_id.as_ref().map(|b| {
                b.segments
                    .iter()
                    .map(|s| match s {
                        Segment::Edge(e) => SSegment {
                            join: None,
                            of: vec![e.clone()],
                        },
                        Segment::Join { join, of } => SSegment {
                            join: Some(join.clone()),
                            of: of.clone(),
                        },
                    })
                    .collect()
            }),
        })),
        Value::Param(p) => SValue::Param(p.path.clone()),
    }
}

fn strings(v: &rkyv::vec::ArchivedVec<rkyv::string::ArchivedString>) -> Vec<String> {
    v.iter().map(|s| s.as_str().to_string()).collect()
}

fn opt(s: &rkyv::option::ArchivedOption<rkyv::string::ArchivedString>) -> Option<String> {
    s.as_ref().map(|s| s.as_str().to_string())
}

/// A value read back; `None` for an archive no writer makes (a select or a
/// segment out of range): the snapshot is then rebuilt.
pub(super) fn value_from(v: &ArchivedSValue) -> Option<Value> {
    Some(match v {
        ArchivedSValue::Null => Value::Null,
        ArchivedSValue::Bool(b) => Value::Bool(*b),
        ArchivedSValue::Number(n) => Value::Number(n.to_native()),
        ArchivedSValue::String(s) => Value::String(s.as_str().to_string()),
        ArchivedSValue::Array(a) => {
            Value::Array(a.iter().map(value_from).collect::<Option<Vec<_>>>()?)
        }
        ArchivedSValue::Object(k, v) => Value::Object(map_from(k, v)?),
        ArchivedSValue::Ref(r) => Value::Ref(Box::new(Ref {
            node: r.node.as_str().to_string(),
            select: match r.select {
                0 => Select::First,
                1 => Select::Last,
                2 => Select::All,
                3 => Select::Index(r.index.to_native()),
                _ => return None,
            },
            path: opt(&r.path),
            branch_id: match r.branch.as_ref() {
                None => None,
                Some(segs) => Some(BranchId {
                    segments: segs
                        .iter()
                        .map(|s| match s.join.as_ref() {
                            None if s.of.len() == 1 => {
                                Some(Segment::Edge(s.of[0].as_str().to_string()))
                            }
                            None => None,
                            Some(j) => Some(Segment::Join {
                                join: j.as_str().to_string(),
                                of: strings(&s.of),
                            }),
                        })
                        .collect::<Option<Vec<_>>>()?,
                }),
            },
        })),
        ArchivedSValue::Param(p) => Value::Param(Param {
            path: p.as_str().to_string(),
        }),
    })
}

pub(super) fn node_to(n: &Node) -> SNode {
    let (keys, values) = map_to(&n.definition);
    SNode {
        id: n.id.clone(),
        phase: n.phase.clone(),
        kind: NodeKind::ALL.iter().position(|k| *k == n.kind).unwrap_or(0) as u8,
        keys,
        values,
    }
}

/// One archived node, as the model's (read in place: nothing else of the
/// archive is copied).
pub(super) fn node(n: &ArchivedSNode) -> Option<Node> {
    Some(Node {
        id: n.id.as_str().to_string(),
        phase: opt(&n.phase),
        kind: *NodeKind::ALL.get(n.kind as usize)?,
        definition: map_from(&n.keys, &n.values)?,
    })
}

pub(super) fn edge_to(e: &Edge) -> SEdge {
    SEdge {
        id: e.id.clone(),
        from: e.from.clone(),
        to: e.to.clone(),
        handle: e.handle.as_str().into_owned(),
    }
}

pub(super) fn edge(e: &ArchivedSEdge) -> Edge {
    Edge {
        id: e.id.as_str().to_string(),
        from: e.from.as_str().to_string(),
        to: e.to.as_str().to_string(),
        handle: Handle::parse(e.handle.as_str()),
    }
}

pub(super) fn provenance_to(p: &Provenance) -> SProvenance {
    match p {
        Provenance::Clone {
            parent,
            parent_digest,
            parent_revision,
        } => SProvenance {
            clone: Some((parent.clone(), parent_digest.clone(), *parent_revision)),
            template: String::new(),
            keys: Vec::new(),
            values: Vec::new(),
        },
        Provenance::Template { template, args } => {
            let (keys, values) = map_to(args);
            SProvenance {
                clone: None,
                template: template.clone(),
                keys,
                values,
            }
        }
    }
}

pub(super) fn provenance(p: &ArchivedSProvenance) -> Option<Provenance> {
    Some(match p.clone.as_ref() {
        Some(c) => Provenance::Clone {
            parent: c.0.as_str().to_string(),
            parent_digest: c.1.as_str().to_string(),
            parent_revision: c.2.to_native(),
        },
        None => Provenance::Template {
            template: p.template.as_str().to_string(),
            args: map_from(&p.keys, &p.values)?,
        },
    })
}

pub(super) fn meta_to(m: &Meta) -> SMeta {
    SMeta {
        state: m.state.as_str().to_string(),
        label: m.label.clone(),
        request: m.request.clone(),
        provenance: m.provenance.as_ref().map(provenance_to),
        approval: m.approval.as_ref().map(|a| SApproval {
            plan_id: a.plan_id.clone(),
            digest: a.digest.clone(),
            authority: a
                .authority_set
                .iter()
                .map(|c| {
                    (
                        c.capability.clone(),
                        c.scope.clone(),
                        c.verb.as_str().to_string(),
                    )
                })
                .collect(),
            decided_by: a.decided_by.clone(),
            decided_at: a.decided_at.clone(),
        }),
        frozen: m.frozen.as_ref().map(|f| (f.revision, f.digest.clone())),
        freezes: m.freezes.clone(),
        created_at: m.created_at.clone(),
        updated_at: m.updated_at.clone(),
    }
}

pub(super) fn meta(m: &ArchivedSMeta) -> Option<Meta> {
    let approval = match m.approval.as_ref() {
        None => None,
        Some(a) => Some(Approval {
            plan_id: a.plan_id.as_str().to_string(),
            digest: a.digest.as_str().to_string(),
            authority_set: a
                .authority
                .iter()
                .map(|c| {
                    Some(AuthorityClaim {
                        capability: c.0.as_str().to_string(),
                        scope: c.1.as_str().to_string(),
                        verb: crate::model::Verb::parse(c.2.as_str())?,
                    })
                })
                .collect::<Option<Vec<_>>>()?,
            decided_by: a.decided_by.as_str().to_string(),
            decided_at: a.decided_at.as_str().to_string(),
        }),
    };
    Some(Meta {
        state: State::parse(m.state.as_str())?,
        label: opt(&m.label),
        request: opt(&m.request),
        provenance: match m.provenance.as_ref() {
            None => None,
            Some(p) => Some(provenance(p)?),
        },
        approval,
        frozen: m.frozen.as_ref().map(|f| Frozen {
            revision: f.0.to_native(),
            digest: f.1.as_str().to_string(),
        }),
        freezes: m.freezes.iter().map(|r| r.to_native()).collect(),
        created_at: m.created_at.as_str().to_string(),
        updated_at: m.updated_at.as_str().to_string(),
    })
}

/// Every op kind, to give an op reference its `&'static str` back.
const KINDS: [&str; 14] = [
    "add_node",
    "replace_node",
    "remove_node",
    "set_node_field",
    "set_node_definition",
    "set_node_phase",
    "add_edge",
    "remove_edge",
    "set_bounds",
    "create_plan",
    "set_label",
    "freeze",
    "unfreeze",
    "approve",
];

pub(super) fn op_ref_to(r: &OpRef) -> SOpRef {
    SOpRef {
        actor: r.actor.clone(),
        lamport: r.lamport,
        at: r.at.clone(),
        kind: r.kind.to_string(),
        node: r.node.clone(),
    }
}

pub(super) fn op_ref(r: &ArchivedSOpRef) -> Option<OpRef> {
    Some(OpRef {
        actor: r.actor.as_str().to_string(),
        lamport: r.lamport.to_native(),
        at: r.at.as_str().to_string(),
        kind: KINDS.iter().copied().find(|k| *k == r.kind.as_str())?,
        node: opt(&r.node),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::OpBody;

    #[test]
    fn every_op_kind_is_known() {
        // A kind the list lacks would make every snapshot naming it a
        // rebuild; the list must follow `OpBody::kind`.
        let n = Node {
            id: "a".into(),
            phase: None,
            kind: NodeKind::Join,
            definition: Map::new(),
        };
        let bodies = [
            OpBody::AddNode { node: n.clone() },
            OpBody::ReplaceNode { node: n },
            OpBody::Unfreeze,
        ];
        for b in bodies {
            assert!(KINDS.contains(&b.kind()));
        }
    }
}
