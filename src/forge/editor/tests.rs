//! Tests of the editor queries, on JSON and YAML documents.

use super::{Doc, Syntax};
use crate::forge::validate::{Finding, Options, check_input};
use crate::model::registry::Registry;
use std::sync::Arc;

const JSON: &str = r#"{
  "formatVersion": 1,
  "nodes": [
    {"id": "start", "kind": "entry", "definition": {"input": [{"path": "q", "type": "string"}]}},
    {"id": "pick", "kind": "select", "definition": {"cases": ["bug", "idea"]}},
    {"id": "fetch", "kind": "call", "phase": "gather", "definition": {
      "tool": "get", "args": {"q": {"$ref": {"node": "start", "select": "first", "path": "q"}}},
      "output": [{"path": "body", "type": "string"}], "onMissingValue": "fail",
      "authority": [], "replaySafe": true, "onIndeterminate": "halt"}},
    {"id": "post", "kind": "call", "phase": "act", "definition": {
      "tool": "get", "args": {"q": {"$ref": {"node": "fetchh", "select": "first"}}},
      "output": [], "onMissingValue": "fail", "authority": [], "onIndeterminate": "halt"}}
  ],
  "edges": [
    {"id": "e1", "from": "start", "to": "pick"},
    {"id": "e2", "from": "pick", "to": "fetch", "handle": "case_bug"},
    {"id": "e3", "from": "fetch", "to": "post", "handle": "alwayz"}
  ]
}"#;

const YAML: &str = "formatVersion: 1
nodes:
  - id: start
    kind: entry
    definition:
      input: [{path: q, type: string}]
  - id: fetch
    kind: call
    phase: gather
    definition:
      tool: get
      args:
        q:
          $ref:
            node: start
            path: q
      output: []
      onMissingValue: fail
      authority: []
      replaySafe: true
      onIndeterminate: halt
edges:
  - id: e1
    from: start
    to: fetch
    handle: alwayz
";

fn registry() -> Registry {
    Registry::parse(
        "tools:\n  get: {returns: text}\n  put: {returns: text}\n",
        Syntax::Yaml,
        "test",
    )
    .unwrap()
}

fn at(text: &str, needle: &str, plus: usize) -> usize {
    text.find(needle).unwrap_or_else(|| panic!("{needle}")) + plus
}

fn findings(doc: &Doc) -> Vec<Finding> {
    check_input(
        "t",
        doc.text.to_string(),
        doc.syntax,
        Some(&registry()),
        &Options::default(),
    )
    .findings
}

fn apply(text: &str, edits: &[super::edits::Edit]) -> String {
    let mut out = text.to_string();
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| std::cmp::Reverse(e.span.start));
    for e in edits {
        out.replace_range(e.span.start..e.span.end, &e.text);
    }
    out
}

fn text_of(doc: &Doc, s: super::Span) -> &str {
    &doc.text[s.start..s.end]
}

#[test]
fn definitions_and_references_of_node_ids() {
    let d = Doc::new(JSON, Syntax::Json);
    let def = d.definition(at(JSON, r#""node": "start""#, 10)).unwrap();
    assert_eq!(def.start, at(JSON, r#""start""#, 0));
    let from = d.definition(at(JSON, r#""from": "fetch""#, 10)).unwrap();
    assert_eq!(text_of(&d, from), "\"fetch\"");
    assert_eq!(from.start, at(JSON, r#""id": "fetch""#, 6));
    // A name that is no node id: nothing.
    assert_eq!(d.definition(at(JSON, r#""tool": "get""#, 10)), None);
    let refs = d.references(at(JSON, r#""id": "start""#, 8), true);
    assert_eq!(refs.len(), 3, "{refs:?}");
    assert_eq!(
        d.references(at(JSON, r#""id": "start""#, 8), false).len(),
        2
    );

    let y = Doc::new(YAML, Syntax::Yaml);
    let def = y.definition(at(YAML, "node: start", 7)).unwrap();
    assert_eq!(
        (text_of(&y, def), def.start),
        ("start", at(YAML, "id: start", 4))
    );
}

#[test]
fn completion_offers_upstream_nodes_first_and_what_each_place_takes() {
    let d = Doc::new(JSON, Syntax::Json);
    let c = d.complete(at(JSON, r#""fetchh""#, 1), None).unwrap();
    let labels: Vec<(&str, u8)> = c.items.iter().map(|i| (i.label.as_str(), i.rank)).collect();
    assert_eq!(labels, [("fetch", 0), ("pick", 0), ("start", 0)]);
    assert_eq!(text_of(&d, c.span), "\"fetchh\"");
    assert_eq!(c.items[0].insert, "\"fetch\"");
    let handle = d.complete(at(JSON, r#""case_bug""#, 1), None).unwrap();
    let labels: Vec<&str> = handle.items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["case_bug", "case_idea", "default", "error"]);
    let tool = d
        .complete(at(JSON, r#""tool": "get""#, 9), Some(&registry()))
        .unwrap();
    assert_eq!(tool.items.len(), 2);
    let path = d.complete(at(JSON, r#""path": "q"}}"#, 9), None).unwrap();
    assert_eq!(path.items[0].label, "q");
    // No place that takes a name: no completion.
    assert_eq!(d.complete(at(JSON, r#""onMissingValue""#, 3), None), None);

    // Mid-typing: no closing quote, or no value yet.
    let open = JSON.replace(
        r#""node": "fetchh", "select": "first"}}"#,
        r#""node": "fe}}"#,
    );
    let d = Doc::new(open.as_str(), Syntax::Json);
    assert!(d.index().is_none());
    let c = d.complete(at(&open, r#""node": "fe"#, 11), None).unwrap();
    assert_eq!(c.items[0].label, "fetch");
    assert_eq!(text_of(&d, c.span), "\"fe");
    let empty = JSON.replace(r#""node": "fetchh", "select": "first"}}"#, r#""node": }}"#);
    let d = Doc::new(empty.as_str(), Syntax::Json);
    let c = d.complete(at(&empty, r#""node": }}"#, 8), None).unwrap();
    assert_eq!((c.span.start, c.span.end), (c.span.start, c.span.start));
    assert_eq!(c.items[0].insert, "\"fetch\"");

    // YAML keeps plain scalars plain.
    let y = Doc::new(YAML, Syntax::Yaml);
    let c = y.complete(at(YAML, "node: start", 8), None).unwrap();
    assert_eq!(text_of(&y, c.span), "start");
    let labels: Vec<(&str, u8, &str)> = c
        .items
        .iter()
        .map(|i| (i.label.as_str(), i.rank, i.insert.as_str()))
        .collect();
    assert_eq!(
        labels,
        [("start", 0, "start")],
        "the reader itself is not offered"
    );
    // A key with no value yet.
    let bare = YAML.replace("node: start", "node: ");
    let b = Doc::new(bare.as_str(), Syntax::Yaml);
    let c = b.complete(at(&bare, "node: ", 6), None).unwrap();
    assert!(c.span.is_empty());
    assert_eq!(c.items[0].insert, "start");
    let inserts =
        |c: super::complete::Completion| c.items.into_iter().map(|i| i.insert).collect::<Vec<_>>();
    let c = y.complete(at(YAML, "to: fetch", 4), None).unwrap();
    assert_eq!(inserts(c), ["start", "fetch"]);
    // Narrowed to what is typed before the cursor (`f`).
    let c = y.complete(at(YAML, "to: fetch", 5), None).unwrap();
    assert!(!c.incomplete);
    assert_eq!(inserts(c), ["fetch"]);
}

#[test]
fn fixes_are_edits_in_the_documents_syntax() {
    let d = Doc::new(JSON, Syntax::Json);
    let fs = findings(&d);
    let handle = fs
        .iter()
        .find(|f| f.issue.code == "invalid_handle")
        .unwrap();
    let a = &d.fixes_of(handle).actions[0];
    assert!(a.preferred);
    assert!(apply(JSON, &a.edits).contains(r#""handle": "always"}"#));
    let missing = fs
        .iter()
        .find(|f| f.issue.code == "missing_reference")
        .unwrap();
    let a = &d.fixes_of(missing).actions[0];
    assert!(apply(JSON, &a.edits).contains(r#"{"$ref": {"node": "fetch", "select": "first"}}"#));
    // A field that is missing is added to its object.
    let rs = fs
        .iter()
        .find(|f| f.issue.code == "missing_replay_safe")
        .unwrap();
    let fixed = apply(JSON, &d.fixes_of(rs).actions[0].edits);
    assert!(
        fixed.contains(r#""onIndeterminate": "halt", "replaySafe": true}}"#),
        "{fixed}"
    );
    // The did-you-mean tool replaces the value.
    let typo = JSON.replacen(r#""tool": "get""#, r#""tool": "gett""#, 1);
    let t = Doc::new(typo.as_str(), Syntax::Json);
    let f = findings(&t)
        .into_iter()
        .find(|f| f.issue.code == "unknown_tool")
        .unwrap();
    let a = &t.fixes_of(&f).actions[0];
    assert_eq!(apply(&typo, &a.edits), JSON);
    // A suppression, then a second one into the same list.
    let s = d.fixes_of(missing).suppression.unwrap();
    let once = apply(JSON, &s.edits);
    let v: serde_json::Value = serde_json::from_str(&once).unwrap();
    assert_eq!(
        v["nodes"][3]["definition"]["suppress"],
        serde_json::json!([{"code": "missing_reference", "reason": ""}])
    );
    let d2 = Doc::new(once.as_str(), Syntax::Json);
    // The same code again: no second entry, but the existing one's reason.
    let again = d2.fixes_of(missing).suppression.unwrap();
    assert!(again.edits.is_empty(), "{again:?}");
    let at = again.existing.expect("the existing entry");
    assert_eq!(&once[at.start..at.end], "\"\"");
    assert!(once[..at.start].ends_with("\"reason\": "), "{once}");
    // Another code on the same node: a second entry in the same list.
    let mut other = (*missing).clone();
    other.issue.code = crate::check::unknown_tool::CODE;
    let again = d2.fixes_of(&other).suppression.unwrap();
    assert_eq!(again.existing, None);
    let v: serde_json::Value = serde_json::from_str(&apply(&once, &again.edits)).unwrap();
    assert_eq!(
        v["nodes"][3]["definition"]["suppress"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // An edge finding has no node to suppress it on.
    assert!(d.fixes_of(handle).suppression.is_none());
    // invalid_suppression cannot be suppressed (validate does not let it).
    let mut invalid = (*missing).clone();
    invalid.issue.code = crate::check::invalid_suppression::CODE;
    assert!(d.fixes_of(&invalid).suppression.is_none());

    // YAML: a block mapping gets a line at its indentation; a missing
    // `select` (an input error) gets its fix from the text.
    let y = Doc::new(YAML, Syntax::Yaml);
    let fs = findings(&y);
    assert_eq!(fs.len(), 1, "{fs:?}");
    let acts = y.fixes_of(&fs[0]).actions;
    assert_eq!(acts.len(), 3, "first, last, all: {acts:?}");
    let fixed = apply(YAML, &acts[0].edits);
    assert!(
        fixed.contains("$ref:\n            select: first\n            node: start\n"),
        "{fixed}"
    );
    let y = Doc::new(fixed.as_str(), Syntax::Yaml);
    let fs = findings(&y);
    let handle = fs
        .iter()
        .find(|f| f.issue.code == "invalid_handle")
        .unwrap();
    let fixed = apply(&fixed, &y.fixes_of(handle).actions[0].edits);
    assert!(fixed.ends_with("    handle: always\n"), "{fixed}");
    let y = Doc::new(fixed.as_str(), Syntax::Yaml);
    let node_finding = findings(&y)
        .into_iter()
        .find(|f| f.issue.node_id.is_some())
        .expect("a node finding");
    let s = y.fixes_of(&node_finding).suppression.unwrap();
    let once = apply(&fixed, &s.edits);
    let y2 = Doc::new(once.as_str(), Syntax::Yaml);
    assert!(y2.index().is_some(), "{once}");
    assert!(
        once.contains("    definition:\n      suppress: [{\"code\": "),
        "{once}"
    );
}

#[test]
fn symbols_hover_and_what_is_a_plan_document() {
    let d = Doc::new(JSON, Syntax::Json);
    let s = d.symbols();
    let names: Vec<(&str, usize)> = s
        .iter()
        .map(|x| (x.name.as_str(), x.children.len()))
        .collect();
    assert_eq!(
        names,
        [("gather", 1), ("act", 1), ("start", 0), ("pick", 0)]
    );
    let fs = findings(&d);
    let issues: Vec<_> = fs.iter().map(|f| f.issue.clone()).collect();
    let (h, span) = d
        .hover(at(JSON, r#""id": "fetch""#, 8), Some(&registry()), &issues)
        .unwrap();
    assert_eq!(text_of(&d, span), "\"fetch\"");
    let super::hover::Hover::Node(n) = h else {
        panic!("{h:?}")
    };
    assert_eq!(n.reads, [("start".to_string(), vec!["q".to_string()])]);
    assert_eq!(n.incoming, [("pick".to_string(), "case_bug".to_string())]);
    assert_eq!(n.outputs, ["body"]);
    let (h, _) = d
        .hover(at(JSON, r#""tool": "get""#, 10), Some(&registry()), &[])
        .unwrap();
    assert!(matches!(h, super::hover::Hover::Tool(t) if t.entry.is_some()));
    assert!(d.is_plan_document());
    assert!(!Doc::new(r#"{"name": "x"}"#, Syntax::Json).is_plan_document());
    assert!(!Doc::new("tools: {}\n", Syntax::Yaml).is_plan_document());
    assert!(Doc::new(r#"{"nodes": ["#, Syntax::Json).is_plan_document());
}

#[test]
fn a_text_not_read_whole_is_a_plan_only_when_its_top_level_names_a_plan_key() {
    let json = |t: &str| Doc::new(t, Syntax::Json).is_plan_document();
    let yaml = |t: &str| Doc::new(t, Syntax::Yaml).is_plan_document();
    // Nested, or a longer key, or a value: not a plan's.
    assert!(!json("{\"name\": \"x\", \"deps\": {\"nodes\": 1},\n"));
    assert!(!json("{\"name\": \"x\", \"nodes_x\": 1,\n"));
    assert!(!json("{\"name\": \"nodes\", \"a\": [\"planId\",\n"));
    assert!(!json("{\"a\": \"x\\\"nodes\\\": \", \"b\": [\n"));
    assert!(!yaml("name: x\ndeps:\n  nodes: 1\nextra: [\n"));
    assert!(!yaml("name: x\nnodes_x: 1\nextra: [\n"));
    // At the top level: a plan being typed.
    assert!(json("{\"formatVersion\": 1, \"nodes\": [{\"id\": \"a\",\n"));
    assert!(json("{\n  \"planId\" : \"p\",\n  \"x\": [\n"));
    assert!(yaml("formatVersion: 1\nnodes:\n- id: a\n  kind: [\n"));
}

#[test]
fn completion_at_a_lines_end_with_the_next_member_below() {
    // Pretty-printed, `"node": "` typed at the end of its line: the text
    // reads with `",` put at the cursor.
    let pretty = JSON.replace(
        r#"{"node": "fetchh", "select": "first"}"#,
        "{\n          \"node\": \"fe\n          \"select\": \"first\"\n        }",
    );
    let d = Doc::new(pretty.as_str(), Syntax::Json);
    assert!(d.index().is_none());
    let c = d.complete(at(&pretty, "\"node\": \"fe", 11), None).unwrap();
    let up: Vec<&str> = c
        .items
        .iter()
        .filter(|i| i.rank == 0)
        .map(|i| i.label.as_str())
        .collect();
    // Narrowed to what is typed (`fe`).
    assert_eq!(up, ["fetch"]);
    assert_eq!(text_of(&d, c.span), "\"fe");
    let bare = pretty.replace("\"node\": \"fe\n", "\"node\": \n");
    let d = Doc::new(bare.as_str(), Syntax::Json);
    let c = d.complete(at(&bare, "\"node\": \n", 8), None).unwrap();
    assert_eq!(c.items[0].label, "fetch");
}

#[test]
fn a_broken_version_answers_from_the_last_good_one_outside_the_change() {
    let good = Doc::new(JSON, Syntax::Json);
    assert!(good.read().is_some());
    // Two characters typed into `post`'s definition: it does not parse.
    let cut = at(
        JSON,
        r#""tool": "get", "args": {"q": {"$ref": {"node": "fetchh""#,
        0,
    );
    let broken = format!("{}{{{{{}", &JSON[..cut], &JSON[cut..]);
    let d = good.edited(broken.as_str());
    assert!(d.index().is_none());
    // Before the change: as it was.
    let s = d.definition(at(&broken, r#""node": "start""#, 10)).unwrap();
    assert_eq!(
        (s.start, text_of(&d, s)),
        (at(&broken, "\"start\"", 0), "\"start\"")
    );
    // After it: moved by what was typed.
    let on = at(&broken, r#""from": "fetch""#, 10);
    let s = d.definition(on).unwrap();
    assert_eq!(s.start, at(&broken, r#""id": "fetch""#, 6));
    let refs = d.references(on, true);
    assert!(
        refs.iter().all(|r| text_of(&d, *r) == "\"fetch\""),
        "{refs:?}"
    );
    assert_eq!(refs.len(), 3);
    let (h, span) = d.hover(on, None, &[]).unwrap();
    assert_eq!(text_of(&d, span), "\"fetch\"");
    assert!(matches!(h, super::hover::Hover::Node(n) if n.phase.as_deref() == Some("gather")));
    // In it: nothing is made up.
    assert_eq!(d.definition(cut + 1), None);
    let names: Vec<String> = d.symbols().into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["gather", "act", "start", "pick"]);
    // Broken again: the same good version still answers.
    let again = format!("{} {}", &broken[..cut], &broken[cut..]);
    let d2 = d.edited(again.as_str());
    // (the edge is after the change, the node it names before it)
    assert_eq!(d2.definition(on + 1), Some(s));
    // A version never read before the next one came is the fallback once
    // read (as the validation worker reads every version it checks).
    let fresh = Doc::new(JSON, Syntax::Json);
    let next = fresh.edited(broken.as_str());
    assert!(fresh.read().is_some());
    assert_eq!(next.definition(on), Some(s));
}

#[test]
fn a_query_right_after_a_change_answers_from_the_last_reading_outside_it() {
    let good = Doc::new(JSON, Syntax::Json);
    assert!(good.read().is_some());
    // `post`'s tool renamed: well-formed, and not read yet (the reader
    // thread reads it after a pause in typing).
    let tool = at(
        JSON,
        r#""tool": "get", "args": {"q": {"$ref": {"node": "fetchh""#,
        9,
    );
    let now = format!("{}put{}", &JSON[..tool], &JSON[tool + 3..]);
    let d = good.edited(now.as_str());
    let on = at(&now, r#""from": "fetch""#, 10);
    let s = d.definition(on).unwrap();
    assert_eq!(s.start, at(&now, r#""id": "fetch""#, 6));
    let (h, span) = d.hover(on, None, &[]).unwrap();
    assert_eq!(text_of(&d, span), "\"fetch\"");
    assert!(matches!(h, super::hover::Hover::Node(_)));
    assert_eq!(d.references(on, true).len(), 3);
    let c = d
        .complete(at(&now, r#""node": "start""#, 10), None)
        .unwrap();
    assert_eq!(text_of(&d, c.span), "\"start\"");
    assert!(!c.items.is_empty());
    let names: Vec<String> = d.symbols().into_iter().map(|s| s.name).collect();
    assert_eq!(names, ["gather", "act", "start", "pick"]);
    assert!(
        d.index_if_read().is_none(),
        "answered from the last reading, without reading the new version"
    );
    // Outside the change but in the node that changed (what is answered
    // there may depend on the change): not from the last reading.
    assert!(d.stale(Some(at(&now, r#""fetchh""#, 1))).is_none());
    assert!(d.stale(Some(on)).is_some());
    // In the change: this version is read, and answers (the tool's name
    // is what is typed now).
    let (h, span) = d.hover(tool + 1, None, &[]).unwrap();
    assert_eq!(text_of(&d, span), "\"put\"");
    assert!(matches!(h, super::hover::Hover::Tool(_)));
    assert!(d.index_if_read().is_some());
    // Read: no stale answer any more.
    assert!(d.stale(Some(on)).is_none());
    assert_eq!(d.definition(on), Some(s));
}

#[test]
fn moved_maps_offsets_outside_the_change_both_ways() {
    let m = super::Moved::between("abcXYdef", "abcQdef");
    assert_eq!(
        (m.back(2), m.back(3), m.back(4), m.back(5)),
        (Some(2), Some(3), Some(5), Some(6))
    );
    assert_eq!(m.forth(5), Some(4));
    assert_eq!(m.forth(4), None);
    // A change of one character in a multi-byte text keeps to boundaries.
    // `é` and `è` share their first byte: the change starts before it.
    let m = super::Moved::between("aé", "aè");
    assert_eq!(
        (m.back(1), m.back(3), m.forth(3)),
        (Some(1), Some(3), Some(3))
    );
    let same = super::Moved::between("abc", "abc");
    assert_eq!(same.back(3), Some(3));
}

#[test]
fn a_dangling_edge_to_a_near_miss_is_renamed_to_it() {
    let typo = JSON.replacen(r#""to": "post""#, r#""to": "postt""#, 1);
    let d = Doc::new(typo.as_str(), Syntax::Json);
    let fs = findings(&d);
    let f = fs.iter().find(|f| f.issue.code == "dangling_edge").unwrap();
    let a = &d.fixes_of(f).actions[0];
    assert!(a.preferred);
    assert_eq!(
        a.sets_endpoints,
        Some(("e3".to_string(), vec![("to", "post".to_string())]))
    );
    let fixed = apply(&typo, &a.edits);
    assert!(
        fixed.contains(r#"{"id": "e3", "from": "fetch", "to": "post", "handle": "alwayz"}"#),
        "{fixed}"
    );
    // In YAML the endpoint stays plain.
    let y = YAML.replacen("to: fetch", "to: fetchh", 1).replacen(
        "            node: start\n",
        "            node: start\n            select: first\n",
        1,
    );
    let d = Doc::new(y.as_str(), Syntax::Yaml);
    let fs = findings(&d);
    let f = fs
        .iter()
        .find(|f| f.issue.code == "dangling_edge")
        .unwrap_or_else(|| panic!("{:?}", fs.iter().map(|f| &f.issue).collect::<Vec<_>>()));
    let fixed = apply(&y, &d.fixes_of(f).actions[0].edits);
    assert!(fixed.contains("    to: fetch\n"), "{fixed}");
    // Without a near miss there is no edit to make: the fix that remains
    // names no node.
    let far = JSON.replacen(r#""to": "post""#, r#""to": "zzzzzzzz""#, 1);
    let d = Doc::new(far.as_str(), Syntax::Json);
    let fs = findings(&d);
    let f = fs.iter().find(|f| f.issue.code == "dangling_edge").unwrap();
    assert!(d.fixes_of(f).actions.is_empty());
}

#[test]
fn yaml_completion_after_an_unclosed_single_quote() {
    // `node: '` typed at a line's end: only `'` closes it (a `"` would
    // be read as part of a string that goes on over the lines below).
    let open = YAML.replace("node: start", "node: '");
    let d = Doc::new(open.as_str(), Syntax::Yaml);
    assert!(d.index().is_none());
    let c = d.complete(at(&open, "node: '", 7), None).unwrap();
    assert_eq!(text_of(&d, c.span), "'");
    assert_eq!(c.items[0].label, "start");
    assert_eq!(c.items[0].insert, "'start'");
    let typed = YAML.replace("node: start", "node: 'st");
    let d = Doc::new(typed.as_str(), Syntax::Yaml);
    let c = d.complete(at(&typed, "node: 'st", 9), None).unwrap();
    assert_eq!(text_of(&d, c.span), "'st");
    assert_eq!(c.items[0].insert, "'start'");
    // A double quote is still closed by a double quote.
    let dq = YAML.replace("node: start", "node: \"st");
    let d = Doc::new(dq.as_str(), Syntax::Yaml);
    let c = d.complete(at(&dq, "node: \"st", 9), None).unwrap();
    assert_eq!(c.items[0].insert, "\"start\"");
}

#[test]
fn completion_of_a_references_select_and_a_nodes_kind() {
    let d = Doc::new(JSON, Syntax::Json);
    let c = d
        .complete(at(JSON, r#""select": "first""#, 11), None)
        .unwrap();
    let labels: Vec<&str> = c.items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["first", "last", "all"]);
    assert_eq!(text_of(&d, c.span), "\"first\"");
    let c = d.complete(at(JSON, r#""kind": "call""#, 9), None).unwrap();
    let labels: Vec<&str> = c.items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "entry",
            "call",
            "reason",
            "transform",
            "branch",
            "select",
            "join"
        ]
    );
    assert_eq!(c.items[1].insert, "\"call\"");
    // Mid-typing in YAML, plain: `kind: ` with no value yet.
    let bare = YAML.replace("kind: call", "kind: ");
    let y = Doc::new(bare.as_str(), Syntax::Yaml);
    let c = y.complete(at(&bare, "kind: \n", 6), None).unwrap();
    assert!(c.items.iter().any(|i| i.insert == "call"));
    // Neither is a name to go to or hover.
    assert_eq!(d.definition(at(JSON, r#""kind": "call""#, 9)), None);
    assert_eq!(d.definition(at(JSON, r#""select": "first""#, 11)), None);
}

#[test]
fn a_repaired_reading_is_kept_for_the_next_request_at_the_same_place() {
    let open = JSON.replace(
        r#""node": "fetchh", "select": "first"}}"#,
        r#""node": "fe}}"#,
    );
    let d = Doc::new(open.as_str(), Syntax::Json);
    let kept = |d: &Doc| {
        let k = d.repaired.lock().unwrap();
        k.as_ref()
            .map(|(at, r)| (*at, r.as_ref().map(|(_, r)| r.clone())))
    };
    let here = at(&open, r#""node": "fe"#, 11);
    let first = d.complete(here, None).unwrap();
    let (offset, read) = kept(&d).expect("the repaired reading is kept");
    assert_eq!(offset, here);
    let read = read.expect("a repair reads there");
    // Asked again: the same answer from the same reading.
    let again = d.complete(here, None).unwrap();
    assert_eq!(again, first);
    assert!(Arc::ptr_eq(&read, &kept(&d).unwrap().1.unwrap()));
    // Elsewhere in the version (mid-word, where no repair reads): that
    // place's outcome is kept instead, and the first place is read again.
    let early = at(&open, r#""node": "f"#, 10);
    assert_eq!(d.complete(early, None), None);
    assert_eq!(
        kept(&d).map(|(at, r)| (at, r.is_none())),
        Some((early, true))
    );
    assert_eq!(d.complete(here, None).unwrap(), first);
    assert!(!Arc::ptr_eq(&read, &kept(&d).unwrap().1.unwrap()));
    // The next version keeps nothing of it.
    assert!(kept(&d.edited(open.as_str())).is_none());
}

#[test]
fn completion_inside_closed_quotes_with_no_comma_after_them_yet() {
    // An editor that closes quotes: `"node": ""` (or `"fe"`) with the next
    // member below and no comma yet. The text reads with a comma put after
    // the closing quote, and the whole value is replaced.
    let pretty = |value: &str| {
        JSON.replace(
            r#"{"node": "fetchh", "select": "first"}"#,
            &format!(
                "{{\n          \"node\": {value}\n          \"select\": \"first\"\n        }}"
            ),
        )
    };
    // What is typed before the cursor narrows them (`fe`, `f`).
    for (value, plus, like, want) in [
        ("\"\"", 9, "\"\"", &["fetch", "pick", "start"][..]),
        ("\"fe\"", 11, "\"fe\"", &["fetch"][..]),
        ("\"fe\"", 10, "\"fe\"", &["fetch"][..]),
        ("\"ic\"", 11, "\"ic\"", &["pick"][..]),
    ] {
        let text = pretty(value);
        let d = Doc::new(text.as_str(), Syntax::Json);
        assert!(d.index().is_none());
        let needle = format!("\"node\": {value}");
        let c = d.complete(at(&text, &needle, plus), None).unwrap();
        let up: Vec<&str> = c
            .items
            .iter()
            .filter(|i| i.rank == 0)
            .map(|i| i.label.as_str())
            .collect();
        assert_eq!(up, want, "{value} at {plus}");
        assert_eq!(text_of(&d, c.span), like);
        assert_eq!(c.items[0].insert, format!("\"{}\"", want[0]));
    }
    // `select` and `kind` alike.
    let text = JSON.replace(
        r#"{"node": "fetchh", "select": "first"}"#,
        "{\n          \"select\": \"fi\"\n          \"node\": \"fetch\"\n        }",
    );
    let d = Doc::new(text.as_str(), Syntax::Json);
    let c = d
        .complete(at(&text, "\"select\": \"fi\"\n", 13), None)
        .unwrap();
    let labels: Vec<&str> = c.items.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["first"], "narrowed to `fi`");
    let text = JSON.replace(
        r#""id": "pick", "kind": "select","#,
        "\"id\": \"pick\", \"kind\": \"se\"\n",
    );
    let d = Doc::new(text.as_str(), Syntax::Json);
    assert!(d.index().is_none());
    let c = d.complete(at(&text, r#""kind": "se"#, 11), None).unwrap();
    assert!(c.items.iter().any(|i| i.label == "select"));
    // An escaped quote does not close the string; a string closed on
    // another line is not one to close here.
    assert_eq!(super::complete::closing_quote(r#"a\"b" x"#, '"'), Some(5));
    assert_eq!(super::complete::closing_quote("ab\n\"", '"'), None);
    assert_eq!(super::complete::closing_quote("a''b' x", '\''), Some(5));
    // YAML flow style, closed single quotes and no comma yet.
    let flow = YAML.replace(
        "          $ref:\n            node: start\n            path: q\n",
        "          $ref: {node: '' path: q}\n",
    );
    let y = Doc::new(flow.as_str(), Syntax::Yaml);
    assert!(y.index().is_none());
    let c = y.complete(at(&flow, "node: ''", 7), None).unwrap();
    assert_eq!(text_of(&y, c.span), "''");
    assert_eq!(c.items[0].insert, "'start'");
}

/// A plan of `n` nodes `n0`… besides `start`, `up` (upstream of `reader`)
/// and `xn1`; `reader`'s reference has `node` set to `typed`.
fn many(n: usize, typed: &str) -> String {
    let mut nodes = vec![
        r#"{"id": "start", "kind": "entry", "definition": {"input": []}}"#.to_string(),
        r#"{"id": "xn1", "kind": "log", "definition": {"message": "m"}}"#.to_string(),
    ];
    for i in 0..n {
        nodes.push(format!(
            r#"{{"id": "n{i}", "kind": "log", "definition": {{"message": "m"}}}}"#
        ));
    }
    nodes.push(r#"{"id": "up", "kind": "log", "definition": {"message": "m"}}"#.to_string());
    nodes.push(format!(
        r#"{{"id": "reader", "kind": "call", "definition": {{"tool": "t", "args": {{"q": {{"$ref": {{"node": "{typed}", "path": "x"}}}}}}}}}}"#
    ));
    format!(
        "{{\"nodes\": [\n{}\n], \"edges\": [{{\"from\": \"start\", \"to\": \"up\"}}, {{\"from\": \"up\", \"to\": \"reader\"}}]}}",
        nodes.join(",\n")
    )
}

#[test]
fn completion_is_capped_narrowed_to_what_is_typed_and_upstream_first() {
    use super::complete::MAX_CANDIDATES;
    let labels = |text: &str, typed: &str| {
        let d = Doc::new(text, Syntax::Json);
        let needle = format!("\"node\": \"{typed}");
        let c = d.complete(at(text, &needle, needle.len()), None).unwrap();
        let l: Vec<String> = c.items.iter().map(|i| i.label.clone()).collect();
        (l, c.incomplete)
    };
    // Nothing typed: the cap, the upstream nodes first, and marked
    // incomplete (the editor asks again as the user types).
    let text = many(500, "");
    let (l, incomplete) = labels(&text, "");
    assert_eq!(l.len(), MAX_CANDIDATES);
    assert!(incomplete);
    assert_eq!(l[..2], ["up", "start"], "upstream, nearest first");
    assert!(!l.contains(&"reader".to_string()), "not the reader itself");
    // `N1` (any case): the ids that start with it (`n1`, `n10`…`n19`,
    // `n100`…`n199`), then the one holding it elsewhere; all of them.
    let text = many(500, "N1");
    let (l, incomplete) = labels(&text, "N1");
    assert!(!incomplete);
    assert_eq!(l.len(), 112);
    assert_eq!(l[0], "n1");
    assert!(l[..111].iter().all(|x| x.starts_with("n1")));
    assert_eq!(l[111], "xn1");
    // Typed `u`: the upstream node first, then the others holding it.
    let (l, _) = labels(&many(3, "u"), "u");
    assert_eq!(l, ["up"]);
    let (l, _) = labels(&many(3, "zzz"), "zzz");
    assert!(l.is_empty());
}
