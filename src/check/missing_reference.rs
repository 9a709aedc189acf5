//! Complexity: O(size of the definitions) to find references, plus a bounded,
//! memoised suggestion per distinct missing id (see `support::IdHints`).

use crate::check::support::{IdHints, is_canonical, place, ref_text};
use crate::model::Issue;
use crate::model::Value;

declare_check! {
    /// ## What it finds
    /// A reference (`$ref`) anywhere in a node's definition that names a node
    /// the plan does not have.
    ///
    /// ## Why it matters
    /// The step would read nothing at run time: a call would get a missing
    /// argument, a prompt would lose a part. It is usually a typo or a node
    /// removed after the reference was written. The other reference checks
    /// skip such a reference; fix this first.
    ///
    /// ## How to fix
    /// Point the reference at an existing node (the message suggests the
    /// nearest ids), or add the node it names.
    ///
    /// ## Example
    /// ```json
    /// {"id": "post", "kind": "call", "definition": {"tool": "tickets_comment",
    ///   "args": {"text": {"$ref": {"node": "sumarise", "select": "first", "path": "summary"}}}}}
    /// ```
    /// Fixed: `"node": "summarise"`.
    pub MissingReference { code: "missing_reference", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        let g = &cx.graph;
        let hints = IdHints::new(g);
        for hit in cx.literal_hits() {
            let Value::Ref(r) = hit.value else { continue };
            let n = &cx.content.nodes[hit.node];
            if !is_canonical(g, hit.node) || g.index_of(&r.node).is_some() {
                continue;
            }
            out.push(
                Issue::new(CODE,
                    format!(
                        "node `{}` reads {} at {}, but the plan has no node `{}`{}. Point the reference at an existing node, or add `{}`",
                        n.id,
                        ref_text(r),
                        place(&hit.pointer),
                        r.node,
                        hints.for_missing(&r.node),
                        r.node
                    ),
                )
                .node(n.id.clone())
                .at(hit.pointer.clone()),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingReference;
    use crate::check::testing::*;
    use serde_json::json;

    #[test]
    fn fires_on_a_ghost_with_a_suggestion() {
        let p = plan(
            vec![
                entry("start"),
                call_with("fetch", "t", json!({"id": r("strat", Some("x"))}), &["x"]),
                call_with(
                    "ghosty",
                    "t",
                    json!({"a": [1, {"b": r("ghost", None)}]}),
                    &[],
                ),
            ],
            vec![],
        );
        let issues = run_one(&MissingReference, &p);
        assert_eq!(issues.len(), 2);
        assert!(
            issues[0].message.contains("did you mean `start`"),
            "{}",
            issues[0].message
        );
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/args/id"));
        assert_eq!(issues[1].pointer.as_deref(), Some("/definition/args/a/1/b"));
    }

    #[test]
    fn passes_existing_targets() {
        let p = plan(
            vec![
                entry("start"),
                call_with("fetch", "t", json!({"id": r("start", Some("x"))}), &[]),
            ],
            vec![],
        );
        assert!(run_one(&MissingReference, &p).is_empty());
    }
}
