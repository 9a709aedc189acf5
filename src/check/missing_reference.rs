//! Complexity: O(size of the definitions) to find references, plus a bounded,
//! memoised suggestion per distinct missing id (see `check::hints`). Refs-scoped:
//! a node's findings depend on it, the ids it names and their hints.

use crate::check::support::{is_canonical, place, ref_text};
use crate::model::Issue;
use crate::model::Value;
use crate::model::remedy::{Fill, Remedy};

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
    pub MissingReference { code: "missing_reference", severity: Blocking, needs: NOTHING, source: Check, scope: Refs }
    fn run(cx, out) {
        let g = &cx.graph;
        for hit in cx.scoped_literal_hits().iter() {
            let Value::Ref(r) = hit.value else { continue };
            let n = &cx.content.nodes[hit.node];
            if !is_canonical(g, hit.node) || g.index_of(&r.node).is_some() {
                continue;
            }
            let hint = cx.missing_hint(&r.node);
            let path = crate::model::value::dot_path(&hit.pointer);
            let mut issue = Issue::new(CODE,
                format!(
                    "node `{}` reads {} at {}, but the plan has no node `{}`{}",
                    n.id,
                    ref_text(r),
                    place(&hit.pointer),
                    r.node,
                    hint.text
                ),
            )
            .node(n.id.clone())
            .at(hit.pointer.clone());
            issue = issue.fix(match &hint.closest {
                Some(near) => {
                    let mut fixed = (**r).clone();
                    fixed.node = near.clone();
                    Remedy::SetField {
                        node: n.id.to_string(),
                        path,
                        value: Fill::Value(Value::Ref(Box::new(fixed))),
                    }
                    .when(format!("if `{near}` is the node meant"))
                }
                None => Remedy::SetField {
                    node: n.id.to_string(),
                    path,
                    value: Fill::choose("a reference to an existing node"),
                }
                .into(),
            });
            issue = issue.fix(
                Remedy::AddNode {
                    id: Some(r.node.clone()),
                    kind: None,
                }
                .when(format!("if `{}` is a step still to be added", r.node)),
            );
            if let Some(f) = hint.outline_fix() {
                issue = issue.fix(f);
            }
            out.push(issue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingReference;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
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
        let mut fixed = crate::model::Ref::new("start");
        fixed.path = Some("x".into());
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "fetch".into(),
                path: "args.id".into(),
                value: Fill::Value(crate::model::Value::Ref(Box::new(fixed))),
            }
        );
        assert!(
            issues[1].fixes.iter().any(
                |f| matches!(&f.remedy, Remedy::AddNode { id: Some(id), .. } if id == "ghost")
            )
        );
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
