//! Two revisions folded in one pass for a diff (`diff_fold`) against the
//! diff of two whole folds, on random logs.

use super::diff::{Diff, Side, diff_contents};
use super::diff_fold::fold_two;
use crate::model::value::Map;
use crate::model::{Bounds, Edge, Handle, Node, NodeKind, Value};
use crate::model::{Op, OpBody};
use crate::store::fold::{fold_at, revisions};
use proptest::prelude::*;

const NODES: [&str; 4] = ["n0", "n1", "n2", "q\"x"];

/// One op as numbers: (kind, node, other, value).
type Step = (u8, u8, u8, u8);

fn body((kind, a, b, c): Step, edges: &[Edge]) -> OpBody {
    let id = NODES[a as usize % NODES.len()].to_string();
    let node = |c: u8| {
        let mut definition = Map::new();
        definition.insert("x".into(), Value::from(c as u64));
        Node {
            id: id.as_str().into(),
            phase: (!c.is_multiple_of(3)).then(|| format!("p{}", c % 2).into()),
            kind: [NodeKind::Join, NodeKind::Call][c as usize % 2],
            definition: definition.into(),
        }
    };
    match kind % 10 {
        0 | 1 => OpBody::AddNode { node: node(c) },
        2 => OpBody::ReplaceNode { node: node(c ^ 1) },
        3 => OpBody::RemoveNode {
            // Some of the edges at it, as an older or merged log can list.
            incident_edge_ids: (edges.iter())
                .filter(|e| {
                    (e.from == id || e.to == id) && !(c.is_multiple_of(3) && e.id.ends_with('1'))
                })
                .map(|e| e.id.to_string())
                .collect(),
            node_id: id,
        },
        4 => OpBody::SetNodeField {
            node_id: id,
            path: if c.is_multiple_of(2) { "x" } else { "y.z" }.into(),
            value: Value::from(b as u64),
        },
        5 => OpBody::SetNodePhase {
            node_id: id,
            phase: b.is_multiple_of(2).then(|| format!("p{b}")),
        },
        6 | 7 => OpBody::AddEdge {
            edge: Edge {
                id: format!("e{}", c % 3).as_str().into(),
                from: id.as_str().into(),
                to: NODES[b as usize % NODES.len()].into(),
                handle: Handle::Always,
            },
        },
        8 => OpBody::RemoveEdge {
            edge_id: format!("e{}", c % 3),
        },
        _ => OpBody::SetBounds {
            bounds: Bounds {
                max_nodes: 10 + c as u64,
                ..Bounds::default()
            },
        },
    }
}

/// A log of transactions by two actors, some numbered below ops already
/// written (as a merge of two clones leaves them).
fn log(txs: &[(Vec<Step>, u8)]) -> Vec<Op> {
    // Half the plans say where they came from (a template's instance).
    let provenance =
        txs.first()
            .filter(|(_, how)| how % 2 == 1)
            .map(|_| crate::model::Provenance::Template {
                template: "t".into(),
                args: Map::new(),
            });
    let create = OpBody::CreatePlan {
        label: None,
        request: None,
        provenance,
    };
    let mut ops = crate::store::transaction("ann", "plan-d", 0, vec![create]);
    let mut edges: Vec<Edge> = Vec::new();
    let mut lamport = ops.len() as u64;
    for (steps, how) in txs {
        let bodies: Vec<OpBody> = steps.iter().map(|s| body(*s, &edges)).collect();
        edges.extend(bodies.iter().filter_map(|b| match b {
            OpBody::AddEdge { edge } => Some(edge.clone()),
            _ => None,
        }));
        let base = if how % 4 == 3 {
            lamport.saturating_sub(2)
        } else {
            lamport
        };
        let actor = if how % 2 == 0 { "ann" } else { "bob" };
        let tx = crate::store::transaction(actor, "plan-d", base, bodies);
        lamport = lamport.max(base + tx.len() as u64);
        ops.extend(tx);
    }
    ops
}

/// The diff of two whole folds, as `Forge::diff` made it before.
fn whole(ops: &[Op], a: u64, b: u64) -> Diff {
    let side = |r: u64| {
        let f = fold_at("plan-d", ops, r);
        let digest = crate::wire::jcs::digest(&f.content).0;
        let s = Side {
            label: r.to_string(),
            revision: Some(r),
            digest,
        };
        (f.content, s)
    };
    let ((ca, sa), (cb, sb)) = (side(a), side(b));
    diff_contents(&ca, &cb, sa, sb)
}

fn by_change(ops: &[Op], a: u64, b: u64) -> Option<Diff> {
    let head = revisions(ops);
    let parts = fold_two("plan-d", ops.to_vec(), (a.min(b), a.max(b)), (head, None))?;
    let (lo, hi) = (parts.earlier, parts.later);
    let ((ca, da), (cb, db)) = if a <= b { (lo, hi) } else { (hi, lo) };
    let side = |r: u64, digest| Side {
        label: r.to_string(),
        revision: Some(r),
        digest,
    };
    Some(diff_contents(&ca, &cb, side(a, da), side(b, db)))
}

#[test]
fn writes_one_after_another_are_diffed_in_one_pass() {
    let steps = |s: &[Step]| s.to_vec();
    let ops = log(&[
        (steps(&[(0, 0, 0, 1), (0, 1, 0, 2), (6, 0, 1, 0)]), 0),
        (steps(&[(4, 0, 3, 0), (5, 1, 2, 0)]), 0),
        (steps(&[(3, 1, 0, 1), (0, 2, 0, 4)]), 0),
    ]);
    let head = revisions(&ops);
    for (a, b) in [(0, head), (4, head), (head, 4), (4, 6), (2, 2)] {
        let got = by_change(&ops, a, b).expect("a log written in order folds in one pass");
        assert_eq!(got, whole(&ops, a, b), "{a} → {b}");
    }
    assert!(!by_change(&ops, 4, head).unwrap().is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
    /// Whenever the diff is folded in one pass, it is the diff of two
    /// whole folds, for every pair of revisions.
    #[test]
    fn a_diff_in_one_pass_is_the_diff_of_two_whole_folds(
        txs in proptest::collection::vec(
            (proptest::collection::vec(any::<Step>(), 1..4), any::<u8>()),
            1..7,
        )
    ) {
        let ops = log(&txs);
        let head = revisions(&ops);
        for a in 0..=head {
            for b in 0..=head {
                if let Some(got) = by_change(&ops, a, b) {
                    prop_assert_eq!(got, whole(&ops, a, b), "{} → {}", a, b);
                }
            }
        }
    }
}
