//! Shared analyses for the reference, predicate and concurrency checks: exact
//! batched reachability, route enumeration for messages, and `branchId`
//! walking. A helper, not an issue code (it is not in `CHECKS`).

use super::Graph;
use crate::model::hash::FastMap as HashMap;
use crate::model::hash::FastSet as HashSet;
use crate::model::suggest;
use crate::model::{BranchId, NodeKind, Segment};

/// For each query `(a, b)`: whether `a` reaches `b` (`a →+ b`, over any
/// handle). Exact. Requires an acyclic graph (all false otherwise).
///
/// Cost: O(q) for the queries that the topological orders (a "no"), the
/// dominator tree or a direct edge (a "yes") decide, which in practice is
/// nearly all of them; the rest are answered 64 sources at a time by one
/// forward bitset pass over what those sources reach up to the last
/// target's position: O((r + e_r) · log r) for the `r` nodes reached and
/// their `e_r` edges, never more than the topological range they span.
///
/// The second order and the dominator tree (each a pass over the whole
/// graph to make) are asked for only by many queries, or used when some
/// run made them: a few queries, as a check run over the nodes an edit
/// touched asks, cost what they reach.
pub(crate) fn reaches_many(g: &Graph, queries: &[(usize, usize)]) -> Vec<bool> {
    let mut answer = vec![false; queries.len()];
    // No query asks for the orders (each a pass over the whole graph; a
    // check run on a few nodes often has no reference to ask about).
    let (false, Some(_)) = (queries.is_empty(), &g.topo) else {
        return answer;
    };
    let pos = g.topo_pos();
    let many = queries.len() > MANY_QUERIES;
    let pos2 = g.topo2_pos_if(many);
    let routable = g.is_routable();
    let mut open: Vec<usize> = Vec::new();
    for (qi, &(a, b)) in queries.iter().enumerate() {
        if a == b || pos[a] >= pos[b] || pos2.is_some_and(|p| p[a] >= p[b]) {
            continue;
        }
        if routable && g.dominates_by(a, b, many) {
            answer[qi] = true;
            continue;
        }
        open.push(qi);
    }
    if open.is_empty() {
        return answer;
    }
    let mut by_source: HashMap<usize, Vec<usize>> = HashMap::default();
    for qi in open {
        let (a, b) = queries[qi];
        // A direct edge (the source's own edges: no index of every edge, so
        // that a few queries cost what they ask).
        if g.succs(a).any(|t| t == b) {
            answer[qi] = true;
        } else {
            by_source.entry(a).or_default().push(qi);
        }
    }
    let mut sources: Vec<usize> = by_source.keys().copied().collect();
    sources.sort_by_key(|&s| pos[s]);
    // Per node: the chunk's sources that reach it, valid where `chunk_of`
    // holds the chunk's number (no clearing between chunks; vectors only
    // touched where a walk goes).
    let mut mask = vec![0u64; g.len()];
    let mut chunk_of = vec![0u32; g.len()];
    for (c, chunk) in (1u32..).zip(sources.chunks(64)) {
        let hi = chunk
            .iter()
            .flat_map(|s| by_source[s].iter().map(|&qi| pos[queries[qi].1]))
            .max()
            .unwrap_or(0);
        for (k, &s) in chunk.iter().enumerate() {
            chunk_of[s] = c;
            mask[s] = 1u64 << k;
        }
        // What the chunk reaches up to `hi`, then in topological order.
        let mut reached: Vec<usize> = chunk.to_vec();
        let mut stack = reached.clone();
        while let Some(v) = stack.pop() {
            for t in g.succs(v) {
                if pos[t] <= hi && chunk_of[t] != c {
                    chunk_of[t] = c;
                    mask[t] = 0;
                    reached.push(t);
                    stack.push(t);
                }
            }
        }
        reached.sort_unstable_by_key(|&v| pos[v]);
        for &v in &reached {
            let m = mask[v];
            if m == 0 {
                continue;
            }
            for t in g.succs(v) {
                if chunk_of[t] == c {
                    mask[t] |= m;
                }
            }
        }
        for (k, &s) in chunk.iter().enumerate() {
            for &qi in &by_source[&s] {
                let b = queries[qi].1;
                answer[qi] = chunk_of[b] == c && mask[b] & (1u64 << k) != 0;
            }
        }
    }
    answer
}

/// More queries than this make [`Graph::topo2_pos`] and the dominator tree
/// for [`reaches_many`] (their quick answers pay for the passes that make
/// them).
const MANY_QUERIES: usize = 64;

/// For each node, the reachable proper ancestors that come last in
/// topological order (the nearest) among, first, the joins and, second,
/// the reconverging nodes (not a join, more than one incoming edge): their
/// positions in the order plus one (0: none). One pass for both, O(n + e).
///
/// Used for the join region rules: with fork `f` = idom(join), a reachable
/// ancestor of the join that comes after `f` in topological order cannot be
/// an ancestor of `f` (that would put it before `f`), so every route to it
/// passes `f`: it lies strictly inside the fork→join region. So "the
/// region holds a join (a reconverging node)" is exactly "its nearest one
/// comes after `f`", for every join at once, without a walk per join.
/// Positions rather than nodes: each step compares two numbers instead of
/// looking both nodes' positions up (`nested_join` and
/// `join_reconvergence` made a pass each, with a lookup per edge: 7 % of a
/// `connect`'s main thread at 100,000 nodes).
pub(crate) fn nearest_joins_and_meets(g: &Graph) -> Vec<[u32; 2]> {
    let mut best = vec![[0u32; 2]; g.len()];
    let Some(topo) = &g.topo else {
        return best;
    };
    let reach = g.reachable();
    for (p, &v) in topo.iter().enumerate() {
        if !reach[v] {
            continue;
        }
        let here = u32::try_from(p + 1).expect("fewer than 2^32 nodes");
        let mut mine = best[v];
        if g.joins[v] {
            mine[0] = here;
        } else if g.inc[v].len() > 1 {
            mine[1] = here;
        }
        if mine == [0, 0] {
            continue;
        }
        for t in g.succs(v) {
            let b = &mut best[t];
            b[0] = b[0].max(mine[0]);
            b[1] = b[1].max(mine[1]);
        }
    }
    best
}

/// Up to `cap` nodes that run before `node` (nearest by edges first), for
/// messages. Bounded work: O(cap + the in-edges it scans, at most 512).
pub(crate) fn some_ancestors(g: &Graph, node: usize, cap: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut seen = HashSet::default();
    let mut queue = std::collections::VecDeque::from([node]);
    let mut scanned = 0usize;
    seen.insert(node);
    while let Some(v) = queue.pop_front() {
        for p in g.preds(v) {
            scanned += 1;
            if scanned > 512 || out.len() >= cap {
                return out;
            }
            if seen.insert(p) {
                out.push(p);
                queue.push_back(p);
            }
        }
    }
    out
}

/// The routes (as `branchId`s) that reach `target`, when there are at most
/// `limit` and enumerating them stays within a small budget; else `None`.
/// Follows the same construction as [`Graph::executions`].
pub(crate) fn routes_to(g: &Graph, target: usize, limit: usize) -> Option<Vec<BranchId>> {
    let entry = g.entry()?;
    let exec = g.executions();
    if exec[target] == 0 || exec[target] > limit as u64 {
        return None;
    }
    let idom = g.idom();
    let mut budget = 4096usize;
    let mut done: Vec<BranchId> = Vec::new();
    // (node, segments collected backwards)
    let mut stack: Vec<(usize, Vec<Segment>)> = vec![(target, Vec::new())];
    while let Some((v, segs)) = stack.pop() {
        budget = budget.checked_sub(segs.len() + 1)?;
        if v == entry {
            let mut segments = segs;
            segments.reverse();
            done.push(BranchId { segments });
            if done.len() > limit {
                return None;
            }
            continue;
        }
        if g.node(v).kind == NodeKind::Join {
            let f = idom[v]?;
            let mut s = segs;
            s.push(join_segment(g, v));
            stack.push((f, s));
            continue;
        }
        for &e in g.inc[v].iter().rev() {
            let Some((p, _)) = g.ends.get(e) else {
                continue;
            };
            if exec[p] == 0 {
                continue;
            }
            let mut s = segs.clone();
            s.push(Segment::Edge(g.edge(e).id.to_string()));
            stack.push((p, s));
        }
    }
    Some(done)
}

/// The segment a route takes through `join`: its id and every incoming edge
/// id, sorted.
pub(crate) fn join_segment(g: &Graph, join: usize) -> Segment {
    let mut of: Vec<String> = g.inc[join]
        .iter()
        .map(|&e| g.edge(e).id.to_string())
        .collect();
    of.sort();
    of.dedup();
    Segment::Join {
        join: g.node(join).id.to_string(),
        of,
    }
}

/// Walks `bid` from the entry; `Err` says, for the author, where it stops
/// being a route to `target`.
pub(crate) struct RouteWalker<'g, 'a> {
    g: &'g Graph<'a>,
    edge_at: HashMap<&'a str, usize>,
    /// Fork → the joins it is the immediate dominator of.
    joins_of: HashMap<usize, Vec<usize>>,
}

impl<'g, 'a> RouteWalker<'g, 'a> {
    pub(crate) fn new(g: &'g Graph<'a>) -> Self {
        let mut edge_at = HashMap::default();
        for (i, e) in g.content.edges.iter().enumerate() {
            edge_at.entry(e.id.as_str()).or_insert(i);
        }
        let idom = g.idom();
        let mut joins_of: HashMap<usize, Vec<usize>> = HashMap::default();
        for (i, n) in g.content.nodes.iter().enumerate() {
            if n.kind == NodeKind::Join
                && let Some(f) = idom[i]
            {
                joins_of.entry(f).or_default().push(i);
            }
        }
        RouteWalker {
            g,
            edge_at,
            joins_of,
        }
    }

    /// How a route at `cur` may continue, for messages.
    fn continuations(&self, cur: usize) -> String {
        let g = self.g;
        let mut next: Vec<String> = Vec::new();
        for &e in &g.out[cur] {
            let Some((_, t)) = g.ends.get(e) else {
                continue;
            };
            if g.node(t).kind != NodeKind::Join {
                next.push(format!("{{\"edge\": \"{}\"}}", g.edge(e).id));
            }
        }
        for &j in self.joins_of.get(&cur).map(Vec::as_slice).unwrap_or(&[]) {
            next.push(segment_json(&join_segment(g, j)));
        }
        if next.is_empty() {
            format!("no route continues from `{}`", g.node(cur).id)
        } else {
            format!(
                "from `{}` a route continues with {}",
                g.node(cur).id,
                suggest::capped_list(&next, 20)
            )
        }
    }

    pub(crate) fn check(&self, target: usize, bid: &BranchId) -> Result<(), String> {
        let g = self.g;
        let Some(mut cur) = g.entry() else {
            return Ok(());
        };
        let idom = g.idom();
        for (i, seg) in bid.segments.iter().enumerate() {
            match seg {
                Segment::Edge(id) => {
                    let Some(&e) = self.edge_at.get(id.as_str()) else {
                        let near: Vec<&str> =
                            g.out[cur].iter().map(|&e| g.edge(e).id.as_str()).collect();
                        return Err(format!(
                            "segment {i} names the edge `{id}`, which does not exist{}; {}",
                            suggest::did_you_mean(id, near),
                            self.continuations(cur)
                        ));
                    };
                    let Some((f, t)) = g.ends.get(e) else {
                        return Err(format!(
                            "segment {i} names the edge `{id}`, whose ends are not both in the plan; {}",
                            self.continuations(cur)
                        ));
                    };
                    if f != cur {
                        return Err(format!(
                            "segment {i} takes the edge `{id}` out of `{}`, but the route is at `{}` there; {}",
                            g.node(f).id,
                            g.node(cur).id,
                            self.continuations(cur)
                        ));
                    }
                    if g.node(t).kind == NodeKind::Join {
                        return Err(format!(
                            "segment {i} takes the edge `{id}` into the join `{}`; a route passes a join with one join segment written right after the route to the join's fork, {}",
                            g.node(t).id,
                            segment_json(&join_segment(g, t))
                        ));
                    }
                    cur = t;
                }
                Segment::Join { join, of } => {
                    let j = match g.index_of(join) {
                        Some(j) if g.node(j).kind == NodeKind::Join => j,
                        _ => {
                            return Err(format!(
                                "segment {i} names `{join}`, which is not a join node; {}",
                                self.continuations(cur)
                            ));
                        }
                    };
                    if idom[j] != Some(cur) {
                        let fork = idom[j]
                            .map(|f| format!("`{}`", g.node(f).id))
                            .unwrap_or_else(|| "no fork (it is unreachable)".into());
                        return Err(format!(
                            "segment {i} passes the join `{join}`, whose fork is {fork}, but the route is at `{}` there; {}",
                            g.node(cur).id,
                            self.continuations(cur)
                        ));
                    }
                    let want = join_segment(g, j);
                    if let Segment::Join { of: want_of, .. } = &want
                        && want_of != of
                    {
                        return Err(format!(
                            "segment {i} lists {:?} as the edges of the join `{join}`; `of` must list every incoming edge of the join, sorted: {}",
                            of,
                            segment_json(&want)
                        ));
                    }
                    cur = j;
                }
            }
        }
        if cur != target {
            return Err(format!(
                "the route ends at `{}`, not at `{}`; {}",
                g.node(cur).id,
                g.node(target).id,
                self.continuations(cur)
            ));
        }
        Ok(())
    }
}

/// A segment in wire JSON, for messages.
pub(crate) fn segment_json(s: &Segment) -> String {
    match s {
        Segment::Edge(e) => serde_json::json!({ "edge": e }).to_string(),
        Segment::Join { join, of } => serde_json::json!({ "join": join, "of": of }).to_string(),
    }
}

/// A `branchId` in wire JSON, for messages.
pub(crate) fn branch_json(b: &BranchId) -> String {
    crate::wire::convert::branch_json(b).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::*;

    fn diamond() -> crate::model::Content {
        plan(
            vec![
                entry("s"),
                step("a"),
                step("b"),
                step("c"),
                join("j"),
                step("z"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
                edge("e3", "a", "c", "always"),
                edge("e4", "b", "j", "always"),
                edge("e5", "c", "j", "always"),
                edge("e6", "s", "z", "always"),
            ],
        )
    }

    #[test]
    fn reachability_is_exact() {
        let p = diamond();
        let g = Graph::new(&p);
        let i = |id: &str| g.index_of(id).unwrap();
        let qs = vec![
            (i("s"), i("j")),
            (i("b"), i("j")),
            (i("b"), i("c")),
            (i("j"), i("a")),
            (i("z"), i("j")),
            (i("a"), i("a")),
        ];
        assert_eq!(
            reaches_many(&g, &qs),
            vec![true, true, false, false, false, false]
        );
    }

    /// Whether `a` reaches `b` by a walk over every edge (the reference).
    fn reaches_by_walk(g: &Graph, a: usize, b: usize) -> bool {
        let mut seen = vec![false; g.len()];
        let mut stack: Vec<usize> = g.succs(a).collect();
        while let Some(v) = stack.pop() {
            if v == b {
                return true;
            }
            if !std::mem::replace(&mut seen[v], true) {
                stack.extend(g.succs(v));
            }
        }
        false
    }

    proptest::proptest! {
        /// On random DAGs (edges only from a lower to a higher number, one
        /// entry or two), a few queries (no second order) and many
        /// (more than 64 sources, the second order made) answer what a
        /// walk over every edge answers.
        #[test]
        fn batched_reachability_is_a_walk(
            n in 2usize..300,
            raw in proptest::collection::vec((0usize..300, 0usize..300), 0..1200),
            asks in proptest::collection::vec((0usize..300, 0usize..300), 1..600),
            entries in 1usize..3,
        ) {
            // Two entries: not routable, no dominator answers (more walks).
            let nodes = (0..n)
                .map(|i| match i < entries {
                    true => entry(&format!("n{i}")),
                    false => step(&format!("n{i}")),
                })
                .collect();
            let edges = raw
                .iter()
                .map(|&(a, b)| (a % n, b % n))
                .filter(|(a, b)| a < b)
                .enumerate()
                .map(|(k, (a, b))| edge(&format!("e{k}"), &format!("n{a}"), &format!("n{b}"), "always"))
                .collect();
            let p = plan(nodes, edges);
            let g = Graph::new(&p);
            let qs: Vec<(usize, usize)> = asks.iter().map(|&(a, b)| (a % n, b % n)).collect();
            let want: Vec<bool> = qs.iter().map(|&(a, b)| reaches_by_walk(&g, a, b)).collect();
            proptest::prop_assert_eq!(reaches_many(&g, &qs[..qs.len().min(5)]), want[..qs.len().min(5)].to_vec());
            proptest::prop_assert_eq!(reaches_many(&g, &qs), want);
        }
    }

    /// Per node, by brute force: the reachable proper ancestors' last
    /// positions among the joins and among the meets, plus one.
    fn nearest_by_walks(g: &Graph) -> Vec<[u32; 2]> {
        let reach = g.reachable();
        let pos = g.topo_pos();
        (0..g.len())
            .map(|v| {
                let mut best = [0u32; 2];
                let mut seen = vec![false; g.len()];
                let mut stack: Vec<usize> = g.preds(v).collect();
                while let Some(u) = stack.pop() {
                    if std::mem::replace(&mut seen[u], true) {
                        continue;
                    }
                    stack.extend(g.preds(u));
                    let at = u32::try_from(pos[u] + 1).unwrap();
                    match (reach[u], g.joins[u], g.inc[u].len() > 1) {
                        (true, true, _) => best[0] = best[0].max(at),
                        (true, false, true) => best[1] = best[1].max(at),
                        _ => {}
                    }
                }
                best
            })
            .collect()
    }

    proptest::proptest! {
        /// On random graphs (joins, meets, repeated edges, nodes no entry
        /// reaches, one entry or two, and cycles when edges may go back),
        /// the nearest joins and meets the sort makes on the way and those
        /// of the pass of their own are what walks over every ancestor
        /// find; none from the sort of a cyclic graph.
        #[test]
        fn the_sorts_nearest_joins_are_the_walks(
            kinds in proptest::collection::vec(0u8..4, 2..60),
            raw in proptest::collection::vec((0usize..60, 0usize..60), 0..150),
            back in proptest::bool::ANY,
        ) {
            let n = kinds.len();
            let nodes = kinds
                .iter()
                .enumerate()
                .map(|(i, k)| match (i, k) {
                    (0, _) | (_, 3) if i < 2 => entry(&format!("n{i}")),
                    (_, 0) => join(&format!("n{i}")),
                    _ => step(&format!("n{i}")),
                })
                .collect();
            let edges = raw
                .iter()
                .map(|&(a, b)| (a % n, b % n))
                .filter(|(a, b)| a < b || (back && a > b))
                .enumerate()
                .map(|(k, (a, b))| edge(&format!("e{k}"), &format!("n{a}"), &format!("n{b}"), "always"))
                .collect();
            let p = plan(nodes, edges);
            let (core, made) = crate::check::graph::Core::made(&p);
            let g = Graph::kept(&p, &core);
            proptest::prop_assert_eq!(made.is_some(), core.topo.is_some());
            if let Some(made) = made {
                let want = nearest_by_walks(&g);
                proptest::prop_assert_eq!(made.pairs(), want.clone());
                proptest::prop_assert_eq!(nearest_joins_and_meets(&g), want);
            }
        }
    }

    #[test]
    fn joins_collapse_executions_and_routes() {
        let p = diamond();
        let g = Graph::new(&p);
        let j = g.index_of("j").unwrap();
        assert_eq!(g.executions()[j], 1);
        let routes = routes_to(&g, j, 4).unwrap();
        assert_eq!(routes.len(), 1);
        assert_eq!(
            branch_json(&routes[0]),
            r#"{"segments":[{"edge":"e1"},{"join":"j","of":["e4","e5"]}]}"#
        );
        let w = RouteWalker::new(&g);
        assert!(w.check(j, &routes[0]).is_ok());
        let bad = BranchId {
            segments: vec![Segment::Edge("e1".into()), Segment::Edge("e2".into())],
        };
        assert!(w.check(j, &bad).unwrap_err().contains("ends at `b`"));
    }
}
