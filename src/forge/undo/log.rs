//! The log as undo reads it: a transaction, the undo transactions
//! and what they undid.

use crate::forge::edit::bounded_list;
use crate::model::{Op, OpBody};

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
