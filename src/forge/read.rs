//! Reading a plan one cannot hold (SPEC §7, §8; seed 000): the flat outline,
//! slices addressed by the outline's own keys, field-level diffs between
//! revisions or documents, and the raw views.
//!
//! Every function here loads the plan once and runs the checks at most once;
//! everything else is linear in nodes + edges.

use super::Forge;
use crate::model::Counts;
use crate::model::Issue;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids::{UNPHASED, quote_id};
use crate::model::lifecycle::State;
use crate::model::{Content, Edge, Map, Node, NodeKind, Op, Provenance, Value};
use crate::store::Loaded;
use crate::wire::codec::Document;
use indexmap::IndexMap;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

// ---------------------------------------------------------------------------
// Outline
// ---------------------------------------------------------------------------

/// One entry of the outline: a phase, or the unphased nodes.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// `None` for the unphased nodes.
    pub phase: Option<String>,
    /// Every node id, verbatim, in fold order.
    pub node_ids: Vec<String>,
    /// The tool of each call node, in order, not deduplicated (a call without
    /// a `tool` string contributes nothing).
    pub tools: Vec<String>,
    /// Issues of every check attributed to the entry's nodes.
    pub issue_count: usize,
    pub calls: usize,
    pub reasons: usize,
    pub transforms: usize,
    pub others: usize,
}

impl Entry {
    fn new(phase: Option<String>) -> Entry {
        Entry {
            phase,
            node_ids: Vec::new(),
            tools: Vec::new(),
            issue_count: 0,
            calls: 0,
            reasons: 0,
            transforms: 0,
            others: 0,
        }
    }

    /// The key the outline prints and `read` accepts: the phase name, or
    /// `(unphased)`.
    pub fn key(&self) -> &str {
        self.phase.as_deref().unwrap_or(UNPHASED)
    }

    /// `<n> node(s) — <c> call, <r> reason, <t> transform, <o> other`.
    pub fn summary(&self) -> String {
        format!(
            "{} node(s) — {} call, {} reason, {} transform, {} other",
            self.node_ids.len(),
            self.calls,
            self.reasons,
            self.transforms,
            self.others
        )
    }

    fn push(&mut self, n: &Node) {
        self.node_ids.push(n.id.clone());
        match n.kind {
            NodeKind::Call => {
                self.calls += 1;
                if let Some(t) = n.str_field("tool") {
                    self.tools.push(t.to_string());
                }
            }
            NodeKind::Reason => self.reasons += 1,
            NodeKind::Transform => self.transforms += 1,
            _ => self.others += 1,
        }
    }
}

/// The flat outline of a plan: one level, never two.
#[derive(Debug, Clone)]
pub struct Outline {
    pub plan_id: String,
    pub state: State,
    pub revision: u64,
    pub digest: String,
    pub node_count: usize,
    pub edge_count: usize,
    /// Phases in order of first appearance.
    pub phases: Vec<Entry>,
    /// The unphased nodes, when there are any (always listed last).
    pub unphased: Option<Entry>,
    /// Plan-wide issue counts.
    pub counts: Counts,
    /// Issues that name no node or edge of the plan (bounds, the store…).
    pub plan_issues: usize,
}

impl Outline {
    /// The entries in the order the outline prints them, unphased last.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.phases.iter().chain(self.unphased.iter())
    }
}

/// Which node an issue belongs to: the node it names, else the source of the
/// edge it names (else that edge's target). Issues that name neither belong
/// to the plan as a whole.
struct Attribution<'a> {
    nodes: HashMap<&'a str, usize>,
    edges: Option<HashMap<&'a str, (&'a str, &'a str)>>,
}

impl<'a> Attribution<'a> {
    fn new(c: &'a Content, issues: &[Issue]) -> Attribution<'a> {
        let needs_edges = issues
            .iter()
            .any(|i| i.node_id.is_none() && i.edge_id.is_some());
        Attribution {
            nodes: c.node_index(),
            edges: needs_edges.then(|| {
                c.edges
                    .iter()
                    .map(|e| (e.id.as_str(), (e.from.as_str(), e.to.as_str())))
                    .collect()
            }),
        }
    }

    fn owner(&self, i: &Issue) -> Option<usize> {
        if let Some(n) = &i.node_id
            && let Some(&ix) = self.nodes.get(n.as_str())
        {
            return Some(ix);
        }
        let (from, to) = self.edges.as_ref()?.get(i.edge_id.as_deref()?)?;
        self.nodes.get(from).or_else(|| self.nodes.get(to)).copied()
    }
}

/// Builds the outline of `loaded` with the plan's findings `issues`.
pub fn outline_of(loaded: &Loaded, issues: &[Issue]) -> Outline {
    let c = loaded.content();
    let mut phases: IndexMap<&str, Entry> = IndexMap::new();
    let mut unphased: Option<Entry> = None;
    // Entry of each node: index into `phases`, or usize::MAX for unphased.
    let mut entry_of = Vec::with_capacity(c.nodes.len());
    for n in &c.nodes {
        match n.phase.as_deref().filter(|p| !p.is_empty()) {
            Some(p) => {
                let e = phases.entry(p);
                entry_of.push(e.index());
                e.or_insert_with(|| Entry::new(Some(p.to_string()))).push(n);
            }
            None => {
                entry_of.push(usize::MAX);
                unphased.get_or_insert_with(|| Entry::new(None)).push(n);
            }
        }
    }
    let attribution = Attribution::new(c, issues);
    let mut plan_issues = 0;
    for i in issues {
        match attribution.owner(i).map(|ix| entry_of[ix]) {
            Some(usize::MAX) => {
                if let Some(u) = unphased.as_mut() {
                    u.issue_count += 1
                }
            }
            Some(e) => phases[e].issue_count += 1,
            None => plan_issues += 1,
        }
    }
    Outline {
        plan_id: loaded.plan_id.clone(),
        state: loaded.state(),
        revision: loaded.revision(),
        digest: loaded.digest.clone(),
        node_count: c.nodes.len(),
        edge_count: c.edges.len(),
        phases: phases.into_values().collect(),
        unphased,
        counts: Counts::of(issues),
        plan_issues,
    }
}

// ---------------------------------------------------------------------------
// Read
// ---------------------------------------------------------------------------

/// What `read` is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadKey {
    /// A key exactly as the outline printed it: a phase name, `(unphased)`
    /// (or `""`), or a node id.
    Auto(String),
    /// A phase name (`(unphased)` or `""` for the unphased nodes).
    Phase(String),
    /// A node id.
    Node(String),
}

/// What a slice holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SliceKind {
    Phase,
    Unphased,
    Node,
}

/// A self-locating slice of a plan.
#[derive(Debug, Clone)]
pub struct Slice {
    pub plan_id: String,
    pub state: State,
    pub revision: u64,
    pub digest: String,
    pub kind: SliceKind,
    /// The key as the outline prints it: the phase, `(unphased)`, or the node id.
    pub key: String,
    /// The slice's phase (a node's own phase); `None` when unphased.
    pub phase: Option<String>,
    /// Every node of the slice, in fold order.
    pub nodes: Vec<Node>,
    /// Edges with both ends in the slice.
    pub edges: Vec<Edge>,
    /// Edges from outside into the slice.
    pub incoming: Vec<Edge>,
    /// Edges from the slice to outside.
    pub outgoing: Vec<Edge>,
    /// Issues attributed to the slice's nodes.
    pub issues: Vec<Issue>,
}

/// Which nodes a key selects: resolved in one pass over the nodes.
enum Target {
    Phase(String),
    Unphased,
    Node(String),
}

fn is_unphased_key(k: &str) -> bool {
    k.is_empty() || k == UNPHASED
}

/// The keys the outline prints: phases in order, `(unphased)`, node ids.
fn valid_keys(c: &Content, phases: bool, nodes: bool) -> Vec<&str> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out: Vec<&str> = Vec::new();
    let mut any_unphased = false;
    if phases {
        for n in &c.nodes {
            match n.phase.as_deref().filter(|p| !p.is_empty()) {
                Some(p) => {
                    if seen.insert(p) {
                        out.push(p);
                    }
                }
                None => any_unphased = true,
            }
        }
        if any_unphased {
            out.push(UNPHASED);
        }
    }
    if nodes {
        out.extend(c.nodes.iter().map(|n| n.id.as_str()));
    }
    out
}

fn unknown_key(c: &Content, key: &str, what: &str, phases: bool, nodes: bool) -> Error {
    let keys = valid_keys(c, phases, nodes);
    let hint = crate::model::suggest::did_you_mean(key, keys.iter().copied());
    let err = Error::new(
        ErrorKind::UnknownKey,
        format!("plan {} has no {what} `{}`{hint}", c.plan_id, quote_id(key)),
    );
    if keys.is_empty() {
        return err.with_help(if c.nodes.is_empty() {
            "the plan has no nodes yet, so there is nothing to read; add one with `planforge add-node`"
                .to_string()
        } else {
            "no node of the plan has a phase; read a node by its id, or `(unphased)` for all of them"
                .to_string()
        });
    }
    err.with_help(format!(
        "read one of these keys exactly as the outline prints it (nearest first): {}",
        crate::model::suggest::choices(key, keys)
    ))
}

fn resolve(c: &Content, key: &ReadKey) -> Result<Target> {
    let has_unphased = || {
        c.nodes
            .iter()
            .any(|n| n.phase.as_deref().is_none_or(str::is_empty))
    };
    let no_unphased = || {
        Error::new(
            ErrorKind::UnknownKey,
            format!(
                "every node of plan {} has a phase, so there is no `{UNPHASED}` slice to read",
                c.plan_id
            ),
        )
        .with_help(format!(
            "read a phase or a node instead: {}",
            crate::model::suggest::choices("", valid_keys(c, true, false))
        ))
    };
    match key {
        ReadKey::Auto(k) | ReadKey::Phase(k) if is_unphased_key(k) => {
            if has_unphased() {
                Ok(Target::Unphased)
            } else {
                Err(no_unphased())
            }
        }
        ReadKey::Phase(p) => {
            if c.nodes.iter().any(|n| n.phase.as_deref() == Some(p)) {
                Ok(Target::Phase(p.clone()))
            } else {
                Err(unknown_key(c, p, "phase", true, false))
            }
        }
        ReadKey::Node(id) => {
            if c.nodes.iter().any(|n| &n.id == id) {
                Ok(Target::Node(id.clone()))
            } else {
                Err(unknown_key(c, id, "node", false, true))
            }
        }
        ReadKey::Auto(k) => {
            let mut is_phase = false;
            let mut is_node = false;
            for n in &c.nodes {
                is_phase |= n.phase.as_deref() == Some(k);
                is_node |= &n.id == k;
            }
            match (is_phase, is_node) {
                (true, true) => {
                    let q = quote_id(k);
                    Err(Error::new(
                        ErrorKind::AmbiguousKey,
                        format!(
                            "`{q}` is both a phase and a node id in plan {}, so it does not say which slice to read",
                            c.plan_id
                        ),
                    )
                    .with_help(format!(
                        "say which: `planforge read --phase {q}` for the whole phase, or `planforge read --node {q}` for the one node"
                    )))
                }
                (true, false) => Ok(Target::Phase(k.clone())),
                (false, true) => Ok(Target::Node(k.clone())),
                (false, false) => Err(unknown_key(c, k, "phase or node", true, true)),
            }
        }
    }
}

/// Builds the slice `key` selects in `loaded`, with the plan's findings.
pub fn slice_of(loaded: &Loaded, key: &ReadKey, issues: &[Issue]) -> Result<Slice> {
    let c = loaded.content();
    let target = resolve(c, key)?;
    let selected: Vec<usize> = c
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| match &target {
            Target::Phase(p) => n.phase.as_deref() == Some(p.as_str()),
            Target::Unphased => n.phase.as_deref().is_none_or(str::is_empty),
            Target::Node(id) => &n.id == id,
        })
        .map(|(i, _)| i)
        .collect();
    let members: HashSet<&str> = selected.iter().map(|&i| c.nodes[i].id.as_str()).collect();
    let mut edges = Vec::new();
    let mut incoming = Vec::new();
    let mut outgoing = Vec::new();
    for e in &c.edges {
        match (
            members.contains(e.from.as_str()),
            members.contains(e.to.as_str()),
        ) {
            (true, true) => edges.push(e.clone()),
            (false, true) => incoming.push(e.clone()),
            (true, false) => outgoing.push(e.clone()),
            (false, false) => {}
        }
    }
    let attribution = Attribution::new(c, issues);
    let wanted: HashSet<usize> = selected.iter().copied().collect();
    let issues: Vec<Issue> = issues
        .iter()
        .filter(|i| attribution.owner(i).is_some_and(|o| wanted.contains(&o)))
        .cloned()
        .collect();
    let nodes: Vec<Node> = selected.iter().map(|&i| c.nodes[i].clone()).collect();
    let (kind, key, phase) = match target {
        Target::Phase(p) => (SliceKind::Phase, p.clone(), Some(p)),
        Target::Unphased => (SliceKind::Unphased, UNPHASED.to_string(), None),
        Target::Node(id) => (SliceKind::Node, id, nodes[0].phase.clone()),
    };
    Ok(Slice {
        plan_id: loaded.plan_id.clone(),
        state: loaded.state(),
        revision: loaded.revision(),
        digest: loaded.digest.clone(),
        kind,
        key,
        phase,
        nodes,
        edges,
        incoming,
        outgoing,
        issues,
    })
}

// ---------------------------------------------------------------------------
// Diff
// ---------------------------------------------------------------------------

/// One side of a diff.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// How the side was named: `frozen`, `current`, a revision number, or a
    /// file name.
    pub label: String,
    pub revision: Option<u64>,
    pub digest: String,
}

/// One changed field. `None` = absent on that side.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldChange {
    /// `phase`, or a dot path relative to the definition (`args.ticket`,
    /// `output.0`), as `planforge set` takes it.
    pub path: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NodeChange {
    pub node_id: String,
    pub fields: Vec<FieldChange>,
}

/// The difference between two plan contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Diff {
    pub plan_id: Option<String>,
    pub from: Side,
    pub to: Side,
    /// Whole nodes, in the `to` side's order.
    pub nodes_added: Vec<Node>,
    /// Whole nodes, in the `from` side's order.
    pub nodes_removed: Vec<Node>,
    pub nodes_changed: Vec<NodeChange>,
    pub edges_added: Vec<Edge>,
    pub edges_removed: Vec<Edge>,
    /// Plan-level changes: `bounds.<member>` and `provenance`.
    pub plan_changed: Vec<FieldChange>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.nodes_added.is_empty()
            && self.nodes_removed.is_empty()
            && self.nodes_changed.is_empty()
            && self.edges_added.is_empty()
            && self.edges_removed.is_empty()
            && self.plan_changed.is_empty()
    }
}

fn join_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Field-level differences: objects recurse by key, arrays of equal length
/// by index; anything else (a reference, a scalar, an array whose length
/// changed) is compared as a whole.
fn diff_value(path: String, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<FieldChange>) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => diff_map(&path, x, y, out),
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff_value(join_path(&path, &i.to_string()), Some(p), Some(q), out);
            }
        }
        (x, y) if x == y => {}
        (x, y) => out.push(FieldChange {
            path,
            before: x.cloned(),
            after: y.cloned(),
        }),
    }
}

fn diff_map(prefix: &str, x: &Map, y: &Map, out: &mut Vec<FieldChange>) {
    for (k, v) in x {
        diff_value(join_path(prefix, k), Some(v), y.get(k), out);
    }
    for (k, v) in y {
        if !x.contains_key(k) {
            diff_value(join_path(prefix, k), None, Some(v), out);
        }
    }
}

fn provenance_value(p: &Option<Provenance>) -> Option<Value> {
    p.as_ref().map(|p| {
        crate::wire::convert::from_json(&crate::wire::codec::provenance_json(p), "")
            .expect("provenance converts back")
    })
}

/// Compares two contents. Nodes are matched by id (a node whose kind changed
/// is removed and added), edges by id (a change of endpoints or handle is
/// removed and added).
pub fn diff_contents(a: &Content, b: &Content, from: Side, to: Side) -> Diff {
    let a_nodes: HashMap<&str, &Node> = a.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let b_nodes: HashMap<&str, &Node> = b.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let same_kind = |x: &Node, other: &HashMap<&str, &Node>| {
        other.get(x.id.as_str()).is_some_and(|y| y.kind == x.kind)
    };
    let nodes_removed: Vec<Node> = a
        .nodes
        .iter()
        .filter(|n| !same_kind(n, &b_nodes))
        .cloned()
        .collect();
    let mut nodes_added = Vec::new();
    let mut nodes_changed = Vec::new();
    for n in &b.nodes {
        match a_nodes.get(n.id.as_str()) {
            Some(old) if old.kind == n.kind => {
                if *old == n {
                    continue;
                }
                let mut fields = Vec::new();
                if old.phase != n.phase {
                    fields.push(FieldChange {
                        path: "phase".into(),
                        before: old.phase.clone().map(Value::String),
                        after: n.phase.clone().map(Value::String),
                    });
                }
                diff_map("", &old.definition, &n.definition, &mut fields);
                if !fields.is_empty() {
                    nodes_changed.push(NodeChange {
                        node_id: n.id.clone(),
                        fields,
                    });
                }
            }
            _ => nodes_added.push(n.clone()),
        }
    }
    let a_edges: HashMap<&str, &Edge> = a.edges.iter().map(|e| (e.id.as_str(), e)).collect();
    let b_edges: HashMap<&str, &Edge> = b.edges.iter().map(|e| (e.id.as_str(), e)).collect();
    let edges_removed = a
        .edges
        .iter()
        .filter(|e| b_edges.get(e.id.as_str()).is_none_or(|f| f != e))
        .cloned()
        .collect();
    let edges_added = b
        .edges
        .iter()
        .filter(|e| a_edges.get(e.id.as_str()).is_none_or(|f| f != e))
        .cloned()
        .collect();
    let mut plan_changed = Vec::new();
    for ((name, x), (_, y)) in a.bounds.members().into_iter().zip(b.bounds.members()) {
        if x != y {
            plan_changed.push(FieldChange {
                path: format!("bounds.{name}"),
                before: Some(Value::from(x)),
                after: Some(Value::from(y)),
            });
        }
    }
    if a.provenance != b.provenance {
        plan_changed.push(FieldChange {
            path: "provenance".into(),
            before: provenance_value(&a.provenance),
            after: provenance_value(&b.provenance),
        });
    }
    Diff {
        plan_id: (a.plan_id == b.plan_id).then(|| b.plan_id.clone()),
        from,
        to,
        nodes_added,
        nodes_removed,
        nodes_changed,
        edges_added,
        edges_removed,
        plan_changed,
    }
}

/// A revision selector of `diff` resolved against a loaded plan: a number,
/// `current`, `frozen`, or `""` for the side's default.
fn revision_of(loaded: &Loaded, sel: &str, default: &str) -> Result<(String, u64)> {
    let sel = if sel.is_empty() { default } else { sel };
    let current = loaded.revision();
    let id = &loaded.plan_id;
    match sel {
        "current" => Ok(("current".into(), current)),
        "frozen" => match &loaded.meta.frozen {
            Some(f) => Ok(("frozen".into(), f.revision)),
            None => Err(Error::new(
                ErrorKind::UnknownRevision,
                format!("plan {id} was never frozen, so there is no `frozen` revision to compare"),
            )
            .with_help(format!(
                "compare revision numbers instead (0 to {current}), or `current`"
            ))),
        },
        n => match n.parse::<u64>() {
            Ok(r) if r <= current => Ok((n.to_string(), r)),
            Ok(r) => Err(Error::new(
                ErrorKind::UnknownRevision,
                format!("plan {id} has no revision {r}; its revisions run from 0 to {current}"),
            )
            .with_help(format!(
                "use a number from 0 to {current}, `current` or `frozen`"
            ))),
            Err(_) => Err(Error::new(
                ErrorKind::UnknownRevision,
                format!("`{}` is not a revision of plan {id}", quote_id(n)),
            )
            .with_help(format!(
                "a revision is a number from 0 to {current}, `current` or `frozen`"
            ))),
        },
    }
}

/// The content of a document (as its import would fold it) and its digest.
pub fn document_side(doc: &Document) -> (Content, String) {
    let content = super::plans::document_content(doc, doc.plan_id.as_deref().unwrap_or_default());
    let (digest, _) = crate::wire::jcs::digest(&content);
    (content, digest)
}

// ---------------------------------------------------------------------------
// The operations
// ---------------------------------------------------------------------------

impl Forge {
    /// The flat outline of a plan (SPEC §7).
    pub fn outline(&self, plan: &str) -> Result<Outline> {
        let loaded = self.load(plan)?;
        let report = self.check(&loaded)?;
        Ok(outline_of(&loaded, &report.issues))
    }

    /// One self-locating slice of a plan, by a key the outline printed.
    pub fn read(&self, plan: &str, key: ReadKey) -> Result<Slice> {
        let loaded = self.load(plan)?;
        // Resolve the key first: a refusal should not wait for the checks.
        resolve(loaded.content(), &key)?;
        let report = self.check(&loaded)?;
        slice_of(&loaded, &key, &report.issues)
    }

    /// Compares two revisions of a plan. `a`/`b` are a revision number,
    /// `current` or `frozen`; `""` takes the default: `frozen` (when the plan
    /// was ever frozen, else `0`) for `a`, `current` for `b`.
    pub fn diff(&self, plan: &str, a: &str, b: &str) -> Result<Diff> {
        let loaded = self.store().load_with_ops(plan)?;
        let history = loaded.ops()?;
        let default_a = if loaded.meta.frozen.is_some() {
            "frozen"
        } else {
            "0"
        };
        let (la, ra) = revision_of(&loaded, a, default_a)?;
        let (lb, rb) = revision_of(&loaded, b, "current")?;
        // The current revision is borrowed as loaded; only an earlier one is
        // folded again (a plan can be large: no copies of it).
        let at = |r: u64| -> (Cow<'_, Content>, String) {
            if r == loaded.revision() {
                (Cow::Borrowed(loaded.content()), loaded.digest.clone())
            } else {
                let (f, d, _) = crate::store::fold_and_digest(
                    &loaded.plan_id,
                    &history[..(r as usize).min(history.len())],
                    &loaded.meta,
                );
                (Cow::Owned(f.content), d)
            }
        };
        let (ca, da) = at(ra);
        let (cb, db) = if rb == ra {
            (Cow::Borrowed(&*ca), da.clone())
        } else {
            at(rb)
        };
        Ok(diff_contents(
            &ca,
            &cb,
            Side {
                label: la,
                revision: Some(ra),
                digest: da,
            },
            Side {
                label: lb,
                revision: Some(rb),
                digest: db,
            },
        ))
    }

    /// Compares two plan documents (no store needed). The sides' labels are
    /// left empty for the caller to name.
    pub fn diff_documents(x: &Document, y: &Document) -> Diff {
        let (cx, dx) = document_side(x);
        let (cy, dy) = document_side(y);
        diff_contents(
            &cx,
            &cy,
            Side {
                label: String::new(),
                revision: x.revision,
                digest: dx,
            },
            Side {
                label: String::new(),
                revision: y.revision,
                digest: dy,
            },
        )
    }

    /// The raw view of a plan's content at a revision (default: current),
    /// in wire form: `{planId, digest, revision, bounds, nodes, edges,
    /// provenance?}`.
    pub fn raw(&self, plan: &str, rev: Option<u64>) -> Result<serde_json::Value> {
        let p = self.store().load_at(plan, rev)?;
        Ok(crate::wire::codec::raw_json(p.content(), &p.digest))
    }

    /// The ops of complete transactions in log order: the first `through`
    /// (a revision), then only those with a lamport above `since_lamport`.
    pub fn ops(
        &self,
        plan: &str,
        since_lamport: Option<u64>,
        through: Option<u64>,
    ) -> Result<Vec<Op>> {
        let loaded = self.store().load_with_ops(plan)?;
        let mut ops = loaded.ops()?.to_vec();
        if let Some(r) = through {
            if r > ops.len() as u64 {
                return Err(Error::new(
                    ErrorKind::UnknownRevision,
                    format!(
                        "plan {plan} has no revision {r}; its revisions run from 0 to {}",
                        ops.len()
                    ),
                )
                .with_help(format!("use a revision from 0 to {}", ops.len())));
            }
            ops.truncate(r as usize);
        }
        if let Some(s) = since_lamport {
            ops.retain(|o| o.lamport > s);
        }
        Ok(ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::*;
    use serde_json::json;

    fn phased(mut n: Node, p: &str) -> Node {
        n.phase = Some(p.to_string());
        n
    }

    fn loaded(c: Content) -> Loaded {
        let meta = crate::model::lifecycle::Meta::new("2026-01-01T00:00:00Z");
        let (digest, encoded_len) = crate::wire::jcs::digest(&c);
        let plan_id = c.plan_id.clone();
        let folded = crate::store::fold::Folded {
            content: c,
            notes: vec![],
        };
        Loaded::new(
            &plan_id,
            meta,
            Default::default(),
            None,
            folded,
            digest,
            encoded_len,
        )
    }

    fn sample() -> Content {
        plan(
            vec![
                phased(entry("start"), "p1"),
                phased(call_with("fetch", "tickets_get", json!({}), &["id"]), "p1"),
                phased(step("classify"), "p2"),
                call_with("loose", "notify", json!({}), &[]),
                phased(call_with("draft", "tickets_get", json!({}), &[]), "p2"),
                phased(step("p3"), "p3"),
                join("late"),
            ],
            vec![
                edge("e1", "start", "fetch", "always"),
                edge("e2", "fetch", "classify", "always"),
                edge("e3", "classify", "draft", "always"),
                edge("e4", "draft", "p3", "error"),
                edge("e5", "draft", "loose", "always"),
            ],
        )
    }

    const X: crate::model::Code = crate::model::Code {
        name: "x",
        severity: crate::model::Severity::Blocking,
    };
    const Y: crate::model::Code = crate::model::Code {
        name: "y",
        severity: crate::model::Severity::Advisory,
    };

    #[test]
    fn outline_is_flat_in_first_appearance_order_with_unphased_last() {
        let l = loaded(sample());
        let issues = vec![
            Issue::new(X, "m").node("classify"),
            Issue::new(X, "m").edge("e5"),
            Issue::new(Y, "m").node("late"),
            Issue::new(Y, "m"),
        ];
        let o = outline_of(&l, &issues);
        let keys: Vec<&str> = o.entries().map(Entry::key).collect();
        assert_eq!(keys, ["p1", "p2", "p3", "(unphased)"]);
        let p2 = &o.phases[1];
        assert_eq!(p2.node_ids, ["classify", "draft"]);
        assert_eq!(p2.tools, ["noop", "tickets_get"]);
        assert_eq!(
            p2.summary(),
            "2 node(s) — 2 call, 0 reason, 0 transform, 0 other"
        );
        // `classify`'s issue, and the edge issue (its source is `draft`).
        assert_eq!(p2.issue_count, 2);
        assert_eq!(o.unphased.as_ref().unwrap().issue_count, 1);
        assert_eq!(o.plan_issues, 1);
        assert_eq!(
            o.phases[0].summary(),
            "2 node(s) — 1 call, 0 reason, 0 transform, 1 other"
        );
    }

    #[test]
    fn tools_are_not_deduplicated() {
        let c = plan(
            vec![
                call_with("a", "t", json!({}), &[]),
                call_with("b", "t", json!({}), &[]),
            ],
            vec![],
        );
        let o = outline_of(&loaded(c), &[]);
        assert_eq!(o.unphased.unwrap().tools, ["t", "t"]);
    }

    #[test]
    fn every_outline_key_reads_and_the_boundary_crosses_the_border() {
        let l = loaded(sample());
        let o = outline_of(&l, &[]);
        for e in o.entries() {
            // `p3` is a phase and a node: the outline entry is read as a phase.
            let key = if e.key() == "p3" {
                ReadKey::Phase(e.key().to_string())
            } else {
                ReadKey::Auto(e.key().to_string())
            };
            let s = slice_of(&l, &key, &[]).unwrap();
            assert_eq!(s.key, e.key());
            let ids: Vec<&str> = s.nodes.iter().map(|n| n.id.as_str()).collect();
            assert_eq!(ids, e.node_ids);
        }
        let s = slice_of(&l, &ReadKey::Auto("p2".into()), &[]).unwrap();
        assert_eq!(s.phase.as_deref(), Some("p2"));
        assert_eq!(
            s.edges.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["e3"]
        );
        assert_eq!(
            s.incoming.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["e2"]
        );
        assert_eq!(
            s.outgoing.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
            ["e4", "e5"]
        );
        let u = slice_of(&l, &ReadKey::Phase(String::new()), &[]).unwrap();
        assert_eq!(u.kind, SliceKind::Unphased);
        assert_eq!(u.key, "(unphased)");
    }

    #[test]
    fn a_key_that_is_a_phase_and_a_node_is_ambiguous() {
        let l = loaded(sample());
        let e = slice_of(&l, &ReadKey::Auto("p3".into()), &[]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::AmbiguousKey);
        assert!(e.help.unwrap().contains("--phase p3"));
        let s = slice_of(&l, &ReadKey::Node("p3".into()), &[]).unwrap();
        assert_eq!(s.kind, SliceKind::Node);
        let s = slice_of(&l, &ReadKey::Phase("p3".into()), &[]).unwrap();
        assert_eq!(s.kind, SliceKind::Phase);
    }

    #[test]
    fn unknown_keys_list_the_valid_ones_nearest_first() {
        let l = loaded(sample());
        let e = slice_of(&l, &ReadKey::Auto("fetc".into()), &[]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnknownKey);
        assert_eq!(e.exit_code(), 2);
        assert!(e.message.contains("did you mean `fetch`"), "{}", e.message);
        let help = e.help.unwrap();
        assert!(help.starts_with("read one of these keys"), "{help}");
        assert!(help.contains("`fetch`, "), "{help}");
        let e = slice_of(&l, &ReadKey::Node("p1".into()), &[]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnknownKey);
        let all_phased = plan(vec![phased(entry("s"), "a")], vec![]);
        let e = slice_of(
            &loaded(all_phased),
            &ReadKey::Auto("(unphased)".into()),
            &[],
        )
        .unwrap_err();
        assert!(e.message.contains("every node"), "{}", e.message);
    }

    #[test]
    fn diffs_are_field_level_and_compare_references_whole() {
        let before = plan(
            vec![
                entry("s"),
                call_with(
                    "a",
                    "old",
                    json!({"x": r("s", Some("p")), "k": [1, 2]}),
                    &[],
                ),
                step("gone"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "gone", "always"),
            ],
        );
        let mut after = before.clone();
        after.nodes.remove(2);
        after.edges.remove(1);
        after.nodes[1] = phased(
            call_with(
                "a",
                "new",
                json!({"x": r("s", Some("q")), "k": [1, 3]}),
                &[],
            ),
            "p",
        );
        after.nodes.push(step("fresh"));
        after.edges[0] = edge("e1", "s", "fresh", "always");
        after.bounds.max_nodes = 9;
        let side = |l: &str| Side {
            label: l.into(),
            revision: None,
            digest: String::new(),
        };
        let d = diff_contents(&before, &after, side("a"), side("b"));
        assert_eq!(d.nodes_added.len(), 1);
        assert_eq!(d.nodes_removed[0].id, "gone");
        let paths: Vec<&str> = d.nodes_changed[0]
            .fields
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(paths, ["phase", "tool", "args.x", "args.k.1"]);
        let x = &d.nodes_changed[0].fields[2];
        assert!(matches!(x.before, Some(Value::Ref(_))));
        // e1 changed its target: removed and added; e2 removed.
        assert_eq!(d.edges_removed.len(), 2);
        assert_eq!(d.edges_added.len(), 1);
        assert_eq!(d.plan_changed[0].path, "bounds.maxNodes");
        assert!(!d.is_empty());
        let same = diff_contents(&after, &after, side("a"), side("b"));
        assert!(same.is_empty());
    }
}
