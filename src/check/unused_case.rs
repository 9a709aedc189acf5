//! Complexity: O(n + e) (one handle set per select).

use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::hash::FastSet as HashSet;
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::{Handle, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A label in a `select`'s `cases` with no outgoing `case_<label>` edge.
    /// Advisory.
    ///
    /// ## Why it matters
    /// When the predicate picks that label, no `case_` edge fires; only
    /// `always` edges do, and `default` does not (a case did match). The run
    /// continues as if the select had chosen nothing in particular, which is
    /// rarely what the author meant. It may also be a step not wired yet.
    ///
    /// ## How to fix
    /// Connect the select to the step for that case on `case_<label>`, or
    /// remove the label from `cases` (and its predicate).
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "route", "kind": "select", "definition": {"evaluator": "structured", "predicate": {}, "cases": ["bug", "feature"]}}],
    ///  "edges": [{"id": "e1", "from": "route", "to": "triage", "handle": "case_bug"}]}
    /// ```
    /// Fixed: connect `route` to `plan_feature` on `case_feature`.
    pub UnusedCase { code: "unused_case", severity: Advisory, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Select || !is_canonical(g, i) {
                continue;
            }
            let wired: HashSet<&str> = g.out[i]
                .iter()
                .filter_map(|&e| match &g.edge(e).handle {
                    Handle::Case(l) => Some(l.as_str()),
                    _ => None,
                })
                .collect();
            let Some(cases) = n.get("cases").and_then(|c| c.as_array()) else { continue };
            let mut seen = HashSet::default();
            for (k, c) in cases.iter().enumerate() {
                let Some(label) = c.as_str() else { continue };
                if wired.contains(label) || !seen.insert(label) {
                    continue;
                }
                out.push(
                    Issue::new(CODE,
                        format!(
                            "select `{}` declares the case `{label}` but no edge leaves it on `case_{label}`, so when that case is picked no case step runs",
                            n.id
                        ),
                    )
                    .node(n.id.clone())
                    .at(format!("/definition/cases/{k}"))
                    .fix(Remedy::Connect {
                        from: Pick::id(&n.id),
                        to: Pick::any(format!("the step for `{label}`")),
                        handle: Some(format!("case_{label}")),
                    })
                    .fix(
                        Remedy::SetField {
                            node: n.id.to_string(),
                            path: "cases".into(),
                            value: Fill::Value(Value::Array(
                                cases.iter().filter(|c| c.as_str() != Some(label)).cloned().collect(),
                            )),
                        }
                        .when(format!("if `{label}` is not a case after all; then remove its predicate too")),
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnusedCase;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::Severity;
    use crate::model::remedy::{Fill, Pick, Remedy};
    use serde_json::json;

    fn sel() -> crate::model::Node {
        node(
            "route",
            NodeKind::Select,
            json!({"evaluator": "structured", "predicate": {}, "cases": ["bug", "feature"]}),
        )
    }

    #[test]
    fn fires_on_a_case_without_an_edge() {
        let p = plan(
            vec![sel(), step("t")],
            vec![edge("x", "route", "t", "case_bug")],
        );
        let issues = run_one(&UnusedCase, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].severity(), Severity::Advisory);
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/cases/1"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Connect {
                from: Pick::id("route"),
                to: Pick::any("the step for `feature`"),
                handle: Some("case_feature".into())
            }
        );
        assert_eq!(
            issues[0].fixes[1].remedy,
            Remedy::SetField {
                node: "route".into(),
                path: "cases".into(),
                value: Fill::Value(crate::model::Value::Array(vec!["bug".into()])),
            }
        );
    }

    #[test]
    fn passes_when_every_case_is_wired() {
        let p = plan(
            vec![sel(), step("t"), step("u")],
            vec![
                edge("x", "route", "t", "case_bug"),
                edge("y", "route", "u", "case_feature"),
            ],
        );
        assert!(run_one(&UnusedCase, &p).is_empty());
    }
}
