//! The log as undo reads it: a transaction, the undo and redo transactions
//! and what they took back.
//!
//! An undo's tx id is `undo-<ref>-<id>` and a redo's `redo-<ref>-<id>`:
//! `<id>` is the transaction's own random id and `<ref>` names the
//! transaction taken back. Up to [`WHOLE_MAX`] bytes, `<ref>` is that
//! transaction's id whole, as every planforge wrote it and as builds before
//! session 12 still read it (an undo of a change, the redo of that undo and
//! an undo of that redo: what a team that has not upgraded everywhere can
//! meet); a longer id is named by `@` and the first 16 hex digits of the
//! SHA-256 of it, a name of fixed length (as git names an object). Earlier
//! planforge wrote every id whole, so each round of undo and redo made the
//! next id longer (`redo-undo-redo-…`, issue 17); now no id is longer than
//! `undo-` + [`WHOLE_MAX`] + 17 bytes. A reference that is not `@` and 16
//! hex digits is a whole tx id.

use crate::forge::edit::bounded_list;
use crate::model::hash::{FastMap, FastSet, hex};
use crate::model::{Op, OpBody};
use sha2::{Digest, Sha256};

/// The tx label of an undo transaction.
pub(crate) const LABEL: &str = "undo-";

/// The tx label of a redo transaction.
pub(crate) const REDO: &str = "redo-";

/// What starts a reference by hash.
const HASHED: &str = "@";

/// How many hex digits of the hash a reference keeps (64 bits, as many as
/// a transaction's own random id has).
const REF_DIGITS: usize = 16;

/// One transaction of the log: its ops and where they sit.
pub(crate) struct Tx<'a> {
    pub(crate) id: &'a str,
    pub(crate) at: &'a str,
    /// Index of its first op in the log.
    pub(crate) start: usize,
    /// Its distinct ops, in log order (a line the log holds twice is one op).
    pub(crate) ops: Vec<&'a Op>,
}

/// How an undo or a redo names the transaction it takes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ref<'a> {
    /// `@` and the first 16 hex digits of the SHA-256 of its tx id (what
    /// planforge writes for an id longer than [`WHOLE_MAX`]).
    Hashed(&'a str),
    /// Its tx id whole (what planforge writes for a short id, and what an
    /// earlier planforge wrote for every id).
    Whole(&'a str),
}

/// The longest tx id a new undo or redo names whole: an undo of a change
/// (16 hex digits, or an import's id), the redo of that undo (38 bytes), an
/// undo of that redo (60 bytes) and its redo (82 bytes) stay readable to
/// earlier builds, which read no other form; deeper rounds of one chain are
/// named by hash.
pub(crate) const WHOLE_MAX: usize = 100;

/// `@` and the first 16 hex digits of the SHA-256 of tx id `tx`: how a
/// reference by hash names it.
pub(crate) fn hashed(tx: &str) -> String {
    let digest = Sha256::digest(tx.as_bytes());
    format!("{HASHED}{}", hex(&digest[..REF_DIGITS / 2]))
}

/// The reference to transaction `tx` that a new undo or redo of it writes:
/// its id whole when that is short and cannot be read as a hash, else
/// [`hashed`].
pub(crate) fn reference(tx: &str) -> String {
    if tx.len() <= WHOLE_MAX && !tx.starts_with(HASHED) && !tx.is_empty() {
        tx.to_string()
    } else {
        hashed(tx)
    }
}

/// The tx label of a new undo of transaction `tx` (its own id follows).
pub(crate) fn undo_label(tx: &str) -> String {
    format!("{LABEL}{}-", reference(tx))
}

/// The tx label of a new redo of the undo `undo_tx` (its own id follows).
pub(crate) fn redo_label(undo_tx: &str) -> String {
    format!("{REDO}{}-", reference(undo_tx))
}

/// Whether `tx` is an undo transaction's id (either form).
pub(crate) fn is_undo(tx: &str) -> bool {
    tx.starts_with(LABEL)
}

/// Whether `tx` is a redo transaction's id (either form).
pub(crate) fn is_redo(tx: &str) -> bool {
    tx.starts_with(REDO)
}

/// What the tx id `tx`, labelled `label`, says it takes back.
fn taken_back<'a>(tx: &'a str, label: &str) -> Option<Ref<'a>> {
    let (named, _) = tx.strip_prefix(label)?.rsplit_once('-')?;
    let hashed = named.strip_prefix(HASHED).is_some_and(|h| {
        h.len() == REF_DIGITS && h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    });
    Some(if hashed {
        Ref::Hashed(named)
    } else {
        Ref::Whole(named)
    })
}

/// The transaction an undo transaction undid.
pub(crate) fn undone_by(tx: &str) -> Option<Ref<'_>> {
    taken_back(tx, LABEL)
}

/// The undo transaction a redo transaction took back.
pub(crate) fn redone_by(tx: &str) -> Option<Ref<'_>> {
    taken_back(tx, REDO)
}

/// The transactions that some undos (or redos) take back, in either form,
/// each with its actor: an undo takes back a transaction of the actor who
/// wrote the undo, never another actor's that spells the same tx id.
#[derive(Default)]
pub(crate) struct TakenBack<'a> {
    whole: FastSet<(&'a str, &'a str)>,
    hashed: FastSet<(&'a str, &'a str)>,
}

impl<'a> TakenBack<'a> {
    /// What the transactions `txs` (actor, tx id) take back, read by `by`
    /// ([`undone_by`], [`redone_by`]).
    pub(crate) fn of(
        txs: impl Iterator<Item = (&'a str, &'a str)>,
        by: fn(&'a str) -> Option<Ref<'a>>,
    ) -> Self {
        let mut out = TakenBack::default();
        for (actor, r) in txs.filter_map(|(actor, tx)| Some((actor, by(tx)?))) {
            match r {
                Ref::Hashed(h) => out.hashed.insert((actor, h)),
                Ref::Whole(id) => out.whole.insert((actor, id)),
            };
        }
        out
    }

    /// Whether `actor`'s transaction `tx` is taken back.
    pub(crate) fn contains(&self, actor: &str, tx: &str) -> bool {
        self.whole.contains(&(actor, tx))
            || (!self.hashed.is_empty() && self.hashed.contains(&(actor, hashed(tx).as_str())))
    }
}

/// Whether `r` names the transaction `tx`.
pub(crate) fn names(r: Ref<'_>, tx: &str) -> bool {
    match r {
        Ref::Whole(id) => id == tx,
        Ref::Hashed(h) => hashed(tx) == h,
    }
}

/// Each op of `ops` once, in log order: a line that a cherry-pick and a
/// merge left twice, or that another writer spelled another way, is one op,
/// as the fold counts it (issue 17: undo listed it once per line).
pub(crate) fn distinct(ops: &[Op]) -> Vec<&Op> {
    let mut out: Vec<&Op> = Vec::with_capacity(ops.len());
    // Where in `out` the ops with an op id are (almost always one).
    let mut at: FastMap<&str, Vec<usize>> = FastMap::default();
    for op in ops {
        let kept = at.entry(op.op_id.as_str()).or_default();
        let same = |&i: &usize| {
            let o: &Op = out[i];
            o == op || crate::store::fold::order(o, op).is_eq()
        };
        if !kept.iter().any(same) {
            kept.push(out.len());
            out.push(op);
        }
    }
    out
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
