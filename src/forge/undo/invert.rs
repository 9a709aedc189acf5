//! The inverse of one transaction: the log is folded before it (B) and with
//! it (A), and B is restored wherever A differs from it, unless the current
//! content (C) changed that again since — then it is kept and reported.
//! One function per kind of change: a node added, removed, replaced by
//! another kind, moved to another phase or given another definition; an
//! edge added, removed or changed; the bounds.

use super::log::Tx;
use super::paths::{Path, diff_paths, get, put, show};
use crate::model::value::Map;
use crate::model::{Content, Edge, Node, Op, OpBody, Value};
use crate::store::Loaded;
use crate::store::fold::{Index, fold};
use std::collections::{HashMap, HashSet};

/// The plan as it is now, its nodes and edges found by id: through the
/// fold's positions (kept by a warm process, and taken over by the fold
/// of the write that follows), or an index made for it.
pub(crate) struct Current<'c> {
    content: &'c Content,
    index: Lookup<'c>,
}

enum Lookup<'c> {
    Kept(&'c Index),
    Made {
        nodes: HashMap<&'c str, usize>,
        edges: HashMap<&'c str, &'c Edge>,
    },
}

impl<'c> Current<'c> {
    pub(crate) fn of(loaded: &'c Loaded) -> Current<'c> {
        let content = loaded.content();
        let index = match loaded.folded.positions() {
            Some(kept) => Lookup::Kept(kept),
            None => Lookup::Made {
                nodes: content.node_index(),
                edges: edge_index(content),
            },
        };
        Current { content, index }
    }

    fn node(&self, id: &str) -> Option<&'c Node> {
        match &self.index {
            Lookup::Kept(x) => x.node(id).map(|i| &self.content.nodes[i]),
            Lookup::Made { nodes, .. } => nodes.get(id).map(|&i| &self.content.nodes[i]),
        }
    }

    fn edge(&self, id: &str) -> Option<&'c Edge> {
        match &self.index {
            Lookup::Kept(x) => x.edge(id).map(|i| &self.content.edges[i]),
            Lookup::Made { edges, .. } => edges.get(id).copied(),
        }
    }
}

/// What undoing one transaction takes.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Inverse {
    pub(crate) bodies: Vec<OpBody>,
    /// What the inverse does, in words.
    pub(crate) done: Vec<String>,
    /// What it leaves as it is (changed again since), in words.
    pub(crate) kept: Vec<String>,
    /// Whether the transaction changed anything at all.
    pub(crate) had_effect: bool,
    pub(crate) nodes: Vec<String>,
    pub(crate) edges: Vec<String>,
}

/// The node ops of an inverse, by kind.
#[derive(Default)]
struct NodeOps {
    removes: Vec<String>,
    adds: Vec<Node>,
    phases: Vec<OpBody>,
    definitions: Vec<OpBody>,
}

/// The edge ops of an inverse, by kind.
#[derive(Default)]
struct EdgeOps {
    removes: Vec<String>,
    adds: Vec<Edge>,
}

/// The inverse of `tx` against the current content `c`, `prefix` being the
/// ops before it (every op of the log before its first, or those of them
/// that make the state of everything it can have changed: see `history`).
pub(crate) fn invert(plan_id: &str, prefix: &[Op], tx: &Tx, c: &Current) -> Inverse {
    let b = fold(plan_id, prefix).content;
    let mut with: Vec<Op> = prefix.to_vec();
    with.extend(tx.ops.iter().map(|o| (*o).clone()));
    let a = fold(plan_id, &with).content;
    let mut inv = Inverse::default();
    let nodes = invert_nodes(&b, &a, c, &mut inv);
    let edges = invert_edges(&b, &a, c, &nodes, &mut inv);
    let bounds = invert_bounds(&b, &a, c, &mut inv);
    inv.bodies = assemble(c.content, nodes, edges, bounds);
    inv
}

/// The ops in the order they apply: edges out, nodes out, nodes in, phases,
/// definitions, edges in, bounds.
fn assemble(c: &Content, nodes: NodeOps, edges: EdgeOps, bounds: Vec<OpBody>) -> Vec<OpBody> {
    let mut bodies: Vec<OpBody> = edges
        .removes
        .into_iter()
        .map(|edge_id| OpBody::RemoveEdge { edge_id })
        .collect();
    for id in nodes.removes {
        let incident = c
            .edges
            .iter()
            .filter(|e| e.from == id || e.to == id)
            .map(|e| e.id.to_string())
            .collect();
        bodies.push(OpBody::RemoveNode {
            node_id: id,
            incident_edge_ids: incident,
        });
    }
    bodies.extend(nodes.adds.into_iter().map(|node| OpBody::AddNode { node }));
    bodies.extend(nodes.phases);
    bodies.extend(nodes.definitions);
    bodies.extend(edges.adds.into_iter().map(|edge| OpBody::AddEdge { edge }));
    bodies.extend(bounds);
    bodies
}

/// Every node the transaction changed, B's first, then those it added.
fn invert_nodes(b: &Content, a: &Content, c: &Current, inv: &mut Inverse) -> NodeOps {
    let (bn, an) = (b.node_index(), a.node_index());
    let node = |content: &'_ Content, idx: &HashMap<&str, usize>, id: &str| -> Option<Node> {
        idx.get(id).map(|&i| content.nodes[i].clone())
    };
    let mut node_ids: Vec<&str> = b.nodes.iter().map(|n| n.id.as_str()).collect();
    node_ids.extend(
        a.nodes
            .iter()
            .map(|n| n.id.as_str())
            .filter(|id| !bn.contains_key(id)),
    );
    let mut ops = NodeOps::default();
    for id in node_ids {
        let (nb, na, nc) = (node(b, &bn, id), node(a, &an, id), c.node(id).cloned());
        if nb == na {
            continue;
        }
        inv.had_effect = true;
        inv.nodes.push(id.to_string());
        match (nb, na) {
            (None, Some(na)) => undo_add_node(id, &na, nc.as_ref(), inv, &mut ops),
            (Some(nb), None) => undo_remove_node(id, nb, nc.as_ref(), inv, &mut ops),
            (Some(nb), Some(na)) => undo_change_node(id, nb, &na, nc.as_ref(), inv, &mut ops),
            (None, None) => {}
        }
    }
    ops
}

/// A node the transaction added goes, unless it was changed since.
fn undo_add_node(id: &str, na: &Node, nc: Option<&Node>, inv: &mut Inverse, ops: &mut NodeOps) {
    match nc {
        None => {}
        Some(nc) if nc == na => {
            ops.removes.push(id.to_string());
            inv.done
                .push(format!("removed node `{id}`, which it added"));
        }
        Some(_) => inv.kept.push(format!(
            "node `{id}`, which it added, was changed since; it stays"
        )),
    }
}

/// A node the transaction removed comes back, unless it exists again.
fn undo_remove_node(id: &str, nb: Node, nc: Option<&Node>, inv: &mut Inverse, ops: &mut NodeOps) {
    match nc {
        None => {
            inv.done
                .push(format!("added back node `{id}`, which it removed"));
            ops.adds.push(nb);
        }
        Some(_) => inv.kept.push(format!(
            "node `{id}`, which it removed, exists again; it stays as it is"
        )),
    }
}

/// A node the transaction changed: put back whole when its kind changed,
/// else its phase and its definition's fields.
fn undo_change_node(
    id: &str,
    nb: Node,
    na: &Node,
    nc: Option<&Node>,
    inv: &mut Inverse,
    ops: &mut NodeOps,
) {
    let Some(nc) = nc else {
        inv.kept
            .push(format!("node `{id}` was removed since; it stays removed"));
        return;
    };
    if nb.kind != na.kind {
        undo_replace_node(id, nb, na, nc, inv, ops);
        return;
    }
    if nb.phase != na.phase {
        undo_phase(id, &nb, na, nc, inv, ops);
    }
    undo_definition(id, &nb, na, nc, inv, ops);
}

/// A node the transaction replaced by one of another kind is put back as it
/// was, unless it was changed since.
fn undo_replace_node(
    id: &str,
    nb: Node,
    na: &Node,
    nc: &Node,
    inv: &mut Inverse,
    ops: &mut NodeOps,
) {
    if nc == na {
        inv.done.push(format!(
            "put back node `{id}` as the {} node it was",
            nb.kind
        ));
        ops.adds.push(nb);
    } else {
        inv.kept.push(format!(
            "node `{id}` was changed since; it stays {} node",
            nc.kind.a()
        ));
    }
}

/// A node the transaction moved goes back to its phase, unless it was moved
/// again since.
fn undo_phase(id: &str, nb: &Node, na: &Node, nc: &Node, inv: &mut Inverse, ops: &mut NodeOps) {
    if nc.phase == na.phase {
        ops.phases.push(OpBody::SetNodePhase {
            node_id: id.to_string(),
            phase: nb.phase.as_ref().map(ToString::to_string),
        });
        inv.done.push(match &nb.phase {
            Some(p) => format!("moved `{id}` back to phase `{p}`"),
            None => format!("made `{id}` unphased again"),
        });
    } else {
        inv.kept
            .push(format!("the phase of `{id}` was changed since; it stays"));
    }
}

/// Each definition field the transaction changed gets its earlier value,
/// unless it was changed since: as `set_node_field`s, or one
/// `set_node_definition` when a field is dropped or its path holds a dot.
fn undo_definition(
    id: &str,
    nb: &Node,
    na: &Node,
    nc: &Node,
    inv: &mut Inverse,
    ops: &mut NodeOps,
) {
    let mut paths = Vec::new();
    diff_paths(&nb.definition, &na.definition, &mut Vec::new(), &mut paths);
    let mut restored: Map = (*nc.definition).clone();
    let mut fields: Vec<(Path, Value)> = Vec::new();
    let mut whole = false;
    for p in &paths {
        let (vb, va, vc) = (
            get(&nb.definition, p),
            get(&na.definition, p),
            get(&nc.definition, p),
        );
        if vc != va {
            inv.kept.push(format!(
                "`{}` of `{id}` was changed since; it stays",
                show(p)
            ));
            continue;
        }
        put(&mut restored, p, vb.cloned());
        match vb {
            Some(v) if p.iter().all(|s| !s.contains('.')) => fields.push((p.clone(), v.clone())),
            _ => whole = true,
        }
        inv.done.push(match vb {
            Some(_) => format!("restored `{}` of `{id}`", show(p)),
            None => format!("dropped `{}` of `{id}`, which it added", show(p)),
        });
    }
    if restored != *nc.definition {
        if whole {
            ops.definitions.push(OpBody::SetNodeDefinition {
                node_id: id.to_string(),
                definition: restored,
            });
        } else {
            ops.definitions
                .extend(fields.into_iter().map(|(p, v)| OpBody::SetNodeField {
                    node_id: id.to_string(),
                    path: p.join("."),
                    value: v,
                }));
        }
    }
}

fn edge_index(c: &Content) -> HashMap<&str, &Edge> {
    c.edges.iter().map(|e| (e.id.as_str(), e)).collect()
}

/// Every edge the transaction changed, B's first, then those it added;
/// `nodes` are the node ops of the inverse (edges come back only between
/// nodes present once it is applied).
fn invert_edges(
    b: &Content,
    a: &Content,
    c: &Current,
    nodes: &NodeOps,
    inv: &mut Inverse,
) -> EdgeOps {
    // Nodes present once the inverse is applied, for edges coming back.
    let removed: HashSet<&str> = nodes.removes.iter().map(String::as_str).collect();
    let present = |id: &str| {
        (c.node(id).is_some() && !removed.contains(id)) || nodes.adds.iter().any(|n| n.id == id)
    };
    let (be, ae) = (edge_index(b), edge_index(a));
    let mut edge_ids: Vec<&str> = b.edges.iter().map(|e| e.id.as_str()).collect();
    edge_ids.extend(
        a.edges
            .iter()
            .map(|e| e.id.as_str())
            .filter(|id| !be.contains_key(id)),
    );
    let mut ops = EdgeOps::default();
    for id in edge_ids {
        let (eb, ea, ec) = (be.get(id), ae.get(id), c.edge(id));
        if eb == ea {
            continue;
        }
        inv.had_effect = true;
        inv.edges.push(id.to_string());
        let goes_with_node =
            |e: &Edge| removed.contains(e.from.as_str()) || removed.contains(e.to.as_str());
        match (eb, ea) {
            (None, Some(ea)) => undo_add_edge(id, ea, ec, &goes_with_node, inv, &mut ops),
            (Some(eb), None) => undo_remove_edge(id, eb, ec, &present, inv, &mut ops),
            (Some(eb), Some(ea)) => undo_change_edge(id, eb, ea, ec, inv, &mut ops),
            (None, None) => {}
        }
    }
    ops
}

/// An edge the transaction added goes (with its node, when that goes too),
/// unless it was changed since.
fn undo_add_edge(
    id: &str,
    ea: &Edge,
    ec: Option<&Edge>,
    goes_with_node: &dyn Fn(&Edge) -> bool,
    inv: &mut Inverse,
    ops: &mut EdgeOps,
) {
    match ec {
        None => {}
        Some(ec) if ec == ea => {
            if !goes_with_node(ec) {
                ops.removes.push(id.to_string());
            }
            inv.done
                .push(format!("removed edge `{id}`, which it added"));
        }
        Some(_) => inv.kept.push(format!(
            "edge `{id}`, which it added, was changed since; it stays"
        )),
    }
}

/// An edge the transaction removed comes back when both its ends are
/// `present`, unless it exists again.
fn undo_remove_edge(
    id: &str,
    eb: &Edge,
    ec: Option<&Edge>,
    present: &dyn Fn(&str) -> bool,
    inv: &mut Inverse,
    ops: &mut EdgeOps,
) {
    match ec {
        None if present(&eb.from) && present(&eb.to) => {
            ops.adds.push(eb.clone());
            inv.done.push(format!(
                "added back edge `{id}` ({} → {} on `{}`)",
                eb.from, eb.to, eb.handle
            ));
        }
        None => inv.kept.push(format!(
            "edge `{id}` cannot come back: node `{}` is gone",
            if present(&eb.from) { &eb.to } else { &eb.from }
        )),
        Some(ec) if ec == eb => {}
        Some(_) => inv.kept.push(format!(
            "edge `{id}`, which it removed, exists again; it stays as it is"
        )),
    }
}

/// An edge the transaction changed is put back as it was, unless it was
/// changed since.
fn undo_change_edge(
    id: &str,
    eb: &Edge,
    ea: &Edge,
    ec: Option<&Edge>,
    inv: &mut Inverse,
    ops: &mut EdgeOps,
) {
    if ec == Some(ea) {
        ops.removes.push(id.to_string());
        ops.adds.push(eb.clone());
        inv.done.push(format!("put back edge `{id}` as it was"));
    } else {
        inv.kept
            .push(format!("edge `{id}` was changed since; it stays"));
    }
}

/// Bounds the transaction set get their earlier value, unless they were
/// changed since.
fn invert_bounds(b: &Content, a: &Content, c: &Current, inv: &mut Inverse) -> Vec<OpBody> {
    let mut bounds = Vec::new();
    if b.bounds != a.bounds {
        inv.had_effect = true;
        if c.content.bounds == a.bounds {
            bounds.push(OpBody::SetBounds { bounds: b.bounds });
            inv.done.push("restored the bounds".to_string());
        } else {
            inv.kept
                .push("the bounds were changed since; they stay".to_string());
        }
    }
    bounds
}
