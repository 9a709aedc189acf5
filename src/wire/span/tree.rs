//! The values of a document as a tree of byte spans: what the JSON scanner
//! and the YAML reader build and pointer lookups walk.

/// A byte range in a text: `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    pub(crate) fn len(&self) -> usize {
        self.end - self.start
    }
    pub(crate) fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

#[derive(Debug)]
pub(super) enum Kind {
    Scalar,
    /// Members in text order: key, the key's span, the value.
    Object(Vec<(String, Span, Tree)>),
    Array(Vec<Tree>),
}

#[derive(Debug)]
pub(super) struct Tree {
    pub(super) span: Span,
    pub(super) kind: Kind,
}
