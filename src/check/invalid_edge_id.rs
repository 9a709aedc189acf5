//! Complexity: O(e).

use crate::model::Issue;
use crate::model::ids;

declare_check! {
    /// ## What it finds
    /// An edge id that breaks the rule `^[A-Za-z0-9_-]{1,64}$`.
    ///
    /// ## Why it matters
    /// Edge ids appear inside route identities (`branchId`); a delimiter, colon
    /// or parenthesis in one could forge a route that does not exist.
    ///
    /// ## How to fix
    /// Disconnect the edge and connect it again without `--id` (a readable id
    /// is minted) or with a valid one.
    ///
    /// ## Example
    /// ```json
    /// {"id": "a>b", "from": "a", "to": "b", "handle": "always"}
    /// ```
    /// Fixed: `{"id": "a__b", …}`.
    pub InvalidEdgeId { code: "invalid_edge_id", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for e in &cx.content.edges {
            if !ids::is_valid_edge_id(&e.id) {
                out.push(
                    Issue::new(CODE,
                        format!(
                            "edge id `{}` ({} → {}) is not allowed: edge ids use letters, digits, `_` and `-`, 1 to 64 of them. Disconnect it and connect {} → {} again without --id to get a valid one",
                            ids::quote_id(&e.id), e.from, e.to, e.from, e.to
                        ),
                    )
                    .edge(e.id.clone())
                    .at("/id"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InvalidEdgeId;
    use crate::check::testing::*;

    #[test]
    fn fires_on_delimiters_and_length() {
        let long = "x".repeat(65);
        let p = plan(
            vec![join("a"), join("b")],
            vec![
                edge("a>b", "a", "b", "always"),
                edge(&long, "a", "b", "always"),
            ],
        );
        assert_eq!(run_one(&InvalidEdgeId, &p).len(), 2);
    }

    #[test]
    fn passes_valid_ids() {
        let p = plan(
            vec![join("a"), join("b")],
            vec![edge("a__b-2", "a", "b", "always")],
        );
        assert!(run_one(&InvalidEdgeId, &p).is_empty());
    }
}
