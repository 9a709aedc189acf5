//! Complexity: O(n + e) per settling join: one backward walk from it, then
//! one dominator walk per node that reaches it (each O(depth)).

use crate::check::Graph;
use crate::check::support::is_canonical;
use crate::check::synthesis;
use crate::model::remedy::{Pick, Remedy};
use crate::model::{Handle, Issue, NodeKind};

declare_check! {
    /// ## What it finds
    /// A join of kind `settle`, reached from spawning calls
    /// (`spawnsAgent: true`), whose `error` edges are not exactly its
    /// units' steps:
    /// - an `error` edge into it from a node that is no step of a unit it
    ///   settles (the node that spawns them all, `accept`, or a node beside
    ///   the units, `side`): a unit's step is its spawn, or a node whose
    ///   nearest spawning call on its dominator chain is that spawn and
    ///   that reaches the join (its read and verification);
    /// - a unit's step (a call, `reason` or `transform`) with no `error`
    ///   edge into the join (deleted, or sent elsewhere).
    ///
    /// Needs a registry and an acyclic graph with one entry.
    ///
    /// ## Why it matters
    /// A settling join fires once every branch from its fork arrived or
    /// stopped, and its output (the arrivals) is what the partial-landing
    /// report reads to name the step an errored unit failed at (seed 003:
    /// "name the failed unit and failed criterion", "report both sets").
    /// An error of a step outside the units (the assignment itself, a side
    /// step) arriving there is read as a unit's arrival: the report then
    /// blames no unit, or the wrong one, for a failure of the orchestrator's
    /// own, and the run goes on to test the units' verdicts as if they had
    /// run. A unit step without its error edge into the join stops its
    /// branch silently: the join still fires, but no arrival names the step
    /// that failed, so the report cannot say which one. In seed 003 this
    /// check carries, for parallel plans, the partial-landing class ("report
    /// both sets") and the non-convergence class's "name the failed unit and
    /// failed criterion" for a unit whose step errored.
    ///
    /// ## How to fix
    /// Send the error of a step outside the units to a `report_failure`
    /// step of its own; connect each unit step's `error` edge to the
    /// settling join.
    ///
    /// ## Example
    /// `accept —error→ join` (settle), with units `a` and `b` spawned by
    /// `accept`: fires, the error of `accept` is no unit's arrival. Fixed:
    /// `accept —error→ fail_accept` (`report_failure`). And `read_a` with
    /// no `error` edge: fires. Fixed: `read_a —error→ join`.
    pub SettleErrorEdge { code: "settle_error_edge", severity: Blocking, needs: BOTH, source: Check }
    fn run(cx, out) {
        let g = &cx.graph;
        let spawns = cx.spawns();
        if spawns.is_empty() {
            return;
        }
        let is_spawn = synthesis::spawn_mask(g, spawns);
        for j in 0..g.len() {
            if g.node(j).settles() && is_canonical(g, j) {
                check_join(g, j, &is_spawn, out);
            }
        }
    }
}

/// The steps of the units whose branches the settling join `j` settles:
/// each spawn that reaches `j`, and each node that reaches `j` whose nearest
/// spawning call on its dominator chain is such a spawn.
fn unit_steps(g: &Graph, j: usize, is_spawn: &[bool]) -> Vec<bool> {
    let before = synthesis::before(g, j);
    (0..g.len())
        .map(|v| {
            before[v]
                && v != j
                && (is_spawn[v] || synthesis::unit_of(g, is_spawn, v).is_some_and(|s| before[s]))
        })
        .collect()
}

fn check_join(g: &Graph, j: usize, is_spawn: &[bool], out: &mut Vec<Issue>) {
    let steps = unit_steps(g, j, is_spawn);
    if !steps.iter().any(|&s| s) {
        return;
    }
    let join = &g.node(j).id;
    for &e in &g.inc[j] {
        let edge = g.edge(e);
        let Some((b, _)) = g.ends.get(e) else {
            continue;
        };
        if edge.handle != Handle::Error || steps[b] || !is_canonical(g, b) {
            continue;
        }
        let from = &g.node(b).id;
        out.push(
            Issue::new(
                CODE,
                format!(
                    "the settling join `{join}` takes the error of `{from}` (edge `{}`), which is no step of the units it settles (a unit's spawn, read or verification): the join would count it as a unit's arrival, and the partial-landing report would blame a unit for a failure of `{from}`; send `{from}`'s error to a failure report of its own",
                    edge.id
                ),
            )
            .node(from.clone())
            .edge(edge.id.clone())
            .fix(Remedy::Retarget {
                edge: edge.id.to_string(),
                from: from.to_string(),
                to: Pick::Any(format!(
                    "a `report_failure` step naming the failure of `{from}`"
                )),
                handle: "error".into(),
            }),
        );
    }
    for v in (0..g.len()).filter(|&v| steps[v] && is_canonical(g, v)) {
        let node = g.node(v);
        if !matches!(
            node.kind,
            NodeKind::Call | NodeKind::Reason | NodeKind::Transform
        ) {
            continue;
        }
        let errors: Vec<usize> = g.out[v]
            .iter()
            .copied()
            .filter(|&e| g.edge(e).handle == Handle::Error)
            .collect();
        if errors
            .iter()
            .any(|&e| g.ends.get(e).is_some_and(|(_, t)| t == j))
        {
            continue;
        }
        let id = &node.id;
        let head = format!(
            "`{id}`, a step of a unit the settling join `{join}` settles, has no `error` edge into it: when `{id}` fails to run its branch stops silently, and the join's arrivals, which the partial-landing report reads, never name the step that failed"
        );
        let issue = Issue::new(CODE, String::new()).node(id.clone());
        out.push(match errors.first() {
            Some(&e) => {
                let edge = g.edge(e);
                Issue {
                    message: format!(
                        "{head} (its error edge `{}` goes to `{}`); move it to `{join}`",
                        edge.id, edge.to
                    ),
                    ..issue
                }
                .edge(edge.id.clone())
                .fix(Remedy::Retarget {
                    edge: edge.id.to_string(),
                    from: id.to_string(),
                    to: Pick::id(join),
                    handle: "error".into(),
                })
            }
            None => Issue {
                message: format!("{head}; connect `{id} —error→ {join}`"),
                ..issue
            }
            .fix(Remedy::Connect {
                from: Pick::id(id),
                to: Pick::id(join),
                handle: Some("error".into()),
            }),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::SettleErrorEdge;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::remedy::{Pick, Remedy};
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true, toolsArg: tools, writes: [output]}, read: {returns: text}, fork: {returns: text}, report_failure: {returns: text}}";

    /// `start → accept →` units `a`, `b` (spawn → read) `→ join` (settle),
    /// each step's error into the join, plus `extra` edges.
    fn plan_with(extra: &[(&str, &str, &str, &str)], drop: &[&str]) -> crate::model::Content {
        let mut ns = vec![
            entry("start"),
            call_with("accept", "fork", json!({}), &[]),
            step("side"),
            node("join", NodeKind::Join, json!({"kind": "settle"})),
            call_with("report", "report_failure", json!({}), &[]),
        ];
        let mut es = vec![
            edge("e0", "start", "accept", "always"),
            edge("e1", "accept", "side", "always"),
            edge("e2", "side", "join", "always"),
            edge("e3", "join", "report", "always"),
        ];
        for u in ["a", "b"] {
            ns.push(call_with(&format!("spawn_{u}"), "spawn", json!({}), &[]));
            ns.push(call_with(&format!("read_{u}"), "read", json!({}), &[]));
            es.push(edge(
                &format!("a_{u}"),
                "accept",
                &format!("spawn_{u}"),
                "always",
            ));
            es.push(edge(
                &format!("s_{u}"),
                &format!("spawn_{u}"),
                &format!("read_{u}"),
                "always",
            ));
            es.push(edge(
                &format!("r_{u}"),
                &format!("read_{u}"),
                "join",
                "always",
            ));
            for step in ["spawn", "read"] {
                es.push(edge(
                    &format!("{step}_{u}__join"),
                    &format!("{step}_{u}"),
                    "join",
                    "error",
                ));
            }
        }
        es.retain(|e| !drop.contains(&e.id.as_str()));
        for (id, from, to, h) in extra {
            es.push(edge(id, from, to, h));
        }
        plan(ns, es)
    }

    #[test]
    fn fires_on_an_error_edge_from_outside_the_units() {
        for from in ["accept", "side"] {
            let p = plan_with(&[("x", from, "join", "error")], &[]);
            let issues = crate::check::testing::run_reg(&SettleErrorEdge, &p, &registry(REG));
            assert_eq!(issues.len(), 1, "{issues:#?}");
            assert!(
                issues[0].message.starts_with(&format!(
                    "the settling join `join` takes the error of `{from}` (edge `x`), which is no step of the units it settles"
                )),
                "{}",
                issues[0].message
            );
            assert!(matches!(
                &issues[0].fixes[0].remedy,
                Remedy::Retarget { edge, to: Pick::Any(_), .. } if edge == "x"
            ));
        }
    }

    #[test]
    fn fires_on_a_unit_step_without_its_error_edge_into_the_join() {
        let p = plan_with(&[], &["read_a__join"]);
        let issues = run_reg(&SettleErrorEdge, &p, &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(issues[0].message.starts_with("`read_a`, a step of a unit the settling join `join` settles, has no `error` edge into it"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Connect {
                from: Pick::id("read_a"),
                to: Pick::id("join"),
                handle: Some("error".into())
            }
        );
        // Sent elsewhere: moved back.
        let p = plan_with(
            &[("read_a__report", "read_a", "report", "error")],
            &["read_a__join"],
        );
        let issues = run_reg(&SettleErrorEdge, &p, &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(matches!(
            &issues[0].fixes[0].remedy,
            Remedy::Retarget { edge, to: Pick::Id(t), .. } if edge == "read_a__report" && t == "join"
        ));
    }

    #[test]
    fn passes_when_the_error_edges_are_exactly_the_units_steps() {
        let p = plan_with(&[], &[]);
        assert!(run_reg(&SettleErrorEdge, &p, &registry(REG)).is_empty());
        // Near miss: a plain join is not this check's (it waits for all).
        let mut p = plan_with(&[("x", "accept", "join", "error")], &["read_a__join"]);
        for n in &mut p.nodes {
            if n.id == "join" {
                n.definition.clear();
            }
        }
        assert!(run_reg(&SettleErrorEdge, &p, &registry(REG)).is_empty());
    }
}
