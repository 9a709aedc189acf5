//! Complexity: O(n + e) for the walk from the spawning calls, then per
//! synthesis write one look at its `error` edges and, per removal they lead
//! to, a bounded reachability search per outgoing edge.

use crate::check::Graph;
use crate::check::synthesis::{self, DISCARD_TOOL, REPORT_TOOL};
use crate::model::remedy::{Pick, Remedy};
use crate::model::{Handle, Issue, NodeKind, Value};

/// The arg of a failure report that records the rollback state.
const ROLLBACK_ARG: &str = "rollbackState";

/// Whether a removal's `paths` covers `target` (the same literal, or the
/// same reference; a hole or a computed list is taken to).
fn covers(paths: Option<&Value>, target: &Value) -> bool {
    match paths {
        Some(Value::Array(a)) => a
            .iter()
            .any(|p| p == target || matches!(p, Value::Param(_))),
        Some(Value::Param(_) | Value::Ref(_)) => true,
        _ => false,
    }
}

/// The targets of `e`'s `handle` edges out of `from`.
fn targets(g: &Graph, from: usize, handle: Handle) -> Vec<usize> {
    g.out[from]
        .iter()
        .filter(|&&e| g.edge(e).handle == handle)
        .filter_map(|&e| g.ends.get(e).map(|(_, t)| t))
        .collect()
}

/// Whether a `handle` edge of `from` leads (directly or further on) to a
/// failure report that records the rollback state.
fn recorded(g: &Graph, from: usize, handle: Handle, reports: &[usize]) -> bool {
    targets(g, from, handle)
        .into_iter()
        .any(|t| reports.iter().any(|&r| r == t || g.reaches(t, r)))
}

declare_check! {
    /// ## What it finds
    /// A synthesis write — a call that writes (its tool lists `writes`) and
    /// does not spawn, reached from spawning calls (`spawnsAgent: true`) —
    /// without the failure contract's rollback: no `error` edge of the
    /// write leads to a `remove_artifacts` call whose `paths` lists what
    /// the write writes (the partial synthesis); or that removal has no
    /// `always` edge, or no `error` edge, leading to a `report_failure`
    /// call that records `rollbackState` (removed, or stuck when the
    /// removal failed).
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// Seed 003, Rollback: "if synthesis began before all artifacts
    /// verified and received dispositions, remove that partial synthesis,
    /// retain the verified source artifacts, and resume at Step 6"; step 8:
    /// "Remove any partial synthesis created during this run"; and the
    /// Output contract: on failure, return the rollback state "without a
    /// partial synthesis". A write that fails part-way otherwise leaves a
    /// partial synthesis at the named path, where it reads as the result,
    /// and nobody is told whether it is still there.
    ///
    /// ## How to fix
    /// Add a `remove_artifacts` call whose `paths` lists the synthesis path
    /// and connect the write's `error` edge to it; after it, connect its
    /// `always` edge to a `report_failure` call recording the rollback
    /// state (the partial synthesis removed, the verified artifacts kept,
    /// resume at step 6) and its `error` edge to one saying the removal
    /// failed. An orchestrated plan has these as `unwrite`, `rollback`
    /// and `rollback_stuck`.
    ///
    /// ## Example
    /// `write` (`write_synthesis`, `"path": "s.md"`) after `spawn_a`, with
    /// no `error` edge: fires. Fixed: `write —error→ unwrite`
    /// (`remove_artifacts`, `"paths": ["s.md"]`) `—always→ rollback` and
    /// `—error→ rollback_stuck` (both `report_failure` with
    /// `rollbackState`).
    pub MissingRollback { code: "missing_rollback", severity: Blocking, needs: REGISTRY, source: Check }
    fn run(cx, out) {
        let Some((reg, spawns)) = cx.orchestration() else { return };
        let g = &cx.graph;
        let after = synthesis::after(g, spawns);
        let reports = synthesis::calls_with_arg(g, REPORT_TOOL, ROLLBACK_ARG);
        for w in synthesis::writes(g, reg, &after) {
            let id = g.node(w).id.clone();
            let written: Vec<Value> = synthesis::entry(g, reg, w)
                .map(|e| e.writes.clone())
                .unwrap_or_default()
                .iter()
                .filter_map(|a| g.node(w).get("args")?.as_object()?.get(a).cloned())
                .collect();
            let removal = targets(g, w, Handle::Error).into_iter().find(|&u| {
                let n = g.node(u);
                n.kind == NodeKind::Call
                    && n.tool() == Some(DISCARD_TOOL)
                    && written.iter().all(|t| covers(n.get("args").and_then(|a| a.as_object()?.get("paths")), t))
            });
            let Some(u) = removal else {
                out.push(
                    Issue::new(
                        CODE,
                        format!(
                            "synthesis write `{id}` has no rollback: no `error` edge of it leads to a `{DISCARD_TOOL}` call that removes what it writes, so a write that fails part-way leaves a partial synthesis at its path; remove it on the write's `error` edge and report the rollback state"
                        ),
                    )
                    .node(id.clone())
                    .fix(Remedy::AddNode { id: Some("unwrite".into()), kind: Some(NodeKind::Call) }.when(format!(
                        "a `{DISCARD_TOOL}` call whose `paths` lists the synthesis path, followed by `{REPORT_TOOL}` calls recording `{ROLLBACK_ARG}`"
                    )))
                    .fix(Remedy::Connect {
                        from: Pick::id(&id),
                        to: Pick::Any(format!("that `{DISCARD_TOOL}` call")),
                        handle: Some("error".into()),
                    }),
                );
                continue;
            };
            let uid = g.node(u).id.clone();
            for (handle, edge, state, name) in [
                (Handle::Always, "always", "the partial synthesis was removed, the verified artifacts kept, resume at seed step 6", "rollback"),
                (Handle::Error, "error", "removing the partial synthesis failed, so it may remain at its path", "rollback_stuck"),
            ] {
                if recorded(g, u, handle, &reports) {
                    continue;
                }
                out.push(
                    Issue::new(
                        CODE,
                        format!(
                            "synthesis write `{id}`'s rollback `{uid}` records no rollback state on its `{edge}` edge: no `{REPORT_TOOL}` with `{ROLLBACK_ARG}` follows it there, so nobody is told that {state}; report it"
                        ),
                    )
                    .node(uid.clone())
                    .fix(Remedy::AddNode { id: Some(name.into()), kind: Some(NodeKind::Call) }.when(format!(
                        "a `{REPORT_TOOL}` call with `{ROLLBACK_ARG}` saying {state}"
                    )))
                    .fix(Remedy::Connect {
                        from: Pick::id(&uid),
                        to: Pick::Any(format!("that `{REPORT_TOOL}` call")),
                        handle: Some(edge.into()),
                    }),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MissingRollback;
    use crate::check::testing::*;
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true, writes: [output]}, write: {returns: text, writes: [path]}, remove_artifacts: {returns: text}, report_failure: {returns: text}}";

    /// `spawn_a → write`, and of the rollback `unwrite → rollback /
    /// rollback_stuck` the parts named in `keep`; `paths` of `unwrite`.
    fn with(keep: &[&str], paths: serde_json::Value) -> Vec<crate::model::Issue> {
        let report = |id: &str| {
            call_with(
                id,
                "report_failure",
                json!({"failureClass": "rollback", "rollbackState": id}),
                &[],
            )
        };
        let mut nodes = vec![
            entry("start"),
            call_with("spawn_a", "spawn", json!({"output": "a.md"}), &[]),
            call_with("write", "write", json!({"path": "s.md"}), &[]),
        ];
        let mut edges = vec![
            edge("e1", "start", "spawn_a", "always"),
            edge("e2", "spawn_a", "write", "always"),
        ];
        if keep.contains(&"unwrite") {
            nodes.push(call_with(
                "unwrite",
                "remove_artifacts",
                json!({"paths": paths}),
                &[],
            ));
            edges.push(edge("e3", "write", "unwrite", "error"));
            for (id, h, e) in [
                ("rollback", "always", "e4"),
                ("rollback_stuck", "error", "e5"),
            ] {
                if keep.contains(&id) {
                    nodes.push(report(id));
                    edges.push(edge(e, "unwrite", id, h));
                }
            }
        }
        run_reg(&MissingRollback, &plan(nodes, edges), &registry(REG))
    }

    const ALL: [&str; 3] = ["unwrite", "rollback", "rollback_stuck"];

    #[test]
    fn fires_when_a_part_of_the_rollback_is_gone() {
        let issues = with(&[], json!(["s.md"]));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(
            issues[0].message.contains("`write` has no rollback"),
            "{issues:#?}"
        );
        assert_eq!(issues[0].fixes.len(), 2);
        // A removal of something else is no rollback of the synthesis.
        let issues = with(&ALL, json!(["a.md"]));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(issues[0].message.contains("no rollback"), "{issues:#?}");
        for (gone, edge) in [("rollback", "always"), ("rollback_stuck", "error")] {
            let keep: Vec<&str> = ALL.iter().copied().filter(|k| *k != gone).collect();
            let issues = with(&keep, json!(["s.md"]));
            assert_eq!(issues.len(), 1, "{gone}: {issues:#?}");
            assert_eq!(issues[0].node_id.as_deref(), Some("unwrite"));
            assert!(
                issues[0].message.contains(&format!("on its `{edge}` edge")),
                "{issues:#?}"
            );
            assert_eq!(
                issues[0].fixes[1].remedy,
                crate::model::remedy::Remedy::Connect {
                    from: crate::model::remedy::Pick::id("unwrite"),
                    to: crate::model::remedy::Pick::Any("that `report_failure` call".into()),
                    handle: Some(edge.into()),
                }
            );
        }
    }

    #[test]
    fn passes_the_whole_rollback_and_plans_that_spawn_nothing() {
        assert!(with(&ALL, json!(["s.md"])).is_empty());
        // A computed list of paths is taken to cover the synthesis.
        assert!(with(&ALL, r("write", None)).is_empty());
        // No spawning call: not an orchestration, nothing to hold it to.
        let content = plan(
            vec![
                entry("start"),
                call_with("write", "write", json!({"path": "s.md"}), &[]),
            ],
            vec![edge("e1", "start", "write", "always")],
        );
        assert!(run_reg(&MissingRollback, &content, &registry(REG)).is_empty());
    }
}
