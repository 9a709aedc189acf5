//! Findings as diagnostics: one `miette::Diagnostic` per issue (with the
//! labelled span in the document), the plain-text form used without a
//! terminal, and `validate`'s text summary, JSON and GitHub workflow
//! commands. No I/O and no colour here: `cli::ui` decides how to show them.

use crate::forge::present::Position;
use crate::forge::present::Span;
use crate::forge::present::fingerprint;
use crate::forge::validate::policy::Withheld;
use crate::forge::validate::{Finding, Target, Validation};
use crate::model::Issue;
use crate::model::Severity;
use crate::model::remedy::{Remedy, Voice};
use crate::model::text::floor_char_boundary;
use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use serde_json::{Value, json};
use std::fmt;
use std::sync::Arc;

/// One finding as a diagnostic: the message, the fix, and where it is.
#[derive(Debug, Clone)]
pub(crate) struct IssueDiagnostic {
    pub(crate) code: &'static str,
    pub(crate) severity: Severity,
    pub(crate) message: String,
    /// How to fix it: the finding's fixes in the reader's words, else the
    /// check's "How to fix" (one paragraph).
    pub(crate) help: Option<String>,
    /// Where to read more about the code, in the reader's words.
    pub(crate) see: String,
    /// A path, `stdin`, or a plan id.
    pub(crate) file: String,
    /// Where the value starts, 1-based.
    pub(crate) start: Option<Position>,
    /// The absolute pointer of the value, when the issue has one.
    pub(crate) pointer: Option<String>,
    /// The text and the span to underline in it, with the label's words.
    source: Option<Arc<SourceText>>,
    label: Option<(Span, String)>,
}

impl IssueDiagnostic {
    #[cfg(test)]
    pub(crate) fn new(target: &Target, f: &Finding, v: &dyn Voice) -> IssueDiagnostic {
        IssueDiagnostic::with_source(f, Arc::new(SourceText::of(target)), v)
    }

    /// As [`IssueDiagnostic::new`], sharing the target's indexed text.
    pub(crate) fn with_source(
        f: &Finding,
        source: Arc<SourceText>,
        v: &dyn Voice,
    ) -> IssueDiagnostic {
        let i = &f.issue;
        let help = if i.fixes.is_empty() {
            crate::forge::explain::how_to_fix(i.code.name)
        } else {
            Some(v.fixes(&i.fixes))
        };
        IssueDiagnostic {
            code: i.code.name,
            severity: i.severity(),
            message: i.message.clone(),
            help,
            see: v.say(&Remedy::Explain {
                code: i.code.name.to_string(),
            }),
            file: source.name.clone(),
            start: f.location.as_ref().map(|l| l.start),
            pointer: f.pointer.clone(),
            source: f.label.map(|_| source),
            label: f.label.map(|s| (s, label_text(i))),
        }
    }

    /// `file:line:column`, or just the file.
    pub(crate) fn place(&self) -> String {
        match self.start {
            Some(p) => format!("{}:{}:{}", self.file, p.line, p.column),
            None => self.file.clone(),
        }
    }

    /// `error` or `warning`, as compilers say.
    pub(crate) fn level(&self) -> &'static str {
        match self.severity {
            Severity::Blocking => "error",
            Severity::Advisory => "warning",
        }
    }
}

/// The most bytes of a document a snippet shows: longer lines are shown
/// as the span with [`SIDE`] bytes either side, longer spans underlined in
/// part ([`UNDERLINE`]). A snippet of a one-line document is not the document.
const SNIPPET: usize = 1024;
/// The most bytes of a value a snippet underlines (its start).
const UNDERLINE: usize = 240;
/// The bytes of a long line a snippet shows either side of its span.
const SIDE: usize = 80;

fn ceil_char_boundary(s: &str, i: usize) -> usize {
    let mut end = i.min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    end
}

/// A document's text for miette, with its line starts indexed once, so
/// drawing many findings in a large document stays linear. Columns are
/// counted in characters, as everywhere else.
#[derive(Debug)]
pub(crate) struct SourceText {
    name: String,
    text: Arc<str>,
    starts: Vec<usize>,
}

impl SourceText {
    pub(crate) fn new(name: impl Into<String>, text: Arc<str>) -> SourceText {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        SourceText {
            name: name.into(),
            text,
            starts,
        }
    }

    pub(crate) fn of(target: &Target) -> SourceText {
        SourceText::new(&target.file, target.text.clone())
    }

    fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }
}

impl SourceCode for SourceText {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let (start, end) = (span.offset(), span.offset() + span.len());
        if end > self.text.len() || !self.text.is_char_boundary(start) {
            return Err(MietteError::OutOfBounds);
        }
        let first = self.line_of(start);
        let last = self.line_of(end.saturating_sub(1).max(start));
        let line_end = |l: usize| self.starts.get(l + 1).map_or(self.text.len(), |&s| s - 1);
        let (from, to, line, column) = if before == 0 && after == 0 {
            let col = self.text[self.starts[first]..start].chars().count();
            (start, end, first, col)
        } else if line_end(last) - self.starts[first] > SNIPPET {
            // A long line (a minified document is one): the span with a
            // few words either side, not the line.
            let from = floor_char_boundary(
                &self.text,
                start.saturating_sub(SIDE).max(self.starts[first]),
            );
            let to = ceil_char_boundary(&self.text, (end + SIDE).min(line_end(last)));
            let col = self.text[self.starts[first]..from].chars().count();
            (from, to, first, col)
        } else {
            let from_line = first.saturating_sub(before);
            let to_line = (last + after).min(self.starts.len() - 1);
            let to = self
                .starts
                .get(to_line + 1)
                .copied()
                .unwrap_or(self.text.len());
            // A byte-order mark is no character of the first line: the
            // snippet starts after it, so columns agree with every format.
            let mut from = self.starts[from_line];
            if from == 0 && self.text.starts_with('\u{feff}') && start >= 3 {
                from = 3;
            }
            (from, to, from_line, 0)
        };
        let lines = self.line_of(to.saturating_sub(1).max(from)) - line + 1;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            &self.text.as_bytes()[from..to],
            (from, to - from).into(),
            line,
            column,
            lines,
        )))
    }
}

/// A pointer as a line shows it: cut like the names in a message (a key of
/// any length can be in it); the JSON and SARIF forms carry it whole.
fn shown_pointer(p: &str) -> String {
    crate::model::text::cut(p, 2 * crate::model::text::NAME)
}

/// The words under the underline: what the span is.
fn label_text(i: &Issue) -> String {
    let what = match (&i.node_id, &i.edge_id) {
        (Some(n), _) if i.pointer.is_some() || i.edge_id.is_none() => format!("node `{n}`"),
        (_, Some(e)) => format!("edge `{e}`"),
        (Some(n), None) => format!("node `{n}`"),
        (None, None) => return i.code.to_string(),
    };
    match &i.pointer {
        Some(p) if !p.is_empty() => format!(
            "{what}: {}",
            shown_pointer(&crate::model::value::dot_path(p.trim_start_matches('/')))
        ),
        _ => what,
    }
}

impl fmt::Display for IssueDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for IssueDiagnostic {}

impl miette::Diagnostic for IssueDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Blocking => miette::Severity::Error,
            Severity::Advisory => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    /// Not a web address: where to read more, shown beside the code.
    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.see))
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.as_ref().map(|s| &**s as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let (span, words) = self.label.as_ref()?;
        // The underline covers at most UNDERLINE bytes of a long value.
        let len = match &self.source {
            Some(s) if span.len() > UNDERLINE => {
                floor_char_boundary(&s.text, span.start + UNDERLINE) - span.start
            }
            _ => span.len(),
        };
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(Some(words.clone()), (span.start, len)),
        )))
    }
}

/// The plain form (no terminal): `error[code]: message`, `--> file:line:col`,
/// the fix, and where to read more.
pub(crate) fn plain(d: &IssueDiagnostic) -> String {
    let mut out = format!("{}[{}]: {}\n", d.level(), d.code, d.message);
    match &d.pointer {
        Some(p) => out.push_str(&format!("  --> {} (at {})\n", d.place(), shown_pointer(p))),
        None => out.push_str(&format!("  --> {}\n", d.place())),
    }
    if let Some(h) = &d.help {
        out.push_str(&format!("  help: {h}\n"));
    }
    out.push_str(&format!("  see: {}\n", d.see));
    out
}

/// Every finding of a validation, as diagnostics.
/// A stored plan's fixes are worded by `voice_of` its target (commands);
/// a document's as edits of the document.
pub(crate) fn diagnostics<V: Voice>(
    v: &Validation,
    voice_of: impl Fn(&Target) -> V,
) -> Vec<IssueDiagnostic> {
    let mut out = Vec::new();
    for t in &v.targets {
        if t.findings.is_empty() {
            // Nothing to place: skip indexing the text's lines (a large
            // valid document would pay for it on every run).
            continue;
        }
        let source = Arc::new(SourceText::of(t));
        let own = voice_of(t);
        let doc = super::voice::DocumentVoice { other: &own };
        let voice: &dyn Voice = if t.stored { &own } else { &doc };
        out.extend(heads(&t.findings, |_| true, source, voice));
    }
    out
}

/// The diagnostics whose plain form fits in `max_bytes` (all of them when
/// `None`; the first always), and how many were left out.
pub(crate) fn within(
    all: Vec<IssueDiagnostic>,
    max_bytes: Option<usize>,
) -> (Vec<IssueDiagnostic>, usize) {
    let Some(budget) = max_bytes else {
        return (all, 0);
    };
    let total = all.len();
    let mut used = 0;
    let mut out = Vec::new();
    for d in all {
        let size = plain(&d).len() + 1;
        if !out.is_empty() && used + size > budget {
            break;
        }
        used += size;
        out.push(d);
    }
    let left = total - out.len();
    (out, left)
}

/// One diagnostic per group of findings (`Issue::cause`), for the heads
/// `keep` selects: a head says how many findings follow from it.
fn heads(
    findings: &[Finding],
    keep: impl Fn(&Finding) -> bool,
    source: Arc<SourceText>,
    voice: &dyn Voice,
) -> Vec<IssueDiagnostic> {
    super::issues::group_indices(findings.len(), |k| &findings[k].issue)
        .into_iter()
        .filter(|(h, _)| keep(&findings[*h]))
        .map(|(h, follow)| {
            let mut d = IssueDiagnostic::with_source(&findings[h], source.clone(), voice);
            let follow: Vec<&Issue> = follow.iter().map(|&k| &findings[k].issue).collect();
            if let Some(line) = super::issues::follow_line(&follow) {
                d.message = format!("{}; {}", d.message, line.trim_start());
            }
            d
        })
        .collect()
}

/// The blocking findings of one target, as diagnostics (freeze and submit
/// refusals).
/// At most [`REFUSAL_DIAGNOSTICS`] groups are drawn.
pub(crate) fn blocking(t: &Target, voice: &dyn Voice) -> Vec<IssueDiagnostic> {
    let source = Arc::new(SourceText::of(t));
    let mut all = heads(&t.findings, |f| f.issue.is_blocking(), source, voice);
    all.truncate(REFUSAL_DIAGNOSTICS);
    all
}

/// How many groups of findings a refused freeze or submit draws; the rest
/// are counted on stdout, and `validate` lists them.
pub(crate) const REFUSAL_DIAGNOSTICS: usize = 10;

/// `validate`'s stdout in text mode: one line per target, with the checks
/// that were skipped; the findings themselves go to stderr.
pub(crate) fn summary(v: &Validation) -> String {
    let mut out = Vec::new();
    for t in &v.targets {
        let c = t.report.counts();
        match t.failed {
            Some(_) => out.push(format!("{}: error (not checked: invalid_document)", t.file)),
            None => out.push(format!(
                "{}: {} ({}{})",
                t.file,
                verdict(t),
                super::issues::counts(&c),
                withheld_text(&t.withheld)
            )),
        }
        if t.omitted > 0 {
            out.push(format!("  note: {}", omitted_note(t.omitted)));
        }
    }
    // Skipped checks once per run: the same reasons repeat on every input.
    let skipped: Vec<(&'static str, String)> = skipped_once(v)
        .into_iter()
        .map(|(code, why, _)| (code, why.to_string()))
        .collect();
    if let Some(s) = crate::model::issue::skipped_summary(&skipped) {
        out.push(format!("  note: some checks were {s}"));
    }
    if v.targets.is_empty() {
        out.push("Nothing to validate: the store has no plans.".into());
    } else if v.targets.len() > 1 {
        let invalid = v.targets.iter().filter(|t| verdict(t) == "invalid").count();
        let c = v.counts();
        let unchecked = match v.targets.iter().filter(|t| t.failed.is_some()).count() {
            0 => String::new(),
            n => format!(", {n} input error(s)"),
        };
        out.push(format!(
            "{} checked, {invalid} invalid{unchecked}: {}{}",
            v.targets.len(),
            super::issues::counts(&c),
            withheld_text(&v.withheld())
        ));
    }
    out.join("\n")
}

/// `; 1 suppressed, 2 not selected, 3 in the baseline` (empty when nothing
/// was withheld).
fn withheld_text(w: &Withheld) -> String {
    let parts: Vec<String> = [
        (w.suppressed, "suppressed"),
        (w.deselected, "not selected"),
        (w.baselined, "in the baseline"),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, what)| format!("{n} {what}"))
    .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("; {}", parts.join(", "))
    }
}

/// The withheld counts as JSON.
fn withheld_json(w: &Withheld) -> Value {
    json!({"suppressed": w.suppressed, "deselected": w.deselected, "baselined": w.baselined})
}

/// A target's verdict: `valid`, `invalid` (a blocking finding), or `error`
/// (it could not be checked).
fn verdict(t: &Target) -> &'static str {
    match (t.failed, t.report.has_blocking()) {
        (Some(_), _) => "error",
        (None, true) => "invalid",
        (None, false) => "valid",
    }
}

/// The checks skipped on any target, each (code, reason) once, in the
/// order first seen, with how many targets skipped it.
pub(crate) fn skipped_once(v: &Validation) -> Vec<(&'static str, &str, usize)> {
    let mut out: Vec<(&'static str, &str, usize)> = Vec::new();
    let mut at: std::collections::HashMap<(&str, &str), usize> = Default::default();
    for t in &v.targets {
        for (code, why) in &t.report.skipped {
            match at.get(&(*code, why.as_str())) {
                Some(&i) => out[i].2 += 1,
                None => {
                    at.insert((code, why), out.len());
                    out.push((code, why, 1));
                }
            }
        }
    }
    out
}

/// What to say about findings counted but not listed.
pub(crate) fn omitted_note(n: usize) -> String {
    format!(
        "{n} more finding(s) are counted above but not listed; `--max-findings 0` lists them all"
    )
}

/// `validate --format json` (SPEC §8): counts, skipped checks and every
/// issue with its place. Positions are 1-based; columns count characters;
/// `endLine`/`endColumn` is the position just after the value.
pub(crate) fn json(v: &Validation) -> Value {
    let c = v.counts();
    let mut issues = Vec::new();
    let mut files = Vec::new();
    let skipped: Vec<Value> = skipped_once(v)
        .into_iter()
        .map(|(code, reason, n)| json!({"code": code, "reason": reason, "inputs": n}))
        .collect();
    for t in &v.targets {
        let tc = t.report.counts();
        files.push(json!({
            "file": t.file,
            "planId": t.plan_id,
            "verdict": verdict(t),
            "blocking": tc.blocking,
            "advisory": tc.advisory,
            "withheld": withheld_json(&t.withheld),
        }));
        for f in &t.findings {
            let i = &f.issue;
            let l = f.location.as_ref();
            let mut issue = json!({
                "code": i.code.name,
                "severity": i.severity().as_str(),
                "message": i.message,
                "planId": t.plan_id,
                "nodeId": i.node_id,
                "edgeId": i.edge_id,
                "pointer": f.pointer,
                "file": t.file,
                "line": l.map(|l| l.start.line),
                "column": l.map(|l| l.start.column),
                "endLine": l.map(|l| l.end.line),
                "endColumn": l.map(|l| l.end.column),
                "fingerprint": fingerprint(t.repo_path.as_deref().unwrap_or(&t.file), t.plan_id.as_deref(), i),
            });
            if let Value::Object(m) = &mut issue {
                crate::forge::present::insert_fixes(m, &i.fixes);
                if let Some(c) = &i.cause {
                    m.insert("cause".into(), crate::forge::present::cause_json(c));
                }
            }
            issues.push(issue);
        }
    }
    let omitted: usize = v.targets.iter().map(|t| t.omitted).sum();
    let mut doc = json!({
        "formatVersion": 1,
        "valid": v.valid(),
        "checked": v.targets.len(),
        "inputErrors": v.targets.iter().filter(|t| t.failed.is_some()).count(),
        "blocking": c.blocking,
        "advisory": c.advisory,
        "withheld": withheld_json(&v.withheld()),
        "skipped": skipped,
        "files": files,
        "issues": issues,
    });
    if omitted > 0 {
        doc["omitted"] = json!(omitted);
    }
    doc
}

/// `validate --format github`: one workflow command per finding
/// (`::error` for blocking, `::warning` for advisory), then a `::notice`
/// per target whose checks were partly skipped.
pub(crate) fn github(v: &Validation) -> String {
    let mut out = String::new();
    for t in &v.targets {
        for f in &t.findings {
            let i = &f.issue;
            let level = match i.severity() {
                Severity::Blocking => "error",
                Severity::Advisory => "warning",
            };
            // GitHub resolves `file` against the repository root.
            let file = t.repo_path.as_deref().unwrap_or(&t.file);
            let mut props = vec![format!("file={}", gh_property(file))];
            if let Some(l) = &f.location {
                props.push(format!("line={}", l.start.line));
                props.push(format!("col={}", l.start.column));
                props.push(format!("endLine={}", l.end.line));
                props.push(format!("endColumn={}", l.end.column));
            }
            props.push(format!("title={}", gh_property(i.code.name)));
            out.push_str(&format!(
                "::{level} {}::{}\n",
                props.join(","),
                gh_data(&i.message)
            ));
        }
        if t.omitted > 0 {
            out.push_str(&format!(
                "::notice file={},title={}::{}\n",
                gh_property(t.repo_path.as_deref().unwrap_or(&t.file)),
                gh_property("planforge: findings not listed"),
                gh_data(&omitted_note(t.omitted))
            ));
        }
    }
    // Skipped checks once per run, not once per file.
    let skipped: Vec<(&'static str, String)> = skipped_once(v)
        .into_iter()
        .map(|(code, why, _)| (code, why.to_string()))
        .collect();
    if let Some(s) = crate::model::issue::skipped_summary(&skipped) {
        out.push_str(&format!(
            "::notice title={}::{}\n",
            gh_property("planforge: checks skipped"),
            gh_data(&format!("some checks were {s}"))
        ));
    }
    out
}

/// Escapes a workflow command's message (`%`, CR, LF).
pub(crate) fn gh_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a workflow command's property value (also `:` and `,`).
pub(crate) fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::Syntax;

    fn target() -> Target {
        let text = r#"{
  "formatVersion": 1,
  "nodes": [
    {"id": "start", "kind": "entry", "definition": {"input": []}},
    {"id": "a", "kind": "call", "definition": {"tool": "nope", "args": {}, "output": [], "onMissingValue": "fail", "authority": [], "replaySafe": true, "onIndeterminate": "halt"}}
  ],
  "edges": [{"id": "e1", "from": "start", "to": "a"}]
}"#;
        let reg = crate::model::registry::Registry::parse(
            "tools: {t: {returns: text}}",
            Syntax::Yaml,
            "r",
        )
        .unwrap();
        crate::forge::validate::check_document(
            "p.json",
            text.into(),
            Syntax::Json,
            Some(&reg),
            &crate::forge::validate::Options::default(),
        )
        .unwrap()
    }

    #[test]
    fn plain_text_names_file_line_and_column() {
        let t = target();
        let v = Validation {
            targets: vec![t],
            ..Validation::default()
        };
        let d = diagnostics(&v, |_| crate::cli::voice::CliVoice::default());
        assert_eq!(d.len(), 1);
        let p = plain(&d[0]);
        assert!(
            p.starts_with("error[unknown_tool]: call `a` invokes the tool `nope`"),
            "{p}"
        );
        assert!(
            p.contains("\n  --> p.json:5:56 (at /nodes/1/definition/tool)\n"),
            "{p}"
        );
        assert!(
            p.contains("\n  help: in node `a`, set `definition.tool` to <a tool from the registry>, or add `nope`"),
            "{p}"
        );
        assert!(
            p.ends_with("  see: planforge explain unknown_tool\n"),
            "{p}"
        );
        assert!(!p.contains('\u{1b}'));
    }

    #[test]
    fn a_snippet_of_a_one_line_document_is_the_span_and_a_few_words() {
        // A short value, and a value longer than its underline.
        for tool in ["nope".to_string(), "n".repeat(30_000)] {
            let out = one_line_snippet(&tool);
            assert!(out.lines().all(|l| l.chars().count() < 600), "{out}");
        }
    }

    /// The drawing of the `unknown_tool` finding of a one-line document
    /// whose call's tool is `tool`, checked for its place.
    fn one_line_snippet(tool: &str) -> String {
        let pad = "x".repeat(200_000);
        let text = format!(
            r#"{{"formatVersion": 1, "nodes": [{{"id": "start", "kind": "entry", "definition": {{"input": [], "pad": "{pad}"}}}}, {{"id": "a", "kind": "call", "definition": {{"tool": "{tool}", "args": {{}}, "output": [], "onMissingValue": "fail", "authority": [], "replaySafe": true, "onIndeterminate": "halt"}}}}], "edges": [{{"id": "e1", "from": "start", "to": "a"}}]}}"#
        );
        let reg = crate::model::registry::Registry::parse(
            "tools: {t: {returns: text}}",
            Syntax::Yaml,
            "r",
        )
        .unwrap();
        let t = crate::forge::validate::check_document(
            "p.json",
            text.as_str().into(),
            Syntax::Json,
            Some(&reg),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let f = t
            .findings
            .iter()
            .position(|f| f.issue.code.name == "unknown_tool")
            .unwrap();
        let d = IssueDiagnostic::new(&t, &t.findings[f], &crate::cli::voice::CliVoice::default());
        let column = text.find(&format!("\"{tool}\"")).unwrap() + 1;
        let handler =
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .with_width(100);
        let mut out = String::new();
        handler.render_report(&mut out, &d).unwrap();
        assert!(out.len() < 4096, "{} bytes:\n{out}", out.len());
        assert!(out.contains(&format!("[p.json:1:{column}]")), "{out}");
        assert!(out.contains("\"tool\": \"n") && out.contains("node `a`: definition.tool"));
        assert!(plain(&d).contains(&format!("p.json:1:{column} ")));
        out
    }

    #[test]
    fn the_label_underlines_the_value() {
        let t = target();
        let d = IssueDiagnostic::new(&t, &t.findings[0], &crate::cli::voice::CliVoice::default());
        let labels: Vec<LabeledSpan> = miette::Diagnostic::labels(&d).unwrap().collect();
        let s = labels[0].inner();
        assert_eq!(&t.text[s.offset()..s.offset() + s.len()], "\"nope\"");
        assert_eq!(labels[0].label(), Some("node `a`: definition.tool"));
    }

    #[test]
    fn json_has_every_field() {
        let v = Validation {
            targets: vec![target()],
            ..Validation::default()
        };
        let j = json(&v);
        assert_eq!(j["valid"], false);
        assert_eq!(j["blocking"], 1);
        let i = &j["issues"][0];
        for k in [
            "code",
            "severity",
            "message",
            "planId",
            "nodeId",
            "edgeId",
            "pointer",
            "file",
            "line",
            "column",
            "endLine",
            "endColumn",
            "fingerprint",
        ] {
            assert!(i.get(k).is_some(), "{k}");
        }
        assert_eq!(i["line"], 5);
        assert_eq!(i["column"], 56);
        assert_eq!(i["endColumn"], 62);
        assert_eq!(i["pointer"], "/nodes/1/definition/tool");
    }

    #[test]
    fn github_commands_are_escaped() {
        assert_eq!(gh_data("50%\r\nok"), "50%25%0D%0Aok");
        assert_eq!(gh_property("a:b,c%"), "a%3Ab%2Cc%25");
        let v = Validation {
            targets: vec![target()],
            ..Validation::default()
        };
        let g = github(&v);
        assert!(
            g.starts_with("::error file=p.json,line=5,col=56,endLine=5,endColumn=62,title=unknown_tool::call `a`"),
            "{g}"
        );
        assert_eq!(g.lines().count(), 1);
    }
}
