//! The content side of the fold: nodes, edges and bounds as the content ops
//! leave them, and the facts the fold notices on the way.

use super::base::{Base, EDGES, NODES, Side};
use super::digest::Changed;
use crate::model::hash::FastMap as HashMap;
use crate::model::hash::FastSet as HashSet;
use crate::model::ids::Id;
use crate::model::note::{NodeSketch, Note};
use crate::model::value::{Map, Value};
use crate::model::{Bounds, Content, Edge, Node, OpBody, Provenance};

fn sketch(n: &Node) -> NodeSketch {
    NodeSketch {
        kind: n.kind,
        phase: n.phase.clone(),
    }
}

/// A node whose adding transaction is not known (folded earlier).
pub(super) const NO_TX: u32 = u32::MAX;

#[derive(Default)]
pub(super) struct State {
    /// Node slots, in order: a removed node stays in its slot (listed in
    /// `nodes_gone`, no longer in `node_at`) until the content is made, so
    /// that a fold on top of a plan moves none of its nodes.
    nodes: Vec<Node>,
    nodes_gone: HashSet<usize>,
    /// Per node slot from `tx_base` on: the transaction that added it
    /// (numbered by `txs`).
    node_tx: Vec<u32>,
    /// The slots before it were folded earlier (their transaction is not
    /// known, [`NO_TX`], unless set since in `old_tx`): a fold on top of a
    /// plan makes no entry per node.
    tx_base: usize,
    /// The transaction of a slot before `tx_base` that an op added again.
    old_tx: HashMap<usize, u32>,
    /// Transaction ids seen by `add_node`, numbered.
    txs: HashMap<String, u32>,
    node_at: Ids,
    /// Edge slots, as the node slots.
    edges: Vec<Edge>,
    edges_gone: HashSet<usize>,
    edge_at: Ids,
    bounds: Option<Bounds>,
    /// Ids named by set_* ops while absent.
    touched_absent: Vec<String>,
    /// A node or an edge was removed (slots emptied): positions move when
    /// the content is made, so the indexes cannot be kept.
    removed: bool,
    /// An edge was replaced in its slot (its ends may have changed).
    replaced: bool,
    /// Leading edge slots known to have both ends present (the content a
    /// fold on top starts from has no dangling edge).
    edges_checked: usize,
    /// The first node and edge slots changed and whether the bounds were
    /// set, since the content this state started from (for the digest).
    changed: Changed,
}

/// Node and edge positions by id, kept with a fold when they are still
/// those of its content (no node or edge was removed), so that folding more
/// ops on top does not index every id again.
#[derive(Debug, Clone, Default)]
pub struct Index {
    node_at: HashMap<Id, usize>,
    edge_at: HashMap<Id, usize>,
}

impl Index {
    /// The positions of `c`'s nodes and edges (the last, for a repeated id:
    /// see [`Index::position`]).
    pub(super) fn of(c: &Content) -> Index {
        Index {
            node_at: c
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.id.clone(), i))
                .collect(),
            edge_at: c
                .edges
                .iter()
                .enumerate()
                .map(|(i, e)| (e.id.clone(), i))
                .collect(),
        }
    }

    /// Whether it holds every position of `c` and no other: one entry per
    /// node and per edge (no id repeated).
    pub(super) fn fits(&self, c: &Content) -> bool {
        self.node_at.len() == c.nodes.len() && self.edge_at.len() == c.edges.len()
    }

    /// The position of the node with `id`.
    pub(crate) fn node(&self, id: &str) -> Option<usize> {
        self.node_at.get(id).copied()
    }

    /// The position of the edge with `id`.
    pub(crate) fn edge(&self, id: &str) -> Option<usize> {
        self.edge_at.get(id).copied()
    }
}

/// The positions by id of the slots present (node or edge slots, see
/// [`State`]): a map; or, for a fold on top of a content whose [`Index`]
/// was not kept, none until [`SCANS`] ids were looked up, each by a scan
/// of the slots. A fold of a one-shot command's short tail on top of a
/// 100,000-node plan looks a handful of ids up: scanning for each costs
/// far less than indexing every id (about 0.1 G instructions). Either way
/// a lookup answers what the map would: the last slot present with the
/// id, none for an id removed since (and not added again).
struct Ids {
    map: Option<HashMap<Id, usize>>,
    /// Asked before any scan while the map is not made (see `base::Base`),
    /// and which of its sides these slots are.
    base: Option<(Base, Side)>,
    /// Scans made so far (unmade only).
    scans: u32,
    /// Ids removed while unmade and not added again: a slot before the
    /// removed one with the same id (a content with a repeated id) is not
    /// the map's either.
    dropped: HashSet<String>,
}

/// Lookups answered by a scan before the map is made.
const SCANS: u32 = 16;

/// Made and empty (a fold from the first op).
impl Default for Ids {
    fn default() -> Ids {
        Ids::made(HashMap::default())
    }
}

impl Ids {
    fn made(map: HashMap<Id, usize>) -> Ids {
        Ids {
            map: Some(map),
            base: None,
            scans: 0,
            dropped: HashSet::default(),
        }
    }

    fn unmade(base: Option<(Base, Side)>) -> Ids {
        Ids {
            map: None,
            base,
            scans: 0,
            dropped: HashSet::default(),
        }
    }

    /// The slot present with `id` among `slots` (`gone`: the slots
    /// emptied; `id_of`: a slot's id).
    fn get<T>(
        &mut self,
        slots: &[T],
        gone: &HashSet<usize>,
        id_of: impl Fn(&T) -> &str,
        id: &str,
    ) -> Option<usize> {
        if self.map.is_none() {
            if let Some((base, side)) = &self.base
                && let Some(at) = base.find(slots, |i| gone.contains(&i), &id_of, id, *side)
            {
                return at;
            }
            if self.scans < SCANS {
                self.scans += 1;
                if self.dropped.contains(id) {
                    return None;
                }
                return (0..slots.len())
                    .rev()
                    .find(|&i| id_of(&slots[i]) == id && !gone.contains(&i));
            }
            let mut map = HashMap::with_capacity_and_hasher(slots.len(), Default::default());
            for (i, s) in slots.iter().enumerate() {
                if !gone.contains(&i) {
                    map.insert(Id::from(id_of(s)), i);
                }
            }
            for d in self.dropped.drain() {
                map.remove(d.as_str());
            }
            self.map = Some(map);
        }
        self.map.as_ref().and_then(|m| m.get(id).copied())
    }

    /// Records that slot `at` (the last) now has `id`, which had none.
    fn insert(&mut self, id: &str, at: usize) {
        match &mut self.map {
            Some(m) => {
                m.insert(Id::from(id), at);
            }
            None => {
                self.dropped.remove(id);
            }
        }
    }

    /// Takes `id` out: the slot it had (which the caller empties).
    fn remove<T>(
        &mut self,
        slots: &[T],
        gone: &HashSet<usize>,
        id_of: impl Fn(&T) -> &str,
        id: &str,
    ) -> Option<usize> {
        let at = self.get(slots, gone, id_of, id)?;
        match &mut self.map {
            Some(m) => {
                m.remove(id);
            }
            None => {
                self.dropped.insert(id.to_string());
            }
        }
        Some(at)
    }

    /// Room for `more` ids (when the map is made).
    fn reserve(&mut self, more: usize) {
        if let Some(m) = &mut self.map {
            m.reserve(more);
        }
    }

    fn into_map(self) -> Option<HashMap<Id, usize>> {
        self.map
    }
}

fn id_of_node(n: &Node) -> &str {
    &n.id
}

fn id_of_edge(e: &Edge) -> &str {
    &e.id
}

impl State {
    /// Room for `nodes` more nodes and `edges` more edges: a fold that
    /// knows how many its ops may add grows no vector or map by doubling
    /// (at 100,000 nodes the copies were 5 % of a `validate`).
    pub(super) fn reserve(&mut self, nodes: usize, edges: usize) {
        self.nodes.reserve(nodes);
        self.node_tx.reserve(nodes);
        self.node_at.reserve(nodes);
        self.edges.reserve(edges);
        self.edge_at.reserve(edges);
    }

    fn node_mut(&mut self, id: &str) -> Option<&mut Node> {
        let i = self.node_slot(id)?;
        self.changed.node = self.changed.node.min(i);
        Some(&mut self.nodes[i])
    }

    /// The slot of the node present with `id`.
    fn node_slot(&mut self, id: &str) -> Option<usize> {
        self.node_at
            .get(&self.nodes, &self.nodes_gone, id_of_node, id)
    }

    /// The slot of the edge present with `id`.
    fn edge_slot(&mut self, id: &str) -> Option<usize> {
        self.edge_at
            .get(&self.edges, &self.edges_gone, id_of_edge, id)
    }

    fn node_changed(&mut self, slot: usize) {
        self.changed.node = self.changed.node.min(slot);
    }

    fn edge_changed(&mut self, slot: usize) {
        self.changed.edge = self.changed.edge.min(slot);
    }

    /// The transaction that added the node in slot `i`.
    fn tx_of(&self, i: usize) -> u32 {
        match i.checked_sub(self.tx_base) {
            Some(k) => self.node_tx[k],
            None => self.old_tx.get(&i).copied().unwrap_or(NO_TX),
        }
    }

    fn set_tx(&mut self, i: usize, t: u32) {
        match i.checked_sub(self.tx_base) {
            Some(k) => self.node_tx[k] = t,
            None => {
                self.old_tx.insert(i, t);
            }
        }
    }

    fn tx_number(&mut self, tx: &str) -> u32 {
        if let Some(&n) = self.txs.get(tx) {
            return n;
        }
        let n = self.txs.len() as u32;
        self.txs.insert(tx.to_string(), n);
        n
    }

    pub(super) fn apply(&mut self, tx: &str, body: OpBody, issues: &mut Vec<Note>) {
        let replace = matches!(body, OpBody::ReplaceNode { .. });
        match body {
            OpBody::AddNode { node } | OpBody::ReplaceNode { node } => {
                let t = self.tx_number(tx);
                match self.node_slot(&node.id) {
                    Some(i) => {
                        // A replace says so (`add-node --replace`). An add of
                        // an id that is there is two nodes under one id: in
                        // one change (a document, a template), or in two
                        // changes that did not see each other (two clones,
                        // merged); the later one is kept and the other lost.
                        // (Logs written before `replace_node` replaced by
                        // adding again: such a replace reads as this.)
                        if (self.tx_of(i) == t || !replace)
                            && let Some(old) = Some(&self.nodes[i]).filter(|old| **old != node)
                        {
                            issues.push(Note::DuplicateNodeId {
                                id: node.id.to_string(),
                                lost: sketch(old),
                                kept: sketch(&node),
                            });
                        }
                        self.nodes[i] = node;
                        self.set_tx(i, t);
                        self.node_changed(i);
                    }
                    None => {
                        self.node_changed(self.nodes.len());
                        self.node_at.insert(&node.id, self.nodes.len());
                        self.nodes.push(node);
                        self.node_tx.push(t);
                    }
                }
            }
            OpBody::RemoveNode {
                node_id,
                incident_edge_ids,
            } => {
                self.removed = true;
                let at = (self.node_at).remove(&self.nodes, &self.nodes_gone, id_of_node, &node_id);
                if let Some(i) = at {
                    self.nodes_gone.insert(i);
                    self.node_changed(i);
                }
                for e in &incident_edge_ids {
                    let at = (self.edge_at).remove(&self.edges, &self.edges_gone, id_of_edge, e);
                    if let Some(i) = at {
                        self.edges_gone.insert(i);
                        self.edge_changed(i);
                    }
                }
            }
            OpBody::SetNodeField {
                node_id,
                path,
                value,
            } => match self.node_mut(&node_id) {
                Some(n) => set_path(&mut n.definition, &path, value),
                None => self.touched_absent.push(node_id),
            },
            OpBody::SetNodeDefinition {
                node_id,
                definition,
            } => match self.node_mut(&node_id) {
                Some(n) => n.definition = definition.into(),
                None => self.touched_absent.push(node_id),
            },
            OpBody::SetNodePhase { node_id, phase } => match self.node_mut(&node_id) {
                Some(n) => n.phase = phase.filter(|p| !p.is_empty()).map(Into::into),
                None => self.touched_absent.push(node_id),
            },
            OpBody::AddEdge { edge } => match self.edge_slot(&edge.id) {
                Some(i) => {
                    let old = &self.edges[i];
                    if !old.same_signature(&edge) {
                        issues.push(Note::DuplicateEdgeId {
                            kept: edge.clone(),
                            lost: old.clone(),
                        });
                    }
                    self.edges[i] = edge;
                    self.replaced = true;
                    self.edge_changed(i);
                    // Its ends may be new: checked again at the end.
                    self.edges_checked = self.edges_checked.min(i);
                }
                None => {
                    self.edge_changed(self.edges.len());
                    self.edge_at.insert(&edge.id, self.edges.len());
                    self.edges.push(edge);
                }
            },
            OpBody::RemoveEdge { edge_id } => {
                self.removed = true;
                let at = (self.edge_at).remove(&self.edges, &self.edges_gone, id_of_edge, &edge_id);
                if let Some(i) = at {
                    self.edges_gone.insert(i);
                    self.edge_changed(i);
                }
            }
            OpBody::SetBounds { bounds } => {
                self.bounds = Some(bounds);
                self.changed.head = true;
            }
            _ => unreachable!("lifecycle ops go to the lifecycle"),
        }
    }

    /// The state a folded plan's content stands for (to fold more ops on
    /// top of it).
    /// `index`, when given, is `c`'s own (see [`Index`]); `touched_absent`
    /// the ids set_* ops named while absent in the ops `c` was folded from
    /// (each is reported once more at the end if it is absent then).
    /// `base`, when given, a lookup of positions by id in `c` (asked
    /// instead of scanning while no index is made).
    pub(super) fn from_content(
        c: Content,
        index: Option<Index>,
        touched_absent: Vec<String>,
        base: Option<Base>,
    ) -> State {
        let (node_at, edge_at) = match index.filter(|x| x.fits(&c)) {
            Some(x) => (Ids::made(x.node_at), Ids::made(x.edge_at)),
            None => (
                Ids::unmade(base.clone().map(|b| (b, NODES))),
                Ids::unmade(base.map(|b| (b, EDGES))),
            ),
        };
        State {
            node_at,
            edge_at,
            removed: false,
            replaced: false,
            edges_checked: c.edges.len(),
            node_tx: Vec::new(),
            tx_base: c.nodes.len(),
            old_tx: HashMap::default(),
            txs: HashMap::default(),
            nodes: c.nodes,
            nodes_gone: HashSet::default(),
            edges: c.edges,
            edges_gone: HashSet::default(),
            bounds: Some(c.bounds),
            touched_absent,
            changed: Changed::NONE,
        }
    }

    /// The content as it stands now, without consuming the state: what a
    /// freeze or an approval in the middle of the log is checked against.
    pub(super) fn snapshot(
        &self,
        plan_id: &str,
        revision: u64,
        provenance: Option<Provenance>,
    ) -> Content {
        let nodes: Vec<Node> = self
            .nodes
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.nodes_gone.contains(i))
            .map(|(_, n)| n.clone())
            .collect();
        let present: HashSet<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
        let edges = self
            .edges
            .iter()
            .enumerate()
            .filter(|(i, _)| !self.edges_gone.contains(i))
            .map(|(_, e)| e)
            .filter(|e| present.contains(e.from.as_str()) && present.contains(e.to.as_str()))
            .cloned()
            .collect();
        Content {
            plan_id: plan_id.to_string(),
            revision,
            bounds: self.bounds.unwrap_or_default(),
            nodes,
            edges,
            provenance,
        }
    }

    /// The content the ops leave; its [`Index`] when its positions are
    /// still the slots' (nothing was removed and no edge dangles); and the
    /// ids set_* ops named while absent (for a fold on top).
    pub(super) fn finish(
        self,
        plan_id: &str,
        revision: u64,
        provenance: Option<Provenance>,
        issues: &mut Vec<Note>,
    ) -> Finished {
        let State {
            nodes,
            nodes_gone,
            mut node_at,
            edges,
            edges_gone,
            edge_at,
            bounds,
            touched_absent,
            removed,
            replaced,
            edges_checked,
            mut changed,
            ..
        } = self;
        // `node_at` answers for exactly the nodes present.
        let mut present = |id: &str| node_at.get(&nodes, &nodes_gone, id_of_node, id).is_some();
        // Edges before `edges_checked` had both ends present when the fold
        // began: only a removal takes an end away, so such an edge dangles
        // exactly when an end is the id of a node slot emptied and not
        // present again (no lookup per edge: there are few such ids).
        let absent: HashSet<&str> = if removed {
            let gone = nodes_gone.iter().map(|&i| nodes[i].id.as_str());
            gone.filter(|id| !present(id)).collect()
        } else {
            HashSet::default()
        };
        // The slots before `edges_checked` to look at: none without an
        // absent id; those touching one when the base lists them (a
        // removal in a one-shot command's tail passed every edge of a
        // 100,000-node plan, 2–3 ms); else all of them.
        let (listed, from) = if absent.is_empty() {
            (Vec::new(), edges_checked)
        } else {
            let base = edge_at.base.as_ref().map(|(b, _)| b);
            match touching(base, &edges, &absent, edges_checked) {
                Some(listed) => (listed, edges_checked),
                None => (Vec::new(), 0),
            }
        };
        let mut dangled = false;
        // A tail that removed a node passes over every edge when the base
        // cannot list them: a few absent ids are compared as they are, and
        // a slot is looked up among the removed edges only when there are
        // some (a hash per lookup was most of a one-shot fold on top at
        // 100,000 nodes).
        let few: Option<Vec<&str>> = (absent.len() <= 8).then(|| absent.iter().copied().collect());
        let is_absent = |id: &str| match &few {
            Some(ids) => ids.contains(&id),
            None => absent.contains(id),
        };
        let any_gone = !edges_gone.is_empty();
        let mut drop_edges = edges_gone;
        for slot in listed.into_iter().chain(from..edges.len()) {
            if any_gone && drop_edges.contains(&slot) {
                continue;
            }
            let e = &edges[slot];
            let mut ends = [e.from.as_str(), e.to.as_str()].into_iter();
            let missing = if slot < edges_checked {
                ends.find(|id| is_absent(id))
            } else {
                ends.find(|id| !present(id))
            };
            if let Some(m) = missing {
                let missing = m.to_string();
                dangled = true;
                changed.edge = changed.edge.min(slot);
                issues.push(Note::DanglingEdge {
                    edge: e.clone(),
                    missing,
                });
                drop_edges.insert(slot);
            }
        }
        let mut seen = HashSet::default();
        for id in &touched_absent {
            if !present(id) && seen.insert(id.as_str()) {
                issues.push(Note::UnknownNode { node: id.clone() });
            }
        }
        drop(absent);
        // The base follows the slots taken out (see `base::Base::after`).
        let base = node_at
            .base
            .as_ref()
            .and_then(|(b, _)| b.after([&nodes_gone, &drop_edges]))
            .map(|b| if replaced { b.reshaped() } else { b });
        let edges = keep_slots(edges, &drop_edges);
        // Without a removal, the nodes are the slots themselves: nothing
        // is moved (linear in the plan for each fold on top otherwise).
        let nodes = keep_slots(nodes, &nodes_gone);
        // Kept when made (a fold on top of this one takes them over).
        let index = match (node_at.into_map(), edge_at.into_map()) {
            (Some(node_at), Some(edge_at)) if !removed && !dangled => {
                Some(Index { node_at, edge_at })
            }
            _ => None,
        };
        let content = Content {
            plan_id: plan_id.to_string(),
            revision,
            bounds: bounds.unwrap_or_default(),
            nodes,
            edges,
            provenance,
        };
        Finished {
            content,
            index,
            base,
            touched_absent,
            changed,
        }
    }
}

/// What [`State::finish`] gives: the content the ops leave, its [`Index`]
/// and [`Base`] when they still hold, the ids set_* ops named while
/// absent, and the first positions changed.
pub(super) struct Finished {
    pub(super) content: Content,
    pub(super) index: Option<Index>,
    pub(super) base: Option<Base>,
    pub(super) touched_absent: Vec<String>,
    pub(super) changed: Changed,
}

/// Absent ids past this many make [`State::finish`] pass every edge rather
/// than ask the base for each id's edges.
const TOUCHING_ASKED: usize = 64;

/// The slots before `checked` of the edges from or to an `absent` id, in
/// order, as `base` lists them (see [`Base::edges_touching`]); `None` when
/// it cannot tell or there are many ids: the caller passes every edge.
/// Only a removal in this fold makes an id absent, and an edge before
/// `checked` was not replaced in it (a replacement lowers `checked` to its
/// slot), so the edges that can dangle are exactly these.
fn touching(
    base: Option<&Base>,
    edges: &[Edge],
    absent: &HashSet<&str>,
    checked: usize,
) -> Option<Vec<usize>> {
    let base = base.filter(|_| absent.len() <= TOUCHING_ASKED)?;
    let mut slots = Vec::new();
    for id in absent {
        let found = base.edges_touching(edges, id)?;
        slots.extend(found.into_iter().filter(|&k| k < checked));
    }
    slots.sort_unstable();
    slots.dedup();
    Some(slots)
}

/// `items` without the slots in `gone`: `items` itself when there is none.
/// In place: the slots before the first one gone are not moved, and no
/// slot is looked up in `gone` (a fold on top that removed the plan's last
/// node passed every node of a 100,000-node plan through a new vector).
fn keep_slots<T>(mut items: Vec<T>, gone: &HashSet<usize>) -> Vec<T> {
    if gone.is_empty() {
        return items;
    }
    let mut gone: Vec<usize> = gone.iter().copied().collect();
    gone.sort_unstable();
    // The slots before the first gone stay where they are, unvisited (a
    // `retain` asked about each: ≈ 1.8 M instructions at 100,000 nodes
    // when the gone slot was the last). From there on each kept item is
    // swapped down to the next free place, the gone ones ending past it.
    let first = gone[0];
    let mut gone = gone.into_iter().peekable();
    let mut free = first;
    for slot in first..items.len() {
        if gone.next_if_eq(&slot).is_none() {
            items.swap(free, slot);
            free += 1;
        }
    }
    items.truncate(free);
    items
}

/// Sets a dot path inside a definition, creating objects along the way. An
/// intermediate that is not an object is replaced by one, except that an
/// array accepts a numeric segment within its length.
pub fn set_path(def: &mut Map, path: &str, value: Value) {
    let segs: Vec<&str> = path.split('.').collect();
    if segs.iter().any(|s| s.is_empty()) {
        return;
    }
    let mut slot: &mut Map = def;
    for (i, seg) in segs.iter().enumerate() {
        if i == segs.len() - 1 {
            slot.insert(Id::from(*seg), value);
            return;
        }
        let entry = slot.get_or_insert_with(Id::from(*seg), || Value::Object(Map::new()));
        if let Value::Array(items) = entry
            && let Ok(idx) = segs[i + 1].parse::<usize>()
            && idx < items.len()
        {
            set_in_array(items, idx, &segs[i + 2..], value);
            return;
        }
        if !matches!(entry, Value::Object(_)) {
            *entry = Value::Object(Map::new());
        }
        match entry {
            Value::Object(m) => slot = m,
            _ => unreachable!("made an object above"),
        }
    }
}

fn set_in_array(items: &mut [Value], idx: usize, rest: &[&str], value: Value) {
    if rest.is_empty() {
        items[idx] = value;
        return;
    }
    if !matches!(items[idx], Value::Object(_)) {
        items[idx] = Value::Object(Map::new());
    }
    if let Value::Object(m) = &mut items[idx] {
        set_path(m, &rest.join("."), value);
    }
}

/// Reads a dot path inside a definition.
pub fn get_path<'a>(def: &'a Map, path: &str) -> Option<&'a Value> {
    let mut segs = path.split('.');
    let mut cur = def.get(segs.next()?)?;
    for seg in segs {
        cur = match cur {
            Value::Object(m) => m.get(seg)?,
            Value::Array(a) => a.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    use super::keep_slots;
    use crate::model::hash::FastSet as HashSet;

    proptest::proptest! {
        /// The slots kept are those not gone, in order (gone slots past the
        /// end, in any order, change nothing else).
        #[test]
        fn keep_slots_keeps_the_others_in_order(
            n in 0usize..300,
            gone in proptest::collection::vec(0usize..320, 0..12),
        ) {
            let gone: HashSet<usize> = gone.into_iter().collect();
            let want: Vec<usize> = (0..n).filter(|i| !gone.contains(i)).collect();
            proptest::prop_assert_eq!(keep_slots((0..n).collect(), &gone), want);
        }
    }
}
