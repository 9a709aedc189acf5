//! The fold (SPEC §2, issue 12): ops → content and lifecycle. Pure,
//! deterministic, never fails.
//!
//! The order is total: ops sort by `(lamport, actorId, opId)`, and a tie is
//! broken by the op's own canonical line; an op that appears twice (the same
//! line) is folded once. So every clone holding the same ops folds the same
//! content, lifecycle and revisions, whatever order its lines are in.
//! Revision N is the content after the first N content ops in that order
//! (lifecycle ops are not revisions).

mod ahead;
mod base;
mod content;
mod digest;
use ahead::AheadCell;
pub(crate) use ahead::{DigestAhead, Worker};
pub(crate) use base::{Base, Lookup};
pub(crate) use content::Index;
pub(crate) use digest::keep_node_texts;
pub(crate) use digest::{Changed, Marks};
#[cfg(test)]
mod tests;

pub use content::{get_path, set_path};

use super::lifecycle::{Here, Machine};
use crate::model::hash::FastSet as HashSet;
use crate::model::lifecycle::Meta;
use crate::model::note::Note;
use crate::model::{Content, Op, OpBody};
use content::State;
use std::cmp::Ordering;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// What the fold produces.
#[derive(Debug, Clone)]
pub struct Folded {
    pub content: Content,
    /// What the fold noticed, content and lifecycle alike (the checks word
    /// these as findings).
    pub notes: Vec<Note>,
    /// The lifecycle and metadata the lifecycle ops derive.
    pub meta: Meta,
    /// The digest and encoded size of `content`, when the fold computed them
    /// (to check a freeze or an approval at the head).
    pub digest: Option<(String, usize)>,
    /// The lifecycle before its notes were drawn (to fold more ops on top).
    machine: Machine,
    /// The digest and encoded size, computed the first time they are asked
    /// for (a warm write that nobody reads the digest of never hashes the
    /// plan), with the marks a later fold's digest resumes from.
    digested: std::sync::OnceLock<Digested>,
    /// An earlier fold's digest marks and what changed since (the digest
    /// then hashes only the text after the first change).
    /// Let go of once this fold's own digest is made, by the thread that
    /// made it (see [`SeedCell`]).
    seed: SeedCell,
    /// The digest computed ahead on another thread, if one is.
    ahead: AheadCell,
    /// Positions by id, when they are `content`'s (to fold more on top,
    /// and for a warm read to find a node without a pass): kept from the
    /// fold that made them, or made once when a reader asks.
    index: std::sync::OnceLock<content::Index>,
    /// Ids that set_* ops named while absent, in every op folded (a fold on
    /// top reports one that is absent at its end, as a whole fold does).
    touched_absent: Vec<String>,
    /// Set when a definition this fold holds on a snapshot's chunk was
    /// found damaged on its first read (see `store::late`).
    pub(crate) late: crate::store::late::Late,
    /// Positions by id a fold on top asks before scanning (the id index of
    /// the snapshot this fold was restored from, while its slots are
    /// where the snapshot has them).
    pub(crate) base: Option<Base>,
}

impl Folded {
    /// The digest of `content` and the byte length of the canonical text it
    /// hashes (SPEC §3), computed once.
    ///
    /// While another thread computes it ahead ([`Folded::digest_ahead`]),
    /// this waits for that result instead of hashing the plan a second time.
    pub fn digested(&self) -> &(String, usize) {
        if self.digested.get().is_none() {
            self.ahead.0.wait();
        }
        &self
            .digested
            .get_or_init(|| {
                self.compute(None)
                    .expect("a digest nobody stops is finished")
            })
            .value
    }

    /// The digest and its marks, computed now; `None` when `stop` was set
    /// before it was finished.
    fn compute(&self, stop: Option<&AtomicBool>) -> Option<Digested> {
        Some(match (&self.digest, self.seed.get()) {
            (Some(d), None) => Digested {
                value: d.clone(),
                marks: None,
            },
            (_, seed) => {
                let from = seed.as_ref().map(|(m, ch)| (&**m, *ch));
                let (value, marks) = digest::digest_unless(&self.content, from, stop)?;
                Digested {
                    value,
                    marks: Some(Arc::new(marks)),
                }
            }
        })
    }

    /// Starts computing the digest on the session's digest worker
    /// ([`Worker`]), when it is not known yet and not under way: a warm
    /// session does so once it has answered a write, so that the next read
    /// that names the digest (status, a slice's head) finds it made, or
    /// waits for it, instead of hashing the plan then. The worker holds the
    /// fold until it is done: a write that wants the fold for itself stops
    /// it first ([`DigestAhead::stop`]). With `pause`, it waits
    /// [`ahead::AHEAD_PAUSE`] before it starts (a read wakes it at once), so
    /// that a client that sends its calls back to back does not pay for a
    /// hash that its next write would throw away; without, it starts at
    /// once (a write that has just made the fold starts it so, on the
    /// other core, while it checks and answers).
    pub(crate) fn digest_ahead(
        folded: &Arc<Folded>,
        pause: bool,
        worker: &Worker,
    ) -> Option<DigestAhead> {
        if folded.digested.get().is_some() {
            return None;
        }
        let ahead = folded.ahead.0.clone();
        if !ahead.start() {
            // One is under way already.
            return None;
        }
        worker.submit(folded.clone(), pause, ahead)
    }

    /// What the digest worker does with a fold it was given: computes its
    /// digest unless stopped, and lets go of the earlier marks once done.
    fn digest_on_worker(&self, pause: bool) {
        let ahead = &self.ahead.0;
        if ahead.stopped() || (pause && !ahead.pause()) {
            return;
        }
        if let Some(d) = self.compute(Some(ahead.stop_flag())) {
            let _ = self.digested.set(d);
            // The earlier marks are no longer needed: dropped here (on the
            // worker), not by the write that folds on top of this fold.
            drop(self.seed.take());
        }
    }

    /// The digest and encoded size, when something computed them already.
    pub fn digest_if_known(&self) -> Option<&(String, usize)> {
        self.digested
            .get()
            .map(|d| &d.value)
            .or(self.digest.as_ref())
    }

    /// The encoded size (the length of the text the digest hashes), when
    /// the digest is known or can be measured from an earlier fold's
    /// marks without writing the text (a warm write: only what it changed
    /// is measured).
    pub fn encoded_len_if_known(&self) -> Option<usize> {
        if let Some(d) = self.digest_if_known() {
            return Some(d.1);
        }
        let (marks, changed) = self.seed.get()?;
        digest::encoded_len(&self.content, (&marks, changed))
    }

    /// Node and edge positions by id: the fold's own when it kept them,
    /// else made now (once: a fold on top takes them over). `None` when an
    /// id is repeated (a content no fold makes).
    pub(crate) fn positions(&self) -> Option<&content::Index> {
        Some(self.index.get_or_init(|| content::Index::of(&self.content)))
            .filter(|x| x.fits(&self.content))
    }

    /// The node with `id`: by the kept positions, else by the base (the
    /// snapshot's id index, checked), else by a pass over the nodes.
    pub(crate) fn node(&self, id: &str) -> Option<&crate::model::Node> {
        let c = &self.content;
        let at = self.position(&c.nodes, |x| x.node(id), |n| &n.id, id, base::NODES);
        at.map(|i| &c.nodes[i])
    }

    /// As [`Folded::node`], the edge with `id`.
    pub(crate) fn edge(&self, id: &str) -> Option<&crate::model::Edge> {
        let c = &self.content;
        let at = self.position(&c.edges, |x| x.edge(id), |e| &e.id, id, base::EDGES);
        at.map(|k| &c.edges[k])
    }

    /// The positions of the edges from or to node `id`, in order, by the
    /// base (the snapshot's id index); `None` when it cannot tell.
    pub(crate) fn edges_touching(&self, id: &str) -> Option<Vec<usize>> {
        self.base.as_ref()?.edges_touching(&self.content.edges, id)
    }

    /// The position among `slots` (the content's nodes or edges, `side`)
    /// of the one with `id`: `kept` of the kept positions, else the base's
    /// answer, else the first found by a pass.
    fn position<T>(
        &self,
        slots: &[T],
        kept: impl FnOnce(&content::Index) -> Option<usize>,
        id_of: impl Fn(&T) -> &str,
        id: &str,
        side: base::Side,
    ) -> Option<usize> {
        if let Some(x) = self.positions_if_kept() {
            return kept(x);
        }
        let based = self
            .base
            .as_ref()
            .and_then(|b| b.find(slots, |_| false, &id_of, id, side));
        based.unwrap_or_else(|| slots.iter().position(|s| id_of(s) == id))
    }

    /// As [`Folded::positions`], only when they are made already.
    pub(crate) fn positions_if_kept(&self) -> Option<&content::Index> {
        self.index.get().filter(|x| x.fits(&self.content))
    }

    /// What a fold on top of this one starts its digest from.
    fn seed_for_next(&self) -> Option<(std::sync::Arc<digest::Marks>, digest::Changed)> {
        match self.digested.get().and_then(|d| d.marks.clone()) {
            Some(m) => Some((m, digest::Changed::NONE)),
            None => self.seed.get(),
        }
    }

    /// What a snapshot keeps besides the content and the lifecycle: the
    /// lifecycle machine as it stood before its notes were drawn and the
    /// ids set-ops named while absent; `None` when the fold noticed
    /// anything (notes are not archived: such a plan is folded afresh).
    pub(crate) fn snapshot_parts(&self) -> Option<(&Machine, &[String])> {
        (self.notes.is_empty() && self.machine.is_quiet())
            .then_some((&self.machine, self.touched_absent.as_slice()))
    }

    /// The marks a later digest resumes from, when this fold's digest was
    /// computed with them.
    pub(crate) fn digest_marks(&self) -> Option<&digest::Marks> {
        self.digested.get()?.marks.as_deref()
    }

    /// A fold restored from a snapshot: `content`, its lifecycle, and its
    /// digest and encoded size (computed when the snapshot was made), with
    /// the marks that digest kept, when the snapshot has them (a fold on
    /// top then hashes only the text after its first change).
    pub(crate) fn restored(
        content: Content,
        machine: Machine,
        touched_absent: Vec<String>,
        digest: (String, usize),
        marks: Option<digest::Marks>,
    ) -> Folded {
        let digested = std::sync::OnceLock::new();
        if let Some(m) = marks {
            let _ = digested.set(Digested {
                value: digest.clone(),
                marks: Some(std::sync::Arc::new(m)),
            });
        }
        Folded {
            content,
            notes: Vec::new(),
            meta: machine.meta.clone(),
            digest: Some(digest),
            machine,
            digested,
            seed: SeedCell::default(),
            ahead: AheadCell::default(),
            index: std::sync::OnceLock::new(),
            touched_absent,
            late: Default::default(),
            base: None,
        }
    }

    /// An empty plan's fold.
    pub fn empty(plan_id: &str) -> Folded {
        fold(plan_id, &[])
    }

    /// A fold that produced exactly `content`, editable, with nothing noticed.
    pub fn of_content(content: Content) -> Folded {
        let mut f = Folded::empty(&content.plan_id);
        f.content = content;
        f.index = std::sync::OnceLock::new();
        f
    }
}

/// An earlier fold's digest marks and what changed since.
type Seed = (Arc<digest::Marks>, digest::Changed);

/// A fold's [`Seed`], taken (and dropped) by the thread that makes the
/// fold's own digest once it is made: the earlier marks hold every node's
/// text, and letting go of them is a pass over the plan that a write
/// folding on top of this fold should not pay.
#[derive(Debug, Default)]
struct SeedCell(Mutex<Option<Seed>>);

impl Clone for SeedCell {
    fn clone(&self) -> SeedCell {
        SeedCell::of(self.get())
    }
}

impl SeedCell {
    fn of(seed: Option<Seed>) -> SeedCell {
        SeedCell(Mutex::new(seed))
    }

    fn get(&self) -> Option<Seed> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    fn take(&self) -> Option<Seed> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// A computed digest and the marks to resume from.
#[derive(Debug, Clone)]
struct Digested {
    value: (String, usize),
    marks: Option<std::sync::Arc<digest::Marks>>,
}

/// Whether each of `ops`' transactions is complete: has its closing op
/// somewhere in `ops`. A transaction is one actor's (two actors that spell
/// the same tx id wrote two transactions, and one's closing op does not
/// close the other's).
pub fn complete<'a>(ops: impl Iterator<Item = &'a Op> + Clone) -> Vec<bool> {
    let closed: HashSet<(&str, &str)> = ops
        .clone()
        .filter(|o| o.tx_end)
        .map(|o| (o.actor_id.as_str(), o.tx.as_str()))
        .collect();
    ops.map(|o| closed.contains(&(o.actor_id.as_str(), o.tx.as_str())))
        .collect()
}

/// The fold's total order.
pub fn order(a: &Op, b: &Op) -> Ordering {
    a.sort_key()
        .cmp(&b.sort_key())
        .then_with(|| crate::wire::codec::op_line(a).cmp(&crate::wire::codec::op_line(b)))
}

/// Sorts ops into fold order and drops exact repeats of one op.
pub fn sort_ops(ops: &mut Vec<Op>) {
    if !ops.is_sorted_by(|a, b| a.sort_key() < b.sort_key()) {
        ops.sort_by(order);
        ops.dedup_by(|b, a| a.sort_key() == b.sort_key() && order(a, b) == Ordering::Equal);
    }
}

/// As [`sort_ops`], on references.
fn sorted_refs(ops: &[Op]) -> Vec<&Op> {
    let mut order_: Vec<&Op> = ops.iter().collect();
    if !order_.is_sorted_by(|a, b| a.sort_key() < b.sort_key()) {
        order_.sort_by(|a, b| order(a, b));
        order_.dedup_by(|b, a| a.sort_key() == b.sort_key() && order(a, b) == Ordering::Equal);
    }
    order_
}

/// Folds ops (callers pass the ops of complete transactions; see
/// `log::parse`), in any order.
pub fn fold(plan_id: &str, ops: &[Op]) -> Folded {
    fold_sorted(plan_id, &sorted_refs(ops))
}

/// The fold of `ops` at `revision`: what `fold_owned(plan_id,
/// at_revision(ops.to_vec(), revision))` gives, without a copy of every op
/// (only the ops up to the revision's last content op are read, and their
/// bodies copied one at a time as they are folded).
pub fn fold_at(plan_id: &str, ops: &[Op], revision: u64) -> Folded {
    let mut order_ = sorted_refs(ops);
    let mut seen = 0;
    let cut = order_.iter().position(|o| {
        if o.body.is_content() {
            seen += 1;
        }
        seen > revision
    });
    if let Some(cut) = cut {
        order_.truncate(cut);
    }
    fold_sorted(plan_id, &order_)
}

/// Folds ops already in fold order.
fn fold_sorted(plan_id: &str, order_: &[&Op]) -> Folded {
    let state = state_for(order_.iter().map(|o| &o.body));
    let mut d = Driver::new(plan_id, state, Machine::default(), 0, Vec::new());
    let last = order_.iter().rposition(|o| o.body.is_content());
    for (i, op) in order_.iter().enumerate() {
        d.step(op, op.body.clone(), Some(i) < last);
    }
    d.finish()
}

/// As [`fold`], consuming the ops (nothing is copied).
pub fn fold_owned(plan_id: &str, mut ops: Vec<Op>) -> Folded {
    sort_ops(&mut ops);
    let state = state_for(ops.iter().map(|o| &o.body));
    let mut d = Driver::new(plan_id, state, Machine::default(), 0, Vec::new());
    let last = ops.iter().rposition(|o| o.body.is_content());
    for (i, mut op) in ops.into_iter().enumerate() {
        let body = std::mem::replace(&mut op.body, OpBody::Unfreeze);
        d.step(&op, body, Some(i) < last);
    }
    d.finish()
}

/// A fold's first state, with room for the nodes and edges `bodies` add
/// (see `State::reserve`).
fn state_for<'o>(bodies: impl Iterator<Item = &'o OpBody>) -> State {
    let (mut nodes, mut edges) = (0, 0);
    for body in bodies {
        match body {
            OpBody::AddNode { .. } => nodes += 1,
            OpBody::AddEdge { .. } => edges += 1,
            _ => {}
        }
    }
    let mut state = State::default();
    state.reserve(nodes, edges);
    state
}

/// The content and notes [`fold_owned`] gives for the ops of an import of
/// one document (`create_plan` with `provenance`, `set_bounds`, then an
/// `add_node` per node and an `add_edge` per edge, in one transaction),
/// applied straight to the fold's state: no op is made, sorted or run
/// through the lifecycle (an import has no lifecycle op after its
/// content). `tests::an_import_folds_as_its_ops` holds it to `fold_owned`.
pub fn import(
    plan_id: &str,
    bounds: crate::model::Bounds,
    nodes: Vec<crate::model::Node>,
    edges: Vec<crate::model::Edge>,
    provenance: Option<crate::model::Provenance>,
) -> (Content, Vec<Note>) {
    let mut state = State::default();
    state.reserve(nodes.len(), edges.len());
    let mut notes = Vec::new();
    let revision = (1 + nodes.len() + edges.len()) as u64;
    state.apply("", OpBody::SetBounds { bounds }, &mut notes);
    for node in nodes {
        state.apply("", OpBody::AddNode { node }, &mut notes);
    }
    for edge in edges {
        state.apply("", OpBody::AddEdge { edge }, &mut notes);
    }
    let content = state
        .finish(plan_id, revision, provenance, &mut notes)
        .content;
    (content, notes)
}

/// The first ops of `ops` in fold order up to and including its `revision`-th
/// content op (all of them when `revision` is the head or more).
pub fn at_revision(mut ops: Vec<Op>, revision: u64) -> Vec<Op> {
    sort_ops(&mut ops);
    let mut seen = 0;
    let cut = ops.iter().position(|o| {
        if o.body.is_content() {
            seen += 1;
        }
        seen > revision
    });
    if let Some(cut) = cut {
        ops.truncate(cut);
    }
    ops
}

/// How many content ops `ops` holds: the head revision.
pub fn revisions(ops: &[Op]) -> u64 {
    ops.iter().filter(|o| o.body.is_content()).count() as u64
}

/// Applies ops that sort after every op already folded into `before`, giving
/// the same result as folding the whole log again (`before` is consumed:
/// nothing is copied). Gives `None` when that cannot be guaranteed (the new
/// ops would sort among older ones, or the earlier fold dropped or ignored
/// something a new op could revive); the caller then folds everything.
pub fn fold_after(before: Folded, max_lamport: u64, ops: &[Op]) -> Option<Folded> {
    fold_after_changed(before, max_lamport, ops).map(|(after, _)| after)
}

/// As [`fold_after`], with the first node and edge positions whose content
/// the ops may have changed (every node and edge before them is the one
/// `before` held, at the same position): what a new snapshot can take from
/// the one `before` was restored from.
pub(crate) fn fold_after_changed(
    before: Folded,
    max_lamport: u64,
    ops: &[Op],
) -> Option<(Folded, Changed)> {
    let revives = before
        .notes
        .iter()
        .any(|n| matches!(n, Note::DanglingEdge { .. } | Note::UnknownNode { .. }));
    if revives || ops.iter().any(|o| o.lamport <= max_lamport) {
        return None;
    }
    let seed = before.seed_for_next();
    let order_ = sorted_refs(ops);
    let Folded {
        content: c,
        notes,
        machine,
        index,
        touched_absent,
        late,
        base,
        ..
    } = before;
    let content_notes: Vec<Note> = notes.into_iter().filter(|n| !is_lifecycle(n)).collect();
    let plan_id = c.plan_id.clone();
    let revision = c.revision;
    let mut d = Driver::new(
        &plan_id,
        State::from_content(c, index.into_inner(), touched_absent, base),
        machine,
        revision,
        content_notes,
    );
    let last = order_.iter().rposition(|o| o.body.is_content());
    for (i, op) in order_.iter().enumerate() {
        d.step(op, op.body.clone(), Some(i) < last);
    }
    let (mut after, changed) = d.finish_changed();
    // Its nodes before the change are still `before`'s, on the same chunks.
    after.late = late;
    after.seed = SeedCell::of(seed.map(|(m, before)| (m, before.then(changed))));
    Some((after, changed))
}

fn is_lifecycle(n: &Note) -> bool {
    matches!(n, Note::ApprovalVoid { .. } | Note::FreezeNotHeld { .. })
}

/// One fold in progress: content, lifecycle, and the lifecycle ops that
/// stand after the last content op (checked once against the final content).
struct Driver<'p> {
    plan_id: &'p str,
    state: State,
    machine: Machine,
    revision: u64,
    notes: Vec<Note>,
    trailing: Vec<Op>,
}

impl<'p> Driver<'p> {
    fn new(
        plan_id: &'p str,
        state: State,
        machine: Machine,
        revision: u64,
        notes: Vec<Note>,
    ) -> Driver<'p> {
        Driver {
            plan_id,
            state,
            machine,
            revision,
            notes,
            trailing: Vec::new(),
        }
    }

    /// One op, in order; `content_follows`: a content op comes after it.
    fn step(&mut self, op: &Op, body: OpBody, content_follows: bool) {
        self.machine.seen(op);
        if body.is_content() {
            let r = super::lifecycle::op_ref(op, &body);
            self.state.apply(&op.tx, body, &mut self.notes);
            self.revision += 1;
            self.machine.content_changed(r);
        } else if content_follows {
            let (state, revision, plan_id) = (&self.state, self.revision, self.plan_id);
            let provenance = self.machine.meta.provenance.clone();
            let full = Op { body, ..header(op) };
            self.machine.lifecycle(&full, plan_id, || {
                here(&state.snapshot(plan_id, revision, provenance)).0
            });
        } else {
            // The content will not change again: checked at the end.
            self.trailing.push(Op { body, ..header(op) });
        }
    }

    fn finish(self) -> Folded {
        self.finish_changed().0
    }

    /// The fold, and the first positions its ops changed (see
    /// [`digest::Changed`]).
    fn finish_changed(mut self) -> (Folded, digest::Changed) {
        let provenance = self.machine.meta.provenance.clone();
        let content::Finished {
            content,
            index,
            base,
            touched_absent,
            changed,
        } = self
            .state
            .finish(self.plan_id, self.revision, provenance, &mut self.notes);
        let mut digest = None;
        let mut at_head: Option<Here> = None;
        for op in &self.trailing {
            let needs = matches!(op.body, OpBody::Freeze { .. } | OpBody::Approve { .. });
            if needs && at_head.is_none() {
                let (h, len) = here(&content);
                digest = Some((h.digest.clone(), len));
                at_head = Some(h);
            }
            let h = at_head.as_ref();
            self.machine.lifecycle(op, self.plan_id, || {
                let h = h.expect("computed above for freeze and approve");
                Here {
                    digest: h.digest.clone(),
                    revision: h.revision,
                    authority: h.authority.clone(),
                }
            });
        }
        let machine = self.machine.clone();
        let (meta, lifecycle_notes) = self.machine.finish();
        self.notes.extend(lifecycle_notes);
        let folded = Folded {
            content,
            notes: self.notes,
            meta,
            digest,
            machine,
            digested: std::sync::OnceLock::new(),
            seed: SeedCell::default(),
            ahead: AheadCell::default(),
            index: index.map(std::sync::OnceLock::from).unwrap_or_default(),
            touched_absent,
            late: Default::default(),
            base,
        };
        (folded, changed)
    }
}

/// What a lifecycle op is checked against, and the encoded size.
fn here(c: &Content) -> (Here, usize) {
    let (digest, len) = crate::wire::jcs::digest(c);
    let h = Here {
        digest,
        revision: c.revision,
        authority: c.requested_authority(),
    };
    (h, len)
}

/// An op's header (its body replaced by the caller).
fn header(op: &Op) -> Op {
    Op {
        op_id: op.op_id.clone(),
        actor_id: op.actor_id.clone(),
        lamport: op.lamport,
        at: op.at.clone(),
        tx: op.tx.clone(),
        tx_end: op.tx_end,
        body: OpBody::Unfreeze,
    }
}
