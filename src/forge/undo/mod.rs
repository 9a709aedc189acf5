//! `undo` (SPEC §11; the seed's "rollback is undo"): appends the inverse of
//! this actor's latest transaction that is not undone yet, as one new
//! transaction whose tx id is `undo-<ref>-<new id>`, `<ref>` naming the
//! original: its id whole, or a hash of a long one (see [`log`]). Nothing is
//! ever taken out of the log.
//!
//! The inverse is computed by folding the log before the transaction (B) and
//! with it (A), and restoring B wherever A differs from it: a node the
//! transaction added is removed (with its edges), a node it removed comes
//! back with the edges it lost, a changed phase, definition field or bounds
//! gets its earlier value. Something the transaction changed that another
//! transaction changed again since is left as it is now and reported, so an
//! undo never throws away someone else's later work. Repeated undos walk
//! further back: undo transactions and the ones they undid are skipped.

mod history;
mod invert;
pub(crate) mod log;
mod paths;
mod redo;

pub(crate) use history::inherited;

use super::echo::{self, Echo};
use super::{Forge, edit::bounded_list};
use crate::model::error::Result;
use crate::model::error::{Error, ErrorKind};
use crate::store::Loaded;
use history::History;
use invert::{Current, Inverse};
use log::{TakenBack, is_undo, summary, undo_label, undone_by};

/// The transaction an undo takes back, with its inverse.
struct Found {
    tx: String,
    what: String,
    inverse: Inverse,
}

/// Finds `actor`'s latest transaction that is not undone yet and that can
/// still be undone, walking back past those that changed nothing.
fn find(history: &History, loaded: &Loaded, actor: &str) -> Result<Found> {
    let txs = history.transactions();
    let undone = TakenBack::of(txs.iter().map(|t| (t.actor, t.id)), undone_by);
    let first_own = history.inherited(loaded.meta.provenance.as_ref());
    let current = Current::of(loaded);
    // Changes whose every effect others have changed again since: nothing of
    // them is left to take back, so undo walks past them (and says so).
    let mut overridden: Vec<(String, Vec<String>)> = Vec::new();
    for head in txs.iter().rev() {
        if head.actor != actor
            || is_undo(head.id)
            || undone.contains(actor, head.id)
            || head.start() < first_own
        {
            continue;
        }
        let ops = history.ops_of(head)?;
        let tx = head.tx(&ops);
        let inverse = history.inverse(&tx, &current)?;
        if inverse.bodies.is_empty() {
            if inverse.had_effect && !inverse.kept.is_empty() {
                overridden.push((
                    format!("{} ({})", transaction(tx.id), summary(&tx)),
                    inverse.kept.clone(),
                ));
            }
            // It changed nothing, or others already took it back.
            continue;
        }
        let mut what = format!("{} of {} ({})", transaction(tx.id), tx.at, summary(&tx));
        if !overridden.is_empty() {
            let later: Vec<String> = overridden.iter().map(|(t, _)| t.clone()).collect();
            what.push_str(&format!(
                "; your later {} left nothing to undo, others having changed all of it since",
                bounded_list(&later, 3)
            ));
        }
        return Ok(Found {
            tx: tx.id.to_string(),
            what,
            inverse,
        });
    }
    if let Some((latest, kept)) = overridden.first() {
        return Err(Error::refused(format!(
            "cannot undo your latest change to plan {} ({latest}): everything it changed was changed again since, and no earlier change of yours is left to undo",
            loaded.plan_id
        ))
        .with_help(format!(
            "{}; where you still want your change, make it again as a new edit, so nobody's later work is lost",
            bounded_list(kept, 4)
        )));
    }
    let since = match &loaded.meta.provenance {
        Some(crate::model::Provenance::Clone {
            parent,
            parent_revision,
            ..
        }) if first_own > 0 => format!(
            ", none since it was cloned from {parent} at revision {parent_revision} (the changes before that are {parent}'s history, copied: undo them in {parent}, or change them here as new edits)"
        ),
        _ => String::new(),
    };
    Err(Error::refused(format!(
        "nothing to undo: {actor} has no change to plan {} that is not undone yet{since}",
        loaded.plan_id
    ))
    .on_plan(&loaded.plan_id)
    .with_help(format!(
        "undo takes back only changes made as actor `{actor}`; the plan's history lists every change and who made it"
    )))
}

/// How many times an undo or a redo looks again when another process of the
/// same actor moved its history while it was prepared (each retry means
/// that other process got through).
const MOVED_RETRIES: usize = 20;

/// The refusal when the history kept moving under an undo or a redo: a
/// moved revision, retryable, not a failure of planforge.
fn moved_error(plan: &str, what: &str) -> Error {
    Error::new(
        ErrorKind::RevisionMoved,
        format!(
            "another process of the same actor kept changing plan {plan} while the {what} was prepared, so nothing was {what}ne"
        ),
    )
    .on_plan(plan)
    .with_help(format!("run {what} again; it takes the latest change then"))
}

impl Forge {
    /// Undoes this actor's latest transaction that is not undone yet, in
    /// one transaction labelled `undo-<ref>-` ([`log::undo_label`]).
    ///
    /// The transaction is found under the plan's lock, from the log's lines
    /// (issue 17: the plan is loaded as for any write, nothing is folded
    /// whole); a log that is not clean is read whole ([`Forge::undo_whole`]).
    pub(crate) fn undo(&self, plan: &str, expect: Option<u64>) -> Result<Echo> {
        let actor = self.actor().to_string();
        let committed = self.commit_from_lines(plan, &actor, |history, before| {
            let f = find(history, before, &actor)?;
            // The refusals in the order they always came.
            self.before_write()?;
            crate::store::expect_revision(before, expect)?;
            Ok((undo_label(&f.tx), f.inverse.bodies.clone(), f))
        })?;
        let Some((after, found)) = committed else {
            return self.undo_whole(plan, expect);
        };
        self.inverse_echo(&after, &found.inverse, format!("undid your {}", found.what))
    }

    /// Commits the transaction `build` makes from the history in the log's
    /// lines (its label, its ops, and what the caller keeps of it), under
    /// the plan's lock; `None` when the log is not clean enough to read by
    /// lines (then nothing was written and the caller reads it whole).
    fn commit_from_lines<T>(
        &self,
        plan: &str,
        actor: &str,
        mut build: impl FnMut(&History, &Loaded) -> Result<(String, Vec<crate::model::OpBody>, T)>,
    ) -> Result<Option<(Loaded, T)>> {
        let mut whole = false;
        let mut kept: Option<T> = None;
        let result = self.store().commit_labeled_from_log(plan, actor, |before| {
            let Some(lines) = self.store().log_lines(before)? else {
                whole = true;
                return Err(Error::internal("the log is to be read whole"));
            };
            let (label, bodies, k) = build(&History::of_lines(&before.plan_id, &lines)?, before)?;
            kept = Some(k);
            Ok((label, bodies))
        });
        match result {
            Err(_) if whole => Ok(None),
            result => Ok(Some((
                result?.0,
                kept.expect("set when the commit went through"),
            ))),
        }
    }

    /// As [`Forge::undo`], from every op of the log, read and folded: for a
    /// log whose lines are not all ops of complete transactions, or that an
    /// earlier planforge's `meta.json` adds to.
    fn undo_whole(&self, plan: &str, expect: Option<u64>) -> Result<Echo> {
        let actor = self.actor().to_string();
        // The label names the undone transaction, so it is chosen before the
        // lock is taken and confirmed under it; should this actor's history
        // move in between (another process of the same actor), look again.
        let mut attempts = 0;
        let (after, found) = loop {
            attempts += 1;
            let loaded = self.store().load_with_ops(plan)?;
            crate::store::ensure_editable(&loaded)?;
            let target = find(&History::of_ops(plan, loaded.ops()?), &loaded, &actor)?.tx;
            let label = undo_label(&target);
            let mut found: Option<Found> = None;
            let mut moved = false;
            self.before_write()?;
            let result = self
                .store()
                .commit_labeled(plan, &actor, expect, &label, |before| {
                    let f = find(&History::of_ops(plan, before.ops()?), before, &actor)?;
                    if f.tx != target {
                        moved = true;
                        return Err(moved_error(plan, "undo"));
                    }
                    let bodies = f.inverse.bodies.clone();
                    found = Some(f);
                    Ok(bodies)
                });
            match result {
                Err(_) if moved && attempts < MOVED_RETRIES => continue,
                Err(e) => return Err(e),
                Ok((after, _)) => break (after, found.expect("set when the commit went through")),
            }
        };
        self.inverse_echo(&after, &found.inverse, format!("undid your {}", found.what))
    }

    /// The echo of an undo or a redo that committed `inv`: what it did and
    /// what it left as is, focused on its one node when it touched one.
    fn inverse_echo(&self, after: &Loaded, inv: &Inverse, headline: String) -> Result<Echo> {
        self.remade(after, |after| {
            self.inverse_echo_of(after, inv, headline.clone())
        })
    }

    /// [`Forge::inverse_echo`] over `after`.
    fn inverse_echo_of(&self, after: &Loaded, inv: &Inverse, headline: String) -> Result<Echo> {
        let report = self.check(after)?;
        let focus = match inv.nodes.as_slice() {
            [one] if after.content().node(one).is_some() => Some(one.clone()),
            _ => None,
        };
        let mut details = vec![format!(
            "done: {}",
            bounded_list(&inv.done, echo::MAX_NEIGHBOURS)
        )];
        if !inv.kept.is_empty() {
            details.push(format!(
                "left as is (changed again since): {}",
                bounded_list(&inv.kept, echo::MAX_NEIGHBOURS)
            ));
        }
        Ok(echo::build(
            after,
            headline,
            focus.as_deref(),
            &report.issues,
            details,
            &inv.nodes,
            &inv.edges,
        ))
    }
}

impl Forge {
    /// Takes back this actor's latest undo (see [`redo`]), in one
    /// transaction labelled `redo-<ref>-` ([`log::redo_label`]): found
    /// under the lock from the log's lines, as for [`Forge::undo`].
    pub(crate) fn redo(&self, plan: &str, expect: Option<u64>) -> Result<Echo> {
        let actor = self.actor().to_string();
        let committed = self.commit_from_lines(plan, &actor, |history, before| {
            let target = redo::target(history, before, &actor)?;
            self.before_write()?;
            crate::store::expect_revision(before, expect)?;
            let inv = redo_inverse(history, before, &actor, &target)?;
            let label = log::redo_label(&target);
            let bodies = inv.bodies.clone();
            let undid = undid_by(history, &actor, &target);
            Ok((label, bodies, (target, undid, inv)))
        })?;
        let Some((after, (target, undid, inv))) = committed else {
            return self.redo_whole(plan, expect);
        };
        self.redo_echo(&after, &inv, &target, &undid)
    }

    /// As [`Forge::redo`], from every op of the log, read and folded (see
    /// [`Forge::undo_whole`]).
    fn redo_whole(&self, plan: &str, expect: Option<u64>) -> Result<Echo> {
        let actor = self.actor().to_string();
        // As for undo: the label names the undo taken back, so it is chosen
        // before the lock and confirmed under it; should it move (another
        // process of the same actor redid it first), look again.
        let mut attempts = 0;
        let (after, (inv, undid), target) = loop {
            attempts += 1;
            let loaded = self.store().load_with_ops(plan)?;
            crate::store::ensure_editable(&loaded)?;
            let target = redo::target(&History::of_ops(plan, loaded.ops()?), &loaded, &actor)?;
            let label = log::redo_label(&target);
            let mut inverse = None;
            let mut moved = false;
            self.before_write()?;
            let result = self
                .store()
                .commit_labeled(plan, &actor, expect, &label, |before| {
                    let history = History::of_ops(plan, before.ops()?);
                    if redo::target(&history, before, &actor)? != target {
                        moved = true;
                        return Err(moved_error(plan, "redo"));
                    }
                    let inv = redo_inverse(&history, before, &actor, &target)?;
                    let bodies = inv.bodies.clone();
                    inverse = Some((inv, undid_by(&history, &actor, &target)));
                    Ok(bodies)
                });
            match result {
                Err(_) if moved && attempts < MOVED_RETRIES => continue,
                Err(e) => return Err(e),
                Ok((after, _)) => {
                    break (
                        after,
                        inverse.expect("set when the commit went through"),
                        target,
                    );
                }
            }
        };
        self.redo_echo(&after, &inv, &target, &undid)
    }

    /// The echo of a redo that took back the undo `target` of `undid`.
    fn redo_echo(&self, after: &Loaded, inv: &Inverse, target: &str, undid: &str) -> Result<Echo> {
        self.inverse_echo(
            after,
            inv,
            format!(
                "redid your {undid} (taking back its undo {})",
                shown(target)
            ),
        )
    }
}

/// The transaction `actor`'s undo `target` undid, as its echo names it
/// ("transaction ID").
fn undid_by(history: &History, actor: &str, target: &str) -> String {
    let Some(r) = undone_by(target) else {
        return transaction(target);
    };
    match (history.named(actor, r), r) {
        (Some(id), _) => transaction(id),
        (None, log::Ref::Hashed(h)) => {
            format!("transaction with the hash {h}, which none of your transactions in the log has")
        }
        (None, log::Ref::Whole(id)) => {
            format!(
                "{}, which is not one of your transactions in the log",
                transaction(id)
            )
        }
    }
}

/// "transaction ID", an empty id shown as `""`.
fn transaction(id: &str) -> String {
    format!("transaction {}", shown(id))
}

/// A tx id as an echo shows it: bare when it is plain (letters, digits,
/// `-_.:@`, as every id planforge writes), else quoted with its escapes, so
/// an empty id, one written `""` or one holding a line break or a space
/// reads as what it is.
fn shown(id: &str) -> std::borrow::Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.:@".contains(c);
    if !id.is_empty() && id.chars().all(plain) {
        id.into()
    } else {
        format!("{id:?}").into()
    }
}

/// The inverse of `actor`'s undo `target`, refused when others changed all
/// it undid since.
fn redo_inverse(history: &History, before: &Loaded, actor: &str, target: &str) -> Result<Inverse> {
    let inv = redo::inverse(history, before, actor, target)?;
    if inv.bodies.is_empty() {
        // Name the change the undo took back: the undo's own id may name it
        // only by a hash.
        let undid = undid_by(history, actor, target);
        return Err(Error::refused(format!(
            "nothing to redo: what your undo {} took back of {undid} was changed again since",
            shown(target)
        ))
        .with_help(bounded_list(&inv.kept, 4)));
    }
    Ok(inv)
}

#[cfg(test)]
mod form_tests;
#[cfg(test)]
mod history_tests;
#[cfg(test)]
mod tests;
