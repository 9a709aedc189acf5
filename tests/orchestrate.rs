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

/// Two independent tasks (an API survey and a test run) and their synthesis.
const API_AND_TESTS: &str = "tasks:
  - {name: api, role: lead, goal: Survey the API changes, input: src/api, output: notes/api.md}
  - {name: tests, role: tester, goal: Find failing tests, input: tests/, output: notes/tests.md}
synthesis: {output: notes/release.md}
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
    assert!(has("read_collect", "unread_collect", "error"));
    // A verification that errors has its own report, naming the step and
    // every criterion unconfirmed (it returned no failed criteria).
    assert!(has("verify_collect", "noverdict_collect", "error"));
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
  - {name: con, role: critic, goal: Challenge the case for X, input: evidence/, output: contra.md, challenges: pro}
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
    let part = |k: &str| format!("part{k} {}", "of the source ".repeat(80));
    let digest = format!(
        "tasks:\n  - {{name: a, role: lead, goal: g, input: {}, output: a.md, digest: 'points: [claim, evidence]'}}\n  - {{name: b, role: lead, goal: g, input: {}, output: b.md, digest: 'points: [claim, evidence]'}}\n",
        part("1"),
        part("2")
    );
    let cases = [
        (
            "single",
            "tasks:\n  - {name: only, role: lead, goal: g, input: i, output: o.md}\n",
            "Mechanism used: single subagent",
        ),
        (
            "digest",
            digest.as_str(),
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
            "Fallback: context overflow (Σ maxOutputBytes = 300000 > 199986 bytes left for artifacts): each unit returns a bounded digest of at most 99993 bytes instead",
        ),
        (
            "same",
            "tasks:\n  - {name: a, role: lead, goal: g, input: i, output: a.md}\n  - {name: b, role: lead, goal: g, input: i, output: b.md}\n",
            "Fallback: the check \"distinct assignments, named outputs\" failed",
        ),
        (
            // A digest of a small input is not row 3: row 1 matched first.
            "smalldigest",
            "tasks:\n  - {name: a, role: lead, goal: g, input: i, output: a.md, digest: d}\n  - {name: b, role: tester, goal: h, input: j, output: b.md, digest: d}\n",
            "Mechanism matched: fan-out (seed 003, row 1): 2 independent tasks, each with its own role, 2 naming a digest, but not every task consumes a large input",
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
        out.contains("fail  no ordering, no shared target — task `a` and task `b` (`./shared.md`) write one target (contention collision)"),
        "{out}"
    );
    assert!(out.contains("Mechanism used: ordered handoff"), "{out}");
    assert!(
        out.contains("it writes the separate artifact `shared.b.md` instead"),
        "{out}"
    );
    assert!(out.contains("as the synthesis `out.md` does"), "{out}");
    assert_eq!(
        env.node("plan-collide", "spawn_b")["definition"]["args"]["output"],
        "shared.b.md"
    );
    assert_eq!(
        env.node("plan-collide", "spawn_a")["definition"]["args"]["output"],
        "shared.a.md"
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

// ---------------------------------------------------------------------------
// The decompositions issue 15 is checked on, each written here (not in the
// repository's examples), each run through a simulation of the emitted plan.

/// A run of an emitted plan, simulated from its raw document: which nodes
/// run, given which nodes fail and what the reason steps return.
mod run {
    use serde_json::{Value, json};
    use std::collections::{HashMap, HashSet};

    /// How a join behaves when some of its incoming edges never fire.
    #[derive(Clone, Copy, Debug)]
    pub enum Join {
        /// It runs only when every incoming edge fired.
        All,
        /// It runs once every incoming edge is settled and one fired.
        Any,
    }

    /// What the run did: the nodes that ran, in order, and their outputs
    /// (a join's: one `{via, from}` per arrival).
    pub struct Trace {
        pub ran: Vec<String>,
        pub outputs: HashMap<String, Value>,
    }

    /// `v` with every reference read from the run's outputs; a reference
    /// to what the run never produced is left out (`onMissingValue: omit`).
    pub fn resolve(v: &Value, outputs: &HashMap<String, Value>) -> Option<Value> {
        match v {
            Value::Object(m) if m.contains_key("$ref") => {
                let r = &m["$ref"];
                let mut at = outputs.get(r["node"].as_str().unwrap())?;
                if let Some(path) = r["path"].as_str() {
                    for seg in path.split('.') {
                        at = at.get(seg)?;
                    }
                }
                Some(at.clone())
            }
            Value::Object(m) => Some(Value::Object(
                m.iter()
                    .filter_map(|(k, x)| Some((k.clone(), resolve(x, outputs)?)))
                    .collect(),
            )),
            Value::Array(a) => Some(Value::Array(
                a.iter().filter_map(|x| resolve(x, outputs)).collect(),
            )),
            other => Some(other.clone()),
        }
    }

    impl Trace {
        pub fn reached(&self, id: &str) -> bool {
            self.ran.iter().any(|r| r == id)
        }
    }

    fn lookup<'a>(outputs: &'a HashMap<String, Value>, path: &str) -> Option<&'a Value> {
        let mut segs = path.split('.');
        let mut v = outputs.get(segs.next()?)?;
        for s in segs {
            v = v.get(s)?;
        }
        Some(v)
    }

    /// The structured evaluator, on the ops the emitter uses.
    pub fn eval(p: &Value, outputs: &HashMap<String, Value>) -> bool {
        if let Some(a) = p.get("all") {
            return a.as_array().unwrap().iter().all(|q| eval(q, outputs));
        }
        if let Some(a) = p.get("any") {
            return a.as_array().unwrap().iter().any(|q| eval(q, outputs));
        }
        if let Some(q) = p.get("not") {
            return !eval(q, outputs);
        }
        let found = lookup(outputs, p["path"].as_str().unwrap());
        match p["op"].as_str().unwrap() {
            "eq" => found == Some(&p["value"]),
            "exists" => found.is_some(),
            other => panic!("op {other} not simulated"),
        }
    }

    /// Runs `plan` (raw JSON): `fails` lists nodes that fail, `outputs` the
    /// outputs of the reason steps (the rest return `{}`).
    pub fn simulate(
        plan: &Value,
        fails: &HashSet<String>,
        given: &HashMap<String, Value>,
        join: Join,
    ) -> Trace {
        let nodes = plan["nodes"].as_array().unwrap();
        let edges = plan["edges"].as_array().unwrap();
        let kind: HashMap<&str, &Value> = nodes
            .iter()
            .map(|n| (n["id"].as_str().unwrap(), n))
            .collect();
        // Topological order (Kahn).
        let mut indeg: HashMap<&str, usize> = kind.keys().map(|k| (*k, 0)).collect();
        for e in edges {
            *indeg.get_mut(e["to"].as_str().unwrap()).unwrap() += 1;
        }
        let mut ready: Vec<&str> = nodes
            .iter()
            .map(|n| n["id"].as_str().unwrap())
            .filter(|id| indeg[id] == 0)
            .collect();
        let mut order = Vec::new();
        while let Some(v) = ready.pop() {
            order.push(v);
            for e in edges.iter().filter(|e| e["from"] == v) {
                let to = e["to"].as_str().unwrap();
                let d = indeg.get_mut(to).unwrap();
                *d -= 1;
                if *d == 0 {
                    ready.push(to);
                }
            }
        }
        assert_eq!(order.len(), nodes.len(), "the plan is acyclic");
        let mut fired: HashSet<String> = HashSet::new();
        let mut outputs: HashMap<String, Value> = HashMap::new();
        let mut ran = Vec::new();
        for v in order {
            let incoming: Vec<&Value> = edges.iter().filter(|e| e["to"] == v).collect();
            let n_fired = incoming
                .iter()
                .filter(|e| fired.contains(e["id"].as_str().unwrap()))
                .count();
            let node = kind[v];
            // A settling join fires once nothing more can arrive (every
            // predecessor is settled here, in topological order) and one
            // edge arrived; another join as the run's `join` mode says.
            let settles = node["definition"]["kind"] == "settle";
            let runs = match node["kind"].as_str().unwrap() {
                "entry" => true,
                "join" if settles => n_fired > 0,
                "join" => match join {
                    Join::All => n_fired == incoming.len(),
                    Join::Any => n_fired > 0,
                },
                _ => n_fired > 0,
            };
            if !runs {
                continue;
            }
            ran.push(v.to_string());
            if node["kind"] == "join" {
                let arrivals: Vec<Value> = incoming
                    .iter()
                    .filter(|e| fired.contains(e["id"].as_str().unwrap()))
                    .map(|e| json!({"via": e["id"], "from": e["from"]}))
                    .collect();
                outputs.insert(v.to_string(), Value::Array(arrivals));
                for e in edges
                    .iter()
                    .filter(|e| e["from"] == v && e["handle"] == "always")
                {
                    fired.insert(e["id"].as_str().unwrap().to_string());
                }
                continue;
            }
            let out: Vec<&Value> = edges.iter().filter(|e| e["from"] == v).collect();
            let fire = |h: &str, fired: &mut HashSet<String>| {
                for e in out.iter().filter(|e| e["handle"] == h) {
                    fired.insert(e["id"].as_str().unwrap().to_string());
                }
            };
            if fails.contains(v) {
                fire("error", &mut fired);
                continue;
            }
            outputs.insert(v.to_string(), given.get(v).cloned().unwrap_or(json!({})));
            let d = &node["definition"];
            match node["kind"].as_str().unwrap() {
                "branch" => {
                    let h = if eval(&d["predicate"], &outputs) {
                        "match"
                    } else {
                        "no_match"
                    };
                    fire(h, &mut fired);
                }
                "select" => {
                    let case = d["cases"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_str().unwrap())
                        .find(|c| eval(&d["predicate"][*c], &outputs));
                    match case {
                        Some(c) => fire(&format!("case_{c}"), &mut fired),
                        None => fire("default", &mut fired),
                    }
                }
                _ => fire("always", &mut fired),
            }
        }
        Trace { ran, outputs }
    }
}

use run::{Join, resolve, simulate};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// Whether `v` holds a reference to `node`'s `path`.
fn refers(v: &Value, node: &str, path: &str) -> bool {
    match v {
        Value::Object(m) => {
            if let Some(r) = m.get("$ref") {
                return r["node"] == node && r["path"] == path;
            }
            m.values().any(|x| refers(x, node, path))
        }
        Value::Array(a) => a.iter().any(|x| refers(x, node, path)),
        _ => false,
    }
}

/// Whether a failure report's `args`, resolved against a run's outputs,
/// give non-empty failed criteria for the unit whose step `errored` failed
/// to run, and name that step: its own `step` and
/// `failedCriteria` (a chain), or the join's arrival from it read through
/// `arrivalKey` (parallel).
fn errored_step_named(args: &Value, outputs: &HashMap<String, Value>, errored: &str) -> bool {
    let resolved = resolve(args, outputs).unwrap_or(Value::Null);
    let nonempty = |v: &Value| v.as_array().is_some_and(|a| !a.is_empty());
    let own = nonempty(&resolved["failedCriteria"]) && resolved["step"] == errored;
    let arrived = resolved["arrivals"].as_array().is_some_and(|a| {
        a.iter().any(|x| {
            let key = &args["arrivalKey"][x["via"].as_str().unwrap_or("")];
            x["from"] == errored && key["step"] == errored && nonempty(&key["failedCriteria"])
        })
    });
    own || arrived
}

/// The orchestrated plan of one checked decomposition.
struct Checked {
    raw: Value,
    /// Task name → the unit's node id suffix.
    units: Vec<(String, String)>,
}

impl Checked {
    fn node(&self, id: &str) -> &Value {
        self.raw["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == id)
            .unwrap_or_else(|| panic!("no node {id}"))
    }

    /// The reason outputs of a run where every unit passes, except those in
    /// `failing`, and reconciliation decides to synthesize.
    fn outputs(&self, failing: &[&str]) -> HashMap<String, Value> {
        self.outputs_with(failing, "fail")
    }

    /// The same, a failing unit's verdict being `verdict` (a "pass" with a
    /// failed criterion is a failed unit too).
    fn outputs_with(&self, failing: &[&str], verdict: &str) -> HashMap<String, Value> {
        let mut m = HashMap::new();
        let mut dispositions = serde_json::Map::new();
        for (name, slug) in &self.units {
            let pass = !failing.contains(&slug.as_str());
            m.insert(
                format!("verify_{slug}"),
                if pass {
                    json!({"verdict": "pass", "failedCriteria": [], "handoff": "h"})
                } else {
                    json!({"verdict": verdict, "failedCriteria": ["cites_evidence"], "handoff": ""})
                },
            );
            dispositions.insert(
                slug.clone(),
                json!({"unit": name, "disposition": "accepted", "reason": "r"}),
            );
        }
        m.insert(
            "reconcile".into(),
            json!({"outcome": "synthesize", "dispositions": dispositions, "synthesis": "s",
                   "cites": [], "report": ""}),
        );
        m
    }

    /// The failure reports a trace reached.
    fn reports<'a>(&'a self, ran: &'a [String]) -> Vec<&'a Value> {
        ran.iter()
            .map(|id| self.node(id))
            .filter(|n| n["definition"]["tool"] == "report_failure")
            .collect()
    }

    /// Asserts what the issue checks on every decomposition.
    fn assert_contract(&self, what: &str) {
        // All pass: the synthesis is written, uncited artifacts discarded,
        // no failure reported.
        for join in [Join::All, Join::Any] {
            let t = simulate(&self.raw, &HashSet::new(), &self.outputs(&[]), join);
            assert!(
                t.reached("write") && t.reached("discard"),
                "{what}: {:?}",
                t.ran
            );
            assert!(self.reports(&t.ran).is_empty(), "{what}: {:?}", t.ran);
        }
        for (name, slug) in &self.units {
            // Depth 1 as data: every spawn carries the no-spawn field.
            assert_eq!(
                self.node(&format!("spawn_{slug}"))["definition"]["args"]["noSpawn"],
                true,
                "{what}"
            );
            // A failed verification, a "pass" that lists a failed criterion,
            // a unit that returns nothing, a verification that errors.
            for (fails, verdict, criteria) in [
                (HashSet::new(), Some("fail"), ("verify", "failedCriteria")),
                (HashSet::new(), Some("pass"), ("verify", "failedCriteria")),
                (HashSet::from([format!("spawn_{slug}")]), None, ("", "")),
                (HashSet::from([format!("verify_{slug}")]), None, ("", "")),
            ] {
                let failing: Vec<&str> = if verdict.is_some() {
                    vec![slug.as_str()]
                } else {
                    vec![]
                };
                let outputs = self.outputs_with(&failing, verdict.unwrap_or("fail"));
                for join in [Join::All, Join::Any] {
                    let t = simulate(&self.raw, &fails, &outputs, join);
                    assert!(
                        !t.reached("write") && !t.reached("reconcile"),
                        "{what}: unit {name} failed ({fails:?}) and the synthesis ran: {:?}",
                        t.ran
                    );
                    let reports = self.reports(&t.ran);
                    let named = reports.iter().any(|r| {
                        let args = &r["definition"]["args"];
                        let names_unit = args["units"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .any(|u| u == name.as_str());
                        let has_criteria = if criteria.0.is_empty() {
                            // A step errored: read as the run gives it (a
                            // reference to a step that never ran is left
                            // out), the report names the failed criteria
                            // and, for a verification, the step.
                            let errored = fails.iter().next().unwrap();
                            errored_step_named(args, &t.outputs, errored)
                        } else {
                            refers(
                                &args["failedCriteria"],
                                &format!("verify_{slug}"),
                                criteria.1,
                            )
                        };
                        names_unit && has_criteria && args.get("rollbackState").is_some()
                    });
                    assert!(
                        named,
                        "{what}: no failure report names {name} with its failed criteria ({fails:?}, {join:?}): {:?}",
                        t.ran
                    );
                }
            }
        }
        // The orchestrator's own steps erroring: the reconciliation (no
        // output to quote) and the write. The report reached gives, read as
        // the run gives it, a named class, every unit, failed criteria, the
        // rollback state and a detail.
        for step in ["reconcile", "write"] {
            let t = simulate(
                &self.raw,
                &HashSet::from([step.to_string()]),
                &self.outputs(&[]),
                Join::All,
            );
            let reports = self.reports(&t.ran);
            assert!(!reports.is_empty(), "{what}: {step} errored: {:?}", t.ran);
            for r in reports {
                let args = resolve(&r["definition"]["args"], &t.outputs).unwrap_or(Value::Null);
                let given = |f: &str| match &args[f] {
                    Value::String(x) => !x.trim().is_empty(),
                    Value::Array(a) => !a.is_empty(),
                    _ => false,
                };
                assert!(
                    [
                        "failureClass",
                        "units",
                        "failedCriteria",
                        "rollbackState",
                        "detail"
                    ]
                    .iter()
                    .all(|f| given(f)),
                    "{what}: {step} errored and report `{}` lacks a field: {args}",
                    r["id"]
                );
            }
        }
        // Exactly one disposition per unit reaches the write.
        let write = &self.node("write")["definition"]["args"];
        assert!(
            refers(&write["dispositions"], "reconcile", "dispositions"),
            "{what}"
        );
        let schema =
            &self.node("reconcile")["definition"]["outputSchema"]["properties"]["dispositions"];
        let mut required: Vec<&str> = schema["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        required.sort_unstable();
        let mut slugs: Vec<&str> = self.units.iter().map(|(_, s)| s.as_str()).collect();
        slugs.sort_unstable();
        assert_eq!(required, slugs, "{what}");
        assert_eq!(schema["additionalProperties"], false, "{what}");
        assert_eq!(
            schema["properties"].as_object().unwrap().len(),
            self.units.len(),
            "{what}"
        );
        for (name, slug) in &self.units {
            assert_eq!(
                schema["properties"][slug]["properties"]["unit"]["const"],
                name.as_str(),
                "{what}"
            );
        }
    }
}

impl Env {
    /// Orchestrates `text`, freezes it against the registry `init` wrote,
    /// and returns the printed report and the plan.
    fn checked(&self, text: &str, plan: &str, units: &[&str]) -> (String, Checked) {
        let named: Vec<(&str, &str)> = units.iter().map(|u| (*u, *u)).collect();
        self.checked_keyed(text, plan, &named)
    }

    /// As [`Env::checked`], with units given as (task name, node id key).
    fn checked_keyed(&self, text: &str, plan: &str, units: &[(&str, &str)]) -> (String, Checked) {
        let out = self.orchestrate_and_freeze(text, plan);
        let raw = self.json(&["raw", "-p", plan]);
        let c = Checked {
            raw,
            units: units
                .iter()
                .map(|(n, k)| (n.to_string(), k.to_string()))
                .collect(),
        };
        c.assert_contract(plan);
        (out, c)
    }
}

/// The cells of a task's row in the classification table.
fn coupling_row(out: &str, task: &str) -> String {
    out.lines()
        .find(|l| l.trim_start().starts_with(&format!("{task} ")))
        .unwrap_or_else(|| panic!("no row for {task}:\n{out}"))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn checked_three_independent_research_tasks() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles:
  historian: {instructions: Research the history; cite sources., tools: [web_search]}
  economist: {instructions: Research the economics; cite sources., tools: [web_search]}
  engineer: {instructions: Research the engineering; cite sources., tools: [read_file]}
tasks:
  - {name: history, role: historian, goal: How did tidal power start?, input: tidal power before 1970, output: r/history.md}
  - {name: cost, role: economist, goal: What does a tidal plant cost?, input: levelised cost studies, output: r/cost.md}
  - {name: build, role: engineer, goal: What limits turbine size?, input: turbine design papers, output: r/build.md}
synthesis: {output: r/tidal.md}
",
        "plan-c1",
        &["history", "cost", "build"],
    );
    assert!(
        out.contains("Mechanism matched: fan-out (seed 003, row 1)"),
        "{out}"
    );
    assert!(out.contains("Mechanism used: fan-out"), "{out}");
    assert!(
        coupling_row(&out, "cost").contains("independent inferred"),
        "{out}"
    );
    // The verification gate after the join.
    assert_eq!(c.node("verified")["kind"], "select");
}

#[test]
fn checked_an_ordered_three_step_pipeline() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles:
  fetcher: {instructions: Fetch., tools: [read_file]}
  cleaner: {instructions: Clean., tools: []}
  writer: {instructions: Write., tools: []}
tasks:
  - {name: fetch, role: fetcher, goal: Collect the raw rows, input: data/raw, output: p/rows.md}
  - {name: clean, role: cleaner, goal: Drop malformed rows, input: the collected rows, output: p/clean.md, needs: fetch}
  - {name: report, role: writer, goal: Summarise the clean rows, input: the clean rows, output: p/report.md, needs: clean}
synthesis: {output: p/final.md}
",
        "plan-c2",
        &["fetch", "clean", "report"],
    );
    assert!(
        out.contains("Mechanism matched: ordered handoff (seed 003, row 2)"),
        "{out}"
    );
    assert!(
        out.contains("one at a time, each verified before the next: fetch, clean, report"),
        "{out}"
    );
    assert!(refers(
        &c.node("spawn_clean")["definition"]["args"]["input"],
        "verify_fetch",
        "handoff"
    ));
}

#[test]
fn checked_an_advocate_and_a_critic_sharing_one_role() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles:
  reviewer: {instructions: Review the proposal against the evidence., tools: [read_file]}
tasks:
  - {name: pro, role: reviewer, goal: Argue for adopting the cache, input: bench/results.md, output: d/pro.md}
  - {name: con, role: reviewer, goal: Challenge the case for the cache, input: bench/results.md, output: d/contra.md, challenges: pro}
synthesis: {output: d/decision.md}
",
        "plan-c3",
        &["pro", "con"],
    );
    assert!(
        out.contains("Mechanism matched: advocate/critic (seed 003, row 6)"),
        "{out}"
    );
    assert!(coupling_row(&out, "pro").contains("adversarial"), "{out}");
    let schema = c.node("spawn_con")["definition"]["args"]["schema"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        schema.starts_with("claim-evidence-objection records"),
        "{schema}"
    );
}

#[test]
fn checked_two_tasks_with_large_inputs_and_no_digest() {
    let env = Env::new();
    let big = |seed: &str| {
        (0..3000)
            .map(|i| format!("{seed} line {i:05} of the source text, kept out.\n"))
            .collect::<String>()
    };
    let (a, b) = (big("alpha"), big("beta"));
    assert!(a.len() > 120_000 && b.len() > 120_000);
    let doc = json!({
        "roles": {
            "reader": {"instructions": "Digest your slice.", "tools": []},
            "auditor": {"instructions": "Audit your slice.", "tools": []}
        },
        "tasks": [
            {"name": "left", "role": "reader", "goal": "Summarise the left log", "input": a, "output": "g/left.md"},
            {"name": "right", "role": "auditor", "goal": "Audit the right log", "input": b, "output": "g/right.md"}
        ],
        "synthesis": {"output": "g/both.md"}
    });
    let (out, c) = env.checked(&doc.to_string(), "plan-c4", &["left", "right"]);
    assert!(
        out.contains("Mechanism matched: fan-out (seed 003, row 1)"),
        "{out}"
    );
    assert!(
        out.contains("fail  what the orchestrator holds fits its context budget"),
        "{out}"
    );
    assert!(out.contains("Mechanism used: bounded digest"), "{out}");
    assert!(out.contains("the run supplies it as `slice_left`"), "{out}");
    // No node of the plan holds either source text, nor a line of it.
    let text = c.raw.to_string();
    assert!(
        !text.contains("alpha line 00042"),
        "the left source is in the plan"
    );
    assert!(
        !text.contains("beta line 00042"),
        "the right source is in the plan"
    );
    for n in c.raw["nodes"].as_array().unwrap() {
        assert!(
            n.to_string().len() < 20_000,
            "{} is {} bytes",
            n["id"],
            n.to_string().len()
        );
    }
    let spawn = &c.node("spawn_left")["definition"]["args"];
    assert!(refers(&spawn["input"], "accept", "slice_left"), "{spawn}");
    assert_eq!(spawn["inputIdentity"]["bytes"], a.len() as u64);
    // The plan's own JSON answer says the same, and the identity is the
    // slice's SHA-256.
    let j = env.json(&[
        "orchestrate",
        &env.file("c4.json", &doc.to_string()),
        "--print",
    ]);
    assert_eq!(j["mechanism"], "bounded digest");
    assert_eq!(j["classification"][0]["slice"]["runInput"], "slice_left");
}

#[test]
fn a_declared_digest_on_a_large_input_is_honoured_although_everything_fits() {
    let env = Env::new();
    let a = big_source("alpha");
    let doc = json!({
        "roles": {
            "reader": {"instructions": "Digest your slice.", "tools": []},
            "auditor": {"instructions": "Audit the path.", "tools": []}
        },
        "tasks": [
            {"name": "left", "role": "reader", "goal": "Summarise the left log", "input": a, "output": "g/left.md", "digest": "points: [{claim, evidence}]"},
            {"name": "right", "role": "auditor", "goal": "Audit the right path", "input": "src/right", "output": "g/right.md"}
        ],
        "synthesis": {"output": "g/both.md"}
    });
    let (out, c) = env.checked(&doc.to_string(), "plan-declared", &["left", "right"]);
    assert!(
        out.contains("Mechanism matched: fan-out (seed 003, row 1)"),
        "{out}"
    );
    assert!(
        out.contains("pass  what the orchestrator holds fits its context budget"),
        "{out}"
    );
    assert!(
        out.contains("Fallback: declared digest: `left` declares a digest of a large input"),
        "{out}"
    );
    // The declared digest keeps the left source out; the small input stays.
    let text = c.raw.to_string();
    assert!(
        !text.contains("alpha line 00042"),
        "the left source is in the plan"
    );
    let spawn = &c.node("spawn_left")["definition"]["args"];
    assert!(refers(&spawn["input"], "accept", "slice_left"), "{spawn}");
    assert_eq!(
        c.node("spawn_right")["definition"]["args"]["input"],
        "src/right"
    );
    // Near miss: a digest on a small input keeps the input in the plan.
    let small = json!({
        "roles": {"reader": {"instructions": "Read.", "tools": []}, "auditor": {"instructions": "Audit.", "tools": []}},
        "tasks": [
            {"name": "left", "role": "reader", "goal": "Summarise", "input": "logs/left", "output": "g/left.md", "digest": "points"},
            {"name": "right", "role": "auditor", "goal": "Audit", "input": "src/right", "output": "g/right.md"}
        ],
        "synthesis": {"output": "g/both.md"}
    });
    let j = env.json(&[
        "orchestrate",
        &env.file("small.json", &small.to_string()),
        "--print",
    ]);
    assert!(j["classification"][0]["slice"].is_null(), "{j}");
    assert!(!j.to_string().contains("declared digest"), "{j}");
}

#[test]
fn the_fallback_texts_fit_one_unit_and_a_digest_without_slices() {
    let env = Env::new();
    // One task whose input overflows the budget: one unit, no order to keep.
    let one = json!({
        "roles": {"reader": {"instructions": "Read.", "tools": []}},
        "tasks": [{"name": "only", "role": "reader", "goal": "Summarise", "input": big_source("alpha"), "output": "g/only.md"}],
        "synthesis": {"output": "g/s.md"},
        "contextBudgetBytes": 50000
    });
    let out = env.ok(&[
        "orchestrate",
        &env.file("one.json", &one.to_string()),
        "--print",
    ]);
    assert!(
        out.contains("the large-input unit(s) `only` switch to a bounded digest:"),
        "{out}"
    );
    assert!(!out.contains("keeping their order"), "{out}");
    // Small inputs, artifacts over the budget: capped digests, no slice.
    let tasks: Vec<Value> = (0..4)
        .map(|i| json!({"name": format!("t{i}"), "role": format!("r{i}"), "goal": "Summarise", "input": format!("src/{i}"), "output": format!("g/{i}.md")}))
        .collect();
    let roles: serde_json::Map<String, Value> = (0..4)
        .map(|i| {
            (
                format!("r{i}"),
                json!({"instructions": "Read.", "tools": []}),
            )
        })
        .collect();
    let capped = json!({"roles": roles, "tasks": tasks, "synthesis": {"output": "g/s.md"}, "contextBudgetBytes": 20000});
    let out = env.ok(&[
        "orchestrate",
        &env.file("capped.json", &capped.to_string()),
        "--print",
    ]);
    assert!(out.contains("Mechanism used: bounded digest — give each subagent a fixed digest schema and a bounded artifact; every input is small enough to stay in the plan, so there is no source slice to keep out"), "{out}");
    assert!(!out.contains("only its assigned source slice"), "{out}");
}

#[test]
fn checked_a_mix_of_ordered_and_independent_tasks() {
    let env = Env::new();
    let (out, _) = env.checked(
        "roles:
  a: {instructions: A., tools: []}
  b: {instructions: B., tools: []}
  c: {instructions: C., tools: []}
  d: {instructions: D., tools: []}
tasks:
  - {name: survey, role: a, goal: Survey the field, input: papers/, output: m/survey.md}
  - {name: gaps, role: b, goal: Find the gaps the survey leaves, input: the survey, output: m/gaps.md, needs: survey}
  - {name: glossary, role: c, goal: Define the terms, input: terms.txt, output: m/glossary.md}
  - {name: style, role: d, goal: Check the house style, input: style.md, output: m/style.md}
synthesis: {output: m/all.md}
",
        "plan-c5",
        &["survey", "gaps", "glossary", "style"],
    );
    assert!(
        out.contains("Mechanism matched: ordered handoff (seed 003, row 2)"),
        "{out}"
    );
    assert!(
        coupling_row(&out, "glossary").contains("independent"),
        "{out}"
    );
    assert!(coupling_row(&out, "gaps").contains("ordered"), "{out}");
}

#[test]
fn distinct_task_names_that_fold_to_one_key_stay_distinct_units() {
    let env = Env::new();
    // Row 1 (distinct roles) and row 5 (one role): both parallel, both
    // settle at a join whose reports list the units by name.
    env.checked_keyed(
        "roles:
  r1: {instructions: A., tools: [read_file]}
  r2: {instructions: B., tools: [read_file]}
synthesis: {output: w/s.md}
tasks:
  - {name: market sizing, role: r1, goal: G, input: i, output: w/a.md}
  - {name: market-sizing, role: r2, goal: G2, input: i2, output: w/b.md}
  - {name: Market Sizing, role: r1, goal: G3, input: i3, output: w/c.md}
",
        "plan-fold",
        &[
            ("market sizing", "market_sizing"),
            ("market-sizing", "market_sizing_2"),
            ("Market Sizing", "market_sizing_3"),
        ],
    );
    env.checked_keyed(
        "roles:
  r1: {instructions: A., tools: [read_file]}
tasks:
  - {name: \"survey: north\", role: r1, goal: Count north, input: n.csv, output: w/a.md}
  - {name: \"survey north\", role: r1, goal: Count north again, input: n2.csv, output: w/b.md}
  - {name: \"survey_north\", role: r1, goal: Count, input: n3.csv, output: w/c.md}
synthesis: {output: w/s.md}
",
        "plan-fold3",
        &[
            ("survey: north", "survey_north"),
            ("survey north", "survey_north_2"),
            ("survey_north", "survey_north_3"),
        ],
    );
}

#[test]
fn checked_units_that_would_write_one_target() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles:
  a: {instructions: A., tools: []}
  b: {instructions: B., tools: []}
tasks:
  - {name: north, role: a, goal: Count the northern sites, input: sites/north, output: w/count.md}
  - {name: south, role: b, goal: Count the southern sites, input: sites/south, output: w/count.md}
synthesis: {output: w/total.md}
",
        "plan-c6",
        &["north", "south"],
    );
    assert!(
        out.contains("Mechanism matched: fan-out (seed 003, row 1)"),
        "{out}"
    );
    assert!(out.contains("fail  no ordering, no shared target"), "{out}");
    assert!(out.contains("Mechanism used: ordered handoff"), "{out}");
    assert_eq!(
        c.node("spawn_south")["definition"]["args"]["output"],
        "w/count.south.md"
    );
    // Every colliding unit gets its own artifact; none writes the shared
    // target, which stays as it was before the run.
    assert_eq!(
        c.node("spawn_north")["definition"]["args"]["output"],
        "w/count.north.md"
    );
    assert!(
        out.contains("task `north` would write `w/count.md`, as task `south` (`w/count.md`) does; it writes the separate artifact `w/count.north.md`"),
        "{out}"
    );
    assert!(
        out.contains("no unit writes the shared target, which stays as it was before the run"),
        "{out}"
    );
    // The shared target is forbidden to every unit: it keeps its pre-run
    // state.
    for unit in ["north", "south"] {
        let forbidden = &c.node(&format!("spawn_{unit}"))["definition"]["args"]["forbiddenWrites"];
        assert!(
            forbidden.as_array().unwrap().contains(&json!("w/count.md")),
            "{unit}: {forbidden}"
        );
    }
}

/// A unit whose output is the synthesis's file under another spelling gets
/// its own artifact, and the output does not say that file keeps its
/// pre-run state: the synthesis write replaces it.
#[test]
fn a_collision_with_the_synthesis_says_the_synthesis_write_replaces_it() {
    let env = Env::new();
    let f = env.file(
        "synth.yaml",
        "roles:
  a: {instructions: A., tools: []}
  b: {instructions: B., tools: []}
tasks:
  - {name: sum, role: a, goal: Sum it, input: n.md, output: w/total.md}
  - {name: other, role: b, goal: Other, input: m.md, output: w/other.md}
synthesis: {output: w/TOTAL.md}
",
    );
    let out = env.ok(&["orchestrate", &f, "--print"]);
    assert!(
        out.contains("task `sum` would write `w/total.md`, as the synthesis `w/TOTAL.md` does; it writes the separate artifact `w/total.sum.md` instead; no unit writes the shared target; only the synthesis write (`write`) replaces it"),
        "{out}"
    );
    assert!(!out.contains("stays as it was before the run"), "{out}");
}

#[test]
fn checked_a_decomposition_that_states_its_coupling() {
    let env = Env::new();
    // Three tasks with nothing to infer an order from; the owner says they
    // are ordered, which wins over inference (fan-out).
    let (out, c) = env.checked(
        "roles:
  a: {instructions: A., tools: []}
  b: {instructions: B., tools: []}
  c: {instructions: C., tools: []}
coupling: ordered
tasks:
  - {name: outline, role: a, goal: Outline the talk, input: notes.md, output: t/outline.md}
  - {name: draft, role: b, goal: Draft the talk, input: the outline, output: t/draft.md}
  - {name: polish, role: c, goal: Polish the draft, input: the draft, output: t/polish.md, coupling: ordered}
synthesis: {output: t/talk.md}
",
        "plan-c7",
        &["outline", "draft", "polish"],
    );
    assert!(
        out.contains("Mechanism matched: ordered handoff (seed 003, row 2)"),
        "{out}"
    );
    for task in ["outline", "draft", "polish"] {
        assert!(coupling_row(&out, task).contains("ordered stated"), "{out}");
    }
    assert!(refers(
        &c.node("spawn_draft")["definition"]["args"]["input"],
        "verify_outline",
        "handoff"
    ));
    let j = env.json(&[
        "orchestrate",
        &env.file(
            "plan-c7.yaml",
            &std::fs::read_to_string(env.path("plan-c7.yaml")).unwrap(),
        ),
        "--print",
    ]);
    assert_eq!(j["classification"][1]["couplingFrom"], "stated", "{j}");
    assert_eq!(j["classification"][1]["coupling"], "ordered", "{j}");
    // A stated adversarial pair with digests is row 6, not row 3.
    let (out, _) = env.checked(
        "roles:
  a: {instructions: A., tools: []}
  b: {instructions: B., tools: []}
coupling: {yes: adversarial, no: adversarial}
tasks:
  - {name: 'yes', role: a, goal: Argue for, input: e.md, output: t/yes.md, digest: 'claims: [..]'}
  - {name: 'no', role: b, goal: Argue against, input: e.md, output: t/no.md, digest: 'claims: [..]'}
synthesis: {output: t/verdict.md}
",
        "plan-c7b",
        &["yes", "no"],
    );
    assert!(
        out.contains("Mechanism matched: advocate/critic (seed 003, row 6)"),
        "{out}"
    );
    assert!(
        coupling_row(&out, "yes").contains("adversarial stated"),
        "{out}"
    );
}

#[test]
fn check_four_fails_when_the_owner_caps_concurrency() {
    let env = Env::new();
    let (out, _) = env.checked(
        "roles:
  a: {instructions: A., tools: []}
  b: {instructions: B., tools: []}
  c: {instructions: C., tools: []}
maxConcurrent: 2
tasks:
  - {name: x, role: a, goal: X, input: x, output: q/x.md}
  - {name: y, role: b, goal: Y, input: y, output: q/y.md}
  - {name: z, role: c, goal: Z, input: z, output: q/z.md}
synthesis: {output: q/s.md}
",
        "plan-cap",
        &["x", "y", "z"],
    );
    assert!(
        out.contains("fail  parallelism is worth it — maxConcurrent = 2 < 3 units"),
        "{out}"
    );
    assert!(out.contains("Mechanism used: ordered handoff"), "{out}");
}

#[test]
fn check_one_fails_when_a_task_reads_another_tasks_output() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles:
  a: {instructions: A., tools: []}
  b: {instructions: B., tools: []}
tasks:
  - {name: sum, role: b, goal: Summarise the findings, input: read k/find.md and summarise it, output: k/sum.md}
  - {name: find, role: a, goal: Find the facts, input: src/, output: k/find.md}
synthesis: {output: k/s.md}
",
        "plan-reads",
        &["sum", "find"],
    );
    assert!(
        out.contains("fail  no ordering, no shared target — task `sum` reads `k/find.md`, the output of task `find`: an ordering dependency"),
        "{out}"
    );
    assert!(
        out.contains("one at a time, each verified before the next: find, sum"),
        "{out}"
    );
    assert!(refers(
        &c.node("spawn_sum")["definition"]["args"]["input"],
        "verify_find",
        "handoff"
    ));
}

/// A read of another task's output is seen under every spelling that two
/// writes of it would collide under (case, `//`, `./`, a trailing dot,
/// NFD): one folding for reads and writes. A near miss is not a read.
#[test]
fn a_read_of_another_tasks_output_is_seen_however_the_path_is_spelt() {
    let env = Env::new();
    let decomposition = |input: &str| {
        format!(
            "roles:
  r: {{instructions: R., tools: [read_file]}}
tasks:
  - {{name: one, role: r, goal: Do one, input: \"{input}\", output: s/1.md}}
  - {{name: two, role: r, goal: Do two, input: in2.md, output: research/market-caf\u{e9}.md}}
synthesis: {{output: s/final.md}}
"
        )
    };
    let spellings = [
        "research/market-caf\u{e9}.md",
        "Research/Market-Caf\u{e9}.md",
        "research//market-caf\u{e9}.md",
        "./research/x/../market-caf\u{e9}.md",
        "read research/market-cafe\u{301}.md. then sum it up",
        "see (RESEARCH\\\\market-caf\u{e9}.md)",
    ];
    for input in spellings {
        let f = env.file("reads.yaml", &decomposition(input));
        let out = env.ok(&["orchestrate", &f, "--print"]);
        assert!(
            out.contains("fail  no ordering, no shared target — task `one` reads"),
            "{input}: {out}"
        );
        assert!(
            out.contains("Mechanism used: ordered handoff"),
            "{input}: {out}"
        );
    }
    for input in [
        "research/market-caf\u{e9}s.md",
        "research/market/caf\u{e9}.md",
    ] {
        let f = env.file("near.yaml", &decomposition(input));
        let out = env.ok(&["orchestrate", &f, "--print"]);
        assert!(out.contains("Mechanism used: per-unit"), "{input}: {out}");
    }
}

/// A task beside an advocate/critic pair that challenges nobody and is
/// challenged by nobody keeps an independent unit's schema; the pair keeps
/// its claim-evidence-objection records.
#[test]
fn a_bystander_of_an_advocate_critic_pair_keeps_its_own_schema() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles:
  debater: {instructions: Argue., tools: [read_file]}
  other: {instructions: Other., tools: [read_file]}
tasks:
  - {name: advocate, role: debater, goal: Argue for X, input: ev.md, output: deb/for.md}
  - {name: critic, role: debater, goal: Argue against X, input: ev.md, output: deb/against.md, challenges: [advocate]}
  - {name: bystander, role: other, goal: Summarise background, input: bg.md, output: deb/bg.md}
synthesis: {output: deb/decision.md}
",
        "plan-bystander",
        &["advocate", "critic", "bystander"],
    );
    assert!(out.contains("Mechanism used: advocate/critic"), "{out}");
    let schema = |u: &str| {
        c.node(&format!("spawn_{u}"))["definition"]["args"]["schema"]
            .as_str()
            .unwrap()
            .to_string()
    };
    for u in ["advocate", "critic"] {
        assert!(
            schema(u).starts_with("claim-evidence-objection records"),
            "{u}"
        );
    }
    let own = schema("bystander");
    assert!(
        !own.contains("objection") && !own.contains("advocate"),
        "{own}"
    );
}

/// A reconciliation step that errors is reported under the seed's class
/// for artifacts that cannot be reconciled, and the report does not claim
/// a cause the error does not give: it names both (no fit, or no valid
/// output within its attempts).
#[test]
fn an_errored_reconciliation_does_not_claim_its_cause() {
    let env = Env::new();
    env.orchestrate_and_freeze(
        "roles:
  r: {instructions: R., tools: [read_file]}
tasks:
  - {name: a, role: r, goal: Do a, input: a.md, output: o/a.md}
  - {name: b, role: r, goal: Do b, input: b.md, output: o/b.md}
synthesis: {output: o/s.md}
",
        "plan-unrec",
    );
    let args = &env.node("plan-unrec", "unreconciled")["definition"]["args"];
    assert_eq!(args["failureClass"], "context overflow");
    let detail = args["detail"].as_str().unwrap();
    assert!(detail.contains("does not say why"), "{detail}");
    assert!(detail.contains("input did not fit"), "{detail}");
    assert!(
        detail.contains("no valid reconciliation within its attempts"),
        "{detail}"
    );
}

#[test]
fn a_join_of_many_units_echoes_its_edge_count_and_the_outline_lines_up() {
    let env = Env::new();
    let roles: String = (0..42)
        .map(|i| format!("  r{i}: {{instructions: R., tools: []}}\n"))
        .collect();
    let tasks: String = (0..42)
        .map(|i| {
            format!("  - {{name: t{i}, role: r{i}, goal: g{i}, input: i{i}, output: o/t{i}.md}}\n")
        })
        .collect();
    env.orchestrate_and_freeze(
        &format!("roles:\n{roles}tasks:\n{tasks}synthesis: {{output: o/s.md}}\n"),
        "plan-wide",
    );
    env.ok(&["unfreeze", "-p", "plan-wide"]);
    let echo = env.ok(&["phase", "join", "gather", "-p", "plan-wide"]);
    // 42 units, each arriving on its verification or on the error of one
    // of its three steps.
    assert!(
        echo.contains("settles: fires once every branch from its fork arrived on one of its 168 incoming edge(s)"),
        "{echo}"
    );
    assert!(!echo.contains("awaits no incoming edge"), "{echo}");
    // A call whose tool is dropped stays in the outline's tool list.
    env.ok(&["set-config", "write", "--def", "{}", "-p", "plan-wide"]);
    let outline = env.json(&["outline", "-p", "plan-wide"]);
    let synthesis = outline["entries"]
        .as_array()
        .or_else(|| outline["phases"].as_array())
        .unwrap()
        .iter()
        .find(|e| e["phase"] == "synthesis")
        .unwrap_or_else(|| panic!("{outline}"))
        .clone();
    assert_eq!(
        synthesis["tools"],
        json!(["(no tool)", "remove_artifacts"]),
        "{synthesis}"
    );
}

#[test]
fn every_builtin_template_keeps_the_same_contract() {
    let env = Env::new();
    for (id, units) in [
        ("single", &["unit"][..]),
        ("advocate_critic", &["advocate", "critic"][..]),
        ("ordered_handoff_2", &["first", "second"][..]),
        ("ordered_handoff_3", &["first", "second", "third"][..]),
        ("fan_out_2", &["a", "b"][..]),
        ("fan_out_3", &["a", "b", "c"][..]),
        ("bounded_digest_2", &["a", "b"][..]),
    ] {
        let list = env.json(&["templates"]);
        let t = list["templates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["id"] == id)
            .unwrap()
            .clone();
        let plan = format!("plan-t-{}", id.replace('_', "-"));
        let mut args = vec![
            "instantiate".to_string(),
            id.to_string(),
            "--id".into(),
            plan.clone(),
        ];
        for p in t["params"].as_array().unwrap() {
            let name = p["path"].as_str().unwrap();
            args.push("--arg".into());
            args.push(format!("{name}=v/{name}.md"));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        env.ok(&args);
        env.ok(&["freeze", "-p", &plan]);
        let c = Checked {
            raw: env.json(&["raw", "-p", &plan]),
            units: units
                .iter()
                .map(|u| (u.to_string(), u.to_string()))
                .collect(),
        };
        c.assert_contract(id);
    }
}

/// A source text of about 140 KB whose every line names `seed`.
fn big_source(seed: &str) -> String {
    (0..3000)
        .map(|i| format!("{seed} line {i:05} of the source text, kept out.\n"))
        .collect()
}

#[test]
fn an_ordered_chain_keeps_every_large_input_out_of_the_orchestrator() {
    let env = Env::new();
    let (a, b) = (big_source("alpha"), big_source("beta"));
    for (plan, budget) in [("plan-chainbig", 200_000u64), ("plan-chainsmall", 100_000)] {
        let doc = json!({
            "roles": {"r": {"instructions": "Digest it.", "tools": []},
                      "q": {"instructions": "Build on it.", "tools": []}},
            "tasks": [
                {"name": "first", "role": "r", "goal": "Digest the first log", "input": a, "output": "o/1.md"},
                {"name": "second", "role": "q", "goal": "Compare with the second log", "input": b,
                 "output": "o/2.md", "needs": ["first"]}
            ],
            "synthesis": {"output": "o/s.md"},
            "contextBudgetBytes": budget
        });
        let (out, c) = env.checked(&doc.to_string(), plan, &["first", "second"]);
        assert!(
            out.contains("the large-input unit(s) `first`, `second` switch to bounded digests"),
            "{out}"
        );
        let text = c.raw.to_string();
        assert!(
            !text.contains("alpha line 00042"),
            "first's source is in {plan}"
        );
        assert!(
            !text.contains("beta line 00042"),
            "second's source is in {plan}"
        );
        for n in c.raw["nodes"].as_array().unwrap() {
            assert!(n.to_string().len() < 20_000, "{} is too big", n["id"]);
        }
        // The dependent gets its own slice from the run and the handoff.
        let spawn = &c.node("spawn_second")["definition"]["args"];
        assert!(refers(&spawn["input"], "accept", "slice_second"), "{spawn}");
        assert!(
            refers(&spawn["input"], "verify_first", "handoff"),
            "{spawn}"
        );
        assert_eq!(spawn["inputIdentity"]["bytes"], b.len() as u64);
    }
}

#[test]
fn context_overflow_keeps_the_advocate_critic_challenge() {
    let env = Env::new();
    let a = big_source("gamma");
    let doc = json!({
        "roles": {"pro": {"instructions": "Argue for.", "tools": []},
                  "con": {"instructions": "Argue against.", "tools": []}},
        "tasks": [
            {"name": "pro", "role": "pro", "goal": "Argue for adopting it", "input": a, "output": "d/pro.md"},
            {"name": "con", "role": "con", "goal": "Challenge the case", "input": a, "output": "d/contra.md",
             "challenges": ["pro"]}
        ],
        "synthesis": {"output": "d/decision.md"}
    });
    let (out, c) = env.checked(&doc.to_string(), "plan-advbig", &["pro", "con"]);
    assert!(out.contains("Mechanism used: advocate/critic"), "{out}");
    assert!(
        out.contains("keep the advocate/critic mechanism (the claim-evidence-objection records"),
        "{out}"
    );
    assert!(!c.raw.to_string().contains("gamma line 00042"));
    for u in ["pro", "con"] {
        let args = &c.node(&format!("spawn_{u}"))["definition"]["args"];
        assert!(
            args["schema"]
                .as_str()
                .unwrap()
                .contains("claim-evidence-objection records"),
            "{args}"
        );
        // The same evidence: both read one slice, the advocate's.
        assert!(refers(&args["input"], "accept", "slice_pro"), "{args}");
    }
    assert!(
        c.node("reconcile").to_string().contains("objection"),
        "reconcile no longer resolves objections"
    );
}

#[test]
fn a_collision_renames_only_the_colliding_tasks_clear_of_every_declared_path() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles: {r: {instructions: x, tools: []}, q: {instructions: y, tools: []}, z: {instructions: z, tools: []}}
tasks:
  - {name: a, role: r, goal: g, input: i, output: o/c.md}
  - {name: b, role: q, goal: g2, input: i2, output: ./o/c.md}
  - {name: c, role: z, goal: g3, input: i3, output: o/c.b.md}
synthesis: {output: o/s.md}
",
        "plan-rename",
        &["a", "b", "c"],
    );
    let output = |u: &str| c.node(&format!("spawn_{u}"))["definition"]["args"]["output"].clone();
    assert_eq!(output("a"), "o/c.a.md", "{out}");
    assert_eq!(output("c"), "o/c.b.md", "c collided with nothing:\n{out}");
    assert_eq!(output("b"), "o/c.b-2.md", "{out}");
    assert!(
        out.contains(
            "task `b` would write `./o/c.md`, as task `a` (`o/c.md`) does; it writes the separate artifact `o/c.b-2.md`"
        ),
        "{out}"
    );
    assert!(!out.contains("task `c` would write"), "{out}");
}

#[test]
fn a_failure_in_a_chain_names_the_verified_and_the_unrun_units() {
    let env = Env::new();
    let (_, c) = env.checked(
        "roles: {a: {instructions: Do A., tools: []}, b: {instructions: Do B., tools: []}, c: {instructions: Do C., tools: []}}
tasks:
  - {name: survey, role: a, goal: Survey the vendors, input: vendor list, output: m/survey.md}
  - {name: shortlist, role: b, goal: Shortlist three, input: the survey, output: m/short.md, needs: [survey]}
  - {name: legal, role: c, goal: Check the terms, input: the shortlist, output: m/legal.md, needs: [shortlist]}
synthesis: {output: m/decision.md}
",
        "plan-chainsets",
        &["survey", "shortlist", "legal"],
    );
    for id in [
        "fail_shortlist",
        "lost_shortlist",
        "unread_shortlist",
        "noverdict_shortlist",
    ] {
        let args = &c.node(id)["definition"]["args"];
        assert_eq!(args["verifiedUnits"], json!(["survey"]), "{id}: {args}");
        assert_eq!(args["unrunUnits"], json!(["legal"]), "{id}: {args}");
        assert!(
            args["detail"].as_str().unwrap().contains("partial landing"),
            "{args}"
        );
    }
    let first = &c.node("fail_survey")["definition"]["args"];
    assert_eq!(first["verifiedUnits"], json!([]));
    assert_eq!(first["unrunUnits"], json!(["shortlist", "legal"]));
}

#[test]
fn outputs_outside_the_working_tree_or_not_one_artifact_are_refused_naming_the_task() {
    let env = Env::new();
    for (output, synthesis, needle) in [
        (
            "/etc/passwd",
            "s.md",
            "task `a` writes `/etc/passwd`, an absolute path",
        ),
        (
            "../../outside.md",
            "s.md",
            "task `a` writes `../../outside.md`, a path with a `..` component",
        ),
        (
            "o/../o/a.md",
            "s.md",
            "task `a` writes `o/../o/a.md`, a path with a `..` component",
        ),
        ("C:\\\\x.md", "s.md", "an absolute path (a drive)"),
        (
            ".git/config",
            "s.md",
            "task `a` writes `.git/config`, inside the repository's `.git` folder",
        ),
        (
            "sub/.GIT/hooks/x",
            "s.md",
            "inside the repository's `.git` folder",
        ),
        (
            "plans/registry.yaml",
            "s.md",
            "task `a` writes `plans/registry.yaml`, inside the plan store",
        ),
        ("./plans/current", "s.md", "inside the plan store"),
        (".", "s.md", "task `a` writes `.`, the working tree itself"),
        (
            "dir/",
            "s.md",
            "task `a` writes `dir/`, a folder (it ends with a slash)",
        ),
        (
            "o\\u0000.md",
            "s.md",
            "a path with a control character (such as NUL)",
        ),
        (
            "o/report\\u202Edm.txt",
            "s.md",
            "a path with a bidirectional control character",
        ),
        (
            "a\\u200F.md",
            "s.md",
            "a path with a bidirectional control character",
        ),
        (
            "a\\u2066b.md",
            "s.md",
            "a path with a bidirectional control character",
        ),
        (
            "CON",
            "s.md",
            "task `a` writes `CON`, a path naming a Windows device",
        ),
        ("out/nul.md", "s.md", "a path naming a Windows device"),
        ("Com1.tar.gz", "s.md", "a path naming a Windows device"),
        ("lpt9 .md", "s.md", "a path naming a Windows device"),
        ("aux/x.md", "s.md", "a path naming a Windows device"),
        (
            "o/a.md",
            "prn.txt",
            "the synthesis `output` `prn.txt` is a path naming a Windows device",
        ),
        (
            "o/a.md",
            "plans/s.md",
            "the synthesis `output` `plans/s.md` is inside the plan store",
        ),
        (
            "o/a.md",
            "/tmp/s.md",
            "the synthesis `output` `/tmp/s.md` is an absolute path",
        ),
        (
            "o/a.md",
            "../s.md",
            "the synthesis `output` `../s.md` is a path with a `..` component",
        ),
    ] {
        let f = env.file(
            "out.yaml",
            &format!(
                "{ROLES}tasks:\n  - {{name: a, role: lead, goal: g, input: i, output: \"{output}\"}}\nsynthesis: {{output: \"{synthesis}\"}}\n"
            ),
        );
        let out = env.run(&["orchestrate", &f, "--id", "plan-out"]);
        assert_eq!(out.status.code(), Some(2), "{needle}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{needle}\n{err}");
    }
    assert_ne!(
        env.code(&["show", "-p", "plan-out"]),
        0,
        "a refused orchestrate stored a plan"
    );
}

/// Validates `doc` (a plan document) as a file: the exit code and output.
fn validate_doc(env: &Env, name: &str, doc: &Value) -> (Option<i32>, String) {
    let f = env.file(name, &doc.to_string());
    let out = env.run(&["validate", &f]);
    (
        out.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// The exported document of an orchestrated plan, without its digest (so
/// that edits are checked, not the digest).
fn exported(env: &Env, text: &str, plan: &str) -> Value {
    env.orchestrate_and_freeze(text, plan);
    let mut doc = env.json(&["export", "-p", plan, "--format", "json"]);
    doc.as_object_mut().unwrap().remove("digest");
    doc
}

fn node_mut<'a>(doc: &'a mut Value, id: &str) -> &'a mut Value {
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|n| n["id"] == id)
        .unwrap_or_else(|| panic!("no node {id}"))
}

#[test]
fn a_hand_edit_that_lets_a_failed_unit_reach_the_synthesis_is_found() {
    let env = Env::new();
    let fan_out = exported(&env, &format!("{ROLES}{API_AND_TESTS}"), "plan-edit");
    // The plan as emitted: no finding.
    let (code, out) = validate_doc(&env, "as_emitted.json", &fan_out);
    assert_eq!(code, Some(0), "{out}");
    // Parallel units meet at the join whatever their verdict: `verified`
    // tests every verdict. Its failure sent on to reconciliation:
    let mut into_reconcile = fan_out.clone();
    for e in into_reconcile["edges"].as_array_mut().unwrap() {
        if e["from"] == "verified" && e["handle"] == "default" {
            e["to"] = json!("reconcile");
            e["id"] = json!("verified__reconcile_failed");
        }
    }
    let (code, out) = validate_doc(&env, "into_reconcile.json", &into_reconcile);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("gate `verified` sends its failure (`default`, edge `"),
        "{out}"
    );
    // A unit's verify error moved towards the write (the tester's e4, in
    // a chain: a parallel unit's errors settle at the join by design): the
    // moved edge is the finding, its one fix moves it back to the failure
    // report it lost, and that report's being unreachable follows from it
    // (never "remove the node").
    let chain = exported(
        &env,
        &format!(
            "{ROLES}tasks:
  - {{name: api, role: lead, goal: Survey the API changes, input: src/api, output: notes/api.md}}
  - {{name: tests, role: tester, goal: Test what the survey found, input: the survey, output: notes/tests.md, needs: api}}
synthesis: {{output: notes/release.md}}
"
        ),
        "plan-edit-chain",
    );
    let mut error_on = chain.clone();
    for e in error_on["edges"].as_array_mut().unwrap() {
        if e["from"] == "verify_tests" && e["handle"] == "error" {
            e["to"] = json!("reconcile");
        }
    }
    let (code, out) = validate_doc(&env, "error_on.json", &error_on);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("error[failed_gate_writes]: `verify_tests` sends its error (edge `verify_tests__noverdict_tests`) on to `reconcile`"),
        "{out}"
    );
    // `noverdict_tests` lost its only incoming edge: the fix moves the edge
    // back there.
    assert!(
        out.contains("the failure report `noverdict_tests` has lost its incoming edge"),
        "{out}"
    );
    assert!(
        out.contains(
            r#"in the edge `verify_tests__noverdict_tests`, set `to` to "noverdict_tests""#
        ),
        "{out}"
    );
    assert!(
        !out.contains("remove the edge `verify_tests__noverdict_tests`"),
        "{out}"
    );
    let j = env.json(&[
        "validate",
        &env.file("e.json", &error_on.to_string()),
        "--format",
        "json",
    ]);
    let text = j.to_string();
    // The JSON fix is one object that moves the edge.
    assert!(
        text.contains(r#""action":"retarget_edge","edgeId":"verify_tests__noverdict_tests","from":"verify_tests","to":"noverdict_tests","handle":"error""#),
        "{text}"
    );
    // The edge into `lost_tests` moved: it is unreachable, which follows
    // from it (never "remove the node").
    let mut lost = chain.clone();
    for e in lost["edges"].as_array_mut().unwrap() {
        if e["to"] == "lost_tests" {
            e["to"] = json!("reconcile");
        }
    }
    let (code, out) = validate_doc(&env, "lost.json", &lost);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("the failure report `lost_tests` has lost its incoming edge"),
        "{out}"
    );
    assert!(!out.contains("error[unreachable_node]"), "{out}");
    assert!(!out.contains("remove node `lost_tests`"), "{out}");
    let text = env
        .json(&[
            "validate",
            &env.file("l.json", &lost.to_string()),
            "--format",
            "json",
        ])
        .to_string();
    assert!(
        text.contains("unreachable_node"),
        "the grouped finding is still listed: {text}"
    );
    // `verified`'s partial-landing case sent to the write (the tester's f1):
    // the finding names that edge and the report it lost.
    let mut some_to_write = fan_out.clone();
    for e in some_to_write["edges"].as_array_mut().unwrap() {
        if e["from"] == "verified" && e["to"] == "landing" {
            e["to"] = json!("write");
        }
    }
    let (code, out) = validate_doc(&env, "some_to_write.json", &some_to_write);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "gate `verified` sends its `case_some` (edge `verified__landing`) on to `write`"
        ),
        "{out}"
    );
    // One fix, which moves the edge back (removing it alone left 8
    // blocking findings: the tester's P6).
    assert!(
        out.contains(r#"in the edge `verified__landing`, set `to` to "landing""#),
        "{out}"
    );
    assert!(
        !out.contains("remove the edge `verified__landing`"),
        "{out}"
    );
    assert!(!out.contains("remove node `landing`"), "{out}");
    // The write's dispositions are set: its `undisposed_synthesis` (the
    // route bypasses the disposition gate) names the same edge with the
    // same fix, never "set the dispositions", in prose or in JSON.
    assert!(!out.contains("set `definition.args.dispositions`"), "{out}");
    let j = env
        .json(&[
            "validate",
            &env.file("s.json", &some_to_write.to_string()),
            "--format",
            "json",
        ])
        .to_string();
    assert!(j.contains("undisposed_synthesis"), "{j}");
    assert!(!j.contains(r#""path":"args.dispositions""#), "{j}");
    // Carried out, the fix leaves the plan as emitted: valid.
    let mut moved_back = some_to_write.clone();
    for e in moved_back["edges"].as_array_mut().unwrap() {
        if e["id"] == "verified__landing" {
            e["to"] = json!("landing");
        }
    }
    let (code, out) = validate_doc(&env, "moved_back.json", &moved_back);
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("error[unreconciled_unit]"), "{out}");
    // In the store, the CLI words it as one command line: disconnect, then
    // connect in its place.
    let f = env.file("some_to_write.json", &some_to_write.to_string());
    env.ok(&["import", &f, "--id", "plan-moved"]);
    let out = env.run(&["validate", "-p", "plan-moved"]);
    let out =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.contains("help: planforge disconnect verified__landing && planforge connect verified landing --handle case_some\n"),
        "{out}"
    );
    // In a chain, the failure edge of a unit's check dropped.
    let mut dropped = chain.clone();
    dropped["edges"]
        .as_array_mut()
        .unwrap()
        .retain(|e| !(e["from"] == "check_api" && e["handle"] == "no_match"));
    let (code, out) = validate_doc(&env, "dropped.json", &dropped);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("gate `check_api` has no `no_match` edge"),
        "{out}"
    );
}

#[test]
fn hand_edits_that_break_the_output_contract_are_found() {
    let env = Env::new();
    let doc = exported(&env, &format!("{ROLES}{API_AND_TESTS}"), "plan-contract");
    type Edit = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "write_no_dispositions",
            Box::new(|d| {
                node_mut(d, "write")["definition"]["args"]
                    .as_object_mut()
                    .unwrap()
                    .remove("dispositions");
            }),
            "undisposed_synthesis",
        ),
        (
            "disposition_not_required",
            Box::new(|d| {
                node_mut(d, "reconcile")["definition"]["outputSchema"]["properties"]["dispositions"]
                    ["required"] = json!(["api"]);
            }),
            "requires 1 member(s) for 2 unit(s)",
        ),
        (
            "gate_outcome_only",
            Box::new(|d| {
                node_mut(d, "gate")["definition"]["predicate"] =
                    json!({"path": "reconcile.outcome", "op": "eq", "value": "synthesize"});
            }),
            "no gate on every route to it tests the disposition of `api`, `tests`",
        ),
        (
            "report_no_failed_criteria",
            Box::new(|d| {
                node_mut(d, "landing")["definition"]["args"]
                    .as_object_mut()
                    .unwrap()
                    .remove("failedCriteria");
            }),
            "failure report `landing` (`report_failure`) comes after spawned units but lacks the failed criteria (`failedCriteria` missing)",
        ),
        (
            "gate_inverted",
            Box::new(|d| {
                node_mut(d, "verified")["definition"]["predicate"]["all"]["all"][0]["all"][0]["value"] =
                    json!("fail");
            }),
            "synthesis write `write` can run after unit `spawn_api` without the gates on every route to it guaranteeing that the unit passed (`verify_api.verdict` eq \"pass\" and `verify_api.failedCriteria` eq [])",
        ),
        (
            "gate_verdict_exists",
            Box::new(|d| {
                node_mut(d, "verified")["definition"]["predicate"]["all"]["all"][0]["all"][0] =
                    json!({"path": "verify_api.verdict", "op": "exists"});
            }),
            "after unit `spawn_api` without the gates on every route to it guaranteeing",
        ),
        (
            "gate_verdict_without_failed_criteria",
            Box::new(|d| {
                let unit = &mut node_mut(d, "verified")["definition"]["predicate"]["all"]["all"][0];
                *unit = unit["all"][0].clone();
            }),
            "after unit `spawn_api` without the gates on every route to it guaranteeing",
        ),
        (
            "no_spawn_weakened",
            Box::new(|d| {
                node_mut(d, "spawn_api")["definition"]["args"]["noSpawn"] = json!(false);
            }),
            "the explicit no-spawn prohibition (`noSpawn` false)",
        ),
    ];
    for (name, edit, needle) in cases {
        let mut d = doc.clone();
        edit(&mut d);
        let (code, out) = validate_doc(&env, &format!("{name}.json"), &d);
        assert_eq!(code, Some(1), "{name}: {out}");
        assert!(out.contains(needle), "{name}: {out}");
    }
    // Reworded instructions change nothing: the field carries the
    // prohibition.
    let mut reworded = doc.clone();
    node_mut(&mut reworded, "spawn_api")["definition"]["args"]["instructions"] =
        json!("Research the question. Never create sub-agents; you must not delegate.");
    let (code, out) = validate_doc(&env, "reworded.json", &reworded);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn the_source_pasted_back_into_a_bounded_digest_plan_is_found_naming_the_node() {
    let env = Env::new();
    let (a, b) = (big_source("alpha"), big_source("beta"));
    let text = json!({
        "roles": {
            "reader": {"instructions": "Digest your slice.", "tools": []},
            "auditor": {"instructions": "Audit your slice.", "tools": []}
        },
        "tasks": [
            {"name": "left", "role": "reader", "goal": "Summarise the left log", "input": a, "output": "g/left.md", "digest": "points"},
            {"name": "right", "role": "auditor", "goal": "Audit the right log", "input": b, "output": "g/right.md", "digest": "points"}
        ],
        "synthesis": {"output": "g/both.md"}
    })
    .to_string();
    let doc = exported(&env, &text, "plan-inlined");
    // The source as one more text part of the orchestrator's verify step.
    let mut pasted = doc.clone();
    node_mut(&mut pasted, "verify_left")["definition"]["prompt"]
        .as_array_mut()
        .unwrap()
        .push(json!({"text": a.clone()}));
    let (code, out) = validate_doc(&env, "pasted.json", &pasted);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("error[inlined_source]: orchestrator step `verify_left` holds the whole source of slice `slice_left`"),
        "{out}"
    );
    // The source as the spawn's literal input instead of the reference.
    let mut literal = doc.clone();
    node_mut(&mut literal, "spawn_right")["definition"]["args"]["input"] = json!(b.clone());
    let (code, out) = validate_doc(&env, "literal.json", &literal);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "the input of spawn `spawn_right` holds the whole source of slice `slice_right`"
        ),
        "{out}"
    );
    assert!(
        out.contains("set `definition.args.input` to <a reference to the run input `slice_right`"),
        "{out}"
    );
    // The spawn's input replaced by a short string: `accept` still passes
    // the run input on, but no unit reads its slice any longer.
    let mut short = doc.clone();
    node_mut(&mut short, "spawn_left")["definition"]["args"]["input"] = json!("logs/left.log");
    let (code, out) = validate_doc(&env, "short.json", &short);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("spawn `spawn_left` declares source slice `slice_left` in `inputIdentity`, but nothing reads the run input `slice_left` any longer"),
        "{out}"
    );
    // Near miss: a text of the source's size that is not the source (one
    // line: multi-line text over 1,024 bytes is source text in this plan).
    let mut other = doc.clone();
    let mut changed = a.replace('\n', " ");
    changed.replace_range(0..5, "ALPHA");
    node_mut(&mut other, "verify_left")["definition"]["prompt"]
        .as_array_mut()
        .unwrap()
        .push(json!({"text": changed}));
    let (code, out) = validate_doc(&env, "other.json", &other);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_store_whose_registry_predates_remove_artifacts_gets_the_command_that_adds_it() {
    let env = Env::new();
    let reg = env.store().join("registry.yaml");
    let text = std::fs::read_to_string(&reg).unwrap();
    let start = text.find("  remove_artifacts:").unwrap();
    let end = start + text[start..].find("  report_failure:").unwrap();
    std::fs::write(&reg, format!("{}{}", &text[..start], &text[end..])).unwrap();
    let f = env.file(
        "old.yaml",
        &format!(
            "{ROLES}tasks:
  - {{name: api, role: lead, goal: Survey the API changes, input: src/api, output: notes/api.md}}
synthesis: {{output: notes/release.md}}
"
        ),
    );
    let out = env.run(&["orchestrate", &f, "--id", "plan-old"]);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("unknown_tool"), "{text}");
    let line = text
        .lines()
        .find_map(|l| {
            l.find("planforge registry add remove_artifacts")
                .map(|i| &l[i..])
        })
        .unwrap_or_else(|| panic!("no registry add line:\n{text}"));
    // The fix's condition follows the command line.
    let line = line.split(" (if ").next().unwrap().to_string();
    assert!(
        line.contains("--returns text") && line.contains("--required-arg paths"),
        "{line}"
    );
    // The line, run as printed, makes the plan clean.
    let words = shell_words(&line);
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    env.ok(&args);
    let frozen = env.run(&["freeze", "-p", "plan-old"]);
    assert!(
        frozen.status.success(),
        "{}",
        String::from_utf8_lossy(&frozen.stdout)
    );
}

/// Splits a POSIX shell line of plain and single-quoted words.
fn shell_words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

#[test]
fn rollback_resumes_at_the_seeds_step_six_owner_verification() {
    let env = Env::new();
    let (_, c) = env.checked(
        &format!(
            "{ROLES}tasks:
  - {{name: api, role: lead, goal: Survey the API, input: src/api, output: n/api.md}}
  - {{name: tests, role: tester, goal: Find failing tests, input: tests/, output: n/tests.md}}
synthesis: {{output: n/release.md}}
"
        ),
        "plan-rollback",
        &["api", "tests"],
    );
    for id in ["rollback", "rollback_stuck"] {
        let args = c.node(id)["definition"]["args"].to_string();
        assert!(
            args.contains("step 6 (owner-verify every artifact)"),
            "{id}: {args}"
        );
        assert!(!args.contains("reconciliation (step 6)"), "{id}: {args}");
    }
}

/// Seed 003's partial landing when a parallel unit errors: on every
/// parallel mechanism, a unit whose spawn, read or verification errors
/// arrives at the settling join on that step's `error` edge, and the run,
/// simulated for every unit and step, reaches `landing` (or `unverified`)
/// with both sets — each unit's verdict and failed criteria, and the join's
/// arrivals naming the step that errored — and never `reconcile`, `write` or
/// `discard`. The same plan with a plain join, or with the error sent into
/// the unit's verification or past the join, is refused.
#[test]
fn a_parallel_unit_whose_step_errors_settles_at_the_join_and_is_a_partial_landing() {
    let env = Env::new();
    let part = |k: &str| format!("part{k} {}", "of the source ".repeat(80));
    let digest = format!(
        "{ROLES}tasks:\n  - {{name: a, role: lead, goal: g, input: {}, output: a.md, digest: 'points: [claim, evidence]'}}\n  - {{name: b, role: lead, goal: g, input: {}, output: b.md, digest: 'points: [claim, evidence]'}}\nsynthesis: {{output: out.md}}\n",
        part("1"),
        part("2")
    );
    let cases = [
        (
            "plan-fan",
            format!(
                "{ROLES}tasks:\n  - {{name: a, role: lead, goal: g, input: i, output: a.md}}\n  - {{name: b, role: tester, goal: h, input: j, output: b.md}}\nsynthesis: {{output: out.md}}\n"
            ),
            "fan-out",
        ),
        (
            "plan-per",
            format!(
                "{ROLES}tasks:\n  - {{name: a, role: lead, goal: g, input: part1, output: a.md}}\n  - {{name: b, role: lead, goal: g, input: part2, output: b.md}}\nsynthesis: {{output: out.md}}\n"
            ),
            "per-unit",
        ),
        ("plan-dig", digest, "bounded digest"),
        (
            "plan-adv",
            "roles:\n  advocate: {instructions: Argue for., tools: [read_file]}\n  critic: {instructions: Argue against., tools: [read_file]}\ntasks:\n  - {name: a, role: advocate, goal: Make the case, input: evidence/, output: a.md}\n  - {name: b, role: critic, goal: Challenge it, input: evidence/, output: b.md, challenges: a}\nsynthesis: {output: out.md}\n"
                .to_string(),
            "advocate/critic",
        ),
    ];
    for (plan, text, mechanism) in cases {
        let doc = exported(&env, &text, plan);
        let f = env.file("d.yaml", &text);
        let shown = env.ok(&["orchestrate", &f, "--print", "--id", "plan-shown"]);
        assert!(shown.contains(mechanism), "{mechanism}: {shown}");
        let edges = doc["edges"].as_array().unwrap();
        let node = |id: &str| {
            doc["nodes"]
                .as_array()
                .unwrap()
                .iter()
                .find(|n| n["id"] == id)
                .unwrap_or_else(|| panic!("{mechanism}: no node {id}"))
                .clone()
        };
        assert_eq!(
            node("join")["definition"],
            json!({"kind": "settle"}),
            "{mechanism}"
        );
        // Every step of a unit sends its error into the settling join, and
        // no per-unit report is left over.
        for u in ["a", "b"] {
            for step in ["spawn", "read", "verify"] {
                let from = format!("{step}_{u}");
                let to: Vec<&Value> = edges
                    .iter()
                    .filter(|e| e["from"] == from.as_str() && e["handle"] == "error")
                    .map(|e| &e["to"])
                    .collect();
                assert_eq!(to, vec!["join"], "{mechanism}: {from}");
            }
            assert!(
                !doc["nodes"].as_array().unwrap().iter().any(|n| [
                    "lost",
                    "unread",
                    "fail",
                    "noverdict"
                ]
                .iter()
                .any(|r| n["id"] == format!("{r}_{u}"))),
                "{mechanism}"
            );
        }
        let verified = json!({"verdict": "pass", "failedCriteria": [], "handoff": "h"});
        let failed =
            json!({"verdict": "fail", "failedCriteria": ["cites_evidence"], "handoff": ""});
        // Unit `u` errors at step `s`; the other passes, or fails its
        // verification.
        for (u, other) in [("a", "b"), ("b", "a")] {
            for step in ["spawn", "read", "verify"] {
                for other_passes in [true, false] {
                    let s_id = format!("{step}_{u}");
                    let what =
                        format!("{mechanism}: {s_id} errors, {other} passes: {other_passes}");
                    let given = HashMap::from([
                        (format!("verify_{u}"), verified.clone()),
                        (
                            format!("verify_{other}"),
                            if other_passes {
                                verified.clone()
                            } else {
                                failed.clone()
                            },
                        ),
                    ]);
                    for mode in [Join::All, Join::Any] {
                        let t = simulate(&doc, &HashSet::from([s_id.clone()]), &given, mode);
                        assert!(
                            !t.reached("reconcile") && !t.reached("write") && !t.reached("discard"),
                            "{what}: {:?}",
                            t.ran
                        );
                        let expected = if other_passes {
                            "landing"
                        } else {
                            "unverified"
                        };
                        let reports: Vec<&String> = t
                            .ran
                            .iter()
                            .filter(|id| node(id)["definition"]["tool"] == "report_failure")
                            .collect();
                        assert_eq!(reports, vec![expected], "{what}: {:?}", t.ran);
                        let r = node(expected);
                        let args = resolve(&r["definition"]["args"], &t.outputs).unwrap();
                        assert_eq!(args["units"], json!(["a", "b"]), "{what}");
                        // The landed set (or the failed one): the other
                        // unit's verdict and criteria as it returned them.
                        let o = if other_passes { &verified } else { &failed };
                        assert_eq!(args["verdicts"][other], o["verdict"], "{what}: {args}");
                        assert_eq!(
                            args["failedCriteria"][other], o["failedCriteria"],
                            "{what}: {args}"
                        );
                        // The errored unit: no verdict, and its arrival
                        // names the step that errored.
                        assert!(args["verdicts"].get(u).is_none(), "{what}: {args}");
                        let arrivals = args["arrivals"].as_array().unwrap();
                        assert_eq!(arrivals.len(), 2, "{what}: {args}");
                        let mine: Vec<&Value> = arrivals
                            .iter()
                            .map(|a| &args["arrivalKey"][a["via"].as_str().unwrap()])
                            .filter(|k| k["unit"] == u)
                            .collect();
                        assert_eq!(mine.len(), 1, "{what}: {args}");
                        assert_eq!(mine[0]["step"], s_id.as_str(), "{what}");
                        assert!(
                            mine[0]["outcome"].as_str().unwrap().starts_with("errored"),
                            "{what}: {}",
                            mine[0]
                        );
                        // Verified artifacts stay as evidence.
                        assert!(
                            args["rollbackState"]
                                .as_str()
                                .unwrap()
                                .contains("verified unit artifacts stay as evidence"),
                            "{what}"
                        );
                    }
                }
            }
        }
        // Both units error: `unverified` names both, each with its step.
        let t = simulate(
            &doc,
            &HashSet::from(["spawn_a".to_string(), "verify_b".to_string()]),
            &HashMap::from([("verify_b".to_string(), verified.clone())]),
            Join::All,
        );
        assert!(
            t.reached("unverified") && !t.reached("write"),
            "{mechanism}: {:?}",
            t.ran
        );
        let args = resolve(&node("unverified")["definition"]["args"], &t.outputs).unwrap();
        let steps: Vec<&Value> = args["arrivals"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| &args["arrivalKey"][a["via"].as_str().unwrap()]["step"])
            .collect();
        assert_eq!(steps.len(), 2, "{mechanism}: {args}");
        assert!(steps.contains(&&json!("spawn_a")) && steps.contains(&&json!("verify_b")));
        // The join shows how it settles.
        let out = env.ok(&["-p", plan, "read", "join"]);
        assert!(
            out.contains("settles: fires once every branch from its fork arrived on one of its 8 incoming edge(s)"),
            "{mechanism}: {out}"
        );
        // Hand edit: the same plan with a join that waits for every edge
        // (a plain join stays as it was): each error edge into it is found.
        let mut plain = doc.clone();
        node_mut(&mut plain, "join")["definition"] = json!({});
        let (code, out) = validate_doc(&env, "plain.json", &plain);
        assert_eq!(code, Some(1), "{mechanism}: {out}");
        assert!(
            out.contains("error[failed_gate_writes]: `spawn_a` sends its error (edge `spawn_a__join`) on to `join`"),
            "{mechanism}: {out}"
        );
        // Its one fix makes the join settle (not "send it to a report",
        // which would lose the both-sets report), and every other error
        // edge into it follows from the first; a misspelt kind heads them.
        assert!(
            out.contains("help: in node `join`, set `definition.kind` to \"settle\"")
                && !out.contains("set `to` to <a `report_failure` step"),
            "{mechanism}: {out}"
        );
        assert_eq!(
            out.matches("error[failed_gate_writes]").count(),
            1,
            "{mechanism}: {out}"
        );
        node_mut(&mut plain, "join")["definition"] = json!({"kind": "settle"});
        let (code, out) = validate_doc(&env, "plain_fixed.json", &plain);
        assert_eq!(code, Some(0), "{mechanism}: {out}");
        node_mut(&mut plain, "join")["definition"] = json!({"kind": "Settle"});
        let (code, out) = validate_doc(&env, "kind_typo.json", &plain);
        assert_eq!(code, Some(1), "{mechanism}: {out}");
        assert!(
            out.contains("error[missing_field]") && !out.contains("error[failed_gate_writes]"),
            "{mechanism}: {out}"
        );
        // Hand edit: the partial-landing report loses one unit's verdict
        // and the join's arrivals: it no longer names both sets.
        let mut bare = doc.clone();
        let args = &mut node_mut(&mut bare, "landing")["definition"]["args"];
        args["verdicts"].as_object_mut().unwrap().remove("b");
        args["unitResults"].as_object_mut().unwrap().remove("b");
        args.as_object_mut().unwrap().remove("arrivals");
        let (code, out) = validate_doc(&env, "bare.json", &bare);
        assert_eq!(code, Some(1), "{mechanism}: {out}");
        assert!(
            out.contains("error[partial_landing_report]: failure report `landing`, reached from the settling join `join`, does not reference `verify_b.verdict`")
                && out.contains("help: in node `landing`, set `definition.args.arrivals` to"),
            "{mechanism}: {out}"
        );
        // Hand edit: the error sent on to the unit's verification: branches
        // meet before the join.
        let mut into_verify = doc.clone();
        for e in into_verify["edges"].as_array_mut().unwrap() {
            if e["from"] == "spawn_a" && e["handle"] == "error" {
                e["to"] = json!("verify_a");
            }
        }
        let (code, out) = validate_doc(&env, "into_verify.json", &into_verify);
        assert_eq!(code, Some(1), "{mechanism}: {out}");
        assert!(
            out.contains("error[join_reconvergence]")
                && out.contains("the node `verify_a` has 2 incoming edges"),
            "{mechanism}: {out}"
        );
        // Hand edit: the error sent past the join, on to the reconciliation.
        let mut into_reconcile = doc.clone();
        for e in into_reconcile["edges"].as_array_mut().unwrap() {
            if e["from"] == "read_a" && e["handle"] == "error" {
                e["to"] = json!("reconcile");
            }
        }
        let (code, out) = validate_doc(&env, "into_reconcile.json", &into_reconcile);
        assert_eq!(code, Some(1), "{mechanism}: {out}");
        assert!(
            out.contains("error[failed_gate_writes]: `read_a` sends its error"),
            "{mechanism}: {out}"
        );
        // Its fix moves it back to the settling join its id names.
        assert!(
            out.contains("help: in the edge `read_a__join`, set `to` to \"join\""),
            "{mechanism}: {out}"
        );
    }
}

#[test]
fn the_store_guard_follows_the_runs_store() {
    let env = Env::empty();
    env.ok(&["--store", "st", "init"]);
    let doc = |output: &str| {
        format!(
            "{ROLES}tasks:\n  - {{name: a, role: writer, goal: g, input: i, output: \"{output}\"}}\nsynthesis: {{output: s.md}}\n"
        )
    };
    // Inside the run's store (`--store st`): refused, naming the store.
    let f = env.file("in.yaml", &doc("st/registry.yaml"));
    let out = env.run(&["--store", "st", "orchestrate", &f, "--id", "plan-in"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("task `a` writes `st/registry.yaml`, inside the plan store"),
        "{err}"
    );
    // `plans/` is no store here: an artifact of the owner's like any other.
    let f = env.file("notes.yaml", &doc("plans/notes.md"));
    let out = env.run(&["--store", "st", "orchestrate", &f, "--id", "plan-notes"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_cycle_of_reads_is_refused_like_a_needs_cycle() {
    let env = Env::new();
    let f = env.file(
        "reads.yaml",
        &format!(
            "{ROLES}tasks:\n  - {{name: a, role: writer, goal: g, input: read b.md, output: a.md}}\n  - {{name: b, role: writer, goal: g, input: read a.md, output: b.md}}\nsynthesis: {{output: s.md}}\n"
        ),
    );
    let out = env.run(&["orchestrate", &f, "--id", "plan-reads"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("form a cycle: a → b → a (`a` reads `b.md`, the output of `b`, `b` reads `a.md`, the output of `a`)"),
        "{err}"
    );
    // Near miss: one read is an order, not a cycle.
    let f = env.file(
        "one.yaml",
        &format!(
            "{ROLES}tasks:\n  - {{name: a, role: writer, goal: g, input: read b.md, output: a.md}}\n  - {{name: b, role: writer, goal: g, input: i, output: b.md}}\nsynthesis: {{output: s.md}}\n"
        ),
    );
    env.ok(&["orchestrate", &f, "--id", "plan-one"]);
}

#[test]
fn a_challenge_inside_a_needs_chain_is_refused_naming_both_tasks() {
    let env = Env::new();
    let f = env.file(
        "mix.yaml",
        &format!(
            "{ROLES}tasks:\n  - {{name: a, role: writer, goal: g, input: i, output: a.md, challenges: [b]}}\n  - {{name: b, role: writer, goal: g, input: i, output: b.md, needs: [c]}}\n  - {{name: c, role: writer, goal: g, input: i, output: c.md}}\nsynthesis: {{output: s.md}}\n"
        ),
    );
    let out = env.run(&["orchestrate", &f, "--print"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("task `a` challenges `b`, but `b` needs `c`")
            && err.contains("remove the `needs`"),
        "{err}"
    );
}

#[test]
fn an_adversarial_pair_beside_an_unrelated_chain_is_refused_naming_both_sets() {
    let env = Env::new();
    let pair = "  - {name: pro, role: writer, goal: Argue for, input: evidence/, output: pro.md}\n  - {name: con, role: writer, goal: Argue against, input: evidence/, output: contra.md, challenges: [pro]}\n";
    let chain = "  - {name: survey, role: writer, goal: Survey, input: src/, output: survey.md}\n  - {name: analyse, role: writer, goal: Analyse, input: the survey, output: analyse.md, needs: [survey]}\n";
    for (what, tasks, coupling) in [
        ("inferred", format!("{pair}{chain}"), ""),
        ("chain first", format!("{chain}{pair}"), ""),
        (
            "stated",
            format!("{pair}{chain}").replace(", needs: [survey]", ""),
            "coupling: {survey: ordered, analyse: ordered}\n",
        ),
    ] {
        let f = env.file(
            "mix.yaml",
            &format!("{ROLES}{coupling}tasks:\n{tasks}synthesis: {{output: s.md}}\n"),
        );
        let out = env.run(&["orchestrate", &f, "--id", "plan-mix"]);
        assert_eq!(out.status.code(), Some(2), "{what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("tasks `pro`, `con` are adversarial (they challenge one another) and tasks `survey`, `analyse` are an ordered chain beside them")
                && err.contains("no row runs both")
                && err.contains("orchestrate them as two decompositions"),
            "{what}: {err}"
        );
        // Nothing stored.
        assert_ne!(
            env.run(&["status", "-p", "plan-mix"]).status.code(),
            Some(0)
        );
    }
    // Near misses: the pair alone is row 6, the chain beside an independent
    // task is row 2.
    let f = env.file(
        "pair.yaml",
        &format!("{ROLES}tasks:\n{pair}synthesis: {{output: s.md}}\n"),
    );
    let out = env.ok(&["orchestrate", &f, "--print"]);
    assert!(out.contains("(seed 003, row 6)"), "{out}");
    let f = env.file(
        "chain.yaml",
        &format!(
            "{ROLES}tasks:\n{chain}  - {{name: logo, role: writer, goal: Draw, input: brief, output: logo.md}}\nsynthesis: {{output: s.md}}\n"
        ),
    );
    let out = env.ok(&["orchestrate", &f, "--print"]);
    assert!(out.contains("(seed 003, row 2)"), "{out}");
}

/// The tester's P8: names one file system stores as one file collide in
/// check 1 — NFC and NFD `é` (macOS), a trailing dot or space (Windows).
#[test]
fn outputs_that_name_one_file_on_macos_or_windows_collide() {
    let env = Env::new();
    for (k, (first, second)) in [
        ("r\u{e9}sum\u{e9}.md", "re\u{301}sume\u{301}.md"),
        ("a.md", "a.md."),
        ("notes/a.md", "notes./a.md "),
    ]
    .into_iter()
    .enumerate()
    {
        let plan = format!("plan-nf{k}");
        let out = env.orchestrate_and_freeze(
            &format!(
                "{ROLES}tasks:\n  - {{name: a, role: lead, goal: g, input: i, output: '{first}'}}\n  - {{name: b, role: tester, goal: h, input: j, output: '{second}'}}\nsynthesis: {{output: out.md}}\n"
            ),
            &plan,
        );
        assert!(
            out.contains("write one target (contention collision)")
                && out.contains("Mechanism used: ordered handoff"),
            "{first:?} {second:?}: {out}"
        );
        let b = env.node(&plan, "spawn_b")["definition"]["args"]["output"].clone();
        assert_ne!(b, json!(second), "{out}");
        // The separate artifact drops the trailing dots and spaces Windows
        // drops: `a.md.` becomes `a.b.md`, not `a.md.b.`.
        if second == "a.md." {
            assert_eq!(b, json!("a.b.md"), "{out}");
        }
    }
    // Near miss: a dot inside the name is another file.
    let out = env.orchestrate_and_freeze(
        &format!(
            "{ROLES}tasks:\n  - {{name: a, role: lead, goal: g, input: i, output: a.md}}\n  - {{name: b, role: tester, goal: h, input: j, output: a.m.d}}\nsynthesis: {{output: out.md}}\n"
        ),
        "plan-nf-near",
    );
    assert!(out.contains("Mechanism used: fan-out"), "{out}");
}

/// The independent tester's decompositions (issue 15, round B), among
/// them tasks given the same large input where only one declares a
/// digest: advocate/critic, a fan-out and an ordered chain.
#[test]
fn every_tester_decomposition_orchestrates_clean_and_freezes() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/orchestrate");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert!(names.len() >= 11, "{names:?}");
    let env = Env::new();
    for (k, name) in names.iter().enumerate() {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let plan = format!("plan-t{k}");
        let f = env.file(name, &text);
        let out = env.ok(&["orchestrate", &f, "--id", &plan]);
        assert!(
            out.contains("issues: 0 blocking, 0 advisory"),
            "{name}:\n{out}"
        );
        let frozen = env.run(&["freeze", "-p", &plan]);
        assert!(
            frozen.status.success(),
            "{name} does not freeze:\n{}",
            String::from_utf8_lossy(&frozen.stdout)
        );
        // No source line of any large input is in the plan.
        let raw = env.json(&["raw", "-p", &plan]).to_string();
        assert!(
            !raw.contains("line 42 "),
            "{name}: a source line is in the plan"
        );
    }
    // The critic given the advocate's evidence reads the advocate's slice:
    // one run input, named once at the entry.
    let raw = env.json(&["raw", "-p", "plan-t0"]);
    let spawn = |id: &str| {
        raw["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == id)
            .unwrap()["definition"]["args"]["input"]
            .clone()
    };
    assert!(refers(&spawn("spawn_crit"), "accept", "slice_adv"), "{raw}");
    assert!(refers(&spawn("spawn_adv"), "accept", "slice_adv"), "{raw}");
    let start = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == "start")
        .unwrap()
        .to_string();
    assert_eq!(start.matches("slice_adv").count(), 1, "{start}");
}

#[test]
fn a_spawning_tool_put_back_in_another_case_or_with_spaces_is_found() {
    let env = Env::new();
    let text = format!(
        "{ROLES}tasks:\n  - {{name: api, role: lead, goal: Survey the API, input: src/api, output: notes/api.md}}\n  - {{name: ci, role: tester, goal: Run the checks, input: ci, output: notes/ci.md}}\nsynthesis: {{output: notes/release.md}}\n"
    );
    let doc = exported(&env, &text, "plan-ns");
    for name in ["Spawn_Subagent", " spawn_subagent ", "spawn_subagent\t"] {
        let mut edited = doc.clone();
        node_mut(&mut edited, "spawn_api")["definition"]["args"]["tools"]
            .as_array_mut()
            .unwrap()
            .push(json!(name));
        let (code, out) = validate_doc(&env, "ns.json", &edited);
        assert_eq!(code, Some(1), "{name:?}: {out}");
        assert!(out.contains("error[nested_spawn]"), "{name:?}: {out}");
    }
    // Near miss: the plan as emitted.
    let (code, out) = validate_doc(&env, "clean.json", &doc);
    assert_eq!(code, Some(0), "{out}");
}

/// A fan-out plan of two units (`a`, `b`), exported as a document.
fn fan_out_doc(env: &Env, plan: &str) -> Value {
    exported(
        env,
        &format!(
            "{ROLES}tasks:\n  - {{name: a, role: lead, goal: Survey A, input: src/a, output: notes/a.md}}\n  - {{name: b, role: tester, goal: Test B, input: src/b, output: notes/b.md}}\nsynthesis: {{output: notes/s.md}}\n"
        ),
        plan,
    )
}

#[test]
fn a_settling_join_takes_errors_from_its_units_steps_only() {
    let env = Env::new();
    let doc = fan_out_doc(&env, "plan-settle-edges");
    let (code, out) = validate_doc(&env, "clean.json", &doc);
    assert_eq!(code, Some(0), "{out}");
    // An error edge from outside the units (the tester's `accept` and
    // `side`): found, with a fix that sends it to a report of its own.
    for from in ["accept", "side"] {
        let mut d = doc.clone();
        if from == "side" {
            d["nodes"].as_array_mut().unwrap().push(json!({
                "id": "side", "kind": "call", "phase": "units",
                "definition": {"tool": "read_artifact", "args": {"path": "notes/x.md"}, "output": [],
                    "onMissingValue": "fail", "authority": [], "replaySafe": true, "onIndeterminate": "halt"}
            }));
            d["edges"].as_array_mut().unwrap().push(
                json!({"id": "accept__side", "from": "accept", "to": "side", "handle": "always"}),
            );
            d["edges"].as_array_mut().unwrap().push(
                json!({"id": "side__join", "from": "side", "to": "join", "handle": "always"}),
            );
        }
        d["edges"].as_array_mut().unwrap().push(
            json!({"id": format!("{from}__join_err"), "from": from, "to": "join", "handle": "error"}),
        );
        let (code, out) = validate_doc(&env, "outside.json", &d);
        assert_eq!(code, Some(1), "{from}: {out}");
        assert!(
            out.contains(&format!(
                "error[settle_error_edge]: the settling join `join` takes the error of `{from}` (edge `{from}__join_err`), which is no step of the units it settles"
            )),
            "{from}: {out}"
        );
    }
    // A unit's error edge into the join deleted: found, fix connects it.
    let mut d = doc.clone();
    d["edges"]
        .as_array_mut()
        .unwrap()
        .retain(|e| !(e["from"] == "read_a" && e["to"] == "join" && e["handle"] == "error"));
    let (code, out) = validate_doc(&env, "deleted.json", &d);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("error[settle_error_edge]: `read_a`, a step of a unit the settling join `join` settles, has no `error` edge into it"),
        "{out}"
    );
    let j = env.json(&[
        "validate",
        &env.file("d.json", &d.to_string()),
        "--format",
        "json",
    ]);
    assert!(
        j.to_string()
            .contains(r#""fix":{"action":"connect","from":"read_a","to":"join","handle":"error"}"#),
        "{j}"
    );
}

#[test]
fn a_moved_edge_that_closes_a_cycle_is_fixed_first_by_moving_it_back() {
    let env = Env::new();
    let doc = fan_out_doc(&env, "plan-cycle-move");
    // `verified`'s `default` (to `unverified`) moved to `spawn_a`: a cycle
    // through the join, and the failure report lost.
    let mut d = doc.clone();
    for e in d["edges"].as_array_mut().unwrap() {
        if e["from"] == "verified" && e["handle"] == "default" {
            e["to"] = json!("spawn_a");
        }
    }
    let (code, out) = validate_doc(&env, "cycle.json", &d);
    assert_eq!(code, Some(1), "{out}");
    // One group, headed by the retarget; the cycle, and the reads it puts
    // "after the join", follow from it.
    assert!(!out.contains("error[cycle]"), "{out}");
    assert!(!out.contains("error[first_last_across_join]"), "{out}");
    let first = out.lines().find(|l| l.starts_with("error[")).unwrap_or("");
    assert!(
        first
            .starts_with("error[failed_gate_writes]: gate `verified` sends its failure (`default`"),
        "{out}"
    );
    assert!(first.contains("cycle"), "{out}");
    assert!(out.contains(r#"set `to` to "unverified""#), "{out}");
    // The error→reconcile edit (round B): the units its route leaves
    // ungated follow from the moved edge, no `ungated_unit` line alone.
    let mut d = doc.clone();
    for e in d["edges"].as_array_mut().unwrap() {
        if e["from"] == "verify_a" && e["handle"] == "error" {
            e["to"] = json!("reconcile");
        }
    }
    let (code, out) = validate_doc(&env, "reconcile.json", &d);
    assert_eq!(code, Some(1), "{out}");
    assert!(!out.contains("error[ungated_unit]"), "{out}");
    assert!(!out.contains("error[settle_error_edge]"), "{out}");
    let first = out.lines().find(|l| l.starts_with("error[")).unwrap_or("");
    assert!(
        first.starts_with("error[failed_gate_writes]: `verify_a` sends its error"),
        "{out}"
    );
}

/// The first fix of a `help:` line, as a command line: the first
/// alternative, without its condition, each `<placeholder>` filled with a
/// value of the kind it names.
fn first_fix(help: &str) -> String {
    let first = help.split(", or planforge").next().unwrap();
    let first = first.split(" (if ").next().unwrap();
    let mut out = String::new();
    let mut rest = first;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('>').map_or(rest.len(), |e| i + e + 1);
        let what = &rest[i..end];
        out.push_str(if what.contains("dispositions") {
            "'@reconcile[0].dispositions'"
        } else {
            "filled"
        });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_printed_fixes_of_the_output_contract_checks_clear_their_findings() {
    let env = Env::new();
    let f = env.file(
        "fix.yaml",
        "roles:
  a: {instructions: A., tools: [read_file]}
  b: {instructions: B., tools: [read_file]}
tasks:
  - {name: north, role: a, goal: Count the northern sites, input: sites/north, output: w/north.md}
  - {name: south, role: b, goal: Count the southern sites, input: sites/south, output: w/south.md}
synthesis: {output: w/total.md}
",
    );
    env.ok(&["orchestrate", &f, "--id", "plan-fix"]);
    // Hand edits that take out arguments the registry does not name: `set`
    // refuses such a key unless told it is meant, so the fix must say so.
    for (node, arg) in [
        ("spawn_north", "noSpawn"),
        ("spawn_north", "instructions"),
        ("landing", "failedCriteria"),
        ("landing", "rollbackState"),
        ("unverified", "verdicts"),
        ("unverified", "arrivals"),
        ("write", "dispositions"),
    ] {
        env.ok(&["set", node, &format!("args.{arg}"), "--remove"]);
    }
    // A verification that may fail naming no criterion.
    env.ok(&["set", "verify_north", "outputSchema.anyOf", "--remove"]);
    let codes = [
        "incomplete_spawn_spec",
        "incomplete_failure_report",
        "partial_landing_report",
        "undisposed_synthesis",
    ];
    let mut seen = HashSet::new();
    for _ in 0..12 {
        let out = env.run(&["validate"]);
        let text = String::from_utf8_lossy(&out.stderr).into_owned()
            + &String::from_utf8_lossy(&out.stdout);
        // The first finding of one of the codes, and its first fix.
        let mut lines = text.lines();
        let mut next = None;
        while let Some(l) = lines.next() {
            if let Some(code) = codes.iter().find(|c| l.starts_with(&format!("error[{c}]"))) {
                let help = lines
                    .by_ref()
                    .find_map(|h| h.trim_start().strip_prefix("help: "))
                    .unwrap_or_else(|| panic!("{code} without a fix:\n{text}"));
                next = Some((*code, first_fix(help)));
                break;
            }
        }
        let Some((code, line)) = next else { break };
        seen.insert(code);
        let words = shell_words(&line);
        let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
        let run = env.run(&args);
        assert!(
            run.status.success(),
            "{code}: the printed fix `{line}` is refused:\n{}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    assert_eq!(seen.len(), codes.len(), "{seen:?}");
    let out = env.run(&["validate"]);
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("can fail naming no criterion") && text.contains("valid (0 blocking"),
        "{text}"
    );
    // A refused new argument offers the value given only for an argument
    // it may have been meant for: never another argument's `false` as a goal.
    env.ok(&["set", "spawn_south", "args.goal", "--remove"]);
    let out = env.run(&["set", "spawn_south", "args.prohibit", "false"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("planforge set spawn_south args.goal '<the value of `goal`>'")
            || err.contains("planforge set spawn_south args.goal <the value of `goal`>"),
        "{err}"
    );
    assert!(!err.contains("args.goal false"), "{err}");
    assert!(
        err.contains("planforge set spawn_south args.prohibit false --add"),
        "{err}"
    );
    env.ok(&[
        "set",
        "spawn_south",
        "args.goal",
        "Count the southern sites",
    ]);
    let out = env.run(&["validate"]);
    let text =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    for code in codes {
        assert!(
            !text.contains(&format!("[{code}]")),
            "{code} is left:\n{text}"
        );
    }
}

/// What Python's `jsonschema` (the pinned one in `.venv`, as
/// tests/schema.rs uses) says of each `[schema, instance]`: valid or not.
fn schema_admits(cases: &[(Value, Value)]) -> Vec<bool> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    const CHECK: &str = r#"
import json, sys
import jsonschema
out = []
for schema, doc in json.load(sys.stdin):
    jsonschema.Draft202012Validator.check_schema(schema)
    out.append(jsonschema.Draft202012Validator(schema).is_valid(doc))
print(json.dumps(out))
"#;
    let python = format!("{}/.venv/bin/python", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new(&python)
        .args(["-c", CHECK])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!("{python} does not run ({e}); see tests/schema.rs for the .venv it needs")
        });
    let input: Vec<Value> = cases.iter().map(|(s, d)| json!([s, d])).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&serde_json::to_vec(&input).unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_failed_verification_names_a_criterion_and_the_reports_name_the_failed_units() {
    let env = Env::new();
    let (_, fan) = env.checked(
        "roles:
  a: {instructions: Research., tools: [read_file]}
  b: {instructions: Research., tools: [read_file]}
tasks:
  - {name: alpha, role: a, goal: Find the first, input: one, output: r/alpha.md}
  - {name: beta, role: b, goal: Find the second, input: two, output: r/beta.md}
synthesis: {output: r/all.md}
",
        "plan-v1",
        &["alpha", "beta"],
    );
    let (_, chain) = env.checked(
        "roles:
  a: {instructions: Fetch., tools: [read_file]}
tasks:
  - {name: first, role: a, goal: Collect, input: data/raw, output: p/first.md}
  - {name: second, role: a, goal: Clean, input: the rows, output: p/second.md, needs: first}
synthesis: {output: p/final.md}
",
        "plan-v2",
        &["first", "second"],
    );
    // A verdict of "fail" must name at least one failed criterion; "pass"
    // with none, and "fail" with one, are answers the schema takes.
    let mut cases = Vec::new();
    for (c, slug) in [(&fan, "alpha"), (&fan, "beta"), (&chain, "second")] {
        let schema = c.node(&format!("verify_{slug}"))["definition"]["outputSchema"].clone();
        for doc in [
            json!({"verdict": "fail", "failedCriteria": [], "handoff": ""}),
            json!({"verdict": "fail", "failedCriteria": ["exists"], "handoff": ""}),
            json!({"verdict": "pass", "failedCriteria": [], "handoff": "h"}),
        ] {
            cases.push((schema.clone(), doc));
        }
    }
    let said = schema_admits(&cases);
    for (k, ok) in said.iter().enumerate() {
        assert_eq!(*ok, k % 3 != 0, "{:?}", cases[k]);
    }
    // A partial landing names the failed unit with what failed; a run where
    // no unit verified names every unit as failed.
    let t = simulate(
        &fan.raw,
        &HashSet::new(),
        &fan.outputs(&["beta"]),
        Join::All,
    );
    assert!(t.reached("landing"), "{:?}", t.ran);
    let args = resolve(&fan.node("landing")["definition"]["args"], &t.outputs).unwrap();
    assert_eq!(
        args["unitResults"]["beta"],
        json!({"verdict": "fail", "failedCriteria": ["cites_evidence"]})
    );
    assert_eq!(
        args["unitResults"]["alpha"],
        json!({"verdict": "pass", "failedCriteria": []})
    );
    let t = simulate(
        &fan.raw,
        &HashSet::new(),
        &fan.outputs(&["alpha", "beta"]),
        Join::All,
    );
    assert!(t.reached("unverified"), "{:?}", t.ran);
    let args = resolve(&fan.node("unverified")["definition"]["args"], &t.outputs).unwrap();
    assert_eq!(args["failedUnits"], json!(["alpha", "beta"]));
    assert_eq!(
        args["unitResults"]["alpha"]["failedCriteria"],
        json!(["cites_evidence"])
    );
}

#[test]
fn an_advocate_and_a_critic_run_one_at_a_time_keep_their_objection_records() {
    let env = Env::new();
    let (out, c) = env.checked(
        "roles:
  reviewer: {instructions: Review the proposal against the evidence., tools: [read_file]}
maxConcurrent: 1
tasks:
  - {name: pro, role: reviewer, goal: Argue for adopting the cache, input: bench/results.md, output: d/pro.md}
  - {name: con, role: reviewer, goal: Challenge the case for the cache, input: bench/results.md, output: d/contra.md, challenges: pro}
synthesis: {output: d/decision.md}
",
        "plan-ac1",
        &["pro", "con"],
    );
    assert!(
        out.contains("Mechanism matched: advocate/critic (seed 003, row 6)"),
        "{out}"
    );
    assert!(out.contains("Mechanism used: ordered handoff"), "{out}");
    assert!(
        out.contains("Fallback: the advocate and critic still challenge one another: each keeps its claim-evidence-objection records"),
        "{out}"
    );
    for unit in ["pro", "con"] {
        let schema = c.node(&format!("spawn_{unit}"))["definition"]["args"]["schema"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            schema.starts_with("claim-evidence-objection records"),
            "{unit}: {schema}"
        );
    }
    let prompt = c.node("reconcile")["definition"]["prompt"].to_string();
    assert!(
        prompt.contains("Resolve each objection of the claim-evidence-objection records"),
        "{prompt}"
    );
}

#[test]
fn deleting_a_part_of_the_rollback_is_found() {
    let env = Env::new();
    let doc = exported(&env, &format!("{ROLES}{API_AND_TESTS}"), "plan-rollback");
    let (code, out) = validate_doc(&env, "whole.json", &doc);
    assert_eq!(code, Some(0), "{out}");
    for (gone, says) in [
        ("unwrite", "synthesis write `write` has no rollback"),
        (
            "rollback",
            "rollback `unwrite` records no rollback state on its `always` edge",
        ),
        (
            "rollback_stuck",
            "rollback `unwrite` records no rollback state on its `error` edge",
        ),
    ] {
        let mut d = doc.clone();
        d["nodes"]
            .as_array_mut()
            .unwrap()
            .retain(|n| n["id"] != gone);
        d["edges"]
            .as_array_mut()
            .unwrap()
            .retain(|e| e["from"] != gone && e["to"] != gone);
        let (code, out) = validate_doc(&env, &format!("{gone}.json"), &d);
        assert_ne!(code, Some(0), "{gone}: {out}");
        assert!(out.contains("missing_rollback"), "{gone}: {out}");
        assert!(out.contains(says), "{gone}: {out}");
    }
}

#[test]
fn input_refusals_point_at_file_line_and_column_and_say_what_to_give() {
    let env = Env::new();
    // A task refused by name, at its entry in `tasks`: line 13 of the file.
    let f = env.file(
        "role.yaml",
        &format!(
            "{ROLES}tasks:\n  - {{name: a, role: ghost, goal: g, input: i, output: a.md}}\nsynthesis: {{output: s.md}}\n"
        ),
    );
    let out = env.run(&["orchestrate", &f]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("--> {f}:12:5 (at /tasks/0)")),
        "{err}"
    );
    // A bad `maxConcurrent`: placed, and a help line says what to give.
    for bad in ["0", "-3", "lots"] {
        let f = env.file(
            "cap.yaml",
            &format!(
                "{ROLES}maxConcurrent: {bad}\ntasks:\n  - {{name: a, role: lead, goal: g, input: i, output: a.md}}\nsynthesis: {{output: s.md}}\n"
            ),
        );
        let out = env.run(&["orchestrate", &f]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("--> {f}:11:16 (at /maxConcurrent)")),
            "{bad}: {err}"
        );
        assert!(
            err.contains("help: give the most subagents the owner lets run at once, a whole number of 1 or more"),
            "{bad}: {err}"
        );
    }
}

/// Every input refusal is placed at file:line:col with a help line,
/// including those made after reading (an output inside the plan store),
/// an empty task list, and a count too large for a plan's numbers, which
/// is shown as written and not told to be "written as a string".
#[test]
fn refusals_after_reading_and_of_huge_counts_are_placed_with_help() {
    let env = Env::new();
    let refused = |name: &str, text: &str| -> (String, String) {
        let f = env.file(name, text);
        let out = env.run(&["orchestrate", &f, "--print"]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        (f, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let one = "  - {name: a, role: lead, goal: g, input: i, output: a.md}\n";
    let (f, err) = refused(
        "store.yaml",
        &format!(
            "{ROLES}tasks:\n  - {{name: a, role: lead, goal: g, input: i, output: Plans/registry.yaml}}\nsynthesis: {{output: s.md}}\n"
        ),
    );
    assert!(err.contains("inside the plan store"), "{err}");
    assert!(
        err.contains(&format!("--> {f}:12:54 (at /tasks/0/output)")),
        "{err}"
    );
    assert!(
        err.contains("help: give `output` a relative file path outside"),
        "{err}"
    );
    let (f, err) = refused(
        "none.yaml",
        &format!("{ROLES}tasks: []\nsynthesis: {{output: s.md}}\n"),
    );
    assert!(
        err.contains("--> {f}:11:8 (at /tasks)".replace("{f}", &f).as_str()),
        "{err}"
    );
    assert!(err.contains("help: list at least one task"), "{err}");
    // Not a decomposition at all, or not readable: placed, and the help
    // line says what a decomposition holds.
    for (name, text, at) in [
        ("empty.yaml", "", "1:1"),
        ("list.yaml", "[1]\n", "1:1"),
        ("broken.json", "{\"roles\": {", "1:11"),
    ] {
        let (f, err) = refused(name, text);
        assert!(err.contains(&format!("--> {f}:{at}")), "{name}: {err}");
        assert!(
            err.contains("help: ") && err.contains("a decomposition is an object with `roles`"),
            "{name}: {err}"
        );
    }
    for (key, at) in [("maxConcurrent", "11:16"), ("contextBudgetBytes", "11:21")] {
        let (f, err) = refused(
            "huge.yaml",
            &format!(
                "{ROLES}{key}: 99999999999999999999\ntasks:\n{one}synthesis: {{output: s.md}}\n"
            ),
        );
        assert!(
            err.contains(&format!("`{key}` is 99999999999999999999, more than")),
            "{err}"
        );
        assert!(!err.contains("as a string"), "{err}");
        assert!(err.contains(&format!("--> {f}:{at} (at /{key})")), "{err}");
        assert!(err.contains("  help: give "), "{err}");
    }
}

/// A task or role name holding a control character (NUL, a newline, ESC)
/// or a bidirectional control is refused, as ids are, placed at the name;
/// a name with other non-ASCII text is not.
#[test]
fn names_with_control_characters_are_refused() {
    let env = Env::new();
    for (i, name) in ["a\\0b", "tech\\nsurvey", "x\\ey", "r\\u202Eevil"]
        .into_iter()
        .enumerate()
    {
        let f = env.file(
            &format!("name{i}.yaml"),
            &format!(
                "{ROLES}tasks:\n  - {{name: ok, role: lead, goal: g, input: i, output: a.md}}\n  - {{name: \"{name}\", role: lead, goal: g, input: i, output: b.md}}\nsynthesis: {{output: s.md}}\n"
            ),
        );
        let out = env.run(&["orchestrate", &f, "--print"]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(out.stdout.is_empty(), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("task 2's name `"), "{name}: {err}");
        assert!(
            err.contains(&format!("--> {f}:13:12 (at /tasks/1/name)")),
            "{name}: {err}"
        );
        assert!(
            err.contains("  help: give it a name of printable characters"),
            "{err}"
        );
        assert!(
            !err.contains('\0') && !err.contains("tech\nsurvey"),
            "{err}"
        );
    }
    let f = env.file(
        "role.yaml",
        "roles:\n  \"le\\nad\": {instructions: R., tools: []}\ntasks:\n  - {name: a, role: \"le\\nad\", goal: g, input: i, output: a.md}\nsynthesis: {output: s.md}\n",
    );
    let out = env.run(&["orchestrate", &f, "--print"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the role `le\\u{a}ad` holds a control character"),
        "{err}"
    );
    let f = env.file(
        "fine.yaml",
        &format!("{ROLES}tasks:\n  - {{name: \"caf\u{e9} \u{2014} \u{6f22}\", role: lead, goal: g, input: i, output: a.md}}\nsynthesis: {{output: s.md}}\n"),
    );
    env.ok(&["orchestrate", &f, "--print"]);
}

#[test]
fn a_verify_schema_edited_to_let_a_failure_name_no_criterion_is_found() {
    let env = Env::new();
    let doc = exported(&env, &format!("{ROLES}{API_AND_TESTS}"), "plan-silent");
    let mut d = doc.clone();
    node_mut(&mut d, "verify_api")["definition"]["outputSchema"]
        .as_object_mut()
        .unwrap()
        .remove("anyOf");
    let (code, out) = validate_doc(&env, "silent.json", &d);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("error[incomplete_failure_report]: verification `verify_api` can fail naming no criterion")
            && out.contains("help: in node `verify_api`, set `definition.outputSchema.anyOf` to"),
        "{out}"
    );
    assert!(!out.contains("verify_tests"), "{out}");
}
