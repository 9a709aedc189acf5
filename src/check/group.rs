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
//! - every `unreachable_node` finding follows from the first *break* in
//!   document order (a break, or root: an unreachable node with no
//!   unreachable predecessor; in a cycle of unreachable nodes, the first),
//!   whose message names every break and counts the nodes after them (a
//!   removed fan-out hub leaves many breaks: one group, not one per branch);
//! - on an unreachable node, `unreachable_call`, `reference_not_upstream`,
//!   `join_no_fork` and `join_not_diamond` follow from its
//!   `unreachable_node`;
//! - a failure edge moved towards the synthesis (`failed_gate_writes` on an
//!   edge) heads the `unreachable_node` of the failure report it lost and
//!   the `ambiguous_reference` findings on the nodes its second route
//!   reaches, and the `undisposed_synthesis` of the write that route
//!   reaches past the disposition gate, the `cycle` it closes (moving it
//!   back, the head's fix, clears the cycle too) and the
//!   `first_last_across_join` findings on reads of nodes on that cycle, and
//!   the `settle_error_edge` finding on the same edge;
//! - and the `ungated_unit` findings (without an edge of their own) of the
//!   units whose spawn leads to that moved edge's target: the route it
//!   opens to the write bypasses the gate that tested them.
//!
//! Deterministic (document order) and linear: one walk over the unreachable
//! part of the graph.

use super::{
    Cx, ambiguous_reference, cycle, failed_gate_writes, first_last_across_join, join_no_fork,
    join_not_diamond, missing_field, reference_not_upstream, settle_error_edge,
    undisposed_synthesis, ungated_unit, unknown_tool, unreachable_call, unreachable_node,
};
use crate::model::hash::FastMap as HashMap;
use crate::model::suggest::capped_list;
use crate::model::{Cause, Issue, Value};

/// The codes that, on an unreachable node, follow from its being
/// unreachable.
const FOLLOWS: [crate::model::Code; 4] = [
    unreachable_call::CODE,
    reference_not_upstream::CODE,
    join_no_fork::CODE,
    join_not_diamond::CODE,
];

/// How many of a group's nodes its head names.
const NAMED: usize = 10;

/// Sets `cause` on the findings that follow from another and rewrites the
/// heads of the groups of more than one node.
pub(crate) fn apply(cx: &Cx, issues: &mut [Issue]) {
    same_missing_tool(issues);
    moved_failure_edge(cx, issues);
    plain_join_errors(cx, issues);
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
    // One group: every unreachable node follows from the first break (in
    // document order); the head names every break (each root) and counts
    // the nodes after them.
    let groups = walk(cx, &finding, &members);
    let roots: Vec<usize> = groups.iter().map(|(r, _)| *r).collect();
    let nodes: Vec<usize> = groups.iter().flat_map(|(_, n)| n.iter().copied()).collect();
    let first = roots[0];
    let head = Cause::of(&issues[finding[&first]]);
    for n in nodes.iter().filter(|&&n| n != first) {
        issues[finding[n]].cause = Some(head.clone());
    }
    if nodes.len() > 1 {
        let k = finding[&first];
        issues[k].message = head_message(cx, &roots, &nodes);
    }
    for i in issues.iter_mut() {
        if !FOLLOWS.contains(&i.code) {
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

/// Error edges into a join that does not settle (`failed_gate_writes`
/// whose fix sets the join's `kind`) are one fact: they follow from the
/// join's `missing_field` when its `kind` is misspelt (`"Settle"`), else
/// from the first of them.
fn plain_join_errors(cx: &Cx, issues: &mut [Issue]) {
    use crate::model::remedy::Remedy;
    let join_of = |i: &Issue| {
        (i.code == failed_gate_writes::CODE)
            .then(|| {
                i.fixes.iter().find_map(|f| match &f.remedy {
                    Remedy::SetField { node, path, .. } if path == "kind" => Some(node.clone()),
                    _ => None,
                })
            })
            .flatten()
    };
    let mut heads: Vec<(String, Cause)> = Vec::new();
    for k in 0..issues.len() {
        let Some(j) = join_of(&issues[k]) else {
            continue;
        };
        if issues[k].cause.is_some() || cx.graph.index_of(&j).is_none() {
            continue;
        }
        let head = heads.iter().find(|h| h.0 == j).map(|h| h.1.clone());
        let head = head.or_else(|| {
            let typo = issues.iter().find(|i| {
                i.code == missing_field::CODE
                    && i.node_id.as_deref() == Some(j.as_str())
                    && i.pointer.as_deref().is_some_and(|p| p.ends_with("/kind"))
            });
            let cause = typo.map_or_else(|| Cause::of(&issues[k]), Cause::of);
            heads.push((j.clone(), cause.clone()));
            typo.map(|_| cause)
        });
        issues[k].cause = head;
    }
}

/// A failure edge moved towards the synthesis (`failed_gate_writes` on an
/// edge) is the root of what it breaks: the failure report it lost
/// (`unreachable_node` on the report its fix names) and the references
/// made ambiguous by the second route it opens (`ambiguous_reference` on a
/// reference to the edge's target or to a node after it).
fn moved_failure_edge(cx: &Cx, issues: &mut [Issue]) {
    use crate::model::remedy::{Fill, Pick, Remedy};
    let g = &cx.graph;
    // (cause, the moved edge's target, the report it lost, its source when it
    // closes a cycle, whether it is `failed_gate_writes`'s)
    #[allow(clippy::type_complexity)]
    let mut heads: Vec<(Cause, usize, Option<usize>, Option<usize>, bool)> = Vec::new();
    for i in issues.iter() {
        if i.code != failed_gate_writes::CODE && i.code != ungated_unit::CODE {
            continue;
        }
        let Some(edge) = i.edge_id.as_deref() else {
            continue;
        };
        let Some((u, t)) = (0..g.ends.len())
            .find(|&e| g.edge(e).id == edge)
            .and_then(|e| g.ends.get(e))
        else {
            continue;
        };
        let lost = i.fixes.iter().find_map(|f| match &f.remedy {
            Remedy::Connect {
                to: Pick::Id(r), ..
            }
            | Remedy::Retarget {
                to: Pick::Id(r), ..
            } => g.index_of(r),
            _ => None,
        });
        // A moved edge that closes a cycle (`t` leads back to `u`).
        let cyclic = t == u || g.reaches(t, u);
        heads.push((
            Cause::of(i),
            t,
            lost,
            cyclic.then_some(u),
            i.code == failed_gate_writes::CODE,
        ));
    }
    if heads.is_empty() {
        return;
    }
    for i in issues.iter_mut() {
        if i.cause.is_some() {
            continue;
        }
        let head = if i.code == unreachable_node::CODE {
            let n = i.node_id.as_deref().and_then(|id| g.index_of(id));
            heads.iter().find(|h| n.is_some() && h.2 == n)
        } else if i.code == ambiguous_reference::CODE {
            let read = i.fixes.iter().find_map(|f| match &f.remedy {
                Remedy::SetField {
                    value: Fill::Value(Value::Ref(r)),
                    ..
                } => g.index_of(&r.node),
                _ => None,
            });
            read.and_then(|x| heads.iter().find(|h| h.1 == x || g.reaches(h.1, x)))
        } else if i.code == undisposed_synthesis::CODE {
            // The moved edge's route to the write bypasses the gate that
            // tests the dispositions: moving it back fixes both.
            let w = i.node_id.as_deref().and_then(|id| g.index_of(id));
            w.and_then(|w| heads.iter().find(|h| h.1 == w || g.reaches(h.1, w)))
        } else if i.code == ungated_unit::CODE && i.edge_id.is_none() {
            // A unit the moved edge's route to the write leaves ungated
            // (its spawn leads to that route): moving the edge back gates
            // it again. Every such unit follows from the first cause.
            let s = i.node_id.as_deref().and_then(|id| g.index_of(id));
            s.and_then(|s| {
                heads
                    .iter()
                    .find(|h| h.4 && (h.1 == s || g.reaches(s, h.1)))
            })
        } else if i.code == settle_error_edge::CODE && i.edge_id.is_some() {
            // The same moved edge, seen from the settling join it left.
            heads.iter().find(|h| h.0.edge_id == i.edge_id)
        } else if i.code == first_last_across_join::CODE {
            // A read made "after the join" only by the loop the moved edge
            // closes: the read node is on that cycle.
            let read = i.fixes.iter().find_map(|f| match &f.remedy {
                Remedy::SetField {
                    value: Fill::Value(Value::Ref(r)),
                    ..
                } => g.index_of(&r.node),
                _ => None,
            });
            read.and_then(|x| {
                heads.iter().find(|h| {
                    h.3.is_some_and(|u| x == u || (g.reaches(x, u) && g.reaches(u, x)))
                })
            })
        } else if i.code == cycle::CODE {
            // The cycle the moved edge closes: moving it back (the head's
            // retarget) removes it, where disconnecting the cycle's named
            // edge would leave the failure report unreached.
            let y = i.node_id.as_deref().and_then(|id| g.index_of(id));
            y.and_then(|y| {
                heads.iter().find(|h| {
                    h.3.is_some_and(|u| y == u || (g.reaches(y, u) && g.reaches(u, y)))
                })
            })
        } else {
            None
        };
        if let Some(h) = head {
            i.cause = Some(h.0.clone());
        }
    }
}

/// Every call of one tool the registry does not have follows from the
/// first: one fact (the tool is missing), one fix (add it, or use another).
fn same_missing_tool(issues: &mut [Issue]) {
    use crate::model::remedy::Remedy;
    let tool_of = |i: &Issue| {
        i.fixes.iter().find_map(|f| match &f.remedy {
            Remedy::AddToRegistry { tool } => Some(tool.clone()),
            _ => None,
        })
    };
    let mut first: HashMap<String, usize> = HashMap::default();
    let mut count: HashMap<usize, usize> = HashMap::default();
    for k in 0..issues.len() {
        if issues[k].code != unknown_tool::CODE {
            continue;
        }
        let Some(tool) = tool_of(&issues[k]) else {
            continue;
        };
        match first.get(&tool) {
            Some(&h) => {
                issues[k].cause = Some(Cause::of(&issues[h]));
                *count.entry(h).or_default() += 1;
            }
            None => {
                first.insert(tool, k);
            }
        }
    }
    for (h, n) in count {
        let i = &mut issues[h];
        i.message = format!(
            "{} (and so do {} other call(s))",
            i.message,
            crate::model::text::thousands(n)
        );
    }
}

/// The groups: each root with the unreachable nodes it reaches, the root
/// first, then in walk order.
fn walk(cx: &Cx, finding: &HashMap<usize, usize>, members: &[usize]) -> Vec<(usize, Vec<usize>)> {
    let g = &cx.graph;
    // The members already in a group (a set, as `finding` is: a warm run
    // on a large plan with a few unreachable nodes makes nothing per node).
    let mut owner: crate::model::hash::FastSet<usize> = Default::default();
    let mut groups = Vec::new();
    let roots_first = members
        .iter()
        .filter(|&&i| g.preds(i).all(|p| !finding.contains_key(&p)))
        .chain(members.iter());
    for &r in roots_first {
        if !owner.insert(r) {
            continue;
        }
        let mut nodes = vec![r];
        let mut at = 0;
        while at < nodes.len() {
            let x = nodes[at];
            at += 1;
            for s in g.succs(x) {
                if finding.contains_key(&s) && owner.insert(s) {
                    nodes.push(s);
                }
            }
        }
        groups.push((r, nodes));
    }
    groups
}

/// `3,000 nodes cannot be reached from the entry `start`, so they would
/// never run: nothing connects to `n2001` (it reads `n2000`, which the plan
/// does not have); they are `n2001`, `n2002` … and 2,990 more`.
fn head_message(cx: &Cx, roots: &[usize], nodes: &[usize]) -> String {
    let g = &cx.graph;
    let entry = super::support::entries_text(g);
    let root_ids: Vec<&str> = roots
        .iter()
        .take(NAMED + 1)
        .map(|&r| g.node(r).id.as_str())
        .collect();
    let gone: Vec<&str> = {
        let first = roots[0];
        let hits = super::support::literal_hits_of(g.node(first), first);
        let mut v: Vec<&str> = hits
            .iter()
            .filter_map(|h| match h.value {
                Value::Ref(r) if g.index_of(&r.node).is_none() => Some(r.node.as_str()),
                _ => None,
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let breaks = match roots.len() {
        1 => format!("nothing connects to `{}`", root_ids[0]),
        n => format!(
            "nothing connects to any of {} nodes: {}",
            crate::model::text::thousands(n),
            named(&root_ids, n)
        ),
    };
    let why = match gone.as_slice() {
        [] => breaks,
        _ => format!(
            "{breaks}; `{}` reads {}, a node the plan does not have (removed?)",
            root_ids[0],
            capped_list(&gone, 3)
        ),
    };
    let ids: Vec<&str> = nodes
        .iter()
        .take(NAMED + 1)
        .map(|&n| g.node(n).id.as_str())
        .collect();
    format!(
        "{} nodes cannot be reached from {entry}, so they would never run: {why}; they are {}",
        crate::model::text::thousands(nodes.len()),
        named(&ids, nodes.len())
    )
}

/// The first [`NAMED`] of `total` ids, then how many more.
fn named(ids: &[&str], total: usize) -> String {
    if total > NAMED {
        format!(
            "{} … and {} more",
            capped_list(&ids[..NAMED.min(ids.len())], NAMED),
            crate::model::text::thousands(total - NAMED)
        )
    } else {
        capped_list(ids, NAMED)
    }
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
        assert_eq!(
            of("island").cause.as_ref().unwrap().node_id.as_deref(),
            Some("c"),
            "every break is in the one group"
        );
        let head = &of("c").message;
        assert!(
            head.starts_with("3 nodes cannot be reached")
                && head.contains("nothing connects to any of 2 nodes: `c`, `island`"),
            "{head}"
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
