//! What the checks of seed 003's Output contract share (not a code): the
//! spawning calls, what comes after them, the synthesis writes, and what
//! the gates before a write require.

use crate::check::Graph;
use crate::check::predicate::{self, Op, Predicate};
use crate::check::support::is_canonical;
use crate::model::registry::{Registry, ToolEntry};
use crate::model::remedy::{Fill, Remedy};
use crate::model::{Handle, Node, NodeKind, Value};

/// The arg of a synthesis write that carries the dispositions.
pub(crate) const DISPOSITIONS_ARG: &str = "dispositions";

/// The tool of seed 003's failure reports (the registry `init` writes).
pub(crate) const REPORT_TOOL: &str = "report_failure";

/// The tool that removes artifacts (the registry `init` writes): the
/// discard of uncited unit artifacts, and of a partial synthesis.
pub(crate) const DISCARD_TOOL: &str = "remove_artifacts";

/// The node id suffixes (`spawn_<key>`, `verify_<key>`, the disposition
/// keys) of units named `names`, in that order: lowercase ASCII letters and
/// digits, every other run of characters one `_`, at most 40 characters
/// (`task` when nothing is left); a key already taken gets the first free
/// `_2`, `_3` … (`market sizing`, `market-sizing` → `market_sizing`,
/// `market_sizing_2`). The one derivation: `orchestrate` names its units
/// with it (in spawn order), and `partial_landing_report` reads a report's
/// list of unit names with it, so distinct names that fold to one key stay
/// distinct units.
pub(crate) fn unit_keys<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut taken: Vec<String> = Vec::new();
    for name in names {
        let mut s = String::new();
        for c in name.chars().flat_map(char::to_lowercase) {
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                s.push(c);
            } else if !s.ends_with('_') {
                s.push('_');
            }
        }
        let mut s: String = s.trim_matches('_').chars().take(40).collect();
        while s.ends_with('_') {
            s.pop();
        }
        if s.is_empty() {
            s = "task".into();
        }
        let mut out = s.clone();
        let mut k = 2;
        while taken.contains(&out) {
            out = format!("{s}_{k}");
            k += 1;
        }
        taken.push(out);
    }
    taken
}

/// The fix that sets `path` (`args.<arg>…`) of call `node` to `value`: an
/// `AddField` when the node lacks the argument and its tool's registry
/// entry does not name it (`set` refuses such a new key unless told it is
/// meant), else a `SetField`. The one place a check decides which.
pub(crate) fn set_arg(node: &Node, entry: Option<&ToolEntry>, path: &str, value: Fill) -> Remedy {
    let arg = path
        .strip_prefix("args.")
        .map(|p| p.split('.').next().unwrap_or(p));
    let new = arg.is_some_and(|a| {
        let has = node
            .get("args")
            .and_then(Value::as_object)
            .is_some_and(|m| m.contains_key(a));
        !has && entry.is_some_and(|e| !e.known_args().iter().any(|k| k == a))
    });
    let (node, path) = (node.id.clone(), path.to_string());
    if new {
        Remedy::AddField {
            node: node.to_string(),
            path,
            value,
        }
    } else {
        Remedy::SetField {
            node: node.to_string(),
            path,
            value,
        }
    }
}

/// The registry entry of node `i`'s tool.
pub(crate) fn entry<'r>(g: &Graph, reg: &'r Registry, i: usize) -> Option<&'r ToolEntry> {
    g.node(i).tool().and_then(|t| reg.tool(t))
}

/// The spawning calls (`spawnsAgent: true`), canonical ones only.
pub(crate) fn spawns(g: &Graph, reg: &Registry) -> Vec<usize> {
    (0..g.len())
        .filter(|&i| is_canonical(g, i) && spawns_agent(g.node(i), reg))
        .collect()
}

/// The calls of `tool` whose `args` carry `arg`, in node order.
pub(crate) fn calls_with_arg(g: &Graph, tool: &str, arg: &str) -> Vec<usize> {
    (0..g.len())
        .filter(|&i| g.node(i).kind == NodeKind::Call && g.node(i).tool() == Some(tool))
        .filter(|&i| {
            g.node(i)
                .get("args")
                .and_then(|a| a.as_object()?.get(arg))
                .is_some()
        })
        .collect()
}

/// Whether `n` is a call of a tool that spawns an agent.
pub(crate) fn spawns_agent(n: &crate::model::Node, reg: &Registry) -> bool {
    n.kind == NodeKind::Call
        && n.tool()
            .and_then(|t| reg.tool(t))
            .is_some_and(|e| e.spawns_agent)
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

/// Every node that reaches `to` (not `to` itself unless on a cycle).
pub(crate) fn before(g: &Graph, to: usize) -> Vec<bool> {
    let mut seen = vec![false; g.len()];
    let mut stack = vec![to];
    while let Some(i) = stack.pop() {
        for p in g.preds(i) {
            if !seen[p] {
                seen[p] = true;
                stack.push(p);
            }
        }
    }
    seen
}

/// `spawns` as a mask over the nodes.
pub(crate) fn spawn_mask(g: &Graph, spawns: &[usize]) -> Vec<bool> {
    let mut is_spawn = vec![false; g.len()];
    for &s in spawns {
        is_spawn[s] = true;
    }
    is_spawn
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
                let Some((_, t)) = g.ends.get(e) else {
                    continue;
                };
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

/// A fact a gate can guarantee about a verification's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Fact {
    /// The path's value is the string `"pass"`.
    Pass,
    /// The path's value is the empty list.
    Empty,
}

/// The facts a predicate guarantees whenever it holds (`negated`: whenever
/// it fails), by the structured evaluator's semantics: a test `eq "pass"` or
/// `in ["pass"]` guarantees `Pass` (`eq []`, `in [[]]`: `Empty`); `all`
/// guarantees what any member does, `any` what every member does, and `not`
/// swaps the two. A failing test guarantees nothing (a missing value fails
/// `ne` as well as `eq`). Sound, not complete: a fact listed here holds on
/// every input that makes the predicate hold.
fn implied(p: &Predicate, negated: bool, out: &mut Vec<(String, Fact)>) {
    let conj = |ps: &[Predicate], out: &mut Vec<(String, Fact)>| {
        for q in ps {
            implied(q, negated, out);
        }
    };
    let disj = |ps: &[Predicate], out: &mut Vec<(String, Fact)>| {
        let mut common: Option<Vec<(String, Fact)>> = None;
        for q in ps {
            let mut mine = Vec::new();
            implied(q, negated, &mut mine);
            common = Some(match common {
                None => mine,
                Some(c) => c.into_iter().filter(|f| mine.contains(f)).collect(),
            });
        }
        out.extend(common.unwrap_or_default());
    };
    match p {
        Predicate::Test {
            path, op, value, ..
        } if !negated => {
            let is = |v: &Value| match v {
                Value::String(s) if s == "pass" => Some(Fact::Pass),
                Value::Array(a) if a.is_empty() => Some(Fact::Empty),
                _ => None,
            };
            let fact = match (op, value) {
                (Op::Eq, Some(v)) => is(v),
                (Op::In, Some(Value::Array(vs))) if !vs.is_empty() => {
                    let first = is(&vs[0]);
                    first.filter(|f| vs.iter().all(|v| is(v) == Some(*f)))
                }
                _ => None,
            };
            if let Some(f) = fact {
                out.push((path.to_string(), f));
            }
        }
        Predicate::Test { .. } => {}
        Predicate::All(ps) if !negated => conj(ps, out),
        Predicate::All(ps) => disj(ps, out),
        Predicate::Any(ps) if !negated => disj(ps, out),
        Predicate::Any(ps) => conj(ps, out),
        Predicate::Not(q) => implied(q, !negated, out),
    }
}

/// What taking edge `e` out of gate `d` guarantees: a branch's `match` its
/// predicate, `no_match` the predicate's failure, a select's case that
/// case's predicate, `default` the failure of every case; an error edge or
/// an unparsable predicate guarantees nothing.
fn edge_facts(g: &Graph, d: usize, e: usize) -> Vec<(String, Fact)> {
    let node = g.node(d);
    let mut out = Vec::new();
    if node.str_field("evaluator") != Some(predicate::STRUCTURED) {
        return out;
    }
    let Some(pred) = node.get("predicate") else {
        return out;
    };
    match (&g.edge(e).handle, node.kind) {
        (Handle::Match | Handle::NoMatch, NodeKind::Branch) => {
            if let Ok(p) = predicate::parse(pred) {
                implied(&p, g.edge(e).handle == Handle::NoMatch, &mut out);
            }
        }
        (Handle::Case(c), NodeKind::Select) => {
            if let Some(p) = pred.as_object().and_then(|m| m.get(c.as_str()))
                && let Ok(p) = predicate::parse(p)
            {
                implied(&p, false, &mut out);
            }
        }
        (Handle::Default, NodeKind::Select) => {
            let cases = node.cases();
            for (_, p) in predicate::parse_select(pred, &cases).0 {
                implied(&p, true, &mut out);
            }
        }
        _ => {}
    }
    out
}

/// What is sure to hold whenever `w` runs: for each gate on `w`'s dominator
/// chain, the facts every one of its edges that leads to `w` guarantees.
/// Requires a routable graph.
pub(crate) fn guaranteed(g: &Graph, w: usize) -> Vec<(String, Fact)> {
    let idom = g.idom();
    let mut out = Vec::new();
    let mut cur = w;
    while let Some(d) = idom[cur] {
        if matches!(g.node(d).kind, NodeKind::Branch | NodeKind::Select) {
            let mut common: Option<Vec<(String, Fact)>> = None;
            for &e in &g.out[d] {
                let Some((_, t)) = g.ends.get(e) else {
                    continue;
                };
                if t != w && !g.reaches(t, w) {
                    continue;
                }
                let mine = edge_facts(g, d, e);
                common = Some(match common {
                    None => mine,
                    Some(c) => c.into_iter().filter(|f| mine.contains(f)).collect(),
                });
            }
            out.extend(common.unwrap_or_default());
        }
        cur = d;
    }
    out
}

/// The edge that lets `w` run without `<verify>.verdict` eq "pass" and
/// `<verify>.failedCriteria` eq [] while another edge of the same gate to
/// `w` guarantees both: a failure edge moved towards the write (a select's
/// `case_some` sent to the write, say). (gate, edge).
pub(crate) fn weak_edge(g: &Graph, w: usize, verify: &str) -> Option<(usize, usize)> {
    let (verdict, criteria) = (
        format!("{verify}.verdict"),
        format!("{verify}.failedCriteria"),
    );
    let passes = |f: &[(String, Fact)]| {
        f.iter().any(|(p, x)| *p == verdict && *x == Fact::Pass)
            && f.iter().any(|(p, x)| *p == criteria && *x == Fact::Empty)
    };
    let idom = g.idom();
    let mut cur = w;
    while let Some(d) = idom[cur] {
        if matches!(g.node(d).kind, NodeKind::Branch | NodeKind::Select) {
            let mut strong = false;
            let mut weak = None;
            for &e in &g.out[d] {
                let Some((_, t)) = g.ends.get(e) else {
                    continue;
                };
                if t != w && !g.reaches(t, w) {
                    continue;
                }
                if passes(&edge_facts(g, d, e)) {
                    strong = true;
                } else if weak.is_none() {
                    weak = Some(e);
                }
            }
            if let (true, Some(e)) = (strong, weak) {
                return Some((d, e));
            }
        }
        cur = d;
    }
    None
}

/// The `report_failure` calls no edge leads to: where a moved failure
/// edge used to go.
pub(crate) fn orphan_reports(g: &Graph) -> Vec<usize> {
    (0..g.len())
        .filter(|&i| g.node(i).kind == NodeKind::Call && is_canonical(g, i))
        .filter(|&i| g.node(i).tool() == Some(REPORT_TOOL))
        .filter(|&i| g.preds(i).next().is_none())
        .collect()
}

/// Where the edge `e` out of `from`, moved towards the synthesis, used to
/// go: the `report_failure` step its minted id names (`verify_a__fail_a`,
/// or `…_2`), when that is not where it goes now; else the orphaned report
/// meant for `from` ([`report_for`]).
pub(crate) fn origin(g: &Graph, orphans: &[usize], from: usize, e: usize) -> Option<usize> {
    let id = g.edge(e).id.as_str();
    let named = id
        .strip_prefix(g.node(from).id.as_str())
        .and_then(|rest| rest.strip_prefix("__"))
        .and_then(|to| {
            let plain = to
                .rsplit_once('_')
                .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .map_or(to, |(head, _)| head);
            g.index_of(to).or_else(|| g.index_of(plain))
        })
        .filter(|&r| g.ends.get(e).is_none_or(|(_, t)| t != r))
        .filter(|&r| g.node(r).tool() == Some(REPORT_TOOL) && is_canonical(g, r));
    named.or_else(|| report_for(g, orphans, from))
}

/// The words saying where a moved edge used to go: the report `r` it lost.
pub(crate) fn lost_text(g: &Graph, orphans: &[usize], r: usize) -> String {
    if orphans.contains(&r) {
        format!(
            " (the failure report `{}` has lost its incoming edge: this is where it used to go)",
            g.node(r).id
        )
    } else {
        format!(
            " (the edge's id says it led to the failure report `{}`: this is where it used to go)",
            g.node(r).id
        )
    }
}

/// The orphaned report meant for `from`: the one whose id shares its unit
/// suffix (`verify_a` → `fail_a`), else the only orphan.
pub(crate) fn report_for(g: &Graph, orphans: &[usize], from: usize) -> Option<usize> {
    let suffix = |id: &str| id.split_once('_').map(|(_, s)| s.to_string());
    let mine = suffix(&g.node(from).id);
    orphans
        .iter()
        .copied()
        .find(|&o| mine.is_some() && suffix(&g.node(o).id) == mine)
        .or_else(|| (orphans.len() == 1).then(|| orphans[0]))
}

/// An edge into the region between a gate that requires `path` (or a path
/// under it) on its way to `w` and `w` itself, from a node outside that
/// region: a second route to `w` that bypasses the gate, so the gate's test
/// does not hold on every route (a moved edge, say). O(n + e) per gate that
/// requires `path`; run only once a finding is known.
pub(crate) fn bypass(g: &Graph, w: usize, path: &str) -> Option<usize> {
    let under = format!("{path}.");
    let n = g.len();
    let mut to_w = before(g, w);
    to_w[w] = true;
    for t in 0..n {
        let node = g.node(t);
        if !to_w[t] || t == w || !matches!(node.kind, NodeKind::Branch | NodeKind::Select) {
            continue;
        }
        let mut required = Vec::new();
        for &e in &g.out[t] {
            let Some((_, v)) = g.ends.get(e) else {
                continue;
            };
            let p = match (&g.edge(e).handle, node.get("predicate")) {
                (Handle::Match, Some(p)) => Some(p),
                (Handle::Case(c), Some(p)) => p.as_object().and_then(|m| m.get(c.as_str())),
                _ => None,
            };
            if let (true, Some(p)) = (to_w[v], p) {
                must_hold(p, &mut required);
            }
        }
        if !required.iter().any(|r| r == path || r.starts_with(&under)) {
            continue;
        }
        let mut after = vec![false; n];
        after[t] = true;
        let mut stack = vec![t];
        while let Some(i) = stack.pop() {
            for s in g.succs(i) {
                if !after[s] {
                    after[s] = true;
                    stack.push(s);
                }
            }
        }
        let found = (0..g.ends.len()).find(|&e| {
            g.ends
                .get(e)
                .is_some_and(|(u, v)| v != t && !after[u] && after[v] && to_w[v])
        });
        if found.is_some() {
            return found;
        }
    }
    None
}
