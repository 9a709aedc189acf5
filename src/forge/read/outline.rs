//! The flat outline of a plan (SPEC §7): one entry per phase in order of
//! first appearance, the unphased nodes last, each with its node ids, tools,
//! kinds and issue count.

use super::attribution::Attribution;
use crate::forge::Forge;
use crate::model::Counts;
use crate::model::Issue;
use crate::model::error::Result;
use crate::model::ids::UNPHASED;
use crate::model::lifecycle::State;
use crate::model::{Node, NodeKind};
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

    fn push(&mut self, n: &Node) {
        self.node_ids.push(n.id.clone());
        match n.kind {
            NodeKind::Call => {
                self.calls += 1;
                self.tools
                    .push(n.str_field("tool").unwrap_or(NO_TOOL).to_string());
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
        digest: loaded.digest().to_string(),
        node_count: c.nodes.len(),
        edge_count: c.edges.len(),
        phases: phases.into_values().collect(),
        unphased,
        counts: Counts::of(issues),
        plan_issues,
    }
}

impl Forge {
    /// The flat outline of a plan (SPEC §7).
    pub(crate) fn outline(&self, plan: &str) -> Result<Outline> {
        let loaded = self.load(plan)?;
        let report = self.check(&loaded)?;
        Ok(outline_of(&loaded, &report.issues))
    }
}
