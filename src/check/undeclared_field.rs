//! Complexity: O(size of the definitions + Σ declared fields of referenced
//! nodes · refs to them); each target's declared paths are computed once.

use crate::check::support::{is_canonical, place, ref_text};
use crate::model::Issue;
use crate::model::node::path_covered;
use crate::model::remedy::{Fill, Fix, Remedy};
use crate::model::suggest;
use crate::model::value::dot_path;
use crate::model::{Node, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// - A reference whose `path` no declared field of its target covers. A
    ///   path is covered when it equals a declared path or one is a
    ///   dot-prefix of the other (`result.items` is covered by `result`, and
    ///   `result` by `result.items`). Declared fields: entry `input`,
    ///   call/transform `output`, join `via`/`from`/`branch`, and the
    ///   `properties` of a reason node's `outputSchema`. A path into a node
    ///   that declares nothing fires too (the reference implementation skips
    ///   it).
    /// - A name in a call's `declassifies` that is not one of its declared
    ///   outputs (in the same covering sense).
    ///
    /// ## Why it matters
    /// Declared fields are the contract a step's output is checked against.
    /// A path outside it reads something nobody promised, which is missing at
    /// run time or, worse, read from an unchecked shape. A `declassifies`
    /// entry for an undeclared output clears nothing, so the author's intent
    /// to sanitise silently fails.
    ///
    /// ## How to fix
    /// Use one of the declared paths the message lists, or declare the field
    /// on the target (`output` of a call, `input` of the entry, a property of
    /// a reason node's `outputSchema`).
    ///
    /// ## Example
    /// ```json
    /// {"args": {"id": {"$ref": {"node": "fetch", "select": "first", "path": "foo"}}}}
    /// ```
    /// where `fetch` declares only `result`. Fixed: `"path": "result"` (or
    /// `"result.items"`).
    pub UndeclaredField { code: "undeclared_field", severity: Blocking, needs: NOTHING, source: Check, scope: Refs }
    fn run(cx, out) {
        let g = &cx.graph;
        // Each finding with its node, put in node order at the end (a
        // node's references, then its declassifies), as a run over one
        // node at a time (Scope::Refs) gives them.
        let mut found: Vec<(usize, Issue)> = Vec::new();
        for d in cx.scoped_data_refs().iter() {
            let Some(path) = d.r.path.as_deref() else { continue };
            // Once per run per target (many nodes may read one node).
            let paths = cx.declared_paths(d.target);
            if paths.iter().any(|p| path_covered(path, p)) {
                continue;
            }
            let reader = g.node(d.node);
            let target = g.node(d.target);
            let mut fixes = Vec::new();
            let what = if paths.is_empty() {
                match target.kind {
                    NodeKind::Branch | NodeKind::Select => format!(
                        "{} node `{}` produces no output to read (the node its predicate reads does)",
                        target.kind, target.id
                    ),
                    NodeKind::Entry => format!("the entry `{}` declares no input fields", target.id),
                    NodeKind::Reason => format!(
                        "reason node `{}` declares no fields: its `outputSchema` has no `properties`",
                        target.id
                    ),
                    _ => format!("{} node `{}` declares no output fields", target.kind, target.id),
                }
            } else {
                let near = suggest::closest(path, paths.iter().map(String::as_str));
                if let Some(near) = near {
                    let mut fixed = d.r.clone();
                    fixed.path = Some(near.to_string());
                    fixes.push(
                        Remedy::SetField {
                            node: reader.id.to_string(),
                            path: dot_path(&d.pointer),
                            value: Fill::Value(Value::Ref(Box::new(fixed))),
                        }
                        .when(format!("if `{near}` is the field meant")),
                    );
                }
                format!(
                    "`{}` declares {}{}",
                    target.id,
                    suggest::choices(path, paths.iter().map(String::as_str)),
                    near.map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default()
                )
            };
            fixes.extend(declare(target, path));
            found.push((d.node,
                fixes.into_iter().fold(
                    Issue::new(CODE,
                        format!(
                            "node `{}` reads {} at {}, but no declared field of `{}` covers the path `{path}`: {what}",
                            reader.id,
                            ref_text(d.r),
                            place(&d.pointer),
                            target.id
                        ),
                    )
                    .node(reader.id.clone())
                    .at(d.pointer.clone()),
                    Issue::fix,
                ),
            ));
        }
        // Only the nodes in scope: a Refs-scoped run looks at one node
        // at a time (every node here would repeat every finding per node).
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Call || !is_canonical(g, i) {
                continue;
            }
            let Some(Value::Array(names)) = n.get("declassifies") else { continue };
            let outputs = n.declared_paths();
            for (k, name) in names.iter().enumerate() {
                let Some(name) = name.as_str() else { continue };
                if outputs.iter().any(|p| path_covered(name, p)) {
                    continue;
                }
                let near = suggest::closest(name, outputs.iter().map(String::as_str));
                let mut issue = Issue::new(CODE,
                    format!(
                        "call `{}` declassifies `{name}`, which is not one of its declared outputs ({}){}, so it clears nothing",
                        n.id,
                        suggest::choices(name, outputs.iter().map(String::as_str)),
                        near.map(|c| format!(" (did you mean `{c}`?)")).unwrap_or_default(),
                    ),
                )
                .node(n.id.clone())
                .at(format!("/definition/declassifies/{k}"));
                if let Some(near) = near {
                    issue = issue.fix(
                        Remedy::SetField {
                            node: n.id.to_string(),
                            path: format!("declassifies.{k}"),
                            value: Fill::Value(Value::String(near.into())),
                        }
                        .when(format!("if `{near}` is the output meant")),
                    );
                }
                found.push((i, match declare(n, name) {
                    Some(f) => issue.fix(f),
                    None => issue,
                }));
            }
        }
        found.sort_by_key(|(i, _)| *i);
        out.extend(found.into_iter().map(|(_, issue)| issue));
    }
}

/// The fix that declares `path` on `target`, for the kinds whose declared
/// fields the author writes (a join's are fixed; branches and selects have
/// none).
fn declare(target: &Node, path: &str) -> Option<Fix> {
    let (field, value) = match target.kind {
        NodeKind::Entry => (
            "input".to_string(),
            format!("its input fields, with `{path}` among them"),
        ),
        NodeKind::Call | NodeKind::Transform => (
            "output".to_string(),
            format!("its output fields, with `{path}` among them"),
        ),
        NodeKind::Reason => {
            let first = path.split('.').next().unwrap_or(path);
            (
                format!("outputSchema.properties.{first}"),
                "a JSON Schema for it".to_string(),
            )
        }
        NodeKind::Join | NodeKind::Branch | NodeKind::Select => return None,
    };
    Some(
        Remedy::SetField {
            node: target.id.to_string(),
            path: field,
            value: Fill::choose(value),
        }
        .when(format!("to declare `{path}` on `{}`", target.id)),
    )
}

#[cfg(test)]
mod tests {
    use super::UndeclaredField;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    fn fetch() -> crate::model::Node {
        call_with("fetch", "t", json!({}), &["result"])
    }

    #[test]
    fn fires_on_uncovered_paths_and_declassifies() {
        let reader = call_with(
            "use",
            "t",
            json!({"a": r("fetch", Some("foo")), "b": r("route", Some("x"))}),
            &["out"],
        );
        let route = node(
            "route",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {}}),
        );
        let mut declass = call_with("clean", "t", json!({}), &["safe"]);
        declass.definition.insert(
            "declassifies".into(),
            crate::model::Value::Array(vec!["saf".into()]),
        );
        let p = plan(vec![fetch(), route, reader, declass], vec![]);
        let issues = run_one(&UndeclaredField, &p);
        assert_eq!(issues.len(), 3);
        assert!(issues[0].message.contains("`result`"));
        assert!(issues[1].message.contains("produces no output"));
        assert!(issues[2].message.contains("did you mean `safe`"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "fetch".into(),
                path: "output".into(),
                value: Fill::choose("its output fields, with `foo` among them"),
            }
        );
        assert!(issues[1].fixes.is_empty());
        assert_eq!(
            issues[2].fixes[0].remedy,
            Remedy::SetField {
                node: "clean".into(),
                path: "declassifies.0".into(),
                value: Fill::Value(crate::model::Value::String("safe".into())),
            }
        );
        assert_eq!(
            issues[2].pointer.as_deref(),
            Some("/definition/declassifies/0")
        );
    }

    #[test]
    fn passes_covered_paths_both_ways() {
        let reader = call_with(
            "use",
            "t",
            json!({"a": r("fetch", Some("result.items")), "b": r("fetch", Some("result")), "c": r("fetch", None)}),
            &[],
        );
        let reason = node(
            "think",
            NodeKind::Reason,
            json!({"prompt": [r("fetch", Some("result"))], "maxAttempts": 1,
                   "outputSchema": {"type": "object", "properties": {"verdict": {"type": "object", "properties": {"ok": {}}}}}}),
        );
        let reader2 = call_with(
            "use2",
            "t",
            json!({"a": r("think", Some("verdict.ok"))}),
            &[],
        );
        let p = plan(vec![fetch(), reader, reason, reader2], vec![]);
        assert!(run_one(&UndeclaredField, &p).is_empty());
    }
}
