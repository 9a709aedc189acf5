//! Git torture (issue 12): clones of one repository edit shared plans, commit
//! and merge with plain `git merge` and the store's own `.gitattributes`
//! (`*/ops.jsonl merge=union`), as a team would. Every merge must be free of
//! conflicts, every plan must load, every clone must fold the same content,
//! digest and state, every complete transaction must survive, and no plan
//! may be executable unless its approval matches its content.
//!
//! Real `git init`/`clone`/`commit`/`fetch`/`merge` run in temporary folders,
//! isolated from the machine's git configuration (no network). The random
//! test prints its seed; replay it with `PLANFORGE_GIT_SEED=N`.

mod common;

use common::Out;
use serde_json::{Value, json};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The clock every planforge run reads.
const NOW: &str = "2026-03-01T10:00:00Z";

// ---------------------------------------------------------------------------
// A small deterministic generator (xorshift64*), as in tests/torture.rs.

struct Rng(u64);

impl Rng {
    fn seeded(test: &str) -> (Rng, u64) {
        let seed = std::env::var("PLANFORGE_GIT_SEED")
            .ok()
            .and_then(|s| s.parse::<u64>().ok())
            .unwrap_or(0x6175_5eed_2026_0012);
        eprintln!("{test}: PLANFORGE_GIT_SEED={seed}");
        (Rng(seed.max(1)), seed)
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
    /// True `percent` times in a hundred.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

// ---------------------------------------------------------------------------
// Git, isolated from the machine.

/// `git ARGS` in `dir`, with no system or global configuration, a fixed
/// identity and clock, and nothing inherited that points git elsewhere.
fn git_command(home: &Path, dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new("git");
    c.current_dir(dir)
        .args([
            "-c",
            "user.email=team@example.invalid",
            "-c",
            "user.name=Team",
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
            "-c",
            "core.autocrlf=false",
            "-c",
            "merge.conflictStyle=merge",
        ])
        .args(args)
        .stdin(Stdio::null());
    for v in [
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_NAMESPACE",
        "GIT_CEILING_DIRECTORIES",
        "GIT_CONFIG",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_ATTR_SOURCE",
    ] {
        c.env_remove(v);
    }
    c.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
        .env("GIT_AUTHOR_NAME", "Team")
        .env("GIT_AUTHOR_EMAIL", "team@example.invalid")
        .env("GIT_COMMITTER_NAME", "Team")
        .env("GIT_COMMITTER_EMAIL", "team@example.invalid")
        .env("GIT_AUTHOR_DATE", NOW)
        .env("GIT_COMMITTER_DATE", NOW)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_MERGE_AUTOEDIT", "no")
        .env("GIT_EDITOR", "true")
        .env("LC_ALL", "C");
    c
}

fn show(out: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

// ---------------------------------------------------------------------------
// The op log, read independently of planforge's reader.

/// One plan's `ops.jsonl` as bytes on disk.
#[derive(Debug, Default, Clone)]
struct LogView {
    /// Every op line that parsed (complete transactions or not), in order.
    ops: Vec<Value>,
    /// opIds of the ops of complete transactions (they have their `txEnd`).
    complete: BTreeSet<String>,
    /// Transactions that are complete.
    complete_txs: BTreeSet<String>,
    /// Transactions seen without their closing op.
    unfinished_txs: BTreeSet<String>,
    /// Lines that hold no whole op (a torn write), and ops of unfinished
    /// transactions.
    unfinished: usize,
    /// Whether an unfinished line stands before an op of a complete
    /// transaction (a merge put it inside the log).
    unfinished_inside: bool,
    /// Lines that are neither ops nor the start of one: corruption.
    bad: Vec<String>,
    /// The non-blank lines, as text.
    lines: Vec<String>,
}

fn read_log(path: &Path) -> LogView {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let mut v = LogView::default();
    // Per parsed op: whether a torn part was glued in front of it; per torn
    // line: its position among the entries.
    let mut entries: Vec<Option<Value>> = Vec::new();
    let segments: Vec<&str> = text.split('\n').collect();
    for (i, seg) in segments.iter().enumerate() {
        if seg.trim().is_empty() {
            continue;
        }
        v.lines.push(seg.to_string());
        let last = i + 1 == segments.len();
        match serde_json::from_str::<Value>(seg) {
            Ok(op) if op.get("opId").is_some() && op.get("tx").is_some() => {
                entries.push(Some(op));
            }
            _ => {
                // A torn write: the start of an op line, possibly glued by a
                // merge to a whole op after it.
                let glued = seg
                    .rfind("{\"opId\":")
                    .filter(|at| *at > 0 && seg.starts_with("{\"opId\":"))
                    .and_then(|at| serde_json::from_str::<Value>(&seg[at..]).ok());
                if seg.starts_with("{\"opId\":") || last {
                    entries.push(None);
                    if let Some(op) = glued {
                        entries.push(Some(op));
                    }
                } else {
                    v.bad.push(format!("line {}: {seg}", i + 1));
                }
            }
        }
    }
    for op in entries.iter().flatten() {
        if op["txEnd"] == json!(true) {
            v.complete_txs
                .insert(op["tx"].as_str().unwrap().to_string());
        }
    }
    let mut seen_unfinished = false;
    for e in &entries {
        match e {
            None => {
                v.unfinished += 1;
                seen_unfinished = true;
            }
            Some(op) => {
                let tx = op["tx"].as_str().unwrap().to_string();
                if v.complete_txs.contains(&tx) {
                    v.complete.insert(op["opId"].as_str().unwrap().to_string());
                    if seen_unfinished {
                        v.unfinished_inside = true;
                    }
                } else {
                    v.unfinished += 1;
                    seen_unfinished = true;
                    v.unfinished_txs.insert(tx);
                }
                v.ops.push(op.clone());
            }
        }
    }
    v
}

/// What an approval was given for: the content `raw` printed.
fn content(raw: &Value) -> Value {
    json!({"nodes": raw["nodes"], "edges": raw["edges"], "bounds": raw["bounds"]})
}

fn codes(v: &Value) -> BTreeSet<String> {
    v["issues"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|i| i["code"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// (code, severity) of every issue, as a sorted list.
fn findings(v: &Value) -> Vec<(String, String)> {
    let mut f: Vec<(String, String)> = v["issues"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|i| {
                    (
                        i["code"].as_str().unwrap_or("").to_string(),
                        i["severity"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    f.sort();
    f
}

// ---------------------------------------------------------------------------
// A team: an origin repository and its clones.

/// A working copy (the origin or a clone) and who works in it.
struct Clone {
    name: String,
    dir: PathBuf,
    home: PathBuf,
    /// planforge runs so far, for a fresh id seed per run.
    runs: Cell<u64>,
}

impl Clone {
    fn log_path(&self, plan: &str) -> PathBuf {
        self.dir.join("plans").join(plan).join("ops.jsonl")
    }

    fn log(&self, plan: &str) -> LogView {
        read_log(&self.log_path(plan))
    }

    /// `planforge ARGS` here as this clone's actor, with `extra` variables.
    fn pf_env(&self, args: &[&str], extra: &[(&str, String)]) -> Out {
        let n = self.runs.get();
        self.runs.set(n + 1);
        let mut c = common::command(&self.dir, args);
        c.env("PLANFORGE_ACTOR", &self.name)
            .env("PLANFORGE_NOW", NOW)
            // A seed per run: ids are fixed for a replay, and differ across
            // runs and clones.
            .env("PLANFORGE_ID_SEED", format!("{}-{n}", self.name))
            .env("HOME", &self.home);
        for (k, v) in extra {
            c.env(k, v);
        }
        c.output().unwrap().into()
    }

    fn pf(&self, args: &[&str]) -> Out {
        self.pf_env(args, &[])
    }

    /// `planforge --format json ARGS` and its exit code.
    fn json_code(&self, args: &[&str]) -> (Value, i32) {
        let mut a = vec!["--format", "json"];
        a.extend_from_slice(args);
        let out = self.pf(&a);
        let v = serde_json::from_str(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{}: planforge {a:?}: not one JSON document ({e}; exit {}):\n{}\n{}",
                self.name, out.code, out.stdout, out.stderr
            )
        });
        (v, out.code)
    }

    /// A run that must succeed.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.pf(args);
        assert_eq!(
            out.code, 0,
            "{}: planforge {args:?}:\n{}\n{}",
            self.name, out.stdout, out.stderr
        );
        out.stdout
    }

    /// `status` of a plan, which must load.
    fn status(&self, plan: &str) -> Value {
        let (v, code) = self.json_code(&["status", "-p", plan]);
        assert!(
            code == 0 && v.get("error").is_none(),
            "{}: plan {plan} does not load (exit {code}): {v}",
            self.name
        );
        v
    }

    fn raw(&self, plan: &str, rev: Option<u64>) -> Value {
        let r = rev.map(|r| r.to_string());
        let mut args = vec!["raw", "-p", plan];
        if let Some(r) = &r {
            args.extend(["--rev", r.as_str()]);
        }
        let (mut v, code) = self.json_code(&args);
        assert_eq!(code, 0, "{}: raw {args:?}: {v}", self.name);
        if let Some(o) = v.as_object_mut() {
            o.remove("formatVersion");
        }
        v
    }

    /// `validate PLAN` as JSON, and its exit code (0 or 1).
    fn validate(&self, plan: &str) -> (Value, i32) {
        let (v, code) = self.json_code(&["validate", plan]);
        assert!(
            code == 0 || code == 1,
            "{}: validate {plan} exited {code}: {v}",
            self.name
        );
        (v, code)
    }

    /// opIds `planforge ops` prints (complete transactions only).
    fn op_ids(&self, plan: &str) -> BTreeSet<String> {
        let (v, code) = self.json_code(&["ops", "-p", plan]);
        assert_eq!(code, 0, "{}: ops -p {plan}: {v}", self.name);
        v["ops"]
            .as_array()
            .unwrap_or_else(|| panic!("ops: {v}"))
            .iter()
            .map(|o| o["opId"].as_str().unwrap().to_string())
            .collect()
    }

    fn node_ids(&self, plan: &str) -> Vec<String> {
        self.raw(plan, None)["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["id"].as_str().unwrap().to_string())
            .collect()
    }

    fn git(&self, args: &[&str]) -> Output {
        git_command(&self.home, &self.dir, args).output().unwrap()
    }

    fn git_ok(&self, args: &[&str]) -> String {
        let out = self.git(args);
        assert!(
            out.status.success(),
            "{}: git {args:?}: {}",
            self.name,
            show(&out)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Commits everything (nothing when nothing changed).
    fn commit(&self, msg: &str) {
        self.git_ok(&["add", "-A"]);
        if !self.git_ok(&["status", "--porcelain"]).trim().is_empty() {
            self.git_ok(&["commit", "-q", "-m", msg]);
        }
    }

    fn head(&self) -> String {
        self.git_ok(&["rev-parse", "HEAD"]).trim().to_string()
    }

    /// Fetches `other`'s main into `refs/peers/<other>` (a snapshot).
    fn fetch(&self, other: &Clone) {
        let refspec = format!("+main:refs/peers/{}", other.name);
        self.git_ok(&["fetch", "-q", other.dir.to_str().unwrap(), &refspec]);
    }

    /// `git merge` of a ref or commit, which must succeed with no conflict
    /// and leave nothing uncommitted.
    fn merge_ref(&self, rev: &str, ctx: &str) {
        let out = self.git(&["merge", "--no-edit", "-m", "merge", rev]);
        let text = show(&out);
        let unmerged = self.git_ok(&["ls-files", "-u"]);
        assert!(
            out.status.success() && !text.contains("CONFLICT") && unmerged.trim().is_empty(),
            "{ctx}: {} merging {rev} conflicted or failed:\n{text}\nunmerged: {unmerged}",
            self.name
        );
        let left = self.git_ok(&["status", "--porcelain"]);
        assert!(
            left.trim().is_empty(),
            "{ctx}: {} has changes left after merging {rev}:\n{left}",
            self.name
        );
    }

    /// Merges `other`'s current main.
    fn merge_from(&self, other: &Clone, ctx: &str) {
        self.fetch(other);
        self.merge_ref(&format!("refs/peers/{}", other.name), ctx);
    }
}

struct Team {
    _tmp: tempfile::TempDir,
    origin: Clone,
    clones: Vec<Clone>,
}

/// Adds a call node `id` reading the run input through `accept_assignment`,
/// and connects it from `start`: the plan stays free of blocking issues.
fn add_step(c: &Clone, plan: &str, id: &str) -> (Out, Option<Out>) {
    let added = c.pf(&[
        "-p",
        plan,
        "add-node",
        id,
        "--kind",
        "call",
        "--tool",
        "accept_assignment",
        "--arg",
        "assignment=@start.topic",
        "--output",
        "topic:string",
        "--declassify",
        "topic",
        "--authority",
        "assignments/notes/read",
        "--replay-safe",
        "--on-indeterminate",
        "retry",
        "--on-missing-value",
        "fail",
    ]);
    if added.code != 0 {
        return (added, None);
    }
    let connected = c.pf(&["-p", plan, "connect", "start", id]);
    (added, Some(connected))
}

impl Team {
    /// An origin repository with a store holding `plans` (each an entry and
    /// one call, free of blocking issues), `setup` run in it, committed; then
    /// one clone per name.
    fn new(plans: &[&str], names: &[&str], setup: impl Fn(&Clone)) -> Team {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let mk = |name: &str| Clone {
            name: name.to_string(),
            dir: tmp.path().join(name),
            home: home.clone(),
            runs: Cell::new(0),
        };
        let origin = mk("origin");
        std::fs::create_dir_all(&origin.dir).unwrap();
        origin.git_ok(&["init", "-q"]);
        origin.ok(&["init"]);
        let attrs = std::fs::read_to_string(origin.dir.join("plans/.gitattributes")).unwrap();
        assert!(
            attrs.lines().any(|l| l.trim() == "*/ops.jsonl merge=union"),
            "init wrote no union merge for op logs:\n{attrs}"
        );
        for plan in plans {
            origin.ok(&["create", plan, "--label", "shared"]);
            origin.ok(&[
                "-p",
                plan,
                "add-node",
                "start",
                "--kind",
                "entry",
                "--input",
                "topic:string:200",
            ]);
            let (a, c) = add_step(&origin, plan, "accept");
            assert_eq!(a.code, 0, "{}", a.stderr);
            assert_eq!(c.unwrap().code, 0);
            let (v, code) = origin.validate(plan);
            assert_eq!(code, 0, "the base plan has blocking issues: {v}");
        }
        setup(&origin);
        origin.commit("base");
        let clones: Vec<Clone> = names
            .iter()
            .map(|n| {
                let c = mk(n);
                git_command(&home, tmp.path(), &["clone", "-q", "origin", n])
                    .output()
                    .map(|o| assert!(o.status.success(), "git clone: {}", show(&o)))
                    .unwrap();
                c
            })
            .collect();
        Team {
            _tmp: tmp,
            origin,
            clones,
        }
    }
}

/// Failures collected so that one run reports all of them.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        if !ok {
            self.0.push(what());
        }
    }
    fn finish(self) {
        assert!(
            self.0.is_empty(),
            "{} failure(s):\n- {}",
            self.0.len(),
            self.0.join("\n- ")
        );
    }
}

// ---------------------------------------------------------------------------
// The random torture test.

/// What the test knows, across clones.
#[derive(Default)]
struct Book {
    /// Per plan: opIds of every complete transaction any clone's log held.
    complete: BTreeMap<String, BTreeSet<String>>,
    /// Per (clone, plan): the complete opIds it held last time.
    held: BTreeMap<(String, String), BTreeSet<String>>,
    /// Per plan: content and authority approved by a successful submit,
    /// by digest.
    approved: BTreeMap<String, BTreeMap<String, (Value, Value)>>,
    /// Transactions a crash left unfinished.
    crashed: BTreeSet<String>,
    /// How many of each outcome happened, for the log.
    tally: BTreeMap<String, usize>,
}

impl Book {
    fn count(&mut self, what: &str) {
        *self.tally.entry(what.to_string()).or_default() += 1;
    }
}

/// Checks one plan on one clone. `wrote`: the clone just made a successful
/// write to it (new complete ops allowed, no unfinished line may remain).
fn check_plan(c: &Clone, plan: &str, book: &mut Book, wrote: bool, ctx: &str) -> LogView {
    let (status, code) = c.json_code(&["status", "-p", plan]);
    assert!(
        code == 0 && status.get("error").is_none(),
        "{ctx}: {}: plan {plan} does not load (exit {code}): {status}\nops.jsonl:\n{}",
        c.name,
        std::fs::read_to_string(c.log_path(plan)).unwrap_or_default()
    );
    let log = c.log(plan);
    assert!(
        log.bad.is_empty(),
        "{ctx}: {}'s log of {plan} has lines that are not ops: {:?}",
        c.name,
        log.bad
    );
    // Every complete transaction survives, and none appears from nowhere.
    let key = (c.name.clone(), plan.to_string());
    let before = book.held.get(&key).cloned().unwrap_or_default();
    let lost: Vec<_> = before.difference(&log.complete).collect();
    assert!(
        lost.is_empty(),
        "{ctx}: {} lost complete ops of {plan}: {lost:?}",
        c.name
    );
    let known = book.complete.entry(plan.to_string()).or_default();
    let fresh: Vec<String> = log.complete.difference(known).cloned().collect();
    assert!(
        wrote || fresh.is_empty(),
        "{ctx}: {}'s log of {plan} holds complete ops nobody wrote: {fresh:?}",
        c.name
    );
    known.extend(fresh);
    let crashed_done: Vec<_> = log.complete_txs.intersection(&book.crashed).collect();
    assert!(
        crashed_done.is_empty(),
        "{ctx}: transactions a crash left unfinished became complete on {}: {crashed_done:?}",
        c.name
    );
    // planforge prints exactly the ops of complete transactions.
    let printed = c.op_ids(plan);
    assert_eq!(
        printed, log.complete,
        "{ctx}: {}: `ops -p {plan}` differs from the complete transactions in its log",
        c.name
    );
    // The next write removes unfinished transactions.
    if wrote && log.complete.len() > before.len() {
        assert_eq!(
            log.unfinished,
            0,
            "{ctx}: {} wrote to {plan} but its log still holds {} unfinished line(s):\n{}",
            c.name,
            log.unfinished,
            log.lines.join("\n")
        );
    }
    book.held.insert(key, log.complete.clone());
    // Unfinished transactions are reported, and only then.
    let (valid, code) = c.validate(plan);
    let torn = codes(&valid).contains("torn_tail");
    assert_eq!(
        torn,
        log.unfinished > 0,
        "{ctx}: {}: {} unfinished line(s) in {plan}'s log, validate says {valid}",
        c.name,
        log.unfinished
    );
    if torn {
        assert!(
            status["issues"]["advisory"].as_u64().unwrap_or(0) >= 1,
            "{ctx}: {}: status of {plan} counts no advisory for the unfinished transaction: {status}",
            c.name
        );
    }
    let blocking = valid["blocking"].as_u64().unwrap_or(0);
    assert_eq!(
        code == 1,
        blocking > 0,
        "{ctx}: {}: validate {plan} exit {code} with {blocking} blocking: {valid}",
        c.name
    );
    // What the run went through, for the log.
    book.count(&format!("seen {}", status["state"].as_str().unwrap_or("?")));
    for code in ["approval_mismatch", "freeze_mismatch", "torn_tail"] {
        if codes(&valid).contains(code) {
            book.count(&format!("seen {code}"));
        }
    }
    if log.unfinished_inside {
        book.count("seen unfinished inside the log");
    }
    // Executable only when the approval matches the content.
    if status["state"] == "executable" {
        let a = &status["approval"];
        let raw = c.raw(plan, None);
        assert!(
            a["planId"] == plan && a["digest"] == status["digest"] && raw["digest"] == a["digest"],
            "{ctx}: {}: {plan} is executable with an approval that does not match: {status}",
            c.name
        );
        let digest = a["digest"].as_str().unwrap();
        let approved = book.approved.get(plan).and_then(|m| m.get(digest));
        assert!(
            approved
                .is_some_and(|(cont, auth)| *cont == content(&raw) && *auth == a["authoritySet"]),
            "{ctx}: {}: {plan} is executable, but no submit approved this content and authority:\n{status}\n{raw}",
            c.name
        );
        assert_eq!(
            blocking, 0,
            "{ctx}: {}: executable {plan} has blocking findings: {valid}",
            c.name
        );
    }
    log
}

/// One random change by `c` to `plan`; returns what it was, for the log.
fn random_change(
    c: &Clone,
    plan: &str,
    rng: &mut Rng,
    book: &mut Book,
    tag: &str,
    ctx: &str,
) -> String {
    let crash = rng.chance(20).then(|| (1 + rng.below(300)).to_string());
    let extra: Vec<(&str, String)> = crash
        .iter()
        .map(|n| ("PLANFORGE_TEST_CRASH_AFTER_BYTES", n.clone()))
        .collect();
    let nodes: Vec<String> = c
        .node_ids(plan)
        .into_iter()
        .filter(|n| n != "start")
        .collect();
    let before = c.log(plan);
    let mut roll = rng.below(100);
    if nodes.is_empty() && (22..64).contains(&roll) {
        roll = 0;
    }
    let (what, outs): (String, Vec<Out>) = match roll {
        0..=21 => {
            // add (crashes hit the add-node)
            let id = tag.to_string();
            let mut args: Vec<String> = [
                "-p",
                plan,
                "add-node",
                &id,
                "--kind",
                "call",
                "--tool",
                "accept_assignment",
                "--arg",
                "assignment=@start.topic",
                "--output",
                "topic:string",
                "--declassify",
                "topic",
                "--authority",
                "assignments/notes/read",
                "--replay-safe",
                "--on-indeterminate",
                "retry",
                "--on-missing-value",
                "fail",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            if rng.chance(30) {
                args.extend(["--phase".into(), "late".into()]);
            }
            let a: Vec<&str> = args.iter().map(String::as_str).collect();
            let added = c.pf_env(&a, &extra);
            let mut outs = vec![];
            let ok = added.code == 0;
            outs.push(added);
            if ok {
                outs.push(c.pf(&["-p", plan, "connect", "start", &id]));
            }
            (format!("add {id}"), outs)
        }
        22..=31 => {
            let id = rng.pick(&nodes).clone();
            (
                format!("remove {id}"),
                vec![c.pf_env(&["-p", plan, "remove-node", "--yes", &id], &extra)],
            )
        }
        32..=51 => {
            let id = rng.pick(&nodes).clone();
            let (field, value) = if rng.chance(50) {
                ("onIndeterminate", *rng.pick(&["retry", "halt", "skip"]))
            } else {
                ("onMissingValue", *rng.pick(&["fail", "omit"]))
            };
            (
                format!("set {id} {field} {value}"),
                vec![c.pf_env(&["-p", plan, "set", &id, field, value], &extra)],
            )
        }
        52..=63 => {
            let id = rng.pick(&nodes).clone();
            let phase = *rng.pick(&["intake", "review", "act", "-"]);
            let args: Vec<&str> = if phase == "-" {
                vec!["-p", plan, "phase", &id, "--clear"]
            } else {
                vec!["-p", plan, "phase", &id, phase]
            };
            (format!("phase {id} {phase}"), vec![c.pf_env(&args, &extra)])
        }
        64..=77 => (
            "freeze".into(),
            vec![c.pf_env(&["-p", plan, "freeze"], &extra)],
        ),
        78..=91 => (
            "unfreeze".into(),
            vec![c.pf_env(&["-p", plan, "unfreeze"], &extra)],
        ),
        _ => (
            "submit".into(),
            vec![c.pf_env(&["--format", "json", "-p", plan, "submit", "--yes"], &extra)],
        ),
    };
    let mut crashed = false;
    for (i, out) in outs.iter().enumerate() {
        let may_crash = i == 0 && crash.is_some();
        let fine =
            out.code == 0 || out.code == 1 || (may_crash && (out.code == -1 || out.code == 134));
        assert!(
            fine,
            "{ctx}: {}: `{what}` on {plan} (crash after {crash:?} bytes) exited {}:\n{}\n{}",
            c.name, out.code, out.stdout, out.stderr
        );
        if may_crash && (out.code == -1 || out.code == 134) {
            crashed = true;
        }
        book.count(&format!(
            "{} {}",
            what.split(' ').next().unwrap(),
            match out.code {
                0 => "ok",
                1 => "refused",
                _ => "crashed",
            }
        ));
    }
    let after = c.log(plan);
    if crashed {
        let new_unfinished: BTreeSet<String> = after
            .unfinished_txs
            .difference(&before.unfinished_txs)
            .cloned()
            .collect();
        // A crash leaves an unfinished transaction, unless all but the
        // newline of a one-line transaction landed (then it is complete).
        assert!(
            after.unfinished > 0 || after.complete.len() > before.complete.len(),
            "{ctx}: {}: `{what}` crashed, yet its log of {plan} holds nothing unfinished and nothing new",
            c.name
        );
        book.crashed.extend(new_unfinished);
    }
    if what == "submit" && outs[0].code == 0 {
        let v: Value = serde_json::from_str(&outs[0].stdout).unwrap();
        let raw = c.raw(plan, None);
        let digest = v["approval"]["digest"].as_str().unwrap_or("").to_string();
        assert_eq!(
            raw["digest"], v["approval"]["digest"],
            "{ctx}: {}: submit approved a digest that is not the content's: {v}",
            c.name
        );
        book.approved.entry(plan.to_string()).or_default().insert(
            digest,
            (content(&raw), v["approval"]["authoritySet"].clone()),
        );
    }
    let wrote = outs.iter().any(|o| o.code == 0);
    check_plan(c, plan, book, wrote, &format!("{ctx} after `{what}`"));
    format!(
        "{what}{} → {:?}",
        crash
            .map(|n| format!(" (crash after {n} bytes)"))
            .unwrap_or_default(),
        outs.iter().map(|o| o.code).collect::<Vec<_>>()
    )
}

#[test]
fn random_clones_edit_commit_and_merge() {
    let (mut rng, seed) = Rng::seeded("random_clones_edit_commit_and_merge");
    let plans = ["plan-alpha", "plan-beta"];
    let n = 2 + rng.below(2) as usize;
    let names = &["ann", "bob", "cyd"][..n];
    let team = Team::new(&plans, names, |_| {});
    let mut book = Book::default();
    for p in plans {
        book.complete
            .insert(p.to_string(), team.origin.log(p).complete);
    }
    for c in &team.clones {
        for p in plans {
            check_plan(c, p, &mut book, false, &format!("seed {seed}: start"));
        }
    }
    let rounds = 3;
    for round in 1..=rounds {
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        for &ci in &order {
            let c = &team.clones[ci];
            let k = 3 + rng.below(4);
            for i in 0..k {
                let plan = *rng.pick(&plans);
                let ctx = format!("seed {seed}: round {round}, {} change {i}", c.name);
                let tag = format!("{}{round}_{i}", c.name);
                let did = random_change(c, plan, &mut rng, &mut book, &tag, &ctx);
                eprintln!("  {ctx}: {plan}: {did}");
            }
            c.commit(&format!("{} round {round}", c.name));
            if rng.chance(50) {
                let to = rng.below(n as u64) as usize;
                let from = (to + 1 + rng.below(n as u64 - 1) as usize) % n;
                merge_and_check(&team, to, from, &mut book, seed, round);
            }
        }
        for _ in 0..1 + rng.below(n as u64) {
            let to = rng.below(n as u64) as usize;
            let from = (to + 1 + rng.below(n as u64 - 1) as usize) % n;
            merge_and_check(&team, to, from, &mut book, seed, round);
        }
    }
    // Everyone merges everyone's last head, each in its own order.
    for c in &team.clones {
        for o in &team.clones {
            if o.name != c.name {
                c.fetch(o);
            }
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    for &ci in &order {
        let c = &team.clones[ci];
        let mut peers: Vec<&Clone> = team.clones.iter().filter(|o| o.name != c.name).collect();
        rng.shuffle(&mut peers);
        for o in peers {
            let ctx = format!("seed {seed}: final sync");
            eprintln!("  {ctx}: {} merges {}", c.name, o.name);
            c.merge_ref(&format!("refs/peers/{}", o.name), &ctx);
            for p in plans {
                check_plan(c, p, &mut book, false, &ctx);
            }
        }
    }
    eprintln!("  outcomes: {:?}", book.tally);
    // Every clone folds the same content, digest and state, at every
    // revision, from the same complete transactions.
    let first = &team.clones[0];
    for p in plans {
        let ctx = format!("seed {seed}: after the final sync, {p}");
        let status = first.status(p);
        let raw = first.raw(p, None);
        let (valid, _) = first.validate(p);
        let log = first.log(p);
        assert_eq!(
            log.complete, book.complete[p],
            "{ctx}: {} lacks complete ops some clone held",
            first.name
        );
        let head = status["revision"].as_u64().unwrap();
        let revs: Vec<Value> = (0..=head).map(|r| first.raw(p, Some(r))).collect();
        for c in &team.clones[1..] {
            assert_eq!(
                folded(&c.status(p)),
                folded(&status),
                "{ctx}: status of {} and {}",
                first.name,
                c.name
            );
            assert_eq!(
                c.raw(p, None),
                raw,
                "{ctx}: raw of {} and {}",
                first.name,
                c.name
            );
            assert_eq!(
                kept(findings(&c.validate(p).0)),
                kept(findings(&valid)),
                "{ctx}: findings of {} and {}",
                first.name,
                c.name
            );
            assert_eq!(
                c.log(p).complete,
                log.complete,
                "{ctx}: complete ops of {} and {}",
                first.name,
                c.name
            );
            for (r, want) in revs.iter().enumerate() {
                assert_eq!(
                    &c.raw(p, Some(r as u64)),
                    want,
                    "{ctx}: raw --rev {r} of {} and {}",
                    first.name,
                    c.name
                );
            }
        }
    }
}

/// A status without its advisory count: unfinished lines are not content,
/// and whether a clone still holds some depends on where it merged.
fn folded(status: &Value) -> Value {
    let mut s = status.clone();
    if let Some(i) = s.get_mut("issues").and_then(Value::as_object_mut) {
        i.remove("advisory");
    }
    s
}

/// Findings other than `torn_tail` (see [`folded`]).
fn kept(f: Vec<(String, String)>) -> Vec<(String, String)> {
    f.into_iter().filter(|(c, _)| c != "torn_tail").collect()
}

fn merge_and_check(team: &Team, to: usize, from: usize, book: &mut Book, seed: u64, round: u64) {
    let (c, o) = (&team.clones[to], &team.clones[from]);
    let ctx = format!("seed {seed}: round {round}, {} merges {}", c.name, o.name);
    eprintln!("  {ctx}");
    c.merge_from(o, &ctx);
    for p in ["plan-alpha", "plan-beta"] {
        check_plan(c, p, book, false, &ctx);
    }
}

// ---------------------------------------------------------------------------
// Focused cases.

/// Each clone merges the other's head as it was before either merged: two
/// real three-way merges, with the sides in opposite order.
fn merge_crosswise(a: &Clone, b: &Clone, ctx: &str) {
    a.fetch(b);
    b.fetch(a);
    a.merge_ref(&format!("refs/peers/{}", b.name), ctx);
    b.merge_ref(&format!("refs/peers/{}", a.name), ctx);
}

/// The lines of a log as a sorted multiset.
fn sorted_lines(c: &Clone, plan: &str) -> Vec<String> {
    let mut l = c.log(plan).lines;
    l.sort();
    l
}

#[test]
fn two_edits_of_one_plan_merge_both_ways() {
    let team = Team::new(&["plan-one"], &["ann", "bob"], |_| {});
    let (a, b) = (&team.clones[0], &team.clones[1]);
    let p = "plan-one";
    let (x, y) = add_step(a, p, "ann_step");
    assert_eq!((x.code, y.unwrap().code), (0, 0));
    b.ok(&["-p", p, "set", "accept", "onIndeterminate", "halt"]);
    b.ok(&["-p", p, "phase", "accept", "review"]);
    a.commit("ann edits");
    b.commit("bob edits");
    let (ha, hb) = (a.head(), b.head());
    merge_crosswise(a, b, "crosswise merge");
    assert_ne!(a.head(), ha, "ann's merge made no commit");
    assert_ne!(b.head(), hb, "bob's merge made no commit");
    assert_eq!(
        sorted_lines(a, p),
        sorted_lines(b, p),
        "the union merges kept different lines"
    );
    let (sa, sb) = (a.status(p), b.status(p));
    assert_eq!(sa, sb, "the clones fold differently");
    assert_eq!(a.raw(p, None), b.raw(p, None));
    let raw = a.raw(p, None);
    let ids: BTreeSet<&str> = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, BTreeSet::from(["start", "accept", "ann_step"]));
    let accept = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == "accept")
        .unwrap();
    assert_eq!(accept["phase"], "review", "{accept}");
    assert_eq!(accept["definition"]["onIndeterminate"], "halt", "{accept}");
    assert_eq!(sa["revision"], 7, "3 base ops + 2 by ann + 2 by bob: {sa}");
    for c in [a, b] {
        let (v, code) = c.validate(p);
        assert_eq!(code, 0, "{}: {v}", c.name);
        assert!(c.log(p).bad.is_empty() && c.log(p).unfinished == 0);
    }
    // Both still write, and converge again.
    a.ok(&["-p", p, "phase", "ann_step", "act"]);
    a.commit("ann again");
    b.merge_from(a, "bob merges ann again");
    a.merge_from(b, "ann merges bob again");
    assert_eq!(a.head(), b.head());
    assert_eq!(a.status(p), b.status(p));
}

#[test]
fn a_refreeze_merged_with_a_submit_is_never_executable_with_unapproved_content() {
    let p = "plan-one";
    let team = Team::new(&[p], &["ann", "bob"], |o| {
        o.ok(&["-p", p, "freeze"]);
    });
    let (a, b) = (&team.clones[0], &team.clones[1]);
    let approved = a.raw(p, None);
    // Ann re-freezes: unfreeze, edit, freeze.
    a.ok(&["-p", p, "unfreeze"]);
    a.ok(&["-p", p, "set", "accept", "onIndeterminate", "halt"]);
    a.ok(&["-p", p, "freeze"]);
    let refrozen = a.raw(p, None);
    assert_ne!(refrozen["digest"], approved["digest"]);
    // Bob submits the content as frozen at origin.
    let (v, code) = b.json_code(&["submit", "-p", p, "--yes"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["approval"]["digest"], approved["digest"], "{v}");
    assert_eq!(b.status(p)["state"], "executable");
    a.commit("ann re-freezes");
    b.commit("bob submits");
    merge_crosswise(a, b, "crosswise merge");
    let mut f = Failures::default();
    let sa = a.status(p);
    for c in [a, b] {
        let s = c.status(p);
        f.check(s == sa, || {
            format!("{} folds otherwise than {}: {s}\n{sa}", c.name, a.name)
        });
        let raw = c.raw(p, None);
        f.check(raw["digest"] == refrozen["digest"], || {
            format!("{}: the merged content is not ann's: {raw}", c.name)
        });
        // Never executable with content nobody approved.
        f.check(
            s["state"] != "executable" || s["approval"]["digest"] == raw["digest"],
            || format!("{}: executable with unapproved content: {s}", c.name),
        );
        f.check(s["state"] != "executable", || {
            format!(
                "{}: executable after the merge (bob approved other content): {s}",
                c.name
            )
        });
        // status says so: the approval on record does not hold (blocking).
        f.check(s["issues"]["blocking"].as_u64().unwrap_or(0) >= 1, || {
            format!(
                "{}: status counts no blocking finding although bob's approval (digest {}) does not match the content ({}): {s}",
                c.name, approved["digest"], raw["digest"]
            )
        });
        // validate says so: exit 1, approval_mismatch.
        let (v, code) = c.validate(p);
        f.check(code == 1 && codes(&v).contains("approval_mismatch"), || {
            format!(
                "{}: validate exited {code} without approval_mismatch after the merge brought ann's edit after bob's approval: {v}",
                c.name
            )
        });
    }
    // submit says so: it refuses, or it names the approval that does not
    // hold (and then approves the content as it is, nothing else).
    for c in [a, b] {
        let (v, code) = c.json_code(&["submit", "-p", p, "--yes"]);
        let text = v.to_string();
        f.check(v["error"]["code"] != "not_editable", || {
            format!(
                "{}: submit treats the plan as already executable: {v}",
                c.name
            )
        });
        f.check(code == 1 || text.contains("approval_mismatch"), || {
            format!(
                "{}: submit (exit {code}) does not say that bob's approval does not hold: {v}",
                c.name
            )
        });
        if code == 0 {
            let s = c.status(p);
            f.check(
                s["state"] == "executable" && s["approval"]["digest"] == refrozen["digest"],
                || format!("{}: after submit: {s}", c.name),
            );
        }
    }
    f.finish();
}

/// The bytes a normal `submit --yes` from an editable plan appends, learned
/// by running it and putting the log back: (first line, whole write).
fn submit_write_sizes(c: &Clone, plan: &str) -> (usize, usize) {
    let path = c.log_path(plan);
    let before = std::fs::read(&path).unwrap();
    c.ok(&["-p", plan, "submit", "--yes"]);
    let after = std::fs::read(&path).unwrap();
    std::fs::write(&path, &before).unwrap();
    let _ = std::fs::remove_file(path.with_file_name("checkpoint.json"));
    assert_eq!(c.status(plan)["state"], "editable");
    let added = &after[before.len()..];
    let first = added.iter().position(|b| *b == b'\n').unwrap() + 1;
    assert!(
        first < added.len(),
        "submit wrote one line, not freeze and approve"
    );
    (first, added.len())
}

#[test]
fn a_crash_committed_on_one_clone_merges_with_the_other_clones_edits() {
    let p = "plan-one";
    let team = Team::new(&[p], &["ann", "bob"], |_| {});
    let (a, b) = (&team.clones[0], &team.clones[1]);
    // Ann's submit (freeze and approve, one transaction) dies after its first
    // line and half of the second.
    let (first, whole) = submit_write_sizes(a, p);
    let n = first + (whole - first) / 2;
    let out = a.pf_env(
        &["-p", p, "submit", "--yes"],
        &[("PLANFORGE_TEST_CRASH_AFTER_BYTES", n.to_string())],
    );
    assert!(
        out.code == -1 || out.code == 134,
        "no crash: {}",
        out.stderr
    );
    let torn = a.log(p);
    assert!(torn.unfinished >= 2, "{:?}", torn.lines);
    assert_eq!(a.status(p)["state"], "editable");
    let a_complete = torn.complete.clone();
    a.commit("ann's crashed submit");
    // Bob edits meanwhile.
    let (x, y) = add_step(b, p, "bob_step");
    assert_eq!((x.code, y.unwrap().code), (0, 0));
    b.ok(&["-p", p, "phase", "accept", "review"]);
    let b_complete = b.log(p).complete;
    b.commit("bob edits");
    merge_crosswise(a, b, "crosswise merge");
    let all: BTreeSet<String> = a_complete.union(&b_complete).cloned().collect();
    let mut inside = false;
    for c in [b, a] {
        let s = c.status(p);
        let log = c.log(p);
        inside |= log.unfinished_inside;
        assert!(log.bad.is_empty(), "{}: {:?}", c.name, log.bad);
        assert_eq!(
            log.complete, all,
            "{}: complete ops after the merge",
            c.name
        );
        assert!(log.unfinished >= 2, "{}: {:?}", c.name, log.lines);
        assert_ne!(s["state"], "executable", "{}: {s}", c.name);
        assert!(
            s["issues"]["advisory"].as_u64().unwrap() >= 1,
            "{}: {s}",
            c.name
        );
        let (v, code) = c.validate(p);
        assert_eq!(code, 0, "{}: {v}", c.name);
        assert_eq!(
            findings(&v),
            vec![("torn_tail".to_string(), "advisory".to_string())],
            "{}: {v}",
            c.name
        );
        assert_eq!(c.op_ids(p), all, "{}: ops prints other ops", c.name);
        assert!(
            !c.node_ids(p).is_empty() && c.node_ids(p).contains(&"bob_step".to_string()),
            "{}",
            c.name
        );
    }
    assert!(
        inside,
        "neither merge put the unfinished transaction inside the log"
    );
    assert_eq!(a.status(p), b.status(p));
    // The next write removes it, on both clones, and loses nothing complete.
    a.ok(&["-p", p, "phase", "bob_step", "act"]);
    b.ok(&["-p", p, "set", "bob_step", "onMissingValue", "omit"]);
    for c in [a, b] {
        let log = c.log(p);
        assert_eq!(log.unfinished, 0, "{}: {:?}", c.name, log.lines);
        assert!(log.complete.is_superset(&all), "{}", c.name);
        let (v, code) = c.validate(p);
        assert!(
            code == 0 && !codes(&v).contains("torn_tail"),
            "{}: {v}",
            c.name
        );
    }
    a.commit("ann writes");
    b.commit("bob writes");
    merge_crosswise(a, b, "merge after the clean-up");
    a.merge_from(b, "ann merges bob");
    b.merge_from(a, "bob merges ann");
    assert_eq!(a.head(), b.head());
    assert_eq!(a.status(p), b.status(p));
    assert_eq!(a.raw(p, None), b.raw(p, None));
    let raw = a.raw(p, None);
    let step = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == "bob_step")
        .unwrap();
    assert_eq!(step["phase"], "act");
    assert_eq!(step["definition"]["onMissingValue"], "omit");
}

#[test]
fn heads_are_equal_and_every_revision_agrees_after_both_clones_merge() {
    let p = "plan-one";
    let team = Team::new(&[p], &["ann", "bob"], |_| {});
    let (a, b) = (&team.clones[0], &team.clones[1]);
    let base = a.status(p)["revision"].as_u64().unwrap();
    let base_revs: Vec<Value> = (0..=base).map(|r| a.raw(p, Some(r))).collect();
    for i in 0..3 {
        let (x, y) = add_step(a, p, &format!("ann_{i}"));
        assert_eq!((x.code, y.unwrap().code), (0, 0));
    }
    a.ok(&["-p", p, "remove-node", "--yes", "ann_1"]);
    a.commit("ann");
    for i in 0..2 {
        let (x, y) = add_step(b, p, &format!("bob_{i}"));
        assert_eq!((x.code, y.unwrap().code), (0, 0));
    }
    b.ok(&["-p", p, "set", "accept", "onIndeterminate", "skip"]);
    b.ok(&["-p", p, "phase", "bob_0", "review"]);
    b.commit("bob");
    // Two three-way merges, sides in opposite order.
    merge_crosswise(a, b, "crosswise merge");
    let head = a.status(p)["revision"].as_u64().unwrap();
    assert_eq!(head, base + 3 * 2 + 1 + 2 * 2 + 2);
    let revs: Vec<Value> = (0..=head).map(|r| a.raw(p, Some(r))).collect();
    for (r, want) in revs.iter().enumerate() {
        assert_eq!(
            &b.raw(p, Some(r as u64)),
            want,
            "raw --rev {r} after the crosswise merges"
        );
        assert_eq!(want["revision"], r as u64, "{want}");
    }
    for (r, want) in base_revs.iter().enumerate() {
        assert_eq!(&revs[r], want, "raw --rev {r} changed with the merge");
    }
    // Revisions grow one content op at a time.
    for w in revs.windows(2) {
        assert_ne!(
            w[0]["digest"], w[1]["digest"],
            "two revisions with one digest"
        );
    }
    assert_eq!(revs[head as usize], a.raw(p, None));
    // Then each merges the other: the heads meet.
    a.merge_from(b, "ann merges bob's merge");
    b.merge_from(a, "bob merges ann's merge");
    assert_eq!(a.head(), b.head(), "the heads differ after both merged");
    assert_eq!(a.status(p), b.status(p));
    for c in [a, b] {
        assert_eq!(c.status(p)["revision"], head, "{}", c.name);
        for (r, want) in revs.iter().enumerate() {
            assert_eq!(&c.raw(p, Some(r as u64)), want, "{}: raw --rev {r}", c.name);
        }
        let (v, code) = c.json_code(&["raw", "-p", p, "--rev", &(head + 1).to_string()]);
        assert_eq!(code, 2, "{}: raw --rev {}: {v}", c.name, head + 1);
        assert_eq!(v["error"]["code"], "unknown_revision", "{v}");
    }
}

/// A hand edit of the last approval line of a log.
#[derive(Debug, Clone, Copy)]
enum Tamper {
    /// The approval of a `submit` from an editable plan (one transaction
    /// with the freeze) is deleted.
    DeleteWithFreeze,
    /// An approval in a transaction of its own is deleted.
    DeleteAlone,
    OtherDigest,
    OtherPlan,
    NoAuthority,
}

fn tamper(path: &Path, how: Tamper) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let at = lines
        .iter()
        .rposition(|l| l.contains("\"op\":\"approve\""))
        .expect("an approve op");
    let line = lines[at].clone();
    match how {
        Tamper::DeleteWithFreeze | Tamper::DeleteAlone => {
            lines.remove(at);
        }
        Tamper::OtherDigest => {
            let k = line.find("\"approval\":").unwrap();
            let d = k + line[k..].find("\"digest\":\"").unwrap() + "\"digest\":\"".len();
            let mut l = line.clone();
            let c = if &l[d..d + 1] == "0" { "1" } else { "0" };
            l.replace_range(d..d + 1, c);
            lines[at] = l;
        }
        Tamper::OtherPlan => {
            let l = line.replace("\"planId\":\"plan-one\"", "\"planId\":\"plan-two\"");
            assert_ne!(l, line);
            lines[at] = l;
        }
        Tamper::NoAuthority => {
            let k = line.find("\"authoritySet\":[").unwrap() + "\"authoritySet\":[".len();
            let end = k + line[k..].find(']').unwrap();
            assert!(end > k, "the approval has no authority to take away");
            let mut l = line.clone();
            l.replace_range(k..end, "");
            lines[at] = l;
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    std::fs::write(path, out).unwrap();
}

#[test]
fn hand_edits_of_an_approval_line_are_caught() {
    let mut f = Failures::default();
    for how in [
        Tamper::DeleteWithFreeze,
        Tamper::DeleteAlone,
        Tamper::OtherDigest,
        Tamper::OtherPlan,
        Tamper::NoAuthority,
    ] {
        let p = "plan-one";
        let team = Team::new(&[p, "plan-two"], &["ann", "bob"], |_| {});
        let (a, b) = (&team.clones[0], &team.clones[1]);
        if !matches!(how, Tamper::DeleteWithFreeze) {
            a.ok(&["-p", p, "freeze"]);
        }
        a.ok(&["-p", p, "submit", "--yes"]);
        let digest = a.raw(p, None)["digest"].clone();
        assert_eq!(a.status(p)["state"], "executable");
        a.commit("ann submits");
        b.merge_from(a, "bob takes ann's submit");
        assert_eq!(
            b.status(p)["state"],
            "executable",
            "{how:?}: before the edit"
        );
        assert_eq!(b.validate(p).1, 0);
        // Bob edits the approval record by hand, commits; ann merges it.
        tamper(&b.log_path(p), how);
        b.commit("bob edits the approval");
        a.merge_from(b, "ann takes bob's edit");
        assert_eq!(a.head(), b.head());
        for c in [b, a] {
            let who = format!("{how:?} on {}", c.name);
            let s = c.status(p);
            f.check(s["state"] != "executable", || {
                format!("{who}: status says executable: {s}")
            });
            f.check(
                s["approval"].is_null() || s["approval"]["digest"] == s["digest"],
                || format!("{who}: status shows an approval that does not match: {s}"),
            );
            let (v, code) = c.validate(p);
            match how {
                Tamper::DeleteAlone => {
                    // Nothing on record: reviewable again, as frozen.
                    f.check(s["state"] == "reviewable", || format!("{who}: {s}"));
                }
                Tamper::DeleteWithFreeze => {
                    // The freeze lost its transaction's end: reported.
                    f.check(s["issues"]["advisory"].as_u64().unwrap_or(0) >= 1, || {
                        format!("{who}: status reports nothing: {s}")
                    });
                    f.check(codes(&v).contains("torn_tail"), || {
                        format!("{who}: validate reports nothing (exit {code}): {v}")
                    });
                }
                _ => {
                    f.check(s["issues"]["blocking"].as_u64().unwrap_or(0) >= 1, || {
                        format!("{who}: status counts no blocking finding: {s}")
                    });
                    f.check(code == 1 && codes(&v).contains("approval_mismatch"), || {
                        format!("{who}: validate exit {code}, no approval_mismatch: {v}")
                    });
                }
            }
        }
        // submit never takes the edited record for an approval: it refuses,
        // or approves the content as it is (saying what it replaces).
        let (v, code) = a.json_code(&["submit", "-p", p, "--yes"]);
        let who = format!("{how:?}: ann's submit");
        f.check(v["error"]["code"] != "not_editable", || {
            format!("{who} takes the plan for executable: {v}")
        });
        let said = match how {
            Tamper::DeleteAlone => true,
            Tamper::DeleteWithFreeze => codes(&v).contains("torn_tail"),
            _ => codes(&v).contains("approval_mismatch"),
        };
        f.check(code == 1 || said, || {
            format!("{who} (exit {code}) does not say what is wrong: {v}")
        });
        if code == 0 {
            let s = a.status(p);
            f.check(
                s["state"] == "executable"
                    && s["approval"]["digest"] == digest
                    && s["approval"]["planId"] == p,
                || format!("{who}: after submit: {s}"),
            );
            let (v, code) = a.validate(p);
            f.check(code == 0, || format!("{who}: validate after submit: {v}"));
        }
        // The other plan is untouched by a record naming it.
        let other = a.status("plan-two");
        f.check(other["state"] == "editable", || {
            format!("{how:?}: plan-two: {other}")
        });
    }
    f.finish();
}

// ---------------------------------------------------------------------------
// A warm session across a merge (issue 17).

/// `planforge mcp` on a clone's store, driven over raw JSON-RPC lines: a
/// long-lived session that keeps the plans it folded warm.
struct Mcp {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    next: u64,
}

impl Mcp {
    fn start(c: &Clone) -> Mcp {
        use std::io::BufRead;
        let mut child = Command::new(common::bin())
            .current_dir(&c.dir)
            .args(["--store", "plans", "mcp"])
            .env("NO_COLOR", "1")
            .env("PLANFORGE_ACTOR", &c.name)
            .env("PLANFORGE_NOW", NOW)
            .env("PLANFORGE_ID_SEED", format!("{}-mcp", c.name))
            .env("HOME", &c.home)
            .env_remove("PLANFORGE_STORE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(out).lines().map_while(|l| l.ok()) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut m = Mcp {
            child,
            lines,
            next: 1,
        };
        m.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "git-tests", "version": "0"}}),
        );
        m.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        m
    }

    fn send(&mut self, msg: Value) {
        use std::io::Write;
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(std::time::Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer to {method}"));
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    /// A tool call that must succeed: its text.
    fn ok(&mut self, tool: &str, args: Value) -> String {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        assert_ne!(r["result"]["isError"], json!(true), "{tool}: {r}");
        r["result"]["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool}: {r}"))
            .to_string()
    }

    /// `raw_plan` as the session reads it, as `raw` prints it.
    fn raw(&mut self, plan: &str) -> Value {
        let mut v: Value =
            serde_json::from_str(&self.ok("raw_plan", json!({"planId": plan}))).unwrap();
        if let Some(o) = v.as_object_mut() {
            o.remove("formatVersion");
        }
        v
    }
}

impl Drop for Mcp {
    fn drop(&mut self) {
        drop(self.child.stdin.take());
        let _ = self.child.wait();
    }
}

#[test]
fn a_warm_session_follows_appends_and_merges_that_rewrite_the_log() {
    let team = Team::new(&["plan-one"], &["ann", "bob"], |_| {});
    let (a, b) = (&team.clones[0], &team.clones[1]);
    let p = "plan-one";
    let mut s = Mcp::start(a);
    assert_eq!(s.raw(p), a.raw(p, None), "the first read");
    // Another process appends while the session is warm.
    let (x, y) = add_step(a, p, "ann_cli");
    assert_eq!((x.code, y.unwrap().code), (0, 0));
    let warm = s.raw(p);
    assert_eq!(warm, a.raw(p, None), "after another process appended");
    assert!(warm.to_string().contains("ann_cli"));
    // The session writes; the other clone writes; both commit; git merges
    // (rewriting ann's log: the other clone's lines land among ann's).
    s.ok(
        "add_node",
        json!({"planId": p, "node": {"id": "ann_mcp", "kind": "join", "definition": {}}}),
    );
    let (x, y) = add_step(b, p, "bob_step");
    assert_eq!((x.code, y.unwrap().code), (0, 0));
    b.commit("bob edits");
    a.commit("ann edits");
    let before = s.raw(p);
    a.merge_from(b, "ann merges bob while her session is warm");
    let merged = s.raw(p);
    assert_ne!(merged, before, "the session missed the merge");
    assert_eq!(merged, a.raw(p, None), "after the merge");
    for id in ["ann_cli", "ann_mcp", "bob_step"] {
        assert!(merged.to_string().contains(id), "{id} is missing: {merged}");
    }
    let digest = a.status(p)["digest"].as_str().unwrap().to_string();
    let status = s.ok("plan_status", json!({"planId": p}));
    assert!(status.contains(&digest), "{digest} is not in {status}");
    // The session's next write lands on the merged plan, and both clones
    // converge again.
    s.ok(
        "add_node",
        json!({"planId": p, "node": {"id": "after_merge", "kind": "join", "definition": {}}}),
    );
    assert_eq!(s.raw(p), a.raw(p, None), "after a write on the merged log");
    a.commit("ann after the merge");
    b.merge_from(a, "bob merges ann");
    assert_eq!(a.status(p), b.status(p));
    let (v, _) = a.validate(p);
    assert_eq!(v, b.validate(p).0);
}

/// Checking out a branch without a plan leaves its folder holding only the
/// caches git ignores: no plan there, as git sees none. `list` names the
/// folder, `validate --all` passes over it, `create` and `remove` clear it,
/// and checking the branch out again brings the plan back whole.
#[test]
fn a_branch_without_a_plan_leaves_caches_that_are_no_plan() {
    let team = Team::new(&["plan-one"], &["ann"], |_| {});
    let a = &team.clones[0];
    a.git_ok(&["checkout", "-q", "-b", "feature"]);
    a.ok(&["create", "plan-two"]);
    let (x, _) = add_step(a, "plan-two", "two_step");
    assert_eq!(x.code, 0, "{}", x.stderr);
    let before = a.status("plan-two");
    a.commit("plan two");
    a.git_ok(&["checkout", "-q", "main"]);
    let folder = a.dir.join("plans").join("plan-two");
    assert!(
        folder.is_dir() && !a.log_path("plan-two").exists(),
        "caches left behind"
    );
    assert!(
        a.git_ok(&["status", "--porcelain"]).trim().is_empty(),
        "git sees nothing"
    );
    let list = a.pf(&["list"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    let row = list
        .stdout
        .lines()
        .find(|l| l.contains("plan-two"))
        .unwrap_or_default();
    assert!(row.contains("no op log"), "{}", list.stdout);
    let one = a.pf(&["validate", "plan-one"]).code;
    let all = a.pf(&["validate", "--all"]);
    assert_eq!(all.code, one, "{}{}", all.stdout, all.stderr);
    assert!(!all.stdout.contains("plan-two"), "{}", all.stdout);
    let status = a.pf(&["-p", "plan-two", "status"]);
    assert_eq!(status.code, 2, "{}", status.stderr);
    assert!(
        status.stderr.contains("only files planforge keeps"),
        "{}",
        status.stderr
    );
    // Removing clears the folder; the branch brings the plan back whole.
    a.ok(&["remove", "--yes", "plan-two"]);
    assert!(!folder.exists());
    a.git_ok(&["checkout", "-q", "feature"]);
    assert_eq!(a.status("plan-two"), before);
    // Back on main, creating the plan anew clears the caches too.
    a.git_ok(&["checkout", "-q", "main"]);
    a.ok(&["create", "plan-two"]);
    assert_eq!(a.status("plan-two")["revision"], 0);
}
