//! `redo`: takes back this actor's latest undo, as one new transaction
//! whose tx id is `redo-<ref>-<new id>`, `<ref>` naming the undo: its id
//! whole, or a hash of a long one (see [`super::log`]). It is the inverse of the undo, made the way
//! undo makes every inverse, so work others did since is kept. Redo walks
//! back through consecutive undos (undo, undo, redo, redo); a change of the
//! actor's own that is not an undo ends the chain, as in an editor. An undo
//! can then take a redo back again, like any change.

use super::history::History;
use super::log::{TakenBack, is_redo, is_undo, redone_by, summary};
use crate::model::error::{Error, Result};
use crate::store::Loaded;

/// The id of `actor`'s latest undo that no redo took back yet, when only
/// undos and redos of theirs come after it.
pub(super) fn target(history: &History, loaded: &Loaded, actor: &str) -> Result<String> {
    let txs = history.transactions();
    let redone = TakenBack::of(txs.iter().map(|t| (t.actor, t.id)), redone_by);
    let mut skipped = false;
    for head in txs.iter().rev().filter(|t| t.actor == actor) {
        if is_redo(head.id) || redone.contains(actor, head.id) {
            skipped = true;
            continue;
        }
        if is_undo(head.id) {
            return Ok(head.id.to_string());
        }
        let ops = history.ops_of(head)?;
        let tx = head.tx(&ops);
        let message = if skipped {
            format!(
                "nothing to redo: every undo you made in plan {} since your change ({}) is redone already",
                loaded.plan_id,
                summary(&tx)
            )
        } else {
            format!(
                "nothing to redo: your latest change to plan {} ({}) is not an undo",
                loaded.plan_id,
                summary(&tx)
            )
        };
        return Err(Error::refused(message)
            .on_plan(&loaded.plan_id)
            .with_help("redo takes back an undo only until you make another change"));
    }
    Err(Error::refused(format!(
        "nothing to redo: {actor} has undone nothing in plan {} that is not redone yet",
        loaded.plan_id
    ))
    .on_plan(&loaded.plan_id))
}

/// The inverse of `actor`'s undo `undo_tx`, in ops, with what it does in
/// words.
pub(super) fn inverse(
    history: &History,
    loaded: &Loaded,
    actor: &str,
    undo_tx: &str,
) -> Result<super::invert::Inverse> {
    let txs = history.transactions();
    let head = txs
        .iter()
        .find(|t| t.actor == actor && t.id == undo_tx)
        .ok_or_else(|| Error::internal("the undo to redo left the log"))?;
    let ops = history.ops_of(head)?;
    history.inverse(&head.tx(&ops), &super::invert::Current::of(loaded))
}
