//! Complexity: O(size of the calls' args) to group writers by literal target
//! (a hash map, so calls are never compared across targets). Within a group
//! of k writers, k − 1 reachability tests show whether they are already in
//! one order (the usual case); otherwise the first 256 (in topological
//! order) are compared pairwise, and mutual exclusion is tested only for
//! pairs that can run concurrently.

use crate::check::Graph;
use crate::check::flow::reaches_many;
use crate::check::support::is_canonical;
use crate::model::Issue;
use crate::model::hash::FastMap as HashMap;
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::{Handle, NodeKind, Value};

/// Writers compared pairwise per target when they are not simply ordered.
const PAIRWISE: usize = 256;

/// A literal target as a file system may see it, so that two spellings of
/// one file compare equal: `./a//b/../c` is `a/c`; `A.md` is `a.md` (one
/// file on macOS and Windows); `é` composed (NFC) and decomposed (NFD) are
/// one name (macOS normalises names); and trailing dots and spaces of a
/// name are dropped (`a.md.` and `a.md ` are `a.md` on Windows).
/// `orchestrate`'s check 1 compares targets with this same key.
pub(crate) fn same_file(path: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let mut parts: Vec<String> = Vec::new();
    for p in path.trim().split(['/', '\\']) {
        let name = match p {
            "" | "." => continue,
            ".." => {
                if parts.last().is_some_and(|l| l != "..") {
                    parts.pop();
                } else {
                    parts.push("..".into());
                }
                continue;
            }
            other => other.trim_end_matches(['.', ' ']),
        };
        // A name of dots and spaces only is the folder itself on Windows.
        if name.is_empty() {
            continue;
        }
        let folded: String = name.nfc().collect::<String>().to_lowercase();
        parts.push(folded.nfc().collect());
    }
    parts.join("/")
}

/// Whether `n` is a call of a tool the registry says writes (lists args
/// under `writes`).
pub(crate) fn writes(n: &crate::model::Node, reg: &crate::model::registry::Registry) -> bool {
    n.kind == NodeKind::Call
        && n.tool()
            .and_then(|t| reg.tool(t))
            .is_some_and(|e| !e.writes.is_empty())
}

/// The nodes this run looks at that may write: over the whole plan with
/// the kept facts, the calls they list as writing (a call's tool is read
/// from its definition, which a stored plan builds when read: 66,000
/// reads at 100,000 nodes otherwise); else every node it looks at.
fn candidates(cx: &crate::check::Cx) -> Vec<usize> {
    cx.kept_or_nodes(|k| {
        let listed: Vec<usize> = k.writing().collect();
        if cfg!(debug_assertions)
            && !k.damaged()
            && let Some(reg) = cx.registry
        {
            let fresh: Vec<usize> = cx
                .nodes()
                .filter(|(_, n)| writes(n, reg))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(listed, fresh, "the kept writing calls are the plan's");
        }
        listed
    })
}

/// Whether two handles out of one node can never both fire in one execution.
fn exclusive(kind: NodeKind, a: &Handle, b: &Handle) -> bool {
    use Handle::*;
    match (a, b) {
        (Error, x) | (x, Error) => *x != Error,
        _ => match kind {
            NodeKind::Branch => matches!(
                (a, b),
                (Match, NoMatch) | (NoMatch, Match) | (Match, Default) | (Default, Match)
            ),
            NodeKind::Select => match (a, b) {
                (Case(x), Case(y)) => x != y,
                (Case(_), Default) | (Default, Case(_)) => true,
                _ => false,
            },
            _ => false,
        },
    }
}

/// Whether `a` and `b` lie on mutually exclusive arms of their nearest
/// common dominator: every route from it to `a` leaves by handles that
/// exclude every handle by which routes to `b` leave it.
fn on_exclusive_arms(g: &Graph, a: usize, b: usize) -> bool {
    let Some(d) = g.common_dominator(a, b) else {
        return false;
    };
    if d == a || d == b {
        return false;
    }
    let kind = g.node(d).kind;
    let arms = |x: usize| -> Vec<&Handle> {
        g.out[d]
            .iter()
            .filter_map(|&e| {
                let (_, t) = g.ends.get(e)?;
                (t == x || g.reaches(t, x)).then(|| &g.edge(e).handle)
            })
            .collect()
    };
    let (ha, hb) = (arms(a), arms(b));
    !ha.is_empty() && !hb.is_empty() && ha.iter().all(|x| hb.iter().all(|y| exclusive(kind, x, y)))
}

declare_check! {
    /// ## What it finds
    /// Two calls that can run at the same time and write the same literal
    /// target. A call writes the values of the args its tool lists under
    /// `writes` in the registry (`output` of `spawn_subagent`, `path` of
    /// `write_synthesis`); only literal values are compared — a target built
    /// from a reference is not — and as a file system may see them: as
    /// paths (`./a//b.md` is `a/b.md`) and without case (`A.md` is `a.md`,
    /// one file on macOS and Windows), as `orchestrate` compares them. Two calls can run at the same time when
    /// neither reaches the other, unless they sit on mutually exclusive arms
    /// of one node: `match` vs `no_match`/`default` of a branch, different
    /// `case_*` (or `case_*` vs `default`) of a select, or `error` vs a
    /// success handle of any node. Needs a registry.
    ///
    /// ## Why it matters
    /// Concurrent writes to one artifact race: one overwrites the other, or
    /// they interleave, and what lands depends on timing — the "contention
    /// collision" failure of multi-agent work.
    /// In seed 003 this check carries step 3 ("concurrent tasks … do not
    /// write the same target") and the contention-collision failure class;
    /// `orchestrate` applies the seed's recovery itself (separate artifacts,
    /// one unit at a time).
    ///
    /// ## How to fix
    /// Give each call its own target; or order them (connect one before the
    /// other) when the second should build on the first; or put them on
    /// exclusive arms of a branch or select when only one should run.
    ///
    /// ## Example
    /// `accept → unit_a`, `accept → unit_b`, both `spawn_subagent` with
    /// `"output": "notes.md"`. Fixed: `"output": "notes_a.md"` and
    /// `"notes_b.md"`.
    pub ContentionCollision { code: "contention_collision", severity: Blocking, needs: BOTH, source: Check, scope: Graph }
    fn run(cx, out) {
        let Some(reg) = cx.registry else { return };
        // The tools that write: a registry has few, and a call's tool is
        // compared with them (not looked up: most calls' tools do not write,
        // and a lookup per call was most of a run at 100,000 nodes).
        let writing: Vec<(&str, &crate::model::registry::ToolEntry)> = reg
            .tools
            .iter()
            .filter(|(_, t)| !t.writes.is_empty())
            .map(|(name, t)| (name.as_str(), t))
            .collect();
        if writing.is_empty() {
            return;
        }
        let g = &cx.graph;
        let reach = g.reachable();
        let pos = g.topo_pos();
        // target as a file system sees it → writers (node, arg name, the
        // literal as written), one entry per node.
        let mut groups: HashMap<String, Vec<(usize, &str, String)>> = HashMap::default();
        let mut order: Vec<String> = Vec::new();
        for i in candidates(cx) {
            let n = g.node(i);
            if n.kind != NodeKind::Call || !reach[i] || !is_canonical(g, i) {
                continue;
            }
            // The arguments are read only of a tool that writes (a stored
            // plan's definitions are built when read, see `model::def`).
            let Some(tool) = n.tool() else { continue };
            let Some(&(_, entry)) = writing.iter().find(|(name, _)| *name == tool) else { continue };
            let Some(args) = n.get("args").and_then(Value::as_object) else { continue };
            for w in &entry.writes {
                let Some(v) = args.get(w) else { continue };
                let mut literal = true;
                v.walk(&mut crate::model::value::Pointer::new(""), &mut |_, x| {
                    literal &= !matches!(x, Value::Ref(_) | Value::Param(_));
                });
                if !literal {
                    continue;
                }
                let (key, written) = match v {
                    Value::String(s) => (same_file(s), s.to_string()),
                    other => {
                        let s = crate::wire::json::compact(other);
                        (s.clone(), s)
                    }
                };
                let group = groups.entry(key.clone()).or_insert_with(|| {
                    order.push(key);
                    Vec::new()
                });
                if !group.iter().any(|(x, _, _)| *x == i) {
                    group.push((i, w.as_str(), written));
                }
            }
        }
        for key in order {
            let mut writers = groups.remove(&key).unwrap_or_default();
            if writers.len() < 2 {
                continue;
            }
            writers.sort_by_key(|(i, _, _)| pos[*i]);
            let chain: Vec<(usize, usize)> = writers.windows(2).map(|w| (w[0].0, w[1].0)).collect();
            if reaches_many(g, &chain).into_iter().all(|x| x) {
                continue; // one total order: never concurrent
            }
            let compared = writers.len().min(PAIRWISE);
            let mut pairs = Vec::new();
            for b in 1..compared {
                for a in 0..b {
                    pairs.push((writers[a].0, writers[b].0));
                }
            }
            let ordered = reaches_many(g, &pairs);
            let mut reported = vec![false; compared];
            let mut k = 0;
            for b in 1..compared {
                let mut clash: Vec<usize> = Vec::new();
                for a in 0..b {
                    if !ordered[k] && !on_exclusive_arms(g, writers[a].0, writers[b].0) {
                        clash.push(a);
                    }
                    k += 1;
                }
                if clash.is_empty() || reported[b] {
                    continue;
                }
                reported[b] = true;
                let (bn, barg, ref bwritten) = writers[b];
                let (an, aarg, ref awritten) = writers[clash[0]];
                let target = if awritten == bwritten {
                    format!("\"{bwritten}\"")
                } else {
                    format!("one target (\"{awritten}\" and \"{bwritten}\", the same file once `./`, case, Unicode normal form (NFC and NFD) and trailing dots and spaces are set aside, as macOS and Windows store names)")
                };
                let node_b = g.node(bn);
                let node_a = g.node(an);
                let others = if clash.len() > 1 {
                    format!(" (and with {} other call(s) that also write it)", clash.len() - 1)
                } else {
                    String::new()
                };
                let unchecked = if b == compared - 1 && writers.len() > compared {
                    format!("; {} more calls write this target and were not compared", writers.len() - compared)
                } else {
                    String::new()
                };
                out.push(
                    Issue::new(CODE,
                        format!(
                            "calls `{}` and `{}` can run at the same time (neither runs before the other) and both write {target} (`{}` arg `{aarg}`, `{}` arg `{barg}`){others}, so their writes race (putting them on exclusive arms of a branch or select also settles it, when only one should run){unchecked}",
                            node_a.id, node_b.id, node_a.id, node_b.id
                        ),
                    )
                    .node(node_b.id.clone())
                    .at(format!("/definition/args/{barg}"))
                    .fix(Remedy::SetField {
                        node: node_b.id.to_string(),
                        path: format!("args.{barg}"),
                        value: Fill::choose("a target of its own"),
                    })
                    .fix(
                        Remedy::Connect {
                            from: Pick::id(&node_a.id),
                            to: Pick::id(&node_b.id),
                            handle: None,
                        }
                        .when("if the second should build on the first"),
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ContentionCollision;
    use crate::check::testing::*;
    use crate::model::NodeKind;
    use crate::model::remedy::{Pick, Remedy};
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, writes: [output]}, other: {returns: text}}";

    fn writer(id: &str, target: &str) -> crate::model::Node {
        call_with(id, "spawn", json!({"output": target}), &[])
    }

    #[test]
    fn fires_on_parallel_writers_of_one_target() {
        let p = plan(
            vec![
                entry("s"),
                writer("a", "notes.md"),
                writer("b", "notes.md"),
                writer("c", "other.md"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "s", "c", "always"),
            ],
        );
        let issues = run_reg(&ContentionCollision, &p, &registry(REG));
        assert_eq!(issues.len(), 1);
        assert!(issues[0].message.contains("`a` and `b`"));
        assert_eq!(
            issues[0].fixes[1].remedy,
            Remedy::Connect {
                from: Pick::id("a"),
                to: Pick::id("b"),
                handle: None
            }
        );
        assert_eq!(
            issues[0].pointer.as_deref(),
            Some("/definition/args/output")
        );
    }

    #[test]
    fn compares_targets_as_paths_without_case() {
        let p = plan(
            vec![
                entry("s"),
                writer("a", "Notes/A.md"),
                writer("b", "./notes//a.md"),
                writer("c", "notes/b/a.md"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
                edge("e3", "s", "c", "always"),
            ],
        );
        let issues = run_reg(&ContentionCollision, &p, &registry(REG));
        assert_eq!(issues.len(), 1, "{issues:#?}");
        let m = &issues[0].message;
        assert!(m.contains("`a` and `b`"), "{m}");
        assert!(m.contains("\"Notes/A.md\" and \"./notes//a.md\""), "{m}");
    }

    #[test]
    fn compares_names_as_macos_and_windows_store_them() {
        // NFC `é` vs NFD `e` + U+0301; a trailing dot and a trailing space.
        for (x, y) in [
            ("r\u{e9}sum\u{e9}.md", "re\u{301}sume\u{301}.md"),
            ("a.md", "a.md."),
            ("dir./a.md", "dir/a.md "),
        ] {
            let p = plan(
                vec![entry("s"), writer("a", x), writer("b", y)],
                vec![
                    edge("e1", "s", "a", "always"),
                    edge("e2", "s", "b", "always"),
                ],
            );
            let issues = run_reg(&ContentionCollision, &p, &registry(REG));
            assert_eq!(issues.len(), 1, "{x:?} {y:?}: {issues:#?}");
        }
        // Near miss: a dot inside the name is part of it.
        let p = plan(
            vec![entry("s"), writer("a", "a.md"), writer("b", "a.m.d")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "s", "b", "always"),
            ],
        );
        assert!(run_reg(&ContentionCollision, &p, &registry(REG)).is_empty());
        assert_eq!(super::same_file("../x/./y/../Z.MD.."), "../x/z.md");
    }

    #[test]
    fn error_vs_success_and_always_vs_match() {
        // `error` vs `always` out of one call: exclusive.
        let p = plan(
            vec![entry("s"), step("x"), writer("a", "t"), writer("b", "t")],
            vec![
                edge("e1", "s", "x", "always"),
                edge("e2", "x", "a", "always"),
                edge("e3", "x", "b", "error"),
            ],
        );
        assert!(run_reg(&ContentionCollision, &p, &registry(REG)).is_empty());
        // `always` fires beside `match`: not exclusive.
        let br = node(
            "br",
            NodeKind::Branch,
            json!({"evaluator": "structured", "predicate": {}}),
        );
        let p = plan(
            vec![entry("s"), br, writer("a", "t"), writer("b", "t")],
            vec![
                edge("e1", "s", "br", "always"),
                edge("e2", "br", "a", "match"),
                edge("e3", "br", "b", "default"),
                edge("e4", "br", "b", "always"),
            ],
        );
        assert_eq!(run_reg(&ContentionCollision, &p, &registry(REG)).len(), 1);
    }

    #[test]
    fn passes_ordered_exclusive_and_non_literal_writers() {
        let sel = node(
            "sel",
            NodeKind::Select,
            json!({"evaluator": "structured", "predicate": {}, "cases": ["x", "y"]}),
        );
        let p = plan(
            vec![
                entry("s"),
                sel,
                writer("a", "t"),
                writer("b", "t"),
                writer("c", "t"),
                writer("d", "t"),
                call_with("e", "spawn", json!({"output": r("s", Some("name"))}), &[]),
                call_with("f", "spawn", json!({"output": r("s", Some("name"))}), &[]),
            ],
            vec![
                edge("e1", "s", "sel", "always"),
                edge("e2", "sel", "a", "case_x"),
                edge("e3", "sel", "b", "case_y"),
                edge("e4", "sel", "c", "default"),
                edge("e5", "c", "d", "always"),
                edge("e6", "s", "e", "always"),
                edge("e7", "s", "f", "always"),
            ],
        );
        assert!(run_reg(&ContentionCollision, &p, &registry(REG)).is_empty());
    }
}
