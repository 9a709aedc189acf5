//! Complexity: O(size of the definitions).

use crate::model::Issue;
use crate::model::Value;
use crate::model::remedy::{Fill, Remedy};
use crate::model::value::dot_path;
use crate::wire::convert::{PARAM_KEY, REF_KEY, is_lookalike, lookalike_meant};

declare_check! {
    /// ## What it finds
    /// An object holding `$ref` or `$param` beside other keys, anywhere in a
    /// definition. Advisory.
    ///
    /// ## Why it matters
    /// A reference is exactly `{"$ref": {…}}` with no other key; anything else
    /// is kept as a literal object. So this is passed to the tool as data,
    /// not read from another node — almost always a mistake, such as a
    /// comment key added next to a reference.
    ///
    /// ## How to fix
    /// Remove the other keys so the object is just `{"$ref": {…}}` (or
    /// `{"$param": {…}}` in a template). If the literal is intended, rename
    /// the `$ref` key.
    ///
    /// ## Example
    /// ```json
    /// {"args": {"id": {"$ref": {"node": "fetch", "select": "first", "path": "id"}, "note": "ticket id"}}}
    /// ```
    /// Fixed: `{"args": {"id": {"$ref": {"node": "fetch", "select": "first", "path": "id"}}}}`.
    pub RefLookalike { code: "ref_lookalike", severity: Advisory, needs: NOTHING, source: Check }
    fn run(cx, out) {
        for hit in cx.literal_hits() {
            let (n, pointer, v) = (&cx.content.nodes[hit.node], &hit.pointer, hit.value);
            {
                let Value::Object(m) = v else { continue };
                if !is_lookalike(m) {
                    continue;
                }
                let key = if m.contains_key(REF_KEY) { REF_KEY } else { PARAM_KEY };
                let others: Vec<&str> = m.keys().map(String::as_str).filter(|k| *k != key).collect();
                let what = if key == REF_KEY { "reference" } else { "template hole" };
                let value = match lookalike_meant(m) {
                    Some(v) => Fill::Value(v),
                    None => Fill::choose(format!("the object with only its `{key}` key")),
                };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "node `{}` has an object with `{key}` and also {} at `{}`; with other keys beside it, `{key}` is not a {what} but literal data (renaming `{key}` makes that explicit, if the literal is intended)",
                            n.id,
                            crate::model::suggest::capped_list(&others, 20),
                            dot_path(pointer)
                        ),
                    )
                    .node(n.id.clone())
                    .at(pointer.clone())
                    .fix(
                        Remedy::SetField { node: n.id.clone(), path: dot_path(pointer), value }
                            .when(format!("to make it a {what}")),
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RefLookalike;
    use crate::check::testing::*;
    use crate::model::Severity;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn fires_on_extra_keys_beside_ref() {
        let c = call_with(
            "c",
            "t",
            json!({"id": {"$ref": {"node": "f", "select": "first"}, "note": "x"}}),
            &[],
        );
        let issues = run_one(&RefLookalike, &plan(vec![c], vec![]));
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].severity(), Severity::Advisory);
        assert!(issues[0].message.contains("`note`"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::SetField {
                node: "c".into(),
                path: "args.id".into(),
                value: Fill::Value(crate::model::Value::Ref(Box::new(crate::model::Ref::new(
                    "f"
                )))),
            }
        );
    }

    #[test]
    fn passes_real_references() {
        let c = call_with("c", "t", json!({"id": r("f", None), "x": {"ref": 1}}), &[]);
        assert!(run_one(&RefLookalike, &plan(vec![c], vec![])).is_empty());
    }
}
