//! Findings grouped by cause. One fact often shows as many findings: a node
//! removed from the middle of a chain leaves every node after it
//! unreachable, and each unreachable node also has its calls never run and
//! its references not upstream. This pass, run after every check, names for
//! each such finding the finding it follows from (`Issue::cause`), and
//! rewrites the head of each group to say how many follow and where
//! reachability breaks. Every finding keeps its identity (the counts stay
//! exact, JSON and SARIF list them all); prose shows one line per group.
//!
//! The groups:
//! - the `unreachable_node` findings of nodes reached from one unreachable
//!   node (the *root*: no unreachable predecessor; in a cycle of unreachable
//!   nodes, the first in document order) follow from the root's;
//! - on an unreachable node, `unreachable_call` and `reference_not_upstream`
//!   follow from its `unreachable_node`.
//!
//! Deterministic (document order) and linear: one walk over the unreachable
//! part of the graph.

use super::{Cx, reference_not_upstream, unreachable_call, unreachable_node};
use crate::model::hash::FastMap as HashMap;
use crate::model::suggest::capped_list;
use crate::model::{Cause, Issue, Value};

/// How many of a group's nodes its head names.
const NAMED: usize = 10;

/// Sets `cause` on the findings that follow from another and rewrites the
/// heads of the groups of more than one node.
pub(crate) fn apply(cx: &Cx, issues: &mut [Issue]) {
    let g = &cx.graph;
    let mut finding: HashMap<usize, usize> = HashMap::default();
    for (k, i) in issues.iter().enumerate() {
        if i.code == unreachable_node::CODE
            && let Some(n) = i.node_id.as_deref().and_then(|id| g.index_of(id))
        {
            finding.insert(n, k);
        }
    }
    if finding.is_empty() {
        return;
    }
    let members = {
        let mut m: Vec<usize> = finding.keys().copied().collect();
        m.sort_unstable();
        m
    };
    let groups = walk(cx, &finding, &members);
    for (root, nodes) in &groups {
        let head = Cause::of(&issues[finding[root]]);
        for n in nodes.iter().skip(1) {
            issues[finding[n]].cause = Some(head.clone());
        }
        if nodes.len() > 1 {
            let k = finding[root];
            issues[k].message = head_message(cx, *root, nodes);
        }
    }
    for i in issues.iter_mut() {
        if i.code != unreachable_call::CODE && i.code != reference_not_upstream::CODE {
            continue;
        }
        let Some(n) = i.node_id.as_deref().and_then(|id| g.index_of(id)) else {
            continue;
        };
        if finding.contains_key(&n) {
            i.cause = Some(Cause {
                code: unreachable_node::CODE,
                node_id: i.node_id.clone(),
                edge_id: None,
            });
        }
    }
}

/// The groups: each root with the unreachable nodes it reaches, the root
/// first, then in walk order.
fn walk(cx: &Cx, finding: &HashMap<usize, usize>, members: &[usize]) -> Vec<(usize, Vec<usize>)> {
    let g = &cx.graph;
    let mut owner: Vec<bool> = vec![false; g.len()];
    let mut groups = Vec::new();
    let roots_first = members
        .iter()
        .filter(|&&i| g.preds(i).all(|p| !finding.contains_key(&p)))
        .chain(members.iter());
    for &r in roots_first {
        if owner[r] {
            continue;
        }
        owner[r] = true;
        let mut nodes = vec![r];
        let mut at = 0;
        while at < nodes.len() {
            let x = nodes[at];
            at += 1;
            for s in g.succs(x) {
                if !owner[s] && finding.contains_key(&s) {
                    owner[s] = true;
                    nodes.push(s);
                }
            }
        }
        groups.push((r, nodes));
    }
    groups
}

/// `3,000 nodes cannot be reached from the entry `start`: nothing connects
/// to `n2001` (it reads `n2000`, which the plan does not have); they are
/// `n2001`, `n2002` … and 2,990 more`.
fn head_message(cx: &Cx, root: usize, nodes: &[usize]) -> String {
    let g = &cx.graph;
    let id = &g.node(root).id;
    let entry = super::support::entries_text(g);
    let gone: Vec<&str> = {
        let mut v: Vec<&str> = cx
            .literal_hits()
            .iter()
            .filter(|h| h.node == root)
            .filter_map(|h| match h.value {
                Value::Ref(r) if g.index_of(&r.node).is_none() => Some(r.node.as_str()),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let why = match gone.as_slice() {
        [] => format!("nothing connects to `{id}`"),
        _ => format!(
            "nothing connects to `{id}`, which reads {}, a node the plan does not have (removed?)",
            capped_list(&gone, 3)
        ),
    };
    let ids: Vec<&str> = nodes
        .iter()
        .take(NAMED + 1)
        .map(|&n| g.node(n).id.as_str())
        .collect();
    let named = if nodes.len() > NAMED {
        format!(
            "{} … and {} more",
            capped_list(&ids[..NAMED], NAMED),
            crate::model::text::thousands(nodes.len() - NAMED)
        )
    } else {
        capped_list(&ids, NAMED)
    };
    format!(
        "{} nodes cannot be reached from {entry}, so they would never run: {why}; they are {named}",
        crate::model::text::thousands(nodes.len())
    )
}

#[cfg(test)]
mod tests {
    use crate::check::testing::*;
    use crate::model::Issue;

    /// start → a → b → c → d, then `b` removed: c and d are unreachable.
    fn broken_chain() -> Vec<Issue> {
        let p = plan(
            vec![entry("s"), join("a"), join("c"), join("d"), join("island")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e3", "c", "d", "always"),
            ],
        );
        crate::check::run(&p, None, Vec::new()).issues
    }

    #[test]
    fn nodes_after_a_break_follow_from_the_first_unreachable_one() {
        let issues = broken_chain();
        let un: Vec<&Issue> = issues
            .iter()
            .filter(|i| i.code == "unreachable_node")
            .collect();
        assert_eq!(un.len(), 3, "every finding keeps its identity: {un:?}");
        let of = |id: &str| {
            un.iter()
                .find(|i| i.node_id.as_deref() == Some(id))
                .unwrap()
        };
        assert!(of("c").cause.is_none(), "the root heads its group");
        assert_eq!(
            of("d").cause.as_ref().unwrap().node_id.as_deref(),
            Some("c")
        );
        assert!(of("island").cause.is_none(), "an island is its own group");
        assert!(
            of("c").message.starts_with("2 nodes cannot be reached")
                && of("c").message.contains("`d`"),
            "{}",
            of("c").message
        );
        assert!(
            !of("island").message.contains("nodes cannot"),
            "a group of one keeps its message"
        );
    }

    #[test]
    fn a_reachable_plan_has_no_causes() {
        let p = plan(
            vec![entry("s"), join("a")],
            vec![edge("e1", "s", "a", "always")],
        );
        let r = crate::check::run(&p, None, Vec::new());
        assert!(r.issues.iter().all(|i| i.cause.is_none()), "{:?}", r.issues);
    }
}
