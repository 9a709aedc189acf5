//! Reading a plan: its op log, folded (at a revision, or current) into
//! content and lifecycle, and digested. A plan written by an earlier
//! planforge keeps its lifecycle in `meta.json`; it is read as the ops it
//! stands for (see `upgrade`), so it folds like any other.

use super::Store;
use super::fold::{self, Folded};
use super::log::{self, Log, LogInfo};
use super::paths::{META_FILE, OPS_FILE, refuse_special, refuse_symlink};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::hash::FastSet;
use crate::model::lifecycle::{Meta, State};
use crate::model::note::Note;
use crate::model::touched::Touched;
use crate::model::{Content, Op, OpBody};
use std::fs;
use std::path::Path;
use std::sync::Arc;

/// A plan read from the store and folded.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    pub(crate) plan_id: String,
    /// The lifecycle and metadata, as the fold derives them.
    pub(crate) meta: Meta,
    /// Where the log file stands (for the next writer).
    pub(crate) log: LogInfo,
    /// Ops of complete transactions, in log order; kept only when asked for
    /// (see [`Loaded::ops`]).
    pub(super) ops: Option<Vec<Op>>,
    /// The fold, shared with a warm process's kept copy (see `warm`).
    pub(crate) folded: Arc<Folded>,
    /// The ops an earlier planforge's `meta.json` stands for, which the next
    /// write appends for real (then `meta.json` goes).
    pub(super) upgrade: Vec<Op>,
    /// The plan's latest revision (above `revision()` when loaded at an
    /// earlier one).
    pub(crate) head_revision: u64,
    /// Left to the operating system when dropped ([`Store::one_shot`]).
    pub(super) leak: bool,
    /// The length of the log prefix the snapshot this plan was loaded from
    /// folds (see `snapshot`); `None`: folded from the log.
    pub(super) snapshot_at: Option<u64>,
    /// Whether the fold came from the snapshot (else from the log).
    pub(super) restored: bool,
    /// The log prefix this fold is exactly of, when a one-shot load or
    /// write knows it (see `snapshot::Stamp`): what its findings and its
    /// kept checks are keyed by.
    pub(crate) stamp: Option<super::snapshot::stamp::Stamp>,
    /// The checks a one-shot process kept for an earlier prefix of the log,
    /// and what changed since (see `snapshot::kept`).
    pub(crate) kept_checks: Option<KeptChecks>,
}

/// The state the checks of an earlier one-shot process kept (bytes the
/// checks read), about the log prefix `at` bytes long, and what every op
/// after that prefix touched, up to the content of the [`Loaded`] holding
/// it.
#[derive(Debug, Clone)]
pub(crate) struct KeptChecks {
    pub(crate) bytes: KeptState,
    /// `bytes` being decoded on another thread, when a one-shot write
    /// started it (see `store::early`).
    pub(crate) early: super::early::Early,
    pub(crate) touched: Touched,
    pub(crate) at: u64,
}

/// A kept state as read from its file: the end of the file's bytes, from
/// `at`, used where they lie (the file is mapped, not copied: at 100,000
/// nodes a copy is 24 MB of fresh memory the kernel zeroes first). The
/// file is only ever replaced by a rename, never written in place, so the
/// mapped bytes stay the ones checked.
///
/// Its checksum is read when the state is first used
/// ([`KeptState::sound`]), on the thread that decodes it (see
/// `store::early`), not before the plan's restore starts: what the store
/// reads of the file before (the stamp that cuts the log's tail) only
/// says which ops the state is about, and a state that is not sound is
/// not used.
#[derive(Debug, Clone)]
pub(crate) struct KeptState {
    bytes: std::sync::Arc<memmap2::Mmap>,
    at: usize,
    sum: Sum,
    sound: std::sync::Arc<std::sync::OnceLock<bool>>,
}

/// Where the checked part of a kept file starts, the checksum written for
/// it, and the function that makes it (the file's writer's).
pub(crate) type Sum = (usize, u64, fn(&[u8]) -> u64);

impl KeptState {
    /// The state at `at` in the file's `bytes`, whose part from `sum.0` on
    /// has the checksum `sum.1` as `sum.2` makes it.
    pub(crate) fn new(bytes: memmap2::Mmap, at: usize, sum: Sum) -> KeptState {
        assert!(at <= bytes.len(), "the state lies in the file's bytes");
        KeptState {
            bytes: std::sync::Arc::new(bytes),
            at,
            sum,
            sound: Default::default(),
        }
    }

    /// Whether the file's bytes have the checksum written with them (read
    /// once, whoever asks first).
    pub(crate) fn sound(&self) -> bool {
        *self.sound.get_or_init(|| {
            let (from, sum, of) = self.sum;
            self.bytes.get(from..).is_some_and(|b| of(b) == sum)
        })
    }
}

impl std::ops::Deref for KeptState {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes[self.at..]
    }
}

/// What `ops`, applied in order to `before`, touch: [`Touched::of`],
/// looking up only the edges the ops name (by the fold's positions or the
/// snapshot's id index, [`Folded::edge`]) or, for a node removed, every
/// edge that ends at it (one pass over the edges, only then), not every
/// edge per op.
pub(crate) fn touched_by<'o>(
    before: &fold::Folded,
    ops: impl Iterator<Item = &'o OpBody> + Clone,
) -> Touched {
    let content = &before.content;
    let mut edges: Vec<&str> = Vec::new();
    let mut nodes: Vec<&str> = Vec::new();
    for op in ops.clone() {
        match op {
            OpBody::AddEdge { edge } => edges.push(&edge.id),
            OpBody::RemoveEdge { edge_id } => edges.push(edge_id),
            OpBody::RemoveNode { node_id, .. } => nodes.push(node_id),
            _ => {}
        }
    }
    let mut light = Content::empty(content.plan_id.clone());
    if !nodes.is_empty() {
        let (edges, nodes): (FastSet<&str>, FastSet<&str>) =
            (edges.into_iter().collect(), nodes.into_iter().collect());
        light.edges = content
            .edges
            .iter()
            .filter(|e| {
                edges.contains(e.id.as_str())
                    || nodes.contains(e.from.as_str())
                    || nodes.contains(e.to.as_str())
            })
            .cloned()
            .collect();
    } else {
        edges.sort_unstable();
        edges.dedup();
        light.edges = edges
            .into_iter()
            .filter_map(|id| before.edge(id))
            .cloned()
            .collect();
    }
    let t = Touched::of(&light, ops.clone());
    debug_assert!(
        content.edges.len() > 4096 || t == Touched::of(content, ops),
        "the edges looked up are every edge the ops ask about"
    );
    t
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if self.leak {
            // The process is about to exit: skip freeing the plan's many
            // small allocations (see `Store::one_shot`).
            std::mem::forget(self.folded.clone());
            std::mem::forget(self.ops.take());
        }
    }
}

impl Loaded {
    /// Whether a definition of this plan, restored from the snapshot, was
    /// found damaged on its first read (see `store::late`): nothing made
    /// from it may be used; [`Store::refold_late`] gives the log's fold.
    pub(crate) fn late_damaged(&self) -> bool {
        self.folded.late.is_set()
    }

    /// A copy without the ops (what a warm session keeps: the fold, not
    /// the history a write that read it carries).
    pub(super) fn without_ops(&self) -> Loaded {
        Loaded {
            plan_id: self.plan_id.clone(),
            meta: self.meta.clone(),
            log: self.log.clone(),
            ops: None,
            folded: self.folded.clone(),
            upgrade: self.upgrade.clone(),
            head_revision: self.head_revision,
            leak: self.leak,
            snapshot_at: self.snapshot_at,
            restored: self.restored,
            stamp: self.stamp.clone(),
            kept_checks: None,
        }
    }

    /// A loaded plan holding exactly `content` (for tests of what reads it).
    #[cfg(test)]
    pub(crate) fn of_content(content: Content) -> Loaded {
        let plan_id = content.plan_id.clone();
        finish(
            &plan_id,
            Folded::of_content(content),
            LogInfo::default(),
            None,
            Vec::new(),
            false,
        )
    }

    /// The ops of complete transactions, in log order. Only plans loaded with
    /// `load_with_ops` / `load_at_with_ops` (or inside `commit_labeled`) keep
    /// them: most readers need the folded content only.
    pub(crate) fn ops(&self) -> Result<&[Op]> {
        self.ops.as_deref().ok_or_else(|| {
            Error::internal(format!(
                "plan {} was loaded without its op log; this is a bug in planforge",
                self.plan_id
            ))
        })
    }

    /// Whether what is made from this plan may be left to the operating
    /// system instead of freed (a one-shot process, [`Store::one_shot`]).
    pub(crate) fn leaks(&self) -> bool {
        self.leak
    }

    pub(crate) fn content(&self) -> &Content {
        &self.folded.content
    }
    /// The node with `id`: found through the fold's positions when it
    /// keeps them (a warm plan: no pass over the nodes), else by a pass.
    pub(crate) fn node(&self, id: &str) -> Option<&crate::model::Node> {
        let found = self.folded.node(id);
        debug_assert_eq!(
            found,
            self.content().node(id),
            "positions kept are the content's"
        );
        found
    }
    /// The edge with `id`, as [`Loaded::node`] finds a node.
    pub(crate) fn edge(&self, id: &str) -> Option<&crate::model::Edge> {
        let found = self.folded.edge(id);
        debug_assert_eq!(
            found,
            self.content().edge(id),
            "positions kept are the content's"
        );
        found
    }
    /// The positions of the edges from or to node `id`, in order, when
    /// the snapshot's id index can tell them (see
    /// [`fold::Folded::edges_touching`]); `None`: pass over the edges.
    pub(crate) fn edges_touching(&self, id: &str) -> Option<Vec<usize>> {
        let found = self.folded.edges_touching(id);
        debug_assert!(
            found.as_ref().is_none_or(|f| {
                let all = self.content().edges.iter().enumerate();
                *f == all
                    .filter(|(_, e)| e.from == id || e.to == id)
                    .map(|(k, _)| k)
                    .collect::<Vec<_>>()
            }),
            "the base's edges of `{id}` are the content's"
        );
        found
    }
    pub(crate) fn revision(&self) -> u64 {
        self.folded.content.revision
    }
    pub(crate) fn state(&self) -> State {
        self.meta.state
    }

    /// The content's digest (SPEC §3), computed the first time it is asked
    /// for and shared by every copy of this fold.
    pub(crate) fn digest(&self) -> &str {
        &self.folded.digested().0
    }

    /// The encoded length, when the digest was computed already or can be
    /// measured from an earlier fold's digest (see `Folded`).
    pub(crate) fn encoded_len_if_known(&self) -> Option<usize> {
        self.folded.encoded_len_if_known()
    }

    /// What the fold noticed: about the content, the lifecycle, and the log.
    pub(crate) fn notes(&self) -> Vec<Note> {
        self.folded.notes.clone()
    }
}

/// A fold, digested, as a loaded plan.
pub(super) fn finish(
    plan_id: &str,
    folded: Folded,
    log: LogInfo,
    ops: Option<Vec<Op>>,
    upgrade: Vec<Op>,
    leak: bool,
) -> Loaded {
    Loaded {
        plan_id: plan_id.to_string(),
        meta: folded.meta.clone(),
        log,
        ops,
        head_revision: folded.content.revision,
        folded: Arc::new(folded),
        upgrade,
        leak,
        snapshot_at: None,
        restored: false,
        stamp: None,
        kept_checks: None,
    }
}

impl Store {
    /// As [`load`](Self::load), keeping the ops (for history: diff, undo, ops).
    pub(crate) fn load_with_ops(&self, id: &str) -> Result<Loaded> {
        self.load_impl(id, None, true)
    }

    /// Loads a plan folded at `revision` (its first N content ops in fold
    /// order), or at its current revision.
    pub(crate) fn load_at(&self, id: &str, revision: Option<u64>) -> Result<Loaded> {
        self.load_impl(id, revision, false)
    }

    /// As [`load_at`](Self::load_at), keeping the ops.
    pub(crate) fn load_at_with_ops(&self, id: &str, revision: Option<u64>) -> Result<Loaded> {
        self.load_impl(id, revision, true)
    }

    /// Every op of a plan as read from its log (with those an earlier
    /// planforge's `meta.json` stands for), unfolded: for a caller that folds
    /// them its own way (a diff folds two revisions in one pass).
    pub(crate) fn log_ops(&self, id: &str) -> Result<Vec<Op>> {
        let dir = self.plan_dir(id)?;
        let (Log { mut ops, .. }, upgrade) = self.read_log(id, &dir)?;
        ops.extend(upgrade);
        Ok(ops)
    }

    /// The log of a plan and, for a plan an earlier planforge wrote, the ops
    /// its `meta.json` stands for.
    pub(super) fn read_log(&self, id: &str, dir: &Path) -> Result<(Log, Vec<Op>)> {
        refuse_symlink(dir)?;
        let ops_path = dir.join(OPS_FILE);
        let meta_path = dir.join(META_FILE);
        refuse_special(&ops_path)?;
        refuse_special(&meta_path)?;
        let has_log = ops_path.is_file();
        let has_meta = meta_path.is_file();
        if !has_log && !has_meta {
            return Err(self.unknown_plan(id));
        }
        let log = log::read(&ops_path, id)?;
        let created = log
            .ops
            .iter()
            .any(|o| matches!(o.body, crate::model::OpBody::CreatePlan { .. }));
        let upgrade = if has_meta && !created {
            let meta = read_meta(id, &meta_path)?;
            super::upgrade::ops_for(id, &meta, &log.ops)
        } else {
            Vec::new()
        };
        Ok((log, upgrade))
    }

    fn load_impl(&self, id: &str, revision: Option<u64>, keep_ops: bool) -> Result<Loaded> {
        self.load_cold(id, revision, keep_ops)
    }

    pub(super) fn load_cold(
        &self,
        id: &str,
        revision: Option<u64>,
        keep_ops: bool,
    ) -> Result<Loaded> {
        let dir = self.plan_dir(id)?;
        let (Log { ops, info }, upgrade) = self.read_log(id, &dir)?;
        let mut all = ops;
        all.extend(upgrade.iter().cloned());
        let head = fold::revisions(&all);
        let all = match revision {
            Some(r) if r > head => {
                return Err(Error::new(
                    ErrorKind::UnknownRevision,
                    format!("plan {id} has no revision {r}; its revisions run from 0 to {head}"),
                ));
            }
            Some(r) if r < head => fold::at_revision(all, r),
            _ => all,
        };
        let whole = revision.is_none_or(|r| r >= head);
        let (mut folded, ops) = if keep_ops {
            (fold::fold(id, &all), Some(all))
        } else {
            (fold::fold_owned(id, all), None)
        };
        if whole && info.unfinished > 0 {
            folded.notes.push(Note::TornTail {
                ops: info.unfinished,
                lines: info.unfinished_lines.clone(),
            });
        }
        let mut loaded = finish(id, folded, info, ops, upgrade, self.one_shot);
        loaded.head_revision = head;
        Ok(loaded)
    }

    /// The lines of the log `loaded` is the fold of, for reading its
    /// history without folding it again (undo, redo: see [`log::Lines`]):
    /// `None` when that log is not clean (unfinished lines, an earlier
    /// planforge's `meta.json`), `loaded` is not at its head, or the log
    /// moved since (another length or count of ops) — then read it whole
    /// ([`Store::load_with_ops`]).
    pub(crate) fn log_lines(&self, loaded: &Loaded) -> Result<Option<log::Lines>> {
        let info = &loaded.log;
        let clean = loaded.upgrade.is_empty()
            && info.unfinished == 0
            && info.ends_with_newline
            && info.good_len == info.len
            && loaded.head_revision == loaded.revision();
        if !clean {
            return Ok(None);
        }
        let dir = self.plan_dir(&loaded.plan_id)?;
        refuse_symlink(&dir)?;
        let path = dir.join(OPS_FILE);
        refuse_special(&path)?;
        log::Lines::read(&path, info)
    }

    /// The findings the checkpoint keeps for `key`, if any (read commands
    /// only: verdicts never come from a cache).
    pub(crate) fn cached_findings(&self, plan: &str, key: &str) -> Option<String> {
        super::checkpoint::read(&self.plan_dir(plan).ok()?, key)
    }

    /// Keeps a plan's findings in its checkpoint, valid under `key` (the
    /// caller's hash of everything the findings depend on).
    pub(crate) fn save_findings(&self, plan: &str, key: &str, findings: &str) {
        if let Ok(dir) = self.plan_dir(plan) {
            super::checkpoint::write(&dir, key, findings);
        }
    }
}

/// An earlier planforge's `meta.json`.
fn read_meta(id: &str, path: &Path) -> Result<Meta> {
    let text = fs::read_to_string(path).map_err(|e| {
        Error::new(
            ErrorKind::CorruptStore,
            format!("could not read {}: {e}", path.display()),
        )
    })?;
    Meta::parse(&text, &format!("{id}/{META_FILE}"))
}
