//! The situations of the reference's test list (validation.md §8), run
//! through the whole engine (`check::run`) with a registry, as SPEC §5
//! decides them. Lifecycle situations (freeze, approval, clone: items 23–25)
//! belong to the lifecycle's tests.

use super::testing::*;
use super::{Report, run};
use crate::model::registry::Registry;
use crate::model::{Content, Node, NodeKind, OpBody, Value};
use serde_json::json;

fn reg() -> Registry {
    registry(&crate::registry::DEFAULT_REGISTRY_YAML.replace(
        "tools:\n",
        "tools:
  tickets_get: {returns: text, requiredArgs: [id]}
  echo: {returns: text}
  sanitize: {returns: text}
  chart: {returns: media}
  notes: {returns: text}
  report_fetch: {returns: {kind: artifact, class: json_document}}
  noop: {returns: text}
",
    ))
}

fn check(c: &Content) -> Report {
    run(c, Some(&reg()), Vec::new())
}

fn codes_of(c: &Content) -> Vec<&'static str> {
    check(c).issues.iter().map(|i| i.code.name).collect()
}

/// Asserts the plan raises `code` (and returns the report).
#[track_caller]
fn fires(c: &Content, code: &str) -> Report {
    let r = check(c);
    assert!(
        r.issues.iter().any(|i| i.code == code),
        "expected {code}, got {:#?}",
        r.issues
    );
    r
}

#[track_caller]
fn clean(c: &Content) {
    let r = check(c);
    assert!(
        r.issues.is_empty(),
        "expected no issues, got {:#?}",
        r.issues
    );
    assert!(r.skipped.is_empty(), "{:?}", r.skipped);
}

fn start() -> Node {
    node(
        "start",
        NodeKind::Entry,
        json!({"input": [{"path": "ticket_id", "type": "string"}, {"path": "q", "type": "string"}]}),
    )
}

fn noop(id: &str) -> Node {
    call_with(id, "noop", json!({}), &["result"])
}

/// Nodes in a line, each connected to the next on `always`.
fn line(nodes: Vec<Node>) -> Content {
    let ids: Vec<String> = nodes.iter().map(|n| n.id.to_string()).collect();
    let edges = ids
        .windows(2)
        .enumerate()
        .map(|(k, w)| edge(&format!("e{k}"), &w[0], &w[1], "always"))
        .collect();
    plan(nodes, edges)
}

fn with_declassifies(mut n: Node, names: &[&str]) -> Node {
    n.definition.insert(
        "declassifies".into(),
        Value::Array(names.iter().map(|s| Value::from(*s)).collect()),
    );
    n
}

fn diamond_edges() -> Vec<crate::model::Edge> {
    vec![
        edge("e1", "start", "a", "always"),
        edge("e2", "a", "b", "always"),
        edge("e3", "a", "c", "always"),
        edge("e4", "b", "j", "always"),
        edge("e5", "c", "j", "always"),
    ]
}

#[test]
fn s01_entry_count() {
    fires(&plan(vec![], vec![]), "no_entry");
    let r = fires(
        &plan(vec![start(), entry("other")], vec![]),
        "multiple_entries",
    );
    // Reachability runs from every entry: each entry reaches itself.
    assert!(!r.skipped.iter().any(|(c, _)| *c == "unreachable_node"));
    assert!(r.skipped.iter().any(|(c, _)| *c == "tainted_call_arg"));
    assert!(!r.issues.iter().any(|i| i.code == "unreachable_node"));
    // With no entry there is nothing to reach from: skipped, with the reason.
    let r = check(&plan(vec![noop("a")], vec![]));
    assert!(
        r.skipped
            .iter()
            .any(|(c, why)| *c == "unreachable_node" && why.contains("no entry")),
        "{:?}",
        r.skipped
    );
}

/// Issue 13, item 3: a cycle does not stop reachability, and several entries
/// do not stop it either; only the route, dominator and taint checks skip,
/// each with its reason.
#[test]
fn s01b_cycle_and_island_are_reported_in_one_run() {
    let mut p = line(vec![start(), noop("a"), noop("b")]);
    p.edges.push(edge("retry", "b", "a", "always"));
    p.nodes.push(noop("island"));
    let r = check(&p);
    let codes: Vec<&str> = r.issues.iter().map(|i| i.code.name).collect();
    assert!(codes.contains(&"cycle"), "{codes:?}");
    let lost: Vec<_> = r
        .issues
        .iter()
        .filter(|i| i.code == "unreachable_node" || i.code == "unreachable_call")
        .map(|i| i.node_id.as_deref())
        .collect();
    assert_eq!(lost, [Some("island"), Some("island")]);
    for (code, why) in &r.skipped {
        let check = super::by_code(code).unwrap();
        assert!(check.needs().routable || check.needs().acyclic, "{code}");
        assert_eq!(why, "the graph has a cycle", "{code}");
    }
    assert!(r.skipped.iter().any(|(c, _)| *c == "tainted_call_arg"));

    // Several entries: reachability from all of them; ancestry still runs.
    let mut p = line(vec![start(), noop("a")]);
    p.nodes.push(entry("second"));
    p.nodes.push(noop("island"));
    let r = check(&p);
    let lost: Vec<_> = r
        .issues
        .iter()
        .filter(|i| i.code == "unreachable_node")
        .map(|i| {
            (
                i.node_id.as_deref(),
                i.message.contains("any of the 2 entries"),
            )
        })
        .collect();
    assert_eq!(lost, [(Some("island"), true)]);
    let skipped: Vec<&str> = r.skipped.iter().map(|(c, _)| *c).collect();
    assert!(!skipped.contains(&"reference_not_upstream"), "{skipped:?}");
    assert!(skipped.contains(&"tainted_call_arg"), "{skipped:?}");
    assert!(
        r.skipped
            .iter()
            .all(|(_, why)| why == "the plan has 2 entry nodes, not exactly one")
    );
}

#[test]
fn s02_edge_into_the_entry() {
    let mut p = line(vec![start(), noop("x")]);
    p.edges.push(edge("back", "x", "start", "always"));
    fires(&p, "entry_has_incoming");
}

#[test]
fn s03_cycle_and_diamond() {
    let mut p = line(vec![start(), noop("a"), noop("b")]);
    p.edges.push(edge("retry", "b", "a", "error"));
    let r = fires(&p, "cycle");
    let cyc = r.issues.iter().find(|i| i.code == "cycle").unwrap();
    assert_eq!(cyc.edge_id.as_deref(), Some("retry"));
    assert!(!r.skipped.is_empty());

    let p = plan(
        vec![start(), noop("a"), noop("b"), noop("c"), join("j")],
        diamond_edges(),
    );
    clean(&p);
}

#[test]
fn s04_detached_call() {
    let p = plan(vec![start(), noop("lost")], vec![]);
    let codes = codes_of(&p);
    assert!(codes.contains(&"unreachable_node") && codes.contains(&"unreachable_call"));
}

#[test]
fn s05_node_ids() {
    for bad in ["Fetch/Data", ".x", "a-b"] {
        let mut p = line(vec![start(), noop("placeholder")]);
        p.nodes[1].id = bad.into();
        p.edges[0].to = bad.into();
        fires(&p, "invalid_node_id");
    }
    clean(&line(vec![start(), noop("fetch_1"), noop("1abc")]));
}

#[test]
fn s06_edge_ids() {
    for bad in ["a>b".to_string(), "e".repeat(65)] {
        let mut p = line(vec![start(), noop("a")]);
        p.edges[0].id = bad.into();
        fires(&p, "invalid_edge_id");
    }
}

#[test]
fn s07_handles() {
    let br = node(
        "br",
        NodeKind::Branch,
        json!({"evaluator": "structured", "predicate": {"path": "start.q", "op": "exists"}}),
    );
    let p = plan(
        vec![start(), br, noop("x")],
        vec![
            edge("e1", "start", "br", "always"),
            edge("e2", "br", "x", "case_x"),
        ],
    );
    fires(&p, "invalid_handle");
    let mut p = line(vec![start(), noop("x")]);
    p.edges[0].handle = crate::model::Handle::Error;
    fires(&p, "invalid_handle");
}

#[test]
fn s08_select_default() {
    let sel = node(
        "sel",
        NodeKind::Select,
        json!({"evaluator": "structured", "cases": ["x"],
               "predicate": {"x": {"path": "start.q", "op": "exists"}}}),
    );
    let p = plan(
        vec![start(), sel, noop("a")],
        vec![
            edge("e1", "start", "sel", "always"),
            edge("e2", "sel", "a", "case_x"),
        ],
    );
    fires(&p, "select_missing_default");
    let br = node(
        "br",
        NodeKind::Branch,
        json!({"evaluator": "structured", "predicate": {"path": "start.q", "op": "exists"}}),
    );
    let p = plan(
        vec![start(), br, noop("a"), noop("b")],
        vec![
            edge("e1", "start", "br", "always"),
            edge("e2", "br", "a", "match"),
            edge("e3", "br", "b", "no_match"),
        ],
    );
    clean(&p);
}

#[test]
fn s09_joins() {
    fires(
        &line(vec![start(), noop("a"), join("j")]),
        "join_not_diamond",
    );
    let p = plan(
        vec![start(), noop("l"), noop("r"), noop("s"), join("j")],
        vec![
            edge("e1", "start", "l", "always"),
            edge("e2", "start", "r", "always"),
            edge("e3", "l", "s", "always"),
            edge("e4", "r", "s", "always"),
            edge("e5", "s", "j", "always"),
        ],
    );
    fires(&p, "join_not_diamond");
    let p = plan(
        vec![
            start(),
            noop("a"),
            noop("b"),
            noop("x"),
            noop("y"),
            join("inner"),
            join("outer"),
        ],
        vec![
            edge("e1", "start", "a", "always"),
            edge("e2", "start", "b", "always"),
            edge("e3", "a", "x", "always"),
            edge("e4", "a", "y", "always"),
            edge("e5", "x", "inner", "always"),
            edge("e6", "y", "inner", "always"),
            edge("e7", "inner", "outer", "always"),
            edge("e8", "b", "outer", "always"),
        ],
    );
    fires(&p, "nested_join");
}

#[test]
fn s10_s11_fold_findings_are_advisory() {
    let ops = crate::store::transaction(
        "t",
        "plan-t",
        0,
        vec![
            OpBody::AddNode { node: start() },
            OpBody::AddNode { node: noop("a") },
            OpBody::AddEdge {
                edge: edge("e1", "start", "a", "always"),
            },
            OpBody::RemoveNode {
                node_id: "a".into(),
                incident_edge_ids: vec![],
            },
            OpBody::SetNodePhase {
                node_id: "ghost".into(),
                phase: Some("x".into()),
            },
        ],
    );
    let folded = crate::store::fold::fold("plan-t", &ops);
    let fold_issues = crate::check::notes::issues(&folded.notes);
    let codes: Vec<_> = fold_issues.iter().map(|i| i.code.name).collect();
    assert!(codes.contains(&"dangling_edge") && codes.contains(&"unknown_node"));
    let r = run(&folded.content, Some(&reg()), fold_issues);
    assert!(!r.has_blocking(), "{:#?}", r.issues);
}

#[test]
fn s12_references() {
    let use_ =
        |path: &str, node: &str| call_with("use", "noop", json!({"x": r(node, Some(path))}), &[]);
    fires(
        &line(vec![start(), noop("fetch"), use_("result", "ghost")]),
        "missing_reference",
    );
    fires(
        &line(vec![start(), noop("fetch"), use_("foo", "fetch")]),
        "undeclared_field",
    );
    clean(&line(vec![
        start(),
        noop("fetch"),
        use_("result.items", "fetch"),
    ]));
}

#[test]
fn s13_first_after_a_join() {
    let mut nodes = vec![
        start(),
        noop("a"),
        noop("b"),
        noop("c"),
        join("j"),
        noop("after"),
    ];
    nodes.push(call_with(
        "use",
        "noop",
        json!({"x": r("after", Some("result"))}),
        &[],
    ));
    let mut edges = diamond_edges();
    edges.push(edge("e6", "j", "after", "always"));
    edges.push(edge("e7", "after", "use", "always"));
    let p = plan(nodes.clone(), edges.clone());
    // After a well-formed diamond the target runs once: neither ambiguous
    // nor a race, as the two checks agree.
    let r = check(&p);
    assert!(
        !r.issues
            .iter()
            .any(|i| i.code == "ambiguous_reference" || i.code == "first_last_across_join"),
        "{:?}",
        r.issues
    );
    // Reached twice from the join, it runs twice: one finding, not two.
    edges.push(edge("e6b", "j", "after", "always"));
    let p = plan(nodes, edges);
    let r = fires(&p, "first_last_across_join");
    assert!(!r.issues.iter().any(|i| i.code == "ambiguous_reference"));
}

#[test]
fn s14_ambiguity() {
    let br = node(
        "br",
        NodeKind::Branch,
        json!({"evaluator": "structured", "predicate": {"path": "start.q", "op": "exists"}}),
    );
    let use_ = call_with("use", "noop", json!({"x": r("twice", Some("result"))}), &[]);
    let p = plan(
        vec![start(), br, noop("twice"), use_.clone()],
        vec![
            edge("e1", "start", "br", "always"),
            edge("m", "br", "twice", "match"),
            edge("n", "br", "twice", "no_match"),
            edge("e2", "twice", "use", "always"),
        ],
    );
    fires(&p, "ambiguous_reference");
    let p = plan(
        vec![start(), br_match(), noop("twice"), use_],
        vec![
            edge("e1", "start", "br", "always"),
            edge("m", "br", "twice", "match"),
            edge("e2", "twice", "use", "always"),
        ],
    );
    clean(&p);
}

fn br_match() -> Node {
    node(
        "br",
        NodeKind::Branch,
        json!({"evaluator": "structured", "predicate": {"path": "start.q", "op": "exists"}}),
    )
}

fn think(id: &str, prompt: serde_json::Value) -> Node {
    node(
        id,
        NodeKind::Reason,
        json!({"prompt": [{"text": "Consider:"}, prompt], "maxAttempts": 2,
               "outputSchema": {"type": "object", "properties": {"answer": {"type": "string"}}}}),
    )
}

#[test]
fn s15_taint_reaches_args_not_prompts() {
    let p = line(vec![
        start(),
        call_with(
            "fetch",
            "tickets_get",
            json!({"id": r("start", Some("ticket_id"))}),
            &["result"],
        ),
    ]);
    fires(&p, "tainted_call_arg");
    clean(&line(vec![
        start(),
        think("think", r("start", Some("ticket_id"))),
    ]));
}

#[test]
fn s16_echoes_sanitisers_and_reasons() {
    let p = line(vec![
        start(),
        with_declassifies(
            call_with(
                "echo",
                "echo",
                json!({"q": r("start", Some("q"))}),
                &["out"],
            ),
            &["out"],
        ),
    ]);
    clean(&p);
    // An echo without declassifies does not launder: its reader is refused.
    let r1 = check(&line(vec![
        start(),
        call_with(
            "echo",
            "echo",
            json!({"q": r("start", Some("q"))}),
            &["out"],
        ),
        call_with("call2", "noop", json!({"x": r("echo", Some("out"))}), &[]),
    ]));
    let tainted: Vec<_> = r1
        .issues
        .iter()
        .filter(|i| i.code == "tainted_call_arg")
        .map(|i| i.node_id.as_deref().unwrap())
        .collect();
    assert_eq!(tainted, vec!["echo", "call2"]);
    // A sanitiser clears what it declassifies and nothing else.
    let p = line(vec![
        start(),
        with_declassifies(
            call_with(
                "sanitize",
                "sanitize",
                json!({"q": r("start", Some("q"))}),
                &["safe", "unsafe"],
            ),
            &["safe"],
        ),
        call_with("ok", "noop", json!({"x": r("sanitize", Some("safe"))}), &[]),
        call_with(
            "bad",
            "noop",
            json!({"x": r("sanitize", Some("unsafe"))}),
            &[],
        ),
        think("think", r("sanitize", Some("safe"))),
        think("think2", r("start", Some("q"))),
        call_with(
            "after_reason",
            "noop",
            json!({"x": r("think2", Some("answer"))}),
            &[],
        ),
    ]);
    let r2 = check(&p);
    let tainted: Vec<_> = r2
        .issues
        .iter()
        .filter(|i| i.code == "tainted_call_arg")
        .map(|i| i.node_id.as_deref().unwrap())
        .collect();
    assert_eq!(tainted, vec!["bad", "after_reason"]);
}

#[test]
fn s17_unknown_tool() {
    let r = fires(
        &line(vec![start(), call_with("wipe", "rm_rf", json!({}), &[])]),
        "unknown_tool",
    );
    let msg = &r
        .issues
        .iter()
        .find(|i| i.code == "unknown_tool")
        .unwrap()
        .message;
    assert!(
        msg.contains("`tickets_get`") && msg.contains("`spawn_subagent`"),
        "{msg}"
    );
}

#[test]
fn s18_safety_fields() {
    let mut c = noop("pay");
    c.definition.shift_remove("replaySafe");
    fires(&line(vec![start(), c]), "missing_replay_safe");
    let mut c = noop("pay");
    c.definition.insert("replaySafe".into(), false.into());
    c.definition
        .insert("onIndeterminate".into(), "retry".into());
    fires(&line(vec![start(), c]), "retry_unsafe_repeat");
}

#[test]
fn s19_media_has_no_fields() {
    fires(
        &line(vec![
            start(),
            call_with("draw", "chart", json!({}), &["title"]),
        ]),
        "media_feeds_fields",
    );
    clean(&line(vec![
        start(),
        call_with("draw", "chart", json!({}), &[]),
    ]));
}

fn transform(source: &str, step: &str) -> Node {
    node(
        "shape",
        NodeKind::Transform,
        json!({"source": r(source, None), "steps": [{"name": step}], "emit": {"as": "rows"},
               "output": [{"path": "row", "type": "string"}]}),
    )
}

#[test]
fn s20_transforms() {
    let text = call_with("txt", "notes", json!({}), &["result"]);
    fires(
        &line(vec![start(), text, transform("txt", "artifact_head")]),
        "transform_source_not_artifact",
    );
    let undeclared = call_with("odd", "rm_rf", json!({}), &[]);
    fires(
        &line(vec![start(), undeclared, transform("odd", "artifact_head")]),
        "transform_undeclared_tool",
    );
    let report = || call_with("rep", "report_fetch", json!({}), &[]);
    fires(
        &line(vec![
            start(),
            report(),
            transform("rep", "artifact_md_sections"),
        ]),
        "transform_unknown_step",
    );
    clean(&line(vec![
        start(),
        report(),
        transform("rep", "artifact_head"),
    ]));
    fires(
        &line(vec![
            start(),
            start_like("think"),
            transform("think", "artifact_head"),
        ]),
        "transform_source_not_call",
    );
}

fn start_like(id: &str) -> Node {
    think(id, json!({"text": "x"}))
}

#[test]
fn s21_evaluators() {
    let branch = |ev: &str, pred: serde_json::Value| {
        line(vec![
            start(),
            node(
                "br",
                NodeKind::Branch,
                json!({"evaluator": ev, "predicate": pred}),
            ),
        ])
    };
    fires(&branch("jexl", json!("q != ''")), "unwired_evaluator");
    fires(
        &branch(
            "structured",
            json!({"path": "start.q", "op": "truthy", "value": 1}),
        ),
        "evaluator_error",
    );
    let mut deep = branch("structured", json!({}));
    deep.nodes[1].definition.insert(
        "predicate".into(),
        crate::check::predicate::tests::not_chain(257),
    );
    fires(&deep, "evaluator_error");
    let sel = node(
        "sel",
        NodeKind::Select,
        json!({"evaluator": "structured", "cases": ["bug", "feature"],
               "predicate": {"bug": {"path": "start.q", "op": "eq", "value": "bug"}}}),
    );
    let p = plan(
        vec![start(), sel, noop("a"), noop("b"), noop("c")],
        vec![
            edge("e1", "start", "sel", "always"),
            edge("e2", "sel", "a", "case_bug"),
            edge("e3", "sel", "b", "case_feature"),
            edge("e4", "sel", "c", "default"),
        ],
    );
    fires(&p, "evaluator_error");
    clean(&branch(
        "structured",
        json!({"path": "start.q", "op": "truthy"}),
    ));
}

#[test]
fn s22_scaffold_placeholder() {
    fires(
        &line(vec![
            start(),
            call_with("c", "noop", json!({"text": "lorem ipsum"}), &[]),
        ]),
        "scaffold_placeholder",
    );
    clean(&line(vec![
        start(),
        call_with("c", "noop", json!({"text": "Lorem ipsum"}), &[]),
    ]));
}

#[test]
fn three_blocking_problems_are_all_reported() {
    let mut pay = call_with("pay", "rm_rf", json!({"to": r("ghost", None)}), &[]);
    pay.definition.shift_remove("replaySafe");
    let p = line(vec![start(), pay]);
    let r = check(&p);
    let blocking: Vec<_> = r
        .issues
        .iter()
        .filter(|i| i.is_blocking())
        .map(|i| i.code.name)
        .collect();
    for code in ["missing_reference", "unknown_tool", "missing_replay_safe"] {
        assert!(blocking.contains(&code), "{code} missing from {blocking:?}");
    }
}

#[test]
fn issues_come_in_catalogue_order() {
    let mut pay = call_with("pay", "rm_rf", json!({"to": r("ghost", None)}), &[]);
    pay.definition.shift_remove("replaySafe");
    let mut p = line(vec![start(), pay, noop("lost")]);
    p.edges.clear();
    p.edges.push(edge("e0", "start", "pay", "always"));
    let codes = codes_of(&p);
    let order: Vec<usize> = codes
        .iter()
        .map(|c| super::CHECKS.iter().position(|k| k.code() == *c).unwrap())
        .collect();
    let mut sorted = order.clone();
    sorted.sort();
    assert_eq!(order, sorted, "{codes:?}");
}

#[test]
fn without_a_registry_the_registry_checks_are_skipped_and_listed() {
    let p = line(vec![start(), call_with("wipe", "rm_rf", json!({}), &[])]);
    let r = run(&p, None, Vec::new());
    assert!(r.issues.is_empty(), "{:#?}", r.issues);
    let skipped: Vec<_> = r.skipped.iter().map(|(c, _)| *c).collect();
    for code in [
        "unknown_tool",
        "missing_arg",
        "contention_collision",
        "unreconciled_unit",
    ] {
        assert!(skipped.contains(&code), "{code}");
    }
}

/// A generated plan of about `n` nodes: a chain of diamonds whose steps read
/// their predecessors (some across joins, some from parallel branches), with
/// one long-range reader. Run with `cargo test --release -- --ignored
/// big_plan --nocapture` to see how long the whole engine takes; no timing
/// is asserted (the benchmark measures performance).
#[test]
#[ignore]
fn big_plan_runs_every_check() {
    let diamonds: usize = std::env::var("PF_DIAMONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(25_000);
    let mut nodes = vec![start()];
    let mut edges = Vec::new();
    let mut prev = "start".to_string();
    let all =
        |node: &str, path: &str| json!({"$ref": {"node": node, "select": "all", "path": path}});
    for k in 0..diamonds {
        let (f, l, rr, j) = (
            format!("f{k}"),
            format!("l{k}"),
            format!("r{k}"),
            format!("j{k}"),
        );
        let read_prev = if k == 0 {
            json!("x")
        } else {
            all(&format!("j{}", k - 1), "via")
        };
        nodes.push(call_with(&f, "noop", json!({"p": read_prev}), &["result"]));
        nodes.push(call_with(
            &l,
            "noop",
            json!({"p": all(&f, "result")}),
            &["result"],
        ));
        // Every tenth right branch reads the parallel left one (not upstream).
        let rarg = if k % 10 == 0 {
            all(&l, "result")
        } else {
            all(&f, "result")
        };
        nodes.push(call_with(&rr, "noop", json!({"p": rarg}), &["result"]));
        nodes.push(join(&j));
        edges.push(edge(&format!("a{k}"), &prev, &f, "always"));
        edges.push(edge(&format!("b{k}"), &f, &l, "always"));
        edges.push(edge(&format!("c{k}"), &f, &rr, "always"));
        edges.push(edge(&format!("d{k}"), &l, &j, "always"));
        edges.push(edge(&format!("g{k}"), &rr, &j, "always"));
        prev = j;
    }
    let far: serde_json::Map<String, serde_json::Value> = (0..diamonds)
        .step_by(50)
        .map(|k| (format!("a{k}"), all(&format!("l{k}"), "result")))
        .collect();
    nodes.push(call_with(
        "last",
        "noop",
        serde_json::Value::Object(far),
        &[],
    ));
    edges.push(edge("z", &prev, "last", "always"));
    let mut p = plan(nodes, edges);
    p.bounds.max_nodes = 1_000_000;
    p.bounds.max_edges = 1_000_000;
    p.bounds.max_encoded_bytes = 1 << 40;
    if std::env::var("PF_PROFILE").is_ok() {
        let reg = reg();
        let cx = super::Cx::new(&p, Some(&reg));
        for c in super::CHECKS {
            let t = std::time::Instant::now();
            let mut out = Vec::new();
            c.run(&cx, &mut out);
            eprintln!("{:>28} {:?}", c.code(), t.elapsed());
        }
    }
    let t = std::time::Instant::now();
    let r = check(&p);
    let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
    for i in &r.issues {
        *counts.entry(i.code.name).or_default() += 1;
    }
    eprintln!("{} nodes: {:?} in {:?}", p.nodes.len(), counts, t.elapsed());
    assert_eq!(counts.get("reference_not_upstream"), Some(&(diamonds / 10)));
    assert_eq!(counts.len(), 1, "{counts:?}");
}
