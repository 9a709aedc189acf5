//! What may be typed at the cursor: node ids in a reference's `node` (the
//! nodes upstream of the reader first) and in an edge's `from` and `to`,
//! the fields the referenced node declares in a reference's `path`, the
//! handles the source's kind has in an edge's `handle` (a select's cases as
//! `case_<label>`), the registry's tools in a call's `tool`, the document's
//! phases in a node's `phase`, the node kinds in a node's `kind`, and
//! `first`, `last`, `all` in a reference's `select`.
//!
//! Mid-typing a document is often not well-formed (`"node": "fe` with no
//! closing quote, `"node": ` with no value yet), or has a key with no value
//! (`node: ` in YAML): the text is then read with a closing quote, or an
//! empty string, put at the cursor; or, inside a string closed on its line
//! with no comma after it yet (`"node": "fe"`, as an editor that closes
//! quotes leaves it), with a comma put after the closing quote.

use super::navigate::{Place, place};
use super::shape::{Shape, declared};
use super::{Doc, Read, Span, Syntax, View};
use crate::model::registry::Registry;
use crate::wire::span::{OwnedIndex, SpanIndex};
use std::collections::HashSet;
use std::sync::{Arc, PoisonError};

/// One thing that may be typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    pub(crate) label: String,
    /// What it is (a node's kind and phase, a tool's summary).
    pub(crate) detail: Option<String>,
    /// Lower ranks come first (0: upstream of the reader).
    pub(crate) rank: u8,
    /// The text that replaces [`Completion::span`]: the value as the
    /// document writes it (quoted in JSON).
    pub(crate) insert: String,
}

/// The candidates at a cursor and the span they replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Completion {
    pub(crate) span: Span,
    pub(crate) items: Vec<Candidate>,
    /// Some candidates were left out ([`MAX_CANDIDATES`]): the editor
    /// should ask again as the user types on (LSP `isIncomplete`).
    pub(crate) incomplete: bool,
}

/// The most candidates one answer holds (rust-analyzer and
/// typescript-language-server cap theirs too): a plan of 10,000 nodes
/// would otherwise send every id at every keystroke.
pub(crate) const MAX_CANDIDATES: usize = 200;

/// What may be typed at the cursor where the text is not well-formed: the
/// closing quote, or an empty string, put at the cursor, each also with a
/// comma after it (a pretty-printed object, where the next member is on
/// the next line: `"node": "` typed at a line's end).
const REPAIRS: [&str; 4] = ["\"", "\"\"", "\",", "\"\","];

/// The same in YAML after an unclosed single quote (`node: '`): a quote of
/// the other kind would be read as part of the string (a quoted YAML
/// scalar may go on over lines), so only `'` closes it.
const SINGLE: [&str; 4] = ["'", "''", "',", "'',"];

/// The place at `at` that takes a name, when it is a value's.
fn on_value(idx: &SpanIndex, at: usize) -> Option<crate::wire::span::Cursor> {
    idx.cursor(at)
        .filter(|c| c.scalar && !c.on_key && place(&c.pointer).is_some())
}

/// The repairs to try at `offset`, each an insertion point and the text
/// put there: in YAML, when the last quote before the cursor on its line
/// is a single one, the single-quote ones; then, when the string the
/// cursor is in is closed on its line (an editor closes quotes as they are
/// typed: `"node": "fe"` with the next member below and no comma yet), a
/// comma after its closing quote.
fn repairs(text: &str, offset: usize, syntax: Syntax) -> Vec<(usize, &'static str)> {
    let line = &text[text[..offset].rfind('\n').map_or(0, |i| i + 1)..offset];
    let open = line.rfind(['\'', '"']);
    let single = syntax == Syntax::Yaml && open.is_some_and(|i| line[i..].starts_with('\''));
    let mut all: Vec<(usize, &'static str)> = if single { SINGLE } else { REPAIRS }
        .into_iter()
        .map(|ins| (offset, ins))
        .collect();
    if open.is_some()
        && let Some(end) = closing_quote(&text[offset..], if single { '\'' } else { '"' })
    {
        all.push((offset + end, ","));
    }
    all
}

/// Where the string the text `rest` is the end of closes on its line: the
/// offset just after its closing `quote` (`\"` escapes one in a double-quoted
/// string, `''` in a single-quoted one).
pub(super) fn closing_quote(rest: &str, quote: char) -> Option<usize> {
    let mut chars = rest.char_indices().peekable();
    while let Some((i, ch)) = chars.next() {
        match ch {
            '\n' => return None,
            '\\' if quote == '"' => {
                chars.next();
            }
            q if q == quote => {
                if quote == '\'' && chars.peek().is_some_and(|&(_, c)| c == '\'') {
                    chars.next();
                } else {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

impl Doc {
    /// What may be typed at `offset`; `None` when the cursor is at no place
    /// that takes a name.
    pub(crate) fn complete(
        &self,
        offset: usize,
        registry: Option<&Registry>,
    ) -> Option<Completion> {
        if offset > self.text.len() || !self.text.is_char_boundary(offset) {
            return None;
        }
        // Right after a change, before this version is read: the last
        // reading, where the cursor is outside what changed.
        if let Some(v) = self.stale(Some(offset))
            && let Some(c) = self.complete_in(&v, offset, registry)
        {
            return Some(c);
        }
        // The text as it is (read once per version).
        if let Some(read) = self.read()
            && let Some(c) = on_value(&read.index.index(), offset)
        {
            let span = c.span;
            let (idx, shape) = (read.index.index(), read.shape());
            return Some(self.completion(&idx, shape, c, (span, offset), registry));
        }
        // Not well-formed, or a key with no value yet (`node: `): the text
        // read again with a repair at the cursor. The names come from the
        // text so read (it holds the nodes typed since the last good one).
        // The value's span ends where the repair went in (before it,
        // it is this text's; a comma after a closing quote keeps it whole).
        if let Some((put, read)) = self.repaired_at(offset, |idx, at| on_value(idx, at).is_some()) {
            let idx = read.index.index();
            if let Some(c) = on_value(&idx, offset) {
                let span = Span {
                    start: c.span.start,
                    end: c.span.end.min(put),
                };
                return Some(self.completion(&idx, read.shape(), c, (span, offset), registry));
            }
        }
        // No repair at the cursor reads (the text is broken elsewhere too):
        // the last good version, where the cursor is outside what changed.
        let v = self.view()?;
        v.moved?;
        self.complete_in(&v, offset, registry)
    }

    /// Completion at `offset` from an earlier version's reading `v`, where
    /// the cursor is outside what changed since.
    fn complete_in(
        &self,
        v: &View,
        offset: usize,
        registry: Option<&Registry>,
    ) -> Option<Completion> {
        let at = v.back(offset)?;
        let idx = v.index();
        let c = on_value(&idx, at)?;
        let span = v.forth(c.span)?;
        Some(self.completion(&idx, v.read.shape(), c, (span, offset), registry))
    }

    /// This version's text with the first repair for `offset` that reads
    /// and `fits` there, read (its shape made on first use), and where the
    /// repair went in; `None` when none does. Made once per version and offset: a request again at the
    /// same place reads nothing.
    fn repaired_at(
        &self,
        offset: usize,
        fits: impl Fn(&SpanIndex, usize) -> bool,
    ) -> Option<(usize, Arc<Read>)> {
        let mut kept = self.repaired.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((at, read)) = &*kept
            && *at == offset
        {
            return read.clone();
        }
        let read = repairs(&self.text, offset, self.syntax)
            .into_iter()
            .find_map(|(put, ins)| {
                let mut t = String::with_capacity(self.text.len() + ins.len());
                t.push_str(&self.text[..put]);
                t.push_str(ins);
                t.push_str(&self.text[put..]);
                let index = OwnedIndex::new(Arc::from(t), self.syntax)?;
                fits(&index.index(), offset).then(|| (put, Arc::new(Read::new(index))))
            });
        *kept = Some((offset, read.clone()));
        read
    }

    /// The candidates at the place `c` (of the text `idx` reads), replacing
    /// `span` of this text, the cursor at `offset` in it: those matching
    /// what is typed before the cursor, at most [`MAX_CANDIDATES`].
    fn completion(
        &self,
        idx: &SpanIndex,
        shape: &Shape,
        c: crate::wire::span::Cursor,
        (span, offset): (Span, usize),
        registry: Option<&Registry>,
    ) -> Completion {
        let what = place(&c.pointer).expect("a completion place");
        let like = self.text.get(span.start..span.end).unwrap_or("");
        let typed = self
            .text
            .get(span.start..offset.clamp(span.start, span.end))
            .unwrap_or("");
        let typed = typed.trim_start_matches(['"', '\'']);
        let (items, incomplete) =
            narrowed(candidates(idx, shape, &c.pointer, what, registry), typed);
        let syntax = self.syntax;
        Completion {
            span,
            incomplete,
            items: items
                .into_iter()
                .map(|(label, detail, rank)| Candidate {
                    insert: super::quoted(&label, syntax, quote_of(like, syntax)),
                    label,
                    detail,
                    rank,
                })
                .collect(),
        }
    }
}

/// The candidates that match `typed` (case-insensitive): those whose name
/// starts with it, then those that hold it elsewhere, each group in rank
/// order (upstream nodes first) and else in the document's order; at most
/// [`MAX_CANDIDATES`], and whether some were left out for that.
fn narrowed(all: Vec<Raw>, typed: &str) -> (Vec<Raw>, bool) {
    let typed = typed.to_lowercase();
    let mut kept: Vec<(u8, bool, Raw)> = all
        .into_iter()
        .filter_map(|raw| {
            if typed.is_empty() {
                return Some((raw.2, false, raw));
            }
            let label = raw.0.to_lowercase();
            if label.starts_with(&typed) {
                Some((raw.2, false, raw))
            } else if label.contains(&typed) {
                Some((raw.2, true, raw))
            } else {
                None
            }
        })
        .collect();
    // Stable: the order within a group is the candidates' own.
    kept.sort_by_key(|(rank, inside, _)| (*rank, *inside));
    let incomplete = kept.len() > MAX_CANDIDATES;
    kept.truncate(MAX_CANDIDATES);
    (
        kept.into_iter().map(|(_, _, raw)| raw).collect(),
        incomplete,
    )
}

/// How the value being replaced is quoted (`""` for JSON, whatever it is).
fn quote_of(like: &str, syntax: Syntax) -> &str {
    match syntax {
        Syntax::Json => "\"",
        Syntax::Yaml => like,
    }
}

type Raw = (String, Option<String>, u8);

fn candidates(
    idx: &SpanIndex,
    shape: &Shape,
    pointer: &str,
    what: Place,
    registry: Option<&Registry>,
) -> Vec<Raw> {
    let node_detail = |n: &super::shape::NodeAt| {
        let kind = n.kind.map_or("node", |k| k.as_str());
        Some(match &n.phase {
            Some(p) => format!("{kind} node, phase {p}"),
            None => format!("{kind} node"),
        })
    };
    let holder: Option<usize> = crate::wire::span::tokens(pointer)
        .and_then(|t| (t.first()? == "nodes").then(|| t.get(1)?.parse().ok())?);
    match what {
        Place::RefNode => {
            let reader = holder.and_then(|i| shape.nodes.get(i));
            let reader_id = reader.and_then(|n| n.id.clone());
            let up = reader_id
                .as_deref()
                .map(|id| shape.upstream(id))
                .unwrap_or_default();
            let mut out: Vec<Raw> = up
                .iter()
                .filter_map(|id| shape.node(id))
                .filter_map(|n| Some((n.id.clone()?, node_detail(n), 0)))
                .collect();
            let mut seen: HashSet<String> = out.iter().map(|(l, _, _)| l.clone()).collect();
            seen.extend(reader_id);
            for n in &shape.nodes {
                let Some(id) = &n.id else { continue };
                if seen.insert(id.clone()) {
                    out.push((id.clone(), node_detail(n), 1));
                }
            }
            out
        }
        Place::EdgeEnd => {
            let mut seen: HashSet<&str> = HashSet::new();
            let mut out: Vec<Raw> = Vec::new();
            for n in &shape.nodes {
                let Some(id) = &n.id else { continue };
                if seen.insert(id) {
                    out.push((id.clone(), node_detail(n), 0));
                }
            }
            out
        }
        Place::RefPath => {
            let parent = pointer.rsplit_once('/').map_or("", |(p, _)| p);
            idx.string_at(&format!("{parent}/node"))
                .and_then(|id| shape.node(&id))
                .map(|n| declared(idx, n))
                .unwrap_or_default()
                .into_iter()
                .map(|f| (f, Some("declared field".to_string()), 0))
                .collect()
        }
        Place::Handle => handles(idx, shape, pointer),
        Place::Tool => registry
            .map(|r| {
                r.tools
                    .iter()
                    .map(|(name, t)| (name.clone(), t.summary.clone(), 0))
                    .collect()
            })
            .unwrap_or_default(),
        Place::Phase => {
            let mut seen: HashSet<&str> = HashSet::new();
            let mut out: Vec<Raw> = Vec::new();
            for p in shape.nodes.iter().filter_map(|n| n.phase.as_ref()) {
                if seen.insert(p) {
                    out.push((p.clone(), Some("phase".into()), 0));
                }
            }
            out
        }
        Place::RefSelect => [
            ("first", "the node's first run"),
            ("last", "the node's last run"),
            ("all", "every run of the node, as an array"),
        ]
        .into_iter()
        .map(|(s, d)| (s.to_string(), Some(d.to_string()), 0))
        .collect(),
        Place::Kind => crate::model::node::NodeKind::ALL
            .iter()
            .map(|k| {
                (
                    k.as_str().to_string(),
                    Some(format!("{} node", k.as_str())),
                    0,
                )
            })
            .collect(),
        Place::NodeId => Vec::new(),
    }
}

/// The handles an edge's source may leave on (a select's cases by name).
fn handles(idx: &SpanIndex, shape: &Shape, pointer: &str) -> Vec<Raw> {
    let edge = pointer.rsplit_once('/').map_or("", |(p, _)| p);
    let Some(from) = idx
        .string_at(&format!("{edge}/from"))
        .and_then(|id| shape.node(&id))
    else {
        return Vec::new();
    };
    let Some(kind) = from.kind else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for h in kind.allowed_handles() {
        if h.contains('<') {
            let cases = format!("/nodes/{}/definition/cases", from.index);
            let n = idx.items(&cases).map_or(0, |v| v.len());
            for i in 0..n {
                if let Some(c) = idx.string_at(&format!("{cases}/{i}")) {
                    out.push((format!("case_{c}"), Some(format!("case `{c}`")), 0));
                }
            }
        } else {
            out.push((h.to_string(), Some(format!("{} handle", kind.as_str())), 0));
        }
    }
    out
}
