//! `planforge repl` on a real terminal (a pty, through rexpect): the prompt,
//! Tab completion, Ctrl-C and Ctrl-D, history across restarts, and a REPL
//! and another process editing one plan at once.

mod common;

use rexpect::process::WaitStatus;
use rexpect::session::{PtySession, spawn_command};
use std::path::PathBuf;
use std::process::Command;

const TIMEOUT_MS: u64 = 15_000;

/// The shared harness with the store given by the environment, a terminal
/// of 100x40 and the REPL's history kept inside the folder.
struct Env(common::Env);

impl Env {
    /// A store with plan-p: `first_step` (entry) and `fetch` (join).
    fn new() -> Env {
        let env = Env(common::Env::empty()
            .var_path("PLANFORGE_STORE", "plans")
            .var("TERM", "xterm")
            .var("LINES", "40")
            .var_path("XDG_STATE_HOME", "state")
            .var_path("TMPDIR", ""));
        for args in [
            &["init"][..],
            &["create", "plan-p"],
            &[
                "add-node",
                "first_step",
                "--kind",
                "entry",
                "--phase",
                "intake",
            ],
            &["add-node", "fetch", "--kind", "join"],
            &["create", "plan-q"],
            &["add-node", "only_in_q", "--kind", "join", "-p", "plan-q"],
            &["use", "plan-p"],
        ] {
            env.0.ok(args);
        }
        env
    }

    fn path(&self, p: &str) -> PathBuf {
        self.0.path(p)
    }

    /// `planforge` here, its stdio left to the pty.
    fn command(&self) -> Command {
        let mut c = Command::new(common::bin());
        self.0.configure(&mut c);
        c
    }

    fn repl(&self) -> PtySession {
        let mut c = self.command();
        c.arg("repl");
        let mut s = spawn_command(c, Some(TIMEOUT_MS)).expect("the REPL starts in a pty");
        ready(&mut s, "plan-p editable r2> ");
        s
    }

    fn node_ids(&self, plan: &str) -> Vec<String> {
        let out = self
            .command()
            .args(["raw", "-p", plan, "--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let mut ids: Vec<String> = v["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    }
}

/// Waits for a new prompt (not a redraw of the line being edited): each
/// line editor session starts by turning bracketed paste on. Returns what
/// was printed before it (the previous command's output). Typing before the
/// editor is back would race with the command still running.
fn ready(s: &mut PtySession, prompt: &str) -> String {
    let before = s
        .exp_string("\x1b[?2004h")
        .unwrap_or_else(|e| panic!("no new prompt: {e}"));
    s.exp_string(prompt)
        .unwrap_or_else(|e| panic!("the prompt is not {prompt:?}: {e}"));
    before
}

fn exits_with(s: &mut PtySession, code: i32) {
    s.exp_eof().expect("the REPL ends");
    match s.process().wait().expect("wait") {
        WaitStatus::Exited(_, c) => assert_eq!(c, code),
        other => panic!("the REPL did not exit normally: {other:?}"),
    }
}

#[test]
fn the_prompt_appears_and_ctrl_d_exits() {
    let env = Env::new();
    let mut s = env.repl();
    s.send_control('d').unwrap();
    exits_with(&mut s, 0);
}

#[test]
fn tab_completes_a_node_id() {
    let env = Env::new();
    let mut s = env.repl();
    s.send("read fir").unwrap();
    s.send("\t").unwrap();
    s.flush().unwrap();
    s.exp_string("read first_step")
        .expect("Tab completed the node id");
    s.send_line("").unwrap();
    let out = ready(&mut s, "plan-p editable r2> ");
    assert!(out.matches("first_step").count() >= 2, "{out}");
    // After `use`, completion offers the other plan's nodes.
    s.send_line("use plan-q").unwrap();
    let out = ready(&mut s, "plan-q editable r1> ");
    assert!(out.contains("Using plan-q"), "{out}");
    s.send("phase only").unwrap();
    s.send("\t").unwrap();
    s.flush().unwrap();
    s.exp_string("phase only_in_q")
        .expect("Tab completed from plan-q");
    s.send_control('c').unwrap();
    ready(&mut s, "plan-q editable r1> ");
    s.send_line("exit").unwrap();
    exits_with(&mut s, 0);
    // `use` in the REPL left the store's current plan alone.
    let current = std::fs::read_to_string(env.path("plans/current")).unwrap();
    assert_eq!(current.trim(), "plan-p");
}

#[test]
fn ctrl_c_cancels_only_the_line() {
    let env = Env::new();
    let mut s = env.repl();
    s.send("add-node never --kind join").unwrap();
    s.flush().unwrap();
    s.exp_string("--kind join").unwrap();
    s.send_control('c').unwrap();
    ready(&mut s, "plan-p editable r2> ");
    s.send_line("add-node third --kind join").unwrap();
    ready(&mut s, "plan-p editable r3> ");
    s.send_control('d').unwrap();
    exits_with(&mut s, 0);
    assert_eq!(env.node_ids("plan-p"), ["fetch", "first_step", "third"]);
}

#[test]
fn history_survives_a_restart() {
    let env = Env::new();
    let mut s = env.repl();
    s.send_line("status").unwrap();
    ready(&mut s, "plan-p editable r2> ");
    s.send_control('d').unwrap();
    exits_with(&mut s, 0);
    let history = std::fs::read_to_string(env.path("state/planforge/history")).unwrap();
    assert!(history.contains("status"), "{history}");
    assert!(
        !env.path("plans/history").exists(),
        "no history in the store"
    );
    let mut s = env.repl();
    s.send("\x1b[A").unwrap(); // Up
    s.flush().unwrap();
    s.exp_string("status").expect("the last line comes back");
    s.send_line("").unwrap();
    ready(&mut s, "plan-p editable r2> ");
    s.send_control('d').unwrap();
    exits_with(&mut s, 0);
}

#[test]
fn a_repl_and_another_process_on_one_plan_lose_nothing() {
    let env = Env::new();
    let mut s = env.repl();
    for i in 0..5 {
        s.send_line(&format!("add-node repl_{i} --kind join"))
            .unwrap();
        s.exp_string(&format!("`repl_{i}`")).unwrap();
        s.exp_string("> ").unwrap();
        // The REPL sits at its prompt; another process writes the plan.
        let out = env
            .command()
            .args([
                "add-node",
                &format!("other_{i}"),
                "--kind",
                "join",
                "-p",
                "plan-p",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The prompt follows the plan: 2 + 10 nodes added.
    s.send_line("status").unwrap();
    ready(&mut s, "plan-p editable r12> ");
    s.send_control('d').unwrap();
    exits_with(&mut s, 0);
    let mut want: Vec<String> = vec!["fetch".into(), "first_step".into()];
    for i in 0..5 {
        want.push(format!("other_{i}"));
        want.push(format!("repl_{i}"));
    }
    want.sort();
    assert_eq!(env.node_ids("plan-p"), want);
}

/// `planforge ARGS` alone on a terminal (not the REPL).
fn one_shot(env: &Env, args: &[&str]) -> PtySession {
    let mut c = env.command();
    c.args(args);
    spawn_command(c, Some(TIMEOUT_MS)).expect("planforge starts in a pty")
}

#[test]
fn remove_node_and_remove_ask_first_on_a_terminal() {
    let env = Env::new();
    let mut s = one_shot(&env, &["remove-node", "fetch"]);
    s.exp_string("Remove join node `fetch` and its 0 edge(s) from plan-p? [y/N] ")
        .unwrap();
    s.send_line("n").unwrap();
    s.exp_string("Not removed: `fetch` is still in plan-p")
        .unwrap();
    exits_with(&mut s, 1);
    assert_eq!(env.node_ids("plan-p"), ["fetch", "first_step"]);
    let mut s = one_shot(&env, &["remove-node", "fetch"]);
    s.exp_string("[y/N] ").unwrap();
    s.send_line("y").unwrap();
    s.exp_string("removed").unwrap();
    exits_with(&mut s, 0);
    assert_eq!(env.node_ids("plan-p"), ["first_step"]);

    let mut s = one_shot(&env, &["remove", "plan-q"]);
    s.exp_string("Delete plan plan-q (editable, rev 1, 1 node(s)) and its whole history? [y/N] ")
        .unwrap();
    s.send_line("").unwrap();
    s.exp_string("Not removed").unwrap();
    exits_with(&mut s, 1);
    assert!(env.path("plans/plan-q").exists());
}

#[test]
fn long_output_on_a_terminal_goes_through_the_pager_and_piped_output_does_not() {
    let env = Env::new();
    for i in 0..20 {
        env.0
            .ok(&["add-node", &format!("step_{i}"), "--kind", "join"]);
    }
    let pager = "sed 's/^/paged: /'";
    let mut c = env.command();
    c.args(["show"]).env("PAGER", pager);
    let mut s = spawn_command(c, Some(TIMEOUT_MS)).unwrap();
    s.exp_string("paged: ")
        .expect("show on a terminal is paged");
    s.exp_string("paged: 22. JOIN")
        .unwrap_or_else(|e| panic!("{e}"));
    exits_with(&mut s, 0);
    // --no-pager, and output that fits the screen, print directly.
    for args in [&["show", "--no-pager"][..], &["status"]] {
        let mut c = env.command();
        c.args(args).env("PAGER", pager);
        let mut s = spawn_command(c, Some(TIMEOUT_MS)).unwrap();
        let (before, _) = s.exp_eof().map(|t| (t, ())).unwrap();
        assert!(!before.contains("paged: "), "{args:?}: {before}");
        assert!(before.contains("plan-p"), "{before}");
    }
    // Piped: never.
    let out = env
        .command()
        .args(["show"])
        .env("PAGER", pager)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains("paged: ") && text.contains("step_19"),
        "{text}"
    );
}

/// The REPL pages long output as the shell does, and comes back to its
/// prompt; `--no-pager` on the line prints directly.
#[test]
fn the_repl_pages_long_output_on_a_terminal() {
    let env = Env::new();
    for i in 0..20 {
        env.0
            .ok(&["add-node", &format!("step_{i}"), "--kind", "join"]);
    }
    let mut c = env.command();
    c.arg("repl").env("PAGER", "sed 's/^/paged: /'");
    let mut s = spawn_command(c, Some(TIMEOUT_MS)).expect("the REPL starts in a pty");
    ready(&mut s, "plan-p editable r22> ");
    s.send_line("show").unwrap();
    let out = ready(&mut s, "plan-p editable r22> ");
    assert!(out.contains("paged: 22. JOIN"), "{out}");
    s.send_line("show --no-pager").unwrap();
    let out = ready(&mut s, "plan-p editable r22> ");
    assert!(!out.contains("paged: ") && out.contains("step_19"), "{out}");
    // Short output is not paged.
    s.send_line("status").unwrap();
    let out = ready(&mut s, "plan-p editable r22> ");
    assert!(!out.contains("paged: ") && out.contains("plan-p"), "{out}");
    s.send_line("exit").unwrap();
    exits_with(&mut s, 0);
}
