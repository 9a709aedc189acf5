//! Complexity: O(n + e) (one label set per select, one lookup per edge).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::suggest;
use crate::model::{Handle, NodeKind};

declare_check! {
    /// ## What it finds
    /// An edge leaving a `select` on `case_X` where `X` is not one of the
    /// select's `cases`.
    ///
    /// ## Why it matters
    /// A select routes to `case_<label>` for the label its predicate picks,
    /// and it only ever picks a declared label. An edge on any other label
    /// never fires, so the step behind it silently never runs — usually a
    /// typo (`case_bgu` for `case_bug`).
    ///
    /// ## How to fix
    /// Reconnect the edge on a declared label's handle, or add the label to
    /// the select's `cases` (and a predicate for it).
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "route", "kind": "select", "definition": {"evaluator": "structured", "predicate": {}, "cases": ["bug", "feature"]}}],
    ///  "edges": [{"id": "to_triage", "from": "route", "to": "triage", "handle": "case_bgu"}]}
    /// ```
    /// Fixed: `"handle": "case_bug"`.
    pub UnknownCase { code: "unknown_case", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        let g = &cx.graph;
        for (i, n) in cx.content.nodes.iter().enumerate() {
            if n.kind != NodeKind::Select || !is_canonical(g, i) {
                continue;
            }
            let cases = n.cases();
            for &e in &g.out[i] {
                let edge = g.edge(e);
                let Handle::Case(label) = &edge.handle else { continue };
                if cases.contains(&label.as_str()) {
                    continue;
                }
                let handles: Vec<String> = cases.iter().map(|c| format!("case_{c}")).collect();
                let what = if cases.is_empty() {
                    format!("select `{}` declares no cases", n.id)
                } else {
                    format!(
                        "the select's cases give the handles {}",
                        suggest::choices(&edge.handle.as_str(), handles.iter().map(String::as_str))
                    )
                };
                let dym = suggest::did_you_mean(&edge.handle.as_str(), handles.iter().map(String::as_str));
                out.push(
                    Issue::new(CODE,
                        format!(
                            "edge `{}` leaves select `{}` on `{}`{dym}, but `{}` is not one of its cases, so the edge can never fire; {what}. Reconnect the edge on one of those handles, or add `{}` to the select's `cases` with a predicate for it",
                            edge.id, n.id, edge.handle, label, label
                        ),
                    )
                    .edge(edge.id.clone())
                    .at("/handle"),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnknownCase;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    fn sel() -> crate::model::Node {
        node(
            "route",
            NodeKind::Select,
            json!({"evaluator": "structured", "predicate": {}, "cases": ["bug", "feature"]}),
        )
    }

    #[test]
    fn fires_on_an_undeclared_label() {
        let p = plan(
            vec![sel(), step("t")],
            vec![
                edge("x", "route", "t", "case_bgu"),
                edge("y", "route", "t", "case_"),
            ],
        );
        let issues = run_one(&UnknownCase, &p);
        assert_eq!(issues.len(), 2);
        assert!(issues[0].message.contains("did you mean `case_bug`"));
        assert_eq!(issues[0].edge_id.as_deref(), Some("x"));
    }

    #[test]
    fn passes_declared_labels_and_other_handles() {
        let p = plan(
            vec![sel(), step("t")],
            vec![
                edge("x", "route", "t", "case_bug"),
                edge("y", "route", "t", "default"),
                edge("z", "route", "t", "error"),
            ],
        );
        assert!(run_one(&UnknownCase, &p).is_empty());
    }
}
