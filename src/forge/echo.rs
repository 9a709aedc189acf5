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
    build_around(
        after,
        changed,
        focus,
        issues,
        details,
        extra_nodes,
        extra_edges,
        None,
    )
}

/// As [`build`], with the positions of the edges into and out of the focus
/// node when they are known (`around`, each in edge order: a warm plan's
/// kept graph has them), so that the echo costs what it shows, not a pass
/// over every edge of the plan.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build_around(
    after: &Loaded,
    changed: String,
    focus: Option<&str>,
    issues: &[Issue],
    details: Vec<String>,
    extra_nodes: &[String],
    extra_edges: &[String],
    around: Option<(Vec<usize>, Vec<usize>)>,
) -> Echo {
    let content = after.content();
    let node = focus.and_then(|id| after.node(id)).cloned();
    let mut preds = Vec::new();
    let mut succs = Vec::new();
    let mut near_nodes: Vec<&str> = extra_nodes.iter().map(String::as_str).collect();
    let mut near_edges: Vec<&str> = extra_edges.iter().map(String::as_str).collect();
    if let Some(id) = focus {
        near_nodes.push(id);
        debug_assert!(
            around.as_ref().is_none_or(|a| *a == edges_at(content, id)),
            "the edges known at `{id}` are the content's"
        );
        let (into, out_of) = around.unwrap_or_else(|| edges_at(content, id));
        let neighbour = |k: usize, other: &str| Neighbour {
            edge_id: content.edges[k].id.to_string(),
            node_id: other.to_string(),
            handle: content.edges[k].handle.to_string(),
        };
        preds.extend(into.iter().map(|&k| neighbour(k, &content.edges[k].from)));
        succs.extend(out_of.iter().map(|&k| neighbour(k, &content.edges[k].to)));
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

/// The positions of the edges into and out of node `id`, by a pass over
/// every edge.
fn edges_at(content: &crate::model::Content, id: &str) -> (Vec<usize>, Vec<usize>) {
    let (mut into, mut out_of) = (Vec::new(), Vec::new());
    for (k, e) in content.edges.iter().enumerate() {
        if e.to == id {
            into.push(k);
        }
        if e.from == id {
            out_of.push(k);
        }
    }
    (into, out_of)
}
