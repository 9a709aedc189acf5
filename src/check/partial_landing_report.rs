//! Complexity: O(n + e) per settling join: one backward walk to its units,
//! one forward walk through its gates to the reports, then one walk of each
//! report's args.

use crate::check::Graph;
use crate::check::support::is_canonical;
use crate::check::synthesis::REPORT_TOOL;
use crate::model::remedy::Fill;
use crate::model::value::{Pointer, Ref, Select};
use crate::model::{Issue, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A failure report (`report_failure`) that a join of kind `settle`
    /// sends to through gates only (the partial-landing and the
    /// "no unit verified" reports of a parallel orchestration) whose args do
    /// not, for every unit whose branch the join settles, reference that
    /// unit's verification's `verdict` and `failedCriteria`, or do not
    /// reference the join's output (its arrivals). A unit is a spawning
    /// call (`spawnsAgent: true`) the join is reached from; its
    /// verification is a `reason` step between the spawn and the join.
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// Seed 003's partial landing: "Report both sets". When some units
    /// landed and others did not, the owner needs, per unit, whether it
    /// passed and which criteria it failed, and for a unit whose step
    /// errored, which step: the join's arrivals name it. A hand edit that
    /// drops a unit's verdict, replaces the criteria by a literal, or drops
    /// the arrivals still runs, and the report then says nothing about the
    /// units it left out. `incomplete_failure_report` only asks that
    /// `failedCriteria` be given, not that it cover every unit.
    ///
    /// ## How to fix
    /// In the report's args, set `verdicts.<unit>` and
    /// `failedCriteria.<unit>` to references to the unit's verification
    /// (`verify_<unit>.verdict`, `verify_<unit>.failedCriteria`) for every
    /// unit, and `arrivals` to a reference to the join.
    ///
    /// ## Example
    /// `landing` (after `join` (settle) `→ verified —case_some→`) with
    /// `verdicts: {a: verify_a.verdict}` and no entry for unit `b`. Fixed:
    /// add `verdicts.b: verify_b.verdict` and `failedCriteria.b:
    /// verify_b.failedCriteria`.
    pub PartialLandingReport { code: "partial_landing_report", severity: Blocking, needs: REGISTRY, source: Check }
    fn run(cx, out) {
        let Some((reg, spawns)) = cx.orchestration() else { return };
        let g = &cx.graph;
        for j in 0..g.len() {
            if !g.node(j).settles() || !is_canonical(g, j) {
                continue;
            }
            let units = units_of(g, j, spawns);
            if units.is_empty() {
                continue;
            }
            for r in reports_after(g, j) {
                check_report(g, j, &units, r, reg.tool(REPORT_TOOL), out);
            }
        }
    }
}

/// A unit of the join: its key (the verification's id without `verify_`)
/// and its verification step.
struct UnitOf {
    key: String,
    verify: usize,
}

/// The units whose branches the join `j` settles: each spawn that reaches
/// it, with the first `reason` step between them.
fn units_of(g: &Graph, j: usize, spawns: &[usize]) -> Vec<UnitOf> {
    let before = walk(g.len(), j, |i| g.preds(i).collect());
    let mut out = Vec::new();
    for &s in spawns {
        if !before[s] {
            continue;
        }
        let after = walk(g.len(), s, |i| g.succs(i).collect());
        let verify = (0..g.len())
            .find(|&v| after[v] && before[v] && v != j && g.node(v).kind == NodeKind::Reason);
        if let Some(v) = verify {
            let id = &g.node(v).id;
            out.push(UnitOf {
                key: id.strip_prefix("verify_").unwrap_or(id).to_string(),
                verify: v,
            });
        }
    }
    out
}

/// The failure reports the join's gates send to: walking from `j` through
/// branches and selects only.
fn reports_after(g: &Graph, j: usize) -> Vec<usize> {
    let mut seen = vec![false; g.len()];
    let mut stack = vec![j];
    let mut out = Vec::new();
    while let Some(i) = stack.pop() {
        for t in g.succs(i) {
            if seen[t] {
                continue;
            }
            seen[t] = true;
            let n = g.node(t);
            match n.kind {
                NodeKind::Branch | NodeKind::Select => stack.push(t),
                NodeKind::Call if n.tool() == Some(REPORT_TOOL) && is_canonical(g, t) => {
                    out.push(t)
                }
                _ => {}
            }
        }
    }
    out.sort_unstable();
    out
}

fn check_report(
    g: &Graph,
    j: usize,
    units: &[UnitOf],
    r: usize,
    entry: Option<&crate::model::registry::ToolEntry>,
    out: &mut Vec<Issue>,
) {
    let node = g.node(r);
    let mut refs: Vec<(String, Option<String>)> = Vec::new();
    if let Some(args) = node.get("args") {
        args.walk(&mut Pointer::new(""), &mut |_, v| {
            if let Value::Ref(x) = v {
                refs.push((x.node.clone(), x.root_field().map(str::to_string)));
            }
        });
    }
    let has = |n: usize, field: Option<&str>| {
        let id = &g.node(n).id;
        refs.iter()
            .any(|(rn, rf)| rn == id && (field.is_none() || rf.as_deref() == field))
    };
    let here = |what: String, path: &str, value: Value| {
        Issue::new(
            CODE,
            format!(
                "failure report `{}`, reached from the settling join `{}`, {what}: it must name both sets (every unit's verdict and failed criteria) and the join's arrivals (the step an errored unit failed at)",
                node.id,
                g.node(j).id
            ),
        )
        .node(node.id.clone())
        .at(format!("/definition/args/{path}"))
        .fix(super::synthesis::set_arg(
            node,
            entry,
            &format!("args.{path}"),
            Fill::Value(value),
        ))
    };
    for (arg, field) in [
        ("verdicts", "verdict"),
        ("failedCriteria", "failedCriteria"),
    ] {
        let lacking: Vec<String> = units
            .iter()
            .filter(|u| !has(u.verify, Some(field)))
            .map(|u| format!("{}.{field}", g.node(u.verify).id))
            .collect();
        if lacking.is_empty() {
            continue;
        }
        let mut all = crate::model::Map::new();
        for u in units {
            let mut x = Ref::new(g.node(u.verify).id.clone());
            x.path = Some(field.to_string());
            all.insert(u.key.clone().into(), Value::Ref(Box::new(x)));
        }
        out.push(here(
            format!(
                "does not reference {}",
                crate::model::suggest::capped_list(&lacking, 8)
            ),
            arg,
            Value::Object(all),
        ));
    }
    if !has(j, None) {
        let mut x = Ref::new(g.node(j).id.clone());
        x.select = Select::Index(0);
        out.push(here(
            "does not reference the join's output (its arrivals)".into(),
            "arrivals",
            Value::Ref(Box::new(x)),
        ));
    }
    // A literal list of the affected units names every unit: by its name,
    // read with the one key derivation `orchestrate` names units with
    // (`market sizing`, `market-sizing` → `market_sizing`,
    // `market_sizing_2`), or by its key.
    let list = node
        .get("args")
        .and_then(Value::as_object)
        .and_then(|a| a.get("units"))
        .and_then(Value::as_array);
    if let Some(list) = list {
        let named = super::synthesis::unit_keys(list.iter().filter_map(Value::as_str));
        let missing: Vec<&str> = units
            .iter()
            .map(|u| u.key.as_str())
            .filter(|k| !named.iter().any(|n| n == k))
            .collect();
        if !missing.is_empty() {
            out.push(here(
                format!(
                    "lists the units without {}",
                    crate::model::suggest::capped_list(&missing, 8)
                ),
                "units",
                Value::Array(units.iter().map(|u| Value::from(u.key.as_str())).collect()),
            ));
        }
    }
}

/// Every node reachable from `start` along `next`, `start` included.
fn walk(n: usize, start: usize, next: impl Fn(usize) -> Vec<usize>) -> Vec<bool> {
    let mut seen = vec![false; n];
    let mut stack = vec![start];
    seen[start] = true;
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

#[cfg(test)]
mod tests {
    use super::PartialLandingReport;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    const REG: &str =
        "tools: {spawn: {returns: text, spawnsAgent: true}, report_failure: {returns: text}}";

    /// Two units settling at `join`, then `verified` → `landing`.
    fn with(args: serde_json::Value) -> Vec<crate::model::Issue> {
        let mut nodes = vec![entry("start")];
        let mut edges = Vec::new();
        for u in ["a", "b"] {
            nodes.push(call_with(&format!("spawn_{u}"), "spawn", json!({}), &[]));
            nodes.push(node(
                &format!("verify_{u}"),
                NodeKind::Reason,
                json!({"prompt": "Verify."}),
            ));
            edges.push(edge(
                &format!("s_{u}"),
                "start",
                &format!("spawn_{u}"),
                "always",
            ));
            edges.push(edge(
                &format!("v_{u}"),
                &format!("spawn_{u}"),
                &format!("verify_{u}"),
                "always",
            ));
            edges.push(edge(
                &format!("j_{u}"),
                &format!("verify_{u}"),
                "join",
                "always",
            ));
            edges.push(edge(
                &format!("spawn_{u}__join"),
                &format!("spawn_{u}"),
                "join",
                "error",
            ));
        }
        nodes.push(node("join", NodeKind::Join, json!({"kind": "settle"})));
        nodes.push(node(
            "verified",
            NodeKind::Branch,
            json!({"predicate": {"op": "eq", "path": "verify_a.verdict", "value": "pass"}}),
        ));
        nodes.push(call_with("landing", "report_failure", args, &[]));
        edges.push(edge("jv", "join", "verified", "always"));
        edges.push(edge("vl", "verified", "landing", "no_match"));
        run_reg(&PartialLandingReport, &plan(nodes, edges), &registry(REG))
    }

    fn full() -> serde_json::Value {
        json!({
            "units": ["a", "b"],
            "verdicts": {"a": r("verify_a", Some("verdict")), "b": r("verify_b", Some("verdict"))},
            "failedCriteria": {"a": r("verify_a", Some("failedCriteria")), "b": r("verify_b", Some("failedCriteria"))},
            "arrivals": r("join", None),
        })
    }

    #[test]
    fn fires_on_a_report_that_leaves_a_unit_or_the_arrivals_out() {
        let mut args = full();
        args["verdicts"].as_object_mut().unwrap().remove("b");
        args["failedCriteria"] = json!(["exists"]);
        args.as_object_mut().unwrap().remove("arrivals");
        args["units"] = json!(["a"]);
        let issues = with(args);
        assert_eq!(issues.len(), 4, "{issues:#?}");
        assert!(
            issues[0]
                .message
                .contains("does not reference `verify_b.verdict`"),
            "{issues:#?}"
        );
        assert!(
            issues[1]
                .message
                .contains("`verify_a.failedCriteria`, `verify_b.failedCriteria`")
        );
        assert!(issues[2].message.contains("arrivals"));
        assert!(issues[3].message.contains("lists the units without `b`"));
        assert!(issues.iter().all(|i| i.fixes.len() == 1));
    }

    #[test]
    fn passes_a_report_naming_both_sets_and_the_arrivals() {
        assert!(with(full()).is_empty());
    }
}
