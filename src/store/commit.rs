//! Writing a plan: a transaction's ops, and the write transaction that
//! appends them under the plan's lock; a plan created whole or removed whole
//! under the store's lock.
//!
//! The append is the one commit point: the lock and the plan folder are
//! checked to be the ones at their paths right before it, the lines go at
//! the file's real end, and nothing that can fail comes after it. A write
//! that reports failure changed nothing; one that reports success changed
//! exactly what it said.

use super::Store;
use super::atomic::sync_dir;
use super::fold;
use super::load::{Loaded, finish};
use super::lock::{self, LockGuard};
use super::log::{self, LogInfo};
use super::paths::{CURRENT_FILE, LOCK_FILE, META_FILE, OPS_FILE, refuse_special, refuse_symlink};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids;
use crate::model::lifecycle::State;
use crate::model::remedy::Remedy;
use crate::model::{Op, OpBody, Provenance};
use std::fs;
use std::path::Path;

/// Builds the ops of one transaction: lamports R+1…R+k, one tx id, the last
/// op closing it.
pub fn transaction(actor: &str, plan_id: &str, revision: u64, bodies: Vec<OpBody>) -> Vec<Op> {
    transaction_labeled(actor, plan_id, revision, "", bodies)
}

/// As [`transaction`], with a tx id that starts with `label` (an undo's
/// `undo-<ref>-`, a redo's `redo-<ref>-`: so later readers can tell what
/// a transaction was for; the label is bounded, `forge::undo::log`).
pub(crate) fn transaction_labeled(
    actor: &str,
    plan_id: &str,
    revision: u64,
    label: &str,
    bodies: Vec<OpBody>,
) -> Vec<Op> {
    let tx = format!("{label}{}", crate::model::mint::tx_id());
    let at = crate::model::clock::now();
    let k = bodies.len();
    bodies
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            let lamport = revision + i as u64 + 1;
            // `{actor}:{plan_id}:{lamport}:{tx}`, without the formatting
            // machinery (an import of 10,000 nodes mints 20,000 of these).
            let mut op_id = String::with_capacity(actor.len() + plan_id.len() + tx.len() + 23);
            for part in [actor, ":", plan_id, ":"] {
                op_id.push_str(part);
            }
            push_decimal(&mut op_id, lamport);
            op_id.push(':');
            op_id.push_str(&tx);
            Op {
                op_id,
                actor_id: actor.into(),
                lamport,
                at: at.as_str().into(),
                tx: tx.as_str().into(),
                tx_end: i + 1 == k,
                body,
            }
        })
        .collect()
}

/// Appends `n` in decimal digits.
fn push_decimal(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// What a new plan starts with (its `create_plan` op).
#[derive(Debug, Clone, Default)]
pub(crate) struct Start {
    pub(crate) label: Option<String>,
    pub(crate) request: Option<String>,
    pub(crate) provenance: Option<Provenance>,
}

impl Start {
    fn body(self) -> OpBody {
        OpBody::CreatePlan {
            label: self.label,
            request: self.request,
            provenance: self.provenance,
        }
    }
}

/// What a write may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Write {
    /// Content: refused unless the plan is editable.
    Content,
    /// Content, built by a builder that reads the history it needs from
    /// the log's lines itself ([`Store::log_lines`]): the plan is loaded
    /// as for any other write, without its ops, even for a labelled one.
    ContentFromLog,
    /// The lifecycle: the builder decides what the state allows.
    Lifecycle,
    /// No change of its own: writes what an earlier planforge's `meta.json`
    /// stands for and drops unfinished lines, when there are any.
    Upgrade,
}

/// What [`Store::upgrade`] did to one plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Upgraded {
    /// Ops written for what `meta.json` said (0: the plan had none).
    pub(crate) meta_ops: usize,
    /// Unfinished transactions' ops removed.
    pub(crate) unfinished: usize,
}

/// The label a transaction's id starts with: known before it is built, or
/// said by its builder (set in the cell once it has built).
#[derive(Clone, Copy)]
enum Label<'a> {
    Known(&'a str),
    Built(&'a std::cell::RefCell<String>),
}

/// How many times a write is retried when its lock or plan folder was
/// replaced while it waited.
const RETRIES: usize = 50;

/// The identity of a file or folder: (device, inode).
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::symlink_metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

impl Store {
    /// Runs one write transaction on a plan under its lock: checks the state
    /// and the expected revision, asks `build` for the ops (it sees the plan
    /// folded under the lock and may refuse), appends them in one write and
    /// returns the plan after the write. No ops → nothing is written.
    pub(crate) fn commit<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnMut(&Loaded) -> Result<Vec<OpBody>>,
    {
        self.write(
            id,
            actor,
            expect_rev,
            Label::Known(""),
            Write::Content,
            build,
        )
    }

    /// As [`commit`](Self::commit), with a tx id starting with `label`.
    pub(crate) fn commit_labeled<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        label: &str,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnMut(&Loaded) -> Result<Vec<OpBody>>,
    {
        self.write(
            id,
            actor,
            expect_rev,
            Label::Known(label),
            Write::Content,
            build,
        )
    }

    /// As [`commit_labeled`](Self::commit_labeled), for a `build` that
    /// reads the history it needs from the log's lines itself
    /// ([`Store::log_lines`] of the plan it is given, which holds no ops)
    /// and says the label with the ops (an undo names the transaction it
    /// finds under the lock). It checks an expected revision itself
    /// ([`expect_revision`]).
    pub(crate) fn commit_labeled_from_log<F>(
        &self,
        id: &str,
        actor: &str,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnMut(&Loaded) -> Result<(String, Vec<OpBody>)>,
    {
        let label = std::cell::RefCell::new(String::new());
        let mut build = build;
        let build = |before: &Loaded| {
            let (built, bodies) = build(before)?;
            *label.borrow_mut() = built;
            Ok(bodies)
        };
        self.write(
            id,
            actor,
            None,
            Label::Built(&label),
            Write::ContentFromLog,
            build,
        )
    }

    /// A lifecycle transition (freeze, unfreeze, approve): `build` sees the
    /// plan under the lock and says which op, if any, to append.
    pub(crate) fn commit_lifecycle<F>(&self, id: &str, actor: &str, build: F) -> Result<Loaded>
    where
        F: FnMut(&Loaded) -> Result<Vec<OpBody>>,
    {
        Ok(self
            .write(id, actor, None, Label::Known(""), Write::Lifecycle, build)?
            .0)
    }

    /// Brings a plan to the current format under its lock: an earlier
    /// planforge's `meta.json` becomes ops in the log (and goes), unfinished
    /// transactions are removed. Says what it did; nothing when the plan is
    /// current.
    pub(crate) fn upgrade(&self, id: &str) -> Result<Upgraded> {
        let before = self.load(id)?;
        let report = Upgraded {
            meta_ops: before.upgrade.len(),
            unfinished: before.log.unfinished,
        };
        if report.meta_ops > 0 || report.unfinished > 0 {
            self.write(
                id,
                "~upgrade",
                None,
                Label::Known(""),
                Write::Upgrade,
                |_| Ok(Vec::new()),
            )?;
        }
        Ok(report)
    }

    fn write<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        label: Label,
        kind: Write,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnMut(&Loaded) -> Result<Vec<OpBody>>,
    {
        let dir = self.plan_dir(id)?;
        for _ in 0..RETRIES {
            if !self.exists(id) {
                return Err(self.unknown_plan(id));
            }
            refuse_symlink(&dir)?;
            let folder = identity(&dir);
            let guard = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
            // A plan removed (and made again) while we waited is another
            // plan: start over on the one at the path now.
            if identity(&dir) != folder || !guard.still_held() {
                continue;
            }
            return self.write_locked(id, actor, expect_rev, label, kind, build, &guard, folder);
        }
        Err(replaced(id))
    }

    /// The plan a write starts from and the ops `build` makes of it. A
    /// labelled transaction (undo) reads history; others need only the
    /// folded plan. When a definition `build` read was found damaged in the
    /// snapshot (after the load said it was sound: see `store::late`), what
    /// it decided may rest on it, errors included: decided again on the
    /// log's fold.
    fn decide<F>(
        &self,
        id: &str,
        expect_rev: Option<u64>,
        label: &Label,
        kind: Write,
        build: &mut F,
    ) -> Result<(Loaded, Vec<OpBody>)>
    where
        F: FnMut(&Loaded) -> Result<Vec<OpBody>>,
    {
        let mut before = if kind == Write::ContentFromLog {
            self.load_to_write(id)?
        } else if matches!(label, Label::Known(l) if !l.is_empty()) {
            self.load_with_ops(id)?
        } else if kind == Write::Lifecycle {
            // A lifecycle transition is a verdict: never on an unverified
            // warm plan.
            self.load_verified(id)?
        } else {
            self.load_to_write(id)?
        };
        let check = |before: &Loaded| {
            if matches!(kind, Write::Content | Write::ContentFromLog) {
                ensure_editable(before)?;
            }
            expect_revision(before, expect_rev)
        };
        check(&before)?;
        let mut built = build(&before);
        if before.late_damaged() {
            before = self.refold_late(id)?;
            check(&before)?;
            built = build(&before);
        }
        Ok((before, built?))
    }

    /// The write under the lock. When the lock or the folder was replaced
    /// before the append, nothing is written and the write fails.
    #[allow(clippy::too_many_arguments)]
    fn write_locked<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        label: Label,
        kind: Write,
        mut build: F,
        guard: &LockGuard,
        folder: Option<(u64, u64)>,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnMut(&Loaded) -> Result<Vec<OpBody>>,
    {
        let dir = self.plan_dir(id)?;
        let (mut before, bodies) = self.decide(id, expect_rev, &label, kind, &mut build)?;
        let repair =
            kind == Write::Upgrade && (!before.upgrade.is_empty() || before.log.unfinished > 0);
        if bodies.is_empty() && !repair {
            return Ok((before, Vec::new()));
        }
        refuse_too_deep(&bodies)?;
        // New ops must sort after every op in the log: numbered from the
        // highest lamport in it (a log with lines removed, edited or merged
        // can hold lamports above its revision count).
        let base = before.revision().max(before.log.max_lamport);
        if base.saturating_add(bodies.len() as u64) > crate::model::value::MAX_SAFE_INTEGER as u64 {
            return Err(Error::new(
                ErrorKind::CorruptStore,
                format!(
                    "{}: the highest lamport in the log is {}, too close to 2^53−1 for another change to be numbered after it",
                    dir.join(OPS_FILE).display(),
                    before.log.max_lamport
                ),
            )
            .with_help("the log was edited by hand; export the plan and import the document under a new id"));
        }
        let label = match label {
            Label::Known(l) => l.to_string(),
            Label::Built(l) => l.take(),
        };
        let ops = transaction_labeled(actor, id, base, &label, bodies);
        // An earlier planforge's plan: its meta.json becomes ops, here.
        let mut lines: Vec<Op> = before.upgrade.clone();
        lines.extend(ops.iter().cloned());
        // Unfinished lines inside the log are dropped by rewriting it.
        let kept = match &before.ops {
            _ if !before.log.unfinished_inside => Vec::new(),
            Some(ops) => ops.clone(),
            None => self.load_with_ops(id)?.ops.take().unwrap_or_default(),
        };
        if identity(&dir) != folder || !guard.still_held() {
            return Err(replaced(id));
        }
        let ops_path = dir.join(OPS_FILE);
        if let Some(w) = &self.warm {
            // The kept plan is folded on top of below, not copied.
            w.release(&ops_path);
        }
        let pre = super::appends::metadata(&ops_path);
        log::append(&ops_path, &before.log, &kept, &lines)?;
        crate::model::oom::wrote(id);
        if let Some(post) = super::appends::metadata(&ops_path) {
            // Only bytes added at the end of the log as it was read.
            let pure = !before.log.unfinished_inside
                && before.log.good_len == before.log.len
                && pre.as_ref().is_none_or(|m| m.len() == before.log.len);
            super::appends::record(&dir, pre.as_ref(), &post, pure);
        }
        if !before.upgrade.is_empty() {
            // The log holds everything meta.json said; a failure to remove
            // it changes nothing (the log's create_plan wins).
            let _ = fs::remove_file(dir.join(META_FILE));
        }
        super::sweep::stale_temps(&dir, std::time::SystemTime::now());
        // What the ops change, for the checks of a warm plan or the checks
        // a one-shot process kept (worked out on the plan they apply to,
        // before it is folded on).
        let mut kept_checks = before.kept_checks.take();
        let touched = (self.warm.is_some() || kept_checks.is_some())
            .then(|| super::load::touched_by(&before.folded, lines.iter().map(|o| &o.body)));
        let (log_before, snapshot_at) = (before.log.clone(), before.snapshot_at);
        let clean = kept.is_empty() && before.upgrade.is_empty() && before.log.unfinished == 0;
        let (mut after, mut folded_on) = self.after(id, before, &lines);
        let mut snapshot_at = snapshot_at;
        if after.late_damaged() {
            // Found while folding on (a digest): the plan after the write
            // is the log's fold, and the snapshot is made again from it.
            after = self.refold_late(id)?;
            (folded_on, snapshot_at) = (false, None);
        }
        if let (Some(k), Some(t)) = (&mut kept_checks, &touched) {
            k.touched.merge(t.clone());
        }
        // Only a fold on top of the one they were kept for: a log folded
        // again (its new ops sorted among older ones) may differ otherwise.
        if folded_on {
            after.kept_checks = kept_checks;
        }
        if self.warm.is_none() && clean && log_before.good_len == log_before.len {
            let appended: u64 = lines
                .iter()
                .map(|o| crate::wire::codec::op_line(o).len() as u64 + 1)
                .sum();
            super::snapshot::after_write(
                self.one_shot,
                &dir,
                &log_before,
                snapshot_at,
                &mut after,
                appended,
            );
        }
        if let Some(w) = &self.warm {
            // What the append wrote, when the log was clean (else the
            // lengths differ and the next read folds the log afresh).
            let appended: String = lines
                .iter()
                .map(|o| crate::wire::codec::op_line(o) + "\n")
                .collect();
            w.kept_after_append(&ops_path, &after, appended.as_bytes(), touched);
        }
        Ok((after, ops))
    }

    /// The plan after `lines` were appended to `before`'s log, and whether
    /// they were folded on top of `before`'s fold (else the log was read
    /// again).
    fn after(&self, id: &str, mut before: Loaded, lines: &[Op]) -> (Loaded, bool) {
        let mut folded = super::warm::unshare(std::mem::replace(
            &mut before.folded,
            std::sync::Arc::new(fold::Folded::empty(id)),
        ));
        // The write removed the unfinished lines (its log has none): their
        // note goes with them, so the echo counts what a `status` after
        // it does.
        folded
            .notes
            .retain(|n| !matches!(n, crate::model::note::Note::TornTail { .. }));
        let max_lamport = lines
            .iter()
            .map(|o| o.lamport)
            .max()
            .unwrap_or(0)
            .max(before.log.max_lamport);
        let log = LogInfo {
            max_lamport,
            unfinished: 0,
            unfinished_lines: Vec::new(),
            unfinished_inside: false,
            head: before.log.head + lines.len() as u64,
            ..before.log.clone()
        };
        let kept = before.ops.take().map(|mut all| {
            all.extend(lines.iter().cloned());
            all
        });
        // The new ops sort after every older one (their lamports are above
        // every lamport in the log), so they apply on top of the fold made;
        // else the log is read again.
        match fold::fold_after(folded, before.log.max_lamport, lines) {
            Some(f) => (finish(id, f, log, kept, Vec::new(), self.one_shot), true),
            None => {
                drop(before);
                let again = self.load(id).unwrap_or_else(|_| {
                    finish(
                        id,
                        fold::Folded::empty(id),
                        log,
                        None,
                        Vec::new(),
                        self.one_shot,
                    )
                });
                (again, false)
            }
        }
    }

    /// Creates a plan from its start and a first transaction.
    pub(crate) fn create(
        &self,
        id: &str,
        actor: &str,
        start: Start,
        bodies: Vec<OpBody>,
    ) -> Result<Loaded> {
        let mut all = vec![start.body()];
        all.extend(bodies);
        let mut ops = transaction(actor, id, 0, all);
        // The creation is lamport 0, before everything; the content ops are
        // numbered from 1, as revisions are.
        for o in &mut ops {
            o.lamport -= 1;
            o.op_id = format!("{actor}:{id}:{}:{}", o.lamport, o.tx);
        }
        self.create_with_ops(id, ops)
    }

    /// Creates a plan holding `ops` (a copy of another plan's content ops,
    /// complete transactions) after its own `create_plan`.
    pub(crate) fn create_copy(
        &self,
        id: &str,
        actor: &str,
        start: Start,
        ops: Vec<Op>,
    ) -> Result<Loaded> {
        let mut first = transaction(actor, id, 0, vec![start.body()]);
        // Before every copied op.
        first[0].lamport = 0;
        first[0].op_id = format!("{actor}:{id}:0:{}", first[0].tx);
        first.extend(ops);
        self.create_with_ops(id, first)
    }

    /// Creates a plan holding exactly `ops` (complete transactions, with its
    /// `create_plan`). The folder is built under a temporary name inside the
    /// store and renamed into place, so a plan appears whole or not at all.
    pub(crate) fn create_with_ops(&self, id: &str, ops: Vec<Op>) -> Result<Loaded> {
        let dir = self.plan_dir(id)?;
        // The commands that create a plan then make it current: a `current`
        // that cannot be written refuses before anything is created, not after.
        refuse_special(&self.root.join(CURRENT_FILE))?;
        refuse_too_deep(ops.iter().map(|o| &o.body))?;
        let _guard = lock::acquire(&self.root.join(".lock"), "the store")?;
        super::sweep::stale_temps(&self.root, std::time::SystemTime::now());
        match super::leftover::of_dir(&dir) {
            // What a checkout of a branch without the plan leaves: cleared.
            Some(super::leftover::Logless::Leftover) => self.clear_leftover(id)?,
            Some(what) => {
                return Err(Error::new(
                    ErrorKind::DuplicateId,
                    format!(
                        "plan `{id}` cannot be created in {}: {}",
                        self.root.display(),
                        what.why(id)
                    ),
                )
                .with_help(what.help(id)));
            }
            None if fs::symlink_metadata(&dir).is_ok() => {
                return Err(Error::new(
                    ErrorKind::DuplicateId,
                    format!("a plan `{id}` already exists in {}", self.root.display()),
                )
                .with_help("choose another id, or remove the existing plan first"));
            }
            None => {}
        }
        let tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempdir_in(&self.root)
            .map_err(|e| Error::io("create a temporary folder in", &self.root, &e))?;
        log::write_new(&tmp.path().join(OPS_FILE), &ops)?;
        sync_dir(tmp.path());
        let tmp_path = tmp.keep();
        if let Err(e) = fs::rename(&tmp_path, &dir) {
            let _ = fs::remove_dir_all(&tmp_path);
            return Err(Error::io("move the new plan into", &dir, &e));
        }
        crate::model::oom::wrote(id);
        sync_dir(&self.root);
        let info = LogInfo {
            max_lamport: ops.iter().map(|o| o.lamport).max().unwrap_or(0),
            ends_with_newline: true,
            head: ops.len() as u64,
            ..LogInfo::default()
        };
        // A one-shot process folds the ops it wrote consuming them (folded
        // by reference, a 100,000-node import copied every definition);
        // a long-lived session keeps them for its history.
        let (folded, ops) = if self.one_shot {
            (fold::fold_owned(id, ops), None)
        } else {
            (fold::fold(id, &ops), Some(ops))
        };
        Ok(finish(id, folded, info, ops, Vec::new(), self.one_shot))
    }

    /// Deletes a plan: renamed aside first, so readers see it whole or gone.
    pub(crate) fn remove(&self, id: &str) -> Result<()> {
        let dir = self.plan_dir(id)?;
        if self.logless(id) == Some(super::leftover::Logless::Leftover) {
            let _store = lock::acquire(&self.root.join(".lock"), "the store")?;
            self.clear_leftover(id)?;
            return self.forget_current(id);
        }
        if !self.exists(id) {
            return Err(self.unknown_plan(id));
        }
        refuse_symlink(&dir)?;
        let _store = lock::acquire(&self.root.join(".lock"), "the store")?;
        let _plan = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
        super::sweep::stale_temps(&self.root, std::time::SystemTime::now());
        let aside = self
            .root
            .join(format!(".tmp-removed-{}", crate::model::mint::tx_id()));
        fs::rename(&dir, &aside).map_err(|e| Error::io("remove", &dir, &e))?;
        if let Some(w) = &self.warm {
            w.forget(&dir.join(OPS_FILE));
        }
        sync_dir(&self.root);
        fs::remove_dir_all(&aside).map_err(|e| Error::io("remove", &aside, &e))?;
        self.forget_current(id)
    }

    /// Plan `id` is gone: `current` no longer names it.
    fn forget_current(&self, id: &str) -> Result<()> {
        if self.current()?.as_deref() == Some(id) {
            let _ = fs::remove_file(self.root.join(CURRENT_FILE));
        }
        Ok(())
    }
}

/// A write whose lock file or plan folder was replaced under it: nothing
/// was written.
fn replaced(id: &str) -> Error {
    Error::new(
        ErrorKind::StoreBusy,
        format!("plan {id}: its lock file or folder was replaced while this write held it (something removed the lock, or the plan was removed and made again); nothing was written"),
    )
    .with_help("retry; if it keeps happening, stop whatever removes the plan's lock file (a clean of ignored files, a sync tool)")
}

/// Refuses a definition nested deeper than a plan can hold: written anyway,
/// its op line would be refused by the next read (the plan would no longer
/// load), and its document by the next import.
fn refuse_too_deep<'a>(bodies: impl IntoIterator<Item = &'a OpBody>) -> Result<()> {
    use crate::wire::codec::{MAX_DEFINITION_DEPTH, map_depth};
    for b in bodies {
        let (node, def) = match b {
            OpBody::AddNode { node } | OpBody::ReplaceNode { node } => {
                (node.id.as_str(), &*node.definition)
            }
            OpBody::SetNodeDefinition {
                node_id,
                definition,
            } => (node_id.as_str(), definition),
            _ => continue,
        };
        let depth = map_depth(def);
        if depth > MAX_DEFINITION_DEPTH {
            return Err(Error::invalid(format!(
                "the definition of `{}` is nested {depth} levels deep; a plan holds definitions up to {MAX_DEFINITION_DEPTH} levels (so that its op log and its documents read back); flatten it",
                ids::quote_id(node),
            )));
        }
    }
    Ok(())
}

/// Refuses a write that expected `before` at another revision than its own.
pub(crate) fn expect_revision(before: &Loaded, want: Option<u64>) -> Result<()> {
    match want {
        Some(want) if want != before.revision() => Err(Error::new(
            ErrorKind::RevisionMoved,
            format!(
                "plan {} is at revision {}, not {want}: someone changed it since you read it",
                before.plan_id,
                before.revision()
            ),
        )
        .on_plan(&before.plan_id)
        .fix(
            Remedy::Status.when("read the plan again and redo the change against the new revision"),
        )),
        _ => Ok(()),
    }
}

/// Refuses writes to a plan that is not editable, saying how to proceed.
pub fn ensure_editable(p: &Loaded) -> Result<()> {
    match p.meta.state {
        State::Editable => Ok(()),
        State::Reviewable => Err(Error::new(
            ErrorKind::NotEditable,
            format!(
                "plan {} is reviewable (frozen at revision {}); its content cannot change",
                p.plan_id,
                p.revision()
            ),
        )
        .on_plan(&p.plan_id)
        .fix(Remedy::Unfreeze.when("to edit it again; the freeze is then undone"))
        .with_help("or submit it as it is")),
        State::Executable => Err(Error::new(
            ErrorKind::NotEditable,
            format!(
                "plan {} is executable (approved); nothing can change it, ever",
                p.plan_id
            ),
        )
        .on_plan(&p.plan_id)
        .fix(Remedy::Clone.when("to keep working on a copy"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Logless;
    use std::path::Path;

    #[test]
    fn op_ids_name_the_actor_plan_lamport_and_transaction() {
        let ops = transaction(
            "ann",
            "plan-x",
            9,
            vec![
                crate::model::OpBody::Unfreeze,
                crate::model::OpBody::Unfreeze,
            ],
        );
        assert_eq!(ops[0].op_id, format!("ann:plan-x:10:{}", ops[0].tx));
        assert_eq!(ops[1].op_id, format!("ann:plan-x:11:{}", ops[1].tx));
        for n in [0, 7, 10, 99, 1234567890, u64::MAX] {
            let mut s = String::from("x");
            push_decimal(&mut s, n);
            assert_eq!(s, format!("x{n}"));
        }
    }

    #[test]
    fn a_plan_folder_without_its_log_is_named_and_cleared_only_when_it_holds_caches() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::init(dir.path(), crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
        let create = || store.create_with_ops("plan-a", Vec::new());
        let names = |folder: &Path| {
            let mut v: Vec<_> = std::fs::read_dir(folder)
                .unwrap()
                .flatten()
                .map(|e| e.file_name().into_string().unwrap())
                .collect();
            v.sort();
            v
        };
        create().unwrap();
        let folder = store.plan_dir("plan-a").unwrap();
        std::fs::remove_file(folder.join(OPS_FILE)).unwrap();
        std::fs::write(folder.join("checkpoint.snap"), b"left over").unwrap();
        std::fs::write(folder.join("notes.md"), b"mine").unwrap();
        // Files of its own: named by every command, refused by create and remove.
        let err = store.load("plan-a").unwrap_err();
        assert_eq!(err.kind, ErrorKind::UnknownPlan);
        assert!(
            err.message.ends_with(
                "its folder plan-a/ is there, but holds no op log (plan-a/ops.jsonl); it holds `notes.md`, which planforge does not write"
            ),
            "{}",
            err.message
        );
        let err = create().unwrap_err();
        assert_eq!(err.kind, ErrorKind::DuplicateId);
        assert!(
            err.message.contains("it holds `notes.md`"),
            "{}",
            err.message
        );
        let err = store.remove("plan-a").unwrap_err();
        assert_eq!(err.kind, ErrorKind::UnknownPlan, "{}", err.message);
        assert_eq!(
            names(&folder),
            ["checkpoint.snap", "notes.md"],
            "refusals change nothing"
        );
        assert_eq!(
            store.logless_folders().unwrap(),
            [("plan-a".to_string(), Logless::Holds("notes.md".into()))]
        );
        // Only planforge's caches (what a checkout without the plan leaves):
        // named as such, then cleared by create, and by remove.
        std::fs::remove_file(folder.join("notes.md")).unwrap();
        let err = store.load("plan-a").unwrap_err();
        assert!(
            err.message
                .contains("only files planforge keeps beside one"),
            "{}",
            err.message
        );
        assert_eq!(
            store.logless_folders().unwrap(),
            [("plan-a".to_string(), Logless::Leftover)]
        );
        create().unwrap();
        assert_eq!(names(&folder), [OPS_FILE], "the caches were cleared");
        std::fs::remove_file(folder.join(OPS_FILE)).unwrap();
        std::fs::write(folder.join("lock"), b"").unwrap();
        store.remove("plan-a").unwrap();
        assert!(!folder.exists());
        assert!(store.logless_folders().unwrap().is_empty());
        // A plan id with no folder is told apart.
        let err = store.load("plan-b").unwrap_err();
        assert!(
            err.message.starts_with("there is no plan `plan-b` in "),
            "{}",
            err.message
        );
        assert!(!err.message.contains("folder"), "{}", err.message);
    }
}
