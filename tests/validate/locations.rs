//! Issue 14's real locations and stable, linked SARIF, from outside: a
//! stored plan's finding names its op log and the line of the op that set
//! the value; SARIF is repository-relative under `%SRCROOT%`; columns do not
//! depend on a byte-order mark; and the official SARIF validator (the SARIF
//! Multitool, installed by the README's set-up) accepts every report.

use super::{REGISTRY, clean_doc, pretty, typo_doc};
use crate::common::Env;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A repository (`.git`) with a store whose plan `plan-x` calls `ghost`,
/// then had its tool set to `ghost2` by a later op.
fn repo_with_plan() -> Env {
    let env = Env::with_store();
    std::fs::create_dir_all(env.path(".git")).unwrap();
    env.write("plans/.planforge", "");
    env.write("good.json", &pretty(&clean_doc()));
    env.out(&["import", "good.json", "--id", "plan-x"]).ok();
    env.out(&["set", "tell", "tool", "ghost2", "-p", "plan-x"])
        .ok();
    env
}

#[test]
fn an_edit_of_an_absent_node_is_found_on_its_line() {
    // As a merge of two clones leaves it: one removed `tell`, the other
    // set its phase afterwards.
    let env = repo_with_plan();
    env.out(&["remove-node", "tell", "--yes", "-p", "plan-x"])
        .ok();
    let path = env.path("plans/plan-x/ops.jsonl");
    let mut log = std::fs::read_to_string(&path).unwrap();
    log.push_str(r#"{"opId":"bob:plan-x:90000:00000000000000b0","actorId":"bob","lamport":90000,"at":"2026-12-05T16:50:02Z","tx":"00000000000000b0","txEnd":true,"op":"set_node_phase","nodeId":"tell","phase":"later"}"#);
    log.push('\n');
    std::fs::write(&path, &log).unwrap();
    let j = env.out(&["validate", "plan-x", "--format", "json"]).json();
    let issues = j["issues"].as_array().unwrap();
    let i = issues.iter().find(|i| i["code"] == "unknown_node").unwrap();
    assert_eq!(i["line"], log.lines().count(), "{i}");
    let line = log.lines().last().unwrap();
    let col = i["column"].as_u64().unwrap() as usize;
    assert!(
        line[col - 1..].starts_with("\"tell\""),
        "{}",
        &line[col - 1..]
    );
}

#[test]
fn a_stored_plans_finding_is_on_the_op_that_set_the_value() {
    let env = repo_with_plan();
    let log = std::fs::read_to_string(env.path("plans/plan-x/ops.jsonl")).unwrap();
    let last = log.lines().count();
    let j = env
        .out(&["validate", "plan-x", "--format", "json"])
        .code(1)
        .json();
    let i = &j["issues"][0];
    assert_eq!(i["code"], "unknown_tool");
    assert_eq!(i["file"], "plans/plan-x/ops.jsonl");
    // The `set` op is the log's last line; the column is at its value.
    assert_eq!(i["line"], last);
    let line = log.lines().last().unwrap();
    assert!(line.contains("\"op\":\"set_node_field\""), "{line}");
    let col = i["column"].as_u64().unwrap() as usize;
    assert!(
        line[col - 1..].starts_with("\"ghost2\""),
        "{}",
        &line[col - 1..]
    );

    // SARIF: repository-relative under %SRCROOT%, listed as an artifact.
    let s = env
        .out(&["validate", "plan-x", "--format", "sarif"])
        .code(1)
        .json();
    let run = &s["runs"][0];
    let loc = &run["results"][0]["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], "plans/plan-x/ops.jsonl");
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(loc["region"]["startLine"], last);
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .unwrap();
    let canon = std::fs::canonicalize(env.path(".")).unwrap();
    assert_eq!(root, format!("file://{}/", canon.display()));
    assert_eq!(
        run["artifacts"][0]["location"]["uri"],
        "plans/plan-x/ops.jsonl"
    );

    // From a subfolder, text names the file from there; GitHub and SARIF
    // from the repository root.
    std::fs::create_dir_all(env.path("sub")).unwrap();
    let from_sub = |format: &str| {
        let out = env
            .cmd(&[
                "validate", "plan-x", "--format", format, "--store", "../plans",
            ])
            .current_dir(env.path("sub"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    assert!(
        from_sub("github")
            .starts_with(&format!("::error file=plans/plan-x/ops.jsonl,line={last},")),
        "{}",
        from_sub("github")
    );
    let j: Value = serde_json::from_str(&from_sub("json")).unwrap();
    assert_eq!(j["issues"][0]["file"], "../plans/plan-x/ops.jsonl");
}

#[test]
fn columns_do_not_depend_on_a_byte_order_mark() {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    let one_line = serde_json::to_string(&typo_doc()).unwrap();
    env.write("plain.json", &one_line);
    env.write("bom.json", &format!("\u{feff}{one_line}"));
    let at = |f: &str| {
        let j = env
            .out(&[
                "validate",
                f,
                "--registry",
                "registry.yaml",
                "--format",
                "json",
            ])
            .code(1)
            .json();
        (
            j["issues"][0]["line"].clone(),
            j["issues"][0]["column"].clone(),
        )
    };
    assert_eq!(at("plain.json"), at("bom.json"));
    // Syntax errors too.
    env.write("plain.json", "{\"formatVersion\": 1, \"nodes\": [}");
    env.write("bom.json", "\u{feff}{\"formatVersion\": 1, \"nodes\": [}");
    let err = |f: &str| {
        let j = env.out(&["validate", f, "--format", "json"]).code(2).json();
        j["issues"][0]["column"].clone()
    };
    assert_eq!(err("plain.json"), err("bom.json"));
}

/// A file of the SARIF Multitool the README's set-up installs under
/// `.tools/` (`PLANFORGE_SARIF_TOOLS` names another folder).
fn tools(rel: &str) -> PathBuf {
    let base = match std::env::var_os("PLANFORGE_SARIF_TOOLS") {
        Some(p) => PathBuf::from(p),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools"),
    };
    let p = base.join(rel);
    assert!(
        p.exists(),
        "{} is missing: run the README's set-up (npm install --prefix .tools @microsoft/sarif-multitool@…); .ci/run does it",
        p.display()
    );
    p
}

/// Validates each file against the SARIF 2.1.0 schema the Multitool ships,
/// with Python's jsonschema (the pinned one in .venv); prints the errors.
const SCHEMA_CHECK: &str = r#"
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
v = jsonschema.validators.validator_for(schema)(schema)
errors = []
for name in sys.argv[2:]:
    for e in v.iter_errors(json.load(open(name))):
        errors.append(name + ": /" + "/".join(map(str, e.absolute_path)) + ": " + e.message[:300])
print(json.dumps(errors))
"#;

fn schema_errors(dir: &Path, files: &[&str]) -> Vec<String> {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    let out = std::process::Command::new(&python)
        .current_dir(dir)
        .args(["-c", SCHEMA_CHECK])
        .arg(tools(
            "node_modules/@microsoft/sarif-multitool-linux/sarif-2.1.0.json",
        ))
        .args(files)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "{} does not run ({e}): run the README's set-up",
                python.display()
            )
        });
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_official_sarif_validator_accepts_every_report() {
    let env = repo_with_plan();
    env.write("bad.json", &pretty(&typo_doc()));
    env.write("syntax.json", "{\"nodes\": [,]}");
    let base = env
        .out(&["validate", "bad.json", "--format", "sarif"])
        .code(1);
    env.write("base.sarif", &base.stdout);
    let reports = [
        (
            "all.sarif",
            vec![
                "validate",
                "bad.json",
                "syntax.json",
                "missing.json",
                "plan-x",
                "--format",
                "sarif",
            ],
        ),
        (
            "baseline.sarif",
            vec![
                "validate",
                "bad.json",
                "plan-x",
                "--baseline",
                "base.sarif",
                "--format",
                "sarif",
            ],
        ),
        (
            "clean.sarif",
            vec!["validate", "good.json", "--format", "sarif"],
        ),
    ];
    for (file, args) in &reports {
        let out = env.out(args);
        assert!(out.code <= 2, "{}", out.stderr);
        env.write(file, &out.stdout);
    }
    let files: Vec<&str> = reports.iter().map(|(f, _)| *f).collect();
    // The schema: a broken report is caught (so the check can fail), ours
    // are not.
    let mut broken: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path("all.sarif")).unwrap()).unwrap();
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    env.write("broken.sarif", &broken.to_string());
    assert_eq!(schema_errors(&env.path("."), &["broken.sarif"]).len(), 1);
    let errors = schema_errors(&env.path("."), &files);
    assert!(errors.is_empty(), "{errors:#?}");
    // The Multitool's own rules (what code scanning enforces beyond the
    // schema).
    let mut cmd = std::process::Command::new(tools("node_modules/.bin/sarif-multitool"));
    cmd.current_dir(env.path("."))
        .args(["validate", "--output", "verdict.sarif"])
        .args(&files)
        .env("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1");
    let out = cmd.output().expect("run the SARIF Multitool");
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let verdict: Value =
        serde_json::from_str(&std::fs::read_to_string(env.path("verdict.sarif")).unwrap()).unwrap();
    let findings: Vec<String> = verdict["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["results"].as_array().cloned().unwrap_or_default())
        .filter(|r| r.get("level").and_then(Value::as_str) != Some("note"))
        .map(|r| r.to_string())
        .collect();
    assert!(findings.is_empty(), "{findings:#?}");
}
