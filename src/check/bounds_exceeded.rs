//! Complexity: O(size of the plan): the canonical text is built once to
//! measure the encoded size (no hash).

use crate::model::Issue;
use crate::model::remedy::{Bound, Remedy};

declare_check! {
    /// ## What it finds
    /// A plan over its own `bounds`: more nodes than `maxNodes`, more edges
    /// than `maxEdges`, or an encoded size (the byte length of the canonical
    /// JCS text its digest hashes) over `maxEncodedBytes`. One issue per
    /// bound exceeded. (`maxSteps` and `maxConcurrentFrames` limit a run and
    /// are enforced by the executor.)
    ///
    /// ## Why it matters
    /// Bounds are part of what a reviewer approves: they promise the plan
    /// stays a size that can be read, reviewed and executed safely. A plan
    /// past them breaks that promise.
    ///
    /// ## How to fix
    /// Shrink the plan, or, if the size is intended, raise the bound in the
    /// plan's `bounds` (bounds are content, so the change is reviewed like
    /// any other).
    ///
    /// ## Example
    /// A plan with 300 nodes and the default `maxNodes` of 256.
    /// Fixed: set `bounds.maxNodes` to `320`, or split the plan.
    pub BoundsExceeded { code: "bounds_exceeded", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        let c = cx.content;
        let b = &c.bounds;
        let nodes = c.nodes.len() as u64;
        let edges = c.edges.len() as u64;
        if nodes > b.max_nodes {
            out.push(
                Issue::new(CODE,
                    format!(
                        "the plan has {nodes} nodes, {} more than its bound maxNodes = {}",
                        nodes - b.max_nodes,
                        b.max_nodes
                    ),
                )
                .at("/bounds/maxNodes")
                .fix(Remedy::SetBound { bound: Bound::MaxNodes, value: nodes }.when("if the size is intended")),
            );
        }
        if edges > b.max_edges {
            out.push(
                Issue::new(CODE,
                    format!(
                        "the plan has {edges} edges, {} more than its bound maxEdges = {}",
                        edges - b.max_edges,
                        b.max_edges
                    ),
                )
                .at("/bounds/maxEdges")
                .fix(Remedy::SetBound { bound: Bound::MaxEdges, value: edges }.when("if the size is intended")),
            );
        }
        let size = cx.encoded_len() as u64;
        if size > b.max_encoded_bytes {
            out.push(
                Issue::new(CODE,
                    format!(
                        "the plan's encoded size is {size} bytes, over its bound maxEncodedBytes = {}; large literals (prompts, args) can be made smaller or moved into artifacts",
                        b.max_encoded_bytes
                    ),
                )
                .at("/bounds/maxEncodedBytes")
                .fix(Remedy::SetBound { bound: Bound::MaxEncodedBytes, value: size }.when("if the size is intended")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BoundsExceeded;
    use crate::check::testing::*;
    use crate::model::remedy::{Bound, Remedy};

    fn sized(max_nodes: u64, max_edges: u64, max_bytes: u64) -> crate::model::Content {
        let mut p = plan(
            vec![entry("s"), step("a"), step("b")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
            ],
        );
        p.bounds.max_nodes = max_nodes;
        p.bounds.max_edges = max_edges;
        p.bounds.max_encoded_bytes = max_bytes;
        p
    }

    #[test]
    fn fires_on_each_bound() {
        let issues = run_one(&BoundsExceeded, &sized(2, 1, 100));
        let at: Vec<_> = issues
            .iter()
            .map(|i| i.pointer.as_deref().unwrap())
            .collect();
        assert_eq!(
            at,
            vec![
                "/bounds/maxNodes",
                "/bounds/maxEdges",
                "/bounds/maxEncodedBytes"
            ]
        );
        assert!(issues[0].message.contains("3 nodes"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetBound {
                bound: Bound::MaxNodes,
                value: 3
            }
        );
    }

    #[test]
    fn passes_at_the_bounds() {
        // The bound is part of the text it limits: find the fixed point.
        let mut bound = 1_000_000;
        for _ in 0..4 {
            bound = crate::wire::jcs::digest(&sized(3, 2, bound)).1 as u64;
        }
        assert!(run_one(&BoundsExceeded, &sized(3, 2, bound)).is_empty());
    }
}
