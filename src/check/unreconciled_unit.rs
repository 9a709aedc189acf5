//! Complexity: O((n + e + refs) · ⌈k / 64⌉) to mark, for all k spawning calls
//! at once (as bitsets), which nodes read each of them directly or
//! transitively; then one walk per spawning call over the nodes it reaches
//! before any of its readers (its unverified region), stopping at the first
//! write found.

use crate::check::support::ref_text;
use crate::check::{Cx, Graph};
use crate::model::Issue;
use crate::model::hash::FastMap as HashMap;
use crate::model::registry::{Registry, ToolEntry};
use crate::model::{NodeKind, Value};
use std::collections::VecDeque;

/// The key an artifact named by a non-literal value is matched by.
fn artifact_key(v: &Value) -> String {
    format!("\u{0}{}", crate::wire::json::compact(v))
}

declare_check! {
    /// ## What it finds
    /// For a call `S` of a spawning tool (`spawnsAgent: true`):
    /// - no node reachable from `S` reads `S` — by a `$ref` to it, or as a
    ///   call naming the artifact `S` writes in its args (the value of an arg
    ///   the tool lists under `writes`: the same literal name, or the same
    ///   reference when the name comes from another node); or
    /// - a call that writes (its tool lists `writes`) is reachable from `S`
    ///   along a path that avoids every reader of `S`, counting readers of
    ///   readers (transitive readers). The writing call itself does not count
    ///   as a reader on its own path: a write that takes `S`'s output
    ///   straight into what it writes has verified nothing. Paths do not
    ///   follow an `error` edge straight into a join of kind `settle`: it
    ///   carries the unit's failure, not its artifact (the join names the
    ///   arrival, and `ungated_unit` holds the write to the unit's pass).
    ///
    /// Needs a registry.
    ///
    /// ## Why it matters
    /// A subagent's output is a claim, not a fact. Every artifact must be
    /// read and verified before anything is written from it; otherwise an
    /// unverified (possibly wrong, possibly partial) result lands in the
    /// synthesis or feeds the next unit.
    /// In seed 003 this check carries step 6 (owner-verify every artifact)
    /// and the rollback class's premise: nothing is synthesized before every
    /// artifact is verified.
    ///
    /// ## How to fix
    /// After each spawning call, read its artifact (e.g. `read_artifact` with
    /// the artifact's path) and verify it (a reason step judging the result),
    /// and make every route to a writing call pass that verification.
    ///
    /// ## Example
    /// `unit_a` (`spawn_subagent`, `"output": "a.md"`) `→ write_synthesis`
    /// directly. Fixed: `unit_a → read_a (read_artifact, "path": "a.md") →
    /// verify_a (reason) → write_synthesis`.
    pub UnreconciledUnit { code: "unreconciled_unit", severity: Blocking, needs: BOTH, source: Check }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        let g = &cx.graph;
        let Some(topo) = &g.topo else { return };
        let reach = g.reachable();
        let n = g.len();
        let spawns: Vec<usize> = cx.spawns().iter().copied().filter(|&i| reach[i]).collect();
        if spawns.is_empty() {
            return;
        }
        let readers = readers(cx, reg, topo, &spawns);
        let mut walk = Walk { stamp: vec![usize::MAX; n], parent: vec![usize::MAX; n] };
        for (k, &s) in spawns.iter().enumerate() {
            let (found_reader, bad_write) = walk.region(g, reg, &readers, k, s);
            let message = if let Some(wn) = bad_write {
                unverified_write(g, &walk.parent, &readers.written[k], s, wn)
            } else if !found_reader {
                unread(g, &readers.written[k], s)
            } else {
                continue;
            };
            out.push(Issue::new(CODE, message).node(g.node(s).id.clone()));
        }
    }
}

/// The registry entry of node `i`'s tool.
fn tool_of<'r>(g: &Graph, reg: &'r Registry, i: usize) -> Option<&'r ToolEntry> {
    g.node(i).tool().and_then(|t| reg.tool(t))
}

/// Which nodes read which spawning call, as bitsets: bit `k` of a node's
/// `words` words is set when it reads `spawns[k]`, directly or transitively.
struct Readers {
    words: usize,
    dep: Vec<u64>,
    /// What each spawning call writes, in words (for the messages).
    written: Vec<Vec<String>>,
}

impl Readers {
    fn reads(&self, v: usize, k: usize) -> bool {
        let (w, b) = bit(k);
        self.dep[v * self.words + w] & b != 0
    }
}

/// Word and mask of bit `k`.
fn bit(k: usize) -> (usize, u64) {
    (k / 64, 1u64 << (k % 64))
}

/// Marks the readers of every spawning call at once.
fn readers(cx: &Cx, reg: &Registry, topo: &[usize], spawns: &[usize]) -> Readers {
    let g = &cx.graph;
    let n = g.len();
    let words = spawns.len().div_ceil(64);
    let mut dep = vec![0u64; n * words];
    let spawn_of: HashMap<usize, usize> = spawns.iter().enumerate().map(|(k, &s)| (s, k)).collect();
    // The artifacts each spawning call writes: the values of its `writes`
    // args — a literal name, or a reference (then a call passing the same
    // reference names the same artifact).
    let mut artifacts: HashMap<String, Vec<usize>> = HashMap::default();
    let mut written: Vec<Vec<String>> = vec![Vec::new(); spawns.len()];
    let mut by_ref = false;
    for (k, &s) in spawns.iter().enumerate() {
        let Some(args) = g.node(s).get("args").and_then(Value::as_object) else {
            continue;
        };
        for w in &tool_of(g, reg, s)
            .map(|e| e.writes.clone())
            .unwrap_or_default()
        {
            let key = match args.get(w) {
                Some(Value::String(a)) => {
                    written[k].push(format!("\"{a}\""));
                    a.to_string()
                }
                Some(v @ Value::Ref(r)) => {
                    by_ref = true;
                    written[k].push(format!("the artifact named by {}", ref_text(r)));
                    artifact_key(v)
                }
                _ => continue,
            };
            artifacts.entry(key).or_default().push(k);
        }
    }
    // Direct readers: a reference to S, or a call naming S's artifact.
    let refs = cx.data_refs();
    let mut reads: Vec<Vec<usize>> = vec![Vec::new(); n];
    for d in refs {
        reads[d.node].push(d.target);
    }
    for v in 0..n {
        for &t in &reads[v] {
            if let Some(&k) = spawn_of.get(&t) {
                let (w, b) = bit(k);
                dep[v * words + w] |= b;
            }
        }
        let node = g.node(v);
        if node.kind != NodeKind::Call || artifacts.is_empty() {
            continue;
        }
        if let Some(args) = node.get("args") {
            args.walk(&mut crate::model::value::Pointer::new(""), &mut |_, x| {
                let hit = match x {
                    Value::String(s) => artifacts.get(s.as_str()),
                    Value::Ref(_) if by_ref => artifacts.get(&artifact_key(x)),
                    _ => None,
                };
                if let Some(ks) = hit {
                    for &k in ks {
                        if spawns[k] != v {
                            let (w, b) = bit(k);
                            dep[v * words + w] |= b;
                        }
                    }
                }
            });
        }
    }
    // Transitive readers, in topological order.
    for &v in topo {
        for &t in &reads[v] {
            if t == v {
                continue;
            }
            for w in 0..words {
                let x = dep[t * words + w];
                dep[v * words + w] |= x;
            }
        }
    }
    Readers {
        words,
        dep,
        written,
    }
}

/// The breadth-first walks of the spawning calls' unverified regions, which
/// share their marks (`stamp[v] == k`: seen by the walk from `spawns[k]`).
struct Walk {
    stamp: Vec<usize>,
    parent: Vec<usize>,
}

impl Walk {
    /// Walks from spawning call `s` (the `k`-th) over the nodes it reaches
    /// before any of its readers: whether a reader was reached, and the first
    /// writing call reached without one.
    fn region(
        &mut self,
        g: &Graph,
        reg: &Registry,
        readers: &Readers,
        k: usize,
        s: usize,
    ) -> (bool, Option<usize>) {
        let writes = |i: usize| {
            g.node(i).kind == NodeKind::Call
                && tool_of(g, reg, i).is_some_and(|e| !e.writes.is_empty())
        };
        let mut queue = VecDeque::from([s]);
        self.stamp[s] = k;
        let mut found_reader = false;
        while let Some(v) = queue.pop_front() {
            for &e in &g.out[v] {
                let Some((_, t)) = g.ends.get(e) else {
                    continue;
                };
                // An `error` edge into a settling join carries the unit's
                // failure, never its artifact: the join names the arrival,
                // and `ungated_unit` holds the write to the unit's pass.
                if g.edge(e).handle == crate::model::Handle::Error && g.node(t).settles() {
                    continue;
                }
                if self.stamp[t] == k {
                    continue;
                }
                self.stamp[t] = k;
                self.parent[t] = v;
                // A write is checked before its reading: a call that
                // writes from S's output is not S's verification.
                if t != s && writes(t) {
                    return (found_reader, Some(t));
                }
                if readers.reads(t, k) {
                    found_reader = true;
                    continue;
                }
                queue.push_back(t);
            }
        }
        (found_reader, None)
    }
}

/// ` and writes …` for the messages, and a reader to suggest.
fn artifact_and_example(g: &Graph, written: &[String], s: usize) -> (String, String) {
    let sn = g.node(s);
    let artifact = if written.is_empty() {
        String::new()
    } else {
        format!(" and writes {}", written.join(", "))
    };
    let example = match written.first() {
        Some(a) if a.starts_with('"') => format!("a `read_artifact` call with `\"path\": {a}`"),
        _ => format!("a step that references `{}`", sn.id),
    };
    (artifact, example)
}

/// The finding for a writing call `wn` reached from spawning call `s` along
/// a route without a reader (`parent` leads back from `wn` to `s`).
fn unverified_write(
    g: &Graph,
    parent: &[usize],
    written: &[String],
    s: usize,
    wn: usize,
) -> String {
    let sn = g.node(s);
    let tool = sn.tool().unwrap_or("?");
    let (artifact, example) = artifact_and_example(g, written, s);
    let mut route = vec![wn];
    let mut cur = wn;
    while cur != s && route.len() < 12 {
        cur = parent[cur];
        route.push(cur);
    }
    route.reverse();
    let ids: Vec<&str> = route.iter().map(|&i| g.node(i).id.as_str()).collect();
    let shown = if cur == s {
        ids.join(" → ")
    } else {
        format!("{} → … → {}", ids[0], ids[ids.len() - 1])
    };
    format!(
        "call `{}` spawns an agent (`{tool}`){artifact}, but the writing call `{}` can run after it along {shown} without anything reading and verifying the spawned work first; every artifact must be verified before anything is written from it. Put a reader of `{}` (e.g. {example}, then a reason step that checks it) on that route before `{}`",
        sn.id,
        g.node(wn).id,
        sn.id,
        g.node(wn).id
    )
}

/// The finding for a spawning call `s` nothing reads.
fn unread(g: &Graph, written: &[String], s: usize) -> String {
    let sn = g.node(s);
    let tool = sn.tool().unwrap_or("?");
    let (artifact, example) = artifact_and_example(g, written, s);
    format!(
        "call `{}` spawns an agent (`{tool}`){artifact}, but no step after it reads its result, so the subagent's work is never verified or reconciled; add {example} after `{}`, then a reason step that checks it",
        sn.id, sn.id
    )
}

#[cfg(test)]
mod tests {
    use super::UnreconciledUnit;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use serde_json::json;

    fn reg() -> crate::model::registry::Registry {
        registry(crate::registry::DEFAULT_REGISTRY_YAML)
    }

    fn spawn(id: &str, output: &str) -> crate::model::Node {
        call_with(
            id,
            "spawn_subagent",
            json!({"output": output, "tools": []}),
            &[],
        )
    }

    fn verify(id: &str, reads: &str) -> crate::model::Node {
        node(
            id,
            NodeKind::Reason,
            json!({"prompt": [r(reads, Some("content"))], "maxAttempts": 1,
            "outputSchema": {"type": "object", "properties": {"verdict": {}}}}),
        )
    }

    fn linear(nodes: Vec<crate::model::Node>) -> crate::model::Content {
        let ids: Vec<String> = nodes.iter().map(|n| n.id.to_string()).collect();
        let edges = ids
            .windows(2)
            .enumerate()
            .map(|(k, w)| edge(&format!("e{k}"), &w[0], &w[1], "always"))
            .collect();
        plan(nodes, edges)
    }

    #[test]
    fn fires_on_an_unread_unit_and_on_a_write_that_skips_verification() {
        let p = linear(vec![entry("s"), spawn("unit", "a.md")]);
        let issues = run_reg(&UnreconciledUnit, &p, &reg());
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("no step after it reads"));

        let mut p = linear(vec![
            entry("s"),
            spawn("unit", "a.md"),
            call_with(
                "read",
                "read_artifact",
                json!({"path": "a.md"}),
                &["content"],
            ),
            verify("check", "read"),
            call_with(
                "write",
                "write_synthesis",
                json!({"path": "out.md", "content": r("check", Some("verdict"))}),
                &[],
            ),
        ]);
        p.edges.push(edge("skip", "unit", "write", "error"));
        let issues = run_reg(&UnreconciledUnit, &p, &reg());
        assert_eq!(issues.len(), 1);
        assert!(
            issues[0].message.contains("unit → write"),
            "{}",
            issues[0].message
        );
    }

    #[test]
    fn an_error_into_a_settling_join_carries_no_artifact_but_into_a_plain_join_it_does() {
        let with = |kind: serde_json::Value| {
            let mut p = linear(vec![
                entry("s"),
                spawn("unit", "a.md"),
                call_with(
                    "read",
                    "read_artifact",
                    json!({"path": "a.md"}),
                    &["content"],
                ),
                verify("check", "read"),
                node("join", NodeKind::Join, kind),
                call_with(
                    "write",
                    "write_synthesis",
                    json!({"path": "out.md", "content": "x"}),
                    &[],
                ),
            ]);
            p.edges.push(edge("unit__join", "unit", "join", "error"));
            run_reg(&UnreconciledUnit, &p, &reg())
        };
        assert!(with(json!({"kind": "settle"})).is_empty());
        let issues = with(json!({}));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(
            issues[0].message.contains("unit → join → write"),
            "{}",
            issues[0].message
        );
    }

    #[test]
    fn a_write_straight_from_the_unit_is_not_its_verification() {
        let p = linear(vec![
            entry("s"),
            spawn("unit", "a.md"),
            call_with(
                "write",
                "write_synthesis",
                json!({"path": "out.md", "content": r("unit", None)}),
                &[],
            ),
        ]);
        assert_eq!(run_reg(&UnreconciledUnit, &p, &reg()).len(), 1);
    }

    #[test]
    fn an_artifact_named_by_reference_is_read_by_the_same_reference() {
        let name = json!({"$ref": {"node": "s", "select": "first", "path": "out"}});
        let p = linear(vec![
            entry("s"),
            call_with(
                "unit",
                "spawn_subagent",
                json!({"output": name.clone(), "tools": []}),
                &[],
            ),
            call_with("read", "read_artifact", json!({"path": name}), &["content"]),
        ]);
        assert!(run_reg(&UnreconciledUnit, &p, &reg()).is_empty());
    }

    #[test]
    fn passes_when_every_route_reads_and_verifies_first() {
        let p = linear(vec![
            entry("s"),
            spawn("unit", "a.md"),
            call_with(
                "read",
                "read_artifact",
                json!({"path": "a.md"}),
                &["content"],
            ),
            verify("check", "read"),
            spawn("next", "b.md"),
            call_with(
                "read_b",
                "read_artifact",
                json!({"path": "b.md"}),
                &["content"],
            ),
            verify("check_b", "read_b"),
            call_with(
                "write",
                "write_synthesis",
                json!({"path": "out.md", "content": r("check_b", Some("verdict"))}),
                &[],
            ),
        ]);
        assert!(run_reg(&UnreconciledUnit, &p, &reg()).is_empty());
    }
}
