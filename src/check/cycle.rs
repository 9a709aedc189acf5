//! Complexity: O(n + e): Tarjan's strongly connected components (iterative),
//! then one bounded walk inside each component to name a closing edge.

use crate::check::Graph;
use crate::model::Issue;
use crate::model::remedy::Remedy;
use crate::model::suggest::capped_list;

declare_check! {
    /// ## What it finds
    /// A cycle over any handle — `always`, `error`, `default` and the rest all
    /// count. One issue per strongly connected component, naming one edge that
    /// closes the cycle and the node ids on it.
    ///
    /// ## Why it matters
    /// A plan runs at most once and every step at most once per route; a cycle
    /// makes the run unbounded and breaks route identity, so the route,
    /// dominator and taint checks are skipped while one exists. A diamond
    /// (two paths meeting at a join) is not a cycle.
    ///
    /// ## How to fix
    /// Disconnect the named edge (or another edge on the cycle). To retry a
    /// step, raise its `maxAttempts` or use `onIndeterminate: retry` instead
    /// of an edge back.
    ///
    /// ## Example
    /// ```json
    /// {"edges": [{"id": "a__b", "from": "a", "to": "b", "handle": "always"},
    ///            {"id": "retry", "from": "b", "to": "a", "handle": "error"}]}
    /// ```
    /// Fixed: remove the edge `retry`; connect `b`'s `error` to a failure step.
    pub Cycle { code: "cycle", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        if cx.graph.topo.is_some() {
            return;
        }
        for comp in strongly_connected(&cx.graph) {
            let (closing, path) = closing_edge(&cx.graph, &comp);
            let edge = cx.graph.edge(closing);
            let ids: Vec<&str> = path.iter().map(|&i| cx.graph.node(i).id.as_str()).collect();
            out.push(
                Issue::new(CODE,
                    format!(
                        "edge `{}` ({} → {} on `{}`) closes a cycle through {}; plans must be acyclic over every handle",
                        edge.id, edge.from, edge.to, edge.handle, capped_list(&ids, 20)
                    ),
                )
                .edge(edge.id.clone())
                .node(edge.to.clone())
                .fix(Remedy::Disconnect { edge: edge.id.to_string() }.when("or another edge of the cycle")),
            );
        }
    }
}

/// Components that hold a cycle (size > 1, or a self-loop), in node order.
fn strongly_connected(g: &Graph) -> Vec<Vec<usize>> {
    let n = g.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0usize;
    let mut comps = Vec::new();
    for root in 0..n {
        if index[root] != usize::MAX {
            continue;
        }
        // Frames: (node, position in its out list).
        let mut frames: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut pos)) = frames.last_mut() {
            if *pos < g.out[v].len() {
                let e = g.out[v][*pos];
                *pos += 1;
                let Some((_, w)) = g.ends.get(e) else {
                    continue;
                };
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    frames.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                frames.pop();
                if let Some(&(parent, _)) = frames.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    loop {
                        let w = stack.pop().expect("component members are stacked");
                        on_stack[w] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    let self_loop = comp.len() == 1 && g.succs(v).any(|t| t == v);
                    if comp.len() > 1 || self_loop {
                        comp.sort_unstable();
                        comps.push(comp);
                    }
                }
            }
        }
    }
    comps.sort_by_key(|c| c[0]);
    comps
}

/// Walks inside one component from its first node until an edge returns to a
/// node on the current path: that edge closes a cycle; the path is the cycle.
fn closing_edge(g: &Graph, comp: &[usize]) -> (usize, Vec<usize>) {
    let member: crate::model::hash::FastSet<usize> = comp.iter().copied().collect();
    let mut on_path = crate::model::hash::FastMap::default();
    let mut path = vec![comp[0]];
    let mut frames: Vec<usize> = vec![0];
    let mut done = crate::model::hash::FastSet::default();
    on_path.insert(comp[0], 0usize);
    while let Some(&v) = path.last() {
        let pos = frames.last_mut().expect("a frame per path node");
        if *pos < g.out[v].len() {
            let e = g.out[v][*pos];
            *pos += 1;
            let Some((_, w)) = g.ends.get(e) else {
                continue;
            };
            if !member.contains(&w) || done.contains(&w) {
                continue;
            }
            if let Some(&at) = on_path.get(&w) {
                return (e, path[at..].to_vec());
            }
            on_path.insert(w, path.len());
            path.push(w);
            frames.push(0);
        } else {
            on_path.remove(&v);
            done.insert(v);
            path.pop();
            frames.pop();
        }
    }
    unreachable!("a strongly connected component with a cycle has a closing edge")
}

#[cfg(test)]
mod tests {
    use super::Cycle;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn fires_once_per_component_naming_the_closing_edge() {
        let p = plan(
            vec![entry("s"), join("a"), join("b"), join("c"), join("d")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
                edge("back", "b", "a", "error"),
                edge("e3", "s", "c", "always"),
                edge("e4", "c", "d", "always"),
                edge("e5", "d", "c", "always"),
            ],
        );
        let issues = run_one(&Cycle, &p);
        assert_eq!(issues.len(), 2);
        assert_eq!(issues[0].edge_id.as_deref(), Some("back"));
        assert!(issues[0].message.contains("`a`") && issues[0].message.contains("`b`"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::Disconnect {
                edge: "back".into()
            }
        );
    }

    #[test]
    fn self_loop_is_a_cycle() {
        let p = plan(vec![join("a")], vec![edge("me", "a", "a", "always")]);
        assert_eq!(run_one(&Cycle, &p).len(), 1);
    }

    #[test]
    fn a_diamond_is_not_a_cycle() {
        let p = plan(
            vec![entry("s"), join("a"), join("b"), join("c"), join("j")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
                edge("e3", "a", "c", "always"),
                edge("e4", "b", "j", "always"),
                edge("e5", "c", "j", "always"),
            ],
        );
        assert!(run_one(&Cycle, &p).is_empty());
    }
}
