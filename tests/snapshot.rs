//! The snapshot (`checkpoint.snap`) beside a plan's log never answers for a
//! log it is not the fold of: after a real `git merge` of two clones, a
//! checkout of an older log, or a damaged snapshot, every one-shot read
//! says what a read without any snapshot says.

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
