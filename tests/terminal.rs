//! The rough edges a new user hits at the terminal (issue 16): usage errors,
//! error codes scripts branch on, notes, diffs across an undo, `set`
//! shorthands and typos, confirmations, `log`, `redo`, the registry, `-C`.

mod common;

use common::Env;

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// plan-p: `start` (entry) → `fetch` (call, phase gather).
fn small_plan(env: &Env) {
    env.ok(&["create", "plan-p"]);
    env.ok(&[
        "add-node",
        "start",
        "--kind",
        "entry",
        "--input",
        "topic:string:64",
    ]);
    env.ok(&[
        "add-node",
        "fetch",
        "--kind",
        "call",
        "--phase",
        "gather",
        "--tool",
        "read_artifact",
        "--arg",
        "path=notes/a.md",
        "--output",
        "content:string",
        "--authority",
        "files/notes/read",
        "--replay-safe",
        "--on-indeterminate",
        "retry",
        "--on-missing-value",
        "fail",
    ]);
    env.ok(&["connect", "start", "fetch"]);
}

#[test]
fn a_missing_argument_is_named_on_one_line_with_the_usage_as_help() {
    let env = Env::new();
    let out = env.run(&["connect", "start"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error[invalid_input]: the following required arguments were not provided: <TO>\n  help: usage: planforge connect <FROM> <TO>\n        more: planforge connect --help\n"
    );
    let v = env.json(&["set", "x"]);
    assert_eq!(
        v["error"]["message"],
        "the following required arguments were not provided: <PATH>, <VALUE>"
    );
}

#[test]
fn an_unknown_command_gets_a_guess_only_when_it_is_a_plausible_typo() {
    let env = Env::new();
    for word in ["clear", "echo"] {
        let out = env.run(&[word]);
        assert_eq!(out.status.code(), Some(2));
        let e = stderr(&out);
        assert!(
            e.starts_with(&format!(
                "error[invalid_input]: `{word}` is not a planforge command\n"
            )),
            "{e}"
        );
        assert!(!e.contains("did you mean"), "{e}");
    }
    let e = stderr(&env.run(&["shwo"]));
    assert!(e.contains("(did you mean `show`?)"), "{e}");
}

#[test]
fn a_refusal_by_the_rules_and_an_input_error_have_different_codes() {
    let env = Env::new();
    small_plan(&env);
    // Exit 1: the rules forbid it.
    let out = env.run(&[
        "--format", "json", "connect", "start", "fetch", "--handle", "match",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let v = common::parse_json(&out, &["connect"]);
    assert_eq!(v["error"]["code"], "refused", "{v}");
    // Exit 2: the input is malformed.
    let out = env.run(&["--format", "json", "set", "fetch", "args.path", "{"]);
    assert_eq!(out.status.code(), Some(2));
    let v = common::parse_json(&out, &["set"]);
    assert_eq!(v["error"]["code"], "invalid_input", "{v}");
}

#[test]
fn import_prints_its_note_once_on_stderr() {
    let env = Env::new();
    small_plan(&env);
    env.ok(&["freeze"]);
    let doc = env.ok(&["export"]);
    let file = env.write("p.json", &doc);
    let out = env.run(&["import", file.to_str().unwrap(), "--id", "plan-q"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (o, e) = (stdout(&out), stderr(&out));
    assert!(!o.contains("note") && !o.contains("Note"), "{o}");
    assert_eq!(e.matches("note: ").count(), 1, "{e}");
}

#[test]
fn a_diff_across_a_change_and_its_undo_explains_the_differing_digests() {
    let env = Env::new();
    small_plan(&env);
    let before = env.json(&["status"])["revision"].clone();
    env.ok(&["set", "fetch", "args.path", "notes/b.md"]);
    env.ok(&["undo"]);
    let after = env.json(&["status"])["revision"].clone();
    let out = env.ok(&["diff", &before.to_string(), &after.to_string()]);
    assert!(!out.contains("No differences."), "{out}");
    assert!(
        out.contains("No differences in nodes, edges, bounds or provenance; the digests differ because a digest also covers the revision"),
        "{out}"
    );
}
