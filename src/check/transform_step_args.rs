//! Complexity: O(Σ steps · their args), one step table per transform.

use crate::check::support::{is_canonical, transform_class};
use crate::model::Issue;
use crate::model::remedy::{Fill, Remedy};
use crate::model::suggest;
use crate::model::{NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A transform step (of a known name) whose `args` do not fit the step's
    /// declared arguments in the registry: an argument the step does not
    /// take, a required argument left out (also when the step has no `args`
    /// at all), or a value of the wrong type (`string`, `number`, `integer`,
    /// `boolean`; step arguments are literals, not references). One issue
    /// per step, naming every problem. Needs a registry.
    ///
    /// ## Why it matters
    /// The step would fail, or silently ignore an argument, when the run
    /// reaches it.
    ///
    /// ## How to fix
    /// Give the step exactly the arguments the message lists, with those
    /// types.
    ///
    /// ## Example
    /// `{"name": "artifact_json_get", "args": {"path": 3, "lmit": 10}}`.
    /// Fixed: `{"name": "artifact_json_get", "args": {"path": "items", "limit": 10}}`.
    pub TransformStepArgs { code: "transform_step_args", severity: Blocking, needs: REGISTRY, source: Check, scope: Refs }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Transform || !is_canonical(g, i) {
                continue;
            }
            let Some(class) = transform_class(g, n, reg) else { continue };
            let Some(steps) = n.get("steps").and_then(|s| s.as_array()) else { continue };
            let offered = reg.class_steps(class);
            for (k, step) in steps.iter().enumerate() {
                let Some(m) = step.as_object() else { continue };
                let Some(name) = m.get("name").and_then(|v| v.as_str()) else { continue };
                let Some(def) = offered.get(name) else { continue };
                let empty = crate::model::Map::new();
                let args = match m.get("args") {
                    None => &empty,
                    Some(Value::Object(a)) => a,
                    Some(_) => continue, // missing_field names the shape
                };
                let mut problems = Vec::new();
                for (key, v) in args {
                    match def.args.iter().find(|a| a.name == *key) {
                        None => problems.push(format!(
                            "`{key}` is not one of its arguments{}",
                            suggest::did_you_mean(key, def.args.iter().map(|a| a.name.as_str()))
                        )),
                        Some(a) if !a.ty.accepts(v) => problems.push(format!(
                            "`{key}` must be a literal {}, not {}",
                            a.ty.as_str(),
                            v.type_name()
                        )),
                        Some(_) => {}
                    }
                }
                for a in &def.args {
                    if !a.optional && !args.contains_key(&a.name) {
                        problems.push(format!("the required argument `{}` ({}) is missing", a.name, a.ty.as_str()));
                    }
                }
                if problems.is_empty() {
                    continue;
                }
                let signature = if def.args.is_empty() {
                    "it takes no arguments".to_string()
                } else {
                    format!(
                        "it takes {}",
                        def.args
                            .iter()
                            .map(|a| format!("`{}`: {}{}", a.name, a.ty.as_str(), if a.optional { " (optional)" } else { "" }))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "transform `{}` step {k} (`{name}`) has arguments that do not fit it: {}; {signature}",
                            n.id,
                            problems.join("; ")
                        ),
                    )
                    .node(n.id.clone())
                    .at(format!("/definition/steps/{k}/args"))
                    .fix(Remedy::SetField {
                        node: n.id.to_string(),
                        path: format!("steps.{k}.args"),
                        value: Fill::choose("the arguments the step takes, with their types"),
                    }),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TransformStepArgs;
    use crate::check::testing::*;

    use serde_json::json;

    #[test]
    fn fires_on_wrong_unknown_and_missing_args() {
        let p = fetch_then_steps(json!([
            {"name": "artifact_json_get", "args": {"path": 3, "lmit": 10}},
            {"name": "artifact_json_get"},
            {"name": "artifact_head", "args": {"n": 1}}
        ]));
        let issues = run_reg(&TransformStepArgs, &p, &artifact_registry());
        assert_eq!(issues.len(), 3);
        assert!(
            issues[0].message.contains("literal string")
                && issues[0].message.contains("did you mean `limit`")
        );
        assert!(issues[1].message.contains("`path` (string) is missing"));
        assert!(issues[2].message.contains("takes no arguments"));
    }

    #[test]
    fn passes_fitting_args() {
        let p = fetch_then_steps(json!([
            {"name": "artifact_json_get", "args": {"path": "items", "limit": 10}},
            {"name": "artifact_head"}
        ]));
        assert!(run_reg(&TransformStepArgs, &p, &artifact_registry()).is_empty());
    }
}
