//! Complexity: O(n).

use crate::model::Issue;
use crate::model::ids;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// A node id that breaks the rule `^[a-z0-9_]{1,64}$`: lowercase ASCII
    /// letters, digits and underscores, at most 64 of them.
    ///
    /// ## Why it matters
    /// Ids are how models and people point at nodes. An id with `/` or `.`
    /// gets re-cited as a file path by small models; upper case and dashes
    /// invite near-miss references that silently point elsewhere.
    ///
    /// ## How to fix
    /// Rename the node in snake_case: in the plan document, rename the id
    /// (and every reference and edge that names it); or add the node again
    /// under a valid id with the same definition, move its edges and
    /// references to it, and remove the old node.
    ///
    /// ## Example
    /// ```json
    /// {"id": "Fetch/Data", "kind": "call", "definition": {}}
    /// ```
    /// Fixed: `{"id": "fetch_data", …}`.
    pub InvalidNodeId { code: "invalid_node_id", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for (_, n) in cx.nodes() {
            if !ids::is_valid_node_id(&n.id) {
                let suggestion: String = n
                    .id
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
                    .take(64)
                    .collect();
                let suggestion = if suggestion.is_empty() { "step_1".to_string() } else { suggestion };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "node id `{}` is not allowed: node ids use only lowercase letters, digits and `_`, 1 to 64 of them (so they never read as paths)",
                            ids::quote_id(&n.id)
                        ),
                    )
                    .node(n.id.clone())
                    .at("/id")
                    .fix(
                        Remedy::AddNode { id: Some(suggestion), kind: Some(n.kind) }.when(format!(
                            "to rename it: with the same definition and phase, then move its edges and the references to it, and remove `{}`",
                            ids::quote_id(&n.id)
                        )),
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InvalidNodeId;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn fires_on_path_like_ids() {
        for bad in ["Fetch/Data", ".x", "a-b"] {
            let issues = run_one(&InvalidNodeId, &plan(vec![join(bad)], vec![]));
            assert_eq!(issues.len(), 1, "{bad}");
            assert!(!issues[0].message.contains("rename"), "{bad}");
        }
    }

    #[test]
    fn the_fix_adds_it_under_a_valid_id() {
        let issues = run_one(&InvalidNodeId, &plan(vec![join("Fetch/Data")], vec![]));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::AddNode {
                id: Some("fetch_data".into()),
                kind: Some(crate::model::NodeKind::Join)
            }
        );
    }

    #[test]
    fn passes_snake_case() {
        assert!(
            run_one(
                &InvalidNodeId,
                &plan(vec![join("fetch_1"), join("1abc")], vec![])
            )
            .is_empty()
        );
    }
}
