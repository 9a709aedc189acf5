//! Tests of the form of undo and redo tx ids: a log an earlier planforge
//! wrote (each id naming the one it takes back whole) is undone and redone
//! as it always was; new ids stay short however long the chain; an op
//! whose line the log holds twice is one op.

use super::log::{Ref, names, redone_by};
use super::*;
use crate::model::{Map, Node, NodeKind};
use crate::store::{OPS_FILE, Store};

fn forge(dir: &std::path::Path, actor: &str) -> Forge {
    let (store, _) = Store::init(dir, crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
    Forge::new(store, actor).with_registry(None)
}

/// A log an earlier planforge wrote (session 11): an add-node, then four
/// undos and three redos of it, each tx id naming the one before it whole.
const LEGACY: &str = concat!(
    r#"{"opId":"ann:plan-u:0:ec5ba310932c77f0","actorId":"ann","lamport":0,"at":"2026-12-03T14:59:46Z","tx":"ec5ba310932c77f0","txEnd":true,"op":"create_plan"}"#,
    "\n",
    r#"{"opId":"ann:plan-u:1:34dcbe1617d8c2fe","actorId":"ann","lamport":1,"at":"2026-12-03T14:59:47Z","tx":"34dcbe1617d8c2fe","txEnd":true,"op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
    "\n",
    r#"{"opId":"ann:plan-u:2:undo-34dcbe1617d8c2fe-038db3197f48490e","actorId":"ann","lamport":2,"at":"2026-12-03T14:59:47Z","tx":"undo-34dcbe1617d8c2fe-038db3197f48490e","txEnd":true,"op":"remove_node","nodeId":"n1","incidentEdgeIds":[]}"#,
    "\n",
    r#"{"opId":"ann:plan-u:3:redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7","actorId":"ann","lamport":3,"at":"2026-12-03T14:59:47Z","tx":"redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7","txEnd":true,"op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
    "\n",
    r#"{"opId":"ann:plan-u:4:undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6","actorId":"ann","lamport":4,"at":"2026-12-03T14:59:47Z","tx":"undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6","txEnd":true,"op":"remove_node","nodeId":"n1","incidentEdgeIds":[]}"#,
    "\n",
    r#"{"opId":"ann:plan-u:5:redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209","actorId":"ann","lamport":5,"at":"2026-12-03T14:59:47Z","tx":"redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209","txEnd":true,"op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
    "\n",
    r#"{"opId":"ann:plan-u:6:undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9","actorId":"ann","lamport":6,"at":"2026-12-03T14:59:47Z","tx":"undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9","txEnd":true,"op":"remove_node","nodeId":"n1","incidentEdgeIds":[]}"#,
    "\n",
    r#"{"opId":"ann:plan-u:7:redo-undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9-5bc6af1dfc50880a","actorId":"ann","lamport":7,"at":"2026-12-03T14:59:47Z","tx":"redo-undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9-5bc6af1dfc50880a","txEnd":true,"op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
    "\n",
    r#"{"opId":"ann:plan-u:8:undo-redo-undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9-5bc6af1dfc50880a-2249361c9f576852","actorId":"ann","lamport":8,"at":"2026-12-03T14:59:47Z","tx":"undo-redo-undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9-5bc6af1dfc50880a-2249361c9f576852","txEnd":true,"op":"remove_node","nodeId":"n1","incidentEdgeIds":[]}"#,
    "\n",
);

/// The plan's log file.
fn log_path(f: &Forge) -> std::path::PathBuf {
    f.store().plan_dir("plan-u").unwrap().join(OPS_FILE)
}

/// A store whose plan-u holds [`LEGACY`] (and no cache of another log).
fn legacy(dir: &std::path::Path) -> Forge {
    let f = forge(dir, "ann");
    f.create_plan(Some("plan-u"), None, None).unwrap();
    std::fs::write(log_path(&f), LEGACY).unwrap();
    for cache in ["checkpoint.snap", "checkpoint.json"] {
        let path = f.store().plan_dir("plan-u").unwrap().join(cache);
        if path.exists() {
            std::fs::remove_file(path).unwrap();
        }
    }
    f
}

/// With `torn`, leaves the start of a line at the log's end, as a killed
/// writer does: undo and redo then read the log whole (and cut it off);
/// without, the log is clean and they read its lines.
fn tear(f: &Forge, torn: bool) {
    if !torn {
        let loaded = f.store().load_to_write("plan-u").unwrap();
        assert!(f.store().log_lines(&loaded).unwrap().is_some());
    } else {
        let mut text = std::fs::read_to_string(log_path(f)).unwrap();
        text.push_str("{\"opId\":\"ann:plan-u:99:x\",\"actorId\":\"an");
        std::fs::write(log_path(f), text).unwrap();
        let loaded = f.store().load_to_write("plan-u").unwrap();
        assert!(f.store().log_lines(&loaded).unwrap().is_none());
    }
}

fn has_n1(f: &Forge) -> bool {
    f.load("plan-u").unwrap().content().node("n1").is_some()
}

/// The tx id of the log's last op.
fn last_tx(f: &Forge) -> String {
    let loaded = f.store().load_with_ops("plan-u").unwrap();
    loaded.ops().unwrap().last().unwrap().tx.to_string()
}

/// The legacy log's add-node, and its latest redo and undo.
const ADDED: &str = "34dcbe1617d8c2fe";
const REDO3: &str = "redo-undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9-5bc6af1dfc50880a";
const UNDO4: &str = "undo-redo-undo-redo-undo-redo-undo-34dcbe1617d8c2fe-038db3197f48490e-7be43bfe665da7f7-daadde47e0cbd0e6-b4b4951a8008b209-3fd33d9d08f99be9-5bc6af1dfc50880a-2249361c9f576852";

/// Redo, undo and redo again on the legacy log, from its lines or read
/// whole: the same answers as the planforge that wrote it gave.
fn legacy_chain_goes_on(torn: bool) {
    let dir = tempfile::tempdir().unwrap();
    let f = legacy(dir.path());
    assert!(!has_n1(&f));
    tear(&f, torn);
    let echo = f.redo("plan-u", None).unwrap();
    assert_eq!(
        echo.changed,
        format!("redid your transaction {REDO3} (taking back its undo {UNDO4})")
    );
    assert!(has_n1(&f));
    let redo4 = last_tx(&f);
    // The new redo names the legacy undo by its hash.
    assert!(redo4.len() <= MAX_ID, "{redo4}");
    let named = redone_by(&redo4).unwrap();
    assert!(matches!(named, Ref::Hashed(_)) && names(named, UNDO4));
    tear(&f, torn);
    let err = f.redo("plan-u", None).unwrap_err();
    assert_eq!(
        err.message,
        "nothing to redo: every undo you made in plan plan-u since your change (add_node `n1`) is redone already"
    );
    tear(&f, torn);
    let echo = f.undo("plan-u", None).unwrap();
    assert!(
        echo.changed
            .starts_with(&format!("undid your transaction {redo4} of ")),
        "{}",
        echo.changed
    );
    assert!(!has_n1(&f));
    let undo5 = last_tx(&f);
    assert!(names(undone_by(&undo5).unwrap(), &redo4), "{undo5}");
    // Every earlier change is undone: the new undo, the new redo, the old
    // chain and the add-node it started from are all walked past.
    tear(&f, torn);
    let err = f.undo("plan-u", None).unwrap_err();
    assert!(
        err.message
            .starts_with("nothing to undo: ann has no change to plan plan-u"),
        "{}",
        err.message
    );
    tear(&f, torn);
    let echo = f.redo("plan-u", None).unwrap();
    assert_eq!(
        echo.changed,
        format!("redid your transaction {redo4} (taking back its undo {undo5})")
    );
    assert!(has_n1(&f));
    let words: Vec<String> = f
        .log("plan-u")
        .unwrap()
        .iter()
        .map(|c| c.summary.clone())
        .collect();
    let mut expected = vec![
        "created the plan".to_string(),
        "added join node `n1`".to_string(),
    ];
    for i in 0..10 {
        expected.push(if i % 2 == 0 {
            "undo: removed node `n1`".to_string()
        } else {
            "redo: added join node `n1`".to_string()
        });
    }
    assert_eq!(words, expected);
    assert!(
        !f.log("plan-u")
            .unwrap()
            .iter()
            .any(|c| c.tx == ADDED && c.summary.starts_with("undo"))
    );
}

#[test]
fn a_legacy_chain_goes_on_from_the_lines() {
    legacy_chain_goes_on(false);
}

#[test]
fn a_legacy_chain_goes_on_read_whole() {
    legacy_chain_goes_on(true);
}

/// The longest tx id planforge writes: an undo's or a redo's, its label,
/// what it takes back (named whole up to `WHOLE_MAX` bytes, else by `@`
/// and 16 hex digits), a dash and its own id.
const MAX_ID: usize = "undo-".len() + super::log::WHOLE_MAX + 1 + 16;

#[test]
fn two_hundred_rounds_of_undo_and_redo_keep_every_tx_id_short() {
    let dir = tempfile::tempdir().unwrap();
    let f = with_work(dir.path());
    let added = last_tx(&f);
    for _ in 0..200 {
        f.undo("plan-u", None).unwrap();
        assert!(f.load("plan-u").unwrap().content().node("work").is_none());
        f.redo("plan-u", None).unwrap();
        assert!(f.load("plan-u").unwrap().content().node("work").is_some());
    }
    let loaded = f.store().load_with_ops("plan-u").unwrap();
    let ops = loaded.ops().unwrap();
    assert_eq!(ops.len(), 2 + 400);
    for op in ops {
        assert!(op.tx.len() <= MAX_ID, "{}", op.tx);
    }
    let text = std::fs::read_to_string(log_path(&f)).unwrap();
    assert!(
        text.lines().all(|l| l.len() < 400),
        "a line of the log grew"
    );
    // The chain is what it always was: each undo takes back the redo
    // before it, each redo the undo before it, the first undo the add-node.
    let mut before = added.as_str();
    for op in &ops[2..] {
        let taken = if op.tx.starts_with("undo-") {
            undone_by(&op.tx)
        } else {
            redone_by(&op.tx)
        };
        assert!(names(taken.unwrap(), before), "{} after {before}", op.tx);
        before = &op.tx;
    }
    // Everything is undone but the last redo; undo takes it back, and
    // then there is nothing else of ann's left to undo.
    f.undo("plan-u", None).unwrap();
    let err = f.undo("plan-u", None).unwrap_err();
    assert!(
        err.message.starts_with("nothing to undo"),
        "{}",
        err.message
    );
}

/// The plan-u of a store with a join node `work`, made by ann.
fn with_work(dir: &std::path::Path) -> Forge {
    let f = forge(dir, "ann");
    f.create_plan(Some("plan-u"), None, None).unwrap();
    let work = Node {
        id: "work".into(),
        phase: None,
        kind: NodeKind::Join,
        definition: Map::new().into(),
    };
    f.add_node("plan-u", work, Default::default()).unwrap();
    f
}

/// Writes the log's last line twice more, once as it is and once spelled
/// another way (its phase's first letter escaped), as a cherry-pick and a
/// merge can leave it.
fn repeat_last_line(f: &Forge) {
    let text = std::fs::read_to_string(log_path(f)).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let respelled = last.replacen("\"phase\":\"", "\"phase\":\"\\u0070", 1);
    assert_ne!(respelled, last);
    let respelled = respelled.replacen("\\u0070p", "\\u0070", 1);
    std::fs::write(log_path(f), format!("{text}{last}\n{respelled}\n")).unwrap();
}

/// The summary of the transaction `tx` in `history`.
fn summary_of(history: &history::History, tx: &str) -> String {
    let txs = history.transactions();
    let head = txs.iter().find(|t| t.id == tx).unwrap();
    let ops = history.ops_of(head).unwrap();
    assert_eq!(ops.len(), 3, "the log holds its line three times");
    summary(&head.tx(&ops))
}

/// A duplicated op line is one op in what undo says of its transaction
/// (the tester's O4: it was listed once per line).
#[test]
fn a_repeated_line_is_one_op() {
    let dir = tempfile::tempdir().unwrap();
    let ann = with_work(dir.path());
    let cat = forge(dir.path(), "cat");
    cat.set_node_phase("plan-u", "work", Some("pcat".into()), None)
        .unwrap();
    let cats = last_tx(&cat);
    repeat_last_line(&cat);
    ann.set_node_phase("plan-u", "work", Some("pann".into()), None)
        .unwrap();
    repeat_last_line(&ann);
    assert_eq!(ann.load("plan-u").unwrap().revision(), 3);
    // Read from the ops and from the log's lines alike.
    let bytes = std::fs::read(log_path(&ann)).unwrap();
    let parsed = crate::store::log::parse(&bytes, "plan-u").unwrap();
    let lines = crate::store::log::Lines::read(&log_path(&ann), &parsed.info)
        .unwrap()
        .unwrap();
    let of_lines = history::History::of_lines("plan-u", &lines).unwrap();
    assert_eq!(summary_of(&of_lines, &cats), "set_node_phase `work`");
    let of_ops = history::History::of_ops("plan-u", &parsed.ops);
    assert_eq!(summary_of(&of_ops, &cats), "set_node_phase `work`");
    let err = cat.undo("plan-u", None).unwrap_err();
    assert!(
        err.message.contains(&format!(
            "(transaction {cats} (set_node_phase `work`)): everything it changed"
        )),
        "{}",
        err.message
    );
    let echo = ann.undo("plan-u", None).unwrap();
    assert!(
        echo.changed.ends_with(" (set_node_phase `work`)"),
        "{}",
        echo.changed
    );
    let phase = ann
        .load("plan-u")
        .unwrap()
        .content()
        .node("work")
        .unwrap()
        .phase
        .clone();
    assert_eq!(phase.as_deref(), Some("pcat"));
}

#[test]
fn a_redo_of_what_others_changed_since_names_the_undo_and_the_change() {
    let dir = tempfile::tempdir().unwrap();
    let ann = with_work(dir.path());
    let bob = forge(dir.path(), "bob");
    ann.set_node_phase("plan-u", "work", Some("anns".into()), None)
        .unwrap();
    let change = last_tx(&ann);
    ann.undo("plan-u", None).unwrap();
    let undo = last_tx(&ann);
    bob.set_node_phase("plan-u", "work", Some("bobs".into()), None)
        .unwrap();
    let err = ann.redo("plan-u", None).unwrap_err();
    assert_eq!(err.exit_code(), 1);
    assert_eq!(
        err.message,
        format!(
            "nothing to redo: what your undo {undo} took back of transaction {change} was changed again since"
        )
    );
    let loaded = ann.load("plan-u").unwrap();
    let phase = loaded.content().node("work").unwrap().phase.clone();
    assert_eq!(phase.as_deref(), Some("bobs"));
}

/// A store whose plan-u log is the create line of [`LEGACY`] and `lines`.
fn with_lines(dir: &std::path::Path, lines: &[&str]) -> Forge {
    let f = legacy(dir);
    let mut text = LEGACY.lines().next().unwrap().to_string() + "\n";
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    std::fs::write(log_path(&f), text).unwrap();
    f
}

#[test]
fn an_empty_transaction_id_is_shown_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let f = with_lines(
        dir.path(),
        &[
            r#"{"opId":"ann:plan-u:1:","actorId":"ann","lamport":1,"at":"2026-12-03T14:59:47Z","tx":"","txEnd":true,"op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
        ],
    );
    let echo = f.undo("plan-u", None).unwrap();
    assert!(
        echo.changed
            .starts_with("undid your transaction \"\" of 2026-12-03T14:59:47Z"),
        "{}",
        echo.changed
    );
    assert!(!has_n1(&f));
}

#[test]
fn an_id_that_is_not_plain_is_shown_with_its_escapes() {
    // On the line: `""` (two quote marks), then `a` line break `b`.
    for (on_line, shown) in [(r#"\"\""#, r#""\"\"""#), (r"a\nb", r#""a\nb""#)] {
        let dir = tempfile::tempdir().unwrap();
        let line = format!(
            r#"{{"opId":"ann:plan-u:1:x","actorId":"ann","lamport":1,"at":"2026-12-03T14:59:47Z","tx":"{on_line}","txEnd":true,"op":"add_node","node":{{"id":"n1","kind":"join","definition":{{}}}}}}"#
        );
        let f = with_lines(dir.path(), &[&line]);
        let echo = f.undo("plan-u", None).unwrap();
        assert!(
            echo.changed
                .starts_with(&format!("undid your transaction {shown} of ")),
            "{}",
            echo.changed
        );
        assert!(!echo.changed.contains('\n'));
    }
}

/// The echo of a redo of `undo` (taking back an add-node `t1` of `n1`),
/// the undo being the log's latest change; the redo must restore `n1`.
fn redo_of(undo: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let f = with_lines(
        dir.path(),
        &[
            r#"{"opId":"ann:plan-u:1:t1","actorId":"ann","lamport":1,"at":"2026-12-03T14:59:47Z","tx":"t1","txEnd":true,"op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
            &format!(
                r#"{{"opId":"ann:plan-u:2:{undo}","actorId":"ann","lamport":2,"at":"2026-12-03T14:59:48Z","tx":"{undo}","txEnd":true,"op":"remove_node","nodeId":"n1","incidentEdgeIds":[]}}"#
            ),
        ],
    );
    let echo = f.redo("plan-u", None).unwrap();
    assert!(has_n1(&f));
    echo.changed
}

#[test]
fn an_undo_naming_a_hash_none_of_yours_has_says_so() {
    let undo = "undo-@0123456789abcdef-1111111111111111";
    assert_eq!(
        redo_of(undo),
        format!(
            "redid your transaction with the hash @0123456789abcdef, which none of your transactions in the log has (taking back its undo {undo})"
        )
    );
}

#[test]
fn an_undo_naming_a_transaction_not_in_the_log_says_so() {
    let undo = "undo-zzz-1111111111111111";
    assert_eq!(
        redo_of(undo),
        format!(
            "redid your transaction zzz, which is not one of your transactions in the log (taking back its undo {undo})"
        )
    );
}

/// Ann's add-node of `n1` and Bob's of `n2`, both written with the tx id
/// `t` (by hand, or by two tools that spell ids alike).
const SHARED_TX: [&str; 2] = [
    r#"{"opId":"ann:plan-u:1:t","actorId":"ann","lamport":1,"at":"2026-12-03T14:59:47Z","tx":"t","txEnd":true,"op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
    r#"{"opId":"bob:plan-u:2:t","actorId":"bob","lamport":2,"at":"2026-12-03T14:59:48Z","tx":"t","txEnd":true,"op":"add_node","node":{"id":"n2","kind":"join","definition":{}}}"#,
];

fn has(f: &Forge, id: &str) -> bool {
    f.load("plan-u").unwrap().content().node(id).is_some()
}

/// Two actors' transactions that share a tx id are two changes: each
/// actor's undo and redo take back only their own, from the lines or read
/// whole.
fn shared_tx_ids_stay_apart(torn: bool) {
    let dir = tempfile::tempdir().unwrap();
    let ann = with_lines(dir.path(), &SHARED_TX);
    let bob = forge(dir.path(), "bob");
    tear(&ann, torn);
    let echo = ann.undo("plan-u", None).unwrap();
    assert!(
        echo.changed
            .starts_with("undid your transaction t of 2026-12-03T14:59:47Z (add_node `n1`)"),
        "{}",
        echo.changed
    );
    assert!(!has(&ann, "n1") && has(&ann, "n2"), "Bob's node stays");
    tear(&ann, torn);
    let err = ann.undo("plan-u", None).unwrap_err();
    assert!(
        err.message.starts_with("nothing to undo: ann"),
        "{}",
        err.message
    );
    // Ann's undo of her `t` is not an undo of Bob's.
    tear(&ann, torn);
    let echo = bob.undo("plan-u", None).unwrap();
    assert!(
        echo.changed
            .starts_with("undid your transaction t of 2026-12-03T14:59:48Z (add_node `n2`)"),
        "{}",
        echo.changed
    );
    assert!(!has(&ann, "n2"));
    tear(&ann, torn);
    let echo = bob.redo("plan-u", None).unwrap();
    assert!(
        echo.changed.starts_with("redid your transaction t "),
        "{}",
        echo.changed
    );
    assert!(has(&ann, "n2") && !has(&ann, "n1"));
    tear(&ann, torn);
    ann.redo("plan-u", None).unwrap();
    assert!(has(&ann, "n1") && has(&ann, "n2"));
    // The plan's history credits each change to its own actor.
    let changes = ann.log("plan-u").unwrap();
    let own: Vec<(&str, usize)> = changes
        .iter()
        .filter(|c| c.tx == "t")
        .map(|c| (c.actor.as_str(), c.ops.len()))
        .collect();
    assert_eq!(own, [("ann", 1), ("bob", 1)]);
}

#[test]
fn shared_tx_ids_stay_apart_in_the_lines() {
    shared_tx_ids_stay_apart(false);
}

#[test]
fn shared_tx_ids_stay_apart_read_whole() {
    shared_tx_ids_stay_apart(true);
}

#[test]
fn a_write_after_an_unfinished_transaction_counts_what_a_status_does() {
    // Ann's add-node never got its closing op; Bob's write removes it, and
    // its echo no longer counts the note about it (tester s14).
    let dir = tempfile::tempdir().unwrap();
    let f = with_lines(
        dir.path(),
        &[
            r#"{"opId":"ann:plan-u:1:t","actorId":"ann","lamport":1,"at":"2026-12-03T14:59:47Z","tx":"t","op":"add_node","node":{"id":"n1","kind":"join","definition":{}}}"#,
        ],
    );
    assert_eq!(
        f.status("plan-u").unwrap().counts.advisory,
        1,
        "the torn tail"
    );
    let bob = forge(dir.path(), "bob");
    let node = Node {
        id: "n2".into(),
        phase: None,
        kind: NodeKind::Join,
        definition: Map::new().into(),
    };
    let echo = bob.add_node("plan-u", node, Default::default()).unwrap();
    let status = f.status("plan-u").unwrap();
    assert_eq!(status.counts.advisory, 0, "the write removed it");
    assert_eq!(
        (echo.counts.blocking, echo.counts.advisory),
        (status.counts.blocking, status.counts.advisory)
    );
}
