//! The one builder of orchestration plans (SPEC §9), shared by `orchestrate`
//! and the built-in templates (which pass holes where `orchestrate` passes
//! the decomposition's literals, so both have exactly one shape):
//!
//! ```text
//! start (entry) → accept (accept_assignment, declassifies every accepted field
//!                 and every source slice the run supplies)
//!   per unit: spawn_<u> (spawn_subagent, complete spec) → read_<u> (read_artifact)
//!             → verify_<u> (reason: the six owner-verification criteria →
//!               verdict, failedCriteria, handoff)
//!   chain:    → check_<u> (branch: verdict = pass and no failed criterion)
//!             —match→ the next unit's spawn / reconcile
//!   parallel: verify_<u> —always→ join, and the `error` edges of
//!             spawn_<u>, read_<u> and verify_<u> → join too: the join is of
//!             kind `settle`, so it fires once every unit's branch arrived
//!             on one of them, its arrivals saying where → verified (select
//!             on every verdict and failedCriteria): case_all → reconcile;
//!             case_some → landing; default → unverified
//!   → reconcile (reason: exactly one disposition per unit, the cited artifacts,
//!     an outcome) → gate (branch: outcome = synthesize and every unit has a
//!     disposition) —match→ write (write_synthesis: path, content, cites,
//!     dispositions) → discard (remove_artifacts: the unit artifacts the
//!     synthesis does not cite)
//! failure paths (report_failure: failure class, units, failed criteria,
//! rollback state): in a chain, spawn error → lost_<u>, read error →
//! unread_<u> (each naming the step, `exists` failed), a failed
//! verdict → fail_<u>, verify error → noverdict_<u> (the step, every
//! criterion unconfirmed); in parallel, some or no units verified (an
//! errored unit is not verified) → landing / unverified, naming both sets;
//! gate no_match or a reconcile error → report; write error → unwrite
//! (remove_artifacts: the partial synthesis) → rollback, or rollback_stuck.
//! ```
//!
//! Values are IR values, so a field may be a literal, a `Ref` or a hole;
//! the nodes are built typed (their wire form is `crate::wire`'s business).

use super::build::{Spec, Unit};
use super::mechanism::Mechanism;
use crate::check::incomplete_spawn_spec::NO_SPAWN_ARG;
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
pub(crate) const OUTCOMES: [&str; 3] = [
    "synthesize",
    "disagreement without evidence",
    "context overflow",
];

const ASSIGNMENT: &str = "assignment";

/// The failure class when the reconciliation step itself errors: the
/// returned artifacts could not be reconciled, which the seed's context
/// overflow recovery ends with ("stop without synthesis and report the
/// unprocessed set"). The error does not say why (no fit, or no valid
/// output within its attempts): [`UNRECONCILED`] says so.
pub(crate) const UNRECONCILED_CLASS: &str = "context overflow";

/// The detail of that report (the step gave no output to quote).
pub(crate) const UNRECONCILED: &str = "The reconciliation step `reconcile` errored, so the verified artifacts were not reconciled: the run stops without a synthesis, and every unit listed in `units` is in the unprocessed set. The class is the seed's for returned artifacts that cannot be reconciled (its context overflow recovery); the step's error does not say why, whether its input did not fit or it returned no valid reconciliation within its attempts (a schema violation), so look at the step's own error before rerunning. The verified artifacts are kept as evidence; rerun the reconciliation (seed step 7), with fewer or smaller artifacts if they did not fit.";

/// The rollback state of a failure where no synthesis was begun.
pub(crate) const NOTHING_TO_ROLL_BACK: &str = "nothing to roll back: no synthesis was begun, and the verified unit artifacts stay as evidence";
/// The rollback state once a partial synthesis was removed.
pub(crate) const ROLLED_BACK: &str = "the partial synthesis was removed from its path (unwrite); the verified unit artifacts are kept; resume at seed step 6 (owner-verify every artifact), then reconcile";
/// The rollback state when removing the partial synthesis failed.
pub(crate) const ROLLBACK_STUCK: &str = "removing the partial synthesis failed: it may remain at its path and must be removed before resuming; the verified unit artifacts are kept; resume at seed step 6 (owner-verify every artifact), then reconcile";

/// The criteria a failed reconciliation did not meet.
const RECONCILE_CRITERIA: [&str; 2] = [
    "every verified unit has a disposition",
    "overlaps and disagreements are resolved against cited evidence",
];

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
            id: id.into(),
            phase: Some(phase.into()),
            kind,
            definition: definition.into(),
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
            id: id.into(),
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
    if let Some(slice) = &u.slice {
        parts.push(text(format!(
            "Its assigned slice, by identity and extent only (the source text stays out of the orchestrator's context; the run supplies it to the unit as `{}`). Check coverage against this identity and extent: the digest must name the slice's sha256 and account for all {} bytes ({} lines) of it:",
            slice.field, slice.bytes, slice.lines
        )));
        parts.push(part(&slice.identity()));
    }
    if u.needs.is_empty() {
        if u.slice.is_none() {
            parts.push(text(if spec.mechanism == Mechanism::BoundedDigest {
                "Its assigned slice (its identity and extent):"
            } else {
                "Its assigned input:"
            }));
            parts.push(part(&u.input));
        }
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
            match &d.slice {
                // Its source text stays out of the orchestrator: only its
                // goal and its slice's identity are shown.
                Some(s) => {
                    parts.push(text(format!(
                        "Put in `handoff` exactly what the next unit `{}` needs from the verified artifact for its goal (nothing else, and never source text: the run supplies its own slice `{}` to it directly). Its goal:",
                        d.name, s.field
                    )));
                    parts.push(part(&d.goal));
                    parts.push(text("Its slice, by identity and extent:"));
                    parts.push(part(&s.identity()));
                }
                None => {
                    parts.push(text(format!(
                        "Put in `handoff` exactly the input the next unit `{}` needs, extracted from the verified artifact (nothing else); it needs:",
                        d.name
                    )));
                    parts.push(part(&d.input));
                }
            }
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
        // A failure names at least one criterion: "pass", or a non-empty
        // `failedCriteria` (`anyOf`, which every JSON Schema draft reads
        // alike); `incomplete_failure_report` holds an edited schema to it.
        (
            "anyOf",
            crate::check::incomplete_failure_report::named_failure(),
        ),
    ])
}

fn reconcile_prompt(spec: &Spec) -> Value {
    let mut intro = String::from(
        "Reconcile the verified artifacts (every unit passed owner verification before this step). Resolve overlaps and disagreements against the cited evidence and never invent a deciding fact. Record exactly one disposition per unit in `dispositions`, under the unit's key: accepted, superseded (with the reason) or rejected (with the reason); do not synthesize while any unit lacks one.",
    );
    if spec.adversarial {
        intro.push_str(
            " Resolve each objection of the claim-evidence-objection records against the evidence it cites: the claim stands, falls, or is superseded, with the reason.",
        );
    }
    match spec.mechanism {
        Mechanism::BoundedDigest => intro.push_str(
            " The units returned bounded digests of their slices; work from the digests only, never the slices' source text.",
        ),
        Mechanism::PerUnit => intro.push_str(
            " Every unit returned the same schema; reconcile only after every unit verified.",
        ),
        _ => {}
    }
    intro.push_str(
        " Set `outcome` to \"synthesize\" only when every unit has a disposition and every disagreement is resolved by evidence. Otherwise set it to the failure class and say in `report` what happened, without a synthesis: \"disagreement without evidence\" (artifacts conflict and their citations do not settle it: return the conflicting claims and the missing evidence), or \"context overflow\" (the artifacts do not fit for reconciliation: list the unprocessed units). Write the synthesis in `synthesis`, citing every contributing unit's artifact, and list in `cites` the artifact paths it cites (the others are discarded after the write).",
    );
    let mut parts = vec![text(intro), text("The owner's assignment:")];
    parts.push(rf("accept", Some(ASSIGNMENT), false));
    for u in &spec.units {
        parts.push(text(format!(
            "Unit `{}` (disposition key `{}`), artifact path:",
            u.name, u.slug
        )));
        parts.push(part(&u.output));
        parts.push(text(format!("Unit `{}`, owner verification:", u.name)));
        parts.push(rf(&format!("verify_{}", u.slug), None, false));
        parts.push(text(format!("Unit `{}`, artifact:", u.name)));
        parts.push(rf(&format!("read_{}", u.slug), Some("content"), false));
    }
    Value::Array(parts)
}

/// `{"type": "array", "items": {"type": "string"}}`.
fn string_array() -> Value {
    obj([("type", Value::from("array")), ("items", typed("string"))])
}

/// Exactly one disposition per unit: an object with one required member
/// per unit, keyed by the unit's node id suffix.
fn dispositions_schema(spec: &Spec) -> Value {
    let per_unit = |u: &Unit| {
        obj([
            ("type", Value::from("object")),
            (
                "properties",
                obj([
                    (
                        "unit",
                        obj([
                            ("type", Value::from("string")),
                            ("const", Value::from(u.name.as_str())),
                        ]),
                    ),
                    ("disposition", string_enum(&DISPOSITIONS)),
                    (
                        "reason",
                        obj([
                            ("type", Value::from("string")),
                            ("minLength", Value::from(1u64)),
                        ]),
                    ),
                    ("cites", string_array()),
                ]),
            ),
            ("required", strs(&["unit", "disposition", "reason"])),
            ("additionalProperties", Value::from(false)),
        ])
    };
    let slugs: Vec<&str> = spec.units.iter().map(|u| u.slug.as_str()).collect();
    obj([
        ("type", Value::from("object")),
        (
            "properties",
            Value::Object(
                spec.units
                    .iter()
                    .map(|u| (u.slug.clone(), per_unit(u)))
                    .collect(),
            ),
        ),
        ("required", strs(&slugs)),
        ("additionalProperties", Value::from(false)),
    ])
}

fn reconcile_schema(spec: &Spec) -> Value {
    obj([
        ("type", Value::from("object")),
        (
            "properties",
            obj([
                ("dispositions", dispositions_schema(spec)),
                ("outcome", string_enum(&OUTCOMES)),
                ("synthesis", typed("string")),
                ("cites", string_array()),
                ("report", typed("string")),
            ]),
        ),
        (
            "required",
            strs(&["dispositions", "outcome", "synthesis", "cites", "report"]),
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
    if parallel {
        b.node(
            "join",
            "reconciliation",
            NodeKind::Join,
            obj([("kind", Value::from(crate::model::node::SETTLE))]),
        );
        verified(&mut b, spec);
    } else {
        let last = format!(
            "check_{}",
            units.last().map(|u| u.slug.as_str()).unwrap_or("")
        );
        b.edge(&last, "reconcile", Handle::Match);
    }
    reconcile(&mut b, spec);
    failures(&mut b, spec);
    b.edge("reconcile", "gate", Handle::Always);
    b.edge("reconcile", "unreconciled", Handle::Error);
    b.edge("gate", "write", Handle::Match);
    b.edge("gate", "report", Handle::NoMatch);
    b.edge("write", "discard", Handle::Always);
    b.edge("write", "unwrite", Handle::Error);
    b.edge("unwrite", "rollback", Handle::Always);
    b.edge("unwrite", "rollback_stuck", Handle::Error);
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
        let (chunk, used) = at.entry(p.to_string()).or_insert((1, 0));
        // A node too large for any read stays where it is.
        if *used > 0 && *used + size > budget && size <= budget {
            *chunk += 1;
            *used = 0;
        }
        *used += size;
        if *chunk > 1 {
            n.phase = Some(format!("{p}_{chunk}").into());
        }
    }
}

/// The entry's fields: the assignment, and every source slice the run
/// supplies.
fn entry_fields(spec: &Spec) -> Vec<DeclaredField> {
    let mut out = vec![DeclaredField {
        path: ASSIGNMENT.into(),
        ty: FieldType::String { max_bytes: None },
    }];
    for u in &spec.units {
        if let Some(s) = &u.slice {
            // Units given the same evidence share one run input.
            if out.iter().any(|f| f.path == s.field) {
                continue;
            }
            out.push(DeclaredField {
                path: s.field.clone(),
                ty: FieldType::String {
                    max_bytes: Some(s.bytes.max(1)),
                },
            });
        }
    }
    out
}

/// `start` (the entry, taking the assignment and the source slices) and
/// `accept`, which declares and declassifies them and the spec's accepted
/// fields.
fn accept(b: &mut Builder, spec: &Spec) {
    let phase_in = "assignment";
    let fields = entry_fields(spec);
    b.node(
        "start",
        phase_in,
        NodeKind::Entry,
        obj([(
            "input",
            Value::Array(fields.iter().map(DeclaredField::to_value).collect()),
        )]),
    );
    let mut accepted: Vec<Value> = fields.iter().map(DeclaredField::to_value).collect();
    accepted.extend(spec.accepted.iter().map(DeclaredField::to_value));
    let mut declassified: Vec<Value> = fields
        .iter()
        .map(|f| Value::from(f.path.as_str()))
        .collect();
    declassified.extend(spec.accepted.iter().map(|f| Value::from(f.path.as_str())));
    let args = Value::Object(
        fields
            .iter()
            .map(|f| (f.path.clone(), rf("start", Some(&f.path), false)))
            .collect(),
    );
    b.node(
        "accept",
        phase_in,
        NodeKind::Call,
        obj([
            ("tool", Value::from("accept_assignment")),
            ("args", args),
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
    for t in &spec.protected {
        if !forbidden.contains(t) {
            forbidden.push(t.clone());
        }
    }
    let mut args = Map::new();
    args.insert("role".into(), u.role.clone());
    args.insert("instructions".into(), u.instructions.clone());
    // The no-spawn prohibition as a field (depth 1), which
    // `incomplete_spawn_spec` reads; the instructions say it in words.
    args.insert(NO_SPAWN_ARG.into(), Value::Bool(true));
    match &u.slice {
        Some(s) if u.needs.is_empty() => {
            args.insert("input".into(), rf("accept", Some(&s.field), false));
            args.insert("inputIdentity".into(), s.identity());
        }
        Some(s) => {
            // Its own slice from the run, and the verified handoff it needs.
            args.insert(
                "input".into(),
                obj([
                    ("slice", rf("accept", Some(&s.field), false)),
                    ("handoff", spawn_input(spec, u)),
                ]),
            );
            args.insert("inputIdentity".into(), s.identity());
        }
        None => {
            args.insert("input".into(), spawn_input(spec, u));
        }
    }
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

/// A branch on a structured predicate.
fn branch(b: &mut Builder, id: &str, phase: &str, predicate: Value) {
    b.node(
        id,
        phase,
        NodeKind::Branch,
        obj([
            ("evaluator", Value::from("structured")),
            ("predicate", predicate),
        ]),
    );
}

/// `{"path": path, "op": op[, "value": value]}`.
fn test(path: String, op: &str, value: Option<Value>) -> Value {
    let mut m = Map::new();
    m.insert("path".into(), Value::from(path));
    m.insert("op".into(), Value::from(op));
    if let Some(v) = value {
        m.insert("value".into(), v);
    }
    Value::Object(m)
}

/// Unit `u` passed owner verification: its verdict is a pass and no
/// criterion failed (a unit with failed criteria is a failed unit, whatever
/// its verdict says).
pub(crate) fn passed(u: &Unit) -> Value {
    obj([(
        "all",
        Value::Array(vec![
            test(
                format!("verify_{}.verdict", u.slug),
                "eq",
                Some(Value::from("pass")),
            ),
            test(
                format!("verify_{}.failedCriteria", u.slug),
                "eq",
                Some(Value::Array(Vec::new())),
            ),
        ]),
    )])
}

/// Unit `k`: spawn, read, verify and check the verdict, with the unit's
/// edges.
fn unit(b: &mut Builder, spec: &Spec, k: usize) {
    let parallel = spec.parallel();
    let units = &spec.units;
    let u = &units[k];
    let s = &u.slug;
    let (spawn, read, verify, check, fail, lost) = (
        format!("spawn_{s}"),
        format!("read_{s}"),
        format!("verify_{s}"),
        format!("check_{s}"),
        format!("fail_{s}"),
        format!("lost_{s}"),
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
    if parallel || k == 0 {
        b.edge("accept", &spawn, Handle::Always);
    } else {
        let prev = format!("check_{}", units[k - 1].slug);
        b.edge(&prev, &spawn, Handle::Match);
    }
    b.edge(&spawn, &read, Handle::Always);
    b.edge(&read, &verify, Handle::Always);
    if parallel {
        // Every unit's branch settles at the join: its completed
        // verification, or the error of whichever of its steps failed (the
        // join settles, so the other edges need not fire). `verified` then
        // tests every verdict: an errored unit has none, so it is a failed
        // unit, and `landing` or `unverified` name both sets, with the
        // join's arrivals saying where each branch ended.
        b.edge(&spawn, "join", Handle::Error);
        b.edge(&read, "join", Handle::Error);
        b.edge(&verify, "join", Handle::Error);
        b.edge(&verify, "join", Handle::Always);
    } else {
        b.edge(&spawn, &lost, Handle::Error);
        b.edge(&read, &format!("unread_{s}"), Handle::Error);
        b.edge(&verify, &format!("noverdict_{s}"), Handle::Error);
        // A chain stops at its first failed unit: `check_<u>` gates the
        // next spawn.
        branch(b, &check, "verification", passed(u));
        b.edge(&verify, &check, Handle::Always);
        b.edge(&check, &fail, Handle::NoMatch);
    }
}

/// After the join: `verified`, a select on every unit's verdict — all
/// passed (reconcile), some passed (partial landing), none (every unit
/// failed to converge).
fn verified(b: &mut Builder, spec: &Spec) {
    let units = &spec.units;
    let every: Vec<Value> = units.iter().map(passed).collect();
    let not_every = obj([("not", obj([("all", Value::Array(every.clone()))]))]);
    let some = obj([(
        "all",
        Value::Array(vec![obj([("any", Value::Array(every.clone()))]), not_every]),
    )]);
    b.node(
        "verified",
        "reconciliation",
        NodeKind::Select,
        obj([
            ("evaluator", Value::from("structured")),
            (
                "predicate",
                obj([("all", obj([("all", Value::Array(every))])), ("some", some)]),
            ),
            ("cases", strs(&["all", "some"])),
        ]),
    );
    b.edge("join", "verified", Handle::Always);
    b.edge("verified", "reconcile", Handle::Case("all".into()));
    b.edge("verified", "landing", Handle::Case("some".into()));
    b.edge("verified", "unverified", Handle::Default);
    b.edge("verified", "unverified", Handle::Error);
}

/// `reconcile`, the `gate` on its outcome and dispositions, `write` of the
/// synthesis, and `discard` of the artifacts it does not cite.
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
    let mut all = vec![test(
        "reconcile.outcome".into(),
        "eq",
        Some(Value::from("synthesize")),
    )];
    all.extend(spec.units.iter().map(|u| {
        test(
            format!("reconcile.dispositions.{}.disposition", u.slug),
            "exists",
            None,
        )
    }));
    branch(
        b,
        "gate",
        "reconciliation",
        obj([("all", Value::Array(all))]),
    );
    b.call(
        "write",
        "synthesis",
        "write_synthesis",
        obj([
            ("path", spec.synthesis.clone()),
            ("content", rf("reconcile", Some("synthesis"), parallel)),
            ("cites", rf("reconcile", Some("cites"), parallel)),
            (
                "dispositions",
                rf("reconcile", Some("dispositions"), parallel),
            ),
        ]),
        Value::Array(Vec::new()),
        Value::Array(vec![claim("artifacts", spec.synthesis.clone(), "create")]),
        false,
        "fail",
    );
    let outputs: Vec<Value> = spec.units.iter().map(|u| u.output.clone()).collect();
    b.call(
        "discard",
        "synthesis",
        "remove_artifacts",
        obj([
            ("paths", Value::Array(outputs.clone())),
            ("keep", rf("reconcile", Some("cites"), parallel)),
        ]),
        Value::Array(Vec::new()),
        Value::Array(
            outputs
                .into_iter()
                .map(|o| claim("artifacts", o, "delete"))
                .collect(),
        ),
        true,
        "fail",
    );
}

/// A `report_failure` call: the Output contract's failure fields.
#[allow(clippy::too_many_arguments)]
fn report(
    b: &mut Builder,
    id: &str,
    class: Value,
    units: Value,
    criteria: Value,
    rollback: &str,
    detail: Value,
    extra: Vec<(&str, Value)>,
) {
    let mut args = Map::new();
    args.insert("failureClass".into(), class);
    args.insert("units".into(), units);
    args.insert("failedCriteria".into(), criteria);
    args.insert("rollbackState".into(), Value::from(rollback));
    args.insert("detail".into(), detail);
    for (k, v) in extra {
        args.insert(k.into(), v);
    }
    b.call(
        id,
        "failure",
        "report_failure",
        Value::Object(args),
        Value::Array(Vec::new()),
        Value::Array(vec![claim("report", Value::from("owner"), "create")]),
        false,
        "omit",
    );
}

/// Per unit, `{<slug>: <ref to verify_<slug>.<field>>}`.
fn per_unit(units: &[Unit], field: &str) -> Value {
    Value::Object(
        units
            .iter()
            .map(|u| {
                (
                    u.slug.clone(),
                    rf(&format!("verify_{}", u.slug), Some(field), false),
                )
            })
            .collect(),
    )
}

/// Per unit, by its task name: `{verdict, failedCriteria}` of its
/// verification, so a failure report names each failed unit beside what
/// failed (a unit failed unless its verdict is "pass" with no failed
/// criterion; one with neither errored, see `arrivals`).
fn unit_results(units: &[Unit]) -> Value {
    Value::Object(
        units
            .iter()
            .map(|u| {
                let verify = format!("verify_{}", u.slug);
                (
                    u.name.clone(),
                    obj([
                        ("verdict", rf(&verify, Some("verdict"), false)),
                        ("failedCriteria", rf(&verify, Some("failedCriteria"), false)),
                    ]),
                )
            })
            .collect(),
    )
}

/// The failure paths: `lost_<u>` and `fail_<u>` per unit, `landing` and
/// `unverified` (parallel), `report` (a failed reconciliation), `unwrite`,
/// `rollback` and `rollback_stuck` (a failed write).
fn failures(b: &mut Builder, spec: &Spec) {
    let parallel = spec.parallel();
    let units = &spec.units;
    // In a parallel plan a unit's errors settle at the join instead (see
    // `unit`), so only a chain has a report per unit.
    if !parallel {
        for k in 0..units.len() {
            unit_reports(b, units, k);
        }
    }
    if parallel {
        let key = arrival_key(b, units);
        for (id, class, detail) in [
            (
                "landing",
                "partial landing",
                "Some units verified and some did not: `unitResults` names every unit with its verdict and failed criteria, so both sets (a unit is landed when its verdict is \"pass\" with no failed criterion; every other unit failed), and a unit with neither errored before its verification completed: `arrivals` (the join's arrivals, read through `arrivalKey`) names the step that errored. The verified artifacts are kept as evidence; nothing is merged, and no synthesis is written or presented as complete.",
            ),
            (
                "unverified",
                "non-convergence",
                "No unit passed owner verification: every unit failed and is named in `failedUnits`, with its verdict and failed criteria in `unitResults`, and a unit with none errored before its verification completed (`arrivals`, read through `arrivalKey`, names the step); no synthesis is written.",
            ),
        ] {
            let mut extra = vec![
                ("verdicts", per_unit(units, "verdict")),
                ("arrivals", join_arrivals()),
                ("arrivalKey", key.clone()),
                ("unitResults", unit_results(units)),
            ];
            // Reached when no unit verified (or the gate itself errored,
            // so none is confirmed verified): every unit is a failed one.
            if id == "unverified" {
                extra.push(("failedUnits", names(units)));
            }
            report(
                b,
                id,
                Value::from(class),
                names(units),
                per_unit(units, "failedCriteria"),
                NOTHING_TO_ROLL_BACK,
                Value::from(detail),
                extra,
            );
        }
    }
    report(
        b,
        "report",
        rf("reconcile", Some("outcome"), parallel),
        names(units),
        strs(&RECONCILE_CRITERIA),
        NOTHING_TO_ROLL_BACK,
        rf("reconcile", Some("report"), parallel),
        vec![(
            "dispositions",
            rf("reconcile", Some("dispositions"), parallel),
        )],
    );
    // On reconcile's own error path it gave no output: the class, the
    // units (the unprocessed set) and the detail are literal.
    report(
        b,
        "unreconciled",
        Value::from(UNRECONCILED_CLASS),
        names(units),
        strs(&RECONCILE_CRITERIA),
        NOTHING_TO_ROLL_BACK,
        Value::from(UNRECONCILED),
        vec![("step", Value::from("reconcile"))],
    );
    b.call(
        "unwrite",
        "failure",
        "remove_artifacts",
        obj([("paths", Value::Array(vec![spec.synthesis.clone()]))]),
        Value::Array(Vec::new()),
        Value::Array(vec![claim("artifacts", spec.synthesis.clone(), "delete")]),
        true,
        "fail",
    );
    for (id, state) in [
        ("rollback", ROLLED_BACK),
        ("rollback_stuck", ROLLBACK_STUCK),
    ] {
        report(
            b,
            id,
            Value::from("rollback"),
            names(units),
            strs(&["the synthesis is written whole to its path"]),
            state,
            Value::from(
                "Writing the synthesis failed part-way, so the partial synthesis is removed and the run resumes at seed step 6 (owner-verify every artifact), then reconciliation (step 7) gives every unit a disposition before anything is written again.",
            ),
            vec![("path", spec.synthesis.clone())],
        );
    }
}

/// A read of the join's output: one item per arrival (`via`, `from`,
/// `branch`), so where each unit's branch ended.
fn join_arrivals() -> Value {
    Value::from(Ref {
        node: "join".into(),
        select: Select::Index(0),
        path: None,
        branch_id: None,
    })
}

/// Per incoming edge of the join (its id, as the join's arrivals give it in
/// `via`): the unit whose branch it ends, and how the branch ended there —
/// its verification completed, or the step that errored.
fn arrival_key(b: &Builder, units: &[Unit]) -> Value {
    let mut key = Map::new();
    for e in b.edges.iter().filter(|e| e.to == "join") {
        let Some(u) = units.iter().find(|u| {
            ["spawn_", "read_", "verify_"]
                .iter()
                .any(|p| e.from == format!("{p}{}", u.slug))
        }) else {
            continue;
        };
        let mut entry = Map::new();
        entry.insert("unit".into(), Value::from(u.name.as_str()));
        entry.insert("step".into(), Value::from(e.from.as_str()));
        if e.handle == Handle::Error {
            entry.insert(
                "outcome".into(),
                Value::from(format!(
                    "errored: `{}` failed to run, so the unit returned no verified artifact (a failed unit)",
                    e.from
                )),
            );
            // Its verification gave no failed criteria: those the error
            // left unconfirmed are the failed ones.
            let failed = if e.from.starts_with("verify_") {
                unconfirmed()
            } else {
                strs(&["exists"])
            };
            entry.insert("failedCriteria".into(), failed);
        } else {
            entry.insert(
                "outcome".into(),
                Value::from(
                    "verified: its owner verification completed (landed only if `verdicts` says \"pass\" and `failedCriteria` is empty)",
                ),
            );
        }
        key.insert(e.id.clone(), Value::Object(entry));
    }
    Value::Object(key)
}

/// Every one of the six criteria: what an errored verification leaves
/// unconfirmed.
fn unconfirmed() -> Value {
    let names: Vec<&str> = CRITERIA.iter().map(|(n, _)| *n).collect();
    strs(&names)
}

/// `lost_<u>`, `unread_<u>`, `fail_<u>` and `noverdict_<u>` of unit `k` of
/// a chain, which stops at its
/// first failure: the units before it verified, those after it never ran.
/// Both sets are named (partial landing).
fn unit_reports(b: &mut Builder, units: &[Unit], k: usize) {
    let u = &units[k];
    let before: Vec<&str> = units[..k].iter().map(|o| o.name.as_str()).collect();
    let after: Vec<&str> = units[k + 1..].iter().map(|o| o.name.as_str()).collect();
    let extra = || {
        vec![
            ("verifiedUnits", strs(&before)),
            ("unrunUnits", strs(&after)),
        ]
    };
    let landing = if before.is_empty() {
        " Dependent work is stopped: `unrunUnits` never ran."
    } else {
        " This is a partial landing: the units in `verifiedUnits` verified (their artifacts are kept as evidence and never merged), and dependent work is stopped: `unrunUnits` never ran."
    };
    // The spawn or the read of the artifact errored: no artifact, so
    // `exists` failed; each names its step.
    for (id, step, what) in [
        (
            "lost",
            "spawn",
            "its spawn failed to run, so it returned no artifact",
        ),
        (
            "unread",
            "read",
            "the read of its artifact failed, so no artifact reached its verification",
        ),
    ] {
        let mut args = extra();
        args.push(("step", Value::from(format!("{step}_{}", u.slug))));
        report(
            b,
            &format!("{id}_{}", u.slug),
            Value::from("non-convergence"),
            strs(&[u.name.as_str()]),
            strs(&["exists"]),
            NOTHING_TO_ROLL_BACK,
            Value::from(format!(
                "Unit `{}`: {what} (`{step}_{}`): a missing artifact is a failed unit, and no synthesis is written.{landing}",
                u.name, u.slug
            )),
            args,
        );
    }
    report(
        b,
        &format!("fail_{}", u.slug),
        Value::from("non-convergence"),
        strs(&[u.name.as_str()]),
        rf(&format!("verify_{}", u.slug), Some("failedCriteria"), false),
        NOTHING_TO_ROLL_BACK,
        Value::from(format!(
            "Unit `{}`'s artifact failed owner verification: the failed criteria are given, and no synthesis is written.{landing}",
            u.name
        )),
        extra(),
    );
    // The verification itself errored: it returned no verdict and no
    // failed criteria, so none of the six criteria was confirmed.
    let verify = format!("verify_{}", u.slug);
    let mut noverdict = extra();
    noverdict.push(("step", Value::from(verify.as_str())));
    report(
        b,
        &format!("noverdict_{}", u.slug),
        Value::from("non-convergence"),
        strs(&[u.name.as_str()]),
        unconfirmed(),
        NOTHING_TO_ROLL_BACK,
        Value::from(format!(
            "Unit `{}`'s owner verification (`{verify}`) errored and returned no verdict: none of the six criteria was confirmed, so all are given as failed; a unit whose artifact is not verified is a failed unit, and no synthesis is written.{landing}",
            u.name
        )),
        noverdict,
    );
}
