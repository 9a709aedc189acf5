//! Where a stored plan's findings are in the repository: in its op log,
//! `plans/plan-…/ops.jsonl`, on the line of the op that set the offending
//! value, at that value — so a reviewer of a pull request lands on the
//! change the value came from.
//!
//! The ops are taken in fold order (complete transactions, each op once);
//! the op that set a value is the last one that wrote it: the `add_node` or
//! `replace_node` of its node, a `set_node_definition` under the
//! definition, the `set_node_field` of the value, a parent or a child of it,
//! a `set_node_phase` for the phase; an `add_edge` for an edge; the last
//! `set_bounds` for a bound; the last `approve` or `freeze` for the
//! lifecycle's findings; the last op naming it for an edit of a node that
//! was absent (`unknown_node`). A finding on nothing an op wrote (a node's
//! missing entry, say) is placed on the plan's first op.

use super::Finding;
use crate::model::hash::FastMap as HashMap;
use crate::model::{Issue, Op, OpBody};
use crate::wire::Syntax;
use crate::wire::span::{Located, Position, Span, SpanIndex};
use std::path::Path;
use std::sync::Arc;

/// A plan's op log as text, with its ops in fold order.
pub(crate) struct OpLines {
    pub(crate) text: Arc<str>,
    /// (1-based line, byte range of the line, op), in fold order.
    ops: Vec<(usize, Span, Op)>,
    /// The first line of an unfinished transaction (where `torn_tail` is).
    torn: Option<(usize, Span)>,
}

/// The ops of the log at `path`; `None` when it cannot be read (the caller
/// falls back to the plan's export).
pub(crate) fn read(path: &Path) -> Option<OpLines> {
    let bytes = std::fs::read(path).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let mut ops = Vec::new();
    // The first line that holds no op: a write cut short (the log refuses
    // any other such line before validate reads it).
    let mut cut: Option<(usize, Span)> = None;
    let mut start = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        let span = Span {
            start,
            end: start + body.len(),
        };
        match crate::wire::codec::parse_op_line(body) {
            Ok(op) => ops.push((i + 1, span, op)),
            Err(_) if cut.is_none() && !body.trim().is_empty() => cut = Some((i + 1, span)),
            Err(_) => {}
        }
        start += line.len();
    }
    let done = crate::store::fold::complete(ops.iter().map(|(_, _, o)| o));
    let unfinished = done
        .iter()
        .zip(&ops)
        .find(|(done, _)| !**done)
        .map(|(_, (line, span, _))| (*line, *span));
    // Where `torn_tail`'s message starts: the first of the two.
    let torn = [unfinished, cut]
        .into_iter()
        .flatten()
        .min_by_key(|(l, _)| *l);
    let mut d = done.iter();
    ops.retain(|_| *d.next().expect("one flag per op"));
    // Fold order; a line repeated by a merge counts once (its first place).
    ops.sort_by(|a, b| crate::store::fold::order(&a.2, &b.2).then(a.0.cmp(&b.0)));
    ops.dedup_by(|b, a| a.2 == b.2);
    Some(OpLines {
        text: Arc::from(text),
        ops,
        torn,
    })
}

/// The node an op writes, if any; `true` when it removes it.
fn node_of(b: &OpBody) -> Option<(&str, bool)> {
    match b {
        OpBody::AddNode { node } | OpBody::ReplaceNode { node } => Some((&node.id, false)),
        OpBody::RemoveNode { node_id, .. } => Some((node_id, true)),
        OpBody::SetNodeField { node_id, .. }
        | OpBody::SetNodeDefinition { node_id, .. }
        | OpBody::SetNodePhase { node_id, .. } => Some((node_id, false)),
        _ => None,
    }
}

/// The pointer, in the op's line, of the value at `pointer` (relative to
/// the node) if this op wrote it; `None` if it did not.
fn node_value(b: &OpBody, pointer: Option<&str>) -> Option<String> {
    let p = pointer.unwrap_or("");
    match b {
        OpBody::AddNode { .. } | OpBody::ReplaceNode { .. } => Some(if p.is_empty() {
            "/node/id".to_string()
        } else {
            format!("/node{p}")
        }),
        OpBody::SetNodeDefinition { .. } => p.starts_with("/definition").then(|| p.to_string()),
        OpBody::SetNodePhase { .. } => (p == "/phase").then(|| p.to_string()),
        OpBody::SetNodeField { path, .. } => {
            let mut set = "/definition".to_string();
            for seg in path.split('.') {
                set.push('/');
                crate::model::value::push_pointer_token(&mut set, seg);
            }
            if let Some(rest) = p.strip_prefix(set.as_str())
                && (rest.is_empty() || rest.starts_with('/'))
            {
                Some(format!("/value{rest}"))
            } else if set.starts_with(p)
                && !p.is_empty()
                && set.as_bytes().get(p.len()) == Some(&b'/')
            {
                // A part of the value was set here: the value as a whole.
                Some("/value".to_string())
            } else {
                None
            }
        }
        _ => None,
    }
}

impl OpLines {
    /// Which op (index into `ops`) set what `i` is about, and the pointer
    /// in its line.
    fn place(&self, i: &Issue, index: &Index) -> (usize, String) {
        let last = |list: Option<&Vec<usize>>, f: &dyn Fn(&OpBody) -> Option<String>| {
            let list = list?;
            for &k in list.iter().rev() {
                let b = &self.ops[k].2.body;
                if let Some((_, true)) = node_of(b) {
                    return None;
                }
                if matches!(b, OpBody::RemoveEdge { .. }) {
                    return None;
                }
                if let Some(p) = f(b) {
                    return Some((k, p));
                }
            }
            None
        };
        let on_node = |n: &str| last(index.nodes.get(n), &|b| node_value(b, i.pointer.as_deref()));
        let on_edge = |e: &str| {
            last(index.edges.get(e), &|b| match b {
                OpBody::AddEdge { .. } => Some(match &i.pointer {
                    Some(p) => format!("/edge{p}"),
                    None => "/edge/id".to_string(),
                }),
                _ => None,
            })
        };
        // An edit of a node the plan did not have when it applied: the last
        // op that names it (after its removal, which the search above stops
        // at), at the name.
        if i.code == crate::check::unknown_node::CODE
            && let Some(n) = &i.node_id
            && let Some(&k) = index.nodes.get(n.as_str()).and_then(|list| list.last())
            && !matches!(node_of(&self.ops[k].2.body), Some((_, true)))
        {
            return (k, "/nodeId".to_string());
        }
        let found = match (&i.node_id, &i.edge_id, &i.pointer) {
            (Some(n), _, Some(_)) => on_node(n),
            (None, Some(e), _) => on_edge(e),
            (Some(n), Some(e), None) => on_edge(e).or_else(|| on_node(n)),
            (Some(n), None, None) => on_node(n),
            (None, None, Some(p)) if p.starts_with("/bounds") => {
                index.bounds.map(|k| (k, p.clone()))
            }
            (None, None, _) => index.lifecycle(i.code.name).map(|k| (k, "/op".to_string())),
        };
        found.unwrap_or((0, "/op".to_string()))
    }

    /// Every issue (up to the listing limit) located in the log.
    pub(crate) fn locate_all(&self, issues: &[Issue], max: usize) -> Vec<Finding> {
        if self.ops.is_empty() {
            return issues
                .iter()
                .take(max)
                .map(|i| Finding {
                    issue: i.clone(),
                    pointer: None,
                    location: None,
                    label: None,
                })
                .collect();
        }
        let index = Index::of(&self.ops);
        let mut lines: HashMap<usize, Option<SpanIndex>> = HashMap::default();
        issues
            .iter()
            .take(max)
            .map(|i| {
                if let Some(at) = self.torn_line(i) {
                    return at;
                }
                let (k, pointer) = self.place(i, &index);
                let (line, span, _) = &self.ops[k];
                let text = &self.text[span.start..span.end];
                let idx = lines
                    .entry(k)
                    .or_insert_with(|| SpanIndex::new(text, Syntax::Json));
                let (location, label) = match idx {
                    Some(idx) => {
                        let l = idx.locate(&pointer);
                        let label = l.as_ref().map(|l| super::label_span(idx, l));
                        (
                            l.map(|l| shift(l, *line, span.start)),
                            label.map(|s| Span {
                                start: s.start + span.start,
                                end: s.end + span.start,
                            }),
                        )
                    }
                    None => (None, None),
                };
                // The pointer outputs give is the issue's own (relative to
                // its node or edge, as `read` and the tools show them); the
                // line and column are in the log.
                Finding {
                    issue: i.clone(),
                    pointer: i.pointer.clone(),
                    location,
                    label,
                }
            })
            .collect()
    }
}

impl OpLines {
    /// A `torn_tail` note, placed on the whole first line of the unfinished
    /// transaction its message names first.
    fn torn_line(&self, i: &Issue) -> Option<Finding> {
        if i.code.name != crate::check::torn_tail::CODE.name {
            return None;
        }
        let (line, span) = self.torn?;
        let chars = self.text.get(span.start..span.end)?.chars().count();
        Some(Finding {
            issue: i.clone(),
            pointer: i.pointer.clone(),
            location: Some(Located {
                span,
                start: Position { line, column: 1 },
                end: Position {
                    line,
                    column: chars + 1,
                },
                pointer: String::new(),
                exact: true,
            }),
            label: Some(span),
        })
    }
}

/// A place found in one line, as a place in the whole log.
fn shift(l: Located, line: usize, offset: usize) -> Located {
    let at = |p: Position| Position {
        line: line + p.line - 1,
        column: p.column,
    };
    Located {
        span: Span {
            start: l.span.start + offset,
            end: l.span.end + offset,
        },
        start: at(l.start),
        end: at(l.end),
        pointer: l.pointer,
        exact: l.exact,
    }
}

/// The ops of each node and edge, in fold order.
struct Index<'a> {
    nodes: HashMap<&'a str, Vec<usize>>,
    edges: HashMap<&'a str, Vec<usize>>,
    bounds: Option<usize>,
    approve: Option<usize>,
    freeze: Option<usize>,
}

impl<'a> Index<'a> {
    fn of(ops: &'a [(usize, Span, Op)]) -> Index<'a> {
        let mut ix = Index {
            nodes: HashMap::default(),
            edges: HashMap::default(),
            bounds: None,
            approve: None,
            freeze: None,
        };
        for (k, (_, _, op)) in ops.iter().enumerate() {
            if let Some((n, _)) = node_of(&op.body) {
                ix.nodes.entry(n).or_default().push(k);
            }
            match &op.body {
                OpBody::AddEdge { edge } => ix.edges.entry(&edge.id).or_default().push(k),
                OpBody::RemoveEdge { edge_id } => ix.edges.entry(edge_id).or_default().push(k),
                OpBody::SetBounds { .. } => ix.bounds = Some(k),
                OpBody::Approve { .. } => ix.approve = Some(k),
                OpBody::Freeze { .. } => ix.freeze = Some(k),
                _ => {}
            }
        }
        ix
    }

    /// The op a plan-wide finding of `code` is about.
    fn lifecycle(&self, code: &str) -> Option<usize> {
        match code {
            c if c == crate::check::approval_mismatch::CODE.name => self.approve.or(self.freeze),
            c if c == crate::check::freeze_mismatch::CODE.name
                || c == crate::check::digest_mismatch::CODE.name =>
            {
                self.freeze
            }
            _ => None,
        }
    }
}
