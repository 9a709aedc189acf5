//! Complexity: O(n + e): two walks from the entries — the shared one
//! (`Graph::reachable`) and an independent breadth-first walk over the raw
//! edge list with its own index.

use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::hash::FastMap as HashMap;
use crate::model::remedy::{Pick, Remedy};
use std::collections::VecDeque;

/// A second reachability walk, deliberately sharing nothing with `Graph`:
/// its own id index, its own adjacency and a queue instead of a stack.
fn independent_reach(content: &crate::model::Content) -> Vec<bool> {
    let n = content.nodes.len();
    let mut at: HashMap<&str, usize> = HashMap::with_capacity_and_hasher(n, Default::default());
    for (i, node) in content.nodes.iter().enumerate() {
        at.entry(node.id.as_str()).or_insert(i);
    }
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &content.edges {
        if let (Some(&f), Some(&t)) = (at.get(e.from.as_str()), at.get(e.to.as_str())) {
            next[f].push(t);
        }
    }
    let mut seen = vec![false; n];
    let mut queue = VecDeque::new();
    for (i, node) in content.nodes.iter().enumerate() {
        if node.kind == NodeKind::Entry && !seen[i] {
            seen[i] = true;
            queue.push_back(i);
        }
    }
    while let Some(v) = queue.pop_front() {
        for &t in &next[v] {
            if !seen[t] {
                seen[t] = true;
                queue.push_back(t);
            }
        }
    }
    seen
}

declare_check! {
    /// ## What it finds
    /// A `call` that cannot be reached from the entry (from any entry, when a
    /// plan has several). It also gets
    /// `unreachable_node`; this code exists because a call that can never
    /// run is the costliest kind of dead step, and it is computed by a second
    /// reachability walk that shares no code with the first, so a bug in one
    /// cannot hide an unreachable call (that bug has shipped before). A call
    /// missed by either walk is reported.
    ///
    /// ## Why it matters
    /// A call is where a plan acts on the world. One that can never run is a
    /// step the author expects (a notification, a write) that never happens,
    /// and its authority is left out of the set a reviewer approves.
    ///
    /// ## How to fix
    /// Connect it from a step that runs before it, or remove it.
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "start", "kind": "entry", "definition": {"input": []}},
    ///            {"id": "notify", "kind": "call", "definition": {"tool": "send_mail", "…": "…"}}], "edges": []}
    /// ```
    /// Fixed: connect `start` to `notify`.
    pub UnreachableCall { code: "unreachable_call", severity: Blocking, needs: REACH, source: Check }
    fn run(cx, out) {
        let first = cx.graph.reachable();
        let second = independent_reach(cx.content);
        let entry = crate::check::support::entries_text(&cx.graph);
        for (i, n) in cx.content.nodes.iter().enumerate() {
            if n.kind != NodeKind::Call || (first[i] && second[i]) {
                continue;
            }
            let disagree = if first[i] != second[i] {
                " (the two reachability walks disagree here, which is a bug in the checks: please report it)"
            } else {
                ""
            };
            let tool = n.tool().map(|t| format!(" (tool `{t}`)")).unwrap_or_default();
            let issue = Issue::new(CODE,
                format!(
                    "call `{}`{tool} can never run: no route from {entry} reaches it{disagree}, so its tool is never invoked and its authority is not part of what is approved",
                    n.id
                ),
            )
            .node(n.id.clone());
            // `unreachable_node` reports the same node just before, with these
            // fixes, unless the first walk reached it or the node is a
            // duplicate: answers stay short when both fire.
            let reported = !first[i] && cx.graph.index_of(&n.id) == Some(i);
            out.push(if reported {
                issue
            } else {
                issue
                    .fix(Remedy::Connect { from: Pick::any("a step before it"), to: Pick::id(&n.id), handle: None })
                    .fix(Remedy::RemoveNode { node: n.id.clone() })
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{UnreachableCall, independent_reach};
    use crate::check::testing::*;
    use crate::model::remedy::{Pick, Remedy};

    #[test]
    fn fires_on_a_detached_call_only() {
        let p = plan(
            vec![entry("s"), step("a"), step("lost"), join("lost_join")],
            vec![edge("e", "s", "a", "always")],
        );
        let issues = run_one(&UnreachableCall, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].node_id.as_deref(), Some("lost"));
        // `unreachable_node` carries the fixes for the same node.
        assert!(issues[0].fixes.is_empty());
        let by_node = run_one(&crate::check::unreachable_node::UnreachableNode, &p);
        let lost = by_node
            .iter()
            .find(|i| i.node_id.as_deref() == Some("lost"))
            .expect("reported by unreachable_node too");
        assert_eq!(
            lost.fixes[0].remedy,
            Remedy::Connect {
                from: Pick::any("a step before it"),
                to: Pick::id("lost"),
                handle: None
            }
        );
    }

    #[test]
    fn passes_reached_calls_and_the_walks_agree() {
        let p = plan(
            vec![entry("s"), step("a"), step("b")],
            vec![edge("e", "s", "a", "always"), edge("f", "a", "b", "error")],
        );
        assert!(run_one(&UnreachableCall, &p).is_empty());
        let g = crate::check::Graph::new(&p);
        assert_eq!(independent_reach(&p), g.reachable());
    }
}
