//! Complexity: O(size of the definitions); near-miss node ids for shorthand
//! strings are looked up with the shared, budgeted hints (`check::hints`).
//! Refs-scoped: a node's findings depend on it, the ids it names and their hints.

use crate::check::support::LiteralHit;
use crate::model::remedy::{Fill, Remedy};
use crate::model::value::dot_path;
use crate::model::{Issue, Node, NodeKind, Ref, Value};
use crate::wire::convert::{PARAM_KEY, REF_KEY, is_lookalike, lookalike_meant};

declare_check! {
    /// ## What it finds
    /// A value that looks like a reference but is literal data, anywhere in
    /// a definition. Advisory. Two shapes:
    ///
    /// - an object holding `$ref` or `$param` beside other keys;
    /// - a string, where a reference may stand (a call's `args`, a reason's
    ///   `prompt` parts, a transform's `source`), that is `@` followed by a
    ///   node id and optionally a select in brackets and a dot path (the
    ///   command line's way of typing a reference), when the plan has that
    ///   node or one whose id is a near miss of it. An e-mail address, a
    ///   string with spaces, or `@` alone is not such a string.
    ///
    /// ## Why it matters
    /// A reference is exactly `{"$ref": {…}}` with no other key; anything else
    /// is kept as a literal object. So this is passed to the tool as data,
    /// not read from another node — almost always a mistake, such as a
    /// comment key added next to a reference. A string is always a string
    /// in a plan document or a tool call: only the command line reads the `@`
    /// form as a reference, so the tool would receive the characters, not the
    /// other node's output.
    ///
    /// ## How to fix
    /// Remove the other keys so the object is just `{"$ref": {…}}` (or
    /// `{"$param": {…}}` in a template). If the literal is intended, rename
    /// the `$ref` key. For a string, set the field to the reference object the
    /// finding gives, `{"$ref": {"node": …, "select": …, "path": …}}`.
    ///
    /// ## Example
    /// ```json
    /// {"args": {"id": {"$ref": {"node": "fetch", "select": "first", "path": "id"}, "note": "ticket id"}}}
    /// ```
    /// Fixed: `{"args": {"id": {"$ref": {"node": "fetch", "select": "first", "path": "id"}}}}`.
    ///
    /// ```json
    /// {"args": {"body": "\u0040fetch[last]"}}
    /// ```
    /// (`\u0040` is `@`.) Fixed: `{"args": {"body": {"$ref": {"node": "fetch", "select": "last"}}}}`.
    pub RefLookalike { code: "ref_lookalike", severity: Advisory, needs: NOTHING, source: Check, scope: Refs }
    fn run(cx, out) {
        for hit in cx.scoped_literal_hits().iter() {
            let n = &cx.content.nodes[hit.node];
            match hit.value {
                Value::Object(m) if is_lookalike(m) => out.push(object(n, &hit.pointer, m)),
                Value::String(s) => {
                    if let Some(issue) = shorthand_string(cx, hit, s) {
                        out.push(issue);
                    }
                }
                _ => {}
            }
        }
    }
}

/// An object with `$ref` or `$param` and other keys.
fn object(n: &Node, pointer: &str, m: &crate::model::Map) -> Issue {
    let key = if m.contains_key(REF_KEY) {
        REF_KEY
    } else {
        PARAM_KEY
    };
    let others: Vec<&str> = m.keys().map(|k| k.as_str()).filter(|k| *k != key).collect();
    let what = if key == REF_KEY {
        "reference"
    } else {
        "template hole"
    };
    let value = match lookalike_meant(m) {
        Some(v) => Fill::Value(v),
        None => Fill::choose(format!("the object with only its `{key}` key")),
    };
    Issue::new(
        CODE,
        format!(
            "node `{}` has an object with `{key}` and also {} at `{}`; with other keys beside it, `{key}` is not a {what} but literal data (renaming `{key}` makes that explicit, if the literal is intended)",
            n.id,
            crate::model::suggest::capped_list(&others, 20),
            dot_path(pointer)
        ),
    )
    .node(n.id.clone())
    .at(pointer.to_string())
    .fix(
        Remedy::SetField {
            node: n.id.to_string(),
            path: dot_path(pointer),
            value,
        }
        .when(format!("to make it a {what}")),
    )
}

/// Whether a reference may stand at `pointer` of `n` (its data places).
fn data_place(n: &Node, pointer: &str) -> bool {
    match n.kind {
        NodeKind::Call => pointer.starts_with("/definition/args/"),
        NodeKind::Reason => pointer
            .strip_prefix("/definition/prompt/")
            .is_some_and(|i| !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit())),
        NodeKind::Transform => pointer == "/definition/source",
        _ => false,
    }
}

/// The reference a string spells in the command line's shorthand, when it
/// is exactly that: `@`, a valid node id, an optional `[select]` and an
/// optional dot path, with no whitespace.
pub(crate) fn shorthand(s: &str) -> Option<Ref> {
    let rest = s.strip_prefix('@')?;
    if rest.chars().any(char::is_whitespace) {
        return None;
    }
    let r = crate::wire::shorthand::reference(rest).ok()?;
    crate::model::ids::is_valid_node_id(&r.node).then_some(r)
}

/// A shorthand string at a data place naming a node the plan has (or a
/// near miss of one): the reference to write instead.
fn shorthand_string(cx: &crate::check::Cx, hit: &LiteralHit, s: &str) -> Option<Issue> {
    let n = &cx.content.nodes[hit.node];
    if !data_place(n, &hit.pointer) {
        return None;
    }
    let mut r = shorthand(s)?;
    let typed = r.node.clone();
    let near = if cx.graph.index_of(&typed).is_some() {
        None
    } else {
        Some(cx.missing_hint(&typed).closest?)
    };
    if let Some(near) = &near {
        r.node = near.clone();
    }
    let what = match &r.path {
        Some(p) => format!("the `{p}` of node `{}`", r.node),
        None => format!("the output of node `{}`", r.node),
    };
    let (named, when) = match &near {
        None => (format!("node `{typed}`"), "to read it".to_string()),
        Some(near) => (
            format!("`{typed}`, which is not a node (did you mean `{near}`?)"),
            format!("if `{near}` is the node meant"),
        ),
    };
    let place = crate::check::support::place(&hit.pointer);
    Some(
        Issue::new(
            CODE,
            format!(
                "node `{}` has, at {place}, a string that spells a reference to {named} in the command line's shorthand; in a plan a string is literal text, so it would receive those characters, not {what}",
                n.id
            ),
        )
        .node(n.id.clone())
        .at(hit.pointer.clone())
        .fix(
            Remedy::SetField {
                node: n.id.to_string(),
                path: dot_path(&hit.pointer),
                value: Fill::Value(Value::Ref(Box::new(r))),
            }
            .when(when),
        ),
    )
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

    fn shorthand_plan(value: serde_json::Value) -> crate::model::Content {
        plan(
            vec![
                entry("s"),
                call_with("fetch", "t", json!({}), &["body"]),
                call_with("c", "t", json!({"body": value}), &[]),
            ],
            vec![],
        )
    }

    fn meant(node: &str, select: crate::model::Select, path: Option<&str>) -> Fill {
        let mut r = crate::model::Ref::new(node);
        r.select = select;
        r.path = path.map(str::to_string);
        Fill::Value(crate::model::Value::Ref(Box::new(r)))
    }

    #[test]
    fn fires_on_shorthand_strings_with_the_reference_to_write() {
        use crate::model::Select;
        for (text, node, select, path) in [
            ("@fetch.body", "fetch", Select::First, Some("body")),
            ("@fetch[last].body", "fetch", Select::Last, Some("body")),
            ("@fetch[all]", "fetch", Select::All, None),
            (
                "@fetch[2].body.text",
                "fetch",
                Select::Index(2),
                Some("body.text"),
            ),
            ("@fetc.body", "fetch", Select::First, Some("body")),
        ] {
            let issues = run_one(&RefLookalike, &shorthand_plan(json!(text)));
            assert_eq!(issues.len(), 1, "{text}");
            let i = &issues[0];
            assert_eq!(i.severity(), Severity::Advisory);
            assert_eq!(i.pointer.as_deref(), Some("/definition/args/body"));
            assert!(!i.message.contains('@'), "{}", i.message);
            assert_eq!(
                i.fixes[0].remedy,
                Remedy::SetField {
                    node: "c".into(),
                    path: "args.body".into(),
                    value: meant(node, select, path),
                },
                "{text}"
            );
        }
        // A reason's prompt part, too.
        let r = node(
            "r",
            crate::model::NodeKind::Reason,
            json!({"prompt": ["Summarise", "@fetch.body"]}),
        );
        let p = plan(
            vec![entry("s"), call_with("fetch", "t", json!({}), &["body"]), r],
            vec![],
        );
        assert_eq!(run_one(&RefLookalike, &p).len(), 1);
    }

    #[test]
    fn passes_strings_that_are_not_the_shorthand_of_a_node() {
        for text in [
            "a@b.com",
            "@",
            "@@fetch",
            "@fetch.",
            "@fetch[",
            "@fetch body",
            "@Fetch.body",
            "@zzzzzz.body",
            "mail @fetch.body",
            "fetch.body",
        ] {
            let issues = run_one(&RefLookalike, &shorthand_plan(json!(text)));
            assert!(issues.is_empty(), "{text}: {issues:?}");
        }
        // Not a place a reference may stand: a call's tool name.
        let mut c = call_with("c", "t", json!({}), &[]);
        c.definition
            .insert("tool".into(), crate::model::Value::from("@fetch"));
        let p = plan(vec![call_with("fetch", "t", json!({}), &[]), c], vec![]);
        assert!(run_one(&RefLookalike, &p).is_empty());
    }

    #[test]
    fn passes_real_references() {
        let c = call_with("c", "t", json!({"id": r("f", None), "x": {"ref": 1}}), &[]);
        assert!(run_one(&RefLookalike, &plan(vec![c], vec![])).is_empty());
    }
}
