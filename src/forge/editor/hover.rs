//! What hovering shows: for a node id, the node's kind, phase, what it
//! reads and what follows it, the fields it declares, and its findings; for
//! a tool name, the registry's entry.

use super::navigate::{Name, under};
use super::shape::{Shape, declared};
use super::{Doc, Span, View};
use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::registry::{Registry, ToolEntry};

/// A node as hovering shows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NodeInfo {
    pub(crate) id: String,
    /// `false`: the document has no node with this id.
    pub(crate) defined: bool,
    pub(crate) kind: Option<NodeKind>,
    pub(crate) phase: Option<String>,
    /// The nodes it reads (each once, in text order), with the paths read.
    pub(crate) reads: Vec<(String, Vec<String>)>,
    /// Edges into it: the source and the handle.
    pub(crate) incoming: Vec<(String, String)>,
    /// Edges out of it: the target and the handle.
    pub(crate) outgoing: Vec<(String, String)>,
    /// The fields it declares for references.
    pub(crate) outputs: Vec<String>,
    /// Its findings, from the last validation.
    pub(crate) issues: Vec<Issue>,
}

/// A tool as hovering shows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ToolInfo {
    pub(crate) name: String,
    /// The registry's entry, if the registry has the tool.
    pub(crate) entry: Option<ToolEntry>,
    /// Where the registry was read from; `None`: no registry was found.
    pub(crate) registry: Option<String>,
    /// The registry's nearest tool names, when it lacks this one.
    pub(crate) nearest: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Hover {
    Node(NodeInfo),
    Tool(ToolInfo),
}

impl Doc {
    /// What hovering at `offset` shows, and the span it is about.
    /// `issues` are the findings of the document's last validation.
    pub(crate) fn hover(
        &self,
        offset: usize,
        registry: Option<&Registry>,
        issues: &[Issue],
    ) -> Option<(Hover, Span)> {
        let stale = self.stale(Some(offset));
        let early = stale.and_then(|v| hover_in(&v, offset, registry, issues));
        early.or_else(|| hover_in(&self.view()?, offset, registry, issues))
    }
}

/// [`Doc::hover`] in the reading `v`.
fn hover_in(
    v: &View,
    offset: usize,
    registry: Option<&Registry>,
    issues: &[Issue],
) -> Option<(Hover, Span)> {
    let idx = v.index();
    let u = under(&idx, v.back(offset)?)?;
    let hover = match u.name {
        Name::Node(id) => Hover::Node(node_info(&idx, v.read.shape(), &id, issues)),
        Name::Tool(name) => Hover::Tool(tool_info(&name, registry)),
        Name::Phase(_) => return None,
    };
    Some((hover, v.forth(u.span)?))
}

fn node_info(
    idx: &crate::wire::span::SpanIndex,
    shape: &Shape,
    id: &str,
    issues: &[Issue],
) -> NodeInfo {
    let node = shape.node(id);
    let mut reads: Vec<(String, Vec<String>)> = Vec::new();
    if let Some(n) = node {
        for r in shape.refs.iter().filter(|r| r.holder == n.index) {
            let Some((target, _)) = &r.at.node else {
                continue;
            };
            let path = idx.string_at(&format!("{}/$ref/path", r.at.pointer));
            match reads.iter_mut().find(|(t, _)| t == target) {
                Some((_, paths)) => paths.extend(path),
                None => reads.push((target.clone(), path.into_iter().collect())),
            }
        }
    }
    let ends = |mine: fn(&super::shape::EdgeAt) -> &Option<(String, Span)>,
                other: fn(&super::shape::EdgeAt) -> &Option<(String, Span)>| {
        shape
            .edges
            .iter()
            .filter(|e| mine(e).as_ref().is_some_and(|(n, _)| n == id))
            .filter_map(|e| {
                let o = other(e).as_ref()?.0.clone();
                let h = e
                    .handle
                    .as_ref()
                    .map_or_else(|| "always".to_string(), |(h, _)| h.clone());
                Some((o, h))
            })
            .collect::<Vec<_>>()
    };
    NodeInfo {
        id: id.to_string(),
        defined: node.is_some(),
        kind: node.and_then(|n| n.kind),
        phase: node.and_then(|n| n.phase.clone()),
        reads,
        incoming: ends(|e| &e.to, |e| &e.from),
        outgoing: ends(|e| &e.from, |e| &e.to),
        outputs: node.map(|n| declared(idx, n)).unwrap_or_default(),
        issues: issues
            .iter()
            .filter(|i| i.node_id.as_deref() == Some(id))
            .cloned()
            .collect(),
    }
}

fn tool_info(name: &str, registry: Option<&Registry>) -> ToolInfo {
    ToolInfo {
        name: name.to_string(),
        entry: registry.and_then(|r| r.tool(name).cloned()),
        registry: registry.map(|r| r.source.clone()),
        nearest: match registry {
            Some(r) if r.tool(name).is_none() => {
                crate::model::suggest::closest(name, r.tool_names())
                    .into_iter()
                    .map(str::to_string)
                    .collect()
            }
            _ => Vec::new(),
        },
    }
}
