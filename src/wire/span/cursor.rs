//! What a cursor is on: the innermost value or key of a document that holds
//! a byte offset, named by its JSON pointer (for an editor's hover,
//! go-to-definition and completion).

use super::index::{SpanIndex, escape_token};
use super::tree::{Kind, Span, Tree};

/// The innermost key or value holding an offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// The pointer of the value (or of the member whose key the cursor is
    /// on).
    pub(crate) pointer: String,
    /// The span of that value, or of the key.
    pub(crate) span: Span,
    /// The cursor is on the member's key, not its value.
    pub(crate) on_key: bool,
    /// The value is a scalar (a string, number, boolean or null).
    pub(crate) scalar: bool,
}

/// Whether `offset` is inside `span` (either end included, so a cursor
/// just after a value, where one types, is on it).
fn holds(span: Span, offset: usize) -> bool {
    span.start <= offset && offset <= span.end
}

impl SpanIndex<'_> {
    /// The innermost key or value holding `offset`; `None` outside the
    /// document's root value.
    pub(crate) fn cursor(&self, offset: usize) -> Option<Cursor> {
        let mut cur: &Tree = self.root();
        if !holds(cur.span, offset) {
            return None;
        }
        let mut pointer = String::new();
        loop {
            let next = match &cur.kind {
                Kind::Object(members) => {
                    let mut found = None;
                    for (k, key_span, v) in members {
                        if holds(*key_span, offset) && !holds(v.span, offset) {
                            pointer.push('/');
                            pointer.push_str(&escape_token(k));
                            return Some(Cursor {
                                pointer,
                                span: *key_span,
                                on_key: true,
                                scalar: matches!(v.kind, Kind::Scalar),
                            });
                        }
                        if holds(v.span, offset) {
                            found = Some((escape_token(k), v));
                        }
                    }
                    found
                }
                Kind::Array(items) => items
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(_, v)| holds(v.span, offset))
                    .map(|(i, v)| (i.to_string(), v)),
                Kind::Scalar => None,
            };
            match next {
                Some((tok, v)) => {
                    pointer.push('/');
                    pointer.push_str(&tok);
                    cur = v;
                }
                None => {
                    return Some(Cursor {
                        pointer,
                        span: cur.span,
                        on_key: false,
                        scalar: matches!(cur.kind, Kind::Scalar),
                    });
                }
            }
        }
    }

    /// The keys of the object at `pointer`, in text order, with their spans
    /// and the spans of their values; `None` when no object is there.
    pub(crate) fn members(&self, pointer: &str) -> Option<Vec<(String, Span, Span)>> {
        match &self.tree_at(pointer)?.kind {
            Kind::Object(m) => Some(
                m.iter()
                    .map(|(k, ks, v)| (k.clone(), *ks, v.span))
                    .collect(),
            ),
            _ => None,
        }
    }

    /// The spans of the items of the array at `pointer`; `None` when no
    /// array is there.
    pub(crate) fn items(&self, pointer: &str) -> Option<Vec<Span>> {
        match &self.tree_at(pointer)?.kind {
            Kind::Array(items) => Some(items.iter().map(|t| t.span).collect()),
            _ => None,
        }
    }
}

/// A `{"$ref": {"node": …}}` in a document: where it is and what it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RefSpan {
    /// The pointer of the reference (the object holding `$ref`).
    pub(crate) pointer: String,
    /// The node id it reads and the span of that value.
    pub(crate) node: Option<(String, Span)>,
    /// The span of the `$ref` object itself.
    pub(crate) inner: Span,
}

impl SpanIndex<'_> {
    /// The string the scalar at `pointer` holds, decoded (a JSON string, or
    /// a YAML scalar read as a string); `None` for no scalar there.
    pub(crate) fn string_at(&self, pointer: &str) -> Option<String> {
        let t = self.tree_at(pointer)?;
        matches!(t.kind, Kind::Scalar).then(|| self.scalar_text(t.span))?
    }

    /// A scalar's text decoded as a string.
    pub(crate) fn scalar_text(&self, span: Span) -> Option<String> {
        let raw = self.text().get(span.start..span.end)?;
        let plain = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
        };
        if let Some(inner) = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"'))
            && !inner.contains(['\\', '"'])
        {
            return Some(inner.to_string());
        }
        if raw.starts_with('"') {
            return serde_json::from_str::<String>(raw).ok();
        }
        if plain(raw) {
            return Some(raw.to_string());
        }
        serde_saphyr::from_str::<String>(raw).ok()
    }

    /// Every reference under `pointer` (`""`: the whole document), in text
    /// order.
    pub(crate) fn refs_under(&self, pointer: &str) -> Vec<RefSpan> {
        let mut out = Vec::new();
        if let Some(t) = self.tree_at(pointer) {
            let mut at = pointer.to_string();
            self.collect_refs(t, &mut at, &mut out, 0);
        }
        out
    }

    fn collect_refs(&self, t: &Tree, at: &mut String, out: &mut Vec<RefSpan>, depth: usize) {
        if depth > super::super::parse::MAX_DEPTH {
            return;
        }
        let len = at.len();
        match &t.kind {
            Kind::Object(members) => {
                if let Some((_, _, inner)) = members.iter().rev().find(|(k, _, _)| k == "$ref") {
                    let node = match &inner.kind {
                        Kind::Object(m) => {
                            m.iter()
                                .rev()
                                .find(|(k, _, _)| k == "node")
                                .and_then(|(_, _, v)| {
                                    matches!(v.kind, Kind::Scalar)
                                        .then(|| self.scalar_text(v.span).map(|s| (s, v.span)))?
                                })
                        }
                        _ => None,
                    };
                    out.push(RefSpan {
                        pointer: at.clone(),
                        node,
                        inner: inner.span,
                    });
                    return;
                }
                for (k, _, v) in members {
                    at.push('/');
                    at.push_str(&escape_token(k));
                    self.collect_refs(v, at, out, depth + 1);
                    at.truncate(len);
                }
            }
            Kind::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    at.push('/');
                    at.push_str(&i.to_string());
                    self.collect_refs(v, at, out, depth + 1);
                    at.truncate(len);
                }
            }
            Kind::Scalar => {}
        }
    }
}
