//! `validate`, `explain`, and freeze/submit refusals drawn as diagnostics
//! (SPEC §5, §6, §8, §11), through the binary, in temporary folders, with
//! NO_COLOR and no network.

mod common;

#[path = "validate/adoption.rs"]
mod adoption;
#[path = "validate/locations.rs"]
mod locations;

use common::{Env, Out};
use serde_json::{Value, json};
use std::path::Path;

const REGISTRY: &str = "tools:
  tickets_get: {summary: Fetch one ticket, returns: text, requiredArgs: [id]}
  notify: {returns: text}
";

impl Env {
    /// A folder with a store at `./plans` whose registry is [`REGISTRY`].
    fn with_store() -> Env {
        let env = Env::new();
        env.write("plans/registry.yaml", REGISTRY);
        env
    }
}

fn call(id: &str, tool: &str) -> Value {
    json!({"id": id, "kind": "call", "definition": {
        "tool": tool, "args": {"id": "42"}, "output": [{"path": "body", "type": "string"}],
        "onMissingValue": "fail", "authority": [{"capability": "tickets", "scope": "all", "verb": "read"}],
        "replaySafe": true, "onIndeterminate": "halt"
    }})
}

/// entry → fetch → tell, every node valid against [`REGISTRY`].
fn clean_doc() -> Value {
    json!({
        "formatVersion": 1,
        "planId": "plan-triage",
        "nodes": [
            {"id": "start", "kind": "entry", "definition": {"input": [{"path": "ticket", "type": "string"}]}},
            call("fetch", "tickets_get"),
            call("tell", "tickets_get"),
        ],
        "edges": [
            {"id": "e1", "from": "start", "to": "fetch", "handle": "always"},
            {"id": "e2", "from": "fetch", "to": "tell", "handle": "always"},
        ]
    })
}

/// The clean document whose third node names an unknown tool.
fn typo_doc() -> Value {
    let mut d = clean_doc();
    d["nodes"][2]["definition"]["tool"] = json!("tickets_gett");
    d
}

const TYPO_YAML: &str = "formatVersion: 1
planId: plan-triage
nodes:
  - id: start
    kind: entry
    definition: {input: [{path: ticket, type: string}]}
  - id: fetch
    kind: call
    definition:
      tool: tickets_get
      args: {id: \"42\"}
      output: [{path: body, type: string}]
      onMissingValue: fail
      authority: []
      replaySafe: true
      onIndeterminate: halt
  - id: tell        # the third node
    kind: call
    definition:
      tool:   'tickets_gett'
      args: {id: \"42\"}
      output: [{path: body, type: string}]
      onMissingValue: fail
      authority: []
      replaySafe: true
      onIndeterminate: halt
edges:
  - {id: e1, from: start, to: fetch}
  - {id: e2, from: fetch, to: tell}
";

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap() + "\n"
}

/// The 1-based line and column (in characters) of the first `needle`.
fn line_col(text: &str, needle: &str) -> (usize, usize) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in text"));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (
        text[..at].matches('\n').count() + 1,
        text[line_start..at].chars().count() + 1,
    )
}

/// The text between two 1-based (line, column) positions, columns in
/// characters, end exclusive.
fn slice(text: &str, start: (usize, usize), end: (usize, usize)) -> String {
    let offset = |(l, c): (usize, usize)| -> usize {
        let line_start: usize = text.split_inclusive('\n').take(l - 1).map(str::len).sum();
        line_start
            + text[line_start..]
                .char_indices()
                .nth(c - 1)
                .map_or(text.len() - line_start, |(i, _)| i)
    };
    text[offset(start)..offset(end)].to_string()
}

fn issue<'a>(j: &'a Value, code: &str) -> &'a Value {
    j["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["code"] == code)
        .unwrap_or_else(|| panic!("no {code} in {j:#}"))
}

fn pos(i: &Value) -> ((usize, usize), (usize, usize)) {
    let n = |k: &str| i[k].as_u64().unwrap_or_else(|| panic!("{k} in {i}")) as usize;
    ((n("line"), n("column")), (n("endLine"), n("endColumn")))
}

#[test]
fn a_document_validates_from_an_empty_folder_with_a_registry_file() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    env.write("plan.json", &pretty(&clean_doc()));
    let out = env
        .out(&["validate", "plan.json", "--registry", "registry.yaml"])
        .code(0);
    assert_eq!(out.stdout, "plan.json: valid (0 blocking, 0 advisory)\n");
    assert_eq!(out.stderr, "");
    // Nothing was created: no store, no current plan.
    let left: Vec<_> = std::fs::read_dir(&env.root)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    assert!(!env.root.join("plans").exists());
}

#[test]
fn without_a_registry_the_registry_checks_are_listed_as_skipped() {
    let env = Env::empty();
    env.write("plan.json", &pretty(&typo_doc()));
    let out = env.out(&["validate", "plan.json"]).code(0);
    assert!(
        out.stdout
            .contains("note: some checks were skipped because no registry is available"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("unknown_tool"), "{}", out.stdout);
    let j = env
        .out(&["validate", "plan.json", "--format", "json"])
        .code(0)
        .json();
    let skipped: Vec<&str> = j["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["code"].as_str().unwrap())
        .collect();
    assert!(skipped.contains(&"unknown_tool"), "{skipped:?}");
    assert!(skipped.contains(&"missing_arg"), "{skipped:?}");
    // Listed once per run (not once per file), with how many inputs skipped it.
    assert_eq!(j["skipped"][0]["inputs"], 1);
    // The reason is the engine's, shared with the model-facing tools: it
    // names no flag.
    assert_eq!(j["skipped"][0]["reason"], "no registry is available");
}

#[test]
fn the_unknown_tool_of_the_third_node_is_reported_at_its_string_value_json() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let text = pretty(&typo_doc());
    env.write("plan.json", &text);
    let j = invalid(&env, "plan.json", "json").json();
    let i = issue(&j, "unknown_tool");
    assert_eq!(i["pointer"], "/nodes/2/definition/tool");
    assert_eq!(i["nodeId"], "tell");
    assert_eq!(i["file"], "plan.json");
    assert_eq!(i["planId"], "plan-triage");
    let (start, end) = pos(i);
    assert_eq!(start, line_col(&text, "\"tickets_gett\""));
    assert_eq!(slice(&text, start, end), "\"tickets_gett\"");

    // The text form names the same place.
    let out = env
        .out(&["validate", "plan.json", "--registry", "registry.yaml"])
        .code(1);
    let place = format!("plan.json:{}:{}", start.0, start.1);
    assert!(
        out.stderr.contains(
            "error[unknown_tool]: call `tell` invokes the tool `tickets_gett` (did you mean `tickets_get`?)"
        ),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains(&format!("  --> {place} (at /nodes/2/definition/tool)\n")),
        "{}",
        out.stderr
    );
    // A document's fix is an edit of the document.
    assert!(
        out.stderr
            .contains("  help: in node `tell`, set `definition.tool` to \"tickets_get\""),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("  see: planforge explain unknown_tool\n")
    );
    assert!(
        !out.stderr.contains('\u{1b}'),
        "escape codes without a terminal"
    );
    assert_eq!(out.stdout, "plan.json: invalid (1 blocking, 0 advisory)\n");
}

#[test]
fn the_unknown_tool_of_the_third_node_is_reported_at_its_string_value_yaml() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    env.write("plan.yaml", TYPO_YAML);
    let j = invalid(&env, "plan.yaml", "json").json();
    let i = issue(&j, "unknown_tool");
    let (start, end) = pos(i);
    // `      tool:   'tickets_gett'` on line 20: the quoted scalar, not the
    // key, the node or the file start.
    assert_eq!(start, (20, 15));
    assert_eq!(start, line_col(TYPO_YAML, "'tickets_gett'"));
    assert_eq!(slice(TYPO_YAML, start, end), "'tickets_gett'");
    let g = invalid(&env, "plan.yaml", "github");
    assert!(
        g.stdout.starts_with(
            "::error file=plan.yaml,line=20,col=15,endLine=20,endColumn=29,title=unknown_tool::"
        ),
        "{}",
        g.stdout
    );
}

#[test]
fn three_different_blocking_problems_are_all_reported() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let mut d = typo_doc(); // unknown_tool
    d["nodes"][1]["definition"]
        .as_object_mut()
        .unwrap()
        .remove("replaySafe"); // missing_replay_safe
    d["edges"][1]["handle"] = json!("match"); // invalid_handle
    let text = pretty(&d);
    env.write("plan.json", &text);
    let out = env
        .out(&["validate", "plan.json", "--registry", "registry.yaml"])
        .code(1);
    for code in ["unknown_tool", "missing_replay_safe", "invalid_handle"] {
        assert!(
            out.stderr.contains(&format!("error[{code}]")),
            "{code}: {}",
            out.stderr
        );
    }
    assert_eq!(out.stdout, "plan.json: invalid (3 blocking, 0 advisory)\n");
    let j = invalid(&env, "plan.json", "json").json();
    assert_eq!(j["formatVersion"], 1);
    assert_eq!(j["valid"], false);
    assert_eq!(j["blocking"], 3);
    assert_eq!(j["advisory"], 0);
    let h = issue(&j, "invalid_handle");
    assert_eq!(h["edgeId"], "e2");
    assert_eq!(h["pointer"], "/edges/1/handle");
    let (s, e) = pos(h);
    assert_eq!(slice(&text, s, e), "\"match\"");
    // A missing field is placed at the object that lacks it.
    let m = issue(&j, "missing_replay_safe");
    assert_eq!(m["pointer"], "/nodes/1/definition/replaySafe");
    let (s, e) = pos(m);
    assert!(slice(&text, s, e).starts_with('{'));
    assert!(slice(&text, s, e).contains("\"tool\": \"tickets_get\""));
}

#[test]
fn import_findings_digest_and_stdin() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let mut d = clean_doc();
    d["edges"].as_array_mut().unwrap().extend([
        json!({"id": "e1", "from": "start", "to": "tell", "handle": "always"}),
        json!({"id": "e9", "from": "tell", "to": "ghost", "handle": "always"}),
    ]);
    d["digest"] = json!("0000");
    let text = pretty(&d);
    let j = env
        .out_with_stdin(
            &[
                "validate",
                "-",
                "--registry",
                "registry.yaml",
                "--format",
                "json",
            ],
            &text,
        )
        .code(1)
        .json();
    let codes: Vec<&str> = j["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap())
        .collect();
    for c in ["duplicate_edge_id", "dangling_edge", "digest_mismatch"] {
        assert!(codes.contains(&c), "{c}: {codes:?}");
    }
    let dm = issue(&j, "digest_mismatch");
    assert_eq!(dm["severity"], "blocking");
    assert_eq!(dm["pointer"], "/digest");
    assert_eq!(dm["file"], "<stdin>");
    let (s, e) = pos(dm);
    assert_eq!(slice(&text, s, e), "\"0000\"");
    let dup = issue(&j, "duplicate_edge_id");
    assert_eq!(dup["pointer"], "/edges/2");
    let dangling = issue(&j, "dangling_edge");
    assert_eq!(dangling["severity"], "advisory");
}

#[test]
fn unreadable_input_exits_two_with_its_place() {
    let env = Env::empty();
    let bad = env.write("bad.yaml", "nodes:\n  - {id: a, kind: cal}\n");
    let out = env.out(&["validate", bad.to_str().unwrap()]).code(2);
    assert!(out.stderr.contains("unknown kind `cal`"), "{}", out.stderr);
    // The same `file:line:col` form as findings.
    assert!(
        out.stderr
            .contains(&format!("  --> {}:2:19", bad.to_str().unwrap())),
        "{}",
        out.stderr
    );
    let j = env
        .out(&["validate", "missing.json", "--format", "json"])
        .code(2)
        .json();
    assert_eq!(j["issues"][0]["code"], "invalid_document");
    assert_eq!(j["issues"][0]["file"], "missing.json");
    // A malformed --registry names the key.
    env.write("reg.yaml", "tools:\n  x: {returns: txt}\n");
    env.write("plan.json", &pretty(&clean_doc()));
    let out = env
        .out(&["validate", "plan.json", "--registry", "reg.yaml"])
        .code(2);
    assert!(out.stderr.contains("/tools/x/returns"), "{}", out.stderr);
}

#[test]
fn a_stored_plans_dangling_edge_names_the_near_miss() {
    // An edge to a near miss of a node, kept by the import as a dropped
    // edge of the stored plan: its finding has the did-you-mean and the fix
    // that connects to that node, as a document's has.
    let env = Env::with_store();
    // With a blocking finding too, so that the text lists every finding.
    let mut d = typo_doc();
    d["planId"] = json!("plan-dangling");
    d["edges"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "e3", "from": "tell", "to": "fech", "handle": "always"}));
    env.write("dangling.json", &pretty(&d));
    env.out(&["import", "dangling.json"]).code(0);
    let j = env
        .out(&["validate", "plan-dangling", "--format", "json"])
        .json();
    let i = issue(&j, "dangling_edge");
    assert!(
        i["message"]
            .as_str()
            .unwrap()
            .ends_with("; did you mean `fetch`?"),
        "{i}"
    );
    assert_eq!(i["fix"]["action"], "connect");
    assert_eq!(
        (&i["fix"]["from"], &i["fix"]["to"]),
        (&json!("tell"), &json!("fetch"))
    );
    let out = env.out(&["validate", "plan-dangling"]).code(1);
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(
        all.contains(
            "help: planforge connect tell fetch --handle always (if `fetch` is the node meant)"
        ),
        "{all}"
    );
}

#[test]
fn stored_plans_current_ids_all_and_unknown_ids() {
    let env = Env::with_store();
    env.write("good.json", &pretty(&clean_doc()));
    let mut bad = typo_doc();
    bad["planId"] = json!("plan-bad");
    env.write("bad.json", &pretty(&bad));
    env.out(&["import", "good.json"]).code(0);
    env.out(&["import", "bad.json"]).code(0);

    // No ARG: the current plan (the last import).
    let out = env.out(&["validate"]).code(1);
    assert_eq!(
        out.stdout,
        "plans/plan-bad/ops.jsonl: invalid (1 blocking, 0 advisory)\n"
    );
    // Positions are in the plan's op log, at the value in the op that set
    // it (the import's add_node of `tell`); the pointer is the issue's own.
    let log = std::fs::read_to_string(env.path("plans/plan-bad/ops.jsonl")).unwrap();
    let j = env
        .out(&["validate", "plan-bad", "--format", "json"])
        .code(1)
        .json();
    let i = issue(&j, "unknown_tool");
    assert_eq!(i["file"], "plans/plan-bad/ops.jsonl");
    assert_eq!(i["planId"], "plan-bad");
    assert_eq!(i["pointer"], "/definition/tool");
    let (s, e) = pos(i);
    assert_eq!(slice(&log, s, e), "\"tickets_gett\"");
    let line = log.lines().nth(s.0 - 1).unwrap();
    assert!(
        line.contains("\"op\":\"add_node\"") && line.contains("\"id\":\"tell\""),
        "{line}"
    );
    assert!(
        out.stderr
            .contains(&format!("  --> plans/plan-bad/ops.jsonl:{}:{} ", s.0, s.1)),
        "{}",
        out.stderr
    );

    env.out(&["validate", "plan-triage"]).code(0);
    let all = env.out(&["validate", "--all"]).code(1);
    assert_eq!(
        all.stdout,
        "plans/plan-bad/ops.jsonl: invalid (1 blocking, 0 advisory)\nplans/plan-triage/ops.jsonl: valid (0 blocking, 0 advisory)\n2 checked, 1 invalid: 1 blocking, 0 advisory\n"
    );
    let out = env.out(&["validate", "plan-nope"]).code(2);
    assert!(
        out.stderr.contains("error[invalid_document]"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("plan-nope"), "{}", out.stderr);
    // Documents and ids mix, in the order given; a document uses the
    // store's registry when there is no --registry.
    let mix = env.out(&["validate", "bad.json", "plan-triage"]).code(1);
    assert_eq!(
        mix.stdout,
        "bad.json: invalid (1 blocking, 0 advisory)\nplans/plan-triage/ops.jsonl: valid (0 blocking, 0 advisory)\n2 checked, 1 invalid: 1 blocking, 0 advisory\n"
    );
    // -q drops the summary, never the findings.
    let q = env.out(&["validate", "-q", "--all"]).code(1);
    assert_eq!(q.stdout, "");
    assert!(q.stderr.contains("error[unknown_tool]"), "{}", q.stderr);
}

#[test]
fn text_format_is_terminal_independent() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    env.write("plan.json", &pretty(&typo_doc()));
    let args = ["validate", "plan.json", "--registry", "registry.yaml"];
    let plain = env.out(&args);
    // --color always without a terminal: colour, still not the graphical report.
    let mut coloured = args.to_vec();
    coloured.extend(["--color", "always"]);
    let c = env.out(&coloured);
    assert!(c.stderr.contains('\u{1b}'));
    assert!(!c.stderr.contains('╭'));
    let stripped: String = {
        let mut s = String::new();
        let mut it = c.stderr.chars();
        while let Some(ch) = it.next() {
            if ch == '\u{1b}' {
                for x in it.by_ref() {
                    if x == 'm' {
                        break;
                    }
                }
            } else {
                s.push(ch);
            }
        }
        s
    };
    assert_eq!(stripped, plain.stderr);
}

// ------------------------------------------------------------------ SARIF

/// The SARIF 2.1.0 properties a consumer relies on, checked structurally
/// (the required properties of sarifLog, run, tool, toolComponent,
/// reportingDescriptor, result, message, location, physicalLocation,
/// artifactLocation, region, invocation and notification, and the enums).
fn check_sarif(s: &Value) {
    let obj = |v: &Value, what: &str| {
        assert!(v.is_object(), "{what} must be an object: {v}");
    };
    let message = |m: &Value, what: &str| {
        obj(m, what);
        assert!(
            m["text"].is_string() || m["id"].is_string(),
            "{what} needs text or id"
        );
    };
    obj(s, "sarifLog");
    assert_eq!(s["version"], "2.1.0");
    assert!(s["$schema"].as_str().unwrap().starts_with("https://"));
    let runs = s["runs"].as_array().expect("runs is an array");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    obj(run, "run");
    let driver = &run["tool"]["driver"];
    obj(driver, "tool.driver");
    assert!(driver["name"].is_string(), "driver.name is required");
    assert!(
        driver["informationUri"]
            .as_str()
            .is_some_and(|u| u.starts_with("https://") && u.ends_with("/README.md")),
        "driver.informationUri names the README"
    );
    assert_eq!(run["automationDetails"]["id"], "planforge/validate/");
    assert_eq!(run["columnKind"], "unicodeCodePoints");
    let rules = driver["rules"].as_array().expect("rules");
    let mut ids = std::collections::HashSet::new();
    for r in rules {
        let id = r["id"]
            .as_str()
            .expect("reportingDescriptor.id is required");
        assert!(ids.insert(id), "rule {id} twice");
        // PascalCase of the id, and never the id itself, case aside (the
        // SARIF Multitool's SARIF1001): `cycle` is `CycleInPlan`.
        let name = r["name"].as_str().unwrap_or_default();
        assert!(
            name.starts_with(&pascal_case(id)) && !name.eq_ignore_ascii_case(id),
            "{id} name {name}"
        );
        assert!(
            r["helpUri"].as_str().is_some_and(
                |u| u.starts_with("https://") && u.ends_with(&format!("/docs/codes/{id}.md"))
            ),
            "{id} helpUri"
        );
        message(&r["shortDescription"], "shortDescription");
        message(&r["fullDescription"], "fullDescription");
        message(&r["help"], "help");
        assert!(!r["help"]["text"].as_str().unwrap().is_empty(), "{id} help");
        let level = r["defaultConfiguration"]["level"].as_str().unwrap();
        assert!(["none", "note", "warning", "error"].contains(&level));
    }
    for inv in run["invocations"].as_array().unwrap() {
        assert!(inv["executionSuccessful"].is_boolean());
        for n in inv["toolExecutionNotifications"].as_array().unwrap() {
            message(&n["message"], "notification.message");
        }
    }
    for res in run["results"].as_array().expect("results") {
        message(&res["message"], "result.message");
        let rule_id = res["ruleId"].as_str().expect("ruleId");
        let print = res["partialFingerprints"]["planforgeFinding/v1"]
            .as_str()
            .unwrap_or_else(|| panic!("{rule_id}: partialFingerprints"));
        assert!(
            print.len() == 64 && print.bytes().all(|b| b.is_ascii_hexdigit()),
            "{print}"
        );
        let ix = res["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[ix]["id"], rule_id, "ruleIndex points at its rule");
        let level = res["level"].as_str().unwrap();
        assert!(["none", "note", "warning", "error"].contains(&level));
        let locs = res["locations"].as_array().unwrap();
        assert!(!locs.is_empty());
        for l in locs {
            let p = &l["physicalLocation"];
            obj(p, "physicalLocation");
            let uri = p["artifactLocation"]["uri"].as_str().expect("uri");
            assert!(!uri.is_empty() && !uri.contains(' ') && !uri.contains('\\'));
            let r = &p["region"];
            let n = |k: &str| r[k].as_u64().unwrap_or_else(|| panic!("region.{k}"));
            assert!(n("startLine") >= 1 && n("startColumn") >= 1);
            assert!(n("endLine") >= n("startLine"));
            if n("endLine") == n("startLine") {
                assert!(n("endColumn") >= n("startColumn"));
            }
        }
    }
}

#[test]
fn sarif_is_structurally_valid_and_points_at_the_right_lines() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let mut d = typo_doc();
    d["edges"][1]["handle"] = json!("match");
    let text = pretty(&d);
    env.write("plan.json", &text);
    env.write("plan.yaml", TYPO_YAML);
    let out = env
        .out(&[
            "validate",
            "plan.json",
            "plan.yaml",
            "--registry",
            "registry.yaml",
            "--format",
            "sarif",
        ])
        .code(1);
    let s = out.json();
    check_sarif(&s);
    let run = &s["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), planforge::check::CHECKS.len());
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for r in results {
        let p = &r["locations"][0]["physicalLocation"];
        let file = p["artifactLocation"]["uri"].as_str().unwrap();
        let body = std::fs::read_to_string(env.root.join(file)).unwrap();
        let g = &p["region"];
        let n = |k: &str| g[k].as_u64().unwrap() as usize;
        let got = slice(
            &body,
            (n("startLine"), n("startColumn")),
            (n("endLine"), n("endColumn")),
        );
        let want = match r["ruleId"].as_str().unwrap() {
            "unknown_tool" if file == "plan.json" => "\"tickets_gett\"",
            "unknown_tool" => "'tickets_gett'",
            "invalid_handle" => "\"match\"",
            other => panic!("unexpected {other}"),
        };
        assert_eq!(got, want, "{r:#}");
        assert_eq!(r["level"], "error");
    }
    // Skipped checks become notifications.
    let env2 = Env::empty();
    env2.write("plan.json", &text);
    let s = env2
        .out(&["validate", "plan.json", "--format", "sarif"])
        .code(1)
        .json();
    check_sarif(&s);
    let notes = s["runs"][0]["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap();
    assert!(
        notes[0]["message"]["text"]
            .as_str()
            .unwrap()
            .contains("unknown_tool")
    );
}

#[test]
fn github_format_escapes_and_marks_advisories_as_warnings() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let mut d = clean_doc();
    // An advisory (a `$ref` look-alike) whose message holds a comma and a colon.
    d["nodes"][1]["definition"]["args"]["x"] = json!({"$ref": {"node": "start"}, "note": "50%"});
    env.write("odd, name.json", &pretty(&d));
    let out = env
        .out(&[
            "validate",
            "odd, name.json",
            "--registry",
            "registry.yaml",
            "--format",
            "github",
        ])
        .code(0);
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("title=ref_lookalike"))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(
        line.starts_with("::warning file=odd%2C name.json,line="),
        "{line}"
    );
    let message = line.split_once("::").unwrap().1.split_once("::").unwrap().1;
    assert!(!message.contains('\n'));
    assert!(out.stderr.is_empty(), "{}", out.stderr);
}

// ------------------------------------------------------- freeze and submit

#[test]
fn freeze_and_submit_refusals_are_drawn_on_stderr() {
    let env = Env::with_store();
    env.write("bad.json", &pretty(&typo_doc()));
    env.out(&["import", "bad.json"]).code(0);
    // Drawn at the value in the plan's op log.
    let log = std::fs::read_to_string(env.path("plans/plan-triage/ops.jsonl")).unwrap();
    let (l, c) = line_col(&log, "\"tickets_gett\"");
    for cmd in [&["freeze"][..], &["submit", "--yes"][..]] {
        let out = env.out(cmd).code(1);
        assert!(
            out.stderr.starts_with("error[unknown_tool]: call `tell`"),
            "{cmd:?}: {}",
            out.stderr
        );
        assert!(
            out.stderr.contains(&format!(
                "  --> plans/plan-triage/ops.jsonl:{l}:{c} (at /definition/tool)"
            )),
            "{}",
            out.stderr
        );
        // The stdout summary stays.
        assert!(
            out.stdout.contains("(blocking) unknown_tool [node tell]"),
            "{}",
            out.stdout
        );
        // JSON is unchanged: one document, nothing on stderr.
        let mut json_cmd = cmd.to_vec();
        json_cmd.extend(["--format", "json"]);
        let j = env.out(&json_cmd).code(1);
        assert!(j.stderr.is_empty(), "{}", j.stderr);
        assert_eq!(j.json()["issues"][0]["code"], "unknown_tool");
    }
}

/// A `torn_tail` note is placed on the first line of the unfinished
/// transaction its message names, not on the log's first line.
#[test]
fn a_torn_tail_is_placed_on_the_line_its_message_names() {
    let env = Env::with_store();
    env.write("bad.json", &pretty(&typo_doc()));
    env.out(&["import", "bad.json"]).code(0);
    env.out(&["add-node", "extra_one", "--kind", "join"])
        .code(0);
    env.out(&["add-node", "extra_two", "--kind", "join"])
        .code(0);
    let path = env.path("plans/plan-triage/ops.jsonl");
    let log = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<&str> = log.lines().collect();
    let n = lines.len() - 1;
    let open = lines[n - 1].replace("\"txEnd\":true,", "");
    assert_ne!(
        open,
        lines[n - 1],
        "the add-node line closes its transaction"
    );
    lines[n - 1] = &open;
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let j = env.out(&["validate", "--format", "json"]).json();
    let torn = issue(&j, "torn_tail");
    let named = format!("(line {n} of ops.jsonl)");
    assert!(torn["message"].as_str().unwrap().contains(&named), "{torn}");
    assert_eq!(
        (&torn["line"], &torn["column"]),
        (&json!(n), &json!(1)),
        "{torn}"
    );
    assert_eq!(torn["endLine"], json!(n), "{torn}");

    // The last write cut in the middle of its line: the cut line.
    let last = lines.len();
    let whole: &str = lines[last - 1];
    lines[last - 1] = &whole[..whole.len() / 2];
    lines[n - 1] = log.lines().nth(n - 1).unwrap();
    std::fs::write(&path, lines.join("\n")).unwrap();
    let j = env.out(&["validate", "--format", "json"]).json();
    let torn = issue(&j, "torn_tail");
    let named = format!("(line {last} of ops.jsonl)");
    assert!(torn["message"].as_str().unwrap().contains(&named), "{torn}");
    assert_eq!(
        (&torn["line"], &torn["column"], &torn["endLine"]),
        (&json!(last), &json!(1), &json!(last)),
        "{torn}"
    );
}

// ------------------------------------------------------------------ explain

#[test]
fn explain_answers_for_every_code_validate_can_print() {
    let env = Env::empty();
    for c in planforge::check::CHECKS {
        let out = env.out(&["explain", c.code().name]).code(0);
        let head = format!(
            "# {} ({})\n\n## What it finds\n",
            c.code(),
            c.code().severity.as_str()
        );
        assert!(out.stdout.starts_with(&head), "{}", out.stdout);
        for s in ["## Why it matters", "## How to fix", "## Example"] {
            assert!(out.stdout.contains(s), "{}: {s}", c.code());
        }
    }
    let j = env
        .out(&["explain", "--all", "--format", "json"])
        .code(0)
        .json();
    let codes: Vec<&str> = j["codes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect();
    let all: Vec<&str> = planforge::check::CHECKS
        .iter()
        .map(|c| c.code().name)
        .collect();
    assert_eq!(codes, all);
    for c in j["codes"].as_array().unwrap() {
        for k in ["severity", "summary", "explanation", "source"] {
            assert!(
                c[k].as_str().is_some_and(|s| !s.is_empty()),
                "{k} of {}",
                c["code"]
            );
        }
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(c["source"].as_str().unwrap())
                .is_file()
        );
    }
    let text = env.out(&["explain", "--all"]).code(0).stdout;
    assert_eq!(text.matches("\n## How to fix\n").count(), all.len());
}

#[test]
fn explain_json_and_unknown_codes() {
    let env = Env::empty();
    let j = env
        .out(&["explain", "unknown_tool", "--format", "json"])
        .code(0)
        .json();
    assert_eq!(j["code"], "unknown_tool");
    assert_eq!(j["severity"], "blocking");
    assert_eq!(j["source"], "src/check/unknown_tool.rs");
    assert!(
        j["summary"]
            .as_str()
            .unwrap()
            .starts_with("A call whose `tool` is not in the registry")
    );
    assert!(
        j["explanation"]
            .as_str()
            .unwrap()
            .starts_with("## What it finds\n")
    );

    // The topic `orchestrate`: seed 003's steps, failure classes and Output
    // fields with what carries each, read from docs/orchestration.md.
    let out = env.out(&["explain", "orchestrate"]).code(0);
    for line in [
        "## The procedure",
        "6. Owner-verify every artifact",
        "## The failure classes",
        "partial landing",
        "## The Output contract",
        "rollback state",
        "## Which decompositions select which row",
    ] {
        assert!(out.stdout.contains(line), "{line}: {}", out.stdout);
    }
    let j = env
        .out(&["explain", "orchestrate", "--format", "json"])
        .code(0)
        .json();
    assert_eq!(j["source"], "docs/orchestration.md");
    assert_eq!(
        j["tables"][1]["columns"],
        json!(["failure class", "carried by"])
    );
    let docs = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/orchestration.md"
    ))
    .unwrap();
    for row in j["tables"][2]["rows"].as_array().unwrap() {
        let line = format!(
            "| {} | {} |",
            row[0].as_str().unwrap(),
            row[1].as_str().unwrap()
        );
        assert!(docs.contains(&line), "not in the docs: {line}");
    }
    let out = env.out(&["explain", "orchestrat"]).code(2);
    assert!(
        out.stderr.contains("did you mean `orchestrate`?"),
        "{}",
        out.stderr
    );

    let out = env.out(&["explain", "unknown_tol"]).code(2);
    assert!(
        out.stderr.contains(
            "there is no issue code or topic `unknown_tol` (did you mean `unknown_tool`?)"
        ),
        "{}",
        out.stderr
    );
    let j = env
        .out(&["explain", "dangling_edg", "--format", "json"])
        .code(2)
        .json();
    assert!(
        j["error"]["message"]
            .as_str()
            .unwrap()
            .contains("`dangling_edge`")
    );
    env.out(&["explain"]).code(2);
}

#[test]
fn findings_past_the_listing_limit_are_counted_not_listed() {
    let env = Env::empty();
    let nodes: Vec<Value> = (0..30)
        .map(|i| json!({"id": format!("n{i}"), "kind": "call", "definition": {"tool": "t"}}))
        .collect();
    let doc = env.write(
        "many.json",
        &json!({"formatVersion": 1, "nodes": nodes, "edges": []}).to_string(),
    );
    let file = doc.to_str().unwrap();
    let all = env
        .out(&["validate", file, "--format", "json", "--max-findings", "0"])
        .code(1)
        .json();
    let total = all["issues"].as_array().unwrap().len();
    assert!(total > 30, "{total}");
    assert!(all.get("omitted").is_none());
    let some = env
        .out(&["validate", file, "--format", "json", "--max-findings", "7"])
        .code(1)
        .json();
    assert_eq!(some["issues"].as_array().unwrap().len(), 7);
    assert_eq!(some["omitted"].as_u64().unwrap() as usize, total - 7);
    assert_eq!(
        some["blocking"], all["blocking"],
        "counts cover every finding"
    );
    let text = env.out(&["validate", file, "--max-findings", "7"]).code(1);
    assert_eq!(text.stderr.matches("see: planforge explain").count(), 7);
    assert!(
        text.stdout
            .contains(&format!("{} more finding(s)", total - 7)),
        "{}",
        text.stdout
    );
}

/// `validate FILE --registry registry.yaml --format FORMAT` on a plan that
/// must be invalid (exit 1).
fn invalid(env: &Env, file: &str, format: &str) -> Out {
    env.out(&[
        "validate",
        file,
        "--registry",
        "registry.yaml",
        "--format",
        format,
    ])
    .code(1)
}

/// A document with `n` copies of a unit that raises most structural codes
/// at once: several entries, a duplicated edge, shorthand strings and
/// look-alike objects, a missing reference, an island call of an unknown
/// tool with missing fields, a cycle, an edge to a missing node, a bad
/// handle, a bad node id with an unknown key, a reused node id and a reused
/// edge id.
fn broken_units(n: usize) -> Value {
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let e = |id: String, from: String, to: String, handle: &str| json!({"id": id, "from": from, "to": to, "handle": handle});
    for i in 0..n {
        nodes.push(json!({"id": format!("e{i}"), "kind": "entry", "definition": {"input": [{"path": "x", "type": "string"}]}}));
        let mut c = call(&format!("c{i}"), "tickets_get");
        c["definition"]["args"] = json!({
            "id": "42",
            "body": format!("@e{i}.x"),
            "note": {"$ref": {"node": format!("e{i}"), "select": "first", "path": "x"}, "why": 1},
            "miss": {"$ref": {"node": format!("nosuch{i}"), "select": "first"}},
        });
        nodes.push(c);
        nodes.push(
            json!({"id": format!("u{i}"), "kind": "call", "definition": {"tool": "tickets_gett"}}),
        );
        nodes.push(json!({"id": format!("k{i}a"), "kind": "join", "definition": {}}));
        nodes.push(json!({"id": format!("k{i}b"), "kind": "join", "definition": {}}));
        nodes.push(json!({"id": format!("Bad-{i}"), "kind": "join", "definition": {"extra": 1}}));
        nodes.push(json!({"id": format!("dn{i}"), "kind": "join", "definition": {}}));
        nodes.push(json!({"id": format!("dn{i}"), "kind": "reason", "definition": {}}));
        edges.push(e(
            format!("e{i}__c{i}"),
            format!("e{i}"),
            format!("c{i}"),
            "always",
        ));
        edges.push(e(
            format!("e{i}__c{i}_2"),
            format!("e{i}"),
            format!("c{i}"),
            "always",
        ));
        edges.push(e(
            format!("k{i}"),
            format!("k{i}a"),
            format!("k{i}b"),
            "always",
        ));
        edges.push(e(
            format!("k{i}_back"),
            format!("k{i}b"),
            format!("k{i}a"),
            "always",
        ));
        edges.push(e(
            format!("g{i}"),
            format!("c{i}"),
            format!("gone{i}"),
            "always",
        ));
        edges.push(e(
            format!("h{i}"),
            format!("u{i}"),
            format!("k{i}a"),
            "alwys",
        ));
        edges.push(e(
            format!("de{i}"),
            format!("dn{i}"),
            format!("k{i}a"),
            "always",
        ));
        edges.push(e(
            format!("de{i}"),
            format!("dn{i}"),
            format!("k{i}b"),
            "always",
        ));
    }
    json!({"formatVersion": 1, "planId": "plan-many", "nodes": nodes, "edges": edges})
}

/// A document with one entry and no cycle, so the route, ancestry and taint
/// checks run: per unit, a call passing the run input to its tool, a call
/// reading a sibling that does not run before it, and a join with one
/// route into it.
fn routed_units(n: usize) -> Value {
    let mut nodes = vec![
        json!({"id": "start", "kind": "entry", "definition": {"input": [{"path": "q", "type": "string"}]}}),
    ];
    let mut edges = Vec::new();
    let r =
        |node: &str, path: &str| json!({"$ref": {"node": node, "select": "first", "path": path}});
    for i in 0..n {
        let (t, s, rd, j) = (
            format!("t{i}"),
            format!("s{i}"),
            format!("r{i}"),
            format!("j{i}"),
        );
        let mut tc = call(&t, "tickets_get");
        tc["definition"]["args"] = json!({"id": r("start", "q")});
        let mut rc = call(&rd, "tickets_get");
        rc["definition"]["args"] = json!({"id": r(&s, "body")});
        nodes.extend([tc, call(&s, "tickets_get"), rc]);
        nodes.push(json!({"id": j, "kind": "join", "definition": {}}));
        for (from, to) in [("start", &t), ("start", &s), ("start", &rd), (&t, &j)] {
            edges.push(
                json!({"id": format!("{from}__{to}"), "from": from, "to": to, "handle": "always"}),
            );
        }
    }
    json!({"formatVersion": 1, "planId": "plan-routed", "nodes": nodes, "edges": edges})
}

/// Address space one `validate` of a generated document may use.
const MANY_MEMORY_LIMIT: u64 = 2 * 1024 * 1024 * 1024;
/// The longest message any finding may have, whatever the plan's size.
const MESSAGE_CAP: usize = 1200;

/// `validate FILE --registry registry.yaml --format FORMAT --max-findings 0`
/// under `prlimit --as`, as (exit code, stdout + stderr bytes, stdout).
fn validate_limited(env: &Env, file: &Path, format: &str) -> (i32, usize, String) {
    let mut c = std::process::Command::new("prlimit");
    env.configure(&mut c);
    c.arg(format!("--as={MANY_MEMORY_LIMIT}"))
        .arg("--")
        .arg(common::bin())
        .args([
            "validate",
            file.to_str().unwrap(),
            "--registry",
            "registry.yaml",
        ])
        .args(["--format", format, "--max-findings", "0"])
        .stdin(std::process::Stdio::null());
    let out = c
        .output()
        .expect("`prlimit` (util-linux) is needed to bound memory; install it");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let code = out.status.code().unwrap_or(-1);
    (code, stdout.len() + out.stderr.len(), stdout)
}

/// Codes and their counts in `validate --format json` output.
fn code_counts(j: &Value) -> std::collections::BTreeMap<String, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for i in j["issues"].as_array().unwrap() {
        *counts
            .entry(i["code"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
    }
    counts
}

/// Issue 13, item 4: every code that can fire many times fires thousands of
/// times on a generated document, every message stays under a fixed cap,
/// and the output at 2N is at most 2.2× the output at N (as text and as
/// JSON), under a memory limit.
/// A generated document: its name, its generator, the codes it must fire.
type Case = (&'static str, fn(usize) -> Value, &'static [&'static str]);

#[test]
fn output_grows_linearly_when_every_code_fires_thousands_of_times() {
    const N: usize = 1000;
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let cases: [Case; 2] = [
        (
            "broken",
            broken_units,
            &[
                "multiple_entries",
                "cycle",
                "invalid_node_id",
                "duplicate_edge_id",
                "duplicate_node_id",
                "duplicate_edge",
                "invalid_handle",
                "unreachable_node",
                "unreachable_call",
                "missing_reference",
                "unknown_tool",
                "missing_field",
                "unknown_field",
                "ref_lookalike",
                "dangling_edge",
            ],
        ),
        (
            "routed",
            routed_units,
            &[
                "tainted_call_arg",
                "reference_not_upstream",
                "join_not_diamond",
            ],
        ),
    ];
    for (name, generate, must_fire) in cases {
        let mut bytes = Vec::new();
        let mut counts = Vec::new();
        for n in [N, 2 * N] {
            let file = env.write(&format!("{name}{n}.json"), &generate(n).to_string());
            let (code, json_bytes, stdout) = validate_limited(&env, &file, "json");
            assert_eq!(
                code,
                1,
                "{name} at {n}: {}",
                &stdout[..stdout.len().min(2000)]
            );
            let j: Value = serde_json::from_str(&stdout).unwrap();
            for i in j["issues"].as_array().unwrap() {
                let m = i["message"].as_str().unwrap();
                assert!(m.len() <= MESSAGE_CAP, "{name}: {} bytes: {m}", m.len());
            }
            let (code, text_bytes, _) = validate_limited(&env, &file, "text");
            assert_eq!(code, 1, "{name} at {n} (text)");
            bytes.push((json_bytes, text_bytes));
            counts.push(code_counts(&j));
        }
        for code in must_fire {
            let at_n = counts[0].get(*code).copied().unwrap_or(0);
            // Every entry but the first is reported.
            assert!(
                at_n >= N - 1,
                "{name}: {code} fired {at_n} times: {:?}",
                counts[0]
            );
        }
        for (code, &at_n) in &counts[0] {
            let at_2n = counts[1].get(code).copied().unwrap_or(0);
            assert!(at_2n <= 2 * at_n + 2, "{name}: {code} {at_n} → {at_2n}");
        }
        let ((j1, t1), (j2, t2)) = (bytes[0], bytes[1]);
        assert!(j2 * 10 <= j1 * 22, "{name}: JSON {j1} → {j2} bytes");
        assert!(t2 * 10 <= t1 * 22, "{name}: text {t1} → {t2} bytes");
    }
}

/// start → c1 → … → c40, with `c10` missing: c11 … c40 cannot be reached.
fn broken_chain() -> Value {
    let mut nodes = vec![json!({"id": "start", "kind": "entry", "definition": {"input": []}})];
    let mut edges = Vec::new();
    let mut prev = "start".to_string();
    for i in 1..=40 {
        let id = format!("c{i}");
        if i != 10 {
            nodes.push(call(&id, "tickets_get"));
            edges.push(json!({"id": format!("e{i}"), "from": prev, "to": id, "handle": "always"}));
        }
        prev = id;
    }
    json!({"formatVersion": 1, "planId": "plan-chain", "nodes": nodes, "edges": edges})
}

// Findings that follow from one break are one group in prose, and every
// one of them is still in JSON and SARIF, naming the finding it follows
// from.
#[test]
fn findings_that_follow_from_one_break_are_one_group() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    env.write("chain.json", &pretty(&broken_chain()));
    let j = invalid(&env, "chain.json", "json").json();
    let issues = j["targets"][0]["issues"]
        .as_array()
        .or_else(|| j["issues"].as_array())
        .unwrap_or_else(|| panic!("{j}"))
        .clone();
    let unreachable: Vec<&Value> = issues
        .iter()
        .filter(|i| i["code"] == "unreachable_node")
        .collect();
    // `c11` … `c40`, plus `e10`'s dangling end is not a node: 30 nodes.
    assert_eq!(unreachable.len(), 30, "every finding keeps its identity");
    let head: Vec<&&Value> = unreachable
        .iter()
        .filter(|i| i.get("cause").is_none())
        .collect();
    assert_eq!(head.len(), 1, "one head: {head:?}");
    assert_eq!(head[0]["nodeId"], "c11");
    let message = head[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("30 nodes cannot be reached") && message.contains("`c11`"),
        "{message}"
    );
    for i in unreachable.iter().filter(|i| i["nodeId"] != "c11") {
        assert_eq!(
            i["cause"],
            json!({"code": "unreachable_node", "nodeId": "c11"}),
            "{i}"
        );
    }
    let calls: Vec<&Value> = issues
        .iter()
        .filter(|i| i["code"] == "unreachable_call")
        .collect();
    assert_eq!(calls.len(), 30);
    assert!(
        calls
            .iter()
            .all(|c| c["cause"]["code"] == "unreachable_node"),
        "{calls:?}"
    );
    // SARIF keeps every result, with the cause in its properties.
    let sarif = invalid(&env, "chain.json", "sarif").json();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let caused = results
        .iter()
        .filter(|r| r["properties"]["cause"]["ruleId"] == "unreachable_node")
        .count();
    assert_eq!(caused, 29 + 30, "{caused}");
    // Text draws one diagnostic for the group, which counts what follows.
    let text = invalid(&env, "chain.json", "text");
    assert_eq!(
        text.stderr.matches("[unreachable_node]").count(),
        1,
        "{}",
        text.stderr
    );
    assert_eq!(
        text.stderr.matches("[unreachable_call]").count(),
        0,
        "{}",
        text.stderr
    );
    assert!(
        text.stderr.contains(
            "and 59 more finding(s) follow from it: 29 unreachable_node, 30 unreachable_call"
        ),
        "{}",
        text.stderr
    );
}

// ------------------------------------------------ every input, as CI passes them

/// A folder with `good.json` (clean), `bad.json` (an unknown tool),
/// `syntax.json` (not JSON at line 3) and a registry; `missing.json` is not
/// there.
fn four_inputs() -> Env {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    env.write("good.json", &pretty(&clean_doc()));
    env.write("bad.json", &pretty(&typo_doc()));
    env.write(
        "syntax.json",
        "{\"formatVersion\": 1,\n  \"nodes\": [\n,]\n}\n",
    );
    env
}

/// Writes `text` to `name`, making its folders.
fn put(env: &Env, name: &str, text: &str) {
    let p = env.path(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const FOUR: [&str; 7] = [
    "validate",
    "good.json",
    "bad.json",
    "missing.json",
    "syntax.json",
    "--registry",
    "registry.yaml",
];

fn four(env: &Env, extra: &[&str]) -> Out {
    let mut args = FOUR.to_vec();
    args.extend(extra);
    env.out(&args)
}

#[test]
fn every_input_is_checked_and_input_errors_are_results_in_every_format() {
    let env = four_inputs();
    // JSON: one shape for findings and input errors, a verdict per file.
    let j = four(&env, &["--format", "json"]).code(2).json();
    assert_eq!(j["checked"], 4);
    assert_eq!(j["inputErrors"], 2);
    let verdicts: Vec<(&str, &str)> = j["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["file"].as_str().unwrap(), f["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("good.json", "valid"),
            ("bad.json", "invalid"),
            ("missing.json", "error"),
            ("syntax.json", "error")
        ]
    );
    let issues = j["issues"].as_array().unwrap();
    let by_file = |f: &str| -> Vec<&Value> { issues.iter().filter(|i| i["file"] == f).collect() };
    assert_eq!(by_file("bad.json")[0]["code"], "unknown_tool");
    let missing = by_file("missing.json");
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0]["code"], "invalid_document");
    assert_eq!(missing[0]["severity"], "blocking");
    let syntax = by_file("syntax.json");
    assert_eq!(syntax[0]["code"], "invalid_document");
    assert_eq!(
        (&syntax[0]["line"], &syntax[0]["column"]),
        (&json!(3), &json!(1))
    );
    for i in issues {
        for k in [
            "code", "severity", "message", "file", "line", "column", "pointer",
        ] {
            assert!(i.get(k).is_some(), "{k} in {i}");
        }
    }

    // SARIF: valid, with a result (and a region) for every problem file.
    let sarif = four(&env, &["--format", "sarif"]).code(2);
    let s = sarif.json();
    check_sarif(&s);
    let results = s["runs"][0]["results"].as_array().unwrap();
    let located = |uri: &str| {
        results
            .iter()
            .filter(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == uri)
            .map(|r| r["ruleId"].as_str().unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(located("bad.json"), ["unknown_tool"]);
    assert_eq!(located("missing.json"), ["invalid_document"]);
    assert_eq!(located("syntax.json"), ["invalid_document"]);
    let syn = results
        .iter()
        .find(|r| r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "syntax.json")
        .unwrap();
    assert_eq!(
        syn["locations"][0]["physicalLocation"]["region"]["startLine"],
        3
    );

    // GitHub: an annotation per problem, input errors included.
    let gh = four(&env, &["--format", "github"]).code(2).stdout;
    let annotations: Vec<&str> = gh.lines().filter(|l| l.starts_with("::error")).collect();
    assert_eq!(annotations.len(), issues.len(), "{gh}");
    assert!(
        gh.contains("::error file=missing.json,title=invalid_document::"),
        "{gh}"
    );
    assert!(
        gh.contains(
            "::error file=syntax.json,line=3,col=1,endLine=3,endColumn=2,title=invalid_document::"
        ),
        "{gh}"
    );

    // Text: input errors are drawn as findings are, `file:line:col`.
    let text = four(&env, &[]).code(2);
    assert!(
        text.stderr.contains("error[invalid_document]"),
        "{}",
        text.stderr
    );
    assert!(
        text.stderr.contains("  --> syntax.json:3:1\n"),
        "{}",
        text.stderr
    );
    assert!(
        text.stderr.contains("  --> missing.json\n"),
        "{}",
        text.stderr
    );
    assert!(
        text.stderr.contains("error[unknown_tool]"),
        "{}",
        text.stderr
    );
    assert!(
        text.stdout.contains("missing.json: error"),
        "{}",
        text.stdout
    );

    // -q drops prose only: SARIF and annotations are whole, findings drawn.
    assert_eq!(
        four(&env, &["-q", "--format", "sarif"]).code(2).stdout,
        sarif.stdout
    );
    assert_eq!(four(&env, &["-q", "--format", "github"]).code(2).stdout, gh);
    let q = four(&env, &["-q"]).code(2);
    assert_eq!(q.stdout, "");
    assert!(q.stderr.contains("error[unknown_tool]"), "{}", q.stderr);
    assert!(q.stderr.contains("error[invalid_document]"), "{}", q.stderr);
    assert!(!q.stderr.contains("note:"), "{}", q.stderr);
    let qj = four(&env, &["-q", "--format", "json"]).code(2).json();
    assert_eq!(qj["issues"], j["issues"]);

    // An unknown plan id is an input error too, beside documents.
    put(&env, "plans/registry.yaml", REGISTRY);
    let j = env
        .out(&["validate", "good.json", "plan-nope", "--format", "json"])
        .code(2)
        .json();
    assert_eq!(j["files"][0]["verdict"], "valid");
    assert_eq!(j["files"][1]["verdict"], "error");
    assert_eq!(j["issues"][0]["code"], "invalid_document");
    assert_eq!(j["issues"][0]["file"], "plan-nope");
}

#[test]
fn fail_on_and_exit_zero_choose_what_fails_the_run() {
    let env = four_inputs();
    // Only an advisory: a dropped edge.
    let mut d = clean_doc();
    d["edges"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "e9", "from": "tell", "to": "ghost", "handle": "always"}));
    env.write("advisory.json", &pretty(&d));
    let reg = ["--registry", "registry.yaml"];
    let run = |extra: &[&str]| {
        let mut args = vec!["validate"];
        args.extend(extra);
        args.extend(reg);
        env.out(&args).code
    };
    assert_eq!(run(&["advisory.json"]), 0);
    assert_eq!(run(&["advisory.json", "--fail-on", "blocking"]), 0);
    assert_eq!(run(&["advisory.json", "--fail-on", "advisory"]), 1);
    assert_eq!(run(&["bad.json"]), 1);
    assert_eq!(run(&["bad.json", "--fail-on", "never"]), 0);
    assert_eq!(run(&["bad.json", "--exit-zero"]), 0);
    // Input errors: 2 whatever findings fail on, 0 with never (as ruff's
    // --exit-zero), and the report is still complete.
    assert_eq!(
        run(&["bad.json", "missing.json", "--fail-on", "advisory"]),
        2
    );
    let out = env.out(&[
        "validate",
        "bad.json",
        "missing.json",
        "--exit-zero",
        "--format",
        "json",
    ]);
    assert_eq!(out.code, 0);
    assert_eq!(out.json()["inputErrors"], 1);
    // The alias and the flag are one choice.
    assert_eq!(
        run(&["bad.json", "--exit-zero", "--fail-on", "advisory"]),
        2
    );
}

#[test]
fn directories_globs_and_stdin_as_ci_passes_them() {
    let env = Env::empty();
    put(&env, "registry.yaml", REGISTRY);
    let clean = pretty(&clean_doc());
    put(&env, "docs/plans/a.json", &clean);
    put(&env, "docs/plans/deep/b.yaml", TYPO_YAML);
    put(&env, "docs/plans/notes.txt", "not a plan");
    put(&env, "docs/plans/generated.json", "{ not even json");
    put(&env, "docs/.gitignore", "generated.json\n");
    put(&env, "docs/plans/.hidden/c.json", "{");
    // A store inside is checked by plan id, not as files.
    put(&env, "docs/plans/store/.planforge", "");
    put(&env, "docs/plans/store/registry.yaml", REGISTRY);
    let files = |out: Out| -> Vec<String> {
        out.json()["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["file"].as_str().unwrap().to_string())
            .collect()
    };
    let reg = ["--registry", "registry.yaml", "--format", "json"];
    let mut args = vec!["validate", "docs"];
    args.extend(reg);
    assert_eq!(
        files(env.out(&args).code(1)),
        ["docs/plans/a.json", "docs/plans/deep/b.yaml"]
    );
    // A quoted glob: `*` stays in one folder, `**` crosses them.
    let mut args = vec!["validate", "docs/plans/*.json"];
    args.extend(reg);
    assert_eq!(files(env.out(&args).code(0)), ["docs/plans/a.json"]);
    let mut args = vec!["validate", "docs/**/*.yaml", "docs/plans/a.json"];
    args.extend(reg);
    assert_eq!(
        files(env.out(&args).code(1)),
        ["docs/plans/deep/b.yaml", "docs/plans/a.json"]
    );
    // A file named twice (by a folder and by name) is checked once.
    let mut args = vec!["validate", "docs", "docs/plans/a.json"];
    args.extend(reg);
    assert_eq!(files(env.out(&args).code(1)).len(), 2);
    // A glob or a folder that names nothing is an input error, not a pass.
    let out = env
        .out(&["validate", "nothing/*.json", "--format", "json"])
        .code(2);
    assert_eq!(out.json()["issues"][0]["code"], "invalid_document");
    put(&env, "empty/readme.md", "x");
    env.out(&["validate", "empty"]).code(2);
    // Stdin is named by --stdin-filename (its extension picks the syntax).
    let j = env
        .out_with_stdin(
            &[
                "validate",
                "-",
                "--stdin-filename",
                "docs/x.yaml",
                "--format",
                "json",
            ],
            TYPO_YAML,
        )
        .json();
    assert_eq!(j["files"][0]["file"], "docs/x.yaml");
    let j = env
        .out_with_stdin(&["validate", "-", "--format", "json"], "{")
        .code(2)
        .json();
    assert_eq!(j["issues"][0]["file"], "<stdin>");
}

#[test]
fn output_writes_any_format_to_a_file() {
    let env = four_inputs();
    for format in ["sarif", "json", "github", "text"] {
        let name = format!("report.{format}");
        let out = four(&env, &["--format", format, "-o", &name]).code(2);
        assert_eq!(out.stdout, "", "{format}");
        let written = std::fs::read_to_string(env.path(&name)).unwrap();
        match format {
            "sarif" => check_sarif(&serde_json::from_str(&written).unwrap()),
            "json" => {
                let j: Value = serde_json::from_str(&written).unwrap();
                assert_eq!(j["checked"], 4);
            }
            "github" => assert!(written.contains("title=invalid_document"), "{written}"),
            _ => {
                assert!(written.contains("error[invalid_document]"), "{written}");
                assert!(written.contains("4 checked"), "{written}");
            }
        }
    }
    // Replaced whole on the next run; a directory is refused.
    let out = env
        .out(&[
            "validate",
            "good.json",
            "--registry",
            "registry.yaml",
            "--format",
            "json",
            "--output",
            "report.json",
        ])
        .code(0);
    assert_eq!(out.stdout, "");
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path("report.json")).unwrap()).unwrap();
    assert_eq!(j["checked"], 1);
    std::fs::create_dir(env.path("out")).unwrap();
    let out = four(&env, &["-o", "out"]).code(2);
    assert!(out.stderr.contains("is a directory"), "{}", out.stderr);
}

// `--output` through a symbolic link writes the file it names (the link
// stays), and into a named pipe streams the report to its reader (the pipe
// stays a pipe): a rename over either put a regular file in its place, and
// as root `--output /dev/null` replaced the device. Near miss: a regular
// file is still replaced whole (above).
#[cfg(target_os = "linux")]
#[test]
fn output_writes_through_a_link_and_into_a_pipe_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let env = four_inputs();
    let json = ["--format", "json", "-o"];
    std::fs::write(env.path("kept.json"), "old").unwrap();
    std::os::unix::fs::symlink("kept.json", env.path("link.json")).unwrap();
    four(&env, &[&json[..], &["link.json"]].concat()).code(2);
    let link = std::fs::symlink_metadata(env.path("link.json")).unwrap();
    assert!(link.file_type().is_symlink(), "the link is still a link");
    let j: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path("kept.json")).unwrap()).unwrap();
    assert_eq!(j["checked"], 4);
    let fifo = env.path("report.pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    // The read end opened first and without waiting for a writer, so that a
    // build which replaced the pipe fails here instead of hanging; the
    // report (a few KB) fits the pipe's buffer until it is read.
    let mut pipe = {
        use std::os::unix::fs::OpenOptionsExt;
        std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
            .unwrap()
    };
    four(&env, &[&json[..], &["report.pipe"]].concat()).code(2);
    let mut text = String::new();
    std::io::Read::read_to_string(&mut pipe, &mut text).unwrap();
    let streamed: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(streamed["checked"], 4);
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the pipe is still a pipe: {kind:?}");
}

#[test]
fn many_files_in_one_call_are_reported_once() {
    // How much faster one call over 200 files is than 200 calls is measured
    // in bench/run.sh, never here.
    let env = Env::empty();
    let clean = pretty(&clean_doc());
    let names: Vec<String> = (0..200).map(|i| format!("p/plan{i:03}.json")).collect();
    for n in &names {
        put(&env, n, &clean);
    }
    let out = env.out(&["validate", "p", "--format", "json"]).code(0);
    let j = out.json();
    assert_eq!(j["checked"], 200);
    // Skipped checks once per run, not once per file.
    let skipped = j["skipped"].as_array().unwrap();
    assert!(skipped.iter().all(|s| s["inputs"] == 200), "{skipped:?}");
    assert_eq!(skipped.len(), 20, "{skipped:?}");
    assert!(out.stdout.len() < 64 * 1024, "{} bytes", out.stdout.len());
}

// Every call of one missing tool is one group: one fact, one fix.
#[test]
fn calls_of_one_missing_tool_are_one_group() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let mut doc = clean_doc();
    for (k, id) in ["fetch", "tell"].iter().enumerate() {
        doc["nodes"][k + 1] = call(id, "nope_tool");
    }
    doc["nodes"]
        .as_array_mut()
        .unwrap()
        .push(call("other", "other_tool"));
    doc["edges"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "e3", "from": "tell", "to": "other", "handle": "always"}));
    env.write("tools.json", &pretty(&doc));
    let j = invalid(&env, "tools.json", "json").json();
    let unknown: Vec<&Value> = j["issues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["code"] == "unknown_tool")
        .collect();
    assert_eq!(unknown.len(), 3, "{unknown:?}");
    assert!(unknown[0].get("cause").is_none());
    assert_eq!(
        unknown[1]["cause"],
        json!({"code": "unknown_tool", "nodeId": "fetch"})
    );
    assert!(
        unknown[0]["message"]
            .as_str()
            .unwrap()
            .contains("(and so do 1 other call(s))")
    );
    // Near miss: another missing tool is its own group.
    assert!(unknown[2].get("cause").is_none(), "{}", unknown[2]);
}

// ------------------------------------------- stable, linked SARIF (issue 14)

/// `unknown_tool` → `UnknownTool`: the SARIF rule name.
fn pascal_case(code: &str) -> String {
    code.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| {
                f.to_ascii_uppercase().to_string() + c.as_str()
            })
        })
        .collect()
}

/// `(ruleId, nodeId or edgeId) → (fingerprint, startLine)` of a SARIF log.
fn fingerprints(s: &Value) -> std::collections::BTreeMap<(String, String), (String, u64)> {
    let mut out = std::collections::BTreeMap::new();
    for r in s["runs"][0]["results"].as_array().unwrap() {
        let p = &r["properties"];
        let about = p["nodeId"].as_str().or(p["edgeId"].as_str()).unwrap_or("");
        let key = (r["ruleId"].as_str().unwrap().to_string(), about.to_string());
        let value = (
            r["partialFingerprints"]["planforgeFinding/v1"]
                .as_str()
                .unwrap()
                .to_string(),
            r["locations"][0]["physicalLocation"]["region"]["startLine"]
                .as_u64()
                .unwrap(),
        );
        assert!(out.insert(key, value).is_none(), "two results alike: {r}");
    }
    out
}

// Two commits of one document that differ only by an unrelated node: the
// findings they share keep their fingerprints though their lines moved.
#[test]
fn fingerprints_survive_an_unrelated_node() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let mut before = typo_doc();
    before["edges"][1]["handle"] = json!("match");
    let mut after = before.clone();
    // Inserted before the offending nodes: their index and lines change.
    after["nodes"]
        .as_array_mut()
        .unwrap()
        .insert(1, call("extra", "notify"));
    let sarif_of = |doc: &Value| {
        env.write("plan.json", &pretty(doc));
        let s = env
            .out(&[
                "validate",
                "plan.json",
                "--registry",
                "registry.yaml",
                "--format",
                "sarif",
            ])
            .code(1)
            .json();
        check_sarif(&s);
        s
    };
    let (a, b) = (sarif_of(&before), sarif_of(&after));
    let (a, b) = (fingerprints(&a), fingerprints(&b));
    assert!(
        a.contains_key(&("unknown_tool".into(), "tell".into())),
        "{a:?}"
    );
    assert!(
        a.contains_key(&("invalid_handle".into(), "e2".into())),
        "{a:?}"
    );
    for (key, (print, line)) in &a {
        let (print2, line2) = b.get(key).unwrap_or_else(|| panic!("{key:?} gone: {b:?}"));
        assert_eq!(print, print2, "{key:?}");
        assert_ne!(line, line2, "{key:?}: the extra node moves it");
    }
    // Different findings have different fingerprints.
    let all: std::collections::HashSet<&String> = b.values().map(|(p, _)| p).collect();
    assert_eq!(all.len(), b.len());
}

/// `docs/codes/<code>.md`: what `planforge explain CODE` prints, under a
/// line saying how it is made.
fn code_page(env: &Env, code: &str) -> String {
    let text = env.out(&["explain", code]).code(0).stdout;
    format!(
        "<!-- Generated from `planforge explain {code}`: do not edit; \
         regenerate with `PLANFORGE_UPDATE_CODE_DOCS=1 cargo test --test validate`. -->\n\n{text}"
    )
}

/// `docs/codes/README.md`: every code, its severity and summary, linked.
fn code_index(codes: &[Value]) -> String {
    let mut s = String::from(
        "<!-- Generated from `planforge explain --all --format json`: do not edit; \
         regenerate with `PLANFORGE_UPDATE_CODE_DOCS=1 cargo test --test validate`. -->\n\n\
         # Issue codes\n\n\
         One page per code `planforge validate` reports, each the text \
         `planforge explain CODE` prints. SARIF logs link them as each rule's \
         `helpUri` (`https://github.com/OWNER/planforge/blob/main/docs/codes/CODE.md`: \
         `OWNER` is a placeholder until the repository is published; the base is \
         `REPOSITORY` in `src/render/sarif.rs`).\n\n\
         | code | severity | what it finds |\n|---|---|---|\n",
    );
    for c in codes {
        let code = c["code"].as_str().unwrap();
        s.push_str(&format!(
            "| [`{code}`]({code}.md) | {} | {} |\n",
            c["severity"].as_str().unwrap(),
            c["summary"].as_str().unwrap().replace('|', "\\|"),
        ));
    }
    s
}

// The committed pages under docs/codes/ are what `explain` prints today.
#[test]
fn committed_code_pages_are_current() {
    let env = Env::empty();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/codes");
    let update = std::env::var_os("PLANFORGE_UPDATE_CODE_DOCS").is_some();
    let all = env
        .out(&["explain", "--all", "--format", "json"])
        .code(0)
        .json();
    let codes = all["codes"].as_array().unwrap().clone();
    assert_eq!(codes.len(), planforge::check::CHECKS.len());
    let mut want: Vec<(String, String)> = codes
        .iter()
        .map(|c| {
            let code = c["code"].as_str().unwrap();
            (format!("{code}.md"), code_page(&env, code))
        })
        .collect();
    want.push(("README.md".into(), code_index(&codes)));
    let names: std::collections::HashSet<&str> = want.iter().map(|(n, _)| n.as_str()).collect();
    let mut stale = Vec::new();
    if update {
        std::fs::create_dir_all(&dir).unwrap();
    }
    // A page for a code that no longer exists is stale too.
    for entry in std::fs::read_dir(&dir).into_iter().flatten() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !names.contains(name.as_str()) {
            if update {
                std::fs::remove_file(dir.join(&name)).unwrap();
            } else {
                stale.push(format!("docs/codes/{name} (no such code)"));
            }
        }
    }
    for (name, text) in &want {
        let path = dir.join(name);
        if update {
            std::fs::write(&path, text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_ref() != Some(text) {
            stale.push(format!("docs/codes/{name}"));
        }
    }
    assert!(
        stale.is_empty(),
        "stale code pages: {}; regenerate them with `PLANFORGE_UPDATE_CODE_DOCS=1 cargo test --test validate` and commit them",
        stale.join(", ")
    );
}
