//! Property tests: the fold ignores storage order, documents round-trip
//! through JSON and YAML without changing the digest, generated DAGs
//! validate clean and a back edge is always a cycle.

use planforge::model::{Bounds, Content, Edge, Handle, Map, Node, NodeKind, OpBody, Ref, Value};
use planforge::store::{fold, transaction};
use planforge::wire::{Syntax, codec, jcs};
use proptest::prelude::*;

fn call(id: &str, refs: &[String]) -> Node {
    let mut args = Map::new();
    for (i, r) in refs.iter().enumerate() {
        let mut reference = Ref::new(r.clone());
        reference.path = Some("out".into());
        args.insert(format!("a{i}").into(), Value::Ref(Box::new(reference)));
    }
    let def = serde_json::json!({
        "tool": "t", "output": [{"path": "out", "type": "string"}], "onMissingValue": "fail",
        "authority": [], "replaySafe": true, "onIndeterminate": "halt", "declassifies": ["out"],
    });
    let mut definition = planforge::wire::convert::from_json(&def, "")
        .unwrap()
        .as_object()
        .unwrap()
        .clone();
    definition.insert("args".into(), Value::Object(args));
    Node {
        id: id.into(),
        phase: Some(format!("p{}", id.len() % 3).into()),
        kind: NodeKind::Call,
        definition: definition.into(),
    }
}

/// A random tree-shaped plan: node i hangs under a parent before it; refs
/// read the parent's declared output.
fn tree(parents: &[usize]) -> Content {
    let mut c = Content::empty("plan-prop");
    c.nodes.push(Node {
        id: "start".into(),
        phase: None,
        kind: NodeKind::Entry,
        definition: planforge::wire::convert::from_json(&serde_json::json!({"input": []}), "")
            .unwrap()
            .as_object()
            .unwrap()
            .clone()
            .into(),
    });
    for (i, &p) in parents.iter().enumerate() {
        let id = format!("n{}", i + 1);
        let parent = if p % (i + 1) == 0 {
            "start".to_string()
        } else {
            format!("n{}", p % (i + 1))
        };
        let refs = if parent == "start" {
            vec![]
        } else {
            vec![parent.clone()]
        };
        c.nodes.push(call(&id, &refs));
        c.edges.push(Edge {
            id: format!("e{}", i + 1).into(),
            from: parent.into(),
            to: id.into(),
            handle: Handle::Always,
        });
    }
    c.bounds = Bounds {
        max_nodes: 10_000,
        max_edges: 10_000,
        ..Bounds::default()
    };
    c
}

fn import_ops(c: &Content) -> Vec<OpBody> {
    let mut ops = vec![OpBody::SetBounds { bounds: c.bounds }];
    ops.extend(c.nodes.iter().cloned().map(|node| OpBody::AddNode { node }));
    ops.extend(c.edges.iter().cloned().map(|edge| OpBody::AddEdge { edge }));
    ops
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn the_fold_ignores_storage_order(parents in prop::collection::vec(0usize..50, 1..30), edits in prop::collection::vec((0usize..30, "[a-z]{1,5}"), 0..10), seed in any::<u64>()) {
        let c = tree(&parents);
        let mut ops = transaction("alice", "plan-prop", 0, import_ops(&c));
        let base = ops.len() as u64;
        for (k, (n, tool)) in edits.iter().enumerate() {
            let node = format!("n{}", 1 + n % parents.len());
            // Two actors write at the same lamport: concurrent histories.
            let actor = if k % 2 == 0 { "alice" } else { "bob" };
            let rev = base + k as u64 / 2;
            ops.extend(transaction(actor, "plan-prop", rev, vec![OpBody::SetNodeField { node_id: node, path: "tool".into(), value: Value::String(tool.clone().into()) }]));
        }
        let a = fold::fold("plan-prop", &ops);
        let mut shuffled = ops.clone();
        let mut s = seed | 1;
        for i in (1..shuffled.len()).rev() {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            shuffled.swap(i, (s % (i as u64 + 1)) as usize);
        }
        let b = fold::fold("plan-prop", &shuffled);
        prop_assert_eq!(&a.content, &b.content);
        prop_assert_eq!(jcs::digest(&a.content).0, jcs::digest(&b.content).0);
    }

    #[test]
    fn folding_new_ops_on_top_equals_folding_everything(parents in prop::collection::vec(0usize..50, 2..30), removals in prop::collection::vec(0usize..30, 0..4), tools in prop::collection::vec("[a-z]{1,4}", 0..4)) {
        let c = tree(&parents);
        let first = transaction("alice", "plan-prop", 0, import_ops(&c));
        let before = fold::fold("plan-prop", &first);
        let mut bodies: Vec<OpBody> = removals.iter().map(|r| {
            let id = format!("n{}", 1 + r % parents.len());
            let incident = c.edges.iter().filter(|e| e.from == id || e.to == id).map(|e| e.id.to_string()).collect();
            OpBody::RemoveNode { node_id: id, incident_edge_ids: incident }
        }).collect();
        bodies.extend(tools.iter().enumerate().map(|(i, t)| OpBody::SetNodeField { node_id: format!("n{}", 1 + i % parents.len()), path: "tool".into(), value: Value::String(t.clone().into()) }));
        bodies.push(OpBody::AddNode { node: call("late", &[]) });
        let next = transaction("bob", "plan-prop", first.len() as u64, bodies);
        let max = first.iter().map(|o| o.lamport).max().unwrap();
        let on_top = fold::fold_after(before, max, &next).expect("new ops sort after the old ones");
        let mut all = first.clone();
        all.extend(next);
        let whole = fold::fold("plan-prop", &all);
        prop_assert_eq!(&on_top.content, &whole.content);
        prop_assert_eq!(&on_top.notes, &whole.notes);
    }

    #[test]
    fn documents_round_trip_through_json_and_yaml_with_the_same_digest(parents in prop::collection::vec(0usize..50, 0..25), label in "[ -~]{0,20}") {
        let c = tree(&parents);
        let (digest, _) = jcs::digest(&c);
        let doc = codec::document_json(&c, Some(&label), Some("editable"), Some(&digest));
        let json_text = planforge::wire::json::pretty(&doc);
        let yaml_text = planforge::wire::json::yaml(&doc);
        for (text, syntax) in [(json_text, Syntax::Json), (yaml_text, Syntax::Yaml)] {
            let back = codec::document(&text, syntax).unwrap();
            let content = planforge::forge::plans::document_content(&back, "plan-prop");
            prop_assert_eq!(&content.nodes, &c.nodes);
            prop_assert_eq!(&content.edges, &c.edges);
            prop_assert_eq!(back.label.as_deref(), Some(label.as_str()));
            prop_assert_eq!(jcs::digest(&content).0, digest.clone());
            prop_assert_eq!(jcs::encoded_len(&content), jcs::content(&content).len());
        }
    }

    #[test]
    fn generated_dags_validate_clean_and_a_back_edge_is_a_cycle(parents in prop::collection::vec(0usize..50, 2..40), pick in any::<usize>()) {
        let mut c = tree(&parents);
        let report = planforge::check::run(&c, None, vec![]);
        let blocking: Vec<_> = report.issues.iter().filter(|i| i.is_blocking()).collect();
        prop_assert!(blocking.is_empty(), "{:?}", blocking);
        // Close a cycle: from some node back to its parent.
        let e = &c.edges[pick % c.edges.len()];
        let back = Edge { id: "back".into(), from: e.to.clone(), to: e.from.clone(), handle: Handle::Error };
        if e.from != "start" {
            c.edges.push(back);
            let report = planforge::check::run(&c, None, vec![]);
            prop_assert!(report.issues.iter().any(|i| i.code.name == "cycle" && i.edge_id.is_some()));
        }
    }
}

#[test]
fn a_full_plan_digest_is_pinned() {
    let c = tree(&[0, 1, 1, 2]);
    let (digest, len) = jcs::digest(&c);
    // Computed once from the canonical form; any change to the encoding,
    // the key order or the number format breaks every stored freeze.
    assert_eq!(len, jcs::content(&c).len());
    assert_eq!(
        digest,
        "dd20db6a4c6409f9c793e2643592bbab7f7f4552ca9d6420ff1d2cd3fb3ea367"
    );
}

// Incremental checks (issue 17): after every edit of a random sequence, the
// findings a warm session computes from the last run and what the edit
// touched equal a full check of the new content.

/// Node ids the edits pick from: few, so edits collide (re-adds, edges to
/// removed nodes, references that dangle and then resolve).
const POOL: usize = 8;

fn pool_id(i: usize) -> String {
    format!("n{}", i % POOL)
}

fn def(v: serde_json::Value) -> Map {
    planforge::wire::convert::from_json(&v, "")
        .unwrap()
        .as_object()
        .unwrap()
        .clone()
}

/// A node of a kind and shape picked by `shape`, reading `other` where it
/// reads anything: complete or missing fields, known or unknown tools,
/// holes, placeholders, cases wired or not.
fn gen_node(id: String, shape: usize, other: usize) -> Node {
    // References of every kind the reference checks tell apart (issue 17:
    // the kept facts hand each check only the kinds it asks for): first,
    // last, all or an index; with or without a branch (a route over an
    // edge the edits may make); a declassified output or another.
    let select = match (shape / 9) % 4 {
        0 => serde_json::json!("first"),
        1 => serde_json::json!("last"),
        2 => serde_json::json!("all"),
        _ => serde_json::json!({"index": 0}),
    };
    let path = if other % 3 == 2 { "raw" } else { "out" };
    let mut r = serde_json::json!({"node": pool_id(other), "select": select, "path": path});
    match (other / 8) % 5 {
        1 => {
            r["branchId"] = serde_json::json!({"segments": [{"edge": format!("e{}", other % 12)}]})
        }
        2 => r["branchId"] = serde_json::json!({"segments": [{"edge": "c1"}]}),
        _ => {}
    }
    let r = serde_json::json!({ "$ref": r });
    // A structured test reads a pool node (which may come and go) or a
    // node no edit makes.
    let tested = match other % 2 {
        0 => format!("{}.out", pool_id(other)),
        _ => "x".to_string(),
    };
    let (kind, d) = match shape % 9 {
        0 => (NodeKind::Entry, serde_json::json!({"input": []})),
        1 => (
            NodeKind::Call,
            serde_json::json!({"tool": "spawn_subagent", "args": {"role": r}, "output": [{"path": "out", "type": "string"}], "declassifies": ["out", "nope"],
                "onMissingValue": "fail", "authority": [], "replaySafe": true, "onIndeterminate": "halt"}),
        ),
        2 => (
            NodeKind::Call,
            serde_json::json!({"tool": "no_such_tool", "args": {"x": {"$param": {"path": "p"}}}, "output": [], "onMissingValue": "fail",
                "authority": [], "replaySafe": false, "onIndeterminate": "retry"}),
        ),
        3 => (
            NodeKind::Call,
            serde_json::json!({"tool": "TODO", "args": {"y": r, "z": "@n1.out"}, "bogus": 1}),
        ),
        4 => (
            NodeKind::Select,
            serde_json::json!({"evaluator": "structured", "cases": ["a", "b"], "predicate": {"cases": {"a": {"path": tested, "op": "truthy"}}}}),
        ),
        5 => (
            NodeKind::Branch,
            serde_json::json!({"evaluator": "structured", "predicate": {"path": "x", "op": "nope"}}),
        ),
        6 => (NodeKind::Join, serde_json::json!({})),
        7 => (
            NodeKind::Transform,
            serde_json::json!({"source": r, "steps": [{"step": "nope"}], "emit": {"as": "rows"}, "output": []}),
        ),
        _ => (NodeKind::Reason, serde_json::json!({"prompt": r})),
    };
    let phase = match shape % 4 {
        0 => None,
        1 => Some("p1".to_string()),
        2 => Some("p2".to_string()),
        _ => Some("bad phase\u{7}".to_string()),
    };
    Node {
        id: id.into(),
        phase: phase.map(Into::into),
        kind,
        definition: def(d).into(),
    }
}

const HANDLES: [&str; 7] = [
    "always", "error", "true", "false", "default", "case_a", "case_zz",
];

/// One random edit, as the content ops a command would append, made
/// against `c` (removals name the edges at the node, as `remove-node`
/// does, unless `k` says to leave them dangling).
fn gen_edit(c: &Content, (what, a, b, k): (usize, usize, usize, usize)) -> Vec<OpBody> {
    let id = pool_id(a);
    match what % 12 {
        0 | 1 => vec![OpBody::AddNode {
            node: gen_node(id, b, k),
        }],
        2 => vec![OpBody::ReplaceNode {
            node: gen_node(id, b, k),
        }],
        3 => {
            let incident = if k % 3 == 0 {
                Vec::new()
            } else {
                c.edges
                    .iter()
                    .filter(|e| e.from == id || e.to == id)
                    .map(|e| e.id.to_string())
                    .collect()
            };
            vec![OpBody::RemoveNode {
                node_id: id,
                incident_edge_ids: incident,
            }]
        }
        4 => {
            let (path, value) = match b % 8 {
                // Large enough for a phase of a few to overflow a read
                // (`oversized_phase`), or for one node alone.
                6 => ("args.blob", Value::String("x".repeat(9000).into())),
                7 => ("args.blob", Value::String("x".repeat(17000).into())),
                0 => ("tool", Value::String("spawn_subagent".into())),
                1 => ("tool", Value::String("nope".into())),
                2 => ("replaySafe", Value::Bool(k % 2 == 0)),
                3 => ("onIndeterminate", Value::String("retry".into())),
                4 => (
                    "cases",
                    Value::Array(vec![Value::String("a".into()), Value::String("zz".into())]),
                ),
                _ => (
                    "args.w",
                    Value::Param(planforge::model::Param { path: "w".into() }),
                ),
            };
            vec![OpBody::SetNodeField {
                node_id: id,
                path: path.into(),
                value,
            }]
        }
        5 => vec![OpBody::SetNodePhase {
            node_id: id,
            phase: [
                None,
                Some("p1".to_string()),
                Some("bad\u{202e}".to_string()),
            ][b % 3]
                .clone(),
        }],
        6 | 7 => vec![OpBody::AddEdge {
            edge: Edge {
                // Now and then an id `invalid_edge_id` refuses.
                id: format!("e{}{}", k % 12, if b % 7 == 3 { "!" } else { "" }).into(),
                from: id.into(),
                to: pool_id(b).into(),
                handle: Handle::parse(HANDLES[k % HANDLES.len()]),
            },
        }],
        8 => match c.edges.get(k % c.edges.len().max(1)) {
            Some(e) => vec![OpBody::RemoveEdge {
                edge_id: e.id.to_string(),
            }],
            None => vec![],
        },
        // An edge of its own (not one of the dozen ids above, which are
        // mostly replaced in place): an added edge the kept analyses follow.
        11 => vec![OpBody::AddEdge {
            edge: Edge {
                id: format!("f{a}_{b}_{}", k % 3).into(),
                from: id.into(),
                to: pool_id(b).into(),
                handle: Handle::parse(HANDLES[k % 2]),
            },
        }],
        9 => vec![OpBody::SetNodeDefinition {
            node_id: id,
            definition: gen_node(String::new(), b, k).definition.into_map(),
        }],
        _ => vec![OpBody::SetBounds {
            bounds: Bounds {
                max_nodes: 1 + b as u64 % 9,
                max_edges: 1 + k as u64 % 9,
                ..Bounds::default()
            },
        }],
    }
}

/// A chain `n0 → n1 → … ` of the pool's nodes, each a call reading `n0`,
/// one op list per step; with `entry`, `n0` is the entry (the plan is
/// routable then: dominators and executions are made, and edits follow
/// them).
fn chain_ops(entry: bool) -> Vec<Vec<OpBody>> {
    let mut out: Vec<Vec<OpBody>> = (0..POOL)
        .map(|i| {
            let shape = if entry && i == 0 { 0 } else { 1 };
            vec![OpBody::AddNode {
                node: gen_node(pool_id(i), shape, 0),
            }]
        })
        .collect();
    out.extend((1..POOL).map(|i| {
        vec![OpBody::AddEdge {
            edge: Edge {
                id: format!("c{i}").into(),
                from: pool_id(i - 1).into(),
                to: pool_id(i).into(),
                handle: Handle::parse("always"),
            },
        }]
    }));
    out
}

fn default_registry() -> planforge::model::registry::Registry {
    planforge::model::registry::Registry::parse(
        include_str!("../src/registry/default.yaml"),
        Syntax::Yaml,
        "default",
    )
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn incremental_findings_equal_a_full_check_after_every_edit(
        start in prop::collection::vec((0usize..12, 0usize..POOL, 0usize..40, 0usize..40), 0..14),
        edits in prop::collection::vec((0usize..12, 0usize..POOL, 0usize..40, 0usize..40), 1..50),
        with_registry in any::<bool>(),
        chain in 0usize..3,
    ) {
        let registry = with_registry.then(default_registry);
        let mut ops = Vec::new();
        let mut folded = fold::fold("plan-inc", &[]);
        let mut kept = planforge::check::incremental::Kept::default();
        planforge::check::incremental::run(&mut kept, &folded.content, registry.as_ref(), vec![], None, None);
        // Optionally first a chain of every pool node, each reading the
        // first: an edit in the middle changes what runs before nodes far
        // from it (that no edit touches and that name no touched id); its
        // first node the entry or not.
        let chain = if chain > 0 { chain_ops(chain == 2) } else { Vec::new() };
        let edits = start.into_iter().chain(edits).map(Some);
        for (step, edit) in chain.into_iter().map(|b| (None, b)).chain(edits.map(|e| (e, vec![]))).enumerate() {
            let bodies = match edit {
                (Some(e), _) => gen_edit(&folded.content, e),
                (None, b) => b,
            };
            let touched = planforge::model::touched::Touched::of(&folded.content, &bodies);
            let tx = transaction("ann", "plan-inc", ops.len() as u64, bodies.clone());
            let max = ops.iter().map(|o: &planforge::model::Op| o.lamport).max().unwrap_or(0);
            ops.extend(tx.iter().cloned());
            // As a warm session does: on top of the last fold (its kept
            // indexes included) when it can, else everything again.
            let whole = fold::fold("plan-inc", &ops);
            folded = match fold::fold_after(folded, max, &tx) {
                Some(f) => f,
                None => fold::fold("plan-inc", &ops),
            };
            prop_assert_eq!(&folded.content, &whole.content, "step {}", step);
            prop_assert_eq!(&folded.notes, &whole.notes, "step {}", step);
            // The digest, resumed from the last one computed (not every
            // step's: a fold on top carries what changed since).
            let truth = jcs::digest(&folded.content);
            if let Some(len) = folded.encoded_len_if_known() {
                prop_assert_eq!(len, truth.1, "step {}", step);
            }
            if step % 3 != 1 {
                prop_assert_eq!(folded.digested(), &truth, "step {}", step);
            }
            let content = &folded.content;
            let full = planforge::check::run(content, registry.as_ref(), vec![]);
            // Now and then as a one-shot process does: the kept state read
            // back from the bytes the one before wrote; sometimes written
            // again before any use (what is read when used is then copied
            // forward as it was read, ids found before their table is made).
            if step % 4 == 2 {
                let read = |bytes: &[u8]| planforge::check::incremental::Kept::from_bytes(bytes)
                    .expect("the kept state reads back what it wrote");
                kept = read(&kept.to_bytes());
                if step % 8 == 6 {
                    kept = read(&kept.to_bytes());
                }
            }
            let inc = planforge::check::incremental::run(&mut kept, content, registry.as_ref(), vec![], Some(&touched), None);
            prop_assert_eq!(&inc.issues, &full.issues, "step {} ({:?})", step, bodies);
            prop_assert_eq!(&inc.skipped, &full.skipped, "step {}", step);
        }
    }
}
