//! Where a JSON pointer lands in a document's text, for diagnostics.
//!
//! Findings carry JSON pointers (`/nodes/2/definition/tool`); people and CI
//! want a file, a line and a column. [`SpanIndex`] reads a document's text
//! once and maps any pointer to the byte range of the value it names:
//! for JSON with a small scanner of our own, for YAML with serde-saphyr's
//! `Spanned` locations. Lines and columns are 1-based and columns count
//! Unicode scalar values (SARIF's `unicodeCodePoints`); an end position is
//! exclusive (the character after the value), as in SARIF and terraform.
//!
//! Building an index is O(size of the text); a lookup is O(depth × the
//! width of the objects on the way).

mod cursor;
mod index;
mod json;
mod lines;
mod seek;
mod tree;
mod yaml;
mod yaml_items;
mod yaml_seek;

pub(crate) use cursor::{Cursor, RefSpan};
pub(crate) use index::{Locate, Located, OwnedIndex, SpanIndex, escape_token, locate, tokens};
pub(crate) use lines::{Position, offset};
pub(crate) use seek::Seek;
pub(crate) use tree::Span;
pub(crate) use yaml_items::{Change, Items};
pub(crate) use yaml_seek::YamlSeek;

#[cfg(test)]
mod tests;
