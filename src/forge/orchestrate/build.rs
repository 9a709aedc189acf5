//! What the plan is built from: a [`Spec`] of subagent units, from a
//! decomposition and the chosen mechanism (units in spawn order, depth 1:
//! no spawning tool, the no-spawn line in every role's instructions) or
//! from a built-in template's holes.

use super::decomposition::{Coupling, Decomposition};
use super::mechanism::{Checked, Mechanism};
use crate::model::registry::Registry;
use crate::model::{DeclaredField, Value};

/// The tool a subagent is spawned with (always treated as spawning).
pub(crate) const SPAWN_TOOL: &str = "spawn_subagent";

/// The line every role's instructions end with (orchestration depth 1), for
/// the subagent to read; `incomplete_spawn_spec` reads the `noSpawn` field
/// every spawn also passes, never these words.
pub(crate) use crate::check::incomplete_spawn_spec::NO_SPAWN;

/// The done predicate of a unit that names none.
pub(crate) const DEFAULT_DONE: &str = "The artifact answers the goal for the whole assigned input, follows the required schema, and cites evidence for every factual claim.";

/// The schema of an ordinary unit's artifact.
pub(crate) const ARTIFACT_SCHEMA: &str = "findings: a list of {claim, evidence} records, each claim citing its evidence (source, file, line or quote); coverage: which parts of the assigned input were covered; followUps: proposed follow-up work, for the orchestrator to decide (never started by you).";

/// The one schema every unit of a per-unit mechanism returns.
pub(crate) const UNIT_SCHEMA: &str = "The same schema from every unit: unit (the unit's name); findings: a list of {claim, evidence} records; coverage: which parts of the assigned input were covered; followUps: proposed follow-up work, for the orchestrator to decide.";

/// The schema of advocate and critic artifacts.
pub(crate) const ADVERSARIAL_SCHEMA: &str = "claim-evidence-objection records: a list of {claim, evidence, objection}, where the advocate states claims with the evidence that supports them and the critic states an objection to a claim with the evidence that undermines it; every record cites its evidence. followUps: proposed follow-up work, for the orchestrator to decide.";

/// The schema of advocate and critic artifacts whose slice is kept out of
/// the plan (context overflow): the same records, as a bounded digest.
pub(crate) const ADVERSARIAL_DIGEST_SCHEMA: &str = "A bounded digest of the assigned slice only (never its source text): slice: the identity (sha256) and extent of the slice it covers; records: claim-evidence-objection records, a list of {claim, evidence, objection}, where the advocate states claims with the evidence in the slice that supports them and the critic states an objection to a claim with the evidence in the slice that undermines it; every record cites where in the slice it comes from; gaps: what the slice does not cover; followUps: proposed follow-up work, for the orchestrator to decide.";

/// The digest schema of a unit whose output was bounded to fit the
/// orchestrator's context and that names no digest of its own.
pub(crate) const DIGEST_SCHEMA: &str = "A bounded digest of the assigned slice only (never its source text): slice: the identity (sha256) and extent of the slice it covers; points: a list of {claim, evidence} records, each citing where in the slice it comes from; gaps: what the slice does not cover; followUps: proposed follow-up work, for the orchestrator to decide.";

/// One subagent unit.
#[derive(Debug, Clone)]
pub(crate) struct Unit {
    /// The task's name (messages, dispositions, reports).
    pub(crate) name: String,
    /// The node id suffix (`spawn_<slug>` …).
    pub(crate) slug: String,
    pub(crate) role: Value,
    /// The role's instructions, already ending with [`NO_SPAWN`].
    pub(crate) instructions: Value,
    /// The tools the subagent may use (no spawning tool).
    pub(crate) tools: Vec<String>,
    pub(crate) goal: Value,
    /// The assigned input (used when `needs` is empty).
    pub(crate) input: Value,
    /// Path of the artifact the unit writes.
    pub(crate) output: Value,
    pub(crate) done: Value,
    /// The schema its artifact must follow.
    pub(crate) schema: Value,
    pub(crate) max_output_bytes: u64,
    /// Units (indices into `Spec::units`, earlier in a chain) whose verified
    /// handoff is this unit's input.
    pub(crate) needs: Vec<usize>,
    /// Units (indices) whose evidence and conclusions this unit challenges.
    pub(crate) challenges: Vec<usize>,
    /// Its source slice, kept out of the plan (bounded digest): the run
    /// input the spawn reads it from, and its identity.
    pub(crate) slice: Option<Slice>,
}

/// A unit's source slice, named in the plan only by its identity and
/// extent: the run supplies it as the entry field `field`, and only the
/// unit's spawn reads it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Slice {
    /// The entry (and `accept`) field the run supplies it in.
    pub(crate) field: String,
    /// Lowercase hex SHA-256 of its bytes (the text of a string input, the
    /// compact JSON of any other).
    pub(crate) sha256: String,
    pub(crate) bytes: u64,
    pub(crate) lines: u64,
}

impl Slice {
    /// The slice of an input value, supplied as `field`.
    pub(crate) fn of(field: String, input: &Value) -> Slice {
        use sha2::Digest;
        let text = match input {
            Value::String(s) => s.clone(),
            other => crate::wire::json::compact(other).into(),
        };
        let sha256 = sha2::Sha256::digest(text.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        Slice {
            field,
            sha256,
            bytes: text.len() as u64,
            lines: text.lines().count().max(1) as u64,
        }
    }

    /// The identity and extent, as the plan states them.
    pub(crate) fn identity(&self) -> Value {
        let mut m = crate::model::Map::new();
        m.insert("runInput".into(), Value::from(self.field.as_str()));
        m.insert("sha256".into(), Value::from(self.sha256.as_str()));
        m.insert("bytes".into(), Value::from(self.bytes));
        m.insert("lines".into(), Value::from(self.lines));
        Value::Object(m)
    }
}

/// Everything the plan is built from.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    pub(crate) mechanism: Mechanism,
    /// In spawn order (a chain runs them in this order).
    pub(crate) units: Vec<Unit>,
    /// Path of the synthesis artifact.
    pub(crate) synthesis: Value,
    /// Fields `accept` declares and declassifies besides `assignment`
    /// (a template's params).
    pub(crate) accepted: Vec<DeclaredField>,
    /// The units challenge one another (row 6 matched): each keeps the
    /// claim-evidence-objection schema and `reconcile` resolves each
    /// objection, also when a failed check runs them one at a time.
    pub(crate) adversarial: bool,
    /// Targets no unit may write: the shared target of a contention
    /// collision, which keeps its pre-run state (every spawn lists it in
    /// `forbiddenWrites`).
    pub(crate) protected: Vec<Value>,
}

impl Spec {
    /// Whether the units run concurrently and meet at a join.
    pub(crate) fn parallel(&self) -> bool {
        self.mechanism.concurrent() && self.units.len() >= 2
    }
}

/// The spawning tools of a registry: those marked `spawnsAgent`, and
/// `spawn_subagent` always.
pub(crate) fn spawning_tools(registry: &Registry) -> Vec<String> {
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

/// Whether a role's tool is one of the spawning tools: compared with its
/// surrounding spaces trimmed and case folded, since a runtime may trim or
/// case-fold tool names (`Spawn_Subagent`, `" spawn_subagent "`).
fn is_spawning(tool: &str, spawning: &[String]) -> bool {
    let t = tool.trim().to_lowercase();
    spawning.iter().any(|s| s.trim().to_lowercase() == t)
}

/// Task indices in spawn order for a chain: what a task needs first, ties
/// in declaration order (a cycle of inferred needs is broken at the first
/// task declared).
fn chain_order(needs: &[Vec<usize>]) -> Vec<usize> {
    let n = needs.len();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    while order.len() < n {
        let next = (0..n)
            .find(|&i| !done[i] && needs[i].iter().all(|&j| done[j]))
            .or_else(|| (0..n).find(|&i| !done[i]));
        if let Some(i) = next {
            done[i] = true;
            order.push(i);
        }
    }
    order
}

/// The spec of a decomposition's plan, and how it was reached.
#[derive(Debug, Clone)]
pub(crate) struct Built {
    pub(crate) spec: Spec,
    /// Task indices in spawn order.
    pub(crate) order: Vec<usize>,
    /// Per role: the spawning tools removed from its tools.
    pub(crate) removed: Vec<(String, Vec<String>)>,
}

/// The units of `d` under the checked mechanism, in spawn order, at depth 1.
pub(crate) fn spec_of(
    d: &Decomposition,
    checked: &Checked,
    registry: &Registry,
    adversarial: bool,
) -> Built {
    let spawning = spawning_tools(registry);
    let removed = depth_one(d, &spawning);
    let (mechanism, cap) = (checked.mechanism, checked.cap);
    let n = d.tasks.len();
    let order: Vec<usize> = if mechanism.concurrent() {
        (0..n).collect()
    } else {
        chain_order(&checked.needs)
    };
    let position: Vec<usize> = {
        let mut p = vec![0; n];
        for (k, &i) in order.iter().enumerate() {
            p[i] = k;
        }
        p
    };
    let index_of = |name: &str| d.tasks.iter().position(|t| t.name == name);
    let keys = crate::check::unit_keys(order.iter().map(|&i| d.tasks[i].name.as_str()));
    let mut firsts: std::collections::HashMap<usize, String> = std::collections::HashMap::new();
    let units: Vec<Unit> = order
        .iter()
        .zip(keys)
        .map(|(&i, slug)| {
            let t = &d.tasks[i];
            let role = &d.roles[&t.role];
            let sliced = checked.sliced[i];
            // An advocate/critic pair reduced to ordered handoffs (a failed
            // check) still challenges: its records keep their schema. A task
            // beside the pair that challenges nobody, is challenged by
            // nobody and is not stated adversarial keeps its own schema.
            let in_pair = !t.challenges.is_empty()
                || t.coupling == Some(Coupling::Adversarial)
                || d.tasks.iter().any(|o| o.challenges.contains(&t.name));
            let challenge = in_pair && (adversarial || mechanism == Mechanism::AdvocateCritic);
            let schema = match (mechanism, &t.digest) {
                _ if challenge && sliced => Value::from(ADVERSARIAL_DIGEST_SCHEMA),
                _ if challenge => Value::from(ADVERSARIAL_SCHEMA),
                (Mechanism::PerUnit, _) => Value::from(UNIT_SCHEMA),
                (_, Some(dg)) => dg.clone(),
                (Mechanism::BoundedDigest, None) => Value::from(DIGEST_SCHEMA),
                (_, None) if cap.is_some() || sliced => Value::from(DIGEST_SCHEMA),
                (_, None) => Value::from(ARTIFACT_SCHEMA),
            };
            // A unit given the same evidence as an earlier sliced one reads
            // the same run input.
            let slice = sliced.then(|| {
                let first = order
                    .iter()
                    .copied()
                    .find(|&j| checked.sliced[j] && d.tasks[j].input == t.input)
                    .unwrap_or(i);
                let name = if first == i {
                    slug.clone()
                } else {
                    firsts.get(&first).cloned().unwrap_or_else(|| slug.clone())
                };
                firsts.entry(i).or_insert_with(|| slug.clone());
                Slice::of(format!("slice_{name}"), &t.input)
            });
            let instructions = if role.instructions.trim().is_empty() {
                NO_SPAWN.to_string()
            } else {
                format!("{}\n\n{}", role.instructions.trim_end(), NO_SPAWN)
            };
            Unit {
                name: t.name.clone(),
                slug,
                role: Value::from(t.role.as_str()),
                instructions: Value::from(instructions),
                tools: role
                    .tools
                    .iter()
                    .filter(|x| !is_spawning(x, &spawning))
                    .cloned()
                    .collect(),
                goal: Value::from(t.goal.as_str()),
                input: t.input.clone(),
                output: Value::from(checked.outputs[i].as_str()),
                done: Value::from(t.done.as_deref().unwrap_or(DEFAULT_DONE)),
                schema,
                max_output_bytes: cap.map_or(t.max_output_bytes, |c| c.min(t.max_output_bytes)),
                needs: if mechanism.concurrent() {
                    Vec::new()
                } else {
                    // Only units spawned before it can hand it their output.
                    checked.needs[i]
                        .iter()
                        .map(|&j| position[j])
                        .filter(|&p| p < position[i])
                        .collect()
                },
                challenges: t
                    .challenges
                    .iter()
                    .filter_map(|x| index_of(x))
                    .map(|j| position[j])
                    .collect(),
                slice,
            }
        })
        .collect();
    Built {
        spec: Spec {
            mechanism,
            units,
            synthesis: Value::from(d.synthesis.as_str()),
            accepted: Vec::new(),
            adversarial: adversarial || mechanism == Mechanism::AdvocateCritic,
            protected: shared_targets(d, checked),
        },
        order,
        removed,
    }
}

/// The declared outputs a contention collision took away from their tasks
/// (each once, in declaration order; the synthesis is forbidden anyway).
fn shared_targets(d: &Decomposition, checked: &Checked) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for (t, given) in d.tasks.iter().zip(&checked.outputs) {
        let target = Value::from(t.output.as_str());
        if *given != t.output && t.output != d.synthesis && !out.contains(&target) {
            out.push(target);
        }
    }
    out
}

/// Depth 1: per role, the spawning tools its subagent will not get.
fn depth_one(d: &Decomposition, spawning: &[String]) -> Vec<(String, Vec<String>)> {
    let mut removed = Vec::new();
    for (name, role) in &d.roles {
        let mut gone: Vec<String> = Vec::new();
        for t in role.tools.iter().filter(|t| is_spawning(t, spawning)) {
            if !gone.contains(t) {
                gone.push(t.clone());
            }
        }
        if !gone.is_empty() {
            removed.push((name.clone(), gone));
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use crate::check::unit_keys;

    #[test]
    fn keys_are_node_id_safe_and_unique() {
        assert_eq!(
            unit_keys([
                "Security Review!",
                "security-review",
                "éé",
                "SECURITY review"
            ]),
            [
                "security_review",
                "security_review_2",
                "task",
                "security_review_3"
            ]
        );
        // A name that is already another's suffixed key keeps its own key.
        assert_eq!(
            unit_keys(["survey_north_2", "survey: north", "survey north"]),
            ["survey_north_2", "survey_north", "survey_north_3"]
        );
        let long = "x".repeat(100);
        assert!(
            unit_keys([long.as_str()])
                .iter()
                .all(|k| crate::model::ids::is_valid_node_id(&format!("verify_{k}")))
        );
    }
}
