//! Tests of the outline, slices and diffs.

use super::diff::diff_contents;
use super::slice::slice_of;
use super::*;
use crate::check::testing::*;
use crate::model::error::ErrorKind;
use crate::model::{Content, Issue, Node, Value};
use crate::store::Loaded;
use serde_json::json;

fn phased(mut n: Node, p: &str) -> Node {
    n.phase = Some(p.into());
    n
}

fn loaded(c: Content) -> Loaded {
    Loaded::of_content(c)
}

fn sample() -> Content {
    plan(
        vec![
            phased(entry("start"), "p1"),
            phased(call_with("fetch", "tickets_get", json!({}), &["id"]), "p1"),
            phased(step("classify"), "p2"),
            call_with("loose", "notify", json!({}), &[]),
            phased(call_with("draft", "tickets_get", json!({}), &[]), "p2"),
            phased(step("p3"), "p3"),
            join("late"),
        ],
        vec![
            edge("e1", "start", "fetch", "always"),
            edge("e2", "fetch", "classify", "always"),
            edge("e3", "classify", "draft", "always"),
            edge("e4", "draft", "p3", "error"),
            edge("e5", "draft", "loose", "always"),
        ],
    )
}

const X: crate::model::Code = crate::model::Code {
    name: "x",
    severity: crate::model::Severity::Blocking,
};
const Y: crate::model::Code = crate::model::Code {
    name: "y",
    severity: crate::model::Severity::Advisory,
};

#[test]
fn outline_is_flat_in_first_appearance_order_with_unphased_last() {
    let l = loaded(sample());
    let issues = vec![
        Issue::new(X, "m").node("classify"),
        Issue::new(X, "m").edge("e5"),
        Issue::new(Y, "m").node("late"),
        Issue::new(Y, "m"),
    ];
    let o = outline_of(&l, &issues);
    let keys: Vec<&str> = o.entries().map(Entry::key).collect();
    assert_eq!(keys, ["p1", "p2", "p3", "(unphased)"]);
    let p2 = &o.phases[1];
    assert_eq!(p2.node_ids, ["classify", "draft"]);
    assert_eq!(p2.tools, ["noop", "tickets_get"]);
    assert_eq!(
        p2.summary(),
        "2 node(s) — 2 call, 0 reason, 0 transform, 0 other"
    );
    // `classify`'s issue, and the edge issue (its source is `draft`).
    assert_eq!(p2.issue_count, 2);
    assert_eq!(o.unphased.as_ref().unwrap().issue_count, 1);
    assert_eq!(o.plan_issues, 1);
    assert_eq!(
        o.phases[0].summary(),
        "2 node(s) — 1 call, 0 reason, 0 transform, 1 other"
    );
}

#[test]
fn tools_are_not_deduplicated() {
    let c = plan(
        vec![
            call_with("a", "t", json!({}), &[]),
            call_with("b", "t", json!({}), &[]),
        ],
        vec![],
    );
    let o = outline_of(&loaded(c), &[]);
    assert_eq!(o.unphased.unwrap().tools, ["t", "t"]);
}

#[test]
fn a_call_without_a_tool_keeps_its_place_in_the_tool_list() {
    let mut untooled = call_with("b", "t", json!({}), &[]);
    untooled.definition.shift_remove("tool");
    let c = plan(
        vec![
            call_with("a", "t", json!({}), &[]),
            untooled,
            call_with("c", "u", json!({}), &[]),
        ],
        vec![],
    );
    let o = outline_of(&loaded(c), &[]);
    let e = o.unphased.unwrap();
    assert_eq!(e.tools, ["t", super::outline::NO_TOOL, "u"]);
    assert_eq!(e.tools.len(), e.calls);
}

#[test]
fn every_outline_key_reads_and_the_boundary_crosses_the_border() {
    let l = loaded(sample());
    let o = outline_of(&l, &[]);
    for e in o.entries() {
        // `p3` is a phase and a node: the outline entry is read as a phase.
        let key = if e.key() == "p3" {
            ReadKey::Phase(e.key().to_string())
        } else {
            ReadKey::Auto(e.key().to_string())
        };
        let s = slice_of(&l, &key, &[]).unwrap();
        assert_eq!(s.key, e.key());
        let ids: Vec<&str> = s.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, e.node_ids);
    }
    let s = slice_of(&l, &ReadKey::Auto("p2".into()), &[]).unwrap();
    assert_eq!(s.phase.as_deref(), Some("p2"));
    assert_eq!(
        s.edges.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["e3"]
    );
    assert_eq!(
        s.incoming.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["e2"]
    );
    assert_eq!(
        s.outgoing.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(),
        ["e4", "e5"]
    );
    let u = slice_of(&l, &ReadKey::Phase(String::new()), &[]).unwrap();
    assert_eq!(u.kind, SliceKind::Unphased);
    assert_eq!(u.key, "(unphased)");
}

#[test]
fn a_key_that_is_a_phase_and_a_node_is_ambiguous() {
    let l = loaded(sample());
    let e = slice_of(&l, &ReadKey::Auto("p3".into()), &[]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::AmbiguousKey);
    assert_eq!(
        e.fixes[0].remedy,
        crate::model::remedy::Remedy::ReadPhase { phase: "p3".into() }
    );
    assert_eq!(
        crate::model::remedy::Voice::fixes(&crate::cli::voice::CliVoice::default(), &e.fixes),
        "planforge read --phase p3 (for the whole phase), or planforge read --node p3 (for the one node)"
    );
    let s = slice_of(&l, &ReadKey::Node("p3".into()), &[]).unwrap();
    assert_eq!(s.kind, SliceKind::Node);
    let s = slice_of(&l, &ReadKey::Phase("p3".into()), &[]).unwrap();
    assert_eq!(s.kind, SliceKind::Phase);
}

#[test]
fn unknown_keys_list_the_valid_ones_nearest_first() {
    let l = loaded(sample());
    let e = slice_of(&l, &ReadKey::Auto("fetc".into()), &[]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownKey);
    assert_eq!(e.exit_code(), 2);
    assert!(e.message.contains("did you mean `fetch`"), "{}", e.message);
    let help = e.help.unwrap();
    assert!(help.starts_with("read one of these keys"), "{help}");
    assert!(help.contains("`fetch`, "), "{help}");
    let e = slice_of(&l, &ReadKey::Node("p1".into()), &[]).unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownKey);
    let all_phased = plan(vec![phased(entry("s"), "a")], vec![]);
    let e = slice_of(
        &loaded(all_phased),
        &ReadKey::Auto("(unphased)".into()),
        &[],
    )
    .unwrap_err();
    assert!(e.message.contains("every node"), "{}", e.message);
}

#[test]
fn diffs_are_field_level_and_compare_references_whole() {
    let before = plan(
        vec![
            entry("s"),
            call_with(
                "a",
                "old",
                json!({"x": r("s", Some("p")), "k": [1, 2]}),
                &[],
            ),
            step("gone"),
        ],
        vec![
            edge("e1", "s", "a", "always"),
            edge("e2", "a", "gone", "always"),
        ],
    );
    let mut after = before.clone();
    after.nodes.remove(2);
    after.edges.remove(1);
    after.nodes[1] = phased(
        call_with(
            "a",
            "new",
            json!({"x": r("s", Some("q")), "k": [1, 3]}),
            &[],
        ),
        "p",
    );
    after.nodes.push(step("fresh"));
    after.edges[0] = edge("e1", "s", "fresh", "always");
    after.bounds.max_nodes = 9;
    let side = |l: &str| Side {
        label: l.into(),
        revision: None,
        digest: String::new(),
    };
    let d = diff_contents(&before, &after, side("a"), side("b"));
    assert_eq!(d.nodes_added.len(), 1);
    assert_eq!(d.nodes_removed[0].id, "gone");
    let paths: Vec<&str> = d.nodes_changed[0]
        .fields
        .iter()
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(paths, ["phase", "tool", "args.x", "args.k.1"]);
    let x = &d.nodes_changed[0].fields[2];
    assert!(matches!(x.before, Some(Value::Ref(_))));
    // e1 changed its target: removed and added; e2 removed.
    assert_eq!(d.edges_removed.len(), 2);
    assert_eq!(d.edges_added.len(), 1);
    assert_eq!(d.plan_changed[0].path, "bounds.maxNodes");
    assert!(!d.is_empty());
    let same = diff_contents(&after, &after, side("a"), side("b"));
    assert!(same.is_empty());
    // A content with itself (no pass) and with an equal copy (a pass over
    // every node and edge) give the same diff.
    let copy = after.clone();
    assert_eq!(same, diff_contents(&after, &copy, side("a"), side("b")));
}

/// A warm read finds nodes and edges through the fold's positions by id;
/// every key, with findings on nodes, on edges (one whose start is gone)
/// and on neither, reads the same slice as a pass over the plan.
#[test]
fn a_read_through_the_positions_is_the_read_without() {
    let l = loaded(sample());
    let issues = vec![
        Issue::new(X, "m").node("classify"),
        Issue::new(X, "m").edge("e5"),
        Issue::new(X, "m").edge("e4"),
        Issue::new(Y, "m").node("gone").edge("e2"),
        Issue::new(Y, "m").edge("e-missing"),
        Issue::new(Y, "m").node("late"),
        Issue::new(Y, "m"),
    ];
    let keys = [
        "start", "fetch", "classify", "loose", "draft", "late", "p1", "p2",
    ]
    .map(|k| ReadKey::Auto(k.into()))
    .into_iter()
    .chain([
        ReadKey::Phase("p3".into()),
        ReadKey::Node("p3".into()),
        ReadKey::Phase(String::new()),
        ReadKey::Node("nope".into()),
        ReadKey::Auto("p3".into()),
    ]);
    // The plain read on a fold of its own, which never makes positions.
    let without = loaded(sample());
    for (k, key) in keys.enumerate() {
        let plain = slice_of(&without, &key, &issues);
        assert!(without.folded.positions_if_kept().is_none());
        // Made by the first read through them, kept after.
        assert_eq!(l.folded.positions_if_kept().is_some(), k > 0);
        let indexed = super::slice::slice_of_indexed(&l, &key, &issues, true, None);
        assert!(l.folded.positions_if_kept().is_some());
        assert_eq!(format!("{plain:?}"), format!("{indexed:?}"), "{key:?}");
    }
    let s = super::slice::slice_of_indexed(&l, &ReadKey::Node("draft".into()), &issues, true, None)
        .unwrap();
    assert_eq!(s.issues.len(), 2, "{:?}", s.issues);
}
