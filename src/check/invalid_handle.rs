//! Complexity: O(e).

use crate::model::remedy::Remedy;
use crate::model::suggest;
use crate::model::{Edge, Handle, Issue, NodeKind};

declare_check! {
    /// ## What it finds
    /// An edge whose handle its source node's kind does not have:
    ///
    /// | source kind | handles |
    /// |---|---|
    /// | entry | `always` |
    /// | call, reason, transform, join | `always`, `error` |
    /// | branch | `match`, `no_match`, `default`, `error` |
    /// | select | `case_<label>`, `default`, `error` |
    ///
    /// ## Why it matters
    /// A handle says when an edge fires. One the source can never produce
    /// means the edge never fires, so the step behind it silently never runs.
    ///
    /// ## How to fix
    /// Move the edge to a handle from the table (disconnect it, and connect
    /// the two nodes again on that handle).
    ///
    /// ## Example
    /// ```json
    /// {"id": "e1", "from": "start", "to": "fetch", "handle": "error"}
    /// ```
    /// Fixed: an entry only has `always`: `{"id": "e1", "from": "start", "to": "fetch", "handle": "always"}`.
    pub InvalidHandle { code: "invalid_handle", severity: Blocking, needs: NOTHING, source: Check, scope: Edge }
    fn run(cx, out) {
        for (_, e) in cx.edges() {
            let Some(i) = cx.graph.index_of(&e.from) else { continue };
            let kind = cx.graph.node(i).kind;
            if !kind.allows(&e.handle) {
                out.push(issue(e, kind));
            }
        }
    }
}

/// The finding for an edge on a handle its source's kind never produces.
fn issue(e: &Edge, kind: NodeKind) -> Issue {
    let allowed = kind.allowed_handles();
    let given = e.handle.as_str();
    let hint = match &e.handle {
        Handle::Other(h) => suggest::did_you_mean(h, allowed.iter().copied()),
        _ => String::new(),
    };
    let instead = suggest::closest(&given, allowed.iter().copied())
        .filter(|h| !h.contains('<'))
        .unwrap_or(allowed[0]);
    Issue::new(
        CODE,
        format!(
            "edge `{}` leaves {kind} node `{}` on `{}`{hint}, which {} never produces; its handles are {}",
            e.id,
            e.from,
            e.handle,
            kind.a(),
            allowed.iter().map(|h| format!("`{h}`")).collect::<Vec<_>>().join(", ")
        ),
    )
    .edge(e.id.clone())
    .at("/handle")
    .fix(Remedy::ChangeHandle {
        edge: e.id.to_string(),
        from: e.from.to_string(),
        to: e.to.to_string(),
        handle: instead.to_string(),
    })
}

/// The finding behind a refused `connect` from `from` (a `kind` node) to
/// `to` on `handle`.
pub(crate) fn issue_for(from: &str, kind: NodeKind, handle: &Handle, to: &str) -> Issue {
    Issue::new(
        CODE,
        format!("{kind} nodes have no `{handle}` handle, so an edge {from} → {to} on it would never fire"),
    )
    .node(from.to_string())
}

#[cfg(test)]
mod tests {
    use super::InvalidHandle;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    #[test]
    fn fires_on_forbidden_handles() {
        let br = node(
            "b",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {}}),
        );
        let p = plan(
            vec![entry("s"), br, join("j")],
            vec![
                edge("e1", "s", "b", "error"),
                edge("e2", "b", "j", "case_x"),
                edge("e3", "b", "j", "alwys"),
            ],
        );
        let issues = run_one(&InvalidHandle, &p);
        assert_eq!(issues.len(), 3);
        assert!(issues[0].message.contains("`always`"));
    }

    #[test]
    fn passes_allowed_handles() {
        let br = node(
            "b",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {}}),
        );
        let sel = node(
            "c",
            NodeKind::Select,
            json!({"evaluator": "structured", "predicate": {}, "cases": ["x"]}),
        );
        let p = plan(
            vec![entry("s"), br, sel, join("j")],
            vec![
                edge("e1", "s", "b", "always"),
                edge("e2", "b", "c", "match"),
                edge("e3", "c", "j", "case_x"),
                edge("e4", "c", "j", "default"),
            ],
        );
        assert!(run_one(&InvalidHandle, &p).is_empty());
    }
}
