//! The digest of a fold, resumed from an earlier fold's (issue 17).
//!
//! The digest is the SHA-256 of the plan's canonical text (SPEC §1.5):
//! `{"bounds":…,"edges":[…],"nodes":[…],"planId":…,"revision":…}`, nodes
//! and edges in fold order. Its definition does not change here; what
//! changes is how much of the text is hashed again after a write. Hashing
//! it keeps [`Marks`]: the hasher's state (and the bytes hashed) every few
//! KiB, at the end of an edge or a node. A fold on top knows the first edge
//! and the first node position it may have changed ([`Changed`]); every
//! byte before them is the same, so the next digest starts from the last
//! mark before them and writes and hashes only what follows. An added node
//! (at the end of the nodes) costs its own text and the short tail; an
//! edge added costs every node's text after it, which the hash must see
//! again (SHA-256 is sequential).

use crate::model::{Content, Edge};
use crate::wire::jcs;
use sha2::{Digest, Sha256};
use std::sync::atomic::{AtomicBool, Ordering};

/// A mark is kept after at least this many bytes since the last one.
const MARK_EVERY: usize = 16 * 1024;
/// Bytes written are handed to the hasher in pieces of about this size.
const FLUSH_AT: usize = 8 * 1024;
/// Marks per shared block (a block copied when a digest changes it is
/// this many hasher states, ≈ 8 KiB). Three in tests, so that the tests'
/// plans span many blocks.
#[cfg(not(test))]
const MARK_BLOCK: usize = 64;
#[cfg(test)]
const MARK_BLOCK: usize = 3;

/// The hasher's state at the end of an edge or a node, every
/// [`MARK_EVERY`] bytes or so.
#[derive(Clone)]
pub(crate) struct Marks {
    /// After the head and the first `count` edges; the first is at 0.
    edges: Blocks<Mark, MARK_BLOCK>,
    /// After the edges, the text between and the first `count` nodes; the
    /// first is at 0.
    nodes: Blocks<Mark, MARK_BLOCK>,
    /// Bytes before the tail (after the last node).
    end: usize,
    /// Each node's canonical text: after a change of the edges only, the
    /// nodes are hashed again but not written again (shared, not copied,
    /// by the next marks). `None`: not written yet (marks restored from a
    /// snapshot keep no texts; a text is written when it is needed).
    node_texts: Blocks<Option<std::sync::Arc<str>>, 1024>,
}

/// A list kept in blocks of `B` items, each shared between the
/// marks of successive digests until one of its items changes: the marks
/// of a digest after an added node copy the last block and the blocks'
/// handles, not every item (the node texts: a handle per node; the marks:
/// a hasher state every 16 KiB, ≈ 4,400 of them at 100,000 nodes), and
/// letting go of the earlier marks is no pass over every item either.
#[derive(Clone)]
struct Blocks<T, const B: usize> {
    blocks: Vec<std::sync::Arc<Vec<T>>>,
    len: usize,
}

impl<T, const B: usize> Default for Blocks<T, B> {
    fn default() -> Blocks<T, B> {
        Blocks {
            blocks: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Clone, const B: usize> Blocks<T, B> {
    const BLOCK: usize = B;

    fn len(&self) -> usize {
        self.len
    }

    fn get(&self, i: usize) -> &T {
        &self.blocks[i / Self::BLOCK][i % Self::BLOCK]
    }

    fn first(&self) -> Option<&T> {
        self.blocks.first().and_then(|b| b.first())
    }

    fn last(&self) -> Option<&T> {
        self.blocks.last().and_then(|b| b.last())
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.blocks.iter().flat_map(|b| b.iter())
    }

    fn set(&mut self, i: usize, item: T) {
        std::sync::Arc::make_mut(&mut self.blocks[i / Self::BLOCK])[i % Self::BLOCK] = item;
    }

    /// One more item at the end (the last block copied first when it is
    /// shared).
    fn push(&mut self, item: T) {
        if self.len.is_multiple_of(Self::BLOCK) {
            self.blocks
                .push(std::sync::Arc::new(Vec::with_capacity(Self::BLOCK)));
        }
        let last = self.blocks.last_mut().expect("a block with room");
        std::sync::Arc::make_mut(last).push(item);
        self.len += 1;
    }

    /// The first `n` items (sharing the whole blocks).
    fn prefix(&self, n: usize) -> Blocks<T, B> {
        let n = n.min(self.len);
        let mut blocks = self.blocks[..n.div_ceil(Self::BLOCK)].to_vec();
        let whole = blocks.len().saturating_sub(1) * Self::BLOCK;
        if let Some(last) = blocks.last_mut() {
            let keep = n - whole;
            if last.len() > keep {
                std::sync::Arc::make_mut(last).truncate(keep);
            }
        }
        Blocks { blocks, len: n }
    }

    /// The number of items from the start for which `pred` holds (it must
    /// hold for a prefix only), as [`slice::partition_point`].
    fn partition_point(&self, pred: impl Fn(&T) -> bool) -> usize {
        let whole = self.blocks.partition_point(|b| b.last().is_some_and(&pred));
        match self.blocks.get(whole) {
            Some(b) => whole * Self::BLOCK + b.partition_point(&pred),
            None => self.len,
        }
    }
}

/// A mark as plain data (for the snapshot): items before it, bytes hashed
/// before it, and the hasher's serialized state.
pub(crate) type MarkParts = (u64, u64, Vec<u8>);

impl Marks {
    /// The marks as plain data: after the edges, after the nodes, and the
    /// bytes before the tail. The node texts are not part of it.
    pub(crate) fn to_parts(&self) -> (Vec<MarkParts>, Vec<MarkParts>, u64) {
        use sha2::digest::common::hazmat::SerializableState;
        let parts = |marks: &Blocks<Mark, MARK_BLOCK>| {
            marks
                .iter()
                .map(|m| (m.count as u64, m.len as u64, m.state.serialize().to_vec()))
                .collect()
        };
        (parts(&self.edges), parts(&self.nodes), self.end as u64)
    }

    /// Marks from [`Marks::to_parts`]' data, without node texts; `None`
    /// for data no writer makes (a state that does not deserialize, marks
    /// out of order, none at the start).
    pub(crate) fn from_parts(edges: &[MarkParts], nodes: &[MarkParts], end: u64) -> Option<Marks> {
        use sha2::digest::common::hazmat::{SerializableState, SerializedState};
        let marks = |parts: &[MarkParts]| -> Option<Blocks<Mark, MARK_BLOCK>> {
            let mut out: Blocks<Mark, MARK_BLOCK> = Blocks::default();
            for (count, len, state) in parts {
                let state = SerializedState::<Sha256>::try_from(state.as_slice()).ok()?;
                let m = Mark {
                    count: usize::try_from(*count).ok()?,
                    len: usize::try_from(*len).ok()?,
                    state: Sha256::deserialize(&state).ok()?,
                };
                if out
                    .last()
                    .is_some_and(|p| p.count >= m.count || p.len > m.len)
                {
                    return None;
                }
                out.push(m);
            }
            out.first().filter(|m| m.count == 0)?;
            Some(out)
        };
        Some(Marks {
            edges: marks(edges)?,
            nodes: marks(nodes)?,
            end: usize::try_from(end).ok()?,
            node_texts: Blocks::default(),
        })
    }
}

impl std::fmt::Debug for Marks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Marks")
            .field("edges", &self.edges.len())
            .field("nodes", &self.nodes.len())
            .finish()
    }
}

#[derive(Clone)]
struct Mark {
    /// Edges (or nodes) written before it.
    count: usize,
    /// Bytes hashed before it.
    len: usize,
    state: Sha256,
}

/// Where a content may differ from the one an earlier digest hashed: the
/// first edge and the first node position whose text may have changed
/// (`usize::MAX`: none), and whether the bounds did (the text's start).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Changed {
    pub(crate) edge: usize,
    pub(crate) node: usize,
    pub(crate) head: bool,
}

impl Changed {
    pub(crate) const NONE: Changed = Changed {
        edge: usize::MAX,
        node: usize::MAX,
        head: false,
    };

    /// What changed over both changes, one after the other.
    #[must_use]
    pub(crate) fn then(self, later: Changed) -> Changed {
        Changed {
            edge: self.edge.min(later.edge),
            node: self.node.min(later.node),
            head: self.head || later.head,
        }
    }
}

impl Default for Changed {
    fn default() -> Changed {
        Changed::NONE
    }
}

/// Writes pieces of the canonical text to the hasher, keeping marks.
struct Writer<'s> {
    /// Set when the digest is no longer wanted (see [`digest_unless`]):
    /// looked at before each edge and node.
    stop: Option<&'s AtomicBool>,
    hasher: Sha256,
    buf: String,
    /// Bytes hashed or buffered.
    len: usize,
    /// `len` at the last mark.
    marked: usize,
}

impl Writer<'_> {
    /// Whether the digest is no longer wanted.
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    fn flush(&mut self) {
        self.hasher.update(self.buf.as_bytes());
        self.buf.clear();
    }

    /// After `piece` was pushed to `buf`.
    fn wrote(&mut self, before: usize) {
        self.len += self.buf.len() - before;
        if self.buf.len() >= FLUSH_AT {
            self.flush();
        }
    }

    /// A mark after `count` items, when enough was written since the last.
    fn mark(&mut self, count: usize, marks: &mut Blocks<Mark, MARK_BLOCK>, force: bool) {
        if force || self.len - self.marked >= MARK_EVERY {
            self.flush();
            self.marked = self.len;
            marks.push(Mark {
                count,
                len: self.len,
                state: self.hasher.clone(),
            });
        }
    }

    fn items<T>(
        &mut self,
        items: &[T],
        from: usize,
        marks: &mut Blocks<Mark, MARK_BLOCK>,
        write: fn(&mut String, &T),
    ) {
        for (i, item) in items.iter().enumerate().skip(from) {
            if self.stopped() {
                return;
            }
            let before = self.buf.len();
            if i > 0 {
                self.buf.push(',');
            }
            write(&mut self.buf, item);
            self.wrote(before);
            self.mark(i + 1, marks, false);
        }
    }
}

/// The digest of `c` (lowercase hex) and the length of the text hashed,
/// with the marks to resume from next time. With `from` (the marks of an
/// earlier digest and what changed since), the text before the first
/// change is not written or hashed again.
#[cfg(test)]
pub(crate) fn digest(c: &Content, from: Option<(&Marks, Changed)>) -> ((String, usize), Marks) {
    let kept = digest_keeping(c, from, None, true).expect("a digest nobody stops is finished");
    let unkept = digest_keeping(c, from, None, false).expect("a digest nobody stops is finished");
    assert_eq!(kept.0, unkept.0, "the same digest, node texts kept or not");
    kept
}

/// Whether a digest keeps each node's canonical text in its marks for the
/// next one (see [`keep_node_texts`]).
static KEEP_TEXTS: AtomicBool = AtomicBool::new(true);

/// Says whether digests keep each node's canonical text in their marks. A
/// long-lived session does: its next digest, after a change, hashes the
/// texts again without writing them. A process that exits after one
/// command digests its plan once or twice, and the texts were tens of MB
/// of fresh memory at 100,000 nodes (a third of what an import touched)
/// for nothing; it writes each text, hashes it and drops it.
pub(crate) fn keep_node_texts(yes: bool) {
    KEEP_TEXTS.store(yes, Ordering::Relaxed);
}

/// As [`digest`], given up (`None`) as soon as `stop` is set: a digest
/// computed ahead on another thread that a write no longer wants.
pub(crate) fn digest_unless(
    c: &Content,
    from: Option<(&Marks, Changed)>,
    stop: Option<&AtomicBool>,
) -> Option<((String, usize), Marks)> {
    digest_keeping(c, from, stop, KEEP_TEXTS.load(Ordering::Relaxed))
}

/// As [`digest_unless`]; `keep`: the marks keep each node's text.
fn digest_keeping(
    c: &Content,
    from: Option<(&Marks, Changed)>,
    stop: Option<&AtomicBool>,
    keep: bool,
) -> Option<((String, usize), Marks)> {
    let mut marks = Marks {
        edges: Blocks::default(),
        nodes: Blocks::default(),
        end: 0,
        node_texts: Blocks::default(),
    };
    // Node texts that are still the content's: those before the first
    // changed node.
    let reuse = match from {
        Some((m, ch)) if !ch.head => {
            let keep = ch.node.min(m.node_texts.len()).min(c.nodes.len());
            Some((m, keep))
        }
        _ => None,
    };
    let mut w = Writer {
        stop,
        hasher: Sha256::new(),
        buf: String::with_capacity(FLUSH_AT + 4096),
        len: 0,
        marked: 0,
    };
    // Where to start: (edges to skip, nodes to skip); `None` for nodes
    // means the edges are written again, so every node is too.
    let start = from.filter(|(_, ch)| !ch.head).and_then(|(m, ch)| {
        if ch.edge == usize::MAX {
            let at = last_before(&m.nodes, ch.node.min(c.nodes.len()))?;
            marks.edges = m.edges.clone();
            marks.nodes = m.nodes.prefix(at + 1);
            Some((c.edges.len(), Some(m.nodes.get(at).clone())))
        } else {
            let at = last_before(&m.edges, ch.edge.min(c.edges.len()))?;
            marks.edges = m.edges.prefix(at + 1);
            Some((m.edges.get(at).count, None))
        }
    });
    let edges_from = match &start {
        Some((_, Some(_))) => None,
        Some((skip, None)) => {
            let m = marks.edges.last().expect("resumed at a mark");
            (w.hasher, w.len) = (m.state.clone(), m.len);
            w.marked = w.len;
            Some(*skip)
        }
        None => {
            jcs::head(&mut w.buf, &c.bounds);
            w.wrote(0);
            w.mark(0, &mut marks.edges, true);
            Some(0)
        }
    };
    let nodes_from = match (edges_from, start) {
        (Some(skip), _) => {
            w.items(&c.edges, skip, &mut marks.edges, edge_text);
            let before = w.buf.len();
            w.buf.push_str(jcs::BETWEEN);
            w.wrote(before);
            w.mark(0, &mut marks.nodes, true);
            0
        }
        (None, Some((_, Some(m)))) => {
            (w.hasher, w.len) = (m.state, m.len);
            w.marked = w.len;
            m.count
        }
        (None, _) => unreachable!("nodes resume only from a node mark"),
    };
    nodes_into(&mut w, c, nodes_from, reuse, &mut marks, keep);
    if w.stopped() {
        return None;
    }
    marks.end = w.len;
    let before = w.buf.len();
    jcs::tail(&mut w.buf, &c.plan_id, c.provenance.as_ref(), c.revision);
    w.wrote(before);
    w.flush();
    let hex = crate::model::hash::hex(&w.hasher.finalize());
    Some(((hex, w.len), marks))
}

/// The length of `c`'s canonical text (what [`digest`] would give with
/// it), from the marks of an earlier digest and what changed since: only
/// the edges and nodes after the first change are measured (no text is
/// written and nothing is hashed). `None` when the start changed.
pub(crate) fn encoded_len(c: &Content, (m, ch): (&Marks, Changed)) -> Option<usize> {
    if ch.head {
        return None;
    }
    let nodes_start = m.nodes.first()?.len;
    let edges_end = if ch.edge == usize::MAX {
        nodes_start - jcs::BETWEEN.len()
    } else {
        let at = m
            .edges
            .get(last_before(&m.edges, ch.edge.min(c.edges.len()))?);
        at.len + measured(&c.edges, at.count, jcs::edge_len)
    };
    let nodes = if ch.node == usize::MAX {
        m.end - nodes_start
    } else {
        let at = m
            .nodes
            .get(last_before(&m.nodes, ch.node.min(c.nodes.len()))?);
        at.len - nodes_start + measured(&c.nodes, at.count, jcs::node_len)
    };
    let mut tail = String::new();
    jcs::tail(&mut tail, &c.plan_id, c.provenance.as_ref(), c.revision);
    Some(edges_end + jcs::BETWEEN.len() + nodes + tail.len())
}

/// The length of the items from `from` on, with the commas before them.
fn measured<T>(items: &[T], from: usize, len: fn(&T) -> usize) -> usize {
    items
        .iter()
        .enumerate()
        .skip(from)
        .map(|(i, x)| usize::from(i > 0) + len(x))
        .sum()
}

/// Hashes the nodes from `from` on, keeping their texts and marks: a node
/// before `reuse`'s count is copied from the earlier texts, any other is
/// written.
fn nodes_into(
    w: &mut Writer,
    c: &Content,
    from: usize,
    reuse: Option<(&Marks, usize)>,
    marks: &mut Marks,
    keep_texts: bool,
) {
    let (old, keep) = reuse.map_or((None, 0), |(m, k)| (Some(m), k));
    if let Some(m) = old {
        let upto = keep.max(from).min(m.node_texts.len());
        marks.node_texts = m.node_texts.prefix(upto);
    }
    // Texts before `from` that no earlier digest kept (restored marks):
    // written when a later digest needs them.
    while marks.node_texts.len() < from {
        marks.node_texts.push(None);
    }
    w.flush();
    let mut text = String::new();
    for i in from..c.nodes.len() {
        if w.stopped() {
            return;
        }
        if i >= marks.node_texts.len() {
            marks.node_texts.push(None);
        }
        let kept = marks.node_texts.get(i).clone();
        if kept.is_none() {
            text.clear();
            jcs::node(&mut text, &c.nodes[i]);
            if keep_texts {
                marks
                    .node_texts
                    .set(i, Some(std::sync::Arc::from(text.as_str())));
            }
        }
        if i > 0 {
            w.hasher.update(b",");
            w.len += 1;
        }
        let piece = kept.as_deref().unwrap_or(text.as_str()).as_bytes();
        w.hasher.update(piece);
        w.len += piece.len();
        w.mark(i + 1, &mut marks.nodes, false);
    }
}

fn edge_text(out: &mut String, e: &Edge) {
    jcs::edge(out, e)
}

/// The last mark at or before `count` items.
fn last_before(marks: &Blocks<Mark, MARK_BLOCK>, count: usize) -> Option<usize> {
    let after = marks.partition_point(|m| m.count <= count);
    after.checked_sub(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Edge, Handle, Map, Node, NodeKind, Value};

    fn node(i: usize, text: &str) -> Node {
        let mut definition = Map::new();
        definition.insert(
            "prompt".into(),
            Value::String(text.repeat(1 + i % 7).into()),
        );
        Node {
            id: format!("n{i}").into(),
            phase: i.is_multiple_of(3).then(|| format!("p{}", i % 5).into()),
            kind: NodeKind::Reason,
            definition: definition.into(),
        }
    }

    fn edge(i: usize) -> Edge {
        Edge {
            id: format!("e{i}").into(),
            from: format!("n{i}").into(),
            to: format!("n{}", i + 1).into(),
            handle: Handle::Always,
        }
    }

    fn plan(nodes: usize) -> Content {
        let mut c = Content::empty("plan-digest");
        c.nodes = (0..nodes).map(|i| node(i, "some words, ")).collect();
        c.edges = (0..nodes.saturating_sub(1)).map(edge).collect();
        c.revision = nodes as u64;
        c
    }

    /// Blocks read, cut and grow as the list they stand for, and a prefix
    /// shares its whole blocks with the list it was cut from.
    #[test]
    fn blocks_are_the_list_they_hold() {
        for n in 0..11 {
            let list: Vec<usize> = (0..n).map(|i| i * 2).collect();
            let mut b: Blocks<usize, 3> = Blocks::default();
            list.iter().for_each(|&x| b.push(x));
            assert_eq!(b.len(), n);
            assert!(b.iter().copied().eq(list.iter().copied()));
            assert_eq!((b.first(), b.last()), (list.first(), list.last()));
            for k in 0..2 * n + 2 {
                assert_eq!(
                    b.partition_point(|&x| x <= k),
                    list.partition_point(|&x| x <= k)
                );
            }
            for cut in 0..=n {
                let mut p = b.prefix(cut);
                assert!(
                    p.iter().copied().eq(list[..cut].iter().copied()),
                    "{n} {cut}"
                );
                if cut >= 3 {
                    assert!(std::sync::Arc::ptr_eq(&p.blocks[0], &b.blocks[0]), "shared");
                }
                p.push(99);
                if cut > 0 {
                    p.set(cut - 1, 77);
                }
                assert!(
                    b.iter().copied().eq(list.iter().copied()),
                    "the original unchanged"
                );
                assert_eq!(*p.get(cut), 99);
            }
        }
    }

    /// Marks made without the nodes' texts (a one-shot process's) resume
    /// as well as marks with them, keeping texts or not.
    #[test]
    fn marks_without_node_texts_resume_to_the_digest() {
        let base = plan(1200);
        let (first, marks) = digest_keeping(&base, None, None, false).unwrap();
        assert_eq!(first, jcs::digest(&base));
        assert!(marks.node_texts.iter().all(Option::is_none));
        for (at, edge_change) in [
            (0, false),
            (600, false),
            (1199, false),
            (0, true),
            (700, true),
        ] {
            let mut c = base.clone();
            let changed = if edge_change {
                c.edges.remove(at);
                Changed {
                    edge: at,
                    ..Changed::NONE
                }
            } else {
                c.nodes[at].definition.insert("y".into(), Value::Null);
                Changed {
                    node: at,
                    ..Changed::NONE
                }
            };
            for keep in [false, true] {
                let (d, _) = digest_keeping(&c, Some((&marks, changed)), None, keep).unwrap();
                assert_eq!(
                    d,
                    jcs::digest(&c),
                    "at {at}, edge {edge_change}, keep {keep}"
                );
            }
        }
    }

    /// Resumed from the marks of an earlier content, after every kind of
    /// change at every place (start, middle, end of the edges and of the
    /// nodes, the bounds), the digest is the one computed from nothing.
    #[test]
    fn a_resumed_digest_is_the_digest() {
        let base = plan(1200);
        let (first, marks) = digest(&base, None);
        assert_eq!(first, jcs::digest(&base));
        assert!(marks.nodes.len() > 4 && marks.edges.len() > 2, "{marks:?}");
        type Edit = fn(&mut Content, usize) -> Changed;
        let edits: [Edit; 7] = [
            |c, at| {
                c.nodes[at].definition.insert("x".into(), Value::Bool(true));
                Changed {
                    node: at,
                    ..Changed::NONE
                }
            },
            |c, _| {
                c.nodes.push(node(9999, "new"));
                Changed {
                    node: c.nodes.len() - 1,
                    ..Changed::NONE
                }
            },
            |c, at| {
                c.nodes.remove(at);
                Changed {
                    node: at,
                    ..Changed::NONE
                }
            },
            |c, _| {
                c.edges.push(edge(4242));
                Changed {
                    edge: c.edges.len() - 1,
                    ..Changed::NONE
                }
            },
            |c, at| {
                let at = at.min(c.edges.len() - 1);
                c.edges.remove(at);
                Changed {
                    edge: at,
                    ..Changed::NONE
                }
            },
            |c, _| {
                c.bounds.max_nodes += 1;
                Changed {
                    head: true,
                    ..Changed::NONE
                }
            },
            |c, _| {
                c.revision += 1;
                Changed::NONE
            },
        ];
        for (k, edit) in edits.iter().enumerate() {
            for at in [0, 1, 17, 300, 700, 1198, 1199] {
                let mut c = base.clone();
                let changed = edit(&mut c, at);
                let (resumed, again) = digest(&c, Some((&marks, changed)));
                assert_eq!(resumed, jcs::digest(&c), "edit {k} at {at}");
                if !changed.head {
                    assert_eq!(
                        encoded_len(&c, (&marks, changed)),
                        Some(resumed.1),
                        "edit {k} at {at}"
                    );
                }
                // And once more on top of the resumed marks.
                c.nodes.push(node(7777, "more"));
                let changed = Changed {
                    node: c.nodes.len() - 1,
                    ..Changed::NONE
                };
                let (twice, _) = digest(&c, Some((&again, changed)));
                assert_eq!(twice, jcs::digest(&c), "edit {k} at {at}, then an add");
            }
        }
        // A change wrongly said to be later than it is shows: the marks are
        // trusted, so `Changed` must be right.
        let mut c = base.clone();
        c.nodes[3].id = "moved".into();
        let (wrong, _) = digest(
            &c,
            Some((
                &marks,
                Changed {
                    node: 1000,
                    ..Changed::NONE
                },
            )),
        );
        assert_ne!(wrong, jcs::digest(&c));
        let empty = Content::empty("plan-e");
        assert_eq!(digest(&empty, None).0, jcs::digest(&empty));
        let (_, m) = digest(&empty, None);
        let one = plan(1);
        let ch = Changed {
            node: 0,
            ..Changed::NONE
        };
        let mut one_rev = one.clone();
        one_rev.revision = 0;
        assert_eq!(digest(&one_rev, Some((&m, ch))).0, jcs::digest(&one_rev));
    }
}
