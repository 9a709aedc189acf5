//! Choosing a mechanism (seed 003): each task's coupling is classified
//! (stated by the owner, else inferred), the first matching row of the
//! seed's table is chosen on its whole condition, and the four
//! multi-subagent checks run with their fallbacks (ordered handoffs when a
//! check fails, bounded digests when what the orchestrator would hold
//! overflows its context).

pub(crate) use super::decomposition::Coupling;
use super::decomposition::{Decomposition, implicit_order, target};
use crate::model::error::Error;
use crate::model::error::Result;

/// The smallest digest a unit may be cut to when the artifacts must be
/// bounded to fit the budget; below it the decomposition is refused.
pub(crate) const MIN_DIGEST_BYTES: u64 = 256;

/// An input of at most this many bytes (encoded) is a slice's identity and
/// extent (a path, a range, a query): the orchestrator may hold it. A larger
/// input is source text: in the bounded digest mechanism it never enters
/// the plan (it is a run input, named by its SHA-256 and size).
pub(crate) const DESCRIPTOR_BYTES: u64 = crate::check::DESCRIPTOR_BYTES;

/// The bounded mechanisms of seed 003, in the order of its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mechanism {
    FanOut,
    OrderedHandoff,
    BoundedDigest,
    Single,
    PerUnit,
    AdvocateCritic,
}

impl Mechanism {
    /// The rows of the seed's table, in order.
    pub(crate) const ROWS: [Mechanism; 6] = [
        Mechanism::FanOut,
        Mechanism::OrderedHandoff,
        Mechanism::BoundedDigest,
        Mechanism::Single,
        Mechanism::PerUnit,
        Mechanism::AdvocateCritic,
    ];

    pub(crate) fn name(self) -> &'static str {
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
    pub(crate) fn row(self) -> usize {
        Mechanism::ROWS.iter().position(|m| *m == self).unwrap_or(0) + 1
    }

    /// The seed's wording of the mechanism as this plan applies it: a
    /// bounded digest with no slice (every input small, only the artifacts
    /// capped) says so rather than speak of slices.
    pub(crate) fn action_for(self, slices: bool) -> &'static str {
        match self {
            Mechanism::BoundedDigest if !slices => {
                "give each subagent a fixed digest schema and a bounded artifact; every input is small enough to stay in the plan, so there is no source slice to keep out; then reconcile the returned digests"
            }
            other => other.action(),
        }
    }

    /// Whether its units are spawned in one turn and run concurrently.
    pub(crate) fn concurrent(self) -> bool {
        !matches!(self, Mechanism::OrderedHandoff | Mechanism::Single)
    }

    /// The seed's wording of the mechanism.
    pub(crate) fn action(self) -> &'static str {
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

/// A task's coupling and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Classified {
    pub(crate) coupling: Coupling,
    /// `stated` (the owner's pattern-selection criteria) or `inferred`.
    pub(crate) source: &'static str,
}

/// "1 of 2 tasks is", "2 of 2 tasks are".
fn of_tasks(k: usize, n: usize) -> String {
    let tasks = if n == 1 { "task" } else { "tasks" };
    let verb = if k == 1 { "is" } else { "are" };
    format!("{k} of {n} {tasks} {verb}")
}

/// What a chain of stated-ordered tasks (no `needs`) does with each task:
/// the tasks run one at a time in declaration order; a stated-ordered task
/// after the first takes the verified handoff of the task declared before
/// it; the first, and any task not stated ordered, keeps its own input.
fn stated_chain(d: &Decomposition) -> String {
    let parts: Vec<String> = d
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| match (i, t.coupling) {
            (0, _) => format!("`{}` runs first on its own input", t.name),
            (_, Some(Coupling::Ordered)) => format!(
                "`{}` takes the verified handoff of `{}`",
                t.name,
                d.tasks[i - 1].name
            ),
            _ => format!("`{}` keeps its own input", t.name),
        })
        .collect();
    let mut list = parts.iter().take(8).cloned().collect::<Vec<_>>().join(", ");
    if parts.len() > 8 {
        list.push_str(&format!(" … and {} more", parts.len() - 8));
    }
    format!("stated ordered, so the tasks run one at a time in declaration order: {list}")
}

/// Per task, the tasks whose output it needs: its `needs`, or — stated
/// ordered without `needs` — the task declared before it.
pub(crate) fn needs_of(d: &Decomposition) -> Vec<Vec<usize>> {
    let index = |name: &str| d.tasks.iter().position(|t| t.name == name);
    d.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if t.needs.is_empty() && t.coupling == Some(Coupling::Ordered) && i > 0 {
                vec![i - 1]
            } else {
                t.needs.iter().filter_map(|n| index(n)).collect()
            }
        })
        .collect()
}

/// Each task's coupling: the stated one, else ordered if it needs or is
/// needed, adversarial if it challenges or is challenged, independent
/// otherwise.
pub(crate) fn classify(d: &Decomposition) -> Vec<Classified> {
    let needs = needs_of(d);
    d.tasks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if let Some(c) = t.coupling {
                return Classified {
                    coupling: c,
                    source: "stated",
                };
            }
            let needed = needs.iter().any(|n| n.contains(&i));
            let challenged = d.tasks.iter().any(|o| o.challenges.contains(&t.name));
            let coupling = if !needs[i].is_empty() || needed {
                Coupling::Ordered
            } else if !t.challenges.is_empty() || challenged {
                Coupling::Adversarial
            } else {
                Coupling::Independent
            };
            Classified {
                coupling,
                source: "inferred",
            }
        })
        .collect()
}

/// The first matching row of the seed's table, each matched on its whole
/// condition, with why; `None` when no row matches.
pub(crate) fn choose(d: &Decomposition, c: &[Classified]) -> (Option<Mechanism>, String) {
    let n = d.tasks.len();
    let count = |k: Coupling| c.iter().filter(|x| x.coupling == k).count();
    let (independent, ordered, adversarial) = (
        count(Coupling::Independent),
        count(Coupling::Ordered),
        count(Coupling::Adversarial),
    );
    let all_independent = independent == n;
    let with_digest = d.tasks.iter().filter(|t| t.digest.is_some()).count();
    // Row 3 on its whole condition: every task independent, consuming a
    // large input (more than a slice's identity and extent) and returning a
    // small digest.
    let large = |t: &super::decomposition::Task| input_bytes(&t.input) > DESCRIPTOR_BYTES;
    let digest_row = all_independent && d.tasks.iter().all(|t| t.digest.is_some() && large(t));
    let mut roles: Vec<&str> = d.tasks.iter().map(|t| t.role.as_str()).collect();
    roles.sort_unstable();
    roles.dedup();
    let distinct_roles = roles.len() == n;
    if n >= 2 && all_independent && distinct_roles && !digest_row {
        let digests = if with_digest == 0 {
            "none naming a digest".to_string()
        } else {
            format!(
                "{with_digest} naming a digest, but not every task consumes a large input (over {DESCRIPTOR_BYTES} bytes) and returns a digest, so row 3 does not match"
            )
        };
        return (
            Some(Mechanism::FanOut),
            format!(
                "{n} independent tasks, each with its own role, {digests}: several independent tasks whose results merge"
            ),
        );
    }
    if ordered > 0 {
        return (
            Some(Mechanism::OrderedHandoff),
            format!(
                "{} ordered ({})",
                of_tasks(ordered, n),
                if d.tasks.iter().any(|t| !t.needs.is_empty()) {
                    "one needs another's output".to_string()
                } else {
                    stated_chain(d)
                }
            ),
        );
    }
    if digest_row {
        let smallest = d
            .tasks
            .iter()
            .map(|t| input_bytes(&t.input))
            .min()
            .unwrap_or(0);
        return (
            Some(Mechanism::BoundedDigest),
            format!(
                "every task ({n}) is independent, consumes a large input (the smallest is {smallest} bytes, over {DESCRIPTOR_BYTES}) and names a digest: each consumes a large input and returns a small digest"
            ),
        );
    }
    if n == 1 {
        return (
            Some(Mechanism::Single),
            "exactly one task: one perspective, one artifact".into(),
        );
    }
    if all_independent && !distinct_roles {
        return (
            Some(Mechanism::PerUnit),
            format!(
                "{n} independent tasks share a role among {} role(s): the same independent role processes several units",
                roles.len()
            ),
        );
    }
    if adversarial > 0 {
        return (
            Some(Mechanism::AdvocateCritic),
            format!(
                "{} adversarial: the roles must challenge one another",
                of_tasks(adversarial, n)
            ),
        );
    }
    (
        None,
        format!(
            "no row matches: the {n} tasks are independent with distinct roles, but only {with_digest} of them name a digest (row 3 needs all of them, row 1 none)"
        ),
    )
}

/// One of the seed's four multi-subagent checks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CheckResult {
    pub(crate) name: &'static str,
    /// `pass`, `fail` or `n/a`.
    pub(crate) status: &'static str,
    pub(crate) detail: String,
}

/// What the checks decided.
#[derive(Debug, Clone)]
pub(crate) struct Checked {
    pub(crate) checks: Vec<CheckResult>,
    /// The mechanism the plan uses, after the checks' fallbacks.
    pub(crate) mechanism: Mechanism,
    /// Each fallback taken, saying which check failed.
    pub(crate) reductions: Vec<String>,
    /// The bound on every unit's artifact when the artifacts overflow the
    /// context budget.
    pub(crate) cap: Option<u64>,
    /// Per task: the artifact it writes (its `output`, or a separate
    /// artifact when it would write another's target).
    pub(crate) outputs: Vec<String>,
    /// Per task: the tasks whose verified handoff it takes (one at a time
    /// only).
    pub(crate) needs: Vec<Vec<usize>>,
    /// Per task: its input is source text kept out of the plan (a run
    /// input named by its identity), with a digest schema.
    pub(crate) sliced: Vec<bool>,
}

const CHECK_1: &str = "no ordering, no shared target";
const CHECK_2: &str = "distinct assignments, named outputs";
const CHECK_3: &str = "what the orchestrator holds fits its context budget";
const CHECK_4: &str = "parallelism is worth it";

/// A target as a file system may see it (`A.md` and `a.md`, NFC and NFD
/// `é`, `a.md` and `a.md.` are one file on macOS or Windows), so they
/// collide: the key `contention_collision` compares targets by.
fn same_file(path: &str) -> String {
    crate::check::contention_collision::same_file(path)
}

/// `dir/name.ext` → `dir/name.<tag>.ext`. A name's trailing dots and
/// spaces, which Windows drops, are dropped first (`a.md.` → `a.<tag>.md`,
/// not `a.md.<tag>.`).
fn separate(path: &str, tag: &str) -> String {
    let (dir, file) = match path.rfind('/') {
        Some(i) => (&path[..=i], &path[i + 1..]),
        None => ("", path),
    };
    let trimmed = file.trim_end_matches(['.', ' ']);
    let file = if trimmed.is_empty() { file } else { trimmed };
    match file.rfind('.') {
        Some(i) if i > 0 => format!("{dir}{}.{tag}{}", &file[..i], &file[i..]),
        _ => format!("{dir}{file}.{tag}"),
    }
}

/// A file-name-safe tag for a task name.
fn tag(name: &str) -> String {
    let t: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let t = t.trim_matches('-').to_string();
    if t.is_empty() { "task".into() } else { t }
}

/// The encoded size of a task's input.
pub(crate) fn input_bytes(v: &crate::model::Value) -> u64 {
    match v {
        crate::model::Value::String(s) => s.len() as u64,
        other => crate::wire::json::compact(other).len() as u64,
    }
}

/// Contention: the artifacts, each task writing its own (every task of
/// those writing one target, and a task writing the synthesis, gets a
/// separate artifact: the seed reruns the colliding units "with separate
/// artifacts", and the shared target stays as it was before the run), and
/// the collisions found (task, what it collided with).
fn artifacts(d: &Decomposition) -> (Vec<String>, Vec<(usize, String)>) {
    // Every declared target: a separate artifact collides with none of them.
    let declared: Vec<String> = std::iter::once(same_file(&d.synthesis))
        .chain(d.tasks.iter().map(|t| same_file(&t.output)))
        .collect();
    let mut chosen: Vec<String> = Vec::new();
    let mut outputs = Vec::new();
    let mut collisions = Vec::new();
    for (i, t) in d.tasks.iter().enumerate() {
        let mine = same_file(&t.output);
        let with = if mine == declared[0] {
            Some(format!("the synthesis `{}`", d.synthesis))
        } else {
            d.tasks
                .iter()
                .enumerate()
                .find(|&(j, o)| j != i && same_file(&o.output) == mine)
                .map(|(_, o)| format!("task `{}` (`{}`)", o.name, o.output))
        };
        match with {
            Some(with) => {
                let mut out = separate(&target(&t.output), &tag(&t.name));
                let mut n = 2;
                while declared.contains(&same_file(&out)) || chosen.contains(&same_file(&out)) {
                    out = separate(&target(&t.output), &format!("{}-{n}", tag(&t.name)));
                    n += 1;
                }
                collisions.push((i, with));
                chosen.push(same_file(&out));
                outputs.push(out);
            }
            None => {
                chosen.push(mine);
                outputs.push(t.output.clone());
            }
        }
    }
    (outputs, collisions)
}

/// Runs the four checks on the matched row's mechanism (ordered handoffs
/// when no row matched) and takes their fallbacks; refuses a decomposition
/// whose artifacts do not fit even as bounded digests.
pub(crate) fn check(d: &Decomposition, matched: Option<Mechanism>) -> Result<Checked> {
    let n = d.tasks.len();
    let mut mechanism = matched.unwrap_or(Mechanism::OrderedHandoff);
    let mut reductions = Vec::new();
    if matched.is_none() {
        reductions.push(
            "no row of the seed's table matches, so the units run one at a time as ordered handoffs"
                .to_string(),
        );
    }
    let concurrent = mechanism.concurrent() && n >= 2;
    let (outputs, collisions) = artifacts(d);
    let implicit = implicit_order(d);
    let mut checks = vec![
        no_ordering_no_shared_target(d, concurrent, &implicit, &collisions),
        distinct_assignments(d, concurrent),
        CheckResult {
            name: CHECK_3,
            status: "pass",
            detail: String::new(),
        },
        worth_it(d, concurrent),
    ];
    let mut needs = needs_of(d);
    if let Some(failed) = checks.iter().find(|c| c.status == "fail") {
        reductions.push(format!(
            "the check \"{}\" failed ({}), so the units run one at a time as ordered handoffs",
            failed.name, failed.detail
        ));
        mechanism = Mechanism::OrderedHandoff;
        if matched == Some(Mechanism::AdvocateCritic) {
            reductions.push(
                "the advocate and critic still challenge one another: each keeps its claim-evidence-objection records, and reconciliation resolves each objection against the evidence it cites; only spawning them in one turn is lost"
                    .to_string(),
            );
        }
        // The checks that passed no longer describe the plan: say so.
        for c in checks.iter_mut().filter(|c| c.status == "pass") {
            c.detail = format!(
                "{}; but after the fallback the units run one at a time",
                c.detail
            );
        }
        for &(i, j) in &implicit {
            if !needs[i].contains(&j) {
                needs[i].push(j);
            }
        }
    }
    for (i, with) in &collisions {
        // A collision with the synthesis: that file is replaced, by the
        // synthesis write alone (one file on a case-insensitive system).
        let shared = if same_file(&d.tasks[*i].output) == same_file(&d.synthesis) {
            "no unit writes the shared target; only the synthesis write (`write`) replaces it, with the reconciled synthesis"
        } else {
            "no unit writes the shared target, which stays as it was before the run"
        };
        reductions.push(format!(
            "contention collision: task `{}` would write `{}`, as {with} does; it writes the separate artifact `{}` instead; {shared}",
            d.tasks[*i].name, d.tasks[*i].output, outputs[*i]
        ));
    }
    let (sliced, cap) = fit(d, &mut mechanism, &mut checks[2], &mut reductions)?;
    Ok(Checked {
        checks,
        mechanism,
        reductions,
        cap,
        outputs,
        needs,
        sliced,
    })
}

/// What the orchestrator holds for task `i`: its artifact, and the texts
/// its verify and reconcile steps embed — the input unless it is kept out
/// of the plan, the goal, the done predicate, the digest schema, the output
/// path and the name.
fn held(d: &Decomposition, i: usize, sliced: bool) -> (u64, u64) {
    let t = &d.tasks[i];
    let input = if sliced { 0 } else { input_bytes(&t.input) };
    let texts =
        (t.goal.len() + t.done.as_ref().map_or(0, String::len) + t.output.len() + t.name.len())
            as u64
            + t.digest.as_ref().map_or(0, input_bytes);
    (t.max_output_bytes, input + texts)
}

/// Check 3 and the seed's context-overflow recovery: the artifacts, and the
/// inputs the verify steps embed, must fit `contextBudgetBytes`; otherwise
/// each large-input unit becomes a bounded digest whose source stays out of
/// the plan, and if that is not enough every artifact is capped.
fn fit(
    d: &Decomposition,
    mechanism: &mut Mechanism,
    check: &mut CheckResult,
    reductions: &mut Vec<String>,
) -> Result<(Vec<bool>, Option<u64>)> {
    let n = d.tasks.len();
    let budget = d.context_budget_bytes;
    let large: Vec<bool> = (0..n)
        .map(|i| input_bytes(&d.tasks[i].input) > DESCRIPTOR_BYTES)
        .collect();
    let names = |pick: &dyn Fn(usize) -> bool| -> String {
        let v: Vec<String> = (0..n)
            .filter(|&i| pick(i))
            .map(|i| format!("`{}`", d.tasks[i].name))
            .collect();
        v.join(", ")
    };
    // A digest the owner declared on a large input is honoured whatever the
    // budget: that unit gets only its slice and returns the digest.
    let declared: Vec<bool> = (0..n)
        .map(|i| large[i] && d.tasks[i].digest.is_some())
        .collect();
    let mut sliced: Vec<bool> = if *mechanism == Mechanism::BoundedDigest {
        large.clone()
    } else {
        declared.clone()
    };
    if *mechanism != Mechanism::BoundedDigest && declared.iter().any(|x| *x) {
        reductions.push(format!(
            "declared digest: {} {} a digest of a large input (over {DESCRIPTOR_BYTES} bytes), so, as the owner declared, each gets only its slice, kept out of the plan and named by its identity, and returns that digest (the bounded digest treatment), whether or not the rest fits the context budget",
            names(&|i| declared[i]),
            if declared.iter().filter(|x| **x).count() == 1 { "declares" } else { "declare" }
        ));
    }
    same_evidence(d, &large, &mut sliced, reductions);
    let total = |sliced: &[bool]| -> (u64, u64) {
        (0..n).fold((0, 0), |(a, b), i| {
            let (x, y) = held(d, i, sliced[i]);
            (a + x, b + y)
        })
    };
    let (artifacts, inputs) = total(&sliced);
    let overflow = artifacts + inputs > budget;
    check.status = if overflow { "fail" } else { "pass" };
    check.detail = format!(
        "artifacts Σ maxOutputBytes = {artifacts} + texts the verify steps hold (inputs, goals, done predicates, digest schemas, paths) = {inputs} {} contextBudgetBytes = {budget}",
        if overflow { ">" } else { "≤" }
    );
    if !overflow {
        return Ok((sliced, None));
    }
    if large.iter().zip(&sliced).any(|(l, s)| *l && !*s) {
        let to = if *mechanism == Mechanism::AdvocateCritic {
            "bounded digests that keep the advocate/critic mechanism (the claim-evidence-objection records, and reconciliation resolving each objection against the cited evidence)"
        } else if mechanism.concurrent() {
            *mechanism = Mechanism::BoundedDigest;
            "the bounded digest mechanism"
        } else if n == 1 {
            "a bounded digest"
        } else {
            "bounded digests, keeping their order"
        };
        reductions.push(format!(
            "context overflow ({} > {budget} bytes held): the large-input unit(s) {} switch to {to}: each gets only its slice, kept out of the plan and named by its identity, and returns a digest",
            artifacts + inputs,
            names(&|i| large[i] && !sliced[i])
        ));
        for i in 0..n {
            sliced[i] |= large[i];
        }
    }
    same_evidence(d, &large, &mut sliced, reductions);
    let (artifacts, inputs) = total(&sliced);
    if artifacts + inputs <= budget {
        return Ok((sliced, None));
    }
    let per = budget.saturating_sub(inputs) / n as u64;
    if per < MIN_DIGEST_BYTES {
        return Err(Error::invalid(format!(
            "context overflow: what the orchestrator would hold for the {n} tasks (artifacts {artifacts} + texts {inputs} bytes: inputs, goals, done predicates, digest schemas, paths) does not fit contextBudgetBytes = {budget}, and even bounded digests would get {per} bytes each, under the {MIN_DIGEST_BYTES} a digest with cited claims needs; the seed stops without a synthesis here, and the unprocessed set is every task: {}",
            names(&|_| true)
        ))
        .with_help("raise contextBudgetBytes, shorten the goals and done predicates, or split the decomposition into fewer tasks per orchestration"));
    }
    if *mechanism == Mechanism::AdvocateCritic {
        reductions.push(format!(
            "context overflow (Σ maxOutputBytes = {artifacts} > {} bytes left for artifacts): each unit's claim-evidence-objection records are bounded to at most {per} bytes; the advocate/critic challenge and the objection resolution are kept",
            budget.saturating_sub(inputs)
        ));
    } else if mechanism.concurrent() && *mechanism != Mechanism::BoundedDigest {
        *mechanism = Mechanism::BoundedDigest;
        reductions.push(format!(
            "context overflow (Σ maxOutputBytes = {artifacts} > {} bytes left for artifacts): each unit returns a bounded digest of at most {per} bytes instead (the bounded digest mechanism)",
            budget.saturating_sub(inputs)
        ));
    } else {
        reductions.push(format!(
            "context overflow (Σ maxOutputBytes = {artifacts} > {} bytes left for artifacts): each unit's artifact is bounded to a digest of at most {per} bytes",
            budget.saturating_sub(inputs)
        ));
    }
    Ok((sliced, Some(per)))
}

/// Slices every large input byte-identical to a sliced one: units given
/// the same evidence (an advocate and its critic, a fan-out over one
/// source, a chain over one input) read it from the same slice, so the
/// source text stays out of the plan for all of them, not only for the
/// one that declared a digest.
fn same_evidence(
    d: &Decomposition,
    large: &[bool],
    sliced: &mut [bool],
    reductions: &mut Vec<String>,
) {
    let n = d.tasks.len();
    let mut added = Vec::new();
    for i in 0..n {
        if !large[i] || sliced[i] {
            continue;
        }
        if let Some(j) = (0..n).find(|&j| sliced[j] && d.tasks[j].input == d.tasks[i].input) {
            added.push(format!(
                "`{}` (the same input as `{}`)",
                d.tasks[i].name, d.tasks[j].name
            ));
        }
    }
    if added.is_empty() {
        return;
    }
    for i in 0..n {
        if large[i]
            && !sliced[i]
            && (0..n).any(|j| sliced[j] && d.tasks[j].input == d.tasks[i].input)
        {
            sliced[i] = true;
        }
    }
    reductions.push(format!(
        "same evidence: {} {} a large input byte-identical to a sliced one, so {} it from the same slice (kept out of the plan, named by its identity) and {} a digest of it",
        added.join(", "),
        if added.len() == 1 { "has" } else { "have" },
        if added.len() == 1 { "it reads" } else { "they read" },
        if added.len() == 1 { "returns" } else { "return" },
    ));
}

/// A check that does not apply: the units run one at a time.
fn not_applicable(name: &'static str) -> CheckResult {
    CheckResult {
        name,
        status: "n/a",
        detail: "units run one at a time".into(),
    }
}

/// Check 1: concurrent tasks neither order (no `needs`, and no input
/// naming another task's output) nor write one target; reads and writes
/// are both compared by `contention_collision::same_file`.
fn no_ordering_no_shared_target(
    d: &Decomposition,
    concurrent: bool,
    implicit: &[(usize, usize)],
    collisions: &[(usize, String)],
) -> CheckResult {
    if !concurrent {
        return not_applicable(CHECK_1);
    }
    let n = d.tasks.len();
    if let Some(&(i, j)) = implicit.first() {
        return CheckResult {
            name: CHECK_1,
            status: "fail",
            detail: format!(
                "task `{}` reads `{}`, the output of task `{}`: an ordering dependency",
                d.tasks[i].name, d.tasks[j].output, d.tasks[j].name
            ),
        };
    }
    if let Some((i, with)) = collisions.first() {
        return CheckResult {
            name: CHECK_1,
            status: "fail",
            detail: format!(
                "task `{}` and {with} write one target (contention collision)",
                d.tasks[*i].name
            ),
        };
    }
    CheckResult {
        name: CHECK_1,
        status: "pass",
        detail: format!(
            "no task needs another or reads another's output, and the {n} outputs are distinct targets"
        ),
    }
}

/// Check 2: a distinct bounded assignment and a named output each.
fn distinct_assignments(d: &Decomposition, concurrent: bool) -> CheckResult {
    if !concurrent {
        return not_applicable(CHECK_2);
    }
    let n = d.tasks.len();
    let mut same = None;
    'outer: for i in 0..n {
        for j in 0..i {
            let (a, b) = (&d.tasks[i], &d.tasks[j]);
            if a.role == b.role && a.goal == b.goal && a.input == b.input {
                same = Some((j, i));
                break 'outer;
            }
        }
    }
    match same {
        None => CheckResult {
            name: CHECK_2,
            status: "pass",
            detail: format!(
                "{n} distinct assignments (role, goal, input), each with a named output"
            ),
        },
        Some((j, i)) => CheckResult {
            name: CHECK_2,
            status: "fail",
            detail: format!(
                "tasks `{}` and `{}` have the same role, goal and input",
                d.tasks[j].name, d.tasks[i].name
            ),
        },
    }
}

/// Check 4: parallel execution is worth the extra runs when every unit can
/// be spawned in the one turn (the owner's `maxConcurrent` allows it), so
/// the elapsed time drops from n unit runs to one and each unit keeps its
/// own context.
fn worth_it(d: &Decomposition, concurrent: bool) -> CheckResult {
    if !concurrent {
        return not_applicable(CHECK_4);
    }
    let n = d.tasks.len() as u64;
    match d.max_concurrent {
        Some(k) if k < n => CheckResult {
            name: CHECK_4,
            status: "fail",
            detail: format!(
                "maxConcurrent = {k} < {n} units: they cannot all be spawned in one turn, and the seed has no waves, so running them concurrently does not buy the elapsed time it costs"
            ),
        },
        _ => CheckResult {
            name: CHECK_4,
            status: "pass",
            detail: format!(
                "{n} units spawned in one turn: elapsed time of about one unit run instead of {n}, each in its own context"
            ),
        },
    }
}
