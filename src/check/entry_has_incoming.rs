//! Complexity: O(in-degree of the entries).

use crate::model::Issue;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// An edge that leads into an `entry` node.
    ///
    /// ## Why it matters
    /// The entry is where a run begins; it receives the run input, never the
    /// output of another step. An edge into it is either a mistake or a loop.
    ///
    /// ## How to fix
    /// Disconnect the edge, or point it at the step that should run next.
    ///
    /// ## Example
    /// ```json
    /// {"edges": [{"id": "back", "from": "fetch", "to": "start", "handle": "error"}]}
    /// ```
    /// Fixed: remove the edge `back`, then connect `fetch` to a failure step
    /// on `error`.
    pub EntryHasIncoming { code: "entry_has_incoming", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for &i in &cx.graph.entries {
            for &e in &cx.graph.inc[i] {
                let edge = cx.graph.edge(e);
                out.push(
                    Issue::new(CODE,
                        format!(
                            "edge `{}` ({} → {} on `{}`) leads into the entry `{}`; an entry has no incoming edges",
                            edge.id, edge.from, edge.to, edge.handle, edge.to
                        ),
                    )
                    .edge(edge.id.clone())
                    .node(edge.to.clone())
                    .fix(Remedy::Disconnect { edge: edge.id.to_string() }.when(format!(
                        "then connect `{}` to the step that should run next, if any",
                        edge.from
                    ))),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::EntryHasIncoming;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn fires_on_an_edge_into_the_entry() {
        let p = plan(
            vec![entry("s"), join("x")],
            vec![
                edge("e1", "s", "x", "always"),
                edge("e2", "x", "s", "always"),
            ],
        );
        let issues = run_one(&EntryHasIncoming, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].edge_id.as_deref(), Some("e2"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Disconnect { edge: "e2".into() }
        );
    }

    #[test]
    fn passes_when_edges_only_leave_the_entry() {
        let p = plan(
            vec![entry("s"), join("x")],
            vec![edge("e1", "s", "x", "always")],
        );
        assert!(run_one(&EntryHasIncoming, &p).is_empty());
    }
}
