//! Orchestration patterns (SPEC §9, seed 003): a task decomposition becomes
//! a plan. Each task's coupling is classified (ordered / adversarial /
//! independent); one bounded mechanism is chosen, the first matching row of
//! the seed's table; the four multi-subagent checks run, with their
//! fallbacks; depth stays 1; and [`emit`] builds the plan.

pub mod emit;

pub use emit::Mechanism;

use crate::model::error::Error;
use crate::model::error::Location;
use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::model::value::push_pointer_token;
use crate::model::{Content, Map, Value};
use crate::wire::codec;
use crate::wire::parse::{ParseError, Syntax};
use indexmap::IndexMap;

/// Per-task `maxOutputBytes` when the decomposition gives none.
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 8192;
/// `contextBudgetBytes` when the decomposition gives none.
pub const DEFAULT_CONTEXT_BUDGET: u64 = 200_000;
/// The smallest digest a unit may be cut to when the artifacts must be
/// bounded to fit the budget; below it the decomposition is refused.
pub const MIN_DIGEST_BYTES: u64 = 256;
/// The tool a subagent is spawned with (always treated as spawning).
pub const SPAWN_TOOL: &str = "spawn_subagent";

#[derive(Debug, Clone, PartialEq)]
pub struct Role {
    pub instructions: String,
    pub tools: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    pub name: String,
    pub role: String,
    pub goal: String,
    pub input: Value,
    pub output: String,
    pub done: Option<String>,
    pub needs: Vec<String>,
    pub challenges: Vec<String>,
    pub digest: Option<Value>,
    pub max_output_bytes: u64,
}

/// A task decomposition (the input of `orchestrate`).
#[derive(Debug, Clone, PartialEq)]
pub struct Decomposition {
    pub roles: IndexMap<String, Role>,
    pub tasks: Vec<Task>,
    pub synthesis: String,
    pub context_budget_bytes: u64,
}

/// The most tasks one decomposition may list.
pub const MAX_TASKS: usize = 256;

const TOP_KEYS: [&str; 4] = ["roles", "tasks", "synthesis", "contextBudgetBytes"];
const ROLE_KEYS: [&str; 2] = ["instructions", "tools"];
const TASK_KEYS: [&str; 10] = [
    "name",
    "role",
    "goal",
    "input",
    "output",
    "done",
    "needs",
    "challenges",
    "digest",
    "maxOutputBytes",
];

fn child(at: &str, key: &str) -> String {
    let mut p = at.to_string();
    p.push('/');
    push_pointer_token(&mut p, key);
    p
}

fn closed(m: &Map, at: &str, what: &str, allowed: &[&str]) -> Result<(), ParseError> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            let hint = crate::model::suggest::did_you_mean(k, allowed.iter().copied());
            return Err(codec::error(
                &child(at, k),
                format!(
                    "{what} has the unknown key `{k}`{hint}; allowed keys: {}",
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn string(v: &Value, at: &str, what: &str) -> Result<String, ParseError> {
    v.as_str().map(str::to_string).ok_or_else(|| {
        codec::error(
            at,
            format!("{what} must be a string, not {}", v.type_name()),
        )
    })
}

fn positive(v: &Value, at: &str, what: &str) -> Result<u64, ParseError> {
    match v.as_u64() {
        Some(n) if n >= 1 => Ok(n),
        _ => Err(codec::error(
            at,
            format!(
                "{what} must be an integer ≥ 1, not {}",
                crate::wire::json::compact(v)
            ),
        )),
    }
}

/// A literal value: the decomposition holds no references or holes.
fn literal(v: &Value, at: &str, what: &str) -> Result<Value, ParseError> {
    let mut bad = None;
    v.walk(&mut crate::model::value::Pointer::new(at), &mut |p, x| {
        if bad.is_none() && matches!(x, Value::Ref(_) | Value::Param(_)) {
            bad = Some(p.to_string());
        }
    });
    match bad {
        Some(p) => Err(codec::error(
            &p,
            format!(
                "{what} holds a `$ref` or `$param`; a decomposition is literal (`orchestrate` writes the references between units itself)"
            ),
        )),
        None => Ok(v.clone()),
    }
}

/// One task name or a list of them (`needs`, `challenges`).
fn names(v: &Value, at: &str, what: &str) -> Result<Vec<String>, ParseError> {
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .map(|(i, x)| string(x, &format!("{at}/{i}"), what))
            .collect(),
        other => Err(codec::error(
            at,
            format!(
                "{what} must be a task name or a list of task names, not {}",
                other.type_name()
            ),
        )),
    }
}

/// A refusal that names a task (exit 2), located at its entry in `tasks`.
fn refuse_task(index: usize, message: String, help: &str) -> Error {
    Error::invalid(message)
        .with_help(help.to_string())
        .at(Location {
            pointer: Some(format!("/tasks/{index}")),
            ..Location::default()
        })
}

/// Reads a decomposition: shape errors are located parse errors; tasks the
/// seed cannot run (unknown role, a `needs` cycle, no goal or output, two
/// tasks writing one output…) are refused naming the task.
pub fn parse(text: &str, syntax: Syntax, file: &str) -> Result<Decomposition> {
    let located = |e: ParseError| e.into_error(Some(file)).with_source(file, text.to_string());
    let v = crate::wire::parse::parse(text, syntax).map_err(located)?;
    let v = crate::wire::convert::hydrated(v, "").map_err(located)?;
    let d = shape(&v).map_err(located)?;
    validate(&d).map_err(|e| {
        let loc = e.location.clone().map(|l| Location {
            file: Some(file.to_string()),
            ..*l
        });
        match loc {
            Some(l) => e.at(l).with_source(file, text.to_string()),
            None => e,
        }
    })?;
    Ok(d)
}

fn shape(v: &Value) -> Result<Decomposition, ParseError> {
    let m = codec::object(v, "", "a decomposition")?;
    closed(m, "", "a decomposition", &TOP_KEYS)?;
    let mut roles = IndexMap::new();
    match m.get("roles") {
        Some(Value::Object(rs)) => {
            for (name, r) in rs {
                let at = child("/roles", name);
                let what = format!("role `{name}`");
                let rm = codec::object(r, &at, &what)?;
                closed(rm, &at, &what, &ROLE_KEYS)?;
                let instructions = match rm.get("instructions") {
                    Some(i) => string(
                        i,
                        &child(&at, "instructions"),
                        &format!("{what}'s `instructions`"),
                    )?,
                    None => {
                        return Err(codec::error(
                            &at,
                            format!("{what} needs `instructions`: what the role does and how"),
                        ));
                    }
                };
                let tools = match rm.get("tools") {
                    Some(Value::Array(a)) => a
                        .iter()
                        .enumerate()
                        .map(|(i, t)| {
                            string(
                                t,
                                &format!("{}/{i}", child(&at, "tools")),
                                &format!("{what}'s tools"),
                            )
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                    Some(other) => {
                        return Err(codec::error(
                            &child(&at, "tools"),
                            format!(
                                "{what}'s `tools` must be a list of tool names, not {}",
                                other.type_name()
                            ),
                        ));
                    }
                    None => {
                        return Err(codec::error(
                            &at,
                            format!(
                                "{what} needs `tools`: the tools its subagent may use (a list, possibly empty)"
                            ),
                        ));
                    }
                };
                roles.insert(
                    name.clone(),
                    Role {
                        instructions,
                        tools,
                    },
                );
            }
        }
        Some(other) => {
            return Err(codec::error(
                "/roles",
                format!(
                    "`roles` must be a mapping of role names to {{instructions, tools}}, not {}",
                    other.type_name()
                ),
            ));
        }
        None => {
            return Err(codec::error(
                "",
                "a decomposition needs `roles`: each role's instructions and tools",
            ));
        }
    }
    let mut tasks = Vec::new();
    match m.get("tasks") {
        Some(Value::Array(a)) if a.len() > MAX_TASKS => {
            return Err(codec::error(
                "/tasks",
                format!(
                    "the decomposition lists {} tasks, more than the {MAX_TASKS} one orchestrator can hand out at depth 1 (each unit's spec names every other unit's output it must not write, so the plan grows with the square of the task count); group the tasks into at most {MAX_TASKS} units, or split the work into several decompositions",
                    a.len()
                ),
            ));
        }
        Some(Value::Array(a)) => {
            for (i, t) in a.iter().enumerate() {
                let at = format!("/tasks/{i}");
                let tm = codec::object(t, &at, &format!("task {}", i + 1))?;
                let name = match tm.get("name") {
                    Some(n) => string(n, &child(&at, "name"), "a task's `name`")?,
                    None => {
                        return Err(codec::error(&at, format!("task {} needs a `name`", i + 1)));
                    }
                };
                let what = format!("task `{name}`");
                closed(tm, &at, &what, &TASK_KEYS)?;
                let s = |key: &str| -> Result<Option<String>, ParseError> {
                    tm.get(key)
                        .map(|v| string(v, &child(&at, key), &format!("{what}'s `{key}`")))
                        .transpose()
                };
                tasks.push(Task {
                    role: s("role")?.unwrap_or_default(),
                    goal: s("goal")?.unwrap_or_default(),
                    input: match tm.get("input") {
                        Some(v) => literal(v, &child(&at, "input"), &format!("{what}'s `input`"))?,
                        None => Value::Null,
                    },
                    output: s("output")?.unwrap_or_default(),
                    done: s("done")?,
                    needs: tm
                        .get("needs")
                        .map(|v| names(v, &child(&at, "needs"), &format!("{what}'s `needs`")))
                        .transpose()?
                        .unwrap_or_default(),
                    challenges: tm
                        .get("challenges")
                        .map(|v| {
                            names(
                                v,
                                &child(&at, "challenges"),
                                &format!("{what}'s `challenges`"),
                            )
                        })
                        .transpose()?
                        .unwrap_or_default(),
                    digest: tm
                        .get("digest")
                        .map(|v| literal(v, &child(&at, "digest"), &format!("{what}'s `digest`")))
                        .transpose()?,
                    max_output_bytes: tm
                        .get("maxOutputBytes")
                        .map(|v| {
                            positive(
                                v,
                                &child(&at, "maxOutputBytes"),
                                &format!("{what}'s `maxOutputBytes`"),
                            )
                        })
                        .transpose()?
                        .unwrap_or(DEFAULT_MAX_OUTPUT_BYTES),
                    name,
                });
            }
        }
        Some(other) => {
            return Err(codec::error(
                "/tasks",
                format!("`tasks` must be a list of tasks, not {}", other.type_name()),
            ));
        }
        None => {
            return Err(codec::error(
                "",
                "a decomposition needs `tasks`: the named subagent tasks",
            ));
        }
    }
    let synthesis = match m.get("synthesis") {
        Some(s) => {
            let sm = codec::object(s, "/synthesis", "`synthesis`")?;
            closed(sm, "/synthesis", "`synthesis`", &["output"])?;
            match sm.get("output") {
                Some(o) => string(o, "/synthesis/output", "the synthesis `output`")?,
                None => {
                    return Err(codec::error(
                        "/synthesis",
                        "`synthesis` needs `output`: the path the reconciled synthesis is written to",
                    ));
                }
            }
        }
        None => {
            return Err(codec::error(
                "",
                "a decomposition needs `synthesis: {output}`: where the reconciled synthesis is written",
            ));
        }
    };
    let context_budget_bytes = m
        .get("contextBudgetBytes")
        .map(|v| positive(v, "/contextBudgetBytes", "`contextBudgetBytes`"))
        .transpose()?
        .unwrap_or(DEFAULT_CONTEXT_BUDGET);
    Ok(Decomposition {
        roles,
        tasks,
        synthesis,
        context_budget_bytes,
    })
}

/// The refusals that name a task.
fn validate(d: &Decomposition) -> Result<()> {
    if d.tasks.is_empty() {
        return Err(Error::invalid(
            "the decomposition has no tasks; list at least one named task with its role, goal, input and output",
        ));
    }
    if d.synthesis.trim().is_empty() {
        return Err(Error::invalid(
            "the synthesis `output` is empty; name the local artifact the reconciled synthesis is written to",
        ));
    }
    let task_names: Vec<&str> = d.tasks.iter().map(|t| t.name.as_str()).collect();
    for (i, t) in d.tasks.iter().enumerate() {
        if t.name.trim().is_empty() {
            return Err(refuse_task(
                i,
                format!("task {} has an empty name", i + 1),
                "give every task a short unique name",
            ));
        }
        if let Some(j) = d.tasks[..i].iter().position(|o| o.name == t.name) {
            return Err(refuse_task(
                i,
                format!(
                    "tasks {} and {} are both named `{}`; task names are unique (they name the units in the plan)",
                    j + 1,
                    i + 1,
                    t.name
                ),
                "rename one of them",
            ));
        }
        if t.role.is_empty() {
            return Err(refuse_task(
                i,
                format!(
                    "task `{}` has no role; name one of the decomposition's roles",
                    t.name
                ),
                "add `role: <name>`",
            ));
        }
        if !d.roles.contains_key(&t.role) {
            let known: Vec<&str> = d.roles.keys().map(String::as_str).collect();
            return Err(refuse_task(
                i,
                format!(
                    "task `{}` has the unknown role `{}`{}; the roles are {}",
                    t.name,
                    t.role,
                    crate::model::suggest::did_you_mean(&t.role, known.iter().copied()),
                    if known.is_empty() {
                        "(none)".to_string()
                    } else {
                        crate::model::suggest::choices(&t.role, known.iter().copied())
                    }
                ),
                "use one of the roles, or define the role under `roles` with its instructions and tools",
            ));
        }
        if t.goal.trim().is_empty() {
            return Err(refuse_task(
                i,
                format!(
                    "task `{}` has no goal; every subagent needs a concrete goal",
                    t.name
                ),
                "add `goal: <what the subagent must achieve>`",
            ));
        }
        if t.output.trim().is_empty() {
            return Err(refuse_task(
                i,
                format!(
                    "task `{}` has no output; every subagent writes one named artifact that the orchestrator reads and verifies",
                    t.name
                ),
                "add `output: <path of its artifact>`",
            ));
        }
        if matches!(t.input, Value::Null) {
            return Err(refuse_task(
                i,
                format!(
                    "task `{}` has no input; every subagent gets a bounded input (for a task with `needs`, say what it needs from them)",
                    t.name
                ),
                "add `input: <its assigned input>`",
            ));
        }
        for (field, list) in [("needs", &t.needs), ("challenges", &t.challenges)] {
            for other in list {
                if other == &t.name {
                    return Err(refuse_task(
                        i,
                        format!("task `{}` {field} itself", t.name),
                        "name another task",
                    ));
                }
                if !task_names.contains(&other.as_str()) {
                    return Err(refuse_task(
                        i,
                        format!(
                            "task `{}` {field} `{other}`, which is not a task{}; the tasks are {}",
                            t.name,
                            crate::model::suggest::did_you_mean(other, task_names.iter().copied()),
                            crate::model::suggest::choices(other, task_names.iter().copied())
                        ),
                        "name a task of the decomposition",
                    ));
                }
            }
        }
        if t.output == d.synthesis {
            return Err(refuse_task(
                i,
                format!(
                    "contention collision: task `{}` writes `{}`, the synthesis output; only the orchestrator writes the synthesis, so the task needs an artifact of its own",
                    t.name, t.output
                ),
                "give the task its own output path",
            ));
        }
        if let Some(j) = d.tasks[..i].iter().position(|o| o.output == t.output) {
            return Err(refuse_task(
                i,
                format!(
                    "contention collision: tasks `{}` and `{}` both write `{}`. The seed's recovery is to run the units one at a time with separate artifacts, and only the decomposition can name a separate artifact, so it is refused rather than reduced",
                    d.tasks[j].name, t.name, t.output
                ),
                "give each task its own output path (add `needs` as well if one must build on the other)",
            ));
        }
    }
    if let Some(cycle) = needs_cycle(d) {
        let i = d.tasks.iter().position(|t| t.name == cycle[0]).unwrap_or(0);
        return Err(refuse_task(
            i,
            format!(
                "the tasks' `needs` form a cycle: {} (each needs the next); an ordered handoff needs a first task that depends on nothing",
                cycle.join(" → ")
            ),
            "remove one of the `needs` in the cycle",
        ));
    }
    Ok(())
}

/// A cycle of `needs`, as task names (first repeated at the end), if any.
fn needs_cycle(d: &Decomposition) -> Option<Vec<String>> {
    let index: IndexMap<&str, usize> = d
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    // 0 = unseen, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; d.tasks.len()];
    for root in 0..d.tasks.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            let needs = &d.tasks[v].needs;
            if *next < needs.len() {
                let w = index[needs[*next].as_str()];
                *next += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => {
                        let start = stack.iter().position(|(x, _)| *x == w).unwrap_or(0);
                        let mut names: Vec<String> = stack[start..]
                            .iter()
                            .map(|(x, _)| d.tasks[*x].name.clone())
                            .collect();
                        names.push(d.tasks[w].name.clone());
                        return Some(names);
                    }
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    None
}

/// How a task is coupled to the others (seed 003, "Assess coupling").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coupling {
    Independent,
    Ordered,
    Adversarial,
}

impl Coupling {
    pub fn name(self) -> &'static str {
        match self {
            Coupling::Independent => "independent",
            Coupling::Ordered => "ordered",
            Coupling::Adversarial => "adversarial",
        }
    }
}

/// Ordered if it needs or is needed; adversarial if it challenges or is
/// challenged; else independent.
pub fn classify(d: &Decomposition) -> Vec<Coupling> {
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
pub fn choose(d: &Decomposition) -> (Option<Mechanism>, String) {
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
pub struct CheckResult {
    pub name: &'static str,
    /// `pass`, `fail` or `n/a`.
    pub status: &'static str,
    pub detail: String,
}

/// What `orchestrate` decided, and the plan.
#[derive(Debug, Clone)]
pub struct Orchestration {
    pub couplings: Vec<Coupling>,
    /// The row that matched (`None`: none did).
    pub matched: Option<Mechanism>,
    pub why: String,
    pub checks: Vec<CheckResult>,
    /// The mechanism the plan uses, after the checks' fallbacks.
    pub mechanism: Mechanism,
    /// Each fallback taken, saying which check failed.
    pub reductions: Vec<String>,
    /// The bounds raised above the defaults to fit the plan: (name, default,
    /// value).
    pub bounds: Vec<(&'static str, u64, u64)>,
    /// Per role: the spawning tools removed from its tools.
    pub removed: Vec<(String, Vec<String>)>,
    /// The units' names in spawn order.
    pub order: Vec<String>,
    pub spec: emit::Spec,
    pub content: Content,
    pub label: String,
}

/// A node id suffix for a task name: lowercase letters, digits and `_`.
fn slug(name: &str, taken: &mut Vec<String>) -> String {
    let mut s = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            s.push(c);
        } else if !s.ends_with('_') {
            s.push('_');
        }
    }
    let mut s: String = s.trim_matches('_').chars().take(40).collect();
    while s.ends_with('_') {
        s.pop();
    }
    if s.is_empty() {
        s = "task".into();
    }
    let mut out = s.clone();
    let mut k = 2;
    while taken.contains(&out) {
        out = format!("{s}_{k}");
        k += 1;
    }
    taken.push(out.clone());
    out
}

/// The spawning tools of a registry: those marked `spawnsAgent`, and
/// `spawn_subagent` always.
pub fn spawning_tools(registry: &Registry) -> Vec<String> {
    let mut out: Vec<String> = registry
        .tools
        .iter()
        .filter(|(_, e)| e.spawns_agent)
        .map(|(n, _)| n.clone())
        .collect();
    if !out.iter().any(|t| t == SPAWN_TOOL) {
        out.push(SPAWN_TOOL.into());
    }
    out
}

/// Raises the bounds of `content` above the defaults where the plan needs
/// it (nodes, edges, concurrently running units, encoded size), and returns
/// what was raised.
fn fitting_bounds(content: &mut Content, concurrent: usize) -> Vec<(&'static str, u64, u64)> {
    let defaults = crate::model::Bounds::default();
    let mut b = defaults;
    b.max_nodes = b.max_nodes.max(content.nodes.len() as u64);
    b.max_edges = b.max_edges.max(content.edges.len() as u64);
    b.max_concurrent_frames = b.max_concurrent_frames.max(concurrent as u64);
    content.bounds = b;
    let (_, len) = crate::wire::jcs::digest(content);
    if len as u64 > b.max_encoded_bytes {
        // Headroom for the digits of the raised bounds themselves.
        b.max_encoded_bytes = len as u64 + 1024;
        content.bounds = b;
    }
    defaults
        .members()
        .iter()
        .zip(b.members())
        .filter(|((_, d), (_, v))| d != v)
        .map(|((name, d), (_, v))| (*name, *d, v))
        .collect()
}

/// Task indices in spawn order for a chain: `needs` first, ties in
/// declaration order.
fn chain_order(d: &Decomposition) -> Vec<usize> {
    let mut done = vec![false; d.tasks.len()];
    let mut order = Vec::with_capacity(d.tasks.len());
    while order.len() < d.tasks.len() {
        let next = (0..d.tasks.len()).find(|&i| {
            !done[i]
                && d.tasks[i].needs.iter().all(|n| {
                    d.tasks
                        .iter()
                        .position(|t| &t.name == n)
                        .is_some_and(|j| done[j])
                })
        });
        match next {
            Some(i) => {
                done[i] = true;
                order.push(i);
            }
            None => break, // a cycle: refused by `validate` before this runs
        }
    }
    order
}

/// Classifies, chooses, checks and builds the plan for `plan_id`.
pub fn orchestrate(d: &Decomposition, registry: &Registry, plan_id: &str) -> Result<Orchestration> {
    let couplings = classify(d);
    let (matched, why) = choose(d);
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
    let na = |name| CheckResult {
        name,
        status: "n/a",
        detail: "units run one at a time".into(),
    };
    let mut checks = Vec::new();
    // 1. Concurrent tasks neither order nor write one target.
    if concurrent {
        let ordered = d.tasks.iter().any(|t| !t.needs.is_empty());
        let mut outputs: Vec<&str> = d.tasks.iter().map(|t| t.output.as_str()).collect();
        outputs.sort_unstable();
        let shared = outputs.windows(2).find(|w| w[0] == w[1]).map(|w| w[0]);
        checks.push(match (ordered, shared) {
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
        });
    } else {
        checks.push(na("no ordering, no shared target"));
    }
    // 2. A distinct bounded assignment and a named output each.
    if concurrent {
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
        checks.push(match same {
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
        });
    } else {
        checks.push(na("distinct assignments, named outputs"));
    }
    // 3. The artifacts fit the orchestrator's context (always checked: the
    // reconcile step reads every artifact, in any mechanism).
    let total: u64 = d.tasks.iter().map(|t| t.max_output_bytes).sum();
    let budget = d.context_budget_bytes;
    let overflow = total > budget;
    checks.push(CheckResult {
        name: "artifacts fit the context budget",
        status: if overflow { "fail" } else { "pass" },
        detail: format!(
            "Σ maxOutputBytes = {total} {} contextBudgetBytes = {budget}",
            if overflow { ">" } else { "≤" }
        ),
    });
    // 4. At least two units actually run concurrently.
    if concurrent {
        checks.push(CheckResult {
            name: "≥ 2 units run concurrently",
            status: "pass",
            detail: format!("{n} units are spawned in one turn and meet at the join"),
        });
    } else {
        checks.push(na("≥ 2 units run concurrently"));
    }
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

    // Depth 1.
    let spawning = spawning_tools(registry);
    let mut removed = Vec::new();
    for (name, role) in &d.roles {
        let gone: Vec<String> = role
            .tools
            .iter()
            .filter(|t| spawning.contains(t))
            .cloned()
            .collect();
        if !gone.is_empty() {
            removed.push((name.clone(), gone));
        }
    }

    // Units.
    let order: Vec<usize> = if mechanism.concurrent() {
        (0..n).collect()
    } else {
        chain_order(d)
    };
    let position: Vec<usize> = {
        let mut p = vec![0; n];
        for (k, &i) in order.iter().enumerate() {
            p[i] = k;
        }
        p
    };
    let index_of = |name: &str| d.tasks.iter().position(|t| t.name == name);
    let mut taken = Vec::new();
    let units: Vec<emit::Unit> = order
        .iter()
        .map(|&i| {
            let t = &d.tasks[i];
            let role = &d.roles[&t.role];
            let schema = match (mechanism, &t.digest) {
                (Mechanism::AdvocateCritic, _) => Value::from(emit::ADVERSARIAL_SCHEMA),
                (Mechanism::PerUnit, _) => Value::from(emit::UNIT_SCHEMA),
                (_, Some(dg)) => dg.clone(),
                (Mechanism::BoundedDigest, None) => Value::from(emit::DIGEST_SCHEMA),
                (_, None) if cap.is_some() => Value::from(emit::DIGEST_SCHEMA),
                (_, None) => Value::from(emit::ARTIFACT_SCHEMA),
            };
            let instructions = if role.instructions.trim().is_empty() {
                emit::NO_SPAWN.to_string()
            } else {
                format!("{}\n\n{}", role.instructions.trim_end(), emit::NO_SPAWN)
            };
            emit::Unit {
                name: t.name.clone(),
                slug: slug(&t.name, &mut taken),
                role: Value::from(t.role.as_str()),
                instructions: Value::from(instructions),
                tools: role
                    .tools
                    .iter()
                    .filter(|x| !spawning.contains(x))
                    .cloned()
                    .collect(),
                goal: Value::from(t.goal.as_str()),
                input: t.input.clone(),
                output: Value::from(t.output.as_str()),
                done: Value::from(t.done.as_deref().unwrap_or(emit::DEFAULT_DONE)),
                schema,
                max_output_bytes: cap.map_or(t.max_output_bytes, |c| c.min(t.max_output_bytes)),
                needs: if mechanism.concurrent() {
                    Vec::new()
                } else {
                    t.needs
                        .iter()
                        .filter_map(|x| index_of(x))
                        .map(|j| position[j])
                        .collect()
                },
                challenges: t
                    .challenges
                    .iter()
                    .filter_map(|x| index_of(x))
                    .map(|j| position[j])
                    .collect(),
            }
        })
        .collect();
    let spec = emit::Spec {
        mechanism,
        units,
        synthesis: Value::from(d.synthesis.as_str()),
        accepted: Vec::new(),
    };
    let (nodes, edges) = emit::emit(&spec);
    let mut content = Content::empty(plan_id);
    // The revision the plan has once stored: one op per node and edge, and
    // the `set_bounds`.
    content.revision = (nodes.len() + edges.len() + 1) as u64;
    content.nodes = nodes;
    content.edges = edges;
    let bounds = fitting_bounds(&mut content, if spec.parallel() { n } else { 1 });
    let label = crate::forge::plans::label_of(&format!(
        "{} of {n} task(s) → {}",
        mechanism.name(),
        d.synthesis
    ));
    Ok(Orchestration {
        couplings,
        matched,
        why,
        checks,
        mechanism,
        reductions,
        bounds,
        removed,
        order: order.iter().map(|&i| d.tasks[i].name.clone()).collect(),
        spec,
        content,
        label,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decomposition(tasks: &str) -> Result<Decomposition> {
        let text = format!(
            "roles:\n  r: {{instructions: work, tools: [read_file, spawn_subagent]}}\n  q: {{instructions: check, tools: []}}\ntasks:\n{tasks}\nsynthesis: {{output: out.md}}\n"
        );
        parse(&text, Syntax::Yaml, "test.yaml")
    }

    fn task(name: &str, role: &str, extra: &str) -> String {
        format!(
            "  - {{name: {name}, role: {role}, goal: goal of {name}, input: input of {name}, output: {name}.md{extra}}}\n"
        )
    }

    fn registry() -> Registry {
        crate::forge::templates::default_registry().unwrap()
    }

    fn mechanism_of(tasks: &str) -> (Option<Mechanism>, Mechanism) {
        let d = decomposition(tasks).unwrap();
        let reg = registry();
        let o = orchestrate(&d, &reg, "plan-t").unwrap();
        let report = crate::check::run(&o.content, Some(&reg), Vec::new());
        assert!(
            report.issues.is_empty() && report.skipped.is_empty(),
            "{:?}: {:#?}",
            o.mechanism,
            report.issues
        );
        (o.matched, o.mechanism)
    }

    #[test]
    fn the_first_matching_row_wins_in_the_seeds_order() {
        let two = |a: &str, b: &str| format!("{}{}", task("a", "r", a), task("b", "q", b));
        assert_eq!(mechanism_of(&two("", "")).0, Some(Mechanism::FanOut));
        assert_eq!(
            mechanism_of(&two("", ", needs: a")).0,
            Some(Mechanism::OrderedHandoff)
        );
        // Needs beat challenges and digests (row 2 before rows 3 and 6).
        assert_eq!(
            mechanism_of(&two(", digest: d", ", needs: a, challenges: a, digest: d")).0,
            Some(Mechanism::OrderedHandoff)
        );
        assert_eq!(
            mechanism_of(&two(", digest: d", ", digest: d")).0,
            Some(Mechanism::BoundedDigest)
        );
        assert_eq!(mechanism_of(&task("a", "r", "")).0, Some(Mechanism::Single));
        let shared = format!("{}{}", task("a", "r", ""), task("b", "r", ""));
        assert_eq!(mechanism_of(&shared).0, Some(Mechanism::PerUnit));
        assert_eq!(
            mechanism_of(&two("", ", challenges: a")).0,
            Some(Mechanism::AdvocateCritic)
        );
        // Some but not all with a digest, distinct roles: no row matches.
        assert_eq!(
            mechanism_of(&two(", digest: d", "")),
            (None, Mechanism::OrderedHandoff)
        );
    }

    #[test]
    fn couplings_follow_needs_and_challenges_both_ways() {
        let d = decomposition(&format!(
            "{}{}{}{}",
            task("a", "r", ""),
            task("b", "q", ", needs: a"),
            task("c", "r", ", challenges: [d]"),
            task("d", "q", "")
        ))
        .unwrap();
        assert_eq!(
            classify(&d),
            vec![
                Coupling::Ordered,
                Coupling::Ordered,
                Coupling::Adversarial,
                Coupling::Adversarial
            ]
        );
    }

    #[test]
    fn a_chain_hands_off_by_reference_to_the_previous_verification() {
        let d = decomposition(&format!(
            "{}{}",
            task("second", "q", ", needs: first"),
            task("first", "r", "")
        ))
        .unwrap();
        let o = orchestrate(&d, &registry(), "plan-t").unwrap();
        assert_eq!(o.order, vec!["first", "second"]);
        let spawn = o.content.node("spawn_second").unwrap();
        let input = &spawn.definition["args"].as_object().unwrap()["input"];
        let r = input.as_ref_value().expect("a reference");
        assert_eq!(
            (r.node.as_str(), r.path.as_deref()),
            ("verify_first", Some("handoff"))
        );
        // Depth 1: the spawning tool is gone, the no-spawn line is there.
        let first = o.content.node("spawn_first").unwrap();
        let args = first.definition["args"].as_object().unwrap();
        assert_eq!(args["tools"], Value::Array(vec!["read_file".into()]));
        assert!(
            args["instructions"]
                .as_str()
                .unwrap()
                .ends_with(emit::NO_SPAWN)
        );
        assert_eq!(
            o.removed,
            vec![("r".to_string(), vec![SPAWN_TOOL.to_string()])]
        );
    }

    #[test]
    fn failed_checks_fall_back_as_the_seed_says() {
        // Identical assignments: ordered handoffs, naming the check.
        let same = "  - {name: a, role: r, goal: g, input: i, output: a.md}\n  - {name: b, role: r, goal: g, input: i, output: b.md}\n";
        let o = orchestrate(&decomposition(same).unwrap(), &registry(), "plan-t").unwrap();
        assert_eq!(o.mechanism, Mechanism::OrderedHandoff);
        assert!(
            o.reductions[0].contains("distinct assignments"),
            "{:?}",
            o.reductions
        );
        // Context overflow: bounded digests, each capped to fit.
        let big = format!(
            "{}{}",
            task("a", "r", ", maxOutputBytes: 150000"),
            task("b", "q", ", maxOutputBytes: 150000")
        );
        let o = orchestrate(&decomposition(&big).unwrap(), &registry(), "plan-t").unwrap();
        assert_eq!(
            (o.matched, o.mechanism),
            (Some(Mechanism::FanOut), Mechanism::BoundedDigest)
        );
        assert!(o.spec.units.iter().all(|u| u.max_output_bytes == 100_000));
        assert!(o.bounds.is_empty(), "{:?}", o.bounds);
        // Too small a budget for any digest: refused.
        let tiny = format!(
            "{}{}contextBudgetBytes: 300\n",
            task("a", "r", ""),
            task("b", "q", "")
        );
        let text = format!(
            "roles:\n  r: {{instructions: w, tools: []}}\n  q: {{instructions: c, tools: []}}\ntasks:\n{tiny}synthesis: {{output: out.md}}\n"
        );
        let d = parse(&text, Syntax::Yaml, "t.yaml").unwrap();
        let e = orchestrate(&d, &registry(), "plan-t").unwrap_err();
        assert!(e.message.contains("context overflow"), "{}", e.message);
    }

    #[test]
    fn a_large_decomposition_raises_its_bounds_and_stays_clean() {
        let tasks: String = (0..80).map(|k| task(&format!("t{k}"), "r", "")).collect();
        let (matched, used) = mechanism_of(&tasks);
        assert_eq!(
            (matched, used),
            (Some(Mechanism::PerUnit), Mechanism::BoundedDigest)
        );
        let d = decomposition(&tasks).unwrap();
        let o = orchestrate(&d, &registry(), "plan-t").unwrap();
        let raised: Vec<&str> = o.bounds.iter().map(|(name, _, _)| *name).collect();
        assert_eq!(raised, ["maxNodes", "maxEdges", "maxConcurrentFrames"]);
        assert_eq!(o.content.bounds.max_nodes, o.content.nodes.len() as u64);
    }

    #[test]
    fn refusals_name_the_task() {
        for (tasks, needle) in [
            (task("a", "nobody", ""), "task `a` has the unknown role `nobody`"),
            (
                "  - {name: a, role: r, input: i, output: a.md}\n".to_string(),
                "task `a` has no goal",
            ),
            (
                "  - {name: a, role: r, goal: g, input: i}\n".to_string(),
                "task `a` has no output",
            ),
            (
                format!("{}{}", task("a", "r", ", needs: b"), task("b", "q", ", needs: a")),
                "cycle: a → b → a",
            ),
            (
                format!("{}{}", task("a", "r", ", needs: c"), task("b", "q", "")),
                "task `a` needs `c`, which is not a task",
            ),
            (
                "  - {name: a, role: r, goal: g, input: i, output: x.md}\n  - {name: b, role: q, goal: h, input: j, output: x.md}\n"
                    .to_string(),
                "contention collision: tasks `a` and `b` both write `x.md`",
            ),
            (
                "  - {name: a, role: r, goal: g, input: i, output: out.md}\n".to_string(),
                "contention collision: task `a` writes `out.md`, the synthesis output",
            ),
        ] {
            let e = decomposition(&tasks).unwrap_err();
            assert!(e.message.contains(needle), "{needle}\n{}", e.message);
            assert_eq!(e.exit_code(), 2);
        }
    }

    #[test]
    fn shape_errors_are_located() {
        let e = decomposition(&task("a", "r", ", nedds: b")).unwrap_err();
        assert!(e.message.contains("did you mean `needs`"), "{}", e.message);
        assert_eq!(
            e.location.unwrap().pointer.as_deref(),
            Some("/tasks/0/nedds")
        );
    }

    #[test]
    fn slugs_are_node_id_safe_and_unique() {
        let mut taken = Vec::new();
        assert_eq!(slug("Security Review!", &mut taken), "security_review");
        assert_eq!(slug("security-review", &mut taken), "security_review_2");
        assert_eq!(slug("éé", &mut taken), "task");
        assert!(crate::model::ids::is_valid_node_id(&format!(
            "verify_{}",
            slug(&"x".repeat(100), &mut taken)
        )));
    }
}
