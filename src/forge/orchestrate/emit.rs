//! The one builder of orchestration plans (SPEC §9), shared by `orchestrate`
//! and the built-in templates (which pass holes where `orchestrate` passes
//! the decomposition's literals, so both have exactly one shape):
//!
//! ```text
//! start (entry) → accept (accept_assignment, declassifies every accepted field)
//!   per unit: spawn_<u> (spawn_subagent, complete spec) → read_<u> (read_artifact)
//!             → verify_<u> (reason: the six owner-verification criteria → verdict, handoff)
//!   chain:    → check_<u> (branch on the verdict) —match→ next unit / reconcile
//!   parallel: → join
//!   → reconcile (reason: a disposition for every unit, an outcome)
//!   → gate (branch: outcome = synthesize) —match→ write (write_synthesis)
//! failure paths: spawn/read/verify error and a failed verdict → fail_<u>
//! (report_failure: non-convergence); gate no_match → report (the outcome
//! names the failure class); write error → rollback (report_failure).
//! ```
//!
//! Values are IR values, so a field may be a literal, a `Ref` or a hole.

use crate::model::{DeclaredField, Edge, FieldType, Handle, Map, Node, NodeKind, Value};
use crate::wire::convert::to_json;
use serde_json::{Value as J, json};

/// The six owner-verification criteria of seed 003, as `failedCriteria`
/// names them.
pub const CRITERIA: [(&str, &str); 6] = [
    (
        "exists",
        "the artifact exists at its output path and is not empty (a missing or invalid artifact is a failed unit)",
    ),
    (
        "covers_input",
        "it covers the whole assigned input, not a part of it",
    ),
    ("follows_schema", "it follows the required schema"),
    (
        "within_authority",
        "it stays within its authority: it wrote only its own output, nothing in its forbidden writes, and spawned no agent",
    ),
    (
        "cites_evidence",
        "every factual claim cites its evidence (a source, file, line or quote)",
    ),
    ("done_predicate", "it satisfies the task's done predicate"),
];

/// The dispositions reconciliation records for every unit.
pub const DISPOSITIONS: [&str; 3] = ["accepted", "superseded", "rejected"];

/// The outcomes of reconciliation: `synthesize`, or the failure class that
/// stops the run without a synthesis.
pub const OUTCOMES: [&str; 4] = [
    "synthesize",
    "partial landing",
    "disagreement without evidence",
    "context overflow",
];

/// The line every role's instructions end with (orchestration depth 1).
pub const NO_SPAWN: &str = "Do not spawn, start or delegate to any other agent: only the orchestrator spawns subagents. Record proposed follow-up work in your artifact for the orchestrator to decide after verification.";

/// The done predicate of a unit that names none.
pub const DEFAULT_DONE: &str = "The artifact answers the goal for the whole assigned input, follows the required schema, and cites evidence for every factual claim.";

/// The schema of an ordinary unit's artifact.
pub const ARTIFACT_SCHEMA: &str = "findings: a list of {claim, evidence} records, each claim citing its evidence (source, file, line or quote); coverage: which parts of the assigned input were covered; followUps: proposed follow-up work, for the orchestrator to decide (never started by you).";

/// The one schema every unit of a per-unit mechanism returns.
pub const UNIT_SCHEMA: &str = "The same schema from every unit: unit (the unit's name); findings: a list of {claim, evidence} records; coverage: which parts of the assigned input were covered; followUps: proposed follow-up work, for the orchestrator to decide.";

/// The schema of advocate and critic artifacts.
pub const ADVERSARIAL_SCHEMA: &str = "claim-evidence-objection records: a list of {claim, evidence, objection}, where the advocate states claims with the evidence that supports them and the critic states an objection to a claim with the evidence that undermines it; every record cites its evidence. followUps: proposed follow-up work, for the orchestrator to decide.";

/// The digest schema of a unit whose output was bounded to fit the
/// orchestrator's context and that names no digest of its own.
pub const DIGEST_SCHEMA: &str = "A bounded digest of the assigned slice only (never its source text): points: a list of {claim, evidence} records, each citing where in the slice it comes from; gaps: what the slice does not cover; followUps: proposed follow-up work, for the orchestrator to decide.";

/// The bounded mechanisms of seed 003, in the order of its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mechanism {
    FanOut,
    OrderedHandoff,
    BoundedDigest,
    Single,
    PerUnit,
    AdvocateCritic,
}

impl Mechanism {
    /// The rows of the seed's table, in order.
    pub const ROWS: [Mechanism; 6] = [
        Mechanism::FanOut,
        Mechanism::OrderedHandoff,
        Mechanism::BoundedDigest,
        Mechanism::Single,
        Mechanism::PerUnit,
        Mechanism::AdvocateCritic,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mechanism::FanOut => "fan-out",
            Mechanism::OrderedHandoff => "ordered handoff",
            Mechanism::BoundedDigest => "bounded digest",
            Mechanism::Single => "single subagent",
            Mechanism::PerUnit => "per-unit",
            Mechanism::AdvocateCritic => "advocate/critic",
        }
    }

    /// Its row in the seed's table (1-based).
    pub fn row(self) -> usize {
        Mechanism::ROWS.iter().position(|m| *m == self).unwrap_or(0) + 1
    }

    /// Whether its units are spawned in one turn and run concurrently.
    pub fn concurrent(self) -> bool {
        !matches!(self, Mechanism::OrderedHandoff | Mechanism::Single)
    }

    /// The seed's wording of the mechanism.
    pub fn action(self) -> &'static str {
        match self {
            Mechanism::FanOut => {
                "spawn one subagent per task in the same turn, require a named artifact from each, then inspect and reconcile all artifacts"
            }
            Mechanism::OrderedHandoff => {
                "spawn only the first ready task; inspect its artifact, extract the exact input the next task needs, then spawn that next task; stop at any failed handoff"
            }
            Mechanism::BoundedDigest => {
                "give each subagent only its assigned source slice and a fixed digest schema; keep source text out of the orchestrator's context, then reconcile the returned digests"
            }
            Mechanism::Single => {
                "spawn one subagent with that goal, inspect its artifact, and use it directly after verification"
            }
            Mechanism::PerUnit => {
                "spawn one isolated subagent per unit in the same turn; require the same output schema from all units and reconcile only after every unit verifies"
            }
            Mechanism::AdvocateCritic => {
                "spawn independent advocate and critic roles from the same evidence in one turn; require claim-evidence-objection records, then resolve each objection against the cited evidence"
            }
        }
    }
}

/// One subagent unit.
#[derive(Debug, Clone)]
pub struct Unit {
    /// The task's name (messages, dispositions, reports).
    pub name: String,
    /// The node id suffix (`spawn_<slug>` …).
    pub slug: String,
    pub role: Value,
    /// The role's instructions, already ending with [`NO_SPAWN`].
    pub instructions: Value,
    /// The tools the subagent may use (no spawning tool).
    pub tools: Vec<String>,
    pub goal: Value,
    /// The assigned input (used when `needs` is empty).
    pub input: Value,
    /// Path of the artifact the unit writes.
    pub output: Value,
    pub done: Value,
    /// The schema its artifact must follow.
    pub schema: Value,
    pub max_output_bytes: u64,
    /// Units (indices into `Spec::units`, earlier in a chain) whose verified
    /// handoff is this unit's input.
    pub needs: Vec<usize>,
    /// Units (indices) whose evidence and conclusions this unit challenges.
    pub challenges: Vec<usize>,
}

/// Everything the plan is built from.
#[derive(Debug, Clone)]
pub struct Spec {
    pub mechanism: Mechanism,
    /// In spawn order (a chain runs them in this order).
    pub units: Vec<Unit>,
    /// Path of the synthesis artifact.
    pub synthesis: Value,
    /// Fields `accept` declares and declassifies besides `assignment`
    /// (a template's params).
    pub accepted: Vec<DeclaredField>,
}

impl Spec {
    /// Whether the units run concurrently and meet at a join.
    pub fn parallel(&self) -> bool {
        self.mechanism.concurrent() && self.units.len() >= 2
    }
}

const ASSIGNMENT: &str = "assignment";

/// A `$ref` in wire JSON.
fn rf(node: &str, path: Option<&str>, joined: bool) -> J {
    let select = if joined {
        json!({"index": 0})
    } else {
        json!("first")
    };
    match path {
        Some(p) => json!({"$ref": {"node": node, "select": select, "path": p}}),
        None => json!({"$ref": {"node": node, "select": select}}),
    }
}

/// A prompt part for a value: text for strings and holes, the reference
/// itself for a reference, compact JSON text for anything else.
fn part(v: &Value) -> J {
    match v {
        Value::String(_) | Value::Param(_) => json!({"text": to_json(v)}),
        Value::Ref(_) => to_json(v),
        other => json!({"text": crate::wire::json::compact(other)}),
    }
}

fn text(s: impl Into<String>) -> J {
    json!({"text": s.into()})
}

fn field_json(f: &DeclaredField) -> J {
    crate::forge::template::param_json(f)
}

fn claim(capability: &str, scope: J, verb: &str) -> J {
    json!({"capability": capability, "scope": scope, "verb": verb})
}

struct Builder {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Builder {
    fn node(&mut self, id: &str, phase: &str, kind: NodeKind, def: J) {
        let v = crate::wire::convert::from_json(&def, "")
            .expect("the emitter writes well-formed definitions");
        let definition = match v {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        self.nodes.push(Node {
            id: id.to_string(),
            phase: Some(phase.to_string()),
            kind,
            definition,
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        id: &str,
        phase: &str,
        tool: &str,
        args: J,
        output: J,
        authority: J,
        replay_safe: bool,
        on_missing: &str,
    ) {
        let on_indeterminate = if replay_safe { "retry" } else { "halt" };
        self.node(
            id,
            phase,
            NodeKind::Call,
            json!({
                "tool": tool, "args": args, "output": output, "onMissingValue": on_missing,
                "authority": authority, "replaySafe": replay_safe, "onIndeterminate": on_indeterminate,
            }),
        );
    }

    fn edge(&mut self, from: &str, to: &str, handle: Handle) {
        let taken: std::collections::HashSet<&str> =
            self.edges.iter().map(|e| e.id.as_str()).collect();
        let id = crate::wire::codec::mint_edge_id(from, to, &handle, |c| taken.contains(c));
        self.edges.push(Edge {
            id,
            from: from.into(),
            to: to.into(),
            handle,
        });
    }
}

fn names_json(units: &[Unit]) -> J {
    J::Array(units.iter().map(|u| J::from(u.name.clone())).collect())
}

/// The input a unit's spawn receives: its own, or the verified handoff of
/// the unit(s) it needs.
fn spawn_input(spec: &Spec, u: &Unit) -> J {
    match u.needs.as_slice() {
        [] => to_json(&u.input),
        [one] => rf(
            &format!("verify_{}", spec.units[*one].slug),
            Some("handoff"),
            false,
        ),
        many => J::Object(
            many.iter()
                .map(|&k| {
                    let n = &spec.units[k];
                    (
                        n.name.clone(),
                        rf(&format!("verify_{}", n.slug), Some("handoff"), false),
                    )
                })
                .collect(),
        ),
    }
}

fn verify_prompt(spec: &Spec, k: usize) -> J {
    let u = &spec.units[k];
    let mut parts = vec![text(format!(
        "Owner-verify the artifact of unit `{}`. Inspect the actual artifact below, not a reported path or summary, and check all six criteria:\n{}\nList every criterion that fails in `failedCriteria`; `verdict` is \"pass\" only when all six hold, and a missing or invalid artifact is a failed unit.",
        u.name,
        CRITERIA
            .iter()
            .enumerate()
            .map(|(i, (name, what))| format!("{}. {name}: {what};", i + 1))
            .collect::<Vec<_>>()
            .join("\n")
    ))];
    parts.push(text("The unit's output path:"));
    parts.push(part(&u.output));
    parts.push(text("Its goal:"));
    parts.push(part(&u.goal));
    if u.needs.is_empty() {
        parts.push(text("Its assigned input:"));
        parts.push(part(&u.input));
    } else {
        for &n in &u.needs {
            parts.push(text(format!(
                "Its assigned input, the verified handoff of unit `{}`:",
                spec.units[n].name
            )));
            parts.push(rf(
                &format!("verify_{}", spec.units[n].slug),
                Some("handoff"),
                false,
            ));
        }
    }
    parts.push(text("Its required schema:"));
    parts.push(part(&u.schema));
    parts.push(text("Its done predicate:"));
    parts.push(part(&u.done));
    let dependents: Vec<&Unit> = spec.units.iter().filter(|d| d.needs.contains(&k)).collect();
    if dependents.is_empty() {
        parts.push(text(
            "Put in `handoff` a summary of the verified artifact with its citations, for reconciliation.",
        ));
    } else {
        for d in dependents {
            parts.push(text(format!(
                "Put in `handoff` exactly the input the next unit `{}` needs, extracted from the verified artifact (nothing else); it needs:",
                d.name
            )));
            parts.push(part(&d.input));
        }
    }
    parts.push(text("The artifact:"));
    parts.push(rf(&format!("read_{}", u.slug), Some("content"), false));
    J::Array(parts)
}

fn verify_schema() -> J {
    let criteria: Vec<&str> = CRITERIA.iter().map(|(n, _)| *n).collect();
    json!({
        "type": "object",
        "properties": {
            "verdict": {"type": "string", "enum": ["pass", "fail"]},
            "failedCriteria": {"type": "array", "items": {"type": "string", "enum": criteria}},
            "handoff": {"type": "string"},
        },
        "required": ["verdict", "failedCriteria", "handoff"],
        "additionalProperties": false,
    })
}

fn reconcile_prompt(spec: &Spec) -> J {
    let mut intro = String::from(
        "Reconcile the verified artifacts. Resolve overlaps and disagreements against the cited evidence and never invent a deciding fact. Record a disposition for every unit: accepted, superseded (with the reason) or rejected (with the reason); do not synthesize while any unit lacks one.",
    );
    match spec.mechanism {
        Mechanism::AdvocateCritic => intro.push_str(
            " Resolve each objection of the claim-evidence-objection records against the evidence it cites: the claim stands, falls, or is superseded, with the reason.",
        ),
        Mechanism::BoundedDigest => intro.push_str(
            " The units returned bounded digests of their slices; work from the digests only, never the slices' source text.",
        ),
        Mechanism::PerUnit => intro.push_str(
            " Every unit returned the same schema; reconcile only after every unit verified.",
        ),
        _ => {}
    }
    intro.push_str(
        " Set `outcome` to \"synthesize\" only when every unit verified, has a disposition, and every disagreement is resolved by evidence. Otherwise set it to the failure class and say in `report` what happened, without a synthesis: \"partial landing\" (some units verified and some did not: list both sets; the verified artifacts stay as evidence), \"disagreement without evidence\" (artifacts conflict and their citations do not settle it: return the conflicting claims and the missing evidence), or \"context overflow\" (the artifacts do not fit for reconciliation: list the unprocessed units). Write the synthesis in `synthesis`, citing every contributing unit's artifact.",
    );
    let mut parts = vec![text(intro), text("The owner's assignment:")];
    parts.push(rf("accept", Some(ASSIGNMENT), false));
    for u in &spec.units {
        parts.push(text(format!("Unit `{}`, artifact path:", u.name)));
        parts.push(part(&u.output));
        parts.push(text(format!("Unit `{}`, owner verification:", u.name)));
        parts.push(rf(&format!("verify_{}", u.slug), None, false));
        parts.push(text(format!("Unit `{}`, artifact:", u.name)));
        parts.push(rf(&format!("read_{}", u.slug), Some("content"), false));
    }
    J::Array(parts)
}

fn reconcile_schema(spec: &Spec) -> J {
    let n = spec.units.len();
    json!({
        "type": "object",
        "properties": {
            "dispositions": {
                "type": "array",
                "minItems": n,
                "maxItems": n,
                "items": {
                    "type": "object",
                    "properties": {
                        "unit": {"type": "string", "enum": names_json(&spec.units)},
                        "disposition": {"type": "string", "enum": DISPOSITIONS},
                        "reason": {"type": "string"},
                        "cites": {"type": "array", "items": {"type": "string"}},
                    },
                    "required": ["unit", "disposition", "reason"],
                },
            },
            "outcome": {"type": "string", "enum": OUTCOMES},
            "synthesis": {"type": "string"},
            "report": {"type": "string"},
        },
        "required": ["dispositions", "outcome", "synthesis", "report"],
        "additionalProperties": false,
    })
}

/// Builds the plan's nodes and edges.
pub fn emit(spec: &Spec) -> (Vec<Node>, Vec<Edge>) {
    let mut b = Builder {
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    let parallel = spec.parallel();
    let units = &spec.units;
    let phase_in = "assignment";
    let assignment = DeclaredField {
        path: ASSIGNMENT.into(),
        ty: FieldType::String { max_bytes: None },
    };
    b.node(
        "start",
        phase_in,
        NodeKind::Entry,
        json!({"input": [field_json(&assignment)]}),
    );
    let mut accepted = vec![field_json(&assignment)];
    accepted.extend(spec.accepted.iter().map(field_json));
    let mut declassified = vec![J::from(ASSIGNMENT)];
    declassified.extend(spec.accepted.iter().map(|f| J::from(f.path.clone())));
    b.node(
        "accept",
        phase_in,
        NodeKind::Call,
        json!({
            "tool": "accept_assignment",
            "args": {"assignment": rf("start", Some(ASSIGNMENT), false)},
            "output": accepted,
            "onMissingValue": "fail",
            "authority": [claim("assignment", json!("owner"), "read")],
            "replaySafe": true,
            "onIndeterminate": "retry",
            "declassifies": declassified,
        }),
    );
    b.edge("start", "accept", Handle::Always);

    for (k, u) in units.iter().enumerate() {
        let s = &u.slug;
        let (spawn, read, verify, check, fail) = (
            format!("spawn_{s}"),
            format!("read_{s}"),
            format!("verify_{s}"),
            format!("check_{s}"),
            format!("fail_{s}"),
        );
        let mut forbidden: Vec<J> = units
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != k)
            .map(|(_, o)| to_json(&o.output))
            .collect();
        forbidden.push(to_json(&spec.synthesis));
        let mut args = serde_json::Map::new();
        args.insert("role".into(), to_json(&u.role));
        args.insert("instructions".into(), to_json(&u.instructions));
        args.insert("input".into(), spawn_input(spec, u));
        args.insert("goal".into(), to_json(&u.goal));
        args.insert("tools".into(), json!(u.tools));
        args.insert("forbiddenWrites".into(), J::Array(forbidden));
        args.insert("output".into(), to_json(&u.output));
        args.insert("done".into(), to_json(&u.done));
        args.insert("schema".into(), to_json(&u.schema));
        args.insert("maxOutputBytes".into(), json!(u.max_output_bytes));
        if !u.challenges.is_empty() {
            args.insert(
                "challenges".into(),
                J::Array(
                    u.challenges
                        .iter()
                        .map(|&c| J::from(units[c].name.clone()))
                        .collect(),
                ),
            );
        }
        b.call(
            &spawn,
            "units",
            "spawn_subagent",
            J::Object(args),
            json!([]),
            json!([
                claim("subagents", json!("depth-1"), "create"),
                claim("artifacts", to_json(&u.output), "create"),
            ]),
            false,
            "fail",
        );
        b.call(
            &read,
            "units",
            "read_artifact",
            json!({"path": to_json(&u.output)}),
            json!([{"path": "content", "type": "string", "maxBytes": u.max_output_bytes}]),
            json!([claim("artifacts", to_json(&u.output), "read")]),
            true,
            "fail",
        );
        b.node(
            &verify,
            "verification",
            NodeKind::Reason,
            json!({"prompt": verify_prompt(spec, k), "outputSchema": verify_schema(), "maxAttempts": 2}),
        );
        if !parallel {
            b.node(
                &check,
                "verification",
                NodeKind::Branch,
                json!({"evaluator": "structured", "predicate": {"path": format!("{verify}.verdict"), "op": "eq", "value": "pass"}}),
            );
        }
        // Edges of the unit.
        if parallel || k == 0 {
            b.edge("accept", &spawn, Handle::Always);
        } else {
            let prev = format!("check_{}", units[k - 1].slug);
            b.edge(&prev, &spawn, Handle::Match);
        }
        b.edge(&spawn, &read, Handle::Always);
        b.edge(&read, &verify, Handle::Always);
        b.edge(&spawn, &fail, Handle::Error);
        b.edge(&read, &fail, Handle::Error);
        b.edge(&verify, &fail, Handle::Error);
        if parallel {
            b.edge(&verify, "join", Handle::Always);
        } else {
            b.edge(&verify, &check, Handle::Always);
            b.edge(&check, &fail, Handle::NoMatch);
        }
    }
    let before_reconcile = if parallel {
        b.node("join", "reconciliation", NodeKind::Join, json!({}));
        "join".to_string()
    } else {
        format!(
            "check_{}",
            units.last().map(|u| u.slug.as_str()).unwrap_or("")
        )
    };
    b.node(
        "reconcile",
        "reconciliation",
        NodeKind::Reason,
        json!({"prompt": reconcile_prompt(spec), "outputSchema": reconcile_schema(spec), "maxAttempts": 2}),
    );
    b.node(
        "gate",
        "reconciliation",
        NodeKind::Branch,
        json!({"evaluator": "structured", "predicate": {"path": "reconcile.outcome", "op": "eq", "value": "synthesize"}}),
    );
    let cites: Vec<J> = units.iter().map(|u| to_json(&u.output)).collect();
    b.call(
        "write",
        "synthesis",
        "write_synthesis",
        json!({
            "path": to_json(&spec.synthesis),
            "content": rf("reconcile", Some("synthesis"), parallel),
            "cites": cites,
        }),
        json!([]),
        json!([claim("artifacts", to_json(&spec.synthesis), "create")]),
        false,
        "fail",
    );
    for u in units {
        let (fail, verify) = (format!("fail_{}", u.slug), format!("verify_{}", u.slug));
        b.call(
        &fail,
        "failure",
        "report_failure",
        json!({
            "failureClass": "non-convergence",
            "units": [u.name],
            "detail": format!("Unit `{}` returned no artifact, or its artifact failed owner verification: dependent work is stopped and no synthesis is written. The failed criteria follow; verified artifacts of other units stay as evidence.", u.name),
            "failedCriteria": rf(&verify, Some("failedCriteria"), false),
        }),
        json!([]),
        json!([claim("report", json!("owner"), "create")]),
        false,
        "omit",
    );
    }
    b.call(
        "report",
        "failure",
        "report_failure",
        json!({
            "failureClass": rf("reconcile", Some("outcome"), parallel),
            "units": names_json(units),
            "detail": rf("reconcile", Some("report"), parallel),
            "dispositions": rf("reconcile", Some("dispositions"), parallel),
        }),
        json!([]),
        json!([claim("report", json!("owner"), "create")]),
        false,
        "omit",
    );
    b.call(
        "rollback",
        "failure",
        "report_failure",
        json!({
            "failureClass": "rollback",
            "units": names_json(units),
            "detail": "Writing the synthesis failed part-way: remove the partial synthesis at this path, keep the verified unit artifacts as evidence, and resume at reconciliation once every unit has a disposition.",
            "path": to_json(&spec.synthesis),
        }),
        json!([]),
        json!([claim("report", json!("owner"), "create")]),
        false,
        "fail",
    );
    b.edge(
        &before_reconcile,
        "reconcile",
        if parallel {
            Handle::Always
        } else {
            Handle::Match
        },
    );
    b.edge("reconcile", "gate", Handle::Always);
    b.edge("gate", "write", Handle::Match);
    b.edge("gate", "report", Handle::NoMatch);
    b.edge("write", "rollback", Handle::Error);
    (b.nodes, b.edges)
}
