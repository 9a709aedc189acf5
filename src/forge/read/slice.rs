//! A self-locating slice of a plan (SPEC §8): a phase, the unphased nodes
//! or one node, addressed by a key exactly as the outline prints it, with
//! the edges that cross its border and its findings.

use super::attribution::Attribution;
use super::source::{Head, Source};
use crate::forge::Forge;
use crate::model::Issue;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids::{UNPHASED, quote_id};
use crate::model::lifecycle::State;
use crate::model::remedy::Remedy;
use crate::model::{Edge, Node};
use crate::store::Loaded;
use std::collections::HashSet;

/// What `read` is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadKey {
    /// A key exactly as the outline printed it: a phase name, `(unphased)`
    /// (or `""`), or a node id.
    Auto(String),
    /// A phase name (`(unphased)` or `""` for the unphased nodes).
    Phase(String),
    /// A node id.
    Node(String),
}

/// What a slice holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SliceKind {
    Phase,
    Unphased,
    Node,
}

/// A self-locating slice of a plan.
#[derive(Debug, Clone)]
pub(crate) struct Slice {
    pub(crate) plan_id: String,
    pub(crate) state: State,
    pub(crate) revision: u64,
    pub(crate) digest: String,
    pub(crate) kind: SliceKind,
    /// The key as the outline prints it: the phase, `(unphased)`, or the node id.
    pub(crate) key: String,
    /// The slice's phase (a node's own phase); `None` when unphased.
    pub(crate) phase: Option<String>,
    /// Every node of the slice, in fold order.
    pub(crate) nodes: Vec<Node>,
    /// Edges with both ends in the slice.
    pub(crate) edges: Vec<Edge>,
    /// Edges from outside into the slice.
    pub(crate) incoming: Vec<Edge>,
    /// Edges from the slice to outside.
    pub(crate) outgoing: Vec<Edge>,
    /// The settling joins (`kind: settle`) outside the slice that its
    /// `error` edges go to: an error there is an arrival, not an abort.
    pub(crate) settling: Vec<String>,
    /// Issues attributed to the slice's nodes.
    pub(crate) issues: Vec<Issue>,
}

/// Which nodes a key selects: resolved in one pass over the nodes.
enum Target {
    Phase(String),
    Unphased,
    Node(String),
}

fn is_unphased_key(k: &str) -> bool {
    k.is_empty() || k == UNPHASED
}

/// The keys the outline prints: phases in order, `(unphased)`, node ids.
fn valid_keys<P: Source + ?Sized>(c: &P, phases: bool, nodes: bool) -> Vec<&str> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut out: Vec<&str> = Vec::new();
    let mut any_unphased = false;
    if phases {
        for i in 0..c.node_count() {
            match c.node_phase(i).filter(|p| !p.is_empty()) {
                Some(p) => {
                    if seen.insert(p) {
                        out.push(p);
                    }
                }
                None => any_unphased = true,
            }
        }
        if any_unphased {
            out.push(UNPHASED);
        }
    }
    if nodes {
        out.extend((0..c.node_count()).map(|i| c.node_id(i)));
    }
    out
}

fn unknown_key<P: Source + ?Sized>(
    c: &P,
    key: &str,
    what: &str,
    phases: bool,
    nodes: bool,
) -> Error {
    let keys = valid_keys(c, phases, nodes);
    let hint = crate::model::suggest::did_you_mean(key, keys.iter().copied());
    let err = Error::new(
        ErrorKind::UnknownKey,
        format!(
            "plan {} has no {what} `{}`{hint}",
            c.plan_id(),
            quote_id(key)
        ),
    );
    if keys.is_empty() {
        return if c.node_count() == 0 {
            err.with_help("the plan has no nodes yet, so there is nothing to read")
                .fix(Remedy::AddNode {
                    id: None,
                    kind: None,
                })
        } else {
            err.with_help(
                "no node of the plan has a phase; read a node by its id, or `(unphased)` for all of them",
            )
        };
    }
    err.with_help(format!(
        "read one of these keys exactly as the outline prints it (nearest first): {}",
        crate::model::suggest::choices(key, keys)
    ))
}

fn resolve<P: Source + ?Sized>(c: &P, key: &ReadKey) -> Result<Target> {
    let ids = || (0..c.node_count()).map(|i| (c.node_id(i), c.node_phase(i)));
    // Through the source's index when it has one (a snapshot read in
    // place), else a pass over the nodes.
    let has_unphased = || match c.phases_indexed("") {
        Some((_, unphased)) => unphased,
        None => ids().any(|(_, p)| p.is_none_or(str::is_empty)),
    };
    let has_phase = |p: &str| match c.phases_indexed(p) {
        Some((has, _)) => has,
        None => ids().any(|(_, q)| q == Some(p)),
    };
    let has_node = |id: &str| match c.find_indexed(id) {
        Some(found) => found.is_some(),
        None => ids().any(|(n, _)| n == id),
    };
    let plan_id = c.plan_id();
    let no_unphased = || {
        Error::new(
            ErrorKind::UnknownKey,
            format!(
                "every node of plan {plan_id} has a phase, so there is no `{UNPHASED}` slice to read"
            ),
        )
        .with_help(format!(
            "read a phase or a node instead: {}",
            crate::model::suggest::choices("", valid_keys(c, true, false))
        ))
    };
    match key {
        ReadKey::Auto(k) | ReadKey::Phase(k) if is_unphased_key(k) => {
            if has_unphased() {
                Ok(Target::Unphased)
            } else {
                Err(no_unphased())
            }
        }
        ReadKey::Phase(p) => {
            if has_phase(p) {
                Ok(Target::Phase(p.clone()))
            } else {
                Err(unknown_key(c, p, "phase", true, false))
            }
        }
        ReadKey::Node(id) => {
            if has_node(id) {
                Ok(Target::Node(id.clone()))
            } else {
                Err(unknown_key(c, id, "node", false, true))
            }
        }
        ReadKey::Auto(k) => match (has_phase(k), has_node(k)) {
            (true, true) => {
                let q = quote_id(k);
                Err(Error::new(
                        ErrorKind::AmbiguousKey,
                        format!(
                            "`{q}` is both a phase and a node id in plan {plan_id}, so it does not say which slice to read"
                        ),
                    )
                    .on_plan(plan_id)
                    .fix(Remedy::ReadPhase { phase: k.clone() }.when("for the whole phase"))
                    .fix(Remedy::ReadNode { node: k.clone() }.when("for the one node")))
            }
            (true, false) => Ok(Target::Phase(k.clone())),
            (false, true) => Ok(Target::Node(k.clone())),
            (false, false) => Err(unknown_key(c, k, "phase or node", true, true)),
        },
    }
}

/// Builds the slice `key` selects in `loaded`, with the plan's findings.
#[cfg(test)]
pub(crate) fn slice_of(loaded: &Loaded, key: &ReadKey, issues: &[Issue]) -> Result<Slice> {
    slice_of_indexed(loaded, key, issues, false, None)
}

/// The positions of the edges into and out of a node, each in edge order.
type Around = (Vec<usize>, Vec<usize>);

/// As [`slice_of`]; `index`: find nodes and edges through the fold's
/// positions by id, made now when the fold has none (a warm process: the
/// next write takes them over), so one node costs no pass over the plan;
/// `around`: a node id and the edges at it, when they are known (a warm
/// plan's kept graph), so its edges cost no pass either.
pub(super) fn slice_of_indexed(
    loaded: &Loaded,
    key: &ReadKey,
    issues: &[Issue],
    index: bool,
    around: Option<(&str, Around)>,
) -> Result<Slice> {
    let mut c = super::source::in_memory(loaded, index);
    if let Some((id, edges)) = around {
        c = c.touching(id, edges);
    }
    let target = resolve(&c, key)?;
    Ok(slice_in(&c, super::source::head_of(loaded), target, issues)
        .expect("a plan in memory reads every node"))
}

/// The slice `target` selects in `c`, named by `head`; `None` when one of
/// its nodes cannot be read (see [`Source::node`]).
fn slice_in<P: Source + ?Sized>(
    c: &P,
    head: Head,
    target: Target,
    issues: &[Issue],
) -> Option<Slice> {
    let indexed = match &target {
        Target::Node(id) => c.find_indexed(id),
        _ => None,
    };
    let selected: Vec<usize> = match indexed {
        Some(found) => found.into_iter().collect(),
        None => (0..c.node_count())
            .filter(|&i| match &target {
                Target::Phase(p) => c.node_phase(i) == Some(p.as_str()),
                Target::Unphased => c.node_phase(i).is_none_or(str::is_empty),
                Target::Node(id) => c.node_id(i) == id,
            })
            .collect(),
    };
    let (edges, incoming, outgoing, issues) = match &target {
        // One node: compared by id, without indexing the whole plan (a
        // warm `read NODE` of a large plan costs a pass of compares).
        Target::Node(id) => one_node(c, id, issues),
        _ => members_of(c, &selected, issues),
    };
    let nodes: Vec<Node> = selected.iter().map(|&i| c.node(i)).collect::<Option<_>>()?;
    let settling = settling_targets(c, &outgoing);
    let (kind, key, phase) = match target {
        Target::Phase(p) => (SliceKind::Phase, p.clone(), Some(p)),
        Target::Unphased => (SliceKind::Unphased, UNPHASED.to_string(), None),
        Target::Node(id) => (
            SliceKind::Node,
            id,
            nodes[0].phase.as_ref().map(ToString::to_string),
        ),
    };
    Some(Slice {
        plan_id: head.plan_id,
        state: head.state,
        revision: head.revision,
        digest: head.digest,
        kind,
        key,
        phase,
        nodes,
        edges,
        incoming,
        outgoing,
        settling,
        issues,
    })
}

/// The targets of `outgoing`'s `error` edges that are settling joins (one
/// pass over the node ids, only when there is such an edge).
fn settling_targets<P: Source + ?Sized>(c: &P, outgoing: &[Edge]) -> Vec<String> {
    if !outgoing
        .iter()
        .any(|e| e.handle == crate::model::Handle::Error)
    {
        return Vec::new();
    }
    let index = c.node_index();
    let mut out: Vec<String> = outgoing
        .iter()
        .filter(|e| e.handle == crate::model::Handle::Error)
        .filter(|e| {
            index.get(e.to.as_str()).is_some_and(|&i| {
                c.node_kind(i) == crate::model::NodeKind::Join
                    && c.node_str_field(i, "kind") == Some(crate::model::node::SETTLE)
            })
        })
        .map(|e| e.to.to_string())
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// A slice's edges (inside, in, out) and findings.
type Parts = (Vec<Edge>, Vec<Edge>, Vec<Edge>, Vec<Issue>);

/// The edges and findings of the nodes `selected`.
fn members_of<P: Source + ?Sized>(c: &P, selected: &[usize], issues: &[Issue]) -> Parts {
    let members: HashSet<&str> = selected.iter().map(|&i| c.node_id(i)).collect();
    let mut edges = Vec::new();
    let mut incoming = Vec::new();
    let mut outgoing = Vec::new();
    for k in 0..c.edge_count() {
        let (_, from, to) = c.edge_ends(k);
        match (members.contains(from), members.contains(to)) {
            (true, true) => edges.push(c.edge(k)),
            (false, true) => incoming.push(c.edge(k)),
            (true, false) => outgoing.push(c.edge(k)),
            (false, false) => {}
        }
    }
    let attribution = Attribution::new(c, issues);
    let wanted: HashSet<usize> = selected.iter().copied().collect();
    let issues: Vec<Issue> = issues
        .iter()
        .filter(|i| attribution.owner(i).is_some_and(|o| wanted.contains(&o)))
        .cloned()
        .collect();
    (edges, incoming, outgoing, issues)
}

/// As [`members_of`] for the one node `id` (present), with the same
/// attribution as [`Attribution::owner`]: a finding is the node's when it
/// names the node, or names no present node and its edge starts at the node
/// (or, when the edge's start is gone, ends at it). Through the source's
/// index when it has one: then only the node's edges are read.
fn one_node<P: Source + ?Sized>(c: &P, id: &str, issues: &[Issue]) -> Parts {
    let (mut edges, mut incoming, mut outgoing) = (Vec::new(), Vec::new(), Vec::new());
    let touching = c.edges_touching_indexed(id).unwrap_or_else(|| {
        (0..c.edge_count())
            .filter(|&k| {
                let (_, from, to) = c.edge_ends(k);
                from == id || to == id
            })
            .collect()
    });
    for k in touching {
        let (_, from, to) = c.edge_ends(k);
        match (from == id, to == id) {
            (true, true) => edges.push(c.edge(k)),
            (false, true) => incoming.push(c.edge(k)),
            (true, false) => outgoing.push(c.edge(k)),
            (false, false) => {}
        }
    }
    let index = std::cell::OnceCell::new();
    let present = |n: &str| {
        n == id
            || match c.find_indexed(n) {
                Some(found) => found.is_some(),
                None => index.get_or_init(|| c.node_index()).contains_key(n),
            }
    };
    let edge_at = std::cell::OnceCell::new();
    let owned = |i: &Issue| {
        if let Some(n) = &i.node_id
            && present(n)
        {
            return n == id;
        }
        let Some(e) = &i.edge_id else { return false };
        let ends_of = |k: usize| {
            let (_, from, to) = c.edge_ends(k);
            (from, to)
        };
        let ends = match c.edge_position_indexed(e) {
            Some(at) => at.map(ends_of),
            None => {
                let all: &crate::model::hash::FastMap<&str, (&str, &str)> =
                    edge_at.get_or_init(|| {
                        (0..c.edge_count())
                            .map(|k| (c.edge_ends(k).0, ends_of(k)))
                            .collect()
                    });
                all.get(e.as_str()).copied()
            }
        };
        match ends {
            Some((from, _)) if present(from) => from == id,
            Some((_, to)) => to == id,
            None => false,
        }
    };
    let issues = issues.iter().filter(|i| owned(i)).cloned().collect();
    (edges, incoming, outgoing, issues)
}

impl Forge {
    /// One self-locating slice of a plan, by a key the outline printed.
    pub(crate) fn read(&self, plan: &str, key: ReadKey) -> Result<Slice> {
        // Read in place from the snapshot when it can answer; a refusal of
        // the key is the same either way.
        let answer = self.in_place(plan, |c, head, issues| {
            Some(resolve(c, &key).map(|t| slice_in(c, head, t, issues)))
        });
        match answer {
            Some(Err(e)) => return Err(e),
            Some(Ok(Some(slice))) => return Ok(slice),
            _ => {}
        }
        let loaded = self.load(plan)?;
        let warm = self.store().is_warm();
        // Resolve the key first: a refusal should not wait for the checks.
        resolve(&super::source::in_memory(&loaded, warm), &key)?;
        let report = self.check(&loaded)?;
        // One node of a warm plan: the edges at it from the checks' kept
        // graph, not from a pass over every edge.
        let around = match &key {
            ReadKey::Node(id) | ReadKey::Auto(id) => {
                self.edges_around(&loaded, id).map(|a| (id.as_str(), a))
            }
            ReadKey::Phase(_) => None,
        };
        slice_of_indexed(&loaded, &key, &report.issues, warm, around)
    }
}
