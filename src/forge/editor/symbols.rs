//! The document's outline as symbols: its phases in the order they first
//! appear, each with its node ids, then the unphased nodes — what
//! `planforge outline` shows of a stored plan.

use super::shape::Shape;
use super::{Doc, Span};

/// What a symbol stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SymbolKind {
    Phase,
    Node,
}

/// One entry of the outline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Symbol {
    pub(crate) name: String,
    /// A node's kind.
    pub(crate) detail: Option<String>,
    pub(crate) kind: SymbolKind,
    /// All of it (a phase: from its first node to its last).
    pub(crate) span: Span,
    /// What to select when it is picked: a node's id.
    pub(crate) select: Span,
    pub(crate) children: Vec<Symbol>,
}

impl Doc {
    /// The outline (of the last well-formed version while this one is
    /// not, without what the change since has no place for); empty when
    /// no version was well-formed.
    pub(crate) fn symbols(&self) -> Vec<Symbol> {
        // Right after a change: the last reading (without the nodes whose
        // text changed) until this version is read.
        let Some(v) = self.stale(None).or_else(|| self.view()) else {
            return Vec::new();
        };
        let all = outline(v.read.shape());
        match v.moved {
            None => all,
            Some(_) => all.into_iter().filter_map(|s| moved(s, &v)).collect(),
        }
    }
}

/// A symbol of the text read placed in the text now: a node whose id is
/// in the text that changed is left out; a phase spans the nodes it keeps.
fn moved(s: Symbol, v: &super::View) -> Option<Symbol> {
    let children: Vec<Symbol> = s.children.into_iter().filter_map(|c| moved(c, v)).collect();
    let detail = match s.kind {
        SymbolKind::Phase => Some(format!("phase, {} node(s)", children.len())),
        SymbolKind::Node => s.detail.clone(),
    };
    let (select, span) = match s.kind {
        SymbolKind::Node => {
            let select = v.forth(s.select)?;
            (select, v.forth(s.span).unwrap_or(select))
        }
        SymbolKind::Phase => {
            let first = children.first()?;
            let hull = Span {
                start: first.span.start,
                end: children
                    .iter()
                    .map(|c| c.span.end)
                    .max()
                    .unwrap_or(first.span.end),
            };
            (first.select, v.forth(s.span).unwrap_or(hull))
        }
    };
    Some(Symbol {
        select,
        span,
        children,
        detail,
        ..s
    })
}

/// The outline of a shape.
fn outline(shape: &Shape) -> Vec<Symbol> {
    let mut phases: Vec<Symbol> = Vec::new();
    let mut unphased: Vec<Symbol> = Vec::new();
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for n in &shape.nodes {
        let Some(id) = &n.id else { continue };
        let sym = Symbol {
            name: id.clone(),
            detail: n.kind.map(|k| k.as_str().to_string()),
            kind: SymbolKind::Node,
            span: n.span,
            select: n.id_span.unwrap_or(n.span),
            children: Vec::new(),
        };
        let Some(phase) = &n.phase else {
            unphased.push(sym);
            continue;
        };
        match at.get(phase.as_str()).map(|&k| &mut phases[k]) {
            Some(p) => {
                p.span.end = p.span.end.max(n.span.end);
                p.children.push(sym);
            }
            None => {
                at.insert(phase.as_str(), phases.len());
                phases.push(Symbol {
                    name: phase.clone(),
                    detail: Some("phase".into()),
                    kind: SymbolKind::Phase,
                    span: n.span,
                    select: sym.select,
                    children: vec![sym],
                })
            }
        }
    }
    for p in &mut phases {
        p.detail = Some(format!("phase, {} node(s)", p.children.len()));
    }
    phases.extend(unphased);
    phases
}
