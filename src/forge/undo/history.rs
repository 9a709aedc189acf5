//! Where undo and redo read a plan's transactions: the ops of a plan loaded
//! with them (every op parsed), or the log's lines (`store::log::Lines`,
//! issue 17: the head of every op read from the start of its line, only
//! the ops of the transactions looked at parsed).
//!
//! An inverse compares the plan before a transaction (B) with the plan
//! with it (A). From the ops, both are folded whole, as they always were.
//! From the lines, both are folded from only the ops before the transaction
//! that name what it can have changed, found by their ids as `git log --
//! path` finds the commits that touch a file: the nodes it names, the edges
//! it names, every edge that has an end at a node it names (such an edge
//! comes or goes with its end), the nodes at the ends of all those edges
//! (whether an edge is in the plan depends on them), and the bounds. The
//! fold of those ops holds exactly B's and A's state of those ids, in the
//! same order (a fold keeps nodes and edges in the order they came, and
//! the fold's order of a subset of ops is the subset of its order), and
//! nothing else changed between B and A, so the inverse is the same.
//! `tests::the_lines_give_the_inverse_the_ops_give` holds the two to each
//! other on random histories.

use super::invert::{Current, Inverse, invert};
use super::log::{Ref, Tx, distinct, names};
use crate::model::error::Result;
use crate::model::hash::{FastMap, FastSet};
use crate::model::{Op, OpBody, Provenance};
use crate::store::log::{Head, Lines};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// A plan's log, as undo reads it.
pub(crate) struct History<'a> {
    plan_id: &'a str,
    /// Every op's head, in log order.
    heads: Vec<Head<'a>>,
    source: Source<'a>,
}

enum Source<'a> {
    /// Every op, parsed, in log order.
    Ops(&'a [Op]),
    /// The log's lines (every one an op of a complete transaction).
    Lines(&'a Lines),
}

/// A transaction as the heads show it: its id, who wrote it, and where its
/// ops are in the log.
pub(crate) struct TxHead<'h> {
    pub(crate) id: &'h str,
    pub(crate) actor: &'h str,
    /// Its ops' places in the log (the first is where it starts).
    places: Vec<usize>,
}

impl<'h> TxHead<'h> {
    /// Where its first op is in the log.
    pub(crate) fn start(&self) -> usize {
        self.places[0]
    }

    /// The transaction, holding `ops` (its ops, in log order), each
    /// distinct op once.
    pub(crate) fn tx<'a>(&'a self, ops: &'a [Op]) -> Tx<'a> {
        Tx {
            id: self.id,
            at: ops.first().map_or("", |o| o.at.as_str()),
            start: self.start(),
            ops: distinct(ops),
        }
    }
}

/// The ops a plan inherited from its parent (a clone's first ops), which are
/// not this plan's to undo (`loaded` holds its ops; else none).
pub(crate) fn inherited(loaded: &crate::store::Loaded) -> usize {
    match loaded.ops() {
        Ok(ops) => History::of_ops(&loaded.plan_id, ops).inherited(loaded.meta.provenance.as_ref()),
        Err(_) => 0,
    }
}

impl<'a> History<'a> {
    /// The history in `ops` (every op of the log, in log order).
    pub(crate) fn of_ops(plan_id: &'a str, ops: &'a [Op]) -> History<'a> {
        let heads = ops
            .iter()
            .map(|o| Head {
                tx: Cow::Borrowed(o.tx.as_str()),
                actor: Cow::Borrowed(o.actor_id.as_str()),
                content: o.body.is_content(),
            })
            .collect();
        History {
            plan_id,
            heads,
            source: Source::Ops(ops),
        }
    }

    /// The history in the log's `lines`.
    pub(crate) fn of_lines(plan_id: &'a str, lines: &'a Lines) -> Result<History<'a>> {
        Ok(History {
            plan_id,
            heads: lines.heads(plan_id)?,
            source: Source::Lines(lines),
        })
    }

    /// The transactions, in log order (by their first op). A transaction
    /// is one actor's: two actors that spell the same tx id (an empty one,
    /// or one repeated by hand) wrote two transactions.
    pub(crate) fn transactions(&self) -> Vec<TxHead<'_>> {
        let mut out: Vec<TxHead> = Vec::new();
        let mut at: FastMap<(&str, &str), usize> = FastMap::default();
        let mut last: Option<usize> = None;
        for (i, h) in self.heads.iter().enumerate() {
            // A transaction's ops are one after the other, as one write
            // appends them.
            if let Some(k) = last.filter(|&k| out[k].id == h.tx && out[k].actor == h.actor) {
                out[k].places.push(i);
                continue;
            }
            let key = (h.actor.as_ref(), h.tx.as_ref());
            let k = match at.get(&key) {
                Some(&k) => {
                    out[k].places.push(i);
                    k
                }
                None => {
                    at.insert(key, out.len());
                    out.push(TxHead {
                        id: &h.tx,
                        actor: &h.actor,
                        places: vec![i],
                    });
                    out.len() - 1
                }
            };
            last = Some(k);
        }
        out
    }

    /// The id of `actor`'s transaction that `r` names (the latest such,
    /// should a hash name two); `None` when no transaction of theirs in
    /// the log has it.
    pub(crate) fn named<'r>(&'r self, actor: &str, r: Ref<'r>) -> Option<&'r str> {
        let mut own = self.heads.iter().filter(|h| h.actor == actor);
        match r {
            Ref::Whole(id) => own.any(|h| h.tx == id).then_some(id),
            Ref::Hashed(_) => {
                let mut last: Option<&str> = None;
                for head in own.rev() {
                    let tx = head.tx.as_ref();
                    if last != Some(tx) && names(r, tx) {
                        return Some(tx);
                    }
                    last = Some(tx);
                }
                None
            }
        }
    }

    /// The ops of a transaction.
    pub(crate) fn ops_of(&self, tx: &TxHead) -> Result<Vec<Op>> {
        tx.places
            .iter()
            .map(|&i| match self.source {
                Source::Ops(ops) => Ok(ops[i].clone()),
                Source::Lines(lines) => lines.op(i, self.plan_id),
            })
            .collect()
    }

    /// How many ops a plan with `provenance` inherited from its parent (a
    /// clone's first ops), which are not its own to undo.
    pub(crate) fn inherited(&self, provenance: Option<&Provenance>) -> usize {
        let copied = match provenance {
            Some(Provenance::Clone {
                parent_revision, ..
            }) => *parent_revision,
            _ => return 0,
        };
        // The clone's log starts with its creation and the copied content ops.
        let mut content = 0;
        for (i, h) in self.heads.iter().enumerate() {
            if content == copied && h.content {
                return i;
            }
            if h.content {
                content += 1;
            }
        }
        self.heads.len()
    }

    /// The inverse of `tx` against the current plan `c`.
    pub(crate) fn inverse(&self, tx: &Tx, c: &Current) -> Result<Inverse> {
        Ok(match self.source {
            Source::Ops(ops) => invert(self.plan_id, &ops[..tx.start], tx, c),
            Source::Lines(lines) => {
                let before = self.before(lines, tx)?;
                invert(self.plan_id, &before, tx, c)
            }
        })
    }

    /// The ops before `tx` that make the state of everything it can have
    /// changed (see the module's doc), in log order.
    fn before(&self, lines: &Lines, tx: &Tx) -> Result<Vec<Op>> {
        let mut ids = Ids::default();
        for op in &tx.ops {
            ids.named_by(&op.body);
        }
        let mut found: BTreeMap<usize, Op> = BTreeMap::new();
        let mut names: Vec<String> = ids.nodes.iter().chain(&ids.edges).cloned().collect();
        // Every op that sets the bounds (the kind's name is in its line).
        names.push("set_bounds".to_string());
        while !names.is_empty() {
            let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
            for i in lines.naming(tx.start, &wanted) {
                if let std::collections::btree_map::Entry::Vacant(slot) = found.entry(i) {
                    slot.insert(lines.op(i, self.plan_id)?);
                }
            }
            names.clear();
            for op in found.values() {
                ids.follow(&op.body, &mut names);
            }
        }
        Ok(found
            .into_values()
            .filter(|op| ids.state_of(&op.body))
            .collect())
    }
}

/// The ids whose state before a transaction its inverse reads.
#[derive(Default)]
struct Ids {
    /// Nodes the transaction names: they may come, go or change.
    named: FastSet<String>,
    /// Those, and the ends of every edge in `edges`.
    nodes: FastSet<String>,
    /// Edges the transaction names, and every edge with an end in `named`.
    edges: FastSet<String>,
}

impl Ids {
    /// Adds what one op of the transaction names.
    fn named_by(&mut self, body: &OpBody) {
        if let Some(id) = body.node_id() {
            self.named.insert(id.to_string());
            self.nodes.insert(id.to_string());
        }
        self.edges
            .extend(body.edge_ids().into_iter().map(str::to_string));
        if let OpBody::AddEdge { edge } = body {
            self.nodes.insert(edge.from.to_string());
            self.nodes.insert(edge.to.to_string());
        }
    }

    /// Adds what an earlier op shows: an edge at a named node, and the ends
    /// of an edge in `edges`; the ids new to it go to `new`.
    fn follow(&mut self, body: &OpBody, new: &mut Vec<String>) {
        let OpBody::AddEdge { edge } = body else {
            return;
        };
        let at_named =
            self.named.contains(edge.from.as_str()) || self.named.contains(edge.to.as_str());
        if !at_named && !self.edges.contains(edge.id.as_str()) {
            return;
        }
        if self.edges.insert(edge.id.to_string()) {
            new.push(edge.id.to_string());
        }
        for end in [&edge.from, &edge.to] {
            if self.nodes.insert(end.to_string()) {
                new.push(end.to_string());
            }
        }
    }

    /// Whether an op sets part of the state of these ids.
    fn state_of(&self, body: &OpBody) -> bool {
        match body {
            OpBody::AddNode { node } | OpBody::ReplaceNode { node } => {
                self.nodes.contains(node.id.as_str())
            }
            OpBody::RemoveNode {
                node_id,
                incident_edge_ids,
            } => {
                self.nodes.contains(node_id)
                    || incident_edge_ids.iter().any(|e| self.edges.contains(e))
            }
            OpBody::SetNodeField { node_id, .. }
            | OpBody::SetNodeDefinition { node_id, .. }
            | OpBody::SetNodePhase { node_id, .. } => self.nodes.contains(node_id),
            OpBody::AddEdge { edge } => self.edges.contains(edge.id.as_str()),
            OpBody::RemoveEdge { edge_id } => self.edges.contains(edge_id),
            OpBody::SetBounds { .. } => true,
            _ => false,
        }
    }
}
