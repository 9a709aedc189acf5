//! Choosing a mechanism (seed 003): each task's coupling is classified,
//! the first matching row of the seed's table is chosen, and the four
//! multi-subagent checks run with their fallbacks (ordered handoffs when a
//! check fails, bounded digests when the artifacts overflow the context).

use super::decomposition::Decomposition;
use crate::model::error::Error;
use crate::model::error::Result;

/// The smallest digest a unit may be cut to when the artifacts must be
/// bounded to fit the budget; below it the decomposition is refused.
pub(crate) const MIN_DIGEST_BYTES: u64 = 256;

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

/// How a task is coupled to the others (seed 003, "Assess coupling").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Coupling {
    Independent,
    Ordered,
    Adversarial,
}

impl Coupling {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Coupling::Independent => "independent",
            Coupling::Ordered => "ordered",
            Coupling::Adversarial => "adversarial",
        }
    }
}

/// Ordered if it needs or is needed; adversarial if it challenges or is
/// challenged; else independent.
pub(crate) fn classify(d: &Decomposition) -> Vec<Coupling> {
    d.tasks
        .iter()
        .map(|t| {
            let needed = d.tasks.iter().any(|o| o.needs.contains(&t.name));
            let challenged = d.tasks.iter().any(|o| o.challenges.contains(&t.name));
            if !t.needs.is_empty() || needed {
                Coupling::Ordered
            } else if !t.challenges.is_empty() || challenged {
                Coupling::Adversarial
            } else {
                Coupling::Independent
            }
        })
        .collect()
}

/// The first matching row of the seed's table, with why; `None` when no row
/// matches.
pub(crate) fn choose(d: &Decomposition) -> (Option<Mechanism>, String) {
    let n = d.tasks.len();
    let any_needs = d.tasks.iter().any(|t| !t.needs.is_empty());
    let any_challenges = d.tasks.iter().any(|t| !t.challenges.is_empty());
    let with_digest = d.tasks.iter().filter(|t| t.digest.is_some()).count();
    let mut roles: Vec<&str> = d.tasks.iter().map(|t| t.role.as_str()).collect();
    roles.sort_unstable();
    roles.dedup();
    let distinct_roles = roles.len() == n;
    if n >= 2 && !any_needs && !any_challenges && with_digest == 0 && distinct_roles {
        return (
            Some(Mechanism::FanOut),
            format!(
                "{n} tasks, none with needs, challenges or a digest, each with its own role: several independent tasks whose results merge"
            ),
        );
    }
    if any_needs {
        return (
            Some(Mechanism::OrderedHandoff),
            "a task needs another's output, so the tasks are ordered".into(),
        );
    }
    if with_digest == n {
        return (
            Some(Mechanism::BoundedDigest),
            format!(
                "every task ({n}) names a digest: each consumes a large input and returns a small digest"
            ),
        );
    }
    if n == 1 {
        return (
            Some(Mechanism::Single),
            "exactly one task: one perspective, one artifact".into(),
        );
    }
    if !distinct_roles {
        return (
            Some(Mechanism::PerUnit),
            format!(
                "{n} tasks share a role among {} role(s): the same role processes several units",
                roles.len()
            ),
        );
    }
    if any_challenges {
        return (
            Some(Mechanism::AdvocateCritic),
            "a task challenges another's evidence or conclusion, so the roles must challenge one another".into(),
        );
    }
    (
        None,
        format!(
            "no row matches: {with_digest} of {n} tasks name a digest (row 3 needs all of them), and the roles are distinct with no needs or challenges"
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
    // 3. The artifacts fit the orchestrator's context (always checked: the
    // reconcile step reads every artifact, in any mechanism).
    let total: u64 = d.tasks.iter().map(|t| t.max_output_bytes).sum();
    let budget = d.context_budget_bytes;
    let overflow = total > budget;
    let checks = vec![
        no_ordering_no_shared_target(d, concurrent),
        distinct_assignments(d, concurrent),
        CheckResult {
            name: "artifacts fit the context budget",
            status: if overflow { "fail" } else { "pass" },
            detail: format!(
                "Σ maxOutputBytes = {total} {} contextBudgetBytes = {budget}",
                if overflow { ">" } else { "≤" }
            ),
        },
        runs_concurrently(n, concurrent),
    ];
    let failed: Vec<&CheckResult> = checks
        .iter()
        .filter(|c| c.status == "fail" && c.name != "artifacts fit the context budget")
        .collect();
    if !failed.is_empty() {
        reductions.push(format!(
            "the check \"{}\" failed ({}), so the units run one at a time as ordered handoffs",
            failed[0].name, failed[0].detail
        ));
        mechanism = Mechanism::OrderedHandoff;
    }
    let mut cap = None;
    if overflow {
        let per = budget / n as u64;
        if per < MIN_DIGEST_BYTES {
            return Err(Error::invalid(format!(
                "context overflow: the {n} tasks' artifacts (Σ maxOutputBytes = {total}) do not fit contextBudgetBytes = {budget}, and even bounded digests would get {per} bytes each, under the {MIN_DIGEST_BYTES} a digest with cited claims needs; the seed stops without a synthesis here"
            ))
            .with_help("raise contextBudgetBytes, or split the decomposition into fewer tasks per orchestration"));
        }
        cap = Some(per);
        if mechanism.concurrent() && mechanism != Mechanism::BoundedDigest {
            reductions.push(format!(
                "context overflow (Σ maxOutputBytes = {total} > {budget}): each unit returns a bounded digest of at most {per} bytes instead (the bounded digest mechanism)"
            ));
            mechanism = Mechanism::BoundedDigest;
        } else {
            reductions.push(format!(
                "context overflow (Σ maxOutputBytes = {total} > {budget}): each unit's artifact is bounded to a digest of at most {per} bytes"
            ));
        }
    }
    Ok(Checked {
        checks,
        mechanism,
        reductions,
        cap,
    })
}

/// A check that does not apply: the units run one at a time.
fn not_applicable(name: &'static str) -> CheckResult {
    CheckResult {
        name,
        status: "n/a",
        detail: "units run one at a time".into(),
    }
}

/// 1. Concurrent tasks neither order nor write one target.
fn no_ordering_no_shared_target(d: &Decomposition, concurrent: bool) -> CheckResult {
    if !concurrent {
        return not_applicable("no ordering, no shared target");
    }
    let n = d.tasks.len();
    let ordered = d.tasks.iter().any(|t| !t.needs.is_empty());
    let mut outputs: Vec<&str> = d.tasks.iter().map(|t| t.output.as_str()).collect();
    outputs.sort_unstable();
    let shared = outputs.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]);
    match (ordered, shared) {
        (false, None) => CheckResult {
            name: "no ordering, no shared target",
            status: "pass",
            detail: format!("no task needs another, and the {n} outputs are distinct"),
        },
        (true, _) => CheckResult {
            name: "no ordering, no shared target",
            status: "fail",
            detail: "a concurrent task needs another's output".into(),
        },
        (false, Some(o)) => CheckResult {
            name: "no ordering, no shared target",
            status: "fail",
            detail: format!("two tasks write `{o}` (contention collision)"),
        },
    }
}

/// 2. A distinct bounded assignment and a named output each.
fn distinct_assignments(d: &Decomposition, concurrent: bool) -> CheckResult {
    if !concurrent {
        return not_applicable("distinct assignments, named outputs");
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
            name: "distinct assignments, named outputs",
            status: "pass",
            detail: format!(
                "{n} distinct assignments (role, goal, input), each with a named output"
            ),
        },
        Some((j, i)) => CheckResult {
            name: "distinct assignments, named outputs",
            status: "fail",
            detail: format!(
                "tasks `{}` and `{}` have the same role, goal and input",
                d.tasks[j].name, d.tasks[i].name
            ),
        },
    }
}

/// 4. At least two units actually run concurrently.
fn runs_concurrently(n: usize, concurrent: bool) -> CheckResult {
    if !concurrent {
        return not_applicable("≥ 2 units run concurrently");
    }
    CheckResult {
        name: "≥ 2 units run concurrently",
        status: "pass",
        detail: format!("{n} units are spawned in one turn and meet at the join"),
    }
}
