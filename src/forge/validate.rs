//! `validate`: every finding on plan documents (offline, no store needed) and
//! on stored plans, each located in the text a person reads — the document
//! as written, or a stored plan's canonical export (`planforge export`).
//!
//! A document is checked as its import would be: its `set_bounds`, `add_node`
//! and `add_edge` ops are folded in memory (so the fold's `duplicate_edge_id`
//! and `dangling_edge` appear), then every check runs. A claimed `digest` the
//! content does not have is the blocking `digest_mismatch`.

use super::Forge;
use crate::check;
use crate::model::Content;
use crate::model::Counts;
use crate::model::Issue;
use crate::model::Report;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::store::Loaded;
use crate::wire::Syntax;
use crate::wire::codec::{self, Document};
use crate::wire::span::{Locate, Located, Seek, Span, SpanIndex, YamlSeek};
use std::collections::HashMap;
use std::sync::Arc;

pub(crate) mod config;
pub(crate) mod inputs;
pub(crate) mod oplines;
pub(crate) mod policy;
pub(crate) mod select;

use policy::{Policy, Withheld};

/// One checked document or plan.
#[derive(Debug, Clone)]
pub struct Target {
    /// What outputs call it: the path as given, `stdin`, or the plan id.
    pub(crate) file: String,
    /// The document's `planId` (if any), or the stored plan's id.
    pub(crate) plan_id: Option<String>,
    /// Whether it is a stored plan (positions refer to its export).
    pub(crate) stored: bool,
    /// The text positions refer to: what findings are drawn from (a
    /// checked document without findings keeps none, so a large clean
    /// document is never copied).
    pub(crate) text: Arc<str>,
    pub(crate) report: Report,
    /// One per issue of `report`, in the same order, up to the listing
    /// limit ([`Options::max_findings`]).
    pub(crate) findings: Vec<Finding>,
    /// Issues of `report` beyond the listing limit (counted, not listed).
    pub(crate) omitted: usize,
    /// Findings the policy took out (suppressed, deselected, baselined).
    pub(crate) withheld: Withheld,
    /// `file` relative to the repository root, with `/` (what SARIF and
    /// GitHub annotations name); `None` outside it or until
    /// [`Validation::anchor`] ran.
    pub(crate) repo_path: Option<String>,
    /// The input could not be checked (its one finding is
    /// `invalid_document`): the exit code of that input error (2 for
    /// unreadable or unparsable input and unknown plan ids, 3 for a store
    /// failure).
    pub(crate) failed: Option<u8>,
}

/// How many findings a target lists by default; the rest are counted.
pub(crate) const DEFAULT_MAX_FINDINGS: usize = 1000;

/// How a validation runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// How many findings each target lists; the rest are counted. A garbage
    /// document can carry millions of findings; listing them all would cost
    /// gigabytes and help nobody, so the output says how many were left out.
    pub(crate) max_findings: usize,
    /// The process exits right after: the checked content is left to the
    /// operating system instead of being freed piece by piece.
    pub(crate) one_shot: bool,
    /// What is reported of what the checks find.
    pub(crate) policy: Arc<Policy>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_findings: DEFAULT_MAX_FINDINGS,
            one_shot: false,
            policy: Arc::new(Policy::default()),
        }
    }
}

impl Options {
    /// `n` findings per target at most (`0`: all).
    pub(crate) fn listing(mut self, n: usize) -> Options {
        self.max_findings = if n == 0 { usize::MAX } else { n };
        self
    }
}

/// An issue and where it is.
#[derive(Debug, Clone)]
pub struct Finding {
    pub(crate) issue: Issue,
    /// The issue's pointer made absolute in the text
    /// (`/nodes/3/definition/tool`); `None` for a plan-wide issue or one
    /// naming a node or edge the text does not hold.
    pub(crate) pointer: Option<String>,
    /// The value at `pointer` (or its nearest existing parent); plan-wide
    /// issues are placed at the node list.
    pub(crate) location: Option<Located>,
    /// The part of `location` a snippet underlines: the value itself when
    /// it fits on one line, else its key, its `id`, or its first line.
    pub(crate) label: Option<Span>,
}

/// What `validate` found on every target.
#[derive(Debug, Clone, Default)]
pub(crate) struct Validation {
    pub(crate) targets: Vec<Target>,
    /// A baseline was given: what is reported is what is new.
    pub(crate) baseline: bool,
    /// The repository root (absolute) the targets' `repo_path`s are
    /// relative to, once [`Validation::anchor`] ran.
    pub(crate) root: Option<std::path::PathBuf>,
}

impl Validation {
    pub(crate) fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for t in &self.targets {
            let tc = t.report.counts();
            c.blocking += tc.blocking;
            c.advisory += tc.advisory;
        }
        c
    }
    /// No blocking issue anywhere.
    pub(crate) fn valid(&self) -> bool {
        self.counts().blocking == 0
    }
    /// Places every target in the repository holding `cwd` (the folder
    /// with `.git` at or above it, else `cwd` itself).
    pub(crate) fn anchor(&mut self, cwd: &std::path::Path) {
        let root = inputs::repo_root(cwd);
        for t in &mut self.targets {
            t.repo_path = inputs::repo_relative(&root, cwd, &t.file);
        }
        self.root = Some(root);
    }
    /// What the policy took out, over every target.
    pub(crate) fn withheld(&self) -> Withheld {
        self.targets
            .iter()
            .fold(Withheld::default(), |a, t| a + t.withheld)
    }
    /// The worst exit code of the inputs that could not be checked.
    pub(crate) fn failed(&self) -> Option<u8> {
        self.targets.iter().filter_map(|t| t.failed).max()
    }
}

/// Checks a plan document's text. Unreadable text is an input error (exit 2)
/// carrying its location and the text, for a labelled snippet.
pub fn check_document(
    file: &str,
    text: String,
    syntax: Syntax,
    registry: Option<&Registry>,
    opts: &Options,
) -> Result<Target> {
    match read_document(&text, syntax) {
        Ok(doc) => Ok(checked(file, text, syntax, doc, None, registry, opts)),
        Err(e) => Err(document_error(file, text, syntax, e)),
    }
}

/// As [`check_document`], but a document that cannot be read is a target
/// too: its one finding is `invalid_document`, at the place the reader
/// names, so a run over many inputs reports every one of them.
pub fn check_input(
    file: &str,
    text: String,
    syntax: Syntax,
    registry: Option<&Registry>,
    opts: &Options,
) -> Target {
    match read_document(&text, syntax) {
        Ok(doc) => checked(file, text, syntax, doc, None, registry, opts),
        Err(e) => refused(file, Arc::from(text), syntax, e),
    }
}

/// As [`check_input`], for a text an editor holds, read already by the
/// caller (`planforge lsp`: a large YAML document is read again only
/// where it changed; `read` must be what `codec::document` gives on
/// `text`), with its span index when built (one reading per document
/// version, shared with the editor's queries). The text is neither copied
/// nor indexed again: the target's text is `text` itself, and findings are
/// located with `index`, which must be the index of `text` (`None`: the
/// text is not well-formed, or not indexed; it is then indexed here when
/// there is a finding to locate, as by [`check_input`]).
pub(crate) fn check_read(
    file: &str,
    text: &Arc<str>,
    syntax: Syntax,
    read: Result<Document, crate::wire::ParseError>,
    index: Option<&SpanIndex<'_>>,
    registry: Option<&Registry>,
    opts: &Options,
) -> Target {
    debug_assert!(index.is_none_or(|i| std::ptr::eq(i.text(), &**text)));
    match read.and_then(admitted) {
        Ok(doc) => checked(file, Arc::clone(text), syntax, doc, index, registry, opts),
        Err(e) => refused(file, Arc::clone(text), syntax, e),
    }
}

/// Remembers the last version read of large YAML documents, for
/// [`read_edited`].
pub(crate) use crate::wire::reread::Rereads;

/// The document an editor holds now (`text`, named `name`), as
/// `codec::document` reads it, for [`check_read`]: with `rereads`, a large
/// YAML document is read again only where it changed since the last
/// version `rereads` read of it.
pub(crate) fn read_edited(
    name: &str,
    text: &Arc<str>,
    syntax: Syntax,
    rereads: Option<&mut Rereads>,
) -> std::result::Result<Document, crate::wire::ParseError> {
    match rereads {
        Some(r) => r.document(name, text, syntax),
        None => codec::document(text, syntax),
    }
}

/// The target of a document that does not read as a plan document.
fn refused(file: &str, text: Arc<str>, syntax: Syntax, e: crate::wire::ParseError) -> Target {
    // The value the pointer names, when the parser gave no place
    // (a value of the wrong kind in a well-formed text).
    let location = match (&e.line, &e.pointer) {
        // YAML: by the lines of the member or item the pointer leads
        // into, not the whole text's index (the text is well-formed).
        (None, Some(p)) if syntax == Syntax::Yaml => YamlSeek::new(&text).locate(p),
        (None, Some(p)) => crate::wire::span::locate(&text, syntax, p),
        (Some(l), _) => inputs::located(&text, *l, e.column.unwrap_or(1)),
        (None, None) => None,
    };
    unreadable(file, e.message, e.pointer, location, text, 2)
}

/// An input that could not be checked, from the error that stopped it (a
/// file that cannot be read, an unknown plan id, a store failure).
pub(crate) fn failure(file: &str, e: &Error) -> Target {
    let loc = e.location.as_deref();
    let at = loc.and_then(|l| l.line.map(|line| (line, l.column.unwrap_or(1))));
    let text: Arc<str> = match &e.source {
        Some(s) => Arc::from(s.1.as_str()),
        None => Arc::from(""),
    };
    // The message names the file first when it came from a reader; the
    // finding carries the file already.
    let message = e
        .message
        .strip_prefix(&format!("{file}: "))
        .unwrap_or(&e.message)
        .to_string();
    let pointer = loc.and_then(|l| l.pointer.clone());
    let location = at.and_then(|(line, column)| inputs::located(&text, line, column));
    unreadable(file, message, pointer, location, text, e.exit_code())
}

/// The target of an input that could not be checked: one `invalid_document`
/// finding, at `location` in `text` when known.
fn unreadable(
    file: &str,
    message: String,
    pointer: Option<String>,
    location: Option<Located>,
    text: Arc<str>,
    exit: u8,
) -> Target {
    let issue = crate::check::invalid_document::issue(message, pointer.as_deref());
    let label = location
        .as_ref()
        .filter(|_| !text.is_empty())
        .map(|l| l.span);
    let finding = Finding {
        issue: issue.clone(),
        pointer,
        location,
        label,
    };
    Target {
        file: file.to_string(),
        plan_id: None,
        stored: false,
        text,
        report: Report {
            issues: vec![issue],
            skipped: Vec::new(),
        },
        findings: vec![finding],
        omitted: 0,
        withheld: Withheld::default(),
        repo_path: None,
        failed: Some(exit),
    }
}

/// The document in `text`, refused as `import` would refuse it.
fn read_document(text: &str, syntax: Syntax) -> Result<Document, crate::wire::ParseError> {
    codec::document(text, syntax).and_then(admitted)
}

/// A document read, refused as `import` would refuse it.
fn admitted(doc: Document) -> Result<Document, crate::wire::ParseError> {
    // A planId is a folder name: one that could never be imported is refused
    // here as `import` refuses it (exit 2), not passed as valid.
    if let Some(id) = &doc.plan_id
        && !crate::model::ids::is_valid_plan_id(id)
    {
        return Err(crate::wire::codec::error(
            "/planId",
            format!(
                "`{}` is not a valid plan id: plan ids are `plan-` followed by 1–64 letters, digits, `_` or `-` (so they can never name a path outside the store)",
                crate::model::ids::quote_id(id)
            ),
        ));
    }
    // So is a label `import` would refuse.
    if let Some(why) = doc
        .label
        .as_deref()
        .and_then(crate::model::ids::label_problem)
    {
        return Err(crate::wire::codec::error(
            "/label",
            format!("the document's label is not allowed: {why}"),
        ));
    }
    Ok(doc)
}

/// Checks a document that was read (`index`: its text's span index, when
/// the caller has it). `text` is made shared only when a finding is drawn
/// from it (an owned text would be copied).
fn checked(
    file: &str,
    text: impl AsRef<str> + Into<Arc<str>>,
    syntax: Syntax,
    doc: Document,
    index: Option<&SpanIndex<'_>>,
    registry: Option<&Registry>,
    opts: &Options,
) -> Target {
    let plan_id = doc
        .plan_id
        .clone()
        .unwrap_or_else(|| "plan-document".to_string());
    let nodes: Vec<String> = doc.nodes.iter().map(|n| n.id.to_string()).collect();
    let edges: Vec<String> = doc.edges.iter().map(|e| e.id.to_string()).collect();
    let (content, mut prior, claimed) = import_fold(doc, &plan_id);
    if let Some(issue) = claimed {
        prior.push(issue);
    }
    let mut report = check::run(&content, registry, prior);
    let shown_id = (plan_id != "plan-document").then_some(plan_id.as_str());
    let withheld = opts
        .policy
        .apply(Some(&content), file, shown_id, &mut report);
    if opts.one_shot {
        std::mem::forget(content);
    } else {
        drop(content);
    }
    let nodes: Vec<&str> = nodes.iter().map(String::as_str).collect();
    let edges: Vec<&str> = edges.iter().map(String::as_str).collect();
    let findings = locate_all(
        text.as_ref(),
        syntax,
        index,
        &report.issues,
        &nodes,
        &edges,
        opts,
    );
    let omitted = report.issues.len() - findings.len();
    let text = if findings.is_empty() {
        Arc::from("")
    } else {
        text.into()
    };
    Target {
        omitted,
        withheld,
        repo_path: None,
        file: file.to_string(),
        plan_id: (plan_id != "plan-document").then_some(plan_id),
        stored: false,
        text,
        report,
        findings,
        failed: None,
    }
}

/// A stored plan's findings, located in its op log (`log`: the path
/// outputs name and its lines), else in its canonical export text; the
/// policy applies when `policed` (not to the findings of a refusal, which
/// must all be shown).
pub(crate) fn check_stored(
    loaded: &Loaded,
    mut report: Report,
    opts: &Options,
    policed: bool,
    log: Option<(String, oplines::OpLines)>,
) -> Target {
    let file = match &log {
        Some((shown, _)) => shown.clone(),
        None => loaded.plan_id.clone(),
    };
    let withheld = if policed {
        let c = loaded.content();
        opts.policy
            .apply(Some(c), &file, Some(&loaded.plan_id), &mut report)
    } else {
        Withheld::default()
    };
    let (text, findings) = match log {
        Some((_, lines)) => {
            let findings = lines.locate_all(&report.issues, opts.max_findings);
            (lines.text, findings)
        }
        None => {
            let text: Arc<str> = Arc::from(export_text(loaded));
            let c = loaded.content();
            let nodes: Vec<&str> = c.nodes.iter().map(|n| n.id.as_str()).collect();
            let edges: Vec<&str> = c.edges.iter().map(|e| e.id.as_str()).collect();
            let findings = locate_all(
                &text,
                Syntax::Json,
                None,
                &report.issues,
                &nodes,
                &edges,
                opts,
            );
            (text, findings)
        }
    };
    let omitted = report.issues.len() - findings.len();
    Target {
        omitted,
        withheld,
        repo_path: None,
        file,
        plan_id: Some(loaded.plan_id.clone()),
        stored: true,
        text,
        report,
        findings,
        failed: None,
    }
}

/// The text `planforge export` prints for a stored plan.
pub(crate) fn export_text(loaded: &Loaded) -> String {
    crate::wire::json::pretty(&codec::document_json(
        loaded.content(),
        loaded.meta.label.as_deref(),
        Some(loaded.meta.state.as_str()),
        Some(loaded.digest()),
    ))
}

impl Forge {
    /// Every finding on a stored plan, located in its export text.
    pub(crate) fn validate(&self, plan: &str, opts: &Options) -> Result<Target> {
        let loaded = self.load_verified(plan)?;
        let report = self.check_fresh(&loaded)?;
        Ok(check_stored(
            &loaded,
            report,
            opts,
            true,
            self.op_lines(plan),
        ))
    }

    /// Findings already made on a stored plan (a refused freeze or submit),
    /// located in its export text as it is now.
    pub(crate) fn locate(&self, plan: &str, report: Report) -> Result<Target> {
        Ok(check_stored(
            &self.load(plan)?,
            report,
            &Options::default(),
            false,
            self.op_lines(plan),
        ))
    }

    /// The path outputs name a plan's op log by, when the plan has one
    /// (an input error on a stored plan is reported there, not at its id).
    pub(crate) fn log_file(&self, plan: &str) -> Option<String> {
        let path = self.store.plan_dir(plan).ok()?.join(crate::store::OPS_FILE);
        path.is_file().then(|| inputs::shown_path(&path))
    }

    /// A plan's op log, by the path outputs name it (relative to the
    /// working folder when it is under it), with its lines.
    fn op_lines(&self, plan: &str) -> Option<(String, oplines::OpLines)> {
        let path = self.store.plan_dir(plan).ok()?.join(crate::store::OPS_FILE);
        let lines = oplines::read(&path)?;
        Some((inputs::shown_path(&path), lines))
    }
}

/// The content an import of `doc` would fold to, with the fold's findings
/// and, when the document claims a digest its content lacks, the
/// `digest_mismatch` finding. The document is consumed: nodes are moved, not
/// copied.
fn import_fold(doc: Document, plan_id: &str) -> (Content, Vec<Issue>, Option<Issue>) {
    let claimed = digest_issue(&doc, plan_id);
    let (content, notes) = crate::store::fold::import(
        plan_id,
        doc.bounds.unwrap_or_default(),
        doc.nodes,
        doc.edges,
        doc.provenance,
    );
    let issues = crate::check::notes::issues_in_document(&notes, &content);
    (content, issues, claimed)
}

/// `digest_mismatch` when the document claims a digest its content lacks.
fn digest_issue(doc: &Document, plan_id: &str) -> Option<Issue> {
    let claimed = doc.digest.as_ref()?;
    let actual = doc.content_digest();
    if &actual == claimed {
        return None;
    }
    let plan = (plan_id != "plan-document").then_some(plan_id);
    Some(crate::check::digest_mismatch::document_issue(
        plan, claimed, &actual,
    ))
}

/// A document that cannot be read, as an error with its place and text.
fn document_error(file: &str, text: String, syntax: Syntax, e: crate::wire::ParseError) -> Error {
    placed(e, &text, syntax)
        .into_error(Some(file))
        .with_source(file, text)
}

/// A parse error with its line and column, from its pointer when the
/// parser did not know them.
fn placed(mut e: crate::wire::ParseError, text: &str, syntax: Syntax) -> crate::wire::ParseError {
    if e.line.is_none()
        && let Some(p) = &e.pointer
        && let Some(l) = crate::wire::span::locate(text, syntax, p)
    {
        e.line = Some(l.start.line);
        e.column = Some(l.start.column);
    }
    e
}

/// Locates every issue.
fn locate_all(
    text: &str,
    syntax: Syntax,
    given: Option<&SpanIndex<'_>>,
    issues: &[Issue],
    nodes: &[&str],
    edges: &[&str],
    opts: &Options,
) -> Vec<Finding> {
    // Without an index: a text read cleanly is located pointer by pointer,
    // reading only as far as each leads (the reader refused duplicate keys,
    // so the answers are the index's): JSON scanned, YAML by the lines of
    // the member or item each pointer leads into.
    let built: Option<Box<dyn Locate + '_>> = if issues.is_empty() || given.is_some() {
        None
    } else {
        match syntax {
            Syntax::Json => Seek::new(text).map(|s| Box::new(s) as Box<dyn Locate>),
            Syntax::Yaml => Some(Box::new(YamlSeek::new(text)) as Box<dyn Locate>),
        }
    };
    let index: Option<&dyn Locate> = match given {
        Some(g) => Some(g),
        None => built.as_deref(),
    };
    if issues.is_empty() || opts.max_findings == 0 {
        return Vec::new();
    }
    // A later node or edge with the same id is the one the fold keeps.
    let node_at: HashMap<&str, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let edge_at: HashMap<&str, usize> = edges.iter().enumerate().map(|(i, e)| (*e, i)).collect();
    issues
        .iter()
        .take(opts.max_findings)
        .map(|issue| {
            let pointer = absolute_pointer(issue, &node_at, &edge_at);
            let (location, label) = match index {
                Some(idx) => {
                    let anchor = pointer.clone().unwrap_or_else(|| {
                        if issue.edge_id.is_some() && issue.node_id.is_none() {
                            "/edges".to_string()
                        } else {
                            "/nodes".to_string()
                        }
                    });
                    let location = idx.locate(&anchor);
                    let label = location.as_ref().map(|l| label_span(idx, l));
                    (location, label)
                }
                None => (None, None),
            };
            Finding {
                issue: issue.clone(),
                pointer,
                location,
                label,
            }
        })
        .collect()
}

/// The issue's pointer, absolute in the document: relative to its node when
/// it names one, else to its edge; a node-and-edge issue without a pointer
/// (a cycle's closing edge, an edge into the entry) is placed at the edge.
fn absolute_pointer(
    issue: &Issue,
    node_at: &HashMap<&str, usize>,
    edge_at: &HashMap<&str, usize>,
) -> Option<String> {
    let node = issue
        .node_id
        .as_deref()
        .and_then(|n| node_at.get(n))
        .map(|i| format!("/nodes/{i}"));
    let edge = issue
        .edge_id
        .as_deref()
        .and_then(|e| edge_at.get(e))
        .map(|i| format!("/edges/{i}"));
    match (&issue.pointer, issue.node_id.is_some()) {
        (Some(p), true) => node.map(|n| n + p),
        (Some(p), false) if issue.edge_id.is_some() => edge.map(|e| e + p),
        (Some(p), false) => Some(p.clone()),
        (None, _) => edge.or(node),
    }
}

/// What a one-screen snippet underlines for a location.
pub(super) fn label_span(idx: &dyn Locate, l: &Located) -> Span {
    let text = idx.text();
    let one_line = |s: Span| !text[s.start..s.end].contains('\n');
    if l.exact && one_line(l.span) {
        return l.span;
    }
    // A missing member: the key of the object that lacks it.
    if !l.exact
        && let Some(k) = idx.key_span(&l.pointer)
    {
        return k;
    }
    // A node or an edge: its id.
    if let Some(id) = idx.find(&format!("{}/id", l.pointer))
        && one_line(id)
    {
        return id;
    }
    if one_line(l.span) {
        return l.span;
    }
    let first = text[l.span.start..l.span.end]
        .find('\n')
        .map(|n| l.span.start + n)
        .unwrap_or(l.span.end);
    Span {
        start: l.span.start,
        end: first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn registry() -> Registry {
        Registry::parse(
            "tools:\n  tickets_get: {returns: text, requiredArgs: [id]}\n",
            Syntax::Yaml,
            "test",
        )
        .unwrap()
    }

    fn doc(nodes: serde_json::Value, edges: serde_json::Value) -> String {
        serde_json::to_string_pretty(&json!({"formatVersion": 1, "nodes": nodes, "edges": edges}))
            .unwrap()
    }

    fn call(id: &str, tool: &str) -> serde_json::Value {
        json!({"id": id, "kind": "call", "definition": {
            "tool": tool, "args": {"id": "1"}, "output": [], "onMissingValue": "fail",
            "authority": [], "replaySafe": true, "onIndeterminate": "halt"}})
    }

    fn clean() -> (serde_json::Value, serde_json::Value) {
        (
            json!([{"id": "start", "kind": "entry", "definition": {"input": []}}, call("a", "tickets_get"), call("b", "tickets_get")]),
            json!([{"id": "e1", "from": "start", "to": "a"}, {"id": "e2", "from": "a", "to": "b"}]),
        )
    }

    #[test]
    fn a_clean_document_is_valid() {
        let (n, e) = clean();
        let t = check_document(
            "p.json",
            doc(n, e),
            Syntax::Json,
            Some(&registry()),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        assert!(t.report.issues.is_empty(), "{:?}", t.report.issues);
        assert!(t.report.skipped.is_empty());
        let v = Validation {
            targets: vec![t],
            ..Validation::default()
        };
        assert!(v.valid());
    }

    #[test]
    fn findings_point_at_the_offending_value() {
        let (mut n, e) = clean();
        n[2]["definition"]["tool"] = json!("tickets_gett");
        let text = doc(n, e);
        let t = check_document(
            "p.json",
            text.clone(),
            Syntax::Json,
            Some(&registry()),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let f = t
            .findings
            .iter()
            .find(|f| f.issue.code == "unknown_tool")
            .unwrap();
        assert_eq!(f.pointer.as_deref(), Some("/nodes/2/definition/tool"));
        let l = f.location.as_ref().unwrap();
        assert_eq!(&text[l.span.start..l.span.end], "\"tickets_gett\"");
        assert_eq!(f.label, Some(l.span));
        let line = text.lines().nth(l.start.line - 1).unwrap();
        assert_eq!(
            line.chars().skip(l.start.column - 1).collect::<String>(),
            "\"tickets_gett\","
        );
    }

    #[test]
    fn the_import_fold_runs_on_documents() {
        let (n, _) = clean();
        let e = json!([
            {"id": "e1", "from": "start", "to": "a"},
            {"id": "e1", "from": "start", "to": "b"},
            {"id": "e3", "from": "a", "to": "ghost"}
        ]);
        let t = check_document(
            "p.json",
            doc(n, e),
            Syntax::Json,
            None,
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let codes: Vec<&str> = t.report.issues.iter().map(|i| i.code.name).collect();
        assert!(codes.contains(&"duplicate_edge_id"), "{codes:?}");
        assert!(codes.contains(&"dangling_edge"), "{codes:?}");
        // The duplicate is reported at the edge the fold kept (the later one).
        let dup = t
            .findings
            .iter()
            .find(|f| f.issue.code == "duplicate_edge_id")
            .unwrap();
        assert_eq!(dup.pointer.as_deref(), Some("/edges/1"));
        // No registry: its checks are listed as skipped.
        assert!(t.report.skipped.iter().any(|(c, _)| *c == "unknown_tool"));
    }

    #[test]
    fn a_wrong_digest_is_blocking() {
        let (n, e) = clean();
        let mut v: serde_json::Value = serde_json::from_str(&doc(n, e)).unwrap();
        v["digest"] = json!("00");
        let text = serde_json::to_string_pretty(&v).unwrap();
        let t = check_document(
            "p.json",
            text,
            Syntax::Json,
            Some(&registry()),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let f = &t.findings[0];
        assert_eq!(f.issue.code, "digest_mismatch");
        assert!(f.issue.is_blocking());
        assert_eq!(f.pointer.as_deref(), Some("/digest"));
        // The right digest passes.
        let content = super::super::plans::document_content(
            &codec::document(&serde_json::to_string(&v).unwrap(), Syntax::Json).unwrap(),
            "",
        );
        v["digest"] = json!(crate::wire::jcs::digest(&content).0);
        let ok = check_document(
            "p.json",
            v.to_string(),
            Syntax::Json,
            Some(&registry()),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        assert!(ok.report.issues.is_empty(), "{:?}", ok.report.issues);
    }

    #[test]
    fn missing_fields_and_plan_wide_issues_have_places() {
        let (mut n, e) = clean();
        n[1]["definition"]
            .as_object_mut()
            .unwrap()
            .remove("replaySafe");
        let text = doc(n, e);
        let t = check_document(
            "p.json",
            text.clone(),
            Syntax::Json,
            Some(&registry()),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let f = t
            .findings
            .iter()
            .find(|f| f.issue.code == "missing_replay_safe")
            .unwrap();
        assert_eq!(f.pointer.as_deref(), Some("/nodes/1/definition/replaySafe"));
        let l = f.location.as_ref().unwrap();
        assert!(!l.exact);
        assert_eq!(l.pointer, "/nodes/1/definition");
        let label = f.label.unwrap();
        assert_eq!(&text[label.start..label.end], "\"definition\"");

        let empty = check_document(
            "e.json",
            doc(json!([]), json!([])),
            Syntax::Json,
            None,
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let f = &empty.findings[0];
        assert_eq!(f.issue.code, "no_entry");
        assert_eq!(f.pointer, None);
        assert_eq!(f.location.as_ref().unwrap().pointer, "/nodes");
    }

    #[test]
    fn unreadable_documents_are_input_errors_with_a_place() {
        let text = "{\"nodes\": [{\"id\": \"a\", \"kind\": \"cal\"}]}".to_string();
        let e = check_document(
            "bad.json",
            text,
            Syntax::Json,
            None,
            &crate::forge::validate::Options::default(),
        )
        .unwrap_err();
        assert_eq!(e.exit_code(), 2);
        let loc = e.location.as_ref().unwrap();
        assert_eq!(loc.pointer.as_deref(), Some("/nodes/0/kind"));
        assert_eq!((loc.line, loc.column), (Some(1), Some(32)));
        assert!(e.source.is_some());
    }
}
