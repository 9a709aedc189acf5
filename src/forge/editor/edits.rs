//! Edits of a document's text that set a member of an object or append an
//! item to a list, in the document's own syntax: JSON (and YAML flow
//! collections) get `"key": value` after the last member; YAML block
//! mappings get a `key: value` line at the indentation of their first key.
//! Values are written as JSON text, which YAML reads too; a string that
//! replaces one in YAML keeps that one's quoting (a new one is plain when
//! it can be).

use super::{Span, Syntax};
use crate::wire::span::SpanIndex;

/// Replace `span` with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub(crate) span: Span,
    pub(crate) text: String,
}

impl Edit {
    fn insert(at: usize, text: String) -> Edit {
        Edit {
            span: Span { start: at, end: at },
            text,
        }
    }
}

/// A key as `syntax` writes it.
fn key(k: &str, syntax: Syntax) -> String {
    match syntax {
        Syntax::Json => serde_json::to_string(k).expect("strings always serialise"),
        Syntax::Yaml => super::quoted(k, syntax, ""),
    }
}

/// The whitespace that indents a block collection's first entry at
/// `offset` (a `- ` before it counts as spaces).
fn indent(text: &str, offset: usize) -> String {
    let line = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[line..offset]
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect()
}

/// Sets `key` of the object at `object` to `value` (JSON text): its value
/// replaced when it has the key, else a new member. `None` when no object
/// is there.
pub(crate) fn set_member(
    idx: &SpanIndex,
    syntax: Syntax,
    object: &str,
    k: &str,
    value: &str,
) -> Option<Edit> {
    let members = idx.members(object)?;
    if let Some((_, _, v)) = members.iter().rev().find(|(name, _, _)| name == k) {
        return Some(Edit {
            span: *v,
            text: restyled(idx.text(), *v, syntax, value),
        });
    }
    let span = idx.find(object)?;
    let text = idx.text();
    let flow = text[span.start..].starts_with('{');
    let member = format!(
        "{}: {}",
        key(k, syntax),
        restyled(text, Span { start: 0, end: 0 }, syntax, value)
    );
    Some(match (flow, members.last()) {
        (true, None) => Edit::insert(span.start + 1, member),
        (true, Some((_, _, last))) => Edit::insert(last.end, format!(", {member}")),
        (false, Some((_, first, _))) => {
            let first = members.first().map_or(*first, |m| m.1);
            Edit::insert(
                first.start,
                format!("{member}\n{}", indent(text, first.start)),
            )
        }
        (false, None) => return None,
    })
}

/// A string value in YAML written as the one it replaces is (a plain
/// scalar stays plain, a quoted one keeps its quotes; a new one is plain
/// when it can be); anything else as the JSON text it is.
fn restyled(text: &str, old: Span, syntax: Syntax, value: &str) -> String {
    match (syntax, serde_json::from_str::<String>(value)) {
        (Syntax::Yaml, Ok(s)) => super::quoted(&s, syntax, &text[old.start..old.end]),
        _ => value.to_string(),
    }
}

/// Appends `value` (JSON text) to the list at `list`; `None` when no list
/// is there.
pub(crate) fn push_item(idx: &SpanIndex, list: &str, value: &str) -> Option<Edit> {
    let items = idx.items(list)?;
    let span = idx.find(list)?;
    let text = idx.text();
    if text[span.start..].starts_with('[') {
        return Some(match items.last() {
            None => Edit::insert(span.start + 1, value.to_string()),
            Some(last) => Edit::insert(last.end, format!(", {value}")),
        });
    }
    // A block sequence: a new `- ` line before its first item's dash.
    let first = items.first()?;
    let dash = text[..first.start].trim_end_matches([' ', '\t']);
    let dash = dash.strip_suffix('-').map(str::len)?;
    Some(Edit::insert(
        dash,
        format!("- {value}\n{}", indent(text, dash)),
    ))
}
