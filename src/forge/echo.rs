//! The bounded mutation echo (SPEC §8): what changed, the changed node, its
//! neighbours, the issues near it and the plan-wide counts — bounded whatever
//! the plan's size.

use crate::model::Counts;
use crate::model::Issue;
use crate::model::Node;
use crate::store::Loaded;

/// At most this many neighbours each way.
pub const MAX_NEIGHBOURS: usize = 12;
/// At most this many issues.
pub const MAX_ISSUES: usize = 8;
/// Strings in the echoed node are cut at this many bytes.
pub const MAX_STRING: usize = 120;

/// One edge to or from the focus node.
#[derive(Debug, Clone, PartialEq)]
pub struct Neighbour {
    pub edge_id: String,
    pub node_id: String,
    pub handle: String,
}

#[derive(Debug, Clone)]
pub struct Echo {
    pub plan_id: String,
    pub revision: u64,
    pub state: crate::model::lifecycle::State,
    /// One sentence: what changed.
    pub changed: String,
    /// The changed node, when one still exists.
    pub node: Option<Node>,
    pub predecessors: Vec<Neighbour>,
    pub more_predecessors: usize,
    pub successors: Vec<Neighbour>,
    pub more_successors: usize,
    /// Extra facts (bounds before → after, removed edges, …), already bounded.
    pub details: Vec<String>,
    pub issues: Vec<Issue>,
    pub more_issues: usize,
    pub counts: Counts,
}

/// Builds the echo of a change around `focus` (a node id), with the plan's
/// findings `issues`. `extra_nodes`/`extra_edges` widen the issue filter (a
/// removed node's former neighbours, a disconnected edge).
pub fn build(
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
