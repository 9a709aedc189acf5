//! Complexity: O(R · L) for R routes of length at most L from the entry to
//! the calls whose args hold holes, with R capped at [`MAX_ROUTES`] (10,000):
//! past the cap the template is refused instead of enumerating further. The
//! walk only enters nodes from which such a call can be reached, so every
//! step it takes lies on a counted route. Emitted by the template loader
//! (`crate::forge::template::check`) on template content, never on plans.

use crate::check::Graph;
use crate::check::graph::MAX_ROUTES;
use crate::model::Issue;
use crate::model::hash::FastMap as HashMap;
use crate::model::hash::FastSet as HashSet;
use crate::model::node::path_covered;
use crate::model::value::dot_path;
use crate::model::{Content, NodeKind, Value};

declare_check! {
    /// ## What it finds
    /// A hole in a call's `args` (a template param flowing into a tool) such
    /// that some route from the entry reaches the call without passing an
    /// earlier call whose `declassifies` covers the param (the same name, or
    /// one a dotted prefix of the other). The call's own `declassifies` does
    /// not count. Routes are enumerated one by one (any handle, each node at
    /// most once per route); a template with more than 10,000 such routes is
    /// refused, since the property cannot be shown for it. Calls no route
    /// reaches are skipped; a template without exactly one entry is not
    /// walked. Reported when a template is loaded.
    ///
    /// ## Why it matters
    /// Param values come from whoever instantiates the template — often a
    /// model relaying an owner's words — so they are untrusted like run input.
    /// A template must not launder its own params into tool arguments: each
    /// one passes a step that checks it and says so first. That step is what
    /// lets the instantiated plan be approved without reading every value.
    ///
    /// ## How to fix
    /// Put a call that checks the params before the calls that use them, and
    /// list the params in its `declassifies` (declaring them as its
    /// `output`). The built-in templates use a first `accept_assignment`
    /// call that declares and declassifies every param. If a route skips
    /// that call, route it through the call.
    ///
    /// ## Example
    /// `start → unit`, where `unit` (`spawn_subagent`) has
    /// `"goal": {"$param": {"path": "goal"}}`.
    /// Fixed: `start → accept → unit`, with `accept` an `accept_assignment`
    /// call whose `output` declares `goal` and whose `declassifies` is
    /// `["goal"]`.
    pub ParamNotDeclassified { code: "param_not_declassified", severity: Blocking, needs: NOTHING, source: Template }
    fn run(cx, out) {}
}

/// The holes of a call's args: (param path, pointer), in order.
fn arg_holes(n: &crate::model::Node) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if n.kind != NodeKind::Call {
        return out;
    }
    if let Some(args) = n.get("args") {
        args.walk(
            &mut crate::model::value::Pointer::new("/definition/args"),
            &mut |p, v| {
                if let Value::Param(h) = v {
                    out.push((h.path.clone(), p.to_string()));
                }
            },
        );
    }
    out
}

/// Issues for every (call, param) that some route reaches undeclassified,
/// or one refusal when the routes cannot all be enumerated.
pub(crate) fn find(content: &Content, out: &mut Vec<Issue>) {
    let g = Graph::new(content);
    let Some(entry) = g.entry() else { return };
    let n = g.len();
    let holes: Vec<Vec<(String, String)>> = content.nodes.iter().map(arg_holes).collect();
    if holes.iter().all(Vec::is_empty) {
        return;
    }
    // Nodes from which a call with holes can be reached (or that are one).
    let mut useful = vec![false; n];
    let mut stack: Vec<usize> = (0..n).filter(|&i| !holes[i].is_empty()).collect();
    for &i in &stack {
        useful[i] = true;
    }
    while let Some(v) = stack.pop() {
        for p in g.preds(v) {
            if !useful[p] {
                useful[p] = true;
                stack.push(p);
            }
        }
    }
    if !useful[entry] {
        return; // no call with holes is reachable
    }
    let declassifies: Vec<Vec<&str>> = content.nodes.iter().map(|x| x.declassifies()).collect();
    // (call, param) → the first failing route, with the hole's pointer.
    let mut failures: HashMap<(usize, String), (Vec<usize>, String)> = HashMap::default();
    let mut order: Vec<(usize, String)> = Vec::new();
    let mut routes: u64 = 0;
    let mut path: Vec<usize> = vec![entry];
    let mut on_path: HashSet<usize> = [entry].into_iter().collect();
    // Frames: (node, index of the next successor edge to try).
    let mut frames: Vec<(usize, usize)> = vec![(entry, 0)];
    let mut arrived = true;
    while let Some(&mut (v, ref mut next)) = frames.last_mut() {
        if arrived {
            arrived = false;
            if !holes[v].is_empty() {
                routes += 1;
                if routes > MAX_ROUTES {
                    out.push(Issue::new(CODE,
                        format!(
                            "the template has more than {MAX_ROUTES} routes from its entry `{}` to the calls that use its params, so it cannot be shown that every route declassifies every param before use; the template is refused. Make it smaller: fewer parallel branches before those calls, or one checking call (e.g. `accept_assignment`) right after the entry that every route passes",
                            content.nodes[entry].id
                        ),
                    ));
                    return;
                }
                for (param, pointer) in &holes[v] {
                    let covered = path[..path.len() - 1].iter().any(|&u| {
                        content.nodes[u].kind == NodeKind::Call
                            && declassifies[u].iter().any(|d| path_covered(param, d))
                    });
                    if !covered {
                        let key = (v, param.clone());
                        if let std::collections::hash_map::Entry::Vacant(slot) =
                            failures.entry(key.clone())
                        {
                            order.push(key);
                            slot.insert((path.clone(), pointer.clone()));
                        }
                    }
                }
            }
        }
        let out_edges = &g.out[v];
        if *next < out_edges.len() {
            let e = out_edges[*next];
            *next += 1;
            let Some((_, t)) = g.ends.get(e) else {
                continue;
            };
            if !useful[t] || on_path.contains(&t) {
                continue;
            }
            on_path.insert(t);
            path.push(t);
            frames.push((t, 0));
            arrived = true;
        } else {
            frames.pop();
            if let Some(u) = path.pop() {
                on_path.remove(&u);
            }
        }
    }
    for key in order {
        let (route, pointer) = &failures[&key];
        let (call, param) = key;
        let ids: Vec<&str> = route
            .iter()
            .map(|&i| content.nodes[i].id.as_str())
            .collect();
        let shown = if ids.len() > 12 {
            format!(
                "{} → … → {}",
                ids[..6].join(" → "),
                ids[ids.len() - 3..].join(" → ")
            )
        } else {
            ids.join(" → ")
        };
        let id = &content.nodes[call].id;
        out.push(
            Issue::new(CODE,
                format!(
                    "call `{id}` passes the param `{param}` to its tool at `{}`, but on the route {shown} no earlier call declassifies `{param}` (a call's own `declassifies` does not count); params are untrusted like run input, so route every path to `{id}` through a call that checks the param and lists it in `declassifies` (the built-in templates use a first `accept_assignment` call that declares and declassifies every param)",
                    dot_path(pointer)
                ),
            )
            .node(id.clone())
            .at(pointer.clone()),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::find;
    use crate::check::testing::*;
    use crate::model::{Content, Value};
    use serde_json::json;

    fn declassifying(id: &str, names: &[&str]) -> crate::model::Node {
        let mut n = call_with(id, "accept_assignment", json!({"assignment": "x"}), names);
        n.definition.insert(
            "declassifies".into(),
            Value::Array(names.iter().map(|s| Value::from(*s)).collect()),
        );
        n
    }

    fn user(id: &str) -> crate::model::Node {
        call_with(
            id,
            "spawn_subagent",
            json!({"goal": {"$param": {"path": "goal"}}}),
            &[],
        )
    }

    fn issues(c: &Content) -> Vec<crate::model::Issue> {
        let mut out = Vec::new();
        find(c, &mut out);
        out
    }

    #[test]
    fn fires_on_a_route_that_skips_the_declassifying_call() {
        // start → accept → unit, and start → unit directly.
        let c = plan(
            vec![
                entry("start"),
                declassifying("accept", &["goal"]),
                user("unit"),
            ],
            vec![
                edge("e1", "start", "accept", "always"),
                edge("e2", "accept", "unit", "always"),
                edge("e3", "start", "unit", "always"),
            ],
        );
        let found = issues(&c);
        assert_eq!(found.len(), 1, "{found:#?}");
        assert!(
            found[0].message.contains("start → unit"),
            "{}",
            found[0].message
        );
        assert_eq!(found[0].pointer.as_deref(), Some("/definition/args/goal"));
        // A call's own declassifies does not count.
        let mut own = user("unit");
        own.definition
            .insert("declassifies".into(), Value::Array(vec!["goal".into()]));
        let c = plan(
            vec![entry("start"), own],
            vec![edge("e1", "start", "unit", "always")],
        );
        assert_eq!(issues(&c).len(), 1);
    }

    #[test]
    fn passes_when_every_route_declassifies_first_by_prefix_too() {
        let c = plan(
            vec![
                entry("start"),
                declassifying("accept", &["goal"]),
                user("unit"),
                user("other"),
            ],
            vec![
                edge("e1", "start", "accept", "always"),
                edge("e2", "accept", "unit", "always"),
                edge("e3", "accept", "other", "error"),
                edge("e4", "unit", "other", "always"),
            ],
        );
        assert!(issues(&c).is_empty());
        let c = plan(
            vec![
                entry("start"),
                declassifying("accept", &["goal.text"]),
                user("unit"),
            ],
            vec![
                edge("e1", "start", "accept", "always"),
                edge("e2", "accept", "unit", "always"),
            ],
        );
        assert!(issues(&c).is_empty(), "a dotted prefix covers the param");
    }

    #[test]
    fn too_many_routes_refuse_the_template() {
        // 14 diamonds in a row: 2^14 = 16,384 routes to the last call.
        let mut nodes = vec![entry("start"), declassifying("accept", &["goal"])];
        let mut edges = vec![edge("e0", "start", "accept", "always")];
        let mut prev = "accept".to_string();
        for k in 0..14 {
            let (l, r, m) = (format!("l{k}"), format!("r{k}"), format!("m{k}"));
            nodes.push(step(&l));
            nodes.push(step(&r));
            nodes.push(step(&m));
            edges.push(edge(&format!("a{k}"), &prev, &l, "always"));
            edges.push(edge(&format!("b{k}"), &prev, &r, "always"));
            edges.push(edge(&format!("c{k}"), &l, &m, "always"));
            edges.push(edge(&format!("d{k}"), &r, &m, "always"));
            prev = m;
        }
        nodes.push(user("unit"));
        edges.push(edge("z", &prev, "unit", "always"));
        let found = issues(&plan(nodes, edges));
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("more than 10000 routes"),
            "{}",
            found[0].message
        );
    }
}
