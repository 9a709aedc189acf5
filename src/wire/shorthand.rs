//! Values typed by people on the command line (SPEC §1.3).
//!
//! `@node`, `@node.path`, `@node[last].path`, `@node[all]`, `@node[2].path`
//! are references (select defaults to `first`); `@node@e1/e2.path` names
//! the execution along the edges `e1` then `e2` (its `branchId`), a join
//! on the route written `j=e3+e4` (the join and its incoming edges). Anything else is read as JSON
//! when it parses as JSON (`3`, `true`, `{"a": 1}`, `"@home"`), and as a plain
//! string otherwise (`fetch_ticket`). Text that starts like JSON (`{`, `[`) but
//! does not parse is refused rather than stored as a string.

use super::parse::ParseError;
use crate::model::{BranchId, Ref, Segment, Select, Value};

fn refuse(message: String) -> ParseError {
    ParseError {
        message,
        pointer: None,
        line: None,
        column: None,
    }
}

/// Parses a CLI value.
pub(crate) fn value(text: &str) -> Result<Value, ParseError> {
    if let Some(rest) = text.strip_prefix('@') {
        return reference(rest).map(|r| Value::Ref(Box::new(r)));
    }
    match super::parse::json(text) {
        Ok(v) => super::convert::hydrated(v, ""),
        Err(e) => {
            let t = text.trim_start();
            // A number JSON cannot hold (`1e400`, `9007199254740993`) is
            // refused, not kept as the string of its digits.
            let number = e.message.contains("too large")
                || e.message.contains("number out of range")
                || e.message.contains("not finite");
            if number || t.starts_with('{') || t.starts_with('[') || t.starts_with('"') {
                Err(e)
            } else {
                Ok(Value::String(text.into()))
            }
        }
    }
}

/// The CLI text of a value, as [`value`] reads it back: a reference as
/// `@node.path` (a `branchId` as `@node@e1/j=e2+e3`), a
/// string as itself unless it would read as something else (then as JSON),
/// anything else as compact JSON. Not shell-quoted.
pub(crate) fn text(v: &Value) -> String {
    match v {
        Value::Ref(r) => {
            let sel = match r.select {
                Select::First => String::new(),
                Select::Last => "[last]".into(),
                Select::All => "[all]".into(),
                Select::Index(n) => format!("[{n}]"),
            };
            let path = r
                .path
                .as_deref()
                .map(|p| format!(".{p}"))
                .unwrap_or_default();
            let route = r
                .branch_id
                .as_ref()
                .map(|b| format!("@{}", route_text(b)))
                .unwrap_or_default();
            format!("@{}{sel}{route}{path}", r.node)
        }
        Value::String(s) if value(s).ok().as_ref() == Some(v) => s.to_string(),
        other => super::json::compact(other),
    }
}

/// A `branchId` as the shorthand writes it: `e1/j=e2+e3/e4`.
pub(crate) fn route_text(b: &BranchId) -> String {
    b.segments
        .iter()
        .map(|s| match s {
            Segment::Edge(e) => e.clone(),
            Segment::Join { join, of } => format!("{join}={}", of.join("+")),
        })
        .collect::<Vec<_>>()
        .join("/")
}

const FORMS: &str = "@node, @node.path, @node[last].path, @node[all], @node[2].path or @node@e1/e2.path (the execution along edges e1, e2)";

/// Parses the route after `@node[…]@`: edge ids separated by `/`, a join
/// as `j=e1+e2`.
fn route(s: &str, whole: &str) -> Result<BranchId, ParseError> {
    let bad = |why: &str| {
        refuse(format!(
            "`@{whole}` has the route `{s}`, which {why}; write the edges from the entry as @node@e1/e2.path, a join on the way as j=e3+e4 (the join and its incoming edges)"
        ))
    };
    let mut segments = Vec::new();
    for seg in s.split('/') {
        if let Some((join, of)) = seg.split_once('=') {
            if !crate::model::ids::is_valid_node_id(join) {
                return Err(bad(&format!(
                    "names `{join}` as a join, which is not a node id"
                )));
            }
            let mut of: Vec<String> = of.split('+').map(str::to_string).collect();
            if of.iter().any(|e| !crate::model::ids::is_valid_edge_id(e)) {
                return Err(bad(&format!(
                    "lists `{seg}`, whose incoming edges are not all edge ids"
                )));
            }
            of.sort();
            segments.push(Segment::Join {
                join: join.to_string(),
                of,
            });
        } else if crate::model::ids::is_valid_edge_id(seg) {
            segments.push(Segment::Edge(seg.to_string()));
        } else {
            return Err(bad(&format!("has `{seg}`, which is not an edge id")));
        }
    }
    Ok(BranchId { segments })
}

/// Parses the part after `@`.
pub(crate) fn reference(s: &str) -> Result<Ref, ParseError> {
    let (node_part, rest) = match s.find(['[', '.', '@']) {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, ""),
    };
    if node_part.is_empty() {
        return Err(refuse(format!(
            "`@{s}` names no node; a reference is written {FORMS}"
        )));
    }
    let mut r = Ref::new(node_part);
    let mut rest = rest;
    if let Some(inner) = rest.strip_prefix('[') {
        let close = inner
            .find(']')
            .ok_or_else(|| refuse(format!("`@{s}` has an unclosed `[`; write {FORMS}")))?;
        let sel = &inner[..close];
        r.select = match sel {
            "first" => Select::First,
            "last" => Select::Last,
            "all" => Select::All,
            n => Select::Index(
                n.parse::<u64>()
                    .ok()
                    .filter(|i| (*i as f64) <= crate::model::value::MAX_SAFE_INTEGER)
                    .ok_or_else(|| {
                        refuse(format!(
                            "`@{s}` selects `[{n}]`; use [first], [last], [all] or an index like [2] (at most 2^53−1)"
                        ))
                    })?,
            ),
        };
        rest = &inner[close + 1..];
    }
    if let Some(after) = rest.strip_prefix('@') {
        let end = after.find('.').unwrap_or(after.len());
        r.branch_id = Some(route(&after[..end], s)?);
        rest = &after[end..];
    }
    if !rest.is_empty() {
        let path = rest
            .strip_prefix('.')
            .ok_or_else(|| refuse(format!("`@{s}` has `{rest}` after the node; write {FORMS}")))?;
        if path.is_empty() || path.split('.').any(str::is_empty) {
            return Err(refuse(format!(
                "`@{s}` has an empty path segment; write {FORMS}"
            )));
        }
        r.path = Some(path.to_string());
    }
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorthand_forms() {
        let r = reference("fetch").unwrap();
        assert_eq!(
            (r.node.as_str(), &r.select, r.path.as_deref()),
            ("fetch", &Select::First, None)
        );
        let r = reference("fetch.body.text").unwrap();
        assert_eq!(r.path.as_deref(), Some("body.text"));
        let r = reference("fetch[last].id").unwrap();
        assert_eq!((r.select, r.path.as_deref()), (Select::Last, Some("id")));
        assert_eq!(reference("fetch[all]").unwrap().select, Select::All);
        assert_eq!(reference("fetch[2].x").unwrap().select, Select::Index(2));
        assert!(reference("fetch[middle]").is_err());
        assert!(reference("").is_err());
        assert!(reference("a..b").is_err());
        let r = reference("after[last]@e1/j=e4+e3/e5.x").unwrap();
        assert_eq!((r.select, r.path.as_deref()), (Select::Last, Some("x")));
        assert_eq!(
            r.branch_id.unwrap().segments,
            vec![
                Segment::Edge("e1".into()),
                Segment::Join {
                    join: "j".into(),
                    of: vec!["e3".into(), "e4".into()]
                },
                Segment::Edge("e5".into()),
            ]
        );
        for bad in ["a@", "a@e1//e2", "a@J=e1", "a@e1.", "a@e1="] {
            assert!(reference(bad).is_err(), "{bad}");
        }
        assert!(reference("a@e1").unwrap().branch_id.is_some());
    }

    #[test]
    fn text_reads_back_as_the_same_value() {
        for t in [
            "@fetch",
            "@fetch.body",
            "@fetch[last].id",
            "@fetch[all]",
            "@fetch[2].x",
            "@fetch@e1/j=e2+e3.x",
            "@fetch[all]@e1",
            "tickets_get",
            "\"@home\"",
            "\"true\"",
            "\"3\"",
            "true",
            "3",
            "[1,2]",
            "{\"a\":1}",
            "null",
            "two words",
        ] {
            let v = value(t).unwrap();
            assert_eq!(text(&v), t, "{t}");
            assert_eq!(value(&text(&v)).unwrap(), v, "{t}");
        }
    }

    #[test]
    fn plain_values() {
        assert_eq!(value("3").unwrap(), Value::Number(3.0));
        assert_eq!(
            value("fetch_ticket").unwrap(),
            Value::String("fetch_ticket".into())
        );
        assert_eq!(value("\"@home\"").unwrap(), Value::String("@home".into()));
        assert!(matches!(value("@a.b").unwrap(), Value::Ref(_)));
        assert!(value("{\"a\": ").is_err());
        // Numbers a plan cannot hold are refused, not turned into strings.
        assert!(value("1e400").is_err());
        assert!(value("9007199254740993").is_err());
        assert!(value("-1e999").is_err());
        assert_eq!(
            value("2024-01-01").unwrap(),
            Value::String("2024-01-01".into())
        );
        assert!(reference("fetch[9007199254740992]").is_err());
        assert_eq!(
            reference("fetch[9007199254740991]").unwrap().select,
            Select::Index(9007199254740991)
        );
        assert!(value(r#"{"$ref": "x"}"#).is_err());
    }
}
