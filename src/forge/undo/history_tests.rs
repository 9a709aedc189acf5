//! The history read from the log's lines against the history of every op
//! parsed and folded whole: the same transactions, inverses, undo and redo
//! targets, on random logs (edits by two actors, undos among them,
//! transactions out of lamport order, lines spelled another way, undo and
//! redo ids in the form planforge writes and in an earlier one's).

use super::find;
use super::history::History;
use super::invert::Current;
use super::redo;
use crate::model::value::Map;
use crate::model::{Bounds, Edge, Handle, Node, NodeKind, Op, OpBody, Value};
use crate::store::Loaded;
use crate::store::log::{self, Lines};
use proptest::prelude::*;

/// One op of a generated log, as numbers.
type Step = (u8, u8, u8, u8);

const NODES: [&str; 5] = ["n0", "n1", "n2", "q\"x", "n/4"];

fn node_of(a: u8, c: u8) -> Node {
    let mut definition = Map::new();
    definition.insert("x".into(), Value::from(c as u64));
    Node {
        id: NODES[a as usize % NODES.len()].into(),
        phase: (!c.is_multiple_of(3)).then(|| format!("p{}", c % 2).into()),
        kind: [NodeKind::Join, NodeKind::Call, NodeKind::Entry][c as usize % 3],
        definition: definition.into(),
    }
}

/// The body a step stands for; `edges` are the edges added so far (for
/// the incident edges a removal lists).
fn body(step: Step, edges: &[Edge]) -> OpBody {
    let (kind, a, b, c) = step;
    let id = NODES[a as usize % NODES.len()].to_string();
    let edge_id = format!("e{}", c % 4);
    match kind % 12 {
        0 | 1 => OpBody::AddNode {
            node: node_of(a, c),
        },
        2 => OpBody::ReplaceNode {
            node: node_of(a, c.wrapping_add(1)),
        },
        3 => OpBody::RemoveNode {
            // All the edges at it, or some of them (an old log's listing).
            incident_edge_ids: edges
                .iter()
                .filter(|e| e.from == id || e.to == id)
                .filter(|e| !c.is_multiple_of(3) || e.id.ends_with('0'))
                .map(|e| e.id.to_string())
                .collect(),
            node_id: id,
        },
        4 => OpBody::SetNodeField {
            node_id: id,
            path: if c.is_multiple_of(2) { "x" } else { "y.z" }.into(),
            value: Value::from(b as u64),
        },
        5 => OpBody::SetNodeDefinition {
            node_id: id,
            definition: Map::new(),
        },
        6 => OpBody::SetNodePhase {
            node_id: id,
            phase: (b.is_multiple_of(2)).then(|| format!("p{b}")),
        },
        7..=9 => OpBody::AddEdge {
            edge: Edge {
                id: edge_id.into(),
                from: id.into(),
                to: NODES[b as usize % NODES.len()].into(),
                handle: Handle::Always,
            },
        },
        10 => OpBody::RemoveEdge { edge_id },
        _ => OpBody::SetBounds {
            bounds: Bounds {
                max_nodes: 10 + c as u64,
                ..Bounds::default()
            },
        },
    }
}

/// A log of transactions made of `steps`: each is written by one of two
/// actors, some are undos or redos of an earlier one (by label, naming it
/// by its hash or, as an earlier planforge did, whole), some are numbered
/// below ops already written (as a merge leaves them), and some lines spell
/// a string with an escape planforge does not write, and some lines are
/// in the log twice.
fn generate(txs: &[(Vec<Step>, u8)]) -> Vec<(Op, bool)> {
    let mut out: Vec<(Op, bool)> = crate::store::transaction(
        "ann",
        "plan-h",
        0,
        vec![OpBody::CreatePlan {
            label: None,
            request: None,
            provenance: None,
        }],
    )
    .into_iter()
    .map(|mut o| {
        o.lamport = 0;
        (o, false)
    })
    .collect();
    let mut edges: Vec<Edge> = Vec::new();
    let mut lamport = 0u64;
    let mut ids: Vec<String> = Vec::new();
    for (steps, how) in txs {
        let actor = if how % 2 == 0 { "ann" } else { "bob" };
        let earlier = (!ids.is_empty()).then(|| ids[*how as usize % ids.len()].as_str());
        let label = match ((how / 2) % 4, earlier, *how >= 32) {
            (1, Some(id), true) => super::log::undo_label(id),
            (1, Some(id), false) => format!("undo-{id}-"),
            (2, Some(id), true) => super::log::redo_label(id),
            (2, Some(id), false) => format!("redo-{id}-"),
            _ => String::new(),
        };
        let bodies: Vec<OpBody> = steps.iter().map(|s| body(*s, &edges)).collect();
        for b in &bodies {
            if let OpBody::AddEdge { edge } = b {
                edges.push(edge.clone());
            }
        }
        let base = if (how / 8) % 2 == 1 {
            lamport.saturating_sub(3)
        } else {
            lamport
        };
        let mut ops = crate::store::transaction(actor, "plan-h", base, bodies);
        for o in &mut ops {
            o.tx = format!("{label}{}", o.tx).into();
            o.op_id = format!("{actor}:plan-h:{}:{}", o.lamport, o.tx);
        }
        lamport = lamport.max(base + ops.len() as u64);
        ids.push(ops[0].tx.to_string());
        let escape = (how / 16) % 2 == 1;
        // Some transactions' lines are in the log twice (a cherry-pick and
        // a merge), the second time spelled as planforge spells them.
        if *how >= 64 {
            out.extend(ops.iter().map(|o| (o.clone(), false)));
        }
        out.extend(ops.into_iter().map(|o| (o, escape)));
    }
    out
}

/// A line as another writer could spell it: the first `n` of a string
/// written `\u006e`, and the op's keys in another order.
fn respelled(line: &str) -> String {
    let line = line.replacen("\"n", "\"\\u006e", 1);
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let mut m: Vec<(String, serde_json::Value)> =
        v.as_object().unwrap().clone().into_iter().collect();
    m.reverse();
    let mut text = String::from("{");
    for (i, (k, v)) in m.iter().enumerate() {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!("{}:{}", serde_json::to_string(k).unwrap(), v));
    }
    text.push('}');
    text.replacen("\"n", "\"\\u006e", 1)
}

/// Compares both histories of one log, transaction by transaction.
fn compare(txs: &[(Vec<Step>, u8)]) {
    let generated = generate(txs);
    let mut text = String::new();
    for (o, escape) in &generated {
        let line = crate::wire::codec::op_line(o);
        text.push_str(&if *escape { respelled(&line) } else { line });
        text.push('\n');
    }
    let parsed = log::parse(text.as_bytes(), "plan-h").unwrap();
    let ops: Vec<Op> = generated.into_iter().map(|(o, _)| o).collect();
    assert_eq!(parsed.ops, ops, "the lines hold the ops");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ops.jsonl");
    std::fs::write(&path, &text).unwrap();
    let lines: Lines = Lines::read(&path, &parsed.info)
        .unwrap()
        .expect("a clean log");
    let loaded = Loaded::of_content(crate::store::fold::fold("plan-h", &ops).content);
    let whole = History::of_ops("plan-h", &ops);
    let read = History::of_lines("plan-h", &lines).unwrap();
    let (a, b) = (whole.transactions(), read.transactions());
    assert_eq!(a.len(), b.len());
    for (ta, tb) in a.iter().zip(&b) {
        assert_eq!((ta.id, ta.actor, ta.start()), (tb.id, tb.actor, tb.start()));
        let (oa, ob) = (whole.ops_of(ta).unwrap(), read.ops_of(tb).unwrap());
        assert_eq!(oa, ob);
        let (xa, xb) = (ta.tx(&oa), tb.tx(&ob));
        assert_eq!(xa.ops, xb.ops);
        let taken = super::log::undone_by(ta.id).or(super::log::redone_by(ta.id));
        if let Some(r) = taken {
            assert_eq!(whole.named(ta.actor, r), read.named(ta.actor, r));
        }
        let (ia, ib) = (
            whole.inverse(&xa, &Current::of(&loaded)).unwrap(),
            read.inverse(&xb, &Current::of(&loaded)).unwrap(),
        );
        assert_eq!(ia, ib, "the inverse of {}", ta.id);
    }
    for actor in ["ann", "bob"] {
        let (fa, fb) = (find(&whole, &loaded, actor), find(&read, &loaded, actor));
        match (fa, fb) {
            (Ok(fa), Ok(fb)) => {
                assert_eq!((fa.tx, fa.what, fa.inverse), (fb.tx, fb.what, fb.inverse));
            }
            (Err(ea), Err(eb)) => assert_eq!(ea.message, eb.message),
            (fa, fb) => panic!("{actor}: {:?} against {:?}", fa.is_ok(), fb.is_ok()),
        }
        let (ra, rb) = (
            redo::target(&whole, &loaded, actor),
            redo::target(&read, &loaded, actor),
        );
        assert_eq!(
            ra.as_ref().map_err(|e| &e.message),
            rb.as_ref().map_err(|e| &e.message)
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn the_lines_give_the_inverse_the_ops_give(
        txs in proptest::collection::vec(
            (proptest::collection::vec((0u8..12, 0u8..5, 0u8..5, 0u8..6), 1..4), 0u8..128),
            1..14,
        )
    ) {
        compare(&txs);
    }
}
