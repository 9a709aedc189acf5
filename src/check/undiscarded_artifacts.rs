//! Complexity: O(n + e) for the walk from the spawning calls, then per
//! synthesis write O(k · (a + d)) for its k units, their artifacts and the
//! discards after it.

use crate::check::synthesis::{self, DISCARD_TOOL};
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::{Issue, NodeKind, Value};

/// Whether a discard's `paths` covers `artifact` (the same literal, or the
/// same reference; a hole or a computed list is taken to).
fn covers(paths: &Value, artifact: &Value) -> bool {
    match paths {
        Value::Array(a) => a
            .iter()
            .any(|p| p == artifact || matches!(p, Value::Param(_))),
        Value::Param(_) | Value::Ref(_) => true,
        _ => false,
    }
}

declare_check! {
    /// ## What it finds
    /// A synthesis write — a call that writes (its tool lists `writes`) and
    /// does not spawn, reached from spawning calls (`spawnsAgent: true`) —
    /// after which no `remove_artifacts` call discards a spawned unit's
    /// artifact (the value of the spawn's `writes` arg, such as its
    /// `output`) while keeping those the synthesis cites (a `keep` arg). A
    /// discard counts when the write reaches it and its `paths` lists the
    /// artifact (the same literal or the same reference) or is itself
    /// computed (a reference or a hole).
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// Seed 003, step 8 (write only the synthesis): subagent artifacts may
    /// remain only when the synthesis cites them as evidence; otherwise
    /// discard them after reconciliation. Artifacts left behind look like
    /// results: a later reader cannot tell the verified, cited evidence from
    /// a rejected or superseded draft. In seed 003 this check carries step
    /// 8's "discard uncited artifacts" and the Authority "writes only
    /// synthesis to named local artifacts".
    ///
    /// ## How to fix
    /// When a `remove_artifacts` call with `keep` follows the write and
    /// lists its `paths` literally (a unit's output renamed after it was
    /// made, say), add the missing artifacts to its `paths`. Otherwise,
    /// after the write, add a `remove_artifacts` call whose `paths` lists
    /// every unit's artifact and whose `keep` is the list the synthesis
    /// cites (a reference to the reconciliation's `cites`), reached by the
    /// write's `always` edge.
    ///
    /// ## Example
    /// `write` (`write_synthesis`) after `spawn_a` (`"output": "a.md"`) and
    /// `spawn_b` (`"output": "b.md"`), with nothing after it: fires for both.
    /// Fixed: `write → discard` (`remove_artifacts`, `"paths": ["a.md",
    /// "b.md"]`, `"keep": {"$ref": {"node": "reconcile", "select": "first",
    /// "path": "cites"}}`).
    pub UndiscardedArtifacts { code: "undiscarded_artifacts", severity: Blocking, needs: REGISTRY, source: Check }
    fn run(cx, out) {
        let Some((reg, spawns)) = cx.orchestration() else { return };
        let g = &cx.graph;
        let after = synthesis::after(g, spawns);
        let discards = synthesis::calls_with_arg(g, DISCARD_TOOL, "keep");
        for w in synthesis::writes(g, reg, &after) {
            let mine: Vec<&Value> = discards
                .iter()
                .filter(|&&d| g.reaches(w, d))
                .filter_map(|&d| g.node(d).get("args").and_then(|a| a.as_object()?.get("paths")))
                .collect();
            let mut kept = Vec::new();
            let mut missing: Vec<Value> = Vec::new();
            for &s in spawns {
                if !g.reaches(s, w) {
                    continue;
                }
                let written = synthesis::entry(g, reg, s).map(|e| e.writes.clone()).unwrap_or_default();
                let args = g.node(s).get("args");
                let left: Vec<&Value> = written
                    .iter()
                    .filter_map(|a| args.and_then(|x| x.as_object()?.get(a)))
                    .filter(|artifact| !mine.iter().any(|p| covers(p, artifact)))
                    .collect();
                if !left.is_empty() {
                    kept.push(format!("`{}`", g.node(s).id));
                    missing.extend(left.into_iter().cloned());
                }
            }
            if kept.is_empty() {
                continue;
            }
            // A discard after the write with a literal list of paths: the
            // fix adds the missing artifacts to it (a second discard would
            // be a copy of it).
            let existing = discards.iter().copied().filter(|&d| g.reaches(w, d)).find_map(|d| {
                let paths = g.node(d).get("args")?.as_object()?.get("paths")?.as_array()?;
                Some((d, paths))
            });
            if let Some((d, paths)) = existing {
                let id = &g.node(d).id;
                let mut all = paths.clone();
                all.extend(missing);
                out.push(
                    Issue::new(
                        CODE,
                        format!(
                            "synthesis write `{}` leaves the artifacts of {} in place: the `{DISCARD_TOOL}` call `{id}` after it does not list them in `paths`, so artifacts the synthesis does not cite would remain; add them to `{id}`'s `paths`",
                            g.node(w).id,
                            kept.join(", ")
                        ),
                    )
                    .node(id.clone())
                    .at("/definition/args/paths")
                    .fix(Remedy::SetField {
                        node: id.to_string(),
                        path: "args.paths".into(),
                        value: Fill::Value(Value::Array(all)),
                    }),
                );
                continue;
            }
            out.push(
                Issue::new(
                    CODE,
                    format!(
                        "synthesis write `{}` leaves the artifacts of {} in place: no `{DISCARD_TOOL}` after it (with `keep`) discards them, so artifacts the synthesis does not cite would remain; after the write, remove every unit artifact except those it cites",
                        g.node(w).id,
                        kept.join(", ")
                    ),
                )
                .node(g.node(w).id.clone())
                .fix(Remedy::AddNode { id: Some("discard".into()), kind: Some(NodeKind::Call) }.when(format!(
                    "a `{DISCARD_TOOL}` call with `paths` (every unit's artifact) and `keep` (what the synthesis cites)"
                )))
                .fix(Remedy::Connect {
                    from: Pick::id(&g.node(w).id),
                    to: Pick::Any(format!("that `{DISCARD_TOOL}` call")),
                    handle: Some("always".into()),
                }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::UndiscardedArtifacts;
    use crate::check::testing::*;
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true, writes: [output]}, write: {returns: text, writes: [path]}, remove_artifacts: {returns: text}}";

    fn with(discard: Option<serde_json::Value>) -> Vec<crate::model::Issue> {
        let mut nodes = vec![
            entry("start"),
            call_with("spawn_a", "spawn", json!({"output": "a.md"}), &[]),
            call_with("spawn_b", "spawn", json!({"output": "b.md"}), &[]),
            call_with("write", "write", json!({"path": "s.md"}), &[]),
        ];
        let mut edges = vec![
            edge("e1", "start", "spawn_a", "always"),
            edge("e2", "spawn_a", "spawn_b", "always"),
            edge("e3", "spawn_b", "write", "always"),
        ];
        if let Some(args) = discard {
            nodes.push(call_with("discard", "remove_artifacts", args, &[]));
            edges.push(edge("e4", "write", "discard", "always"));
        }
        run_reg(&UndiscardedArtifacts, &p(nodes, edges), &registry(REG))
    }

    fn p(nodes: Vec<crate::model::Node>, edges: Vec<crate::model::Edge>) -> crate::model::Content {
        plan(nodes, edges)
    }

    #[test]
    fn fires_when_nothing_or_not_everything_is_discarded() {
        let issues = with(None);
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(
            issues[0]
                .message
                .contains("leaves the artifacts of `spawn_a`, `spawn_b` in place"),
            "{}",
            issues[0].message
        );
        let issues = with(Some(json!({"paths": ["a.md"], "keep": []})));
        assert!(
            issues[0]
                .message
                .contains("artifacts of `spawn_b` in place"),
            "{issues:#?}"
        );
        // The discard exists (a unit's output renamed after it was made):
        // its `paths` gets the missing artifact, no second discard.
        assert_eq!(issues[0].node_id.as_deref(), Some("discard"));
        assert_eq!(issues[0].fixes.len(), 1, "{issues:#?}");
        assert_eq!(
            issues[0].fixes[0].remedy,
            crate::model::remedy::Remedy::SetField {
                node: "discard".into(),
                path: "args.paths".into(),
                value: crate::model::remedy::Fill::Value(crate::model::Value::Array(vec![
                    "a.md".into(),
                    "b.md".into()
                ])),
            }
        );
        // Without `keep` it would remove cited evidence too: no discard.
        assert_eq!(with(Some(json!({"paths": ["a.md", "b.md"]}))).len(), 1);
    }

    #[test]
    fn passes_a_discard_of_every_artifact_keeping_the_cited() {
        let cites = r("write", None);
        assert!(with(Some(json!({"paths": ["a.md", "b.md"], "keep": cites}))).is_empty());
    }
}
