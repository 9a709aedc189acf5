//! Complexity: O(ops), inside the fold (`store::fold`), which emits this code
//! (a document is folded like an import, so it is found there too).

use crate::model::remedy::{Pick, Remedy};
use crate::model::{Edge, Issue};

declare_check! {
    /// ## What it finds
    /// Two edges with the same id but a different `from`, `to` or `handle`.
    /// The fold keeps the later one (last writer wins) and reports both.
    ///
    /// ## Why it matters
    /// Edge ids are identities: routes (`branchId`) and edits that remove an
    /// edge name it by id. When two edges share one, one of them silently disappears, and a
    /// reference or review may be about the wrong edge.
    ///
    /// ## How to fix
    /// Decide which edge you meant. Remove the edge with that id, then
    /// connect the edges you want, each with its own id (a new edge gets a
    /// minted one).
    ///
    /// ## Example
    /// ```json
    /// {"edges": [{"id": "next", "from": "a", "to": "b", "handle": "always"},
    ///            {"id": "next", "from": "a", "to": "c", "handle": "always"}]}
    /// ```
    /// Fixed: rename the second to `a__c`.
    pub DuplicateEdgeId { code: "duplicate_edge_id", severity: Blocking, needs: NOTHING, source: Fold }
    fn run(cx, out) {}
}

/// The finding for an edge that replaced another of the same id.
pub(crate) fn issue(kept: &Edge, lost: &Edge) -> Issue {
    Issue::new(
        CODE,
        format!(
            "two edges share the id `{}`: {} → {} on `{}` and {} → {} on `{}`; the later one was kept. Edge ids identify edges",
            kept.id, lost.from, lost.to, lost.handle, kept.from, kept.to, kept.handle
        ),
    )
    .edge(kept.id.clone())
    .fix(
        Remedy::Connect {
            from: Pick::id(&lost.from),
            to: Pick::id(&lost.to),
            handle: Some(lost.handle.as_str().into_owned()),
        }
        .when("if the lost edge is wanted too; it gets a new id"),
    )
}

#[cfg(test)]
mod tests {
    use crate::check::testing::*;
    use crate::model::OpBody;

    fn fold_with(second_to: &str) -> crate::store::fold::Folded {
        let ops = crate::store::transaction(
            "t",
            "plan-t",
            0,
            vec![
                OpBody::AddNode { node: join("a") },
                OpBody::AddNode { node: join("b") },
                OpBody::AddNode { node: join("c") },
                OpBody::AddEdge {
                    edge: edge("next", "a", "b", "always"),
                },
                OpBody::AddEdge {
                    edge: edge("next", "a", second_to, "always"),
                },
            ],
        );
        crate::store::fold::fold("plan-t", &ops)
    }

    #[test]
    fn fires_on_one_id_with_two_signatures() {
        let f = fold_with("c");
        let issues = crate::check::notes::issues(&f.notes);
        let i = issues
            .iter()
            .find(|i| i.code == "duplicate_edge_id")
            .expect("reported");
        assert!(i.is_blocking() && i.message.contains("a → b") && i.message.contains("a → c"));
    }

    #[test]
    fn an_identical_re_add_is_not_a_duplicate() {
        assert!(crate::check::notes::issues(&fold_with("b").notes).is_empty());
    }
}
