//! Complexity: O(n).

use crate::check::support::{TransformSource, is_canonical, transform_source};
use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::remedy::{Fill, Remedy};

declare_check! {
    /// ## What it finds
    /// A transform whose `source` references a node that is not a `call`. (A
    /// source naming no existing node is `missing_reference`.)
    ///
    /// ## Why it matters
    /// A transform runs registry-defined steps (head, JSON get, …) over the
    /// artifact a tool returned. Only a call's tool returns an artifact; an
    /// entry, reason, join or another transform has none, so the steps have
    /// nothing to work on.
    ///
    /// ## How to fix
    /// Point `source` at the call whose tool returns the artifact. To process
    /// a reason node's output, reference its fields directly instead.
    ///
    /// ## Example
    /// ```json
    /// {"id": "head", "kind": "transform", "definition": {"source": {"$ref": {"node": "think", "select": "first"}}, "…": "…"}}
    /// ```
    /// where `think` is a reason node. Fixed: `"node": "fetch_report"`, a call.
    pub TransformSourceNotCall { code: "transform_source_not_call", severity: Blocking, needs: NOTHING, source: Check, scope: Refs }
    fn run(cx, out) {
        let g = &cx.graph;
        for (i, n) in cx.nodes() {
            if n.kind != NodeKind::Transform || !is_canonical(g, i) {
                continue;
            }
            let TransformSource::NotCall(t) = transform_source(g, n) else { continue };
            let src = g.node(t);
            out.push(
                Issue::new(CODE,
                    format!(
                        "transform `{}` takes its source from {} node `{}`, but transforms work on the artifact a call's tool returns, which {} does not produce{}",
                        n.id,
                        src.kind,
                        src.id,
                        src.kind.a(),
                        if src.kind == NodeKind::Reason { " (a reason node's fields can be read directly instead)" } else { "" }
                    ),
                )
                .node(n.id.clone())
                .at("/definition/source")
                .fix(Remedy::SetField {
                    node: n.id.to_string(),
                    path: "source".into(),
                    value: Fill::choose("a reference to a call whose tool returns an artifact"),
                }),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TransformSourceNotCall;
    use crate::check::testing::*;

    #[test]
    fn fires_on_a_non_call_source() {
        let p = plan(vec![entry("s"), transform("t", "s")], vec![]);
        let issues = run_one(&TransformSourceNotCall, &p);
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("entry node `s`"));
    }

    #[test]
    fn passes_a_call_source_and_leaves_missing_ones_to_missing_reference() {
        let p = plan(
            vec![step("c"), transform("t", "c"), transform("u", "ghost")],
            vec![],
        );
        assert!(run_one(&TransformSourceNotCall, &p).is_empty());
    }
}
