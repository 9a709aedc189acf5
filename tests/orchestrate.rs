//! `orchestrate` as a user runs it (SPEC §9, seed 003): the classification
//! and mechanism it prints, plans that freeze for every mechanism, the
//! fallbacks, depth 1, and the refusals that name the task.

mod common;

use common::Env;

impl Env {
    /// Writes a decomposition and returns its path.
    fn file(&self, name: &str, text: &str) -> String {
        self.write(name, text).to_string_lossy().into_owned()
    }
    /// Orchestrates `text` into `plan`, checks the plan freezes, and
    /// returns the printed report.
    fn orchestrate_and_freeze(&self, text: &str, plan: &str) -> String {
        let f = self.file(&format!("{plan}.yaml"), text);
        let out = self.ok(&["orchestrate", &f, "--id", plan]);
        let frozen = self.run(&["freeze", "-p", plan]);
        assert!(
            frozen.status.success(),
            "{plan} does not freeze:\n{}\n{out}",
            String::from_utf8_lossy(&frozen.stdout)
        );
        out
    }
    /// The plan's nodes by id (raw JSON).
    fn node(&self, plan: &str, id: &str) -> serde_json::Value {
        let raw = self.json(&["raw", "-p", plan]);
        raw["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == id)
            .unwrap_or_else(|| panic!("{plan} has no node {id}"))
            .clone()
    }
}

const ROLES: &str = "roles:
  lead:
    instructions: Research the question and cite every source.
    tools: [read_file, web_search, spawn_subagent]
  tester:
    instructions: Run the checks and report each failure with its output.
    tools: [run_tests]
  writer:
    instructions: Write for the release notes.
    tools: [read_file]
";

#[test]
fn three_independent_tasks_fan_out_and_freeze() {
    let env = Env::new();
    let out = env.orchestrate_and_freeze(
        &format!(
            "{ROLES}tasks:
  - {{name: api, role: lead, goal: Survey the API changes, input: src/api, output: notes/api.md}}
  - {{name: tests, role: tester, goal: Find failing tests, input: tests/, output: notes/tests.md}}
  - {{name: notes, role: writer, goal: Draft the release notes, input: CHANGELOG.md, output: notes/notes.md}}
synthesis: {{output: notes/release.md}}
"
        ),
        "plan-fan",
    );
    assert!(
        out.contains("Classification (coupling of each task):"),
        "{out}"
    );
    for task in ["api", "tests", "notes"] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(task) && l.contains("independent")),
            "{task} not independent:\n{out}"
        );
    }
    assert!(
        out.contains("Mechanism matched: fan-out (seed 003, row 1)"),
        "{out}"
    );
    assert!(out.contains("Mechanism used: fan-out"), "{out}");
    assert!(out.contains("Outline of plan-fan"), "{out}");
    // Parallel units meet at a join, then one reconcile and one write.
    let raw = env.json(&["raw", "-p", "plan-fan"]);
    let nodes = raw["nodes"].as_array().unwrap();
    let kinds = |k: &str| nodes.iter().filter(|n| n["kind"] == k).count();
    assert_eq!(kinds("join"), 1);
    let tools: Vec<&str> = nodes
        .iter()
        .filter_map(|n| n["definition"]["tool"].as_str())
        .collect();
    assert_eq!(tools.iter().filter(|t| **t == "spawn_subagent").count(), 3);
    assert_eq!(tools.iter().filter(|t| **t == "write_synthesis").count(), 1);
    assert_eq!(tools[0], "accept_assignment");
    let edges = raw["edges"].as_array().unwrap();
    for u in ["api", "tests", "notes"] {
        assert!(
            edges
                .iter()
                .any(|e| e["from"] == "accept" && e["to"] == format!("spawn_{u}")),
            "accept → spawn_{u}"
        );
    }
    // A complete spec: forbidden writes are the other outputs and the synthesis.
    let spawn = env.node("plan-fan", "spawn_api");
    let args = &spawn["definition"]["args"];
    for key in [
        "role",
        "input",
        "goal",
        "tools",
        "forbiddenWrites",
        "output",
        "done",
    ] {
        assert!(args.get(key).is_some(), "spawn_api lacks {key}");
    }
    assert_eq!(
        args["forbiddenWrites"],
        serde_json::json!(["notes/tests.md", "notes/notes.md", "notes/release.md"])
    );
    let reconcile = env.node("plan-fan", "reconcile");
    let schema = &reconcile["definition"]["outputSchema"]["properties"]["dispositions"];
    assert_eq!(
        schema["properties"]["api"]["properties"]["disposition"]["enum"],
        serde_json::json!(["accepted", "superseded", "rejected"])
    );
}

#[test]
fn a_needs_chain_is_an_ordered_handoff_that_stops_at_a_failed_handoff() {
    let env = Env::new();
    let out = env.orchestrate_and_freeze(
        &format!(
            "{ROLES}tasks:
  - {{name: draft, role: writer, goal: Draft the notes, input: the endpoint list, output: d.md, needs: collect}}
  - {{name: collect, role: lead, goal: List the endpoints, input: src/api, output: c.md}}
  - {{name: verify, role: tester, goal: Test every documented endpoint, input: the draft notes, output: v.md, needs: draft}}
synthesis: {{output: notes.md}}
"
        ),
        "plan-chain",
    );
    assert!(
        out.contains("Mechanism matched: ordered handoff (seed 003, row 2)"),
        "{out}"
    );
    assert!(
        out.contains(
            "Units, one at a time, each verified before the next: collect, draft, verify."
        ),
        "{out}"
    );
    for task in ["draft", "collect", "verify"] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(task) && l.contains("ordered")),
            "{task} not ordered:\n{out}"
        );
    }
    // The next task's input is the previous verification's handoff.
    let spawn = env.node("plan-chain", "spawn_draft");
    assert_eq!(
        spawn["definition"]["args"]["input"],
        serde_json::json!({"$ref": {"node": "verify_collect", "select": "first", "path": "handoff"}})
    );
    // A failed verdict takes no_match to report_failure; errors too.
    let raw = env.json(&["raw", "-p", "plan-chain"]);
    let edges = raw["edges"].as_array().unwrap();
    let has = |from: &str, to: &str, handle: &str| {
        edges
            .iter()
            .any(|e| e["from"] == from && e["to"] == to && e["handle"] == handle)
    };
    assert!(has("check_collect", "spawn_draft", "match"));
    assert!(has("check_collect", "fail_collect", "no_match"));
    assert!(has("spawn_collect", "lost_collect", "error"));
    assert!(has("verify_collect", "fail_collect", "error"));
    assert!(
        !raw["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["kind"] == "join"),
        "no join in a chain"
    );
    assert_eq!(
        env.node("plan-chain", "fail_collect")["definition"]["tool"],
        "report_failure"
    );
}

#[test]
fn an_advocate_and_a_critic_are_adversarial_and_freeze() {
    let env = Env::new();
    let out = env.orchestrate_and_freeze(
        "roles:
  advocate: {instructions: Argue for the proposal., tools: [read_file]}
  critic: {instructions: Argue against the proposal., tools: [read_file]}
tasks:
  - {name: pro, role: advocate, goal: Make the case for adopting X, input: evidence/, output: pro.md}
  - {name: con, role: critic, goal: Challenge the case for X, input: evidence/, output: con.md, challenges: pro}
synthesis: {output: decision.md}
",
        "plan-adv",
    );
    for task in ["pro", "con"] {
        assert!(
            out.lines()
                .any(|l| l.trim_start().starts_with(task) && l.contains("adversarial")),
            "{task} not adversarial:\n{out}"
        );
    }
    assert!(
        out.contains("Mechanism matched: advocate/critic (seed 003, row 6)"),
        "{out}"
    );
    let con = env.node("plan-adv", "spawn_con");
    assert_eq!(
        con["definition"]["args"]["challenges"],
        serde_json::json!(["pro"])
    );
    assert!(
        con["definition"]["args"]["schema"]
            .as_str()
            .unwrap()
            .contains("claim-evidence-objection")
    );
    let reconcile = env.node("plan-adv", "reconcile");
    let intro = reconcile["definition"]["prompt"][0]["text"]
        .as_str()
        .unwrap();
    assert!(intro.contains("Resolve each objection"), "{intro}");
}

#[test]
fn every_other_mechanism_and_fallback_freezes() {
    let env = Env::new();
    let cases = [
        (
            "single",
            "tasks:\n  - {name: only, role: lead, goal: g, input: i, output: o.md}\n",
            "Mechanism used: single subagent",
        ),
        (
            "digest",
            "tasks:\n  - {name: a, role: lead, goal: g, input: part1, output: a.md, digest: 'points: [claim, evidence]'}\n  - {name: b, role: lead, goal: g, input: part2, output: b.md, digest: 'points: [claim, evidence]'}\n",
            "Mechanism matched: bounded digest (seed 003, row 3)",
        ),
        (
            "perunit",
            "tasks:\n  - {name: a, role: lead, goal: g, input: part1, output: a.md}\n  - {name: b, role: lead, goal: g, input: part2, output: b.md}\n",
            "Mechanism matched: per-unit (seed 003, row 5)",
        ),
        (
            "overflow",
            "tasks:\n  - {name: a, role: lead, goal: g, input: i, output: a.md, maxOutputBytes: 150000}\n  - {name: b, role: tester, goal: h, input: j, output: b.md, maxOutputBytes: 150000}\n",
            "Fallback: context overflow (Σ maxOutputBytes = 300000 > 199998 bytes left for artifacts): each unit returns a bounded digest of at most 99999 bytes instead",
        ),
        (
            "same",
            "tasks:\n  - {name: a, role: lead, goal: g, input: i, output: a.md}\n  - {name: b, role: lead, goal: g, input: i, output: b.md}\n",
            "Fallback: the check \"distinct assignments, named outputs\" failed",
        ),
        (
            "norow",
            "tasks:\n  - {name: a, role: lead, goal: g, input: i, output: a.md, digest: d}\n  - {name: b, role: tester, goal: h, input: j, output: b.md}\n",
            "Mechanism matched: none",
        ),
    ];
    for (name, tasks, needle) in cases {
        let out = env.orchestrate_and_freeze(
            &format!("{ROLES}{tasks}synthesis: {{output: out-{name}.md}}\n"),
            &format!("plan-{name}"),
        );
        assert!(out.contains(needle), "{name}: {needle}\n{out}");
    }
}

#[test]
fn two_tasks_writing_one_output_run_one_at_a_time_with_separate_artifacts() {
    let env = Env::new();
    let out = env.orchestrate_and_freeze(
        &format!(
            "{ROLES}tasks:
  - {{name: a, role: lead, goal: g, input: i, output: shared.md}}
  - {{name: b, role: tester, goal: h, input: j, output: ./shared.md}}
  - {{name: c, role: writer, goal: k, input: l, output: out.md}}
synthesis: {{output: out.md}}
"
        ),
        "plan-collide",
    );
    assert!(
        out.contains("fail  no ordering, no shared target — task `b` and task `a` (`shared.md`) write one target (contention collision)"),
        "{out}"
    );
    assert!(out.contains("Mechanism used: ordered handoff"), "{out}");
    assert!(
        out.contains("it writes the separate artifact `./shared.b.md` instead"),
        "{out}"
    );
    assert!(out.contains("as the synthesis `out.md` does"), "{out}");
    assert_eq!(
        env.node("plan-collide", "spawn_b")["definition"]["args"]["output"],
        "./shared.b.md"
    );
    assert_eq!(
        env.node("plan-collide", "spawn_c")["definition"]["args"]["output"],
        "out.c.md"
    );
}

#[test]
fn a_role_holding_the_spawn_tool_loses_it_and_every_role_gets_the_no_spawn_line() {
    let env = Env::new();
    let out = env.orchestrate_and_freeze(
        &format!(
            "{ROLES}tasks:
  - {{name: research, role: lead, goal: g, input: i, output: r.md}}
  - {{name: check, role: tester, goal: h, input: j, output: c.md}}
synthesis: {{output: out.md}}
"
        ),
        "plan-depth",
    );
    assert!(
        out.contains("Removed `spawn_subagent` from the tools of role `lead`."),
        "{out}"
    );
    let spawn = env.node("plan-depth", "spawn_research");
    assert_eq!(
        spawn["definition"]["args"]["tools"],
        serde_json::json!(["read_file", "web_search"])
    );
    for id in ["spawn_research", "spawn_check"] {
        let n = env.node("plan-depth", id);
        let instructions = n["definition"]["args"]["instructions"].as_str().unwrap();
        assert!(
            instructions.contains("Do not spawn, start or delegate to any other agent"),
            "{id}: {instructions}"
        );
    }
}

#[test]
fn print_shows_the_plan_without_storing_it() {
    let env = Env::new();
    let f = env.file(
        "p.yaml",
        &format!(
            "{ROLES}tasks:\n  - {{name: only, role: writer, goal: g, input: i, output: o.md}}\nsynthesis: {{output: s.md}}\n"
        ),
    );
    let text = env.ok(&["orchestrate", &f, "--print", "--id", "plan-shown"]);
    assert!(text.contains("Plan plan-shown (not stored)"), "{text}");
    assert!(text.contains("CALL — `spawn_only`"), "{text}");
    let j = env.json(&["orchestrate", &f, "--print", "--id", "plan-shown"]);
    assert_eq!(j["stored"], false);
    assert_eq!(j["mechanism"], "single subagent");
    assert!(env.json(&["list"])["plans"].as_array().unwrap().is_empty());
    // The printed document validates offline with the store's registry, and
    // storing it gives the same digest.
    let doc = env.file("doc.json", &j["plan"].to_string());
    let v = env.json(&["validate", &doc]);
    assert_eq!(v["valid"], true, "{v}");
    let stored = env.json(&["orchestrate", &f, "--id", "plan-shown"]);
    assert_eq!(stored["digest"], j["digest"]);
}

#[test]
fn refusals_name_the_task() {
    let env = Env::new();
    for (tasks, needle) in [
        (
            "  - {name: a, role: ghost, goal: g, input: i, output: a.md}\n",
            "task `a` has the unknown role `ghost`",
        ),
        (
            "  - {name: a, role: lead, goal: g, input: i, output: a.md, needs: b}\n  - {name: b, role: tester, goal: h, input: j, output: b.md, needs: a}\n",
            "the tasks' `needs` form a cycle: a → b → a",
        ),
        (
            "  - {name: a, role: lead, input: i, output: a.md}\n",
            "task `a` has no goal",
        ),
        (
            "  - {name: a, role: lead, goal: g, input: i}\n",
            "task `a` has no output",
        ),
        (
            &(0..257)
                .map(|i| {
                    format!("  - {{name: t{i}, role: lead, goal: g, input: i, output: t{i}.md}}\n")
                })
                .collect::<String>(),
            "the decomposition lists 257 tasks, more than the 256",
        ),
    ] {
        let f = env.file(
            "bad.yaml",
            &format!("{ROLES}tasks:\n{tasks}synthesis: {{output: s.md}}\n"),
        );
        let out = env.run(&["orchestrate", &f]);
        assert_eq!(out.status.code(), Some(2), "{needle}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{needle}\n{err}");
    }
}

#[test]
fn the_example_decomposition_orchestrates_and_freezes() {
    let env = Env::new();
    let example = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/orchestrate/release_review.yaml");
    let text = std::fs::read_to_string(example).unwrap();
    let out = env.orchestrate_and_freeze(&text, "plan-example");
    assert!(out.contains("Mechanism used: fan-out"), "{out}");
    assert!(
        out.contains("Removed `spawn_subagent` from the tools of role `security`."),
        "{out}"
    );
}
