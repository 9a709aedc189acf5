//! Complexity: O(refs) for the references two topological orders, the
//! dominator tree or a direct edge decide (nearly all); the rest are answered
//! 64 targets at a time by one bitset pass over the topological range they
//! span (see `flow::reaches_many`). Messages list at most 20 upstream nodes,
//! found by a bounded backward walk.

use crate::check::flow::{reaches_many, some_ancestors};
use crate::check::support::{place, ref_text};
use crate::model::Issue;
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::suggest;

declare_check! {
    /// ## What it finds
    /// A reference to a node that does not run before the reading node on
    /// any route: the target is not an ancestor of the reader (this includes
    /// a node reading its own output, and reading a node on a parallel
    /// branch).
    ///
    /// ## Why it matters
    /// A step can only read what has already run. A target that is not
    /// upstream has no output yet when the reader runs (or never runs on the
    /// reader's route), so the read is empty or races the other branch. The
    /// reference implementation only checks that the target exists; we
    /// refuse this.
    ///
    /// ## How to fix
    /// Connect the target so it runs before the reader (an edge path from the
    /// target to the reader), or read a node that already runs before it —
    /// the message lists some.
    ///
    /// ## Example
    /// `start → a`, `start → b`, and `b` reads `{"$ref": {"node": "a", "select": "first"}}`:
    /// `a` and `b` run in parallel. Fixed: `start → a → b`.
    pub ReferenceNotUpstream { code: "reference_not_upstream", severity: Blocking, needs: ACYCLIC, source: Check, scope: Downstream }
    fn run(cx, out) {
        let g = &cx.graph;
        let refs = cx.scoped_data_refs();
        let queries: Vec<(usize, usize)> = refs.iter().map(|d| (d.target, d.node)).collect();
        let upstream = reaches_many(g, &queries);
        let failing: Vec<_> = refs.iter().zip(upstream).filter(|(_, ok)| !ok).map(|(d, _)| d).collect();
        // Whether an edge from the target to the reader would close a cycle
        // (the reader reaches the target).
        let backwards: Vec<(usize, usize)> = failing.iter().map(|d| (d.node, d.target)).collect();
        let cyclic = reaches_many(g, &backwards);
        for (d, cyclic) in failing.into_iter().zip(cyclic) {
            let reader = g.node(d.node);
            let target = g.node(d.target);
            let why = if d.node == d.target {
                format!("`{}` reads its own output, which does not exist until it has run", reader.id)
            } else {
                format!(
                    "`{}` does not run before `{}` on any route (no edge path leads from it to `{}`), so there is nothing to read when `{}` runs",
                    target.id, reader.id, reader.id, reader.id
                )
            };
            let before: Vec<&str> = some_ancestors(g, d.node, 40)
                .into_iter()
                .map(|a| g.node(a).id.as_str())
                .collect();
            let choices = if before.is_empty() {
                format!("nothing runs before `{}`", reader.id)
            } else {
                format!(
                    "nodes that run before `{}` include {}",
                    reader.id,
                    suggest::choices(&target.id, before)
                )
            };
            let mut issue = Issue::new(CODE,
                format!(
                    "node `{}` reads {} at {}, but {why} ({choices})",
                    reader.id,
                    ref_text(d.r),
                    place(&d.pointer)
                ),
            )
            .node(reader.id.clone())
            .at(d.pointer.clone());
            if d.node != d.target && !cyclic {
                issue = issue.fix(
                    Remedy::Connect {
                        from: Pick::id(&target.id),
                        to: Pick::id(&reader.id),
                        handle: None,
                    }
                    .when(format!("if `{}` should run before `{}`", target.id, reader.id)),
                );
            }
            out.push(issue.fix(Remedy::SetField {
                node: reader.id.to_string(),
                path: crate::model::value::dot_path(&d.pointer),
                value: Fill::choose(format!("a reference to a node that runs before `{}`", reader.id)),
            }));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ReferenceNotUpstream;
    use crate::check::testing::*;
    use crate::model::remedy::{Pick, Remedy};
    use serde_json::json;

    #[test]
    fn fires_on_parallel_later_and_self_references() {
        let p = plan(
            vec![
                entry("s"),
                call_with("a", "t", json!({}), &["x"]),
                call_with(
                    "b",
                    "t",
                    json!({"x": r("a", Some("x")), "y": r("b", Some("x")), "z": r("c", None)}),
                    &["x"],
                ),
                call_with("c", "t", json!({}), &[]),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "b", "c", "always"),
            ],
        );
        let issues = run_one(&ReferenceNotUpstream, &p);
        assert_eq!(issues.len(), 3);
        assert!(issues[0].message.contains("`s`"), "{}", issues[0].message);
        assert!(issues[1].message.contains("its own output"));
        // `a` runs in parallel: connecting it before `b` is offered; `c` runs
        // after `b`, and `b` cannot run before itself: only another reference.
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Connect {
                from: Pick::id("a"),
                to: Pick::id("b"),
                handle: None
            }
        );
        for i in &issues[1..] {
            assert!(matches!(&i.fixes[..], [f] if matches!(f.remedy, Remedy::SetField { .. })));
        }
    }

    #[test]
    fn passes_ancestors_including_ones_that_do_not_dominate() {
        let p = plan(
            vec![
                entry("s"),
                step("l"),
                step("r"),
                join("j"),
                call_with(
                    "after",
                    "t",
                    json!({"a": r("l", None), "b": r("s", None), "c": r("j", None)}),
                    &[],
                ),
            ],
            vec![
                edge("e1", "s", "l", "always"),
                edge("e2", "s", "r", "always"),
                edge("e3", "l", "j", "always"),
                edge("e4", "r", "j", "always"),
                edge("e5", "j", "after", "always"),
            ],
        );
        assert!(run_one(&ReferenceNotUpstream, &p).is_empty());
    }
}
