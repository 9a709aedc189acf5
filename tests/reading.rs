//! Reading a plan one cannot hold (SPEC §7, §8): outline, read, diff, raw,
//! ops and graph, driven through the binary against temporary stores.

#[allow(dead_code)]
#[path = "../examples/gen_plan.rs"]
mod gen_plan;

mod common;

use common::Out;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A temporary store made by `planforge init`, every run naming it with
/// `--store`.
struct Env(common::Env);

impl Env {
    fn new() -> Env {
        let env = Env(common::Env::empty());
        env.run(&["init"]).ok();
        env
    }

    fn root(&self) -> &Path {
        &self.0.root
    }

    fn store(&self) -> PathBuf {
        self.0.store()
    }

    fn run(&self, args: &[&str]) -> Out {
        let store = self.store();
        let mut a = vec!["--store", store.to_str().unwrap()];
        a.extend_from_slice(args);
        self.0.out(&a)
    }

    /// Writes `doc` to a file in the temp dir and imports it.
    fn import(&self, name: &str, doc: &Value) -> PathBuf {
        let path = self.0.write(
            &format!("{name}.json"),
            &serde_json::to_string_pretty(doc).unwrap(),
        );
        self.run(&["import", path.to_str().unwrap()]).ok();
        path
    }
}

fn call(id: &str, phase: Option<&str>, tool: &str, args: Value, output: &[&str]) -> Value {
    let output: Vec<Value> = output
        .iter()
        .map(|p| json!({"path": p, "type": "string"}))
        .collect();
    let mut n = json!({"id": id, "kind": "call", "definition": {
        "tool": tool, "args": args, "output": output, "onMissingValue": "fail",
        "authority": [{"capability": "files", "scope": "work", "verb": "read"}],
        "replaySafe": true, "onIndeterminate": "retry"
    }});
    if let Some(p) = phase {
        n["phase"] = json!(p);
    }
    n
}

fn r(node: &str, path: &str) -> Value {
    json!({"$ref": {"node": node, "select": "first", "path": path}})
}

fn e(id: &str, from: &str, to: &str, handle: &str) -> Value {
    json!({"id": id, "from": from, "to": to, "handle": handle})
}

/// Phases p1, p2, p3 and two unphased nodes.
fn three_phases() -> Value {
    let mut intake = call(
        "intake",
        Some("p1"),
        "accept_assignment",
        json!({"assignment": r("start", "request")}),
        &["goal"],
    );
    intake["definition"]["declassifies"] = json!(["goal"]);
    json!({
        "formatVersion": 1,
        "planId": "plan-three",
        "nodes": [
            {"id": "start", "phase": "p1", "kind": "entry",
             "definition": {"input": [{"path": "request", "type": "string"}]}},
            intake,
            call("gather", Some("p2"), "read_artifact", json!({"path": r("intake", "goal")}), &["content"]),
            call("digest", Some("p2"), "read_artifact", json!({"path": r("gather", "content")}), &["content"]),
            call("publish", Some("p3"), "read_artifact", json!({"path": r("digest", "content")}), &["content"]),
            call("audit", None, "read_artifact", json!({"path": r("digest", "content")}), &["content"]),
            call("cleanup", None, "read_artifact", json!({"path": r("publish", "content")}), &[]),
        ],
        "edges": [
            e("e1", "start", "intake", "always"),
            e("e2", "intake", "gather", "always"),
            e("e3", "gather", "digest", "always"),
            e("e4", "digest", "publish", "always"),
            e("e5", "digest", "audit", "error"),
            e("e6", "publish", "cleanup", "always"),
        ]
    })
}

#[test]
fn outline_has_one_entry_per_phase_then_unphased_and_read_takes_every_key() {
    let env = Env::new();
    env.import("three", &three_phases());
    let text = env.run(&["outline"]).ok().stdout;
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Outline of plan-three ("), "{text}");
    assert_eq!(lines.len(), 5, "a header and four entries:\n{text}");
    let keys: Vec<&str> = lines[1..]
        .iter()
        .map(|l| l.split("  ").next().unwrap())
        .collect();
    assert_eq!(keys, ["p1", "p2", "p3", "(unphased)"]);
    assert!(lines[4].contains("nodes: audit, cleanup"), "{}", lines[4]);
    assert!(
        lines[1].contains("2 node(s) — 1 call, 0 reason, 0 transform, 1 other"),
        "{}",
        lines[1]
    );
    assert!(lines[2].ends_with("nodes: gather, digest  tools: read_artifact, read_artifact"));

    let j = env.run(&["outline", "--format", "json"]).ok().json();
    assert_eq!(j["formatVersion"], 1);
    assert_eq!(j["planId"], "plan-three");
    assert_eq!(j["nodeCount"], 7);
    let phases: Vec<&str> = j["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["phase"].as_str().unwrap())
        .collect();
    assert_eq!(phases, ["p1", "p2", "p3"]);
    assert_eq!(j["unphased"]["phase"], "(unphased)");
    assert_eq!(j["unphased"]["nodeIds"], json!(["audit", "cleanup"]));
    assert_eq!(
        j["phases"][1]["tools"],
        json!(["read_artifact", "read_artifact"])
    );

    // Every key the outline prints is read as printed, in text and JSON.
    let mut printed: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
    for entry in j["phases"]
        .as_array()
        .unwrap()
        .iter()
        .chain([&j["unphased"]])
    {
        for id in entry["nodeIds"].as_array().unwrap() {
            printed.push(id.as_str().unwrap().to_string());
        }
    }
    for key in &printed {
        let t = env.run(&["read", key]).ok().stdout;
        assert!(t.starts_with("Slice of plan-three — "), "{t}");
        let s = env.run(&["read", key, "--format", "json"]).ok().json();
        assert_eq!(s["key"], json!(key));
        assert!(!s["nodes"].as_array().unwrap().is_empty());
    }
    // `""` is the unphased slice too.
    let s = env
        .run(&["read", "--phase", "", "--format", "json"])
        .ok()
        .json();
    assert_eq!(s["key"], "(unphased)");
    assert!(s.get("phase").is_none());
}

#[test]
fn reading_a_middle_phase_names_its_boundary_with_edge_ids() {
    let env = Env::new();
    env.import("three", &three_phases());
    let t = env.run(&["read", "p2"]).ok().stdout;
    assert!(
        t.contains("Incoming from outside the slice (1):\n  · edge e2: intake → gather (always)\n"),
        "{t}"
    );
    assert!(
        t.contains(
            "Outgoing to outside the slice (2):\n  · edge e4: digest → publish (always)\n  · edge e5: digest → audit (error)\n"
        ),
        "{t}"
    );
    // Both nodes in full, with their edges (internal ones too).
    assert!(t.contains("CALL — `gather` — read_artifact(path) · phase p2"));
    assert!(t.contains("→ on always → step digest (edge e3)"));
    assert!(t.contains("→ ABORT on error → step audit (edge e5)"));
    let j = env.run(&["read", "p2", "--format", "json"]).ok().json();
    assert_eq!(j["phase"], "p2");
    assert_eq!(
        j["boundary"],
        json!({
            "incoming": [{"edgeId": "e2", "from": "intake", "to": "gather", "handle": "always"}],
            "outgoing": [
                {"edgeId": "e4", "from": "digest", "to": "publish", "handle": "always"},
                {"edgeId": "e5", "from": "digest", "to": "audit", "handle": "error"}
            ]
        })
    );
    assert_eq!(j["edges"], json!([e("e3", "gather", "digest", "always")]));
    assert_eq!(
        j["nodes"][0]["definition"]["args"]["path"],
        r("intake", "goal"),
        "references stay in wire form"
    );
    // One node: its own edges are its boundary.
    let j = env.run(&["read", "digest", "--format", "json"]).ok().json();
    assert_eq!(j["phase"], "p2");
    assert_eq!(j["boundary"]["incoming"][0]["edgeId"], "e3");
    assert_eq!(j["boundary"]["outgoing"].as_array().unwrap().len(), 2);
}

#[test]
fn ids_phases_and_tools_are_byte_exact_and_issues_are_counted_per_entry() {
    let env = Env::new();
    let long = "a_very_long_node_id_that_is_exactly_sixty_four_characters_long_x";
    assert_eq!(long.len(), 64);
    let phase = "Étape 2 — rédaction & revue";
    let doc = json!({
        "planId": "plan-exact",
        "nodes": [
            {"id": "start", "phase": phase, "kind": "entry", "definition": {"input": []}},
            call(long, Some(phase), "tickets_get", json!({}), &[]),
            call("twice", Some(phase), "tickets_get", json!({}), &[]),
            call("other", Some("z"), "no_such_tool", json!({}), &[]),
        ],
        "edges": [e("e1", "start", long, "always"), e("e2", long, "twice", "always"),
                  e("e3", "twice", "other", "always")]
    });
    env.import("exact", &doc);
    let t = env.run(&["outline"]).ok().stdout;
    let first = t.lines().nth(1).unwrap();
    assert!(first.starts_with(&format!("{phase}  ")), "{first}");
    assert!(
        first.contains(&format!("nodes: start, {long}, twice")),
        "{first}"
    );
    assert!(
        first.ends_with("tools: tickets_get, tickets_get"),
        "{first}"
    );
    let j = env.run(&["outline", "--format", "json"]).ok().json();
    assert_eq!(j["phases"][0]["phase"], phase);
    assert_eq!(j["phases"][0]["nodeIds"], json!(["start", long, "twice"]));
    assert_eq!(
        j["phases"][0]["tools"],
        json!(["tickets_get", "tickets_get"])
    );
    assert!(j.get("unphased").is_none());
    // Every issue names a node here, so the entries' counts add up to the plan's.
    let status = env.run(&["status", "--format", "json"]).ok().json();
    let total = status["issues"]["blocking"].as_u64().unwrap()
        + status["issues"]["advisory"].as_u64().unwrap();
    let counted: u64 = j["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["issueCount"].as_u64().unwrap())
        .sum();
    assert!(total >= 3, "three calls use tools the registry lacks");
    assert_eq!(counted, total);
    assert!(j["phases"][1]["issueCount"].as_u64().unwrap() >= 1);
    // Read takes the phase as printed, and its slice keeps the bytes.
    let s = env.run(&["read", phase, "--format", "json"]).ok().json();
    assert_eq!(s["phase"], phase);
    assert_eq!(s["nodes"][1]["id"], long);
    let s = env.run(&["read", long]).ok().stdout;
    assert!(s.contains(&format!("node {long} (phase {phase})")), "{s}");
    let s = env.run(&["read", "z", "--format", "json"]).ok().json();
    assert!(
        s["issues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["code"] == "unknown_tool" && i["nodeId"] == "other"),
        "{s}"
    );
}

#[test]
fn unknown_and_ambiguous_keys_are_refused_with_the_fix() {
    let env = Env::new();
    let doc = json!({
        "planId": "plan-keys",
        "nodes": [
            {"id": "start", "phase": "fetch", "kind": "entry", "definition": {"input": []}},
            call("fetch", Some("fetch"), "read_artifact", json!({"path": "x"}), &[]),
            call("fetch_more", None, "read_artifact", json!({"path": "y"}), &[]),
        ],
        "edges": [e("e1", "start", "fetch", "always"), e("e2", "fetch", "fetch_more", "always")]
    });
    env.import("keys", &doc);
    let o = env.run(&["read", "fetch"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(
        o.stderr.contains("both a phase and a node id"),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("read --phase fetch") && o.stderr.contains("read --node fetch"));
    let j = env.run(&["read", "fetch", "--format", "json"]).json();
    assert_eq!(j["error"]["code"], "ambiguous_key");
    let p = env
        .run(&["read", "--phase", "fetch", "--format", "json"])
        .ok()
        .json();
    assert_eq!(p["nodes"].as_array().unwrap().len(), 2);
    let n = env
        .run(&["read", "--node", "fetch", "--format", "json"])
        .ok()
        .json();
    assert_eq!(n["nodes"].as_array().unwrap().len(), 1);

    let o = env.run(&["read", "fetch_mor"]);
    assert_eq!(o.code, 2);
    assert!(
        o.stderr
            .contains("no phase or node `fetch_mor` (did you mean `fetch_more`?)"),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr.contains("`fetch_more`, `fetch`"),
        "nearest first: {}",
        o.stderr
    );
    let j = env.run(&["read", "nope", "--format", "json"]).json();
    assert_eq!(j["error"]["code"], "unknown_key");
    assert!(
        j["error"]["help"]
            .as_str()
            .unwrap()
            .contains("`(unphased)`")
    );
    // A plan without unphased nodes has no `(unphased)` slice: never an empty one.
    let o = env.run(&["-p", "plan-keys", "read", "--node", "missing"]);
    assert_eq!(o.code, 2);
    // Many keys: the list is capped at 20, nearest first.
    let nodes: Vec<Value> = (0..40)
        .map(|i| call(&format!("step_{i}"), None, "read_artifact", json!({}), &[]))
        .collect();
    env.import(
        "many",
        &json!({"planId": "plan-many", "nodes": nodes, "edges": []}),
    );
    let o = env.run(&["read", "step_99"]);
    assert_eq!(o.code, 2);
    // 40 node ids and `(unphased)`.
    assert!(
        o.stderr
            .contains("`step_9`, `step_19`, `step_29`, `step_39`, "),
        "{}",
        o.stderr
    );
    assert!(o.stderr.contains("… and 21 more"), "{}", o.stderr);
}

/// A generated plan of `n` nodes, imported; returns its document.
fn generated(env: &Env, n: usize, seed: u64) -> Value {
    let (doc, _) = gen_plan::generate(&gen_plan::Opts {
        nodes: n,
        phases: 8,
        seed,
        unphased: 3,
        plan_id: Some("plan-big".into()),
        rich: false,
    });
    env.import("big", &doc);
    doc
}

#[test]
fn on_five_thousand_nodes_the_outline_and_a_node_are_small() {
    let env = Env::new();
    let doc = generated(&env, 5000, 11);
    let status = env.run(&["status", "--format", "json"]).ok().json();
    assert_eq!(status["nodeCount"], 5000);
    assert_eq!(
        status["issues"],
        json!({"blocking": 0, "advisory": 0}),
        "generated plans are valid"
    );
    let outline = env.run(&["outline"]).ok().stdout;
    let show = env.run(&["show"]).ok().stdout;
    let ratio = outline.len() as f64 / show.len() as f64;
    assert!(
        ratio <= 0.15,
        "outline {} bytes, show {} bytes ({:.1}%)",
        outline.len(),
        show.len(),
        ratio * 100.0
    );
    // Every node appears exactly once, in order, and the last entry is unphased.
    let j = env.run(&["outline", "--format", "json"]).ok().json();
    let mut listed: Vec<Value> = Vec::new();
    for entry in j["phases"]
        .as_array()
        .unwrap()
        .iter()
        .chain([&j["unphased"]])
    {
        listed.extend(entry["nodeIds"].as_array().unwrap().iter().cloned());
    }
    let ids: Vec<Value> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].clone())
        .collect();
    assert_eq!(listed.len(), ids.len());
    assert_eq!(j["unphased"]["nodeIds"].as_array().unwrap().len(), 3);
    // A node of each kind, from all over the plan: each read is at most 2 KB.
    let mut seen_kinds = std::collections::HashSet::new();
    let mut checked = 0;
    for (i, n) in doc["nodes"].as_array().unwrap().iter().enumerate() {
        let kind = n["kind"].as_str().unwrap();
        if !(seen_kinds.insert(kind.to_string()) || i % 500 == 0) {
            continue;
        }
        let id = n["id"].as_str().unwrap();
        let out = env.run(&["read", id]).ok().stdout;
        assert!(
            out.len() <= 2048,
            "read {id} ({kind}): {} bytes\n{out}",
            out.len()
        );
        checked += 1;
    }
    assert!(seen_kinds.len() >= 5 && checked >= 10, "{seen_kinds:?}");
}

#[test]
fn diff_frozen_current_shows_exactly_the_edits_since_the_freeze() {
    let env = Env::new();
    generated(&env, 40, 5);
    // Never frozen: `frozen` is not a revision; the default compares with 0.
    let o = env.run(&["diff", "frozen", "current", "--exit-code"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("never frozen"), "{}", o.stderr);
    let d = env.run(&["diff", "--format", "json"]).json();
    assert_eq!(d["from"]["revision"], 0);
    assert_eq!(d["nodesAdded"].as_array().unwrap().len(), 40);

    env.run(&["freeze"]).ok();
    env.run(&["unfreeze"]).ok();
    let o = env.run(&["diff", "--exit-code"]).ok();
    assert!(o.stdout.ends_with("No differences.\n"), "{}", o.stdout);
    let o = env.run(&["diff", "frozen", "current", "--exit-code"]);
    assert_eq!(o.code, 0);

    env.run(&["set", "intake_1", "onMissingValue", "omit"]).ok();
    env.run(&["phase", "intake_1", "special"]).ok();
    let o = env.run(&["diff", "frozen", "current", "--exit-code"]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stdout.contains(
            "~ node intake_1\n    phase: \"intake\" → \"special\"\n    onMissingValue: \"fail\" → \"omit\"\n"
        ),
        "{}",
        o.stdout
    );
    let j = env
        .run(&["diff", "frozen", "current", "--format", "json"])
        .ok()
        .json();
    assert_eq!(
        j["nodesChanged"],
        json!([{"nodeId": "intake_1", "fields": [
            {"path": "phase", "before": "intake", "after": "special"},
            {"path": "onMissingValue", "before": "fail", "after": "omit"}
        ]}])
    );
    for k in ["nodesAdded", "nodesRemoved", "edgesAdded", "edgesRemoved"] {
        assert_eq!(j[k], json!([]), "{k}");
    }
    let frozen = j["from"]["revision"].as_u64().unwrap();
    assert_eq!(j["to"]["revision"].as_u64().unwrap(), frozen + 2);
    // Revision numbers work too; the same revision twice is empty.
    let r = frozen.to_string();
    let o = env.run(&["diff", &r, &r, "--exit-code"]);
    assert_eq!(o.code, 0);
    // Unknown revision or plan: exit 2, never 1.
    assert_eq!(env.run(&["diff", "0", "99999", "--exit-code"]).code, 2);
    assert_eq!(env.run(&["diff", "latest", "--exit-code"]).code, 2);
    assert_eq!(env.run(&["-p", "plan-nope", "diff", "--exit-code"]).code, 2);
    let err = env.run(&["diff", "0", "99999", "--format", "json"]).json();
    assert_eq!(err["error"]["code"], "unknown_revision");
    // An empty argument names nothing (it is not the default).
    for args in [&["diff", "", ""][..], &["diff", "0", ""][..]] {
        let o = env.run(args);
        assert_eq!(o.code, 2, "{args:?}");
        assert!(
            o.stderr.contains("an empty argument is not a revision"),
            "{}",
            o.stderr
        );
    }

    // Two documents: the same edits.
    let a = env.root().join("a.json");
    let b = env.root().join("b.json");
    std::fs::write(&a, env.run(&["export", "--rev", &r]).ok().stdout).unwrap();
    std::fs::write(&b, env.run(&["export"]).ok().stdout).unwrap();
    let o = env.run(&[
        "diff",
        "--files",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--format",
        "json",
        "--exit-code",
    ]);
    assert_eq!(o.code, 1);
    assert_eq!(o.json()["nodesChanged"], j["nodesChanged"]);
    let o = env.run(&[
        "diff",
        "--files",
        a.to_str().unwrap(),
        a.to_str().unwrap(),
        "--exit-code",
    ]);
    assert_eq!(o.code, 0, "{}", o.stdout);
}

#[test]
fn references_are_compared_whole_and_edge_changes_are_removed_plus_added() {
    let env = Env::new();
    env.import("three", &three_phases());
    env.run(&["set", "publish", "args.path", "@gather.content"])
        .ok();
    env.run(&["disconnect", "e6"]).ok();
    env.run(&[
        "connect", "publish", "cleanup", "--handle", "error", "--id", "e6",
    ])
    .ok();
    let j = env.run(&["diff", "--format", "json"]).ok().json();
    // From revision 0 every node is new; compare with the import instead.
    assert_eq!(j["from"]["revision"], 0);
    let rev = env.run(&["status", "--format", "json"]).ok().json()["revision"]
        .as_u64()
        .unwrap();
    let from = (rev - 3).to_string();
    let j = env
        .run(&["diff", &from, "current", "--format", "json"])
        .ok()
        .json();
    assert_eq!(
        j["nodesChanged"],
        json!([{"nodeId": "publish", "fields": [
            {"path": "args.path", "before": r("digest", "content"), "after": r("gather", "content")}
        ]}])
    );
    assert_eq!(
        j["edgesRemoved"],
        json!([e("e6", "publish", "cleanup", "always")])
    );
    assert_eq!(
        j["edgesAdded"],
        json!([e("e6", "publish", "cleanup", "error")])
    );
    let t = env.run(&["diff", &from, "current"]).ok().stdout;
    assert!(t.contains(
        "    args.path: $ref {node: digest, select: first, path: \"content\"} → $ref {node: gather, select: first, path: \"content\"}"
    ), "{t}");
    assert!(
        t.contains("- edge e6: publish → cleanup (always)\n+ edge e6: publish → cleanup (error)")
    );
}

#[test]
fn raw_and_ops_serve_history_in_wire_form() {
    let env = Env::new();
    env.import("three", &three_phases());
    // The import is one transaction: set_bounds, then the nodes, then the edges.
    let raw = env
        .run(&["raw", "--rev", "3", "--format", "json"])
        .ok()
        .json();
    assert_eq!(raw["revision"], 3);
    let ids: Vec<&str> = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["start", "intake"]);
    assert_eq!(
        raw["nodes"][1]["definition"]["args"]["assignment"],
        r("start", "request")
    );
    assert!(raw.get("state").is_none());
    let now = env.run(&["raw"]).ok().stdout;
    let now: Value = serde_json::from_str(&now).unwrap();
    assert_eq!(now["nodes"].as_array().unwrap().len(), 7);
    let again = env
        .run(&["raw", "--rev", "3", "--format", "json"])
        .ok()
        .json();
    assert_eq!(again["digest"], raw["digest"]);
    assert_eq!(env.run(&["raw", "--rev", "999"]).code, 2);

    // Revision 3: the plan's creation and its first three content ops.
    let ops = env.run(&["ops", "--through", "3"]).ok().stdout;
    assert_eq!(ops.lines().count(), 4);
    for line in ops.lines() {
        let op: Value = serde_json::from_str(line).unwrap();
        assert_eq!(op["actorId"], "tester");
    }
    let since = env
        .run(&["ops", "--since-lamport", "3", "--through", "5"])
        .ok()
        .stdout;
    let lamports: Vec<u64> = since
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["lamport"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(lamports, [4, 5]);
    let j = env.run(&["ops", "--format", "json"]).ok().json();
    assert_eq!(j["ops"].as_array().unwrap().len(), 15);
    assert_eq!(j["ops"][0]["op"], "create_plan");
    assert_eq!(j["ops"][1]["op"], "set_bounds");
    assert_eq!(env.run(&["ops", "--through", "15"]).code, 2);
}

fn dot_renders(dot_text: &str, dir: &Path) -> String {
    let input = dir.join("plan.dot");
    std::fs::write(&input, dot_text).unwrap();
    let out = Command::new("dot")
        .arg("-Tsvg")
        .arg(&input)
        .output()
        .expect("graphviz's `dot` must be installed to run this test (.ci/run installs it)");
    assert!(
        out.status.success(),
        "dot -Tsvg failed: {}\n{dot_text}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn graph_dot_renders_with_graphviz_and_mermaid_names_every_node() {
    let env = Env::new();
    let doc = generated(&env, 120, 3);
    let dot = env.run(&["graph", "--format", "dot"]).ok().stdout;
    assert!(
        dot.contains("subgraph \"cluster_0\""),
        "phases are clusters"
    );
    assert!(dot.contains("style=dashed"), "error edges are dashed");
    assert!(dot.contains("label=\"no_match\""), "handles label edges");
    let svg = dot_renders(&dot, env.root());
    assert!(svg.contains("<svg"), "{svg}");
    assert_eq!(env.run(&["graph"]).ok().stdout, dot, "dot is the default");

    let mermaid = env.run(&["graph", "--format", "mermaid"]).ok().stdout;
    assert!(mermaid.starts_with("flowchart "), "{mermaid}");
    for n in doc["nodes"].as_array().unwrap() {
        let id = n["id"].as_str().unwrap();
        assert!(
            mermaid.contains(&format!("[\"{id}<br/>"))
                || mermaid.contains(&format!("{{\"{id}<br/>"))
                || mermaid.contains(&format!("([\"{id}<br/>")),
            "{id} is not named"
        );
    }
    assert!(mermaid.contains("-.->|\"error\"|"));

    // Hostile phase names and ids still make a diagram graphviz accepts.
    let hostile = json!({
        "planId": "plan-hostile",
        "nodes": [
            {"id": "start", "phase": "a \"quoted\" {phase} \\ end", "kind": "entry", "definition": {}},
            {"id": "x\"y", "phase": "subgraph", "kind": "join", "definition": {}},
        ],
        "edges": [e("e1", "start", "x\"y", "weird handle")]
    });
    env.import("hostile", &hostile);
    let dot = env.run(&["-p", "plan-hostile", "graph"]).ok().stdout;
    dot_renders(&dot, env.root());
    assert_eq!(env.run(&["graph", "--format", "json"]).code, 2);
}

#[test]
fn show_renders_every_node_in_full_and_fixed_forms() {
    let env = Env::new();
    let mut doc = three_phases();
    doc["nodes"].as_array_mut().unwrap().push(call(
        "stray",
        None,
        "read_artifact",
        json!({"path": "x"}),
        &[],
    ));
    env.import("three", &doc);
    let t = env.run(&["show"]).ok().stdout;
    assert!(
        t.contains("CALL — `stray` — read_artifact(path)"),
        "unreachable nodes in full"
    );
    for id in [
        "start", "intake", "gather", "digest", "publish", "audit", "cleanup",
    ] {
        assert!(t.contains(&format!("`{id}`")), "{id}");
    }
    assert!(t.contains("→ on always → step intake"));
    assert!(t.contains("ABORT on error"));
    // No heading that ends in `:` is followed by a blank line.
    let lines: Vec<&str> = t.lines().collect();
    for w in lines.windows(2) {
        assert!(!(w[0].ends_with(':') && w[1].is_empty()), "{:?}", w[0]);
    }
    let op = env.run(&["show", "--audience", "operator"]).ok().stdout;
    assert!(op.contains("Total authority requested"));
    env.run(&["create", "plan-empty"]).ok();
    let e = env.run(&["-p", "plan-empty", "show"]).ok().stdout;
    assert!(e.trim_end().ends_with("(no nodes)"));
    let o = env.run(&["-p", "plan-empty", "outline"]).ok().stdout;
    assert!(o.trim_end().ends_with("(no nodes)"), "{o}");
}

#[test]
fn the_generator_is_deterministic_and_its_plans_are_valid_with_either_registry() {
    let opts = |seed, rich| gen_plan::Opts {
        nodes: 400,
        phases: 4,
        seed,
        unphased: 0,
        plan_id: Some(format!("plan-gen-{seed}-{rich}")),
        rich,
    };
    assert_eq!(
        gen_plan::generate(&opts(9, false)),
        gen_plan::generate(&opts(9, false))
    );
    assert_ne!(
        gen_plan::generate(&opts(9, false)).0["nodes"],
        gen_plan::generate(&opts(10, false)).0["nodes"]
    );
    let (doc, registry) = gen_plan::generate(&opts(9, true));
    let env = Env::new();
    std::fs::write(env.store().join("registry.yaml"), registry.unwrap()).unwrap();
    env.import("rich", &doc);
    let kinds: std::collections::HashSet<&str> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 7, "every kind appears: {kinds:?}");
    let status = env.run(&["status", "--format", "json"]).ok().json();
    assert_eq!(status["nodeCount"], 400);
    assert_eq!(status["issues"], json!({"blocking": 0, "advisory": 0}));
    // A valid plan freezes.
    env.run(&["freeze"]).ok();
}

#[test]
fn generated_plans_of_a_thousand_nodes_validate_clean_against_their_registry() {
    let env = Env::new();
    let default_registry = env.store().join("registry.yaml");
    for (seed, rich) in [(21, false), (22, true)] {
        let (doc, registry) = gen_plan::generate(&gen_plan::Opts {
            nodes: 1000,
            phases: 8,
            seed,
            unphased: 0,
            plan_id: None,
            rich,
        });
        let file = env.root().join(format!("gen{seed}.json"));
        std::fs::write(&file, serde_json::to_string(&doc).unwrap()).unwrap();
        let reg = match registry {
            Some(text) => {
                let p = env.root().join(format!("registry{seed}.yaml"));
                std::fs::write(&p, text).unwrap();
                p
            }
            None => default_registry.clone(),
        };
        let out = env.run(&[
            "validate",
            file.to_str().unwrap(),
            "--registry",
            reg.to_str().unwrap(),
            "--format",
            "json",
        ]);
        let j = out.json();
        assert_eq!(
            (
                j["valid"].clone(),
                j["blocking"].clone(),
                j["skipped"].clone()
            ),
            (json!(true), json!(0), json!([])),
            "seed {seed}: {}",
            out.stdout
        );
        assert_eq!(out.code, 0);
    }
}
