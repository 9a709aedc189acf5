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
        "the following required arguments were not provided: <PATH>"
    );
    // VALUE is optional to the parser (`--remove` takes its place), and
    // named when it is missing.
    let v = env.json(&["set", "x", "y"]);
    assert_eq!(
        v["error"]["message"],
        "the following required arguments were not provided: <VALUE>"
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
    // It says that it is now the current plan, in text and in JSON.
    assert!(o.contains("plan-q is now the current plan."), "{o}");
    let v = env.json(&["import", file.to_str().unwrap(), "--id", "plan-r"]);
    assert_eq!(v["current"], true, "{v}");
    assert_eq!(v["planId"], "plan-r", "{v}");
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

#[test]
fn set_refuses_a_typo_of_a_field_unless_asked_to_add_and_takes_add_node_shorthands() {
    let env = Env::new();
    small_plan(&env);
    let before = env.json(&["status"])["revision"].clone();
    let out = env.run(&["set", "fetch", "args.pth", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error[unknown_key]: node `fetch` has no field `args.pth` (did you mean `args.path`?); nothing was written\n  help: planforge set fetch args.path x, or planforge set fetch args.pth x --add (if `args.pth` is meant as a new field)\n"
    );
    assert_eq!(env.json(&["status"])["revision"], before);
    env.ok(&["set", "fetch", "args.pth", "x", "--add"]);
    env.ok(&[
        "set",
        "fetch",
        "authority",
        "files/notes/read,files/notes/list",
    ]);
    env.ok(&[
        "set",
        "fetch",
        "output",
        "content:string state:enum:open,closed",
    ]);
    env.ok(&["set", "fetch", "output.1.values", "open,closed,stale"]);
    let v = env.json(&["read", "fetch"]);
    let def = &v["nodes"][0]["definition"];
    assert_eq!(def["authority"][1]["verb"], "list", "{def}");
    assert_eq!(def["output"][1]["values"][2], "stale", "{def}");
    let e = stderr(&env.run(&["set", "fetch", "authority", "files-read"]));
    assert!(
        e.contains("help: for example: planforge set fetch authority files/notes/read"),
        "{e}"
    );
}

#[test]
fn a_new_phase_one_letter_off_an_existing_one_gets_a_note() {
    let env = Env::new();
    small_plan(&env);
    let out = env.ok(&["add-node", "sum", "--kind", "reason", "--phase", "gathr"]);
    assert!(
        out.contains(
            "phase `gathr` is new to this plan; did you mean the existing phase `gather`?"
        ),
        "{out}"
    );
    let out = env.ok(&["add-node", "pub", "--kind", "reason", "--phase", "publish"]);
    assert!(!out.contains("did you mean"), "{out}");
}

#[test]
fn a_branch_id_has_a_shorthand_and_fixes_use_it() {
    let env = Env::new();
    small_plan(&env);
    env.ok(&["add-node", "sum", "--kind", "reason", "--phase", "gather"]);
    env.ok(&["connect", "start", "sum"]);
    env.ok(&["connect", "fetch", "sum"]);
    env.ok(&["add-node", "use", "--kind", "reason", "--prompt", "@sum.x"]);
    env.ok(&["connect", "sum", "use"]);
    let out = env.run(&["validate"]);
    let e = stderr(&out);
    assert!(
        e.contains("planforge set use prompt.0 @sum@start__fetch/fetch__sum.x"),
        "{e}"
    );
    env.ok(&["set", "use", "prompt.0", "@sum@start__fetch/fetch__sum.x"]);
    let v = env.json(&["read", "use"]);
    assert_eq!(
        v["nodes"][0]["definition"]["prompt"][0]["$ref"]["branchId"]["segments"][1]["edge"],
        "fetch__sum"
    );
}

#[test]
fn remove_and_remove_node_need_yes_without_a_terminal() {
    let env = Env::new();
    small_plan(&env);
    let before = env.json(&["status"])["revision"].clone();
    let out = env.run(&["remove-node", "fetch"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("pass --yes"), "{}", stderr(&out));
    assert_eq!(env.json(&["status"])["revision"], before);
    let out = env.run(&["remove", "plan-p"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(env.path("plans/plan-p").exists());
    env.ok(&["remove-node", "fetch", "--yes"]);
    env.ok(&["remove", "plan-p", "-y"]);
    assert!(!env.path("plans/plan-p").exists());
}

#[test]
fn log_lists_every_change_and_its_revisions_work_with_diff_and_clone() {
    let env = Env::new();
    small_plan(&env);
    env.ok(&["set", "fetch", "args.path", "notes/b.md"]);
    env.ok(&["undo"]);
    env.ok(&["redo"]);
    let out = env.ok(&["log"]);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("History of plan-p, newest first"),
        "{out}"
    );
    // create, 2 adds, connect, set, undo, redo: newest first.
    assert_eq!(lines.len(), 8, "{out}");
    assert!(
        lines[1].contains("tester  redo: set `args.path` of `fetch`"),
        "{out}"
    );
    assert!(
        lines[2].contains("undo: set `args.path` of `fetch`"),
        "{out}"
    );
    assert!(lines[6].contains("added entry node `start`"), "{out}");
    assert!(
        lines[7].contains("(0)") && lines[7].contains("created the plan"),
        "{out}"
    );
    let v = env.json(&["log"]);
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 7);
    assert_eq!(changes[0]["revision"], env.json(&["status"])["revision"]);
    // Every revision log shows is one diff and clone --at take.
    for c in changes {
        let r = c["revision"].to_string();
        env.ok(&["diff", &r, "current"]);
    }
    let r = changes[2]["revision"].to_string(); // after `set`
    env.ok(&["-p", "plan-p", "clone", "plan-c", "--at", &r]);
    let n = env.json(&["-p", "plan-c", "read", "fetch"]);
    assert_eq!(n["nodes"][0]["definition"]["args"]["path"], "notes/b.md");
    let v = env.json(&["-p", "plan-p", "log", "-n", "2", "--reverse"]);
    assert_eq!(
        v["changes"][1]["summary"],
        "redo: set `args.path` of `fetch`"
    );
}

#[test]
fn redo_takes_back_undos_in_turn_until_a_new_change() {
    let env = Env::new();
    small_plan(&env);
    env.ok(&["phase", "fetch", "collect"]);
    env.ok(&["set", "fetch", "args.path", "notes/b.md"]);
    env.ok(&["undo"]);
    env.ok(&["undo"]);
    let node = |env: &Env| env.json(&["read", "fetch"])["nodes"][0].clone();
    assert_eq!(node(&env)["phase"], "gather");
    env.ok(&["redo"]);
    assert_eq!(node(&env)["phase"], "collect");
    env.ok(&["redo"]);
    assert_eq!(node(&env)["definition"]["args"]["path"], "notes/b.md");
    let out = env.run(&["--format", "json", "redo"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        common::parse_json(&out, &["redo"])["error"]["code"],
        "refused"
    );
    // undo takes a redo back; after a new change there is nothing to redo.
    env.ok(&["undo"]);
    assert_eq!(node(&env)["definition"]["args"]["path"], "notes/a.md");
    env.ok(&["set", "fetch", "args.path", "notes/c.md"]);
    let out = env.run(&["redo"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("is not an undo"), "{}", stderr(&out));
}

#[test]
fn dash_c_runs_as_if_started_in_the_folder() {
    let env = Env::new();
    small_plan(&env);
    std::fs::create_dir_all(env.path("elsewhere")).unwrap();
    let elsewhere = env.path("elsewhere");
    let root = env.root.to_str().unwrap();
    let mut c = common::command(&elsewhere, &["-C", root, "list"]);
    let out = c.output().unwrap();
    assert!(stdout(&out).contains("plan-p"), "{}", stderr(&out));
    // Relative paths are read from there too.
    let doc = env.ok(&["export"]);
    env.write("p.json", &doc);
    let out = common::command(
        &elsewhere,
        &["-C", "..", "import", "p.json", "--id", "plan-q"],
    )
    .output()
    .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let out = env.run(&["-C", "nowhere", "list"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("cannot change to nowhere (-C)"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn registry_lists_shows_and_adds_tools_keeping_the_file_and_refusing_with_nothing_written() {
    let env = Env::new();
    let file = env.path("plans/registry.yaml");
    let before = std::fs::read_to_string(&file).unwrap();
    let out = env.ok(&["registry", "list"]);
    assert!(out.contains("read_artifact"), "{out}");
    env.ok(&[
        "registry",
        "add",
        "fetch_page",
        "--returns",
        "artifact:document",
        "--summary",
        "Fetch one \"web\" page",
        "--required-arg",
        "url",
    ]);
    let after = std::fs::read_to_string(&file).unwrap();
    // Only lines were added: every comment and entry is where it was.
    let kept: Vec<&str> = after
        .lines()
        .filter(|l| before.lines().any(|b| b == *l))
        .collect();
    assert_eq!(kept, before.lines().collect::<Vec<_>>());
    let v = env.json(&["registry", "show", "fetch_page"]);
    assert_eq!(v["returns"]["class"], "document", "{v}");
    assert_eq!(v["requiredArgs"][0], "url");
    assert_eq!(v["summary"], "Fetch one \"web\" page");
    // A call may now use it.
    small_plan(&env);
    env.ok(&["set", "fetch", "tool", "fetch_page"]);
    let v = env.json(&["validate"]);
    let issues = v["issues"].as_array().unwrap();
    assert!(!issues.iter().any(|i| i["code"] == "unknown_tool"), "{v}");
    // Refusals write nothing.
    for (args, code) in [
        (
            &["registry", "add", "fetch_page", "--returns", "text"][..],
            1,
        ),
        (&["registry", "add", "Bad-Name", "--returns", "text"], 2),
        (&["registry", "add", "other", "--returns", "nope"], 2),
        (
            &["registry", "add", "other", "--returns", "artifact:no_class"],
            2,
        ),
    ] {
        let out = env.run(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), after, "{args:?}");
    }
    let e = stderr(&env.run(&["registry", "show", "fetch_pag"]));
    assert!(e.contains("did you mean `fetch_page`?"), "{e}");
}

#[test]
fn set_refuses_a_value_that_looks_like_a_flag_and_can_remove_a_field() {
    let env = Env::new();
    small_plan(&env);
    let rev = env.json(&["status"])["revision"].clone();
    // A flag where VALUE goes is a usage error naming it; nothing written.
    let out = env.run(&["set", "fetch", "args.bdy", "--yes"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("unexpected argument '--yes'"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("-- --yes"), "{}", stderr(&out));
    assert_eq!(env.json(&["status"])["revision"], rev);
    // `--remove` of a field the node does not have: refused, nothing written.
    let out = env.run(&["set", "fetch", "args.bdy", "--remove"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("node `fetch` has no field `args.bdy` to remove"),
        "{}",
        stderr(&out)
    );
    assert_eq!(env.json(&["status"])["revision"], rev);
    // After `--` a value starting with `--` is literal; negative numbers
    // need no `--`.
    let out = env.run(&["set", "fetch", "args.bdy", "--", "--literal"]);
    // Not an argument of read_artifact: the fix keeps the value after `--`.
    assert!(
        stderr(&out).contains("planforge set fetch args.bdy --add -- --literal"),
        "{}",
        stderr(&out)
    );
    env.ok(&["set", "fetch", "args.bdy", "--add", "--", "--literal"]);
    assert_eq!(
        env.json(&["read", "fetch"])["nodes"][0]["definition"]["args"]["bdy"],
        "--literal"
    );
    env.ok(&["set", "fetch", "args.n", "-5", "--add"]);
    assert_eq!(
        env.json(&["read", "fetch"])["nodes"][0]["definition"]["args"]["n"],
        -5
    );
    // `--remove` takes the field out.
    let out = env.ok(&["set", "fetch", "args.bdy", "--remove"]);
    assert!(
        out.contains("removed `args.bdy` of `fetch` (was \"--literal\")"),
        "{out}"
    );
    let args = env.json(&["read", "fetch"])["nodes"][0]["definition"]["args"].clone();
    assert!(args.get("bdy").is_none(), "{args}");
    assert_eq!(args["n"], -5, "{args}");
}

#[test]
fn log_reverse_says_oldest_first_and_set_shorthand_errors_name_the_field() {
    let env = Env::new();
    small_plan(&env);
    let out = env.ok(&["log", "--reverse", "-n", "2"]);
    assert!(out.starts_with("History of plan-p, oldest first"), "{out}");
    let out = env.ok(&["log", "-n", "2"]);
    assert!(out.starts_with("History of plan-p, newest first"), "{out}");
    // `set` has no --input flag: its refusal names the field.
    let out = env.run(&["set", "start", "input", "topic:strin"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let e = stderr(&out);
    assert!(
        e.contains("`input` \"topic:strin\" is not PATH:TYPE"),
        "{e}"
    );
    assert!(!e.contains("--input"), "{e}");
}

#[test]
fn set_refuses_an_argument_the_tools_registry_entry_does_not_name() {
    let env = Env::new();
    small_plan(&env);
    let before = env.json(&["status"])["revision"].clone();
    // read_artifact names `path` only: `args.zzz` is no typo of it, but no
    // argument of the tool either.
    let out = env.run(&["set", "fetch", "args.zzz", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error[unknown_key]: the tool `read_artifact` of node `fetch` takes no argument `zzz` (its registry entry names `path`); nothing was written\n  help: planforge set fetch args.zzz x --add (if the argument is meant although the registry does not name it)\n"
    );
    let v = env.json(&["set", "fetch", "args.zzz", "x"]);
    assert_eq!(v["error"]["code"], "unknown_key", "{v}");
    assert_eq!(env.json(&["status"])["revision"], before);
    let out = env.ok(&["set", "fetch", "args.zzz", "x", "--add"]);
    assert!(out.contains("set `args.zzz` of `fetch`"), "{out}");
    // Once there, it is the node's own: setting it again needs nothing.
    env.ok(&["set", "fetch", "args.zzz", "y"]);
    // A tool the registry does not list: added, with a note that nothing
    // could check it.
    env.ok(&["set", "fetch", "tool", "my_tool"]);
    let out = env.ok(&["set", "fetch", "args.body", "z"]);
    assert!(
        out.contains("`args.body` is a new argument of `fetch`; the registry has no tool `my_tool` to check it against"),
        "{out}"
    );
}

#[test]
fn set_writes_a_prompt_as_add_node_prompt_does_and_appends_past_the_end() {
    let env = Env::new();
    small_plan(&env);
    env.ok(&[
        "add-node",
        "sum",
        "--kind",
        "reason",
        "--prompt",
        "Sum up",
        "--prompt",
        "@fetch.content",
    ]);
    let prompt = |env: &Env| {
        let raw = env.json(&["raw"]);
        raw["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == "sum")
            .unwrap()["definition"]["prompt"]
            .clone()
    };
    let fetch_ref = prompt(&env)[1].clone();
    // The index one past the end appends, as text or as a reference.
    env.ok(&["set", "sum", "prompt.2", "and more"]);
    env.ok(&["set", "sum", "prompt.3", "@fetch.content"]);
    let p = prompt(&env);
    assert_eq!(p[2], serde_json::json!({"text": "and more"}), "{p}");
    assert_eq!(p[3], fetch_ref, "{p}");
    // The whole prompt: a text, or a list of texts and references.
    env.ok(&["set", "sum", "prompt", "One part"]);
    assert_eq!(prompt(&env), serde_json::json!([{"text": "One part"}]));
    env.ok(&[
        "set",
        "sum",
        "prompt",
        r#"["Read", "@fetch.content", {"text": "x"}]"#,
    ]);
    let p = prompt(&env);
    assert_eq!(p[0], serde_json::json!({"text": "Read"}), "{p}");
    assert_eq!(p[1], fetch_ref, "{p}");
    assert_eq!(p[2], serde_json::json!({"text": "x"}), "{p}");
    let before = env.json(&["status"])["revision"].clone();
    // Past the end, or a name inside the list: refused naming the list, with
    // the append as the fix.
    let out = env.run(&["set", "sum", "prompt.7", "hi"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "error[invalid_input]: `prompt` of node `sum` is a list of 3 item(s), so `7` in `prompt.7` is not a place in it: give an index 0 to 2, or 3 to add an item at the end; nothing was written\n  help: planforge set sum prompt.3 '{\"text\":\"hi\"}'\n"
    );
    let err = stderr(&env.run(&["set", "sum", "prompt.x.y", "1"]));
    assert!(
        err.contains("`x` in `prompt.x.y` is not a place in it"),
        "{err}"
    );
    assert!(!err.contains("an object"), "{err}");
    // A wrong value names an array of prompt parts and gives examples.
    let err = stderr(&env.run(&["set", "sum", "prompt", "5"]));
    assert!(err.contains("an array of prompt parts (each"), "{err}");
    assert!(
        err.contains("for example: planforge set sum prompt 'Summarise the ticket'"),
        "{err}"
    );
    let err = stderr(&env.run(&["set", "sum", "prompt.0", "@bad.."]));
    assert!(
        err.contains("planforge set sum prompt.2 @fetch.content"),
        "{err}"
    );
    assert_eq!(env.json(&["status"])["revision"], before);
}

#[test]
fn registry_add_refuses_odd_values_with_nothing_written() {
    let env = Env::new();
    let file = env.path("plans/registry.yaml");
    let before = std::fs::read(&file).unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["", "--returns", "text"], "is not a tool name"),
        (&["my tool", "--returns", "text"], "is not a tool name"),
        (&["a/b", "--returns", "text"], "is not a tool name"),
        (
            &["read_artifact", "--returns", "text"],
            "already has the tool `read_artifact`",
        ),
        (
            &["t1", "--returns", "txt"],
            "is not text, bytes, media or artifact:CLASS",
        ),
        (
            &["t1", "--returns", "artifact:"],
            "is not text, bytes, media or artifact:CLASS",
        ),
        (
            &["t1", "--returns", "text", "--required-arg", "bad arg"],
            "`requiredArgs` \"bad arg\" of `t1` is not an argument name",
        ),
        (
            &[
                "t1",
                "--returns",
                "text",
                "--required-arg",
                "a",
                "--required-arg",
                "a",
            ],
            "`requiredArgs` `a` is given twice",
        ),
        (
            &["t1", "--returns", "text", "--summary", "two\nlines"],
            "the summary of `t1` is not one line",
        ),
        (
            &["t1", "--returns", "text", "--summary", " "],
            "the summary of `t1` is empty",
        ),
        (
            &["t1", "--returns", "text", "--tools-arg", "tools"],
            "but `t1` spawns no agent",
        ),
        (
            &["t1", "--returns", "text", "--writes", "out/path"],
            "`writes` \"out/path\" of `t1` is not an argument name",
        ),
    ];
    for (args, want) in cases {
        let mut a = vec!["registry", "add"];
        a.extend_from_slice(args);
        let out = env.run(&a);
        let e = stderr(&out);
        assert!(matches!(out.status.code(), Some(1 | 2)), "{a:?}: {e}");
        assert!(e.contains(want), "{a:?}: {e}");
        assert!(e.contains("help: "), "{a:?} names a fix: {e}");
        assert_eq!(std::fs::read(&file).unwrap(), before, "{a:?}");
    }
    // The fix is a command line that adds the tool with the field set right
    // (every one gives the required `--returns`).
    let fixes: &[(&[&str], &str)] = &[
        (
            &["my tool", "--returns", "text"],
            "help: planforge registry add my_tool --returns text\n",
        ),
        (
            &["t1", "--returns", "txt"],
            "help: planforge registry add t1 --returns text\n",
        ),
        (
            &["t1", "--returns", "text", "--summary", " "],
            "help: planforge registry add t1 --returns text --summary \"One line saying what it does\"\n",
        ),
        (
            &["t1", "--returns", "text", "--required-arg", "bad arg"],
            "help: planforge registry add t1 --returns text --required-arg path\n",
        ),
        (
            &["t1", "--returns", "text", "--writes", "out/path"],
            "help: planforge registry add t1 --returns text --writes path\n",
        ),
        (
            &["t1", "--returns", "text", "--tools-arg", "tools"],
            "help: planforge registry add t1 --returns text --spawns-agent --tools-arg tools\n",
        ),
    ];
    for (args, want) in fixes {
        let mut a = vec!["registry", "add"];
        a.extend_from_slice(args);
        let e = stderr(&env.run(&a));
        assert!(e.contains(want), "{a:?}: {e}");
        a.extend_from_slice(&["--format", "json"]);
        let out = env.run(&a);
        let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(j["error"]["fix"]["action"], "register_tool", "{a:?}: {j}");
    }
    // The good one is written whole, and nothing is left beside the file.
    env.ok(&[
        "registry",
        "add",
        "t1",
        "--returns",
        "text",
        "--summary",
        "One line",
    ]);
    let names: Vec<String> = std::fs::read_dir(env.path("plans"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("registry"))
        .collect();
    assert_eq!(names, ["registry.yaml"]);
}

#[test]
fn a_clone_carries_its_parents_history_and_undoes_only_its_own() {
    let env = Env::new();
    small_plan(&env);
    env.ok(&["clone", "plan-c"]);
    let log = env.ok(&["log", "-p", "plan-c"]);
    let lines: Vec<&str> = log.lines().collect();
    // Newest first: the clone point, then the parent's changes down to 1.
    assert!(
        lines[1].contains("(3)")
            && lines[1].ends_with(
                "cloned from plan-p at revision 3 (the changes before are plan-p's, copied)"
            ),
        "{log}"
    );
    assert!(lines[2].contains("connected `start` → `fetch`"), "{log}");
    assert!(
        lines.last().unwrap().contains("added entry node `start`"),
        "{log}"
    );
    let v = env.json(&["log", "-p", "plan-c"]);
    let changes = v["changes"].as_array().unwrap();
    assert_eq!(changes[0]["inherited"], false);
    assert!(changes[1..].iter().all(|c| c["inherited"] == true), "{v}");
    // Nothing of the clone's own to undo yet: the refusal says why.
    let out = env.run(&["-p", "plan-c", "undo"]);
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains("none since it was cloned from plan-p at revision 3 (the changes before that are plan-p's history, copied: undo them in plan-p, or change them here as new edits)"),
        "{e}"
    );
    assert!(e.contains("planforge log"), "{e}");
    // The revisions the log shows work on the clone.
    let out = env.ok(&["-p", "plan-c", "diff", "1", "3"]);
    assert!(out.contains("fetch"), "{out}");
    env.ok(&["-p", "plan-c", "set", "fetch", "args.path", "other.md"]);
    let log = env.ok(&["log", "-p", "plan-c", "-n", "2"]);
    assert!(log.lines().nth(1).unwrap().contains("4 "), "{log}");
    assert!(
        log.lines().nth(2).unwrap().contains("cloned from plan-p"),
        "{log}"
    );
    let out = env.ok(&["-p", "plan-c", "undo"]);
    assert!(out.contains("args.path"), "{out}");
    env.ok(&["-p", "plan-c", "clone", "plan-d", "--at", "2"]);
    let v = env.json(&["-p", "plan-d", "status"]);
    assert_eq!(v["revision"], 2, "{v}");
}

#[test]
fn set_config_names_edit_from_for_a_whole_node_file() {
    let env = Env::new();
    small_plan(&env);
    let file = env.write(
        "kept.yaml",
        "phase: gather\nkind: call\ndefinition:\n  tool: read_artifact\n",
    );
    let def = format!("@{}", file.display());
    let out = env.run(&["set-config", "fetch", "--def", &def]);
    assert_eq!(out.status.code(), Some(2));
    let e = stderr(&out);
    assert!(
        e.contains("--def holds a whole node (`kind`, `definition`, `phase`), as `edit` writes it, not the definition of `fetch`; nothing was written"),
        "{e}"
    );
    assert!(
        e.contains(&format!(
            "help: planforge edit fetch --from {} applies such a file",
            file.display()
        )),
        "{e}"
    );
}

#[test]
fn the_man_pages_read_with_man_and_show_the_examples() {
    let man = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let read = |args: &[&str], manpath: Option<&std::path::Path>| {
        let mut c = std::process::Command::new("man");
        c.args(args)
            .env("MANWIDTH", "100")
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("LC_ALL", "C.UTF-8")
            .current_dir(man.parent().unwrap());
        if let Some(p) = manpath {
            c.env("MANPATH", p);
        }
        let out = c.output().expect("man is installed");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        stdout(&out)
    };
    let page = read(&["-l", "man/man1/planforge-add-node.1"], None);
    for section in [
        "NAME",
        "SYNOPSIS",
        "DESCRIPTION",
        "OPTIONS",
        "EXAMPLES",
        "SEE ALSO",
    ] {
        assert!(page.lines().any(|l| l == section), "{section}:\n{page}");
    }
    assert!(!page.contains("EXTRA"), "{page}");
    // An example is one copyable line, with ASCII hyphens.
    assert!(
        page.lines().any(|l| l.trim() == "planforge add-node fetch --kind call --phase gather --tool read_artifact --arg path=notes/a.md --output content:string --authority files/notes/read --replay-safe --on-indeterminate retry --on-missing-value fail"),
        "{page}"
    );
    let by_name = read(&["planforge-add-node"], Some(&man));
    assert!(by_name.contains("EXAMPLES"), "{by_name}");
    let registry = read(&["planforge-registry-add"], Some(&man));
    assert!(
        registry.contains("planforge registry add fetch_page"),
        "{registry}"
    );
}

#[test]
fn the_repl_guesses_its_own_words_too() {
    let env = Env::new();
    let out = env.with_stdin(&["repl", "--keep-going"], b"cler\nstauts\necho\n");
    let e = stderr(&out);
    assert!(
        e.contains("`cler` is not a planforge command (did you mean `clear`?)"),
        "{e}"
    );
    assert!(e.contains("(did you mean `status`?)"), "{e}");
    assert!(e.contains("`echo` is not a planforge command\n"), "{e}");
    assert!(e.contains("exit, quit and clear are the REPL's own"), "{e}");
}
