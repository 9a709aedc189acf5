//! The snapshot beside a plan's log (issue 17): the fold of a prefix of the
//! log, archived with rkyv, so a one-shot command loads the plan without
//! parsing and folding every op, then folds only the log's tail.
//!
//! It is a cache that never decides. `checkpoint.snap` is ignored by git
//! (`*/checkpoint*`, as `checkpoint.json`), and:
//!
//! - its bytes are checked before they are used: a magic number, then a
//!   small head (checksum, then rkyv's validation, bytecheck) whenever the
//!   file is opened, and each chunk of nodes, edges or the id index the
//!   same way when it is first read ([`chunks`]); anything wrong means
//!   "fold the log", never an error, and a reader in place drops an answer
//!   that asked for a damaged chunk;
//! - it is keyed by the log prefix it folds: the log file's identity
//!   (device, inode), the prefix's length, its first 512 bytes and its
//!   last 4 KiB, and — when the log has not grown — the log's modification
//!   and change times, as git's index keeps stat data. A log that is the
//!   same file, at least as long, with the same bytes where the prefix
//!   starts and ends, that only planforge appended to since (its record
//!   of its own appends, [`super::appends`], says so), is that prefix plus
//!   a tail; the tail is parsed and folded on top (`fold_after`, which refuses ops that sort among the
//!   folded ones: a merge folds the whole log). A log of the prefix's own
//!   length whose times moved was rewritten in place: folded afresh;
//! - it names the planforge binary that wrote it, and the plan;
//! - `freeze`, `submit` and `validate` never read it (`load_verified`);
//! - a failure to write it is ignored (a read-only store works).

mod archive;
pub(crate) mod chunks;
mod ids;
pub(crate) mod kept;
mod lazy;
mod reuse;
pub(crate) mod stamp;
#[cfg(test)]
mod tests;
mod tick;
mod view;

pub(crate) use stamp::Stamp;
use stamp::times;
use tick::{past_tick, past_tick_at};
pub(crate) use view::View;

use super::Store;
use super::fold::Folded;
use super::lifecycle::Machine;
use super::load::{KeptChecks, Loaded, finish};
use super::log::{self, LogInfo};
use super::paths::{META_FILE, OPS_FILE, refuse_special, refuse_symlink};
use crate::model::error::Result;
use crate::model::{Content, Node, NodeKind};
use archive::*;
use chunks::{EDGES_PER_CHUNK, NODES_PER_CHUNK, Opened, SChunk};
use reuse::Reuse;
use rkyv::{Archive, Serialize};
use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::Path;

/// The nodes touched since the checks' kept state that make a command
/// write it again (see [`Store::checks_worth_keeping`]): every command
/// after it checks those nodes again and looks each of them up, so a long
/// tail of small writes (a script of `add-node` and `connect` lines)
/// would cost more with every line until the tail reached
/// [`REWRITE_TAIL`].
const REWRITE_TOUCHED: usize = 64;

/// The snapshot's file name, beside `ops.jsonl`.
pub(crate) const FILE: &str = "checkpoint.snap";
/// A tail this long (bytes beyond the snapshot's prefix) makes the command
/// that folded it write a new snapshot; below it, writes only append to the
/// log (a write does not rewrite the whole plan's archive).
pub(crate) const REWRITE_TAIL: u64 = 256 * 1024;

/// The archive's head (the nodes, edges and id index are in chunks).
#[derive(Archive, Serialize)]
struct Snap {
    binary: String,
    plan_id: String,
    /// The key: the log file and the prefix folded.
    dev: u64,
    ino: u64,
    len: u64,
    /// Modification and change times (seconds, nanoseconds) of the log when
    /// it was `len` bytes long.
    times: [i64; 4],
    head: Vec<u8>,
    tail: Vec<u8>,
    max_lamport: u64,
    ops: u64,
    /// The fold.
    revision: u64,
    bounds: [u64; 5],
    node_count: u64,
    edge_count: u64,
    /// The nodes' phases (not empty), in order of first appearance, and
    /// whether a node has none.
    phases: Vec<String>,
    any_unphased: bool,
    /// Where the chunks lie: nodes, edges, the id index's buckets.
    node_chunks: Vec<SChunk>,
    edge_chunks: Vec<SChunk>,
    buckets: Vec<SChunk>,
    /// The digest's marks, when the fold had them (none or one chunk).
    marks: Vec<SChunk>,
    provenance: Option<SProvenance>,
    meta: SMeta,
    created: bool,
    freeze_by: Option<SOpRef>,
    approved_by: Option<SOpRef>,
    touched_absent: Vec<String>,
    digest: String,
    encoded_len: u64,
}

/// The log file, opened, and what it is now (an ordinary file only).
fn open(path: &Path) -> Option<(File, std::fs::Metadata)> {
    let file = File::open(path).ok()?;
    let md = file.metadata().ok()?;
    md.file_type().is_file().then_some((file, md))
}

/// The fold the archive holds (every chunk read and checked).
/// The plan the snapshot holds; with `eager`, every node's definition built
/// now (see [`View::nodes_and_edges`]).
fn restore(
    s: &ArchivedSnap,
    v: &View<'_>,
    eager: bool,
    ids: Option<ids::SnapIds>,
) -> Option<Folded> {
    // The digest's marks first: read on this thread while the kept checks
    // are decoded on the other core, not after the restore's two threads.
    let marks = if s.marks.is_empty() {
        None
    } else {
        Some(v.marks()?)
    };
    let (nodes, edges) = v.nodes_and_edges(eager)?;
    if v.damaged() {
        return None;
    }
    let content = Content {
        plan_id: s.plan_id.as_str().to_string(),
        revision: s.revision.to_native(),
        bounds: bounds_from(&s.bounds),
        nodes,
        edges,
        provenance: match s.provenance.as_ref() {
            None => None,
            Some(p) => Some(archive::provenance(p)?),
        },
    };
    let machine = Machine::from_quiet_parts(
        archive::meta(&s.meta)?,
        s.created,
        match s.freeze_by.as_ref() {
            None => None,
            Some(r) => Some(op_ref(r)?),
        },
        match s.approved_by.as_ref() {
            None => None,
            Some(r) => Some(op_ref(r)?),
        },
    );
    let touched = s
        .touched_absent
        .iter()
        .map(|t| t.as_str().to_string())
        .collect();
    let digest = (
        s.digest.as_str().to_string(),
        s.encoded_len.to_native() as usize,
    );
    let mut folded = Folded::restored(content, machine, touched, digest, marks);
    folded.late = v.late();
    folded.base = ids.map(|i| crate::store::fold::Base::new(std::sync::Arc::new(i)));
    Some(folded)
}

/// The key of the log prefix the archive `s` folds.
fn stamp_of(s: &ArchivedSnap) -> Stamp {
    Stamp {
        dev: s.dev.to_native(),
        ino: s.ino.to_native(),
        len: s.len.to_native(),
        times: s.times.map(|t| t.to_native()),
        head: s.head.to_vec(),
        tail: s.tail.to_vec(),
    }
}

/// When the archive `s` is the fold of a prefix of the log in `dir` (see
/// the module's key): the log, its metadata now and the tail after the
/// prefix.
fn keyed(
    dir: &Path,
    s: &ArchivedSnap,
    plan_id: &str,
) -> Option<(File, std::fs::Metadata, Vec<u8>)> {
    if s.binary.as_str() != super::checkpoint::binary_identity() || s.plan_id.as_str() != plan_id {
        return None;
    }
    let (file, md) = open(&dir.join(OPS_FILE))?;
    // An edit in the middle and an append look the same at the ends: a
    // longer log is the prefix and a tail only when planforge's record of
    // its own appends says so.
    if !stamp_of(s).leads(dir, &file, &md) {
        return None;
    }
    let len = s.len.to_native();
    let mut tail = vec![0u8; (md.len() - len) as usize];
    file.read_exact_at(&mut tail, len).ok()?;
    Some((file, md, tail))
}

/// What a one-shot command reads of a plan restored from the snapshot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// All of it (`show`, `export`, a full check): every definition built
    /// and checked on the restore's two threads before the answer.
    Whole,
    /// Its checks and digest (`status`): definitions built when read when
    /// the tail only added nodes (else all, as for `Whole`), the caller
    /// answering again from the log's fold after late damage.
    Checks,
    /// What a write changes (definitions built when read); the snapshot is
    /// left to the write's own append.
    Write,
}

impl Store {
    /// A one-shot command's plan: the snapshot, with the log's tail folded
    /// on top, when it is the fold of a prefix of this log; else the whole
    /// log, folded, and a snapshot of it written. A reader that folded a
    /// tail writes a new snapshot (the next read folds nothing); a write
    /// leaves that to its own append (see [`after_write`]).
    pub(crate) fn load_one_shot(&self, id: &str) -> Result<Loaded> {
        self.load_one_shot_as(id, Reading::Whole)
    }

    /// The plan a write starts from: as [`Store::load`], except that a
    /// one-shot write does not rewrite the snapshot before it appends.
    pub(crate) fn load_to_write(&self, id: &str) -> Result<Loaded> {
        if self.is_warm() {
            self.load(id)
        } else {
            self.load_one_shot_as(id, Reading::Write)
        }
    }

    /// The plan a command reads through its checks and digest (`status`):
    /// as [`Store::load_one_shot`] (a tail folded makes a new snapshot),
    /// but restored as a write restores it, each definition built when
    /// first read and the checks' kept state decoded beside the restore.
    /// The caller answers again from the log's fold when a definition it
    /// read was found damaged (`Forge::remade`).
    pub(crate) fn load_to_check(&self, id: &str) -> Result<Loaded> {
        if self.is_warm() {
            self.load(id)
        } else {
            self.load_one_shot_as(id, Reading::Checks)
        }
    }

    /// The plan folded from its log, for a plan restored from the
    /// snapshot whose definitions were found damaged late (see
    /// `store::late`); the snapshot is removed (the next load, or the
    /// write's own append, makes a sound one).
    pub(crate) fn refold_late(&self, id: &str) -> Result<Loaded> {
        let dir = self.plan_dir(id)?;
        refuse_symlink(&dir)?;
        let snap = dir.join(FILE);
        if std::fs::symlink_metadata(&snap).is_ok_and(|m| m.file_type().is_file()) {
            let _ = std::fs::remove_file(&snap);
        }
        self.load_cold(id, None, false)
    }

    fn load_one_shot_as(&self, id: &str, how: Reading) -> Result<Loaded> {
        let reader = how != Reading::Write;
        let dir = self.plan_dir(id)?;
        refuse_symlink(&dir)?;
        let ops_path = dir.join(OPS_FILE);
        let meta_path = dir.join(META_FILE);
        refuse_special(&ops_path)?;
        refuse_special(&meta_path)?;
        let plain = !meta_path.exists();
        if plain && let Some(loaded) = self.load_snapshot(&dir, id, how) {
            return Ok(loaded);
        }
        let before = std::fs::symlink_metadata(&ops_path).ok();
        let mut loaded = self.load_cold(id, None, false)?;
        if plain
            && let Some(md) = &before
            && is_clean(&loaded, md)
            && let Some((file, _)) = open(&ops_path)
        {
            // Stamped with the log as it was before it was read: a log that
            // moved meanwhile never matches it again.
            loaded.stamp = Stamp::read(&file, md);
        }
        // A one-shot write's snapshot is made after its append (see
        // [`after_write`]): one of the log before it, written once the
        // answer is out, would find the log moved and be dropped.
        if plain
            && (reader || !self.one_shot)
            && let Some(md) = before
            && save_now_or_later(self.one_shot, &dir, &loaded, &md, None)
        {
            loaded.snapshot_at = Some(md.len());
        }
        Ok(loaded)
    }

    fn load_snapshot(&self, dir: &Path, id: &str, how: Reading) -> Option<Loaded> {
        let reader = how != Reading::Write;
        let opened = Opened::open(dir)?;
        let s = view::head(&opened)?;
        let (file, md, tail) = keyed(dir, s, id)?;
        let prefix = s.len.to_native();
        let len = md.len();
        // The checks a one-shot process kept, when their prefix of the log
        // lies between the snapshot's and the log's end: the tail is then
        // folded in two parts, and what the second changed is known.
        let kept = kept::read(dir, id, kept::limit(len))
            .filter(|(k, _)| (prefix..=len).contains(&k.len) && k.leads(dir, &file, &md));
        // A write checks from the kept state: its decoding starts now, on
        // another thread, while the plan is restored (see `store::early`).
        let early = match (&kept, &self.decoder) {
            (Some((_, bytes)), Some(d)) if how != Reading::Whole && self.warm.is_none() => {
                super::early::Early::start(d, bytes.clone(), super::load::KeptState::sound)
            }
            _ => Default::default(),
        };
        let (kept, first, second) = match kept.and_then(|k| split(&tail, k, prefix, id)) {
            Some((k, first, second)) => (Some(k), first, second),
            None => (None, Vec::new(), clean_ops(&tail, id)?),
        };
        let bufs = view::slots(s);
        // A reader restores the whole plan to read all of it (`show`,
        // `export`, a full check; the reads of a few nodes answer in place
        // instead): its definitions are built on the restore's two threads,
        // every definitions part checked before the answer (a reader has no
        // way to answer again from the log's fold after late damage, as a
        // write has: session 17 tried building a reader's definitions when
        // read, and a damaged part gave `read` a wrong digest). A write
        // reads the few it changes.
        let late = super::late::Late::new();
        let ids = ids::SnapIds::of(s, &opened);
        // The digest after anything but nodes added at the end hashes every
        // node's text again (edges and bounds come before the nodes in it):
        // then the definitions are all built, on the restore's two threads.
        let appended = (first.iter().chain(&second))
            .all(|o| matches!(o.body, crate::model::OpBody::AddNode { .. }));
        let eager = how == Reading::Whole || (how == Reading::Checks && !appended);
        let folded = restore(s, &View::new(s, &opened, &bufs, late), eager, ids)?;
        let old_max = s.max_lamport.to_native();
        let ops_before = s.ops.to_native();
        let (folded, changed) = fold_on(folded, old_max, &first)?;
        let touched = kept
            .as_ref()
            .map(|_| super::load::touched_by(&folded, second.iter().map(|o| &o.body)));
        let mid_max = first.iter().map(|o| o.lamport).fold(old_max, u64::max);
        let (folded, changed_after) = fold_on(folded, mid_max, &second)?;
        let changed = changed.then(changed_after);
        let info = LogInfo {
            good_len: len,
            len,
            ends_with_newline: true,
            unfinished: 0,
            unfinished_lines: Vec::new(),
            unfinished_inside: false,
            max_lamport: second.iter().map(|o| o.lamport).fold(mid_max, u64::max),
            head: ops_before + (first.len() + second.len()) as u64,
        };
        let mut loaded = finish(id, folded, info, None, Vec::new(), self.one_shot);
        loaded.snapshot_at = Some(prefix);
        loaded.restored = true;
        loaded.stamp = Stamp::read(&file, &md).filter(|st| st.len == len);
        loaded.kept_checks = kept.zip(touched).map(|((k, bytes), touched)| KeptChecks {
            bytes,
            early,
            touched,
            at: k.len,
        });
        // The new snapshot takes the chunks the tail left as they were.
        if (reader && len > prefix || len - prefix > REWRITE_TAIL)
            && save_now_or_later(
                self.one_shot,
                dir,
                &loaded,
                &md,
                Reuse::new(opened, bufs, changed),
            )
        {
            loaded.snapshot_at = Some(len);
        }
        Some(loaded)
    }
}

/// The complete ops of a clean stretch of log (every line whole, ending
/// with a newline; nothing at all for no bytes).
fn clean_ops(bytes: &[u8], id: &str) -> Option<Vec<crate::model::Op>> {
    if bytes.is_empty() {
        return Some(Vec::new());
    }
    let part = log::parse(bytes, id).ok()?;
    (part.info.unfinished == 0 && part.info.ends_with_newline).then_some(part.ops)
}

/// The tail after a snapshot's `prefix`, cut where the kept checks' prefix
/// `kept` ends: the kept state and the ops before and after the cut, when
/// both stretches are clean.
type Split = (
    (Stamp, super::load::KeptState),
    Vec<crate::model::Op>,
    Vec<crate::model::Op>,
);
fn split(
    tail: &[u8],
    kept: (Stamp, super::load::KeptState),
    prefix: u64,
    id: &str,
) -> Option<Split> {
    let cut = usize::try_from(kept.0.len - prefix).ok()?;
    if cut > 0 && tail.get(cut - 1) != Some(&b'\n') {
        return None;
    }
    let first = clean_ops(tail.get(..cut)?, id)?;
    let second = clean_ops(&tail[cut..], id)?;
    Some((kept, first, second))
}

/// `ops` folded on top of `folded` (see `fold_after_changed`).
fn fold_on(
    folded: Folded,
    max_lamport: u64,
    ops: &[crate::model::Op],
) -> Option<(Folded, super::fold::Changed)> {
    if ops.is_empty() {
        return Some((folded, super::fold::Changed::NONE));
    }
    super::fold::fold_after_changed(folded, max_lamport, ops)
}

/// After a one-shot write appended `appended` bytes to the clean log
/// `before` was folded from: a new snapshot of `after` when the snapshot is
/// missing or its tail has grown past [`REWRITE_TAIL`]; else nothing (the
/// next command folds the tail).
pub(crate) fn after_write(
    one_shot: bool,
    dir: &Path,
    before: &LogInfo,
    snapshot_at: Option<u64>,
    after: &mut Loaded,
    appended: u64,
) {
    let Some((file, md)) = open(&dir.join(OPS_FILE)) else {
        return;
    };
    let len = before.len + appended;
    if md.len() != len {
        return;
    }
    after.log.len = len;
    after.log.good_len = len;
    after.stamp = Stamp::read(&file, &md);
    let stale = snapshot_at.is_none_or(|at| len.saturating_sub(at) > REWRITE_TAIL);
    if stale && save_now_or_later(one_shot, dir, after, &md, None) {
        after.snapshot_at = Some(len);
    }
}

thread_local! {
    /// The snapshots a one-shot process writes once its answer is out (see
    /// [`save_deferred`]), one per plan folder.
    static DEFERRED: std::cell::RefCell<Vec<Deferred>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// A snapshot to write once the answer is out: the plan folder, the fold,
/// the log as it was folded, what the old snapshot lends, and the log
/// prefix of the checks' kept state the fold was loaded with (if any).
type Deferred = (
    std::path::PathBuf,
    Loaded,
    std::fs::Metadata,
    Option<Reuse>,
    Option<u64>,
);

/// Writes the snapshot of `loaded` now, or — in a one-shot process — once
/// the command's answer is printed ([`save_deferred`]): making the archive
/// and waiting out the log's clock tick (see [`past_tick`]) are then never
/// on the path of the answer. Says whether a snapshot is (to be) written.
/// `reuse`: the snapshot `loaded` was restored from, and what its tail
/// changed (see [`reuse`]).
fn save_now_or_later(
    one_shot: bool,
    dir: &Path,
    loaded: &Loaded,
    md: &std::fs::Metadata,
    reuse: Option<Reuse>,
) -> bool {
    if !one_shot {
        return save(dir, loaded, md, reuse);
    }
    if !is_clean(loaded, md) || loaded.folded.snapshot_parts().is_none() {
        return false;
    }
    // The fold is shared, not copied; the ops are not needed.
    let keep = Loaded {
        plan_id: loaded.plan_id.clone(),
        meta: loaded.meta.clone(),
        log: loaded.log.clone(),
        ops: None,
        folded: loaded.folded.clone(),
        upgrade: Vec::new(),
        head_revision: loaded.head_revision,
        leak: loaded.leak,
        snapshot_at: None,
        restored: loaded.restored,
        stamp: None,
        kept_checks: None,
    };
    DEFERRED.with(|d| {
        let mut d = d.borrow_mut();
        // A later fold of the same log supersedes an earlier one.
        d.retain(|(at, ..)| at != dir);
        let kept_at = loaded.kept_checks.as_ref().map(|k| k.at);
        d.push((dir.to_path_buf(), keep, md.clone(), reuse, kept_at));
    });
    true
}

/// Writes the snapshots, findings and kept checks this thread's one-shot
/// loads and writes left for after the answer (the command line calls it
/// once its output is flushed). Each is written only if its log has not
/// moved since it was folded, as always; failures are ignored.
pub(crate) fn save_deferred() {
    let pending = DEFERRED.with(|d| std::mem::take(&mut *d.borrow_mut()));
    let checks = CHECKS.with(|d| std::mem::take(&mut *d.borrow_mut()));
    for (dir, loaded, md, reuse, kept_at) in pending {
        // The checks' kept state is used only with a snapshot of its prefix
        // or an earlier one: a snapshot moved past it by a command that did
        // not bring the state along (`show`: no checks) would
        // leave the next command to check the whole plan from nothing.
        let len = md.len();
        let orphans = kept_at.is_some_and(|at| at < len)
            && !checks
                .iter()
                .any(|c| c.dir == dir && c.state.is_some() && c.stamp.len == len);
        if !orphans {
            save(&dir, &loaded, &md, reuse);
        }
    }
    for c in checks {
        c.save();
    }
}

thread_local! {
    /// What a one-shot process's checks leave for the next one, written
    /// once its answer is out (see [`save_deferred`]).
    static CHECKS: std::cell::RefCell<Vec<Checks>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The findings (under their key) and the kept state of the checks of the
/// fold of the log prefix `stamp`, in the plan folder `dir`.
struct Checks {
    dir: std::path::PathBuf,
    plan_id: String,
    stamp: Stamp,
    findings: Option<(String, String)>,
    state: Option<Vec<u8>>,
    /// The flag of the plan they are the checks of (see `store::late`).
    late: super::late::Late,
}

impl Checks {
    /// Writes them when the log is still the prefix they are about, past
    /// the clock tick of its last change (see [`past_tick`]): both are
    /// keyed by the log's times, which a rewrite of the same length in
    /// that tick would not move.
    fn save(self) {
        let s = &self.stamp;
        let unchanged = || {
            open(&self.dir.join(OPS_FILE)).is_some_and(|(_, m)| {
                (m.dev(), m.ino(), m.len(), times(&m)) == (s.dev, s.ino, s.len, s.times)
            })
        };
        if !unchanged() || self.late.is_set() {
            return;
        }
        past_tick_at(s.times[2], s.times[3]);
        if !unchanged() || self.late.is_set() {
            return;
        }
        if let Some((key, findings)) = self.findings {
            super::checkpoint::write(&self.dir, &key, &findings);
        }
        if let Some(state) = self.state {
            let _ = kept::write(&self.dir, &self.plan_id, s, &state);
        }
    }
}

impl Store {
    /// Keeps what the checks of `loaded` made for the next command: its
    /// findings under `findings.0` (in `checkpoint.json`) and the checks'
    /// state (in `checkpoint.kept`), both about the log prefix `loaded` is
    /// the fold of; nothing when that is not known. A one-shot process
    /// writes them once its answer is out.
    pub(crate) fn keep_checks(
        &self,
        loaded: &Loaded,
        findings: Option<(String, String)>,
        state: Option<Vec<u8>>,
    ) {
        let (Some(stamp), Ok(dir)) = (&loaded.stamp, self.plan_dir(&loaded.plan_id)) else {
            return;
        };
        let c = Checks {
            dir,
            plan_id: loaded.plan_id.clone(),
            stamp: stamp.clone(),
            findings,
            state,
            late: loaded.folded.late.clone(),
        };
        if self.one_shot {
            CHECKS.with(|d| d.borrow_mut().push(c));
        } else {
            c.save();
        }
    }

    /// Whether the checks' state of `loaded` is worth writing for the next
    /// one-shot command: none was kept for an earlier prefix of its log,
    /// or the log has grown past [`REWRITE_TAIL`] since that prefix, or
    /// something was removed since (the kept state then makes much of
    /// itself again: every later command would, until it is written), or
    /// the snapshot moves to this fold (a kept state older than the
    /// snapshot could no longer be used). Otherwise the next command
    /// starts from the kept state as well, folding what changed since (as
    /// a write leaves the snapshot as it is).
    pub(crate) fn checks_worth_keeping(&self, loaded: &Loaded) -> bool {
        let Some(stamp) = &loaded.stamp else {
            return false;
        };
        match &loaded.kept_checks {
            None => true,
            Some(k) => {
                stamp.len.saturating_sub(k.at) > REWRITE_TAIL
                    || k.touched.nodes.len() > REWRITE_TOUCHED
                    || k.touched.removed
                    || (loaded.snapshot_at == Some(stamp.len) && k.at < stamp.len)
            }
        }
    }
}

/// Writes the snapshot of `loaded`, the fold of the whole log as it was
/// when `md` was taken (before it was read), when the log is still that
/// file, unchanged, and clean; says whether it did (failures are ignored).
fn save(dir: &Path, loaded: &Loaded, md: &std::fs::Metadata, reuse: Option<Reuse>) -> bool {
    // A plan whose definitions were found damaged late is not saved.
    let clean = is_clean(loaded, md) && !loaded.folded.late.is_set();
    let Some((machine, touched)) = loaded.folded.snapshot_parts().filter(|_| clean) else {
        return false;
    };
    let Some((file, now)) = open(&dir.join(OPS_FILE)) else {
        return false;
    };
    let stamp = |m: &std::fs::Metadata| (m.dev(), m.ino(), m.len(), times(m));
    if stamp(&now) != stamp(md) {
        return false;
    }
    let Some(Stamp { head, tail, .. }) = Stamp::read(&file, md) else {
        return false;
    };
    let (digest, encoded_len) = loaded.folded.digested().clone();
    let c = loaded.content();
    let (created, freeze_by, approved_by) = machine.quiet_parts();
    let Ok(mut tmp) = crate::store::atomic::Temp::in_dir(dir) else {
        return false;
    };
    let Ok(mut out) = chunks::Writer::new(std::io::BufWriter::new(tmp.as_file_mut())) else {
        return false;
    };
    let Some(tables) = write_parts(&mut out, c, loaded.folded.digest_marks(), reuse) else {
        return false;
    };
    if loaded.folded.late.is_set() {
        // Found while archiving (a debug build's check of a chunk taken
        // over reads its definitions).
        return false;
    }
    let (phases, any_unphased) = phases_of(c);
    let provenance = match c.provenance.as_ref().map(provenance_to) {
        None => None,
        Some(None) => return false,
        Some(p) => p,
    };
    let Some(meta) = meta_to(&loaded.meta) else {
        return false;
    };
    let snap = Snap {
        binary: super::checkpoint::binary_identity(),
        plan_id: loaded.plan_id.clone(),
        dev: md.dev(),
        ino: md.ino(),
        len: md.len(),
        times: times(md),
        head,
        tail,
        max_lamport: loaded.log.max_lamport,
        ops: loaded.log.head,
        revision: c.revision,
        bounds: bounds_to(&c.bounds),
        node_count: c.nodes.len() as u64,
        edge_count: c.edges.len() as u64,
        phases,
        any_unphased,
        node_chunks: tables.nodes,
        edge_chunks: tables.edges,
        buckets: tables.buckets,
        marks: tables.marks,
        provenance,
        meta,
        created,
        freeze_by: freeze_by.map(op_ref_to),
        approved_by: approved_by.map(op_ref_to),
        touched_absent: touched.to_vec(),
        digest,
        encoded_len: encoded_len as u64,
    };
    let Ok(head) = rkyv::to_bytes::<rkyv::rancor::Error>(&snap) else {
        return false;
    };
    if out.finish(&head).is_err() {
        return false;
    }
    past_tick(md);
    // The log must not have moved while the archive was made.
    if open(&dir.join(OPS_FILE)).is_none_or(|(_, m)| stamp(&m) != stamp(md)) {
        return false;
    }
    // Readers see the old file or the new one, whole. No sync: a snapshot
    // lost or torn by a crash fails its checksum and is rebuilt.
    tmp.persist(&dir.join(FILE)).is_ok()
}

/// The tables of a snapshot's chunks: its nodes', its edges', its id
/// index's buckets', its digest's marks' (none or one).
struct Tables {
    nodes: Vec<SChunk>,
    edges: Vec<SChunk>,
    buckets: Vec<SChunk>,
    marks: Vec<SChunk>,
}

/// Writes the chunks of a content to `out` as each is made (and drops
/// it): its nodes', then its edges', then its id index's, then its
/// digest's marks (when known); gives their tables (`None` when one could
/// not be made or written).
fn write_parts<W: std::io::Write + std::io::Seek>(
    out: &mut chunks::Writer<W>,
    c: &Content,
    marks: Option<&super::fold::Marks>,
    mut reuse: Option<Reuse>,
) -> Option<Tables> {
    let (n, e) = (c.nodes.len(), c.edges.len());
    let mut put = |piece: Piece| out.chunk(&piece.pieces()?).ok();
    let mut nodes = Vec::with_capacity(n.div_ceil(NODES_PER_CHUNK));
    for (k, part) in c.nodes.chunks(NODES_PER_CHUNK).enumerate() {
        let kept = as_read(part).or_else(|| reuse.as_mut().and_then(|r| r.node_chunk(k, n)));
        nodes.push(put(kept_or_made(kept, || {
            nodes_to(part).map(|(bytes, split)| Piece::Made(bytes.into(), split))
        })?)?);
    }
    let mut edges = Vec::with_capacity(e.div_ceil(EDGES_PER_CHUNK));
    for (k, part) in c.edges.chunks(EDGES_PER_CHUNK).enumerate() {
        let kept = reuse.as_mut().and_then(|r| r.edge_chunk(k, e));
        edges.push(put(kept_or_made(kept, || {
            edges_to(part).map(Piece::whole)
        })?)?);
    }
    let archived = |b: &SBucket| rkyv::to_bytes::<rkyv::rancor::Error>(b).ok();
    let buckets = match reuse.and_then(|r| r.buckets(c)) {
        Some(kept) => {
            debug_assert!(
                chunks::index(c)
                    .iter()
                    .map(|b| archived(b).map(chunks::Bytes::from))
                    .collect::<Option<Vec<_>>>()
                    .is_some_and(|made| chunks::same_buckets(&made, &kept)),
                "the id index taken over is the index of the content"
            );
            kept.into_iter()
                .map(|b| put(Piece::whole(b)))
                .collect::<Option<Vec<_>>>()?
        }
        None => chunks::index(c)
            .iter()
            .map(|b| put(Piece::whole(archived(b)?)))
            .collect::<Option<Vec<_>>>()?,
    };
    let marks = match marks {
        Some(m) => {
            let (edges, nodes, end) = m.to_parts();
            let m = SMarks { edges, nodes, end };
            vec![put(Piece::whole(
                rkyv::to_bytes::<rkyv::rancor::Error>(&m).ok()?,
            ))?]
        }
        None => Vec::new(),
    };
    Some(Tables {
        nodes,
        edges,
        buckets,
        marks,
    })
}

/// A chunk's bytes in a new snapshot: archived now (with the length of
/// its first part, see `chunks::SChunk`), or taken over from the snapshot
/// read (shared, not copied).
enum Piece {
    Made(chunks::Bytes, usize),
    Kept(std::sync::Arc<lazy::Chunk>),
}

impl Piece {
    /// A chunk of one part.
    fn whole(bytes: impl Into<chunks::Bytes>) -> Piece {
        let bytes = bytes.into();
        let n = bytes.len();
        Piece::Made(bytes, n)
    }
}

impl Piece {
    /// Its parts, as `chunks::table` and `chunks::write` lay them out
    /// (`None` when a part taken over cannot be read).
    fn pieces(&self) -> Option<chunks::Pieces<'_>> {
        match self {
            Piece::Made(b, split) => {
                let second = b.get(chunks::align(*split as u64) as usize..);
                Some((&b[..*split], second.unwrap_or(&[]), None))
            }
            Piece::Kept(c) => c.pieces(),
        }
    }
}

/// A chunk taken over from the old snapshot (debug builds check that it
/// is the archive `made` gives), or archived now.
fn kept_or_made(
    kept: Option<std::sync::Arc<lazy::Chunk>>,
    made: impl Fn() -> Option<Piece>,
) -> Option<Piece> {
    match kept {
        Some(k) => {
            debug_assert!(
                made().is_some_and(|m| {
                    let (m, k) = (m.pieces(), k.pieces());
                    m.zip(k).is_some_and(|(m, k)| (m.0, m.1) == (k.0, k.1))
                }) || k.found_damaged(),
                "a chunk taken over is the archive of the same items"
            );
            Some(Piece::Kept(k))
        }
        None => made(),
    }
}

/// The chunk of the snapshot read that `part` (a chunk of a content's
/// nodes) is still, as read: every node's definition is the stored one,
/// the chunk's item at the node's place, and every id, phase and kind is
/// the archived one. Its bytes are then the archive of `part` (a writer's
/// archive of the same nodes), and a new snapshot takes them over instead
/// of building every definition to archive it again.
fn as_read(part: &[Node]) -> Option<std::sync::Arc<lazy::Chunk>> {
    let (src, _) = part.first()?.definition.source()?;
    let any: std::sync::Arc<dyn std::any::Any + Send + Sync> = src.clone();
    let chunk = any.downcast::<lazy::Chunk>().ok()?;
    let c = chunk.head()?;
    if c.nodes.len() != part.len() {
        return None;
    }
    let text = c.text.as_str();
    for (i, (n, a)) in part.iter().zip(c.nodes.iter()).enumerate() {
        let (s, at) = n.definition.source()?;
        let same = at == i
            && std::ptr::addr_eq(std::sync::Arc::as_ptr(s), std::sync::Arc::as_ptr(&chunk))
            && archive::at(text, &a.id) == Some(n.id.as_str())
            && a.phase.as_ref().map(|p| archive::at(text, p)) == n.phase.as_deref().map(Some)
            && NodeKind::ALL.get(a.kind as usize) == Some(&n.kind);
        if !same {
            return None;
        }
    }
    Some(chunk)
}

/// The phases of `c`'s nodes (not empty) in order of first appearance, and
/// whether a node has none.
fn phases_of(c: &Content) -> (Vec<String>, bool) {
    let mut seen = crate::model::hash::FastSet::default();
    let mut phases = Vec::new();
    let mut unphased = false;
    for n in &c.nodes {
        match n.phase.as_deref().filter(|p| !p.is_empty()) {
            Some(p) => {
                if seen.insert(p) {
                    phases.push(p.to_string());
                }
            }
            None => unphased = true,
        }
    }
    (phases, unphased)
}

/// Whether `loaded` is the fold of the whole clean log `md` describes
/// (nothing torn, nothing to upgrade, at its latest revision).
fn is_clean(loaded: &Loaded, md: &std::fs::Metadata) -> bool {
    loaded.upgrade.is_empty()
        && loaded.log.unfinished == 0
        && loaded.log.ends_with_newline
        && loaded.log.good_len == loaded.log.len
        && loaded.head_revision == loaded.revision()
        && loaded.log.len == md.len()
}
