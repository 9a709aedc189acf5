//! Complexity: O(n).

use crate::model::Issue;
use crate::model::ids;

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
    /// Rename the node in snake_case: export the plan, rename the id (and every
    /// reference and edge that names it), and import it again; or remove the
    /// node and add it back under a valid id.
    ///
    /// ## Example
    /// ```json
    /// {"id": "Fetch/Data", "kind": "call", "definition": {}}
    /// ```
    /// Fixed: `{"id": "fetch_data", …}`.
    pub InvalidNodeId { code: "invalid_node_id", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for n in &cx.content.nodes {
            if !ids::is_valid_node_id(&n.id) {
                let suggestion: String = n
                    .id
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' })
                    .take(64)
                    .collect();
                out.push(
                    Issue::new(CODE,
                        format!(
                            "node id `{}` is not allowed: node ids use only lowercase letters, digits and `_`, 1 to 64 of them (so they never read as paths); rename it, e.g. to `{}`",
                            ids::quote_id(&n.id),
                            if suggestion.is_empty() { "step_1".to_string() } else { suggestion }
                        ),
                    )
                    .node(n.id.clone())
                    .at("/id"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InvalidNodeId;
    use crate::check::testing::*;

    #[test]
    fn fires_on_path_like_ids() {
        for bad in ["Fetch/Data", ".x", "a-b"] {
            let issues = run_one(&InvalidNodeId, &plan(vec![join(bad)], vec![]));
            assert_eq!(issues.len(), 1, "{bad}");
        }
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
