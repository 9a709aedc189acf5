//! Complexity: O(size of the definitions).

use crate::model::Issue;
use crate::model::Value;
use crate::model::value::dot_path;
use crate::wire::convert::{PARAM_KEY, REF_KEY, is_lookalike};

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
                out.push(
                    Issue::new(CODE,
                        format!(
                            "node `{}` has an object with `{key}` and also {} at `{}`; with other keys beside it, `{key}` is not a {} but literal data. Remove {} so the object is only {{\"{key}\": …}}, or rename `{key}` if the literal is intended",
                            n.id,
                            crate::model::suggest::capped_list(&others, 20),
                            dot_path(pointer),
                            if key == REF_KEY { "reference" } else { "template hole" },
                            if others.len() == 1 { "that key" } else { "those keys" }
                        ),
                    )
                    .node(n.id.clone())
                    .at(pointer.clone()),
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
    }

    #[test]
    fn passes_real_references() {
        let c = call_with("c", "t", json!({"id": r("f", None), "x": {"ref": 1}}), &[]);
        assert!(run_one(&RefLookalike, &plan(vec![c], vec![])).is_empty());
    }
}
