//! Store torture (SPEC §3): many writers at once, writers killed in the middle
//! of a write, and a writer stopped while it holds a plan's lock. Every test
//! drives the real binary against a temporary store and is bounded in time
//! (no timing is asserted; the seed is printed so a failure can be replayed
//! with `PLANFORGE_TORTURE_SEED`).
//!
//! Linux only: processes are stopped and killed with the `kill` binary.

#[allow(dead_code)]
#[path = "../examples/gen_plan.rs"]
mod gen_plan;

mod common;

use common::{Env, command, copy_tree, parse_json};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn seeded(test: &str) -> Rng {
        let seed = std::env::var("PLANFORGE_TORTURE_SEED")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0x5eed_1234_abcd_0042);
        eprintln!("{test}: PLANFORGE_TORTURE_SEED={seed}");
        Rng(seed.max(1))
    }
    fn fork(&mut self, salt: u64) -> Rng {
        Rng((self.next() ^ salt.wrapping_mul(0x9e37_79b9_7f4a_7c15)).max(1))
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

impl Env {
    /// `status` of a plan, which must load.
    fn status(&self, plan: &str) -> Value {
        let v = self.json(&["status", "-p", plan]);
        assert!(v.get("error").is_none(), "plan {plan} no longer loads: {v}");
        v
    }
    fn write_file(&self, name: &str, v: &Value) -> String {
        self.write(name, &serde_json::to_string(v).unwrap())
            .to_string_lossy()
            .into_owned()
    }
}

/// Sends a signal with the `kill` binary (no libc in this crate).
fn signal(pid: u32, sig: &str) {
    let st = Command::new("kill")
        .args([sig, &pid.to_string()])
        .status()
        .expect("the `kill` binary is needed to stop and kill processes");
    assert!(st.success(), "kill {sig} {pid} failed");
}

/// A child that is resumed, killed and reaped however the test ends, so a
/// failed assertion never leaves a stopped process behind.
struct Guarded(Child);

impl Drop for Guarded {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-CONT", &self.0.id().to_string()])
            .status();
        kill_and_reap(&mut self.0);
    }
}

/// Kills (SIGKILL) and reaps a child; it may already have finished.
fn kill_and_reap(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

// ---------------------------------------------------------------------------
// The op log as bytes on disk, read independently of planforge's reader.

/// One op line of `ops.jsonl`.
#[derive(Debug, Clone, PartialEq)]
struct LogLine {
    value: Value,
    line: usize,
}

/// Transactions of a log in the order they first appear.
#[derive(Debug, Clone, Default)]
struct LogView {
    /// Complete transactions (they have their `txEnd` op), in log order.
    complete: Vec<Vec<LogLine>>,
    /// Ops of unfinished transactions (a torn tail).
    unfinished: usize,
    /// Whether the last line was cut inside (no newline, not JSON).
    partial_last_line: bool,
}

/// The ops that are the plan's lifecycle, not revisions of its content.
const LIFECYCLE: [&str; 5] = ["create_plan", "set_label", "freeze", "unfreeze", "approve"];

impl LogView {
    /// The content ops of complete transactions: the plan's revision.
    fn ops(&self) -> usize {
        self.complete
            .iter()
            .flatten()
            .filter(|l| !LIFECYCLE.contains(&l.value["op"].as_str().unwrap_or("")))
            .count()
    }
    fn tx_values(&self) -> Vec<Vec<Value>> {
        self.complete
            .iter()
            .map(|t| t.iter().map(|l| l.value.clone()).collect())
            .collect()
    }
}

fn read_log(path: &Path) -> LogView {
    let bytes = std::fs::read(path).unwrap_or_default();
    let mut view = LogView::default();
    let mut order: Vec<String> = Vec::new();
    let mut by_tx: BTreeMap<String, (Vec<LogLine>, bool)> = BTreeMap::new();
    let segments: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        if seg.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let value: Value = match serde_json::from_slice(seg) {
            Ok(v) => v,
            Err(e) if last => {
                // Cut inside the last line by a killed writer.
                let _ = e;
                view.partial_last_line = true;
                continue;
            }
            Err(e) => panic!(
                "{}: complete line {} is not JSON ({e}): a write tore a line that is not the last",
                path.display(),
                i + 1
            ),
        };
        let tx = value["tx"].as_str().expect("every op has a tx").to_string();
        let end = value["txEnd"] == json!(true);
        let entry = by_tx.entry(tx.clone()).or_insert_with(|| {
            order.push(tx.clone());
            (Vec::new(), false)
        });
        assert!(
            !entry.1,
            "{}: line {} belongs to transaction {tx}, which had already ended",
            path.display(),
            i + 1
        );
        entry.0.push(LogLine { value, line: i + 1 });
        entry.1 = end;
    }
    for tx in order {
        let (lines, done) = by_tx.remove(&tx).unwrap();
        if done {
            // One transaction is one write: consecutive lines, consecutive
            // lamports, the closing op last.
            for w in lines.windows(2) {
                assert_eq!(
                    w[1].line,
                    w[0].line + 1,
                    "transaction {tx} is not one contiguous write"
                );
                assert_eq!(
                    w[1].value["lamport"].as_u64().unwrap(),
                    w[0].value["lamport"].as_u64().unwrap() + 1,
                    "transaction {tx} has a gap in its lamports"
                );
            }
            view.complete.push(lines);
        } else {
            view.unfinished += lines.len();
        }
    }
    view
}

/// The store's plans as `list` shows them.
fn listed(env: &Env) -> BTreeSet<String> {
    let v = env.json(&["list"]);
    v["plans"]
        .as_array()
        .unwrap_or_else(|| panic!("list: {v}"))
        .iter()
        .map(|p| p["planId"].as_str().unwrap().to_string())
        .collect()
}

/// Every plan listed loads, and no temporary folder is listed as a plan.
fn every_plan_loads(env: &Env) -> BTreeSet<String> {
    let ids = listed(env);
    for id in &ids {
        assert!(id.starts_with("plan-"), "a non-plan is listed: {id}");
        env.status(id);
    }
    ids
}

// ---------------------------------------------------------------------------
// 1. Many writers at once.

/// What one worker believes it committed.
#[derive(Default)]
struct Model {
    /// node id → (phase, args.v)
    nodes: BTreeMap<String, (Option<String>, i64)>,
    /// (edge id, from, to)
    edges: BTreeSet<(String, String, String)>,
    /// args of the shared node this worker set: key → value
    shared: BTreeMap<String, i64>,
    /// revision each committed command reported
    revisions: Vec<u64>,
}

fn worker(root: PathBuf, w: usize, steps: usize, mut rng: Rng) -> Model {
    let actor = format!("w{w}");
    let mut m = Model::default();
    let mut order: Vec<String> = Vec::new();
    let mut next_node = 0;
    let mut next_value = (w as i64) * 1_000_000;
    let run = |args: Vec<String>| -> Value {
        let mut a = vec!["--format".to_string(), "json".to_string()];
        a.extend(args);
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        let out = command(&root, &refs)
            .env("PLANFORGE_ACTOR", &actor)
            .env("PLANFORGE_LOCK_TIMEOUT_MS", "120000")
            .env("PLANFORGE_PLAN", "plan-busy")
            .output()
            .unwrap();
        let v = parse_json(&out, &refs);
        assert!(
            out.status.success(),
            "worker {w}: planforge {refs:?} was refused: {v}"
        );
        v
    };
    for _ in 0..steps {
        next_value += 1;
        let alive: Vec<String> = order
            .iter()
            .filter(|id| m.nodes.contains_key(*id))
            .cloned()
            .collect();
        let choice = if alive.len() < 2 { 0 } else { rng.below(6) };
        let echo = match choice {
            0 => {
                let id = format!("w{w}_n{next_node}");
                next_node += 1;
                let v = run(vec![
                    "add-node".into(),
                    id.clone(),
                    "--kind".into(),
                    "call".into(),
                    "--tool".into(),
                    format!("tool_w{w}"),
                    "--arg".into(),
                    format!("v={next_value}"),
                ]);
                m.nodes.insert(id.clone(), (None, next_value));
                order.push(id);
                v
            }
            1 => {
                // Connect two live nodes not yet connected (earlier → later).
                let a = rng.below(alive.len() as u64 - 1) as usize;
                let b = a + 1 + rng.below((alive.len() - a - 1) as u64) as usize;
                let (from, to) = (&alive[a], &alive[b]);
                let id = format!("{from}__{to}");
                if m.edges.iter().any(|(e, _, _)| *e == id) {
                    continue;
                }
                let v = run(vec!["connect".into(), from.clone(), to.clone()]);
                m.edges.insert((id, from.clone(), to.clone()));
                v
            }
            2 => {
                let id = &alive[rng.below(alive.len() as u64) as usize];
                let v = run(vec![
                    "set".into(),
                    id.clone(),
                    "args.v".into(),
                    next_value.to_string(),
                ]);
                m.nodes.get_mut(id).unwrap().1 = next_value;
                v
            }
            3 => {
                let id = &alive[rng.below(alive.len() as u64) as usize];
                let current = m.nodes[id].0.clone();
                let phase = if current.is_some() && rng.below(3) == 0 {
                    None
                } else {
                    Some(format!("phase {w}.{next_value}"))
                };
                let mut args = vec!["phase".to_string(), id.clone()];
                match &phase {
                    Some(p) => args.push(p.clone()),
                    None => args.push("--clear".into()),
                }
                let v = run(args);
                m.nodes.get_mut(id).unwrap().0 = phase;
                v
            }
            4 => {
                let id = alive[rng.below(alive.len() as u64) as usize].clone();
                let v = run(vec!["remove-node".into(), "--yes".into(), id.clone()]);
                m.nodes.remove(&id);
                m.edges.retain(|(_, f, t)| *f != id && *t != id);
                v
            }
            _ => {
                // Everyone writes their own fields of one shared node.
                let key = format!("w{w}_{}", rng.below(3));
                let v = run(vec![
                    "set".into(),
                    "shared".into(),
                    format!("args.{key}"),
                    next_value.to_string(),
                ]);
                m.shared.insert(key, next_value);
                v
            }
        };
        m.revisions.push(
            echo["revision"]
                .as_u64()
                .unwrap_or_else(|| panic!("no revision in the echo: {echo}")),
        );
    }
    m
}

#[test]
fn concurrent_writers_of_mixed_mutations_lose_nothing() {
    const WORKERS: usize = 6;
    const STEPS: usize = 20;
    let mut rng = Rng::seeded("concurrent_writers");
    let env = Env::new();
    env.ok(&["create", "plan-busy"]);
    env.ok(&[
        "add-node",
        "shared",
        "--kind",
        "call",
        "--tool",
        "shared_tool",
    ]);
    let base = env.status("plan-busy")["revision"].as_u64().unwrap();
    let handles: Vec<_> = (0..WORKERS)
        .map(|w| {
            let root = env.root.clone();
            let rng = rng.fork(w as u64);
            std::thread::spawn(move || worker(root, w, STEPS, rng))
        })
        .collect();
    let models: Vec<Model> = handles.into_iter().map(|h| h.join().unwrap()).collect();

    // Every commit got its own revision, and together they are exactly the
    // revisions after the base: no transaction was lost or merged.
    let mut revisions: Vec<u64> = models.iter().flat_map(|m| m.revisions.clone()).collect();
    revisions.sort_unstable();
    let committed = revisions.len() as u64;
    let expected: Vec<u64> = (base + 1..=base + committed).collect();
    assert_eq!(
        revisions, expected,
        "reported revisions are not one per commit"
    );
    let status = env.status("plan-busy");
    assert_eq!(status["revision"].as_u64().unwrap(), base + committed);

    // The plan is the union of what every worker committed.
    let raw = env.json(&["raw", "-p", "plan-busy"]);
    let mut nodes: BTreeMap<String, (Option<String>, Value)> = BTreeMap::new();
    for n in raw["nodes"].as_array().unwrap() {
        nodes.insert(
            n["id"].as_str().unwrap().to_string(),
            (
                n["phase"].as_str().map(str::to_string),
                n["definition"]["args"].clone(),
            ),
        );
    }
    let edges: BTreeSet<(String, String, String)> = raw["edges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["id"].as_str().unwrap().to_string(),
                e["from"].as_str().unwrap().to_string(),
                e["to"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut want_nodes = BTreeSet::from(["shared".to_string()]);
    let mut want_edges = BTreeSet::new();
    let mut want_shared = serde_json::Map::new();
    for m in &models {
        for (id, (phase, v)) in &m.nodes {
            want_nodes.insert(id.clone());
            let (got_phase, got_args) = nodes
                .get(id)
                .unwrap_or_else(|| panic!("node {id} was committed but is missing"));
            assert_eq!(got_phase, phase, "phase of {id}");
            assert_eq!(got_args["v"], json!(v), "args.v of {id}");
        }
        want_edges.extend(m.edges.iter().cloned());
        for (k, v) in &m.shared {
            want_shared.insert(k.clone(), json!(v));
        }
    }
    let got_nodes: BTreeSet<String> = nodes.keys().cloned().collect();
    assert_eq!(
        got_nodes, want_nodes,
        "nodes differ from what was committed"
    );
    assert_eq!(edges, want_edges, "edges differ from what was committed");
    assert_eq!(
        nodes["shared"].1,
        Value::Object(want_shared),
        "concurrent sets of different fields of one node lost some"
    );
    // The log on disk is whole: complete transactions only.
    let log = read_log(&env.store().join("plan-busy/ops.jsonl"));
    assert_eq!(log.unfinished, 0);
    assert_eq!(log.ops() as u64, base + committed);
}

// ---------------------------------------------------------------------------
// 2. Writers killed in the middle of a write.

const HUBS: usize = 60;

/// An entry, then `HUBS` hubs each fanning out to three spokes: removing a
/// hub is one op naming four edges; undoing that is a five-op transaction.
fn hub_document() -> Value {
    let mut nodes = vec![json!({"id": "start", "kind": "entry", "definition": {"input": []}})];
    let mut edges = Vec::new();
    for h in 0..HUBS {
        nodes.push(json!({"id": format!("hub{h}"), "kind": "join", "definition": {}}));
        edges.push(json!({"id": format!("in{h}"), "from": "start", "to": format!("hub{h}")}));
        for s in 0..3 {
            nodes.push(json!({"id": format!("s{h}_{s}"), "kind": "join", "definition": {}}));
            edges.push(json!({
                "id": format!("out{h}_{s}"), "from": format!("hub{h}"), "to": format!("s{h}_{s}")
            }));
        }
    }
    json!({
        "formatVersion": 1,
        "planId": "plan-kill",
        "bounds": {"maxNodes": 2000, "maxEdges": 2000, "maxSteps": 100000,
                   "maxConcurrentFrames": 32, "maxEncodedBytes": 10000000},
        "nodes": nodes,
        "edges": edges,
    })
}

/// How a round's write was interrupted.
#[derive(Debug, Clone, Copy)]
enum Cut {
    /// `PLANFORGE_TEST_CRASH_AFTER_BYTES`: the writer dies after N bytes.
    Bytes(usize),
    /// SIGKILL after this many microseconds.
    Kill(u64),
}

/// Runs one write and interrupts it.
fn interrupted(env: &Env, args: &[&str], cut: Cut) {
    match cut {
        Cut::Bytes(n) => {
            let _ = env
                .cmd(args)
                .env("PLANFORGE_TEST_CRASH_AFTER_BYTES", n.to_string())
                .output()
                .unwrap();
        }
        Cut::Kill(us) => {
            let mut child = env
                .cmd(args)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(Duration::from_micros(us));
            kill_and_reap(&mut child);
        }
    }
}

#[test]
fn writers_killed_mid_transaction_leave_a_prefix_of_whole_transactions() {
    const ROUNDS: usize = 50;
    let mut rng = Rng::seeded("killed_writers");
    let env = Env::new();
    let doc = env.write_file("hubs.json", &hub_document());
    env.ok(&["import", &doc]);
    let log_path = env.store().join("plan-kill/ops.jsonl");
    let mut torn_multi = 0;
    let mut landed_multi = 0;
    for round in 0..ROUNDS {
        let before = read_log(&log_path);
        // Every fifth round also compares the content at the old revision.
        let raw_before = (round % 5 == 0).then(|| env.json(&["raw", "-p", "plan-kill"]));
        let hub = format!("hub{round}");
        let cut = if round % 2 == 0 {
            // A removal line is ~250 bytes and its undo ~900: cut anywhere.
            Cut::Bytes(1 + rng.below(1000) as usize)
        } else {
            Cut::Kill(rng.below(40_000))
        };
        let multi = match round % 4 {
            // Single op: a node.
            0 | 3 => {
                interrupted(
                    &env,
                    &["add-node", &format!("k{round}"), "--kind", "join"],
                    cut,
                );
                false
            }
            // Single op naming four edges: removing a hub.
            1 => {
                interrupted(&env, &["remove-node", "--yes", &hub], cut);
                false
            }
            // Five ops in one transaction: undoing a hub's removal.
            _ => {
                env.ok(&["remove-node", "--yes", &hub]);
                let before_undo = read_log(&log_path).ops();
                interrupted(&env, &["undo"], cut);
                let after = read_log(&log_path);
                if after.ops() > before_undo {
                    landed_multi += 1;
                } else if after.unfinished > 0 || after.partial_last_line {
                    torn_multi += 1;
                }
                true
            }
        };
        let after = read_log(&log_path);
        // The complete transactions are the ones before, plus at most the
        // new one, whole (read_log checked each is one contiguous write).
        let old = before.tx_values();
        let new = after.tx_values();
        assert!(
            new.len() >= old.len() && new[..old.len()] == old[..],
            "round {round}: complete transactions changed or vanished"
        );
        let extra = new.len() - old.len();
        assert!(
            extra <= if multi { 2 } else { 1 },
            "round {round}: {extra} new transactions"
        );
        if multi && extra > 0 {
            // The removal done beforehand, then maybe the whole undo.
            assert!(new.last().unwrap().len() == 5 || extra == 1);
        }
        // The plan loads and folds to exactly its complete transactions, and
        // history before this round is unchanged.
        let status = env.status("plan-kill");
        assert_eq!(
            status["revision"].as_u64().unwrap(),
            after.ops() as u64,
            "round {round}: the fold does not match the complete transactions"
        );
        if let Some(was) = raw_before {
            let old_rev = was["revision"].as_u64().unwrap().to_string();
            let then = env.json(&["raw", "-p", "plan-kill", "--rev", &old_rev]);
            // The digest covers planId, revision and content.
            assert_eq!(then, was, "round {round}: revision {old_rev} changed");
        }
        // The next write lands, and repairs any torn tail.
        env.ok(&["add-node", &format!("after{round}"), "--kind", "join"]);
        let repaired = read_log(&log_path);
        assert_eq!(repaired.unfinished, 0, "round {round}: torn tail kept");
        assert!(!repaired.partial_last_line);
        assert_eq!(repaired.ops(), after.ops() + 1);
    }
    every_plan_loads(&env);
    let raw = env.json(&["raw", "-p", "plan-kill"]).to_string();
    for round in 0..ROUNDS {
        assert!(
            raw.contains(&format!("\"after{round}\"")),
            "the write after round {round} was lost"
        );
    }
    assert!(
        torn_multi > 0,
        "no multi-op transaction was ever cut; the test is not testing"
    );
    eprintln!("multi-op transactions: {torn_multi} torn, {landed_multi} landed");
}

#[test]
fn plans_killed_while_being_created_appear_whole_or_not_at_all() {
    const ROUNDS: usize = 24;
    let mut rng = Rng::seeded("killed_creations");
    let env = Env::new();
    let doc = hub_document();
    let doc_ops =
        1 + doc["nodes"].as_array().unwrap().len() + doc["edges"].as_array().unwrap().len();
    let file = env.write_file("hubs.json", &doc);
    env.ok(&["import", &file, "--id", "plan-source"]);
    let source_rev = env.status("plan-source")["revision"].as_u64().unwrap();
    let mut appeared = 0;
    for round in 0..ROUNDS {
        let id = format!("plan-new{round}");
        let (args, want_rev): (Vec<&str>, u64) = match round % 3 {
            0 => (vec!["import", &file, "--id", &id], doc_ops as u64),
            1 => (vec!["clone", &id, "-p", "plan-source"], source_rev),
            _ => (vec!["author", "kill me while I am created", "--id", &id], 0),
        };
        let mut child = env
            .cmd(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_micros(rng.below(60_000)));
        kill_and_reap(&mut child);
        let ids = listed(&env);
        assert!(
            ids.iter().all(|i| i.starts_with("plan-")),
            "round {round}: a non-plan is listed: {ids:?}"
        );
        if ids.contains(&id) {
            appeared += 1;
            let status = env.status(&id);
            assert_eq!(
                status["revision"].as_u64().unwrap(),
                want_rev,
                "round {round}: {id} appeared but not whole"
            );
            let log = read_log(&env.store().join(&id).join("ops.jsonl"));
            assert_eq!(log.unfinished, 0);
            assert!(!log.partial_last_line);
        } else {
            // Not there at all: the id is free and the next write takes it.
            let out = env.cmd(&["status", "-p", &id]).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "round {round}: {id}");
            env.ok(&["create", &id]);
        }
        let ids = listed(&env);
        // Leftover temporary folders are never plans.
        for entry in std::fs::read_dir(env.store()).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.starts_with(".tmp-") {
                assert!(!ids.contains(&name), "round {round}: {name} is listed");
            }
        }
    }
    every_plan_loads(&env);
    eprintln!("{appeared} of {ROUNDS} killed creations had already landed");
}

// ---------------------------------------------------------------------------
// 3. A writer stopped while it holds the lock.

/// Whether another process holds the exclusive lock on `path`.
fn lock_is_held(path: &Path) -> bool {
    let Ok(f) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
    else {
        return false;
    };
    match f.try_lock() {
        Ok(()) => {
            let _ = f.unlock();
            false
        }
        Err(std::fs::TryLockError::WouldBlock) => true,
        Err(std::fs::TryLockError::Error(e)) => panic!("try_lock {}: {e}", path.display()),
    }
}

/// Starts `add-node held` on the current plan holding its lock for
/// `hold_ms` (test hook), waits until it holds `lock`, and stops it there.
fn stopped_lock_holder(env: &Env, lock: &Path, hold_ms: u64) -> Guarded {
    let mut holder = Guarded(
        env.cmd(&["add-node", "held", "--kind", "join"])
            .env("PLANFORGE_TEST_HOLD_LOCK_MS", hold_ms.to_string())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while !lock_is_held(lock) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the holder never took the lock (is PLANFORGE_TEST_HOLD_LOCK_MS implemented?)"
        );
        if let Some(st) = holder.0.try_wait().unwrap() {
            panic!("the holder exited ({st}) before taking the lock");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    signal(holder.0.id(), "-STOP");
    holder
}

#[test]
fn a_lock_held_by_a_stopped_writer_is_waited_for_then_reported_busy() {
    let env = Env::new();
    env.ok(&["create", "plan-stuck"]);
    env.ok(&["add-node", "a", "--kind", "join"]);
    let lock = env.store().join("plan-stuck/lock");
    // The holder takes the plan lock and sleeps inside it (test hook), so it
    // holds the lock deterministically; then it is stopped.
    let mut holder = stopped_lock_holder(&env, &lock, 60_000);

    // A writer waits (bounded), then reports store_busy with exit 3.
    let out = env
        .cmd(&["--format", "json", "add-node", "b", "--kind", "join"])
        .env("PLANFORGE_LOCK_TIMEOUT_MS", "300")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "a busy lock is exit 3");
    let v = parse_json(&out, &["add-node"]);
    assert_eq!(v["error"]["code"], "store_busy", "{v}");
    // Text mode says so on stderr too.
    let out = env
        .cmd(&["set", "a", "kind", "\"diamond\""])
        .env("PLANFORGE_LOCK_TIMEOUT_MS", "200")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error[store_busy]"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // Readers never take the lock: the plan still reads while it is held.
    assert_eq!(env.status("plan-stuck")["revision"], 1);
    // Other plans are not blocked by this one's lock.
    env.ok(&["create", "plan-free"]);
    env.ok(&["add-node", "x", "--kind", "join", "-p", "plan-free"]);

    // Once the stopped holder dies, its lock is released with it.
    signal(holder.0.id(), "-CONT");
    kill_and_reap(&mut holder.0);
    assert!(!lock_is_held(&lock), "a dead process still holds the lock");
    env.ok(&["add-node", "b", "--kind", "join", "-p", "plan-stuck"]);
    let raw = env.json(&["raw", "-p", "plan-stuck"]);
    let ids: Vec<&str> = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a", "b"], "the killed holder wrote nothing");
    assert_eq!(
        read_log(&env.store().join("plan-stuck/ops.jsonl")).unfinished,
        0
    );
}

#[test]
fn a_stopped_writer_holding_the_lock_does_not_deadlock_waiting_writers() {
    // Several writers queue behind a stopped holder: each gives up with
    // store_busy within its wait; after the holder is resumed and finishes,
    // they all get through.
    let env = Env::new();
    env.ok(&["create", "plan-queue"]);
    let lock = env.store().join("plan-queue/lock");
    let mut holder = stopped_lock_holder(&env, &lock, 1500);
    let busy: Vec<_> = (0..3)
        .map(|i| {
            env.cmd(&["add-node", &format!("busy{i}"), "--kind", "join"])
                .env("PLANFORGE_LOCK_TIMEOUT_MS", "250")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in busy {
        assert_eq!(c.wait().unwrap().code(), Some(3));
    }
    // Resumed, the holder finishes its write (after its hold) and releases.
    signal(holder.0.id(), "-CONT");
    let waiters: Vec<_> = (0..3)
        .map(|i| {
            env.cmd(&["add-node", &format!("late{i}"), "--kind", "join"])
                .env("PLANFORGE_LOCK_TIMEOUT_MS", "60000")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    assert!(
        holder.0.wait().unwrap().success(),
        "the resumed holder failed"
    );
    for mut c in waiters {
        assert!(c.wait().unwrap().success(), "a queued writer failed");
    }
    let raw = env.json(&["raw", "-p", "plan-queue"]).to_string();
    for id in ["held", "late0", "late1", "late2"] {
        assert!(raw.contains(&format!("\"{id}\"")), "{id} is missing");
    }
    assert!(!raw.contains("busy"), "a refused writer wrote something");
}

// ---------------------------------------------------------------------------
// 4. Writers whose lock file is deleted under them again and again (a plan
// folder cleaned with `git clean -X`): every write that reported success is
// in the log exactly once, and none that reported failure is.

#[test]
fn writers_whose_lock_is_deleted_again_and_again_report_the_truth() {
    const WRITERS: usize = 8;
    const WRITES: usize = 25;
    let env = Env::new();
    env.ok(&["create", "plan-locked"]);
    let lock = env.store().join("plan-locked/lock");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let deleter = {
        let (lock, stop) = (lock.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut deleted = 0usize;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                if std::fs::remove_file(&lock).is_ok() {
                    deleted += 1;
                }
                std::thread::sleep(Duration::from_micros(300));
            }
            deleted
        })
    };
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| {
            let root = env.root.clone();
            std::thread::spawn(move || {
                let mut outcomes = Vec::new();
                for i in 0..WRITES {
                    let id = format!("n_{w}_{i}");
                    let out = command(
                        &root,
                        &["add-node", "-p", "plan-locked", "--kind", "entry", &id],
                    )
                    .env("PLANFORGE_ACTOR", format!("w{w}"))
                    .output()
                    .unwrap();
                    let code = out.status.code().unwrap_or(-1);
                    assert!(
                        code == 0 || code == 3,
                        "{id}: exit {code}: {}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    outcomes.push((id, code == 0));
                }
                outcomes
            })
        })
        .collect();
    let outcomes: Vec<(String, bool)> = writers
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let deleted = deleter.join().unwrap();
    assert!(
        deleted > 0,
        "the lock was never deleted: the test tested nothing"
    );

    let log = read_log(&env.store().join("plan-locked/ops.jsonl"));
    assert_eq!(log.unfinished, 0, "a write left an unfinished transaction");
    let mut in_log: BTreeMap<String, usize> = BTreeMap::new();
    for op in log.complete.iter().flatten() {
        if op.value["op"] == "add_node" {
            *in_log
                .entry(op.value["node"]["id"].as_str().unwrap_or("").to_string())
                .or_default() += 1;
        }
    }
    let mut succeeded = 0;
    for (id, ok) in &outcomes {
        let n = in_log.get(id).copied().unwrap_or(0);
        if *ok {
            succeeded += 1;
            assert_eq!(n, 1, "{id} reported success and is in the log {n} times");
        } else {
            assert_eq!(n, 0, "{id} reported failure yet is in the log");
        }
    }
    assert_eq!(
        in_log.values().sum::<usize>(),
        succeeded,
        "the log holds writes nobody reported"
    );
    assert!(succeeded > 0, "no write succeeded");
    let status = env.status("plan-locked");
    assert_eq!(status["nodeCount"].as_u64().unwrap(), succeeded as u64);
    eprintln!(
        "{succeeded} of {} writes succeeded; the lock was deleted {deleted} times",
        outcomes.len()
    );
}

// ---------------------------------------------------------------------------
// 5. Concurrent `registry add`: the read-modify-write of registry.yaml is
// done under the store's lock, so every add lands and none reports failure.

#[test]
fn concurrent_registry_adds_all_land() {
    const ADDERS: usize = 8;
    let env = Env::new();
    for round in 0..3 {
        let children: Vec<_> = (0..ADDERS)
            .map(|i| {
                env.cmd(&[
                    "-q",
                    "registry",
                    "add",
                    &format!("tool_{round}_{i}"),
                    "--returns",
                    "text",
                ])
                .env("PLANFORGE_LOCK_TIMEOUT_MS", "60000")
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "a concurrent registry add failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let list = env.ok(&["registry", "list"]);
        for i in 0..ADDERS {
            let name = format!("tool_{round}_{i}");
            assert!(
                list.lines()
                    .any(|l| l.split_whitespace().next() == Some(name.as_str())),
                "round {round}: `{name}` was lost:\n{list}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// 6. Concurrent undo and redo by the same actor: each one that finds its
// change moved looks again, so all of them get through; none is `internal`.

#[test]
fn concurrent_undos_and_redos_of_one_actor_all_get_through() {
    const N: usize = 4;
    let env = Env::new();
    env.ok(&["create", "plan-ur"]);
    for i in 0..N {
        env.ok(&["add-node", &format!("n{i}"), "--kind", "join"]);
    }
    let nodes = |env: &Env| -> usize {
        let raw = env.json(&["raw", "-p", "plan-ur"]).to_string();
        (0..N)
            .filter(|i| raw.contains(&format!("\"n{i}\"")))
            .count()
    };
    for (verb, left) in [("undo", 0), ("redo", N)] {
        let children: Vec<_> = (0..N)
            .map(|_| {
                env.cmd(&["-q", verb, "-p", "plan-ur"])
                    .env("PLANFORGE_LOCK_TIMEOUT_MS", "60000")
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            let out = c.wait_with_output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "a concurrent {verb} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert_eq!(nodes(&env), left, "after {N} concurrent {verb}s");
    }
}

/// `c` run with its address space limited to `kib` KiB (as `ulimit -v`
/// does), its output captured.
fn limited(mut c: Command, kib: u64) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let bytes = kib * 1024;
    // SAFETY: the hook runs in the child between fork and exec and makes
    // one system call (async-signal-safe) on a value on its stack.
    unsafe {
        c.pre_exec(move || {
            let l = libc::rlimit {
                rlim_cur: bytes,
                rlim_max: bytes,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &l) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    c.stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap()
}

/// A write run with less and less memory short of what it needs (the
/// address space limited as `ulimit -v` does, 2 MiB more each run, on a
/// fresh copy of `base`, from the least memory the program starts in)
/// until it succeeds. Every run exits 0, or exits 3 with one whole
/// `out_of_memory` JSON document that says whether its change was written
/// before memory ran out — and the store agrees (`changed`); no run leaves
/// a temporary file in the plan's folder. Returns the outcomes seen.
fn sweep(
    base: &Path,
    root: &Path,
    write: &[&str],
    changed: &dyn Fn(&Path) -> bool,
) -> BTreeSet<&'static str> {
    let mut kib = 8 * 1024;
    while limited(command(root, &["--version"]), kib).status.code() != Some(0) {
        kib += 2048;
        assert!(kib < 4 << 20, "--version did not run under 4 GiB");
    }
    let mut seen = BTreeSet::new();
    loop {
        let store = root.join(format!("store-{kib}"));
        copy_tree(base, &store);
        let mut args = vec![
            "--store",
            store.to_str().unwrap(),
            "-p",
            "plan-big",
            "--format",
            "json",
        ];
        args.extend_from_slice(write);
        let out = limited(command(root, &args), kib);
        let there = changed(&store);
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        // Nothing half-written stays behind, whatever the outcome.
        let temps: Vec<_> = std::fs::read_dir(store.join("plan-big"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".tmp-"))
            .collect();
        assert!(
            temps.is_empty(),
            "{write:?} under {kib} KiB left {temps:?}: {said}"
        );
        match out.status.code() {
            Some(0) => {
                assert!(
                    there,
                    "{write:?}: exit 0 under {kib} KiB, nothing changed: {said}"
                );
                seen.insert("done");
                break;
            }
            Some(3) => {
                let answer = parse_json(&out, &args);
                assert_eq!(answer["error"]["code"], "out_of_memory", "{answer}");
                let message = answer["error"]["message"].as_str().unwrap();
                let stays = message.contains(
                    "after its change to plan `plan-big` was written to the plan's log: that change stays",
                );
                assert_eq!(stays, there, "{write:?} under {kib} KiB: {message}");
                assert_eq!(
                    message.ends_with("nothing was changed"),
                    !there,
                    "{message}"
                );
                seen.insert(if there { "stays" } else { "nothing" });
            }
            other => panic!("{write:?}: exit {other:?} under {kib} KiB: {said}"),
        }
        std::fs::remove_dir_all(&store).unwrap();
        kib += 2048;
        assert!(kib < 4 << 20, "{write:?} did not succeed under 4 GiB");
    }
    eprintln!("{write:?}: outcomes seen {seen:?}, success from {kib} KiB");
    seen
}

/// `add-node` and `undo` with too little memory (see [`sweep`]) on a
/// 3,000-node store: each says whether its change stays, truly, in one
/// whole JSON document, never an abort.
#[test]
fn memory_running_out_is_an_error_that_says_whether_the_change_stays() {
    let env = Env::new();
    let (doc, _) = gen_plan::generate(&gen_plan::Opts {
        nodes: 3000,
        phases: 6,
        seed: 29,
        unphased: 2,
        plan_id: Some("plan-big".into()),
        rich: false,
    });
    let path = env.write("big.json", &serde_json::to_string(&doc).unwrap());
    env.ok(&["import", path.to_str().unwrap()]);
    env.ok(&["status", "-p", "plan-big"]);
    let root = env.path("runs");
    std::fs::create_dir_all(&root).unwrap();
    let has = |node: &'static str| {
        let root = root.clone();
        move |store: &Path| {
            let read = [
                "--store",
                store.to_str().unwrap(),
                "-p",
                "plan-big",
                "read",
                node,
            ];
            command(&root, &read).output().unwrap().status.code() == Some(0)
        }
    };
    let added = sweep(
        &env.store(),
        &root,
        &["add-node", "oom_x", "--kind", "join"],
        &has("oom_x"),
    );
    assert!(
        added.contains("nothing") && added.contains("stays"),
        "{added:?}"
    );
    // An undo of an add: its change is the node gone.
    env.ok(&["add-node", "-p", "plan-big", "oom_y", "--kind", "join"]);
    let gone = has("oom_y");
    let undone = sweep(&env.store(), &root, &["undo"], &|s| !gone(s));
    assert!(undone.contains("nothing"), "{undone:?}");
}
