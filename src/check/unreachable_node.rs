//! Complexity: O(n + e) (one walk from the entries, shared through the graph).

use crate::model::Issue;
use crate::model::remedy::{Pick, Remedy};

declare_check! {
    /// ## What it finds
    /// A node the entry cannot reach over any edge (any handle). A plan with
    /// several entries (`multiple_entries`) is checked from all of them, and a
    /// plan with a cycle is checked too; only a plan with no entry is not.
    ///
    /// ## Why it matters
    /// A step that can never run is dead weight at best; at worst it is a step
    /// the author believes will run (an approval, a notification) and never
    /// does. Approval covers only reachable calls, so it would also be left
    /// out of the authority a reviewer signs.
    ///
    /// ## How to fix
    /// Connect it from a step that runs before it, or remove it.
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "start", "kind": "entry", "definition": {"input": []}},
    ///            {"id": "notify", "kind": "call", "definition": {}}], "edges": []}
    /// ```
    /// Fixed: connect `start` to `notify`.
    pub UnreachableNode { code: "unreachable_node", severity: Blocking, needs: REACH, source: Check, scope: Graph }
    fn run(cx, out) {
        let reach = cx.graph.reachable();
        let entry = crate::check::support::entries_text(&cx.graph);
        for (i, n) in cx.nodes_where(|i| !reach[i]) {
            if cx.graph.index_of(&n.id) == Some(i) {
                out.push(
                    Issue::new(CODE,
                        format!(
                            "{} node `{}` cannot be reached from {entry} over any edge, so it would never run",
                            n.kind, n.id
                        ),
                    )
                    .node(n.id.clone())
                    .fix(Remedy::Connect { from: Pick::any("a step before it"), to: Pick::id(&n.id), handle: None })
                    .fix(Remedy::RemoveNode { node: n.id.to_string() }),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnreachableNode;
    use crate::check::testing::*;
    use crate::model::remedy::{Pick, Remedy};

    #[test]
    fn fires_on_a_detached_node() {
        let p = plan(
            vec![entry("s"), join("a"), join("lost")],
            vec![edge("e", "s", "a", "always")],
        );
        let issues = run_one(&UnreachableNode, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].node_id.as_deref(), Some("lost"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Connect {
                from: Pick::any("a step before it"),
                to: Pick::id("lost"),
                handle: None
            }
        );
        assert_eq!(
            issues[0].fixes[1].remedy,
            Remedy::RemoveNode {
                node: "lost".into()
            }
        );
    }

    #[test]
    fn passes_when_every_node_is_reached_even_by_error_edges() {
        let p = plan(
            vec![entry("s"), join("a"), join("b")],
            vec![edge("e", "s", "a", "always"), edge("f", "a", "b", "error")],
        );
        assert!(run_one(&UnreachableNode, &p).is_empty());
    }
}
