//! Warm plans (issue 17): a long-lived process (the REPL, `planforge mcp`)
//! keeps each plan it folded in memory, with its findings, and before every
//! read looks at the log again: its identity (device, inode), its length,
//! its change time, and the bytes at the start and just before where it
//! ended last time. When the log only grew by planforge's appends (they
//! are recorded: [`super::appends`]), only the new bytes are read and
//! folded on top; a log written some other way since has its kept bytes
//! hashed again and compared first;
//! anything else (another file at the path, a shorter log, changed bytes, a
//! torn or unfinished tail, a plan still described by `meta.json`, new ops
//! that sort among the old ones) reads and folds the whole log again, as a
//! fresh process would. So another process's write is never missed.
//!
//! What is kept is never a source of truth: the log is. A verdict (freeze,
//! submit, validate) asks for a *verified* load, which hashes the whole log
//! and compares it with the hash of the bytes the kept fold was made from;
//! any difference means a fresh read.

use super::Store;
use super::fold::{self, Folded};
use super::load::{Loaded, finish};
use super::log::{self, LogInfo};
use super::paths::{META_FILE, OPS_FILE, refuse_special, refuse_symlink};
use crate::model::Report;
use crate::model::error::Result;
use crate::model::hash::FastMap as HashMap;
use crate::model::touched::Touched;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How many bytes at the start of the log are compared on every call.
const HEAD_SAMPLE: u64 = 512;
/// How many bytes before the old end of the log are compared on every call.
const TAIL_SAMPLE: u64 = 4096;

/// How many plans one process keeps warm at most (the ones used last).
const MAX_PLANS: usize = 8;

/// The plans a long-lived process keeps folded, by log path.
#[derive(Debug, Default)]
pub(crate) struct Warm {
    plans: Mutex<Plans>,
    /// The one thread that computes the kept folds' digests ahead.
    worker: fold::Worker,
}

/// The kept plans, and a clock that says which was used last.
#[derive(Debug, Default)]
struct Plans {
    by_path: HashMap<PathBuf, Entry>,
    tick: u64,
}

impl Plans {
    fn remove(&mut self, path: &Path) -> Option<Entry> {
        self.by_path.remove(path)
    }

    fn get(&self, path: &Path) -> Option<&Entry> {
        self.by_path.get(path)
    }

    fn get_mut(&mut self, path: &Path) -> Option<&mut Entry> {
        self.by_path.get_mut(path)
    }

    /// Keeps `entry`, letting go of the plan used longest ago when too
    /// many are kept (memory stays bounded however many plans a session
    /// reads).
    fn insert(&mut self, path: PathBuf, mut entry: Entry) {
        self.tick += 1;
        entry.used = self.tick;
        if self.by_path.len() >= MAX_PLANS && !self.by_path.contains_key(&path) {
            let oldest = self
                .by_path
                .iter()
                .min_by_key(|(_, e)| e.used)
                .map(|(p, _)| p.clone());
            if let Some(p) = oldest {
                self.by_path.remove(&p);
            }
        }
        self.by_path.insert(path, entry);
    }
}

/// What the checks keep between calls (their own type: the store does not
/// look inside), and what changed since the fold they were made on.
pub(crate) struct Checks {
    pub(crate) state: Box<dyn std::any::Any + Send>,
    pub(crate) touched: Touched,
}

impl std::fmt::Debug for Checks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checks")
            .field("touched", &self.touched)
            .finish_non_exhaustive()
    }
}

/// One kept plan and the log bytes it was folded from.
#[derive(Debug)]
struct Entry {
    dev: u64,
    ino: u64,
    /// The log's stamp when the kept fold was made from it.
    stamp: Stamp,
    /// Bytes folded (the whole log: only clean logs are kept).
    len: u64,
    head: Vec<u8>,
    tail: Vec<u8>,
    /// The hash of those `len` bytes, for verified loads.
    hash: Sha256,
    /// The kept plan; `None` while a write holds it (so that the write can
    /// fold on top of it without copying it).
    loaded: Option<Loaded>,
    /// The findings last computed for this fold, under their key.
    findings: Option<(String, Report)>,
    /// What the checks kept from an earlier fold of this log and what
    /// changed since (to check only that again).
    checks: Option<Checks>,
    /// When it was last used (see [`Plans::insert`]).
    used: u64,
    /// The kept fold's digest, being computed ahead on another thread
    /// (see [`Warm::digest_ahead`]).
    ahead: Option<fold::DigestAhead>,
}

impl Entry {
    /// Stops the digest computed ahead, if any, and waits until its thread
    /// lets go of the kept fold (which is about to be folded on top of).
    fn stop_ahead(&mut self) {
        if let Some(a) = self.ahead.take() {
            a.stop();
        }
    }
}

/// How sure a warm load must be that the kept fold is the log's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trust {
    /// Identity, length and sampled bytes (reads and ordinary writes).
    Sampled,
    /// The hash of every byte (verdicts: freeze, submit, validate).
    Verified,
}

impl Warm {
    /// The plan whose log is at `path`, folded from what is kept plus the
    /// bytes appended since, when the log only grew; `None` means "read it
    /// whole".
    pub(crate) fn load(&self, path: &Path, plan_id: &str, trust: Trust) -> Option<Loaded> {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        let entry = plans.remove(path)?;
        entry.loaded.as_ref()?;
        let (mut file, md) = open(path)?;
        if (md.dev(), md.ino()) != (entry.dev, entry.ino) || md.len() < entry.len {
            return None;
        }
        if !same_bytes(&file, 0, &entry.head)
            || !same_bytes(&file, entry.len - entry.tail.len() as u64, &entry.tail)
        {
            return None;
        }
        // Written since by something else than planforge's appends (or not
        // known not to be): the kept bytes must be checked one by one.
        let moved = stamp(&md) != entry.stamp
            && !(md.len() > entry.len
                && path
                    .parent()
                    .is_some_and(|dir| super::appends::vouches(dir, &entry.stamp, &md)));
        if (moved || trust == Trust::Verified) && !same_hash(&mut file, entry.len, &entry.hash) {
            return None;
        }
        let mut entry = entry;
        entry.stamp = stamp(&md);
        let entry = if md.len() == entry.len {
            entry
        } else {
            extend(entry, &file, md.len(), plan_id)?
        };
        let loaded = entry.loaded.clone()?;
        plans.insert(path.to_path_buf(), entry);
        Some(loaded)
    }

    /// Keeps `loaded`, folded from the whole log at `path` as it is now
    /// (its `log.len` bytes), when that log is clean: complete transactions
    /// only, ending with a newline, no `meta.json` ops.
    /// `before` is the file's [`stamp`] taken before `loaded` was read: a
    /// file changed since (even to the same length) is not kept.
    pub(crate) fn keep(&self, path: &Path, loaded: &Loaded, before: Option<Stamp>) {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        plans.remove(path);
        if !keepable(loaded) {
            return;
        }
        let Some((mut file, md)) = open(path) else {
            return;
        };
        if md.len() != loaded.log.len || before != Some(stamp(&md)) {
            return;
        }
        let mut hash = Sha256::new();
        let mut bytes = Vec::with_capacity(md.len() as usize);
        if file.read_to_end(&mut bytes).is_err() || bytes.len() as u64 != loaded.log.len {
            return;
        }
        hash.update(&bytes);
        let head = bytes[..bytes.len().min(HEAD_SAMPLE as usize)].to_vec();
        let tail = bytes[bytes.len().saturating_sub(TAIL_SAMPLE as usize)..].to_vec();
        plans.insert(
            path.to_path_buf(),
            Entry {
                dev: md.dev(),
                ino: md.ino(),
                stamp: stamp(&md),
                len: md.len(),
                head,
                tail,
                hash,
                loaded: Some(loaded.clone()),
                findings: None,
                checks: None,
                used: 0,
                ahead: None,
            },
        );
    }

    /// Keeps `after`, the plan once `appended` (the exact bytes of one
    /// transaction) went at the end of the log the kept `before` was folded
    /// from: no need to read the log again.
    /// `touched` is what the appended ops changed (`None`: not known).
    pub(crate) fn kept_after_append(
        &self,
        path: &Path,
        after: &Loaded,
        appended: &[u8],
        touched: Option<Touched>,
    ) {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        let Some(mut entry) = plans.remove(path) else {
            return;
        };
        let Some((_, md)) = open(path) else {
            return;
        };
        if Self::matches(&entry, after) {
            // Already kept (the write read the log again).
            plans.insert(path.to_path_buf(), entry);
            return;
        }
        let len = entry.len + appended.len() as u64;
        // The fold, not the history a write that read it (undo) carries.
        let mut kept = after.without_ops();
        if (md.dev(), md.ino()) != (entry.dev, entry.ino) || md.len() != len || !keepable(&kept) {
            return;
        }
        entry.hash.update(appended);
        entry.tail = tail_after(&entry.tail, appended);
        entry.len = len;
        entry.stamp = stamp(&md);
        kept.log.len = len;
        kept.log.good_len = len;
        // The new fold's digest, hashed on the other core from now on
        // while the write checks and answers: a read that follows at once
        // finds it made, or waits only for what is left of it. The next
        // write stops it (`release`), and the write itself never waits
        // for it (it measures the size from the last digest's marks).
        entry.ahead = Folded::digest_ahead(&kept.folded, false, &self.worker);
        entry.loaded = Some(kept);
        entry.findings = None;
        entry.checks = carry(entry.checks.take(), touched);
        plans.insert(path.to_path_buf(), entry);
    }

    /// Starts computing, on another thread, the digest of every kept fold
    /// that does not know it yet and is not being hashed already (a write
    /// starts its own fold's at once: [`Warm::kept_after_append`]; this
    /// catches the rest, such as a fold extended by another process's
    /// append): called once a call is answered, so that the hash runs while
    /// the client reads the answer, and a later read waits for it rather
    /// than hashing again.
    pub(crate) fn digest_ahead(&self) {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        for entry in plans.by_path.values_mut() {
            if entry.ahead.is_some() {
                continue;
            }
            if let Some(l) = &entry.loaded {
                entry.ahead = Folded::digest_ahead(&l.folded, true, &self.worker);
            }
        }
    }

    /// Whether the kept fold is `loaded`'s own (one fold object: kept folds
    /// are never changed, only replaced).
    fn matches(entry: &Entry, loaded: &Loaded) -> bool {
        entry
            .loaded
            .as_ref()
            .is_some_and(|kept| Arc::ptr_eq(&kept.folded, &loaded.folded))
    }

    /// The findings kept for `loaded` under `key`.
    pub(crate) fn findings(&self, path: &Path, loaded: &Loaded, key: &str) -> Option<Report> {
        let plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        let entry = plans.get(path)?;
        match &entry.findings {
            Some((k, r)) if k == key && Self::matches(entry, loaded) => Some(r.clone()),
            _ => None,
        }
    }

    /// Keeps the findings of `loaded` under `key`, and what the checks
    /// keep to start the next run from, when `loaded` is the kept fold.
    pub(crate) fn keep_findings(
        &self,
        path: &Path,
        loaded: &Loaded,
        key: &str,
        report: &Report,
        state: Box<dyn std::any::Any + Send>,
    ) {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = plans.get_mut(path)
            && Self::matches(entry, loaded)
        {
            entry.findings = Some((key.to_string(), report.clone()));
            entry.checks = Some(Checks {
                state,
                touched: Touched::default(),
            });
        }
    }

    /// What the checks kept from an earlier fold, with what changed since,
    /// when `loaded` is the kept fold (taken: the next run leaves its own).
    pub(crate) fn take_checks(&self, path: &Path, loaded: &Loaded) -> Option<Checks> {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        let entry = plans.get_mut(path)?;
        if !Self::matches(entry, loaded) {
            return None;
        }
        entry.checks.take()
    }

    /// What the checks keep, lent to `f`, when they were made on `loaded`
    /// itself (the kept fold, with its findings computed since).
    pub(crate) fn peek_checks<R>(
        &self,
        path: &Path,
        loaded: &Loaded,
        f: impl FnOnce(&(dyn std::any::Any + Send)) -> Option<R>,
    ) -> Option<R> {
        let plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        let entry = plans.get(path)?;
        if !Self::matches(entry, loaded) || entry.findings.is_none() {
            return None;
        }
        f(entry.checks.as_ref()?.state.as_ref())
    }

    /// Lets go of the kept plan at `path` while a write folds on top of it
    /// (the write keeps the result with [`Warm::kept_after_append`]).
    pub(crate) fn release(&self, path: &Path) {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(entry) = plans.get_mut(path) {
            entry.stop_ahead();
            entry.loaded = None;
            entry.findings = None;
        }
    }

    /// Forgets the plan at `path` (removed, or written some other way).
    pub(crate) fn forget(&self, path: &Path) {
        let mut plans = self.plans.lock().unwrap_or_else(|p| p.into_inner());
        plans.remove(path);
    }
}

pub(crate) use super::appends::{Stamp, stamp};

/// Whether a fold can be kept and extended: the whole log, clean.
fn keepable(l: &Loaded) -> bool {
    l.ops.is_none()
        && l.upgrade.is_empty()
        && l.log.unfinished == 0
        && l.log.ends_with_newline
        && l.log.good_len == l.log.len
        && l.head_revision == l.revision()
}

/// The log file, opened, and what it is now (an ordinary file only).
fn open(path: &Path) -> Option<(File, std::fs::Metadata)> {
    let file = File::open(path).ok()?;
    let md = file.metadata().ok()?;
    md.file_type().is_file().then_some((file, md))
}

/// Whether the file holds `want` at `at`.
fn same_bytes(file: &File, at: u64, want: &[u8]) -> bool {
    let mut got = vec![0u8; want.len()];
    file.read_exact_at(&mut got, at).is_ok() && got == want
}

/// Whether the file's first `len` bytes hash to `want`.
fn same_hash(file: &mut File, len: u64, want: &Sha256) -> bool {
    let mut hash = Sha256::new();
    let mut left = len;
    let mut buf = vec![0u8; 1 << 20];
    let mut at = 0u64;
    while left > 0 {
        let n = buf.len().min(left as usize);
        if file.read_exact_at(&mut buf[..n], at).is_err() {
            return false;
        }
        hash.update(&buf[..n]);
        at += n as u64;
        left -= n as u64;
    }
    hash.finalize() == want.clone().finalize()
}

/// The last bytes of `tail` followed by `appended`.
fn tail_after(tail: &[u8], appended: &[u8]) -> Vec<u8> {
    let mut t = tail.to_vec();
    t.extend_from_slice(appended);
    let cut = t.len().saturating_sub(TAIL_SAMPLE as usize);
    t.split_off(cut)
}

/// The kept plan with the log's bytes from `entry.len` to `len` folded on
/// top; `None` when they cannot be (an unfinished tail, ops that sort among
/// the old ones, anything the fold cannot add on top).
fn extend(mut entry: Entry, file: &File, len: u64, plan_id: &str) -> Option<Entry> {
    let mut bytes = vec![0u8; (len - entry.len) as usize];
    file.read_exact_at(&mut bytes, entry.len).ok()?;
    let part = log::parse(&bytes, plan_id).ok()?;
    if part.info.unfinished > 0 || !part.info.ends_with_newline {
        return None;
    }
    let before = entry.loaded.take()?;
    let old_max = before.log.max_lamport;
    let info = LogInfo {
        good_len: len,
        len,
        max_lamport: old_max.max(part.info.max_lamport),
        head: before.log.head + part.info.head,
        ..before.log.clone()
    };
    let touched = Touched::of(before.content(), part.ops.iter().map(|o| &o.body));
    entry.stop_ahead();
    let folded = before.folded.clone();
    drop(before);
    let folded = fold::fold_after(unshare(folded), old_max, &part.ops)?;
    entry.checks = carry(entry.checks.take(), Some(touched));
    entry.hash.update(&bytes);
    entry.tail = tail_after(&entry.tail, &bytes);
    entry.len = len;
    entry.loaded = Some(finish(plan_id, folded, info, None, Vec::new(), false));
    entry.findings = None;
    Some(entry)
}

/// What the checks kept, with `touched` added to what changed since; gone
/// when what changed is not known.
fn carry(checks: Option<Checks>, touched: Option<Touched>) -> Option<Checks> {
    let (mut checks, touched) = (checks?, touched?);
    checks.touched.merge(touched);
    Some(checks)
}

/// The fold behind an `Arc`, copied only when someone else still holds it.
pub(super) fn unshare(folded: Arc<Folded>) -> Folded {
    Arc::try_unwrap(folded).unwrap_or_else(|a| (*a).clone())
}

impl Store {
    /// Loads and folds a plan at its current revision (without keeping its
    /// ops).
    pub(crate) fn load(&self, id: &str) -> Result<Loaded> {
        self.load_warm(id, Trust::Sampled)
    }

    /// As [`load`](Self::load), for a verdict (freeze, submit, validate): a
    /// warm plan is used only when the hash of every byte of the log says it
    /// is the log's fold.
    pub(crate) fn load_verified(&self, id: &str) -> Result<Loaded> {
        self.load_warm(id, Trust::Verified)
    }

    /// The current plan: a warm process's kept fold, extended by what was
    /// appended since, when the log only grew; else the whole log, read and
    /// kept (see `warm`).
    fn load_warm(&self, id: &str, trust: Trust) -> Result<Loaded> {
        let Some(warm) = &self.warm else {
            // A one-shot command: the snapshot, except for a verdict.
            return match trust {
                Trust::Sampled => self.load_one_shot(id),
                Trust::Verified => self.load_cold(id, None, false),
            };
        };
        let dir = self.plan_dir(id)?;
        refuse_symlink(&dir)?;
        let ops_path = dir.join(OPS_FILE);
        let meta_path = dir.join(META_FILE);
        refuse_special(&ops_path)?;
        refuse_special(&meta_path)?;
        if !meta_path.exists()
            && let Some(loaded) = warm.load(&ops_path, id, trust)
        {
            return Ok(loaded);
        }
        // What the file was before it was read: kept only if it is still
        // that file, unchanged, once read (see `Warm::keep`).
        let before = std::fs::symlink_metadata(&ops_path).ok().map(|m| stamp(&m));
        let loaded = self.load_cold(id, None, false)?;
        warm.keep(&ops_path, &loaded, before);
        Ok(loaded)
    }

    /// A warm process, once it has answered a call: computes ahead, on
    /// another thread, the digest of a plan a write left without one (see
    /// `Warm::digest_ahead`). Nothing for a one-shot command.
    pub(crate) fn digest_ahead(&self) {
        if let Some(w) = &self.warm {
            w.digest_ahead();
        }
    }

    /// Whether this store keeps plans warm (a long-lived process).
    pub(crate) fn is_warm(&self) -> bool {
        self.warm.is_some()
    }

    /// The findings a warm process keeps for `loaded` under `key`, if any.
    pub(crate) fn warm_findings(&self, loaded: &Loaded, key: &str) -> Option<crate::model::Report> {
        let path = self.plan_dir(&loaded.plan_id).ok()?.join(OPS_FILE);
        self.warm.as_ref()?.findings(&path, loaded, key)
    }

    /// Keeps `report`, the findings of `loaded` under `key`, in memory,
    /// with what the checks keep for the next run (`state`).
    pub(crate) fn keep_warm_findings(
        &self,
        loaded: &Loaded,
        key: &str,
        report: &crate::model::Report,
        state: Box<dyn std::any::Any + Send>,
    ) {
        if let (Some(w), Ok(dir)) = (&self.warm, self.plan_dir(&loaded.plan_id)) {
            w.keep_findings(&dir.join(OPS_FILE), loaded, key, report, state);
        }
    }

    /// What the checks keep for `loaded`, lent to `f`, when they were
    /// made on it (see [`Warm::peek_checks`]).
    pub(crate) fn peek_warm_checks<R>(
        &self,
        loaded: &Loaded,
        f: impl FnOnce(&(dyn std::any::Any + Send)) -> Option<R>,
    ) -> Option<R> {
        let path = self.plan_dir(&loaded.plan_id).ok()?.join(OPS_FILE);
        self.warm.as_ref()?.peek_checks(&path, loaded, f)
    }

    /// What the checks kept for `loaded`'s log on an earlier call, with
    /// what changed since (see [`Warm::take_checks`]).
    pub(crate) fn take_warm_checks(&self, loaded: &Loaded) -> Option<Checks> {
        let path = self.plan_dir(&loaded.plan_id).ok()?.join(OPS_FILE);
        self.warm.as_ref()?.take_checks(&path, loaded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::note::Note;
    use crate::model::{Map, Node, NodeKind, OpBody};
    use crate::store::{Start, Store};
    use std::io::Write;

    fn node(id: &str) -> Node {
        Node {
            id: id.into(),
            phase: None,
            kind: NodeKind::Join,
            definition: Map::new().into(),
        }
    }

    /// A store with a plan of two nodes, and the same store kept warm.
    fn stores(dir: &Path) -> (Store, Store) {
        let (cold, _) = Store::init(dir, crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
        cold.create(
            "plan-w",
            "ann",
            Start::default(),
            vec![
                OpBody::AddNode { node: node("a") },
                OpBody::AddNode { node: node("b") },
            ],
        )
        .unwrap();
        let warm = cold.clone().warm(Arc::default());
        (cold, warm)
    }

    fn add(store: &Store, id: &str) {
        store
            .commit("plan-w", "bob", None, |_| {
                Ok(vec![OpBody::AddNode { node: node(id) }])
            })
            .unwrap();
    }

    fn log_path(store: &Store) -> PathBuf {
        store
            .plan_dir("plan-w")
            .unwrap()
            .join(super::super::OPS_FILE)
    }

    /// The warm store reads what a fresh read of the log reads.
    fn same(warm: &Store, cold: &Store, why: &str) -> Loaded {
        let w = warm.load("plan-w").unwrap();
        let c = cold.load("plan-w").unwrap();
        assert_eq!(w.content(), c.content(), "{why}: content");
        assert_eq!(w.digest(), c.digest(), "{why}: digest");
        assert_eq!(w.notes(), c.notes(), "{why}: notes");
        assert_eq!(w.meta.state, c.meta.state, "{why}: state");
        assert_eq!(w.log.max_lamport, c.log.max_lamport, "{why}: lamport");
        let v = warm.load_verified("plan-w").unwrap();
        assert_eq!(v.content(), c.content(), "{why}: verified content");
        w
    }

    #[test]
    fn another_processs_append_is_folded_on_top() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        let first = same(&warm, &cold, "first read");
        // Another process (a cold store) appends while the plan is warm.
        add(&cold, "c");
        let w = same(&warm, &cold, "after another process appended");
        assert!(w.content().node("c").is_some());
        assert!(!Arc::ptr_eq(&first.folded, &w.folded));
        // The warm store's own writes keep it warm, and agree.
        add(&warm, "d");
        add(&cold, "e");
        add(&warm, "f");
        let w = same(&warm, &cold, "after writes from both");
        assert_eq!(w.content().nodes.len(), 6);
        // Unchanged: the very fold kept.
        let again = warm.load("plan-w").unwrap();
        assert!(Arc::ptr_eq(&again.folded, &w.folded));
    }

    #[test]
    fn a_write_starts_hashing_its_fold_at_once_and_the_next_write_stops_it() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        sixty_nodes(&warm);
        same(&warm, &cold, "first read");
        // A write: its fold's digest is computed on another thread without
        // anyone asking for it (nothing here reads the digest).
        let (after, _) = warm
            .commit("plan-w", "bob", None, |_| {
                Ok(vec![OpBody::AddNode { node: node("x") }])
            })
            .unwrap();
        let mut waited = 0;
        while after.folded.digest_if_known().is_none() && waited < 10_000 {
            std::thread::sleep(std::time::Duration::from_millis(10));
            waited += 10;
        }
        assert_eq!(
            after.folded.digest_if_known(),
            Some(&crate::wire::jcs::digest(after.content())),
            "hashed ahead, and right"
        );
        // The next write stops a digest under way and folds on top of the
        // kept fold itself (not a copy); what it reads equals a fresh read.
        drop(after);
        add(&warm, "y");
        add(&warm, "z");
        let w = same(&warm, &cold, "after writes back to back");
        assert!(w.content().node("z").is_some());
    }

    #[test]
    fn a_write_that_read_the_history_keeps_the_plan_warm() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        same(&warm, &cold, "first read");
        // A labelled write (undo, redo) reads the ops as well as the fold.
        let (after, _) = warm
            .commit_labeled("plan-w", "bob", None, "undo-", |_| {
                Ok(vec![OpBody::AddNode { node: node("u") }])
            })
            .unwrap();
        assert!(after.ops.is_some());
        // The fold after it is kept (without the history): the next read
        // folds nothing.
        let again = warm.load("plan-w").unwrap();
        assert!(Arc::ptr_eq(&again.folded, &after.folded));
        assert!(again.ops.is_none());
        same(&warm, &cold, "after the labelled write");
    }

    #[test]
    fn a_log_replaced_or_rewritten_is_read_again() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        same(&warm, &cold, "first read");
        let path = log_path(&cold);
        // Another clone's work, merged by git: a new file at the path whose
        // lines are the union of both, the other's ops sorting among ours.
        let theirs = dir.path().join("theirs");
        std::fs::create_dir(&theirs).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let other = crate::store::transaction(
            "zed",
            "plan-w",
            0,
            vec![OpBody::AddNode { node: node("z") }],
        );
        lines.insert(1, crate::wire::codec::op_line(&other[0]));
        let merged = theirs.join("ops.jsonl");
        std::fs::write(&merged, lines.join("\n") + "\n").unwrap();
        std::fs::rename(&merged, &path).unwrap();
        let w = same(&warm, &cold, "after a merge replaced the log");
        assert!(w.content().node("z").is_some());
        // Rewritten in place (same file), longer, with the first line
        // changed: never taken as an append.
        add(&warm, "g");
        same(&warm, &cold, "warm again");
        let text = std::fs::read_to_string(&path).unwrap();
        let changed = text.replacen("\"a\"", "\"q\"", 1)
            + &crate::wire::codec::op_line(
                &crate::store::transaction(
                    "zed",
                    "plan-w",
                    90,
                    vec![OpBody::AddNode { node: node("y") }],
                )[0],
            )
            + "\n";
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.write_all(changed.as_bytes()).unwrap();
        drop(f);
        let w = same(&warm, &cold, "after a rewrite in place");
        assert!(w.content().node("q").is_some() && w.content().node("a").is_none());
        // Shorter: read again.
        let text = std::fs::read_to_string(&path).unwrap();
        let cut: Vec<&str> = text.lines().collect();
        std::fs::write(&path, cut[..cut.len() - 1].join("\n") + "\n").unwrap();
        let w = same(&warm, &cold, "after the log got shorter");
        assert!(w.content().node("y").is_none());
    }

    #[test]
    fn a_torn_tail_appended_while_warm_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        same(&warm, &cold, "first read");
        let path = log_path(&cold);
        let tx = crate::store::transaction(
            "bob",
            "plan-w",
            50,
            vec![OpBody::AddNode { node: node("t") }],
        );
        let line = crate::wire::codec::op_line(&tx[0]);
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(&line.as_bytes()[..line.len() / 2]).unwrap();
        drop(f);
        let w = same(&warm, &cold, "after a killed writer");
        assert!(
            w.notes().iter().any(|n| matches!(n, Note::TornTail { .. })),
            "{:?}",
            w.notes()
        );
        // The next write removes it, and the warm store follows.
        add(&warm, "h");
        let w = same(&warm, &cold, "after the repair");
        assert!(!w.notes().iter().any(|n| matches!(n, Note::TornTail { .. })));
    }

    /// Sixty nodes more: a log long enough to have bytes between the
    /// sampled ends (n00 … n59).
    fn sixty_nodes(store: &Store) {
        store
            .commit("plan-w", "bob", None, |_| {
                Ok((0..60)
                    .map(|i| OpBody::AddNode {
                        node: node(&format!("n{i:02}")),
                    })
                    .collect())
            })
            .unwrap();
    }

    #[test]
    fn a_verdict_never_trusts_bytes_it_did_not_hash() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        sixty_nodes(&cold);
        same(&warm, &cold, "first read");
        let path = log_path(&cold);
        // A change in the middle of the log, same length, same file: past
        // the sampled bytes at the start and the end.
        let text = std::fs::read_to_string(&path).unwrap();
        let at = text.find("\"n30\"").unwrap();
        assert!(at as u64 > HEAD_SAMPLE && (at as u64) < text.len() as u64 - TAIL_SAMPLE);
        let mut bytes = text.into_bytes();
        bytes[at + 1] = b'x';
        let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.write_all_at(&bytes, 0).unwrap();
        // A verdict hashes every byte, and reads the log again.
        let v = warm.load_verified("plan-w").unwrap();
        let c = cold.load("plan-w").unwrap();
        assert_eq!(v.content(), c.content());
        assert!(v.content().node("x30").is_some());
        same(&warm, &cold, "after the verified read");
    }

    /// Waits out the clock tick file times are taken from, so that the
    /// next write moves the log's change time.
    fn tick() {
        std::thread::sleep(std::time::Duration::from_millis(25));
    }

    #[test]
    fn a_log_written_by_something_else_is_hashed_before_it_is_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        sixty_nodes(&cold);
        same(&warm, &cold, "first read");
        let path = log_path(&cold);
        let edit = |from: &str, to: &str| {
            tick();
            let text = std::fs::read_to_string(&path).unwrap();
            let at = text.find(from).unwrap();
            assert!(at as u64 > HEAD_SAMPLE && (at as u64) < text.len() as u64 - TAIL_SAMPLE);
            let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            f.write_all_at(to.as_bytes(), at as u64).unwrap();
        };
        // The same length, between the sampled ends: the change time moved.
        edit("\"n30\"", "\"x30\"");
        let w = same(&warm, &cold, "after an edit in the middle");
        assert!(w.content().node("x30").is_some());
        // An edit in the middle, then an append by another process: longer,
        // the same bytes at the ends, but not planforge's appends alone.
        edit("\"n31\"", "\"x31\"");
        tick();
        add(&cold, "later");
        let w = same(&warm, &cold, "after an edit and an append");
        assert!(w.content().node("x31").is_some() && w.content().node("later").is_some());
        // Appends by another planforge process alone are folded on.
        add(&cold, "later2");
        let w = same(&warm, &cold, "after another process's append");
        assert!(w.content().node("later2").is_some());
    }

    #[test]
    fn a_session_keeps_only_the_plans_it_used_last() {
        let dir = tempfile::tempdir().unwrap();
        let (cold, warm) = stores(dir.path());
        let w = Arc::new(Warm::default());
        let warm = warm.warm(w.clone());
        for i in 0..MAX_PLANS + 3 {
            let id = format!("plan-{i}");
            cold.create(&id, "ann", Start::default(), vec![]).unwrap();
            warm.load(&id).unwrap();
        }
        warm.load("plan-w").unwrap();
        let plans = w.plans.lock().unwrap();
        assert_eq!(plans.by_path.len(), MAX_PLANS);
        assert!(
            plans.get(&log_path(&cold)).is_some(),
            "the plan used last is kept"
        );
    }
}
