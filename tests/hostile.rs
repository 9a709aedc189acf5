//! The hostile-input corpus (`tests/hostile/`, see its README): every case is
//! fed to the commands that read it, each run under a memory limit and a time
//! limit, and must end with a clear refusal — exit 1, 2 or 3 (never 0 for
//! garbage, never a signal), an `error[…]` line on stderr, no `panicked` —
//! without writing anything outside the store (nor, when refused, inside it).
//!
//! Linux only: the limits are `prlimit --as --cpu` (util-linux) around each
//! run, and the test fails (never skips) when `prlimit` is missing.

mod common;

use common::{Env, bin, copy_tree};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::ffi::OsStringExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Address space a run may use (`prlimit --as`). A debug build parsing the
/// 50 MB documents below stays well under it.
const MEMORY_LIMIT: u64 = 2 * 1024 * 1024 * 1024;
/// CPU time a run may use (`prlimit --cpu`): past it the kernel stops it and
/// the case fails. Counting CPU rather than wall time keeps the bound honest
/// on a loaded machine; a run that waits instead of working is caught by
/// [`WALL_LIMIT`].
const CPU_LIMIT_SECS: u64 = 20;
/// A run still going after this much wall time is killed and the case fails.
const WALL_LIMIT: Duration = Duration::from_secs(60);
/// Output a refusal may print (stdout and stderr together).
const OUTPUT_LIMIT: usize = 1024 * 1024;
/// Error codes of `--format json` refusals (SPEC §8).
const ERROR_CODES: [&str; 14] = [
    "unknown_plan",
    "unknown_node",
    "unknown_edge",
    "unknown_key",
    "ambiguous_key",
    "unknown_revision",
    "duplicate_id",
    "not_editable",
    "revision_moved",
    "store_busy",
    "invalid_input",
    "refused",
    "corrupt_store",
    "internal",
];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hostile")
}

/// The case files of one corpus folder, sorted.
fn cases(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus().join(dir))
        .unwrap_or_else(|e| panic!("tests/hostile/{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    assert!(!v.is_empty(), "tests/hostile/{dir} holds no cases");
    v
}

fn name_of(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// `ok-` cases are hostile-looking but legitimate: they must succeed.
fn is_ok_case(p: &Path) -> bool {
    name_of(p).starts_with("ok-")
}

// ---------------------------------------------------------------------------
// A bounded run.

struct Run {
    what: String,
    code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    elapsed: Duration,
}

impl Run {
    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }
    fn describe(&self) -> String {
        let cut = |s: String| -> String { s.chars().take(1500).collect() };
        format!(
            "{}\n  exit {:?}, signal {:?}, {} ms{}\n  stdout: {}\n  stderr: {}",
            self.what,
            self.code,
            self.signal,
            self.elapsed.as_millis(),
            if self.timed_out { ", TIMED OUT" } else { "" },
            cut(self.stdout()),
            cut(self.stderr())
        )
    }
}

/// Reads a pipe to its end, keeping at most `OUTPUT_LIMIT + 1` bytes.
fn drain(mut r: impl Read + Send + 'static) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 65536];
        loop {
            match r.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = (OUTPUT_LIMIT + 1).saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        kept
    })
}

/// Runs planforge under `prlimit --as --cpu` in `root` with a scrubbed
/// environment, killing it after [`WALL_LIMIT`].
fn run(root: &Path, args: &[OsString], stdin: Option<&Path>) -> Run {
    let what = format!(
        "planforge {}",
        args.iter()
            .map(|a| {
                let s = a.to_string_lossy();
                if s.len() > 120 {
                    format!(
                        "{}…({} bytes)",
                        s.chars().take(60).collect::<String>(),
                        s.len()
                    )
                } else {
                    format!("{s:?}")
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
    );
    let mut c = Command::new("prlimit");
    c.arg(format!("--as={MEMORY_LIMIT}"))
        .arg(format!("--cpu={CPU_LIMIT_SECS}"))
        .arg("--")
        .arg(bin())
        .args(args)
        .current_dir(root)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", root.join("home"))
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .env("PLANFORGE_ACTOR", "hostile")
        .env("PLANFORGE_LOCK_TIMEOUT_MS", "2000")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    match stdin {
        Some(p) => c.stdin(std::fs::File::open(p).unwrap()),
        None => c.stdin(Stdio::null()),
    };
    let start = Instant::now();
    let mut child = c
        .spawn()
        .expect("`prlimit` (util-linux) is needed to bound memory; install it");
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > WALL_LIMIT {
            timed_out = true;
            let _ = child.kill();
            break child.wait().unwrap();
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let stdout = out.join().unwrap();
    let stderr = err.join().unwrap();
    // prlimit's own failures (126: cannot run, 127: not found) are not ours.
    assert!(
        !matches!(status.code(), Some(126 | 127)) || !stderr.starts_with(b"prlimit"),
        "prlimit could not run planforge: {}",
        String::from_utf8_lossy(&stderr)
    );
    Run {
        what,
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stdout,
        stderr,
        elapsed,
    }
}

/// The checks every run gets. `allowed` are the acceptable exit codes.
/// `terminal`: the run prints prose (not JSON, not a document), which must
/// carry no raw control or bidirectional characters.
fn check(
    run: &Run,
    allowed: &[i32],
    json: bool,
    tool: bool,
    terminal: bool,
    failures: &mut Vec<String>,
) {
    let mut bad = Vec::new();
    if run.timed_out {
        bad.push(format!("did not finish within {} s", WALL_LIMIT.as_secs()));
    } else if run.signal == Some(24) {
        bad.push(format!("used more than {CPU_LIMIT_SECS} s of CPU"));
    } else if let Some(sig) = run.signal {
        bad.push(format!("crashed: killed by signal {sig}"));
    } else if !run.code.is_some_and(|c| allowed.contains(&c)) {
        bad.push(format!("exit {:?}, expected one of {allowed:?}", run.code));
    }
    let err = run.stderr();
    if err.contains("panicked") || err.contains("RUST_BACKTRACE") {
        bad.push("panicked".into());
    }
    if terminal {
        // Prose quotes hostile ids: they must not reach a terminal raw.
        for (stream, bytes) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            if let Some(c) = text.chars().find(|c| {
                (c.is_control() && *c != '\n' && *c != '\t')
                    || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            }) {
                bad.push(format!("{stream} carries a raw {:?}", c));
            }
        }
    }
    let failed = run.code.is_some_and(|c| c != 0);
    if failed && run.stdout.len() + run.stderr.len() > OUTPUT_LIMIT {
        bad.push(format!("printed more than {OUTPUT_LIMIT} bytes"));
    }
    if failed && !run.timed_out && run.signal.is_none() {
        if json {
            // One JSON document on stdout: an error with a known code, or a
            // report (validate's findings).
            match serde_json::from_slice::<serde_json::Value>(&run.stdout) {
                Ok(v) => {
                    if v["formatVersion"] != 1 {
                        bad.push("the JSON reply has no formatVersion 1".into());
                    }
                    if let Some(code) = v["error"]["code"].as_str()
                        && !ERROR_CODES.contains(&code)
                    {
                        bad.push(format!("unknown error code {code:?}"));
                    }
                }
                Err(e) => bad.push(format!("stdout is not one JSON document ({e})")),
            }
        } else if tool {
            // `planforge tool` prints the tool's reply, a refusal included,
            // on stdout, as the MCP server returns it.
            if run.stdout.is_empty() && !err.lines().any(|l| l.starts_with("error[")) {
                bad.push("the tool refused without saying why".into());
            }
        } else if !err.lines().any(|l| l.starts_with("error[")) {
            bad.push("no `error[…]` line on stderr".into());
        }
    }
    if !bad.is_empty() {
        failures.push(format!("{}: {}", bad.join("; "), run.describe()));
    }
}

// ---------------------------------------------------------------------------
// What the runs may change: nothing outside the store, and when refused,
// nothing inside it either (lock files and the checkpoint cache aside).

type Snapshot = BTreeMap<PathBuf, String>;

fn snapshot(root: &Path, skip: &dyn Fn(&Path) -> bool) -> Snapshot {
    fn walk(dir: &Path, root: &Path, skip: &dyn Fn(&Path) -> bool, out: &mut Snapshot) {
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        for e in rd.flatten() {
            let p = e.path();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            if skip(&rel) {
                continue;
            }
            let md = std::fs::symlink_metadata(&p).unwrap();
            let ft = md.file_type();
            let desc = if ft.is_symlink() {
                format!("link → {}", std::fs::read_link(&p).unwrap().display())
            } else if ft.is_dir() {
                "dir".to_string()
            } else if ft.is_file() {
                let bytes = std::fs::read(&p).unwrap();
                format!("file {} bytes, {:x}", bytes.len(), fnv(&bytes))
            } else {
                "special".to_string()
            };
            out.insert(rel, desc);
            if ft.is_dir() {
                walk(&p, root, skip, out);
            }
        }
    }
    let mut out = Snapshot::new();
    walk(root, root, skip, &mut out);
    out
}

/// FNV-1a, enough to notice a changed file.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn outside_store(rel: &Path) -> bool {
    rel.starts_with("plans")
}

fn volatile_in_store(rel: &Path) -> bool {
    !rel.starts_with("plans")
        || rel.file_name().is_some_and(|n| {
            n == "lock" || n == ".lock" || n.to_string_lossy().starts_with("checkpoint")
        })
}

fn diff(before: &Snapshot, after: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (p, d) in after {
        match before.get(p) {
            None => out.push(format!("created {} ({d})", p.display())),
            Some(b) if b != d => out.push(format!("changed {} ({b} → {d})", p.display())),
            _ => {}
        }
    }
    for p in before.keys().filter(|p| !after.contains_key(*p)) {
        out.push(format!("removed {}", p.display()));
    }
    out
}

// ---------------------------------------------------------------------------
// The world a case runs in.

/// Inputs shared by every case of a test (read only): big generated files.
struct Inputs {
    _dir: tempfile::TempDir,
    path: PathBuf,
}

impl Inputs {
    fn new() -> Inputs {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().to_path_buf();
        // A 10 MB definition: legal, so it must be taken whole and echoed small.
        std::fs::write(
            path.join("huge-def.json"),
            format!("{{\"tool\": \"{}\"}}", "a".repeat(10_000_000)),
        )
        .unwrap();
        // A 100,000-deep definition.
        std::fs::write(
            path.join("deep-def.json"),
            format!("{{\"x\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000)),
        )
        .unwrap();
        Inputs { _dir: dir, path }
    }
}

/// A fixture store: `plans/` (plan-h: start → fetch, the current plan) and,
/// beside it, `outside/` (what no run may touch), `home/` (HOME) and
/// `good.json` (a valid document).
type World = Env;

impl World {
    /// An empty world; its fixture runs are by actor `fixture`, HOME `home/`.
    fn blank() -> World {
        Env::empty()
            .var("PLANFORGE_ACTOR", "fixture")
            .var_path("HOME", "home")
    }

    fn template() -> World {
        let w = World::blank();
        for d in ["home", "outside/templates"] {
            std::fs::create_dir_all(w.root.join(d)).unwrap();
        }
        w.ok(&["init"]);
        w.ok(&["create", "plan-h"]);
        w.ok(&[
            "add-node",
            "start",
            "--kind",
            "entry",
            "--input",
            "q:string:64",
        ]);
        w.ok(&[
            "add-node",
            "fetch",
            "--kind",
            "call",
            "--tool",
            "read_artifact",
            "--arg",
            "path=x.json",
            "--arg",
            "q=@start.q",
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
        w.ok(&["connect", "start", "fetch"]);
        // A valid document of plan-h's content, under another id, claiming no
        // digest or state (so nothing but the case under test refuses it).
        let mut good: serde_json::Value =
            serde_json::from_str(&w.ok(&["export", "-p", "plan-h"])).unwrap();
        let g = good.as_object_mut().unwrap();
        for k in ["digest", "state", "revision"] {
            g.remove(k);
        }
        g.insert("planId".into(), "plan-good".into());
        std::fs::write(w.root.join("good.json"), good.to_string()).unwrap();
        // What lies outside: a secret, a copy of a plan, store-like files.
        std::fs::write(w.root.join("outside/secret"), "do not touch\n").unwrap();
        copy_tree(&w.root.join("plans/plan-h"), &w.root.join("outside/plan-h"));
        std::fs::copy(
            w.root.join("plans/plan-h/ops.jsonl"),
            w.root.join("outside/ops.jsonl"),
        )
        .unwrap();
        std::fs::copy(
            w.root.join("plans/registry.yaml"),
            w.root.join("outside/registry.yaml"),
        )
        .unwrap();
        std::fs::write(w.root.join("outside/current"), "plan-h\n").unwrap();
        std::fs::write(
            w.root.join("outside/templates/evil_outside.yaml"),
            "id: evil_outside\nsummary: read from outside the store\nparams: []\nnodes: []\nedges: []\n",
        )
        .unwrap();
        w
    }

    /// A fresh copy of this world for one case.
    fn fork(&self) -> World {
        let w = World::blank();
        copy_tree(&self.root, &w.root);
        w
    }
}

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

/// Runs one command of a case in `world` and checks it, including that it
/// wrote nothing outside the store and, when it refused, nothing in it.
fn run_checked(
    world: &World,
    args: Vec<OsString>,
    stdin: Option<&Path>,
    allowed: &[i32],
    failures: &mut Vec<String>,
) -> Run {
    let outside = snapshot(&world.root, &outside_store);
    let store = snapshot(&world.root, &volatile_in_store);
    let r = run(&world.root, &args, stdin);
    let json = args
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json");
    let tool = args.iter().any(|a| a == "tool");
    let document = args
        .iter()
        .any(|a| ["export", "raw", "ops", "graph"].contains(&a.to_string_lossy().as_ref()));
    check(&r, allowed, json, tool, !json && !document, failures);
    let moved = diff(&outside, &snapshot(&world.root, &outside_store));
    if !moved.is_empty() {
        failures.push(format!(
            "wrote outside the store: {}: {}",
            moved.join(", "),
            r.what
        ));
    }
    if r.code != Some(0) {
        let moved = diff(&store, &snapshot(&world.root, &volatile_in_store));
        if !moved.is_empty() {
            failures.push(format!(
                "refused, yet changed the store: {}: {}",
                moved.join(", "),
                r.what
            ));
        }
    }
    r
}

fn report(what: &str, count: usize, failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{} of the {what} runs failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    eprintln!("{what}: {count} runs, all refused cleanly");
}

const REFUSED: &[i32] = &[1, 2, 3];

// ---------------------------------------------------------------------------
// Documents: `validate FILE`, `import FILE`, `import -`.

/// Documents made at test time (too big or too deep to commit).
fn generated_documents(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut put = |name: &str, bytes: Vec<u8>| {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        out.push(p);
    };
    let deep = 100_000;
    put(
        "deep-100k.json",
        format!(
            "{{\"nodes\": [{{\"id\": \"a\", \"kind\": \"join\", \"definition\": {{\"x\": {}{}}}}}]}}",
            "[".repeat(deep),
            "]".repeat(deep)
        )
        .into_bytes(),
    );
    put(
        "deep-100k-objects.json",
        format!("{}1{}", "{\"a\":".repeat(deep), "}".repeat(deep)).into_bytes(),
    );
    put(
        "deep-100k-flow.yaml",
        format!("nodes: {}{}\n", "[".repeat(deep), "]".repeat(deep)).into_bytes(),
    );
    put(
        "deep-100k-block.yaml",
        format!("nodes:\n{}x\n", "- ".repeat(deep)).into_bytes(),
    );
    put(
        "deep-100k-mappings.yaml",
        format!("nodes: {}x{}\n", "{a: ".repeat(deep), "}".repeat(deep)).into_bytes(),
    );
    // 50 MB: many well-formed nodes, the last of an unknown kind.
    let mut big = String::from("{\"formatVersion\": 1, \"nodes\": [");
    let mut i = 0;
    while big.len() < 50_000_000 {
        big.push_str(&format!(
            "{{\"id\": \"n{i}\", \"kind\": \"call\", \"definition\": {{\"tool\": \"t\", \"args\": {{\"a\": \"{}\"}}}}}},",
            "x".repeat(200)
        ));
        i += 1;
    }
    big.push_str("{\"id\": \"last\", \"kind\": \"mystery\"}], \"edges\": []}");
    put("big-50mb-unknown-kind.json", big.into_bytes());
    // 50 MB cut short.
    let mut cut = String::from("{\"formatVersion\": 1, \"label\": \"");
    cut.push_str(&"y".repeat(50_000_000));
    put("big-50mb-truncated.json", cut.into_bytes());
    // 100 KB ids where the document format keeps them as findings, and a
    // 100 KB plan id, which is refused.
    let long = "a".repeat(100_000);
    let entry = r#"{"id": "start", "kind": "entry", "definition": {"input": []}}"#;
    put(
        "finding-node-id-100kb.json",
        format!(
            r#"{{"nodes": [{entry}, {{"id": "{long}", "kind": "join"}}], "edges": [{{"id": "e", "from": "start", "to": "{long}"}}]}}"#
        )
        .into_bytes(),
    );
    put(
        "finding-edge-id-100kb.json",
        format!(
            r#"{{"nodes": [{entry}, {{"id": "j", "kind": "join"}}], "edges": [{{"id": "{long}", "from": "start", "to": "j"}}]}}"#
        )
        .into_bytes(),
    );
    put(
        "finding-phase-100kb.json",
        format!(r#"{{"nodes": [{entry}, {{"id": "j", "kind": "join", "phase": "{long}"}}]}}"#)
            .into_bytes(),
    );
    put(
        "finding-tool-name-100kb.json",
        format!(
            r#"{{"nodes": [{entry}, {{"id": "c", "kind": "call", "definition": {{"tool": "{long}", "{long}": 1}}}}], "edges": [{{"from": "start", "to": "c"}}]}}"#
        )
        .into_bytes(),
    );
    put(
        "plan-id-100kb.json",
        format!(r#"{{"planId": "plan-{long}", "nodes": [{entry}]}}"#).into_bytes(),
    );
    put(
        "kind-100kb.json",
        format!(r#"{{"nodes": [{{"id": "a", "kind": "{long}"}}]}}"#).into_bytes(),
    );
    out
}

/// Runs one document case: validate (text and JSON), import (file and stdin).
fn document_case(world: &World, file: &Path, failures: &mut Vec<String>) -> usize {
    let name = name_of(file);
    // `validate FILE` finds its settings and store from the file's own
    // folder (as ruff does), so the document is validated inside the world,
    // beside its `plans/`, not where the corpus keeps it.
    let inside = world.root.join("input");
    std::fs::create_dir_all(&inside).unwrap();
    let local = inside.join(file.file_name().unwrap());
    std::fs::copy(file, &local).unwrap();
    let path = local.as_os_str().to_owned();
    let ok = is_ok_case(file);
    let finding = name.starts_with("finding-");
    let big = name.starts_with("big-");
    let validate_allowed: &[i32] = if ok {
        &[0]
    } else if finding {
        &[1]
    } else {
        REFUSED
    };
    let mut runs = 0;
    let mut extra = Vec::new();
    let mut go = |args: Vec<OsString>, stdin: Option<&Path>, allowed: &[i32]| {
        runs += 1;
        run_checked(world, args, stdin, allowed, failures)
    };
    go(
        vec!["validate".into(), path.clone()],
        None,
        validate_allowed,
    );
    if !big {
        go(
            vec![
                "--format".into(),
                "json".into(),
                "validate".into(),
                path.clone(),
            ],
            None,
            validate_allowed,
        );
    }
    // Import keeps findings (mutations succeed with blocking issues); what
    // it imports must then load and report them.
    let import_allowed: &[i32] = if ok {
        &[0]
    } else if finding {
        &[0, 1, 2, 3]
    } else {
        REFUSED
    };
    // Without --id: the document's own planId is what is under test.
    let r = go(vec!["import".into(), path.clone()], None, import_allowed);
    if finding && r.code == Some(0) {
        let list = go(os(&["--format", "json", "list"]), None, &[0]);
        let v: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap_or_default();
        let new: Vec<String> = v["plans"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|p| p["planId"].as_str())
                    .filter(|id| *id != "plan-h")
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        if new.len() != 1 {
            extra.push(format!("{name}: imported, but `list` shows {new:?}"));
        }
        for id in new {
            let s = go(os(&["--format", "json", "status", "-p", &id]), None, &[0]);
            let v: serde_json::Value = serde_json::from_slice(&s.stdout).unwrap_or_default();
            if v["issues"]["blocking"].as_u64().unwrap_or(0) == 0 {
                extra.push(format!(
                    "{name}: imported without a blocking finding: {}",
                    s.describe()
                ));
            }
        }
    }
    if !big && r.code != Some(0) {
        go(
            vec![
                "import".into(),
                "-".into(),
                "--input-format".into(),
                if name.ends_with(".json") {
                    "json"
                } else {
                    "yaml"
                }
                .into(),
            ],
            Some(file),
            import_allowed,
        );
    }
    failures.extend(extra);
    let _ = std::fs::remove_file(&local);
    runs
}

#[test]
fn hostile_documents_are_refused_cleanly() {
    documents("document", cases("doc"));
}

#[test]
fn huge_and_deep_generated_documents_are_refused_cleanly() {
    let generated = tempfile::tempdir().unwrap();
    documents("generated document", generated_documents(generated.path()));
}

fn documents(what: &str, files: Vec<PathBuf>) {
    let template = World::template();
    let mut failures = Vec::new();
    let mut runs = 0;
    for file in &files {
        // Imports land in the store, so each case gets a fresh world.
        let world = template.fork();
        runs += document_case(&world, file, &mut failures);
    }
    report(what, runs, failures);
}

#[test]
fn hostile_documents_meet_a_registry_given_with_registry() {
    // validate DOC --registry FILE: a malformed registry is an input error.
    let template = World::template();
    let mut failures = Vec::new();
    let mut runs = 0;
    for file in cases("registry") {
        runs += 1;
        let args = vec![
            OsString::from("validate"),
            "good.json".into(),
            "--registry".into(),
            file.into_os_string(),
        ];
        run_checked(&template, args, None, &[2], &mut failures);
    }
    report("--registry", runs, failures);
}

// ---------------------------------------------------------------------------
// Store files: an op log, a meta.json, a registry put in place.

/// The commands run against a damaged plan or store.
const STORE_COMMANDS: [&[&str]; 5] = [
    &["status", "-p", "plan-h"],
    &["--format", "json", "status", "-p", "plan-h"],
    &["export", "-p", "plan-h"],
    &["validate", "-p", "plan-h"],
    &["add-node", "zz", "--kind", "join", "-p", "plan-h"],
];

fn store_file_cases(dir: &str, place: &dyn Fn(&World, &Path), expect_naming: &[&str]) {
    let template = World::template();
    let mut failures = Vec::new();
    let mut runs = 0;
    for file in cases(dir) {
        let world = template.fork();
        place(&world, &file);
        let ok = is_ok_case(&file);
        for args in STORE_COMMANDS {
            // `validate -p` is `validate` of the current plan, which is plan-h.
            let args: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| !(args[0] == "validate" && (*a == "-p" || *a == "plan-h")))
                .collect();
            runs += 1;
            // export needs no registry: it may work beside a broken one.
            let allowed: &[i32] = if ok {
                &[0, 1]
            } else if dir == "registry" && args[0] == "export" {
                &[0, 3]
            } else {
                &[3]
            };
            let r = run_checked(&world, os(&args), None, allowed, &mut failures);
            let err = r.stderr();
            if !ok && !args.contains(&"json") && r.code != Some(0) {
                for needle in expect_naming {
                    if !err.contains(needle) {
                        failures.push(format!(
                            "{}: the error does not name {needle:?}: {}",
                            name_of(&file),
                            r.describe()
                        ));
                    }
                }
            }
        }
        if ok {
            // Loadable: the next write leaves a log of whole lines.
            let log = std::fs::read_to_string(world.root.join("plans/plan-h/ops.jsonl"))
                .unwrap_or_default();
            for (i, l) in log.lines().enumerate() {
                if !l.trim().is_empty() && serde_json::from_str::<serde_json::Value>(l).is_err() {
                    failures.push(format!(
                        "{}: after a write, line {} is still damaged",
                        name_of(&file),
                        i + 1
                    ));
                }
            }
        }
    }
    report(dir, runs, failures);
}

#[test]
fn hostile_op_logs_are_corruption_naming_file_and_line() {
    store_file_cases(
        "ops",
        &|w, f| {
            std::fs::copy(f, w.root.join("plans/plan-h/ops.jsonl")).unwrap();
        },
        &["ops.jsonl", "line "],
    );
}

#[test]
fn hostile_meta_files_are_corruption() {
    store_file_cases(
        "meta",
        &|w, f| {
            // A plan an earlier planforge wrote: its lifecycle is in
            // meta.json, its log has no creation.
            let log = w.root.join("plans/plan-h/ops.jsonl");
            let text = std::fs::read_to_string(&log).unwrap();
            let old: String = text
                .lines()
                .filter(|l| !l.contains("\"op\":\"create_plan\""))
                .map(|l| format!("{l}\n"))
                .collect();
            std::fs::write(&log, old).unwrap();
            std::fs::copy(f, w.root.join("plans/plan-h/meta.json")).unwrap();
        },
        &["meta.json"],
    );
}

#[test]
fn hostile_store_registries_are_corruption() {
    store_file_cases(
        "registry",
        &|w, f| {
            let _ = std::fs::remove_file(w.root.join("plans/registry.yaml"));
            let ext = f.extension().unwrap().to_string_lossy().into_owned();
            std::fs::copy(f, w.root.join(format!("plans/registry.{ext}"))).unwrap();
        },
        &["registry"],
    );
}

// ---------------------------------------------------------------------------
// Command lines and store layouts, written as small scripts.

/// One argument, with the corpus escapes: `\n \t \r \\`, `\u{HEX}` (a
/// character), `\xHH` (a raw byte, for invalid UTF-8), `{N*TEXT}` (TEXT
/// repeated N times) and the paths `$HOSTILE` (this corpus) and `$INPUTS`
/// (generated inputs).
fn expand(word: &str, inputs: &Path) -> OsString {
    let word = word
        .replace("$HOSTILE", &corpus().to_string_lossy())
        .replace("$INPUTS", &inputs.to_string_lossy());
    let mut out: Vec<u8> = Vec::new();
    let b = word.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => {
                i += 1;
                match b[i] {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'\\' => out.push(b'\\'),
                    b'x' => {
                        let hex = &word[i + 1..i + 3];
                        out.push(u8::from_str_radix(hex, 16).expect("\\xHH"));
                        i += 2;
                    }
                    b'u' => {
                        let end = word[i..].find('}').expect("\\u{HEX}") + i;
                        let c = char::from_u32(u32::from_str_radix(&word[i + 2..end], 16).unwrap())
                            .expect("a character");
                        out.extend_from_slice(c.to_string().as_bytes());
                        i = end;
                    }
                    other => panic!("unknown escape \\{}", other as char),
                }
                i += 1;
            }
            b'{' if word[i + 1..]
                .split_once('*')
                .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit())) =>
            {
                let end = word[i..].find('}').expect("{N*TEXT}") + i;
                let (n, text) = word[i + 1..end].split_once('*').unwrap();
                out.extend_from_slice(text.repeat(n.parse().unwrap()).as_bytes());
                i = end + 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    OsString::from_vec(out)
}

/// `#! exit 2 3` pins the allowed exit codes of the runs that follow.
fn exit_directive(line: &str) -> Option<Vec<i32>> {
    let rest = line.strip_prefix("#!")?.trim().strip_prefix("exit")?;
    Some(
        rest.split_whitespace()
            .map(|c| c.parse().expect("an exit code"))
            .collect(),
    )
}

#[test]
fn hostile_command_lines_are_refused_cleanly() {
    // A `.args` file is one command line, one argument per line (escapes as
    // in `expand`); `#` lines are comments, `#! exit N…` pins the codes.
    let template = World::template();
    let inputs = Inputs::new();
    let mut failures = Vec::new();
    let mut runs = 0;
    for file in cases("cli") {
        let text = std::fs::read_to_string(&file).unwrap();
        let ok = is_ok_case(&file);
        let mut allowed: Vec<i32> = if ok { vec![0] } else { REFUSED.to_vec() };
        let mut args = Vec::new();
        for line in text.lines() {
            if let Some(codes) = exit_directive(line) {
                allowed = codes;
            } else if !line.starts_with('#') && !line.is_empty() {
                args.push(expand(line, &inputs.path));
            }
        }
        assert!(!args.is_empty(), "{}: no command", name_of(&file));
        for json in [false, true] {
            let world = template.fork();
            let mut a = args.clone();
            if json {
                a.splice(0..0, [OsString::from("--format"), "json".into()]);
            }
            runs += 1;
            let r = run_checked(&world, a, None, &allowed, &mut failures);
            if ok && r.stdout.len() + r.stderr.len() > 64 * 1024 && !json {
                failures.push(format!("the echo is not bounded: {}", r.describe()));
            }
        }
    }
    report("command-line", runs, failures);
}

#[test]
fn hostile_store_layouts_are_refused_cleanly() {
    // A `.case` file changes the fixture world, then runs commands:
    //   symlink LINK TARGET   replace LINK by a link to TARGET
    //   fifo PATH             replace PATH by a named pipe
    //   mkdir PATH            replace PATH by a folder
    //   write PATH TEXT       replace PATH by TEXT (escapes as in `expand`)
    //   remove PATH           remove a file or folder
    //   copy FROM TO          copy a folder
    //   run ARGS…             run planforge (words split on spaces)
    //   expect N…             the allowed exit codes of the next runs
    //   absent TEXT           the last run's output does not show TEXT
    // Paths are relative to the world: plans/ is the store, outside/ is not.
    let template = World::template();
    let inputs = Inputs::new();
    let mut failures = Vec::new();
    let mut runs = 0;
    for file in cases("store") {
        let world = template.fork();
        let text = std::fs::read_to_string(&file).unwrap();
        let mut allowed = REFUSED.to_vec();
        let mut last: Option<Run> = None;
        let at = |p: &str| world.root.join(p);
        let clear = |p: &Path| {
            if let Ok(md) = std::fs::symlink_metadata(p) {
                if md.is_dir() {
                    std::fs::remove_dir_all(p).unwrap();
                } else {
                    std::fs::remove_file(p).unwrap();
                }
            }
        };
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (verb, rest) = line.split_once(' ').unwrap_or((line, ""));
            match verb {
                "symlink" => {
                    let (link, target) = rest.split_once(' ').expect("symlink LINK TARGET");
                    clear(&at(link));
                    std::os::unix::fs::symlink(target, at(link)).unwrap();
                }
                "fifo" => {
                    clear(&at(rest));
                    let st = Command::new("mkfifo")
                        .arg(at(rest))
                        .status()
                        .expect("mkfifo");
                    assert!(st.success());
                }
                "mkdir" => {
                    clear(&at(rest));
                    std::fs::create_dir_all(at(rest)).unwrap();
                }
                "write" => {
                    let (path, content) = rest.split_once(' ').unwrap_or((rest, ""));
                    clear(&at(path));
                    std::fs::write(at(path), expand(content, &inputs.path).into_vec()).unwrap();
                }
                "remove" => clear(&at(rest)),
                "copy" => {
                    let (from, to) = rest.split_once(' ').expect("copy FROM TO");
                    copy_tree(&at(from), &at(to));
                }
                "expect" => {
                    allowed = rest
                        .split_whitespace()
                        .map(|c| c.parse().unwrap())
                        .collect();
                }
                "run" => {
                    let args: Vec<OsString> = rest
                        .split(' ')
                        .filter(|w| !w.is_empty())
                        .map(|w| expand(w, &inputs.path))
                        .collect();
                    runs += 1;
                    last = Some(run_checked(&world, args, None, &allowed, &mut failures));
                }
                "absent" => {
                    let r = last.as_ref().expect("`absent` follows a `run`");
                    if r.stdout().contains(rest) || r.stderr().contains(rest) {
                        failures.push(format!(
                            "{}: the output shows {rest:?}: {}",
                            name_of(&file),
                            r.describe()
                        ));
                    }
                }
                other => panic!("{}: unknown step {other:?}", name_of(&file)),
            }
        }
    }
    report("store-layout", runs, failures);
}

// ---------------------------------------------------------------------------

#[test]
fn the_corpus_is_complete_and_documented() {
    let root = corpus();
    assert!(root.join("README.md").is_file(), "tests/hostile/README.md");
    let mut total = 0;
    for entry in std::fs::read_dir(&root).unwrap() {
        let entry = entry.unwrap();
        let name = name_of(&entry.path());
        if entry.file_type().unwrap().is_dir() {
            assert!(
                ["doc", "ops", "meta", "registry", "cli", "store"].contains(&name.as_str()),
                "tests/hostile/{name} is not a folder the runner reads"
            );
            total += cases(&name).len();
        } else {
            assert_eq!(
                name, "README.md",
                "tests/hostile/{name} is not read by any test"
            );
        }
    }
    assert!(total >= 40, "only {total} cases");
    for p in cases("cli") {
        assert!(name_of(&p).ends_with(".args"), "{}", p.display());
    }
    for p in cases("store") {
        assert!(name_of(&p).ends_with(".case"), "{}", p.display());
    }
}
