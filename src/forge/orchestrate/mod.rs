//! Orchestration patterns (SPEC §9, seed 003): a task decomposition becomes
//! a plan. The decomposition is read and validated ([`decomposition`]); each
//! task's coupling is classified (ordered / adversarial / independent); one
//! bounded mechanism is chosen, the first matching row of the seed's table,
//! and the four multi-subagent checks run, with their fallbacks
//! ([`mechanism`]); the units are built at depth 1 ([`build`]); and [`emit`]
//! builds the plan's nodes and edges.

pub(crate) mod build;
pub(crate) mod decomposition;
pub(crate) mod emit;
pub(crate) mod mechanism;

pub(crate) use decomposition::{Decomposition, STORE_FOLDER, guard_store, parse};

use crate::model::Content;
use crate::model::error::Result;
use crate::model::registry::Registry;
use build::Spec;
use mechanism::{CheckResult, Classified, Mechanism};

/// What `orchestrate` decided, and the plan.
#[derive(Debug, Clone)]
pub(crate) struct Orchestration {
    pub(crate) couplings: Vec<Classified>,
    /// The row that matched (`None`: none did).
    pub(crate) matched: Option<Mechanism>,
    pub(crate) why: String,
    pub(crate) checks: Vec<CheckResult>,
    /// The mechanism the plan uses, after the checks' fallbacks.
    pub(crate) mechanism: Mechanism,
    /// Each fallback taken, saying which check failed.
    pub(crate) reductions: Vec<String>,
    /// The bounds raised above the defaults to fit the plan: (name, default,
    /// value).
    pub(crate) bounds: Vec<(&'static str, u64, u64)>,
    /// Per role: the spawning tools removed from its tools.
    pub(crate) removed: Vec<(String, Vec<String>)>,
    /// The units' names in spawn order.
    pub(crate) order: Vec<String>,
    /// Per task, in declaration order: what its unit became.
    pub(crate) tasks: Vec<TaskUnit>,
    pub(crate) spec: Spec,
    pub(crate) content: Content,
    pub(crate) label: String,
}

/// What a task's unit became: the artifact it writes (a separate one after
/// a contention collision), and its source slice when kept out of the plan.
#[derive(Debug, Clone)]
pub(crate) struct TaskUnit {
    pub(crate) output: String,
    pub(crate) slice: Option<build::Slice>,
}

/// Classifies, chooses, checks and builds the plan for `plan_id`.
pub(crate) fn orchestrate(
    d: &Decomposition,
    registry: &Registry,
    plan_id: &str,
) -> Result<Orchestration> {
    let couplings = mechanism::classify(d);
    let (matched, why) = mechanism::choose(d, &couplings);
    let n = d.tasks.len();
    let checked = mechanism::check(d, matched)?;
    let adversarial = matched == Some(mechanism::Mechanism::AdvocateCritic);
    let built = build::spec_of(d, &checked, registry, adversarial);
    let tasks: Vec<TaskUnit> = (0..n)
        .map(|i| {
            let k = built.order.iter().position(|&x| x == i).unwrap_or(0);
            TaskUnit {
                output: checked.outputs[i].clone(),
                slice: built.spec.units[k].slice.clone(),
            }
        })
        .collect();
    let mechanism = checked.mechanism;
    let spec = built.spec;
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
        checks: checked.checks,
        mechanism,
        reductions: checked.reductions,
        bounds,
        removed: built.removed,
        order: built
            .order
            .iter()
            .map(|&i| d.tasks[i].name.clone())
            .collect(),
        tasks,
        spec,
        content,
        label,
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Value;
    use crate::model::error::Result;
    use crate::model::registry::Registry;
    use crate::wire::parse::Syntax;
    use build::{NO_SPAWN, SPAWN_TOOL};
    use decomposition::Decomposition;
    use mechanism::{Coupling, Mechanism, classify};

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
        // Row 3 on its whole condition: large inputs and digests.
        let big = |name: &str, role: &str| {
            format!(
                "  - {{name: {name}, role: {role}, goal: goal of {name}, input: {}, output: {name}.md, digest: d}}\n",
                "x".repeat(2000)
            )
        };
        assert_eq!(
            mechanism_of(&format!("{}{}", big("a", "r"), big("b", "q"))).0,
            Some(Mechanism::BoundedDigest)
        );
        // Digests of small inputs: not row 3, so row 1 matched first.
        assert_eq!(
            mechanism_of(&two(", digest: d", ", digest: d")).0,
            Some(Mechanism::FanOut)
        );
        assert_eq!(mechanism_of(&task("a", "r", "")).0, Some(Mechanism::Single));
        let shared = format!("{}{}", task("a", "r", ""), task("b", "r", ""));
        assert_eq!(mechanism_of(&shared).0, Some(Mechanism::PerUnit));
        assert_eq!(
            mechanism_of(&two("", ", challenges: a")).0,
            Some(Mechanism::AdvocateCritic)
        );
        // Some but not all with a digest, distinct roles: row 1.
        assert_eq!(
            mechanism_of(&two(", digest: d", "")),
            (Some(Mechanism::FanOut), Mechanism::FanOut)
        );
    }

    #[test]
    fn rows_three_and_five_need_every_task_independent() {
        // Adversarial tasks that declare digests: row 6, not row 3.
        let adversarial_digests = format!(
            "{}{}",
            task("a", "r", ", digest: d"),
            task("b", "q", ", digest: d, challenges: a")
        );
        assert_eq!(
            mechanism_of(&adversarial_digests).0,
            Some(Mechanism::AdvocateCritic)
        );
        // An advocate and a critic sharing one role: row 6, not row 5.
        let shared = format!(
            "{}{}",
            task("a", "r", ""),
            task("b", "r", ", challenges: a")
        );
        assert_eq!(mechanism_of(&shared).0, Some(Mechanism::AdvocateCritic));
        // Stated couplings win: independent tasks stated adversarial.
        let stated = format!(
            "{}{}",
            task("a", "r", ", coupling: adversarial"),
            task("b", "q", ", coupling: adversarial")
        );
        assert_eq!(mechanism_of(&stated).0, Some(Mechanism::AdvocateCritic));
        let d = decomposition(&stated).unwrap();
        assert!(classify(&d).iter().all(|c| c.source == "stated"));
    }

    #[test]
    fn couplings_follow_needs_and_challenges_both_ways() {
        let chain = decomposition(&format!(
            "{}{}{}",
            task("a", "r", ""),
            task("b", "q", ", needs: a"),
            task("e", "q", "")
        ))
        .unwrap();
        assert_eq!(
            classify(&chain)
                .iter()
                .map(|c| c.coupling)
                .collect::<Vec<_>>(),
            vec![Coupling::Ordered, Coupling::Ordered, Coupling::Independent]
        );
        let pair = decomposition(&format!(
            "{}{}",
            task("c", "r", ", challenges: [d]"),
            task("d", "q", "")
        ))
        .unwrap();
        assert_eq!(
            classify(&pair)
                .iter()
                .map(|c| c.coupling)
                .collect::<Vec<_>>(),
            vec![Coupling::Adversarial, Coupling::Adversarial]
        );
        // Both in one decomposition: no row of the seed runs both, so the
        // tasks are named (`pair_beside_chain`).
        let both = decomposition(&format!(
            "{}{}{}{}",
            task("a", "r", ""),
            task("b", "q", ", needs: a"),
            task("c", "r", ", challenges: [d]"),
            task("d", "q", "")
        ))
        .unwrap_err();
        assert!(
            both.message.starts_with(
                "tasks `c`, `d` are adversarial (they challenge one another) and tasks `a`, `b` are an ordered chain beside them"
            ),
            "{}",
            both.message
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
        assert!(args["instructions"].as_str().unwrap().ends_with(NO_SPAWN));
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
        // The checks that passed say they no longer describe the plan.
        let worth = o
            .checks
            .iter()
            .find(|c| c.name == "parallelism is worth it");
        assert!(
            worth.is_some_and(|c| c
                .detail
                .ends_with("after the fallback the units run one at a time")),
            "{:?}",
            o.checks
        );
        // Paths that differ only by case are one file on a case-insensitive
        // file system: a shared target, so the later task gets its own.
        let cased = "  - {name: a, role: r, goal: g, input: i, output: Notes/A.md}\n  - {name: b, role: q, goal: h, input: j, output: ./notes/a.md}\n";
        let o = orchestrate(&decomposition(cased).unwrap(), &registry(), "plan-t").unwrap();
        assert_eq!(o.mechanism, Mechanism::OrderedHandoff);
        assert_eq!(o.spec.units[1].output, Value::String("notes/a.b.md".into()));
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
        // Half the budget left after the texts the verify steps hold: input,
        // goal, output path and name of each task.
        let inputs = 2 * ("input of a".len() + "goal of a".len() + "a.md".len() + 1) as u64;
        let per = (200_000 - inputs) / 2;
        assert!(o.spec.units.iter().all(|u| u.max_output_bytes == per));
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
        // Check 3 counts the goals the verify steps hold, not only inputs:
        // a goal larger than the budget is refused, not embedded.
        let huge = format!(
            "{}  - {{name: b, role: q, goal: {}, input: i, output: b.md}}\n",
            task("a", "r", ""),
            "g".repeat(250_000)
        );
        let e = orchestrate(&decomposition(&huge).unwrap(), &registry(), "plan-t").unwrap_err();
        assert!(
            e.message.contains("context overflow") && e.message.contains("goals"),
            "{}",
            &e.message[..e.message.len().min(400)]
        );
    }

    #[test]
    fn spawning_tools_listed_twice_are_removed_once() {
        let text = "roles:\n  r: {instructions: w, tools: [spawn_subagent, read_file, spawn_subagent]}\ntasks:\n  - {name: a, role: r, goal: g, input: i, output: a.md}\nsynthesis: {output: out.md}\n";
        let d = parse(text, Syntax::Yaml, "t.yaml").unwrap();
        let o = orchestrate(&d, &registry(), "plan-t").unwrap();
        assert_eq!(
            o.removed,
            vec![("r".to_string(), vec![SPAWN_TOOL.to_string()])]
        );
    }

    #[test]
    fn spawning_tools_differing_in_case_or_spaces_are_removed() {
        let text = "roles:\n  r: {instructions: w, tools: [read_file, Spawn_Subagent, \"  spawn_subagent \"]}\ntasks:\n  - {name: a, role: r, goal: g, input: i, output: a.md}\nsynthesis: {output: out.md}\n";
        let d = parse(text, Syntax::Yaml, "t.yaml").unwrap();
        let o = orchestrate(&d, &registry(), "plan-t").unwrap();
        assert_eq!(
            o.removed,
            vec![(
                "r".to_string(),
                vec![
                    "Spawn_Subagent".to_string(),
                    "  spawn_subagent ".to_string()
                ]
            )]
        );
        let spawn = o.content.nodes.iter().find(|n| n.id == "spawn_a").unwrap();
        let tools: Vec<&str> = spawn
            .get("args")
            .and_then(|a| a.as_object()?.get("tools")?.as_array())
            .unwrap()
            .iter()
            .filter_map(|t| t.as_str())
            .collect();
        assert_eq!(tools, vec!["read_file"]);
    }

    #[test]
    fn a_large_decomposition_raises_its_bounds_and_stays_clean() {
        // 90 units: 3 nodes each, past the default 256 nodes.
        let tasks: String = (0..90).map(|k| task(&format!("t{k}"), "r", "")).collect();
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
            (
                task("a", "nobody", ""),
                "task `a` has the unknown role `nobody`",
            ),
            (
                "  - {name: a, role: r, input: i, output: a.md}\n".to_string(),
                "task `a` has no goal",
            ),
            (
                "  - {name: a, role: r, goal: g, input: i}\n".to_string(),
                "task `a` has no output",
            ),
            (
                format!(
                    "{}{}",
                    task("a", "r", ", needs: b"),
                    task("b", "q", ", needs: a")
                ),
                "cycle: a → b → a",
            ),
            (
                format!("{}{}", task("a", "r", ", needs: c"), task("b", "q", "")),
                "task `a` needs `c`, which is not a task",
            ),
            (
                format!(
                    "{}{}",
                    task("a", "r", ", coupling: independent"),
                    task("b", "q", ", needs: a")
                ),
                "task `a` is stated independent, but task `b` needs it",
            ),
            (
                format!(
                    "{}{}",
                    task("a", "r", ", coupling: ordered, challenges: [b]"),
                    task("b", "q", "")
                ),
                "task `a` is stated ordered, but it challenges `b` (an adversarial pair)",
            ),
            (
                format!(
                    "{}{}",
                    task("a", "r", ", challenges: [b]"),
                    task("b", "q", ", coupling: independent")
                ),
                "task `b` is stated independent, but task `a` challenges it (an adversarial pair)",
            ),
            (
                format!("{}{}", task("a", "r", ", coupling: adversarial"), task("b", "q", "")),
                "task `a` is stated adversarial, but no other task is adversarial",
            ),
            (
                "  - {name: ' ', role: r, goal: g, input: i, output: a.md}\n  - {name: '', role: r, goal: g, input: i, output: b.md}\n".to_string(),
                "tasks 1, 2 have an empty name",
            ),
            (
                task("a", "r", ", coupling: serial"),
                "is `serial`; a coupling is one of independent, ordered, adversarial",
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
}
