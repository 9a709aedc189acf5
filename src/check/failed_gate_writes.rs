//! Complexity: O(n + e): one forward walk from every spawning call at once,
//! one backward walk from the writes they reach, then one look at each
//! gate's out-edges.

use crate::check::Graph;
use crate::check::support::is_canonical;
use crate::check::synthesis;
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::{Handle, Issue, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A gate (a `branch` or a `select`) that a spawning call
    /// (`spawnsAgent: true`) reaches, and from which a writing call (its
    /// tool lists `writes` and does not spawn agents) that the spawning call
    /// also reaches can be reached, where:
    /// - the gate's failure handle (`no_match` of a branch, `default` of a
    ///   select) leads to that write; or
    /// - the gate is a branch with no `no_match` edge at all, so a failed
    ///   verdict reaches no failure report; or
    /// - the `error` edge of a spawning call or of a node after one (a
    ///   unit's read or verification, say) leads to that write. When a
    ///   `report_failure` step has no incoming edge left (the one the edge
    ///   was moved from), the fix names it. An `error` edge straight into a
    ///   join of kind `settle` is not a finding: the join counts it as that
    ///   branch's arrival and names it in its output, and what follows must
    ///   still find the unit passed before the write (`ungated_unit`), which
    ///   a unit whose step errored never does.
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// A subagent's artifact that failed owner verification must never feed
    /// the synthesis, and its failure must be reported with its failed
    /// criteria. A hand edit that sends a failed verdict on towards the
    /// write (into the join, say), or drops the failure edge, still reads
    /// and "verifies" every unit, so `unreconciled_unit` does not see it.
    /// In seed 003 this check carries the verification gate (step 6: a
    /// failed unit is never synthesized) and the failure contract (every
    /// failed unit reaches a failure report).
    ///
    /// ## How to fix
    /// Send the gate's `no_match` (or the select's `default`) to a
    /// `report_failure` step that names the unit and its failed criteria, and
    /// only its `match` (or a case that holds for every unit) on towards
    /// the synthesis; send an `error` edge to the unit's failure report. An
    /// `error` edge into a join that does not settle: set that join's
    /// `definition.kind` to `"settle"` (sending the error to a report of its
    /// own would leave the join waiting for ever, and no report would name
    /// both the units that landed and those that did not); the other error
    /// edges into it follow from the first, or from the join's
    /// `missing_field` when its `kind` is misspelt. An edge whose minted id
    /// names a settling join (`read_a__join`) that it no longer goes to:
    /// move it back there.
    ///
    /// ## Example
    /// `check_a` (branch: `verify_a.verdict eq "pass"`) `—no_match→ join →
    /// reconcile → write`. Fixed: `check_a —no_match→ fail_a` (`report_failure`
    /// with `failedCriteria`) and `check_a —match→ join`.
    pub FailedGateWrites { code: "failed_gate_writes", severity: Blocking, needs: REGISTRY, source: Check }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        let n = g.len();
        let kind = |i: usize| g.node(i).kind;
        let entry = |i: usize| g.node(i).tool().and_then(|t| reg.tool(t));
        let spawns = cx.spawns();
        if spawns.is_empty() {
            return;
        }
        let after = walk(n, spawns, |i| g.succs(i).collect());
        let writes: Vec<usize> = (0..n)
            .filter(|&i| after[i] && kind(i) == NodeKind::Call)
            .filter(|&i| entry(i).is_some_and(|e| !e.spawns_agent && !e.writes.is_empty()))
            .collect();
        if writes.is_empty() {
            return;
        }
        let leads = walk(n, &writes, |i| g.preds(i).collect());
        error_edges(g, spawns, &after, &leads, &writes, out);
        let orphans = synthesis::orphan_reports(g);
        for b in 0..n {
            if !after[b] || !leads[b] || !is_canonical(g, b) {
                continue;
            }
            let failure = match kind(b) {
                NodeKind::Branch => Handle::NoMatch,
                NodeKind::Select => Handle::Default,
                _ => continue,
            };
            let id = &g.node(b).id;
            let mut has_failure_edge = false;
            for &e in &g.out[b] {
                let edge = g.edge(e);
                if edge.handle != failure {
                    continue;
                }
                has_failure_edge = true;
                let Some((_, t)) = g.ends.get(e) else { continue };
                if leads[t] {
                    let report = synthesis::origin(g, &orphans, b, e);
                    let lost = report.map_or(String::new(), |r| synthesis::lost_text(g, &orphans, r));
                    let to = match report {
                        Some(r) => Pick::id(&g.node(r).id),
                        None => Pick::Any("a `report_failure` step naming the unit and its failed criteria".into()),
                    };
                    out.push(
                        Issue::new(
                            CODE,
                            format!(
                                "gate `{id}` sends its failure (`{}`, edge `{}`) on to `{}`, which leads to the write {}: a unit that failed verification would feed what is written{lost}; send `{}` to a failure report instead",
                                edge.handle.as_str(),
                                edge.id,
                                g.node(t).id,
                                write_named(g, &writes, t),
                                edge.handle.as_str()
                            ),
                        )
                        .node(id.clone())
                        .edge(edge.id.clone())
                        .fix(Remedy::Retarget {
                            edge: edge.id.to_string(),
                            from: id.to_string(),
                            to,
                            handle: edge.handle.as_str().to_string(),
                        }),
                    );
                }
            }
            if !has_failure_edge && failure == Handle::NoMatch {
                out.push(
                    Issue::new(
                        CODE,
                        format!(
                            "gate `{id}` has no `no_match` edge: a failed verdict there reaches no failure report (the run just stops without naming the failed unit and its criteria); add `{id} —no_match→` a `report_failure` step"
                        ),
                    )
                    .node(id.clone())
                    .fix(Remedy::Connect {
                        from: Pick::id(id),
                        to: Pick::Any("a `report_failure` step naming the unit and its failed criteria".into()),
                        handle: Some("no_match".into()),
                    }),
                );
            }
        }
    }
}

/// An `error` edge of a spawn, or of a node after one, that leads on to a
/// write: a unit whose spawn, read or verification failed to run would
/// feed what is written. The fix names the edge and, when a failure report
/// lost its only incoming edge, that report.
fn error_edges(
    g: &Graph,
    spawns: &[usize],
    after: &[bool],
    leads: &[bool],
    writes: &[usize],
    out: &mut Vec<Issue>,
) {
    let orphans = synthesis::orphan_reports(g);
    for (b, &is_after) in after.iter().enumerate() {
        if !(is_after || spawns.contains(&b)) || !is_canonical(g, b) || writes.contains(&b) {
            continue;
        }
        for &e in &g.out[b] {
            let edge = g.edge(e);
            if edge.handle != Handle::Error {
                continue;
            }
            let Some((_, t)) = g.ends.get(e) else {
                continue;
            };
            // An error edge straight into a settling join is that branch's
            // arrival: the join's output names the edge, and the gates after
            // it (`ungated_unit`) must still find the unit passed.
            if !leads[t] || g.node(t).settles() {
                continue;
            }
            let id = &g.node(b).id;
            let report = synthesis::origin(g, &orphans, b, e);
            let join = settle_join_named(g, b, e);
            let head = format!(
                "`{id}` sends its error (edge `{}`) on to `{}`, which leads to the write {}: a unit whose step failed to run would feed what is written",
                edge.id,
                g.node(t).id,
                write_named(g, writes, t)
            );
            let issue = Issue::new(CODE, String::new())
                .node(id.clone())
                .edge(edge.id.clone());
            let retarget = |to: Pick| Remedy::Retarget {
                edge: edge.id.to_string(),
                from: id.to_string(),
                to,
                handle: "error".into(),
            };
            out.push(match (report, join) {
                // The edge's id names the failure report it was moved from.
                (Some(r), _) => Issue {
                    message: format!(
                        "{head}{}; send `error` to a failure report instead",
                        synthesis::lost_text(g, &orphans, r)
                    ),
                    ..issue
                }
                .fix(retarget(Pick::id(&g.node(r).id))),
                // Moved off the settling join its id names: back to it.
                (None, Some(j)) => Issue {
                    message: format!(
                        "{head} (the edge's id says it led to the settling join `{}`, which names each branch's arrival, an error included, for the partial-landing report: this is where it used to go)",
                        g.node(j).id
                    ),
                    ..issue
                }
                .fix(retarget(Pick::id(&g.node(j).id))),
                // Into a join that waits for every edge: an errored branch
                // never arrives, so the join never fires and no report names
                // both sets. A settling join takes the error as its arrival.
                (None, None) if g.node(t).kind == NodeKind::Join => Issue {
                    message: format!(
                        "{head}; and the join `{t_id}` waits for every incoming edge, so it never fires once that step errors and no report names the units that landed and those that did not: make it a settling join, which takes the error as that branch's arrival",
                        t_id = g.node(t).id
                    ),
                    ..issue
                }
                .fix(Remedy::SetField {
                    node: g.node(t).id.to_string(),
                    path: "kind".into(),
                    value: Fill::Value(Value::from(crate::model::node::SETTLE)),
                }),
                (None, None) => Issue {
                    message: format!("{head}; send `error` to a failure report instead"),
                    ..issue
                }
                .fix(retarget(Pick::Any(
                    "a `report_failure` step naming the unit and its failed criteria".into(),
                ))),
            });
        }
    }
}

/// The settling join an edge's minted id (`spawn_a__join`) names, when the
/// edge no longer goes there.
fn settle_join_named(g: &Graph, from: usize, e: usize) -> Option<usize> {
    let to = g
        .edge(e)
        .id
        .strip_prefix(g.node(from).id.as_str())?
        .strip_prefix("__")?;
    let plain = to
        .rsplit_once('_')
        .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .map_or(to, |(head, _)| head);
    g.index_of(to)
        .or_else(|| g.index_of(plain))
        .filter(|&j| g.ends.get(e).is_none_or(|(_, t)| t != j))
        .filter(|&j| g.node(j).settles() && is_canonical(g, j))
}

/// Every node reachable from `start` along `next`, `start` included.
fn walk(n: usize, start: &[usize], next: impl Fn(usize) -> Vec<usize>) -> Vec<bool> {
    let mut seen = vec![false; n];
    let mut stack: Vec<usize> = start.to_vec();
    for &s in start {
        seen[s] = true;
    }
    while let Some(i) = stack.pop() {
        for t in next(i) {
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    seen
}

/// The first of `writes` that `from` reaches, by id and tool.
fn write_named(g: &Graph, writes: &[usize], from: usize) -> String {
    let w = writes
        .iter()
        .copied()
        .find(|&w| w == from || g.reaches(from, w))
        .unwrap_or(writes[0]);
    format!(
        "`{}` (`{}`)",
        g.node(w).id,
        g.node(w).tool().unwrap_or_default()
    )
}

#[cfg(test)]
mod tests {
    use super::FailedGateWrites;
    use crate::check::testing::*;
    use crate::model::Value;
    use crate::model::remedy::{Fill, Pick, Remedy};
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true, toolsArg: tools, writes: [output]}, write: {returns: text, writes: [path]}, report: {returns: text}, report_failure: {returns: text}}";

    fn gate(id: &str) -> crate::model::Node {
        node(
            id,
            crate::model::NodeKind::Branch,
            json!({"predicate": {"path": r("spawn_a", Some("verdict")), "op": "eq", "value": "pass"}}),
        )
    }

    fn nodes() -> Vec<crate::model::Node> {
        vec![
            entry("start"),
            call_with("spawn_a", "spawn", json!({"output": "a.md"}), &["verdict"]),
            gate("check_a"),
            call_with("fail_a", "report", json!({}), &[]),
            step("join_in"),
            call_with("write", "write", json!({"path": "s.md"}), &[]),
        ]
    }

    #[test]
    fn fires_on_an_error_edge_moved_towards_the_write_naming_the_lost_report() {
        let edges = |to: &str| {
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "check_a", "always"),
                edge("e3", "check_a", "join_in", "match"),
                edge("e4", "check_a", "other_report", "no_match"),
                edge("e5", "join_in", "write", "always"),
                edge("spawn_a__fail_a", "spawn_a", to, "error"),
            ]
        };
        let mut ns: Vec<_> = nodes().into_iter().filter(|n| n.id != "fail_a").collect();
        ns.push(call_with("fail_a", "report_failure", json!({}), &[]));
        ns.push(call_with("other_report", "report_failure", json!({}), &[]));
        let p = plan(ns.clone(), edges("join_in"));
        let issues = run_reg(&FailedGateWrites, &p, &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        let m = &issues[0].message;
        assert!(m.contains("`spawn_a` sends its error (edge `spawn_a__fail_a`) on to `join_in`, which leads to the write `write`"), "{m}");
        assert!(
            m.contains("the failure report `fail_a` has lost its incoming edge"),
            "{m}"
        );
        assert_eq!(issues[0].edge_id.as_deref(), Some("spawn_a__fail_a"));
        // One fix that moves the edge back: removing it alone is no fix.
        assert_eq!(issues[0].fixes.len(), 1);
        assert_eq!(
            issues[0].fixes[0].remedy,
            crate::model::remedy::Remedy::Retarget {
                edge: "spawn_a__fail_a".into(),
                from: "spawn_a".into(),
                to: crate::model::remedy::Pick::id("fail_a"),
                handle: "error".into(),
            }
        );
        // Near miss: the error edge goes to the failure report.
        let p = plan(ns, edges("fail_a"));
        assert!(run_reg(&FailedGateWrites, &p, &registry(REG)).is_empty());
    }

    #[test]
    fn an_error_edge_into_a_settling_join_is_its_arrival_but_into_a_plain_join_it_is_found() {
        let with_join = |kind: serde_json::Value| {
            let mut ns: Vec<_> = nodes().into_iter().filter(|n| n.id != "join_in").collect();
            ns.push(node("join_in", crate::model::NodeKind::Join, kind));
            plan(
                ns,
                vec![
                    edge("e1", "start", "spawn_a", "always"),
                    edge("e2", "spawn_a", "check_a", "always"),
                    edge("e3", "check_a", "join_in", "match"),
                    edge("e4", "check_a", "fail_a", "no_match"),
                    edge("e5", "join_in", "write", "always"),
                    edge("spawn_a__join_in", "spawn_a", "join_in", "error"),
                ],
            )
        };
        let settle = with_join(json!({"kind": "settle"}));
        assert!(run_reg(&FailedGateWrites, &settle, &registry(REG)).is_empty());
        // Near miss: the same edge into a join that waits for every edge.
        // Its fix makes the join settle.
        for kind in [json!({}), json!({"kind": "diamond"})] {
            let issues = run_reg(&FailedGateWrites, &with_join(kind), &registry(REG));
            assert_eq!(issues.len(), 1, "{issues:#?}");
            assert_eq!(issues[0].edge_id.as_deref(), Some("spawn_a__join_in"));
            assert!(
                matches!(
                    &issues[0].fixes[0].remedy,
                    Remedy::SetField { node, path, value: Fill::Value(v) }
                        if node == "join_in" && path == "kind" && *v == Value::from("settle")
                ),
                "{issues:#?}"
            );
        }
    }

    #[test]
    fn an_error_edge_moved_off_a_settling_join_is_moved_back() {
        let mut ns: Vec<_> = nodes().into_iter().filter(|n| n.id != "join_in").collect();
        ns.push(node(
            "join_in",
            crate::model::NodeKind::Join,
            json!({"kind": "settle"}),
        ));
        ns.push(node(
            "after",
            crate::model::NodeKind::Reason,
            json!({"prompt": "x"}),
        ));
        let p = |to: &str| {
            plan(
                ns.clone(),
                vec![
                    edge("e1", "start", "spawn_a", "always"),
                    edge("e2", "spawn_a", "check_a", "always"),
                    edge("e3", "check_a", "join_in", "match"),
                    edge("e4", "check_a", "fail_a", "no_match"),
                    edge("e5", "join_in", "after", "always"),
                    edge("e6", "after", "write", "always"),
                    edge("spawn_a__join_in", "spawn_a", to, "error"),
                ],
            )
        };
        let issues = run_reg(&FailedGateWrites, &p("after"), &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(
            matches!(
                &issues[0].fixes[0].remedy,
                Remedy::Retarget { to: Pick::Id(t), .. } if t == "join_in"
            ),
            "{issues:#?}"
        );
        // Near miss: where its id says.
        assert!(run_reg(&FailedGateWrites, &p("join_in"), &registry(REG)).is_empty());
    }

    #[test]
    fn fires_when_a_failed_gate_reaches_the_write_or_nothing() {
        let p = plan(
            nodes(),
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "check_a", "always"),
                edge("e3", "check_a", "join_in", "match"),
                edge("e4", "check_a", "join_in", "no_match"),
                edge("e5", "join_in", "write", "always"),
            ],
        );
        let issues = run_reg(&FailedGateWrites, &p, &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(issues[0].message.contains("gate `check_a` sends its failure (`no_match`, edge `e4`) on to `join_in`, which leads to the write `write`"));
        let p = plan(
            nodes(),
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "check_a", "always"),
                edge("e3", "check_a", "write", "match"),
            ],
        );
        let issues = run_reg(&FailedGateWrites, &p, &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(issues[0].message.contains("has no `no_match` edge"));
        assert_eq!(issues[0].fixes.len(), 1);
    }

    #[test]
    fn passes_a_failed_gate_that_reaches_a_failure_report() {
        let p = plan(
            nodes(),
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "check_a", "always"),
                edge("e3", "check_a", "join_in", "match"),
                edge("e4", "check_a", "fail_a", "no_match"),
                edge("e5", "join_in", "write", "always"),
            ],
        );
        assert!(run_reg(&FailedGateWrites, &p, &registry(REG)).is_empty());
    }
}
