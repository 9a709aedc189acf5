//! The core as a new user runs it: lifecycle, documents, digests, the store
//! under concurrency and crashes, hostile ids, bounded echoes, JSON errors.

mod common;

use common::{Env, bin, copy_tree};
use serde_json::{Value, json};
use std::path::Path;
use std::process::{Command, Stdio};

/// An entry and a call that reads nothing tainted.
fn small_plan(env: &Env, id: &str) {
    env.ok(&["create", id]);
    env.ok(&[
        "add-node",
        "start",
        "--kind",
        "entry",
        "--input",
        "ticket_id:string:64",
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
        "path=tickets/latest.json",
        "--output",
        "content:string",
        "--authority",
        "tickets/support/read",
        "--replay-safe",
        "--on-indeterminate",
        "retry",
        "--on-missing-value",
        "fail",
    ]);
    env.ok(&["connect", "start", "fetch"]);
}

#[test]
fn lifecycle_create_to_executable_then_refuse_with_clone_advice() {
    let env = Env::new();
    small_plan(&env, "plan-life");
    let frozen = env.run(&["freeze"]);
    assert_eq!(
        frozen.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&frozen.stdout)
    );
    env.ok(&["submit", "--yes"]);
    let status = env.json(&["status"]);
    assert_eq!(status["state"], "executable");
    assert_eq!(
        status["approval"]["authoritySet"][0]["capability"],
        "tickets"
    );
    for args in [
        vec!["add-node", "late", "--kind", "join"],
        vec!["set", "fetch", "tool", "x"],
        vec!["connect", "fetch", "start"],
        vec!["remove-node", "fetch"],
        vec!["bounds", "--max-nodes", "9"],
        vec!["unfreeze"],
    ] {
        let out = env.run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("clone"), "{args:?}: {err}");
    }
    // Nothing moved.
    assert_eq!(env.json(&["status"])["revision"], status["revision"]);
}

#[test]
fn export_import_export_keeps_nodes_and_edges() {
    let env = Env::new();
    small_plan(&env, "plan-src");
    env.ok(&["set", "fetch", "args.note", "@start.ticket_id", "--add"]);
    let first: serde_json::Value = serde_json::from_str(&env.ok(&["export"])).unwrap();
    let file = env.root.join("doc.json");
    std::fs::write(&file, serde_json::to_string(&first).unwrap()).unwrap();
    env.ok(&["import", file.to_str().unwrap(), "--id", "plan-copy"]);
    let second: serde_json::Value =
        serde_json::from_str(&env.ok(&["export", "-p", "plan-copy"])).unwrap();
    assert_eq!(first["nodes"], second["nodes"]);
    assert_eq!(first["edges"], second["edges"]);
    assert_eq!(first["bounds"], second["bounds"]);
    assert_eq!(
        second["nodes"][1]["definition"]["args"]["note"]["$ref"]["node"],
        "start"
    );
    // A claimed digest the content does not have is refused, nothing imported.
    let mut forged = first.clone();
    forged["nodes"][1]["definition"]["tool"] = "other".into();
    std::fs::write(&file, serde_json::to_string(&forged).unwrap()).unwrap();
    assert_eq!(
        env.code(&["import", file.to_str().unwrap(), "--id", "plan-forged"]),
        1
    );
    assert!(!env.store().join("plan-forged").exists());
    // A claimed state is dropped with a note.
    let yaml_file = env.root.join("doc.yaml");
    std::fs::write(
        &yaml_file,
        env.ok(&["export", "-p", "plan-src", "--format", "yaml"]),
    )
    .unwrap();
    let out = env.run(&["import", yaml_file.to_str().unwrap(), "--id", "plan-yaml"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let back: serde_json::Value =
        serde_json::from_str(&env.ok(&["export", "-p", "plan-yaml"])).unwrap();
    assert_eq!(first["nodes"], back["nodes"]);
}

#[test]
fn digest_is_stable_changes_with_content_and_matches_in_json_and_yaml() {
    let build = || {
        let env = Env::new();
        small_plan(&env, "plan-d");
        env
    };
    let a = build();
    let b = build();
    let da = a.json(&["status"])["digest"].clone();
    assert_eq!(
        da,
        b.json(&["status"])["digest"],
        "same content, same digest"
    );
    let json_doc: serde_json::Value = serde_json::from_str(&a.ok(&["export"])).unwrap();
    let yaml_text = a.ok(&["export", "--format", "yaml"]);
    let yaml_digest = yaml_text
        .lines()
        .find_map(|l| l.strip_prefix("digest: "))
        .unwrap()
        .trim_matches('"');
    assert_eq!(json_doc["digest"], da);
    assert_eq!(yaml_digest, da.as_str().unwrap());
    a.ok(&["set", "fetch", "args.path", "tickets/other.json"]);
    assert_ne!(a.json(&["status"])["digest"], da);
}

#[test]
fn eight_processes_adding_twenty_five_nodes_each_lose_nothing() {
    let env = Env::new();
    env.ok(&["create", "plan-busy"]);
    env.ok(&["bounds", "--max-nodes", "1000"]);
    let root = env.root.clone();
    let workers: Vec<_> = (0..8)
        .map(|w| {
            let root = root.clone();
            std::thread::spawn(move || {
                for i in 0..25 {
                    let out = Command::new(bin())
                        .current_dir(&root)
                        .args(["add-node", &format!("w{w}_n{i}"), "--kind", "join"])
                        .env("NO_COLOR", "1")
                        .env("PLANFORGE_ACTOR", format!("worker{w}"))
                        .env("PLANFORGE_LOCK_TIMEOUT_MS", "60000")
                        .env_remove("PLANFORGE_PLAN")
                        .stdin(Stdio::null())
                        .output()
                        .unwrap();
                    assert!(
                        out.status.success(),
                        "worker {w} node {i}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let status = env.json(&["status"]);
    assert_eq!(status["nodeCount"], 200);
    assert_eq!(status["revision"], 201);
}

#[test]
fn writers_killed_at_random_moments_never_break_the_plan() {
    let env = Env::new();
    env.ok(&["create", "plan-kill"]);
    env.ok(&["bounds", "--max-nodes", "1000"]);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for round in 0..60 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mut child = env
            .cmd(&["add-node", &format!("k{round}"), "--kind", "join"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(seed % 25_000));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let out = env.run(&["--format", "json", "status"]);
        assert!(
            out.status.success(),
            "round {round}: the plan no longer loads: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        env.ok(&["add-node", &format!("after{round}"), "--kind", "join"]);
    }
    let raw = env.ok(&["export"]);
    for round in 0..60 {
        assert!(
            raw.contains(&format!("\"after{round}\"")),
            "write after round {round} was lost"
        );
    }
}

#[test]
fn a_write_cut_at_any_byte_lands_whole_or_not_at_all() {
    let env = Env::new();
    small_plan(&env, "plan-cut");
    let before = env.json(&["status"]);
    // A remove_node line is well over 100 bytes (ids, time, edge ids).
    for cut in [1, 10, 50, 99] {
        let out = env
            .cmd(&["remove-node", "--yes", "fetch"])
            .env("PLANFORGE_TEST_CRASH_AFTER_BYTES", cut.to_string())
            .output()
            .unwrap();
        assert!(
            !out.status.success(),
            "the write should have been cut at {cut}"
        );
        let now = env.json(&["status"]);
        assert_eq!(
            now["revision"], before["revision"],
            "a cut write must not land (cut at {cut})"
        );
        assert_eq!(now["nodeCount"], before["nodeCount"]);
        assert!(
            now["issues"]["advisory"].as_u64().unwrap() >= 1,
            "the torn write is reported (torn_tail)"
        );
    }
    // The next write repairs the tail and lands.
    env.ok(&["set", "fetch", "args.path", "x.json"]);
    let ops = std::fs::read_to_string(env.store().join("plan-cut/ops.jsonl")).unwrap();
    for (i, line) in ops.lines().enumerate() {
        assert!(
            serde_json::from_str::<serde_json::Value>(line).is_ok(),
            "line {} is damaged: {line}",
            i + 1
        );
    }
    assert_eq!(
        env.json(&["status"])["revision"],
        before["revision"].as_u64().unwrap() + 1
    );
}

fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into())
        .collect();
    v.sort();
    v
}

#[test]
fn plan_ids_never_escape_the_store() {
    let env = Env::new();
    let outside = listing(&env.root);
    for id in [
        "../evil",
        "plan-a/../../x",
        "plan-../x",
        "/tmp/x",
        "plan-a\tb",
        "plan-\u{202e}x",
    ] {
        assert_eq!(env.code(&["create", id]), 2, "{id:?}");
        assert_eq!(env.code(&["clone", id, "-p", "plan-none"]), 2, "{id:?}");
    }
    assert_eq!(listing(&env.root), outside);
    assert_eq!(
        listing(&env.store())
            .iter()
            .filter(|n| n.starts_with("plan"))
            .count(),
        0
    );
}

#[test]
fn echoes_stay_small_on_a_two_thousand_node_plan() {
    let env = Env::new();
    let mut nodes =
        vec![serde_json::json!({"id": "start", "kind": "entry", "definition": {"input": []}})];
    let mut edges = Vec::new();
    for i in 0..1999 {
        nodes.push(serde_json::json!({"id": format!("n{i}"), "phase": format!("p{}", i % 7), "kind": "join", "definition": {}}));
        let from = if i == 0 {
            "start".to_string()
        } else {
            format!("n{}", i - 1)
        };
        edges.push(serde_json::json!({"id": format!("e{i}"), "from": from, "to": format!("n{i}"), "handle": "always"}));
    }
    let doc = serde_json::json!({
        "formatVersion": 1, "planId": "plan-big",
        "bounds": {"maxNodes": 5000, "maxEdges": 5000, "maxSteps": 100000, "maxConcurrentFrames": 32, "maxEncodedBytes": 10000000},
        "nodes": nodes, "edges": edges,
    });
    let file = env.root.join("big.json");
    std::fs::write(&file, serde_json::to_string(&doc).unwrap()).unwrap();
    env.ok(&["import", file.to_str().unwrap()]);
    for args in [
        vec!["add-node", "extra", "--kind", "join", "--phase", "p1"],
        vec!["connect", "n500", "extra"],
        vec!["remove-node", "--yes", "n1000"],
        vec!["bounds", "--max-steps", "200000"],
    ] {
        let out = env.ok(&args);
        assert!(
            out.len() <= 1200,
            "{args:?} printed {} bytes:\n{out}",
            out.len()
        );
    }
}

#[test]
fn json_errors_are_one_document_with_a_code() {
    let env = Env::new();
    let out = env.run(&["--format", "json", "status", "-p", "plan-nope"]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["formatVersion"], 1);
    assert_eq!(v["error"]["code"], "unknown_plan");
    assert!(out.stderr.is_empty());
    // Usage errors too.
    let out = env.run(&["--format", "json", "connect"]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "invalid_input");
    // A missing store is a store failure, and says so.
    let out = env.run(&["--format", "json", "--store", "nowhere", "list"]);
    assert_eq!(out.status.code(), Some(3));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["error"]["code"], "no_store");
}

#[test]
fn malformed_input_is_refused_with_exit_two_and_nothing_written() {
    let env = Env::new();
    small_plan(&env, "plan-bad");
    let rev = env.json(&["status"])["revision"].clone();
    let cases: Vec<Vec<&str>> = vec![
        vec!["add-node", "x", "--kind", "call", "--def", "{\"tool\": "],
        vec!["add-node", "x", "--kind", "banana"],
        vec![
            "add-node",
            "x",
            "--kind",
            "call",
            "--def",
            r#"{"args": {"a": {"$ref": "x"}}}"#,
        ],
        vec![
            "add-node",
            "x",
            "--kind",
            "call",
            "--def",
            r#"{"args": {"a": {"$ref": {"node": "start"}}}}"#,
        ],
        vec!["add-node", "x", "--kind", "call", "--def", r#"{"tool": 7}"#],
        vec![
            "add-node",
            "x",
            "--kind",
            "call",
            "--def",
            r#"{"tol": "a"}"#,
        ],
        vec!["add-node", "Bad/Id", "--kind", "join"],
        vec!["add-node", "x", "--kind", "join", "--phase", " padded"],
        vec!["set", "fetch", "args.path", "{oops"],
        vec!["set", "ghost", "tool", "x"],
        vec!["connect", "start", "ghost"],
        vec!["connect", "start", "fetch", "--id", "bad id"],
        vec!["set", "fetch", "replaySafe", "\"yes\""],
    ];
    for args in cases {
        let out = env.run(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error["), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert_eq!(env.json(&["status"])["revision"], rev);
    // A forbidden handle is a rule refusal: exit 1.
    assert_eq!(
        env.code(&["connect", "start", "fetch", "--handle", "error"]),
        1
    );
    // Adding an existing id without --replace: exit 1.
    assert_eq!(env.code(&["add-node", "fetch", "--kind", "join"]), 1);
    assert_eq!(env.json(&["status"])["revision"], rev);
}

#[test]
fn expect_rev_refuses_a_moved_plan() {
    let env = Env::new();
    small_plan(&env, "plan-rev");
    let rev = env.json(&["status"])["revision"].as_u64().unwrap();
    assert_eq!(
        env.code(&[
            "add-node",
            "a",
            "--kind",
            "join",
            "--expect-rev",
            &(rev - 1).to_string()
        ]),
        1
    );
    env.ok(&[
        "add-node",
        "a",
        "--kind",
        "join",
        "--expect-rev",
        &rev.to_string(),
    ]);
}

#[test]
fn clone_at_a_revision_copies_a_prefix_with_provenance() {
    let env = Env::new();
    small_plan(&env, "plan-parent");
    env.ok(&["clone", "plan-kid", "--at", "2"]);
    let kid = env.json(&["status", "-p", "plan-kid"]);
    assert_eq!(kid["revision"], 2);
    assert_eq!(kid["state"], "editable");
    assert_eq!(kid["provenance"]["kind"], "clone");
    assert_eq!(kid["provenance"]["parent"], "plan-parent");
    assert_eq!(
        env.code(&["clone", "plan-kid"]),
        1,
        "a taken id is a duplicate"
    );
    assert_eq!(
        env.code(&["clone", "plan-kid2", "--at", "99", "-p", "plan-parent"]),
        2
    );
}

#[test]
fn a_frozen_plan_edited_by_hand_is_caught_and_cannot_be_submitted() {
    let env = Env::new();
    small_plan(&env, "plan-tamper");
    env.ok(&["freeze"]);
    let ops_path = env.store().join("plan-tamper/ops.jsonl");
    let text = std::fs::read_to_string(&ops_path).unwrap();
    std::fs::write(
        &ops_path,
        text.replace("tickets/latest.json", "tickets/other.json"),
    )
    .unwrap();
    // The freeze does not hold any more: the plan is editable again, and
    // says why.
    let status = env.json(&["status"]);
    assert_eq!(status["state"], "editable");
    assert!(status["issues"]["advisory"].as_u64().unwrap() >= 1);
    let v = env.json(&["validate"]);
    assert!(
        v["issues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["code"] == "freeze_mismatch"),
        "{v}"
    );
    // submit does not approve content nobody froze: freeze it first.
    let out = env.run(&["submit", "--yes"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("freeze_mismatch"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(env.json(&["status"])["state"], "editable");
    env.ok(&["freeze"]);
    env.ok(&["submit", "--yes"]);
    assert_eq!(env.json(&["status"])["state"], "executable");
}

#[test]
fn a_damaged_log_line_is_a_store_failure_naming_file_and_line() {
    let env = Env::new();
    small_plan(&env, "plan-dmg");
    let ops_path = env.store().join("plan-dmg/ops.jsonl");
    let mut text = std::fs::read_to_string(&ops_path).unwrap();
    text.insert_str(0, "{not json}\n");
    std::fs::write(&ops_path, text).unwrap();
    let out = env.run(&["status"]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("plan-dmg") && err.contains("line 1"), "{err}");
}

#[test]
fn a_log_with_a_line_removed_still_takes_every_new_write() {
    // Lines removed by hand (as a corrupt_store help may suggest) leave
    // lamports above the op count; new ops must still sort after them.
    let env = Env::new();
    env.ok(&["create", "plan-gap"]);
    env.ok(&["add-node", "a", "--kind", "join"]);
    env.ok(&["add-node", "b", "--kind", "join"]);
    env.ok(&["add-node", "c", "--kind", "join"]);
    let ops_path = env.store().join("plan-gap/ops.jsonl");
    let text = std::fs::read_to_string(&ops_path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "the creation and three nodes");
    // Only the creation and `c`, numbered 4, are left: revision 1.
    std::fs::write(&ops_path, format!("{}\n{}\n", lines[0], lines[3])).unwrap();
    env.ok(&["remove-node", "--yes", "c"]);
    assert_eq!(env.json(&["status"])["nodeCount"], 0);
    env.ok(&["add-node", "d", "--kind", "join"]);
    env.ok(&["phase", "d", "later"]);
    let d = env.json(&["read", "d"]);
    assert_eq!(d["nodes"][0]["phase"], "later", "{d}");

    // A lamport at the edge of what JSON numbers hold refuses further writes
    // clearly instead of numbering past it.
    let text = std::fs::read_to_string(&ops_path).unwrap();
    let last = text.lines().last().unwrap().to_string();
    let mut op: serde_json::Value = serde_json::from_str(&last).unwrap();
    op["lamport"] = serde_json::json!(9_007_199_254_740_991_u64);
    std::fs::write(&ops_path, format!("{text}{op}\n")).unwrap();
    let out = env.run(&["add-node", "e", "--kind", "join"]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ops.jsonl") && err.contains("lamport"),
        "{err}"
    );
}

#[test]
fn the_checkpoint_is_a_cache_that_never_outlives_what_it_describes() {
    let env = Env::new();
    small_plan(&env, "plan-cp");
    env.ok(&["add-node", "loose", "--kind", "join"]); // one blocking finding
    let blocking = |env: &Env| {
        env.json(&["status"])["issues"]["blocking"]
            .as_u64()
            .unwrap()
    };
    let n = blocking(&env);
    assert!(n >= 1);
    let cp = env.store().join("plan-cp/checkpoint.json");
    assert!(cp.exists(), "reading a plan leaves a checkpoint");
    // The cached findings emptied by hand: checked again (their sum no
    // longer matches)…
    let text = std::fs::read_to_string(&cp).unwrap();
    let (head, findings) = text.split_once('\n').unwrap();
    let mut head: Value = serde_json::from_str(head).unwrap();
    let mut findings: Value = serde_json::from_str(findings).unwrap();
    findings["issues"].as_array_mut().unwrap().clear();
    let findings = findings.to_string();
    std::fs::write(&cp, format!("{head}\n{findings}")).unwrap();
    assert_eq!(
        blocking(&env),
        n,
        "a findings line edited by hand was trusted"
    );
    // …and with the sum made again, read back while nothing changed…
    let key = head["key"].as_str().unwrap().to_string();
    head["sum"] = json!(planforge::model::hash::hex_sha256(
        format!("{key}\n{findings}").as_bytes()
    ));
    let forged = format!("{head}\n{findings}");
    std::fs::write(&cp, &forged).unwrap();
    assert_eq!(blocking(&env), 0, "the cache is used while nothing changed");
    // …but any write to the log makes it stale.
    env.ok(&["set", "fetch", "args.path", "x.json"]);
    assert_eq!(blocking(&env), n);
    // A changed registry makes it stale too.
    std::fs::write(&cp, &forged).unwrap();
    let reg = env.store().join("registry.yaml");
    let r = std::fs::read_to_string(&reg).unwrap();
    std::fs::write(&reg, format!("{r}\n# edited\n")).unwrap();
    assert_eq!(blocking(&env), n);
    // A damaged checkpoint is ignored and rewritten.
    std::fs::write(&cp, "{not json").unwrap();
    assert_eq!(blocking(&env), n);
    let rewritten = std::fs::read_to_string(&cp).unwrap();
    let lines: Vec<&str> = rewritten.lines().collect();
    assert_eq!(lines.len(), 2, "{rewritten}");
    assert!(
        lines
            .iter()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
    // A hand edit of the log is seen even when the length stays the same.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let ops = env.store().join("plan-cp/ops.jsonl");
    let log = std::fs::read_to_string(&ops).unwrap();
    std::fs::write(&ops, log.replace("\"x.json\"", "\"y.json\"")).unwrap();
    let exported = env.ok(&["export"]);
    assert!(exported.contains("y.json"));
    let digest = env.json(&["status"])["digest"].clone();
    let doc: serde_json::Value = serde_json::from_str(&exported).unwrap();
    assert_eq!(doc["digest"], digest);
}

#[test]
fn an_earlier_revision_exports_as_editable() {
    let env = Env::new();
    small_plan(&env, "plan-old");
    env.ok(&["freeze"]);
    let now: serde_json::Value = serde_json::from_str(&env.ok(&["export"])).unwrap();
    assert_eq!(now["state"], "reviewable");
    let old: serde_json::Value = serde_json::from_str(&env.ok(&["export", "--rev", "2"])).unwrap();
    assert_eq!(old["state"], "editable");
    assert_eq!(old["revision"], 2);
}

#[test]
fn one_damaged_plan_does_not_hide_the_others_from_list() {
    let env = Env::new();
    env.ok(&["create", "plan-good"]);
    env.ok(&["create", "plan-bad"]);
    std::fs::write(env.store().join("plan-bad/ops.jsonl"), "{bad\n").unwrap();
    let text = env.ok(&["list"]);
    assert!(
        text.contains("plan-good") && text.contains("editable"),
        "{text}"
    );
    assert!(
        text.contains("plan-bad") && text.contains("damaged"),
        "{text}"
    );
    let json = env.json(&["list"]);
    let plans = json["plans"].as_array().unwrap();
    assert_eq!(plans.len(), 2);
    assert!(
        plans
            .iter()
            .any(|p| p["planId"] == "plan-bad" && p["damaged"].is_string())
    );
    assert_eq!(env.code(&["status", "-p", "plan-bad"]), 3);
}

#[test]
fn refusals_and_findings_give_runnable_command_lines_and_json_fix_objects() {
    let env = Env::new();
    small_plan(&env, "plan-fix");
    env.ok(&[
        "add-node",
        "pay",
        "--kind",
        "call",
        "--tool",
        "read_artifact",
    ]);
    // The freeze refusal lists each finding with its fix as a command line.
    let out = env.run(&["freeze"]);
    assert_eq!(out.status.code(), Some(1));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("planforge set pay replaySafe true"), "{all}");
    // In JSON the same fix is an object.
    let doc = env.json(&["validate"]);
    let fix = doc["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["code"] == "missing_replay_safe")
        .map(|i| i["fix"].clone())
        .unwrap();
    assert_eq!(fix["action"], "set_field");
    assert_eq!(fix["nodeId"], "pay");
    assert_eq!(fix["path"], "replaySafe");
    assert_eq!(fix["value"], true);
    // A lifecycle refusal names the command that gets out of it.
    env.ok(&["remove-node", "--yes", "pay"]);
    env.ok(&["freeze"]);
    let out = env.run(&["add-node", "late", "--kind", "join"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("help: planforge unfreeze"), "{err}");
    let out = env.run(&["--format", "json", "add-node", "late", "--kind", "join"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["error"]["fix"]["action"], "unfreeze", "{doc}");
}

#[test]
fn only_a_folder_init_made_is_a_store_and_subfolders_find_it() {
    let env = Env::new();
    env.ok(&["create", "plan-here"]);
    // Any other folder is refused before anything is written.
    std::fs::create_dir_all(env.path("not-a-store")).unwrap();
    let out = env.run(&["--store", "not-a-store", "create", "plan-x"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a plan store"));
    assert_eq!(
        std::fs::read_dir(env.path("not-a-store")).unwrap().count(),
        0
    );
    // From a subfolder, the store is found in the nearest parent that has one.
    let deep = env.path("src/deep/er");
    std::fs::create_dir_all(&deep).unwrap();
    let mut c = env.cmd(&["--format", "json", "status", "-p", "plan-here"]);
    c.env_remove("PLANFORGE_STORE");
    c.current_dir(&deep);
    let out = c.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // With none anywhere above, the error says so.
    let lone = tempfile::tempdir().unwrap();
    let mut c = env.cmd(&["list"]);
    c.env_remove("PLANFORGE_STORE");
    c.current_dir(lone.path());
    let out = c.output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no plan store"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What a plan's status says that an upgrade must keep.
fn lifecycle_of(env: &Env, plan: &str) -> Value {
    let v = env.json(&["status", "-p", plan]);
    json!([
        v["state"],
        v["revision"],
        v["digest"],
        v["label"],
        v["frozen"],
        v["approval"]
    ])
}

// A store the first format wrote (lifecycle in meta.json) reads the same,
// is upgraded by a plan's next write or by `upgrade` at once, losing
// nothing, and is then written in the new format only.
#[test]
fn a_first_format_store_is_read_and_upgraded_losing_nothing() {
    let env = Env::empty();
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/first-format");
    copy_tree(&fixture, &env.store());
    let (approved, editable) = ("plan-ticket_triage", "plan-weekly_report");
    let before = [lifecycle_of(&env, approved), lifecycle_of(&env, editable)];
    assert_eq!(before[0][0], "executable", "{before:?}");
    assert_eq!(before[1][0], "editable", "{before:?}");
    assert!(before[0][5].is_object(), "the approval is read: {before:?}");
    env.ok(&["validate", "-p", approved]);

    // The next write to a plan moves its meta.json into its log.
    env.ok(&["add-node", "-p", editable, "--kind", "entry", "extra"]);
    let meta = env.store().join(editable).join("meta.json");
    assert!(!meta.exists(), "the write removed meta.json");
    let log = std::fs::read_to_string(env.store().join(editable).join("ops.jsonl")).unwrap();
    assert!(log.contains(r#""op":"create_plan""#), "{log}");
    let after = lifecycle_of(&env, editable);
    assert_eq!(
        after[1],
        before[1][1].as_u64().unwrap() + 1,
        "one content op more"
    );
    assert_eq!(
        (&after[0], &after[3], &after[4]),
        (&before[1][0], &before[1][3], &before[1][4]),
        "state, label and freeze record kept"
    );

    // `upgrade` does the rest at once, and marks the store.
    let out = env.json(&["upgrade"]);
    assert_eq!(out["marked"], true, "{out}");
    let upgraded: Vec<&str> = out["plans"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["upgraded"] == true)
        .map(|p| p["planId"].as_str().unwrap())
        .collect();
    assert_eq!(upgraded, [approved], "{out}");
    assert!(env.store().join(".planforge").is_file());
    assert!(!env.store().join(approved).join("meta.json").exists());
    assert_eq!(
        lifecycle_of(&env, approved),
        before[0],
        "the approval survives the upgrade"
    );
    env.ok(&["validate", "-p", approved]);
    // Nothing left to do: nothing is written.
    let log_before = std::fs::read(env.store().join(approved).join("ops.jsonl")).unwrap();
    let again = env.json(&["upgrade"]);
    assert_eq!(again["marked"], false, "{again}");
    assert!(
        again["plans"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["upgraded"] == false),
        "{again}"
    );
    assert_eq!(
        std::fs::read(env.store().join(approved).join("ops.jsonl")).unwrap(),
        log_before
    );
}

// Two clones that upgrade one plan write the same lines, so a union merge
// of their logs folds to the plan each of them has.
#[test]
fn two_clones_upgrading_one_plan_merge_to_the_same_plan() {
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/first-format");
    let plan = "plan-ticket_triage";
    let clones: Vec<Env> = (0..2).map(|_| Env::empty()).collect();
    let mut logs = Vec::new();
    for c in &clones {
        copy_tree(&fixture, &c.store());
        c.ok(&["upgrade"]);
        logs.push(std::fs::read_to_string(c.store().join(plan).join("ops.jsonl")).unwrap());
    }
    assert_eq!(logs[0], logs[1], "both clones wrote the same upgrade");
    // merge=union keeps lines both sides added once each; a plain
    // concatenation (every line twice) must fold the same too.
    let doubled = format!("{}{}", logs[0], logs[1]);
    std::fs::write(clones[1].store().join(plan).join("ops.jsonl"), doubled).unwrap();
    assert_eq!(
        lifecycle_of(&clones[0], plan),
        lifecycle_of(&clones[1], plan)
    );
    assert_eq!(lifecycle_of(&clones[1], plan)[0], "executable");
}

// `clone` says the clone is now the current plan, and `list` marks the plan
// commands act on (issue 16), in text and in JSON.
#[test]
fn clone_says_it_is_current_and_list_marks_the_current_plan() {
    let env = Env::new();
    env.ok(&["create", "plan-a"]);
    let out = env.ok(&["clone", "plan-b"]);
    assert!(out.contains("plan-b is now the current plan."), "{out}");
    let list = env.ok(&["list"]);
    let marked: Vec<&str> = list.lines().filter(|l| l.starts_with("* ")).collect();
    assert_eq!(marked.len(), 1, "{list}");
    assert!(marked[0].starts_with("* plan-b"), "{list}");
    assert!(list.lines().any(|l| l.starts_with("  plan-a")), "{list}");
    let j = env.json(&["list"]);
    let current: Vec<&Value> = j["plans"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["current"] == true)
        .collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0]["planId"], "plan-b");
    // Near miss: -p names another plan for this command, and list marks it.
    let other = env.ok(&["-p", "plan-a", "list"]);
    assert!(other.lines().any(|l| l.starts_with("* plan-a")), "{other}");
}

// An answer that cannot be written to stdout (a full disk under
// `> plan.json`) is an I/O failure, exit 3 said on stderr, never a success
// with a cut-off document; a write that landed says it stays. Near miss: a
// reader that closes the pipe early (`| head`) is not a failure.
#[cfg(target_os = "linux")]
#[test]
fn an_answer_that_cannot_be_written_is_an_io_failure_but_a_closed_pipe_is_not() {
    let env = Env::new();
    small_plan(&env, "plan-out");
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let quiet_sarif = &["validate", "-q", "--format", "sarif"][..];
    for args in [
        &["show"][..],
        &["--format", "json", "status"][..],
        quiet_sarif,
    ] {
        let out = env.cmd(args).stdout(full()).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {err}");
        assert!(
            err.contains("could not be written to standard output"),
            "{err}"
        );
    }
    let before = env.json(&["status"])["revision"].clone();
    let out = env
        .cmd(&["add-node", "late", "--kind", "join"])
        .stdout(full())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("stays changed"), "{err}");
    assert_ne!(
        env.json(&["status"])["revision"],
        before,
        "the write landed"
    );
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = env.cmd(&["show"]).stdout(writer).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The test hook `PLANFORGE_NOW` set to something that is not an RFC 3339
/// time (text, or a time that does not exist) is ignored: the log records
/// the real clock's time, never what was given.
#[test]
fn a_fixed_clock_that_is_not_a_time_is_ignored() {
    for (k, given) in ["yesterday\",\"lamport\":9", "2026-13-45T99:99:99Z"]
        .into_iter()
        .enumerate()
    {
        let env = Env::new().var("PLANFORGE_NOW", given);
        let plan = format!("plan-clock{k}");
        env.ok(&["create", &plan]);
        let log = std::fs::read_to_string(env.store().join(&plan).join("ops.jsonl")).unwrap();
        let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
        let at = first["at"].as_str().unwrap();
        assert!(
            at.len() == 20 && at.ends_with('Z') && at.as_bytes()[10] == b'T',
            "{at}"
        );
        assert!(!log.contains(given) && !log.contains("yesterday"), "{log}");
        assert_eq!(first["lamport"], 0);
    }
}
