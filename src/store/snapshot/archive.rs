//! The snapshot's archived form (rkyv): mirror types of the fold, made for
//! loading without parsing, and the conversions both ways. The model keeps
//! no derive of a binary format; only this file knows the layout.
//!
//! Reading goes from the validated archive straight into the model (no
//! owned mirror in between), and a node can be read on its own
//! ([`node`]), in place.
//!
//! A chunk of nodes is two parts (issue 17): the head ([`SHead`]: ids,
//! phases, kinds, calls' tools), which every restore reads and checks, and
//! the definitions ([`SDefs`]), checked and walked only when a definition
//! of the chunk is first read. The strings of each part (ids, phases,
//! definitions' keys and texts) lie one after another in the part's one
//! text, and
//! each is its place in it ([`SStr`]): validating a chunk checks the text
//! as UTF-8 once, not each of its few thousand strings on its own (which
//! was about a sixth of a 100,000-node plan's restore); a place is checked
//! when it is read (in the text, on a character boundary), and a place
//! that is not is an archive no writer makes: the snapshot is rebuilt.

use crate::model::ids::Id;
use crate::model::lifecycle::{Approval, Frozen, Meta, State};
use crate::model::note::OpRef;
use crate::model::value::{BranchId, Map, Param, Ref, Segment, Select, Value};
use crate::model::{AuthorityClaim, Bounds, Edge, Handle, Node, NodeKind, Provenance};
use rkyv::{Archive, Serialize};

/// A string: where it starts in its text and its length, in bytes.
#[derive(Archive, Serialize, Clone, Copy)]
pub(super) struct SStr {
    at: u32,
    len: u32,
}

/// The text strings are put in while archiving; `None` once it is too
/// long for a place (4 GiB: the archive is then not made).
pub(super) struct Text(Option<String>);

impl Text {
    pub(super) fn new() -> Text {
        Text(Some(String::new()))
    }

    fn put(&mut self, s: &str) -> SStr {
        let place = self.0.as_mut().and_then(|t| {
            let at = u32::try_from(t.len()).ok()?;
            let len = u32::try_from(s.len()).ok()?;
            at.checked_add(len)?;
            t.push_str(s);
            Some(SStr { at, len })
        });
        if place.is_none() {
            self.0 = None;
        }
        place.unwrap_or(SStr { at: 0, len: 0 })
    }

    fn opt(&mut self, s: Option<&str>) -> Option<SStr> {
        s.map(|s| self.put(s))
    }

    pub(super) fn done(self) -> Option<String> {
        self.0
    }
}

/// The string at place `r` of `text`; `None` when it does not lie there.
pub(super) fn at<'a>(text: &'a str, r: &ArchivedSStr) -> Option<&'a str> {
    let at = r.at.to_native() as usize;
    text.get(at..at.checked_add(r.len.to_native() as usize)?)
}

fn owned(text: &str, r: &ArchivedSStr) -> Option<String> {
    at(text, r).map(str::to_string)
}

fn owned_opt(text: &str, r: &rkyv::option::ArchivedOption<ArchivedSStr>) -> Option<Option<String>> {
    match r.as_ref() {
        None => Some(None),
        Some(r) => owned(text, r).map(Some),
    }
}

/// A definition's value (its strings in the text of its chunk, or of the
/// provenance it is in).
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
    String(SStr),
    Array(#[rkyv(omit_bounds)] Vec<SValue>),
    /// Keys and values, in order.
    Object(Vec<SStr>, #[rkyv(omit_bounds)] Vec<SValue>),
    /// Boxed: inline, a reference (48 bytes archived) would set the size of
    /// every value (56 bytes instead of 24).
    Ref(Box<SRef>),
    Param(SStr),
}

#[derive(Archive, Serialize)]
pub(super) struct SRef {
    node: SStr,
    /// 0 first, 1 last, 2 all, 3 index.
    select: u8,
    index: u64,
    path: Option<SStr>,
    branch: Option<Vec<SSegment>>,
}

#[derive(Archive, Serialize)]
pub(super) struct SSegment {
    /// `None`: an edge (`of[0]`); else the join and its incoming edges.
    join: Option<SStr>,
    of: Vec<SStr>,
}

/// A node's head: what every restore reads (its id, phase and kind, and a
/// call's `tool`, which a check reads of every call), its strings in the
/// text of its chunk's head part.
#[derive(Archive, Serialize)]
pub(super) struct SHeadNode {
    pub(super) id: SStr,
    pub(super) phase: Option<SStr>,
    /// Its position in `NodeKind::ALL`.
    pub(super) kind: u8,
    /// The definition's `tool`, when it has one that is a string (a check
    /// reads every call's).
    pub(super) tool: Option<SStr>,
}

/// The head part of a chunk of nodes: its strings' text and the nodes'
/// heads. Validated whenever the chunk is read.
#[derive(Archive, Serialize)]
pub(super) struct SHead {
    pub(super) text: String,
    pub(super) nodes: Vec<SHeadNode>,
}

/// A node's definition: keys and values, in order.
#[derive(Archive, Serialize)]
pub(super) struct SDef {
    pub(super) keys: Vec<SStr>,
    pub(super) values: Vec<SValue>,
}

/// The definitions part of a chunk of nodes (one per node of its head, in
/// the same order), with the text of their strings: checked and walked
/// only when a definition of the chunk is first read (issue 17).
#[derive(Archive, Serialize)]
pub(super) struct SDefs {
    pub(super) text: String,
    pub(super) defs: Vec<SDef>,
}

/// An edge: its strings' places in the text of its chunk.
#[derive(Archive, Serialize)]
pub(super) struct SEdge {
    pub(super) id: SStr,
    pub(super) from: SStr,
    pub(super) to: SStr,
    handle: SStr,
}

/// A chunk of edges: their strings' one text (checked as UTF-8 once, not
/// per string) and the edges.
#[derive(Archive, Serialize)]
pub(super) struct SEdges {
    pub(super) text: String,
    pub(super) edges: Vec<SEdge>,
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
    /// The text of the arguments' strings.
    text: String,
    keys: Vec<SStr>,
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

fn map_to(m: &Map, t: &mut Text) -> (Vec<SStr>, Vec<SValue>) {
    let mut keys = Vec::with_capacity(m.len());
    let mut values = Vec::with_capacity(m.len());
    for (k, v) in m.iter() {
        keys.push(t.put(k));
        values.push(value_to(v, t));
    }
    (keys, values)
}

fn map_from(
    keys: &rkyv::vec::ArchivedVec<ArchivedSStr>,
    values: &rkyv::vec::ArchivedVec<ArchivedSValue>,
    text: &str,
) -> Option<Map> {
    if keys.len() != values.len() {
        return None;
    }
    let mut m = Map::with_capacity(keys.len());
    for (k, v) in keys.iter().zip(values.iter()) {
        m.insert(Id::from(at(text, k)?), value_from(v, text)?);
    }
    Some(m)
}

pub(super) fn value_to(v: &Value, t: &mut Text) -> SValue {
    match v {
        Value::Null => SValue::Null,
        Value::Bool(b) => SValue::Bool(*b),
        Value::Number(n) => SValue::Number(*n),
        Value::String(s) => SValue::String(t.put(s)),
        Value::Array(a) => SValue::Array(a.iter().map(|v| value_to(v, t)).collect()),
        Value::Object(m) => {
            let (k, v) = map_to(m, t);
            SValue::Object(k, v)
        }
        Value::Ref(r) => SValue::Ref(Box::new(SRef {
            node: t.put(&r.node),
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
            path: t.opt(r.path.as_deref()),
            branch: r.branch_id.as_ref().map(|b| {
                b.segments
                    .iter()
                    .map(|s| match s {
                        Segment::Edge(e) => SSegment {
                            join: None,
                            of: vec![t.put(e)],
                        },
                        Segment::Join { join, of } => SSegment {
                            join: Some(t.put(join)),
                            of: of.iter().map(|e| t.put(e)).collect(),
                        },
                    })
                    .collect()
            }),
        })),
        Value::Param(p) => SValue::Param(t.put(&p.path)),
    }
}

fn opt(s: &rkyv::option::ArchivedOption<rkyv::string::ArchivedString>) -> Option<String> {
    s.as_ref().map(|s| s.as_str().to_string())
}

/// A segment of a route read back; `None` for one no writer makes.
fn segment(s: &ArchivedSSegment, text: &str) -> Option<Segment> {
    match s.join.as_ref() {
        None if s.of.len() == 1 => Some(Segment::Edge(owned(text, &s.of[0])?)),
        None => None,
        Some(j) => Some(Segment::Join {
            join: owned(text, j)?,
            of: s
                .of
                .iter()
                .map(|e| owned(text, e))
                .collect::<Option<Vec<_>>>()?,
        }),
    }
}

/// A value read back, its strings from `text`; `None` for an archive no
/// writer makes (a select, a segment or a string's place out of range):
/// the snapshot is then rebuilt.
pub(super) fn value_from(v: &ArchivedSValue, text: &str) -> Option<Value> {
    Some(match v {
        ArchivedSValue::Null => Value::Null,
        ArchivedSValue::Bool(b) => Value::Bool(*b),
        ArchivedSValue::Number(n) => Value::Number(n.to_native()),
        ArchivedSValue::String(s) => Value::String(Id::from(at(text, s)?)),
        ArchivedSValue::Array(a) => {
            let mut items = Vec::with_capacity(a.len());
            for x in a.iter() {
                items.push(value_from(x, text)?);
            }
            Value::Array(items)
        }
        ArchivedSValue::Object(k, v) => Value::Object(map_from(k, v, text)?),
        ArchivedSValue::Ref(r) => Value::Ref(Box::new(Ref {
            node: owned(text, &r.node)?,
            select: match r.select {
                0 => Select::First,
                1 => Select::Last,
                2 => Select::All,
                3 => Select::Index(r.index.to_native()),
                _ => return None,
            },
            path: owned_opt(text, &r.path)?,
            branch_id: match r.branch.as_ref() {
                None => None,
                Some(segs) => Some(BranchId {
                    segments: segs
                        .iter()
                        .map(|s| segment(s, text))
                        .collect::<Option<Vec<_>>>()?,
                }),
            },
        })),
        ArchivedSValue::Param(p) => Value::Param(Param {
            path: owned(text, p)?,
        }),
    })
}

/// The `tool` a head keeps for `n`: its definition's, when it is a string
/// (of any node: the head answers for the definition, whatever the kind).
fn tool_of(n: &Node) -> Option<&str> {
    n.definition.tool()
}

/// A chunk of nodes, archived: the head part, then (at the next multiple
/// of 16) the definitions part, and the head part's length; `None` when a
/// text is too long.
pub(super) fn nodes_to(part: &[Node]) -> Option<(rkyv::util::AlignedVec<16>, usize)> {
    let mut t = Text::new();
    let nodes = part
        .iter()
        .map(|n| SHeadNode {
            id: t.put(&n.id),
            phase: t.opt(n.phase.as_deref()),
            kind: NodeKind::ALL.iter().position(|k| *k == n.kind).unwrap_or(0) as u8,
            tool: t.opt(tool_of(n)),
        })
        .collect();
    let head = SHead {
        text: t.done()?,
        nodes,
    };
    let mut t = Text::new();
    let defs = part
        .iter()
        .map(|n| {
            let (keys, values) = map_to(&n.definition, &mut t);
            SDef { keys, values }
        })
        .collect();
    let defs = SDefs {
        text: t.done()?,
        defs,
    };
    let mut bytes = rkyv::to_bytes::<rkyv::rancor::Error>(&head).ok()?;
    let split = bytes.len();
    bytes.resize(split.div_ceil(16) * 16, 0);
    bytes.extend_from_slice(&rkyv::to_bytes::<rkyv::rancor::Error>(&defs).ok()?);
    Some((bytes, split))
}

/// One archived node (its head in the text `head`, its definition in the
/// text `defs`), as the model's (read in place: nothing else of the
/// archive is copied).
pub(super) fn node(
    n: &ArchivedSHeadNode,
    head: &str,
    d: &ArchivedSDef,
    defs: &str,
) -> Option<Node> {
    Some(Node {
        id: Id::from(at(head, &n.id)?),
        phase: match n.phase.as_ref() {
            None => None,
            Some(p) => Some(Id::from(at(head, p)?)),
        },
        kind: *NodeKind::ALL.get(n.kind as usize)?,
        definition: map_from(&d.keys, &d.values, defs)?.into(),
    })
}

/// The definition of node `at` of a definitions part that passed
/// [`defs_sound`]: built from the archive, which cannot fail then (an
/// empty map, never seen, stands for the impossible).
pub(super) fn definition(c: &ArchivedSDefs, at: usize) -> Map {
    let text = c.text.as_str();
    let built = c
        .defs
        .get(at)
        .and_then(|n| map_from(&n.keys, &n.values, text));
    debug_assert!(built.is_some(), "a sound chunk's definitions build");
    built.unwrap_or_default()
}

/// A value of a definitions part that passed [`defs_sound`], built alone
/// (as [`definition`], cannot fail then: `null` stands for the impossible).
pub(super) fn value(v: Option<&ArchivedSValue>, text: &str) -> Value {
    let built = v.and_then(|v| value_from(v, text));
    debug_assert!(built.is_some(), "a sound chunk's values build");
    built.unwrap_or(Value::Null)
}

/// Whether every node's head in `c` reads back as a writer made it: every
/// string's place (id, phase, tool) lies in the text on character
/// boundaries and every kind is one a writer makes.
pub(super) fn head_sound(c: &ArchivedSHead) -> bool {
    let text = c.text.as_str();
    c.nodes.iter().all(|n| {
        at(text, &n.id).is_some()
            && n.phase.as_ref().is_none_or(|p| at(text, p).is_some())
            && n.tool.as_ref().is_none_or(|p| at(text, p).is_some())
            && (n.kind as usize) < NodeKind::ALL.len()
    })
}

/// Whether the definitions part `c` of a chunk of `nodes` nodes reads back
/// as a writer made it: one definition per node, every string's place in
/// the text on character boundaries, every select and route segment one a
/// writer makes, no object repeating a key and nothing nested deeper than
/// a plan is read ([`MAX_DEPTH`](crate::wire::parse::MAX_DEPTH)). A walk
/// that builds and allocates nothing (but for an object of more than
/// [`PAIRWISE`] keys), so that a definition can be built later, when it is
/// read, and cannot fail then ([`definition`]).
pub(super) fn defs_sound(c: &ArchivedSDefs, nodes: usize) -> bool {
    let text = c.text.as_str();
    c.defs.len() == nodes
        && c.defs
            .iter()
            .all(|d| map_sound(&d.keys, &d.values, text, 1))
}

/// Objects with up to this many keys are checked for a repeated key pair
/// by pair; larger ones through a sorted list of their keys.
const PAIRWISE: usize = 16;

fn map_sound(
    keys: &rkyv::vec::ArchivedVec<ArchivedSStr>,
    values: &rkyv::vec::ArchivedVec<ArchivedSValue>,
    text: &str,
    depth: usize,
) -> bool {
    if keys.len() != values.len() || depth > crate::wire::parse::MAX_DEPTH {
        return false;
    }
    if keys.len() <= PAIRWISE {
        // Keys are compared whole only when their lengths and first and
        // last bytes agree.
        let mut seen = [0u64; PAIRWISE];
        for (i, k) in keys.iter().enumerate() {
            let Some(k) = at(text, k) else {
                return false;
            };
            let f = fingerprint(k);
            let mut j = 0;
            while j < i {
                if seen[j] == f && at(text, &keys[j]) == Some(k) {
                    return false;
                }
                j += 1;
            }
            seen[i] = f;
        }
    } else {
        let mut large = Vec::with_capacity(keys.len());
        for k in keys.iter() {
            let Some(k) = at(text, k) else {
                return false;
            };
            large.push(k);
        }
        large.sort_unstable();
        if large.windows(2).any(|w| w[0] == w[1]) {
            return false;
        }
    }
    values.iter().all(|v| value_sound(v, text, depth))
}

/// A key's length and its first and last bytes, in one word.
fn fingerprint(k: &str) -> u64 {
    let b = k.as_bytes();
    let (first, last) = (b.first().copied(), b.last().copied());
    (b.len() as u64) << 16 | u64::from(first.unwrap_or(0)) << 8 | u64::from(last.unwrap_or(0))
}

fn value_sound(v: &ArchivedSValue, text: &str, depth: usize) -> bool {
    match v {
        ArchivedSValue::Null | ArchivedSValue::Bool(_) | ArchivedSValue::Number(_) => true,
        ArchivedSValue::String(s) | ArchivedSValue::Param(s) => at(text, s).is_some(),
        ArchivedSValue::Array(a) => {
            depth < crate::wire::parse::MAX_DEPTH
                && a.iter().all(|x| value_sound(x, text, depth + 1))
        }
        ArchivedSValue::Object(k, v) => map_sound(k, v, text, depth + 1),
        ArchivedSValue::Ref(r) => {
            at(text, &r.node).is_some()
                && r.select <= 3
                && r.path.as_ref().is_none_or(|p| at(text, p).is_some())
                && r.branch.as_ref().is_none_or(|segs| {
                    segs.iter().all(|s| {
                        (s.join.is_some() || s.of.len() == 1)
                            && s.join.as_ref().is_none_or(|j| at(text, j).is_some())
                            && s.of.iter().all(|e| at(text, e).is_some())
                    })
                })
        }
    }
}

/// A chunk of edges, archived (`None` when its text is too long).
pub(super) fn edges_to(part: &[Edge]) -> Option<rkyv::util::AlignedVec<16>> {
    let mut t = Text::new();
    let edges = part
        .iter()
        .map(|e| SEdge {
            id: t.put(&e.id),
            from: t.put(&e.from),
            to: t.put(&e.to),
            handle: t.put(&e.handle.as_str()),
        })
        .collect();
    let chunk = SEdges {
        text: t.done()?,
        edges,
    };
    rkyv::to_bytes::<rkyv::rancor::Error>(&chunk).ok()
}

/// An archived edge of a chunk whose text is `text`: its id, source and
/// target; `None` when a place does not lie in the text.
pub(super) fn edge_ends<'a>(
    e: &ArchivedSEdge,
    text: &'a str,
) -> Option<(&'a str, &'a str, &'a str)> {
    Some((at(text, &e.id)?, at(text, &e.from)?, at(text, &e.to)?))
}

/// An archived edge as the model's (`None` as [`edge_ends`]).
pub(super) fn edge(e: &ArchivedSEdge, text: &str) -> Option<Edge> {
    let (id, from, to) = edge_ends(e, text)?;
    Some(Edge {
        id: Id::from(id),
        from: Id::from(from),
        to: Id::from(to),
        handle: Handle::parse(at(text, &e.handle)?),
    })
}

/// `None` when its arguments' text is too long for a place (4 GiB).
pub(super) fn provenance_to(p: &Provenance) -> Option<SProvenance> {
    Some(match p {
        Provenance::Clone {
            parent,
            parent_digest,
            parent_revision,
        } => SProvenance {
            clone: Some((parent.clone(), parent_digest.clone(), *parent_revision)),
            template: String::new(),
            text: String::new(),
            keys: Vec::new(),
            values: Vec::new(),
        },
        Provenance::Template { template, args } => {
            let mut t = Text::new();
            let (keys, values) = map_to(args, &mut t);
            SProvenance {
                clone: None,
                template: template.clone(),
                text: t.done()?,
                keys,
                values,
            }
        }
    })
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
            args: map_from(&p.keys, &p.values, p.text.as_str())?,
        },
    })
}

/// `None` when its provenance cannot be archived ([`provenance_to`]).
pub(super) fn meta_to(m: &Meta) -> Option<SMeta> {
    Some(SMeta {
        state: m.state.as_str().to_string(),
        label: m.label.clone(),
        request: m.request.clone(),
        provenance: match m.provenance.as_ref() {
            None => None,
            Some(p) => Some(provenance_to(p)?),
        },
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
    })
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
        actor: r.actor.to_string(),
        lamport: r.lamport,
        at: r.at.to_string(),
        kind: r.kind.to_string(),
        node: r.node.as_deref().map(str::to_string),
    }
}

pub(super) fn op_ref(r: &ArchivedSOpRef) -> Option<OpRef> {
    Some(OpRef {
        actor: r.actor.as_str().into(),
        lamport: r.lamport.to_native(),
        at: r.at.as_str().into(),
        kind: KINDS.iter().copied().find(|k| *k == r.kind.as_str())?,
        node: opt(&r.node).map(Into::into),
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
            definition: Map::new().into(),
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

    /// A reference to the string at 0..1, with `select` and `branch`.
    fn reference(select: u8, branch: Option<Vec<SSegment>>) -> SValue {
        SValue::Ref(Box::new(SRef {
            node: SStr { at: 0, len: 1 },
            select,
            index: 0,
            path: None,
            branch,
        }))
    }

    /// A chunk of nodes as a test writes it: one text for both parts.
    struct SNodes {
        text: String,
        nodes: Vec<SNode>,
    }

    struct SNode {
        id: SStr,
        phase: Option<SStr>,
        kind: u8,
        keys: Vec<SStr>,
        values: Vec<SValue>,
    }

    /// The head part and the definitions part of `c`, archived.
    fn parts(c: SNodes) -> (rkyv::util::AlignedVec, rkyv::util::AlignedVec) {
        let head = SHead {
            text: c.text.clone(),
            nodes: c
                .nodes
                .iter()
                .map(|n| SHeadNode {
                    id: n.id,
                    phase: n.phase,
                    kind: n.kind,
                    tool: None,
                })
                .collect(),
        };
        let defs = SDefs {
            text: c.text,
            defs: c
                .nodes
                .into_iter()
                .map(|n| SDef {
                    keys: n.keys,
                    values: n.values,
                })
                .collect(),
        };
        (
            rkyv::to_bytes::<rkyv::rancor::Error>(&head).unwrap(),
            rkyv::to_bytes::<rkyv::rancor::Error>(&defs).unwrap(),
        )
    }

    /// Whether the chunk `c`, archived, passes both walks.
    fn sound_of(c: SNodes) -> bool {
        let n = c.nodes.len();
        let (h, d) = parts(c);
        let h = rkyv::access::<ArchivedSHead, rkyv::rancor::Error>(&h).unwrap();
        let d = rkyv::access::<ArchivedSDefs, rkyv::rancor::Error>(&d).unwrap();
        head_sound(h) && defs_sound(d, n)
    }

    /// `null` in `levels` arrays.
    fn deep(levels: usize) -> SValue {
        let mut v = SValue::Null;
        for _ in 0..levels {
            v = SValue::Array(vec![v]);
        }
        v
    }

    /// The walk that lets a definition be built later finds whatever a
    /// writer never makes, anywhere in a definition: a place outside the
    /// text or inside a character, a select or kind no writer makes, a
    /// route segment of the wrong shape, keys and values of different
    /// counts, a repeated key (in a small object and a large one), and
    /// nesting past what a plan is read to. A chunk a writer made passes.
    #[test]
    fn the_walk_finds_what_a_writer_never_makes() {
        let s = |at, len| SStr { at, len };
        // "abé" at 0..4, "key" at 4..7, "k2" at 7..9.
        let text = "ab\u{e9}keyk2";
        let chunk = |kind: u8, keys: Vec<SStr>, values: Vec<SValue>| SNodes {
            text: text.into(),
            nodes: vec![SNode {
                id: s(0, 2),
                phase: Some(s(2, 2)),
                kind,
                keys,
                values,
            }],
        };
        let good = vec![
            SValue::Object(
                vec![s(4, 3), s(7, 2)],
                vec![
                    SValue::String(s(0, 4)),
                    SValue::Array(vec![
                        reference(3, None),
                        reference(
                            0,
                            Some(vec![
                                SSegment {
                                    join: None,
                                    of: vec![s(0, 1)],
                                },
                                SSegment {
                                    join: Some(s(1, 1)),
                                    of: vec![],
                                },
                            ]),
                        ),
                        SValue::Param(s(4, 3)),
                    ]),
                ],
            ),
            deep(100),
        ];
        assert!(sound_of(chunk(6, vec![s(4, 3), s(7, 2)], good)));
        let bad: Vec<(u8, Vec<SStr>, Vec<SValue>, &str)> = vec![
            (7, vec![s(4, 3)], vec![SValue::Null], "a kind"),
            (
                0,
                vec![s(4, 3), s(4, 3)],
                vec![SValue::Null, SValue::Null],
                "a repeated key",
            ),
            (0, vec![s(4, 3), s(7, 2)], vec![SValue::Null], "counts"),
            (
                0,
                vec![s(3, 1)],
                vec![SValue::Null],
                "a key inside a character",
            ),
            (
                0,
                vec![s(4, 3)],
                vec![SValue::String(s(8, 2))],
                "a string past the text",
            ),
            (
                0,
                vec![s(4, 3)],
                vec![SValue::Param(s(u32::MAX, 2))],
                "a param's place",
            ),
            (0, vec![s(4, 3)], vec![reference(4, None)], "a select"),
            (
                0,
                vec![s(4, 3)],
                vec![reference(
                    0,
                    Some(vec![SSegment {
                        join: None,
                        of: vec![],
                    }]),
                )],
                "an edge segment without its edge",
            ),
            (
                0,
                vec![s(4, 3)],
                vec![reference(
                    0,
                    Some(vec![SSegment {
                        join: Some(s(3, 1)),
                        of: vec![],
                    }]),
                )],
                "a join's place",
            ),
            (
                0,
                vec![s(4, 3)],
                vec![SValue::Array(vec![SValue::Object(
                    vec![s(7, 2), s(7, 2)],
                    vec![SValue::Null, SValue::Null],
                )])],
                "a repeated key below",
            ),
            (
                0,
                vec![s(4, 3)],
                vec![SValue::Object(
                    (0..20)
                        .map(|i| if i == 19 { s(4, 3) } else { s(0, 1 + (i % 2)) })
                        .collect(),
                    (0..20).map(|_| SValue::Null).collect(),
                )],
                "a repeated key in a large object",
            ),
            (
                0,
                vec![s(4, 3)],
                vec![deep(crate::wire::parse::MAX_DEPTH + 1)],
                "too deep",
            ),
        ];
        for (kind, keys, values, why) in bad {
            assert!(!sound_of(chunk(kind, keys, values)), "{why}");
        }
        let mut no_id = chunk(0, vec![], vec![]);
        no_id.nodes[0].id = s(9, 1);
        assert!(!sound_of(no_id), "an id past the text");
        let mut phase = chunk(0, vec![], vec![]);
        phase.nodes[0].phase = Some(s(3, 1));
        assert!(!sound_of(phase), "a phase inside a character");
    }

    /// A head's tool (as its id and phase) must lie in the head part's
    /// text, on character boundaries.
    #[test]
    fn a_tool_outside_the_heads_text_is_not_sound() {
        let head = |tool| SHead {
            text: "abcall\u{e9}".into(),
            nodes: vec![SHeadNode {
                id: SStr { at: 0, len: 2 },
                phase: None,
                kind: 0,
                tool,
            }],
        };
        let sound = |h: SHead| {
            let b = rkyv::to_bytes::<rkyv::rancor::Error>(&h).unwrap();
            head_sound(rkyv::access::<ArchivedSHead, rkyv::rancor::Error>(&b).unwrap())
        };
        assert!(sound(head(Some(SStr { at: 2, len: 4 }))));
        assert!(sound(head(None)));
        assert!(!sound(head(Some(SStr { at: 4, len: 8 }))), "past the text");
        assert!(
            !sound(head(Some(SStr { at: 6, len: 1 }))),
            "inside a character"
        );
    }

    /// A string's place outside its chunk's text, or inside a character,
    /// is an archive no writer makes: the node is not read (the snapshot
    /// is rebuilt); the places a writer makes read back.
    #[test]
    fn a_string_out_of_its_text_is_not_read() {
        let chunk = |id: SStr, key: SStr| SNodes {
            text: "ab\u{e9}key".into(),
            nodes: vec![SNode {
                id,
                phase: None,
                kind: 0,
                keys: vec![key],
                values: vec![SValue::String(SStr { at: 0, len: 1 })],
            }],
        };
        let key = SStr { at: 4, len: 3 };
        let cases = [
            (SStr { at: 0, len: 2 }, key, Some("ab")),
            (SStr { at: 1, len: 3 }, key, Some("b\u{e9}")),
            (SStr { at: 5, len: 3 }, key, None),
            (
                SStr {
                    at: u32::MAX,
                    len: 2,
                },
                key,
                None,
            ),
            (SStr { at: 3, len: 1 }, key, None),
            (SStr { at: 0, len: 1 }, SStr { at: 6, len: 9 }, None),
        ];
        for (id, key, want) in cases {
            let (h, d) = parts(chunk(id, key));
            let h = rkyv::access::<ArchivedSHead, rkyv::rancor::Error>(&h).unwrap();
            let d = rkyv::access::<ArchivedSDefs, rkyv::rancor::Error>(&d).unwrap();
            let n = node(&h.nodes[0], h.text.as_str(), &d.defs[0], d.text.as_str());
            assert_eq!(n.as_ref().map(|n| n.id.as_str()), want);
            if let Some(n) = n {
                assert_eq!(n.definition.get("key"), Some(&Value::String("a".into())));
            }
        }
    }
}
