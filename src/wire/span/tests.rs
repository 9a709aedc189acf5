//! Tests of spans: JSON and YAML pointers, positions, offsets.

use super::lines::position;

#[test]
fn columns_count_characters_on_long_lines_fast_and_right() {
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(if i % 3 == 0 { "é€𝄞x" } else { "abc" });
    }
    text.push_str("\nzé\n");
    let lines = Lines::new(&text);
    for (off, _) in text.char_indices().step_by(37) {
        let start = text[..off].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let want = text[start..off].chars().count() + 1;
        assert_eq!(lines.position(&text, off).column, want, "offset {off}");
    }
}

use super::lines::Lines;
use super::*;
use crate::wire::parse::Syntax;

fn text_at<'a>(text: &'a str, syntax: Syntax, pointer: &str) -> &'a str {
    let idx = SpanIndex::new(text, syntax).expect("indexes");
    let s = idx.find(pointer).unwrap_or_else(|| panic!("{pointer}"));
    &text[s.start..s.end]
}

const JSON: &str = r#"{
  "nodes": [
    {"id": "a", "kind": "entry"},
    {"id": "b\u00e9", "definition": {"tool": "x", "a/b": [1, 2.5e3, null], "t~": true}},
    {"id": "é☃", "definition": {"tool": "tickets_gett"}}
  ],
  "edges": []
}"#;

#[test]
fn json_pointers_land_on_their_values() {
    assert_eq!(text_at(JSON, Syntax::Json, "/nodes/0/id"), "\"a\"");
    assert_eq!(
        text_at(JSON, Syntax::Json, "/nodes/1/definition/a~1b/1"),
        "2.5e3"
    );
    assert_eq!(
        text_at(JSON, Syntax::Json, "/nodes/1/definition/t~0"),
        "true"
    );
    assert_eq!(
        text_at(JSON, Syntax::Json, "/nodes/0"),
        r#"{"id": "a", "kind": "entry"}"#
    );
    assert_eq!(text_at(JSON, Syntax::Json, "/edges"), "[]");
    assert_eq!(text_at(JSON, Syntax::Json, ""), JSON);
}

#[test]
fn positions_count_characters() {
    let idx = SpanIndex::new(JSON, Syntax::Json).unwrap();
    let l = idx.locate("/nodes/2/definition/tool").unwrap();
    assert!(l.exact);
    assert_eq!(&JSON[l.span.start..l.span.end], "\"tickets_gett\"");
    // `    {"id": "é☃", "definition": {"tool": ` is 40 characters.
    assert_eq!(
        l.start,
        Position {
            line: 5,
            column: 41
        }
    );
    assert_eq!(
        l.end,
        Position {
            line: 5,
            column: 55
        }
    );
}

#[test]
fn missing_members_fall_back_to_the_nearest_parent() {
    let idx = SpanIndex::new(JSON, Syntax::Json).unwrap();
    let l = idx.locate("/nodes/0/definition/tool").unwrap();
    assert!(!l.exact);
    assert_eq!(l.pointer, "/nodes/0");
    assert_eq!(idx.find("/nodes/9"), None);
    assert_eq!(idx.find("nodes"), None);
    let k = idx.key_span("/nodes/1/definition/tool").unwrap();
    assert_eq!(&JSON[k.start..k.end], "\"tool\"");
}

#[test]
fn escaped_keys_are_decoded() {
    let t = r#"{"a\"b": 1, "\ud83d\ude00": 2}"#;
    assert_eq!(text_at(t, Syntax::Json, "/a\"b"), "1");
    assert_eq!(text_at(t, Syntax::Json, "/😀"), "2");
    // Lone surrogates never panic.
    let t = r#"{"\ud83d\u0041": 1, "\udc00": 2, "\ud83d": 3}"#;
    assert_eq!(text_at(t, Syntax::Json, "/\u{fffd}A"), "1");
    assert!(SpanIndex::new(t, Syntax::Json).is_some());
}

const YAML: &str = "formatVersion: 1
nodes:
  - id: start
    kind: entry
    definition: {input: []}
  - id: \"é☃\"
    kind: call
    definition:
      tool: 'tickets_gett'
      text: |
        hello
        world
      empty:
edges: [{id: e1, from: a, to: b}]
";

#[test]
fn yaml_pointers_land_on_their_values() {
    assert_eq!(text_at(YAML, Syntax::Yaml, "/nodes/0/id"), "start");
    assert_eq!(text_at(YAML, Syntax::Yaml, "/nodes/1/id"), "\"é☃\"");
    assert_eq!(
        text_at(YAML, Syntax::Yaml, "/nodes/1/definition/tool"),
        "'tickets_gett'"
    );
    assert_eq!(
        text_at(YAML, Syntax::Yaml, "/nodes/1/definition/text"),
        "hello\n        world"
    );
    assert_eq!(
        text_at(YAML, Syntax::Yaml, "/nodes/0/definition"),
        "{input: []}"
    );
    assert_eq!(
        text_at(YAML, Syntax::Yaml, "/nodes/0/definition/input"),
        "[]"
    );
    assert_eq!(text_at(YAML, Syntax::Yaml, "/edges/0/to"), "b");
    assert_eq!(
        text_at(YAML, Syntax::Yaml, "/edges"),
        "[{id: e1, from: a, to: b}]"
    );
    assert_eq!(
        text_at(YAML, Syntax::Yaml, "/nodes/1/definition/empty"),
        "empty"
    );
    let n1 = text_at(YAML, Syntax::Yaml, "/nodes/1");
    assert!(
        n1.starts_with("id: \"é☃\"") && n1.ends_with("empty"),
        "{n1}"
    );
}

#[test]
fn yaml_positions_are_one_based_characters() {
    let l = locate(YAML, Syntax::Yaml, "/nodes/1/definition/tool").unwrap();
    assert_eq!(
        l.start,
        Position {
            line: 9,
            column: 13
        }
    );
    assert_eq!(
        l.end,
        Position {
            line: 9,
            column: 27
        }
    );
    let l = locate(YAML, Syntax::Yaml, "/nodes/1/kind").unwrap();
    assert_eq!(
        l.start,
        Position {
            line: 7,
            column: 11
        }
    );
}

#[test]
fn offsets_and_positions_agree() {
    let t = "ab\né☃x\n";
    assert_eq!(position(t, 0), Position { line: 1, column: 1 });
    let x = t.find('x').unwrap();
    assert_eq!(position(t, x), Position { line: 2, column: 3 });
    assert_eq!(offset(t, 2, 3), Some(x));
    assert_eq!(offset(t, 2, 99), Some(t.len() - 1));
    assert_eq!(offset(t, 9, 1), None);
}

#[test]
fn unreadable_text_has_no_index() {
    assert!(SpanIndex::new("{\"a\": ", Syntax::Json).is_none());
    assert!(SpanIndex::new("[1, 2", Syntax::Json).is_none());
    let deep = "[".repeat(1000) + &"]".repeat(1000);
    assert!(SpanIndex::new(&deep, Syntax::Json).is_none());
}

#[test]
fn a_cursor_names_the_innermost_key_or_value() {
    let text = r#"{"nodes": [{"id": "a", "definition": {"x": {"$ref": {"node": "b\u00e9"}}}}]}"#;
    let idx = SpanIndex::new(text, Syntax::Json).unwrap();
    let on = |needle: &str, plus: usize| idx.cursor(text.find(needle).unwrap() + plus).unwrap();
    let c = on(r#""a""#, 1);
    assert_eq!(
        (c.pointer.as_str(), c.on_key, c.scalar),
        ("/nodes/0/id", false, true)
    );
    let c = on(r#""definition""#, 2);
    assert_eq!(
        (c.pointer.as_str(), c.on_key),
        ("/nodes/0/definition", true)
    );
    let c = on(r#""b\u00e9""#, 1);
    assert_eq!(c.pointer, "/nodes/0/definition/x/$ref/node");
    assert_eq!(idx.scalar_text(c.span).as_deref(), Some("bé"));
    assert_eq!(on("[", 0).pointer, "/nodes", "on the list itself");
    assert!(idx.cursor(text.len() + 5).is_none());
    let refs = idx.refs_under("/nodes/0/definition");
    assert_eq!(refs.len(), 1);
    assert_eq!(refs[0].pointer, "/nodes/0/definition/x");
    assert_eq!(refs[0].node.as_ref().map(|n| n.0.as_str()), Some("bé"));
    assert_eq!(idx.items("/nodes").map(|v| v.len()), Some(1));
    assert_eq!(idx.members("/nodes/0").unwrap()[1].0, "definition");
    assert!(idx.members("/nodes").is_none());

    let y = "nodes:\n  - id: 'a b'\n    definition: {x: {$ref: {node: \"c\"}}}\n";
    let idx = SpanIndex::new(y, Syntax::Yaml).unwrap();
    assert_eq!(idx.string_at("/nodes/0/id").as_deref(), Some("a b"));
    let c = idx.cursor(y.find("\"c\"").unwrap() + 1).unwrap();
    assert_eq!(c.pointer, "/nodes/0/definition/x/$ref/node");
    assert_eq!(idx.refs_under("").len(), 1);
}

/// Every pointer of a tree's values, with a missing member and a missing
/// item under each container.
fn pointers(tree: &super::tree::Tree, at: String, out: &mut Vec<String>) {
    use super::tree::Kind;
    out.push(at.clone());
    match &tree.kind {
        Kind::Scalar => out.push(format!("{at}/x")),
        Kind::Object(members) => {
            out.push(format!("{at}/missing"));
            out.push(format!("{at}/missing/deeper"));
            for (k, _, v) in members {
                pointers(v, format!("{at}/{}", escape_token(k)), out);
            }
        }
        Kind::Array(items) => {
            out.push(format!("{at}/{}", items.len()));
            out.push(format!("{at}/01"));
            out.push(format!("{at}/-"));
            for (i, v) in items.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
        }
    }
}

#[test]
fn seeking_a_pointer_answers_as_the_whole_index() {
    let mut big = String::from("\u{feff} {\"planId\": \"plan-x\", \"nodes\": [\n");
    for i in 0..40 {
        big.push_str(&format!(
            "  {{\"id\": \"n{i}\", \"kind\": \"call\", \"definition\": {{\"tool\": \"t\\u00e9{i}\", \"args\": {{\"q\": {{\"$ref\": {{\"node\": \"n0\", \"path\": \"a/b~c\"}}}}, \"e\": [], \"o\": {{}}, \"s\": \"x\\\"]}}\"}}}}}},\n"
        ));
    }
    big.push_str("  {\"id\": \"last\"}\n], \"edges\": [{\"from\": \"n0\", \"to\": \"n1\", \"handle\": \"always\"}], \"k\\u0065y\": 1.5e3 } \n");
    let scalar = " \"just a string\" ";
    for text in [
        JSON,
        big.as_str(),
        scalar,
        "[]",
        "{}",
        "[1, [2, [3]], {\"a\": null}]",
    ] {
        let idx = SpanIndex::new(text, Syntax::Json).expect("indexes");
        let mut all = Vec::new();
        pointers(idx.root(), String::new(), &mut all);
        all.extend(["not/a pointer".to_string(), "/".to_string()]);
        // Asked in document order and in reverse: what one lookup kept
        // must not change another's answer.
        for order in [false, true] {
            let seek = Seek::new(text).expect("a value");
            let asked: Vec<&String> = if order {
                all.iter().rev().collect()
            } else {
                all.iter().collect()
            };
            for p in asked {
                assert_eq!(Locate::locate(&seek, p), idx.locate(p), "locate {p:?}");
                assert_eq!(Locate::find(&seek, p), idx.find(p), "find {p:?}");
                assert_eq!(Locate::key_span(&seek, p), idx.key_span(p), "key {p:?}");
            }
        }
    }
}

#[test]
fn seeking_in_text_that_is_not_json_answers_without_panicking() {
    for text in [
        "",
        "   ",
        "{",
        "[1,,2",
        "{\"a\" 1}",
        "{\"a\": [}",
        "\"abc",
        "{\"a\": \"\\",
        "]]]",
        "{,}",
    ] {
        if let Some(seek) = Seek::new(text) {
            for p in ["", "/a", "/0", "/a/0/b", "/nodes"] {
                let _ = Locate::locate(&seek, p);
                let _ = Locate::key_span(&seek, p);
                let _ = seek.has_member("a");
            }
        }
    }
}

/// YAML documents in the styles people write: items at the key's column
/// and indented, comments and blank lines between them, flow mappings as
/// items, block scalars, quoted values, anchors within an item and across
/// items, a document start, CRLF line ends, and tops that are read whole.
fn yaml_documents() -> Vec<String> {
    let mut big = String::from("---\nformatVersion: 1 # the format\nplanId: plan-y\nnodes:\n");
    for i in 0..30 {
        big.push_str(&format!(
            "  # node {i}\n  - id: n{i}\n    kind: call\n    definition:\n      tool: \"t{i}\"\n      args:\n        q:\n          $ref: {{node: n0, path: 'a/b~c'}}\n      text: >\n        folded {i}\n\n      list:\n        - a\n        - [b, c]\n"
        ));
    }
    big.push_str("  -\n  - 5\nedges:\n- {id: e1, from: n0, to: n1}\n- id: e2\n  from: n1\n  to: n2 # a comment\n\nbounds:\n  maxNodes: 10\nlabel: \"a: b\"\n");
    vec![
        YAML.to_string(),
        big.clone(),
        big.replace('\n', "\r\n"),
        "nodes:\n  - id: a\n    x: &shared {k: 1}\n    y: *shared\n  - id: b\n    z: 1\n".into(),
        "nodes:\n  - id: a\n    x: &shared {k: 1}\n  - id: b\n    y: *shared\n".into(),
        "{nodes: [{id: a}], edges: []}\n".into(),
        "\u{feff}nodes:\n- id: a\n".into(),
        "nodes: []\nedges:\n".into(),
        "  nodes:\n    - id: a\n".into(),
        "nodes:\n- a\n- - b\n  - c\n-\n".into(),
        "\"nodes\":\n  - id: a\nkey: |\n  text\n  - not an item\n".into(),
        "a: 1\n".into(),
    ]
}

#[test]
fn seeking_a_yaml_pointer_answers_as_the_whole_index() {
    for text in yaml_documents() {
        let idx = SpanIndex::new(&text, Syntax::Yaml).expect("indexes");
        let mut all = Vec::new();
        pointers(idx.root(), String::new(), &mut all);
        all.extend(["not/a pointer".to_string(), "/".to_string()]);
        for order in [false, true] {
            let seek = YamlSeek::new(&text);
            let asked: Vec<&String> = if order {
                all.iter().rev().collect()
            } else {
                all.iter().collect()
            };
            for p in asked {
                assert_eq!(
                    Locate::locate(&seek, p),
                    idx.locate(p),
                    "locate {p:?} in {text:?}"
                );
                assert_eq!(Locate::find(&seek, p), idx.find(p), "find {p:?}");
                assert_eq!(Locate::key_span(&seek, p), idx.key_span(p), "key {p:?}");
            }
        }
    }
}

#[test]
fn a_yaml_top_level_says_its_keys_without_being_read() {
    let seek = YamlSeek::new("---\n# a plan\nformatVersion: 1\nnodes:\n- id: a\n");
    assert_eq!(seek.has_member("nodes"), Some(true));
    assert_eq!(seek.has_member("id"), Some(false));
    assert_eq!(
        YamlSeek::new("name: x\nversion: 2\n").has_member("nodes"),
        Some(false)
    );
    // A plan document's lookups read only the parts they lead into.
    let docs = yaml_documents();
    for text in [&docs[1], &docs[2]] {
        let seek = YamlSeek::new(text);
        for p in [
            "/nodes/3/definition/tool",
            "/nodes/29/definition/args/q/$ref/missing",
            "/nodes",
            "/nodes/40",
            "/edges/1/to",
            "/bounds/maxNodes",
            "/label",
        ] {
            assert!(Locate::locate(&seek, p).is_some(), "{p}");
            assert!(Locate::key_span(&seek, "/nodes/3/kind").is_some());
        }
        assert!(!seek.read_whole(), "{text:?}");
    }
    // Flow style, or something before the first key: not said.
    assert_eq!(YamlSeek::new("{nodes: []}").has_member("nodes"), None);
    assert_eq!(YamlSeek::new("  nodes: []").has_member("nodes"), None);
}
