//! Reading a stored plan in place, from its snapshot (issue 17): the
//! counts, the lifecycle, each node's id, phase, kind and fields, and each
//! edge's ends, straight from the archive. Only what a command shows is
//! made into the model's types; nothing else is copied, and only the
//! chunks it reads are read and checked (see [`super::chunks`]): one node
//! costs its bucket of the id index, its chunk and its edges' chunks.
//!
//! A view exists only when the snapshot is the fold of the whole log as it
//! is now (no tail to fold): the answer is then the one a full load gives.
//! A chunk that fails its checks marks the view damaged, and an answer made
//! over a damaged view is dropped (the plan is read from its log): what a
//! damaged chunk holds is never used.

use super::archive::{
    self, ArchivedSBucket, ArchivedSDef, ArchivedSEdge, ArchivedSEdges, ArchivedSHead,
    ArchivedSHeadNode, ArchivedSMarks, ArchivedSValue,
};
use super::chunks::Bytes;
use super::chunks::{ArchivedSChunk, EDGES_PER_CHUNK, NO_NODE, NODES_PER_CHUNK, Opened, bucket_of};
use super::lazy::Chunk;
use super::{ArchivedSnap, keyed};
use crate::model::lifecycle::Meta;
use crate::model::pages::Room;
use crate::model::{Def, Edge, Handle, Node, NodeKind};
use crate::store::Store;
use crate::store::late::Late;
use crate::store::paths::{META_FILE, OPS_FILE, refuse_special, refuse_symlink};
use rkyv::api::high::HighValidator;
use rkyv::bytecheck::CheckBytes;
use rkyv::vec::ArchivedVec;
use std::cell::{Cell, OnceCell};
use std::mem::MaybeUninit;
use std::sync::Arc;

/// The head of an opened snapshot, validated (bytecheck).
pub(super) fn head(opened: &Opened) -> Option<&ArchivedSnap> {
    rkyv::access::<ArchivedSnap, rkyv::rancor::Error>(&opened.head).ok()
}

/// One slot per chunk of `s`, for its bytes once read (shared: the nodes
/// restored from a chunk of nodes read their definitions from it).
pub(super) type Slots = Vec<OnceCell<Option<Arc<Chunk>>>>;

pub(super) fn slots(s: &ArchivedSnap) -> Slots {
    let n = s.node_chunks.len() + s.edge_chunks.len() + s.buckets.len() + s.marks.len();
    (0..n).map(|_| OnceCell::new()).collect()
}

type Cells<'a, T> = Vec<OnceCell<Option<&'a T>>>;

/// From this many nodes on, [`View::nodes`] makes them on two threads: a
/// thread's start (tens of microseconds) is worth it once each has a chunk
/// of nodes (about 3 million instructions) to make.
const PARALLEL_NODES: usize = 2 * NODES_PER_CHUNK;

/// A stored plan, read in place from its snapshot.
pub(crate) struct View<'a> {
    s: &'a ArchivedSnap,
    opened: &'a Opened,
    bufs: &'a [OnceCell<Option<Arc<Chunk>>>],
    nodes: Cells<'a, ArchivedSHead>,
    edges: Cells<'a, ArchivedSEdges>,
    buckets: Cells<'a, ArchivedSBucket>,
    marks: Cells<'a, ArchivedSMarks>,
    damaged: Cell<bool>,
    /// The flag of the plan restored through this view (its chunks of
    /// nodes set it when a definitions part is found damaged).
    late: Late,
}

fn cells<'a, T>(n: usize) -> Cells<'a, T> {
    (0..n).map(|_| OnceCell::new()).collect()
}

impl<'a> View<'a> {
    pub(super) fn new(
        s: &'a ArchivedSnap,
        opened: &'a Opened,
        bufs: &'a Slots,
        late: Late,
    ) -> View<'a> {
        View {
            late,
            s,
            opened,
            bufs,
            nodes: cells(s.node_chunks.len()),
            edges: cells(s.edge_chunks.len()),
            buckets: cells(s.buckets.len()),
            marks: cells(s.marks.len()),
            damaged: Cell::new(false),
        }
    }

    /// Whether a chunk read so far failed its checks (or held what no
    /// writer makes): then nothing read through the view may be used.
    pub(crate) fn damaged(&self) -> bool {
        self.damaged.get()
    }

    fn flag<T>(&self, got: Option<T>) -> Option<T> {
        if got.is_none() {
            self.damaged.set(true);
        }
        got
    }

    /// Chunk `k` of `table` (whose slots start at `base`), read and checked
    /// on first use.
    fn part<T>(
        &self,
        cells: &Cells<'a, T>,
        table: &'a ArchivedVec<ArchivedSChunk>,
        base: usize,
        k: usize,
    ) -> Option<&'a T>
    where
        T: rkyv::Portable + for<'x> CheckBytes<HighValidator<'x, rkyv::rancor::Error>>,
    {
        let got = cells.get(k).and_then(|cell| {
            *cell.get_or_init(|| {
                let buf = self.slot(table, base, k)?;
                rkyv::access::<T, rkyv::rancor::Error>(buf.head_bytes()).ok()
            })
        });
        self.flag(got)
    }

    /// The bytes of chunk `k` of `table` (whose slots start at `base`),
    /// read on first use (`None` when they cannot be read or fail their
    /// checksum); of a chunk of nodes, the head part (the definitions part
    /// is read when first needed, see `lazy`).
    fn slot(
        &self,
        table: &'a ArchivedVec<ArchivedSChunk>,
        base: usize,
        k: usize,
    ) -> Option<&'a Arc<Chunk>> {
        let opened = self.opened;
        let slot = self.bufs.get(base + k)?;
        slot.get_or_init(|| {
            let c = table.get(k)?;
            let (head, defs) = if std::ptr::eq(table, &self.s.node_chunks) {
                opened.node_chunk(c)?
            } else {
                (opened.chunk(c)?, Bytes::from(&[][..]))
            };
            let chunk = Chunk::new(head, defs, c.late.to_native(), self.late.clone());
            Some(Arc::new(chunk))
        })
        .as_ref()
    }

    /// Chunk `k` of nodes, its head part read and checked (rkyv's
    /// validation and [`archive::head_sound`]) on first use, and its shared
    /// bytes.
    fn node_chunk(&self, k: usize) -> Option<(&'a ArchivedSHead, &'a Arc<Chunk>)> {
        let got = self
            .nodes
            .get(k)
            .and_then(|cell| *cell.get_or_init(|| self.slot(&self.s.node_chunks, 0, k)?.head()));
        let c = self.flag(got)?;
        Some((c, self.slot(&self.s.node_chunks, 0, k)?))
    }

    /// Node `i`'s head, and the text of its chunk's head part (its
    /// strings' places are in it).
    fn at(&self, i: usize) -> Option<(&'a ArchivedSHeadNode, &'a str)> {
        let (c, _) = self.node_chunk(i / NODES_PER_CHUNK)?;
        let n = self.flag(c.nodes.get(i % NODES_PER_CHUNK))?;
        Some((n, c.text.as_str()))
    }

    /// Node `i`'s definition as archived, and the text of its chunk's
    /// definitions part (checked in full on first use: the view damaged
    /// when it fails).
    fn def_at(&self, i: usize) -> Option<(&'a ArchivedSDef, &'a str)> {
        let (_, chunk) = self.node_chunk(i / NODES_PER_CHUNK)?;
        let d = self.flag(chunk.defs())?;
        let n = self.flag(d.defs.get(i % NODES_PER_CHUNK))?;
        Some((n, d.text.as_str()))
    }

    /// The string at place `r` of `text` (the view damaged when it does not
    /// lie there).
    fn text(&self, text: &'a str, r: &archive::ArchivedSStr) -> Option<&'a str> {
        self.flag(archive::at(text, r))
    }

    /// Edge `k`, and the text of its chunk (its strings' places are in
    /// it).
    fn edge_at(&self, k: usize) -> Option<(&'a ArchivedSEdge, &'a str)> {
        let base = self.s.node_chunks.len();
        let c = self.part(&self.edges, &self.s.edge_chunks, base, k / EDGES_PER_CHUNK)?;
        let e = self.flag(c.edges.get(k % EDGES_PER_CHUNK))?;
        Some((e, c.text.as_str()))
    }

    fn bucket(&self, id: &str) -> Option<&'a ArchivedSBucket> {
        let n = self.s.buckets.len();
        let base = self.s.node_chunks.len() + self.s.edge_chunks.len();
        self.flag((n > 0).then_some(()))?;
        self.part(&self.buckets, &self.s.buckets, base, bucket_of(id, n))
    }

    /// The digest's marks (the view damaged when they cannot be read).
    pub(super) fn marks(&self) -> Option<crate::store::fold::Marks> {
        let base = self.s.node_chunks.len() + self.s.edge_chunks.len() + self.s.buckets.len();
        let m = self.part(&self.marks, &self.s.marks, base, 0)?;
        type Row =
            rkyv::tuple::ArchivedTuple3<rkyv::rend::u64_le, rkyv::rend::u64_le, ArchivedVec<u8>>;
        let parts = |v: &ArchivedVec<Row>| {
            v.iter()
                .map(|t| (t.0.to_native(), t.1.to_native(), t.2.to_vec()))
                .collect::<Vec<_>>()
        };
        let got = crate::store::fold::Marks::from_parts(
            &parts(&m.edges),
            &parts(&m.nodes),
            m.end.to_native(),
        );
        self.flag(got)
    }

    /// The flag of the plan restored through this view.
    pub(super) fn late(&self) -> Late {
        self.late.clone()
    }

    pub(crate) fn plan_id(&self) -> &'a str {
        self.s.plan_id.as_str()
    }

    pub(crate) fn revision(&self) -> u64 {
        self.s.revision.to_native()
    }

    /// The key of the log prefix this snapshot folds (see `Stamp`).
    pub(crate) fn stamp(&self) -> super::Stamp {
        super::stamp_of(self.s)
    }

    /// The content's digest (computed when the snapshot was made).
    pub(crate) fn digest(&self) -> &'a str {
        self.s.digest.as_str()
    }

    /// The lifecycle and metadata, as the fold derived them; `None` for an
    /// archive no writer makes.
    pub(crate) fn meta(&self) -> Option<Meta> {
        archive::meta(&self.s.meta)
    }

    pub(crate) fn node_count(&self) -> usize {
        self.s.node_count.to_native() as usize
    }

    pub(crate) fn edge_count(&self) -> usize {
        self.s.edge_count.to_native() as usize
    }

    /// The node's id (empty, and the view damaged, when it cannot be read).
    pub(crate) fn node_id(&self, i: usize) -> &'a str {
        self.at(i)
            .and_then(|(n, t)| self.text(t, &n.id))
            .unwrap_or("")
    }

    /// The node's phase (none, and the view damaged, when it cannot be
    /// read).
    pub(crate) fn node_phase(&self, i: usize) -> Option<&'a str> {
        let (n, t) = self.at(i)?;
        self.text(t, n.phase.as_ref()?)
    }

    /// The node's kind (the first kind, and the view damaged, when it
    /// cannot be read).
    pub(crate) fn node_kind(&self, i: usize) -> NodeKind {
        let kind = self
            .at(i)
            .and_then(|(n, _)| NodeKind::ALL.get(n.kind as usize));
        self.flag(kind.copied()).unwrap_or(NodeKind::ALL[0])
    }

    /// A string field of the node's definition (`Node::str_field`).
    pub(crate) fn node_str_field(&self, i: usize, key: &str) -> Option<&'a str> {
        let (n, t) = self.def_at(i)?;
        let mut k = None;
        for (at, place) in n.keys.iter().enumerate() {
            if self.text(t, place)? == key {
                k = Some(at);
                break;
            }
        }
        match n.values.get(k?)? {
            ArchivedSValue::String(s) => self.text(t, s),
            _ => None,
        }
    }

    /// The node, as the model's; `None` (and the view damaged) when it
    /// cannot be read.
    pub(crate) fn node(&self, i: usize) -> Option<Node> {
        let (n, t) = self.at(i)?;
        let (d, dt) = self.def_at(i)?;
        self.flag(archive::node(n, t, d, dt))
    }

    /// Node `at` of a chunk of nodes (its head and slot) as the model's,
    /// its definition read from the chunk when first asked for (the
    /// chunk's definitions part is checked then: see `lazy`), or built now
    /// when `eager` (its part checked now); `None` (and the view damaged)
    /// when it cannot be read.
    fn stored_node(
        &self,
        (c, chunk): (&'a ArchivedSHead, &'a Arc<Chunk>),
        at: usize,
        eager: bool,
    ) -> Option<Node> {
        let n = self.flag(c.nodes.get(at))?;
        let t = c.text.as_str();
        Some(Node {
            id: self.text(t, &n.id)?.into(),
            phase: match n.phase.as_ref() {
                None => None,
                Some(p) => Some(self.text(t, p)?.into()),
            },
            kind: *self.flag(NodeKind::ALL.get(n.kind as usize))?,
            definition: if eager {
                self.flag(chunk.defs())?;
                Def::from(crate::model::def::Stored::build(&**chunk, at))
            } else {
                Def::stored(chunk.clone(), at)
            },
        })
    }

    /// A vector for every node, with room for a few a command adds (at the
    /// exact size, the first node added would copy every node into a new
    /// vector), and how many nodes it is to hold; `None` (the view
    /// damaged) when the count is more than the head's chunks can hold (a
    /// count is not trusted to size what is made).
    fn node_vec(&self) -> Option<(Vec<Node>, usize)> {
        let n = self.node_count();
        let room = self.s.node_chunks.len().saturating_mul(NODES_PER_CHUNK);
        if n > room {
            return self.flag(None);
        }
        Some((Vec::with_capacity(with_room(n)), n))
    }

    /// Chunk `k`'s nodes written into `slots` (one lookup of its slot, not
    /// one a node), their definitions read on demand or built now when
    /// `eager` ([`View::stored_node`]). Every slot is written: a node that
    /// cannot be read stands as an empty one and damages the view (the
    /// caller then makes nothing of them). Whether all were read.
    fn fill_nodes(&self, slots: &mut [MaybeUninit<Node>], k: usize, eager: bool) -> bool {
        let chunk = self.node_chunk(k);
        let mut whole = chunk.is_some();
        for (at, slot) in slots.iter_mut().enumerate() {
            let node = chunk.and_then(|c| self.stored_node(c, at, eager));
            whole &= node.is_some();
            slot.write(node.unwrap_or_else(empty_node));
        }
        whole
    }

    /// How many chunks of edges the count needs, to no more than the head
    /// lists (a count past them damages the view: it is not trusted to
    /// size what is made).
    fn edge_chunk_count(&self) -> usize {
        let (need, listed) = (
            self.edge_count().div_ceil(EDGES_PER_CHUNK),
            self.s.edge_chunks.len(),
        );
        if need > listed {
            self.damaged.set(true);
        }
        need.min(listed)
    }

    /// A vector for every edge, as [`View::node_vec`], and how many it is
    /// to hold: the count, to no more than the chunks the head lists.
    fn edge_vec(&self) -> (Vec<Edge>, usize) {
        let total = self
            .edge_count()
            .min(self.edge_chunk_count().saturating_mul(EDGES_PER_CHUNK));
        (Vec::with_capacity(with_room(total)), total)
    }

    /// Chunk `k`'s edges written into `slots` (one lookup of its slot, not
    /// one an edge); an edge or a chunk that cannot be read damages the
    /// view and stands as an empty edge, as in `edge`: every slot is
    /// written.
    fn fill_edges(&self, slots: &mut [MaybeUninit<Edge>], k: usize) {
        let base = self.s.node_chunks.len();
        let mut made = 0;
        if let Some(c) = self.part(&self.edges, &self.s.edge_chunks, base, k) {
            let text = c.text.as_str();
            for (slot, e) in slots.iter_mut().zip(c.edges.iter()) {
                slot.write(self.flag(archive::edge(e, text)).unwrap_or_else(empty_edge));
                made += 1;
            }
        }
        if made < slots.len() {
            self.damaged.set(true);
            for slot in &mut slots[made..] {
                slot.write(empty_edge());
            }
        }
    }

    /// Every node and every edge, as the model's; `None` (and the view
    /// damaged) when a node cannot be read (an edge that cannot be read
    /// damages the view). A large plan's are made on two threads, in
    /// chunks each claims from a list (a chunk claimed by one is made by
    /// it alone), so that both end together whatever each was given of
    /// the cores: the other thread makes edge chunks from the first on,
    /// then node chunks from the last back; this one node chunks from the
    /// first on, then edge chunks from the last back, until they meet.
    /// The edges are ≈ 40 % of the work at 100,000 nodes (1 edge a node):
    /// a fixed split with 45 % of the nodes on the other thread left this
    /// one waiting ≈ 10 ms for it (session 30), and the edges all on the
    /// other thread ≈ 3 ms (session 32). Each chunk is written where it
    /// lies in the two vectors, whichever thread makes it (session 33: the
    /// other thread's chunks were made in vectors of their own and moved
    /// in after, ≈ 5 MB of fresh memory and a copy on this thread), and
    /// the other thread's buffers are handed to this view (a new snapshot
    /// takes them over, see `Reuse`).
    ///
    /// With `eager`, every definition is built here too (for a command that
    /// reads them all: built on the two threads, and no chunk kept for
    /// them); else each when first read.
    pub(super) fn nodes_and_edges(&self, eager: bool) -> Option<(Vec<Node>, Vec<Edge>)> {
        let (mut nodes, n) = self.node_vec()?;
        let (mut edges, total) = self.edge_vec();
        let (node_room, edge_room) = (
            &mut nodes.spare_capacity_mut()[..n],
            &mut edges.spare_capacity_mut()[..total],
        );
        // Each vector's pages supplied at once, by the thread that starts
        // with its chunks (see `pages::populate`).
        let rooms = (Room::of(node_room), Room::of(edge_room));
        let node_parts = Parts::new(node_room, NODES_PER_CHUNK);
        let edge_parts = Parts::new(edge_room, EDGES_PER_CHUNK);
        let (s, opened, late) = (self.s, self.opened, self.late.clone());
        let other = || {
            rooms.1.populate();
            let bufs = slots(s);
            let v = View::new(s, opened, &bufs, late);
            while let Some((k, slots)) = edge_parts.take(false) {
                v.fill_edges(slots, k);
            }
            let mut whole = true;
            while let Some((k, slots)) = node_parts.take(true) {
                whole &= v.fill_nodes(slots, k, eager);
            }
            (whole && !v.damaged()).then_some(bufs)
        };
        // `None` when the other thread panicked: its slots may be half
        // written, so the vectors are left empty (what it made is leaked,
        // never read).
        let made = std::thread::scope(|scope| {
            let handle = (n >= PARALLEL_NODES).then(|| {
                std::thread::Builder::new()
                    .name("restore".into())
                    .spawn_scoped(scope, other)
            });
            // No thread to be had, or a small plan: all on this one.
            if !matches!(handle, Some(Ok(_))) {
                rooms.1.populate();
            }
            rooms.0.populate();
            let mut whole = true;
            while let Some((k, slots)) = node_parts.take(false) {
                whole &= self.fill_nodes(slots, k, eager);
            }
            while let Some((k, slots)) = edge_parts.take(true) {
                self.fill_edges(slots, k);
            }
            let Some(Ok(handle)) = handle else {
                return Some(whole);
            };
            let Some(bufs) = handle.join().ok()? else {
                return Some(false);
            };
            for (cell, mine) in bufs.into_iter().zip(self.bufs) {
                if let Some(buf) = cell.into_inner().flatten() {
                    let _ = mine.set(Some(buf));
                }
            }
            Some(whole)
        });
        drop((node_parts, edge_parts));
        let whole = self.flag(made)?;
        // SAFETY: the other thread, if any, ended without panicking, and
        // every part was taken and wholly written (`fill_nodes` and
        // `fill_edges` write every slot): the claims hand each out once,
        // and the loops on both threads run until none is left.
        unsafe {
            nodes.set_len(n);
            edges.set_len(total);
        }
        // A node that could not be read: fold the log.
        self.flag(whole.then_some(()))?;
        Some((nodes, edges))
    }

    /// An edge's id, source and target (empty, and the view damaged, when
    /// it cannot be read).
    pub(crate) fn edge_ends(&self, k: usize) -> (&'a str, &'a str, &'a str) {
        let ends = self
            .edge_at(k)
            .and_then(|(e, text)| archive::edge_ends(e, text));
        self.flag(ends).unwrap_or(("", "", ""))
    }

    /// The edge, as the model's (an empty one, and the view damaged, when
    /// it cannot be read).
    pub(crate) fn edge(&self, k: usize) -> Edge {
        let edge = self.edge_at(k).and_then(|(e, text)| archive::edge(e, text));
        self.flag(edge).unwrap_or_else(empty_edge)
    }

    /// The position of the node with `id`, from the id index.
    pub(crate) fn find(&self, id: &str) -> Option<usize> {
        let e = self.bucket(id)?.ids.iter().find(|e| e.id == id)?;
        let at = e.node.to_native();
        if at == NO_NODE {
            return None;
        }
        self.flag(((at as usize) < self.node_count()).then_some(at as usize))
    }

    /// The positions of the edges from or to `id`, in fold order.
    pub(crate) fn edges_touching(&self, id: &str) -> Vec<usize> {
        let Some(b) = self.bucket(id) else {
            return Vec::new();
        };
        let Some(e) = b.ids.iter().find(|e| e.id == id) else {
            return Vec::new();
        };
        let edges: Vec<usize> = e.edges.iter().map(|k| k.to_native() as usize).collect();
        if edges.iter().any(|&k| k >= self.edge_count()) {
            self.damaged.set(true);
        }
        edges
    }

    /// The position of the edge with `id`.
    pub(crate) fn edge_position(&self, id: &str) -> Option<usize> {
        let e = self.bucket(id)?.edges.iter().find(|e| e.id == id)?;
        let at = e.at.to_native() as usize;
        self.flag((at < self.edge_count()).then_some(at))
    }

    /// Whether a node has the phase `p` (not empty).
    pub(crate) fn has_phase(&self, p: &str) -> bool {
        self.s.phases.iter().any(|q| q.as_str() == p)
    }

    /// Whether a node has no phase (or an empty one).
    pub(crate) fn has_unphased(&self) -> bool {
        self.s.any_unphased
    }
}

impl Store {
    /// `answer` over the plan `id` read in place from its snapshot, when the
    /// snapshot is the fold of the whole log as it is now; `None` (read the
    /// log, as [`Store::load`] does) when there is no such snapshot, in a
    /// warm process (which keeps its own fold), for a plan an earlier
    /// planforge wrote, when `answer` gives `None`, or when a chunk it read
    /// was damaged (the snapshot is then removed). Never for a verdict.
    pub(crate) fn with_view<R>(
        &self,
        id: &str,
        answer: impl FnOnce(&View<'_>) -> Option<R>,
    ) -> Option<R> {
        if self.is_warm() {
            return None;
        }
        let dir = self.plan_dir(id).ok()?;
        refuse_symlink(&dir).ok()?;
        let (ops_path, meta_path) = (dir.join(OPS_FILE), dir.join(META_FILE));
        refuse_special(&ops_path).ok()?;
        refuse_special(&meta_path).ok()?;
        if meta_path.exists() {
            return None;
        }
        let opened = Opened::open(&dir)?;
        let s = head(&opened)?;
        let (_, _, tail) = keyed(&dir, s, id)?;
        if !tail.is_empty() {
            return None;
        }
        let bufs = slots(s);
        let late = Late::new();
        let view = View::new(s, &opened, &bufs, late.clone());
        let answer = answer(&view);
        if view.damaged() || late.is_set() {
            // Read from the log instead; the next load writes a sound one.
            opened.discard(&dir);
            return None;
        }
        answer
    }
}

/// The chunks of a vector's room not made yet, each handed to one of the
/// two threads that take them from either end: its number and its slots.
struct Parts<'v, T>(std::sync::Mutex<std::collections::VecDeque<Part<'v, T>>>);

/// A chunk's number and its slots.
type Part<'v, T> = (usize, &'v mut [MaybeUninit<T>]);

impl<'v, T> Parts<'v, T> {
    fn new(room: &'v mut [MaybeUninit<T>], per: usize) -> Parts<'v, T> {
        Parts(std::sync::Mutex::new(
            room.chunks_mut(per).enumerate().collect(),
        ))
    }

    fn take(&self, from_back: bool) -> Option<Part<'v, T>> {
        let mut left = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if from_back {
            left.pop_back()
        } else {
            left.pop_front()
        }
    }
}

/// What stands for a node that cannot be read (in a damaged view, whose
/// nodes are not used).
fn empty_node() -> Node {
    Node {
        id: String::new().into(),
        phase: None,
        kind: NodeKind::ALL[0],
        definition: crate::model::value::Map::new().into(),
    }
}

/// What stands for an edge that cannot be read (in a damaged view).
fn empty_edge() -> Edge {
    Edge {
        id: String::new().into(),
        from: String::new().into(),
        to: String::new().into(),
        handle: Handle::parse(""),
    }
}

/// `n` and room for the few items a command adds (see `node_vec`).
fn with_room(n: usize) -> usize {
    n + n / 64 + 16
}
