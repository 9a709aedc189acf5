//! What a name under the cursor is, where it is defined and where it is
//! used: go to definition, find references.

use super::shape::Shape;
use super::{Doc, Span, View};
use crate::wire::span::{SpanIndex, tokens};

/// A name a document uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Name {
    /// A node id: a node's `id`, a reference's `node`, an edge's `from` or
    /// `to`.
    Node(String),
    /// A call's `tool`.
    Tool(String),
    /// A node's `phase`.
    Phase(String),
}

/// A name and the span of the value that spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Under {
    pub(crate) name: Name,
    pub(crate) span: Span,
}

/// What kind of place a pointer names, for a string there.
pub(crate) fn place(pointer: &str) -> Option<Place> {
    let t = tokens(pointer)?;
    let t: Vec<&str> = t.iter().map(String::as_str).collect();
    match t.as_slice() {
        ["nodes", _, "id"] => Some(Place::NodeId),
        ["nodes", _, "phase"] => Some(Place::Phase),
        ["nodes", _, "kind"] => Some(Place::Kind),
        ["nodes", _, "definition", "tool"] => Some(Place::Tool),
        ["edges", _, "from" | "to"] => Some(Place::EdgeEnd),
        ["edges", _, "handle"] => Some(Place::Handle),
        ["nodes", _, "definition", .., "$ref", "node"] => Some(Place::RefNode),
        ["nodes", _, "definition", .., "$ref", "path"] => Some(Place::RefPath),
        ["nodes", _, "definition", .., "$ref", "select"] => Some(Place::RefSelect),
        _ => None,
    }
}

/// The places where names are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    NodeId,
    Phase,
    Tool,
    EdgeEnd,
    Handle,
    RefNode,
    RefPath,
    /// A reference's `select` (which runs of the node it reads).
    RefSelect,
    /// A node's `kind`.
    Kind,
}

/// The name under `offset`, if the cursor is on one.
pub(crate) fn under(idx: &SpanIndex, offset: usize) -> Option<Under> {
    let c = idx.cursor(offset)?;
    if c.on_key || !c.scalar {
        return None;
    }
    let value = idx.scalar_text(c.span)?;
    let name = match place(&c.pointer)? {
        Place::NodeId | Place::EdgeEnd | Place::RefNode => Name::Node(value),
        Place::Tool => Name::Tool(value),
        Place::Phase => Name::Phase(value),
        Place::Handle | Place::RefPath | Place::RefSelect | Place::Kind => return None,
    };
    Some(Under { name, span: c.span })
}

impl Doc {
    /// Where the node named under `offset` is defined: the span of its
    /// `id` value (the last node with that id, the one the fold keeps).
    pub(crate) fn definition(&self, offset: usize) -> Option<Span> {
        let stale = self.stale(Some(offset));
        let early = stale.and_then(|v| definition_in(&v, offset));
        early.or_else(|| definition_in(&self.view()?, offset))
    }

    /// Every place that names the node under `offset`: its `id` (when
    /// `declaration`), every reference's `node`, every edge's `from` and
    /// `to`, in text order.
    pub(crate) fn references(&self, offset: usize, declaration: bool) -> Vec<Span> {
        // From the last reading only when every place is outside the
        // change (else the answer would miss some).
        if let Some(v) = self.stale(Some(offset))
            && let (early, true) = references_in(&v, offset, declaration)
            && !early.is_empty()
        {
            return early;
        }
        self.view()
            .map(|v| references_in(&v, offset, declaration).0)
            .unwrap_or_default()
    }
}

/// [`Doc::definition`] in the reading `v`.
fn definition_in(v: &View, offset: usize) -> Option<Span> {
    let Name::Node(id) = under(&v.index(), v.back(offset)?)?.name else {
        return None;
    };
    v.forth(v.read.shape().node(&id)?.id_span?)
}

/// [`Doc::references`] in the reading `v` (those in the text changed since
/// `v` was read left out), and whether none was.
fn references_in(v: &View, offset: usize, declaration: bool) -> (Vec<Span>, bool) {
    let Some(Name::Node(id)) = v
        .back(offset)
        .and_then(|at| under(&v.index(), at))
        .map(|u| u.name)
    else {
        return (Vec::new(), true);
    };
    let shape: &Shape = v.read.shape();
    let mut out: Vec<Span> = Vec::new();
    if declaration {
        out.extend(
            shape
                .nodes
                .iter()
                .filter(|n| n.id.as_deref() == Some(id.as_str()))
                .filter_map(|n| n.id_span),
        );
    }
    out.extend(
        shape
            .refs
            .iter()
            .filter_map(|r| r.at.node.as_ref())
            .filter(|(n, _)| *n == id)
            .map(|(_, s)| *s),
    );
    for e in &shape.edges {
        for (n, s) in [&e.from, &e.to].into_iter().flatten() {
            if *n == id {
                out.push(*s);
            }
        }
    }
    let all = out.len();
    let mut out: Vec<Span> = out.into_iter().filter_map(|s| v.forth(s)).collect();
    out.sort_by_key(|s| s.start);
    let complete = out.len() == all;
    (out, complete)
}
