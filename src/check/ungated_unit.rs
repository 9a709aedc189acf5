//! Complexity: O(n + e) for the walk from the spawning calls, then per
//! synthesis write O(k + p · depth) for its k units and the p paths its
//! gates require (each placed on its unit by a dominator walk).

use crate::check::synthesis;
use crate::model::remedy::{Fill, Fix, Remedy};
use crate::model::{Issue, NodeKind};

declare_check! {
    /// ## What it finds
    /// A synthesis write — a call that writes (its tool lists `writes`) and
    /// does not spawn, reached from spawning calls (`spawnsAgent: true`) —
    /// with a spawned unit whose verification no gate before the write
    /// tests. A unit's work is every node whose nearest spawning call on its
    /// dominator chain is the unit's spawn (its read and verify steps); a
    /// gate before the write is a branch (its `match`) or a select (the case
    /// that leads to the write) on every route to it, on the write's
    /// dominator chain, and it tests the unit when its predicate (or an
    /// `all` in it) requires a path of the unit's work, such as
    /// `verify_a.verdict`. The node that supplies the write's
    /// `dispositions` does not count: a reconciliation is no unit's
    /// verification.
    ///
    /// Needs a registry and an acyclic graph with one entry.
    ///
    /// ## Why it matters
    /// Seed 003, step 6: treat a missing or invalid artifact as a failed
    /// unit, and never synthesize while any spawned unit has not verified. A
    /// gate that tests some units' verdicts and not another's (a hand edit
    /// that dropped one test from `verified`'s case, or removed a unit's
    /// check) lets that unit's failed artifact into the synthesis while
    /// every edge still looks right, so neither `failed_gate_writes` nor
    /// `unreconciled_unit` sees it. In seed 003 this check carries step 6's
    /// "a failed unit is never synthesized" for each unit.
    ///
    /// ## How to fix
    /// Test the unit's verification in a gate every route to the write
    /// passes: add `{"path": "verify_<unit>.verdict", "op": "eq", "value":
    /// "pass"}` (and `{"path": "verify_<unit>.failedCriteria", "op": "eq",
    /// "value": []}`) to the `all` of the select case or branch that leads
    /// to the write.
    ///
    /// ## Example
    /// `verified` (select, case `all`: `verify_a.verdict eq "pass"` only)
    /// `—case_all→ reconcile → gate → write`, with units `a` and `b`: fires
    /// for `spawn_b`. Fixed: case `all` is an `all` of both units' tests.
    pub UngatedUnit { code: "ungated_unit", severity: Blocking, needs: BOTH, source: Check }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        let spawns = synthesis::spawns(g, reg);
        if spawns.is_empty() {
            return;
        }
        let mut is_spawn = vec![false; g.len()];
        for &s in &spawns {
            is_spawn[s] = true;
        }
        let after = synthesis::after(g, &spawns);
        for w in synthesis::writes(g, reg, &after) {
            let node = g.node(w);
            let source = node
                .get("args")
                .and_then(|a| a.as_object()?.get(synthesis::DISPOSITIONS_ARG))
                .and_then(|v| v.as_ref_value())
                .map(|r| r.node.clone());
            let mut tested = vec![false; g.len()];
            for path in synthesis::gated_paths(g, w) {
                let head = path.split('.').next().unwrap_or("");
                if source.as_deref() == Some(head) {
                    continue;
                }
                let Some(v) = g.index_of(head) else { continue };
                if let Some(s) = synthesis::unit_of(g, &is_spawn, v) {
                    tested[s] = true;
                }
            }
            for &s in &spawns {
                if tested[s] || !g.reaches(s, w) {
                    continue;
                }
                let what = format!(
                    "a predicate that also requires unit `{}`'s verification (its verdict is a pass and no criterion failed), in an `all`",
                    g.node(s).id
                );
                let fix: Fix = match synthesis::nearest_gate(g, w) {
                    Some(gate) => Remedy::SetField {
                        node: g.node(gate).id.clone(),
                        path: "predicate".into(),
                        value: Fill::choose(what),
                    }
                    .into(),
                    None => Remedy::AddNode { id: None, kind: Some(NodeKind::Branch) }
                        .when(format!("a branch before `{}`, testing every unit's verification", node.id)),
                };
                out.push(
                    Issue::new(
                        CODE,
                        format!(
                            "synthesis write `{}` can run after unit `{}` without any gate on every route to it testing that unit's verification (a path of the unit's read or verify steps, such as its verdict); a unit that failed verification would feed the synthesis",
                            node.id,
                            g.node(s).id
                        ),
                    )
                    .node(g.node(s).id.clone())
                    .fix(fix),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UngatedUnit;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true}, write: {returns: text, writes: [path]}}";

    fn with(case_all: serde_json::Value) -> Vec<crate::model::Issue> {
        let verify = |id: &str, of: &str| {
            node(
                id,
                NodeKind::Reason,
                json!({"prompt": [r(of, None)], "maxAttempts": 1,
                "outputSchema": {"type": "object", "properties": {"verdict": {"type": "string"}}}}),
            )
        };
        let p = plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({}), &[]),
                call_with("spawn_b", "spawn", json!({}), &[]),
                verify("verify_a", "spawn_a"),
                verify("verify_b", "spawn_b"),
                node("join", NodeKind::Join, json!({})),
                node(
                    "verified",
                    NodeKind::Select,
                    json!({"predicate": {"all": case_all}, "cases": ["all"]}),
                ),
                call_with("write", "write", json!({"path": "s.md"}), &[]),
                step("failed"),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "start", "spawn_b", "always"),
                edge("e3", "spawn_a", "verify_a", "always"),
                edge("e4", "spawn_b", "verify_b", "always"),
                edge("e5", "verify_a", "join", "always"),
                edge("e6", "verify_b", "join", "always"),
                edge("e7", "join", "verified", "always"),
                edge("e8", "verified", "write", "case_all"),
                edge("e9", "verified", "failed", "default"),
            ],
        );
        run_reg(&UngatedUnit, &p, &registry(REG))
    }

    fn pass(unit: &str) -> serde_json::Value {
        json!({"path": format!("verify_{unit}.verdict"), "op": "eq", "value": "pass"})
    }

    #[test]
    fn fires_for_the_unit_no_gate_tests() {
        let issues = with(json!({"all": [pass("a")]}));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(
            issues[0]
                .message
                .contains("after unit `spawn_b` without any gate"),
            "{}",
            issues[0].message
        );
        // A test under `any` requires nothing.
        assert_eq!(with(json!({"any": [pass("a"), pass("b")]})).len(), 2);
    }

    #[test]
    fn passes_when_every_unit_is_tested() {
        assert!(with(json!({"all": [pass("a"), {"all": [pass("b")]}]})).is_empty());
    }
}
