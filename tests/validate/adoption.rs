//! Issue 14's adoption controls, from outside: `--select` / `--ignore`,
//! `planforge.toml`, inline suppressions, `--fail-on` and `--baseline`, each
//! changing the result as its help says.

use super::{REGISTRY, call, clean_doc, pretty, typo_doc};
use crate::common::Env;
use serde_json::{Value, json};

/// A folder with the registry and `bad.json`, whose one finding is the
/// unknown tool of `tell` (blocking).
fn folder() -> Env {
    let env = Env::empty();
    env.write("registry.yaml", REGISTRY);
    env.write("bad.json", &pretty(&typo_doc()));
    env
}

fn validate(env: &Env, extra: &[&str]) -> crate::common::Out {
    let mut args = vec!["validate", "bad.json", "--registry", "registry.yaml"];
    args.extend(extra);
    env.out(&args)
}

fn codes(j: &Value) -> Vec<String> {
    j["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn select_and_ignore_choose_the_codes_reported() {
    let env = folder();
    let j = validate(&env, &["--format", "json"]).code(1).json();
    assert_eq!(codes(&j), ["unknown_tool"]);
    // Ignored: the run passes and says what it left out.
    let j = validate(&env, &["--ignore", "unknown_tool", "--format", "json"])
        .ok()
        .json();
    assert_eq!(codes(&j), Vec::<String>::new());
    assert_eq!(j["withheld"]["deselected"], 1);
    assert_eq!(j["files"][0]["withheld"]["deselected"], 1);
    // A group: `registry` is every check that needs a registry.
    validate(&env, &["--ignore", "registry"]).ok();
    // A prefix ends at an underscore; the more specific selector wins.
    validate(&env, &["--ignore", "unknown"]).ok();
    validate(&env, &["--ignore", "unknown", "--select", "unknown_tool"]).code(1);
    validate(&env, &["--select", "cycle,no_entry"]).ok();
    // A selector that selects nothing is refused before anything is read.
    let out = validate(&env, &["--select", "unknwn_tool"]).code(2);
    assert!(
        out.stderr.contains("`unknwn_tool` selects no issue code"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("did you mean `unknown_tool`"),
        "{}",
        out.stderr
    );
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    // Input errors are reported whatever is selected.
    let out = env.out(&[
        "validate",
        "missing.json",
        "--ignore",
        "blocking",
        "--format",
        "json",
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(codes(&out.json()), ["invalid_document"]);
}

#[test]
fn the_settings_file_applies_and_the_command_line_goes_on_top() {
    let env = folder();
    env.write(
        "planforge.toml",
        "[validate]\nignore = [\"unknown_tool\"]\n",
    );
    let out = validate(&env, &[]).ok();
    assert!(out.stderr.contains("planforge.toml"), "{}", out.stderr);
    // The command line's select replaces the file's.
    validate(&env, &["--select", "ALL"]).code(1);
    // --isolated reads no settings file; --config names one.
    validate(&env, &["--isolated"]).code(1);
    env.write("strict.toml", "[validate]\nfail-on = \"never\"\n");
    validate(&env, &["--config", "strict.toml"]).ok();
    // Found from a subfolder, up to the repository root.
    std::fs::create_dir_all(env.path(".git")).unwrap();
    std::fs::create_dir_all(env.path("sub")).unwrap();
    let out = env
        .cmd(&["validate", "../bad.json", "--registry", "../registry.yaml"])
        .current_dir(env.path("sub"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // A misspelt key is refused with its place, exit 2.
    env.write("planforge.toml", "[validate]\nignor = [\"unknown_tool\"]\n");
    let out = validate(&env, &[]).code(2);
    assert!(out.stderr.contains("planforge.toml:2:1"), "{}", out.stderr);
    env.write("planforge.toml", "[validate]\nfail-on = \"advisry\"\n");
    let out = validate(&env, &[]).code(2);
    assert!(
        out.stderr.contains("did you mean `advisory`"),
        "{}",
        out.stderr
    );
}

/// `bad.json` where `tell` carries `suppress`.
fn suppressing(entries: Value) -> String {
    let mut d = typo_doc();
    d["nodes"][2]["definition"]["suppress"] = entries;
    pretty(&d)
}

#[test]
fn an_inline_suppression_needs_a_reason_and_is_reported_when_unused() {
    let env = folder();
    env.write(
        "bad.json",
        &suppressing(json!([{"code": "unknown_tool", "reason": "registered by the deploy job"}])),
    );
    let j = validate(&env, &["--format", "json"]).ok().json();
    assert_eq!(codes(&j), Vec::<String>::new());
    assert_eq!(j["withheld"]["suppressed"], 1);
    let out = validate(&env, &[]).ok();
    assert!(out.stdout.contains("1 suppressed"), "{}", out.stdout);

    // No reason: the suppression is invalid (blocking) and suppresses nothing.
    env.write(
        "bad.json",
        &suppressing(json!([{"code": "unknown_tool", "reason": " "}])),
    );
    let j = validate(&env, &["--format", "json"]).code(1).json();
    assert_eq!(codes(&j), ["unknown_tool", "invalid_suppression"]);
    // A missing reason is a shape finding.
    env.write("bad.json", &suppressing(json!([{"code": "unknown_tool"}])));
    let j = validate(&env, &["--format", "json"]).code(1).json();
    assert!(codes(&j).contains(&"missing_field".to_string()), "{j}");

    // A suppression that covers nothing is an advisory, at its entry.
    let mut d = clean_doc();
    d["nodes"][2]["definition"]["suppress"] = json!([{"code": "unknown_tool", "reason": "old"}]);
    env.write("clean.json", &pretty(&d));
    let j = env
        .out(&[
            "validate",
            "clean.json",
            "--registry",
            "registry.yaml",
            "--format",
            "json",
        ])
        .ok()
        .json();
    assert_eq!(codes(&j), ["unused_suppression"]);
    assert_eq!(j["issues"][0]["pointer"], "/nodes/2/definition/suppress/0");
    env.out(&[
        "validate",
        "clean.json",
        "--registry",
        "registry.yaml",
        "--fail-on",
        "advisory",
    ])
    .code(1);
    // Without a registry the check cannot run: the suppression is not
    // called unused. (The folder's registry.yaml makes it a store of the
    // old format, so the run is from a folder without one.)
    let bare = Env::empty();
    bare.write("clean.json", &pretty(&d));
    let j = bare
        .out(&["validate", "clean.json", "--format", "json"])
        .ok()
        .json();
    assert_eq!(codes(&j), Vec::<String>::new());
    assert!(j["skipped"].to_string().contains("unknown_tool"), "{j}");
}

#[test]
fn a_baseline_fails_only_on_new_findings() {
    let env = folder();
    for (format, file) in [("json", "base.json"), ("sarif", "base.sarif")] {
        let out = validate(&env, &["--format", format]).code(1);
        env.write(file, &out.stdout);
        let j = validate(&env, &["--baseline", file, "--format", "json"])
            .ok()
            .json();
        assert_eq!(j["withheld"]["baselined"], 1, "{format}");
        assert_eq!(codes(&j), Vec::<String>::new());
    }
    // A new finding on another node fails; the old one stays withheld.
    let mut d = typo_doc();
    d["nodes"]
        .as_array_mut()
        .unwrap()
        .push(call("later", "nowhere"));
    d["edges"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "e3", "from": "tell", "to": "later"}));
    env.write("bad.json", &pretty(&d));
    let j = validate(&env, &["--baseline", "base.sarif", "--format", "json"])
        .code(1)
        .json();
    assert_eq!(codes(&j), ["unknown_tool"]);
    assert_eq!(j["issues"][0]["nodeId"], "later");
    let s = validate(&env, &["--baseline", "base.json", "--format", "sarif"])
        .code(1)
        .json();
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["baselineState"], "new");
    // A file that is not a report is refused.
    env.write("junk.json", "{\"x\": 1}");
    let out = validate(&env, &["--baseline", "junk.json"]).code(2);
    assert!(
        out.stderr.contains("--baseline junk.json"),
        "{}",
        out.stderr
    );
    validate(&env, &["--baseline", "nope.json"]).code(2);
}

#[test]
fn a_baseline_matches_however_the_path_is_typed_and_wherever_the_run_starts() {
    let env = folder();
    std::fs::create_dir_all(env.path(".git")).unwrap();
    let base = validate(&env, &["--format", "json"]).code(1);
    env.write("base.json", &base.stdout);
    let fp = base.json()["issues"][0]["fingerprint"].clone();
    for file in ["./bad.json", "sub/../bad.json"] {
        std::fs::create_dir_all(env.path("sub")).unwrap();
        let j = env
            .out(&[
                "validate",
                file,
                "--registry",
                "registry.yaml",
                "--format",
                "json",
            ])
            .code(1)
            .json();
        assert_eq!(j["issues"][0]["fingerprint"], fp, "{file}");
    }
    let out = env
        .cmd(&[
            "validate",
            "../bad.json",
            "--registry",
            "../registry.yaml",
            "--baseline",
            "../base.json",
        ])
        .current_dir(env.path("sub"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn refusals_that_keep_a_run_honest() {
    let env = folder();
    // An empty selection would check nothing.
    let out = validate(&env, &["--select", ""]).code(2);
    assert!(
        out.stderr.contains("the selection is empty"),
        "{}",
        out.stderr
    );
    env.write("planforge.toml", "[validate]\nselect = []\n");
    validate(&env, &[]).code(2);
    std::fs::remove_file(env.path("planforge.toml")).unwrap();
    // A settings file that cannot be read is refused, not passed over.
    std::fs::create_dir(env.path("planforge.toml")).unwrap();
    let out = validate(&env, &[]).code(2);
    assert!(out.stderr.contains("planforge.toml"), "{}", out.stderr);
    std::fs::remove_dir(env.path("planforge.toml")).unwrap();
    // -o never replaces an input, and needs its folder.
    let before = std::fs::read_to_string(env.path("bad.json")).unwrap();
    let out = validate(&env, &["-o", "bad.json"]).code(2);
    assert!(
        out.stderr.contains("is an input of this run"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(env.path("bad.json")).unwrap(),
        before
    );
    validate(&env, &["-o", "nowhere/report.txt"]).code(2);
    // A baseline that left findings out is refused.
    let cut = validate(&env, &["--format", "json", "--max-findings", "1"]).code(1);
    let mut j = cut.json();
    j["omitted"] = json!(5);
    env.write("cut.json", &j.to_string());
    let out = validate(&env, &["--baseline", "cut.json"]).code(2);
    assert!(out.stderr.contains("--max-findings 0"), "{}", out.stderr);
}

#[test]
fn a_documents_settings_and_store_are_found_from_its_own_folder() {
    // As ruff finds each file's configuration, and as `planforge lsp`
    // finds the document's: from the document's folder upwards, not from
    // where validate runs.
    let env = Env::empty();
    let repo = env.path("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    let init = env.cmd(&["init"]).current_dir(&repo).output().unwrap();
    assert!(init.status.success(), "{init:?}");
    std::fs::write(repo.join("bad.json"), pretty(&typo_doc())).unwrap();
    let from = |dir: &std::path::Path, args: &[&str]| {
        let out = env.cmd(args).current_dir(dir).output().unwrap();
        let json: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
        (out.status.code(), json)
    };
    let summary = |(code, j): (Option<i32>, Value)| (code, codes(&j));
    let outside = ["validate", "repo/bad.json", "--format", "json"];
    let inside = ["validate", "bad.json", "--format", "json"];
    // The registry of the store above the document (none where it runs).
    let (code, j) = from(&env.root, &outside);
    assert_eq!(code, Some(1), "{j}");
    assert!(codes(&j).contains(&"unknown_tool".to_string()), "{j}");
    assert_eq!(summary(from(&repo, &inside)), (code, codes(&j)));
    // The settings file above the document.
    std::fs::write(
        repo.join("planforge.toml"),
        "[validate]\nignore = [\"unknown_tool\"]\n",
    )
    .unwrap();
    let (code, j) = from(&env.root, &outside);
    assert!(!codes(&j).contains(&"unknown_tool".to_string()), "{j}");
    assert_eq!(summary(from(&repo, &inside)), (code, codes(&j)));
    // Named on the command line: for every input.
    let (_, j) = from(
        &env.root,
        &[
            "validate",
            "repo/bad.json",
            "--format",
            "json",
            "--isolated",
        ],
    );
    assert!(codes(&j).contains(&"unknown_tool".to_string()), "{j}");
    // A settings file of the document's folder that cannot be read is
    // that document's input error; the run goes on.
    std::fs::write(repo.join("planforge.toml"), "[validate]\nignor = 1\n").unwrap();
    let (code, j) = from(&env.root, &outside);
    assert_eq!(code, Some(2), "{j}");
    assert_eq!(codes(&j), ["invalid_document"], "{j}");
}
