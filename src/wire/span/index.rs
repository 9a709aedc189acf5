//! Pointer lookups: a document's text indexed once, any JSON pointer mapped
//! to the span of the value it names (or of its nearest existing parent).

use super::json::json_tree;
use super::lines::{Lines, Position};
use super::tree::{Kind, Span, Tree};
use super::yaml::yaml_tree;
use crate::wire::parse::Syntax;
use std::fmt;
use std::sync::Arc;

/// A span with its start and (exclusive) end positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Located {
    pub(crate) span: Span,
    pub(crate) start: Position,
    pub(crate) end: Position,
    /// The pointer actually found: the one asked for, or its longest prefix
    /// that exists (a missing field is reported at the object that lacks it).
    pub(crate) pointer: String,
    pub(crate) exact: bool,
}

/// Pointer lookups in a document's text: what placing a finding needs,
/// from the whole text's index ([`SpanIndex`]) or from a text read as a
/// document already ([`super::Seek`]).
pub(crate) trait Locate {
    fn text(&self) -> &str;
    /// The value at `pointer`, or at its longest existing prefix.
    fn locate(&self, pointer: &str) -> Option<Located>;
    /// The span of the value at `pointer`, if it exists.
    fn find(&self, pointer: &str) -> Option<Span>;
    /// The span of the key naming the member at `pointer` (its last
    /// token), when the parent is an object.
    fn key_span(&self, pointer: &str) -> Option<Span>;
}

impl Locate for SpanIndex<'_> {
    fn text(&self) -> &str {
        self.text
    }
    fn locate(&self, pointer: &str) -> Option<Located> {
        SpanIndex::locate(self, pointer)
    }
    fn find(&self, pointer: &str) -> Option<Span> {
        SpanIndex::find(self, pointer)
    }
    fn key_span(&self, pointer: &str) -> Option<Span> {
        SpanIndex::key_span(self, pointer)
    }
}

/// A document's text, indexed for pointer lookups.
pub(crate) struct SpanIndex<'t> {
    text: &'t str,
    parsed: Arc<Parsed>,
}

/// What indexing a text builds: its line starts and its tree of spans.
struct Parsed {
    lines: Lines,
    root: Tree,
}

/// A text with its index, owned: built once and kept for as long as the
/// text is (an editor's document version), lent as a [`SpanIndex`] without
/// reading the text again.
#[derive(Clone)]
pub(crate) struct OwnedIndex {
    text: Arc<str>,
    parsed: Arc<Parsed>,
}

impl fmt::Debug for OwnedIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedIndex")
            .field("bytes", &self.text.len())
            .finish()
    }
}

impl OwnedIndex {
    /// Indexes a text; `None` when it does not parse.
    pub(crate) fn new(text: Arc<str>, syntax: Syntax) -> Option<OwnedIndex> {
        let parsed = SpanIndex::new(&text, syntax)?.parsed;
        Some(OwnedIndex { text, parsed })
    }

    /// The index of the text, borrowed (no reading again).
    pub(crate) fn index(&self) -> SpanIndex<'_> {
        SpanIndex {
            text: &self.text,
            parsed: Arc::clone(&self.parsed),
        }
    }

    pub(crate) fn text(&self) -> &Arc<str> {
        &self.text
    }
}

impl fmt::Debug for SpanIndex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpanIndex")
            .field("bytes", &self.text.len())
            .finish()
    }
}

impl<'t> SpanIndex<'t> {
    /// Indexes a document; `None` when the text does not parse.
    pub(crate) fn new(text: &'t str, syntax: Syntax) -> Option<SpanIndex<'t>> {
        let root = match syntax {
            Syntax::Json => json_tree(text)?,
            Syntax::Yaml => yaml_tree(text)?,
        };
        Some(SpanIndex {
            text,
            parsed: Arc::new(Parsed {
                lines: Lines::new(text),
                root,
            }),
        })
    }

    pub(crate) fn text(&self) -> &'t str {
        self.text
    }

    pub(crate) fn position(&self, offset: usize) -> Position {
        self.parsed.lines.position(self.text, offset)
    }

    /// The span of the value at `pointer`, if it exists.
    pub(crate) fn find(&self, pointer: &str) -> Option<Span> {
        let (tree, depth, total) = self.walk(pointer)?;
        (depth == total).then_some(tree.span)
    }

    pub(super) fn root(&self) -> &Tree {
        &self.parsed.root
    }

    /// The tree of the value at `pointer`, if it exists.
    pub(super) fn tree_at(&self, pointer: &str) -> Option<&Tree> {
        let (tree, depth, total) = self.walk(pointer)?;
        (depth == total).then_some(tree)
    }

    /// The value at `pointer`, or at its longest existing prefix.
    pub(crate) fn locate(&self, pointer: &str) -> Option<Located> {
        let (tree, depth, total) = self.walk(pointer)?;
        let found = if depth == total {
            pointer.to_string()
        } else {
            prefix(pointer, depth)
        };
        Some(self.located(tree.span, found, depth == total))
    }

    /// A span with its positions.
    pub(crate) fn located(&self, span: Span, pointer: String, exact: bool) -> Located {
        Located {
            span,
            start: self.position(span.start),
            end: self.position(span.end),
            pointer,
            exact,
        }
    }

    /// Walks as far as the pointer leads: the tree reached, how many tokens
    /// were followed and how many there are. `None` for a malformed pointer.
    fn walk(&self, pointer: &str) -> Option<(&Tree, usize, usize)> {
        let tokens = tokens(pointer)?;
        let mut cur = &self.parsed.root;
        for (i, tok) in tokens.iter().enumerate() {
            let next = match &cur.kind {
                Kind::Object(members) => members
                    .iter()
                    .rev()
                    .find(|(k, _, _)| k == tok)
                    .map(|(_, _, v)| v),
                Kind::Array(items) => array_index(tok).and_then(|i| items.get(i)),
                Kind::Scalar => None,
            };
            match next {
                Some(t) => cur = t,
                None => return Some((cur, i, tokens.len())),
            }
        }
        Some((cur, tokens.len(), tokens.len()))
    }

    /// The span of the key naming the member at `pointer` (its last token),
    /// when the parent is an object.
    pub(crate) fn key_span(&self, pointer: &str) -> Option<Span> {
        let tokens = tokens(pointer)?;
        let (last, parents) = tokens.split_last()?;
        let mut cur = &self.parsed.root;
        for tok in parents {
            cur = match &cur.kind {
                Kind::Object(m) => m.iter().rev().find(|(k, _, _)| k == tok).map(|x| &x.2)?,
                Kind::Array(items) => items.get(array_index(tok)?)?,
                Kind::Scalar => return None,
            };
        }
        match &cur.kind {
            Kind::Object(m) => m.iter().rev().find(|(k, _, _)| k == last).map(|x| x.1),
            _ => None,
        }
    }
}

fn array_index(tok: &str) -> Option<usize> {
    if tok.is_empty() || (tok.len() > 1 && tok.starts_with('0')) {
        return None;
    }
    tok.parse().ok()
}

/// The decoded tokens of a JSON pointer (`""` is the root).
pub(crate) fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// A pointer token escaped (`~` as `~0`, `/` as `~1`).
pub(crate) fn escape_token(tok: &str) -> String {
    tok.replace('~', "~0").replace('/', "~1")
}

/// The first `depth` tokens of a pointer, still escaped.
pub(super) fn prefix(pointer: &str, depth: usize) -> String {
    if depth == 0 {
        return String::new();
    }
    pointer
        .split('/')
        .take(depth + 1)
        .collect::<Vec<_>>()
        .join("/")
}

/// One-shot lookup: the value at `pointer` (or its nearest existing parent).
pub(crate) fn locate(text: &str, syntax: Syntax, pointer: &str) -> Option<Located> {
    SpanIndex::new(text, syntax)?.locate(pointer)
}
