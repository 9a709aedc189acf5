//! `planforge edit NODE` with scripted editors: a change lands as one
//! transaction, a broken file reopens with the error on top, an emptied file
//! aborts, the kind cannot change, and a concurrent change is not
//! overwritten.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

/// The shared harness with the store and plan given by the environment, a
/// fixed clock, and temporary files kept inside the folder.
struct Env(common::Env);

impl Env {
    /// A store with plan-e: an entry `start` and a call `fetch` (tool x).
    fn new() -> Env {
        let env = Env(common::Env::empty()
            .var_path("PLANFORGE_STORE", "plans")
            .var("PLANFORGE_PLAN", "plan-e")
            .var("PLANFORGE_NOW", "2026-01-01T00:00:00Z")
            .var_path("TMPDIR", "tmp")
            .var_path("XDG_STATE_HOME", "state")
            .var("PF_BIN", common::bin())
            .var_path("WORK", ""));
        std::fs::create_dir_all(env.path("tmp")).unwrap();
        for args in [
            "init",
            "create plan-e",
            "add-node start --kind entry --phase in --input ticket:string",
            "add-node fetch --kind call --phase in --tool x --arg id=@start.ticket --replay-safe",
            "connect start fetch",
        ] {
            let out = env.run(&args.split(' ').collect::<Vec<_>>(), None);
            assert!(out.status.success(), "{args}: {}", stderr(&out));
        }
        env
    }

    fn path(&self, p: &str) -> PathBuf {
        self.0.path(p)
    }

    fn run(&self, args: &[&str], editor: Option<&Path>) -> Output {
        let mut c = self.0.cmd(args);
        if let Some(e) = editor {
            c.env("EDITOR", e);
        }
        c.output().unwrap()
    }

    /// Writes an executable editor script.
    fn editor(&self, name: &str, body: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, format!("#!/bin/sh\nset -e\n{body}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        p
    }

    fn raw(&self) -> serde_json::Value {
        let out = self.run(&["raw", "--format", "json"], None);
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_slice(&out.stdout).unwrap()
    }

    fn node(&self, id: &str) -> serde_json::Value {
        self.raw()["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == id)
            .cloned()
            .unwrap_or(serde_json::Value::Null)
    }

    fn ops(&self) -> Vec<serde_json::Value> {
        std::fs::read_to_string(self.path("plans/plan-e/ops.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    /// Files left in the temp folder (kept edits).
    fn leftovers(&self) -> Vec<String> {
        std::fs::read_dir(self.path("tmp"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_changed_field_and_phase_land_as_one_transaction() {
    let env = Env::new();
    let before = env.ops().len();
    let editor = env.editor(
        "ed.sh",
        "cp \"$1\" \"$WORK/seen.yaml\"\nsed -i -e 's/^  tool: x$/  tool: tickets_get/' -e 's/^phase: in$/phase: fetching/' \"$1\"",
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("edited `fetch`"), "{}", stdout(&out));
    let seen = std::fs::read_to_string(env.path("seen.yaml")).unwrap();
    assert!(
        seen.starts_with("# planforge edit: node `fetch` of plan plan-e at revision 3."),
        "{seen}"
    );
    assert!(
        seen.contains("$ref:"),
        "references are in wire form: {seen}"
    );
    assert!(seen.contains("# Issues on `fetch` now:"), "{seen}");
    let node = env.node("fetch");
    assert_eq!(node["definition"]["tool"], "tickets_get");
    assert_eq!(node["phase"], "fetching");
    assert_eq!(node["definition"]["args"]["id"]["$ref"]["node"], "start");
    let ops = env.ops();
    let new = &ops[before..];
    assert_eq!(new.len(), 2, "{new:?}");
    assert_eq!(new[0]["tx"], new[1]["tx"]);
    assert_eq!(new[1]["txEnd"], true);
    assert_eq!(new[0]["op"], "set_node_phase");
    assert_eq!(new[1]["op"], "set_node_definition");
    assert!(env.leftovers().is_empty(), "{:?}", env.leftovers());
}

#[test]
fn broken_yaml_reopens_the_file_with_the_error_on_top() {
    let env = Env::new();
    // First run: break the YAML. Second run: the error is on top; fix it.
    let editor = env.editor(
        "ed.sh",
        r#"n=$(cat "$WORK/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$WORK/count"
cp "$1" "$WORK/run$n.yaml"
if grep -q '^# ! ' "$1"; then
  sed -i 's/^  tool: \[broken$/  tool: fixed_tool/' "$1"
else
  sed -i 's/^  tool: x$/  tool: [broken/' "$1"
fi"#,
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(env.path("count")).unwrap().trim(),
        "2"
    );
    let second = std::fs::read_to_string(env.path("run2.yaml")).unwrap();
    assert!(
        second.starts_with("# ! error: the edited node was not applied\n"),
        "{second}"
    );
    assert!(second.contains("at line"), "{second}");
    // One place only: the line in the file as reopened, and it is the
    // broken line.
    assert!(!second.contains("[line "), "{second}");
    let at: usize = second
        .split("at line ")
        .nth(1)
        .and_then(|t| t.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let bad = second
        .lines()
        .position(|l| l.contains("tool: [broken"))
        .unwrap()
        + 1;
    assert!(
        at == bad || at == bad + 1,
        "line {at} vs the broken line {bad}: {second}"
    );
    assert!(
        second.contains("tool: [broken"),
        "the person's text is kept: {second}"
    );
    assert_eq!(env.node("fetch")["definition"]["tool"], "fixed_tool");
}

#[test]
fn an_emptied_file_aborts_and_an_unchanged_one_writes_nothing() {
    let env = Env::new();
    let before = env.ops();
    let empty = env.editor("empty.sh", ": > \"$1\"");
    let out = env.run(&["edit", "fetch"], Some(&empty));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("aborted"), "{}", stdout(&out));
    let same = env.editor("same.sh", "true");
    let out = env.run(&["edit", "fetch"], Some(&same));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("no change to `fetch`"),
        "{}",
        stdout(&out)
    );
    assert_eq!(env.ops(), before);
}

/// The editor runs with the kernel's usual huge-page setting: planforge
/// takes it off for itself (src/model/pages.rs), and the kernel would pass
/// that on to what it starts.
#[cfg(target_os = "linux")]
#[test]
fn the_editor_gets_the_usual_page_setting_back() {
    let env = Env::new();
    let seen = env.editor(
        "thp.sh",
        "grep THP_enabled /proc/self/status > \"$WORK/thp\" || : > \"$WORK/thp\"",
    );
    let out = env.run(&["edit", "fetch"], Some(&seen));
    assert!(out.status.success(), "{}", stderr(&out));
    let thp = std::fs::read_to_string(env.path("thp")).unwrap();
    // A kernel that does not report it has nothing to give back.
    if !thp.is_empty() {
        assert_eq!(thp.split_whitespace().nth(1), Some("1"), "{thp}");
    }
}

#[test]
fn wrong_types_and_kind_changes_are_refused_in_the_file() {
    let env = Env::new();
    let before = env.ops();
    // Each run saves a refused change; the second run saves what it was
    // shown unchanged, which stops the edit with the refusal.
    let editor = env.editor(
        "ed.sh",
        r#"n=$(cat "$WORK/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$WORK/count"
cp "$1" "$WORK/run$n.yaml"
if [ $n = 1 ]; then sed -i -e 's/^kind: call$/kind: join/' "$1"; fi"#,
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let shown = std::fs::read_to_string(env.path("run2.yaml")).unwrap();
    assert!(shown.contains("cannot turn it into a join node"), "{shown}");
    assert!(shown.contains("remove-node fetch"), "{shown}");
    assert!(
        stderr(&out).contains("saved again without a change"),
        "{}",
        stderr(&out)
    );
    assert_eq!(env.ops(), before);
    // Giving up keeps the work, as kubectl does, and says where.
    assert!(
        stderr(&out).contains("your version is kept in"),
        "{}",
        stderr(&out)
    );
    for f in env.leftovers() {
        std::fs::remove_file(env.path("tmp").join(f)).unwrap();
    }

    std::fs::remove_file(env.path("count")).unwrap();
    let editor = env.editor(
        "ed2.sh",
        r#"n=$(cat "$WORK/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$WORK/count"
cp "$1" "$WORK/run$n.yaml"
if [ $n = 1 ]; then sed -i -e 's/^  replaySafe: true$/  replaySafe: 7\n  colour: red/' "$1"; fi"#,
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let shown = std::fs::read_to_string(env.path("run2.yaml")).unwrap();
    assert!(shown.contains("replaySafe"), "{shown}");
    assert!(shown.contains("`colour`"), "{shown}");
    assert_eq!(env.ops(), before);
}

#[test]
fn a_concurrent_change_to_the_node_is_not_overwritten() {
    let env = Env::new();
    // While the file is open, another process changes the same node.
    let editor = env.editor(
        "ed.sh",
        "\"$PF_BIN\" set fetch tool from_elsewhere >/dev/null\nsed -i 's/^  tool: x$/  tool: mine/' \"$1\"",
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("revision_moved"), "{err}");
    assert!(err.contains("your version is kept in"), "{err}");
    assert_eq!(env.node("fetch")["definition"]["tool"], "from_elsewhere");
    let kept = env.leftovers();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let kept = env.path("tmp").join(&kept[0]);
    let text = std::fs::read_to_string(&kept).unwrap();
    assert!(text.contains("tool: mine"), "{text}");
    assert!(err.contains("--from"), "{err}");
    // The kept copy changes the field the other writer changed: reopening
    // it on the current revision is a conflict, refused, nothing written.
    let keep_as_is = env.editor("same.sh", "true");
    let before = env.ops();
    let out = env.run(
        &["edit", "fetch", "--from", kept.to_str().unwrap()],
        Some(&keep_as_is),
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("revision_moved"), "{err}");
    assert!(
        err.contains("`tool` (now \"from_elsewhere\", yours \"mine\")"),
        "{err}"
    );
    assert_eq!(env.ops(), before);
    assert_eq!(env.node("fetch")["definition"]["tool"], "from_elsewhere");
    assert!(kept.exists());
    std::fs::remove_file(&kept).unwrap();

    // A change elsewhere in the plan meanwhile does not stop the edit.
    let editor = env.editor(
        "ed2.sh",
        "\"$PF_BIN\" phase start other >/dev/null\nsed -i 's/^  tool: from_elsewhere$/  tool: mine/' \"$1\"",
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(env.node("fetch")["definition"]["tool"], "mine");
    assert_eq!(env.node("start")["phase"], "other");
}

#[test]
fn a_kept_file_reopened_later_keeps_the_other_writers_change() {
    let env = Env::new();
    // While the file is open, another process changes another field of
    // the node; the person changes the tool.
    let editor = env.editor(
        "ed.sh",
        "\"$PF_BIN\" set fetch replaySafe false >/dev/null\nsed -i 's/^  tool: x$/  tool: mine/' \"$1\"",
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let kept = env.path("tmp").join(&env.leftovers()[0]);
    // Reopened and saved as it opens: the person's tool, and the other
    // writer's replaySafe (not the stale `true` in the file), and the file
    // says which field it took from the newer revision.
    let look = env.editor("look.sh", "cp \"$1\" \"$WORK/reopened.yaml\"");
    let out = env.run(
        &["edit", "fetch", "--from", kept.to_str().unwrap()],
        Some(&look),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = std::fs::read_to_string(env.path("reopened.yaml")).unwrap();
    assert!(
        shown.contains("the changes made since to `replaySafe` are kept"),
        "{shown}"
    );
    assert_eq!(env.node("fetch")["definition"]["tool"], "mine");
    assert_eq!(env.node("fetch")["definition"]["replaySafe"], false);
    // Applied, the kept copy is spent: removed, and the note says so.
    assert!(!kept.exists(), "{}", kept.display());
    assert!(
        stderr(&out).contains(&format!("note: removed the kept file {}", kept.display())),
        "{}",
        stderr(&out)
    );
    // A file of one's own given to --from stays.
    let mine = env.path("mine.yaml");
    std::fs::copy(env.path("reopened.yaml"), &mine).unwrap();
    let sed = env.editor("sed.sh", "sed -i 's/^  tool: mine$/  tool: again/' \"$1\"");
    let out = env.run(
        &["edit", "fetch", "--from", mine.to_str().unwrap()],
        Some(&sed),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(mine.exists());
}

#[test]
fn a_kept_file_without_its_revision_is_refused_with_the_edit_command() {
    let env = Env::new();
    let kept = env.path("headless.yaml");
    std::fs::write(&kept, "tool: mine\n").unwrap();
    let sed = env.editor("noop.sh", "true");
    let out = env.run(
        &["edit", "fetch", "--from", kept.to_str().unwrap()],
        Some(&sed),
    );
    let err = stderr(&out);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("does not say which revision it was made at"),
        "{err}"
    );
    assert!(err.contains("help: planforge edit fetch"), "{err}");
    assert!(
        err.contains("editing the node again starts from it as it is"),
        "{err}"
    );
}

#[test]
fn an_editor_that_never_fixes_the_file_stops_after_twenty_reopens() {
    let env = Env::new();
    let editor = env.editor(
        "ed.sh",
        "echo 'tool: [' >> \"$1\"; echo x >> \"$WORK/saves\"",
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(
            "the file still did not read after 20 reopens, so the edit stopped; nothing was written"
        ),
        "{}",
        stderr(&out)
    );
    let saves = std::fs::read_to_string(env.path("saves")).unwrap();
    assert_eq!(saves.lines().count(), 21);
    assert_eq!(env.leftovers().len(), 1, "the file is kept");
}

#[test]
fn refusals_come_before_the_editor_opens() {
    let env = Env::new();
    let editor = env.editor("ed.sh", "touch \"$WORK/opened\"");
    let out = env.run(&["edit", "nope"], Some(&editor));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no node `nope`"), "{}", stderr(&out));
    for args in [
        "create plan-f",
        "add-node start --kind entry --input ticket:string -p plan-f",
        "freeze -p plan-f",
    ] {
        let out = env.run(&args.split(' ').collect::<Vec<_>>(), None);
        assert!(out.status.success(), "{args}: {}", stderr(&out));
    }
    let out = env.run(&["edit", "start", "-p", "plan-f"], Some(&editor));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("not_editable"), "{}", stderr(&out));
    assert!(!env.path("opened").exists());
    let out = env.run(&["edit", "fetch"], Some(Path::new("/nonexistent/editor")));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("could not start the editor"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_editor_run_from_a_repl_script_does_not_read_the_script() {
    let env = Env::new();
    // An editor that reads a line from its standard input and records it.
    let editor = env.editor(
        "reader",
        "IFS= read -r line || line='(nothing)'\necho \"$line\" > \"$WORK/seen\"",
    );
    let mut c = env.0.cmd(&["repl"]);
    c.env("EDITOR", &editor);
    let out = common::output_with_stdin(c, b"edit fetch\nadd-node later --kind join\n");
    assert!(out.status.success(), "{}", stderr(&out));
    let seen = std::fs::read_to_string(env.path("seen")).unwrap();
    assert!(
        !seen.contains("add-node"),
        "the editor read the script: {seen}"
    );
    assert!(
        env.node("later").is_object(),
        "the line after `edit` did not run"
    );
}

#[test]
fn the_default_editor_is_refused_without_a_terminal() {
    if std::fs::File::open("/dev/tty").is_ok() {
        // A controlling terminal exists here: `vi` would open on it.
        return;
    }
    let env = Env::new();
    let mut c = env.0.cmd(&["edit", "fetch"]);
    c.env_remove("EDITOR").env_remove("VISUAL");
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no terminal"), "{}", stderr(&out));
}

#[test]
fn the_line_of_a_stopped_edit_counts_in_the_kept_file() {
    let env = Env::new();
    let editor = env.editor(
        "ed.sh",
        r#"n=$(cat "$WORK/count" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$WORK/count"
if [ $n = 1 ]; then sed -i -e 's/^  replaySafe: true$/  replaySafe: [oops/' "$1"; fi"#,
    );
    let out = env.run(&["edit", "fetch"], Some(&editor));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    let kept = env.leftovers();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let text = std::fs::read_to_string(env.path("tmp").join(&kept[0])).unwrap();
    let at = text
        .lines()
        .position(|l| l.contains("[oops"))
        .expect("the broken line is kept")
        + 1;
    // The YAML parser notices an unclosed flow sequence on that line or the
    // next; either way the terminal and the file's header name one line.
    let named = |s: &str, pat: &str| -> usize {
        let i = s.find(pat).unwrap_or_else(|| panic!("no {pat:?} in {s}")) + pat.len();
        s[i..]
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let on_terminal = named(&err, "[line ");
    assert!(on_terminal == at || on_terminal == at + 1, "{err}\n{text}");
    assert_eq!(on_terminal, named(&text, "at line "), "{err}\n{text}");
    for f in env.leftovers() {
        std::fs::remove_file(env.path("tmp").join(f)).unwrap();
    }
}
