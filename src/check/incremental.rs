//! Incremental checks (issue 17): after a change, only what it can affect
//! is checked again, and the findings equal a full [`run`](super::run).
//!
//! A [`Scope::Node`] check's findings are kept per node: after a change,
//! the nodes it touched ([`Touched`]) and their neighbours over an edge are
//! checked again and every other node keeps its findings; a
//! [`Scope::Refs`] check also re-checks the nodes naming a touched id, and a
//! [`Scope::Downstream`] check also every node downstream of a touched one
//! (its ancestors may have changed). Every
//! [`Scope::Plan`] check (the graph analyses: reachability, routes,
//! dominators, taint; ids and sizes across the plan) runs whole on the new
//! content, so plan-wide counts stay exact. The findings are then put in
//! the order a full run gives (check order, then node order) and grouped
//! by cause, as a full run does.

use super::graph::Core;
use super::hints::KeptHints;
use super::kept_adj::Adj;
use super::kept_ids::IdIndex;
use super::kept_lazy::Gone;
use super::kept_nodes::{Before, KeptNodes};
use super::{CHECKS, Check, Cx, Scope, Skips, Source, group};
use crate::model::hash::{FastMap, FastSet};
use crate::model::registry::Registry;
use crate::model::touched::Touched;
use crate::model::{Content, Issue, Report};

/// The findings of the last run, kept to start the next one from.
#[derive(Debug, Default)]
pub struct Kept {
    /// The registry they were made with (its fingerprint), `None` without
    /// one: another registry means a full run.
    registry: Option<Option<String>>,
    /// Per entry of [`CHECKS`]: a node-scoped check's findings by node id,
    /// when they are complete for the content they were made on.
    by_node: Vec<Option<FastMap<String, Vec<Issue>>>>,
    /// Who names whom (for [`Scope::Refs`]).
    refs: Readers,
    /// The hints for the missing ids nodes name (see [`super::hints`]).
    hints: KeptHints,
    /// Each node's data references and size (see [`super::kept_nodes`]).
    nodes: KeptNodes,
    /// The graph's shape (see [`super::kept_graph`]).
    graph: Option<Core>,
    /// The graph analyses of the last run (see [`super::graph::Analyses`]).
    analyses: super::graph::Analyses,
    /// Per entry of [`CHECKS`]: an edge-scoped check's findings by edge
    /// position, when they are complete for the content they were made on.
    by_edge: Vec<Option<std::collections::BTreeMap<usize, Vec<Issue>>>>,
    /// `unreachable_call`'s own reachability walk.
    reach: Option<super::unreachable_call::KeptReach>,
    /// `oversized_phase`'s sums.
    phases: Option<super::oversized_phase::Phases>,
    /// Per entry of [`CHECKS`]: a [`Scope::Graph`] check's findings, when
    /// they are complete for the content they were made on.
    by_plan: Vec<Option<Vec<Issue>>>,
    /// `tainted_call_arg`'s taint.
    taint: Option<super::tainted_call_arg::KeptTaint>,
    /// Read from bytes for one run (a one-shot process's, which writes it
    /// back as bytes or drops it): no room is made in it for what a warm
    /// session adds next, a copy of its largest vectors (≈ 15 M
    /// instructions at 100,000 nodes after a connect).
    once: bool,
}

impl Kept {
    /// Room in the kept vectors and lists for what a warm session adds
    /// next (see [`super::kept_adj::room`]).
    fn make_room(&mut self) {
        if let Some(r) = &mut self.reach {
            r.make_room();
        }
        self.refs.reads.make_room();
        self.refs.read_by.make_room();
        self.analyses.make_room();
        if let Some(t) = &mut self.taint {
            t.make_room();
        }
        if let Some(g) = &mut self.graph {
            g.make_room();
        }
    }

    /// The positions of the edges into and out of node `id` in `content`
    /// (the content of the last run), each in edge order, found through
    /// the kept graph instead of a pass over every edge; `None` when no
    /// graph is kept for that content or an id is repeated.
    pub fn edges_at(&self, content: &Content, id: &str) -> Option<(Vec<usize>, Vec<usize>)> {
        let core = self.graph.as_ref()?;
        if core.repeated
            || core.ends.len() != content.edges.len()
            || core.out.len() != content.nodes.len()
        {
            return None;
        }
        let at = core.idx.get(id);
        let mut inc = at.map(|i| core.inc[i].to_vec()).unwrap_or_default();
        let mut out = at.map(|i| core.out[i].to_vec()).unwrap_or_default();
        // Edges with an end that is not there are at no node's lists.
        for &k in &core.dangling {
            let e = &content.edges[k];
            if e.to == id {
                inc.push(k);
            }
            if e.from == id {
                out.push(k);
            }
        }
        for v in [&mut inc, &mut out] {
            v.sort_unstable();
            v.dedup();
        }
        Some((inc, out))
    }
}

// The kept state on disk (see `super::kept_disk`): a one-shot process
// starts from the last one's. Written as parts (`super::kept_parts`), each
// read by whichever thread claims it; `reach` is in the graph's part, whose
// id index and ends it may share (`unreachable_call::put_reach`): the
// thread that reads them copies those (about 1 ms at 100,000 nodes) beside
// the other parts.
impl Kept {
    /// The parts, by their numbers (`PART_ORDER` claims them).
    fn put_parts(&self, out: &mut super::kept_disk::Out) {
        use super::kept_disk::Persist;
        out.part(|o| {
            self.registry.put(o);
            self.by_node.put(o);
            self.hints.put(o);
            self.by_edge.put(o);
            self.by_plan.put(o);
        });
        out.part(|o| self.refs.put(o));
        out.part(|o| self.nodes.put(o));
        out.part(|o| {
            self.graph.put(o);
            super::unreachable_call::put_reach(self.reach.as_ref(), self.graph.as_ref(), o);
        });
        out.part(|o| self.analyses.put(o));
        out.part(|o| self.phases.put(o));
        out.part(|o| self.taint.put(o));
    }
}

/// A part of the kept state as read (see [`Kept::put_parts`]).
pub(crate) enum Part {
    Small(Small),
    Refs(Box<Readers>),
    Nodes(KeptNodes),
    Graph(Box<(Option<Core>, Option<super::unreachable_call::KeptReach>)>),
    Analyses(super::graph::Analyses),
    Phases(Option<super::oversized_phase::Phases>),
    Taint(Option<super::tainted_call_arg::KeptTaint>),
}

/// The kept state's small fields, read as one part.
pub(crate) struct Small {
    registry: Option<Option<String>>,
    by_node: Vec<Option<FastMap<String, Vec<Issue>>>>,
    hints: KeptHints,
    by_edge: Vec<Option<std::collections::BTreeMap<usize, Vec<Issue>>>>,
    by_plan: Vec<Option<Vec<Issue>>>,
}

/// The order the parts are claimed in: the largest first (at 100,000
/// nodes the graph's shape with the unreachable walk, the analyses, the
/// readers, the node facts, the phase sums, the taint, the rest).
const PART_ORDER: &[usize] = &[3, 4, 1, 2, 5, 6, 0];

/// Part `k` of the kept state, read from `inp`.
fn read_part(k: usize, inp: &mut super::kept_disk::In<'_>) -> Option<Part> {
    use super::kept_disk::Persist;
    Some(match k {
        0 => Part::Small(Small {
            registry: Persist::get(inp)?,
            by_node: Persist::get(inp)?,
            hints: Persist::get(inp)?,
            by_edge: Persist::get(inp)?,
            by_plan: Persist::get(inp)?,
        }),
        1 => Part::Refs(Box::new(Persist::get(inp)?)),
        2 => Part::Nodes(Persist::get(inp)?),
        3 => {
            let graph: Option<Core> = Persist::get(inp)?;
            let reach = super::unreachable_call::get_reach(inp, graph.as_ref())?;
            Part::Graph(Box::new((graph, reach)))
        }
        4 => {
            let mut analyses: super::graph::Analyses = Persist::get(inp)?;
            analyses.decode_likely();
            Part::Analyses(analyses)
        }
        5 => Part::Phases(Persist::get(inp)?),
        _ => Part::Taint(Persist::get(inp)?),
    })
}

/// The kept state being read in parts (see `super::kept_parts`).
pub(crate) type Decoding = super::kept_parts::Parts<Part, Kept>;

/// The layout of [`Kept::to_bytes`] (the store also keys the bytes by the
/// binary that wrote them).
const LAYOUT: u64 = 17;

impl Kept {
    /// This state as bytes, for a later process ([`Kept::from_bytes`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        use super::kept_disk::Persist;
        let mut out = super::kept_disk::Out::default();
        LAYOUT.put(&mut out);
        CHECKS.len().put(&mut out);
        self.put_parts(&mut out);
        out.finish()
    }

    /// What [`Kept::to_bytes`] wrote; `None` for anything else (damaged,
    /// cut, another layout or another list of checks).
    pub fn from_bytes(bytes: &[u8]) -> Option<Kept> {
        let shared: super::kept_disk::Shared = std::sync::Arc::new(bytes.to_vec());
        Kept::from_shared(&shared)
    }

    /// [`Kept::from_bytes`] of a shared buffer: the values decoded when
    /// first used keep their bytes where they lie in it.
    pub(crate) fn from_shared(bytes: &super::kept_disk::Shared) -> Option<Kept> {
        Kept::decoding(bytes)?.take()
    }

    /// The parts of the state in `bytes`, to be read by any thread
    /// ([`super::kept_parts::Parts::help`]) and taken by one; `None` when
    /// they are not of this layout and list of checks.
    pub(crate) fn decoding(bytes: &super::kept_disk::Shared) -> Option<Decoding> {
        use super::kept_disk::Persist;
        let head = |inp: &mut super::kept_disk::In<'_>| {
            let ours = u64::get(inp)? == LAYOUT && usize::get(inp)? == CHECKS.len();
            ours.then_some(())
        };
        super::kept_parts::Parts::open(bytes, head, PART_ORDER, read_part, Kept::joined)
    }

    /// The state its parts make; `None` when they do not fit together.
    fn joined(parts: Vec<Part>) -> Option<Kept> {
        let mut parts = parts.into_iter();
        let mut next = || parts.next();
        let (
            Some(Part::Small(small)),
            Some(Part::Refs(refs)),
            Some(Part::Nodes(nodes)),
            Some(Part::Graph(graph_and_reach)),
            Some(Part::Analyses(analyses)),
            Some(Part::Phases(phases)),
            Some(Part::Taint(taint)),
        ) = (next(), next(), next(), next(), next(), next(), next())
        else {
            return None;
        };
        let (graph, reach) = *graph_and_reach;
        let sized = |v: usize| v == 0 || v == CHECKS.len();
        let whole =
            sized(small.by_node.len()) && sized(small.by_edge.len()) && sized(small.by_plan.len());
        whole.then_some(Kept {
            registry: small.registry,
            by_node: small.by_node,
            refs: *refs,
            hints: small.hints,
            nodes,
            graph,
            analyses,
            by_edge: small.by_edge,
            reach,
            phases,
            by_plan: small.by_plan,
            taint,
            once: true,
        })
    }
}

/// The ids each node names (present or not: its references anywhere in
/// its definition and its reference shorthands, [`super::hints::names_of`],
/// which include its data references), and the other way round, kept up to
/// date from what each change touched.
///
/// Ids are numbered once ([`IdIndex`]: every id named or naming, in the
/// order first seen; the numbering only grows until the index is made
/// again) and the two directions are lists of numbers per number, so that
/// the index reads back from disk without a string or a hash table per
/// node (issue 17, session 13).
#[derive(Debug, Default)]
pub(crate) struct Readers {
    /// Whether it describes the content of the last run.
    ready: bool,
    /// Id → its number.
    names: IdIndex,
    /// Per number, as a reader: the numbers of the ids it names, sorted.
    reads: Adj,
    /// Per number, as a named id: the numbers of the nodes naming it,
    /// sorted.
    read_by: Adj,
}

impl Readers {
    /// Brings the index up to `content`: every node again without
    /// `touched` (or when it was not made yet), else only the touched ids,
    /// whose no longer or newly named ids go in the returned set.
    fn update(
        &mut self,
        content: &Content,
        graph: &super::Graph,
        touched: Option<&Touched>,
    ) -> FastSet<String> {
        let mut renamed = FastSet::default();
        match touched.filter(|_| self.ready) {
            Some(t) => {
                for id in &t.nodes {
                    let node = graph.index_of(id).map(|i| &content.nodes[i]);
                    self.set(id, node, &mut renamed);
                }
            }
            None => {
                // Made as owned lists, then flat.
                let mut names = IdIndex::with_capacity(content.nodes.len());
                let mut reads: Vec<Vec<usize>> = Vec::new();
                for (i, n) in content.nodes.iter().enumerate() {
                    if super::support::is_canonical(graph, i) {
                        let me = names.number(&n.id);
                        let mut named: Vec<usize> = super::hints::names_of(n)
                            .iter()
                            .map(|t| names.number(t))
                            .collect();
                        named.sort_unstable();
                        named.dedup();
                        reads.resize(names.len(), Vec::new());
                        reads[me] = named;
                    }
                }
                reads.resize(names.len(), Vec::new());
                let mut read_by = vec![Vec::new(); reads.len()];
                // Readers in increasing number: each list comes sorted.
                for (me, named) in reads.iter().enumerate() {
                    for &t in named {
                        read_by[t].push(me);
                    }
                }
                *self = Readers {
                    ready: true,
                    names,
                    reads: reads.into(),
                    read_by: read_by.into(),
                };
            }
        }
        renamed
    }

    /// The number of `id`, given one when it is new.
    fn number(&mut self, id: &str) -> usize {
        let k = self.names.number(id);
        if k == self.reads.len() {
            self.reads.push(Vec::new());
            self.read_by.push(Vec::new());
        }
        k
    }

    /// The numbers of `ids`, sorted, each once.
    fn numbers(&mut self, ids: &[String]) -> Vec<usize> {
        let mut v: Vec<usize> = ids.iter().map(|t| self.number(t)).collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// `id` now names what `node` names (nothing when it is gone); the ids
    /// it no longer or newly names go in `renamed`.
    fn set(&mut self, id: &str, node: Option<&crate::model::Node>, renamed: &mut FastSet<String>) {
        let named = node.map(super::hints::names_of).unwrap_or_default();
        let me = self.number(id);
        let new = self.numbers(&named);
        let old = std::mem::take(&mut *self.reads.list_mut(me));
        let gone = old.iter().filter(|t| new.binary_search(t).is_err());
        let added = new.iter().filter(|t| old.binary_search(t).is_err());
        renamed.extend(gone.chain(added).map(|&k| self.names.at(k).to_string()));
        for &t in &old {
            if let Ok(p) = self.read_by.list(t).binary_search(me) {
                self.read_by.list_mut(t).remove(p);
            }
        }
        for &t in &new {
            if let Err(p) = self.read_by.list(t).binary_search(me) {
                self.read_by.list_mut(t).insert(p, me);
            }
        }
        *self.reads.list_mut(me) = new;
    }

    /// Whether some node names `id`.
    fn is_named(&self, id: &str) -> bool {
        self.names
            .get(id)
            .is_some_and(|k| !self.read_by.list(k).is_empty())
    }

    /// Every id some node names.
    fn named(&self) -> impl Iterator<Item = &str> + '_ {
        (0..self.names.len())
            .filter(|&k| !self.read_by.list(k).is_empty())
            .map(|k| self.names.at(k))
    }

    /// The nodes that name one of `ids`.
    fn readers_of<'s, S: AsRef<str> + ?Sized + 's>(
        &'s self,
        ids: impl IntoIterator<Item = &'s S> + 's,
    ) -> impl Iterator<Item = &'s str> + 's {
        ids.into_iter()
            .filter_map(|id| self.names.get(id.as_ref()))
            .flat_map(|k| self.read_by.list(k).iter())
            .map(|r| self.names.at(r))
    }
}

/// On disk: the numbering, then both directions ([`Adj`]);
/// a list longer or shorter than the numbering, or a number past it, reads
/// as damaged.
impl super::kept_disk::Persist for Readers {
    fn put(&self, out: &mut super::kept_disk::Out) {
        self.ready.put(out);
        self.names.put(out);
        self.reads.put(out);
        self.read_by.put(out);
    }
    fn get(inp: &mut super::kept_disk::In<'_>) -> Option<Readers> {
        use super::kept_disk::Persist;
        let r = Readers {
            ready: Persist::get(inp)?,
            names: Persist::get(inp)?,
            reads: Persist::get(inp)?,
            read_by: Persist::get(inp)?,
        };
        let n = r.names.len();
        let fits = |v: &Adj| v.len() == n && v.all_below(n);
        (fits(&r.reads) && fits(&r.read_by)).then_some(r)
    }
}

/// Every finding on `content`, after `prior` (the fold's and the store's),
/// as [`super::run_sized`] gives them. With `touched` (what changed since
/// the content `kept` was made on), only the touched nodes and their
/// neighbours are checked again by the node-scoped checks; without it,
/// everything is. `kept` is left holding this run's findings.
///
/// A kept slot whose bytes turn out damaged when read (the kept state is
/// read as used, see [`super::kept_lazy`]) puts this run's answer aside:
/// the checks then run on everything, from nothing kept.
pub fn run(
    kept: &mut Kept,
    content: &Content,
    registry: Option<&Registry>,
    prior: Vec<Issue>,
    touched: Option<&Touched>,
    encoded_len: Option<usize>,
) -> Report {
    let again = touched.is_some().then(|| prior.clone());
    let report = run_once(kept, content, registry, prior, touched, encoded_len);
    match again {
        Some(prior) if kept.nodes.damaged() => {
            *kept = Kept {
                once: kept.once,
                ..Kept::default()
            };
            run_once(kept, content, registry, prior, None, encoded_len)
        }
        _ => report,
    }
}

/// [`run`] with what is kept, whether it reads back or not.
fn run_once(
    kept: &mut Kept,
    content: &Content,
    registry: Option<&Registry>,
    prior: Vec<Issue>,
    touched: Option<&Touched>,
    encoded_len: Option<usize>,
) -> Report {
    let before = before_removal(kept, touched);
    let Shaped {
        core,
        edges_before,
        grew,
        analyses,
        nearest,
    } = shape(kept, content, touched);
    let mut facts = std::mem::take(&mut kept.nodes);
    let n0 = facts.len();
    let graph = super::Graph::kept_with(content, &core, analyses).with_nearest(nearest);
    let mut cx = Cx::with_graph(content, registry, graph);
    if let Some(n) = encoded_len {
        let _ = cx.encoded_len.set(n);
    }
    let fingerprint = Some(registry.map(|r| r.fingerprint.clone()));
    // The facts hold what the registry says of each node: all made again
    // with another one.
    let same_registry = kept.registry == fingerprint;
    let moved = facts.update(
        content,
        &cx.graph,
        registry,
        touched.filter(|_| same_registry),
        before.as_ref(),
    );
    cx.kept_nodes = Some(&facts);
    let reach = reach_for(kept.reach.take(), content, touched);
    cx.kept_reach = Some(&reach);
    let phases = phases_for(kept.phases.take(), &cx, &facts, touched);
    cx.kept_phases = Some(&phases);
    let taint = std::cell::RefCell::new(taint_for(kept.taint.take(), moved.as_ref()));
    cx.kept_taint = Some(&taint);
    if !same_registry || kept.by_node.len() != CHECKS.len() {
        kept.registry = fingerprint;
        kept.by_node = CHECKS.iter().map(|_| None).collect();
        kept.by_edge = CHECKS.iter().map(|_| None).collect();
        kept.by_plan = CHECKS.iter().map(|_| None).collect();
    }
    let dirty = touched.map(|t| dirty_nodes(&cx, t));
    let dirty_edges = match (touched, edges_before) {
        (Some(t), Some(e0)) => Some(dirty_edges(&cx.graph, t, e0)),
        _ => None,
    };
    let renamed = kept.refs.update(content, &cx.graph, touched);
    let refs = &kept.refs;
    // For [`Scope::Graph`]: the new nodes, when the change only added
    // loose ones.
    let loose = match (touched, edges_before) {
        (Some(t), Some(e0)) if e0 == content.edges.len() => loose_nodes(&cx, t, n0, refs),
        _ => None,
    };
    let rehinted = kept.hints.update(
        &cx.graph,
        &|id| refs.is_named(id),
        &mut refs.named(),
        &renamed,
        touched,
    );
    let (dirty_refs, dirty_down) = widened(&cx, refs, touched, dirty.as_deref(), &rehinted, grew);
    let _ = cx.hints.set(kept.hints.lend());
    let mut report = Report {
        issues: prior,
        skipped: Vec::new(),
    };
    let skip = Skips::of(&cx.graph);
    let edges_only = only_edges(touched, cx.graph.len(), n0);
    for (k, check) in CHECKS.iter().enumerate() {
        if check.source() != Source::Check {
            continue;
        }
        if let Some(why) = skip.reason(*check, registry.is_some()) {
            report.skipped.push((check.code().name, why.to_string()));
            kept.by_node[k] = None;
            kept.by_edge[k] = None;
            kept.by_plan[k] = None;
            continue;
        }
        match check.scope() {
            Scope::Plan => check.run(&cx, &mut report.issues),
            // Findings kept by node id cannot tell two nodes with one id
            // apart (a document's; a fold never repeats one): whole.
            Scope::Node | Scope::Refs | Scope::Downstream if cx.graph.repeated => {
                kept.by_node[k] = None;
                check.run(&cx, &mut report.issues);
            }
            Scope::Upstream if loose.is_none() && grew && !cx.graph.repeated => {
                let slot = &mut kept.by_plan[k];
                let found = upstream_findings(&cx, *check, slot.take(), dirty.as_deref());
                report.issues.extend(found.iter().cloned());
                *slot = Some(found);
            }
            Scope::Data => {
                let slot = &mut kept.by_plan[k];
                let found = data_findings(&cx, *check, slot.take(), edges_only, loose.as_deref());
                report.issues.extend(found.iter().cloned());
                *slot = Some(found);
            }
            Scope::Graph | Scope::Upstream => {
                let slot = &mut kept.by_plan[k];
                let found = graph_findings(&cx, *check, slot.take(), loose.as_deref());
                report.issues.extend(found.iter().cloned());
                *slot = Some(found);
            }
            Scope::Edge => {
                let slot = &mut kept.by_edge[k];
                let found = edge_findings(&cx, *check, slot.take(), dirty_edges.as_deref());
                report.issues.extend(found.values().flatten().cloned());
                *slot = Some(found);
            }
            Scope::Downstream => {
                let slot = &mut kept.by_node[k];
                let dirty = dirty_down.as_deref();
                let found = batch_findings(&cx, *check, slot.take(), touched, dirty, grew);
                append_in_node_order(&cx, &found, &mut report.issues);
                *slot = Some(found);
            }
            scope @ (Scope::Node | Scope::Refs) => {
                let dirty = match scope {
                    Scope::Refs => dirty_refs.as_deref(),
                    _ => dirty.as_deref(),
                };
                let slot = &mut kept.by_node[k];
                let found = node_findings(&cx, *check, slot.take(), touched, dirty);
                append_in_node_order(&cx, &found, &mut report.issues);
                *slot = Some(found);
            }
        }
    }
    group::apply(&cx, &mut report.issues);
    kept.analyses = cx.graph.take_analyses();
    drop(cx);
    kept.reach = Some(reach);
    kept.phases = Some(phases);
    kept.taint = taint.into_inner();
    kept.nodes = facts;
    kept.graph = Some(core);
    if !kept.once {
        kept.make_room();
    }
    report
}

/// `unreachable_call`'s kept walk for this run: the kept one brought up
/// to `touched`, else made for `content`.
fn reach_for(
    kept: Option<super::unreachable_call::KeptReach>,
    content: &Content,
    touched: Option<&Touched>,
) -> super::unreachable_call::KeptReach {
    match (kept, touched) {
        (Some(mut r), Some(t)) => {
            r.update(content, t);
            r
        }
        _ => super::unreachable_call::KeptReach::new(content),
    }
}

/// `oversized_phase`'s phase sums for this run: the kept ones brought up
/// to `touched` when they can be, else made from the node facts.
fn phases_for(
    kept: Option<super::oversized_phase::Phases>,
    cx: &Cx,
    facts: &KeptNodes,
    touched: Option<&Touched>,
) -> super::oversized_phase::Phases {
    let size = |i: usize| facts.size(i);
    match (kept, touched) {
        (Some(mut p), Some(t)) if !cx.graph.repeated => {
            match p.update(cx.content, t, |id| cx.graph.index_of(id), size) {
                true => p,
                false => super::oversized_phase::Phases::new(cx.content, size),
            }
        }
        _ => super::oversized_phase::Phases::new(cx.content, size),
    }
}

/// `tainted_call_arg`'s kept taint for this run: after a removal, moved
/// up over the positions the node facts were (`gone`; a taint that came
/// from a removed node is made again by the check).
fn taint_for(
    kept: Option<super::tainted_call_arg::KeptTaint>,
    gone: Option<&Gone>,
) -> Option<super::tainted_call_arg::KeptTaint> {
    match (kept, gone) {
        (Some(t), Some(gone)) => t.without(gone),
        (t, _) => t,
    }
}

/// After a change that removed nodes or edges: where the kept graph had
/// the nodes `touched` names (the kept facts then move the other nodes'
/// up instead of making every node's again).
fn before_removal<'t>(kept: &Kept, touched: Option<&'t Touched>) -> Option<Before<'t>> {
    let t = touched.filter(|t| t.removed)?;
    let core = kept.graph.as_ref()?;
    let at = t
        .nodes
        .iter()
        .filter_map(|id| Some((core.idx.get(id)?, id.as_str())));
    Some(Before {
        len: core.canonical.len(),
        at: at.collect(),
    })
}

/// The graph shape for this run and what comes with it ([`shape`]).
struct Shaped {
    core: Core,
    /// The number of edges before the change, when the kept shape was
    /// brought up to this content (every edge then kept its position).
    edges_before: Option<usize>,
    /// The change only added nodes and edges (none removed or moved).
    grew: bool,
    /// The analyses kept, brought up to this content.
    analyses: super::graph::Analyses,
    /// The nearest joins and meets, when the order was made again (see
    /// [`super::kahn::kahn_into`]).
    nearest: Option<super::kahn::Nearest>,
}

/// The graph shape for this run and the analyses kept with it: the kept
/// ones brought up to `content` when `touched` allows it, else made again.
fn shape(kept: &mut Kept, content: &Content, touched: Option<&Touched>) -> Shaped {
    let analyses = std::mem::take(&mut kept.analyses);
    if let (Some(mut core), Some(t)) = (kept.graph.take(), touched) {
        let e0 = core.ends.len();
        let before = super::kept_graph::Shape::of(&core);
        if let Some(mut delta) = core.update(content, t) {
            return Shaped {
                analyses: analyses.follow(content, &core, &before, &delta),
                nearest: delta.nearest.take(),
                edges_before: Some(e0),
                grew: !delta.moved,
                core,
            };
        }
    }
    let (core, nearest) = Core::made(content);
    Shaped {
        core,
        edges_before: None,
        grew: false,
        analyses: Default::default(),
        nearest,
    }
}

/// The node indices a [`Scope::Refs`] and a [`Scope::Downstream`] check
/// must look at again, from `dirty` (a [`Scope::Node`] check's): also the
/// nodes naming a touched id or an id whose hint changed (`rehinted`); and
/// for the second, also every node downstream of a touched one and the
/// nodes naming one of those — unless the change only added nodes and
/// edges (`grew`), when the nodes with a finding are added instead (in
/// `batch_findings`).
fn widened(
    cx: &Cx,
    refs: &Readers,
    touched: Option<&Touched>,
    dirty: Option<&[usize]>,
    rehinted: &[String],
    grew: bool,
) -> (Option<Vec<usize>>, Option<Vec<usize>>) {
    let (Some(t), Some(d)) = (touched, dirty) else {
        return (None, None);
    };
    let g = &cx.graph;
    let mut all: FastSet<usize> = d.iter().copied().collect();
    all.extend(
        refs.readers_of(t.nodes.iter().chain(rehinted))
            .filter_map(|id| g.index_of(id)),
    );
    let on_refs: Vec<usize> = all.into_iter().collect();
    if grew {
        // Only nodes and edges added: a Downstream check's findings can
        // only go (see `Scope::Downstream`). It re-checks the nodes it had
        // findings on (in `batch_findings`), the nodes added or edited
        // and the nodes naming one of them or an id whose hint changed;
        // not every node downstream, nor their neighbours or the ends of
        // an added edge (it reads no neighbour's definition, and a node
        // without findings keeps none).
        let mut edited: FastSet<usize> = t.edited.iter().filter_map(|id| g.index_of(id)).collect();
        edited.extend(
            refs.readers_of(t.edited.iter().chain(rehinted))
                .filter_map(|id| g.index_of(id)),
        );
        return (Some(on_refs), Some(edited.into_iter().collect()));
    }
    let below = downstream(g, t);
    let mut all: FastSet<usize> = on_refs.iter().chain(&below).copied().collect();
    let ids = below.iter().map(|&i| cx.content.nodes[i].id.as_str());
    all.extend(refs.readers_of(ids).filter_map(|id| g.index_of(id)));
    (Some(on_refs), Some(all.into_iter().collect()))
}

/// The nodes `touched` added, when they are all loose (no edge at them, no
/// entry among them, named by no node before them; see [`Scope::Graph`])
/// and the change touched nothing else: `n0` nodes were there before.
fn loose_nodes(cx: &Cx, touched: &Touched, n0: usize, refs: &Readers) -> Option<Vec<usize>> {
    let g = &cx.graph;
    if touched.removed || g.repeated || g.len() != n0 + touched.nodes.len() {
        return None;
    }
    let mut out = Vec::with_capacity(touched.nodes.len());
    for id in &touched.nodes {
        let i = g.index_of(id).filter(|&i| i >= n0)?;
        if !g.out[i].is_empty() || !g.inc[i].is_empty() || g.entries.contains(&i) {
            return None;
        }
        let named_before = refs
            .readers_of([id])
            .any(|r| g.index_of(r).is_none_or(|j| j < n0));
        if named_before {
            return None;
        }
        out.push(i);
    }
    out.sort_unstable();
    Some(out)
}

/// A [`Scope::Graph`] check's findings: `before`'s followed by the `loose`
/// nodes' when there are both (and the check did not ask for a whole run,
/// [`Cx::whole`]), else a run over every node.
fn graph_findings(
    cx: &Cx,
    check: &dyn Check,
    before: Option<Vec<Issue>>,
    loose: Option<&[usize]>,
) -> Vec<Issue> {
    if let (Some(mut found), Some(new)) = (before, loose)
        && run_over(cx, check, new, false, &mut found)
    {
        return found;
    }
    let mut found = Vec::new();
    check.run(cx, &mut found);
    found
}

/// Whether the change (`touched`) only added or removed edges: no node
/// added, taken out or edited (`n0` nodes before, `n` now).
fn only_edges(touched: Option<&Touched>, n: usize, n0: usize) -> bool {
    touched.is_some_and(|t| t.edited.is_empty()) && n == n0
}

/// A [`Scope::Data`] check's findings: `before`'s when the change only
/// added or removed edges (`edges_only`; debug builds compare them with a
/// fresh run), else as [`graph_findings`].
fn data_findings(
    cx: &Cx,
    check: &dyn Check,
    before: Option<Vec<Issue>>,
    edges_only: bool,
    loose: Option<&[usize]>,
) -> Vec<Issue> {
    match before {
        Some(found) if edges_only => {
            debug_assert!(
                cx.definitions_damaged() || {
                    let mut fresh = Vec::new();
                    check.run(cx, &mut fresh);
                    fresh == found
                },
                "{}: the findings of a run over the same nodes",
                check.code().name
            );
            found
        }
        before => graph_findings(cx, check, before, loose),
    }
}

/// Runs `check` over `nodes` alone (with [`Cx::grown`] set as `grown`),
/// adding to `found`; false when the check asked for a whole run instead
/// ([`Cx::whole`]: what it added is then to be dropped).
fn run_over(
    cx: &Cx,
    check: &dyn Check,
    nodes: &[usize],
    grown: bool,
    found: &mut Vec<Issue>,
) -> bool {
    *cx.scope_many.borrow_mut() = Some(std::rc::Rc::from(nodes));
    cx.grown.set(grown);
    check.run(cx, found);
    cx.grown.set(false);
    *cx.scope_many.borrow_mut() = None;
    !cx.whole.replace(false)
}

/// A [`Scope::Upstream`] check's findings after a change that only added
/// nodes and edges: a run over the nodes `before` named and the `dirty`
/// ones, when both are known and every finding of `before` names a node
/// still there; else a run over every node.
fn upstream_findings(
    cx: &Cx,
    check: &dyn Check,
    before: Option<Vec<Issue>>,
    dirty: Option<&[usize]>,
) -> Vec<Issue> {
    let g = &cx.graph;
    let todo = before.zip(dirty).and_then(|(found, dirty)| {
        let mut todo = dirty.to_vec();
        for issue in &found {
            todo.push(g.index_of(issue.node_id.as_deref()?)?);
        }
        todo.sort_unstable();
        todo.dedup();
        Some(todo)
    });
    let mut found = Vec::new();
    if let Some(todo) = todo {
        if run_over(cx, check, &todo, true, &mut found) {
            debug_assert!(
                found.iter().all(|i| i.node_id.is_some()),
                "an Upstream finding names its node"
            );
            return found;
        }
        found.clear();
    }
    check.run(cx, &mut found);
    found
}

/// The node indices a node-scoped check must look at again after
/// `touched`: the touched nodes still present and their neighbours over an
/// edge (a check may read the nodes at the other ends of a node's edges).
/// Ends of removed edges are in `touched` already.
fn dirty_nodes(cx: &Cx, touched: &Touched) -> Vec<usize> {
    let g = &cx.graph;
    let mut seen = FastSet::default();
    for id in &touched.nodes {
        let Some(i) = g.index_of(id) else { continue };
        seen.insert(i);
        seen.extend(g.succs(i).chain(g.preds(i)));
    }
    seen.into_iter().collect()
}

/// The edge positions an edge-scoped check must look at again after
/// `touched`, when every edge kept its position and the first `e0` are the
/// ones the kept findings were made on: the new edges, the edges at a
/// touched node, and the edges with an end that does not exist (a touched
/// id may be that end). In edge order.
fn dirty_edges(g: &super::Graph, touched: &Touched, e0: usize) -> Vec<usize> {
    let mut out: Vec<usize> = (e0..g.ends.len())
        .chain(g.dangling.iter().copied())
        .collect();
    for id in &touched.nodes {
        if let Some(i) = g.index_of(id) {
            out.extend(g.out[i].iter().chain(&g.inc[i]));
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// One edge-scoped check's findings by edge position: `before`'s, with the
/// edges in `dirty` checked again; every edge when there is nothing to
/// start from.
fn edge_findings(
    cx: &Cx,
    check: &dyn Check,
    before: Option<std::collections::BTreeMap<usize, Vec<Issue>>>,
    dirty: Option<&[usize]>,
) -> std::collections::BTreeMap<usize, Vec<Issue>> {
    let (mut found, todo) = match (before, dirty) {
        (Some(found), Some(dirty)) => (found, dirty.to_vec()),
        _ => (Default::default(), (0..cx.content.edges.len()).collect()),
    };
    for k in todo {
        cx.edge_scope.set(Some(k));
        let mut out = Vec::new();
        check.run(cx, &mut out);
        if out.is_empty() {
            found.remove(&k);
        } else {
            found.insert(k, out);
        }
    }
    cx.edge_scope.set(None);
    found
}

/// Every node reachable over edges from a touched node still present (the
/// touched ones included): the nodes whose ancestors may have changed.
fn downstream(g: &super::Graph, touched: &Touched) -> Vec<usize> {
    let mut seen: FastSet<usize> = FastSet::default();
    let mut out = Vec::new();
    let mut stack: Vec<usize> = touched
        .nodes
        .iter()
        .filter_map(|id| g.index_of(id))
        .collect();
    while let Some(v) = stack.pop() {
        if !seen.insert(v) {
            continue;
        }
        out.push(v);
        stack.extend(g.succs(v).filter(|s| !seen.contains(s)));
    }
    out
}

/// One node-scoped check's findings by node id: `before`'s, with the nodes
/// in `dirty` (and the ids `touched` names) checked again; every node when
/// there is nothing to start from.
fn node_findings(
    cx: &Cx,
    check: &dyn Check,
    before: Option<FastMap<String, Vec<Issue>>>,
    touched: Option<&Touched>,
    dirty: Option<&[usize]>,
) -> FastMap<String, Vec<Issue>> {
    let (mut found, todo): (FastMap<String, Vec<Issue>>, Vec<usize>) =
        match (before, touched, dirty) {
            (Some(mut found), Some(t), Some(dirty)) => {
                for id in &t.nodes {
                    found.remove(id);
                }
                (found, dirty.to_vec())
            }
            _ => (FastMap::default(), (0..cx.content.nodes.len()).collect()),
        };
    for i in todo {
        let id = &cx.content.nodes[i].id;
        cx.scope.set(Some(i));
        let mut out = Vec::new();
        check.run(cx, &mut out);
        if out.is_empty() {
            found.remove(id.as_str());
        } else {
            found.insert(id.to_string(), out);
        }
    }
    cx.scope.set(None);
    found
}

/// A [`Scope::Downstream`] check's findings by the node they name:
/// `before`'s, with the nodes in `dirty` (and the ids `touched` names, and
/// with `grew` every node that had a finding) checked again in one run over
/// all of them; every node when there is nothing to start from.
fn batch_findings(
    cx: &Cx,
    check: &dyn Check,
    before: Option<FastMap<String, Vec<Issue>>>,
    touched: Option<&Touched>,
    dirty: Option<&[usize]>,
    grew: bool,
) -> FastMap<String, Vec<Issue>> {
    let (mut found, todo) = match (before, touched, dirty) {
        (Some(mut found), Some(t), Some(dirty)) => {
            let mut todo = dirty.to_vec();
            if grew {
                // Every node with a finding, touched ones too.
                todo.extend(found.keys().filter_map(|id| cx.graph.index_of(id)));
            }
            for id in &t.nodes {
                found.remove(id);
            }
            todo.sort_unstable();
            todo.dedup();
            for &i in &todo {
                found.remove(cx.content.nodes[i].id.as_str());
            }
            (found, Some(std::rc::Rc::from(todo)))
        }
        _ => (FastMap::default(), None),
    };
    *cx.scope_many.borrow_mut() = todo;
    let mut out = Vec::new();
    check.run(cx, &mut out);
    *cx.scope_many.borrow_mut() = None;
    for issue in out {
        debug_assert!(
            issue.node_id.is_some(),
            "a Downstream finding names its node"
        );
        let id = issue.node_id.clone().unwrap_or_default();
        found.entry(id).or_default().push(issue);
    }
    found
}

/// `found`'s findings, in the order of their nodes in the content (ids no
/// longer in it are left out).
fn append_in_node_order(cx: &Cx, found: &FastMap<String, Vec<Issue>>, out: &mut Vec<Issue>) {
    let mut at: Vec<(usize, &Vec<Issue>)> = found
        .iter()
        .filter_map(|(id, v)| cx.graph.index_of(id).map(|i| (i, v)))
        .collect();
    at.sort_unstable_by_key(|(i, _)| *i);
    for (_, v) in at {
        out.extend(v.iter().cloned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{call_with, edge, entry, join, plan, r, step};
    use crate::model::OpBody;

    fn full(c: &Content) -> Report {
        super::super::run(c, None, Vec::new())
    }

    /// A node-scoped finding follows its node through a change, and one
    /// the change does not touch is kept, not made again.
    #[test]
    fn touched_nodes_are_checked_again_and_others_kept() {
        let mut c = plan(
            vec![entry("s"), step("a"), step("b")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
            ],
        );
        c.nodes[1].phase = Some("bad phase\u{7}".into());
        let mut kept = Kept::default();
        let first = run(&mut kept, &c, None, Vec::new(), None, None);
        assert_eq!(first.issues, full(&c).issues);
        assert!(first.issues.iter().any(|i| i.code.name == "invalid_phase"));
        let before = c.clone();
        c.nodes[1].phase = None;
        let t = Touched::of(
            &before,
            [&OpBody::SetNodePhase {
                node_id: "a".into(),
                phase: None,
            }],
        );
        let second = run(&mut kept, &c, None, Vec::new(), Some(&t), None);
        assert_eq!(second.issues, full(&c).issues);
        assert!(!second.issues.iter().any(|i| i.code.name == "invalid_phase"));
        // Untouched: what was kept is what is reported, even when stale.
        let mut stale = Kept::default();
        run(&mut stale, &before, None, Vec::new(), None, None);
        let none = Touched::default();
        let kept_only = run(&mut stale, &c, None, Vec::new(), Some(&none), None);
        assert!(
            kept_only
                .issues
                .iter()
                .any(|i| i.code.name == "invalid_phase")
        );
    }

    /// A check whose findings read no edge (`Scope::Data`) keeps them over
    /// a change that only adds or removes edges, and they are what a full
    /// run finds (debug builds compare with a fresh run as well).
    #[test]
    fn findings_that_read_no_edge_stay_over_edges_added_and_removed() {
        let mut c = plan(
            vec![
                entry("start"),
                call_with(
                    "echo",
                    "t",
                    serde_json::json!({"q": r("start", Some("q"))}),
                    &["out"],
                ),
                call_with("use", "t", serde_json::json!({"b": r("echo", None)}), &[]),
                join("j"),
            ],
            vec![
                edge("e1", "start", "echo", "always"),
                edge("e2", "echo", "use", "always"),
            ],
        );
        let tainted = |r: &Report| {
            (r.issues.iter())
                .filter(|i| i.code.name == "tainted_call_arg")
                .count()
        };
        let mut kept = Kept::default();
        let first = run(&mut kept, &c, None, Vec::new(), None, None);
        assert_eq!(tainted(&first), 2, "`echo` and `use` pass the run input on");
        let added = edge("e3", "use", "j", "always");
        let before = c.clone();
        c.edges.push(added.clone());
        let t = Touched::of(&before, [&OpBody::AddEdge { edge: added }]);
        assert!(t.edited.is_empty(), "only an edge");
        let second = run(&mut kept, &c, None, Vec::new(), Some(&t), None);
        assert_eq!(second.issues, full(&c).issues);
        assert_eq!(tainted(&second), 2);
        let before = c.clone();
        c.edges.pop();
        let op = OpBody::RemoveEdge {
            edge_id: "e3".into(),
        };
        let third = run(
            &mut kept,
            &c,
            None,
            Vec::new(),
            Some(&Touched::of(&before, [&op])),
            None,
        );
        assert_eq!(third.issues, full(&c).issues);
        assert_eq!(tainted(&third), 2);
    }

    /// The edges at a node, from the kept graph, are those a pass over
    /// every edge finds, after a full run and after runs that added an
    /// edge or a node; with nothing kept there is no answer.
    #[test]
    fn the_edges_at_a_node_are_the_kept_graphs() {
        let scan = |c: &Content, id: &str| {
            let at = |to: bool| -> Vec<usize> {
                (0..c.edges.len())
                    .filter(|&k| {
                        if to {
                            c.edges[k].to == id
                        } else {
                            c.edges[k].from == id
                        }
                    })
                    .collect()
            };
            (at(true), at(false))
        };
        let mut c = plan(
            vec![entry("s"), join("a"), join("b")],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
            ],
        );
        let mut kept = Kept::default();
        assert_eq!(kept.edges_at(&c, "a"), None);
        run(&mut kept, &c, None, Vec::new(), None, None);
        for id in ["s", "a", "b", "gone"] {
            assert_eq!(kept.edges_at(&c, id), Some(scan(&c, id)), "{id}");
        }
        let adds = [
            OpBody::AddNode { node: join("k") },
            OpBody::AddEdge {
                edge: edge("e3", "s", "b", "always"),
            },
            OpBody::AddEdge {
                edge: edge("e4", "k", "a", "always"),
            },
        ];
        for op in adds {
            let before = c.clone();
            match &op {
                OpBody::AddNode { node } => c.nodes.push(node.clone()),
                OpBody::AddEdge { edge } => c.edges.push(edge.clone()),
                _ => unreachable!(),
            }
            let t = Touched::of(&before, [&op]);
            run(&mut kept, &c, None, Vec::new(), Some(&t), None);
            for id in ["s", "a", "b", "k"] {
                assert_eq!(
                    kept.edges_at(&c, id),
                    Some(scan(&c, id)),
                    "{id} after {op:?}"
                );
            }
        }
        // Asked about another content than the last run's: no answer.
        c.edges.pop();
        assert_eq!(kept.edges_at(&c, "a"), None);
    }

    /// A [`Scope::Graph`] check keeps its findings through an add of a
    /// loose node and finds the new node's alone; an add of a node an old
    /// one names, or of an edge, runs it whole.
    #[test]
    fn a_loose_add_keeps_graph_findings_and_checks_the_new_node() {
        let count = |r: &Report, code: &str, node: &str| {
            r.issues
                .iter()
                .filter(|i| i.code.name == code && i.node_id.as_deref() == Some(node))
                .count()
        };
        let call = |args| call_with("a", "t", args, &[]);
        let c = plan(
            vec![entry("s"), call(serde_json::json!({"x": r("s", None)}))],
            vec![edge("e1", "s", "a", "always")],
        );
        let mut kept = Kept::default();
        let first = run(&mut kept, &c, None, Vec::new(), None, None);
        assert_eq!(count(&first, "tainted_call_arg", "a"), 1);
        // Made stale behind the kept findings' back (not in `touched`): `a`
        // no longer reads the run input; then a loose join `k` is added.
        let mut stale = c.clone();
        stale.nodes[1] = call(serde_json::json!({"x": "literal"}));
        let before = stale.clone();
        stale.nodes.push(join("k"));
        let add = OpBody::AddNode { node: join("k") };
        let t = Touched::of(&before, [&add]);
        let second = run(&mut kept, &stale, None, Vec::new(), Some(&t), None);
        assert_eq!(count(&second, "tainted_call_arg", "a"), 1, "kept");
        assert_eq!(count(&second, "join_no_fork", "k"), 1, "the new node's");
        assert_eq!(count(&full(&stale), "tainted_call_arg", "a"), 0);

        // Told the truth, and then a node that an old one names: whole.
        let mut kept = Kept::default();
        let mut c = plan(
            vec![
                entry("s"),
                join("j"),
                call_with("a", "t", serde_json::json!({"x": r("m", None)}), &[]),
            ],
            vec![edge("e1", "s", "a", "always")],
        );
        run(&mut kept, &c, None, Vec::new(), None, None);
        let before = c.clone();
        c.nodes[1] = step("j");
        c.nodes.push(join("m"));
        let ops = [
            OpBody::ReplaceNode { node: step("j") },
            OpBody::AddNode { node: join("m") },
        ];
        let t = Touched::of(&before, &ops);
        let third = run(&mut kept, &c, None, Vec::new(), Some(&t), None);
        assert_eq!(third.issues, full(&c).issues);
        assert_eq!(count(&third, "join_no_fork", "j"), 0);
        assert_eq!(count(&third, "join_no_fork", "m"), 1);
    }

    /// An Upstream check (`predicate_unknown_node`) after a change that
    /// only adds an edge: the nodes it had findings on and the touched ones
    /// are checked again, the others keep having none (shown by a node
    /// made stale behind the kept findings' back); a removal runs it whole.
    #[test]
    fn an_added_edge_checks_an_upstream_check_only_where_it_had_findings() {
        use crate::check::testing::node;
        use crate::model::NodeKind;
        let count = |r: &Report, node: &str| {
            r.issues
                .iter()
                .filter(|i| i.code.name == "predicate_unknown_node")
                .filter(|i| i.node_id.as_deref() == Some(node))
                .count()
        };
        let branch = |id: &str, path: &str| {
            let pred = serde_json::json!({"path": path, "op": "truthy"});
            node(
                id,
                NodeKind::Branch,
                serde_json::json!({"evaluator": "structured", "predicate": pred}),
            )
        };
        let c = plan(
            vec![
                entry("s"),
                step("f"),
                step("g"),
                branch("b", "f.status"),
                branch("b2", "g.status"),
            ],
            vec![
                edge("e1", "s", "g", "always"),
                edge("e2", "g", "b2", "always"),
                edge("e3", "s", "f", "always"),
                edge("e4", "g", "b", "always"),
            ],
        );
        let mut kept = Kept::default();
        let first = run(&mut kept, &c, None, Vec::new(), None, None);
        assert_eq!((count(&first, "b"), count(&first, "b2")), (1, 0));
        // `b2` made stale behind the kept findings' back (its test now reads
        // `f`, not upstream of it), then an edge `f` → `b` added.
        let mut stale = c.clone();
        stale.nodes[4] = branch("b2", "f.status");
        let before = stale.clone();
        let e = edge("e5", "f", "b", "always");
        stale.edges.push(e.clone());
        let t = Touched::of(&before, [&OpBody::AddEdge { edge: e }]);
        let second = run(&mut kept, &stale, None, Vec::new(), Some(&t), None);
        assert_eq!(count(&second, "b"), 0, "checked again: it had a finding");
        assert_eq!(count(&second, "b2"), 0, "not checked again");
        assert_eq!(count(&full(&stale), "b2"), 1);

        // Told the truth: an added edge, then a removed one, as a full run.
        let mut kept = Kept::default();
        run(&mut kept, &c, None, Vec::new(), None, None);
        let mut now = c.clone();
        let e = edge("e5", "f", "b", "always");
        now.edges.push(e.clone());
        let t = Touched::of(&c, [&OpBody::AddEdge { edge: e }]);
        let added = run(&mut kept, &now, None, Vec::new(), Some(&t), None);
        assert_eq!(added.issues, full(&now).issues);
        let before = now.clone();
        now.edges.retain(|e| e.id != "e2");
        let rm = OpBody::RemoveEdge {
            edge_id: "e2".into(),
        };
        let t = Touched::of(&before, [&rm]);
        let removed = run(&mut kept, &now, None, Vec::new(), Some(&t), None);
        assert_eq!(count(&removed, "b2"), 1, "`g` no longer runs before `b2`");
        assert_eq!(removed.issues, full(&now).issues);
    }

    /// A kept state whose bytes are damaged inside one node's slot (read
    /// only when used): the run that reads that slot answers as a run
    /// from nothing kept, and the state it leaves holds no damaged bytes.
    /// The slot is read by an edit of its node, and by an added edge (the
    /// reference checks read every node's references).
    #[test]
    fn a_slot_damaged_on_disk_is_found_when_read_and_the_run_made_afresh() {
        let reader = |extra: &str| {
            call_with(
                "b",
                "t",
                serde_json::json!({"x": r("a", Some("zz_marker")), "y": extra}),
                &[],
            )
        };
        let c = plan(
            vec![
                entry("s"),
                call_with("a", "t", serde_json::json!({}), &["zz_marker"]),
                reader("one"),
                step("d"),
            ],
            vec![
                edge("e1", "s", "a", "always"),
                edge("e2", "a", "b", "always"),
            ],
        );
        let mut kept = Kept::default();
        run(&mut kept, &c, None, Vec::new(), None, None);
        let mut bytes = kept.to_bytes();
        let marks: Vec<usize> = (0..bytes.len())
            .filter(|&k| bytes[k..].starts_with(b"zz_marker"))
            .collect();
        assert_eq!(marks.len(), 1, "the path is in b's slot only");
        bytes[marks[0] + 2] = 0xff;
        let edits = [
            OpBody::ReplaceNode {
                node: reader("two"),
            },
            OpBody::AddEdge {
                edge: edge("e3", "s", "d", "always"),
            },
        ];
        for op in edits {
            let mut kept =
                Kept::from_bytes(&bytes).expect("read as used: the slot is not read yet");
            let mut now = c.clone();
            match &op {
                OpBody::ReplaceNode { node } => now.nodes[2] = node.clone(),
                OpBody::AddEdge { edge } => now.edges.push(edge.clone()),
                _ => unreachable!(),
            }
            let t = Touched::of(&c, [&op]);
            let answer = run(&mut kept, &now, None, Vec::new(), Some(&t), None);
            assert_eq!(answer.issues, full(&now).issues, "{op:?}");
            assert!(!kept.nodes.damaged(), "made afresh");
            let written = kept.to_bytes();
            assert!(!written.windows(2).any(|w| w == b"zz\xff"), "{op:?}");
            assert!(Kept::from_bytes(&written).is_some());
        }
    }
}
