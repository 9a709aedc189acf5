//! The log as undo reads it: transactions in order, the undo transactions
//! and what they undid, a clone's inherited ops.

use super::history::{History, TxHead};
use crate::forge::edit::bounded_list;
use crate::model::{Op, OpBody};
use crate::store::Loaded;

/// The tx label of an undo transaction.
pub(crate) const LABEL: &str = "undo-";

/// One transaction of the log: its ops and where they sit.
pub(crate) struct Tx<'a> {
    pub(crate) id: &'a str,
    pub(crate) at: &'a str,
    /// Index of its first op in the log.
    pub(crate) start: usize,
    pub(crate) ops: Vec<&'a Op>,
}

impl<'a> Tx<'a> {
    /// The transaction `head` shows, holding `ops` (its ops, in log order).
    pub(crate) fn of(head: &'a TxHead<'a>, ops: &'a [Op]) -> Tx<'a> {
        Tx {
            id: head.id,
            at: ops.first().map_or("", |o| o.at.as_str()),
            start: head.start(),
            ops: ops.iter().collect(),
        }
    }
}

/// The transaction an undo transaction undid.
pub(crate) fn undone_by(tx: &str) -> Option<&str> {
    let rest = tx.strip_prefix(LABEL)?;
    rest.rsplit_once('-').map(|(orig, _)| orig)
}

/// A short account of a transaction's ops: `add_node x, add_edge x__y …`.
pub(crate) fn summary(tx: &Tx) -> String {
    let items: Vec<String> = tx
        .ops
        .iter()
        .map(|o| {
            let what = match &o.body {
                OpBody::AddEdge { edge } => Some(edge.id.as_str()),
                OpBody::RemoveEdge { edge_id } => Some(edge_id.as_str()),
                other => other.node_id(),
            };
            match what {
                Some(w) => format!("{} `{w}`", o.body.kind()),
                None => o.body.kind().to_string(),
            }
        })
        .collect();
    bounded_list(&items, 6)
}

/// The ops a plan inherited from its parent (a clone's first ops), which are
/// not this plan's to undo.
pub(crate) fn inherited(loaded: &Loaded) -> usize {
    match loaded.ops() {
        Ok(ops) => History::of_ops(&loaded.plan_id, ops).inherited(loaded.meta.provenance.as_ref()),
        Err(_) => 0,
    }
}
