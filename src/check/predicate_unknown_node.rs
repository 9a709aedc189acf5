//! Complexity: O(size of the predicates) to collect their paths, then the
//! batched reachability of `flow::reaches_many` (O(tests) for nearly all).

use crate::check::flow::reaches_many;
use crate::check::predicate::{self, STRUCTURED};
use crate::check::support::{IdHints, is_canonical};
use crate::model::Issue;
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::{Node, NodeKind, Value};
use std::borrow::Cow;

/// A node's predicate tests: (pointer, path) pairs, kept or made for this run.
type Tests<'a> = Cow<'a, [(String, String)]>;

/// The tests of `n`'s `structured` predicate when it is a branch or a
/// select: (pointer of the test's path, the path), in predicate order.
pub(crate) fn tests_of(n: &Node) -> Vec<(String, String)> {
    if !matches!(n.kind, NodeKind::Branch | NodeKind::Select)
        || n.str_field("evaluator") != Some(STRUCTURED)
    {
        return Vec::new();
    }
    let Some(pred) = n.get("predicate") else {
        return Vec::new();
    };
    let parsed: Vec<(String, predicate::Predicate)> = if n.kind == NodeKind::Branch {
        predicate::parse(pred)
            .ok()
            .map(|p| (String::new(), p))
            .into_iter()
            .collect()
    } else {
        predicate::parse_select(pred, &n.cases()).0
    };
    let mut out = Vec::new();
    for (_, p) in &parsed {
        for (path, ptr) in p.tests() {
            // Select tests' pointers already start with their label.
            out.push((format!("/definition/predicate{ptr}/path"), path.to_string()));
        }
    }
    out
}

/// In a run over new loose nodes alone ([`crate::check::Scope::Graph`]):
/// whether the other nodes' findings stay as they were. A loose node does
/// not change what runs before a branch or select, but its id may be one a
/// test reads (then that test no longer names a missing node), and when a
/// test reads a missing node, its did-you-mean hint looks at every id. So:
/// no test reads a new node, and every node a test reads is there. Always
/// true in a run over every node, and in a run after a change that only
/// added nodes and edges ([`crate::check::Cx::grown`]: every node with a
/// finding, so every test that reads a missing node, is in that run, in
/// node order, and gets the hint a run over every node gives it).
fn follows_loose_nodes(cx: &crate::check::Cx) -> bool {
    if cx.scope_many.borrow().is_none() || cx.grown.get() {
        return true;
    }
    let Some(kept) = cx.kept_nodes else {
        return false;
    };
    !cx.nodes().any(|(_, n)| kept.is_tested(&n.id)) && kept.every_tested_present()
}

/// The nodes whose tests to read: those [`crate::check::Cx::nodes`]
/// yields, or in a run over every node with kept facts only the nodes
/// they say have tests (the others have none), without a pass over every
/// node.
fn candidates(cx: &crate::check::Cx) -> Vec<usize> {
    cx.kept_or_nodes(|kept| kept.testing().collect())
}

declare_check! {
    /// ## What it finds
    /// A test in a `structured` predicate whose `path` starts with something
    /// that is not a node running before the branch or select: no node has
    /// that id, or the node is not upstream (no edge path leads from it to
    /// the branch or select).
    ///
    /// ## Why it matters
    /// The first segment of a predicate path names the node whose output is
    /// read. A node that does not exist or has not run yet has no output, so
    /// the test is always false and the run always takes the same way.
    ///
    /// ## How to fix
    /// Start the path with the id of a node that runs before the branch or
    /// select (`fetch.status`), or connect that node before it.
    ///
    /// ## Example
    /// ```json
    /// {"evaluator": "structured", "predicate": {"path": "status", "op": "eq", "value": "open"}}
    /// ```
    /// Fixed: `"path": "fetch_ticket.status"`.
    pub PredicateUnknownNode { code: "predicate_unknown_node", severity: Blocking, needs: ACYCLIC, source: Check, scope: Upstream }
    fn run(cx, out) {
        let g = &cx.graph;
        if !follows_loose_nodes(cx) {
            cx.whole.set(true);
            return;
        }
        let hints = IdHints::new(g);
        // (branch or select node, pointer, path, node read)
        let per_node: Vec<(usize, Tests<'_>)> = candidates(cx)
            .into_iter()
            .filter(|&i| is_canonical(g, i))
            .map(|i| (i, cx.predicate_tests(i)))
            .filter(|(_, t)| !t.is_empty())
            .collect();
        let mut tests: Vec<(usize, &str, &str, Option<usize>)> = Vec::new();
        for (i, node_tests) in &per_node {
            for (pointer, path) in node_tests.iter() {
                let first = path.split('.').next().unwrap_or(path);
                tests.push((*i, pointer.as_str(), path.as_str(), g.index_of(first)));
            }
        }
        let queries: Vec<(usize, usize)> = tests
            .iter()
            .filter_map(|(i, _, _, t)| t.map(|t| (t, *i)))
            .collect();
        let mut answers = reaches_many(g, &queries).into_iter();
        // The tests to report, with whether an edge from the node read to the
        // branch or select would close a cycle (it reaches the node read).
        let failing: Vec<_> = tests
            .into_iter()
            .filter(|(_, _, _, t)| t.is_none() || !answers.next().unwrap_or(false))
            .collect();
        let backwards: Vec<(usize, usize)> = failing
            .iter()
            .filter_map(|(i, _, _, t)| t.map(|t| (*i, t)))
            .collect();
        let mut cyclic = reaches_many(g, &backwards).into_iter();
        for (i, pointer, path, target) in failing {
            let n = g.node(i);
            let first = path.split('.').next().unwrap_or(path);
            let path_field = crate::model::value::dot_path(pointer);
            let set = |value| Remedy::SetField {
                node: n.id.to_string(),
                path: path_field.clone(),
                value,
            };
            let issue = match target {
                None => {
                    let hint = hints.for_missing(first);
                    let mut issue = Issue::new(CODE,
                        format!(
                            "{} node `{}` tests the path \"{path}\", whose first segment `{first}` should name the node to read, but the plan has no node `{first}`{}",
                            n.kind,
                            n.id,
                            hint.text
                        ),
                    );
                    issue = issue.fix(match &hint.closest {
                        Some(near) => set(Fill::Value(Value::String(format!(
                            "{near}{}",
                            &path[first.len()..]
                        ).into())))
                        .when(format!("if `{near}` is the node meant")),
                        None => set(Fill::choose(format!(
                            "a path that starts with a node that runs before `{}`",
                            n.id
                        )))
                        .into(),
                    });
                    if let Some(f) = hint.outline_fix() {
                        issue = issue.fix(f);
                    }
                    issue
                }
                Some(t) => {
                    let would_cycle = cyclic.next().unwrap_or(true) || t == i;
                    let t = &g.node(t).id;
                    let issue = Issue::new(CODE,
                        format!(
                            "{} node `{}` tests the path \"{path}\", which reads node `{first}`, but `{first}` does not run before `{}` on any route, so there is nothing to test when it runs",
                            n.kind,
                            n.id,
                            n.id
                        ),
                    );
                    let issue = if would_cycle {
                        issue
                    } else {
                        issue.fix(
                            Remedy::Connect {
                                from: Pick::id(t),
                                to: Pick::id(&n.id),
                                handle: None,
                            }
                            .when(format!("if `{t}` should run before `{}`", n.id)),
                        )
                    };
                    issue.fix(set(Fill::choose(format!(
                        "a path that starts with a node that runs before `{}`",
                        n.id
                    ))))
                }
            };
            out.push(issue.node(n.id.clone()).at(pointer.to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::PredicateUnknownNode;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Pick, Remedy};
    use crate::model::{NodeKind, Value};
    use serde_json::json;

    fn with_predicate(kind: NodeKind, def: serde_json::Value) -> crate::model::Content {
        plan(
            vec![
                entry("s"),
                call_with("fetch", "t", json!({}), &["status"]),
                node("b", kind, def),
                step("later"),
            ],
            vec![
                edge("e1", "s", "fetch", "always"),
                edge("e2", "fetch", "b", "always"),
                edge("e3", "b", "later", "default"),
            ],
        )
    }

    #[test]
    fn fires_on_unknown_and_downstream_nodes() {
        let p = with_predicate(
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {"all": [
                {"path": "status", "op": "eq", "value": "open"},
                {"path": "fetc.status", "op": "exists"},
                {"path": "later.x", "op": "exists"}
            ]}}),
        );
        let issues = run_one(&PredicateUnknownNode, &p);
        assert_eq!(issues.len(), 3);
        assert_eq!(
            issues[0].pointer.as_deref(),
            Some("/definition/predicate/all/0/path")
        );
        assert!(issues[1].message.contains("did you mean `fetch`"));
        assert_eq!(
            issues[1].fixes[0].remedy,
            Remedy::SetField {
                node: "b".into(),
                path: "predicate.all.1.path".into(),
                value: Fill::Value(Value::String("fetch.status".into())),
            }
        );
        assert!(issues[2].message.contains("does not run before"));
        // `later` runs after `b`: an edge from it to `b` would close a cycle.
        assert!(
            !issues[2]
                .fixes
                .iter()
                .any(|f| matches!(f.remedy, Remedy::Connect { .. }))
        );
    }

    #[test]
    fn offers_to_connect_a_parallel_node_before_the_branch() {
        let p = plan(
            vec![
                entry("s"),
                call_with("side", "t", json!({}), &["x"]),
                node(
                    "b",
                    NodeKind::Branch,
                    json!({"evaluator": "structured", "predicate": {"path": "side.x", "op": "exists"}}),
                ),
            ],
            vec![
                edge("e1", "s", "side", "always"),
                edge("e2", "s", "b", "always"),
            ],
        );
        let issues = run_one(&PredicateUnknownNode, &p);
        assert_eq!(issues.len(), 1);
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Connect {
                from: Pick::id("side"),
                to: Pick::id("b"),
                handle: None
            }
        );
    }

    #[test]
    fn passes_upstream_nodes_in_branches_and_selects() {
        let p = with_predicate(
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {"path": "fetch.status", "op": "eq", "value": "open"}}),
        );
        assert!(run_one(&PredicateUnknownNode, &p).is_empty());
        let p = with_predicate(
            NodeKind::Select,
            json!({"evaluator": "structured", "cases": ["a"], "predicate": {"a": {"path": "s.x", "op": "truthy"}}}),
        );
        assert!(run_one(&PredicateUnknownNode, &p).is_empty());
    }

    /// In a warm session, adding a loose node keeps the findings only when
    /// no test reads it and no test reads a missing node (whose
    /// did-you-mean looks at every id): each add here must change them.
    #[test]
    fn a_loose_node_a_test_reads_or_a_hint_names_is_checked_again() {
        use crate::check::incremental::{Kept, run};
        use crate::model::OpBody;
        use crate::model::touched::Touched;
        let select = |path: &str| {
            node(
                "b",
                NodeKind::Branch,
                json!({"evaluator": "structured", "predicate": {"path": path, "op": "exists"}}),
            )
        };
        for (path, add) in [("m.out", "m"), ("fetch_ticket.out", "fetch_tickets")] {
            let mut c = plan(
                vec![entry("s"), select(path)],
                vec![edge("e1", "s", "b", "always")],
            );
            let mut kept = Kept::default();
            run(&mut kept, &c, None, Vec::new(), None, None);
            let before = c.clone();
            c.nodes.push(join(add));
            let t = Touched::of(&before, [&OpBody::AddNode { node: join(add) }]);
            let inc = run(&mut kept, &c, None, Vec::new(), Some(&t), None);
            let full = crate::check::run(&c, None, Vec::new());
            let ours = |issues: &[crate::model::Issue]| -> Vec<String> {
                issues
                    .iter()
                    .filter(|i| i.code.name == "predicate_unknown_node")
                    .map(|i| i.message.clone())
                    .collect()
            };
            let fresh = ours(&full.issues);
            assert_eq!(ours(&inc.issues), fresh, "after adding `{add}`");
            let before = ours(&crate::check::run(&before, None, Vec::new()).issues);
            assert_ne!(before, fresh, "adding `{add}` changes the finding");
        }
    }
}
