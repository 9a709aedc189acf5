//! Complexity: O(n + e) for the walk from the spawning calls, then per
//! synthesis write O(k · depth) for its k units and the gates on its
//! dominator chain.

use crate::check::Graph;
use crate::check::synthesis;
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::{Issue, NodeKind, Value};

use synthesis::DISPOSITIONS_ARG;

/// The sub-schema at a dot path of an object schema's properties.
fn schema_at<'v>(schema: &'v Value, path: &str) -> Option<&'v Value> {
    let mut s = schema;
    for seg in path.split('.').filter(|x| !x.is_empty()) {
        s = s.as_object()?.get("properties")?.as_object()?.get(seg)?;
    }
    Some(s)
}

/// Why a dispositions schema does not force one disposition per unit (`k`
/// units), or its member keys when it does.
fn members(schema: &Value, k: usize) -> Result<Vec<String>, String> {
    let m = schema.as_object().ok_or("is not an object schema")?;
    let required: Vec<String> = m
        .get("required")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if required.len() != k {
        return Err(format!(
            "requires {} member(s) for {k} unit(s)",
            required.len()
        ));
    }
    if m.get("additionalProperties") != Some(&Value::Bool(false)) {
        return Err(
            "allows members other than the units (its `additionalProperties` is not false)".into(),
        );
    }
    let props = m.get("properties").and_then(Value::as_object);
    for key in &required {
        let member = props.and_then(|p| p.get(key)).and_then(Value::as_object);
        if let Err(why) = member.map_or(Err("has no schema"), disposition_schema) {
            return Err(format!("member `{key}` {why}"));
        }
    }
    Ok(required)
}

/// The dispositions a member may take (seed 003, step 7).
const DISPOSITIONS: [&str; 3] = ["accepted", "superseded", "rejected"];

/// Whether one member's schema requires a `disposition` among
/// [`DISPOSITIONS`] and a non-empty `reason`.
fn disposition_schema(m: &crate::model::Map) -> Result<(), &'static str> {
    let required = |f: &str| {
        m.get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x.as_str() == Some(f)))
    };
    if !required("disposition") {
        return Err("does not require a `disposition`");
    }
    let prop = |f: &str| {
        m.get("properties")
            .and_then(|p| p.as_object()?.get(f)?.as_object())
    };
    let allowed = prop("disposition")
        .and_then(|d| d.get("enum")?.as_array())
        .is_some_and(|e| {
            !e.is_empty()
                && e.iter()
                    .all(|x| x.as_str().is_some_and(|s| DISPOSITIONS.contains(&s)))
        });
    if !allowed {
        return Err("does not limit `disposition` to an `enum` of accepted, superseded, rejected");
    }
    let reason = prop("reason")
        .and_then(|r| r.get("minLength"))
        .and_then(Value::as_f64)
        .is_some_and(|n| n >= 1.0);
    if !required("reason") || !reason {
        return Err("does not require a non-empty `reason` (`required` and `minLength` 1)");
    }
    Ok(())
}

declare_check! {
    /// ## What it finds
    /// A synthesis write — a call that writes (its tool lists `writes`) and
    /// does not spawn, reached from spawning calls (`spawnsAgent: true`) —
    /// that does not receive one disposition per unit, or is not gated on
    /// them. With k spawning calls reaching it, it fires when:
    /// - its args have no `dispositions`;
    /// - `dispositions` is a literal with other than k entries;
    /// - `dispositions` references a reason step's output whose
    ///   `outputSchema` there does not require exactly k members and no
    ///   other (`additionalProperties: false`), each requiring a
    ///   `disposition` whose `enum` holds only `accepted`, `superseded`,
    ///   `rejected` and a `reason` with `minLength` 1 (or references
    ///   anything else, whose shape cannot be known);
    /// - no gate on every route to the write (a branch's `match`, a
    ///   select's case, on the write's dominator chain) requires each
    ///   member's disposition (a test of `<node>.<path>.<member>` or below,
    ///   in the predicate or an `all` of it).
    ///
    /// A template hole (`$param`) is left to the template's instantiation.
    /// Needs a registry and an acyclic graph with one entry.
    ///
    /// ## Why it matters
    /// Seed 003, step 7: include every verified unit's material disposition
    /// in the synthesis — accepted, superseded with reason, or rejected with
    /// reason — and do not synthesize while any spawned unit lacks one. The
    /// Output contract: the synthesis records a disposition for every
    /// spawned unit. A synthesis written without them, or with one unit's
    /// missing, silently drops that unit's work. In seed 003 this check
    /// carries step 7's "no synthesis while a unit lacks a disposition" and
    /// the Output field "a disposition for every spawned unit".
    ///
    /// ## How to fix
    /// Give the write `dispositions`: a reference to the reconciliation's
    /// dispositions, whose schema requires one member per unit (each
    /// requiring `disposition`, with a reason), and gate the write with a
    /// branch whose predicate tests every member (`{"path":
    /// "reconcile.dispositions.<unit>.disposition", "op": "exists"}` in an
    /// `all`). When the write already reads them and such a gate exists but
    /// another edge reaches the write around it (a failure edge moved to the
    /// write, say), the finding names that edge, and the fix moves it back
    /// to the failure report it came from: the argument is already right.
    ///
    /// ## Example
    /// `spawn_a`, `spawn_b` … `reconcile` (reason) `→ gate` (branch:
    /// `reconcile.outcome eq "synthesize"`) `—match→ write`
    /// (`write_synthesis`, `"args": {"path": "s.md", "content": …}`) fires:
    /// no `dispositions`. Fixed: `"dispositions": {"$ref": {"node":
    /// "reconcile", "select": "first", "path": "dispositions"}}`, and `gate`'s
    /// predicate an `all` that also tests `reconcile.dispositions.a.disposition`
    /// and `reconcile.dispositions.b.disposition`.
    pub UndisposedSynthesis { code: "undisposed_synthesis", severity: Blocking, needs: BOTH, source: Check }
    fn run(cx, out) {
        let Some((reg, spawns)) = cx.orchestration() else { return };
        let g = &cx.graph;
        let after = synthesis::after(g, spawns);
        for w in synthesis::writes(g, reg, &after) {
            let node = g.node(w);
            let k = spawns.iter().filter(|&&s| g.reaches(s, w)).count();
            let arg = node.get("args").and_then(Value::as_object).and_then(|a| a.get(DISPOSITIONS_ARG));
            let problem = match arg {
                None => Some(format!("receives no `{DISPOSITIONS_ARG}`")),
                Some(Value::Param(_)) => None,
                Some(Value::Object(m)) if m.len() == k => None,
                Some(Value::Array(a)) if a.len() == k => None,
                Some(Value::Object(m)) => Some(format!("`{DISPOSITIONS_ARG}` has {} entries", m.len())),
                Some(Value::Array(a)) => Some(format!("`{DISPOSITIONS_ARG}` has {} entries", a.len())),
                Some(Value::Ref(r)) => by_reference(g, w, r, k),
                Some(_) => Some(format!("`{DISPOSITIONS_ARG}` is not a record of dispositions")),
            };
            let Some(problem) = problem else { continue };
            // The dispositions are read and a gate tests them, but a second
            // route reaches the write around that gate: the fix moves that
            // edge, not the argument (which is already right).
            let around = match arg {
                Some(Value::Ref(r)) => {
                    let base = format!("{}.{}", r.node, r.path.as_deref().unwrap_or(""));
                    synthesis::bypass(g, w, &base)
                }
                _ => None,
            };
            if let Some(e) = around {
                let (edge, from) = (g.edge(e), g.ends.get(e).map_or(w, |(u, _)| u));
                let orphans = synthesis::orphan_reports(g);
                let to = match synthesis::origin(g, &orphans, from, e) {
                    Some(r) => Pick::id(&g.node(r).id),
                    None => Pick::Any("a `report_failure` step".into()),
                };
                out.push(
                    Issue::new(
                        CODE,
                        format!(
                            "synthesis write `{}` comes after {k} spawned unit(s) but {problem}: the edge `{}` from `{}` reaches it around the gate that tests them, so on that route the synthesis is written whatever the dispositions say; send that edge back to the failure report it came from",
                            node.id, edge.id, g.node(from).id
                        ),
                    )
                    .node(node.id.clone())
                    .edge(edge.id.clone())
                    .fix(Remedy::Retarget {
                        edge: edge.id.to_string(),
                        from: g.node(from).id.to_string(),
                        to,
                        handle: edge.handle.as_str().to_string(),
                    }),
                );
                continue;
            }
            out.push(
                Issue::new(
                    CODE,
                    format!(
                        "synthesis write `{}` comes after {k} spawned unit(s) but {problem}; the synthesis must receive exactly one disposition per unit (accepted, superseded or rejected, with the reason), and be written only once every unit has one",
                        node.id
                    ),
                )
                .node(node.id.clone())
                .at(format!("/definition/args/{DISPOSITIONS_ARG}"))
                .fix(synthesis::set_arg(
                    node,
                    synthesis::entry(g, reg, w),
                    &format!("args.{DISPOSITIONS_ARG}"),
                    Fill::choose("a reference to the reconciliation's dispositions, one per unit"),
                )),
            );
        }
    }
}

/// What is wrong with dispositions read from a reference `r`, for the
/// write `w` after `k` units.
fn by_reference(g: &Graph, w: usize, r: &crate::model::Ref, k: usize) -> Option<String> {
    let shown = format!("`{}.{}`", r.node, r.path.as_deref().unwrap_or(""));
    let Some(t) = g.index_of(&r.node) else {
        return Some(format!(
            "`{DISPOSITIONS_ARG}` reads {shown}, which is not a node"
        ));
    };
    let node = g.node(t);
    let schema = (node.kind == NodeKind::Reason)
        .then(|| node.get("outputSchema"))
        .flatten()
        .and_then(|s| schema_at(s, r.path.as_deref().unwrap_or("")));
    let Some(schema) = schema else {
        return Some(format!(
            "`{DISPOSITIONS_ARG}` reads {shown}, whose shape is not a reason step's declared output schema"
        ));
    };
    let keys = match members(schema, k) {
        Ok(keys) => keys,
        Err(why) => return Some(format!("the schema of {shown} {why}")),
    };
    let gated = synthesis::gated_paths(g, w);
    let base = format!("{}.{}", r.node, r.path.as_deref().unwrap_or(""));
    let untested: Vec<String> = keys
        .iter()
        .filter(|key| {
            let p = format!("{base}.{key}");
            !gated
                .iter()
                .any(|x| *x == p || x.starts_with(&format!("{p}.")))
        })
        .map(|key| format!("`{key}`"))
        .collect();
    if untested.is_empty() {
        None
    } else {
        Some(format!(
            "no gate on every route to it tests the disposition of {} in {shown}",
            untested.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::UndisposedSynthesis;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true}, write: {returns: text, writes: [path]}}";

    fn member() -> serde_json::Value {
        json!({"type": "object", "properties": {
            "disposition": {"type": "string", "enum": ["accepted", "superseded", "rejected"]},
            "reason": {"type": "string", "minLength": 1}},
            "required": ["disposition", "reason"]})
    }

    /// The dispositions schema with `edit` applied, then checked.
    fn loosened(edit: impl Fn(&mut serde_json::Value)) -> Vec<crate::model::Issue> {
        with_schema(&["a", "b"], &BOTH, reference(), edit)
    }

    fn with(
        required: &[&str],
        tests: &[&str],
        dispositions: Option<serde_json::Value>,
    ) -> Vec<crate::model::Issue> {
        with_schema(required, tests, dispositions, |_| {})
    }

    fn with_schema(
        required: &[&str],
        tests: &[&str],
        dispositions: Option<serde_json::Value>,
        edit: impl Fn(&mut serde_json::Value),
    ) -> Vec<crate::model::Issue> {
        let p = plan_of(required, tests, dispositions, edit);
        run_reg(&UndisposedSynthesis, &p, &registry(REG))
    }

    fn plan_of(
        required: &[&str],
        tests: &[&str],
        dispositions: Option<serde_json::Value>,
        edit: impl Fn(&mut serde_json::Value),
    ) -> crate::model::Content {
        let props: serde_json::Map<String, serde_json::Value> =
            required.iter().map(|k| (k.to_string(), member())).collect();
        let mut schema = json!({"type": "object", "properties": {"dispositions": {
            "type": "object", "properties": props, "required": required,
            "additionalProperties": false}}});
        edit(&mut schema["properties"]["dispositions"]);
        let all: Vec<serde_json::Value> = tests
            .iter()
            .map(|p| json!({"path": p, "op": "exists"}))
            .collect();
        let mut args = json!({"path": "s.md"});
        if let Some(d) = dispositions {
            args["dispositions"] = d;
        }
        plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({}), &[]),
                call_with("spawn_b", "spawn", json!({}), &[]),
                node(
                    "reconcile",
                    NodeKind::Reason,
                    json!({"prompt": ["x"], "maxAttempts": 1, "outputSchema": schema}),
                ),
                node("gate", NodeKind::Branch, json!({"predicate": {"all": all}})),
                call_with("write", "write", args, &[]),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "spawn_b", "always"),
                edge("e3", "spawn_b", "reconcile", "always"),
                edge("e4", "reconcile", "gate", "always"),
                edge("e5", "gate", "write", "match"),
            ],
        )
    }

    fn reference() -> Option<serde_json::Value> {
        Some(r("reconcile", Some("dispositions")))
    }

    const BOTH: [&str; 2] = [
        "reconcile.dispositions.a.disposition",
        "reconcile.dispositions.b",
    ];

    #[test]
    fn fires_without_dispositions_with_one_per_unit_short_or_an_ungated_one() {
        let issues = with(&["a", "b"], &BOTH, None);
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(issues[0].message.contains("synthesis write `write` comes after 2 spawned unit(s) but receives no `dispositions`"), "{}", issues[0].message);
        let issues = with(&["a"], &BOTH, reference());
        assert!(
            issues[0]
                .message
                .contains("requires 1 member(s) for 2 unit(s)"),
            "{issues:#?}"
        );
        let issues = with(&["a", "b"], &BOTH[..1], reference());
        assert!(
            issues[0].message.contains("tests the disposition of `b`"),
            "{issues:#?}"
        );
        assert_eq!(
            with(&["a", "b"], &BOTH, Some(json!({"a": "accepted"}))).len(),
            1
        );
    }

    #[test]
    fn a_route_around_the_gate_is_fixed_by_moving_that_edge_back() {
        let mut p = plan_of(&["a", "b"], &BOTH, reference(), |_| {});
        p.nodes
            .push(call_with("landing", "report_failure", json!({}), &[]));
        p.edges
            .push(edge("reconcile__landing", "reconcile", "write", "always"));
        let issues = run_reg(&UndisposedSynthesis, &p, &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        let i = &issues[0];
        assert!(
            i.message.contains(
                "the edge `reconcile__landing` from `reconcile` reaches it around the gate"
            ),
            "{}",
            i.message
        );
        assert_eq!(i.edge_id.as_deref(), Some("reconcile__landing"));
        // The dispositions are already set: the one fix moves the edge.
        assert_eq!(i.fixes.len(), 1);
        assert_eq!(
            i.fixes[0].remedy,
            crate::model::remedy::Remedy::Retarget {
                edge: "reconcile__landing".into(),
                from: "reconcile".into(),
                to: crate::model::remedy::Pick::id("landing"),
                handle: "always".into(),
            }
        );
        // Near miss: the edge back where it was.
        p.edges.last_mut().unwrap().to = "landing".into();
        assert!(run_reg(&UndisposedSynthesis, &p, &registry(REG)).is_empty());
    }

    #[test]
    fn fires_when_the_dispositions_schema_is_loosened() {
        for (edit, needle) in [
            (
                Box::new(|d: &mut serde_json::Value| d["additionalProperties"] = json!(true))
                    as Box<dyn Fn(&mut serde_json::Value)>,
                "allows members other than the units",
            ),
            (
                Box::new(|d| {
                    d["properties"]["a"]["properties"]["disposition"]["enum"] =
                        json!(["accepted", "pending"])
                }),
                "member `a` does not limit `disposition` to an `enum` of accepted, superseded, rejected",
            ),
            (
                Box::new(|d| d["properties"]["b"]["required"] = json!(["disposition"])),
                "member `b` does not require a non-empty `reason`",
            ),
            (
                Box::new(|d| {
                    d["properties"]["b"]["properties"]["reason"] = json!({"type": "string"})
                }),
                "member `b` does not require a non-empty `reason`",
            ),
        ] {
            let issues = loosened(edit);
            assert_eq!(issues.len(), 1, "{needle}: {issues:#?}");
            assert!(issues[0].message.contains(needle), "{}", issues[0].message);
        }
    }

    #[test]
    fn passes_one_gated_disposition_per_unit() {
        assert!(with(&["a", "b"], &BOTH, reference()).is_empty());
        assert!(
            with(
                &[],
                &[],
                Some(json!({"a": "accepted", "b": "rejected: no evidence"}))
            )
            .is_empty()
        );
    }
}
