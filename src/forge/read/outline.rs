//! The flat outline of a plan (SPEC §7): one entry per phase in order of
//! first appearance, the unphased nodes last, each with its node ids, tools,
//! kinds and issue count.

use super::attribution::Attribution;
use super::source::{Head, Source};
use crate::forge::Forge;
use crate::model::Counts;
use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::error::Result;
use crate::model::ids::UNPHASED;
use crate::model::lifecycle::State;
use crate::store::Loaded;
use indexmap::IndexMap;

/// What the outline lists for a call that names no tool yet.
pub(crate) const NO_TOOL: &str = "(no tool)";

/// One entry of the outline: a phase, or the unphased nodes.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// `None` for the unphased nodes.
    pub(crate) phase: Option<String>,
    /// Every node id, verbatim, in fold order.
    pub(crate) node_ids: Vec<String>,
    /// The tool of each call node, in order, not deduplicated; a call
    /// without a `tool` string is [`NO_TOOL`], so the list lines up with the
    /// calls.
    pub(crate) tools: Vec<String>,
    /// Issues of every check attributed to the entry's nodes.
    pub(crate) issue_count: usize,
    pub(crate) calls: usize,
    pub(crate) reasons: usize,
    pub(crate) transforms: usize,
    pub(crate) others: usize,
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
    pub(crate) fn key(&self) -> &str {
        self.phase.as_deref().unwrap_or(UNPHASED)
    }

    /// `<n> node(s) — <c> call, <r> reason, <t> transform, <o> other`.
    pub(crate) fn summary(&self) -> String {
        format!(
            "{} node(s) — {} call, {} reason, {} transform, {} other",
            self.node_ids.len(),
            self.calls,
            self.reasons,
            self.transforms,
            self.others
        )
    }

    fn push<P: Source + ?Sized>(&mut self, p: &P, i: usize) {
        self.node_ids.push(p.node_id(i).to_string());
        match p.node_kind(i) {
            NodeKind::Call => {
                self.calls += 1;
                self.tools
                    .push(p.node_str_field(i, "tool").unwrap_or(NO_TOOL).to_string());
            }
            NodeKind::Reason => self.reasons += 1,
            NodeKind::Transform => self.transforms += 1,
            _ => self.others += 1,
        }
    }
}

/// The flat outline of a plan: one level, never two.
#[derive(Debug, Clone)]
pub(crate) struct Outline {
    pub(crate) plan_id: String,
    pub(crate) state: State,
    pub(crate) revision: u64,
    pub(crate) digest: String,
    pub(crate) node_count: usize,
    pub(crate) edge_count: usize,
    /// Phases in order of first appearance.
    pub(crate) phases: Vec<Entry>,
    /// The unphased nodes, when there are any (always listed last).
    pub(crate) unphased: Option<Entry>,
    /// Plan-wide issue counts.
    pub(crate) counts: Counts,
    /// Issues that name no node or edge of the plan (bounds, the store…).
    pub(crate) plan_issues: usize,
}

impl Outline {
    /// The entries in the order the outline prints them, unphased last.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.phases.iter().chain(self.unphased.iter())
    }
}

/// Builds the outline of `loaded` with the plan's findings `issues`.
pub(crate) fn outline_of(loaded: &Loaded, issues: &[Issue]) -> Outline {
    outline_in(loaded.content(), super::source::head_of(loaded), issues)
}

/// The outline of the plan `c` is, named by `head`, with its findings.
pub(crate) fn outline_in<P: Source + ?Sized>(c: &P, head: Head, issues: &[Issue]) -> Outline {
    let mut phases: IndexMap<&str, Entry> = IndexMap::new();
    let mut unphased: Option<Entry> = None;
    // Entry of each node: index into `phases`, or usize::MAX for unphased.
    let mut entry_of = Vec::with_capacity(c.node_count());
    for i in 0..c.node_count() {
        match c.node_phase(i).filter(|p| !p.is_empty()) {
            Some(p) => {
                let e = phases.entry(p);
                entry_of.push(e.index());
                e.or_insert_with(|| Entry::new(Some(p.to_string())))
                    .push(c, i);
            }
            None => {
                entry_of.push(usize::MAX);
                unphased.get_or_insert_with(|| Entry::new(None)).push(c, i);
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
        plan_id: head.plan_id,
        state: head.state,
        revision: head.revision,
        digest: head.digest,
        node_count: c.node_count(),
        edge_count: c.edge_count(),
        phases: phases.into_values().collect(),
        unphased,
        counts: Counts::of(issues),
        plan_issues,
    }
}

impl Forge {
    /// The flat outline of a plan (SPEC §7).
    pub(crate) fn outline(&self, plan: &str) -> Result<Outline> {
        if let Some(o) = self.in_place(plan, |c, head, issues| Some(outline_in(c, head, issues))) {
            return Ok(o);
        }
        let loaded = self.load(plan)?;
        let report = self.check(&loaded)?;
        Ok(outline_of(&loaded, &report.issues))
    }
}
