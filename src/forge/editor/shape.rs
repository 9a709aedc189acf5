//! A document's nodes, edges and references as its text holds them, with
//! their spans: what every editor query starts from. Read from the span
//! tree alone, so a document that does not read as a plan (mid-typing, an
//! unknown kind) still has a shape.

use super::Span;
use crate::model::NodeKind;
use crate::wire::span::{RefSpan, SpanIndex};
use std::collections::HashMap;

/// One node of the document.
#[derive(Debug, Clone)]
pub(crate) struct NodeAt {
    /// Its place in `nodes` (its pointer is `/nodes/{index}`).
    pub(crate) index: usize,
    pub(crate) id: Option<String>,
    pub(crate) id_span: Option<Span>,
    /// The node's whole object.
    pub(crate) span: Span,
    pub(crate) kind: Option<NodeKind>,
    pub(crate) phase: Option<String>,
}

/// One edge of the document.
#[derive(Debug, Clone)]
pub(crate) struct EdgeAt {
    pub(crate) index: usize,
    pub(crate) id: Option<String>,
    pub(crate) from: Option<(String, Span)>,
    pub(crate) to: Option<(String, Span)>,
    pub(crate) handle: Option<(String, Span)>,
}

/// One reference in a node's definition.
#[derive(Debug, Clone)]
pub(crate) struct RefAt {
    /// The node holding it (an index into [`Shape::nodes`]).
    pub(crate) holder: usize,
    pub(crate) at: RefSpan,
}

/// A document's nodes, edges and references.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shape {
    pub(crate) nodes: Vec<NodeAt>,
    pub(crate) edges: Vec<EdgeAt>,
    pub(crate) refs: Vec<RefAt>,
    /// Node id → the node the fold keeps (the last with that id).
    by_id: HashMap<String, usize>,
}

impl Shape {
    pub(crate) fn of(idx: &SpanIndex) -> Shape {
        let mut s = Shape::default();
        for (i, span) in idx
            .items("/nodes")
            .unwrap_or_default()
            .into_iter()
            .enumerate()
        {
            let at = format!("/nodes/{i}");
            let id = idx.string_at(&format!("{at}/id"));
            if let Some(id) = &id {
                s.by_id.insert(id.clone(), i);
            }
            s.nodes.push(NodeAt {
                index: i,
                id_span: id.as_ref().and(idx.find(&format!("{at}/id"))),
                id,
                span,
                kind: idx
                    .string_at(&format!("{at}/kind"))
                    .and_then(|k| NodeKind::parse(&k)),
                phase: idx
                    .string_at(&format!("{at}/phase"))
                    .filter(|p| !p.is_empty()),
            });
            for r in idx.refs_under(&format!("{at}/definition")) {
                s.refs.push(RefAt { holder: i, at: r });
            }
        }
        for i in 0..idx.items("/edges").map_or(0, |v| v.len()) {
            let at = format!("/edges/{i}");
            let field = |k: &str| {
                let p = format!("{at}/{k}");
                Some((idx.string_at(&p)?, idx.find(&p)?))
            };
            s.edges.push(EdgeAt {
                index: i,
                id: idx.string_at(&format!("{at}/id")),
                from: field("from"),
                to: field("to"),
                handle: field("handle"),
            });
        }
        s
    }

    /// The node with this id (the last one, as the fold keeps it).
    pub(crate) fn node(&self, id: &str) -> Option<&NodeAt> {
        self.by_id.get(id).map(|&i| &self.nodes[i])
    }

    /// The ids of the nodes upstream of `id` (those an edge path leads
    /// from), nearest first.
    pub(crate) fn upstream(&self, id: &str) -> Vec<String> {
        let mut into: HashMap<&str, Vec<&str>> = HashMap::new();
        for e in &self.edges {
            if let (Some((f, _)), Some((t, _))) = (&e.from, &e.to) {
                into.entry(t.as_str()).or_default().push(f.as_str());
            }
        }
        let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
        seen.insert(id);
        let mut order: Vec<&str> = vec![id];
        let mut at = 0;
        while at < order.len() {
            let x = order[at];
            at += 1;
            for p in into.get(x).into_iter().flatten() {
                if seen.insert(p) {
                    order.push(p);
                }
            }
        }
        order[1..].iter().map(|s| s.to_string()).collect()
    }
}

/// The fields a node declares for references to read, as its text writes
/// them: an entry's `input` and a call's or transform's `output` paths, a
/// reason's `outputSchema` properties (top level), a join's `via`, `from`
/// and `branch` (as `Node::declared_paths` reads them from a plan).
pub(crate) fn declared(idx: &SpanIndex, node: &NodeAt) -> Vec<String> {
    let at = format!("/nodes/{}/definition", node.index);
    let list = |key: &str| -> Vec<String> {
        let p = format!("{at}/{key}");
        let n = idx.items(&p).map_or(0, |v| v.len());
        (0..n)
            .filter_map(|i| idx.string_at(&format!("{p}/{i}/path")))
            .collect()
    };
    match node.kind {
        Some(NodeKind::Entry) => list("input"),
        Some(NodeKind::Call | NodeKind::Transform) => list("output"),
        Some(NodeKind::Join) => vec!["via".into(), "from".into(), "branch".into()],
        Some(NodeKind::Reason) => idx
            .members(&format!("{at}/outputSchema/properties"))
            .unwrap_or_default()
            .into_iter()
            .map(|(k, _, _)| k)
            .collect(),
        _ => Vec::new(),
    }
}
