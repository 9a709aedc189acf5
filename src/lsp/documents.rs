//! The documents the editor has open: their text as the editor has it
//! (changes applied as they come, whole or by range), their version, and
//! their last validation.

use super::convert::{Encoding, Lines};
use crate::forge::editor::Doc;
use crate::forge::validate::Target;
use crate::model::registry::Registry;
use lsp_types::TextDocumentContentChangeEvent;
use std::path::PathBuf;
use std::sync::Arc;

/// A validation of one version of a document.
#[derive(Debug, Clone)]
pub(crate) struct Validated {
    pub(crate) version: i32,
    /// `None`: the document is no plan document (it is left alone).
    pub(crate) target: Option<Arc<Target>>,
    pub(crate) registry: Option<Arc<Registry>>,
    /// No registry was found (none named, no store above the document):
    /// the checks that need one were skipped, as `validate` notes.
    pub(crate) no_registry: bool,
    /// The settings file or registry that could not be read, and where in
    /// it the error is (the version's one finding is that error).
    pub(crate) elsewhere: Option<Arc<Elsewhere>>,
}

/// A file a validation read besides the document, that cannot be read:
/// its path, its text, the span of what is wrong, and why.
#[derive(Debug)]
pub(crate) struct Elsewhere {
    pub(crate) path: PathBuf,
    pub(crate) text: String,
    pub(crate) span: crate::forge::editor::Span,
    pub(crate) message: String,
}

/// One open document.
#[derive(Debug, Clone)]
pub(crate) struct Open {
    pub(crate) doc: Doc,
    pub(crate) version: i32,
    pub(crate) lines: Arc<Lines>,
    /// The file it is, for `file:` URIs.
    pub(crate) path: Option<PathBuf>,
    /// The name findings give it (its path, else its URI).
    pub(crate) name: String,
    pub(crate) last: Option<Validated>,
    /// This version's outline, as the JSON of a response's result
    /// (made on the first request, when the version is well-formed).
    pub(crate) symbols: Option<Arc<str>>,
}

impl Open {
    pub(crate) fn new(uri: &str, language: &str, text: &str, version: i32) -> Open {
        let path = super::convert::path_of(uri);
        let name = path
            .as_ref()
            .map_or_else(|| uri.to_string(), |p| p.display().to_string());
        let syntax = match language {
            "yaml" => crate::forge::editor::Syntax::Yaml,
            "json" | "jsonc" => crate::forge::editor::Syntax::Json,
            _ => Doc::syntax_of(&name, text),
        };
        Open {
            lines: Arc::new(Lines::new(text)),
            doc: Doc::new(text, syntax),
            version,
            path,
            name,
            last: None,
            symbols: None,
        }
    }

    /// Applies the editor's changes, in order, to `buf` (the loop's copy
    /// of the text, changed in place: this version's text is the one copy
    /// made of it per change).
    pub(crate) fn change(
        &mut self,
        buf: &mut String,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
        enc: Encoding,
    ) {
        let mut lines: Option<Lines> = None;
        for c in changes {
            let now = lines.as_ref().unwrap_or(&self.lines);
            let next = match c.range {
                None => {
                    *buf = c.text;
                    Lines::new(buf)
                }
                Some(r) => {
                    let start = now.offset(buf, r.start, enc);
                    let end = now.offset(buf, r.end, enc).max(start);
                    buf.replace_range(start..end, &c.text);
                    now.edited(buf, start, end, c.text.len())
                }
            };
            lines = Some(next);
        }
        if let Some(l) = lines {
            self.lines = Arc::new(l);
        }
        self.doc = self.doc.edited(buf.as_str());
        self.version = version;
        self.symbols = None;
    }

    /// The last validation, if it is of this version.
    pub(crate) fn current(&self) -> Option<&Validated> {
        self.last.as_ref().filter(|v| v.version == self.version)
    }
}
