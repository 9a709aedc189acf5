//! Facts about each node that cost a walk of its definition, kept between
//! incremental runs (issue 17): its data references ([`Node::data_refs`],
//! owned), its read size ([`super::oversized_phase::estimate`]) and its
//! structured predicate's tests
//! ([`super::predicate_unknown_node::tests_of`]). The plan-wide checks that
//! read them for every node ([`super::Cx::data_refs`] and its users,
//! `oversized_phase`, `predicate_unknown_node`) then pay a walk only for
//! the nodes a change touched.
//!
//! A slot is about the node at its position in the content: a node
//! changed in place is in [`Touched`], a new one is added at the end, and
//! a removal takes the removed nodes' slots out and moves the later ones
//! up (the fold keeps the other nodes in order; where the kept graph had
//! the removed nodes says which slots go, [`Before`]). So the facts equal
//! a fresh walk's, at the cost of the touched nodes.

use super::Graph;
use super::kept_disk::Persist;
use super::kept_lazy::{Gone, Lazy};
use super::support::{DataRef, RefTag, is_canonical};
use crate::model::registry::Registry;
use crate::model::touched::Touched;
use crate::model::{Content, Node, Ref};
use std::collections::BTreeSet;

/// Every node's facts, in node order (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct KeptNodes {
    /// Per node: its id, references and tests, read from disk when first
    /// used ([`Lazy`]: a one-shot write reads a few of them).
    slots: Lazy<Slot>,
    /// Per node: its read size estimate.
    sizes: Vec<usize>,
    /// The first segment of every structured predicate test's path (the
    /// node it reads), with the number of tests naming it.
    tested: crate::model::hash::FastMap<String, usize>,
    /// Those of them that are not node ids of the content.
    missing: crate::model::hash::FastSet<String>,
    /// The positions of the slots whose node `spawns` (in order: a run
    /// finds the spawning calls without a pass over every slot).
    spawning: BTreeSet<usize>,
    /// The positions of the slots whose node is a call of a tool the
    /// registry says writes (`contention_collision` reads only those).
    writing: BTreeSet<usize>,
    /// The positions of the slots with a structured predicate's tests (in
    /// order: `predicate_unknown_node` reads only those).
    testing: BTreeSet<usize>,
    /// [`KeptNodes::data_refs`] as positions, made when first asked for
    /// and kept while no node is removed, no touched node's references
    /// change and no node is added under a name a reference was missing
    /// (an added edge, a node added: the ids, positions and references it
    /// was made from are then the same, and the added nodes' own are
    /// appended), so that a run reads it without looking up every target;
    /// kept on disk too.
    resolved: std::cell::OnceCell<Resolved>,
    /// Whether a slot read in this run was about another node than the
    /// one at its position, or named a reference it does not have.
    foreign: std::cell::Cell<bool>,
}

/// The data references whose target exists, as positions (the reading
/// node, canonical ones only, in node order; its reference; the target)
/// with what each selects ([`RefTag`]: a check that wants a few kinds
/// reads only those slots), and the names the other references read
/// (missing nodes).
#[derive(Debug, Default, PartialEq, Eq)]
struct Resolved {
    refs: Vec<(u32, u32, u32, RefTag)>,
    missing: crate::model::hash::FastSet<String>,
}

impl Resolved {
    /// Adds slot `i`'s references.
    fn add(&mut self, g: &Graph, i: usize, slot: &Slot) {
        if slot.refs.is_empty() || !is_canonical(g, i) {
            return;
        }
        let at = |x: usize| u32::try_from(x).expect("fewer than 2^32 nodes and references");
        for (k, (_, r)) in slot.refs.iter().enumerate() {
            match g.index_of(&r.node) {
                Some(target) => self.refs.push((at(i), at(k), at(target), RefTag::of(r))),
                None => {
                    self.missing.insert(r.node.clone());
                }
            }
        }
    }
}

/// Where the nodes a change touched were before it (what the kept graph
/// says): how many nodes there were, and the position of each touched id
/// that was one of them.
pub(crate) struct Before<'t> {
    pub(crate) len: usize,
    pub(crate) at: Vec<(usize, &'t str)>,
}

impl Before<'_> {
    /// The positions (ascending) of the nodes that went, when every other
    /// node is where the fold puts it after taking them out (it keeps the
    /// others in order and adds new ones at the end: `n` nodes now), as
    /// far as the touched ones show (a node removed and added again is at
    /// the end instead); `None` otherwise.
    pub(crate) fn gone(&self, g: &Graph, n: usize) -> Option<Gone> {
        let gone = Gone::new(
            (self.at.iter())
                .filter(|(_, id)| g.index_of(id).is_none())
                .map(|&(p, _)| p)
                .collect(),
        );
        let moved =
            (self.at.iter()).any(|&(p, id)| g.index_of(id).is_some_and(|j| j != gone.up(p)));
        (!g.repeated && !moved && n >= self.len - gone.len()).then_some(gone)
    }
}

/// One node's facts that are read from disk when used.
#[derive(Debug, Default)]
struct Slot {
    /// The id of the node they are about.
    id: String,
    /// Its data references: pointer relative to the node, and the reference.
    refs: Vec<(String, Ref)>,
    /// Its structured predicate's tests (pointer, path).
    tests: Vec<(String, String)>,
}

/// A slot's stand-in for the rest of a run in which its bytes did not
/// read back (the run's answer is then put aside: see [`KeptNodes::damaged`]).
static EMPTY: Slot = Slot {
    id: String::new(),
    refs: Vec::new(),
    tests: Vec::new(),
};

/// What the registry says of a node: whether it spawns an agent, whether
/// it writes (a call of a tool with `writes`).
#[derive(Clone, Copy)]
struct Roles {
    spawns: bool,
    writes: bool,
}

/// Node `n`'s facts: its slot, its read size estimate and what `registry`
/// says of it.
fn facts_of(n: &Node, registry: Option<&Registry>) -> (Slot, usize, Roles) {
    let slot = Slot {
        id: n.id.to_string(),
        refs: n
            .data_refs()
            .into_iter()
            .map(|(p, r)| (p, r.clone()))
            .collect(),
        tests: super::predicate_unknown_node::tests_of(n),
    };
    let size = super::oversized_phase::estimate(n);
    let spawns = registry.is_some_and(|reg| super::synthesis::spawns_agent(n, reg));
    let writes = registry.is_some_and(|reg| super::contention_collision::writes(n, reg));
    (slot, size, Roles { spawns, writes })
}

/// Slot `i` of `slots`, whose node is `id` (see [`KeptNodes::slot`]).
fn slot_in<'s>(
    slots: &'s Lazy<Slot>,
    foreign: &std::cell::Cell<bool>,
    i: usize,
    id: &str,
) -> &'s Slot {
    match slots.get(i) {
        Some(s) if s.id == id => s,
        Some(_) => {
            foreign.set(true);
            &EMPTY
        }
        None => &EMPTY,
    }
}

/// Puts `i` in `set` when `on`, else takes it out.
fn mark(set: &mut BTreeSet<usize>, i: usize, on: bool) {
    if on {
        set.insert(i);
    } else {
        set.remove(&i);
    }
}

impl KeptNodes {
    /// Marks node `i`'s registry roles.
    fn mark_roles(&mut self, i: usize, roles: Roles) {
        mark(&mut self.spawning, i, roles.spawns);
        mark(&mut self.writing, i, roles.writes);
    }
}

/// Counts `slot`'s tests in `tested` (`add`) or takes them out.
fn count_tests(tested: &mut crate::model::hash::FastMap<String, usize>, slot: &Slot, add: bool) {
    for (_, path) in &slot.tests {
        let first = path.split('.').next().unwrap_or(path);
        if add {
            *tested.entry(first.to_string()).or_default() += 1;
        } else if let Some(k) = tested.get_mut(first) {
            *k -= 1;
            if *k == 0 {
                tested.remove(first);
            }
        }
    }
}

impl KeptNodes {
    /// Brings the facts up to `content` (whose graph is `g`) and
    /// `registry`: every node again without `touched` (which must then be
    /// `None` when the registry is not the last run's), or after a removal
    /// without `before` (where the touched nodes were); else the touched
    /// nodes and the new ones (added at the end), the removed nodes' slots
    /// taken out first: then the positions taken out are returned (the
    /// kept taint moves over them too).
    pub(crate) fn update(
        &mut self,
        content: &Content,
        g: &Graph,
        registry: Option<&Registry>,
        touched: Option<&Touched>,
        before: Option<&Before>,
    ) -> Option<Gone> {
        let mut moved = None;
        match touched {
            Some(t) if !t.removed && content.nodes.len() >= self.slots.len() => {
                self.follow(content, g, registry, t);
            }
            Some(t) if t.removed => match before.and_then(|b| self.take_out(content, g, b)) {
                Some(gone) => {
                    self.follow(content, g, registry, t);
                    moved = Some(gone);
                }
                None => self.remake(content, g, registry),
            },
            _ => self.remake(content, g, registry),
        }
        self.debug_check(content, g);
        moved
    }

    /// After a removal: the slots of the nodes that went taken out and the
    /// later ones moved up (the fold keeps the others in order), so that
    /// [`KeptNodes::follow`] can make the touched ones again; the positions
    /// taken out, or `None`, and nothing changed, when the nodes are not
    /// where that puts them (a node removed and added again is at the end:
    /// every slot is made again).
    fn take_out(&mut self, content: &Content, g: &Graph, before: &Before) -> Option<Gone> {
        if before.len != self.slots.len() {
            return None;
        }
        let gone = before.gone(g, content.nodes.len())?;
        // The names the nodes that went tested no longer count; their own
        // ids, when still tested, are missing now.
        let went: Vec<(usize, &str)> = before
            .at
            .iter()
            .copied()
            .filter(|&(p, _)| gone.has(p))
            .collect();
        for &(p, id) in &went {
            count_tests(
                &mut self.tested,
                slot_in(&self.slots, &self.foreign, p, id),
                false,
            );
        }
        self.missing.retain(|id| self.tested.contains_key(id));
        for &(_, id) in &went {
            if self.tested.contains_key(id) {
                self.missing.insert(id.to_string());
            }
        }
        // A name only a node that went read missing is no longer: the
        // targets are then looked up again when next asked for.
        let named_missing = self.resolved.get().is_some_and(|r| {
            went.iter().any(|&(p, id)| {
                let slot = slot_in(&self.slots, &self.foreign, p, id);
                slot.refs.iter().any(|(_, r2)| r.missing.contains(&r2.node))
            })
        });
        if named_missing {
            self.resolved.take();
        }
        if let Some(Resolved { refs, missing }) = self.resolved.get_mut() {
            refs.retain_mut(|(i, _, target, _)| {
                if gone.has(*i as usize) {
                    return false;
                }
                if let Some(&(_, id)) = went.iter().find(|&&(p, _)| p == *target as usize) {
                    missing.insert(id.to_string());
                    return false;
                }
                // Below 2^32 as they were.
                (*i, *target) = (
                    gone.up(*i as usize) as u32,
                    gone.up(*target as usize) as u32,
                );
                true
            });
        }
        self.slots = std::mem::take(&mut self.slots).without(&gone);
        self.sizes = gone.keep(std::mem::take(&mut self.sizes));
        for set in [&mut self.spawning, &mut self.writing, &mut self.testing] {
            *set = set
                .iter()
                .filter(|&&i| !gone.has(i))
                .map(|&i| gone.up(i))
                .collect();
        }
        Some(gone)
    }

    /// [`KeptNodes::update`] without a removal: the touched nodes' slots
    /// made again, the new nodes' added.
    fn follow(&mut self, content: &Content, g: &Graph, registry: Option<&Registry>, t: &Touched) {
        let n0 = self.slots.len();
        for id in &t.nodes {
            let Some(i) = g.index_of(id).filter(|&i| i < n0) else {
                continue;
            };
            let (slot, size, roles) = facts_of(&content.nodes[i], registry);
            let old = slot_in(&self.slots, &self.foreign, i, id);
            if slot.refs != old.refs {
                self.resolved.take();
            }
            count_tests(&mut self.tested, old, false);
            count_tests(&mut self.tested, &slot, true);
            self.mark_roles(i, roles);
            mark(&mut self.testing, i, !slot.tests.is_empty());
            self.sizes[i] = size;
            self.slots.set(i, slot);
        }
        for (i, n) in content.nodes.iter().enumerate().skip(n0) {
            let (slot, size, roles) = facts_of(n, registry);
            count_tests(&mut self.tested, &slot, true);
            self.mark_roles(i, roles);
            mark(&mut self.testing, i, !slot.tests.is_empty());
            self.sizes.push(size);
            self.slots.push(slot);
        }
        // Added nodes: their references appended, unless one of them is
        // (the first with) a name a reference was missing.
        if let Some(r) = self.resolved.get_mut() {
            let named = (n0..self.slots.len())
                .any(|i| is_canonical(g, i) && r.missing.contains(content.nodes[i].id.as_str()));
            if named {
                self.resolved.take();
            } else {
                for i in n0..self.slots.len() {
                    r.add(g, i, self.slots.get(i).unwrap_or(&EMPTY));
                }
            }
        }
        // Without a removal no id went away: a name is missing now when it
        // was (and is still tested and not a touched id that is there now)
        // or a touched node's tests name it.
        self.missing
            .retain(|id| self.tested.contains_key(id) && g.index_of(id).is_none());
        for id in &t.nodes {
            let Some(i) = g.index_of(id) else { continue };
            for (_, path) in &slot_in(&self.slots, &self.foreign, i, id).tests {
                let first = path.split('.').next().unwrap_or(path);
                if g.index_of(first).is_none() {
                    self.missing.insert(first.to_string());
                }
            }
        }
    }

    /// [`KeptNodes::update`] of every node.
    fn remake(&mut self, content: &Content, g: &Graph, registry: Option<&Registry>) {
        // Room for the nodes a warm session adds next: growing a full
        // vector moves every slot (milliseconds at 100k nodes).
        let n = content.nodes.len();
        let room = n + n / 4 + 16;
        let mut sizes = Vec::with_capacity(room);
        let (mut spawning, mut writing, mut testing) =
            (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
        self.tested.clear();
        let slots = content.nodes.iter().enumerate().map(|(i, node)| {
            let (slot, size, roles) = facts_of(node, registry);
            sizes.push(size);
            mark(&mut spawning, i, roles.spawns);
            mark(&mut writing, i, roles.writes);
            mark(&mut testing, i, !slot.tests.is_empty());
            count_tests(&mut self.tested, &slot, true);
            slot
        });
        let slots = Lazy::with(slots, room);
        let missing = self.tested.keys().filter(|id| g.index_of(id).is_none());
        let missing = missing.cloned().collect();
        *self = KeptNodes {
            slots,
            sizes,
            tested: std::mem::take(&mut self.tested),
            missing,
            spawning,
            writing,
            testing,
            resolved: Default::default(),
            foreign: Default::default(),
        };
    }

    /// Node `i`'s slot, whose node is `id`; [`EMPTY`] when its bytes do not
    /// read back or are about another node (then [`KeptNodes::damaged`]).
    fn slot(&self, i: usize, id: &str) -> &Slot {
        slot_in(&self.slots, &self.foreign, i, id)
    }

    /// Whether a slot read in this run was damaged (its bytes did not read
    /// back, or were about another node): the run's findings may then be
    /// wrong, and the state is to be made again.
    pub(crate) fn damaged(&self) -> bool {
        self.slots.damaged() || self.foreign.get()
    }

    /// In a debug build: the facts agree with each other and the content
    /// (the slots not read from disk yet aside: reading them here would find their damage
    /// before the run does).
    fn debug_check(&self, content: &Content, g: &Graph) {
        if !cfg!(debug_assertions) || self.damaged() {
            return;
        }
        assert_eq!(self.slots.len(), content.nodes.len());
        assert_eq!(self.sizes.len(), content.nodes.len());
        let slots: Vec<Option<&Slot>> = (0..self.slots.len()).map(|i| self.slots.peek(i)).collect();
        for (i, n) in content.nodes.iter().enumerate() {
            let Some(slot) = slots[i] else { continue };
            assert_eq!(
                slot.id, n.id,
                "every slot is about the node at its position"
            );
            assert_eq!(
                self.testing.contains(&i),
                !slot.tests.is_empty(),
                "testing {i}"
            );
        }
        if slots.iter().all(Option::is_some) {
            let mut fresh = Default::default();
            slots
                .iter()
                .flatten()
                .for_each(|s| count_tests(&mut fresh, s, true));
            assert!(
                fresh == self.tested,
                "the tested names are the slots' tests"
            );
        }
        assert!(
            self.tested
                .keys()
                .filter(|id| g.index_of(id).is_none())
                .all(|id| self.missing.contains(id))
                && self
                    .missing
                    .iter()
                    .all(|id| self.tested.contains_key(id) && g.index_of(id).is_none()),
            "the missing tested names are those not in the content"
        );
    }

    /// Every data reference of the plan whose target exists, in node order:
    /// what [`super::support::data_refs`] gives, from the kept facts (the
    /// targets looked up once, then kept: see `resolved`).
    pub(crate) fn data_refs<'a>(&'a self, g: &Graph<'a>) -> Vec<DataRef<'a>> {
        self.data_refs_where(g, |_, _, _| true)
    }

    /// Those of [`KeptNodes::data_refs`] for which `keep(reader, tag,
    /// target)` holds: the slots of the others are not read.
    pub(crate) fn data_refs_where<'a>(
        &'a self,
        g: &Graph<'a>,
        keep: impl Fn(usize, RefTag, usize) -> bool,
    ) -> Vec<DataRef<'a>> {
        let resolved = self.resolved.get_or_init(|| self.resolve(g));
        if cfg!(debug_assertions) {
            let now = self.resolve(g);
            assert!(
                self.damaged() || *resolved == now,
                "the kept targets are the ones looked up now"
            );
        }
        let mut out = Vec::new();
        for &(i, k, target, tag) in &resolved.refs {
            let (i, k, target) = (i as usize, k as usize, target as usize);
            if !keep(i, tag, target) {
                continue;
            }
            let slot = self.slot(i, &g.node(i).id);
            let Some((pointer, r)) = slot.refs.get(k).filter(|(_, r)| RefTag::of(r) == tag) else {
                self.foreign.set(true);
                continue;
            };
            out.push(DataRef {
                node: i,
                pointer: pointer.as_str().into(),
                r,
                target,
            });
        }
        out
    }

    /// The reader and the target of each of [`KeptNodes::data_refs`], in
    /// order, without reading a slot (once the targets are kept).
    pub(crate) fn data_ref_ends(&self, g: &Graph) -> Vec<(usize, usize)> {
        let resolved = self.resolved.get_or_init(|| self.resolve(g));
        resolved
            .refs
            .iter()
            .map(|&(i, _, target, _)| (i as usize, target as usize))
            .collect()
    }

    /// The data references whose target exists, as positions (see
    /// [`Resolved`]).
    fn resolve(&self, g: &Graph) -> Resolved {
        let mut out = Resolved::default();
        for i in 0..self.slots.len() {
            out.add(g, i, self.slot(i, &g.node(i).id));
        }
        out
    }

    /// Whether every node the structured predicates' tests read is there.
    pub(crate) fn every_tested_present(&self) -> bool {
        self.missing.is_empty()
    }

    /// Whether a structured predicate's test reads node `id`.
    pub(crate) fn is_tested(&self, id: &str) -> bool {
        self.tested.contains_key(id)
    }

    /// Node `i`'s structured predicate's tests (its id `id`).
    pub(crate) fn tests(&self, i: usize, id: &str) -> &[(String, String)] {
        &self.slot(i, id).tests
    }

    /// The nodes with a structured predicate's tests, in node order.
    pub(crate) fn testing(&self) -> impl Iterator<Item = usize> + '_ {
        self.testing.iter().copied()
    }

    /// The calls that spawn an agent, canonical ones only, in node order
    /// (what [`super::synthesis::spawns`] gives).
    pub(crate) fn spawns(&self, g: &Graph) -> Vec<usize> {
        self.spawning
            .iter()
            .copied()
            .filter(|&i| is_canonical(g, i))
            .collect()
    }

    /// The calls of a tool that writes, in node order (canonical or not:
    /// the check decides).
    pub(crate) fn writing(&self) -> impl Iterator<Item = usize> + '_ {
        self.writing.iter().copied()
    }

    /// Node `i`'s read size estimate.
    pub(crate) fn size(&self, i: usize) -> usize {
        self.sizes[i]
    }

    /// The number of nodes the facts are about.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }
}

/// On disk: the slots (read when used), the sizes, the names and positions
/// field by field, and the targets when they were looked up. Lengths that
/// differ, positions past the nodes or a slot read back that is not
/// sound read as damaged.
impl super::kept_disk::Persist for KeptNodes {
    fn put(&self, out: &mut super::kept_disk::Out) {
        use super::kept_disk::{Flat, Via};
        self.slots.put(out);
        Flat::put(&self.sizes, out);
        self.tested.put(out);
        self.missing.put(out);
        self.spawning.put(out);
        self.writing.put(out);
        self.testing.put(out);
        match self.resolved.get() {
            None => false.put(out),
            Some(r) => {
                true.put(out);
                r.put(out);
            }
        }
    }
    fn get(inp: &mut super::kept_disk::In<'_>) -> Option<KeptNodes> {
        use super::kept_disk::{Flat, Via};
        let k = KeptNodes {
            slots: Persist::get(inp)?,
            sizes: Flat::get(inp)?,
            tested: Persist::get(inp)?,
            missing: Persist::get(inp)?,
            spawning: Persist::get(inp)?,
            writing: Persist::get(inp)?,
            testing: Persist::get(inp)?,
            resolved: Option::<Resolved>::get(inp)?
                .map(Into::into)
                .unwrap_or_default(),
            foreign: Default::default(),
        };
        let n = k.slots.len();
        let within = |s: &BTreeSet<usize>| s.last().is_none_or(|&i| i < n);
        let targets = k.resolved.get().is_none_or(|r| {
            let n = n as u32;
            r.refs.iter().all(|&(i, _, t, _)| i < n && t < n)
        });
        let sets = within(&k.spawning) && within(&k.writing) && within(&k.testing);
        (k.sizes.len() == n && sets && targets).then_some(k)
    }
}

/// On disk: the positions and tags as one list of `u32`s, four per
/// reference.
impl super::kept_disk::Persist for Resolved {
    fn put(&self, out: &mut super::kept_disk::Out) {
        let flat: Vec<u32> = self
            .refs
            .iter()
            .flat_map(|&(a, b, c, t)| [a, b, c, u32::from(t.bits())])
            .collect();
        out.u32s(&flat);
        self.missing.put(out);
    }
    fn get(inp: &mut super::kept_disk::In<'_>) -> Option<Resolved> {
        let flat = inp.u32s()?;
        if flat.len() % 4 != 0 {
            return None;
        }
        // Made at its length (collected through `Option` it grew by
        // doubling: fifteen copies at 100,000 nodes).
        let mut refs = Vec::with_capacity(flat.len() / 4);
        for p in flat.chunks_exact(4) {
            let tag = RefTag::from_bits(u8::try_from(p[3]).ok()?)?;
            refs.push((p[0], p[1], p[2], tag));
        }
        Some(Resolved {
            refs,
            missing: Persist::get(inp)?,
        })
    }
}

super::kept_disk::persist_fields!(Slot { id, refs, tests });

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::{call_with, edge, entry, plan, r};
    use crate::model::OpBody;

    fn facts(kept: &KeptNodes, c: &Content) -> Vec<(usize, String, String, usize, usize)> {
        let g = Graph::new(c);
        kept.data_refs(&g)
            .into_iter()
            .map(|d| {
                (
                    d.node,
                    d.pointer.into_owned(),
                    d.r.node.clone(),
                    d.target,
                    kept.size(d.node),
                )
            })
            .collect()
    }

    fn fresh(c: &Content) -> Vec<(usize, String, String, usize, usize)> {
        let g = Graph::new(c);
        super::super::support::data_refs(&g)
            .into_iter()
            .map(|d| {
                let size = super::super::oversized_phase::estimate(&c.nodes[d.node]);
                (
                    d.node,
                    d.pointer.into_owned(),
                    d.r.node.clone(),
                    d.target,
                    size,
                )
            })
            .collect()
    }

    /// After an edit, a removal (which moves the later nodes up) and an add,
    /// the kept facts equal a fresh walk's; an untouched node keeps its
    /// slot even when stale, which is why the touched ids must be given.
    #[test]
    fn kept_facts_follow_edits_removals_and_adds() {
        let a = call_with("a", "t", serde_json::json!({"x": r("s", None)}), &["o"]);
        let b = call_with("b", "t", serde_json::json!({"y": r("a", Some("o"))}), &[]);
        let c0 = call_with("c", "t", serde_json::json!({"z": r("b", None)}), &[]);
        let mut c = plan(
            vec![entry("s"), a, b, c0],
            vec![edge("e1", "s", "a", "always")],
        );
        let mut kept = KeptNodes::default();
        kept.update(&c, &Graph::new(&c), None, None, None);
        assert_eq!(facts(&kept, &c), fresh(&c));
        assert_eq!(facts(&kept, &c).len(), 3);

        // An edit in place: touched.
        let before = c.clone();
        c.nodes[2] = call_with("b", "t", serde_json::json!({"y": r("s", None)}), &[]);
        let op = OpBody::ReplaceNode {
            node: c.nodes[2].clone(),
        };
        kept.update(
            &c,
            &Graph::new(&c),
            None,
            Some(&Touched::of(&before, [&op])),
            None,
        );
        assert_eq!(facts(&kept, &c), fresh(&c));

        // A removal shifts `c` into `b`'s slot, made again without the
        // positions before it, then taken out with them (the other slots
        // moved up, not made again); then an add at the end.
        let (before, old) = (c.clone(), kept.slots.len());
        c.nodes.remove(2);
        let op = OpBody::RemoveNode {
            node_id: "b".into(),
            incident_edge_ids: vec![],
        };
        let t = Touched::of(&before, [&op]);
        let mut remade = KeptNodes::default();
        remade.update(&before, &Graph::new(&before), None, None, None);
        remade.update(&c, &Graph::new(&c), None, Some(&t), None);
        assert_eq!(facts(&remade, &c), fresh(&c));
        let at = |id: &str| before.nodes.iter().position(|n| n.id == id);
        let was = Before {
            len: old,
            at: t
                .nodes
                .iter()
                .filter_map(|id| Some((at(id)?, id.as_str())))
                .collect(),
        };
        let made = kept.resolved.get().map(|r| r.refs.as_ptr());
        assert!(made.is_some(), "made when asked for");
        kept.update(&c, &Graph::new(&c), None, Some(&t), Some(&was));
        let now = kept.resolved.get().map(|r| r.refs.as_ptr());
        assert_eq!(now, made, "the targets moved up, not looked up again");
        assert_eq!(facts(&kept, &c), fresh(&c));
        let c_slot = kept.slots.peek(2).map(|s| s.id.as_str());
        assert_eq!(c_slot, Some("c"), "moved up, as it was");
        let before = c.clone();
        let d = call_with("d", "t", serde_json::json!({"w": r("c", None)}), &[]);
        c.nodes.push(d.clone());
        kept.update(
            &c,
            &Graph::new(&c),
            None,
            Some(&Touched::of(&before, [&OpBody::AddNode { node: d }])),
            None,
        );
        assert_eq!(facts(&kept, &c), fresh(&c));
        assert_eq!(fresh(&c).len(), 2, "c's target b is gone; d reads c");

        // Not told: the stale slot stays (what `touched` is for).
        c.nodes[1] = call_with("a", "t", serde_json::json!({}), &["o"]);
        kept.update(&c, &Graph::new(&c), None, Some(&Touched::default()), None);
        assert_ne!(facts(&kept, &c), fresh(&c));
        let before = c.clone();
        let op = OpBody::SetNodeDefinition {
            node_id: "a".into(),
            definition: (*c.nodes[1].definition).clone(),
        };
        kept.update(
            &c,
            &Graph::new(&c),
            None,
            Some(&Touched::of(&before, [&op])),
            None,
        );
        assert_eq!(facts(&kept, &c), fresh(&c));
    }

    /// The targets looked up once are kept over an added edge (the same
    /// ids, positions and references) and an added node (its references
    /// appended), and dropped when a touched node's references change or a
    /// node is added under a name a reference was missing; the data
    /// references equal a fresh walk's each time.
    #[test]
    fn kept_targets_stay_over_added_edges_and_nodes() {
        let a = call_with("a", "t", serde_json::json!({"x": r("s", None)}), &["o"]);
        let b = call_with("b", "t", serde_json::json!({"y": r("a", Some("o"))}), &[]);
        let mut c = plan(vec![entry("s"), a, b], vec![edge("e1", "s", "a", "always")]);
        let mut kept = KeptNodes::default();
        kept.update(&c, &Graph::new(&c), None, None, None);
        assert_eq!(facts(&kept, &c), fresh(&c));
        let made = kept
            .resolved
            .get()
            .expect("made when asked for")
            .refs
            .as_ptr();
        let step = |kept: &mut KeptNodes, c: &mut Content, op: OpBody| {
            let before = c.clone();
            match &op {
                OpBody::AddEdge { edge } => c.edges.push(edge.clone()),
                OpBody::ReplaceNode { node } => {
                    let i = c.nodes.iter().position(|n| n.id == node.id).unwrap();
                    c.nodes[i] = node.clone();
                }
                OpBody::AddNode { node } => c.nodes.push(node.clone()),
                _ => unreachable!(),
            }
            kept.update(
                c,
                &Graph::new(c),
                None,
                Some(&Touched::of(&before, [&op])),
                None,
            );
        };
        step(
            &mut kept,
            &mut c,
            OpBody::AddEdge {
                edge: edge("e2", "a", "b", "always"),
            },
        );
        assert_eq!(
            kept.resolved.get().map(|v| v.refs.as_ptr()),
            Some(made),
            "kept"
        );
        assert_eq!(facts(&kept, &c), fresh(&c));
        let b2 = call_with(
            "b",
            "t",
            serde_json::json!({"y": r("s", None), "z": r("a", None)}),
            &[],
        );
        step(&mut kept, &mut c, OpBody::ReplaceNode { node: b2 });
        assert!(kept.resolved.get().is_none(), "references changed");
        assert_eq!(facts(&kept, &c), fresh(&c));
        let d = call_with(
            "d",
            "t",
            serde_json::json!({"w": r("b", None), "v": r("later", None)}),
            &[],
        );
        step(&mut kept, &mut c, OpBody::AddNode { node: d });
        assert!(kept.resolved.get().is_some(), "a node added: appended");
        assert_eq!(facts(&kept, &c), fresh(&c));
        assert_eq!(fresh(&c).len(), 4);
        let later = call_with("later", "t", serde_json::json!({"u": r("d", None)}), &[]);
        step(&mut kept, &mut c, OpBody::AddNode { node: later });
        assert!(kept.resolved.get().is_none(), "a missing name added");
        assert_eq!(facts(&kept, &c), fresh(&c));
        assert_eq!(fresh(&c).len(), 6);
    }

    /// The references a check asks for by kind are those of a fresh walk
    /// with that kind, in order, also after the kept facts are written and
    /// read back (the kinds are kept with the positions); a kind no
    /// reference has reads as damage.
    #[test]
    fn references_asked_for_by_kind_are_the_fresh_ones_of_that_kind() {
        use serde_json::json;
        let branch = json!({"segments": [{"edge": "e1"}]});
        let refs = json!({
            "first": {"$ref": {"node": "s", "select": "first"}},
            "last": {"$ref": {"node": "s", "select": "last", "path": "p"}},
            "all": {"$ref": {"node": "a", "select": "all"}},
            "index": {"$ref": {"node": "a", "select": {"index": 2}}},
            "branched": {"$ref": {"node": "s", "select": "all", "branchId": branch}},
            "missing": {"$ref": {"node": "nowhere", "select": "first"}},
        });
        let a = call_with("a", "t", json!({"x": r("s", None)}), &["o"]);
        let b = call_with("b", "t", refs, &[]);
        let c = plan(vec![entry("s"), a, b], vec![edge("e1", "s", "a", "always")]);
        let g = Graph::new(&c);
        let mut made = KeptNodes::default();
        made.update(&c, &g, None, None, None);
        made.data_refs(&g);
        let bytes = super::super::kept_disk::to_bytes(&made);
        let read: KeptNodes = super::super::kept_disk::from_bytes(&bytes).expect("reads back");
        type Pick = fn(usize, RefTag, usize) -> bool;
        let picks: [(&str, Pick); 4] = [
            ("first or last", |_, t, _| t.first_or_last()),
            ("branch", |_, t, _| t.branch()),
            ("all without a branch", |_, t, _| t.all() && !t.branch()),
            ("to node 1", |_, _, target| target == 1),
        ];
        for kept in [&made, &read] {
            let ends: Vec<_> = super::super::support::data_refs(&g)
                .iter()
                .map(|d| (d.node, d.target))
                .collect();
            assert_eq!(kept.data_ref_ends(&g), ends);
            for (what, pick) in picks {
                let got: Vec<_> = kept
                    .data_refs_where(&g, pick)
                    .into_iter()
                    .map(|d| (d.node, d.pointer.into_owned(), d.target))
                    .collect();
                let want: Vec<_> = super::super::support::data_refs(&g)
                    .into_iter()
                    .filter(|d| pick(d.node, RefTag::of(d.r), d.target))
                    .map(|d| (d.node, d.pointer.into_owned(), d.target))
                    .collect();
                assert!(!want.is_empty(), "{what}: the plan has some");
                assert_eq!(got, want, "{what}");
                assert!(!kept.damaged(), "{what}");
            }
        }
        assert_eq!(
            super::super::support::data_refs(&g).len(),
            6,
            "every reference but the missing one"
        );
        // Tags are three bits; all and first-or-last together is no tag.
        for bits in 0..=u8::MAX {
            let known = [0, 1, 2, 3, 4, 5].contains(&bits);
            assert_eq!(RefTag::from_bits(bits).is_some(), known, "{bits}");
        }
    }
}
