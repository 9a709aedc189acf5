//! Complexity: O(n + e + refs · (declared fields of the refs' targets)): a
//! worklist fixpoint seeded in topological order ([`KeptTaint::of`]). In a
//! warm session, a change that only adds loose nodes costs their own
//! references ([`KeptTaint::follow`]); any other change (an added edge)
//! keeps the taint when one pass over the nodes and references shows it is
//! still the fixpoint ([`KeptTaint::still`]).

use crate::check::Cx;
use crate::check::kept_lazy::Gone;
use crate::check::support::{place, ref_text};
use crate::model::Issue;
use crate::model::NodeKind;
use crate::model::hash::FastMap as HashMap;
use crate::model::remedy::{Fill, Remedy};
use std::collections::VecDeque;

/// How much of a node's output derives from the run input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Taint {
    Clean,
    /// A declassifying call that read tainted data: its outputs listed in
    /// `declassifies` are clean, the rest stay tainted.
    Partial,
    Whole,
}

/// `path` equals `name` or lies below it.
fn under(path: &str, name: &str) -> bool {
    path == name
        || path
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('.'))
}

/// Whether a read of `path` (`None` = the whole output) from a partly
/// tainted call with these declassified names and declared outputs reads
/// tainted data.
fn partial_reads_taint(path: Option<&str>, declassified: &[&str], outputs: &[String]) -> bool {
    let clean = |p: &str| declassified.iter().any(|n| under(p, n));
    match path {
        None => outputs.is_empty() || !outputs.iter().all(|d| clean(d)),
        Some(p) => {
            if clean(p) {
                return false;
            }
            // A parent of declared fields is clean when all of them are.
            let below: Vec<&String> = outputs.iter().filter(|d| under(d, p)).collect();
            below.is_empty() || !below.iter().all(|d| clean(d))
        }
    }
}

/// Every node's taint, and the first tainted node each tainted node read
/// from (for messages): made by a fixpoint over every data reference, and
/// kept between incremental runs, where nodes added loose (see
/// [`crate::check::Scope::Graph`]) only add their own values.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct KeptTaint {
    taint: Vec<Taint>,
    via: Vec<Option<usize>>,
}

/// Whether a call declassifies anything (other kinds never do).
fn declassifying(n: &crate::model::Node) -> bool {
    n.kind == NodeKind::Call && !n.declassifies().is_empty()
}

impl KeptTaint {
    /// Room for the nodes a warm session adds next (see
    /// [`crate::check::kept_adj::room`]).
    pub(crate) fn make_room(&mut self) {
        crate::check::kept_adj::room(&mut self.taint);
        crate::check::kept_adj::room(&mut self.via);
    }

    /// The taint of every node of `cx`'s plan (which has a topological
    /// order): a worklist fixpoint seeded in topological order. Each node's
    /// taint can only grow to what its kind produces, so every node is
    /// revisited at most twice, each time re-reading only its own
    /// references.
    fn of(cx: &Cx) -> KeptTaint {
        let g = &cx.graph;
        let refs = cx.data_refs();
        let n = g.len();
        // Per node: its references (indices into `refs`), and who reads it.
        let mut reads: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut readers: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, d) in refs.iter().enumerate() {
            reads[d.node].push(k);
            readers[d.target].push(d.node);
        }
        // A call's `declassifies`, read when first needed: only for a
        // node that reads taint or is read partially tainted (a stored
        // plan's definitions are built when read, see `model::def`).
        let declassified: Vec<std::cell::OnceCell<Vec<&str>>> =
            (0..n).map(|_| std::cell::OnceCell::new()).collect();
        let declassifies = |v: usize| -> &[&str] {
            declassified[v].get_or_init(|| {
                let nd = g.node(v);
                match nd.kind {
                    NodeKind::Call => nd.declassifies(),
                    _ => Vec::new(),
                }
            })
        };
        let mut outputs: HashMap<usize, Vec<String>> = HashMap::default();
        let mut taint = vec![Taint::Clean; n];
        let mut via: Vec<Option<usize>> = vec![None; n];
        for &e in &g.entries {
            taint[e] = Taint::Whole;
        }
        let mut queue: VecDeque<usize> = g.topo.iter().flatten().copied().collect();
        let mut queued = vec![true; n];
        while let Some(v) = queue.pop_front() {
            queued[v] = false;
            let node = g.node(v);
            if matches!(
                node.kind,
                NodeKind::Entry | NodeKind::Branch | NodeKind::Select | NodeKind::Join
            ) {
                continue;
            }
            // What the node produces is asked only when it reads taint
            // (the same result as asking first: a node that reads none is
            // left as it is either way).
            let mut source = None;
            for &k in &reads[v] {
                let d = &refs[k];
                let t = d.target;
                let tainted = match taint[t] {
                    Taint::Clean => false,
                    Taint::Whole => true,
                    Taint::Partial => {
                        let outs = outputs
                            .entry(t)
                            .or_insert_with(|| g.node(t).declared_paths());
                        partial_reads_taint(d.r.path.as_deref(), declassifies(t), outs)
                    }
                };
                if tainted {
                    source = Some(t);
                    break;
                }
            }
            let Some(source) = source else { continue };
            let produces = match node.kind {
                NodeKind::Call if !declassifies(v).is_empty() => Taint::Partial,
                _ => Taint::Whole,
            };
            if taint[v] >= produces {
                continue;
            }
            taint[v] = produces;
            via[v] = Some(source);
            for &r in &readers[v] {
                if !queued[r] {
                    queued[r] = true;
                    queue.push_back(r);
                }
            }
        }
        KeptTaint { taint, via }
    }

    /// The taint of the nodes but those at the positions `gone`, the
    /// later ones moved up (after a removal; `still`
    /// then proves it or not): `None` when a node's taint came from one
    /// that went (it cannot hold).
    pub(crate) fn without(self, gone: &Gone) -> Option<KeptTaint> {
        let via = gone.keep(self.via);
        if via.iter().flatten().any(|&s| gone.has(s)) {
            return None;
        }
        Some(KeptTaint {
            taint: gone.keep(self.taint),
            via: via.into_iter().map(|v| v.map(|s| gone.up(s))).collect(),
        })
    }

    /// The kept taint, as it is, when it is provably what [`KeptTaint::of`]
    /// makes of `cx`'s plan (after an added edge, say, which changes no
    /// data reference but the topological order): `None` otherwise.
    ///
    /// Why it is: when every data reference reads a node before its reader
    /// in the topological order, the fixpoint of [`KeptTaint::of`] is one
    /// pass in that order (no node is queued twice: a node's taint changes
    /// only while it is processed, and its readers come later and are
    /// still queued), so each node's taint and source are made from the
    /// final taint of the nodes it reads: the entries are tainted whole;
    /// branches, selects and joins are clean; any other node has the taint
    /// its kind produces, with the first node (in its references' order)
    /// whose taint its reference reads as its source, when there is one,
    /// and is clean otherwise. Those equations have one solution (the
    /// references do not go round), whatever the order: so a kept taint
    /// that satisfies every node's equation here is the fresh fixpoint's.
    /// One pass over the nodes and the references' ends, without
    /// allocating a list per node as the fixpoint does, reading only the
    /// references to a partly tainted node (with the kept facts, the
    /// others' ends are known without reading them).
    ///
    /// Nodes added since (from the kept length on) are solved in the same
    /// pass, in node order, when each reads only nodes before it: an old
    /// node that reads a new one, or a new one that reads itself or a
    /// later one, makes it `None`. Every equation then holds at the end
    /// (an old node's targets keep their values; a new node's are final
    /// when it is solved), so the result is the fixpoint's all the same
    /// (a `connect` after an `add-node` in one tail made it again).
    fn still(mut self, cx: &Cx) -> Option<KeptTaint> {
        let g = &cx.graph;
        let n = g.len();
        let n0 = self.taint.len();
        if n0 > n || self.via.len() != n0 || g.topo.is_none() {
            return None;
        }
        self.taint.resize(n, Taint::Clean);
        self.via.resize(n, None);
        let pos = g.topo_pos();
        // Every reference's ends; only those to a partly tainted node are
        // read (their path decides), in the same order.
        let ends = cx.data_ref_ends();
        let partial = cx.all_data_refs_where(|_, _, t| self.taint[t] == Taint::Partial);
        let mut partial = partial.iter();
        let mut k = 0;
        for v in 0..n {
            let first = k;
            while k < ends.len() && ends[k].0 == v {
                k += 1;
            }
            let reads = &ends[first..k];
            if reads
                .iter()
                .any(|&(_, t)| pos[t] >= pos[v] || (t >= n0 && (v < n0 || t >= v)))
            {
                return None;
            }
            // The first node whose taint a reference reads.
            let mut source = None;
            for &(_, t) in reads {
                let tainted = match self.taint[t] {
                    Taint::Clean => false,
                    Taint::Whole => true,
                    Taint::Partial => {
                        let d = partial.next().filter(|d| (d.node, d.target) == (v, t))?;
                        let t = g.node(t);
                        partial_reads_taint(
                            d.r.path.as_deref(),
                            &t.declassifies(),
                            &t.declared_paths(),
                        )
                    }
                };
                if tainted && source.is_none() {
                    source = Some(t);
                }
            }
            let node = g.node(v);
            let (want, source) = match node.kind {
                NodeKind::Entry => (Taint::Whole, None),
                NodeKind::Branch | NodeKind::Select | NodeKind::Join => (Taint::Clean, None),
                _ => match source {
                    // What its kind produces (asked only of a tainted one).
                    Some(t) if declassifying(node) => (Taint::Partial, Some(t)),
                    Some(t) => (Taint::Whole, Some(t)),
                    None => (Taint::Clean, None),
                },
            };
            if v >= n0 {
                self.taint[v] = want;
                self.via[v] = source;
            } else if self.taint[v] != want || self.via[v] != source {
                return None;
            }
        }
        // References not in node order (no reader makes them so) are not
        // all seen above: then not trusted.
        (k == ends.len() && partial.next().is_none()).then_some(self)
    }

    /// The taint after the loose nodes `new` (every node from the old
    /// count on) were added: each new node's from the nodes it reads, when
    /// a fresh fixpoint could not have found it otherwise — it reads only
    /// old nodes (nobody reads it: it is loose) and at most one tainted
    /// one, so the first tainted node it read is that one whatever the
    /// order. `None` otherwise (then it is made again).
    fn follow(mut self, cx: &Cx, new: &[usize]) -> Option<KeptTaint> {
        let g = &cx.graph;
        let n0 = self.taint.len();
        if new.len() != g.len().checked_sub(n0)? || new.iter().any(|&v| v < n0) {
            return None;
        }
        self.taint.resize(g.len(), Taint::Clean);
        self.via.resize(g.len(), None);
        for &v in new {
            let node = g.node(v);
            let produces = match node.kind {
                NodeKind::Entry | NodeKind::Branch | NodeKind::Select | NodeKind::Join => continue,
                NodeKind::Call if declassifying(node) => Taint::Partial,
                _ => Taint::Whole,
            };
            let mut source = None;
            for d in crate::check::support::data_refs_of(g, v) {
                if d.target >= n0 {
                    return None;
                }
                let t = d.target;
                let tainted = match self.taint[t] {
                    Taint::Clean => false,
                    Taint::Whole => true,
                    Taint::Partial => partial_reads_taint(
                        d.r.path.as_deref(),
                        &g.node(t).declassifies(),
                        &g.node(t).declared_paths(),
                    ),
                };
                match source {
                    _ if !tainted => {}
                    None => source = Some(t),
                    Some(s) if s != t => return None,
                    Some(_) => {}
                }
            }
            if let Some(s) = source {
                self.taint[v] = produces;
                self.via[v] = Some(s);
            }
        }
        Some(self)
    }
}

/// In an incremental run, brings the kept taint in `cell` up to this run:
/// followed to the new loose nodes when it can be, kept as it is when it
/// is provably still the fixpoint (after an added edge: see
/// [`KeptTaint::still`]), else made again (debug builds compare it with a
/// fresh fixpoint, unless the kept facts it reads turn out damaged).
fn keep(cx: &Cx, cell: &std::cell::RefCell<Option<KeptTaint>>) {
    let new = cx.scope_many.borrow().clone();
    let mut kept = cell.borrow_mut();
    let followed = match (kept.take(), new) {
        (Some(k), Some(new)) => k.follow(cx, &new),
        (Some(k), None) => k.still(cx),
        _ => None,
    };
    let taint = followed.unwrap_or_else(|| KeptTaint::of(cx));
    if cfg!(debug_assertions) {
        // Damaged kept facts found by the fresh fixpoint (which reads every
        // node's) put this run aside (`incremental::run`), and so does a
        // definition found damaged where the store keeps it (the command
        // then answers from the log's fold): no comparison.
        let fresh = KeptTaint::of(cx);
        let damaged = cx.kept_nodes.is_some_and(|k| k.damaged()) || cx.definitions_damaged();
        assert!(
            damaged || taint == fresh,
            "the kept taint equals a fresh fixpoint"
        );
    }
    *kept = Some(taint);
}

declare_check! {
    /// ## What it finds
    /// A reference in a call's `args` that reads data derived from the run
    /// input, in a call that does not declassify anything. One issue per
    /// such reference.
    ///
    /// Taint is followed field by field through every data reference (call
    /// args, reason prompts, transform sources), to a fixpoint:
    /// - the entry's output (the run input) is tainted;
    /// - a node that reads tainted data produces tainted output;
    /// - a call with a non-empty `declassifies` may read tainted data; its
    ///   outputs named in `declassifies` (and fields below them) are clean,
    ///   its other outputs stay tainted;
    /// - a reason node may read tainted data in its prompt, but its output
    ///   stays tainted: a model cannot vouch for what it was shown;
    /// - branch, select and join nodes produce no tainted data.
    ///
    /// ## Why it matters
    /// Run input is untrusted: whoever starts the run controls it. Passing it
    /// straight into a tool's arguments lets that person steer the tool (a
    /// path, a query, a recipient) — the classic injection. Only a step that
    /// validates the data and says so may let it through.
    ///
    /// ## How to fix
    /// Route the value through a call that checks it and lists the checked
    /// output fields in its `declassifies`, then reference that call's
    /// output; or use the value only in a reason prompt. Calls that echo
    /// input (without `declassifies`) do not clean it.
    ///
    /// ## Example
    /// ```json
    /// {"id": "fetch", "kind": "call", "definition": {"tool": "tickets_get",
    ///   "args": {"id": {"$ref": {"node": "start", "select": "first", "path": "ticket_id"}}}, "…": "…"}}
    /// ```
    /// Fixed: add `"declassifies": ["id", "status", "body"]` to `fetch` once
    /// the tool validates the id, or look the id up through a checking call
    /// first.
    pub TaintedCallArg { code: "tainted_call_arg", severity: Blocking, needs: ROUTES, source: Check, scope: Data }
    fn run(cx, out) {
        let g = &cx.graph;
        if g.topo.is_none() {
            return;
        }
        let kept = cx.kept_taint.and_then(|cell| {
            keep(cx, cell);
            std::cell::Ref::filter_map(cell.borrow(), Option::as_ref).ok()
        });
        let fresh;
        let taint: &KeptTaint = match &kept {
            Some(k) => k,
            None => {
                fresh = KeptTaint::of(cx);
                &fresh
            }
        };
        let (taint, via) = (&taint.taint, &taint.via);
        let mut outputs: HashMap<usize, Vec<String>> = HashMap::default();
        // A call's references to what carries taint: the others are not read.
        let refs = cx.data_refs_where(|reader, _, target| {
            g.node(reader).kind == NodeKind::Call && taint[target] != Taint::Clean
        });
        for d in refs.iter() {
            let reader = g.node(d.node);
            let t = d.target;
            // Whether the reader declassifies is asked only of a reader of
            // taint (a definition is built when read, see `model::def`).
            let tainted = match taint[t] {
                Taint::Clean => false,
                Taint::Whole => true,
                Taint::Partial => {
                    let outs = outputs.entry(t).or_insert_with(|| g.node(t).declared_paths());
                    partial_reads_taint(d.r.path.as_deref(), &g.node(t).declassifies(), outs)
                }
            };
            if !tainted || !reader.declassifies().is_empty() {
                continue;
            }
            // The route the taint took, from the run input to this reference.
            let mut chain = vec![g.node(t).id.as_str()];
            let mut cur = t;
            while let Some(prev) = via[cur] {
                if chain.len() >= 8 || chain.contains(&g.node(prev).id.as_str()) {
                    chain.push("…");
                    break;
                }
                chain.push(g.node(prev).id.as_str());
                cur = prev;
            }
            chain.reverse();
            let origin = if chain.len() == 1 {
                "it is the run input".to_string()
            } else {
                format!("it derives from the run input along {}", chain.join(" → "))
            };
            let partial = if taint[t] == Taint::Partial {
                format!(" (`{}` declassifies only {})", g.node(t).id, g.node(t).declassifies().iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", "))
            } else {
                String::new()
            };
            out.push(
                Issue::new(CODE,
                    format!(
                        "call `{}` passes {} at {} to its tool, but that data is untrusted: {origin}{partial}, and nothing has declassified it. Tool arguments may not carry run-input data (a reason prompt may)",
                        reader.id,
                        ref_text(d.r),
                        place(&d.pointer)
                    ),
                )
                .node(reader.id.clone())
                .at(d.pointer.clone())
                .fix(Remedy::SetField {
                    node: reader.id.to_string(),
                    path: crate::model::value::dot_path(&d.pointer),
                    value: Fill::choose("a reference to the output of a call that checks the value and lists it in `declassifies`"),
                })
                .fix(
                    Remedy::SetField {
                        node: reader.id.to_string(),
                        path: "declassifies".into(),
                        value: Fill::choose("the output fields its tool validates"),
                    }
                    .when("if its tool validates this input"),
                ),
            );
        }
    }
}

// The kept state on disk (see `super::kept_disk`).
super::kept_disk::persist_fields!(KeptTaint {
    taint,
    via as super::kept_disk::Opts
});

impl super::kept_disk::Persist for Taint {
    fn put(&self, out: &mut super::kept_disk::Out) {
        let tag: usize = match self {
            Taint::Clean => 0,
            Taint::Partial => 1,
            Taint::Whole => 2,
        };
        super::kept_disk::Persist::put(&tag, out);
    }
    fn get(inp: &mut super::kept_disk::In<'_>) -> Option<Taint> {
        match <usize as super::kept_disk::Persist>::get(inp)? {
            0 => Some(Taint::Clean),
            1 => Some(Taint::Partial),
            2 => Some(Taint::Whole),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::TaintedCallArg;
    use crate::check::testing::*;
    use crate::model::remedy::{Fill, Remedy};
    use crate::model::{NodeKind, Value};
    use serde_json::json;

    fn declassifying(
        id: &str,
        args: serde_json::Value,
        out: &[&str],
        d: &[&str],
    ) -> crate::model::Node {
        let mut n = call_with(id, "t", args, out);
        n.definition.insert(
            "declassifies".into(),
            Value::Array(d.iter().map(|s| Value::from(*s)).collect()),
        );
        n
    }

    fn chain(nodes: Vec<crate::model::Node>) -> crate::model::Content {
        let ids: Vec<String> = nodes.iter().map(|n| n.id.to_string()).collect();
        let edges = ids
            .windows(2)
            .enumerate()
            .map(|(k, w)| edge(&format!("e{k}"), &w[0], &w[1], "always"))
            .collect();
        plan(nodes, edges)
    }

    #[test]
    fn fires_on_input_in_args_and_through_echoes_and_reasons() {
        let p = chain(vec![
            entry("start"),
            call_with("direct", "t", json!({"q": r("start", Some("q"))}), &["out"]),
            call_with("echo2", "t", json!({"x": r("direct", Some("out"))}), &[]),
            node(
                "think",
                NodeKind::Reason,
                json!({"prompt": [{"text": "hi"}, r("start", None)], "maxAttempts": 1,
                "outputSchema": {"type": "object", "properties": {"answer": {}}}}),
            ),
            call_with(
                "after_reason",
                "t",
                json!({"a": r("think", Some("answer"))}),
                &[],
            ),
        ]);
        let issues = run_one(&TaintedCallArg, &p);
        let who: Vec<_> = issues
            .iter()
            .map(|i| i.node_id.as_deref().unwrap())
            .collect();
        assert_eq!(who, vec!["direct", "echo2", "after_reason"]);
        assert!(
            issues[1].message.contains("start → direct"),
            "{}",
            issues[1].message
        );
        assert_eq!(
            issues[0].fixes[1].remedy,
            Remedy::SetField {
                node: "direct".into(),
                path: "declassifies".into(),
                value: Fill::choose("the output fields its tool validates"),
            }
        );
    }

    #[test]
    fn a_sanitiser_clears_only_what_it_declassifies() {
        let p = chain(vec![
            entry("start"),
            declassifying(
                "clean",
                json!({"q": r("start", Some("q"))}),
                &["safe", "unsafe"],
                &["safe"],
            ),
            call_with(
                "ok",
                "t",
                json!({"a": r("clean", Some("safe")), "b": r("clean", Some("safe.sub"))}),
                &[],
            ),
            call_with("bad", "t", json!({"a": r("clean", Some("unsafe"))}), &[]),
            call_with("whole", "t", json!({"a": r("clean", None)}), &[]),
        ]);
        let issues = run_one(&TaintedCallArg, &p);
        let who: Vec<_> = issues
            .iter()
            .map(|i| i.node_id.as_deref().unwrap())
            .collect();
        assert_eq!(who, vec!["bad", "whole"]);
        assert!(issues[0].message.contains("declassifies only `safe`"));
    }

    #[test]
    fn passes_input_in_prompts_and_clean_calls() {
        let p = chain(vec![
            entry("start"),
            declassifying(
                "clean",
                json!({"q": r("start", Some("q"))}),
                &["id"],
                &["id"],
            ),
            node(
                "think",
                NodeKind::Reason,
                json!({"prompt": [r("start", Some("q"))], "maxAttempts": 1,
                "outputSchema": {"type": "object", "properties": {"answer": {}}}}),
            ),
            call_with(
                "use",
                "t",
                json!({"a": r("clean", Some("id")), "b": "literal"}),
                &[],
            ),
        ]);
        assert!(run_one(&TaintedCallArg, &p).is_empty());
    }

    /// The kept taint follows nodes added loose that read one tainted node
    /// (or none) and equals a fresh fixpoint then; a node reading two
    /// tainted nodes, or a new one, is left to a fresh fixpoint.
    #[test]
    fn the_kept_taint_follows_loose_nodes_that_read_one_tainted_node() {
        use super::KeptTaint;
        use crate::check::Cx;
        let mut c = chain(vec![
            entry("start"),
            call_with("echo", "t", json!({"q": r("start", Some("q"))}), &["out"]),
        ]);
        let kept = KeptTaint::of(&Cx::new(&c, None));
        let adds = [
            call_with(
                "x",
                "t",
                json!({"a": r("echo", Some("out")), "b": r("echo", None)}),
                &[],
            ),
            call_with("y", "t", json!({"a": r("nowhere", None)}), &[]),
        ];
        c.nodes.extend(adds.iter().cloned());
        let cx = Cx::new(&c, None);
        let followed = kept.follow(&cx, &[2, 3]).expect("one tainted node read");
        assert_eq!(followed, KeptTaint::of(&cx));
        assert_eq!(followed.via[2], Some(1));

        for (extra, why) in [
            (
                call_with(
                    "z",
                    "t",
                    json!({"a": r("echo", None), "b": r("start", None)}),
                    &[],
                ),
                "two tainted nodes: the first one found depends on the order",
            ),
            (
                call_with("z", "t", json!({"a": r("x", None)}), &[]),
                "a node added with it",
            ),
        ] {
            let mut base = c.clone();
            base.nodes.truncate(2);
            let kept = KeptTaint::of(&Cx::new(&base, None));
            let mut c2 = base;
            c2.nodes.push(adds[0].clone());
            c2.nodes.push(extra);
            assert!(kept.follow(&Cx::new(&c2, None), &[2, 3]).is_none(), "{why}");
        }
    }

    /// After an added edge, the kept taint is kept when it is still the
    /// fixpoint (every reference upstream, every node's taint and source
    /// what it reads makes them), and equals a fresh one then; a taint
    /// that a changed reference makes wrong, or a reference that reads a
    /// node after its reader, is left to a fresh fixpoint.
    #[test]
    fn the_kept_taint_stays_after_an_edge_when_it_is_still_the_fixpoint() {
        use super::KeptTaint;
        use crate::check::Cx;
        let nodes = |last: serde_json::Value| {
            vec![
                entry("start"),
                call_with("echo", "t", json!({"q": r("start", Some("q"))}), &["out"]),
                declassifying(
                    "vet",
                    json!({"v": r("echo", None)}),
                    &["ok", "raw"],
                    &["ok"],
                ),
                call_with("use", "t", last, &[]),
                join("j"),
            ]
        };
        let edges = || {
            vec![
                edge("e1", "start", "echo", "always"),
                edge("e2", "echo", "vet", "always"),
                edge("e3", "vet", "use", "always"),
            ]
        };
        let reads_ok = json!({"a": r("vet", Some("ok")), "b": r("echo", None)});
        let before = plan(nodes(reads_ok.clone()), edges());
        let kept = KeptTaint::of(&Cx::new(&before, None));
        assert_eq!(kept.via[3], Some(1), "`use` reads `echo` tainted");
        // The loose join connected: the order changes, the taint does not.
        let mut after = plan(nodes(reads_ok), edges());
        after.edges.push(edge("e4", "j", "use", "always"));
        let cx = Cx::new(&after, None);
        let still = kept.still(&cx).expect("still the fixpoint");
        assert_eq!(still, KeptTaint::of(&cx));
        // A reference changed with it (`use` now reads only the clean
        // output): the kept taint no longer fits.
        let mut changed = plan(nodes(json!({"a": r("vet", Some("ok"))})), edges());
        changed.edges.push(edge("e4", "j", "use", "always"));
        let cx = Cx::new(&changed, None);
        assert_ne!(still, KeptTaint::of(&cx));
        assert!(still.still(&cx).is_none(), "a changed reference");
        // A reference that reads a node after its reader: the fixpoint's
        // sources may then depend on the order, so it is made again.
        let mut back = plan(nodes(json!({"a": r("vet", Some("ok"))})), edges());
        back.nodes[1] = call_with(
            "echo",
            "t",
            json!({"q": r("start", Some("q")), "w": r("use", None)}),
            &["out"],
        );
        let kept = KeptTaint::of(&Cx::new(&back, None));
        back.edges.push(edge("e4", "j", "use", "always"));
        assert!(
            kept.still(&Cx::new(&back, None)).is_none(),
            "read downstream"
        );
    }

    /// After a removal the kept taint moves up with the nodes and is
    /// still the fixpoint when nothing read the removed node; a node whose
    /// taint came from the removed one makes it go.
    #[test]
    fn the_kept_taint_moves_up_over_a_removal() {
        use super::KeptTaint;
        use crate::check::Cx;
        let nodes = vec![
            entry("start"),
            join("loose"),
            call_with("echo", "t", json!({"q": r("start", Some("q"))}), &["out"]),
            call_with("use", "t", json!({"b": r("echo", None)}), &[]),
        ];
        let edges = vec![
            edge("e1", "start", "echo", "always"),
            edge("e2", "echo", "use", "always"),
        ];
        let before = plan(nodes.clone(), edges.clone());
        let kept = KeptTaint::of(&Cx::new(&before, None));
        assert_eq!(kept.via[3], Some(2), "`use` reads `echo` tainted");
        let mut after = plan(nodes, edges);
        after.nodes.remove(1);
        let cx = Cx::new(&after, None);
        let again = KeptTaint::of(&Cx::new(&before, None));
        let gone = |at: usize| crate::check::kept_lazy::Gone::new(vec![at]);
        let moved = kept.without(&gone(1)).expect("nothing read `loose`");
        assert_eq!(moved.via[2], Some(1), "moved up with `echo`");
        assert_eq!(moved.still(&cx), Some(KeptTaint::of(&cx)));
        assert!(
            again.without(&gone(2)).is_none(),
            "`use`'s taint came from `echo`"
        );
    }
}
