//! Templates and `author` as a user runs them: every built-in instantiates
//! into a plan that freezes; templates in the store are checked when loaded;
//! args are converted by type and refused with the param named; an owner's
//! request is kept byte for byte.

mod common;

use common::Env;
use std::path::PathBuf;

impl Env {
    fn templates_dir(&self) -> PathBuf {
        self.path("plans/templates")
    }
}

/// A plausible value for a built-in param, by its name.
fn plausible(template: &str, param: &str) -> String {
    let last = param.rsplit('_').next().unwrap_or(param);
    match last {
        "output" => format!("out/{template}/{param}.md"),
        "synthesis" => format!("out/{template}/synthesis.md"),
        "role" => format!("{} reviewer", param.split('_').next().unwrap_or("a")),
        "goal" => format!("Report what {param} finds, with evidence."),
        "digest" => "points: [{claim, evidence}], gaps: [string]".into(),
        _ => format!("docs/{param}/"),
    }
}

#[test]
fn every_builtin_template_instantiates_into_a_plan_that_freezes() {
    let env = Env::new();
    let list = env.json(&["templates"]);
    let templates = list["templates"].as_array().unwrap();
    let ids: Vec<&str> = templates
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    for want in [
        "single",
        "advocate_critic",
        "ordered_handoff_2",
        "ordered_handoff_3",
        "fan_out_2",
        "fan_out_3",
        "bounded_digest_2",
    ] {
        assert!(ids.contains(&want), "{want} missing from {ids:?}");
    }
    for t in templates {
        let id = t["id"].as_str().unwrap();
        assert_eq!(t["usable"], true, "{id}: {t}");
        let args: Vec<String> = t["params"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let name = p["path"].as_str().unwrap();
                format!("{name}={}", plausible(id, name))
            })
            .collect();
        let plan = format!("plan-{id}");
        let mut cmd = vec!["instantiate", id, "--id", &plan];
        for a in &args {
            cmd.push("--arg");
            cmd.push(a);
        }
        let made = env.json(&cmd);
        assert_eq!(made["planId"], plan.as_str(), "{made}");
        assert_eq!(made["issues"]["blocking"], 0, "{id}: {made}");
        let nodes = made["nodeCount"].as_u64().unwrap();
        let edges = made["edgeCount"].as_u64().unwrap();
        assert_eq!(
            made["revision"].as_u64().unwrap(),
            nodes + edges + 1,
            "add_nodes, add_edges and one set_bounds"
        );
        let frozen = env.run(&["freeze", "-p", &plan]);
        assert!(
            frozen.status.success(),
            "{id} does not freeze:\n{}",
            String::from_utf8_lossy(&frozen.stdout)
        );
    }
}

#[test]
fn instantiate_records_provenance_in_one_transaction_and_selects_the_plan() {
    let env = Env::new();
    let out = env.ok(&[
        "instantiate",
        "single",
        "--id",
        "plan-one",
        "--arg",
        "role=surveyor",
        "--arg",
        "goal=Survey the API",
        "--arg",
        "input=docs/api",
        "--arg",
        "output=survey.md",
        "--arg",
        "synthesis=report.md",
    ]);
    assert!(
        out.starts_with("Instantiated plan plan-one from template \"single\""),
        "{out}"
    );
    assert!(out.contains("It is now the current plan."), "{out}");
    let status = env.json(&["status"]);
    assert_eq!(status["planId"], "plan-one");
    assert_eq!(status["provenance"]["kind"], "template");
    assert_eq!(status["provenance"]["template"], "single");
    assert_eq!(status["provenance"]["args"]["goal"], "Survey the API");
    let ops = env.json(&["ops"]);
    let ops = ops["ops"].as_array().expect("ops list");
    let txs: std::collections::HashSet<&str> =
        ops.iter().map(|o| o["tx"].as_str().unwrap()).collect();
    assert_eq!(txs.len(), 1, "one transaction");
    assert_eq!(ops.last().unwrap()["op"], "set_bounds");
    // The holes are filled: the spawn passes the literal values.
    let raw = env.json(&["raw"]);
    let spawn = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == "spawn_unit")
        .unwrap();
    assert_eq!(spawn["definition"]["args"]["goal"], "Survey the API");
    assert_eq!(
        spawn["definition"]["args"]["forbiddenWrites"],
        serde_json::json!(["report.md"])
    );
}

#[test]
fn invalid_args_names_the_param_the_type_and_what_was_given() {
    let env = Env::new();
    std::fs::write(
        env.templates_dir().join("budgeted.yaml"),
        r#"
id: budgeted
summary: a reason step with typed params
params:
  - {path: topic, type: string, maxBytes: 20}
  - {path: limit, type: number}
  - {path: strict, type: boolean}
  - {path: tone, type: enum, values: [plain, formal]}
nodes:
  - {id: start, kind: entry, definition: {input: []}}
  - id: think
    kind: reason
    definition:
      prompt: [{text: {$param: {path: topic}}}, {text: {$param: {path: tone}}}]
      outputSchema: {type: object, properties: {answer: {type: string}}}
      maxAttempts: 1
edges: [{from: start, to: think}]
"#,
    )
    .unwrap();
    let base = ["instantiate", "budgeted", "--arg", "topic=tides"];
    fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    }
    let out = env.run(&with(
        &base,
        &[
            "--arg",
            "limit=many",
            "--arg",
            "strict=true",
            "--arg",
            "tone=plain",
        ],
    ));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("invalid_args")
            && err.contains("param `limit` expects a finite number, but was given \"many\""),
        "{err}"
    );
    let j = env.json(&with(
        &base,
        &[
            "--arg",
            "limit=3",
            "--arg",
            "strict=maybe",
            "--arg",
            "tone=plain",
        ],
    ));
    assert_eq!(j["error"]["issue"], "invalid_args", "{j}");
    assert!(
        j["error"]["message"]
            .as_str()
            .unwrap()
            .contains("param `strict` expects a boolean (true or false), but was given \"maybe\""),
        "{j}"
    );
    // Nothing was created by the refusals; the right args make a plan.
    assert!(env.json(&["list"])["plans"].as_array().unwrap().is_empty());
    let made = env.json(&with(
        &base,
        &[
            "--arg",
            "limit=3",
            "--arg",
            "strict=false",
            "--arg",
            "tone=formal",
        ],
    ));
    assert_eq!(made["args"]["limit"], 3, "{made}");
    assert_eq!(made["args"]["strict"], false);
    assert_eq!(env.code(&["instantiate", "no_such_template"]), 2);
}

#[test]
fn a_template_with_an_undeclared_param_is_refused_at_load() {
    let env = Env::new();
    let template = |hole: &str| {
        format!(
            r#"{{"id": "bad", "summary": "spawns with an undeclared param",
  "params": [{{"path": "goal", "type": "string"}}],
  "nodes": [
    {{"id": "start", "kind": "entry", "definition": {{"input": []}}}},
    {{"id": "accept", "kind": "call", "definition": {{"tool": "accept_assignment", "args": {{"assignment": "x"}},
      "output": [{{"path": "goal", "type": "string"}}], "onMissingValue": "fail", "authority": [],
      "replaySafe": true, "onIndeterminate": "halt", "declassifies": ["goal"]}}}},
    {{"id": "unit", "kind": "call", "definition": {{"tool": "spawn_subagent",
      "args": {{"goal": {{"$param": {{"path": "{hole}"}}}}}}, "output": [], "onMissingValue": "fail",
      "authority": [], "replaySafe": false, "onIndeterminate": "halt"}}}}],
  "edges": [{{"from": "start", "to": "accept"}}, {{"from": "accept", "to": "unit"}}]}}"#
        )
    };
    std::fs::write(env.templates_dir().join("bad.json"), template("gaol")).unwrap();
    let out = env.run(&["templates"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a refused template is a finding"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Refused templates (1):"), "{text}");
    assert!(
        text.contains("unknown_param [node unit]") && text.contains("(did you mean `goal`?)"),
        "{text}"
    );
    let j = env.json(&["templates"]);
    let bad = j["templates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "bad")
        .unwrap();
    assert_eq!(bad["usable"], false);
    assert_eq!(bad["issues"][0]["code"], "unknown_param");
    let out = env.run(&["instantiate", "bad", "--arg", "goal=x"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("unknown_param"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The same template with the hole named right is usable and clean.
    std::fs::write(env.templates_dir().join("bad.json"), template("goal")).unwrap();
    assert_eq!(env.code(&["templates"]), 0);
}

#[test]
fn a_template_that_launders_its_params_is_refused_with_the_route() {
    let env = Env::new();
    std::fs::write(
        env.templates_dir().join("laundering.yaml"),
        r#"
id: laundering
summary: passes a param straight to a tool
params: [{path: goal, type: string}]
nodes:
  - {id: start, kind: entry, definition: {input: []}}
  - id: unit
    kind: call
    definition:
      tool: spawn_subagent
      args: {goal: {$param: {path: goal}}}
      output: []
      onMissingValue: fail
      authority: []
      replaySafe: false
      onIndeterminate: halt
      declassifies: [goal]
edges: [{from: start, to: unit}]
"#,
    )
    .unwrap();
    let out = env.run(&["instantiate", "laundering", "--arg", "goal=x"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("param_not_declassified") && err.contains("start → unit"),
        "{err}"
    );
}

const REQUEST: &str = "Book the \"usual\" flu shot for Mum\nat the Holly Springs Walgreens — not the one on Main St.  \n";

#[test]
fn author_keeps_the_request_byte_for_byte() {
    let env = Env::new();
    let made = env.json(&["author", REQUEST, "--id", "plan-shot"]);
    assert_eq!(made["request"], REQUEST);
    let status = env.json(&["status"]);
    assert_eq!(status["planId"], "plan-shot", "author selects the new plan");
    assert_eq!(status["request"].as_str().unwrap(), REQUEST);
    assert_eq!(status["state"], "editable");
    assert_eq!(status["revision"], 0);
    assert_eq!(
        status["label"],
        "Book the \"usual\" flu shot for Mum at the Holly Springs Walgreens — not the one o"
    );
    assert_eq!(status["label"].as_str().unwrap().chars().count(), 80);
    let text = env.ok(&["status"]);
    assert!(
        text.contains("  | at the Holly Springs Walgreens — not the one on Main St.  "),
        "{text}"
    );
    let shown = env.ok(&["show"]);
    assert!(
        shown.contains("  | Book the \"usual\" flu shot for Mum"),
        "{shown}"
    );
    // The plan's creation, the first op of its log, holds it verbatim.
    let log = std::fs::read_to_string(env.root.join("plans/plan-shot/ops.jsonl")).unwrap();
    let created: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(created["op"], "create_plan");
    assert_eq!(created["request"].as_str().unwrap(), REQUEST);
}

#[test]
fn author_reads_the_request_from_stdin_unchanged() {
    let env = Env::new();
    let input = format!("{REQUEST}\n\ttrailing tab and blank line kept\n\n");
    let out = env.with_stdin(
        &["--format", "json", "author", "-", "--id", "plan-stdin"],
        input.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let status = env.json(&["status", "-p", "plan-stdin"]);
    assert_eq!(status["request"].as_str().unwrap(), input);
    // An empty request is refused, and nothing is created.
    let out = env.with_stdin(&["author", "-"], b"  \n");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(env.json(&["list"])["plans"].as_array().unwrap().len(), 1);
}

#[test]
fn authoring_a_long_request_echoes_part_of_it_and_keeps_it_whole() {
    let env = Env::new();
    let long: String = (0..5000)
        .map(|i| format!("line {i}: é and more words\n"))
        .collect();
    let out = env.with_stdin(&["author", "-", "--id", "plan-long"], long.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.len() < 6000, "echo of {} bytes", text.len());
    assert!(text.contains("  | line 0: é and more words"), "{text}");
    assert!(
        text.contains(&format!("the request is {} bytes", long.len())),
        "{text}"
    );
    let status = env.json(&["status", "-p", "plan-long"]);
    assert_eq!(status["request"].as_str().unwrap(), long);
}

/// A unit's input in a built-in stays in the plan, so it is bounded where
/// `orchestrate` and `inlined_source` start reading an input as source
/// text (1,024 bytes): a slice of source text is refused, naming the param
/// and why, and nothing is stored; one at the bound is accepted.
#[test]
fn a_builtin_refuses_source_text_as_a_units_input() {
    let env = Env::new();
    let source: String = (0..120)
        .map(|i| format!("line {i} of the source text with some words\n"))
        .collect();
    let args = |slice: &str| -> Vec<String> {
        [
            ("digest", "points"),
            ("a_goal", "Digest a"),
            ("a_slice", slice),
            ("a_output", "g/a.md"),
            ("b_goal", "Digest b"),
            ("b_slice", "logs/b.log"),
            ("b_output", "g/b.md"),
            ("synthesis", "g/s.md"),
        ]
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect()
    };
    let run = |plan: &str, slice: &str| {
        let a = args(slice);
        let mut cmd = vec!["instantiate", "bounded_digest_2", "--id", plan];
        for x in &a {
            cmd.push("--arg");
            cmd.push(x);
        }
        env.run(&cmd)
    };
    let out = run("plan-src", &source[..3900]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("param `a_slice` expects a string of at most 1024 bytes, but was given a string of 3900 bytes"),
        "{err}"
    );
    assert!(
        err.contains("`a_slice` is a unit's bounded input, which stays in the plan: over 1024 bytes it is source text"),
        "{err}"
    );
    let listed = env.json(&["list"]);
    assert!(!listed.to_string().contains("plan-src"), "{listed}");
    // A goal is a bounded task statement: it cannot carry the source text
    // an input may not (one threshold, 1,024 bytes).
    let mut a = args("logs/a.log");
    a[1] = format!("a_goal={}", &source[..1500]);
    let mut cmd = vec!["instantiate", "bounded_digest_2", "--id", "plan-goal"];
    for x in &a {
        cmd.push("--arg");
        cmd.push(x);
    }
    let out = env.run(&cmd);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("param `a_goal` expects a string of at most 1024 bytes, but was given a string of 1500 bytes"),
        "{err}"
    );
    let at_bound = &source[..1024];
    let out = run("plan-bound", at_bound);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let frozen = env.run(&["freeze", "-p", "plan-bound"]);
    assert!(
        frozen.status.success(),
        "{}",
        String::from_utf8_lossy(&frozen.stdout)
    );
}

/// docs/templates.md states the bound of `bounded_digest_2`'s slices as
/// `planforge templates` declares it (one source-text threshold).
#[test]
fn the_templates_page_states_the_slice_bound_the_template_declares() {
    let env = Env::new();
    let list = env.json(&["templates", "--format", "json"]);
    let t = list["templates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == "bounded_digest_2")
        .expect("bounded_digest_2");
    for slice in ["a_slice", "b_slice"] {
        let p = t["params"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["path"] == slice)
            .expect(slice);
        let max = p["maxBytes"].as_u64().unwrap();
        assert_eq!(max, 1024, "{slice}");
    }
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/templates.md")).unwrap();
    let at = page
        .find("`b_slice` are each slice's identity")
        .expect("the slice sentence");
    let sentence = &page[at..at + 160];
    assert!(sentence.contains("at most 1,024 bytes"), "{sentence}");
}
