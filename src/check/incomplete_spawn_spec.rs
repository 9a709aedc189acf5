//! Complexity: O(n + Σ size of the spawning calls' args).

use crate::check::support::is_canonical;
use crate::check::synthesis::set_arg;
use crate::model::Issue;
use crate::model::remedy::Fill;
use crate::model::{NodeKind, Value};

/// The no-spawn line `orchestrate` and the built-in templates end every
/// role's instructions with (seed 003, "Enforce orchestration depth = 1").
pub(crate) const NO_SPAWN: &str = "Do not spawn, start or delegate to any other agent: only the orchestrator spawns subagents. Record proposed follow-up work in your artifact for the orchestrator to decide after verification.";

/// The seven parts of a spawn spec (seed 003, "Spawn the selected units"),
/// as (what the seed calls it, the args that carry it). The tools part is
/// the registry entry's `toolsArg`.
const PARTS: [(&str, &[&str]); 7] = [
    ("role", &["role"]),
    ("bounded input", &["input"]),
    ("goal", &["goal"]),
    ("allowed tools", &[]),
    ("forbidden writes", &["forbiddenWrites"]),
    ("output path or schema", &["output", "schema"]),
    ("done predicate", &["done"]),
];

/// The spawn arg that carries the no-spawn prohibition as data: literal
/// `true` forbids the subagent to spawn (orchestration depth 1). The check
/// reads this field, never the wording of the instructions, so a reworded
/// prohibition neither hides nor fakes it.
pub(crate) const NO_SPAWN_ARG: &str = "noSpawn";

/// An arg that is there but says nothing: `null`, a blank string, `{}`, and
/// `[]` for every part but the allowed tools (a unit may use none).
fn is_empty(v: &Value, tools: bool) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Object(m) => m.is_empty(),
        Value::Array(a) => a.is_empty() && !tools,
        _ => false,
    }
}

declare_check! {
    /// ## What it finds
    /// A call of a spawning tool (`spawnsAgent: true` in the registry)
    /// whose spawn spec lacks one of the seven parts seed 003 gives every
    /// subagent — role (`role`), bounded input (`input`), goal (`goal`),
    /// allowed tools (the entry's `toolsArg`), forbidden writes
    /// (`forbiddenWrites`), output path or schema (`output` or `schema`) and
    /// done predicate (`done`) — or passes one of them empty (`null`, a blank
    /// string, `{}`, or `[]` for any part but the allowed tools, since a unit
    /// may be allowed no tool), or whose explicit no-spawn prohibition is not
    /// the literal `"noSpawn": true` (missing, `false`, or a value a run
    /// could change). An arg the registry entry already requires is reported
    /// by `missing_arg` when absent, not here.
    ///
    /// The prohibition is read from the structured field, never from the
    /// wording of `instructions`: prose can be negated or hedged ("unless you
    /// need to") and stay full of the right words, or be reworded and say
    /// the same thing, so a check on words would miss the first and flag the
    /// second. `orchestrate` and the built-in templates set `noSpawn: true`
    /// and also state the prohibition in the instructions, for the subagent
    /// to read.
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// A subagent knows only what its spawn spec says. Without a bounded
    /// input or a done predicate it cannot tell when it is finished; without
    /// forbidden writes it may overwrite another unit's artifact; without the
    /// no-spawn prohibition it may start agents of its own, which nobody
    /// verifies (orchestration depth must stay 1). A hand edit of an
    /// orchestrated plan can drop any of these silently.
    /// In seed 003 this check carries step 5 (spawn every unit with its
    /// role, input, goal, tools, forbidden writes, output and done
    /// predicate) and step 4 (the explicit no-spawn prohibition).
    ///
    /// ## How to fix
    /// Give the call every part, non-empty, and set `args.noSpawn` to `true`
    /// (and say it in `instructions` too, e.g. "Do not spawn, start or
    /// delegate to any other agent: only the orchestrator spawns
    /// subagents.").
    ///
    /// ## Example
    /// ```json
    /// {"tool": "spawn_subagent", "args": {"role": "critic", "instructions": "Challenge the claims.", "input": "e.md", "goal": "", "tools": [], "forbiddenWrites": ["s.md"], "output": "c.md", "done": "every claim answered"}}
    /// ```
    /// fires twice over: `goal` is blank and no `noSpawn: true` prohibits
    /// spawning. Fixed: a concrete `goal`, `"noSpawn": true`, and
    /// `"instructions": "Challenge the claims. Do not spawn, start or
    /// delegate to any other agent: only the orchestrator spawns
    /// subagents."`.
    pub IncompleteSpawnSpec { code: "incomplete_spawn_spec", severity: Blocking, needs: REGISTRY, source: Check, scope: Node }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Call || !is_canonical(g, i) {
                continue;
            }
            let Some(tool) = n.tool() else { continue };
            let Some(entry) = reg.tool(tool) else { continue };
            if !entry.spawns_agent {
                continue;
            }
            let empty = crate::model::Map::new();
            let args = n.get("args").and_then(Value::as_object).unwrap_or(&empty);
            let tools_arg = entry.tools_arg.as_deref().unwrap_or("tools");
            let mut lacking = Vec::new();
            let mut fixes = Vec::new();
            for (part, names) in PARTS {
                let names: Vec<&str> = if names.is_empty() { vec![tools_arg] } else { names.to_vec() };
                let tools = names == [tools_arg];
                let present: Vec<&Value> = names.iter().filter_map(|a| args.get(a)).collect();
                if present.iter().any(|v| !is_empty(v, tools)) {
                    continue;
                }
                if present.is_empty() && names.iter().any(|a| entry.required_args.iter().any(|r| r == a)) {
                    continue; // missing_arg says so
                }
                lacking.push(format!(
                    "{part} ({} {})",
                    names.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(" or "),
                    if present.is_empty() { "missing" } else { "empty" }
                ));
                fixes.push(set_arg(n, Some(entry), &format!("args.{}", names[0]), Fill::choose(format!("the subagent's {part}"))));
            }
            let said = match args.get(NO_SPAWN_ARG) {
                Some(Value::Bool(true)) => None,
                None => Some("missing"),
                Some(Value::Bool(false)) => Some("false"),
                Some(_) => Some("not the literal `true`"),
            };
            if let Some(said) = said {
                lacking.push(format!(
                    "the explicit no-spawn prohibition (`{NO_SPAWN_ARG}` {said})"
                ));
                fixes.push(set_arg(n, Some(entry), &format!("args.{NO_SPAWN_ARG}"), Fill::Value(Value::Bool(true))));
                let worded = args
                    .get("instructions")
                    .and_then(Value::as_str)
                    .is_some_and(|s| s.contains(NO_SPAWN));
                if !worded {
                    let value = match args.get("instructions").and_then(Value::as_str) {
                        Some(s) if !s.trim().is_empty() => format!("{}\n\n{NO_SPAWN}", s.trim_end()),
                        _ => NO_SPAWN.to_string(),
                    };
                    fixes.push(set_arg(n, Some(entry), "args.instructions", Fill::Value(Value::from(value))));
                }
            }
            if lacking.is_empty() {
                continue;
            }
            let mut issue = Issue::new(
                CODE,
                format!(
                    "call `{}` spawns a subagent with `{tool}`, but its spawn spec lacks {}; every subagent gets its role, bounded input, goal, allowed tools, forbidden writes, output path or schema and done predicate, and an explicit no-spawn prohibition",
                    n.id,
                    lacking.join("; ")
                ),
            )
            .node(n.id.clone())
            .at("/definition/args".to_string());
            for f in fixes {
                issue = issue.fix(f);
            }
            out.push(issue);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{IncompleteSpawnSpec, NO_SPAWN};
    use crate::check::testing::*;
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true, toolsArg: allowed, requiredArgs: [role]}, read: {returns: text}}";

    fn full() -> serde_json::Value {
        json!({"role": "r", "instructions": format!("Work.\n\n{NO_SPAWN}"), "input": "i",
               "goal": "g", "allowed": [], "forbiddenWrites": ["s.md"], "output": "o.md",
               "done": "d", "noSpawn": true})
    }

    fn issues_of(args: serde_json::Value) -> Vec<crate::model::Issue> {
        let p = plan(vec![call_with("a", "spawn", args, &[])], vec![]);
        run_reg(&IncompleteSpawnSpec, &p, &registry(REG))
    }

    #[test]
    fn fires_on_a_dropped_part_a_blank_part_and_no_prohibition() {
        let mut args = full();
        args.as_object_mut().unwrap().remove("done");
        args.as_object_mut().unwrap().remove("noSpawn");
        args["goal"] = json!(" ");
        args["instructions"] = json!("Work.");
        args["forbiddenWrites"] = json!([]);
        let issues = issues_of(args);
        assert_eq!(issues.len(), 1, "{issues:#?}");
        let m = &issues[0].message;
        assert!(m.contains("goal (`goal` empty)"), "{m}");
        assert!(
            m.contains("forbidden writes (`forbiddenWrites` empty)"),
            "{m}"
        );
        assert!(m.contains("done predicate (`done` missing)"), "{m}");
        assert!(
            m.contains("no-spawn prohibition (`noSpawn` missing)"),
            "{m}"
        );
        // goal, forbiddenWrites, done, noSpawn and the instructions' words.
        assert_eq!(issues[0].fixes.len(), 5);
    }

    #[test]
    fn a_weakened_prohibition_fires_whatever_the_words_say() {
        // The words still prohibit, the field no longer does.
        let mut args = full();
        args["noSpawn"] = json!(false);
        let issues = issues_of(args);
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(issues[0].message.contains("(`noSpawn` false)"));
        assert_eq!(issues[0].fixes.len(), 1, "the words are already there");
        let mut args = full();
        args["noSpawn"] = json!("yes");
        assert!(
            issues_of(args)[0]
                .message
                .contains("not the literal `true`")
        );
    }

    #[test]
    fn a_required_arg_left_out_is_missing_args_to_report() {
        let mut args = full();
        args.as_object_mut().unwrap().remove("role");
        assert!(issues_of(args).is_empty());
    }

    #[test]
    fn passes_a_complete_spec_reworded_with_a_schema_instead_of_an_output() {
        let mut args = full();
        args.as_object_mut().unwrap().remove("output");
        args["schema"] = json!("points: [..]");
        // Reworded instructions: the field carries the prohibition.
        args["instructions"] = json!("Work. Never create sub-agents; you must not delegate.");
        let p = plan(
            vec![
                call_with("a", "spawn", args, &[]),
                call_with("b", "read", json!({}), &[]),
            ],
            vec![],
        );
        assert!(run_reg(&IncompleteSpawnSpec, &p, &registry(REG)).is_empty());
    }
}
