//! Tests of the fold.

use super::*;
use crate::model::value::{Map, Value};
use crate::model::{Edge, Handle, Node, NodeKind};

fn op(lamport: u64, actor: &str, tx: &str, end: bool, body: OpBody) -> Op {
    Op {
        op_id: format!("{actor}:plan-t:{lamport}:{tx}"),
        actor_id: actor.into(),
        lamport,
        at: "2026-01-01T00:00:00Z".into(),
        tx: tx.into(),
        tx_end: end,
        body,
    }
}
fn node(id: &str) -> Node {
    Node {
        id: id.into(),
        phase: None,
        kind: NodeKind::Join,
        definition: Map::new().into(),
    }
}
fn edge(id: &str, from: &str, to: &str) -> Edge {
    Edge {
        id: id.into(),
        from: from.into(),
        to: to.into(),
        handle: Handle::Always,
    }
}

#[test]
fn removal_takes_incident_edges_and_dangling_edges_drop() {
    let ops = vec![
        op(1, "a", "t1", false, OpBody::AddNode { node: node("x") }),
        op(2, "a", "t1", false, OpBody::AddNode { node: node("y") }),
        op(
            3,
            "a",
            "t1",
            false,
            OpBody::AddEdge {
                edge: edge("e1", "x", "y"),
            },
        ),
        op(
            4,
            "a",
            "t1",
            true,
            OpBody::AddEdge {
                edge: edge("e2", "y", "x"),
            },
        ),
        op(
            5,
            "a",
            "t2",
            true,
            OpBody::RemoveNode {
                node_id: "y".into(),
                incident_edge_ids: vec!["e1".into()],
            },
        ),
    ];
    let f = fold("plan-t", &ops);
    assert_eq!(f.content.nodes.len(), 1);
    assert!(f.content.edges.is_empty());
    assert!(
        crate::check::notes::issues(&f.notes)
            .iter()
            .any(|i| i.code == "dangling_edge" && i.edge_id.as_deref() == Some("e2"))
    );
}

#[test]
fn duplicate_edge_ids_are_blocking_and_name_both() {
    let ops = vec![
        op(1, "a", "t1", false, OpBody::AddNode { node: node("x") }),
        op(2, "a", "t1", false, OpBody::AddNode { node: node("y") }),
        op(
            3,
            "a",
            "t1",
            true,
            OpBody::AddEdge {
                edge: edge("e", "x", "y"),
            },
        ),
        op(
            4,
            "b",
            "t2",
            true,
            OpBody::AddEdge {
                edge: edge("e", "y", "x"),
            },
        ),
    ];
    let f = fold("plan-t", &ops);
    let issues = crate::check::notes::issues(&f.notes);
    let i = issues
        .iter()
        .find(|i| i.code == "duplicate_edge_id")
        .unwrap();
    assert!(i.is_blocking());
    assert!(i.message.contains("x → y") && i.message.contains("y → x"));
}

#[test]
fn edits_to_absent_nodes_are_reported() {
    let ops = vec![op(
        1,
        "a",
        "t",
        true,
        OpBody::SetNodePhase {
            node_id: "ghost".into(),
            phase: Some("p".into()),
        },
    )];
    let f = fold("plan-t", &ops);
    assert!(
        crate::check::notes::issues(&f.notes)
            .iter()
            .any(|i| i.code == "unknown_node")
    );
}

#[test]
fn set_path_creates_intermediates() {
    let mut m = Map::new();
    set_path(&mut m, "args.a.b", Value::Bool(true));
    assert_eq!(get_path(&m, "args.a.b"), Some(&Value::Bool(true)));
    m.insert("list".into(), Value::Array(vec![Value::Null, Value::Null]));
    set_path(&mut m, "list.1", Value::Number(2.0));
    assert_eq!(get_path(&m, "list.1"), Some(&Value::Number(2.0)));
}

/// An edge replaced on top of a fold with one whose end is absent drops,
/// as in a whole fold (the edges known to be good before were no longer
/// known good once replaced), and the digest resumed from the earlier
/// fold's is the whole fold's.
#[test]
fn an_edge_replaced_on_top_is_checked_again_and_the_digest_resumes() {
    let first = vec![
        op(1, "a", "t1", false, OpBody::AddNode { node: node("x") }),
        op(2, "a", "t1", false, OpBody::AddNode { node: node("y") }),
        op(
            3,
            "a",
            "t1",
            true,
            OpBody::AddEdge {
                edge: edge("e1", "x", "y"),
            },
        ),
    ];
    let before = fold("plan-t", &first);
    let _ = before.digested();
    let more = vec![op(
        4,
        "a",
        "t2",
        true,
        OpBody::AddEdge {
            edge: edge("e1", "x", "z"),
        },
    )];
    let on_top = fold_after(before, 3, &more).expect("sorts after");
    let all: Vec<Op> = first.into_iter().chain(more).collect();
    let whole = fold("plan-t", &all);
    assert_eq!(on_top.content, whole.content);
    assert!(on_top.content.edges.is_empty());
    assert_eq!(on_top.notes, whole.notes);
    assert_eq!(on_top.digested(), whole.digested());
    assert_eq!(on_top.digested(), &crate::wire::jcs::digest(&whole.content));
}

fn wide(n: usize) -> crate::model::Content {
    let mut c = crate::model::Content::empty("plan-t");
    c.nodes = (0..n).map(|i| node(&format!("n{i}"))).collect();
    c.edges = (1..n)
        .map(|i| edge(&format!("e{i}"), &format!("n{}", i - 1), &format!("n{i}")))
        .collect();
    c.revision = n as u64;
    c
}

/// A digest computed ahead on another thread is the digest, and a read
/// waits for it instead of hashing again; a stopped one lets go of the
/// fold (a write then folds on top without a copy) and keeps nothing, so
/// the digest is computed when asked for.
#[test]
fn a_digest_computed_ahead_is_the_digest_and_a_stopped_one_lets_go() {
    let c = wide(3000);
    let want = crate::wire::jcs::digest(&c);
    let f = Arc::new(Folded::of_content(c.clone()));
    let w = super::Worker::default();
    let ahead = Folded::digest_ahead(&f, true, &w).expect("not known yet");
    assert_eq!(f.digested(), &want);
    ahead.stop();
    assert_eq!(Arc::strong_count(&f), 1);
    assert!(
        Folded::digest_ahead(&f, true, &w).is_none(),
        "known already"
    );
    // Stopped at once: the thread gives up (or finishes) and lets go.
    let g = Arc::new(Folded::of_content(wide(20_000)));
    let ahead = Folded::digest_ahead(&g, true, &w).expect("not known yet");
    ahead.stop();
    assert_eq!(Arc::strong_count(&g), 1);
    let g = super::super::warm::unshare(g);
    assert_eq!(g.digested(), &crate::wire::jcs::digest(&wide(20_000)));
    // Dropped without waiting: asked to stop, the fold is still right.
    let h = Arc::new(Folded::of_content(c));
    drop(Folded::digest_ahead(&h, true, &w));
    assert_eq!(h.digested(), &want);
}

/// One worker hashes fold after fold: each digest is right, a stopped one
/// (under way or still waiting its turn) lets go of its fold at once, and
/// a worker let go of with folds still waiting leaves none waiting for ever.
#[test]
fn one_worker_hashes_fold_after_fold_and_lets_go_of_what_is_stopped() {
    let w = super::Worker::default();
    let folds: Vec<Arc<Folded>> = (0..6)
        .map(|i| Arc::new(Folded::of_content(wide(2000 + i * 500))))
        .collect();
    let mut kept = Vec::new();
    for (i, f) in folds.iter().enumerate() {
        let ahead = Folded::digest_ahead(f, false, &w).expect("not known yet");
        assert!(Folded::digest_ahead(f, false, &w).is_none(), "under way");
        if i % 2 == 1 {
            ahead.stop();
            assert_eq!(Arc::strong_count(f), 1, "fold {i} let go of");
        } else {
            kept.push(ahead);
        }
    }
    assert!(w.started());
    for (i, f) in folds.iter().enumerate() {
        assert_eq!(
            f.digested(),
            &crate::wire::jcs::digest(&f.content),
            "fold {i}"
        );
    }
    drop(kept);
    let later = Arc::new(Folded::of_content(wide(3000)));
    let ahead = Folded::digest_ahead(&later, true, &w);
    drop(w);
    drop(ahead);
    assert_eq!(later.digested(), &crate::wire::jcs::digest(&later.content));
}

proptest::proptest! {
    /// A document's import folded straight ([`import`]) gives the content
    /// and notes its ops give through [`fold_owned`]: nodes and edges drawn
    /// from small id pools (so ids repeat, with the same or another body),
    /// edges whose ends may be missing (dangling), with and without bounds
    /// and provenance.
    #[test]
    fn an_import_folds_as_its_ops(
        nodes in proptest::collection::vec((0usize..6, 0usize..3, proptest::option::of(0usize..2)), 0..10),
        edges in proptest::collection::vec((0usize..5, 0usize..8, 0usize..8, proptest::bool::ANY), 0..10),
        bounded in proptest::bool::ANY,
        provenance in proptest::bool::ANY,
    ) {
        let kinds = [NodeKind::Join, NodeKind::Entry, NodeKind::Call];
        let nodes: Vec<Node> = nodes
            .into_iter()
            .map(|(id, kind, phase)| Node {
                phase: phase.map(|p| format!("p{p}").into()),
                kind: kinds[kind],
                ..node(&format!("n{id}"))
            })
            .collect();
        let edges: Vec<Edge> = edges
            .into_iter()
            .map(|(id, from, to, on_error)| Edge {
                handle: if on_error { Handle::Error } else { Handle::Always },
                ..edge(&format!("e{id}"), &format!("n{from}"), &format!("n{to}"))
            })
            .collect();
        let bounds = bounded.then(|| crate::model::Bounds {
            max_nodes: 7,
            ..crate::model::Bounds::default()
        });
        let provenance = provenance.then(|| crate::model::Provenance::Template {
            template: "t".into(),
            args: Map::new(),
        });
        let mut bodies = vec![OpBody::CreatePlan {
            label: None,
            request: None,
            provenance: provenance.clone(),
        }];
        bodies.extend(crate::forge::plans::import_bodies(bounds, nodes.clone(), edges.clone()));
        let folded = fold_owned("plan-t", crate::store::transaction("validate", "plan-t", 0, bodies));
        let (content, notes) = import("plan-t", bounds.unwrap_or_default(), nodes, edges, provenance);
        proptest::prop_assert_eq!(&content, &folded.content);
        proptest::prop_assert_eq!(notes, folded.notes);
    }
}

/// The fold at each revision from references is the fold of a copy of
/// the ops cut at that revision, lifecycle ops among them (a freeze, an
/// unfreeze) and ops out of order.
#[test]
fn a_fold_at_a_revision_is_the_fold_of_the_ops_cut_there() {
    let mut ops = vec![
        op(1, "a", "t1", true, OpBody::AddNode { node: node("x") }),
        op(2, "a", "t2", true, OpBody::AddNode { node: node("y") }),
        op(
            3,
            "a",
            "t3",
            true,
            OpBody::AddEdge {
                edge: edge("e1", "x", "y"),
            },
        ),
        op(4, "a", "t4", true, OpBody::Unfreeze),
        op(
            6,
            "a",
            "t6",
            true,
            OpBody::RemoveNode {
                node_id: "y".into(),
                incident_edge_ids: vec!["e1".into()],
            },
        ),
        op(5, "b", "t5", true, OpBody::AddNode { node: node("z") }),
    ];
    ops.push(op(7, "a", "t7", true, OpBody::AddNode { node: node("w") }));
    for r in 0..=revisions(&ops) + 1 {
        let cut = fold_owned("plan-t", at_revision(ops.clone(), r));
        let at = fold_at("plan-t", &ops, r);
        assert_eq!(at.content, cut.content, "revision {r}");
        assert_eq!(at.notes, cut.notes, "revision {r}");
        assert_eq!(at.meta, cut.meta, "revision {r}");
    }
}

proptest::proptest! {
    /// Ops folded on top of a plan whose id index was not kept (a restored
    /// snapshot's: ids are then looked up by scanning until enough were,
    /// see `content::Ids`) give the content and notes of folding every op,
    /// and of folding them on top of the same plan with its index: tails
    /// long and short (past the scans' limit or not) that add nodes again
    /// (as a replace or a duplicate), remove nodes without their edges
    /// (which then dangle) and add them back, add edges to missing nodes,
    /// remove and re-add edges and set the phase of absent nodes; and on
    /// top of it with neither, asking a base for positions and for the
    /// edges of each removed node (as a one-shot command's tail on a
    /// restored plan does).
    #[test]
    fn a_fold_on_top_without_the_index_is_the_fold_of_every_op(
        size in 1usize..12,
        tail in proptest::collection::vec((0usize..6, 0usize..14, 0usize..14, 0usize..14), 0..40),
    ) {
        let mut base = Vec::new();
        for i in 0..size {
            base.push(OpBody::AddNode { node: node(&format!("n{i}")) });
        }
        for i in 1..size {
            base.push(OpBody::AddEdge { edge: edge(&format!("e{i}"), &format!("n{}", i / 2), &format!("n{i}")) });
        }
        let first: Vec<Op> = base
            .into_iter()
            .enumerate()
            .map(|(k, b)| op(k as u64 + 1, "a", &format!("t{k}"), true, b))
            .collect();
        let max = first.len() as u64;
        let more: Vec<Op> = tail
            .iter()
            .enumerate()
            .map(|(k, &(what, a, b, c))| {
                let body = match what {
                    0 => OpBody::AddNode { node: Node { kind: if c % 2 == 0 { NodeKind::Join } else { NodeKind::Call }, ..node(&format!("n{a}")) } },
                    1 => OpBody::ReplaceNode { node: Node { phase: Some(format!("p{c}").into()), ..node(&format!("n{a}")) } },
                    2 => OpBody::RemoveNode {
                        node_id: format!("n{a}"),
                        incident_edge_ids: (b % 3 == 0).then(|| format!("e{a}")).into_iter().collect(),
                    },
                    3 => OpBody::AddEdge { edge: edge(&format!("e{c}"), &format!("n{a}"), &format!("n{b}")) },
                    4 => OpBody::RemoveEdge { edge_id: format!("e{c}") },
                    _ => OpBody::SetNodePhase { node_id: format!("n{a}"), phase: Some(format!("q{b}")) },
                };
                op(max + 1 + k as u64, "b", &format!("u{}", k / 3), k % 3 == 2 || k + 1 == tail.len(), body)
            })
            .collect();
        let before = fold("plan-t", &first);
        proptest::prop_assert!(before.positions_if_kept().is_some());
        let mut forgotten = before.clone();
        forgotten.index = std::sync::OnceLock::new();
        let mut based = forgotten.clone();
        let (nodes, edges) = (before.content.nodes.clone(), before.content.edges.clone());
        based.base = Some(Base::new(std::sync::Arc::new(base::Indexed(nodes, edges))));
        let with = fold_after(before, max, &more).expect("sorts after");
        let without = fold_after(forgotten, max, &more).expect("sorts after");
        let on_base = fold_after(based, max, &more).expect("sorts after");
        let all: Vec<Op> = first.into_iter().chain(more).collect();
        let whole = fold("plan-t", &all);
        proptest::prop_assert_eq!(&without.content, &whole.content);
        proptest::prop_assert_eq!(&without.notes, &whole.notes);
        proptest::prop_assert_eq!(&with.content, &whole.content);
        proptest::prop_assert_eq!(&with.notes, &whole.notes);
        proptest::prop_assert_eq!(&on_base.content, &whole.content);
        proptest::prop_assert_eq!(&on_base.notes, &whole.notes);
        proptest::prop_assert_eq!(without.positions().map(|x| (x.node("n0"), x.edge("e1"))), whole.positions().map(|x| (x.node("n0"), x.edge("e1"))));
    }
}
