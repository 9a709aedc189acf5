//! Complexity: O(Σ steps + Σ class chain lengths), one step table per
//! transform.

use crate::check::support::{is_canonical, transform_class};
use crate::model::remedy::{Fill, Remedy};
use crate::model::suggest;
use crate::model::{Issue, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A transform step whose `name` is not a step of the source's artifact
    /// class: the class's own steps plus those inherited through `extends`
    /// (the nearest definition wins). Every step is checked. Needs a
    /// registry; transforms whose source is not a call returning an artifact
    /// are left to the other transform rules.
    ///
    /// ## Why it matters
    /// The executor can only run steps the artifact's class offers; an
    /// unknown step fails the run when it is reached.
    ///
    /// ## How to fix
    /// Use one of the steps the message lists (nearest first), or add the
    /// step to the class (or a class it extends) in the registry.
    ///
    /// ## Example
    /// `{"steps": [{"name": "artifact_md_sections"}]}` on a `json_document`
    /// source. Fixed: `{"name": "artifact_json_get", "args": {"path": "items"}}`,
    /// or the inherited `artifact_head`.
    pub TransformUnknownStep { code: "transform_unknown_step", severity: Blocking, needs: REGISTRY, source: Check, scope: Refs }
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
                let Some(name) = step.as_object().and_then(|m| m.get("name")).and_then(|v| v.as_str()) else { continue };
                if offered.contains_key(name) {
                    continue;
                }
                let names = offered.keys().map(String::as_str);
                let choices = if offered.is_empty() {
                    format!("the class `{class}` offers no steps (the registry's owner can add some)")
                } else {
                    format!("the steps it offers are {}", suggest::choices(name, names.clone()))
                };
                let value = match suggest::closest(name, names.clone()) {
                    Some(near) => Fill::Value(Value::String(near.into())),
                    None => Fill::choose(format!("a step of class `{class}`")),
                };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "transform `{}` step {k} is `{name}`{}, which artifacts of class `{class}` do not offer (with the steps they inherit); {choices}",
                            n.id,
                            suggest::did_you_mean(name, names)
                        ),
                    )
                    .node(n.id.clone())
                    .at(format!("/definition/steps/{k}/name"))
                    .fix(Remedy::SetField { node: n.id.to_string(), path: format!("steps.{k}.name"), value }),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TransformUnknownStep;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use serde_json::json;

    #[test]
    fn fires_on_a_step_the_class_lacks() {
        let p = fetch_then_steps(
            json!([{"name": "artifact_md_sections"}, {"name": "artifact_jsn_get"}]),
        );
        let issues = run_reg(&TransformUnknownStep, &p, &artifact_registry());
        assert_eq!(issues.len(), 2);
        assert!(
            issues[1]
                .message
                .contains("did you mean `artifact_json_get`")
        );
        assert_eq!(
            issues[1].fixes[0].remedy,
            Remedy::SetField {
                node: "t".into(),
                path: "steps.1.name".into(),
                value: Fill::Value(crate::model::Value::String("artifact_json_get".into())),
            }
        );
        assert_eq!(
            issues[0].pointer.as_deref(),
            Some("/definition/steps/0/name")
        );
    }

    #[test]
    fn passes_own_and_inherited_steps() {
        let p = fetch_then_steps(
            json!([{"name": "artifact_head"}, {"name": "artifact_json_get", "args": {"path": "x"}}]),
        );
        assert!(run_reg(&TransformUnknownStep, &p, &artifact_registry()).is_empty());
    }
}
