//! Editors and CI set-ups: the JSON Schema of plan documents
//! (`planforge schema`, committed as schema/plan.schema.json) checked by a
//! real validator — Python's `jsonschema`, pinned, in the repository's
//! `.venv` — against every plan document of the repository and broken ones;
//! `$schema` in documents; `export --no-digest`; and the shape of the
//! pre-commit hook and the GitHub Action (`.ci/hooks` runs the hook for real).
//!
//! After changing the schema, refresh the committed copy with
//! `PLANFORGE_UPDATE_SCHEMA=1 cargo test --test schema`.

mod common;

use common::Env;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The `jsonschema` the tests validate with (keep it in step with `.ci/run`).
const JSONSCHEMA: &str = "4.26.0";

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn generated() -> String {
    let out = Command::new(common::bin())
        .arg("schema")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_committed_schema_is_current() {
    let fresh = generated();
    let path = repo("schema/plan.schema.json");
    if std::env::var_os("PLANFORGE_UPDATE_SCHEMA").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &fresh).unwrap();
        return;
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        old == fresh,
        "schema/plan.schema.json is not what `planforge schema` prints; refresh it with \
         `PLANFORGE_UPDATE_SCHEMA=1 cargo test --test schema` and commit it"
    );
    let v: Value = serde_json::from_str(&fresh).unwrap();
    assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
    // The JSON form is the only one.
    let json = Command::new(common::bin())
        .args(["--format", "json", "schema"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(json.stdout).unwrap(), fresh);
}

fn setup() -> String {
    format!(
        "tests/schema.rs validates with Python's jsonschema {JSONSCHEMA} in .venv. From the repository \
         root: `python3 -m venv .venv && .venv/bin/pip install jsonschema=={JSONSCHEMA}` (on Debian or \
         Ubuntu, `apt-get install python3-venv` first if `python3 -m venv` fails); .ci/run does it"
    )
}

/// Checks the schema itself, then validates each `[name, document]`;
/// prints `{name: [error, …]}`.
const VALIDATE: &str = r#"
import importlib.metadata as m, json, sys
import jsonschema
want = sys.argv[1]
if m.version("jsonschema") != want:
    sys.exit(f"jsonschema {m.version('jsonschema')} is installed, not the pinned {want}")
schema = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
out = {}
for name, doc in json.load(sys.stdin):
    out[name] = ["/" + "/".join(map(str, e.absolute_path)) + ": " + e.message[:300] for e in v.iter_errors(doc)]
print(json.dumps(out))
"#;

/// What the real validator says about each document.
fn validate(docs: &[(String, Value)]) -> serde_json::Map<String, Value> {
    let python = repo(".venv/bin/python");
    let mut child = Command::new(&python)
        .args(["-c", VALIDATE, JSONSCHEMA])
        .arg(repo("schema/plan.schema.json"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} does not run ({e}).\n{}", python.display(), setup()));
    let input = serde_json::to_vec(&docs.iter().map(|(n, d)| json!([n, d])).collect::<Vec<_>>());
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&input.unwrap())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} could not validate: {}\n{}",
        python.display(),
        String::from_utf8_lossy(&out.stderr).trim(),
        setup()
    );
    match serde_json::from_slice(&out.stdout).unwrap() {
        Value::Object(m) => m,
        other => panic!("not an object: {other}"),
    }
}

/// A copy of the repository's example store, to read without touching it.
fn example_store(env: &Env) {
    let from = repo("plans");
    for entry in std::fs::read_dir(&from).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        let to = env.store().join(&name);
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
            for f in std::fs::read_dir(entry.path()).unwrap() {
                let f = f.unwrap();
                if f.file_type().unwrap().is_file() {
                    std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
                }
            }
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
}

/// A value for a template param of the type `templates --format json` lists.
fn arg_for(param: &Value) -> String {
    let name = param["path"].as_str().unwrap();
    let value = match param["type"].as_str().unwrap() {
        "number" => "1".to_string(),
        "boolean" => "true".to_string(),
        "enum" => param["values"][0].as_str().unwrap().to_string(),
        _ => format!("the {name}"),
    };
    format!("{name}={value}")
}

/// Every plan document the repository has or makes: the examples, the
/// example store's plans exported (with and without digest), and every
/// built-in template instantiated.
fn documents() -> Vec<(String, Value)> {
    let mut docs = Vec::new();
    for entry in std::fs::read_dir(repo("examples/documents")).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        docs.push((
            path.display().to_string(),
            serde_json::from_str(&text).unwrap(),
        ));
    }
    let env = Env::empty();
    std::fs::create_dir_all(env.store()).unwrap();
    example_store(&env);
    for plan in ["plan-ticket_triage", "plan-weekly_report"] {
        for extra in [None, Some("--no-digest")] {
            let mut args = vec!["export", "-p", plan];
            args.extend(extra);
            let doc: Value = serde_json::from_str(&env.ok(&args)).unwrap();
            assert_eq!(doc.get("digest").is_some(), extra.is_none(), "{args:?}");
            docs.push((format!("{args:?}"), doc));
        }
    }
    let fresh = Env::new();
    let listed = fresh.json(&["templates"]);
    for t in listed["templates"].as_array().unwrap() {
        let id = t["id"].as_str().unwrap();
        let plan = format!("plan-{id}");
        let args: Vec<String> = t["params"]
            .as_array()
            .unwrap()
            .iter()
            .map(arg_for)
            .collect();
        let mut cmd = vec!["instantiate", id, "--id", &plan];
        for a in &args {
            cmd.extend(["--arg", a]);
        }
        fresh.ok(&cmd);
        let doc = serde_json::from_str(&fresh.ok(&["export", "-p", &plan])).unwrap();
        docs.push((format!("template {id}"), doc));
    }
    assert!(docs.len() >= 2 + 4 + 7, "{} documents", docs.len());
    docs
}

/// Broken variants of a good document, each with the change made.
fn broken(good: &Value) -> Vec<(&'static str, Value)> {
    type Change = fn(&mut Value);
    let changes: [(&str, Change); 20] = [
        ("an unknown key", |d| d["phases"] = json!([])),
        ("formatVersion 2", |d| d["formatVersion"] = json!(2)),
        ("a $schema that is no string", |d| d["$schema"] = json!(1)),
        ("a node without kind", |d| {
            d["nodes"][1].as_object_mut().unwrap().remove("kind");
        }),
        ("an unknown kind", |d| d["nodes"][1]["kind"] = json!("cal")),
        ("a call without tool", |d| {
            d["nodes"][1]["definition"]
                .as_object_mut()
                .unwrap()
                .remove("tool");
        }),
        ("an unknown definition key", |d| {
            d["nodes"][1]["definition"]["retries"] = json!(3)
        }),
        ("a $ref without select", |d| {
            d["nodes"][1]["definition"]["args"]["id"] = json!({"$ref": {"node": "start"}})
        }),
        ("a malformed $param", |d| {
            d["nodes"][1]["definition"]["args"]["id"] = json!({"$param": {}})
        }),
        ("an upper-case node id", |d| {
            d["nodes"][1]["id"] = json!("Fetch")
        }),
        ("an unknown handle", |d| {
            d["edges"][0]["handle"] = json!("sometimes")
        }),
        (
            "a zero bound",
            |d| d["bounds"] = json!({"maxNodes": 0, "maxEdges": 1, "maxSteps": 1, "maxConcurrentFrames": 1, "maxEncodedBytes": 1}),
        ),
        ("a string for a boolean", |d| {
            d["nodes"][1]["definition"]["replaySafe"] = json!("yes")
        }),
        ("an unknown verb", |d| {
            d["nodes"][1]["definition"]["authority"][0]["verb"] = json!("write")
        }),
        ("nodes as an object", |d| d["nodes"] = json!({})),
        ("an edge without to", |d| {
            d["edges"][0].as_object_mut().unwrap().remove("to");
        }),
        ("a plan id without plan-", |d| d["planId"] = json!("ticket")),
        ("a prompt part that is a string", |d| {
            d["nodes"][3]["definition"]["prompt"] = json!(["hi"])
        }),
        ("the reserved phase", |d| {
            d["nodes"][1]["phase"] = json!("(unphased)")
        }),
        ("an enum without values", |d| {
            d["nodes"][1]["definition"]["output"][1]["values"] = json!([])
        }),
    ];
    changes
        .into_iter()
        .map(|(name, change)| {
            let mut d = good.clone();
            change(&mut d);
            assert_ne!(&d, good, "{name} changes nothing");
            (name, d)
        })
        .collect()
}

#[test]
fn the_schema_accepts_every_plan_document_and_rejects_broken_ones() {
    let mut docs = documents();
    let good = docs[0].1.clone();
    assert_eq!(
        good["nodes"][3]["kind"], "reason",
        "the mutations expect ticket_triage"
    );
    let mut with_schema = good.clone();
    with_schema["$schema"] = json!("../../schema/plan.schema.json");
    docs.push(("with $schema".into(), with_schema.clone()));
    let bad = broken(&good);
    docs.extend(bad.iter().map(|(n, d)| (format!("broken: {n}"), d.clone())));
    let verdicts = validate(&docs);
    for (name, _) in &docs {
        let errors = verdicts[name].as_array().unwrap();
        if name.starts_with("broken: ") {
            assert!(!errors.is_empty(), "the schema accepts {name}");
        } else {
            assert!(errors.is_empty(), "the schema rejects {name}: {errors:#?}");
        }
    }
    // planforge agrees: it refuses or flags every broken document, and reads
    // the one with `$schema` as it reads the one without.
    let env = Env::empty();
    for (name, doc) in &bad {
        let file = env.write("doc.json", &doc.to_string());
        let out = env.out(&["validate", file.to_str().unwrap()]);
        assert!(
            out.code == 1 || out.code == 2,
            "planforge passes {name}: {}",
            out.stderr
        );
    }
    let file = env.write("doc.json", &with_schema.to_string());
    env.out(&["validate", file.to_str().unwrap()]).ok();
    let digest = |doc: &Value| {
        let env = Env::new();
        let file = env.write("doc.json", &doc.to_string());
        env.ok(&["import", file.to_str().unwrap(), "--id", "plan-a"]);
        env.json(&["status", "-p", "plan-a"])["digest"].clone()
    };
    assert_eq!(
        digest(&with_schema),
        digest(&good),
        "`$schema` is not content"
    );
}

#[test]
fn a_document_exported_without_digest_can_be_edited_by_hand() {
    let env = Env::new();
    let example = repo("examples/documents/ticket_triage.json");
    env.ok(&["import", example.to_str().unwrap(), "--id", "plan-t"]);
    let edit = |text: String| text.replace("in two sentences", "in three sentences");
    for (flags, refused) in [(vec![], true), (vec!["--no-digest"], false)] {
        let mut args = vec!["export", "-p", "plan-t"];
        args.extend(flags.iter().copied());
        let text = env.ok(&args);
        let changed = edit(text.clone());
        assert_ne!(changed, text);
        let file = env.write("edited.json", &changed);
        let out = env.out(&["validate", file.to_str().unwrap()]);
        assert_eq!(
            out.stderr.contains("digest_mismatch"),
            refused,
            "{args:?}: {}",
            out.stderr
        );
    }
    let yaml = env.ok(&["export", "-p", "plan-t", "--no-digest", "--format", "yaml"]);
    assert!(!yaml.contains("digest:"), "{yaml}");
}

fn yaml(rel: &str) -> Value {
    let text = std::fs::read_to_string(repo(rel)).unwrap();
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `planforge SUB --flag …` names a command and flags that exist.
fn assert_command_exists(line: &str) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "planforge").unwrap();
    let sub = words[at + 1];
    let help = Command::new(common::bin())
        .args([sub, "--help"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        help.status.success(),
        "`planforge {sub}` does not exist: {line}"
    );
    let help = String::from_utf8(help.stdout).unwrap();
    for w in &words[at + 2..] {
        if w.starts_with('-') && *w != "--" {
            let flag = w.split('=').next().unwrap();
            let listed = help.match_indices(flag).any(|(i, _)| {
                let after = help[i + flag.len()..].chars().next();
                let before = help[..i].chars().next_back();
                before.is_some_and(char::is_whitespace)
                    && !after.is_some_and(|c| c.is_alphanumeric() || c == '-')
            });
            assert!(listed, "`planforge {sub}` has no {flag}: {line}");
        }
    }
}

#[test]
fn the_pre_commit_hook_is_well_formed() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hooks = hooks.as_array().unwrap();
    let hook = hooks
        .iter()
        .find(|h| h["id"] == "planforge-validate")
        .expect("a planforge-validate hook");
    assert_eq!(hook["language"], "rust");
    assert_eq!(hook["files"], "\\.(json|ya?ml)$");
    let entry = hook["entry"].as_str().unwrap();
    assert!(entry.starts_with("planforge validate"), "{entry}");
    assert_command_exists(entry);
    for key in hook.as_object().unwrap().keys() {
        assert!(
            [
                "id",
                "name",
                "description",
                "entry",
                "language",
                "files",
                "exclude",
                "require_serial"
            ]
            .contains(&key.as_str()),
            "unknown hook key {key}"
        );
    }
}

#[test]
fn the_action_is_well_formed_and_runs_commands_that_exist() {
    let action = yaml("action.yml");
    for key in ["name", "description", "inputs", "runs"] {
        assert!(action.get(key).is_some(), "action.yml lacks {key}");
    }
    for input in ["paths", "format"] {
        assert!(
            action["inputs"][input]["description"].is_string(),
            "{input}"
        );
    }
    assert_eq!(action["runs"]["using"], "composite");
    let steps = action["runs"]["steps"].as_array().unwrap();
    let mut validate_lines = 0;
    for step in steps {
        match (step.get("run"), step.get("uses")) {
            (Some(run), None) => {
                assert!(
                    step["shell"].is_string(),
                    "a run step needs a shell: {step}"
                );
                for line in run.as_str().unwrap().lines() {
                    if line.contains("planforge validate") {
                        assert_command_exists(line);
                        validate_lines += 1;
                    }
                    // Inputs reach the script through the environment only.
                    assert!(!line.contains("${{ inputs."), "{line}");
                }
            }
            (None, Some(uses)) => {
                assert!(uses.as_str().unwrap().contains('@'), "{uses} is not pinned");
            }
            _ => panic!("a step runs a script or uses an action: {step}"),
        }
    }
    assert!(validate_lines >= 2, "the action runs planforge validate");
    let text = std::fs::read_to_string(repo("action.yml")).unwrap();
    for want in [
        "cargo install --locked",
        "--format sarif -o planforge.sarif",
        "github/codeql-action/upload-sarif@",
    ] {
        assert!(text.contains(want), "action.yml lacks {want}");
    }
    // The flags the script passes exist too.
    for flag in ["--registry", "--all"] {
        assert_command_exists(&format!("planforge validate {flag}"));
    }
}
