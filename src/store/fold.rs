//! The fold (SPEC §2): ops → content. Pure, deterministic, never fails.

use crate::model::hash::FastMap as HashMap;
use crate::model::hash::FastSet as HashSet;
use crate::model::note::{NodeSketch, Note};
use crate::model::value::{Map, Value};
use crate::model::{Bounds, Content, Edge, Node, Op, OpBody, Provenance};

/// What the fold produces.
#[derive(Debug, Clone)]
pub struct Folded {
    pub content: Content,
    /// What the fold noticed (the checks word these as `dangling_edge`,
    /// `unknown_node`, `duplicate_edge_id`, `duplicate_node_id`,
    /// `torn_tail`).
    pub notes: Vec<Note>,
}

impl Folded {
    /// An empty plan's fold.
    pub fn empty(plan_id: &str) -> Folded {
        Folded {
            content: Content::empty(plan_id),
            notes: Vec::new(),
        }
    }
}

/// Transactions that have their closing op.
pub fn complete_txs(ops: &[Op]) -> HashSet<&str> {
    ops.iter()
        .filter(|o| o.tx_end)
        .map(|o| o.tx.as_str())
        .collect()
}

/// Folds ops into content: every op given is applied (callers pass the ops of
/// complete transactions; see `log::parse`). The revision is the number of
/// ops folded.
pub fn fold(plan_id: &str, ops: &[Op], provenance: Option<Provenance>) -> Folded {
    let mut order: Vec<&Op> = ops.iter().collect();
    if !order.is_sorted_by(|a, b| a.sort_key() <= b.sort_key()) {
        order.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }
    let mut issues = Vec::new();
    let mut state = State::default();
    for op in order {
        state.apply(&op.tx, op.body.clone(), &mut issues);
    }
    let content = state.finish(plan_id, ops.len() as u64, provenance, &mut issues);
    Folded {
        content,
        notes: issues,
    }
}

/// As [`fold`], consuming the ops (nothing is copied).
pub fn fold_owned(plan_id: &str, mut ops: Vec<Op>, provenance: Option<Provenance>) -> Folded {
    if !ops.is_sorted_by(|a, b| a.sort_key() <= b.sort_key()) {
        ops.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    }
    let revision = ops.len() as u64;
    let mut issues = Vec::new();
    let mut state = State::default();
    for op in ops {
        state.apply(&op.tx, op.body, &mut issues);
    }
    let content = state.finish(plan_id, revision, provenance, &mut issues);
    Folded {
        content,
        notes: issues,
    }
}

/// Applies ops that sort after every op already folded into `before`, giving
/// the same result as folding the whole log again (`before` is consumed:
/// nothing is copied). Gives `None` when that cannot be guaranteed (the new ops would sort among older ones, or the earlier fold
/// dropped or ignored something a new op could revive); the caller then
/// folds everything.
pub fn fold_after(before: Folded, max_lamport: u64, ops: &[Op]) -> Option<Folded> {
    let revives = before
        .notes
        .iter()
        .any(|n| matches!(n, Note::DanglingEdge { .. } | Note::UnknownNode { .. }));
    if revives || ops.iter().any(|o| o.lamport <= max_lamport) {
        return None;
    }
    let mut order: Vec<&Op> = ops.iter().collect();
    order.sort_by(|a, b| a.sort_key().cmp(&b.sort_key()));
    let Folded {
        content: c,
        notes: mut issues,
    } = before;
    let mut state = State {
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
        node_tx: vec![NO_TX; c.nodes.len()],
        txs: HashMap::default(),
        nodes: c.nodes.into_iter().map(Some).collect(),
        edges: c.edges.into_iter().map(Some).collect(),
        bounds: Some(c.bounds),
        touched_absent: Vec::new(),
    };
    for op in order {
        state.apply(&op.tx, op.body.clone(), &mut issues);
    }
    let revision = c.revision + ops.len() as u64;
    Some(Folded {
        content: state.finish(&c.plan_id, revision, c.provenance, &mut issues),
        notes: issues,
    })
}

fn sketch(n: &Node) -> NodeSketch {
    NodeSketch {
        kind: n.kind,
        phase: n.phase.clone(),
    }
}

/// A node whose adding transaction is not known (folded earlier).
const NO_TX: u32 = u32::MAX;

#[derive(Default)]
struct State {
    nodes: Vec<Option<Node>>,
    /// Per node slot: the transaction that added it (numbered by `txs`).
    node_tx: Vec<u32>,
    /// Transaction ids seen by `add_node`, numbered.
    txs: HashMap<String, u32>,
    node_at: HashMap<String, usize>,
    edges: Vec<Option<Edge>>,
    edge_at: HashMap<String, usize>,
    bounds: Option<Bounds>,
    /// Ids named by set_* ops while absent.
    touched_absent: Vec<String>,
}

impl State {
    fn node_mut(&mut self, id: &str) -> Option<&mut Node> {
        let i = *self.node_at.get(id)?;
        self.nodes[i].as_mut()
    }

    fn tx_number(&mut self, tx: &str) -> u32 {
        if let Some(&n) = self.txs.get(tx) {
            return n;
        }
        let n = self.txs.len() as u32;
        self.txs.insert(tx.to_string(), n);
        n
    }

    fn apply(&mut self, tx: &str, body: OpBody, issues: &mut Vec<Note>) {
        match body {
            OpBody::AddNode { node } => {
                let t = self.tx_number(tx);
                match self.node_at.get(&node.id) {
                    Some(&i) => {
                        // Replacing a node is how `add-node --replace` works;
                        // two different nodes under one id in a single change
                        // (a document, a template) lose the first one.
                        if self.node_tx[i] == t
                            && let Some(old) = self.nodes[i].as_ref().filter(|old| **old != node)
                        {
                            issues.push(Note::DuplicateNodeId {
                                id: node.id.clone(),
                                lost: sketch(old),
                                kept: sketch(&node),
                            });
                        }
                        self.nodes[i] = Some(node);
                        self.node_tx[i] = t;
                    }
                    None => {
                        self.node_at.insert(node.id.clone(), self.nodes.len());
                        self.nodes.push(Some(node));
                        self.node_tx.push(t);
                    }
                }
            }
            OpBody::RemoveNode {
                node_id,
                incident_edge_ids,
            } => {
                if let Some(i) = self.node_at.remove(&node_id) {
                    self.nodes[i] = None;
                }
                for e in &incident_edge_ids {
                    if let Some(i) = self.edge_at.remove(e) {
                        self.edges[i] = None;
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
                Some(n) => n.definition = definition,
                None => self.touched_absent.push(node_id),
            },
            OpBody::SetNodePhase { node_id, phase } => match self.node_mut(&node_id) {
                Some(n) => n.phase = phase.filter(|p| !p.is_empty()),
                None => self.touched_absent.push(node_id),
            },
            OpBody::AddEdge { edge } => match self.edge_at.get(&edge.id) {
                Some(&i) => {
                    let old = self.edges[i].as_ref().expect("indexed edges are present");
                    if !old.same_signature(&edge) {
                        issues.push(Note::DuplicateEdgeId {
                            kept: edge.clone(),
                            lost: old.clone(),
                        });
                    }
                    self.edges[i] = Some(edge);
                }
                None => {
                    self.edge_at.insert(edge.id.clone(), self.edges.len());
                    self.edges.push(Some(edge));
                }
            },
            OpBody::RemoveEdge { edge_id } => {
                if let Some(i) = self.edge_at.remove(&edge_id) {
                    self.edges[i] = None;
                }
            }
            OpBody::SetBounds { bounds } => self.bounds = Some(bounds),
        }
    }

    fn finish(
        self,
        plan_id: &str,
        revision: u64,
        provenance: Option<Provenance>,
        issues: &mut Vec<Note>,
    ) -> Content {
        let nodes: Vec<Node> = self.nodes.into_iter().flatten().collect();
        let present: HashSet<&str> = nodes.iter().map(|n| n.id.as_str()).collect();
        let mut edges = Vec::new();
        for e in self.edges.into_iter().flatten() {
            let missing: Vec<&str> = [e.from.as_str(), e.to.as_str()]
                .into_iter()
                .filter(|id| !present.contains(id))
                .collect();
            if missing.is_empty() {
                edges.push(e);
            } else {
                let missing = missing[0].to_string();
                issues.push(Note::DanglingEdge { edge: e, missing });
            }
        }
        let mut seen = HashSet::default();
        for id in &self.touched_absent {
            if !present.contains(id.as_str()) && seen.insert(id.as_str()) {
                issues.push(Note::UnknownNode { node: id.clone() });
            }
        }
        Content {
            plan_id: plan_id.to_string(),
            revision,
            bounds: self.bounds.unwrap_or_default(),
            nodes,
            edges,
            provenance,
        }
    }
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
            slot.insert(seg.to_string(), value);
            return;
        }
        let entry = slot
            .entry(seg.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
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
    use super::*;
    use crate::model::{Handle, NodeKind};

    fn op(lamport: u64, actor: &str, tx: &str, end: bool, body: OpBody) -> Op {
        Op {
            op_id: format!("{actor}:plan-t:{lamport}:{tx}"),
            actor_id: actor.into(),
            lamport,
            at: "2026-01-01T00:00:00Z".into(),
            tx: tx.into(),
            tx_end: end,
            body,
        }
    }
    fn node(id: &str) -> Node {
        Node {
            id: id.into(),
            phase: None,
            kind: NodeKind::Join,
            definition: Map::new(),
        }
    }
    fn edge(id: &str, from: &str, to: &str) -> Edge {
        Edge {
            id: id.into(),
            from: from.into(),
            to: to.into(),
            handle: Handle::Always,
        }
    }

    #[test]
    fn removal_takes_incident_edges_and_dangling_edges_drop() {
        let ops = vec![
            op(1, "a", "t1", false, OpBody::AddNode { node: node("x") }),
            op(2, "a", "t1", false, OpBody::AddNode { node: node("y") }),
            op(
                3,
                "a",
                "t1",
                false,
                OpBody::AddEdge {
                    edge: edge("e1", "x", "y"),
                },
            ),
            op(
                4,
                "a",
                "t1",
                true,
                OpBody::AddEdge {
                    edge: edge("e2", "y", "x"),
                },
            ),
            op(
                5,
                "a",
                "t2",
                true,
                OpBody::RemoveNode {
                    node_id: "y".into(),
                    incident_edge_ids: vec!["e1".into()],
                },
            ),
        ];
        let f = fold("plan-t", &ops, None);
        assert_eq!(f.content.nodes.len(), 1);
        assert!(f.content.edges.is_empty());
        assert!(
            crate::check::notes::issues(&f.notes)
                .iter()
                .any(|i| i.code == "dangling_edge" && i.edge_id.as_deref() == Some("e2"))
        );
    }

    #[test]
    fn duplicate_edge_ids_are_blocking_and_name_both() {
        let ops = vec![
            op(1, "a", "t1", false, OpBody::AddNode { node: node("x") }),
            op(2, "a", "t1", false, OpBody::AddNode { node: node("y") }),
            op(
                3,
                "a",
                "t1",
                true,
                OpBody::AddEdge {
                    edge: edge("e", "x", "y"),
                },
            ),
            op(
                4,
                "b",
                "t2",
                true,
                OpBody::AddEdge {
                    edge: edge("e", "y", "x"),
                },
            ),
        ];
        let f = fold("plan-t", &ops, None);
        let issues = crate::check::notes::issues(&f.notes);
        let i = issues
            .iter()
            .find(|i| i.code == "duplicate_edge_id")
            .unwrap();
        assert!(i.is_blocking());
        assert!(i.message.contains("x → y") && i.message.contains("y → x"));
    }

    #[test]
    fn edits_to_absent_nodes_are_reported() {
        let ops = vec![op(
            1,
            "a",
            "t",
            true,
            OpBody::SetNodePhase {
                node_id: "ghost".into(),
                phase: Some("p".into()),
            },
        )];
        let f = fold("plan-t", &ops, None);
        assert!(
            crate::check::notes::issues(&f.notes)
                .iter()
                .any(|i| i.code == "unknown_node")
        );
    }

    #[test]
    fn set_path_creates_intermediates() {
        let mut m = Map::new();
        set_path(&mut m, "args.a.b", Value::Bool(true));
        assert_eq!(get_path(&m, "args.a.b"), Some(&Value::Bool(true)));
        m.insert("list".into(), Value::Array(vec![Value::Null, Value::Null]));
        set_path(&mut m, "list.1", Value::Number(2.0));
        assert_eq!(get_path(&m, "list.1"), Some(&Value::Number(2.0)));
    }
}
