//! `planforge repl` in script mode (stdin not a terminal): the same lines
//! build the same plan as the same commands run one by one from a shell;
//! a script stops at its first failing line unless --keep-going; `use` is
//! local to the REPL; the REPL holds no lock between commands.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A folder for several stores, each run naming its store in the
/// environment, with a fixed clock and id seed.
struct Env(common::Env);

impl Env {
    fn new() -> Env {
        Env(common::Env::empty()
            .var("PLANFORGE_NOW", "2026-01-01T00:00:00Z")
            .var("PLANFORGE_ID_SEED", "repl-tests")
            .var_path("TMPDIR", "")
            .var_path("XDG_STATE_HOME", "state")
            .var("PF_BIN", common::bin()))
    }

    fn path(&self, p: &str) -> PathBuf {
        self.0.path(p)
    }

    fn command(&self, store: &str) -> Command {
        let mut c = Command::new(common::bin());
        self.setup(&mut c, store);
        c
    }

    fn setup(&self, c: &mut Command, store: &str) {
        self.0.configure(c);
        c.env("PLANFORGE_STORE", self.path(store));
    }

    fn run(&self, store: &str, args: &[&str]) -> Output {
        self.command(store).args(args).output().unwrap()
    }

    /// Runs `planforge repl ARGS` with `script` on stdin.
    fn repl(&self, store: &str, args: &[&str], script: &str) -> Output {
        let mut c = self.command(store);
        c.arg("repl").args(args);
        common::output_with_stdin(c, script.as_bytes())
    }

    /// Runs one line through a real shell: `sh -c '"$PF_BIN" LINE'`.
    fn shell(&self, store: &str, line: &str) -> Output {
        let mut c = Command::new("sh");
        c.arg("-c").arg(format!("\"$PF_BIN\" {line}"));
        self.setup(&mut c, store);
        c.output().unwrap()
    }

    fn raw(&self, store: &str, plan: &str) -> String {
        let out = self.run(store, &["raw", "-p", plan]);
        assert!(out.status.success(), "raw: {}", text(&out.stderr));
        text(&out.stdout)
    }

    fn node_ids(&self, store: &str, plan: &str) -> Vec<String> {
        let out = self.run(store, &["raw", "-p", plan, "--format", "json"]);
        assert!(out.status.success(), "raw: {}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["id"].as_str().unwrap().to_string())
            .collect()
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Lines a person would type, in shell syntax: quotes, a reference, a phase
/// with a space, a JSON value, an explicit handle and id.
const BUILD: &[&str] = &[
    "init",
    "create plan-r --label 'Triage one ticket'",
    "add-node start --kind entry --phase intake --input ticket:string:256",
    "add-node fetch --kind call --phase 'Fetch things' --tool tickets_get --arg id=@start.ticket --replay-safe --on-indeterminate retry",
    "add-node check --kind reason --phase \"Fetch things\" --prompt 'Is it urgent?' --prompt @fetch.body --max-attempts 2",
    "add-node done --kind join",
    "connect start fetch",
    "connect fetch check",
    "connect fetch done --handle error --id fail_path",
    "set fetch args.limit 5",
    "set check outputSchema '{\"type\": \"object\", \"properties\": {\"urgent\": {\"type\": \"boolean\"}}}'",
    "phase done wrap-up",
    "phase check --clear",
    "bounds --max-nodes 64",
];

#[test]
fn a_script_builds_what_the_same_commands_build_one_by_one() {
    let env = Env::new();
    for line in BUILD {
        let out = env.shell("one", line);
        assert!(out.status.success(), "{line}: {}", text(&out.stderr));
    }
    let mut script = String::from("# the same commands, as a REPL script\n\n");
    for line in BUILD {
        script.push_str(line);
        script.push('\n');
    }
    let out = env.repl("script", &[], &script);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let one = env.raw("one", "plan-r");
    assert_eq!(one, env.raw("script", "plan-r"));
    assert!(
        one.contains("fail_path") && one.contains("Fetch things"),
        "{one}"
    );
    // Each result was printed, in order.
    let printed = text(&out.stdout);
    let a = printed
        .find("added entry node `start`")
        .expect("start's echo");
    let b = printed.find("added join node `done`").expect("done's echo");
    assert!(a < b, "{printed}");
}

#[test]
fn a_script_stops_at_its_first_failing_line() {
    let env = Env::new();
    let script =
        "init\ncreate plan-s\nadd-node a --kind join\nconnect a missing\nadd-node b --kind join\n";
    let out = env.repl("s", &[], script);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("no node `missing`"), "{err}");
    assert!(err.contains("line 4 failed (exit 2)"), "{err}");
    assert!(!text(&out.stdout).contains("`b`"));
    assert_eq!(env.node_ids("s", "plan-s"), ["a"]);
}

#[test]
fn keep_going_runs_every_line_and_exits_with_the_first_failure() {
    let env = Env::new();
    let script = "init\ncreate plan-k\nadd-node a --kind join\nconnect a missing\nadd-node b --kind join\nconnect a b --handle nope\nadd-node c --kind join\n";
    let out = env.repl("k", &["--keep-going"], script);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("line 4 failed (exit 2); going on"), "{err}");
    assert!(err.contains("line 6 failed (exit 1); going on"), "{err}");
    assert_eq!(env.node_ids("k", "plan-k"), ["a", "b", "c"]);
}

#[test]
fn comments_continuations_and_exit_codes() {
    let env = Env::new();
    let script = "init # make the store\ncreate plan-c\n  # an indented comment\nadd-node a \\\n  --kind call\nset a tool 'two\nlines'\nexit 5\nadd-node never --kind join\n";
    let out = env.repl("c", &[], script);
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));
    assert_eq!(env.node_ids("c", "plan-c"), ["a"]);
    let out = env.run("c", &["raw", "-p", "plan-c", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"][0]["definition"]["tool"], "two\nlines");
    // An unclosed quote at the end is an error, not a silent drop.
    let out = env.repl("c", &[], "status\nset a tool 'open\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("ends inside line 2"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn use_is_local_to_the_repl() {
    let env = Env::new();
    for args in [
        &["init"][..],
        &["create", "plan-a"],
        &["create", "plan-b"],
        &["use", "plan-a"],
    ] {
        assert!(env.run("u", args).status.success());
    }
    let out = env.repl("u", &[], "use plan-b\nadd-node x --kind join\nstatus\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Using plan-b"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(env.node_ids("u", "plan-b"), ["x"]);
    assert!(env.node_ids("u", "plan-a").is_empty());
    let current = std::fs::read_to_string(env.path("u/current")).unwrap();
    assert_eq!(current.trim(), "plan-a");
    // `-p` given to the REPL is its plan until `use` changes it.
    let out = env.repl(
        "u",
        &["-p", "plan-b"],
        "add-node y --kind join\nuse plan-a\nadd-node z --kind join\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(env.node_ids("u", "plan-b"), ["x", "y"]);
    assert_eq!(env.node_ids("u", "plan-a"), ["z"]);
    // An unknown plan is refused and nothing changes.
    let out = env.repl("u", &[], "use plan-nope\n");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn help_is_the_clap_help() {
    let env = Env::new();
    let shell = env.run("h", &["help", "connect"]);
    let out = env.repl("h", &[], "help connect\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), text(&shell.stdout));
    assert!(text(&out.stdout).contains("--handle"));
    let out = env.repl("h", &[], "help\n");
    assert_eq!(out.status.code(), Some(0));
    let printed = text(&out.stdout);
    assert!(
        printed.contains("add-node") && printed.contains("use ID"),
        "{printed}"
    );
    // Nested REPLs and unknown commands are refused.
    let out = env.repl("h", &["--keep-going"], "repl\nfrobnicate\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot run inside the REPL"));
}

#[test]
fn json_format_prints_one_document_per_line() {
    let env = Env::new();
    assert!(env.run("j", &["init"]).status.success());
    assert!(env.run("j", &["create", "plan-j"]).status.success());
    let out = env.repl(
        "j",
        &["--format", "json"],
        "add-node a --kind join\nconnect a nope\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let docs: Vec<serde_json::Value> = serde_json::Deserializer::from_slice(&out.stdout)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(docs.len(), 2, "{}", text(&out.stdout));
    assert_eq!(docs[0]["formatVersion"], 1);
    assert_eq!(docs[1]["error"]["code"], "unknown_node");
}

#[test]
fn the_repl_holds_no_lock_between_commands() {
    let env = Env::new();
    assert!(env.run("l", &["init"]).status.success());
    assert!(env.run("l", &["create", "plan-l"]).status.success());
    let mut child = env
        .command("l")
        .args(["repl", "-p", "plan-l"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    for i in 0..10 {
        writeln!(stdin, "add-node r{i} --kind join").unwrap();
        stdin.flush().unwrap();
        let mut line = String::new();
        loop {
            line.clear();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "the REPL ended");
            if line.contains(&format!("`r{i}`")) {
                break;
            }
        }
        // The REPL is idle and open: another process edits the same plan.
        let start = std::time::Instant::now();
        let out = env.run(
            "l",
            &[
                "add-node",
                &format!("o{i}"),
                "--kind",
                "join",
                "-p",
                "plan-l",
            ],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(start.elapsed() < std::time::Duration::from_secs(4));
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let mut ids = env.node_ids("l", "plan-l");
    ids.sort();
    let mut want: Vec<String> = (0..10)
        .flat_map(|i| [format!("o{i}"), format!("r{i}")])
        .collect();
    want.sort();
    assert_eq!(ids, want);
}

#[test]
fn undo_in_a_script_walks_back() {
    let env = Env::new();
    let out = env.repl(
        "d",
        &[],
        "init\ncreate plan-d\nadd-node a --kind join\nadd-node b --kind join\nconnect a b\nundo\nundo\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(env.node_ids("d", "plan-d"), ["a"]);
    let printed = text(&out.stdout);
    assert!(printed.contains("undid your transaction"), "{printed}");
    let out = env.repl("d", &[], "-p plan-d undo\n--actor someone-else undo\n");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("nothing to undo"),
        "{}",
        text(&out.stderr)
    );
    assert!(env.node_ids("d", "plan-d").is_empty());
}

#[test]
fn a_command_left_open_for_too_many_lines_is_refused_and_the_script_goes_on_with_keep_going() {
    let env = Env::new();
    let mut script = String::from("init\ncreate plan-o\nadd-node a --kind join \\\n");
    for _ in 0..1500 {
        script.push_str("  \\\n");
    }
    script.push_str("\nadd-node b --kind join\n");
    let out = env.repl("o", &["--keep-going"], &script);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the command starting on line 3 is still open after 1000 lines"),
        "{err}"
    );
    // The rest of the open command is read as lines of their own; `b` lands.
    assert!(env.node_ids("o", "plan-o").contains(&"b".to_string()));
}
