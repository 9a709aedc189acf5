//! Complexity: O(e).

use crate::model::Issue;
use crate::model::ids;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// An edge id that breaks the rule `^[A-Za-z0-9_-]{1,64}$`.
    ///
    /// ## Why it matters
    /// Edge ids appear inside route identities (`branchId`); a delimiter, colon
    /// or parenthesis in one could forge a route that does not exist.
    ///
    /// ## How to fix
    /// Remove the edge and connect its two nodes again on the same handle:
    /// the new edge gets a valid minted id (or give it a valid one).
    ///
    /// ## Example
    /// ```json
    /// {"id": "a>b", "from": "a", "to": "b", "handle": "always"}
    /// ```
    /// Fixed: `{"id": "a__b", …}`.
    pub InvalidEdgeId { code: "invalid_edge_id", severity: Blocking, needs: NOTHING, source: Check, scope: Edge }
    fn run(cx, out) {
        for (_, e) in cx.edges() {
            if !ids::is_valid_edge_id(&e.id) {
                out.push(
                    Issue::new(CODE,
                        format!(
                            "edge id `{}` ({} → {}) is not allowed: edge ids use letters, digits, `_` and `-`, 1 to 64 of them, because they appear inside route identities",
                            ids::quote_id(&e.id), e.from, e.to
                        ),
                    )
                    .edge(e.id.clone())
                    .at("/id")
                    .fix(
                        Remedy::ChangeHandle {
                            edge: e.id.to_string(),
                            from: e.from.to_string(),
                            to: e.to.to_string(),
                            handle: e.handle.as_str().into_owned(),
                        }
                        .when("connected again, the edge gets a valid id"),
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InvalidEdgeId;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

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
        let issues = run_one(&InvalidEdgeId, &p);
        assert_eq!(issues.len(), 2);
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::ChangeHandle {
                edge: "a>b".into(),
                from: "a".into(),
                to: "b".into(),
                handle: "always".into()
            }
        );
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
