//! The bounded mutation echo (SPEC §8): what changed, the changed node, its
//! neighbours, the issues near it and the plan-wide counts — bounded whatever
//! the plan's size.

use crate::model::Counts;
use crate::model::Issue;
use crate::model::Node;
use crate::store::Loaded;

/// At most this many neighbours each way.
pub(crate) const MAX_NEIGHBOURS: usize = 12;
/// At most this many issues.
pub(crate) const MAX_ISSUES: usize = 8;
/// Strings in the echoed node are cut at this many bytes.
pub(crate) const MAX_STRING: usize = 120;

/// One edge to or from the focus node.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Neighbour {
    pub(crate) edge_id: String,
    pub(crate) node_id: String,
    pub(crate) handle: String,
}

#[derive(Debug, Clone)]
pub(crate) struct Echo {
    pub(crate) plan_id: String,
    pub(crate) revision: u64,
    pub(crate) state: crate::model::lifecycle::State,
    /// One sentence: what changed.
    pub(crate) changed: String,
    /// The changed node, when one still exists.
    pub(crate) node: Option<Node>,
    pub(crate) predecessors: Vec<Neighbour>,
    pub(crate) more_predecessors: usize,
    pub(crate) successors: Vec<Neighbour>,
    pub(crate) more_successors: usize,
    /// Extra facts (bounds before → after, removed edges, …), already bounded.
    pub(crate) details: Vec<String>,
    pub(crate) issues: Vec<Issue>,
    pub(crate) more_issues: usize,
    pub(crate) counts: Counts,
}

/// Builds the echo of a change around `focus` (a node id), with the plan's
/// findings `issues`. `extra_nodes`/`extra_edges` widen the issue filter (a
/// removed node's former neighbours, a disconnected edge).
pub(crate) fn build(
    after: &Loaded,
    changed: String,
    focus: Option<&str>,
    issues: &[Issue],
    details: Vec<String>,
    extra_nodes: &[String],
    extra_edges: &[String],
) -> Echo {
    let content = after.content();
    let node = focus.and_then(|id| content.node(id)).cloned();
    let mut preds = Vec::new();
    let mut succs = Vec::new();
    let mut near_nodes: Vec<&str> = extra_nodes.iter().map(String::as_str).collect();
    let mut near_edges: Vec<&str> = extra_edges.iter().map(String::as_str).collect();
    if let Some(id) = focus {
        near_nodes.push(id);
        for e in &content.edges {
            if e.to == id {
                preds.push(Neighbour {
                    edge_id: e.id.clone(),
                    node_id: e.from.clone(),
                    handle: e.handle.to_string(),
                });
            }
            if e.from == id {
                succs.push(Neighbour {
                    edge_id: e.id.clone(),
                    node_id: e.to.clone(),
                    handle: e.handle.to_string(),
                });
            }
        }
    }
    for n in preds.iter().chain(succs.iter()) {
        near_nodes.push(&n.node_id);
        near_edges.push(&n.edge_id);
    }
    let near: Vec<Issue> = super::issues_near(issues, &near_nodes, &near_edges)
        .cloned()
        .collect();
    let more_predecessors = preds.len().saturating_sub(MAX_NEIGHBOURS);
    let more_successors = succs.len().saturating_sub(MAX_NEIGHBOURS);
    preds.truncate(MAX_NEIGHBOURS);
    succs.truncate(MAX_NEIGHBOURS);
    let more_issues = near.len().saturating_sub(MAX_ISSUES);
    Echo {
        plan_id: after.plan_id.clone(),
        revision: after.revision(),
        state: after.state(),
        changed,
        node,
        predecessors: preds,
        more_predecessors,
        successors: succs,
        more_successors,
        details,
        issues: near.into_iter().take(MAX_ISSUES).collect(),
        more_issues,
        counts: Counts::of(issues),
    }
}
