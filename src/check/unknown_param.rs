//! Complexity: O(size of the definitions + params). Emitted by the template
//! loader (`crate::forge::template::check`) on template content, never on plans.

use crate::check::support::walk_definition;
use crate::model::Issue;
use crate::model::suggest;
use crate::model::value::dot_path;
use crate::model::{Content, DeclaredField, Value};

declare_check! {
    /// ## What it finds
    /// A hole (`{"$param": {"path": …}}`) in a template that names no param
    /// the template declares under `params`. Every hole is checked, wherever
    /// it sits in a definition (the reference implementation looks only at
    /// call args). Reported when a template is loaded; a template with this
    /// finding is refused.
    ///
    /// ## Why it matters
    /// Instantiating a template fills each hole with the value given for its
    /// param. A hole without a param can never be filled: the plan would
    /// keep a placeholder object where a value belongs (and fail
    /// `unfilled_param`).
    /// It is usually a typo in the hole or a param that was renamed.
    ///
    /// ## How to fix
    /// Name a declared param in the hole (the message lists them, nearest
    /// first), or declare the param under `params` with its type.
    ///
    /// ## Example
    /// ```yaml
    /// params: [{path: goal, type: string}]
    /// nodes:
    ///   - {id: unit, kind: call, definition: {tool: spawn_subagent, args: {goal: {$param: {path: gaol}}}, …}}
    /// ```
    /// Fixed: `{$param: {path: goal}}`.
    pub UnknownParam { code: "unknown_param", severity: Blocking, needs: NOTHING, source: Template }
    fn run(cx, out) {}
}

/// Every hole of `content` that names no param in `params`, one issue each.
pub(crate) fn find(content: &Content, params: &[DeclaredField], out: &mut Vec<Issue>) {
    let names: Vec<&str> = params.iter().map(|p| p.path.as_str()).collect();
    for n in &content.nodes {
        walk_definition(n, &mut |pointer, v| {
            let Value::Param(p) = v else { return };
            if names.contains(&p.path.as_str()) {
                return;
            }
            let fix = if names.is_empty() {
                "the template declares no params at all; declare it under `params` with its type"
                    .to_string()
            } else {
                format!(
                    "name one of the declared params {}, or declare `{}` under `params` with its type",
                    suggest::choices(&p.path, names.iter().copied()),
                    p.path
                )
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "node `{}` has the hole `{}` at `{}`, but the template declares no param `{}`{}, so instantiating could never fill it; {fix}",
                        n.id,
                        p.path,
                        dot_path(&pointer.to_string()),
                        p.path,
                        suggest::did_you_mean(&p.path, names.iter().copied()),
                    ),
                )
                .node(n.id.clone())
                .at(pointer.to_string()),
            );
        });
    }
}

#[cfg(test)]
mod tests {
    use super::find;
    use crate::forge::template::Origin;
    use crate::forge::template::parse;
    use crate::wire::Syntax;

    fn issues(yaml: &str) -> Vec<crate::model::Issue> {
        let t = parse(yaml, Syntax::Yaml, Origin::Builtin).unwrap();
        let mut out = Vec::new();
        find(&t.content, &t.params, &mut out);
        out
    }

    const TEMPLATE: &str = "
id: t
summary: one call
params: [{path: goal, type: string}]
nodes:
  - {id: start, kind: entry, definition: {input: []}}
  - id: unit
    kind: reason
    definition: {prompt: [{text: {$param: {path: HOLE}}}], outputSchema: {type: object}, maxAttempts: 1}
edges: [{from: start, to: unit}]
";

    #[test]
    fn fires_on_a_hole_without_a_param_anywhere_in_a_definition() {
        let found = issues(&TEMPLATE.replace("HOLE", "gaol"));
        assert_eq!(found.len(), 1);
        let m = &found[0].message;
        assert!(
            m.contains("`gaol`") && m.contains("did you mean `goal`"),
            "{m}"
        );
        assert_eq!(found[0].node_id.as_deref(), Some("unit"));
        assert_eq!(
            found[0].pointer.as_deref(),
            Some("/definition/prompt/0/text")
        );
    }

    #[test]
    fn passes_a_hole_that_names_a_declared_param() {
        assert!(issues(&TEMPLATE.replace("HOLE", "goal")).is_empty());
    }
}
