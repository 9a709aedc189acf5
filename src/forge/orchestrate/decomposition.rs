//! The input of `orchestrate`: a task decomposition (roles, tasks, the
//! synthesis output, the context budget), read and validated. Shape errors
//! are located parse errors; tasks the seed cannot run are refused naming
//! the task.

use crate::model::error::Error;
use crate::model::error::Location;
use crate::model::error::Result;
use crate::model::value::push_pointer_token;
use crate::model::{Map, Value};
use crate::wire::codec;
use crate::wire::parse::{ParseError, Syntax};
use indexmap::IndexMap;

/// How a task is coupled to the others (seed 003, "Assess coupling").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Coupling {
    Independent,
    Ordered,
    Adversarial,
}

impl Coupling {
    pub(crate) const ALL: [Coupling; 3] = [
        Coupling::Independent,
        Coupling::Ordered,
        Coupling::Adversarial,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Coupling::Independent => "independent",
            Coupling::Ordered => "ordered",
            Coupling::Adversarial => "adversarial",
        }
    }
}

/// Per-task `maxOutputBytes` when the decomposition gives none.
pub(crate) const DEFAULT_MAX_OUTPUT_BYTES: u64 = 8192;
/// `contextBudgetBytes` when the decomposition gives none.
pub(crate) const DEFAULT_CONTEXT_BUDGET: u64 = crate::check::CONTEXT_BUDGET_BYTES;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Role {
    pub(crate) instructions: String,
    pub(crate) tools: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Task {
    pub(crate) name: String,
    pub(crate) role: String,
    pub(crate) goal: String,
    pub(crate) input: Value,
    pub(crate) output: String,
    pub(crate) done: Option<String>,
    pub(crate) needs: Vec<String>,
    pub(crate) challenges: Vec<String>,
    pub(crate) digest: Option<Value>,
    pub(crate) max_output_bytes: u64,
    /// The coupling the owner stated for it (the task's own `coupling`, or
    /// the decomposition's), which wins over inference.
    pub(crate) coupling: Option<Coupling>,
}

/// A task decomposition (the input of `orchestrate`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Decomposition {
    pub(crate) roles: IndexMap<String, Role>,
    pub(crate) tasks: Vec<Task>,
    pub(crate) synthesis: String,
    pub(crate) context_budget_bytes: u64,
    /// The most subagents the owner lets run at once (`None`: no limit).
    pub(crate) max_concurrent: Option<u64>,
    /// The text it was read from, so that a refusal made after reading
    /// ([`guard_store`]) is placed at file:line:col too.
    pub(crate) origin: Option<Origin>,
}

/// Where a decomposition was read from: its file's name, text and syntax.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Origin {
    pub(crate) file: String,
    pub(crate) text: String,
    pub(crate) syntax: Syntax,
}

impl Decomposition {
    /// `e` placed in the decomposition's file (file:line:col of its
    /// pointer), when it was read from one.
    pub(crate) fn place(&self, e: Error) -> Error {
        match &self.origin {
            Some(o) => placed(e, &o.text, o.syntax, &o.file),
            None => e,
        }
    }
}

/// The most tasks one decomposition may list.
pub(crate) const MAX_TASKS: usize = 256;

const TOP_KEYS: [&str; 6] = [
    "roles",
    "tasks",
    "synthesis",
    "contextBudgetBytes",
    "maxConcurrent",
    "coupling",
];
const ROLE_KEYS: [&str; 2] = ["instructions", "tools"];
const TASK_KEYS: [&str; 11] = [
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
    "coupling",
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
        Value::String(s) => Ok(vec![s.to_string()]),
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
/// seed cannot run (unknown role, a `needs` cycle, no goal or output, a
/// stated coupling that contradicts `needs` or `challenges`…) are refused
/// naming the task. Two tasks writing one target are not refused: the
/// checks give the later one a separate artifact.
pub(crate) fn parse(text: &str, syntax: Syntax, file: &str) -> Result<Decomposition> {
    let located = |e: ParseError, otherwise: &str| {
        let Some((key, help)) = e.pointer.as_deref().and_then(number_help) else {
            return placed(e.into_error(Some(file)), text, syntax, file)
                .with_help(otherwise.to_string());
        };
        // A count too large for a plan's numbers: shown as written (the
        // parser's reading of `99999999999999999999` is rounded), and
        // without the parser's "write it as a string", which a count is not.
        let too_large = e.message.starts_with("the number ");
        let e = if too_large {
            let given = e
                .pointer
                .as_deref()
                .and_then(|p| crate::wire::span::locate(text, syntax, p))
                .filter(|l| l.exact)
                .and_then(|l| text.get(l.span.start..l.span.end))
                .map(|g| g.trim().to_string())
                .unwrap_or_else(|| "too large".into());
            ParseError {
                message: format!(
                    "`{key}` is {given}, more than a plan's numbers hold (at most 9007199254740991, 2^53−1)"
                ),
                ..e
            }
        } else {
            e
        };
        placed(e.into_error(Some(file)), text, syntax, file).with_help(help)
    };
    let unreadable = format!(
        "make the file valid {} at that line and column; {SHAPE}",
        match syntax {
            Syntax::Json => "JSON",
            Syntax::Yaml => "YAML",
        }
    );
    let v = crate::wire::parse::parse(text, syntax).map_err(|e| located(e, &unreadable))?;
    let v = crate::wire::convert::hydrated(v, "").map_err(|e| located(e, SHAPE))?;
    let mut d = shape(&v).map_err(|e| located(e, SHAPE))?;
    d.origin = Some(Origin {
        file: file.to_string(),
        text: text.to_string(),
        syntax,
    });
    validate(&d).map_err(|e| d.place(e))?;
    Ok(d)
}

/// The help line of a decomposition that is not shaped as one: what a
/// decomposition holds.
const SHAPE: &str = "a decomposition is an object with `roles` (each role's `instructions` and `tools`), `tasks` (a list, each task with `name`, `role`, `goal`, `input` and `output`) and `synthesis` (its `output`); `maxConcurrent`, `contextBudgetBytes` and `coupling` are optional (docs/orchestration.md)";

/// What to give instead of a bad count (`maxConcurrent`,
/// `contextBudgetBytes`, a task's `maxOutputBytes`), by its pointer.
fn number_help(pointer: &str) -> Option<(&str, String)> {
    let last = pointer.rsplit('/').next()?;
    let text = match last {
        "maxConcurrent" => "give the most subagents the owner lets run at once, a whole number of 1 or more (below the number of tasks, the units run one at a time), or leave `maxConcurrent` out for no limit".to_string(),
        "contextBudgetBytes" => format!(
            "give the bytes the orchestrator's context may hold for verification and reconciliation, a whole number of 1 or more, or leave `contextBudgetBytes` out for the default {DEFAULT_CONTEXT_BUDGET}"
        ),
        "maxOutputBytes" => format!(
            "give the most bytes the unit's artifact may have, a whole number of 1 or more, or leave `maxOutputBytes` out for the default {DEFAULT_MAX_OUTPUT_BYTES}"
        ),
        _ => return None,
    };
    Some((last, text))
}

/// A refusal placed in the decomposition's file: its file, and the line
/// and column of its pointer (`file:line:col`, as other input errors show
/// them) when the parser did not give them.
fn placed(e: Error, text: &str, syntax: Syntax, file: &str) -> Error {
    let Some(l) = e.location.clone() else {
        return e;
    };
    let mut l = Location {
        file: Some(file.to_string()),
        ..*l
    };
    if l.line.is_none()
        && let Some(at) = l
            .pointer
            .as_deref()
            .and_then(|p| crate::wire::span::locate(text, syntax, p))
    {
        l.line = Some(at.start.line);
        l.column = Some(at.start.column);
    }
    e.at(l).with_source(file, text.to_string())
}

fn shape(v: &Value) -> Result<Decomposition, ParseError> {
    let m = codec::object(v, "", "a decomposition")?;
    closed(m, "", "a decomposition", &TOP_KEYS)?;
    let roles = roles(m)?;
    let tasks = tasks(m)?;
    let synthesis = synthesis(m)?;
    let context_budget_bytes = m
        .get("contextBudgetBytes")
        .map(|v| positive(v, "/contextBudgetBytes", "`contextBudgetBytes`"))
        .transpose()?
        .unwrap_or(DEFAULT_CONTEXT_BUDGET);
    let max_concurrent = m
        .get("maxConcurrent")
        .map(|v| positive(v, "/maxConcurrent", "`maxConcurrent`"))
        .transpose()?;
    let mut tasks = tasks;
    stated_couplings(m, &mut tasks)?;
    Ok(Decomposition {
        roles,
        tasks,
        synthesis,
        context_budget_bytes,
        max_concurrent,
        origin: None,
    })
}

/// One coupling name.
fn coupling(v: &Value, at: &str, what: &str) -> Result<Coupling, ParseError> {
    let names = Coupling::ALL.map(Coupling::name);
    let s = string(v, at, what)?;
    Coupling::ALL
        .into_iter()
        .find(|c| c.name() == s)
        .ok_or_else(|| {
            codec::error(
                at,
                format!(
                    "{what} is `{s}`{}; a coupling is one of {}",
                    crate::model::suggest::did_you_mean(&s, names.iter().copied()),
                    names.join(", ")
                ),
            )
        })
}

/// The decomposition's `coupling` (the seed's optional pattern-selection
/// criteria): one coupling for every task, or a mapping of task names to
/// couplings. A task's own `coupling` wins over it.
fn stated_couplings(m: &Map, tasks: &mut [Task]) -> Result<(), ParseError> {
    match m.get("coupling") {
        None => {}
        Some(Value::Object(per)) => {
            for (name, c) in per {
                let at = child("/coupling", name);
                let c = coupling(c, &at, &format!("the coupling of `{name}`"))?;
                let Some(t) = tasks.iter_mut().find(|t| t.name == *name) else {
                    let names: Vec<&str> = tasks.iter().map(|t| t.name.as_str()).collect();
                    return Err(codec::error(
                        &at,
                        format!(
                            "`coupling` names `{name}`, which is not a task{}",
                            crate::model::suggest::did_you_mean(name, names.iter().copied())
                        ),
                    ));
                };
                t.coupling.get_or_insert(c);
            }
        }
        Some(v) => {
            let c = coupling(v, "/coupling", "`coupling`")?;
            for t in tasks.iter_mut() {
                t.coupling.get_or_insert(c);
            }
        }
    }
    Ok(())
}

/// Reads `roles`: a mapping of role names to `{instructions, tools}`.
fn roles(m: &Map) -> Result<IndexMap<String, Role>, ParseError> {
    let mut roles = IndexMap::new();
    match m.get("roles") {
        Some(Value::Object(rs)) => {
            for (name, r) in rs {
                roles.insert(name.to_string(), role(name, r)?);
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
    Ok(roles)
}

/// Reads one role.
fn role(name: &str, r: &Value) -> Result<Role, ParseError> {
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
    Ok(Role {
        instructions,
        tools,
    })
}

/// Reads `tasks`: a list of at most [`MAX_TASKS`] tasks.
fn tasks(m: &Map) -> Result<Vec<Task>, ParseError> {
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
                tasks.push(task(i, t)?);
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
    Ok(tasks)
}

/// Reads the task at index `i` of `tasks`.
fn task(i: usize, t: &Value) -> Result<Task, ParseError> {
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
    Ok(Task {
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
        coupling: tm
            .get("coupling")
            .map(|v| coupling(v, &child(&at, "coupling"), &format!("{what}'s `coupling`")))
            .transpose()?,
        name,
    })
}

/// Reads `synthesis: {output}`.
fn synthesis(m: &Map) -> Result<String, ParseError> {
    match m.get("synthesis") {
        Some(s) => {
            let sm = codec::object(s, "/synthesis", "`synthesis`")?;
            closed(sm, "/synthesis", "`synthesis`", &["output"])?;
            match sm.get("output") {
                Some(o) => string(o, "/synthesis/output", "the synthesis `output`"),
                None => Err(codec::error(
                    "/synthesis",
                    "`synthesis` needs `output`: the path the reconciled synthesis is written to",
                )),
            }
        }
        None => Err(codec::error(
            "",
            "a decomposition needs `synthesis: {output}`: where the reconciled synthesis is written",
        )),
    }
}

/// Refuses a decomposition without tasks, or whose synthesis output is
/// empty or outside the working tree.
fn tasks_and_synthesis(d: &Decomposition) -> Result<()> {
    if d.tasks.is_empty() {
        return Err(Error::invalid(
            "the decomposition has no tasks; list at least one named task with its role, goal, input and output",
        )
        .with_help("list at least one task under `tasks`, each with a name, role, goal, input and output")
        .at(Location {
            pointer: Some("/tasks".into()),
            ..Location::default()
        }));
    }
    if d.synthesis.trim().is_empty() {
        return Err(Error::invalid(
            "the synthesis `output` is empty; name the local artifact the reconciled synthesis is written to",
        )
        .with_help("give the synthesis `output` a relative file path inside the working tree")
        .at(Location {
            pointer: Some("/synthesis/output".into()),
            ..Location::default()
        }));
    }
    if let Some(why) = escapes(&d.synthesis) {
        return Err(Error::invalid(format!(
            "the synthesis `output` `{}` is {why}; the synthesis is written only to a named local artifact inside the working tree (seed 003: reversible local authority)",
            d.synthesis
        ))
        .with_help("give the synthesis `output` a relative file path inside the working tree, outside `.git/` and the plan store, without `..`, control or bidirectional characters, or a Windows device name")
        .at(Location {
            pointer: Some("/synthesis/output".into()),
            ..Location::default()
        }));
    }
    Ok(())
}

/// The refusals that name a task.
fn validate(d: &Decomposition) -> Result<()> {
    tasks_and_synthesis(d)?;
    let task_names: Vec<&str> = d.tasks.iter().map(|t| t.name.as_str()).collect();
    unnamed_tasks(d)?;
    unprintable_names(d)?;
    for (i, t) in d.tasks.iter().enumerate() {
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
        if let Some(why) = escapes(&t.output) {
            return Err(refuse_task(
                i,
                format!(
                    "task `{}` writes `{}`, {why}; a unit writes only a named local artifact inside the working tree (seed 003: reversible local authority)",
                    t.name, t.output
                ),
                "give `output` a relative file path inside the working tree, outside `.git/` and the plan store, without `..`, control or bidirectional characters, or a Windows device name",
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
        contradiction(d, i)?;
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
    reads_cycle(d)?;
    challenge_in_chain(d)?;
    pair_beside_chain(d)?;
    lone_adversary(d)
}

/// Refuses an adversarial pair beside an ordered chain it is not part of
/// (`a` challenges `b`; `d` needs `c`). The seed chooses one bounded
/// mechanism, and its first matching row for this decomposition is row 2
/// (tasks are ordered): it would run the pair one at a time, the critic
/// without its claim-evidence-objection record and before or after the
/// advocate by declaration order alone, while row 6 (roles must challenge
/// one another) carries no handoff. No row carries both, so the tasks are
/// named and the owner splits the run. (A challenger that needs what it
/// challenges is ordered, and `challenge_in_chain` refuses a pair inside a
/// chain.)
fn pair_beside_chain(d: &Decomposition) -> Result<()> {
    let named = |i: usize| d.tasks[i].name.as_str();
    let needed = |i: usize| {
        d.tasks
            .iter()
            .any(|o| o.needs.iter().any(|n| n == named(i)))
    };
    let ordered: Vec<usize> = (0..d.tasks.len())
        .filter(|&i| match d.tasks[i].coupling {
            Some(c) => c == Coupling::Ordered,
            None => !d.tasks[i].needs.is_empty() || needed(i),
        })
        .collect();
    let adversarial: Vec<usize> = (0..d.tasks.len())
        .filter(|&i| !ordered.contains(&i))
        .filter(|&i| match d.tasks[i].coupling {
            Some(c) => c == Coupling::Adversarial,
            None => {
                !d.tasks[i].challenges.is_empty()
                    || d.tasks
                        .iter()
                        .any(|o| o.challenges.iter().any(|c| c == named(i)))
            }
        })
        .collect();
    let (Some(&first), false) = (adversarial.first(), ordered.is_empty()) else {
        return Ok(());
    };
    let list = |ix: &[usize]| {
        crate::model::suggest::capped_list(&ix.iter().map(|&i| named(i)).collect::<Vec<_>>(), 8)
    };
    Err(refuse_task(
        first,
        format!(
            "tasks {} are adversarial (they challenge one another) and tasks {} are an ordered chain beside them: the seed chooses one bounded mechanism, and its first matching row here, row 2 (tasks are ordered), would run the pair one at a time and drop its claim-evidence-objection records, while row 6 (advocate and critic) carries no handoff; no row runs both",
            list(&adversarial),
            list(&ordered)
        ),
        "orchestrate them as two decompositions, one with the adversarial pair (advocate/critic) and one with the chain (ordered handoff; a task of it may take the pair's synthesis as its input), or remove the `challenges` to run every task as one ordered chain",
    ))
}

/// Refuses a challenge between tasks of which one is in a `needs` chain
/// (it needs a task, or a task needs it), unless the challenger needs the
/// task it challenges (then it runs after it, on its handoff): an adversarial pair runs side by
/// side, each with its claim-evidence-objection record (row 6), and an
/// ordered chain runs one task at a time on the verified handoff before it
/// (row 2); one plan cannot do both, and the chain would run the critic
/// before the task it challenges, with neither record.
fn challenge_in_chain(d: &Decomposition) -> Result<()> {
    let chained = |name: &str| -> Option<String> {
        let t = d.tasks.iter().find(|t| t.name == name)?;
        if let Some(n) = t.needs.first() {
            return Some(format!("`{name}` needs `{n}`"));
        }
        d.tasks
            .iter()
            .find(|o| o.needs.iter().any(|n| n == name))
            .map(|o| format!("`{}` needs `{name}`", o.name))
    };
    // Whether `from` needs `to`, directly or through the tasks it needs.
    let needs_through = |from: &str, to: &str| {
        let mut seen: Vec<&str> = vec![from];
        let mut k = 0;
        while k < seen.len() {
            if let Some(t) = d.tasks.iter().find(|t| t.name == seen[k]) {
                for n in &t.needs {
                    if n == to {
                        return true;
                    }
                    if !seen.contains(&n.as_str()) {
                        seen.push(n);
                    }
                }
            }
            k += 1;
        }
        false
    };
    for (i, t) in d.tasks.iter().enumerate() {
        for other in &t.challenges {
            // A challenger that needs what it challenges runs after it in
            // the chain, on its verified handoff: row 2 as the seed orders.
            if needs_through(&t.name, other) {
                continue;
            }
            let Some(why) = chained(&t.name).or_else(|| chained(other)) else {
                continue;
            };
            return Err(refuse_task(
                i,
                format!(
                    "task `{}` challenges `{other}`, but {why}: an adversarial pair runs side by side with claim-evidence-objection records (row 6) and an ordered chain runs one task at a time (row 2), so in one plan the critic `{}` would lose its objection record and could run before `{other}` exists",
                    t.name, t.name
                ),
                "remove the `needs` that put the pair in a chain (an adversarial pair), or remove the `challenges` (an ordered chain); run the other part as a plan of its own",
            ));
        }
    }
    Ok(())
}

/// Refuses `needs` and reads of another task's output (an input naming it)
/// that together form a cycle: like a `needs` cycle, no task of it can run
/// first, and the first to run would read a file that does not exist yet.
fn reads_cycle(d: &Decomposition) -> Result<()> {
    let (index, mut adj) = needs_graph(d);
    let reads = implicit_order(d);
    for &(i, j) in &reads {
        if !adj[i].contains(&j) {
            adj[i].push(j);
        }
    }
    let Some(names) = cycle(d, &adj) else {
        return Ok(());
    };
    let at = |n: &str| index.get(n).copied().unwrap_or(0);
    let steps: Vec<String> = names
        .windows(2)
        .map(|w| {
            let (i, j) = (at(&w[0]), at(&w[1]));
            if reads.contains(&(i, j)) && !d.tasks[i].needs.contains(&w[1]) {
                format!(
                    "`{}` reads `{}`, the output of `{}`",
                    w[0], d.tasks[j].output, w[1]
                )
            } else {
                format!("`{}` needs `{}`", w[0], w[1])
            }
        })
        .collect();
    Err(refuse_task(
        at(&names[0]),
        format!(
            "the tasks' `needs` and reads of each other's outputs form a cycle: {} ({}); an ordered handoff needs a first task that depends on nothing, and the first to run would read a file that does not exist yet",
            names.join(" → "),
            steps.join(", ")
        ),
        "change one task's input so it no longer names the other's output (or remove the `needs`) to break the cycle",
    ))
}

/// Every task with an empty name at once, located at the first.
fn unnamed_tasks(d: &Decomposition) -> Result<()> {
    let unnamed: Vec<usize> = (0..d.tasks.len())
        .filter(|&i| d.tasks[i].name.trim().is_empty())
        .collect();
    let Some(&first) = unnamed.first() else {
        return Ok(());
    };
    let which: Vec<String> = unnamed.iter().map(|i| (i + 1).to_string()).collect();
    Err(refuse_task(
        first,
        if unnamed.len() == 1 {
            format!("task {} has an empty name", first + 1)
        } else {
            format!("tasks {} have an empty name", which.join(", "))
        },
        "give every task a short unique name",
    ))
}

/// Refuses a task or role name holding a control character (NUL, a
/// newline, ESC, a tab…), a line separator or a bidirectional control, as
/// ids and labels are: names go verbatim into the plan (unit names, failure
/// reports, disposition consts) and into every printed table and message.
fn unprintable_names(d: &Decomposition) -> Result<()> {
    use crate::model::ids::{is_bidi_control, is_line_control, quote_id};
    let problem = |name: &str| {
        if name.chars().any(is_line_control) {
            Some("a control character or a line break (such as NUL or a newline)")
        } else if name.chars().any(is_bidi_control) {
            Some(
                "a bidirectional control character, which makes it display in another order than it has",
            )
        } else {
            None
        }
    };
    let refuse = |what: String, name: &str, why: &str, pointer: String| {
        Error::invalid(format!(
            "{what} `{}` holds {why}; a name is one line of printable text (it names the unit in the plan, its reports and every table printed)",
            quote_id(name)
        ))
        .with_help("give it a name of printable characters on one line, without control or bidirectional characters")
        .at(Location {
            pointer: Some(pointer),
            ..Location::default()
        })
    };
    for name in d.roles.keys() {
        if let Some(why) = problem(name) {
            return Err(refuse("the role".into(), name, why, child("/roles", name)));
        }
    }
    for (i, t) in d.tasks.iter().enumerate() {
        if let Some(why) = problem(&t.name) {
            let at = format!("/tasks/{i}/name");
            return Err(refuse(format!("task {}'s name", i + 1), &t.name, why, at));
        }
    }
    Ok(())
}

/// A task stated adversarial when nothing else is: it challenges no task,
/// no task challenges it, and no other task is adversarial, so the
/// advocate/critic mechanism would have no one to challenge.
fn lone_adversary(d: &Decomposition) -> Result<()> {
    let adversarial: Vec<usize> = (0..d.tasks.len())
        .filter(|&i| d.tasks[i].coupling == Some(Coupling::Adversarial))
        .collect();
    let [i] = adversarial.as_slice() else {
        return Ok(());
    };
    let t = &d.tasks[*i];
    let challenged = d.tasks.iter().any(|o| o.challenges.contains(&t.name));
    if !t.challenges.is_empty() || challenged {
        return Ok(());
    }
    Err(refuse_task(
        *i,
        format!(
            "task `{}` is stated adversarial, but no other task is adversarial and none challenges it or is challenged by it: roles that challenge one another need an advocate and a critic",
            t.name
        ),
        "state a second task adversarial (or give it `challenges`), or state this one independent",
    ))
}

/// Why an artifact path is not a relative path inside the working tree:
/// absolute (`/…`, `\\…`, `C:…`, `~…`), or with a `..` component (even one
/// that would come back: what a path names is then left to the file
/// system); or not one artifact of the owner's: a control character, a
/// folder (a trailing slash, `.`), inside `.git/`. (The plan store is the
/// run's: [`guard_store`].)
fn escapes(path: &str) -> Option<&'static str> {
    let p = path.trim();
    let bytes = p.as_bytes();
    if p.starts_with('/') || p.starts_with('\\') || p.starts_with('~') {
        return Some("an absolute path (or one outside the working tree)");
    }
    if bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':' {
        return Some("an absolute path (a drive)");
    }
    if p.split(['/', '\\']).any(|c| c == "..") {
        return Some("a path with a `..` component");
    }
    if p.chars().any(char::is_control) {
        return Some("a path with a control character (such as NUL), which no file name may hold");
    }
    if p.chars().any(is_bidi_control) {
        return Some(
            "a path with a bidirectional control character (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F), which makes the name show in another order than it has",
        );
    }
    if p.ends_with('/') || p.ends_with('\\') {
        return Some("a folder (it ends with a slash), not one artifact");
    }
    let parts: Vec<&str> = p
        .split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
        .collect();
    if parts.is_empty() {
        return Some("the working tree itself, not one artifact");
    }
    if parts.iter().any(|c| c.eq_ignore_ascii_case(".git")) {
        return Some("inside the repository's `.git` folder, which git owns");
    }
    if parts.iter().any(|c| is_device_name(c)) {
        return Some(
            "a path naming a Windows device (CON, PRN, AUX, NUL, COM1–COM9, LPT1–LPT9, also with an extension: `nul.md`), which Windows opens as the device, not a file",
        );
    }
    None
}

/// The Unicode bidirectional controls: embeddings and overrides
/// (U+202A–U+202E), isolates (U+2066–U+2069) and the marks (U+200E, U+200F).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

/// Whether a path component is a Windows device name: the part before its
/// first dot, trailing spaces dropped, is `CON`, `PRN`, `AUX`, `NUL`,
/// `COM1`…`COM9` or `LPT1`…`LPT9` (also `COM¹`…`³`), case ignored.
fn is_device_name(component: &str) -> bool {
    let stem = component
        .split('.')
        .next()
        .unwrap_or("")
        .trim_end_matches(' ');
    let upper = stem.to_ascii_uppercase();
    if ["CON", "PRN", "AUX", "NUL"].contains(&upper.as_str()) {
        return true;
    }
    let Some(rest) = upper
        .strip_prefix("COM")
        .or_else(|| upper.strip_prefix("LPT"))
    else {
        return false;
    };
    let mut chars = rest.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('1'..='9' | '\u{b9}' | '\u{b2}' | '\u{b3}'), None)
    )
}

/// The plan store's folder in the working tree when the run names none
/// (`planforge init`).
pub(crate) const STORE_FOLDER: &str = "plans";

/// Refuses an artifact path inside the run's plan store (`store`, relative
/// to the working directory or absolute): the plans and the owner's
/// registry.yaml are no unit's to write. Compared by components after
/// `.`/`..` are folded, ASCII case ignored (a case-insensitive file system
/// makes `PLANS/x` the store too).
pub(crate) fn guard_store(d: &Decomposition, store: &std::path::Path) -> Result<()> {
    outside_store(d, store).map_err(|e| d.place(e))
}

/// [`guard_store`]'s refusal, not yet placed in the file.
fn outside_store(d: &Decomposition, store: &std::path::Path) -> Result<()> {
    let cwd = std::env::current_dir().unwrap_or_default();
    // Symlinks resolved where the path exists (the store does).
    let cwd = std::fs::canonicalize(&cwd).unwrap_or(cwd);
    let store_abs = cwd.join(store);
    let store_abs = std::fs::canonicalize(&store_abs).unwrap_or(store_abs);
    let parts = |p: &std::path::Path| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for c in p.components() {
            match c {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    out.pop();
                }
                c => out.push(c.as_os_str().to_string_lossy().to_ascii_lowercase()),
            }
        }
        out
    };
    let root = parts(&store_abs);
    let inside = |path: &str| {
        let p = parts(&cwd.join(path.trim().replace('\\', "/")));
        p.len() >= root.len() && p[..root.len()] == root[..]
    };
    let shown = store.display();
    let help = format!(
        "give `output` a relative file path outside the plan store `{shown}/` (and `.git/`)"
    );
    if inside(&d.synthesis) {
        return Err(Error::invalid(format!(
            "the synthesis `output` `{}` is inside the plan store `{shown}/` (its plans and the owner's registry.yaml); the synthesis is written only to a named local artifact of the owner's (seed 003: reversible local authority)",
            d.synthesis
        ))
        .with_help(help)
        .at(Location {
            pointer: Some("/synthesis/output".into()),
            ..Location::default()
        }));
    }
    for (i, t) in d.tasks.iter().enumerate() {
        if inside(&t.output) {
            return Err(Error::invalid(format!(
                    "task `{}` writes `{}`, inside the plan store `{shown}/` (its plans and the owner's registry.yaml); a unit writes only a named local artifact of the owner's (seed 003: reversible local authority)",
                    t.name, t.output
                ))
                .with_help(help)
                .at(Location {
                    pointer: Some(format!("/tasks/{i}/output")),
                    ..Location::default()
                }));
        }
    }
    Ok(())
}

/// A stated coupling that contradicts the task's `needs` or `challenges`.
fn contradiction(d: &Decomposition, i: usize) -> Result<()> {
    let t = &d.tasks[i];
    let Some(stated) = t.coupling else {
        return Ok(());
    };
    let needed_by = d.tasks.iter().find(|o| o.needs.contains(&t.name));
    let challenged_by = d.tasks.iter().find(|o| o.challenges.contains(&t.name));
    let why = match stated {
        Coupling::Adversarial => None,
        Coupling::Independent if !t.needs.is_empty() => Some(format!("it needs `{}`", t.needs[0])),
        Coupling::Independent if needed_by.is_some() => Some(format!(
            "task `{}` needs it",
            needed_by.map(|o| o.name.as_str()).unwrap_or("")
        )),
        _ if !t.challenges.is_empty() => Some(format!(
            "it challenges `{}` (an adversarial pair)",
            t.challenges[0]
        )),
        _ => {
            challenged_by.map(|o| format!("task `{}` challenges it (an adversarial pair)", o.name))
        }
    };
    let why = why.or_else(|| match (stated, t.needs.first()) {
        (Coupling::Adversarial, Some(n)) => Some(format!("it needs `{n}`")),
        (Coupling::Adversarial, None) => needed_by.map(|o| format!("task `{}` needs it", o.name)),
        _ => None,
    });
    match why {
        Some(why) => Err(refuse_task(
            i,
            format!(
                "task `{}` is stated {}, but {why}: a stated coupling wins over what `needs` and `challenges` imply, so the two must agree",
                t.name,
                stated.name()
            ),
            "state the coupling the task has, or remove the `needs`/`challenges` that contradict it",
        )),
        None => Ok(()),
    }
}

/// A cycle of `needs`, as task names (first repeated at the end), if any.
fn needs_cycle(d: &Decomposition) -> Option<Vec<String>> {
    cycle(d, &needs_graph(d).1)
}

/// Each task's position by name, and each task's `needs` as positions.
fn needs_graph(d: &Decomposition) -> (IndexMap<&str, usize>, Vec<Vec<usize>>) {
    let index: IndexMap<&str, usize> = d
        .tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();
    let adj = d
        .tasks
        .iter()
        .map(|t| {
            t.needs
                .iter()
                .filter_map(|n| index.get(n.as_str()).copied())
                .collect()
        })
        .collect();
    (index, adj)
}

/// A cycle in `adj` (task → the tasks it depends on), as task names from
/// the first back to it.
fn cycle(d: &Decomposition, adj: &[Vec<usize>]) -> Option<Vec<String>> {
    // 0 = unseen, 1 = on the stack, 2 = done.
    let mut state = vec![0u8; d.tasks.len()];
    for root in 0..d.tasks.len() {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            let needs = &adj[v];
            if *next < needs.len() {
                let w = needs[*next];
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

/// A path compared as a target: `./a//b/../c` is `a/c`.
pub(crate) fn target(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.trim().split(['/', '\\']) {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts.join("/")
}

/// Orderings no `needs` states: a task whose input names another task's
/// output needs that output (task, the task it reads). The input's words
/// (and the whole text, for a path with spaces) and the outputs are folded
/// by the one key write collisions use (`contention_collision::same_file`:
/// case, `//`, `./`, `..`, NFC/NFD, trailing dots), so a read of
/// `Research//Market.md` is a read of `research/market.md` exactly when two
/// writes of them would collide.
pub(crate) fn implicit_order(d: &Decomposition) -> Vec<(usize, usize)> {
    use crate::check::contention_collision::same_file;
    let outputs: Vec<String> = d.tasks.iter().map(|t| same_file(&t.output)).collect();
    let mut out = Vec::new();
    for (i, t) in d.tasks.iter().enumerate() {
        let text = match &t.input {
            crate::model::Value::String(s) => s.clone(),
            other => crate::wire::json::compact(other).into(),
        };
        let words: Vec<String> = std::iter::once(text.as_str())
            .chain(text.split(|c: char| c.is_whitespace() || "\"'`,;:()[]{}<>|*?=".contains(c)))
            .filter(|w| !w.is_empty())
            .map(same_file)
            .collect();
        for (j, path) in outputs.iter().enumerate() {
            if i != j && path.len() >= 3 && words.iter().any(|w| w.contains(path.as_str())) {
                out.push((i, j));
            }
        }
    }
    out
}
