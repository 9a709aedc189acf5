//! `validate`'s findings on a document as LSP diagnostics: each at the span
//! `validate` reports (start and end, as its JSON and SARIF give them, also
//! across lines), with its severity, its code linked to its page, and its
//! fixes in the message; findings that follow from another (grouped
//! by cause) are one diagnostic, the others its related locations.

use super::convert::{Encoding, Lines};
use crate::forge::validate::{Finding, Target};
use crate::model::remedy::Voice;
use crate::model::{Cause, Severity};
use lsp_types::{
    CodeDescription, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location,
    NumberOrString, Range, Uri,
};
use std::collections::HashMap;
use std::str::FromStr;

/// Related locations one diagnostic lists at most; the rest are counted.
const MAX_RELATED: usize = 50;

/// The range a finding is shown at: `validate`'s location of it, start and
/// end, also when it spans many lines (a node's whole object); the
/// snippet's one-line label only when there is no location.
pub(crate) fn range_of(f: &Finding, text: &str, lines: &Lines, enc: Encoding) -> Range {
    match f.location.as_ref().map(|l| l.span).or(f.label) {
        Some(s) => lines.range(text, s, enc),
        None => Range::default(),
    }
}

/// The diagnostics of a validated document.
pub(crate) fn diagnostics(
    uri: &Uri,
    t: &Target,
    text: &str,
    lines: &Lines,
    enc: Encoding,
) -> Vec<Diagnostic> {
    let voice = super::voice::document_voice();
    let mut out: Vec<Diagnostic> = Vec::new();
    // Every finding by its identity, then each one's root: the finding its
    // chain of causes ends at (a node unreachable because another is).
    let by_cause: HashMap<Cause, usize> = t
        .findings
        .iter()
        .enumerate()
        .map(|(k, f)| (Cause::of(&f.issue), k))
        .collect();
    let root = |mut k: usize| {
        for _ in 0..8 {
            match t.findings[k]
                .issue
                .cause
                .as_ref()
                .and_then(|c| by_cause.get(c))
            {
                Some(&up) if up != k => k = up,
                _ => break,
            }
        }
        k
    };
    let mut head: HashMap<usize, usize> = HashMap::new();
    let mut more: HashMap<usize, usize> = HashMap::new();
    for (k, f) in t.findings.iter().enumerate() {
        if root(k) == k {
            head.insert(k, out.len());
            out.push(one(f, text, lines, enc, &voice));
        }
    }
    for (k, f) in t.findings.iter().enumerate() {
        let r = root(k);
        if r == k {
            continue;
        }
        let h = head[&r];
        let related = out[h].related_information.get_or_insert_with(Vec::new);
        if related.len() < MAX_RELATED {
            related.push(DiagnosticRelatedInformation {
                location: Location {
                    uri: uri.clone(),
                    range: range_of(f, text, lines, enc),
                },
                message: format!("{}: {}", f.issue.code, f.issue.message),
            });
        } else {
            *more.entry(h).or_default() += 1;
        }
    }
    for (h, n) in more {
        out[h].message.push_str(&format!(
            "\n({} more related finding(s) are not listed)",
            crate::model::text::thousands(n)
        ));
    }
    if t.omitted > 0 {
        out.push(Diagnostic {
            range: Range::default(),
            severity: Some(DiagnosticSeverity::INFORMATION),
            source: Some("planforge".into()),
            message: format!(
                "{} more finding(s) are not shown; planforge validate --max-findings 0 lists them all",
                crate::model::text::thousands(t.omitted)
            ),
            ..Diagnostic::default()
        });
    }
    out
}

/// `validate`'s note when no registry was found, as one Information
/// diagnostic at the document's start: it stays while the checks are off
/// and goes when a registry is found (a `window/showMessage` would pop up
/// once and be gone, or again per edit).
pub(crate) fn no_registry() -> Diagnostic {
    Diagnostic {
        range: Range::default(),
        severity: Some(DiagnosticSeverity::INFORMATION),
        source: Some("planforge".into()),
        message: "no registry was found (no store above this document, and none named by `planforge lsp --registry FILE`), so the checks that need one were skipped; `planforge init` makes a store, or start the server with --registry FILE to run them".into(),
        ..Diagnostic::default()
    }
}

/// One finding as a diagnostic (without related locations).
pub(crate) fn diagnostics_of_one(
    f: &Finding,
    text: &str,
    lines: &Lines,
    enc: Encoding,
) -> Diagnostic {
    one(f, text, lines, enc, &super::voice::document_voice())
}

fn one(f: &Finding, text: &str, lines: &Lines, enc: Encoding, voice: &dyn Voice) -> Diagnostic {
    let i = &f.issue;
    // `validate --format json`'s message, as it is.
    let mut message = i.message.clone();
    if !i.fixes.is_empty() {
        message.push_str("\nhelp: ");
        message.push_str(&voice.fixes(&i.fixes));
    }
    Diagnostic {
        range: range_of(f, text, lines, enc),
        severity: Some(match i.severity() {
            Severity::Blocking => DiagnosticSeverity::ERROR,
            Severity::Advisory => DiagnosticSeverity::WARNING,
        }),
        code: Some(NumberOrString::String(i.code.name.to_string())),
        code_description: Uri::from_str(&crate::render::sarif::help_uri(i.code.name))
            .ok()
            .map(|href| CodeDescription { href }),
        source: Some("planforge".into()),
        message,
        ..Diagnostic::default()
    }
}
