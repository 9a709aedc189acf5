//! Complexity: O(size of the definitions).

use crate::model::Issue;
use crate::model::Value;
use crate::model::remedy::{Fill, Remedy};
use crate::model::value::dot_path;

declare_check! {
    /// ## What it finds
    /// A template hole (`{"$param": {"path": …}}`) in a plan. Holes belong in
    /// templates, where instantiating the template fills every one of them.
    ///
    /// ## Why it matters
    /// Nothing fills a hole in a plan: at run time the step would receive a
    /// placeholder object instead of a value. It usually means a template
    /// node was copied by hand instead of instantiated.
    ///
    /// ## How to fix
    /// Set the field that holds the hole to the value (or a reference to the
    /// node that produces it); or build the plan by instantiating the
    /// template, which fills every hole from the values given for its params.
    ///
    /// ## Example
    /// ```json
    /// {"args": {"ticket": {"$param": {"path": "ticket_id"}}}}
    /// ```
    /// Fixed: `{"args": {"ticket": {"$ref": {"node": "accept", "select": "first", "path": "ticket_id"}}}}`.
    pub UnfilledParam { code: "unfilled_param", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for hit in cx.scoped_literal_hits().iter() {
            let (n, pointer, v) = (&cx.content.nodes[hit.node], &hit.pointer, hit.value);
            {
                if let Value::Param(p) = v {
                    let path = dot_path(pointer);
                    out.push(
                        Issue::new(CODE,
                            format!(
                                "node `{}` has the template hole `{}` at `{path}`, but holes are only filled when a template is instantiated, so nothing will fill this one",
                                n.id, p.path
                            ),
                        )
                        .node(n.id.clone())
                        .at(pointer.clone())
                        .fix(Remedy::SetField {
                            node: n.id.to_string(),
                            path,
                            value: Fill::choose("a literal or a reference"),
                        }),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UnfilledParam;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn fires_on_a_hole() {
        let c = call_with(
            "c",
            "t",
            json!({"t": {"$param": {"path": "ticket_id"}}}),
            &[],
        );
        let issues = run_one(&UnfilledParam, &plan(vec![c], vec![]));
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("`ticket_id`"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "c".into(),
                path: "args.t".into(),
                value: Fill::choose("a literal or a reference"),
            }
        );
    }

    #[test]
    fn passes_values_and_lookalike_literals() {
        let c = call_with(
            "c",
            "t",
            json!({"t": "x", "u": {"$param": {"path": "p"}, "note": 1}}),
            &[],
        );
        assert!(run_one(&UnfilledParam, &plan(vec![c], vec![])).is_empty());
    }
}
