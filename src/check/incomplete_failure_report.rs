//! Complexity: O(n + e): one forward walk from every spawning call at once,
//! then one look at the args of each failure report it reaches; an arg that
//! is a whole reference costs one bounded reachability search per `error`
//! edge of the node it reads.

use crate::check::Graph;
use crate::check::support::is_canonical;
use crate::model::remedy::{Fill, Remedy};
use crate::model::{Handle, Issue, NodeKind, Value};

use crate::check::synthesis::{REPORT_TOOL, set_arg};

/// The Output contract's failure fields a report must pass besides those
/// the registry entry requires: (arg, what the seed calls it).
const FIELDS: [(&str, &str); 2] = [
    ("failedCriteria", "the failed criteria"),
    ("rollbackState", "the rollback state"),
];

/// The Output contract's fields that a reference can leave without a value
/// on the referenced node's own error path: (arg, what the seed calls it).
const CONTRACT: [(&str, &str); 4] = [
    ("failureClass", "the failure class"),
    ("units", "the affected units"),
    ("failedCriteria", "the failed criteria"),
    ("rollbackState", "the rollback state"),
];

/// When `v` is one whole reference to a node whose `error` edge leads to
/// report `r` (or is `r`'s own edge), that node's id: on that path the node
/// gave no output, so the reference has no value there.
fn unset_on_error_path<'g>(g: &'g Graph, r: usize, v: &Value) -> Option<&'g str> {
    let Value::Ref(x) = v else { return None };
    let n = g.index_of(&x.node)?;
    let errs = g.out[n]
        .iter()
        .filter(|&&e| g.edge(e).handle == Handle::Error);
    let hit = errs
        .filter_map(|&e| g.ends.get(e).map(|(_, t)| t))
        .any(|t| t == r || g.reaches(t, r));
    hit.then(|| g.node(n).id.as_str())
}

/// An arg that is there but says nothing: `null`, a blank string, `[]`, `{}`.
fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
        _ => false,
    }
}

declare_check! {
    /// ## What it finds
    /// A `report_failure` call that a spawning call (`spawnsAgent: true`)
    /// reaches — a failure report of an orchestration — without the failed
    /// criteria (`failedCriteria`) or the rollback state (`rollbackState`),
    /// or with one of them empty (`null`, a blank string, `[]`, `{}`). A
    /// reference (to a verification's `failedCriteria`, say) counts as
    /// given, except on the referenced node's own error path: a contract
    /// field (failure class, units, failed criteria, rollback state) that is
    /// one whole reference to a node whose `error` edge leads to the report
    /// has no value there (the node gave no output), so it counts as not
    /// given. The failure class and the affected units are the registry
    /// entry's `requiredArgs`, which `missing_arg` holds a call to.
    ///
    /// Also a verification whose `failedCriteria` a failure report passes
    /// on (a reference to it, alone or one per unit) when its `outputSchema` lets a
    /// failed verdict (`verdict` other than "pass") come with an empty
    /// `failedCriteria`: judged by what the schema admits for those two
    /// properties (`properties`, `type`, `allOf`, `anyOf`, `oneOf`, `not`,
    /// and the keywords a property's own schema uses), not by its form; a
    /// keyword it does not read leaves the verification unjudged.
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// Seed 003's Output contract: on failure, return the named failure
    /// class, the affected units, the failed criteria and the rollback state,
    /// without a partial synthesis. A report that says a unit failed but not
    /// which criterion, or not whether a partial synthesis was removed,
    /// leaves the owner unable to decide whether to rerun, fix the
    /// assignment, or clean up. A hand edit can drop either arg and the plan
    /// still runs. In seed 003 this check carries the Output fields "failed
    /// criteria" and "rollback state" and the failure classes'
    /// "name the failed unit and failed criterion".
    ///
    /// ## How to fix
    /// Pass `failedCriteria` (the criteria the unit failed: a reference to
    /// its verification's `failedCriteria`, or the literal list) and
    /// `rollbackState` (what was rolled back, or that nothing had to be) in
    /// the call's args.
    ///
    /// For a verification that can fail naming no criterion, give its
    /// `outputSchema` the `anyOf` an orchestrated plan has: the verdict is
    /// "pass", or `failedCriteria` has at least one item (`minItems` 1).
    ///
    /// ## Example
    /// `fail_a` (`report_failure`, `"args": {"failureClass": "non-convergence",
    /// "units": ["a"], "detail": "…"}`) after `spawn_a` fires. Fixed: add
    /// `"failedCriteria": {"$ref": {"node": "verify_a", "select": "first",
    /// "path": "failedCriteria"}}` and `"rollbackState": "nothing to roll
    /// back: no synthesis was begun"`. A report on `reconcile`'s `error`
    /// edge whose `failureClass` is `{"$ref": {"node": "reconcile", "path":
    /// "outcome"}}` fires too: fixed with a literal class. `verify_a`
    /// whose `outputSchema` has `verdict` `{"enum": ["pass", "fail"]}` and
    /// `failedCriteria` `{"type": "array"}` and nothing more, read by
    /// `fail_a`, fires; fixed with `"anyOf": [{"properties": {"verdict":
    /// {"const": "pass"}}}, {"properties": {"failedCriteria": {"minItems":
    /// 1}}}]`.
    pub IncompleteFailureReport { code: "incomplete_failure_report", severity: Blocking, needs: REGISTRY, source: Check }
    fn run(cx, out) {
        let Some((reg, spawns)) = cx.orchestration() else { return };
        let g = &cx.graph;
        let after = crate::check::synthesis::after(g, spawns);
        for (i, node) in cx.content.nodes.iter().enumerate() {
            if !after[i] || node.kind != NodeKind::Call || !is_canonical(g, i) || node.tool() != Some(REPORT_TOOL) {
                continue;
            }
            let args = node.get("args").and_then(Value::as_object);
            let mut lacking = Vec::new();
            let mut fixes = Vec::new();
            for (arg, what) in CONTRACT {
                let given = args.and_then(|a| a.get(arg));
                let state = match given {
                    None if FIELDS.iter().any(|(f, _)| *f == arg) => "missing".to_string(),
                    Some(v) if is_empty(v) && FIELDS.iter().any(|(f, _)| *f == arg) => "empty".to_string(),
                    Some(v) => match unset_on_error_path(g, i, v) {
                        Some(n) => format!("reads `{n}`, which gives no output on its own error path to this report"),
                        None => continue,
                    },
                    None => continue,
                };
                lacking.push(format!("{what} (`{arg}` {state})"));
                let entry = reg.tool(REPORT_TOOL);
                fixes.push(set_arg(node, entry, &format!("args.{arg}"), Fill::choose(what)));
            }
            if lacking.is_empty() {
                continue;
            }
            let mut issue = Issue::new(
                CODE,
                format!(
                    "failure report `{}` (`{REPORT_TOOL}`) comes after spawned units but lacks {}; a failure returns its class, the affected units, the failed criteria and the rollback state",
                    node.id,
                    lacking.join(" and ")
                ),
            )
            .node(node.id.clone())
            .at("/definition/args");
            for f in fixes {
                issue = issue.fix(f);
            }
            out.push(issue);
        }
        silent_verifications(cx, &after, out);
    }
}

/// The verifications whose `failedCriteria` failure reports pass on, and
/// whose output schema lets a failed verdict name no criterion: the
/// report would then say a unit failed and not which criterion.
fn silent_verifications(cx: &crate::check::Cx, after: &[bool], out: &mut Vec<Issue>) {
    let g = &cx.graph;
    let mut read: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, node) in cx.content.nodes.iter().enumerate() {
        if !after[i] || node.kind != NodeKind::Call || node.tool() != Some(REPORT_TOOL) {
            continue;
        }
        let Some(given) = node
            .get("args")
            .and_then(|a| a.as_object()?.get("failedCriteria"))
        else {
            continue;
        };
        let mut refs = Vec::new();
        criteria_refs(given, &mut refs, 0);
        for v in refs.into_iter().filter_map(|n| g.index_of(n)) {
            match read.iter_mut().find(|(x, _)| *x == v) {
                Some((_, by)) if !by.iter().any(|b| b == node.id) => by.push(node.id.to_string()),
                Some(_) => {}
                None => read.push((v, vec![node.id.to_string()])),
            }
        }
    }
    for (v, by) in read {
        let node = g.node(v);
        let Some(schema) = node
            .get("outputSchema")
            .filter(|_| node.kind == NodeKind::Reason)
        else {
            continue;
        };
        let verdict = schema
            .as_object()
            .and_then(|m| m.get("properties")?.as_object()?.get("verdict"));
        let failed = match verdict.and_then(|v| v.as_object()?.get("enum")?.as_array()) {
            Some(values) => values.iter().find(|x| x.as_str() != Some("pass")).cloned(),
            None => verdict.map(|_| Value::from("fail")),
        };
        let Some(failed) = failed else { continue };
        let silent = [
            ("verdict", failed.clone()),
            ("failedCriteria", Value::Array(Vec::new())),
        ];
        if crate::check::schema_sat::admits_fields(schema, &silent) != Some(true) {
            continue;
        }
        let reports = by
            .iter()
            .map(|r| format!("`{r}`"))
            .collect::<Vec<_>>()
            .join(", ");
        out.push(
            Issue::new(
                CODE,
                format!(
                    "verification `{}` can fail naming no criterion: its `outputSchema` admits `verdict` {} with `failedCriteria` [], so the failure report(s) {reports} reading its `failedCriteria` would name none; require at least one failed criterion unless the verdict is \"pass\"",
                    node.id,
                    crate::wire::json::compact(&failed)
                ),
            )
            .node(node.id.clone())
            .at("/definition/outputSchema")
            .fix(Remedy::SetField {
                node: node.id.to_string(),
                path: "outputSchema.anyOf".into(),
                value: Fill::Value(named_failure()),
            }),
        );
    }
}

/// The nodes whose `failedCriteria` a report's `failedCriteria` arg
/// passes on: a whole reference, or the references in an object or list
/// of them (one per unit, after a settling join).
fn criteria_refs<'v>(v: &'v Value, out: &mut Vec<&'v str>, depth: usize) {
    match v {
        Value::Ref(r) if r.path.as_deref() == Some("failedCriteria") => out.push(&r.node),
        Value::Object(m) if depth < 4 => m.values().for_each(|x| criteria_refs(x, out, depth + 1)),
        Value::Array(a) if depth < 4 => a.iter().for_each(|x| criteria_refs(x, out, depth + 1)),
        _ => {}
    }
}

/// `anyOf`: the verdict is "pass", or at least one criterion failed.
pub(crate) fn named_failure() -> Value {
    let props = |k: &str, v: Value| {
        let mut inner = crate::model::Map::new();
        inner.insert(k.into(), v);
        let mut m = crate::model::Map::new();
        m.insert("properties".into(), Value::Object(inner));
        Value::Object(m)
    };
    let one = |k: &str, v: Value| {
        let mut m = crate::model::Map::new();
        m.insert(k.into(), v);
        Value::Object(m)
    };
    Value::Array(vec![
        props("verdict", one("const", Value::from("pass"))),
        props("failedCriteria", one("minItems", Value::from(1u64))),
    ])
}

#[cfg(test)]
mod tests {
    use super::IncompleteFailureReport;
    use crate::check::testing::*;
    use serde_json::json;

    const REG: &str =
        "tools: {spawn: {returns: text, spawnsAgent: true}, report_failure: {returns: text}}";

    fn with(report: serde_json::Value) -> Vec<crate::model::Issue> {
        let p = plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({}), &["verdict"]),
                call_with("fail_a", "report_failure", report, &[]),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "fail_a", "error"),
            ],
        );
        run_reg(&IncompleteFailureReport, &p, &registry(REG))
    }

    /// `spawn_a → verify_a` (a reason step with `schema`) `→ fail_a`,
    /// which passes on `verify_a.failedCriteria`.
    fn verified_by(schema: serde_json::Value) -> Vec<crate::model::Issue> {
        let p = plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({}), &["verdict"]),
                node(
                    "verify_a",
                    crate::model::NodeKind::Reason,
                    json!({"prompt": [{"text": "check"}], "outputSchema": schema, "maxAttempts": 1}),
                ),
                call_with(
                    "fail_a",
                    "report_failure",
                    json!({"failureClass": "non-convergence", "units": ["a"], "rollbackState": "none",
                           "failedCriteria": r("verify_a", Some("failedCriteria"))}),
                    &[],
                ),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "verify_a", "always"),
                edge("e3", "verify_a", "fail_a", "always"),
            ],
        );
        run_reg(&IncompleteFailureReport, &p, &registry(REG))
    }

    fn verify_schema(extra: Option<serde_json::Value>) -> serde_json::Value {
        let mut s = json!({"type": "object", "properties": {
            "verdict": {"type": "string", "enum": ["pass", "fail"]},
            "failedCriteria": {"type": "array", "items": {"type": "string"}},
            "handoff": {"type": "string"}},
            "required": ["verdict", "failedCriteria", "handoff"], "additionalProperties": false});
        if let Some(x) = extra {
            s["anyOf"] = x;
        }
        s
    }

    #[test]
    fn fires_on_a_verification_that_can_fail_naming_no_criterion() {
        let issues = verified_by(verify_schema(None));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert_eq!(issues[0].node_id.as_deref(), Some("verify_a"));
        assert!(
            issues[0]
                .message
                .contains("verification `verify_a` can fail naming no criterion")
                && issues[0].message.contains("report(s) `fail_a`"),
            "{}",
            issues[0].message
        );
        // Its fix makes the schema what an orchestrated plan emits.
        let crate::model::remedy::Remedy::SetField { path, value, .. } = &issues[0].fixes[0].remedy
        else {
            panic!("{:?}", issues[0].fixes)
        };
        assert_eq!(path, "outputSchema.anyOf");
        let crate::model::remedy::Fill::Value(v) = value else {
            panic!("{value:?}")
        };
        let fixed = verify_schema(Some(
            serde_json::from_str(&crate::wire::json::compact(v)).unwrap(),
        ));
        assert!(verified_by(fixed).is_empty());
        // A `minItems` on the array alone, or an `anyOf` that still lets
        // "fail" through with none, does not do.
        let loose = json!([{"properties": {"verdict": {"const": "fail"}}}, {"properties": {"failedCriteria": {"minItems": 1}}}]);
        assert_eq!(verified_by(verify_schema(Some(loose))).len(), 1);
    }

    #[test]
    fn passes_a_verification_whose_failure_names_a_criterion() {
        let named = json!([{"properties": {"verdict": {"const": "pass"}}}, {"properties": {"failedCriteria": {"minItems": 1}}}]);
        assert!(verified_by(verify_schema(Some(named))).is_empty());
        // A list that is never empty, by the array's own schema.
        let mut s = verify_schema(None);
        s["properties"]["failedCriteria"]["minItems"] = json!(1);
        assert!(verified_by(s).is_empty());
    }

    #[test]
    fn fires_on_a_report_without_criteria_or_with_an_empty_rollback_state() {
        let issues =
            with(json!({"failureClass": "non-convergence", "units": ["a"], "rollbackState": " "}));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        let m = &issues[0].message;
        assert!(m.contains("failure report `fail_a`"), "{m}");
        assert!(m.contains("the failed criteria (`failedCriteria` missing) and the rollback state (`rollbackState` empty)"), "{m}");
        assert_eq!(issues[0].fixes.len(), 2);
        assert_eq!(
            with(json!({"failedCriteria": [], "rollbackState": "none"})).len(),
            1
        );
    }

    /// `spawn_a` → `reconcile`, whose error edge leads to `report`, and
    /// whose success leads to `gate` → `report` too.
    fn after_reconcile(report: serde_json::Value) -> Vec<crate::model::Issue> {
        let p = plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({}), &["verdict"]),
                call_with("reconcile", "spawn", json!({}), &["outcome"]),
                call_with("gate", "spawn", json!({}), &[]),
                call_with("report", "report_failure", report, &[]),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "reconcile", "always"),
                edge("e3", "reconcile", "gate", "always"),
                edge("e4", "gate", "report", "error"),
                edge("e5", "reconcile", "report", "error"),
            ],
        );
        run_reg(&IncompleteFailureReport, &p, &registry(REG))
    }

    #[test]
    fn fires_on_a_reference_to_the_node_whose_error_path_it_is() {
        let outcome = r("reconcile", Some("outcome"));
        let issues = after_reconcile(json!({"failureClass": outcome, "units": ["a"],
            "failedCriteria": ["reconciled"], "rollbackState": "nothing to roll back"}));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(
            issues[0].message.contains("the failure class (`failureClass` reads `reconcile`, which gives no output on its own error path to this report)"),
            "{}",
            issues[0].message
        );
        // Also through a node in between: reconcile —error→ x → report.
        let p = plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({}), &["verdict"]),
                call_with("x", "spawn", json!({}), &[]),
                call_with(
                    "report",
                    "report_failure",
                    json!({"failureClass": "c", "units": ["a"],
                    "failedCriteria": r("spawn_a", Some("verdict")), "rollbackState": "none"}),
                    &[],
                ),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "x", "error"),
                edge("e3", "x", "report", "always"),
            ],
        );
        assert_eq!(
            run_reg(&IncompleteFailureReport, &p, &registry(REG)).len(),
            1
        );
    }

    #[test]
    fn passes_a_literal_class_and_a_reference_to_a_node_that_ran() {
        // The class is literal on reconcile's error path; the criteria read
        // `spawn_a`, which ran (its success edge leads here).
        let issues = after_reconcile(json!({"failureClass": "context overflow", "units": ["a"],
            "failedCriteria": r("spawn_a", Some("verdict")), "rollbackState": "nothing to roll back"}));
        assert!(issues.is_empty(), "{issues:#?}");
    }

    #[test]
    fn passes_a_report_with_referenced_criteria_and_one_before_any_spawn() {
        // `spawn_a` ran: its success edge leads to `x`, whose error edge
        // leads to the report.
        let criteria = r("spawn_a", Some("verdict"));
        let p = plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({}), &["verdict"]),
                call_with("x", "spawn", json!({}), &[]),
                call_with(
                    "fail_a",
                    "report_failure",
                    json!({"failedCriteria": criteria, "rollbackState": "nothing to roll back"}),
                    &[],
                ),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "x", "always"),
                edge("e3", "x", "fail_a", "error"),
            ],
        );
        assert!(run_reg(&IncompleteFailureReport, &p, &registry(REG)).is_empty());
        // A failure report no spawning call reaches is not an orchestration's.
        let p = plan(
            vec![
                entry("start"),
                call_with("fail", "report_failure", json!({}), &[]),
            ],
            vec![edge("e1", "start", "fail", "always")],
        );
        assert!(run_reg(&IncompleteFailureReport, &p, &registry(REG)).is_empty());
    }
}
