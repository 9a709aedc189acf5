//! The log as undo reads it: transactions in order, the undo transactions
//! and what they undid, a clone's inherited ops.

use crate::forge::edit::bounded_list;
use crate::model::{Op, OpBody, Provenance};
use crate::store::Loaded;
use std::collections::HashMap;

/// The tx label of an undo transaction.
pub(crate) const LABEL: &str = "undo-";

/// One transaction of the log: its ops, where they sit, who wrote them.
pub(crate) struct Tx<'a> {
    pub(crate) id: &'a str,
    pub(crate) actor: &'a str,
    pub(crate) at: &'a str,
    /// Index of its first op in the log.
    pub(crate) start: usize,
    pub(crate) ops: Vec<&'a Op>,
}

/// Transactions in log order (by their first op).
pub(crate) fn transactions(ops: &[Op]) -> Vec<Tx<'_>> {
    let mut out: Vec<Tx> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (i, op) in ops.iter().enumerate() {
        match at.get(op.tx.as_str()) {
            Some(&k) => out[k].ops.push(op),
            None => {
                at.insert(&op.tx, out.len());
                out.push(Tx {
                    id: &op.tx,
                    actor: &op.actor_id,
                    at: &op.at,
                    start: i,
                    ops: vec![op],
                });
            }
        }
    }
    out
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
    let copied = match &loaded.meta.provenance {
        Some(Provenance::Clone {
            parent_revision, ..
        }) => *parent_revision,
        _ => return 0,
    };
    // The clone's log starts with its creation and the copied content ops.
    let Ok(ops) = loaded.ops() else { return 0 };
    let mut content = 0;
    for (i, op) in ops.iter().enumerate() {
        if content == copied && op.body.is_content() {
            return i;
        }
        if op.body.is_content() {
            content += 1;
        }
    }
    ops.len()
}
