//! What an editor asks about a plan document while it is being written
//! (`planforge lsp`): where a node id is defined and used, what is under
//! the cursor, what may be typed there, the outline, and the fixes that are
//! data as edits of the text. Every query reads the text as it is now, with
//! its spans ([`crate::wire::span`]), so it answers on a document that does
//! not read as a plan yet (an unknown kind, a missing `select`), and on
//! YAML as on JSON. The diagnostics are `validate`'s
//! ([`super::validate::check_input`]).
//!
//! Offsets are bytes into the text; the adapter converts them to its
//! protocol's positions.

pub(crate) mod actions;
pub(crate) mod complete;
pub(crate) mod context;
pub(crate) mod edits;
pub(crate) mod hover;
pub(crate) mod navigate;
pub(crate) mod shape;
pub(crate) mod symbols;

pub(crate) use crate::wire::Syntax;
pub(crate) use crate::wire::span::Span;
use crate::wire::span::SpanIndex;
use std::sync::Arc;

/// A document's text, as an editor holds it.
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    pub(crate) text: Arc<str>,
    pub(crate) syntax: Syntax,
}

impl Doc {
    pub(crate) fn new(text: impl Into<Arc<str>>, syntax: Syntax) -> Doc {
        Doc {
            text: text.into(),
            syntax,
        }
    }

    /// The syntax a document's name or first character says.
    pub(crate) fn syntax_of(name: &str, text: &str) -> Syntax {
        Syntax::from_path(name).unwrap_or_else(|| Syntax::sniff(text))
    }

    /// The text's span index; `None` when it is not well-formed JSON or
    /// YAML.
    pub(crate) fn index(&self) -> Option<SpanIndex<'_>> {
        SpanIndex::new(&self.text, self.syntax)
    }
}

impl Doc {
    /// Whether the text is meant as a plan document, so that an editor
    /// attached to every JSON or YAML file leaves the others alone: its
    /// top level has `nodes`, `formatVersion` or `planId`, or (not
    /// well-formed yet) the text names one of them.
    pub(crate) fn is_plan_document(&self) -> bool {
        const KEYS: [&str; 3] = ["nodes", "formatVersion", "planId"];
        match self.index() {
            Some(idx) => idx
                .members("")
                .is_some_and(|m| m.iter().any(|(k, _, _)| KEYS.contains(&k.as_str()))),
            None => KEYS.iter().any(|k| self.text.contains(k)),
        }
    }
}

/// A string as the document writes one in `syntax` at a place that held
/// `like` (the text being replaced): JSON strings are always quoted; in
/// YAML the quoting of `like` is kept, and a plain scalar stays plain when
/// the value needs no quotes.
pub(crate) fn quoted(value: &str, syntax: Syntax, like: &str) -> String {
    let json = serde_json::to_string(value).expect("strings always serialise");
    match syntax {
        Syntax::Json => json,
        Syntax::Yaml if like.starts_with('"') => json,
        Syntax::Yaml if like.starts_with('\'') => format!("'{}'", value.replace('\'', "''")),
        Syntax::Yaml => {
            let plain = !value.is_empty()
                && value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
                && !matches!(
                    value,
                    "true" | "false" | "null" | "yes" | "no" | "on" | "off"
                )
                && value.parse::<f64>().is_err();
            if plain { value.to_string() } else { json }
        }
    }
}

#[cfg(test)]
mod tests;
