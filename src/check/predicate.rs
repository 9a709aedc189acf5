//! The built-in `structured` predicate evaluator (SPEC §5): its parser, the
//! validation `evaluator_error` reports, and a total evaluator.
//!
//! A predicate is one of:
//! - a test `{"path": "node.field", "op": OP, "value": V}`, where `OP` is
//!   `eq ne lt lte gt gte in contains` (which need `value`) or `truthy
//!   exists` (which take none); the path's first segment names the node read;
//! - `{"all": [P, …]}`, `{"any": [P, …]}`, `{"not": P}`.
//!
//! Nesting is limited to [`MAX_DEPTH`] levels. A `select` predicate is an
//! object mapping each case label to a predicate. A helper, not an issue
//! code (it is not in `CHECKS`).

use crate::model::suggest;
use crate::model::value::push_pointer_token;
use crate::model::{Map, Value};

/// How deep combinators may nest.
pub(crate) const MAX_DEPTH: usize = 256;

/// The id of this evaluator.
pub(crate) const STRUCTURED: &str = crate::model::registry::STRUCTURED;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Eq,
    Ne,
    Lt,
    Lte,
    Gt,
    Gte,
    In,
    Contains,
    Truthy,
    Exists,
}

impl Op {
    pub(crate) const NAMES: [&'static str; 10] = [
        "eq", "ne", "lt", "lte", "gt", "gte", "in", "contains", "truthy", "exists",
    ];
    const ALL: [Op; 10] = [
        Op::Eq,
        Op::Ne,
        Op::Lt,
        Op::Lte,
        Op::Gt,
        Op::Gte,
        Op::In,
        Op::Contains,
        Op::Truthy,
        Op::Exists,
    ];

    pub(crate) fn parse(s: &str) -> Option<Op> {
        Op::NAMES.iter().position(|n| *n == s).map(|i| Op::ALL[i])
    }
    pub(crate) fn as_str(self) -> &'static str {
        Op::NAMES[self as usize]
    }
    /// `truthy` and `exists` read a value and compare it with nothing.
    pub(crate) fn is_unary(self) -> bool {
        matches!(self, Op::Truthy | Op::Exists)
    }
}

/// A parsed predicate, borrowing from its definition.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Predicate<'v> {
    Test {
        path: &'v str,
        op: Op,
        value: Option<&'v Value>,
        /// Pointer of this test, relative to the predicate.
        pointer: String,
    },
    All(Vec<Predicate<'v>>),
    Any(Vec<Predicate<'v>>),
    Not(Box<Predicate<'v>>),
}

impl<'v> Predicate<'v> {
    /// Every test's path with its pointer (relative to the predicate).
    pub(crate) fn tests(&self) -> Vec<(&'v str, &str)> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(p) = stack.pop() {
            match p {
                Predicate::Test { path, pointer, .. } => out.push((*path, pointer.as_str())),
                Predicate::All(ps) | Predicate::Any(ps) => stack.extend(ps.iter().rev()),
                Predicate::Not(p) => stack.push(p),
            }
        }
        out
    }
}

/// Why a predicate was refused: a sentence for the author and where.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PredicateError {
    /// Relative to the predicate (`/all/1/op`); empty for the predicate itself.
    pub(crate) pointer: String,
    pub(crate) message: String,
}

const KEYS: [&str; 6] = ["path", "op", "value", "all", "any", "not"];
const SHAPE: &str = r#"a test {"path": "node.field", "op": "eq", "value": …} or {"all": [ … ]}, {"any": [ … ]}, {"not": { … }}"#;

/// Parses a structured predicate. Never panics; a refusal says what to do.
pub(crate) fn parse(v: &Value) -> Result<Predicate<'_>, PredicateError> {
    let mut ptr = String::new();
    parse_at(v, &mut ptr, 0)
}

fn err(ptr: &str, message: String) -> PredicateError {
    PredicateError {
        pointer: ptr.to_string(),
        message,
    }
}

fn child(ptr: &str, key: &str) -> String {
    let mut p = ptr.to_string();
    p.push('/');
    push_pointer_token(&mut p, key);
    p
}

fn parse_at<'v>(
    v: &'v Value,
    ptr: &mut String,
    depth: usize,
) -> Result<Predicate<'v>, PredicateError> {
    if depth > MAX_DEPTH {
        return Err(err(
            ptr,
            format!(
                "the predicate nests more than {MAX_DEPTH} levels deep; flatten it: `all` and `any` take a list, so a chain of them can be a single one with several members"
            ),
        ));
    }
    let Some(m) = v.as_object() else {
        return Err(err(
            ptr,
            format!(
                "found {} where a predicate is expected; write {SHAPE}",
                v.type_name()
            ),
        ));
    };
    for k in m.keys() {
        if !KEYS.contains(&k.as_str()) {
            return Err(err(
                &child(ptr, k),
                format!(
                    "`{k}` is not a predicate key{}; a predicate is {SHAPE}",
                    suggest::did_you_mean(k, KEYS)
                ),
            ));
        }
    }
    let test = ["path", "op", "value"].iter().any(|k| m.contains_key(k));
    let mut forms: Vec<&str> = ["all", "any", "not"]
        .into_iter()
        .filter(|k| m.contains_key(k))
        .collect();
    if test {
        forms.insert(0, "a test (path/op)");
    }
    match forms.len() {
        0 => {
            return Err(err(
                ptr,
                format!("this object is not a predicate (it is empty); write {SHAPE}"),
            ));
        }
        1 => {}
        _ => {
            return Err(err(
                ptr,
                format!(
                    "this object mixes {}; a predicate object must be exactly one form — to combine tests, list them in `all` or `any`",
                    forms.join(" and ")
                ),
            ));
        }
    }
    if test {
        return parse_test(m, ptr);
    }
    if let Some(inner) = m.get("not") {
        let len = ptr.len();
        ptr.push_str("/not");
        let p = parse_at(inner, ptr, depth + 1)?;
        ptr.truncate(len);
        return Ok(Predicate::Not(Box::new(p)));
    }
    let (key, list) = m
        .get("all")
        .map(|l| ("all", l))
        .or_else(|| m.get("any").map(|l| ("any", l)))
        .expect("one combinator form");
    let Some(items) = list.as_array() else {
        return Err(err(
            &child(ptr, key),
            format!(
                "`{key}` takes a list of predicates, not {}; write {{\"{key}\": [ … ]}}",
                list.type_name()
            ),
        ));
    };
    let mut members = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let len = ptr.len();
        ptr.push('/');
        ptr.push_str(key);
        ptr.push('/');
        ptr.push_str(&i.to_string());
        members.push(parse_at(item, ptr, depth + 1)?);
        ptr.truncate(len);
    }
    Ok(if key == "all" {
        Predicate::All(members)
    } else {
        Predicate::Any(members)
    })
}

fn parse_test<'v>(m: &'v Map, ptr: &str) -> Result<Predicate<'v>, PredicateError> {
    let path = match m.get("path") {
        Some(Value::String(p)) => p.as_str(),
        Some(other) => {
            return Err(err(
                &child(ptr, "path"),
                format!(
                    "a test's `path` is a dot-path string such as \"fetch.status\", not {}",
                    other.type_name()
                ),
            ));
        }
        None => {
            return Err(err(
                ptr,
                "this test has no `path`; add the dot path it reads, whose first segment is the node (e.g. \"fetch.status\")".into(),
            ));
        }
    };
    if path.is_empty() || path.split('.').any(str::is_empty) {
        return Err(err(
            &child(ptr, "path"),
            format!(
                "the path {path:?} has an empty segment; write node and fields separated by single dots, e.g. \"fetch.status\""
            ),
        ));
    }
    let op = match m.get("op") {
        Some(Value::String(s)) => Op::parse(s).ok_or_else(|| {
            err(
                &child(ptr, "op"),
                format!(
                    "`{s}` is not an op{}; use one of {}",
                    suggest::did_you_mean(s, Op::NAMES),
                    Op::NAMES.join(", ")
                ),
            )
        })?,
        Some(other) => {
            return Err(err(
                &child(ptr, "op"),
                format!(
                    "`op` is a string (one of {}), not {}",
                    Op::NAMES.join(", "),
                    other.type_name()
                ),
            ));
        }
        None => {
            return Err(err(
                ptr,
                format!(
                    "the test on {path:?} has no `op`; add one of {}",
                    Op::NAMES.join(", ")
                ),
            ));
        }
    };
    let value = m.get("value");
    match (op.is_unary(), value) {
        (true, Some(_)) => {
            return Err(err(
                &child(ptr, "value"),
                format!(
                    "op `{}` takes no `value` (it only looks at {path:?}); remove `value`, or use `eq` to compare with it",
                    op.as_str()
                ),
            ));
        }
        (false, None) => {
            return Err(err(
                ptr,
                format!(
                    "op `{}` compares {path:?} with a `value`, and this test has none; add `value`",
                    op.as_str()
                ),
            ));
        }
        _ => {}
    }
    if let Some(v) = value {
        let mut holds_ref = false;
        v.walk(&mut crate::model::value::Pointer::new(""), &mut |_, x| {
            holds_ref |= matches!(x, Value::Ref(_) | Value::Param(_));
        });
        if holds_ref {
            return Err(err(
                &child(ptr, "value"),
                "`value` must be a literal; a predicate reads other nodes only through `path`"
                    .into(),
            ));
        }
        if op == Op::In && v.as_array().is_none() {
            return Err(err(
                &child(ptr, "value"),
                format!(
                    "op `in` tests membership, so `value` must be a list of allowed values, not {}",
                    v.type_name()
                ),
            ));
        }
    }
    Ok(Predicate::Test {
        path,
        op,
        value,
        pointer: ptr.to_string(),
    })
}

/// The predicates of a `select`, one per case label, and the problems:
/// a predicate that is not an object of labels, a label without an entry, an
/// entry that does not parse. Keys that are not labels are ignored.
pub(crate) fn parse_select<'v>(
    v: &'v Value,
    cases: &[&str],
) -> (Vec<(String, Predicate<'v>)>, Vec<PredicateError>) {
    let mut ok = Vec::new();
    let mut problems = Vec::new();
    let Some(m) = v.as_object() else {
        problems.push(err(
            "",
            format!(
                "a select's structured predicate maps each case label to a predicate, like {{\"{}\": {{\"path\": \"node.field\", \"op\": \"eq\", \"value\": …}}}}; found {}",
                cases.first().copied().unwrap_or("label"),
                v.type_name()
            ),
        ));
        return (ok, problems);
    };
    let extra: Vec<&str> = m
        .keys()
        .map(|k| k.as_str())
        .filter(|k| !cases.contains(k))
        .collect();
    for label in cases {
        match m.get(label) {
            None => problems.push(err(
                "",
                format!(
                    "the case `{label}` has no predicate{}; add an entry `{label}` to the predicate, or remove the case",
                    suggest::did_you_mean(label, extra.iter().copied())
                ),
            )),
            Some(p) => {
                let mut ptr = child("", label);
                match parse_at(p, &mut ptr, 0) {
                    Ok(pred) => ok.push((label.to_string(), pred)),
                    Err(mut e) => {
                        e.message = format!("case `{label}`: {}", e.message);
                        problems.push(e);
                    }
                }
            }
        }
    }
    (ok, problems)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    fn v(j: serde_json::Value) -> Value {
        crate::wire::convert::from_json(&j, "").unwrap()
    }

    #[test]
    fn parses_every_form() {
        let p = v(json!({"all": [
            {"path": "t.status", "op": "eq", "value": "open"},
            {"not": {"path": "t.none", "op": "truthy"}},
            {"any": [{"path": "t.count", "op": "in", "value": [1, 3]}]}
        ]}));
        let parsed = parse(&p).unwrap();
        let tests = parsed.tests();
        assert_eq!(tests.len(), 3);
        assert_eq!(tests[0], ("t.status", "/all/0"));
        assert_eq!(tests[2], ("t.count", "/all/2/any/0"));
    }

    #[test]
    fn refusals_say_what_to_do() {
        for (j, ptr, needle) in [
            (
                json!({"path": "x", "op": "truthy", "value": 1}),
                "/value",
                "takes no `value`",
            ),
            (json!({"path": "x", "op": "eq"}), "", "add `value`"),
            (
                json!({"path": "x", "op": "eqq", "value": 1}),
                "/op",
                "did you mean `eq`",
            ),
            (
                json!({"path": "x", "op": "eq", "value": 1, "all": []}),
                "",
                "exactly one form",
            ),
            (
                json!({"all": {"path": "x", "op": "exists"}}),
                "/all",
                "list",
            ),
            (
                json!({"all": [{"path": "x", "op": "exists"}, 3]}),
                "/all/1",
                "a number",
            ),
            (json!({}), "", "empty"),
            (json!({"pth": "x"}), "/pth", "did you mean `path`"),
            (
                json!({"path": "a..b", "op": "exists"}),
                "/path",
                "empty segment",
            ),
            (
                json!({"path": "a", "op": "in", "value": "x"}),
                "/value",
                "list",
            ),
            (json!("x == 1"), "", "a string"),
        ] {
            let e = parse(&v(j.clone())).unwrap_err();
            assert_eq!(e.pointer, ptr, "{j}");
            assert!(e.message.contains(needle), "{j}: {}", e.message);
        }
    }

    /// A chain of `depth` nots around one test, built directly (the wire
    /// parser refuses documents this deep before a check could see them).
    pub(crate) fn not_chain(depth: usize) -> Value {
        let mut p = v(json!({"path": "t.status", "op": "exists"}));
        for _ in 0..depth {
            let mut m = Map::new();
            m.insert("not".into(), p);
            p = Value::Object(m);
        }
        p
    }

    #[test]
    fn depth_is_capped_at_256() {
        assert!(parse(&not_chain(MAX_DEPTH)).is_ok());
        let e = parse(&not_chain(MAX_DEPTH + 1)).unwrap_err();
        assert!(e.message.contains("flatten"));
    }
}
