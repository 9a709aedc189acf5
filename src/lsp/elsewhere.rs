//! Errors in the files a validation reads besides the document: a
//! `planforge.toml` or a registry that cannot be read. That file gets the
//! error as its diagnostic, published for its own URI whether it is open or not (as
//! rust-analyzer does for a `Cargo.toml` it cannot load, and as taplo
//! reports a TOML file's errors in that file), cleared once no open
//! document reports it any more; the document gets one Information saying
//! it was not checked, pointing there (not the error a second time).

use super::convert::{Encoding, Lines, uri_of};
use super::documents::Elsewhere;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    PublishDiagnosticsParams, Uri,
};
use std::collections::{BTreeMap, BTreeSet};

/// The diagnostic of a broken file, for its URI.
pub(crate) fn diagnostic(e: &Elsewhere, enc: Encoding) -> Option<(Uri, Diagnostic)> {
    let uri = uri_of(&e.path)?;
    let range = Lines::new(&e.text).range(&e.text, e.span, enc);
    Some((
        uri,
        Diagnostic {
            range,
            severity: Some(DiagnosticSeverity::ERROR),
            source: Some("planforge".into()),
            message: e.message.clone(),
            ..Diagnostic::default()
        },
    ))
}

/// The document's one diagnostic when its settings or registry cannot be
/// read: an Information at its start saying it was not checked, pointing
/// at the error in that file. The error itself is that file's diagnostic,
/// once: the document has nothing to fix (as rust-analyzer reports a
/// broken `Cargo.toml` in it and not in every source file), but its
/// author learns why it shows no findings.
pub(crate) fn not_checked(e: &Elsewhere, there: &(Uri, Diagnostic)) -> Diagnostic {
    let file = e.path.file_name().map_or_else(
        || e.path.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    );
    Diagnostic {
        range: lsp_types::Range::default(),
        severity: Some(DiagnosticSeverity::INFORMATION),
        source: Some("planforge".into()),
        message: format!(
            "this document was not checked: `{file}` cannot be read (its error is shown there, line {}): {}",
            there.1.range.start.line + 1,
            there.1.message
        ),
        related_information: Some(vec![DiagnosticRelatedInformation {
            location: Location {
                uri: there.0.clone(),
                range: there.1.range,
            },
            message: format!("the error is here: {}", there.1.message),
        }]),
        ..Diagnostic::default()
    }
}

/// The broken files' diagnostics published, and which documents report
/// each (by URI).
#[derive(Debug, Default)]
pub(crate) struct Reported {
    files: BTreeMap<String, (Diagnostic, BTreeSet<String>)>,
}

impl Reported {
    /// Document `doc` now reports `now` (or nothing): the publications
    /// that follow (the file's diagnostic, or an empty list for a file no
    /// document reports any more).
    pub(crate) fn update(
        &mut self,
        doc: &str,
        now: Option<(Uri, Diagnostic)>,
    ) -> Vec<PublishDiagnosticsParams> {
        let mut out = Vec::new();
        let keep = now.as_ref().map(|(u, _)| u.as_str().to_string());
        let mut cleared = Vec::new();
        for (file, (_, docs)) in &mut self.files {
            if Some(file) != keep.as_ref() && docs.remove(doc) && docs.is_empty() {
                cleared.push(file.clone());
            }
        }
        for file in cleared {
            self.files.remove(&file);
            if let Ok(uri) = file.parse::<Uri>() {
                out.push(PublishDiagnosticsParams {
                    uri,
                    diagnostics: Vec::new(),
                    version: None,
                });
            }
        }
        if let Some((uri, d)) = now {
            let entry = self
                .files
                .entry(uri.as_str().to_string())
                .or_insert_with(|| (d.clone(), BTreeSet::new()));
            entry.0 = d.clone();
            entry.1.insert(doc.to_string());
            out.push(PublishDiagnosticsParams {
                uri,
                diagnostics: vec![d],
                version: None,
            });
        }
        out
    }

    /// The diagnostic published for `uri`, if it is a broken file (added to
    /// that file's own diagnostics when it is open too).
    pub(crate) fn of(&self, uri: &str) -> Option<&Diagnostic> {
        self.files.get(uri).map(|(d, _)| d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(msg: &str) -> Diagnostic {
        Diagnostic {
            message: msg.into(),
            ..Diagnostic::default()
        }
    }

    #[test]
    fn a_broken_file_is_cleared_when_no_document_reports_it() {
        let file: Uri = "file:///r/planforge.toml".parse().unwrap();
        let mut r = Reported::default();
        let p = r.update("file:///r/a.json", Some((file.clone(), diag("bad"))));
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].diagnostics[0].message, "bad");
        r.update("file:///r/b.json", Some((file.clone(), diag("bad"))));
        // One of the two is fixed: the file still has its error.
        assert!(r.update("file:///r/a.json", None).is_empty());
        assert!(r.of(file.as_str()).is_some());
        // The other too: cleared.
        let p = r.update("file:///r/b.json", None);
        assert_eq!(p.len(), 1);
        assert!(p[0].diagnostics.is_empty());
        assert!(r.of(file.as_str()).is_none());
        // A document that moves to another broken file clears the first.
        let other: Uri = "file:///r/registry.yaml".parse().unwrap();
        r.update("file:///r/a.json", Some((file.clone(), diag("bad"))));
        let p = r.update("file:///r/a.json", Some((other.clone(), diag("worse"))));
        let uris: Vec<&str> = p.iter().map(|p| p.uri.as_str()).collect();
        assert_eq!(uris, [file.as_str(), other.as_str()]);
    }
}
