//! Complexity: O(size of the definitions).

use crate::model::Issue;
use crate::model::Value;
use crate::model::remedy::{Fill, Remedy};
use crate::model::value::dot_path;

/// What scaffolding fills missing required strings with.
pub(crate) use crate::model::shape::PLACEHOLDER;

declare_check! {
    /// ## What it finds
    /// A string exactly equal to `lorem ipsum` anywhere in a node's
    /// definition (case-sensitive: `Lorem ipsum` is someone's text). One
    /// issue per occurrence.
    ///
    /// ## Why it matters
    /// A node added with its missing required fields scaffolded gets this
    /// placeholder in every required string it was not given, so a
    /// half-written node can be stored. Left in place, a
    /// tool would be called with it, or a model prompted with it.
    ///
    /// ## How to fix
    /// Set each field that holds the placeholder to the intended value.
    ///
    /// ## Example
    /// ```json
    /// {"id": "fetch", "kind": "call", "definition": {"tool": "lorem ipsum", "…": "…"}}
    /// ```
    /// Fixed: set `tool` of `fetch` to `"tickets_get"`.
    pub ScaffoldPlaceholder { code: "scaffold_placeholder", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        for hit in cx.scoped_literal_hits().iter() {
            let (n, pointer, v) = (&cx.content.nodes[hit.node], &hit.pointer, hit.value);
            {
                if matches!(v, Value::String(s) if s == PLACEHOLDER) {
                    let path = dot_path(pointer);
                    out.push(
                        Issue::new(CODE,
                            format!(
                                "node `{}` still has the scaffold placeholder \"{PLACEHOLDER}\" at `{path}`, where the intended value belongs",
                                n.id
                            ),
                        )
                        .node(n.id.clone())
                        .at(pointer.clone())
                        .fix(Remedy::SetField { node: n.id.to_string(), path, value: Fill::choose("VALUE") }),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ScaffoldPlaceholder;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn fires_once_per_placeholder() {
        let c = call_with("c", "lorem ipsum", json!({"a": ["x", "lorem ipsum"]}), &[]);
        let issues = run_one(&ScaffoldPlaceholder, &plan(vec![c], vec![]));
        assert_eq!(issues.len(), 2);
        assert_eq!(issues[1].pointer.as_deref(), Some("/definition/args/a/1"));
        assert_eq!(
            issues[1].fixes[0].remedy,
            Remedy::SetField {
                node: "c".into(),
                path: "args.a.1".into(),
                value: Fill::choose("VALUE"),
            }
        );
    }

    #[test]
    fn passes_other_capitalisation() {
        let c = call_with(
            "c",
            "t",
            json!({"a": "Lorem ipsum", "b": "lorem ipsum dolor"}),
            &[],
        );
        assert!(run_one(&ScaffoldPlaceholder, &plan(vec![c], vec![])).is_empty());
    }
}
