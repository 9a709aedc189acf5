//! What the checks of seed 003's Output contract share (not a code): the
//! spawning calls, what comes after them, the synthesis writes, and what
//! the gates before a write require.

use crate::check::Graph;
use crate::check::support::is_canonical;
use crate::model::registry::{Registry, ToolEntry};
use crate::model::{Handle, NodeKind, Value};

/// The arg of a synthesis write that carries the dispositions.
pub(crate) const DISPOSITIONS_ARG: &str = "dispositions";

/// The tool that removes artifacts (the registry `init` writes): the
/// discard of uncited unit artifacts, and of a partial synthesis.
pub(crate) const DISCARD_TOOL: &str = "remove_artifacts";

/// The registry entry of node `i`'s tool.
pub(crate) fn entry<'r>(g: &Graph, reg: &'r Registry, i: usize) -> Option<&'r ToolEntry> {
    g.node(i).tool().and_then(|t| reg.tool(t))
}

/// The spawning calls (`spawnsAgent: true`), canonical ones only.
pub(crate) fn spawns(g: &Graph, reg: &Registry) -> Vec<usize> {
    (0..g.len())
        .filter(|&i| g.node(i).kind == NodeKind::Call && is_canonical(g, i))
        .filter(|&i| entry(g, reg, i).is_some_and(|e| e.spawns_agent))
        .collect()
}

/// Every node a node of `from` reaches (not `from` itself unless reached).
pub(crate) fn after(g: &Graph, from: &[usize]) -> Vec<bool> {
    let mut seen = vec![false; g.len()];
    let mut stack = from.to_vec();
    while let Some(i) = stack.pop() {
        for t in g.succs(i) {
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
    seen
}

/// The synthesis writes: calls that write (their tool lists `writes`), do
/// not spawn, and come after a spawning call (`after`).
pub(crate) fn writes(g: &Graph, reg: &Registry, after: &[bool]) -> Vec<usize> {
    (0..g.len())
        .filter(|&w| after[w] && g.node(w).kind == NodeKind::Call && is_canonical(g, w))
        .filter(|&w| entry(g, reg, w).is_some_and(|e| !e.spawns_agent && !e.writes.is_empty()))
        .collect()
}

/// The paths a predicate requires to hold: a leaf's `path`, and the members
/// of an `all`, recursively (not those under `any` or `not`).
fn must_hold(p: &Value, out: &mut Vec<String>) {
    let Some(m) = p.as_object() else { return };
    if let Some(path) = m.get("path").and_then(Value::as_str) {
        out.push(path.to_string());
    }
    if let Some(all) = m.get("all").and_then(Value::as_array) {
        for q in all {
            must_hold(q, out);
        }
    }
}

/// What the gates on `w`'s dominator chain require before `w` runs: the
/// paths of each predicate (a branch's `match`, a select's case) whose edge
/// leads to `w`. Requires a routable graph.
pub(crate) fn gated_paths(g: &Graph, w: usize) -> Vec<String> {
    let idom = g.idom();
    let mut out = Vec::new();
    let mut cur = w;
    while let Some(d) = idom[cur] {
        let node = g.node(d);
        if matches!(node.kind, NodeKind::Branch | NodeKind::Select) {
            for &e in &g.out[d] {
                let Some((_, t)) = g.ends[e] else { continue };
                if t != w && !g.reaches(t, w) {
                    continue;
                }
                let predicate = node.get("predicate");
                let p = match (&g.edge(e).handle, predicate) {
                    (Handle::Match, Some(p)) => Some(p),
                    (Handle::Case(c), Some(p)) => p.as_object().and_then(|m| m.get(c.as_str())),
                    _ => None,
                };
                if let Some(p) = p {
                    must_hold(p, &mut out);
                }
            }
        }
        cur = d;
    }
    out
}

/// The gate (branch or select) nearest above `w` on its dominator chain.
pub(crate) fn nearest_gate(g: &Graph, w: usize) -> Option<usize> {
    let idom = g.idom();
    let mut cur = w;
    while let Some(d) = idom[cur] {
        if matches!(g.node(d).kind, NodeKind::Branch | NodeKind::Select) {
            return Some(d);
        }
        cur = d;
    }
    None
}

/// The spawning call nearest above `v` on its dominator chain (`v` itself
/// excluded): the unit whose work `v` is part of. Requires a routable graph.
pub(crate) fn unit_of(g: &Graph, is_spawn: &[bool], v: usize) -> Option<usize> {
    let idom = g.idom();
    let mut cur = v;
    while let Some(d) = idom[cur] {
        if is_spawn[d] {
            return Some(d);
        }
        cur = d;
    }
    None
}
