//! A document read again where it changed is the document read whole:
//! its value, its decoding and its findings, after random edits of
//! generated YAML plan documents (chains of them, each read from the last).

use super::{How, Rereads};
use crate::forge::validate::{self, Options};
use crate::wire::Syntax;
use crate::wire::codec;
use proptest::prelude::*;
use std::sync::Arc;

/// Block-style YAML of a JSON value, as people write plan documents, in
/// one of a few styles (`style`: bits choosing flow-style items, block
/// scalars for strings with line breaks, comments between items, and the
/// items at the key's own indentation).
fn to_yaml(v: &serde_json::Value, style: u8) -> String {
    let mut out = String::new();
    let top = v.as_object().expect("a document is an object");
    for (k, x) in top {
        out.push_str(k);
        out.push(':');
        let indent = if style & 8 != 0 && x.is_array() { 0 } else { 1 };
        member(x, indent, style, &mut out);
        out.push('\n');
    }
    out
}

fn scalar(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => {
            let plain = !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_./ -".contains(c))
                && s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && !s.ends_with(' ')
                && !["true", "false", "null", "yes", "no", "on", "off", "y", "n"]
                    .contains(&s.to_lowercase().as_str());
            if plain {
                s.clone()
            } else {
                serde_json::to_string(s).expect("a string")
            }
        }
        other => other.to_string(),
    }
}

fn member(x: &serde_json::Value, indent: usize, style: u8, out: &mut String) {
    let pad = "  ".repeat(indent);
    match x {
        serde_json::Value::Object(m) if !m.is_empty() => {
            for (k, v) in m {
                out.push_str(&format!("\n{pad}{}:", scalar(&serde_json::json!(k))));
                member(v, indent + 1, style, out);
            }
        }
        serde_json::Value::Array(a) if !a.is_empty() => {
            for (i, v) in a.iter().enumerate() {
                if style & 4 != 0 && i % 3 == 1 {
                    out.push_str(&format!("\n{pad}# item {i}"));
                }
                out.push_str(&format!("\n{pad}-"));
                match v {
                    serde_json::Value::Object(m)
                        if !m.is_empty() && style & 1 != 0 && i % 2 == 0 =>
                    {
                        out.push(' ');
                        out.push_str(&v.to_string());
                    }
                    serde_json::Value::Object(m) if !m.is_empty() => {
                        let mut sub = String::new();
                        member(v, indent + 1, style, &mut sub);
                        out.push(' ');
                        out.push_str(sub.trim_start_matches('\n').trim_start_matches(' '));
                    }
                    _ => member(v, indent + 1, style, out),
                }
            }
        }
        serde_json::Value::Object(_) => out.push_str(" {}"),
        serde_json::Value::Array(_) => out.push_str(" []"),
        serde_json::Value::String(s) if style & 2 != 0 && s.contains('\n') && !s.contains('\r') => {
            out.push_str(" |-");
            for l in s.split('\n') {
                out.push_str(&format!("\n{pad}{l}"));
            }
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other));
        }
    }
}

fn documents() -> Vec<serde_json::Value> {
    [
        include_str!("../../../examples/documents/ticket_triage.json"),
        include_str!("../../../examples/documents/weekly_report.json"),
    ]
    .iter()
    .map(|t| serde_json::from_str(t).expect("an example document"))
    .collect()
}

/// What is typed: YAML's significant characters, lines of an item, a new
/// item, a top-level key, an anchor and an alias, a tag, a tab.
const TYPED: &[&str] = &[
    "",
    "x",
    "_",
    "1",
    " ",
    "  ",
    "\n",
    "\n      ",
    "\n    extra: 1",
    "\n    - 2",
    "\n  - id: new\n    kind: entry",
    "\n- id: n2",
    "#",
    " # note",
    ":",
    ": ",
    "- ",
    "&a ",
    "*a",
    "!!str ",
    "!custom ",
    "'",
    "\"",
    "{",
    "}",
    "[",
    "]",
    "|",
    ">",
    "\t",
    "call",
    "cal",
    "tickets_gett",
    "\n---\n",
    "\nnodes:",
    "\nlabel: x",
    "$ref",
    "{\"$ref\": {\"node\": 1}}",
    "{$ref: {node: start, select: first}}",
    "9007199254740993",
    "é",
    "?",
    "%",
    "\n...",
];

/// The findings of a check, comparable.
fn findings(t: &validate::Target) -> String {
    format!("{:?} {:?} {:?}", t.findings, t.report, t.failed)
}

/// Applies `edits` one after the other; after each, the document read
/// again from the last version equals the document read whole. Returns
/// how many were read by their item.
fn check_chain(start: String, edits: &[(usize, usize, usize)]) -> Result<usize, TestCaseError> {
    let mut rereads = Rereads::keeping_from(0);
    let mut text = start;
    let (_, how) = rereads.read("doc.yaml", &Arc::from(text.as_str()));
    prop_assert_eq!(how, How::Whole);
    let mut by_item = 0;
    for &(at, cut, typed) in edits {
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        let start = bounds[at % bounds.len()];
        let end = bounds
            .iter()
            .copied()
            .find(|b| *b >= start + cut)
            .unwrap_or(text.len());
        text.replace_range(start..end, TYPED[typed % TYPED.len()]);
        let now: Arc<str> = Arc::from(text.as_str());
        let (read, how) = rereads.read("doc.yaml", &now);
        let whole = codec::document(&now, Syntax::Yaml);
        prop_assert_eq!(
            &read,
            &whole,
            "{:?} after editing at {}: {:?}",
            how,
            start,
            text
        );
        if how == How::Item {
            by_item += 1;
            // The value kept is this version's.
            let kept = &rereads.kept.last().expect("kept").value;
            let value = crate::wire::parse::parse(&now, Syntax::Yaml)
                .and_then(|v| crate::wire::convert::hydrated(v, ""));
            prop_assert_eq!(Ok(kept), value.as_ref(), "{}", text);
        }
        let opts = Options::default();
        let full = validate::check_input("doc.yaml", text.clone(), Syntax::Yaml, None, &opts);
        let again = validate::check_read("doc.yaml", &now, Syntax::Yaml, read, None, None, &opts);
        prop_assert_eq!(findings(&again), findings(&full));
    }
    Ok(by_item)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_document_read_again_where_it_changed_is_the_document_read_whole(
        doc in 0usize..2,
        style in 0u8..16,
        edits in prop::collection::vec((any::<usize>(), 0usize..48, any::<usize>()), 1..5),
    ) {
        let start = to_yaml(&documents()[doc], style);
        check_chain(start, &edits)?;
    }
}

#[test]
fn edits_inside_an_item_read_the_item_and_others_read_the_whole_text() {
    let doc = to_yaml(&documents()[0], 0);
    let tool = doc.find("tool: tickets_get").expect("a tool") + "tool: ".len();
    let read = |edited: String| {
        let mut r = Rereads::keeping_from(0);
        let _ = r.read("d", &Arc::from(doc.as_str()));
        let (got, how) = r.read("d", &Arc::from(edited.as_str()));
        assert_eq!(got, codec::document(&edited, Syntax::Yaml), "{edited}");
        how
    };
    let with = |at: usize, cut: usize, typed: &str| {
        let mut t = doc.clone();
        t.replace_range(at..at + cut, typed);
        t
    };
    // A tool renamed, a member added to the item: the item.
    assert_eq!(read(with(tool, 0, "x")), How::Item);
    assert_eq!(
        read(with(
            tool + "tickets_get".len(),
            0,
            "\n      extra: 1\n      more:"
        )),
        How::Item
    );
    assert_eq!(read(doc.clone()), How::Same);
    // An unknown kind: the item's error is the document's.
    let kind = doc.find("kind: call").expect("a call") + "kind: ".len();
    assert_eq!(read(with(kind, 4, "cal")), How::Item);
    // A second item, an anchor, a top-level key, a dedent, a syntax error:
    // the whole text.
    let item = doc[..tool].rfind("\n  - ").expect("the item's line") + 1;
    assert_eq!(
        read(with(item, 0, "  - id: new\n    kind: entry\n")),
        How::Whole
    );
    assert_eq!(read(with(tool, 0, "&t ")), How::Whole);
    assert_eq!(read(with(0, 0, "label: x\n")), How::Whole);
    assert_eq!(read(with(tool - "      tool: ".len(), 0, "\n")), How::Item);
    assert_eq!(read(with(item, 2, "")), How::Whole);
    assert_eq!(read(with(tool, 0, "'")), How::Whole);
    // Across two items.
    let next = doc[tool..].find("\n  - ").expect("the next item") + tool;
    assert_eq!(read(with(tool, next + 8 - tool, "x")), How::Whole);
}

#[test]
fn typing_in_values_is_read_by_the_item() {
    // Not vacuous: typing at the end of the values inside items (the way
    // most keystrokes are) is read by the item, every time, in every style
    // (and each reading equals the whole one).
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    for round in 0..32 {
        let start = to_yaml(&documents()[round % 2], (round % 16) as u8);
        let mut text = start.clone();
        let mut rereads = Rereads::keeping_from(0);
        let _ = rereads.read("d", &Arc::from(text.as_str()));
        for _ in 0..6 {
            // The end of a line `key: value` inside an item.
            let ends: Vec<usize> = text
                .match_indices('\n')
                .map(|(i, _)| i)
                .filter(|i| {
                    let line = &text[text[..*i].rfind('\n').map_or(0, |s| s + 1)..*i];
                    line.starts_with(' ')
                        && line.split_once(": ").is_some_and(|(_, v)| {
                            v.starts_with(|c: char| c.is_ascii_alphanumeric())
                        })
                })
                .collect();
            let at = ends[next() % ends.len()];
            text.insert_str(at, ["x", "_1", "y z"][next() % 3]);
            let now: Arc<str> = Arc::from(text.as_str());
            let (read, how) = rereads.read("d", &now);
            assert_eq!(read, codec::document(&now, Syntax::Yaml), "{text}");
            if how == How::Refused {
                // A value a reference cannot hold (`index: 0_1`): the
                // next edits are read from the version before.
                break;
            }
            assert_eq!(how, How::Item, "{text}");
        }
    }
}
