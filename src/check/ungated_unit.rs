//! Complexity: O(n + e) for the walk from the spawning calls, then per
//! synthesis write O(k + p · depth) for its k units and the p paths its
//! gates require (each placed on its unit by a dominator walk).

use crate::check::{schema_sat, synthesis};
use crate::model::remedy::{Fill, Fix, Pick, Remedy};
use crate::model::{Issue, Map, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A synthesis write — a call that writes (its tool lists `writes`) and
    /// does not spawn, reached from spawning calls (`spawnsAgent: true`) —
    /// with a spawned unit the gates before it do not guarantee passed. A
    /// gate before the write is a branch or select on the write's dominator
    /// chain; the edges of it that lead to the write say what holds when the
    /// write runs (a branch's `match`: its predicate; `no_match`: its
    /// failure; a select's case: that case's predicate; `default`: no case
    /// held), read by the structured evaluator's semantics. A unit passed
    /// when, for a node of its work (the nodes whose nearest spawning call on
    /// their dominator chain is the unit's spawn, such as `verify_a`), it is
    /// guaranteed that `verify_a.verdict` eq `"pass"` and
    /// `verify_a.failedCriteria` eq `[]`. So a gate that only mentions the
    /// unit does not count: `verdict eq "fail"`, `verdict exists`, a test
    /// under `any` or `not`, or the verdict without the empty
    /// `failedCriteria` all fire. `eq` and `in` with only that value count;
    /// `not` of a `ne` does not (a missing value fails `ne` too). The node
    /// that supplies the write's `dispositions` does not count: a
    /// reconciliation is no unit's verification.
    ///
    /// A gate's test only counts when the verification can fail: it also
    /// fires for the verify step a gate relies on when its `outputSchema`
    /// admits no `verdict` but "pass" or no `failedCriteria` but `[]`
    /// (then the test always holds). That is judged on what the schema of
    /// the field lets through (its `properties` entry, and those of the
    /// output schema's `allOf` members), whatever the form: `const`, an
    /// `enum` of that value alone, `pattern: "^pass$"`, an `allOf` holding
    /// a `const`, `maxItems: 0`, `items: false` or `items: {"not": {}}`,
    /// and their combinations with `type`, `anyOf`, `oneOf`, `not`,
    /// `minLength`/`maxLength`, `minItems`. A keyword the judgement does
    /// not read (`$ref`, a pattern that is not a literal) counts as able to
    /// fail, so it never fires on a schema it cannot read.
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
    /// to the write. When one edge of a gate to the write guarantees the
    /// pass and another does not (a select's partial-landing case moved to
    /// the write, say), the finding names that edge: send it back to the
    /// failure report (the fix names a report left with no incoming edge).
    ///
    /// ## Example
    /// `verified` (select, case `all`: both tests of `verify_a` and
    /// `verify_b.verdict eq "fail"`) `—case_all→ reconcile → gate → write`,
    /// with units `a` and `b`: fires for `spawn_b` (its failed verdict would
    /// reach the write). Fixed: case `all` holds `verify_b.verdict eq
    /// "pass"` and `verify_b.failedCriteria eq []` too.
    pub UngatedUnit { code: "ungated_unit", severity: Blocking, needs: BOTH, source: Check }
    fn run(cx, out) {
        let Some((reg, spawns)) = cx.orchestration() else { return };
        let g = &cx.graph;
        let is_spawn = synthesis::spawn_mask(g, spawns);
        let after = synthesis::after(g, spawns);
        for w in synthesis::writes(g, reg, &after) {
            let node = g.node(w);
            let source = node
                .get("args")
                .and_then(|a| a.as_object()?.get(synthesis::DISPOSITIONS_ARG))
                .and_then(|v| v.as_ref_value())
                .map(|r| r.node.clone());
            // A unit is gated when the gates guarantee, for one node of its
            // work, both `<node>.verdict` is "pass" and
            // `<node>.failedCriteria` is [] (the same prefix).
            let facts = synthesis::guaranteed(g, w);
            let mut tested = vec![false; g.len()];
            for (path, fact) in &facts {
                let Some(prefix) = path.strip_suffix(".verdict") else { continue };
                if *fact != synthesis::Fact::Pass {
                    continue;
                }
                let empty = format!("{prefix}.failedCriteria");
                if !facts.iter().any(|(p, f)| *p == empty && *f == synthesis::Fact::Empty) {
                    continue;
                }
                let head = prefix.split('.').next().unwrap_or("");
                if source.as_deref() == Some(head) {
                    continue;
                }
                let Some(v) = g.index_of(head) else { continue };
                let Some(s) = synthesis::unit_of(g, &is_spawn, v) else { continue };
                if let Some((field, why)) = cannot_fail(g.node(v)) {
                    out.push(rigged(&g.node(s).id, head, field, &why));
                }
                tested[s] = true;
            }
            for &s in spawns {
                if tested[s] || !g.reaches(s, w) {
                    continue;
                }
                let verify = verdict_node(g, &is_spawn, s)
                    .map_or_else(|| "verify_<unit>".to_string(), |v| g.node(v).id.to_string());
                let what = format!(
                    "a predicate that also guarantees unit `{}` passed: `{verify}.verdict` eq \"pass\" and `{verify}.failedCriteria` eq [], both in an `all`",
                    g.node(s).id
                );
                if let Some((gate, e)) = synthesis::weak_edge(g, w, &verify) {
                    let (gate_id, edge) = (&g.node(gate).id, g.edge(e));
                    let to = g.ends.get(e).map_or(String::new(), |(_, t)| g.node(t).id.to_string());
                    let orphans = synthesis::orphan_reports(g);
                    let report = match synthesis::origin(g, &orphans, gate, e) {
                        Some(r) => Pick::id(&g.node(r).id),
                        None => Pick::Any("a `report_failure` step naming the units and their failed criteria".into()),
                    };
                    out.push(
                        Issue::new(
                            CODE,
                            format!(
                                "synthesis write `{}` can run after unit `{}` failed: gate `{gate_id}` sends its `{}` (edge `{}`) on to `{to}`, which leads to the write without guaranteeing the unit passed (`{verify}.verdict` eq \"pass\" and `{verify}.failedCriteria` eq []), while its other edge there does; a unit that failed verification would feed the synthesis",
                                node.id,
                                g.node(s).id,
                                edge.handle.as_str(),
                                edge.id
                            ),
                        )
                        .node(g.node(s).id.clone())
                        .edge(edge.id.clone())
                        .fix(Remedy::Retarget {
                            edge: edge.id.to_string(),
                            from: gate_id.to_string(),
                            to: report,
                            handle: edge.handle.as_str().to_string(),
                        }),
                    );
                    continue;
                }
                let fix: Fix = match synthesis::nearest_gate(g, w) {
                    Some(gate) => Remedy::SetField {
                        node: g.node(gate).id.to_string(),
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
                            "synthesis write `{}` can run after unit `{}` without the gates on every route to it guaranteeing that the unit passed (`{verify}.verdict` eq \"pass\" and `{verify}.failedCriteria` eq []); a unit that failed verification would feed the synthesis",
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

/// The field of a verify step's output schema that makes failing impossible
/// (`verdict` can only be "pass", `failedCriteria` only `[]`), and why: a
/// satisfiability judgement over the schema ([`schema_sat::judge`]) of the
/// field, gathered from `properties` of the output schema and of each
/// member of its `allOf`. A schema that cannot say pass either is not this
/// check's: the gate then never opens.
fn cannot_fail(node: &crate::model::Node) -> Option<(&'static str, String)> {
    let root = node.get("outputSchema")?;
    for (field, pass) in [
        ("verdict", Value::from("pass")),
        ("failedCriteria", Value::Array(Vec::new())),
    ] {
        let mut parts = Vec::new();
        field_schemas(root, field, 0, &mut parts);
        if parts.is_empty() {
            continue;
        }
        let o = schema_sat::judge(
            &Value::Object(Map::from_iter([("allOf".to_string(), Value::Array(parts))])),
            &pass,
        );
        if o.can_pass && !o.can_fail {
            let what = if field == "verdict" { "\"pass\"" } else { "[]" };
            return Some((field, format!("a schema no value but {what} satisfies")));
        }
    }
    None
}

/// The schemas `schema` gives its property `field`: under `properties`, and
/// under each `allOf` member's, recursively (bounded).
fn field_schemas(schema: &Value, field: &str, depth: usize, out: &mut Vec<Value>) {
    let Some(m) = schema.as_object() else { return };
    if depth > 16 {
        return;
    }
    if let Some(s) = m.get("properties").and_then(|p| p.as_object()?.get(field)) {
        out.push(s.clone());
    }
    for member in m
        .get("allOf")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        field_schemas(member, field, depth + 1, out);
    }
}

/// The finding for a verify step whose schema cannot report a failure: the
/// gate's test of it always holds, so the unit is gated in name only.
fn rigged(unit: &str, verify: &str, field: &str, why: &str) -> Issue {
    let want = if field == "verdict" {
        "{\"type\": \"string\", \"enum\": [\"pass\", \"fail\"]}"
    } else {
        "{\"type\": \"array\", \"items\": {\"enum\": [the unit's criteria]}} (no `maxItems` 0, `const` or `enum` that holds it empty)"
    };
    Issue::new(
        CODE,
        format!(
            "unit `{unit}` cannot fail its verification: the output schema of `{verify}` gives `{field}` {why}, so the gate's test of `{verify}.{field}` always holds and a failed unit would feed the synthesis"
        ),
    )
    .node(verify.to_string())
    .at(format!("/definition/outputSchema/properties/{field}"))
    .fix(Remedy::SetField {
        node: verify.to_string(),
        path: format!("outputSchema.properties.{field}"),
        value: Fill::choose(want),
    })
}

/// The node of unit `s`'s work whose output schema declares a `verdict`
/// (its verify step), for the message and the fix.
fn verdict_node(g: &crate::check::Graph, is_spawn: &[bool], s: usize) -> Option<usize> {
    (0..g.len()).find(|&v| {
        synthesis::unit_of(g, is_spawn, v) == Some(s)
            && g.node(v)
                .get("outputSchema")
                .and_then(|o| {
                    o.as_object()?
                        .get("properties")?
                        .as_object()?
                        .get("verdict")
                })
                .is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::UngatedUnit;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::remedy::Remedy;
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true}, write: {returns: text, writes: [path]}}";

    fn with(case_all: serde_json::Value) -> Vec<crate::model::Issue> {
        with_edge(case_all, None)
    }

    fn with_edge(
        case_all: serde_json::Value,
        extra: Option<crate::model::Edge>,
    ) -> Vec<crate::model::Issue> {
        with_schema(case_all, extra, json!({"verdict": {"type": "string"}}))
    }

    /// Units `a` and `b`; `verify_b`'s output schema has `b_props`.
    fn with_schema(
        case_all: serde_json::Value,
        extra: Option<crate::model::Edge>,
        b_props: serde_json::Value,
    ) -> Vec<crate::model::Issue> {
        let verify = |id: &str, of: &str| {
            let props = if id == "verify_b" {
                b_props.clone()
            } else {
                json!({"verdict": {"type": "string"}})
            };
            node(
                id,
                NodeKind::Reason,
                json!({"prompt": [r(of, None)], "maxAttempts": 1,
                "outputSchema": {"type": "object", "properties": props}}),
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
                    json!({"evaluator": "structured", "predicate": {"all": case_all}, "cases": ["all"]}),
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
            ]
            .into_iter()
            .chain(extra)
            .collect(),
        );
        run_reg(&UngatedUnit, &p, &registry(REG))
    }

    fn verdict(unit: &str, op: &str, value: Option<serde_json::Value>) -> serde_json::Value {
        let mut t = json!({"path": format!("verify_{unit}.verdict"), "op": op});
        if let Some(v) = value {
            t["value"] = v;
        }
        t
    }

    fn empty(unit: &str) -> serde_json::Value {
        json!({"path": format!("verify_{unit}.failedCriteria"), "op": "eq", "value": []})
    }

    fn pass(unit: &str) -> serde_json::Value {
        json!({"all": [verdict(unit, "eq", Some(json!("pass"))), empty(unit)]})
    }

    fn fires_for_b(case_all: serde_json::Value) {
        let issues = with(case_all.clone());
        assert_eq!(issues.len(), 1, "{case_all}: {issues:#?}");
        assert!(
            issues[0].message.contains("after unit `spawn_b` without")
                && issues[0]
                    .message
                    .contains("`verify_b.failedCriteria` eq []"),
            "{}",
            issues[0].message
        );
    }

    #[test]
    fn names_the_failure_edge_moved_to_the_write() {
        let both = json!({"all": [pass("a"), pass("b")]});
        let issues = with_edge(
            both.clone(),
            Some(edge("e10", "verified", "write", "default")),
        );
        assert_eq!(issues.len(), 2, "{issues:#?}");
        assert!(
            issues[0]
                .message
                .contains("gate `verified` sends its `default` (edge `e10`) on to `write`"),
            "{}",
            issues[0].message
        );
        assert_eq!(issues[0].edge_id.as_deref(), Some("e10"));
        // One fix, which moves the edge (removing it alone is no fix).
        assert_eq!(issues[0].fixes.len(), 1, "{:#?}", issues[0].fixes);
        assert!(matches!(
            &issues[0].fixes[0].remedy,
            Remedy::Retarget { edge, from, handle, .. }
                if edge == "e10" && from == "verified" && handle == "default"
        ));
        // Near miss: the same gate without the moved edge.
        assert!(with_edge(both, None).is_empty());
    }

    #[test]
    fn fires_for_the_unit_no_gate_tests() {
        fires_for_b(json!({"all": [pass("a")]}));
        // A test under `any` requires nothing.
        assert_eq!(with(json!({"any": [pass("a"), pass("b")]})).len(), 2);
    }

    #[test]
    fn fires_for_a_gate_that_mentions_the_unit_without_requiring_a_pass() {
        let b = |t: serde_json::Value| json!({"all": [pass("a"), t]});
        // Inverted, weakened, verdict alone, criteria alone, negated.
        fires_for_b(b(
            json!({"all": [verdict("b", "eq", Some(json!("fail"))), empty("b")]}),
        ));
        fires_for_b(b(
            json!({"all": [verdict("b", "exists", None), empty("b")]}),
        ));
        fires_for_b(b(verdict("b", "eq", Some(json!("pass")))));
        fires_for_b(b(
            json!({"path": "verify_b.failedCriteria", "op": "exists"}),
        ));
        fires_for_b(b(json!({"not": pass("b")})));
        fires_for_b(b(
            json!({"all": [verdict("b", "in", Some(json!(["pass", "fail"]))), empty("b")]}),
        ));
        // `not` of `ne` guarantees nothing (a missing verdict fails both).
        fires_for_b(b(
            json!({"all": [{"not": verdict("b", "ne", Some(json!("pass")))}, empty("b")]}),
        ));
    }

    #[test]
    fn passes_when_every_unit_is_guaranteed_to_pass() {
        assert!(with(json!({"all": [pass("a"), {"all": [pass("b")]}]})).is_empty());
        // `in` with only "pass", and an `any` whose every member requires it.
        let b = json!({"any": [
            {"all": [verdict("b", "in", Some(json!(["pass"]))), empty("b")]},
            {"all": [pass("b"), {"path": "verify_b.handoff", "op": "exists"}]}
        ]});
        assert!(with(json!({"all": [pass("a"), b]})).is_empty());
        // Double negation is the test itself.
        assert!(with(json!({"all": [pass("a"), {"not": {"not": pass("b")}}]})).is_empty());
    }

    #[test]
    fn fires_for_a_verify_schema_that_cannot_fail() {
        let both = json!({"all": [pass("a"), pass("b")]});
        let crit =
            |f: serde_json::Value| json!({"verdict": {"type": "string"}, "failedCriteria": f});
        for (props, field) in [
            (
                json!({"verdict": {"type": "string", "const": "pass"}}),
                "verdict",
            ),
            (
                json!({"verdict": {"type": "string", "enum": ["pass"]}}),
                "verdict",
            ),
            (
                crit(json!({"type": "array", "maxItems": 0})),
                "failedCriteria",
            ),
            (
                crit(json!({"type": "array", "const": []})),
                "failedCriteria",
            ),
            (
                crit(json!({"type": "array", "items": false})),
                "failedCriteria",
            ),
            // Equivalent forms (tester N5): judged, not listed.
            (
                json!({"verdict": {"type": "string", "pattern": "^pass$"}}),
                "verdict",
            ),
            (
                json!({"verdict": {"type": "string", "allOf": [{"const": "pass"}]}}),
                "verdict",
            ),
            (
                crit(json!({"type": "array", "items": {"not": {}}})),
                "failedCriteria",
            ),
        ] {
            let issues = with_schema(both.clone(), None, props.clone());
            assert_eq!(issues.len(), 1, "{props}: {issues:#?}");
            let i = &issues[0];
            assert!(
                i.message
                    .contains("unit `spawn_b` cannot fail its verification")
                    && i.message
                        .contains(&format!("`verify_b.{field}` always holds")),
                "{}",
                i.message
            );
            assert_eq!(i.node_id.as_deref(), Some("verify_b"));
            assert_eq!(
                i.pointer.as_deref(),
                Some(format!("/definition/outputSchema/properties/{field}").as_str())
            );
            assert!(matches!(
                &i.fixes[0].remedy,
                crate::model::remedy::Remedy::SetField { node, path, .. }
                    if node == "verify_b" && *path == format!("outputSchema.properties.{field}")
            ));
        }
    }

    #[test]
    fn passes_a_verify_schema_that_can_fail() {
        let both = json!({"all": [pass("a"), pass("b")]});
        let props = json!({
            "verdict": {"type": "string", "enum": ["pass", "fail"]},
            "failedCriteria": {"type": "array", "maxItems": 6, "items": {"enum": ["c1", "c2"]}}
        });
        assert!(with_schema(both.clone(), None, props).is_empty());
        // A pattern the judgement cannot read counts as able to fail.
        let unread = json!({"verdict": {"type": "string", "pattern": "^p.ss$"}});
        assert!(with_schema(both.clone(), None, unread).is_empty());
        // A `const` other than "pass" is not this check's business.
        let other = json!({"verdict": {"type": "string", "const": "fail"}});
        assert!(with_schema(both, None, other).is_empty());
    }
}
