//! A chunk of the snapshot as read (its checksum held), shared between
//! the view that read it, the nodes restored from it and the next
//! snapshot, which copies a chunk of nodes still as read instead of
//! archiving its nodes again (issue 17, definitions on demand).
//!
//! A chunk of nodes is checked once, in full, before anything of it is
//! used: rkyv's validation, then [`archive::sound`] (every place, tag and
//! key a writer makes; nothing is built). The nodes restored from it carry
//! their definitions as [`Def::stored`](crate::model::Def::stored) handles
//! on the chunk: a definition is built when it is first read, from bytes
//! that passed both checks, so the build cannot fail and a command never
//! learns late that it should have folded the log.

use super::archive::{self, ArchivedSNodes};
use crate::model::def::Stored;
use crate::model::{Map, Value};
use rkyv::util::AlignedVec;
use std::sync::{LazyLock, OnceLock};

/// A chunk's bytes as read, and — for a chunk of nodes — whether they
/// passed as one and the definitions built so far.
pub(crate) struct Chunk {
    /// Never changed after [`Chunk::new`] (nothing here hands out `&mut`).
    bytes: AlignedVec<16>,
    /// Set once, by [`Chunk::nodes`]: whether the bytes are a sound chunk
    /// of nodes.
    nodes: OnceLock<bool>,
    /// One cell per node, made on the first definition read.
    defs: OnceLock<Box<[OnceLock<Map>]>>,
    /// Per node, one cell per key of its definition, made on the first
    /// field read alone ([`Stored::field`]).
    fields: OnceLock<Box<[OnceLock<Fields>]>>,
}

/// One node's fields built alone, by the position of their key.
type Fields = Box<[OnceLock<Value>]>;

impl Chunk {
    pub(super) fn new(bytes: AlignedVec<16>) -> Chunk {
        Chunk {
            bytes,
            nodes: OnceLock::new(),
            defs: OnceLock::new(),
            fields: OnceLock::new(),
        }
    }

    /// The bytes, as read.
    pub(super) fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The chunk as nodes, when its bytes pass rkyv's validation and
    /// [`archive::sound`] (checked on the first call, remembered after).
    pub(super) fn nodes(&self) -> Option<&ArchivedSNodes> {
        let sound = *self.nodes.get_or_init(|| {
            rkyv::access::<ArchivedSNodes, rkyv::rancor::Error>(&self.bytes)
                .is_ok_and(archive::sound)
        });
        if !sound {
            return None;
        }
        // SAFETY: `self.bytes` passed `rkyv::access::<ArchivedSNodes>` (the
        // validation `access_unchecked` skips) in this process, just above
        // or in an earlier call (`nodes` is set only from that result), and
        // they have not changed since: the field is private and nothing
        // mutates it after `new`. Same bytes, same type, same alignment
        // (the buffer is the one validated), so the unchecked access reads
        // what the checked one did.
        Some(unsafe { rkyv::access_unchecked::<ArchivedSNodes>(&self.bytes) })
    }
}

/// An empty definition, for a position a chunk does not hold (never asked
/// for: the store hands out only positions it holds).
static EMPTY: LazyLock<Map> = LazyLock::new(Map::new);

impl Stored for Chunk {
    fn definition(&self, at: usize) -> &Map {
        let defs = self.defs.get_or_init(|| {
            let n = self.nodes().map_or(0, |c| c.nodes.len());
            (0..n).map(|_| OnceLock::new()).collect()
        });
        match defs.get(at) {
            Some(cell) => cell.get_or_init(|| self.build(at)),
            None => &EMPTY,
        }
    }

    fn build(&self, at: usize) -> Map {
        match self.nodes() {
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
        let c = self.nodes()?;
        let n = c.nodes.get(at)?;
        let text = c.text.as_str();
        let j = n
            .keys
            .iter()
            .position(|k| archive::at(text, k) == Some(key))?;
        let nodes = self
            .fields
            .get_or_init(|| (0..c.nodes.len()).map(|_| OnceLock::new()).collect());
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::def::Def;
    use crate::model::{Node, NodeKind, Value};
    use std::sync::Arc;

    fn node(i: usize) -> Node {
        let def: Map = [
            ("prompt".to_string(), Value::from(format!("step {i} é"))),
            ("n".to_string(), Value::from(i as u64)),
        ]
        .into_iter()
        .collect();
        Node {
            id: format!("n{i}"),
            phase: i.is_multiple_of(2).then(|| "p".to_string()),
            kind: NodeKind::Reason,
            definition: def.into(),
        }
    }

    /// The unchecked access reads what the checked one does: every
    /// definition built from a shared chunk equals the node's own; bytes
    /// that are not a sound chunk of nodes give none (and no definition).
    #[test]
    fn a_chunk_read_unchecked_after_its_check_is_the_checked_one() {
        let nodes: Vec<Node> = (0..40).map(node).collect();
        let bytes = archive::nodes_to(&nodes).unwrap();
        let checked = rkyv::access::<ArchivedSNodes, rkyv::rancor::Error>(&bytes).unwrap();
        let chunk = Arc::new(Chunk::new(bytes.clone()));
        let c = chunk.nodes().expect("sound");
        assert_eq!(c.nodes.len(), checked.nodes.len());
        assert_eq!(c.text.as_str(), checked.text.as_str());
        let fields = Arc::new(Chunk::new(bytes.clone()));
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
        let mut bad = bytes.clone();
        let len = bad.len();
        bad[len - 8..].fill(0xff);
        let bad = Chunk::new(bad);
        assert!(bad.nodes().is_none());
        assert!(bad.definition(0).is_empty() && bad.nodes().is_none());
    }
}
