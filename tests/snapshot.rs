//! The snapshot (`checkpoint.snap`) beside a plan's log never answers for a
//! log it is not the fold of: after a real `git merge` of two clones, a
//! checkout of an older log, or a damaged snapshot, every one-shot read
//! says what a read without any snapshot says.

#[allow(dead_code)]
#[path = "../examples/gen_plan.rs"]
mod gen_plan;

mod common;

use common::Env;
use std::path::Path;
use std::process::{Command, Stdio};

/// `git ARGS` in `dir`, isolated from the machine's configuration.
fn git(home: &Path, dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .current_dir(dir)
        .args([
            "-c",
            "user.email=team@example.invalid",
            "-c",
            "user.name=Team",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .stdin(Stdio::null())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
        .env("GIT_MERGE_AUTOEDIT", "no")
        .env("GIT_EDITOR", "true")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env("LC_ALL", "C")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What the one-shot reads say, with the snapshot as it is.
fn reads(env: &Env) -> Vec<String> {
    let mut out = vec![
        env.ok(&["--format", "json", "status", "-p", "plan-g"]),
        env.ok(&["--format", "json", "outline", "-p", "plan-g"]),
        env.ok(&["raw", "-p", "plan-g"]),
    ];
    for n in ["a", "b", "ours", "theirs"] {
        out.push(
            String::from_utf8_lossy(
                &env.run(&["--format", "json", "read", "--node", n, "-p", "plan-g"])
                    .stdout,
            )
            .into_owned(),
        );
    }
    out
}

/// The reads agree with reads that have no snapshot to start from.
fn same_as_without_snapshot(env: &Env, why: &str) {
    let snap = env.store().join("plan-g").join("checkpoint.snap");
    let with = reads(env);
    assert!(snap.is_file(), "{why}: a snapshot was written");
    std::fs::remove_file(&snap).unwrap();
    std::fs::remove_file(env.store().join("plan-g").join("checkpoint.json")).ok();
    let without = reads(env);
    assert_eq!(with, without, "{why}");
}

#[test]
fn a_git_merge_of_two_clones_is_read_from_the_merged_log() {
    let home = tempfile::tempdir().unwrap();
    let ours = Env::new();
    ours.ok(&["create", "plan-g"]);
    ours.ok(&["add-node", "a", "--kind", "entry", "-p", "plan-g"]);
    ours.ok(&["add-node", "b", "--kind", "join", "-p", "plan-g"]);
    git(home.path(), &ours.root, &["init", "-q"]);
    git(home.path(), &ours.root, &["add", "-A"]);
    git(home.path(), &ours.root, &["commit", "-qm", "start"]);
    // The snapshot is ignored by git, in every store `init` made.
    let st = Command::new("git")
        .current_dir(&ours.root)
        .args(["check-ignore", "-q", "plans/plan-g/checkpoint.snap"])
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", home.path())
        .status()
        .unwrap();
    assert!(st.success(), "checkpoint.snap is ignored");
    let theirs = Env::empty();
    std::fs::remove_dir(&theirs.root).unwrap();
    git(
        home.path(),
        Path::new("/"),
        &[
            "clone",
            "-q",
            ours.root.to_str().unwrap(),
            theirs.root.to_str().unwrap(),
        ],
    );
    theirs.ok(&["add-node", "theirs", "--kind", "reason", "-p", "plan-g"]);
    theirs.ok(&["connect", "a", "theirs", "-p", "plan-g"]);
    git(home.path(), &theirs.root, &["commit", "-qam", "theirs"]);
    // Ours writes too, and reads: its snapshot holds its own log.
    ours.ok(&["add-node", "ours", "--kind", "reason", "-p", "plan-g"]);
    ours.ok(&["status", "-p", "plan-g"]);
    git(home.path(), &ours.root, &["commit", "-qam", "ours"]);
    let before = reads(&ours);
    git(
        home.path(),
        &ours.root,
        &[
            "pull",
            "-q",
            "--no-rebase",
            theirs.root.to_str().unwrap(),
            "main",
        ],
    );
    let after = reads(&ours);
    assert_ne!(before, after, "the merge is seen");
    assert!(after[2].contains("\"theirs\""), "{}", after[2]);
    assert!(after[2].contains("\"ours\""), "{}", after[2]);
    same_as_without_snapshot(&ours, "after the merge");
    // A write on the merged log starts from the new snapshot and agrees.
    ours.ok(&["connect", "a", "ours", "-p", "plan-g"]);
    same_as_without_snapshot(&ours, "after a write on the merged log");
    // Back to the log before the merge (a checkout of the older commit):
    // a shorter log, another file.
    git(
        home.path(),
        &ours.root,
        &["checkout", "-q", "HEAD~1", "--", "plans"],
    );
    let back = reads(&ours);
    assert!(!back[2].contains("\"theirs\""), "{}", back[2]);
    same_as_without_snapshot(&ours, "after a checkout of the older log");
}

#[test]
fn a_damaged_snapshot_is_rebuilt_and_never_an_error() {
    let env = Env::new();
    env.ok(&["create", "plan-g"]);
    env.ok(&["add-node", "a", "--kind", "entry", "-p", "plan-g"]);
    env.ok(&["add-node", "b", "--kind", "join", "-p", "plan-g"]);
    env.ok(&["connect", "a", "b", "-p", "plan-g"]);
    let good = reads(&env);
    let snap = env.store().join("plan-g").join("checkpoint.snap");
    let bytes = std::fs::read(&snap).unwrap();
    let flipped = |at: usize| {
        let mut b = bytes.clone();
        b[at] ^= 1;
        b
    };
    // Whether the reads themselves find the damage (and rebuild the
    // snapshot): they check the head, and only the chunks they read.
    for (why, damaged, found) in [
        ("empty", Vec::new(), true),
        ("cut in half", bytes[..bytes.len() / 2].to_vec(), true),
        ("text", b"{\"not\": \"a snapshot\"}".to_vec(), true),
        ("one byte flipped in the head", flipped(40), true),
        (
            "one byte flipped near the end",
            flipped(bytes.len() - 40),
            false,
        ),
    ] {
        std::fs::write(&snap, &damaged).unwrap();
        assert_eq!(reads(&env), good, "{why}");
        if found {
            assert_ne!(std::fs::read(&snap).unwrap(), damaged, "{why}: rebuilt");
        }
    }
    // A chunk no read asked for is checked by the first load that needs
    // it: a write's, or a read's with a tail to fold (which read every
    // chunk), folds the log instead, and the snapshot is rebuilt.
    env.ok(&["add-node", "c", "--kind", "join", "-p", "plan-g"]);
    let after = reads(&env);
    assert_ne!(std::fs::read(&snap).unwrap(), flipped(bytes.len() - 40));
    std::fs::remove_file(&snap).unwrap();
    assert_eq!(reads(&env), after, "the same as without a snapshot");
    // A verdict never reads it: validate of the stored plan checks afresh.
    let v = env.run(&["validate", "-p", "plan-g"]);
    let v2 = {
        std::fs::remove_file(&snap).unwrap();
        env.run(&["validate", "-p", "plan-g"])
    };
    assert_eq!(v.stdout, v2.stdout);
    assert_eq!(v.status.code(), v2.status.code());
}

/// Two stores of the same generated 1,000-node plan, with the clock and
/// the ids fixed: what one says, the other must say.
fn twin_stores() -> (Env, Env, serde_json::Value) {
    let (doc, _) = gen_plan::generate(&gen_plan::Opts {
        nodes: 1000,
        phases: 4,
        seed: 7,
        unphased: 0,
        plan_id: Some("plan-big".into()),
        rich: false,
    });
    let text = serde_json::to_string(&doc).unwrap();
    let env = || {
        let e = Env::new()
            .var("PLANFORGE_NOW", "2026-01-02T03:04:05Z")
            .var("PLANFORGE_ID_SEED", "late-import");
        let file = e.write("plan.json", &text);
        e.ok(&["import", file.to_str().unwrap()]);
        e.ok(&["status", "-p", "plan-big"]);
        e
    };
    (env(), env(), doc)
}

/// A string of node `at`'s definition in `doc` (not its tool) that the
/// snapshot of `env` holds exactly once.
fn unique_def_string(env: &Env, doc: &serde_json::Value, at: usize) -> String {
    own_string(env, doc, at).unwrap_or_else(|| {
        let def = &doc["nodes"][at]["definition"];
        panic!("node {at} has a string of its own: {def:?}")
    })
}

/// [`unique_def_string`], or `None` when node `at` has none.
fn own_string(env: &Env, doc: &serde_json::Value, at: usize) -> Option<String> {
    let bytes = std::fs::read(env.store().join("plan-big").join("checkpoint.snap")).unwrap();
    let def = doc["nodes"][at]["definition"].as_object().unwrap();
    // Every string of the definition at any depth, but the tool (which
    // the head part holds too).
    let mut strings = Vec::new();
    let mut todo: Vec<&serde_json::Value> = def
        .iter()
        .filter(|(k, _)| *k != "tool")
        .map(|(_, v)| v)
        .collect();
    while let Some(v) = todo.pop() {
        match v {
            serde_json::Value::String(s) if s.len() >= 8 => strings.push(s.clone()),
            serde_json::Value::Array(a) => todo.extend(a),
            serde_json::Value::Object(o) => todo.extend(o.values()),
            _ => {}
        }
    }
    let once = |v: &String| {
        bytes
            .windows(v.len())
            .filter(|w| *w == v.as_bytes())
            .count()
            == 1
    };
    strings.into_iter().find(once)
}

/// Changes one letter of `text` where the snapshot of `env` holds it (in a
/// chunk's definitions part: only its own checksum, checked when the first
/// definition of that chunk is read, can find it).
fn damage(env: &Env, text: &str) -> Vec<u8> {
    let snap = env.store().join("plan-big").join("checkpoint.snap");
    let mut bytes = std::fs::read(&snap).unwrap();
    let at = bytes
        .windows(text.len())
        .position(|w| w == text.as_bytes())
        .unwrap_or_else(|| panic!("the snapshot holds {text:?}"));
    let mid = at + text.len() / 2;
    bytes[mid] = if bytes[mid] == b'q' { b'z' } else { b'q' };
    std::fs::write(&snap, &bytes).unwrap();
    bytes[at..at + text.len()].to_vec()
}

/// What a command says, the store's folder left out; the ids it mints
/// follow `seed` (the clock is fixed: see [`twin_stores`]).
fn said(env: &Env, args: &[&str], seed: &str) -> (Option<i32>, String, String) {
    let o = env
        .cmd(args)
        .env("PLANFORGE_ID_SEED", seed)
        .output()
        .unwrap();
    let root = env.root.to_str().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).replace(root, "ROOT"),
        String::from_utf8_lossy(&o.stderr).replace(root, "ROOT"),
    )
}

/// Late damage (issue 17): a chunk's definitions part is checked only when
/// a definition in it is first read, after the load said the snapshot was
/// sound. Damaged then, under a write that reads it (a field set in that
/// chunk, a connect whose echo shows a node of it, an undo), and under the
/// reads after: every output is the one a store without the snapshot
/// gives (no wrong answer, no partial write), and the snapshot is made
/// sound again.
#[test]
fn a_definitions_part_damaged_after_the_load_said_sound_never_gives_a_wrong_answer() {
    let (hit, clean, doc) = twin_stores();
    let snap = hit.store().join("plan-big").join("checkpoint.snap");
    // Nodes 300 and 301 lie in the second chunk of nodes (256 to a chunk);
    // 301's string is the one damaged, so that the write's own node is not
    // what finds it.
    let node = doc["nodes"][300]["id"].as_str().unwrap().to_string();
    let def = doc["nodes"][300]["definition"].as_object().unwrap();
    let key = def
        .iter()
        .find(|(k, v)| v.is_string() && *k != "tool")
        .map(|(k, _)| k.clone())
        .expect("a string field");
    let other = doc["nodes"][10]["id"].as_str().unwrap().to_string();
    let steps: Vec<Vec<String>> = vec![
        vec!["set".into(), node.clone(), key.clone(), "late".into()],
        vec![
            "connect".into(),
            other.clone(),
            node.clone(),
            "--id".into(),
            "e_late".into(),
        ],
        vec!["undo".into()],
        vec![
            "--format".into(),
            "json".into(),
            "set".into(),
            node.clone(),
            key.clone(),
            "again".into(),
        ],
    ];
    let reads: Vec<Vec<String>> = vec![
        vec!["show".into()],
        vec![
            "--format".into(),
            "json".into(),
            "read".into(),
            "--node".into(),
            node.clone(),
        ],
        vec!["--format".into(), "json".into(), "status".into()],
        vec!["outline".into()],
        vec!["export".into()],
    ];
    let with_plan = |args: &[String]| {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        a.extend(["-p", "plan-big"]);
        a.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    for step in &steps {
        // A sound snapshot of the plan as it is, then one letter of node
        // 301's definition changed in it.
        hit.ok(&["status", "-p", "plan-big"]);
        let text = unique_def_string(&hit, &doc, 301);
        let damaged = damage(&hit, &text);
        // The clean store has no snapshot to start from.
        std::fs::remove_file(clean.store().join("plan-big").join("checkpoint.snap")).ok();
        let args = with_plan(step);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let seed = format!("late-{}", step.join("-"));
        let got = said(&hit, &args, &seed);
        let want = said(&clean, &args, &seed);
        assert_eq!(got, want, "{step:?}");
        assert_eq!(got.0, Some(0), "{step:?}: {}", got.2);
        for read in &reads {
            let args = with_plan(read);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            std::fs::remove_file(clean.store().join("plan-big").join("checkpoint.snap")).ok();
            assert_eq!(
                said(&hit, &args, "late-read"),
                said(&clean, &args, "late-read"),
                "{read:?} after {step:?}"
            );
        }
        // The reads found the damage if the write did not: the snapshot
        // is sound again.
        let bytes = std::fs::read(&snap).unwrap();
        assert!(
            !bytes.windows(damaged.len()).any(|w| w == damaged),
            "{step:?}: the damaged part is gone"
        );
    }
    // The logs are the same, line for line.
    let log = |e: &Env| std::fs::read(e.store().join("plan-big").join("ops.jsonl")).unwrap();
    assert_eq!(log(&hit), log(&clean));
}

/// `status` after a write that only added nodes builds each definition it
/// reads when it reads it (the digest reads the last ones, the checks the
/// touched ones). A definitions part found damaged then (the last nodes
/// the snapshot holds, which the digest reads again) makes it answer
/// from the log's fold; one it never reads (the first nodes) cannot make
/// its answer wrong. Either way it says what a store without the snapshot
/// says, and the damaged part does not stay.
#[test]
fn a_status_after_an_added_node_reads_damaged_definitions_never_wrongly() {
    let (hit, clean, doc) = twin_stores();
    let snap = hit.store().join("plan-big").join("checkpoint.snap");
    let status = ["--format", "json", "status", "-p", "plan-big"];
    // The nodes near the end, then near the start.
    let last = (900..1000).rev();
    for (k, mut near) in [last.collect::<Vec<_>>(), (1..100).collect()]
        .into_iter()
        .enumerate()
    {
        hit.ok(&["status", "-p", "plan-big"]);
        let id = format!("added_{k}");
        for e in [&hit, &clean] {
            e.ok(&["add-node", &id, "--kind", "join", "-p", "plan-big"]);
        }
        let (at, text) = (near.drain(..))
            .find_map(|at| Some((at, own_string(&hit, &doc, at)?)))
            .expect("a node with a string of its own");
        let damaged = damage(&hit, &text);
        std::fs::remove_file(clean.store().join("plan-big").join("checkpoint.snap")).ok();
        let got = said(&hit, &status, "late-status");
        assert_eq!(got, said(&clean, &status, "late-status"), "node {at}");
        assert_eq!(got.0, Some(0), "{}", got.2);
        // A part the status did not read is found by the next read of
        // every definition.
        let show = ["show", "-p", "plan-big"];
        assert_eq!(
            said(&hit, &show, "late-show"),
            said(&clean, &show, "late-show")
        );
        let bytes = std::fs::read(&snap).unwrap_or_default();
        assert!(
            !bytes.windows(damaged.len()).any(|w| w == damaged),
            "node {at}: the damaged part is gone"
        );
    }
}
