//! Complexity: O(n + e): one forward walk from every spawning call at once,
//! then one look at the args of each failure report it reaches; an arg that
//! is a whole reference costs one bounded reachability search per `error`
//! edge of the node it reads.

use crate::check::Graph;
use crate::check::support::is_canonical;
use crate::model::remedy::Fill;
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
        .filter_map(|&e| g.ends[e].map(|(_, t)| t))
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
    /// ## Example
    /// `fail_a` (`report_failure`, `"args": {"failureClass": "non-convergence",
    /// "units": ["a"], "detail": "…"}`) after `spawn_a` fires. Fixed: add
    /// `"failedCriteria": {"$ref": {"node": "verify_a", "select": "first",
    /// "path": "failedCriteria"}}` and `"rollbackState": "nothing to roll
    /// back: no synthesis was begun"`. A report on `reconcile`'s `error`
    /// edge whose `failureClass` is `{"$ref": {"node": "reconcile", "path":
    /// "outcome"}}` fires too: fixed with a literal class.
    pub IncompleteFailureReport { code: "incomplete_failure_report", severity: Blocking, needs: REGISTRY, source: Check }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        let spawns = cx.spawns();
        if spawns.is_empty() {
            return;
        }
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
    }
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
