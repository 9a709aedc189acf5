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
//! a removal (which moves the later nodes up) makes every slot again. So
//! the facts equal a fresh walk's, at the cost of the touched nodes.

use super::Graph;
use super::support::{DataRef, is_canonical};
use crate::model::registry::Registry;
use crate::model::touched::Touched;
use crate::model::{Content, Node, Ref};

/// Every node's facts, in node order (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct KeptNodes {
    slots: Vec<Slot>,
    /// The first segment of every structured predicate test's path (the
    /// node it reads), with the number of tests naming it.
    tested: crate::model::hash::FastMap<String, usize>,
    /// Those of them that are not node ids of the content.
    missing: crate::model::hash::FastSet<String>,
    /// The positions of the slots whose node `spawns` (in order: a run
    /// finds the spawning calls without a pass over every slot).
    spawning: std::collections::BTreeSet<usize>,
    /// [`KeptNodes::data_refs`] as positions, made when first asked for
    /// and kept while no node is removed, no touched node's references
    /// change and no node is added under a name a reference was missing
    /// (an added edge, a node added: the ids, positions and references it
    /// was made from are then the same, and the added nodes' own are
    /// appended), so that a run reads it without looking up every target.
    resolved: std::cell::OnceCell<Resolved>,
}

/// The data references whose target exists, as positions (the reading
/// node, canonical ones only, in node order; its reference; the target),
/// and the names the other references read (missing nodes).
#[derive(Debug, Default, PartialEq, Eq)]
struct Resolved {
    refs: Vec<(u32, u32, u32)>,
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
                Some(target) => self.refs.push((at(i), at(k), at(target))),
                None => {
                    self.missing.insert(r.node.clone());
                }
            }
        }
    }
}

/// One node's facts.
#[derive(Debug)]
struct Slot {
    /// The id of the node they are about.
    id: String,
    /// Its data references: pointer relative to the node, and the reference.
    refs: Vec<(String, Ref)>,
    /// Its read size estimate.
    size: usize,
    /// Its structured predicate's tests (pointer, path).
    tests: Vec<(String, String)>,
    /// Whether it is a call of a tool that spawns an agent (in the
    /// registry the facts were made with).
    spawns: bool,
}

impl Slot {
    fn of(n: &Node, registry: Option<&Registry>) -> Slot {
        Slot {
            id: n.id.clone(),
            refs: n
                .data_refs()
                .into_iter()
                .map(|(p, r)| (p, r.clone()))
                .collect(),
            size: super::oversized_phase::estimate(n),
            tests: super::predicate_unknown_node::tests_of(n),
            spawns: registry.is_some_and(|reg| super::synthesis::spawns_agent(n, reg)),
        }
    }
}

/// Puts slot `i` in `spawning` when its node spawns, else takes it out.
fn mark(spawning: &mut std::collections::BTreeSet<usize>, i: usize, spawns: bool) {
    if spawns {
        spawning.insert(i);
    } else {
        spawning.remove(&i);
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
    /// `None` when the registry is not the last run's) or after a removal
    /// (the later nodes moved up), else the touched nodes and the new ones
    /// (added at the end).
    pub(crate) fn update(
        &mut self,
        content: &Content,
        g: &Graph,
        registry: Option<&Registry>,
        touched: Option<&Touched>,
    ) {
        let of = |n: &Node| Slot::of(n, registry);
        match touched {
            Some(t) if !t.removed && content.nodes.len() >= self.slots.len() => {
                let n0 = self.slots.len();
                for id in &t.nodes {
                    if let Some(i) = g.index_of(id)
                        && i < self.slots.len()
                    {
                        let slot = of(&content.nodes[i]);
                        if slot.refs != self.slots[i].refs {
                            self.resolved.take();
                        }
                        count_tests(&mut self.tested, &self.slots[i], false);
                        count_tests(&mut self.tested, &slot, true);
                        mark(&mut self.spawning, i, slot.spawns);
                        self.slots[i] = slot;
                    }
                }
                for n in &content.nodes[self.slots.len()..] {
                    let slot = of(n);
                    count_tests(&mut self.tested, &slot, true);
                    mark(&mut self.spawning, self.slots.len(), slot.spawns);
                    self.slots.push(slot);
                }
                // Added nodes: their references appended, unless one of
                // them is (the first with) a name a reference was missing.
                if let Some(r) = self.resolved.get_mut() {
                    let named = (n0..self.slots.len())
                        .any(|i| is_canonical(g, i) && r.missing.contains(&self.slots[i].id));
                    if named {
                        self.resolved.take();
                    } else {
                        for i in n0..self.slots.len() {
                            r.add(g, i, &self.slots[i]);
                        }
                    }
                }
                // Without a removal no id went away: a name is missing now
                // when it was (and is still tested and not a touched id
                // that is there now) or a touched node's tests name it.
                self.missing
                    .retain(|id| self.tested.contains_key(id) && g.index_of(id).is_none());
                for id in &t.nodes {
                    let Some(i) = g.index_of(id) else { continue };
                    for (_, path) in &self.slots[i].tests {
                        let first = path.split('.').next().unwrap_or(path);
                        if g.index_of(first).is_none() {
                            self.missing.insert(first.to_string());
                        }
                    }
                }
            }
            _ => {
                // Room for the nodes a warm session adds next: growing a
                // full vector moves every slot (milliseconds at 100k nodes).
                let n = content.nodes.len();
                self.resolved.take();
                self.slots = Vec::with_capacity(n + n / 4 + 16);
                self.slots.extend(content.nodes.iter().map(of));
                self.tested.clear();
                for s in &self.slots {
                    count_tests(&mut self.tested, s, true);
                }
                self.spawning = (0..n).filter(|&i| self.slots[i].spawns).collect();
                self.missing = self
                    .tested
                    .keys()
                    .filter(|id| g.index_of(id).is_none())
                    .cloned()
                    .collect();
            }
        }
        debug_assert!(
            self.slots
                .iter()
                .zip(&content.nodes)
                .all(|(s, n)| s.id == n.id),
            "every slot is about the node at its position"
        );
        debug_assert!(
            self.spawning
                .iter()
                .copied()
                .eq((0..self.slots.len()).filter(|&i| self.slots[i].spawns)),
            "the spawning slots are those that spawn"
        );
        debug_assert!(
            {
                let mut fresh = Default::default();
                self.slots
                    .iter()
                    .for_each(|s| count_tests(&mut fresh, s, true));
                fresh == self.tested
            },
            "the tested names are the slots' tests"
        );
        debug_assert!(
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
        let resolved = self.resolved.get_or_init(|| self.resolve(g));
        debug_assert!(
            *resolved == self.resolve(g),
            "the kept targets are the ones looked up now"
        );
        resolved
            .refs
            .iter()
            .map(|&(i, k, target)| {
                let (i, k) = (i as usize, k as usize);
                let (pointer, r) = &self.slots[i].refs[k];
                DataRef {
                    node: i,
                    pointer: pointer.as_str().into(),
                    r,
                    target: target as usize,
                }
            })
            .collect()
    }

    /// The data references whose target exists, as positions (see
    /// [`Resolved`]).
    fn resolve(&self, g: &Graph) -> Resolved {
        let mut out = Resolved::default();
        for (i, s) in self.slots.iter().enumerate() {
            out.add(g, i, s);
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

    /// Node `i`'s structured predicate's tests.
    pub(crate) fn tests(&self, i: usize) -> &[(String, String)] {
        &self.slots[i].tests
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

    /// Node `i`'s read size estimate.
    pub(crate) fn size(&self, i: usize) -> usize {
        self.slots[i].size
    }

    /// The number of nodes the facts are about.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }
}

// The kept state on disk (see `super::kept_disk`); `resolved` is a cache,
// made again when first asked for.
super::kept_disk::persist_fields!(KeptNodes {
    slots,
    tested,
    missing,
    spawning,
    ..
});
super::kept_disk::persist_fields!(Slot {
    id,
    refs,
    size,
    tests,
    spawns
});

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
        kept.update(&c, &Graph::new(&c), None, None);
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
        );
        assert_eq!(facts(&kept, &c), fresh(&c));

        // A removal shifts `c` into `b`'s slot; then an add at the end.
        let before = c.clone();
        c.nodes.remove(2);
        let op = OpBody::RemoveNode {
            node_id: "b".into(),
            incident_edge_ids: vec![],
        };
        kept.update(
            &c,
            &Graph::new(&c),
            None,
            Some(&Touched::of(&before, [&op])),
        );
        assert_eq!(facts(&kept, &c), fresh(&c));
        let before = c.clone();
        let d = call_with("d", "t", serde_json::json!({"w": r("c", None)}), &[]);
        c.nodes.push(d.clone());
        kept.update(
            &c,
            &Graph::new(&c),
            None,
            Some(&Touched::of(&before, [&OpBody::AddNode { node: d }])),
        );
        assert_eq!(facts(&kept, &c), fresh(&c));
        assert_eq!(fresh(&c).len(), 2, "c's target b is gone; d reads c");

        // Not told: the stale slot stays (what `touched` is for).
        c.nodes[1] = call_with("a", "t", serde_json::json!({}), &["o"]);
        kept.update(&c, &Graph::new(&c), None, Some(&Touched::default()));
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
        kept.update(&c, &Graph::new(&c), None, None);
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
            kept.update(c, &Graph::new(c), None, Some(&Touched::of(&before, [&op])));
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
}
