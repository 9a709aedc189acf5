//! Where a YAML plan document changed, by the items of its top-level
//! block sequences (`nodes:`, `edges:`): what lets `planforge lsp` read
//! again only the item an edit is in, not the whole document.
//!
//! The items are found by their lines, as [`super::YamlSeek`] finds them.
//! An item's text read on its own (a one-item sequence at the same
//! indentation) gives the value it has in the document when every line of
//! it after its first is blank, a comment, or indented deeper than its
//! dash: the reader then sees the same lines in the same columns, and
//! nothing of the item can end it or run on into the next one (a quoted
//! or flow scalar left open ends the part and fails to read). Anchors and
//! aliases tie items together: an item that has or had `&` or `*`
//! anywhere in it is not read alone. Whoever reads the part must still
//! check that it reads as one item and that the document's sequence has
//! as many items as its lines say.

use super::yaml_seek::{indentation, is_blank, is_item, item_starts, top_level};

/// The items of a YAML text's top-level block sequences, by their lines.
#[derive(Debug, Clone)]
pub(crate) struct Items {
    sequences: Vec<Sequence>,
}

/// One top-level block sequence: its key, its items' indentation, the
/// start of each item's first line, and the end of its last item.
#[derive(Debug, Clone)]
struct Sequence {
    key: String,
    indent: usize,
    starts: Vec<usize>,
    end: usize,
}

/// How a text differs from the one the items are of.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Change<'t> {
    /// Not at all.
    Same,
    /// In one item only: the member `key`'s item `index` (of `len`), now
    /// `part` (its lines, from its first line's start).
    Item {
        key: &'t str,
        index: usize,
        len: usize,
        part: &'t str,
    },
}

impl Items {
    /// The items of `text`'s top-level block sequences, when its top level
    /// reads line by line (see [`super::YamlSeek`]).
    pub(crate) fn of(text: &str) -> Option<Items> {
        let sequences = top_level(text)?
            .into_iter()
            .filter_map(|t| {
                let (first, indent) = t.sequence?;
                Some(Sequence {
                    starts: item_starts(text, first, indent, t.end),
                    key: t.key,
                    indent,
                    end: t.end,
                })
            })
            .collect();
        Some(Items { sequences })
    }

    /// How `new` differs from `old` (the text these items are of), when
    /// it differs in one item only and that item reads on its own; `None`
    /// for any other change.
    pub(crate) fn change<'t>(&'t self, old: &str, new: &'t str) -> Option<Change<'t>> {
        let (prefix, suffix) = common_ends(old.as_bytes(), new.as_bytes());
        if prefix == old.len() && old.len() == new.len() {
            return Some(Change::Same);
        }
        let (old_end, new_len) = (old.len() - suffix, new.len());
        let seq = self
            .sequences
            .iter()
            .find(|s| s.starts.first().is_some_and(|f| *f <= prefix) && old_end <= s.end)?;
        let index = seq.starts.partition_point(|s| *s <= prefix) - 1;
        let start = seq.starts[index];
        let end = seq.starts.get(index + 1).copied().unwrap_or(seq.end);
        if old_end > end {
            return None;
        }
        let new_end = end + new_len - old.len();
        let part = &new[start..new_end];
        let was = &old[start..end];
        if !(reads_alone(part, seq.indent, new_end == new_len)
            && reads_alone(was, seq.indent, end == old.len()))
        {
            return None;
        }
        Some(Change::Item {
            key: &seq.key,
            index,
            len: seq.starts.len(),
            part,
        })
    }
}

/// Whether an item's lines read on their own as they read in the
/// document: its first line an item at `indent`, the others blank,
/// comments or deeper, ending with its last line's `\n` (unless `last`,
/// at the end of the text), and no anchor or alias in it.
fn reads_alone(part: &str, indent: usize, last: bool) -> bool {
    if part.contains(['&', '*']) || !(last || part.ends_with('\n')) {
        return false;
    }
    let mut lines = part.split_inclusive('\n').map(|l| l.trim_end_matches('\n'));
    let Some(first) = lines.next() else {
        return false;
    };
    indentation(first) == indent
        && is_item(&first[indent..])
        && lines.all(|l| is_blank(l) || indentation(l) > indent)
}

/// How many bytes two texts share at their start, and at their end after
/// that (the two never overlap).
pub(crate) fn common_ends(a: &[u8], b: &[u8]) -> (usize, usize) {
    const CHUNK: usize = 256;
    let most = a.len().min(b.len());
    let mut prefix = 0;
    while prefix + CHUNK <= most && a[prefix..prefix + CHUNK] == b[prefix..prefix + CHUNK] {
        prefix += CHUNK;
    }
    while prefix < most && a[prefix] == b[prefix] {
        prefix += 1;
    }
    let room = most - prefix;
    let (mut suffix, al, bl) = (0, a.len(), b.len());
    while suffix + CHUNK <= room
        && a[al - suffix - CHUNK..al - suffix] == b[bl - suffix - CHUNK..bl - suffix]
    {
        suffix += CHUNK;
    }
    while suffix < room && a[al - suffix - 1] == b[bl - suffix - 1] {
        suffix += 1;
    }
    (prefix, suffix)
}
