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
//! Values are IR values, so a field may be a literal, a `Ref` or a hole;
//! the nodes are built typed (their wire form is `crate::wire`'s business).

use super::build::{Spec, Unit};
use super::mechanism::Mechanism;
use crate::model::{
    DeclaredField, Edge, FieldType, Handle, Map, Node, NodeKind, Ref, Select, Value,
};

/// The six owner-verification criteria of seed 003, as `failedCriteria`
/// names them.
pub(crate) const CRITERIA: [(&str, &str); 6] = [
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
pub(crate) const DISPOSITIONS: [&str; 3] = ["accepted", "superseded", "rejected"];

/// The outcomes of reconciliation: `synthesize`, or the failure class that
/// stops the run without a synthesis.
pub(crate) const OUTCOMES: [&str; 4] = [
    "synthesize",
    "partial landing",
    "disagreement without evidence",
    "context overflow",
];

const ASSIGNMENT: &str = "assignment";

/// An object of these members, in this order.
fn obj<const N: usize>(members: [(&str, Value); N]) -> Value {
    Value::Object(
        members
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    )
}

/// An array of strings.
fn strs<S: AsRef<str>>(items: &[S]) -> Value {
    Value::Array(items.iter().map(|s| Value::from(s.as_ref())).collect())
}

/// A read of `node`'s output at `path`: its first execution, or — after a
/// join (`joined`) — the execution on the join's first incoming edge.
fn rf(node: &str, path: Option<&str>, joined: bool) -> Value {
    Value::from(Ref {
        node: node.to_string(),
        select: if joined {
            Select::Index(0)
        } else {
            Select::First
        },
        path: path.map(str::to_string),
        branch_id: None,
    })
}

/// A prompt part for a value: text for strings and holes, the reference
/// itself for a reference, compact JSON text for anything else.
fn part(v: &Value) -> Value {
    match v {
        Value::String(_) | Value::Param(_) => obj([("text", v.clone())]),
        Value::Ref(_) => v.clone(),
        other => text(crate::wire::json::compact(other)),
    }
}

fn text(s: impl Into<String>) -> Value {
    obj([("text", Value::from(s.into()))])
}

fn claim(capability: &str, scope: Value, verb: &str) -> Value {
    obj([
        ("capability", Value::from(capability)),
        ("scope", scope),
        ("verb", Value::from(verb)),
    ])
}

struct Builder {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
}

impl Builder {
    fn node(&mut self, id: &str, phase: &str, kind: NodeKind, def: Value) {
        let definition = match def {
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
        args: Value,
        output: Value,
        authority: Value,
        replay_safe: bool,
        on_missing: &str,
    ) {
        let on_indeterminate = if replay_safe { "retry" } else { "halt" };
        self.node(
            id,
            phase,
            NodeKind::Call,
            obj([
                ("tool", Value::from(tool)),
                ("args", args),
                ("output", output),
                ("onMissingValue", Value::from(on_missing)),
                ("authority", authority),
                ("replaySafe", Value::from(replay_safe)),
                ("onIndeterminate", Value::from(on_indeterminate)),
            ]),
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

fn names(units: &[Unit]) -> Value {
    Value::Array(units.iter().map(|u| Value::from(u.name.as_str())).collect())
}

/// The input a unit's spawn receives: its own, or the verified handoff of
/// the unit(s) it needs.
fn spawn_input(spec: &Spec, u: &Unit) -> Value {
    match u.needs.as_slice() {
        [] => u.input.clone(),
        [one] => rf(
            &format!("verify_{}", spec.units[*one].slug),
            Some("handoff"),
            false,
        ),
        many => Value::Object(
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

fn verify_prompt(spec: &Spec, k: usize) -> Value {
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
    Value::Array(parts)
}

/// `{"type": t}`.
fn typed(t: &str) -> Value {
    obj([("type", Value::from(t))])
}

/// `{"type": "string", "enum": values}`.
fn string_enum<S: AsRef<str>>(values: &[S]) -> Value {
    obj([("type", Value::from("string")), ("enum", strs(values))])
}

fn verify_schema() -> Value {
    let criteria: Vec<&str> = CRITERIA.iter().map(|(n, _)| *n).collect();
    obj([
        ("type", Value::from("object")),
        (
            "properties",
            obj([
                ("verdict", string_enum(&["pass", "fail"])),
                (
                    "failedCriteria",
                    obj([
                        ("type", Value::from("array")),
                        ("items", string_enum(&criteria)),
                    ]),
                ),
                ("handoff", typed("string")),
            ]),
        ),
        ("required", strs(&["verdict", "failedCriteria", "handoff"])),
        ("additionalProperties", Value::from(false)),
    ])
}

fn reconcile_prompt(spec: &Spec) -> Value {
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
    Value::Array(parts)
}

fn reconcile_schema(spec: &Spec) -> Value {
    let n = Value::from(spec.units.len() as u64);
    let disposition = obj([
        ("type", Value::from("object")),
        (
            "properties",
            obj([
                (
                    "unit",
                    obj([
                        ("type", Value::from("string")),
                        ("enum", names(&spec.units)),
                    ]),
                ),
                ("disposition", string_enum(&DISPOSITIONS)),
                ("reason", typed("string")),
                (
                    "cites",
                    obj([("type", Value::from("array")), ("items", typed("string"))]),
                ),
            ]),
        ),
        ("required", strs(&["unit", "disposition", "reason"])),
    ]);
    obj([
        ("type", Value::from("object")),
        (
            "properties",
            obj([
                (
                    "dispositions",
                    obj([
                        ("type", Value::from("array")),
                        ("minItems", n.clone()),
                        ("maxItems", n),
                        ("items", disposition),
                    ]),
                ),
                ("outcome", string_enum(&OUTCOMES)),
                ("synthesis", typed("string")),
                ("report", typed("string")),
            ]),
        ),
        (
            "required",
            strs(&["dispositions", "outcome", "synthesis", "report"]),
        ),
        ("additionalProperties", Value::from(false)),
    ])
}

/// Builds the plan's nodes and edges.
pub(crate) fn emit(spec: &Spec) -> (Vec<Node>, Vec<Edge>) {
    let mut b = Builder {
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    let parallel = spec.parallel();
    let units = &spec.units;
    accept(&mut b, spec);
    for k in 0..units.len() {
        unit(&mut b, spec, k);
    }
    let before_reconcile = if parallel {
        b.node("join", "reconciliation", NodeKind::Join, obj([]));
        "join".to_string()
    } else {
        format!(
            "check_{}",
            units.last().map(|u| u.slug.as_str()).unwrap_or("")
        )
    };
    reconcile(&mut b, spec);
    failures(&mut b, spec);
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
    split_phases(&mut b.nodes);
    (b.nodes, b.edges)
}

/// Cuts each phase that would not fit one read (`oversized_phase`) into
/// consecutive phases `<phase>_2`, `<phase>_3` … that do, so that a reader
/// of the plan can take it one phase at a time.
fn split_phases(nodes: &mut [Node]) {
    use crate::check::oversized_phase::estimate;
    let budget = crate::model::budget::READ;
    // Per phase: (chunk number, bytes in the chunk).
    let mut at: std::collections::HashMap<String, (usize, usize)> = Default::default();
    for n in nodes.iter_mut() {
        let Some(p) = n.phase.clone() else { continue };
        let size = estimate(n);
        let (chunk, used) = at.entry(p.clone()).or_insert((1, 0));
        // A node too large for any read stays where it is.
        if *used > 0 && *used + size > budget && size <= budget {
            *chunk += 1;
            *used = 0;
        }
        *used += size;
        if *chunk > 1 {
            n.phase = Some(format!("{p}_{chunk}"));
        }
    }
}

/// `start` (the entry, taking the assignment) and `accept`, which declares
/// and declassifies the assignment and the spec's accepted fields.
fn accept(b: &mut Builder, spec: &Spec) {
    let phase_in = "assignment";
    let assignment = DeclaredField {
        path: ASSIGNMENT.into(),
        ty: FieldType::String { max_bytes: None },
    };
    b.node(
        "start",
        phase_in,
        NodeKind::Entry,
        obj([("input", Value::Array(vec![assignment.to_value()]))]),
    );
    let mut accepted = vec![assignment.to_value()];
    accepted.extend(spec.accepted.iter().map(DeclaredField::to_value));
    let mut declassified = vec![Value::from(ASSIGNMENT)];
    declassified.extend(spec.accepted.iter().map(|f| Value::from(f.path.as_str())));
    b.node(
        "accept",
        phase_in,
        NodeKind::Call,
        obj([
            ("tool", Value::from("accept_assignment")),
            (
                "args",
                obj([("assignment", rf("start", Some(ASSIGNMENT), false))]),
            ),
            ("output", Value::Array(accepted)),
            ("onMissingValue", Value::from("fail")),
            (
                "authority",
                Value::Array(vec![claim("assignment", Value::from("owner"), "read")]),
            ),
            ("replaySafe", Value::from(true)),
            ("onIndeterminate", Value::from("retry")),
            ("declassifies", Value::Array(declassified)),
        ]),
    );
    b.edge("start", "accept", Handle::Always);
}

/// The complete spec a unit's subagent is spawned with.
fn spawn_args(spec: &Spec, k: usize) -> Value {
    let units = &spec.units;
    let u = &units[k];
    let mut forbidden: Vec<Value> = units
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != k)
        .map(|(_, o)| o.output.clone())
        .collect();
    forbidden.push(spec.synthesis.clone());
    let mut args = Map::new();
    args.insert("role".into(), u.role.clone());
    args.insert("instructions".into(), u.instructions.clone());
    args.insert("input".into(), spawn_input(spec, u));
    args.insert("goal".into(), u.goal.clone());
    args.insert("tools".into(), strs(&u.tools));
    args.insert("forbiddenWrites".into(), Value::Array(forbidden));
    args.insert("output".into(), u.output.clone());
    args.insert("done".into(), u.done.clone());
    args.insert("schema".into(), u.schema.clone());
    args.insert("maxOutputBytes".into(), Value::from(u.max_output_bytes));
    if !u.challenges.is_empty() {
        args.insert(
            "challenges".into(),
            Value::Array(
                u.challenges
                    .iter()
                    .map(|&c| Value::from(units[c].name.as_str()))
                    .collect(),
            ),
        );
    }
    Value::Object(args)
}

/// Unit `k`: spawn, read and verify (and, in a chain, check the verdict),
/// with the unit's edges.
fn unit(b: &mut Builder, spec: &Spec, k: usize) {
    let parallel = spec.parallel();
    let units = &spec.units;
    let u = &units[k];
    let s = &u.slug;
    let (spawn, read, verify, check, fail) = (
        format!("spawn_{s}"),
        format!("read_{s}"),
        format!("verify_{s}"),
        format!("check_{s}"),
        format!("fail_{s}"),
    );
    b.call(
        &spawn,
        "units",
        "spawn_subagent",
        spawn_args(spec, k),
        Value::Array(Vec::new()),
        Value::Array(vec![
            claim("subagents", Value::from("depth-1"), "create"),
            claim("artifacts", u.output.clone(), "create"),
        ]),
        false,
        "fail",
    );
    b.call(
        &read,
        "units",
        "read_artifact",
        obj([("path", u.output.clone())]),
        Value::Array(vec![obj([
            ("path", Value::from("content")),
            ("type", Value::from("string")),
            ("maxBytes", Value::from(u.max_output_bytes)),
        ])]),
        Value::Array(vec![claim("artifacts", u.output.clone(), "read")]),
        true,
        "fail",
    );
    b.node(
        &verify,
        "verification",
        NodeKind::Reason,
        obj([
            ("prompt", verify_prompt(spec, k)),
            ("outputSchema", verify_schema()),
            ("maxAttempts", Value::from(2u64)),
        ]),
    );
    if !parallel {
        b.node(
            &check,
            "verification",
            NodeKind::Branch,
            obj([
                ("evaluator", Value::from("structured")),
                (
                    "predicate",
                    obj([
                        ("path", Value::from(format!("{verify}.verdict"))),
                        ("op", Value::from("eq")),
                        ("value", Value::from("pass")),
                    ]),
                ),
            ]),
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

/// `reconcile`, the `gate` on its outcome, and `write` of the synthesis.
fn reconcile(b: &mut Builder, spec: &Spec) {
    let parallel = spec.parallel();
    b.node(
        "reconcile",
        "reconciliation",
        NodeKind::Reason,
        obj([
            ("prompt", reconcile_prompt(spec)),
            ("outputSchema", reconcile_schema(spec)),
            ("maxAttempts", Value::from(2u64)),
        ]),
    );
    b.node(
        "gate",
        "reconciliation",
        NodeKind::Branch,
        obj([
            ("evaluator", Value::from("structured")),
            (
                "predicate",
                obj([
                    ("path", Value::from("reconcile.outcome")),
                    ("op", Value::from("eq")),
                    ("value", Value::from("synthesize")),
                ]),
            ),
        ]),
    );
    let cites: Vec<Value> = spec.units.iter().map(|u| u.output.clone()).collect();
    b.call(
        "write",
        "synthesis",
        "write_synthesis",
        obj([
            ("path", spec.synthesis.clone()),
            ("content", rf("reconcile", Some("synthesis"), parallel)),
            ("cites", Value::Array(cites)),
        ]),
        Value::Array(Vec::new()),
        Value::Array(vec![claim("artifacts", spec.synthesis.clone(), "create")]),
        false,
        "fail",
    );
}

/// The failure paths: `fail_<u>` per unit, `report` (a failed
/// reconciliation) and `rollback` (a failed write).
fn failures(b: &mut Builder, spec: &Spec) {
    let parallel = spec.parallel();
    let units = &spec.units;
    let report_claim = || Value::Array(vec![claim("report", Value::from("owner"), "create")]);
    for u in units {
        let (fail, verify) = (format!("fail_{}", u.slug), format!("verify_{}", u.slug));
        b.call(
            &fail,
            "failure",
            "report_failure",
            obj([
                ("failureClass", Value::from("non-convergence")),
                ("units", strs(&[u.name.as_str()])),
                ("detail", Value::from(format!("Unit `{}` returned no artifact, or its artifact failed owner verification: dependent work is stopped and no synthesis is written. The failed criteria follow; verified artifacts of other units stay as evidence.", u.name))),
                ("failedCriteria", rf(&verify, Some("failedCriteria"), false)),
            ]),
            Value::Array(Vec::new()),
            report_claim(),
            false,
            "omit",
        );
    }
    b.call(
        "report",
        "failure",
        "report_failure",
        obj([
            ("failureClass", rf("reconcile", Some("outcome"), parallel)),
            ("units", names(units)),
            ("detail", rf("reconcile", Some("report"), parallel)),
            (
                "dispositions",
                rf("reconcile", Some("dispositions"), parallel),
            ),
        ]),
        Value::Array(Vec::new()),
        report_claim(),
        false,
        "omit",
    );
    b.call(
        "rollback",
        "failure",
        "report_failure",
        obj([
            ("failureClass", Value::from("rollback")),
            ("units", names(units)),
            ("detail", Value::from("Writing the synthesis failed part-way: remove the partial synthesis at this path, keep the verified unit artifacts as evidence, and resume at reconciliation once every unit has a disposition.")),
            ("path", spec.synthesis.clone()),
        ]),
        Value::Array(Vec::new()),
        report_claim(),
        false,
        "fail",
    );
}
