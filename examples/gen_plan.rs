//! Generates a realistic, valid plan document (JSON) for tests, benchmarks
//! and the measurements in docs/reading.md and docs/performance.md.
//!
//! ```text
//! cargo run --release --example gen_plan -- --nodes 5000 --phases 8 --seed 1 \
//!     [--unphased U] [--id plan-x] [--compact] [--registry-out registry.yaml] > plan.json
//! ```
//!
//! `--entries-only` replaces the nodes by as many `entry` nodes and drops the
//! edges (an invalid plan of the same size, for the benchmark).
//!
//! The plan has one entry whose run input the first call (`accept_*`) reads
//! and declassifies; then a spine of calls and reason steps, with diamonds
//! (a fork fanning out to 2–3 arms that meet at a join whose immediate
//! dominator is the fork, nothing with more than one incoming edge inside),
//! branches and selects (with a `default`) whose other arms end in short
//! side chains, error handlers, and (with `--registry-out`) artifact
//! fetches read by transforms. References only read declared fields of
//! nodes upstream of the reader that run once per run; a node at or after a
//! join is read with `select: "all"`. Bounds are raised to fit.
//!
//! Without `--registry-out` it uses only the tools of the registry
//! `planforge init` writes; with it, a richer tool set, written to FILE.
//! Deterministic for a seed (a small xorshift, no `rand`), linear in the
//! node count: 100,000 nodes take about two seconds.

use serde_json::{Value, json};
use std::io::Write;

/// What to generate.
#[derive(Debug, Clone)]
pub struct Opts {
    pub nodes: usize,
    pub phases: usize,
    pub seed: u64,
    /// The last this-many nodes get no phase.
    pub unphased: usize,
    pub plan_id: Option<String>,
    /// Use the richer tool set (and emit its registry).
    pub rich: bool,
}

impl Default for Opts {
    fn default() -> Self {
        Opts {
            nodes: 1000,
            phases: 8,
            seed: 1,
            unphased: 0,
            plan_id: None,
            rich: false,
        }
    }
}

/// xorshift64*, seeded through splitmix64.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `0..n` (n ≥ 1).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `pct`%.
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A tool the generated calls may use.
struct Tool {
    name: &'static str,
    summary: &'static str,
    args: &'static [&'static str],
    outputs: &'static [&'static str],
    capability: &'static str,
    verb: &'static str,
    /// Returns an artifact of class `json_document` (read by transforms).
    artifact: bool,
    /// The arg naming the artifact the call writes (`writes`).
    writes: Option<&'static str>,
}

const fn tool(
    name: &'static str,
    summary: &'static str,
    args: &'static [&'static str],
    outputs: &'static [&'static str],
    capability: &'static str,
    verb: &'static str,
) -> Tool {
    Tool {
        name,
        summary,
        args,
        outputs,
        capability,
        verb,
        artifact: false,
        writes: None,
    }
}

/// The first call: reads the run input and declassifies what it returns.
const INTAKE: Tool = tool(
    "accept_assignment",
    "Accept the owner's assignment and return its fields, checked and declassified",
    &["assignment"],
    &["goal", "customer", "priority"],
    "assignments",
    "read",
);
const FAILURE: Tool = tool(
    "report_failure",
    "Report a named failure class, the affected units and the failed criteria",
    &["failureClass", "units", "detail"],
    &[],
    "reports",
    "create",
);
const READ_ARTIFACT: Tool = tool(
    "read_artifact",
    "Read an artifact's content",
    &["path"],
    &["content"],
    "artifacts",
    "read",
);
const WRITE_SYNTHESIS: Tool = Tool {
    writes: Some("path"),
    ..tool(
        "write_synthesis",
        "Write the reconciled synthesis to its named local artifact",
        &["path", "content"],
        &[],
        "artifacts",
        "create",
    )
};

/// Spine steps with the tools of the default registry.
const DEFAULT_STEPS: &[Tool] = &[READ_ARTIFACT];
/// Side-chain steps with the tools of the default registry.
const DEFAULT_SIDE: &[Tool] = &[WRITE_SYNTHESIS, FAILURE];

const RICH_STEPS: &[Tool] = &[
    tool(
        "tickets_get",
        "Fetch one ticket",
        &["id"],
        &["subject", "body", "status"],
        "tickets",
        "read",
    ),
    tool(
        "tickets_search",
        "Search tickets",
        &["query"],
        &["ids", "count"],
        "tickets",
        "list",
    ),
    tool(
        "kb_search",
        "Search the knowledge base",
        &["query"],
        &["answer", "source"],
        "kb",
        "read",
    ),
    tool(
        "crm_lookup",
        "Look a customer up in the CRM",
        &["customer"],
        &["tier", "owner", "region"],
        "crm",
        "read",
    ),
    tool(
        "invoice_get",
        "Fetch an invoice",
        &["invoice"],
        &["amount", "currency", "due"],
        "billing",
        "read",
    ),
    tool(
        "tickets_comment",
        "Add a comment to a ticket",
        &["id", "text"],
        &["commentId"],
        "tickets",
        "update",
    ),
    READ_ARTIFACT,
];
const RICH_SIDE: &[Tool] = &[
    tool(
        "email_send",
        "Send an email",
        &["to", "subject", "body"],
        &["messageId"],
        "email",
        "create",
    ),
    tool(
        "notify_oncall",
        "Page the on-call engineer",
        &["summary"],
        &[],
        "paging",
        "create",
    ),
    tool(
        "crm_update",
        "Add a note to a customer record",
        &["customer", "note"],
        &[],
        "crm",
        "update",
    ),
    FAILURE,
];
const REPORT_FETCH: Tool = Tool {
    artifact: true,
    ..tool(
        "report_fetch",
        "Fetch a JSON report as an artifact",
        &["report"],
        &[],
        "reports",
        "read",
    )
};

const PHASES: [&str; 10] = [
    "intake",
    "triage",
    "research",
    "analysis",
    "drafting",
    "review",
    "approval",
    "delivery",
    "follow-up",
    "wrap-up",
];

/// A node that later nodes may read: upstream of everything generated
/// after it on the spine, and run once per run.
#[derive(Clone)]
struct Target {
    id: String,
    fields: Vec<&'static str>,
    after_join: bool,
}

struct Gen<'o> {
    o: &'o Opts,
    rng: Rng,
    nodes: Vec<Value>,
    edges: Vec<Value>,
    /// Readable nodes upstream of the spine's tail.
    pool: Vec<Target>,
    /// Whether a join has been generated (later nodes run after one).
    seen_join: bool,
    steps: &'static [Tool],
    side: &'static [Tool],
}

/// Nodes per part of a phase.
const PHASE_PART: usize = 30;

/// How far back references look (keeps args local and the pool pick O(1)).
const WINDOW: usize = 24;

impl Gen<'_> {
    fn phase(&self) -> Option<String> {
        let i = self.nodes.len();
        if i >= self.o.nodes.saturating_sub(self.o.unphased) {
            return None;
        }
        let p = self.o.phases.max(1);
        let n = self.o.nodes.max(1);
        let k = i * p / n;
        let name = PHASES[k % PHASES.len()];
        let base = if k < PHASES.len() {
            name.to_string()
        } else {
            format!("{name} {}", k / PHASES.len() + 1)
        };
        // Each phase in parts that fit one read (`oversized_phase`), as an
        // author heeding it would cut them.
        let first = (k * n).div_ceil(p);
        let part = (i - first.min(i)) / PHASE_PART;
        Some(if part == 0 {
            base
        } else {
            format!("{base}_{}", part + 1)
        })
    }

    fn id(&self, stem: &str) -> String {
        format!("{stem}_{}", self.nodes.len())
    }

    fn push(&mut self, id: &str, kind: &str, definition: Value) {
        let mut n = serde_json::Map::new();
        n.insert("id".into(), id.into());
        if let Some(p) = self.phase() {
            n.insert("phase".into(), p.into());
        }
        n.insert("kind".into(), kind.into());
        n.insert("definition".into(), definition);
        self.nodes.push(Value::Object(n));
    }

    fn edge(&mut self, from: &str, to: &str, handle: &str) {
        let id = format!("e{}", self.edges.len() + 1);
        self.edges
            .push(json!({"id": id, "from": from, "to": to, "handle": handle}));
    }

    /// A reference to a declared field of a recent upstream node, from the
    /// pool and the nodes of the current arm or side chain.
    fn reference(&mut self, local: &[Target]) -> Option<Value> {
        let pool = &self.pool[self.pool.len().saturating_sub(WINDOW)..];
        let total = pool.len() + local.len();
        if total == 0 {
            return None;
        }
        let k = self.rng.below(total);
        let t = if k < pool.len() {
            pool[k].clone()
        } else {
            local[k - pool.len()].clone()
        };
        let field = *self.rng.pick(&t.fields);
        let select = if t.after_join { "all" } else { "first" };
        Some(json!({"$ref": {"node": t.id, "select": select, "path": field}}))
    }

    fn target(&self, id: &str, fields: &[&'static str]) -> Target {
        Target {
            id: id.to_string(),
            fields: fields.to_vec(),
            after_join: self.seen_join,
        }
    }

    /// A call of `t`; returns its id and, when it declares outputs, a target.
    fn call(&mut self, t: &Tool, stem: &str, local: &[Target]) -> (String, Option<Target>) {
        let id = self.id(stem);
        let mut args = serde_json::Map::new();
        for &a in t.args {
            let v = if Some(a) == t.writes {
                json!(format!("out/{id}.md"))
            } else if a == "units" {
                json!([id.clone()])
            } else if a == "failureClass" {
                json!("partial landing")
            } else if self.rng.chance(65) {
                self.reference(local)
                    .unwrap_or_else(|| json!(format!("{a} for {id}")))
            } else {
                json!(format!("{a} for {id}"))
            };
            args.insert(a.to_string(), v);
        }
        let output: Vec<Value> = t
            .outputs
            .iter()
            .map(|p| json!({"path": p, "type": "string", "maxBytes": 4096}))
            .collect();
        let modifies = t.verb != "read" && t.verb != "list";
        let on_missing = if self.rng.chance(80) { "fail" } else { "omit" };
        self.push(
            &id,
            "call",
            json!({
                "tool": t.name,
                "args": args,
                "output": output,
                "onMissingValue": on_missing,
                "authority": [{"capability": t.capability, "scope": "support", "verb": t.verb}],
                "replaySafe": !modifies,
                "onIndeterminate": if modifies { "halt" } else { "retry" },
            }),
        );
        let target = (!t.outputs.is_empty()).then(|| self.target(&id, t.outputs));
        (id, target)
    }

    fn reason(&mut self, local: &[Target]) -> (String, Target) {
        let id = self.id("assess");
        let mut prompt = vec![
            json!({"text": "Weigh the evidence gathered so far and give a verdict with its rationale."}),
        ];
        if let Some(r) = self.reference(local) {
            prompt.push(r);
        }
        self.push(
            &id,
            "reason",
            json!({
                "prompt": prompt,
                "outputSchema": {
                    "type": "object",
                    "properties": {"verdict": {"type": "string"}, "rationale": {"type": "string"}},
                    "required": ["verdict", "rationale"]
                },
                "maxAttempts": 2,
            }),
        );
        let t = self.target(&id, &["verdict", "rationale"]);
        (id, t)
    }

    /// One spine or arm step: a call or a reason.
    fn step(&mut self, local: &[Target]) -> (String, Option<Target>) {
        if self.rng.chance(25) {
            let (id, t) = self.reason(local);
            (id, Some(t))
        } else {
            let steps = self.steps;
            let t = self.rng.pick(steps);
            let stem = t.name.split('_').next().unwrap_or("step");
            self.call(t, stem, local)
        }
    }

    /// A side chain of 1–2 terminal steps hanging off `from` by `handle`.
    fn side_chain(&mut self, from: &str, handle: &str, len: usize) {
        let mut prev = (from.to_string(), handle.to_string());
        let mut local = Vec::new();
        for _ in 0..len {
            let side = self.side;
            let t = self.rng.pick(side);
            let (id, target) = self.call(t, "escalate", &local);
            self.edge(&prev.0, &id, &prev.1);
            local.extend(target);
            prev = (id, "always".into());
        }
    }

    fn predicate_test(&mut self, value: &str) -> Value {
        let pool = &self.pool[self.pool.len().saturating_sub(WINDOW)..];
        let t = &pool[self.rng.below(pool.len())];
        let field = t.fields[self.rng.below(t.fields.len())];
        json!({"path": format!("{}.{field}", t.id), "op": "eq", "value": value})
    }
}

/// Generates the plan document (and, with `rich`, its registry as YAML).
pub fn generate(o: &Opts) -> (Value, Option<String>) {
    let n = o.nodes.max(2);
    let o = &Opts {
        nodes: n,
        ..o.clone()
    };
    let mut g = Gen {
        o,
        rng: Rng::new(o.seed),
        nodes: Vec::with_capacity(n),
        edges: Vec::with_capacity(n + n / 4),
        pool: Vec::new(),
        seen_join: false,
        steps: if o.rich { RICH_STEPS } else { DEFAULT_STEPS },
        side: if o.rich { RICH_SIDE } else { DEFAULT_SIDE },
    };
    g.push(
        "start",
        "entry",
        json!({"input": [
            {"path": "request", "type": "string", "maxBytes": 8192},
            {"path": "customer", "type": "string", "maxBytes": 256}
        ]}),
    );
    let intake_id = g.id("intake");
    g.push(
        &intake_id,
        "call",
        json!({
            "tool": INTAKE.name,
            "args": {"assignment": {"$ref": {"node": "start", "select": "first", "path": "request"}}},
            "output": [
                {"path": "goal", "type": "string", "maxBytes": 4096},
                {"path": "customer", "type": "string", "maxBytes": 256},
                {"path": "priority", "type": "enum", "values": ["low", "normal", "high"]}
            ],
            "onMissingValue": "fail",
            "authority": [{"capability": "assignments", "scope": "inbox", "verb": "read"}],
            "replaySafe": true,
            "onIndeterminate": "retry",
            "declassifies": ["goal", "customer", "priority"],
        }),
    );
    g.edge("start", &intake_id, "always");
    g.pool.push(g.target(&intake_id, INTAKE.outputs));
    // The spine's tail, and the handle the next spine node hangs off it by.
    let mut tail = (intake_id, "always".to_string());
    // Whether the tail is a call (error handlers hang off calls).
    let mut tail_is_call = true;
    while g.nodes.len() < n {
        let left = n - g.nodes.len();
        let roll = g.rng.below(100);
        if left >= 8 && tail.1 == "always" && roll < 12 {
            // A diamond: the tail forks into 2–3 arms that meet at a join.
            let fork = tail.0.clone();
            let arms = 2 + g.rng.below(2);
            let mut ends = Vec::new();
            let mut arm_targets = Vec::new();
            for _ in 0..arms {
                let len = 1 + g.rng.below(2);
                let mut local: Vec<Target> = Vec::new();
                let mut prev = fork.clone();
                for _ in 0..len {
                    let (id, t) = g.step(&local);
                    g.edge(&prev, &id, "always");
                    local.extend(t);
                    prev = id;
                }
                ends.push(prev);
                arm_targets.extend(local);
            }
            let join = g.id("merge");
            let def = if g.rng.chance(50) {
                json!({})
            } else {
                json!({"kind": "diamond"})
            };
            g.push(&join, "join", def);
            for e in ends {
                g.edge(&e, &join, "always");
            }
            g.pool.extend(arm_targets);
            g.seen_join = true;
            tail = (join, "always".into());
            tail_is_call = false;
        } else if left >= 4 && roll < 20 {
            // A branch: `match` leads to a short side chain.
            let id = g.id("check");
            let pred = g.predicate_test("high");
            g.push(
                &id,
                "branch",
                json!({"evaluator": "structured", "predicate": pred}),
            );
            g.edge(&tail.0, &id, &tail.1);
            let len = 1 + g.rng.below(2);
            g.side_chain(&id, "match", len);
            tail = (id, "no_match".into());
            tail_is_call = false;
        } else if left >= 5 && roll < 26 {
            // A select: two cases to side chains, `default` continues.
            let id = g.id("route");
            let urgent = g.predicate_test("high");
            let routine = g.predicate_test("low");
            g.push(
                &id,
                "select",
                json!({
                    "evaluator": "structured",
                    "predicate": {"urgent": urgent, "routine": routine},
                    "cases": ["urgent", "routine"],
                }),
            );
            g.edge(&tail.0, &id, &tail.1);
            g.side_chain(&id, "case_urgent", 1);
            g.side_chain(&id, "case_routine", 1);
            tail = (id, "default".into());
            tail_is_call = false;
        } else if left >= 2 && tail_is_call && roll < 33 {
            // An error handler off the tail call.
            let from = tail.0.clone();
            g.side_chain(&from, "error", 1);
        } else if o.rich && left >= 3 && roll < 38 {
            // An artifact fetch and a transform that reads it.
            let (fetch, _) = g.call(&REPORT_FETCH, "fetch_report", &[]);
            g.edge(&tail.0, &fetch, &tail.1);
            let id = g.id("extract");
            let select = if g.seen_join { "all" } else { "first" };
            g.push(
                &id,
                "transform",
                json!({
                    "source": {"$ref": {"node": fetch, "select": select}},
                    "steps": [{"name": "artifact_json_get", "args": {"path": "summary"}}],
                    "emit": {"as": "value", "field": "summary"},
                    "output": [{"path": "summary", "type": "string", "maxBytes": 4096}],
                }),
            );
            g.edge(&fetch, &id, "always");
            let t = g.target(&id, &["summary"]);
            g.pool.push(t);
            tail = (id, "always".into());
            tail_is_call = false;
        } else {
            let (id, t) = g.step(&[]);
            g.edge(&tail.0, &id, &tail.1);
            let is_call = t.as_ref().is_none_or(|t| t.fields[0] != "verdict");
            g.pool.extend(t);
            tail = (id, "always".into());
            tail_is_call = is_call;
        }
    }
    let plan_id = o
        .plan_id
        .clone()
        .unwrap_or_else(|| format!("plan-gen-{}-{}", n, o.seed));
    let edge_count = g.edges.len();
    let mut doc = json!({
        "formatVersion": 1,
        "planId": plan_id,
        "label": format!("Generated plan: {n} nodes, {} phase(s), seed {}", o.phases, o.seed),
        "bounds": {
            // Room to keep editing: a quarter more than generated.
            "maxNodes": (n + n / 4).max(256),
            "maxEdges": (edge_count + edge_count / 4).max(512),
            "maxSteps": (2 * n).max(4096),
            "maxConcurrentFrames": 32,
            "maxEncodedBytes": 1_048_576,
        },
        "nodes": g.nodes,
        "edges": g.edges,
    });
    // The canonical encoding is close to compact JSON; leave room to edit.
    let mut encoded = ByteCount(0);
    serde_json::to_writer(&mut encoded, &doc).expect("JSON values serialise");
    let encoded = encoded.0;
    doc["bounds"]["maxEncodedBytes"] = json!((2 * encoded).max(1_048_576));
    (doc, o.rich.then(registry_yaml))
}

/// Turns a generated plan into one of as many `entry` nodes and no edges,
/// keeping its bounds: every entry but the first is `multiple_entries`, the
/// worst case for messages that name entries (`--entries-only`).
#[allow(dead_code)]
pub fn entries_only(doc: &mut Value) {
    let n = doc["nodes"].as_array().map_or(0, Vec::len);
    let nodes: Vec<Value> = (0..n)
        .map(|i| {
            json!({"id": format!("entry_{i:06}"), "kind": "entry",
                   "definition": {"input": [{"path": "request", "type": "string"}]}})
        })
        .collect();
    doc["nodes"] = Value::Array(nodes);
    doc["edges"] = json!([]);
}

/// Counts the bytes written to it (the size of a serialisation, without
/// keeping it).
struct ByteCount(usize);

impl Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The registry of the rich tool set (plus the orchestration tools of the
/// default registry, so the store's templates keep working).
pub fn registry_yaml() -> String {
    let mut out = String::from("# Registry for plans written by examples/gen_plan.rs.\ntools:\n");
    let all = [INTAKE, FAILURE, WRITE_SYNTHESIS, REPORT_FETCH]
        .iter()
        .chain(RICH_STEPS.iter())
        .chain(RICH_SIDE.iter());
    let mut seen = std::collections::HashSet::new();
    for t in all {
        if !seen.insert(t.name) {
            continue;
        }
        out.push_str(&format!("  {}:\n    summary: {:?}\n", t.name, t.summary));
        if t.artifact {
            out.push_str("    returns: {kind: artifact, class: json_document}\n");
        } else {
            out.push_str("    returns: text\n");
        }
        out.push_str(&format!("    requiredArgs: [{}]\n", t.args.join(", ")));
        if let Some(w) = t.writes {
            out.push_str(&format!("    writes: [{w}]\n"));
        }
    }
    out.push_str(
        "  spawn_subagent:\n    summary: \"Start one subagent on a bounded assignment\"\n    returns: text\n    spawnsAgent: true\n    toolsArg: tools\n    writes: [output]\n    requiredArgs: [role, input, goal, tools, forbiddenWrites, output, done]\n",
    );
    out.push_str(
        "artifactClasses:\n  document:\n    steps:\n      artifact_head: {}\n      artifact_text: {}\n  json_document:\n    extends: document\n    steps:\n      artifact_json_get: {args: {path: string, \"limit?\": integer}}\nevaluators: [structured]\n",
    );
    out
}

fn usage() -> ! {
    eprintln!(
        "usage: gen_plan [--nodes N] [--phases P] [--seed S] [--unphased U] [--id PLAN_ID] [--compact] [--registry-out FILE] [--entries-only]"
    );
    std::process::exit(2)
}

#[allow(dead_code)]
fn main() {
    let mut o = Opts::default();
    let mut compact = false;
    let mut registry_out: Option<String> = None;
    let mut only_entries = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        let number = |s: String| s.parse::<u64>().unwrap_or_else(|_| usage());
        match a.as_str() {
            "--nodes" => o.nodes = number(value()) as usize,
            "--phases" => o.phases = number(value()) as usize,
            "--seed" => o.seed = number(value()),
            "--unphased" => o.unphased = number(value()) as usize,
            "--id" => o.plan_id = Some(value()),
            "--compact" => compact = true,
            "--registry-out" => registry_out = Some(value()),
            "--entries-only" => only_entries = true,
            "-h" | "--help" => usage(),
            _ => usage(),
        }
    }
    o.rich = registry_out.is_some();
    let (mut doc, registry) = generate(&o);
    if only_entries {
        entries_only(&mut doc);
    }
    if let (Some(path), Some(text)) = (registry_out, registry)
        && let Err(e) = std::fs::write(&path, text)
    {
        eprintln!("gen_plan: could not write {path}: {e}");
        std::process::exit(3);
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if compact {
        serde_json::to_writer(&mut out, &doc)
    } else {
        serde_json::to_writer_pretty(&mut out, &doc)
    };
    if written.is_err() || out.write_all(b"\n").and_then(|_| out.flush()).is_err() {
        eprintln!("gen_plan: could not write the plan to stdout");
        std::process::exit(3);
    }
}
