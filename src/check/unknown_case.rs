//! Complexity: O(n + e) (one label set per select, one lookup per edge).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::remedy::{Fill, Remedy};
use crate::model::suggest;
use crate::model::{Handle, NodeKind, Value};

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
    /// Move the edge to a declared label's handle (remove it and connect the
    /// two nodes again on that handle), or add the label to the select's
    /// `cases` (and a predicate for it).
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "route", "kind": "select", "definition": {"evaluator": "structured", "predicate": {}, "cases": ["bug", "feature"]}}],
    ///  "edges": [{"id": "to_triage", "from": "route", "to": "triage", "handle": "case_bgu"}]}
    /// ```
    /// Fixed: `"handle": "case_bug"`.
    pub UnknownCase { code: "unknown_case", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
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
                let given = edge.handle.as_str();
                let near = suggest::closest(&given, handles.iter().map(String::as_str));
                let dym = near.map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default();
                let mut issue = Issue::new(CODE,
                    format!(
                        "edge `{}` leaves select `{}` on `{}`{dym}, but `{}` is not one of its cases, so the edge can never fire; {what}",
                        edge.id, n.id, edge.handle, label
                    ),
                )
                .edge(edge.id.clone())
                .at("/handle");
                if let Some(near) = near {
                    issue = issue.fix(Remedy::ChangeHandle {
                        edge: edge.id.to_string(),
                        from: edge.from.to_string(),
                        to: edge.to.to_string(),
                        handle: near.to_string(),
                    });
                }
                if !label.is_empty() {
                    let mut with: Vec<Value> = cases.iter().map(|c| Value::from(*c)).collect();
                    with.push(Value::from(label.as_str()));
                    issue = issue.fix(
                        Remedy::SetField {
                            node: n.id.to_string(),
                            path: "cases".into(),
                            value: Fill::Value(Value::Array(with)),
                        }
                        .when(format!("if `{label}` is a new case; then give it a predicate")),
                    );
                }
                out.push(issue);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnknownCase;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use crate::model::{NodeKind, Value};
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
        // An empty label is no case to add.
        assert!(
            !issues[1]
                .fixes
                .iter()
                .any(|f| matches!(&f.remedy, Remedy::SetField { .. }))
        );
        assert_eq!(issues[0].edge_id.as_deref(), Some("x"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::ChangeHandle {
                edge: "x".into(),
                from: "route".into(),
                to: "t".into(),
                handle: "case_bug".into()
            }
        );
        assert!(matches!(
            &issues[0].fixes[1].remedy,
            Remedy::SetField { path, value: Fill::Value(Value::Array(cases)), .. }
                if path == "cases" && cases.len() == 3
        ));
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
