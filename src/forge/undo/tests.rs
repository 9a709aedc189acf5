//! Tests of undo: each kind of change, others' later work, clones.

use super::log::{LABEL, Ref, WHOLE_MAX, hashed, names, redone_by, reference};
use super::paths::{diff_paths, get, put};
use super::*;
use crate::model::{Content, Map, Node, Value};
use std::collections::HashSet;

use crate::model::{Bounds, Handle, NodeKind};
use crate::store::Store;

fn forge(dir: &std::path::Path, actor: &str) -> Forge {
    let (store, _) = Store::init(dir, crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
    Forge::new(store, actor).with_registry(None)
}

fn node(id: &str, kind: NodeKind, phase: Option<&str>) -> Node {
    Node {
        id: id.into(),
        phase: phase.map(Into::into),
        kind,
        definition: Map::new().into(),
    }
}

fn content(f: &Forge) -> Content {
    f.load("plan-u").unwrap().content().clone()
}

/// Content with nodes and edges sorted, so a node put back at the end
/// compares equal.
fn sorted(mut c: Content) -> Content {
    c.revision = 0;
    c.nodes.sort_by(|a, b| a.id.cmp(&b.id));
    c.edges.sort_by(|a, b| a.id.cmp(&b.id));
    c
}

fn built(dir: &std::path::Path) -> Forge {
    let f = forge(dir, "ann");
    f.create_plan(Some("plan-u"), None, None).unwrap();
    f.add_node(
        "plan-u",
        node("start", NodeKind::Entry, Some("in")),
        Default::default(),
    )
    .unwrap();
    f.add_node(
        "plan-u",
        node("work", NodeKind::Join, None),
        Default::default(),
    )
    .unwrap();
    f.connect("plan-u", "start", "work", None, None, None)
        .unwrap();
    f
}

#[test]
fn each_kind_of_change_is_taken_back_step_by_step() {
    let dir = tempfile::tempdir().unwrap();
    let f = built(dir.path());
    let mut history = vec![content(&f)];
    f.set_node_phase("plan-u", "work", Some("act".into()), None)
        .unwrap();
    history.push(content(&f));
    f.set_node_field(
        "plan-u",
        "work",
        "kind",
        Value::String("diamond".into()),
        None,
        true,
    )
    .unwrap();
    history.push(content(&f));
    f.set_bounds(
        "plan-u",
        Bounds {
            max_nodes: 9,
            ..Bounds::default()
        },
        None,
    )
    .unwrap();
    history.push(content(&f));
    f.remove_node("plan-u", "work", None).unwrap();
    assert!(content(&f).edges.is_empty());
    // Undo walks back through every change, restoring each state.
    while let Some(expected) = history.pop() {
        let echo = f.undo("plan-u", None).unwrap();
        assert!(echo.changed.starts_with("undid your transaction"));
        assert_eq!(sorted(content(&f)), sorted(expected));
    }
    // Then the connect and both add-nodes: back to an empty plan.
    for _ in 0..3 {
        f.undo("plan-u", None).unwrap();
    }
    let c = content(&f);
    assert!(c.nodes.is_empty() && c.edges.is_empty());
    let err = f.undo("plan-u", None).unwrap_err();
    assert_eq!(err.exit_code(), 1);
    assert!(
        err.message.starts_with("nothing to undo"),
        "{}",
        err.message
    );
    // Every undo is its own labelled transaction; nothing left the log.
    let loaded = f.store().load_with_ops("plan-u").unwrap();
    let undos: HashSet<&str> = loaded
        .ops()
        .unwrap()
        .iter()
        .filter(|o| o.tx.starts_with(LABEL))
        .map(|o| o.tx.as_str())
        .collect();
    assert_eq!(undos.len(), 7);
    for u in undos {
        let target = undone_by(u).unwrap();
        // An undo of a change names it whole (builds before session 12
        // read only that).
        assert!(matches!(target, Ref::Whole(_)), "{u}");
        assert!(loaded.ops().unwrap().iter().any(|o| names(target, &o.tx)));
    }
}

#[test]
fn a_removed_node_comes_back_with_its_edges() {
    let dir = tempfile::tempdir().unwrap();
    let f = built(dir.path());
    let before = content(&f);
    f.remove_node("plan-u", "start", None).unwrap();
    let echo = f.undo("plan-u", None).unwrap();
    assert_eq!(sorted(content(&f)), sorted(before));
    assert!(echo.details[0].contains("added back node `start`"));
    assert!(echo.details[0].contains("added back edge `start__work`"));
}

#[test]
fn only_this_actors_changes_are_undone_and_later_work_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let ann = built(dir.path());
    let bob = forge(dir.path(), "bob");
    ann.set_node_phase("plan-u", "work", Some("act".into()), None)
        .unwrap();
    bob.add_node(
        "plan-u",
        node("bobs", NodeKind::Join, None),
        Default::default(),
    )
    .unwrap();
    // Bob has one change; his undo takes back exactly that.
    bob.undo("plan-u", None).unwrap();
    assert!(content(&ann).node("bobs").is_none());
    assert_eq!(
        content(&ann).node("work").unwrap().phase.as_deref(),
        Some("act")
    );
    assert!(
        bob.undo("plan-u", None)
            .unwrap_err()
            .message
            .starts_with("nothing to undo")
    );
    // Bob moves the node again: nothing of Ann's phase change is left, so
    // her undo walks past it to her earlier change, says so, and keeps
    // Bob's phase.
    bob.set_node_phase("plan-u", "work", Some("bobs phase".into()), None)
        .unwrap();
    let edges_before = content(&ann).edges.len();
    let echo = ann.undo("plan-u", None).unwrap();
    assert!(
        echo.changed.contains("left nothing to undo"),
        "{}",
        echo.changed
    );
    assert_eq!(content(&ann).edges.len(), edges_before - 1);
    assert_eq!(
        content(&ann).node("work").unwrap().phase.as_deref(),
        Some("bobs phase")
    );
}

#[test]
fn an_actor_whose_only_change_was_overtaken_is_told_so() {
    let dir = tempfile::tempdir().unwrap();
    let ann = built(dir.path());
    let cat = forge(dir.path(), "cat");
    cat.set_node_phase("plan-u", "work", Some("cats".into()), None)
        .unwrap();
    ann.set_node_phase("plan-u", "work", Some("anns".into()), None)
        .unwrap();
    let err = cat.undo("plan-u", None).unwrap_err();
    assert_eq!(err.exit_code(), 1);
    assert!(
        err.message.contains("changed again since"),
        "{}",
        err.message
    );
    assert_eq!(
        content(&ann).node("work").unwrap().phase.as_deref(),
        Some("anns")
    );
}

#[test]
fn a_partly_overtaken_change_undoes_the_rest_and_says_what_it_kept() {
    let dir = tempfile::tempdir().unwrap();
    let ann = built(dir.path());
    let bob = forge(dir.path(), "bob");
    let mut def = Map::new();
    def.insert("tool".into(), Value::String("a".into()));
    def.insert("args".into(), Value::Object(Map::new()));
    ann.add_node(
        "plan-u",
        Node {
            definition: def.into(),
            ..node("call", NodeKind::Call, None)
        },
        Default::default(),
    )
    .unwrap();
    let mut def = Map::new();
    def.insert("tool".into(), Value::String("b".into()));
    def.insert(
        "args".into(),
        Value::Object([("x".to_string(), Value::Bool(true))].into_iter().collect()),
    );
    ann.set_node_config("plan-u", "call", NodeKind::Call, def, None)
        .unwrap();
    bob.set_node_field(
        "plan-u",
        "call",
        "tool",
        Value::String("c".into()),
        None,
        true,
    )
    .unwrap();
    let echo = ann.undo("plan-u", None).unwrap();
    let n = content(&ann).node("call").unwrap().clone();
    assert_eq!(n.definition.get("tool"), Some(&Value::String("c".into())));
    assert_eq!(n.definition.get("args"), Some(&Value::Object(Map::new())));
    assert!(
        echo.details[1].contains("`tool` of `call` was changed since"),
        "{:?}",
        echo.details
    );
}

#[test]
fn refuses_on_a_plan_that_is_not_editable_and_skips_a_clones_inheritance() {
    let dir = tempfile::tempdir().unwrap();
    let f = built(dir.path());
    f.clone_plan("plan-u", "plan-c", None).unwrap();
    let err = f.undo("plan-c", None).unwrap_err();
    assert!(
        err.message.starts_with("nothing to undo"),
        "{}",
        err.message
    );
    // As freeze leaves it (its findings aside): a freeze op at its digest.
    f.store()
        .commit_lifecycle("plan-u", "ann", |now| {
            Ok(vec![crate::model::OpBody::Freeze {
                revision: now.revision(),
                digest: now.digest().to_string(),
            }])
        })
        .unwrap();
    let err = f.undo("plan-u", None).unwrap_err();
    assert_eq!(err.code(), "not_editable");
    assert_eq!(err.exit_code(), 1);
}

#[test]
fn an_edge_with_an_explicit_handle_is_put_back_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let f = built(dir.path());
    f.connect("plan-u", "work", "start", Some("error"), Some("back"), None)
        .unwrap();
    f.disconnect("plan-u", "back", None).unwrap();
    f.undo("plan-u", None).unwrap();
    let c = content(&f);
    let e = c.edge("back").unwrap();
    assert_eq!(
        (e.from.as_str(), e.to.as_str(), &e.handle),
        ("work", "start", &Handle::Error)
    );
    f.undo("plan-u", None).unwrap();
    assert!(content(&f).edge("back").is_none());
}

#[test]
fn undo_labels_name_the_transaction_they_undo() {
    // The hash is fixed for good: logs keep it.
    assert_eq!(hashed("0123456789abcdef"), "@9f9f5111f7b27a78");
    // A short id is named whole, as builds before session 12 read it; a
    // long one, or one that would read as a hash, by its hash.
    assert_eq!(
        log::undo_label("0123456789abcdef"),
        "undo-0123456789abcdef-"
    );
    let undo = "undo-0123456789abcdef-fedcba9876543210";
    assert_eq!(log::redo_label(undo), format!("redo-{undo}-"));
    let redo = format!("redo-{undo}-0000000000000001");
    assert_eq!(log::undo_label(&redo), format!("undo-{redo}-"));
    let undo2 = format!("undo-{redo}-0000000000000002");
    assert_eq!(log::redo_label(&undo2), format!("redo-{undo2}-"));
    let deeper = format!("redo-{undo2}-0000000000000003");
    assert!(deeper.len() > WHOLE_MAX);
    assert_eq!(
        log::redo_label(&deeper),
        format!("redo-{}-", hashed(&deeper))
    );
    assert_eq!(reference(&"a".repeat(WHOLE_MAX)), "a".repeat(WHOLE_MAX));
    assert_eq!(
        reference(&"a".repeat(WHOLE_MAX + 1)),
        hashed(&"a".repeat(WHOLE_MAX + 1))
    );
    assert_eq!(reference("@9f9f5111f7b27a78"), hashed("@9f9f5111f7b27a78"));
    assert_eq!(reference(""), hashed(""));
    assert_eq!(
        log::redo_label(&"undo-".repeat(1000)).len(),
        "redo-@".len() + 17
    );
    assert_eq!(
        undone_by("undo-@9f9f5111f7b27a78-fedcba9876543210"),
        Some(Ref::Hashed("@9f9f5111f7b27a78"))
    );
    assert!(names(Ref::Hashed("@9f9f5111f7b27a78"), "0123456789abcdef"));
    assert!(!names(Ref::Hashed("@9f9f5111f7b27a78"), "0123456789abcdee"));
    // An earlier planforge's: the id whole, however it looks.
    assert_eq!(
        undone_by("undo-0123456789abcdef-fedcba9876543210"),
        Some(Ref::Whole("0123456789abcdef"))
    );
    assert_eq!(
        undone_by("undo-import-01-fedcba9876543210"),
        Some(Ref::Whole("import-01"))
    );
    assert_eq!(
        redone_by("redo-undo-0123456789abcdef-fedcba9876543210-0000000000000001"),
        Some(Ref::Whole("undo-0123456789abcdef-fedcba9876543210"))
    );
    for not_hashed in [
        "@9f9f5111f7b27a7",
        "@9F9F5111F7B27A78",
        "@9f9f5111f7b27a78x",
    ] {
        assert_eq!(
            undone_by(&format!("undo-{not_hashed}-fedcba9876543210")),
            Some(Ref::Whole(not_hashed))
        );
    }
    assert_eq!(undone_by("0123456789abcdef"), None);
    assert_eq!(redone_by("undo-0123456789abcdef-fedcba9876543210"), None);
}

#[test]
fn definition_paths_are_the_smallest_differences() {
    let b: Map = [
        ("tool".to_string(), Value::String("a".into())),
        (
            "args".to_string(),
            Value::Object(
                [("x".to_string(), Value::Number(1.0))]
                    .into_iter()
                    .collect(),
            ),
        ),
    ]
    .into_iter()
    .collect();
    let mut a = b.clone();
    put(
        &mut a,
        &["args".into(), "y".into()],
        Some(Value::Bool(true)),
    );
    put(&mut a, &["extra".into()], Some(Value::Null));
    let mut out = Vec::new();
    diff_paths(&b, &a, &mut Vec::new(), &mut out);
    assert_eq!(
        out,
        vec![
            vec!["args".to_string(), "y".to_string()],
            vec!["extra".to_string()]
        ]
    );
    let mut back = a.clone();
    for p in &out {
        put(&mut back, p, get(&b, p).cloned());
    }
    assert_eq!(back, b);
}

#[test]
fn a_log_that_is_not_clean_is_read_whole_with_the_same_answer() {
    let dir = tempfile::tempdir().unwrap();
    let f = built(dir.path());
    let connected = content(&f);
    f.set_node_phase("plan-u", "work", Some("act".into()), None)
        .unwrap();
    let moved = content(&f);
    // A writer killed in the middle of a line left its start at the end.
    let path = f
        .store()
        .plan_dir("plan-u")
        .unwrap()
        .join(crate::store::OPS_FILE);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"opId\":\"ann:plan-u:99:x\",\"actorId\":\"an");
    std::fs::write(&path, &text).unwrap();
    let loaded = f.store().load_to_write("plan-u").unwrap();
    assert!(loaded.log.unfinished > 0);
    assert!(f.store().log_lines(&loaded).unwrap().is_none());
    let echo = f.undo("plan-u", None).unwrap();
    assert!(
        echo.changed.contains("set_node_phase `work`"),
        "{}",
        echo.changed
    );
    assert_eq!(sorted(content(&f)), sorted(connected.clone()));
    // The write cut the torn line off: the lines are read again.
    let loaded = f.store().load_to_write("plan-u").unwrap();
    assert!(f.store().log_lines(&loaded).unwrap().is_some());
    f.redo("plan-u", None).unwrap();
    assert_eq!(sorted(content(&f)), sorted(moved));
    // Torn again: redo and undo read it whole.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"opId\":\"ann:plan-u:99:x\",\"actorId\":\"an");
    std::fs::write(&path, &text).unwrap();
    f.undo("plan-u", None).unwrap();
    assert_eq!(sorted(content(&f)), sorted(connected));
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("{\"opId\":\"ann:plan-u:99:x\",\"actorId\":\"an");
    std::fs::write(&path, &text).unwrap();
    let err = f.redo("plan-u", Some(1)).unwrap_err();
    assert_eq!(err.code(), "revision_moved", "{}", err.message);
}
