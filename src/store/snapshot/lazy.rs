//! A chunk of the snapshot as read (its checksum held), shared between
//! the view that read it, the nodes restored from it and the next
//! snapshot, which copies a chunk of nodes still as read instead of
//! archiving its nodes again (issue 17, definitions on demand).
//!
//! A chunk of nodes is two parts (see `archive`). Its head part (ids,
//! phases, kinds, calls' tools) is checked before anything of it is used:
//! its checksum, rkyv's validation, [`archive::head_sound`]. Its
//! definitions part is checked — its checksum, rkyv's validation, then
//! [`archive::defs_sound`] (every place, tag and key a writer makes;
//! nothing is built) — only when a definition of the chunk is first read:
//! a write that reads a few definitions pays for their chunks alone. The
//! nodes restored from it carry their definitions as
//! [`Def::stored`](crate::model::Def::stored) handles on the chunk, built
//! from bytes that passed those checks.
//!
//! A definitions part that fails them (late damage: the load already said
//! the snapshot was sound) gives empty definitions and sets the flag of
//! the plan the chunk was restored into ([`Late`]): what was made from that
//! plan is then made again from the log (see `store::late`).

use super::archive::{self, ArchivedSDefs, ArchivedSHead};
use super::chunks::{Bytes, checksum};
use crate::model::def::Stored;
use crate::model::{Map, Value};
use crate::store::late::Late;
use std::sync::{LazyLock, OnceLock};

/// A chunk's bytes as read, and — for a chunk of nodes — whether each part
/// passed its checks and the definitions built so far.
pub(crate) struct Chunk {
    /// The head part (the whole chunk, for a chunk of anything else than
    /// nodes). Never changed after [`Chunk::new`] (nothing here hands out
    /// `&mut`).
    head_bytes: Bytes,
    /// The definitions part (unchecked until first read).
    defs_bytes: Bytes,
    /// The definitions part's checksum as the snapshot's table gives it.
    late_sum: u64,
    /// The flag of the plan restored from this chunk.
    late: Late,
    /// Set once, by [`Chunk::head`]: whether the head part is sound.
    head: OnceLock<bool>,
    /// Set once, by [`Chunk::defs`]: whether the definitions part is.
    defs_ok: OnceLock<bool>,
    /// One cell per node, made on the first definition read.
    defs: OnceLock<Box<[OnceLock<Map>]>>,
    /// Per node, one cell per key of its definition, made on the first
    /// field read alone ([`Stored::field`]).
    fields: OnceLock<Box<[OnceLock<Fields>]>>,
}

/// One node's fields built alone, by the position of their key.
type Fields = Box<[OnceLock<Value>]>;

impl Chunk {
    /// A chunk whose head part (or whole bytes) is `head` and whose
    /// definitions part, with the checksum `late_sum`, is `defs` (empty for
    /// a chunk of one part); `late` is the flag of the plan it is restored
    /// into.
    pub(super) fn new(head: Bytes, defs: Bytes, late_sum: u64, late: Late) -> Chunk {
        Chunk {
            head_bytes: head,
            defs_bytes: defs,
            late_sum,
            late,
            head: OnceLock::new(),
            defs_ok: OnceLock::new(),
            defs: OnceLock::new(),
            fields: OnceLock::new(),
        }
    }

    /// The head part's bytes (a chunk of anything else than nodes: all of
    /// them), as read.
    pub(super) fn head_bytes(&self) -> &[u8] {
        &self.head_bytes
    }

    /// The definitions part's bytes (unchecked).
    fn defs_bytes(&self) -> &[u8] {
        &self.defs_bytes
    }

    /// The chunk as a new snapshot takes it over: both parts' bytes and
    /// the definitions part's checksum as written (a part never checked
    /// keeps it: damage in it is still found when it is read).
    pub(super) fn pieces(&self) -> Option<super::chunks::Pieces<'_>> {
        Some((self.head_bytes(), self.defs_bytes(), Some(self.late_sum)))
    }

    /// The chunk's head part as nodes' heads, when it passes rkyv's
    /// validation and [`archive::head_sound`] (checked on the first call,
    /// remembered after; its checksum was checked when it was read).
    pub(super) fn head(&self) -> Option<&ArchivedSHead> {
        let sound = *self.head.get_or_init(|| {
            rkyv::access::<ArchivedSHead, rkyv::rancor::Error>(self.head_bytes())
                .is_ok_and(archive::head_sound)
        });
        if !sound {
            return None;
        }
        // SAFETY: these bytes passed `rkyv::access::<ArchivedSHead>` (the
        // validation `access_unchecked` skips) in this process, just above
        // or in an earlier call (`head` is set only from that result), and
        // they have not changed since: the fields are private and nothing
        // mutates them after `new`, and bytes mapped from a snapshot file
        // are never written (planforge replaces a snapshot by renaming a
        // new file over it, never in place). Same bytes, same type, same
        // alignment.
        Some(unsafe { rkyv::access_unchecked::<ArchivedSHead>(self.head_bytes()) })
    }

    /// The chunk's definitions part, when it passes its checksum, rkyv's
    /// validation and [`archive::defs_sound`] for as many nodes as the head
    /// part holds (checked on the first call, remembered after); when it
    /// does not, the plan's flag is set (late damage).
    pub(super) fn defs(&self) -> Option<&ArchivedSDefs> {
        let sound = *self.defs_ok.get_or_init(|| {
            let ok = self.head().is_some_and(|h| {
                let bytes = self.defs_bytes();
                checksum(bytes) == self.late_sum
                    && rkyv::access::<ArchivedSDefs, rkyv::rancor::Error>(bytes)
                        .is_ok_and(|d| archive::defs_sound(d, h.nodes.len()))
            });
            if !ok {
                self.late.set();
            }
            ok
        });
        if !sound {
            return None;
        }
        let bytes = self.defs_bytes();
        // SAFETY: as in `head`: these bytes passed
        // `rkyv::access::<ArchivedSDefs>` in this process (`defs_ok` is set
        // true only from that result) and have not changed since (never
        // handed out as `&mut`; a mapped file is never written in place).
        Some(unsafe { rkyv::access_unchecked::<ArchivedSDefs>(bytes) })
    }

    /// Whether the definitions part was read and found damaged.
    pub(super) fn found_damaged(&self) -> bool {
        self.defs_ok.get() == Some(&false)
    }

    /// The `tool` the head keeps for node `at` (`None` when it has none),
    /// or `None` when the head part is not sound or holds no such node.
    pub(super) fn tool(&self, at: usize) -> Option<Option<&str>> {
        let h = self.head()?;
        let n = h.nodes.get(at)?;
        match n.tool.as_ref() {
            None => Some(None),
            Some(t) => archive::at(h.text.as_str(), t).map(Some),
        }
    }

    /// How many nodes the head part holds (none when it is not sound).
    fn len(&self) -> usize {
        self.head().map_or(0, |h| h.nodes.len())
    }
}

/// An empty definition, for a position a chunk does not hold (never asked
/// for: the store hands out only positions it holds), or one whose part is
/// damaged (the plan's flag is then set: what is made of it is made again).
static EMPTY: LazyLock<Map> = LazyLock::new(Map::new);

impl Stored for Chunk {
    fn damaged(&self) -> bool {
        self.late.is_set()
    }

    fn definition(&self, at: usize) -> &Map {
        let defs = self
            .defs
            .get_or_init(|| (0..self.len()).map(|_| OnceLock::new()).collect());
        match defs.get(at) {
            Some(cell) if self.defs().is_some() => cell.get_or_init(|| self.build(at)),
            _ => &EMPTY,
        }
    }

    fn build(&self, at: usize) -> Map {
        match self.defs() {
            Some(c) => archive::definition(c, at),
            None => Map::new(),
        }
    }

    /// The map's value when the whole definition is built; else the value
    /// alone, found by its key in the archive (the walk excluded repeated
    /// keys: the one key with that text is the map's) and built once.
    fn field(&self, at: usize, key: &str) -> Option<&Value> {
        if let Some(m) = self.defs.get().and_then(|d| d.get(at)?.get()) {
            return m.get(key);
        }
        let c = self.defs()?;
        let n = c.defs.get(at)?;
        let text = c.text.as_str();
        let j = n
            .keys
            .iter()
            .position(|k| archive::at(text, k) == Some(key))?;
        let nodes = self
            .fields
            .get_or_init(|| (0..c.defs.len()).map(|_| OnceLock::new()).collect());
        let cells = nodes
            .get(at)?
            .get_or_init(|| (0..n.keys.len()).map(|_| OnceLock::new()).collect());
        let cell = cells.get(j)?;
        if cell.get().is_none() && cells.iter().any(|c| c.get().is_some()) {
            // A second field of this node: whoever reads two reads more
            // (a full check, a rendering), so the whole definition is built
            // once rather than every field a second time beside it.
            return self.definition(at).get(key);
        }
        Some(cell.get_or_init(|| archive::value(n.values.get(j), text)))
    }

    fn tool(&self, at: usize) -> Option<Option<&str>> {
        Chunk::tool(self, at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::def::Def;
    use crate::model::{Node, NodeKind, Value};
    use crate::store::snapshot::chunks::align;
    use std::sync::Arc;

    fn node(i: usize) -> Node {
        let def: Map = [
            ("prompt".to_string(), Value::from(format!("step {i} é"))),
            ("n".to_string(), Value::from(i as u64)),
        ]
        .into_iter()
        .collect();
        Node {
            id: format!("n{i}").into(),
            phase: i.is_multiple_of(2).then(|| "p".into()),
            kind: NodeKind::Reason,
            definition: def.into(),
        }
    }

    /// The chunk whose bytes (as a snapshot lays them out) are `bytes`,
    /// its head part `split` bytes long, its definitions part read.
    fn made(bytes: &[u8], split: usize, sum: u64, late: &Late) -> Chunk {
        let defs = Bytes::from(&bytes[align(split as u64) as usize..]);
        Chunk::new(Bytes::from(&bytes[..split]), defs, sum, late.clone())
    }

    /// A chunk of `nodes`, as a snapshot holds it, restored into a plan
    /// whose flag is `late`.
    fn chunk_of(nodes: &[Node], late: &Late) -> Chunk {
        let (bytes, split) = archive::nodes_to(nodes).unwrap();
        let sum = checksum(&bytes[align(split as u64) as usize..]);
        made(&bytes, split, sum, late)
    }

    /// The unchecked access reads what the checked one does: every
    /// definition built from a shared chunk equals the node's own; bytes
    /// that are not a sound chunk of nodes give none (and no definition).
    #[test]
    fn a_chunk_read_unchecked_after_its_check_is_the_checked_one() {
        let nodes: Vec<Node> = (0..40).map(node).collect();
        let late = Late::new();
        let (bytes, split) = archive::nodes_to(&nodes).unwrap();
        let checked = rkyv::access::<ArchivedSHead, rkyv::rancor::Error>(&bytes[..split]).unwrap();
        let chunk = Arc::new(chunk_of(&nodes, &late));
        let c = chunk.head().expect("sound");
        assert_eq!(c.nodes.len(), checked.nodes.len());
        assert_eq!(c.text.as_str(), checked.text.as_str());
        let fields = Arc::new(chunk_of(&nodes, &late));
        for (i, n) in nodes.iter().enumerate() {
            let alone = Def::stored(fields.clone(), i);
            let built = |f: &Chunk| f.defs.get().is_some_and(|d| d[i].get().is_some());
            for key in ["prompt", "absent", "prompt"] {
                assert_eq!(alone.get(key), n.definition.get(key), "{key} alone");
            }
            assert!(!built(&fields), "one field read: no definition built");
            // A second field read builds the whole definition, once.
            assert_eq!(alone.get("n"), n.definition.get("n"));
            assert!(built(&fields), "two fields read: the definition is built");
            assert_eq!(alone.get("prompt"), n.definition.get("prompt"));
            let d = Def::stored(chunk.clone(), i);
            assert_eq!(*d, *n.definition);
            assert_eq!(d.get("prompt"), n.definition.get("prompt"), "from the map");
            assert_eq!(chunk.build(i), *n.definition);
        }
        assert!(!late.is_set(), "nothing damaged");
        let mut bad = bytes.clone();
        bad[..8].fill(0xff);
        let bad = made(&bad, split, 0, &late);
        assert!(bad.head().is_none());
        assert!(bad.definition(0).is_empty() && bad.head().is_none());
    }

    /// The head part is read without the definitions part: a damaged
    /// definitions part (its checksum, or bytes that pass it but not
    /// rkyv's validation) leaves the heads and the calls' tools readable,
    /// gives no definition and no field, and sets the plan's flag, once
    /// first read; a sound one sets nothing.
    #[test]
    fn a_damaged_definitions_part_is_found_when_first_read_and_flags_the_plan() {
        let mut nodes: Vec<Node> = (0..10).map(node).collect();
        nodes[3].kind = NodeKind::Call;
        nodes[3].definition = [("tool".to_string(), Value::from("search"))]
            .into_iter()
            .collect::<Map>()
            .into();
        nodes[4].kind = NodeKind::Call;
        let (bytes, split) = archive::nodes_to(&nodes).unwrap();
        let from = align(split as u64) as usize;
        let good_sum = checksum(&bytes[from..]);
        let mut flipped = bytes.clone();
        let end = flipped.len();
        flipped[end - 12] ^= 0x5a;
        let resummed = checksum(&flipped[from..]);
        for (why, b, sum) in [
            ("a checksum that fails", flipped.clone(), good_sum),
            ("rkyv's validation", flipped, resummed),
        ] {
            let late = Late::new();
            let c = made(&b, split, sum, &late);
            assert_eq!(c.head().map(|h| h.nodes.len()), Some(10), "{why}");
            assert_eq!(c.tool(3), Some(Some("search")), "{why}");
            assert_eq!(c.tool(4), Some(None), "{why}: a call without one");
            assert!(!late.is_set(), "{why}: not read yet");
            assert_eq!(c.field(0, "prompt"), None, "{why}");
            assert!(late.is_set(), "{why}: flagged");
            assert!(c.definition(1).is_empty(), "{why}");
        }
        let late = Late::new();
        let c = made(&bytes, split, good_sum, &late);
        assert_eq!(c.definition(3), &*nodes[3].definition);
        assert!(!late.is_set());
    }
}
