//! `planforge tool NAME [ARGS_JSON | -]`: one model-facing tool call from
//! the shell, text by default, `{formatVersion, ok, text}` with
//! `--format json`, refusals exiting 1, 2 or 3.

mod common;

use common::parse_json;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Output;

/// A store made by `planforge init`, run with no PLANFORGE_ACTOR (the actor
/// comes from USER).
struct Env(common::Env);

impl Env {
    fn new() -> Env {
        Env(common::Env::empty()
            .unset("PLANFORGE_ACTOR")
            .var("USER", "someone")
            .init())
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.0.path(rel)
    }

    fn run(&self, args: &[&str], stdin: Option<&str>) -> Output {
        match stdin {
            Some(text) => self.0.with_stdin(args, text.as_bytes()),
            None => self.0.run(args),
        }
    }

    /// Runs `planforge tool NAME ARGS`: (exit code, stdout).
    fn tool(&self, name: &str, args: Value) -> (i32, String) {
        let out = self.run(&["tool", name, &args.to_string()], None);
        let text = String::from_utf8(out.stdout).unwrap();
        if !name.starts_with("raw_") {
            common::assert_model_text(&text);
        }
        (out.status.code().unwrap(), text)
    }

    fn ok(&self, name: &str, args: Value) -> String {
        let (code, text) = self.tool(name, args);
        assert_eq!(code, 0, "{name} failed:\n{text}");
        text
    }

    /// Runs `planforge --format json tool NAME ARGS`: (exit code, document).
    fn json(&self, name: &str, args: Value) -> (i32, Value) {
        let args = args.to_string();
        let a = ["--format", "json", "tool", name, &args];
        let out = self.run(&a, None);
        let doc = parse_json(&out, &a);
        if let Some(text) = doc["text"].as_str() {
            common::assert_model_text(text);
        }
        (out.status.code().unwrap(), doc)
    }
}

fn entry() -> Value {
    json!({"id": "start", "kind": "entry", "definition": {"input": [{"path": "ticket", "type": "string"}]}})
}

fn call(tool: &str) -> Value {
    json!({"id": "fetch", "kind": "call", "definition": {
        "tool": tool,
        "args": {"path": {"$ref": {"node": "start", "select": "first", "path": "ticket"}}},
        "output": [{"path": "content", "type": "string"}],
        "onMissingValue": "fail", "authority": [], "replaySafe": true,
        "onIndeterminate": "halt", "declassifies": ["content"]
    }})
}

#[test]
fn tool_calls_round_trip_from_the_shell() {
    let env = Env::new();
    let text = env.ok("create_plan", json!({"planId": "plan-t", "label": "shell"}));
    assert!(text.starts_with("Created plan plan-t"), "{text}");

    // Arguments from stdin with `-`.
    let args = json!({"planId": "plan-t", "node": entry()}).to_string();
    let out = env.run(&["tool", "add_node", "-"], Some(&args));
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("added entry node `start`"), "{text}");

    env.ok(
        "add_node",
        json!({"planId": "plan-t", "node": call("read_artifcat")}),
    );
    env.ok(
        "connect_nodes",
        json!({"planId": "plan-t", "edge": {"from": "start", "to": "fetch"}}),
    );

    // A freeze refused by the plan's rules exits 1 and names node and tool.
    let (code, text) = env.tool("freeze_plan", json!({"planId": "plan-t"}));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("fetch") && text.contains("read_artifcat"),
        "{text}"
    );

    env.ok(
        "set_node_field",
        json!({"planId": "plan-t", "nodeId": "fetch", "path": "tool", "value": "read_artifact"}),
    );
    env.ok("freeze_plan", json!({"planId": "plan-t"}));
    let text = env.ok("plan_status", json!({"planId": "plan-t"}));
    assert!(text.contains("state=reviewable"), "{text}");
    let text = env.ok("unfreeze_plan", json!({"planId": "plan-t"}));
    assert!(text.contains("editable"), "{text}");

    // No argument means {}.
    let (code, text) = env.tool("list_templates", json!({}));
    let out = env.run(&["tool", "list_templates"], None);
    assert_eq!(out.status.code().unwrap(), code);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), text);

    // explain_issue gives the long explanation.
    let text = env.ok("explain_issue", json!({"code": "unknown_tool"}));
    assert!(text.starts_with("# unknown_tool (blocking)"), "{text}");
    let out = env.run(&["explain", "unknown_tool"], None);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        text.trim_end()
    );
    let (code, text) = env.tool("explain_issue", json!({"code": "unknown_tol"}));
    assert_eq!(code, 2);
    assert!(text.contains("did you mean `unknown_tool`"), "{text}");
    // The topic `orchestrate`, as `planforge explain orchestrate` gives it.
    let text = env.ok("explain_issue", json!({"code": "orchestrate"}));
    assert!(
        text.starts_with("# orchestrate: where each part of seed 003 is carried"),
        "{text}"
    );
    let out = env.run(&["explain", "orchestrate"], None);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        text.trim_end()
    );

    // Tools act as `mcp`, not as $USER, unless told otherwise.
    let ops: Value = serde_json::from_str(&env.ok("raw_ops", json!({"planId": "plan-t"}))).unwrap();
    assert!(
        ops["ops"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["actorId"] == "mcp")
    );
    let out = env.run(
        &[
            "--actor",
            "alice",
            "tool",
            "set_node_phase",
            r#"{"planId": "plan-t", "nodeId": "fetch", "phase": "work"}"#,
        ],
        None,
    );
    assert!(out.status.success(), "{out:?}");
    let ops: Value =
        serde_json::from_str(&env.ok("raw_ops", json!({"planId": "plan-t", "sinceLamport": 4})))
            .unwrap();
    // After the freeze and unfreeze (ops too), alice's change.
    let last = ops["ops"].as_array().unwrap().last().unwrap();
    assert_eq!(last["actorId"], "alice", "{ops}");
    assert_eq!(last["op"], "set_node_phase", "{ops}");

    // Tools never touch the store's current plan.
    assert!(!env.path("plans/current").exists());
    let out = env.run(&["use", "plan-t"], None);
    assert!(out.status.success());
    env.ok("create_plan", json!({"planId": "plan-u"}));
    env.ok(
        "clone_plan",
        json!({"sourcePlanId": "plan-t", "newPlanId": "plan-v"}),
    );
    assert_eq!(
        std::fs::read_to_string(env.path("plans/current"))
            .unwrap()
            .trim(),
        "plan-t"
    );
}

#[test]
fn a_finding_carries_its_fix_worded_for_each_reader() {
    let env = Env::new();
    env.ok("create_plan", json!({"planId": "plan-f"}));
    env.ok("add_node", json!({"planId": "plan-f", "node": entry()}));
    let mut fetch = call("read_artifact");
    fetch["definition"]
        .as_object_mut()
        .unwrap()
        .remove("replaySafe");
    env.ok("add_node", json!({"planId": "plan-f", "node": fetch}));
    env.ok(
        "connect_nodes",
        json!({"planId": "plan-f", "edge": {"from": "start", "to": "fetch"}}),
    );

    // The model reads the problem, then the tool call that fixes it; no
    // command line, flag or shorthand.
    let text = env.ok("validate_plan", json!({"planId": "plan-f"}));
    assert!(
        text.contains("call `fetch` does not say whether it is safe to run twice"),
        "{text}"
    );
    assert!(
        text.contains(
            r#"fix: set_node_field {"planId":"plan-f","nodeId":"fetch","path":"replaySafe","value":true} (if calling the tool again"#
        ),
        "{text}"
    );
    assert!(text.contains(r#""value":false} (otherwise)"#), "{text}");
    assert!(
        !text.contains("planforge ") && !text.contains("--") && !text.contains('@'),
        "{text}"
    );

    // The terminal reads runnable command lines for the same finding.
    let out = env.run(&["freeze", "-p", "plan-f"], None);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("      fix: planforge set fetch replaySafe true -p plan-f (if"),
        "{stdout}"
    );
    assert!(
        stdout.contains("planforge set fetch replaySafe false -p plan-f (otherwise)"),
        "{stdout}"
    );
    assert!(!stdout.contains("set_node_field"), "{stdout}");

    // JSON carries the fix as a structured object, then its alternatives.
    let a = ["--format", "json", "freeze", "-p", "plan-f"];
    let out = env.run(&a, None);
    let doc = parse_json(&out, &a);
    let issue = &doc["issues"][0];
    assert_eq!(issue["code"], "missing_replay_safe", "{doc}");
    assert_eq!(
        issue["fix"],
        json!({"action": "set_field", "nodeId": "fetch", "path": "replaySafe", "value": true,
               "when": "if calling the tool again with the same args does no harm, as for a read or an idempotent write"})
    );
    assert_eq!(issue["alternatives"][0]["value"], false, "{doc}");
}

#[test]
fn format_json_gives_ok_and_text_or_the_raw_json() {
    let env = Env::new();
    let (code, doc) = env.json("create_plan", json!({"planId": "plan-j"}));
    assert_eq!(code, 0);
    assert_eq!(doc["formatVersion"], 1);
    assert_eq!(doc["ok"], true);
    assert!(doc["text"].as_str().unwrap().contains("plan-j"));

    env.ok("add_node", json!({"planId": "plan-j", "node": entry()}));
    env.ok(
        "add_node",
        json!({"planId": "plan-j", "node": call("read_artifact")}),
    );

    // Raw tools print their own JSON, references in wire form.
    let (code, raw) = env.json("raw_plan", json!({"planId": "plan-j"}));
    assert_eq!(code, 0);
    assert_eq!(raw["planId"], "plan-j");
    assert_eq!(raw["revision"], 2);
    assert_eq!(
        raw["nodes"][1]["definition"]["args"]["path"],
        json!({"$ref": {"node": "start", "select": "first", "path": "ticket"}})
    );
    let (_, old) = env.json("raw_plan", json!({"planId": "plan-j", "revision": 1}));
    assert_eq!(old["nodes"].as_array().unwrap().len(), 1);
    let (code, diff) = env.json(
        "raw_diff",
        json!({"planId": "plan-j", "a": 1, "b": "current"}),
    );
    assert_eq!(code, 0, "{diff}");
    assert_eq!(diff["nodesAdded"][0]["id"], "fetch", "{diff}");

    // Refusals: ok false, the model's text, the error code, and the exit code.
    let (code, doc) = env.json(
        "add_node",
        json!({"planId": "plan-j", "node": entry(), "nodes": []}),
    );
    assert_eq!(code, 2);
    assert_eq!(doc["ok"], false);
    assert!(doc["text"].as_str().unwrap().contains("`nodes`"), "{doc}");
    assert_eq!(doc["error"]["code"], "unknown_key");
    // A retried add of the very same node changes nothing and succeeds.
    let (code, doc) = env.json("add_node", json!({"planId": "plan-j", "node": entry()}));
    assert_eq!(code, 0, "{doc}");
    assert!(
        doc["text"].as_str().unwrap().contains("nothing changed"),
        "{doc}"
    );
    let mut other = entry();
    other["definition"]["input"] = json!([]);
    let (code, doc) = env.json("add_node", json!({"planId": "plan-j", "node": other}));
    assert_eq!(code, 1, "a duplicate id is refused by the plan's rules");
    assert_eq!(doc["error"]["code"], "duplicate_id");
    assert!(doc["text"].as_str().unwrap().contains("`start`"), "{doc}");
    let (code, doc) = env.json("plan_status", json!({"planId": "plan-nope"}));
    assert_eq!(code, 2);
    assert_eq!(doc["error"]["code"], "unknown_plan");
    let (code, doc) = env.json("freeze_plan", json!({"planId": "plan-j"}));
    assert_eq!(code, 1);
    assert_eq!(doc["ok"], false);
    assert!(
        doc["text"]
            .as_str()
            .unwrap()
            .contains("freeze_plan refused")
    );
}

#[test]
fn bad_tool_names_and_argument_text_exit_two() {
    let env = Env::new();
    let out = env.run(&["tool", "add_nod", "{}"], None);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("did you mean `add_node`"), "{err}");
    let out = env.run(&["tool", "create_plan", "{\"planId\": "], None);
    assert_eq!(out.status.code(), Some(2));
    let out = env.run(&["tool", "create_plan", "[1]"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("the arguments must be an object")
    );
    // Nothing was created.
    let plans: Vec<_> = std::fs::read_dir(env.path("plans"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("plan-"))
        .collect();
    assert!(plans.is_empty());
}

/// A 5,000-node plan: an entry, then chained calls spread over 50 phases.
fn big_document() -> Value {
    let mut nodes = vec![entry()];
    let mut edges = Vec::new();
    let mut prev = "start".to_string();
    for i in 0..4999 {
        let id = format!("step_{i}");
        nodes.push(json!({"id": id, "phase": format!("phase {}", i / 100), "kind": "call", "definition": {
            "tool": "read_artifact",
            "args": {"path": format!("docs/{i}.md")},
            "output": [{"path": "content", "type": "string"}],
            "onMissingValue": "fail",
            "authority": [{"capability": "docs", "scope": format!("folder-{}", i % 7), "verb": "read"}],
            "replaySafe": true,
            "onIndeterminate": "retry"
        }}));
        edges.push(json!({"id": format!("e{i}"), "from": prev, "to": id, "handle": "always"}));
        prev = id;
    }
    json!({
        "formatVersion": 1, "planId": "plan-big",
        "bounds": {"maxNodes": 10000, "maxEdges": 10000, "maxSteps": 100000,
                   "maxConcurrentFrames": 32, "maxEncodedBytes": 100000000},
        "nodes": nodes, "edges": edges,
    })
}

#[test]
fn mutations_on_a_five_thousand_node_plan_answer_in_at_most_1200_bytes() {
    let env = Env::new();
    let file = env.path("big.json");
    std::fs::write(&file, big_document().to_string()).unwrap();
    let out = env.run(&["import", file.to_str().unwrap()], None);
    assert!(out.status.success(), "{out:?}");
    let extra = json!({"id": "extra", "phase": "phase 3", "kind": "call", "definition": {
        "tool": "read_artifact", "args": {"path": "x".repeat(400)},
        "output": [{"path": "content", "type": "string"}], "onMissingValue": "fail",
        "authority": [], "replaySafe": true, "onIndeterminate": "halt"
    }});
    for (name, args) in [
        ("add_node", json!({"planId": "plan-big", "node": extra})),
        (
            "connect_nodes",
            json!({"planId": "plan-big", "edge": {"from": "step_10", "to": "extra"}}),
        ),
        (
            "remove_node",
            json!({"planId": "plan-big", "nodeId": "step_2500"}),
        ),
        (
            "set_bounds",
            json!({"planId": "plan-big", "bounds": {"maxNodes": 20000, "maxEdges": 20000,
                   "maxSteps": 200000, "maxConcurrentFrames": 64, "maxEncodedBytes": 100000000}}),
        ),
        (
            "clone_plan",
            json!({"sourcePlanId": "plan-big", "newPlanId": "plan-big-copy"}),
        ),
        ("unfreeze_plan", json!({"planId": "plan-big"})),
    ] {
        if name == "unfreeze_plan" {
            // Freeze needs a clean plan: reconnect around the removed node.
            env.ok(
                "connect_nodes",
                json!({"planId": "plan-big", "edge": {"from": "step_2499", "to": "step_2501"}}),
            );
            env.ok("freeze_plan", json!({"planId": "plan-big"}));
        }
        let text = env.ok(name, args);
        assert!(
            text.len() <= 1200,
            "{name} answered {} bytes:\n{text}",
            text.len()
        );
    }
}

/// The nodes and edges of `raw_plan`, sorted by id; its text is one line of
/// compact JSON.
fn graph(env: &Env, plan: &str) -> (Vec<Value>, Vec<Value>) {
    let text = env.ok("raw_plan", json!({"planId": plan}));
    let raw: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        serde_json::to_string(&raw).unwrap(),
        text.trim_end(),
        "not compact"
    );
    let by_id = |k: &str| {
        let mut v = raw[k].as_array().unwrap().clone();
        v.sort_by_key(|x| x["id"].as_str().unwrap().to_string());
        v
    };
    (by_id("nodes"), by_id("edges"))
}

#[test]
fn undo_change_after_remove_node_restores_the_node_and_every_edge() {
    let env = Env::new();
    let plan = "plan-undo";
    env.ok("create_plan", json!({"planId": plan}));
    env.ok("add_node", json!({"planId": plan, "node": entry()}));
    env.ok(
        "add_node",
        json!({"planId": plan, "node": call("read_artifact")}),
    );
    for (id, kind) in [("merge", "join"), ("after", "join")] {
        env.ok(
            "add_node",
            json!({"planId": plan, "node": {"id": id, "kind": kind, "definition": {}, "phase": "end"}}),
        );
    }
    for (from, to, handle) in [
        ("start", "fetch", "always"),
        ("start", "merge", "always"),
        ("fetch", "merge", "always"),
        ("fetch", "merge", "error"),
        ("merge", "after", "always"),
        ("fetch", "after", "error"),
    ] {
        env.ok(
            "connect_nodes",
            json!({"planId": plan, "edge": {"id": format!("{from}_{to}_{handle}"), "from": from, "to": to, "handle": handle}}),
        );
    }
    let before = graph(&env, plan);
    let text = env.ok("remove_node", json!({"planId": plan, "nodeId": "fetch"}));
    assert!(text.contains("4 edge"), "{text}");
    let (nodes, edges) = graph(&env, plan);
    assert_eq!((nodes.len(), edges.len()), (3, 2));

    let text = env.ok("undo_change", json!({"planId": plan}));
    assert!(text.contains("undid your transaction"), "{text}");
    assert_eq!(graph(&env, plan), before, "the node and its four edges");

    // The log keeps the removal and its undo; both are the tools' actor's.
    let ops: Value = serde_json::from_str(&env.ok("raw_ops", json!({"planId": plan}))).unwrap();
    let ops = ops["ops"].as_array().unwrap();
    assert!(ops.iter().any(|o| o["op"] == "remove_node"));
    assert!(ops.iter().all(|o| o["actorId"] == "mcp"));

    // `planforge undo` acts as $USER, who changed nothing here.
    let out = env.run(&["-p", plan, "undo"], None);
    assert_eq!(out.status.code(), Some(1), "{out:?}");

    // Walking back to the start, then nothing is left: a refusal (exit 1)
    // in the model's words.
    for _ in 0..(4 + 6) {
        env.ok("undo_change", json!({"planId": plan}));
    }
    assert_eq!(graph(&env, plan), (Vec::new(), Vec::new()));
    let (code, text) = env.tool("undo_change", json!({"planId": plan}));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.starts_with("undo_change refused: nothing to undo"),
        "{text}"
    );
}

/// `set_node_field` has the CLI's typo guard: an argument the tool's
/// registry entry does not name is refused (nothing written) with the
/// named arguments and `"add": true` to insist; `remove: true` takes a
/// field out.
#[test]
fn set_node_field_refuses_an_argument_the_registry_does_not_name_and_can_remove() {
    let env = Env::new();
    env.ok("create_plan", json!({"planId": "plan-f"}));
    env.ok("add_node", json!({"planId": "plan-f", "node": entry()}));
    env.ok(
        "add_node",
        json!({"planId": "plan-f", "node": call("read_artifact")}),
    );
    let rev = |env: &Env| {
        let (_, v) = env.json("plan_status", json!({"planId": "plan-f"}));
        v["text"].as_str().unwrap().to_string()
    };
    let before = rev(&env);
    let set = |path: &str, extra: Value| {
        let mut a = json!({"planId": "plan-f", "nodeId": "fetch", "path": path, "value": "x"});
        for (k, v) in extra.as_object().unwrap() {
            a[k] = v.clone();
        }
        env.tool("set_node_field", a)
    };
    let (code, text) = set("args.zzz", json!({}));
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("the tool `read_artifact` of node `fetch` takes no argument `zzz`"),
        "{text}"
    );
    assert!(text.contains(r#""add":true"#), "{text}");
    // A near miss of a named argument says which one.
    let (code, text) = set("args.pth", json!({}));
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("did you mean `args.path`?"), "{text}");
    assert_eq!(rev(&env), before, "nothing was written");
    // Asked for, it is added; then it can be removed.
    env.ok("set_node_field", json!({"planId": "plan-f", "nodeId": "fetch", "path": "args.zzz", "value": "x", "add": true}));
    let (_, v) = env.json("plan_read", json!({"planId": "plan-f", "node": "fetch"}));
    assert!(v["text"].as_str().unwrap().contains("zzz"), "{v}");
    env.ok(
        "set_node_field",
        json!({"planId": "plan-f", "nodeId": "fetch", "path": "args.zzz", "remove": true}),
    );
    let (_, v) = env.json("plan_read", json!({"planId": "plan-f", "node": "fetch"}));
    assert!(!v["text"].as_str().unwrap().contains("zzz"), "{v}");
    // Removing what is not there, or removing with a value, is refused.
    let (code, text) = set("args.zzz", json!({"remove": true}));
    assert_eq!(code, 2, "{text}");
    let (code, text) = env.tool(
        "set_node_field",
        json!({"planId": "plan-f", "nodeId": "fetch", "path": "args.zzz", "remove": true}),
    );
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("no field `args.zzz` to remove"), "{text}");
}

#[test]
fn orchestrate_plan_stores_an_orchestration_a_model_can_freeze_and_refuses_naming_the_task() {
    let env = Env::new();
    let roles = json!({
        "lead": {"instructions": "Research and cite.", "tools": ["read_file", "spawn_subagent"]},
        "tester": {"instructions": "Run the checks.", "tools": ["run_tests"]}
    });
    let d = json!({
        "roles": roles,
        "tasks": [
            {"name": "api", "role": "lead", "goal": "Survey the API", "input": "src/api", "output": "notes/api.md"},
            {"name": "tests", "role": "tester", "goal": "Find failing tests", "input": "tests/", "output": "notes/tests.md"}
        ],
        "synthesis": {"output": "notes/release.md"}
    });
    let text = env.ok(
        "orchestrate_plan",
        json!({"decomposition": d, "planId": "plan-orch"}),
    );
    assert!(
        text.contains("Mechanism matched: fan-out (seed 003, row 1)"),
        "{text}"
    );
    assert!(text.contains("Stored plan plan-orch (editable"), "{text}");
    assert!(text.contains("Removed `spawn_subagent`"), "{text}");
    assert!(
        text.contains("Next: read plan-orch with plan_outline"),
        "{text}"
    );
    let frozen = env.ok("freeze_plan", json!({"planId": "plan-orch"}));
    assert!(frozen.contains("reviewable"), "{frozen}");
    // Tools never touch the store's current plan.
    assert!(!env.path("plans/current").exists());

    // A refusal names the task, is worded for a model, and stores nothing.
    let mut bad = d.clone();
    bad["tasks"][1]["role"] = json!("testr");
    let (code, text) = env.tool(
        "orchestrate_plan",
        json!({"decomposition": bad, "planId": "plan-bad"}),
    );
    assert_ne!(code, 0, "{text}");
    assert!(text.contains("tests") && text.contains("testr"), "{text}");
    assert!(text.contains("`tester`"), "{text}");
    let (code, text) = env.tool("plan_status", json!({"planId": "plan-bad"}));
    assert_ne!(code, 0, "{text}");
    // A taken id is refused.
    let (code, text) = env.tool(
        "orchestrate_plan",
        json!({"decomposition": d, "planId": "plan-orch"}),
    );
    assert_ne!(code, 0, "{text}");
    assert!(text.contains("plan-orch"), "{text}");
}
