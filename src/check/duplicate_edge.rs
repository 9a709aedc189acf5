//! Complexity: O(e) (one hash map over the edges); for one edge (the
//! incremental checks), O(edges leaving its source).

use crate::model::hash::FastMap as HashMap;
use crate::model::remedy::Remedy;
use crate::model::{Handle, Issue};

declare_check! {
    /// ## What it finds
    /// Two or more edges with the same `from`, the same `to` and the same
    /// `handle`, under different ids. Each edge after the first is reported,
    /// naming the first. Two copies of a plan that each connected the same
    /// two nodes and were then merged end up this way: their edges have
    /// different ids, so both are kept.
    ///
    /// ## Why it matters
    /// An executor follows every edge, so the target is reached once per
    /// edge: it runs twice, and a step that is not safe to repeat (a
    /// payment, a message) does its effect twice. Nothing in the plan says
    /// the repeat is wanted, and a reviewer reading the plan sees one
    /// connection.
    ///
    /// ## How to fix
    /// Disconnect the extra edge (the finding names its id) and keep the
    /// first. If the target should really run twice, give it a second node.
    ///
    /// ## Example
    /// ```json
    /// {"edges": [{"id": "start__pay", "from": "start", "to": "pay", "handle": "always"},
    ///            {"id": "start__pay_2", "from": "start", "to": "pay", "handle": "always"}]}
    /// ```
    /// Fixed: remove the edge `start__pay_2`.
    pub DuplicateEdge { code: "duplicate_edge", severity: Blocking, needs: NOTHING, source: Check, scope: Edge }
    fn run(cx, out) {
        let edges = &cx.content.edges;
        let mut first: HashMap<(&str, &str, &Handle), usize> = HashMap::default();
        if !cx.one_edge() {
            first.reserve(edges.len());
        }
        for (i, e) in cx.edges() {
            let kept = match cx.one_edge() {
                true => first_like(cx, i),
                false => *first.entry((e.from.as_str(), e.to.as_str(), &e.handle)).or_insert(i),
            };
            // One id twice is `duplicate_edge_id`'s (the fold keeps one).
            if kept == i || edges[kept].id == e.id {
                continue;
            }
            let k = &edges[kept];
            out.push(
                Issue::new(CODE,
                    format!(
                        "edges `{}` and `{}` both connect `{}` → `{}` on `{}`, so `{}` would be reached twice; one edge is enough",
                        k.id, e.id, e.from, e.to, e.handle, e.to
                    ),
                )
                .edge(e.id.clone())
                .fix(Remedy::Disconnect { edge: e.id.to_string() }.when(format!("to keep `{}`", k.id))),
            );
        }
    }
}

/// The first edge (in edge order) with edge `k`'s source, target and
/// handle, found among the edges leaving its source (among every edge
/// before it when an end does not exist).
fn first_like(cx: &crate::check::Cx, k: usize) -> usize {
    let edges = &cx.content.edges;
    let e = &edges[k];
    let same = |j: &usize| {
        let x = &edges[*j];
        x.from == e.from && x.to == e.to && x.handle == e.handle
    };
    match cx.graph.ends.get(k) {
        Some((f, _)) => cx.graph.out[f].iter().copied().find(same),
        None => (0..k).find(same),
    }
    .unwrap_or(k)
}

#[cfg(test)]
mod tests {
    use super::DuplicateEdge;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn fires_on_two_edges_with_one_signature() {
        let p = plan(
            vec![entry("s"), step("pay")],
            vec![
                edge("s__pay", "s", "pay", "always"),
                edge("s__pay_2", "s", "pay", "always"),
                edge("s__pay_3", "s", "pay", "always"),
            ],
        );
        let issues = run_one(&DuplicateEdge, &p);
        assert_eq!(issues.len(), 2);
        assert!(issues[0].is_blocking());
        assert_eq!(issues[0].edge_id.as_deref(), Some("s__pay_2"));
        assert!(
            issues[1].message.contains("`s__pay`"),
            "{}",
            issues[1].message
        );
        assert_eq!(
            issues[1].fixes[0].remedy,
            Remedy::Disconnect {
                edge: "s__pay_3".into()
            }
        );
    }

    #[test]
    fn passes_edges_that_differ_in_handle_or_end() {
        let p = plan(
            vec![entry("s"), step("pay"), step("log")],
            vec![
                edge("a", "s", "pay", "always"),
                edge("b", "pay", "log", "always"),
                edge("c", "pay", "log", "error"),
                edge("d", "s", "log", "always"),
            ],
        );
        assert!(run_one(&DuplicateEdge, &p).is_empty());
    }
}
