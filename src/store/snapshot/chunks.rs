//! The snapshot file's layout: a small head, checked whenever the file is
//! opened, then chunks, each checked only when it is first read.
//!
//! ```text
//! magic (8) | head checksum (8) | head length (8) | head offset (8) | chunks… | head
//! ```
//!
//! The head (the key, the lifecycle, the digest, the counts, the phases)
//! holds a table of the chunks: where each lies after the header, its
//! length and its checksum. The head comes last so the chunks are written
//! as they are made, each dropped once written (at 100,000 nodes, holding
//! them all until the head was known was about 90 MB of fresh memory). A chunk is an rkyv archive of its own: 256 nodes in
//! fold order, 512 edges, or one bucket of the id index (which node has an
//! id, which edges touch it, which edge has an id: by a hash of the id).
//! So a reader that shows one node checks the head, one bucket and the
//! chunks that node and its edges lie in, whatever the plan's size, and a
//! reader of the whole fold checks every chunk. A chunk whose bytes fail
//! its checksum or rkyv's validation is never interpreted: the answer that
//! asked for it is dropped and the plan is read from its log. A chunk of
//! nodes is two parts (see [`SChunk`]): its head part is read and checked
//! with the chunk; its definitions part is read and checked only when a
//! definition in it is first read (see `lazy::Chunk`).

use super::FILE;
use super::archive::{SBucket, SEdgeId, SIdEntry};
use crate::model::Content;
use crate::model::hash::FastMap;
use memmap2::Mmap;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Serialize};
use std::fs::File;
use std::io::{Seek, Write};
use std::path::Path;
use std::sync::Arc;

/// The file starts with this (the layout's version is its last byte).
pub(super) const MAGIC: &[u8; 8] = b"PFSNAP\x00\x05";
/// Magic, the head's checksum, length and offset; the chunks start here.
pub(super) const HEADER: usize = 32;
/// Nodes in one chunk.
pub(super) const NODES_PER_CHUNK: usize = 256;
/// Edges in one chunk.
pub(super) const EDGES_PER_CHUNK: usize = 512;
/// About how many ids (of nodes, edge ends and edges) one bucket holds.
const IDS_PER_BUCKET: usize = 256;
/// No node has the id (an entry for an edge's end only).
pub(super) const NO_NODE: u32 = u32::MAX;

/// Where a chunk lies (bytes after the end of the head, rounded up to 16),
/// its length and its checksum. A chunk of nodes is two parts: its first
/// `split` bytes (the head part, which `sum` covers, checked whenever the
/// chunk is read) and, from the next multiple of 16, the definitions part
/// (which `late` covers, checked only when a definition in it is first
/// read; see `lazy::Chunk`). Any other chunk is one part (`split` is its
/// length, `late` the checksum of no bytes).
#[derive(Archive, Serialize, Clone, Copy)]
pub(super) struct SChunk {
    pub(super) at: u64,
    pub(super) len: u64,
    pub(super) sum: u64,
    pub(super) split: u64,
    pub(super) late: u64,
}

/// A checksum of the archive (not a defence against an attacker, who could
/// as well edit the log: against damage — a torn copy, a flipped byte — that
/// rkyv's validation would not see, such as a changed character in an id).
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
    ];
    let mut lanes = K;
    let mut chunks = bytes.chunks_exact(32);
    for c in &mut chunks {
        for (i, lane) in lanes.iter_mut().enumerate() {
            let w = u64::from_le_bytes(c[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
            *lane = (*lane ^ w).wrapping_mul(K[i]).rotate_left(29);
        }
    }
    let mut h = bytes.len() as u64;
    for (i, b) in chunks.remainder().iter().enumerate() {
        h ^= u64::from(*b) << ((i % 8) * 8);
        if i % 8 == 7 {
            h = h.wrapping_mul(K[0]).rotate_left(31);
        }
    }
    for lane in lanes {
        h = (h ^ lane).wrapping_mul(K[1]).rotate_left(27);
    }
    h ^ (h >> 33)
}

/// The bucket an id's entries are in, among `buckets` (FNV-1a: the same on
/// every machine, as the file may be copied).
pub(super) fn bucket_of(id: &str, buckets: usize) -> usize {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in id.as_bytes() {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01B3);
    }
    (h % buckets.max(1) as u64) as usize
}

pub(super) fn align(n: u64) -> u64 {
    n.div_ceil(16) * 16
}

/// Bytes of a snapshot as read: a part of the mapped file (used where it
/// lies in the page cache: at 100,000 nodes a copy would be tens of MB of
/// fresh memory the kernel zeroes first), or bytes made in this process.
/// Either way 16-aligned, as rkyv's archives need.
#[derive(Clone)]
pub(crate) enum Bytes {
    Mapped(Arc<Mmap>, usize, usize),
    Made(Arc<AlignedVec<16>>),
}

impl Bytes {
    /// `n` bytes of `map` from `start`, when they lie inside it: in place
    /// when `start` is 16-aligned (as every part of a snapshot planforge
    /// writes is), else copied.
    fn of(map: &Arc<Mmap>, start: usize, n: usize) -> Option<Bytes> {
        let end = start.checked_add(n)?;
        let b = map.get(start..end)?;
        Some(if b.as_ptr().align_offset(16) == 0 {
            Bytes::Mapped(map.clone(), start, end)
        } else {
            Bytes::from(b)
        })
    }
}

impl From<&[u8]> for Bytes {
    fn from(b: &[u8]) -> Bytes {
        let mut v = AlignedVec::<16>::with_capacity(b.len());
        v.extend_from_slice(b);
        Bytes::Made(Arc::new(v))
    }
}

impl From<AlignedVec<16>> for Bytes {
    fn from(v: AlignedVec<16>) -> Bytes {
        Bytes::Made(Arc::new(v))
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m, a, b) => &m[*a..*b],
            Bytes::Made(v) => v,
        }
    }
}

/// An opened snapshot whose head passed its checksum: the file mapped
/// (a snapshot renamed over it meanwhile is not mixed in: the mapping
/// keeps the file it opened), the head's bytes, and where the chunks
/// start. planforge never writes a snapshot in place (a new one is a new
/// file renamed over the old), so the mapped bytes do not change under a
/// reader; a chunk is checked (checksum, rkyv's validation) before any of
/// it is used.
pub(crate) struct Opened {
    file: File,
    map: Arc<Mmap>,
    /// Where the chunks start.
    pub(super) area: u64,
    pub(super) head: Bytes,
}

impl Opened {
    /// The snapshot in `dir`, when it is an ordinary file with this layout
    /// and its head's checksum holds; `None` otherwise (fold the log).
    pub(super) fn open(dir: &Path) -> Option<Opened> {
        let path = dir.join(FILE);
        // Only an ordinary file: not a link, and not a pipe that never ends.
        if !std::fs::symlink_metadata(&path).ok()?.file_type().is_file() {
            return None;
        }
        let file = File::open(&path).ok()?;
        if !file.metadata().ok()?.file_type().is_file() {
            return None;
        }
        // SAFETY: see the type's doc: planforge never changes a snapshot
        // file in place, and every part is checked before it is used.
        let map = Arc::new(unsafe { Mmap::map(&file) }.ok()?);
        let header = map.get(..HEADER)?;
        if &header[..8] != MAGIC {
            return None;
        }
        let word = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
        let (sum, head_len) = (word(8), usize::try_from(word(16)).ok()?);
        let head_at = usize::try_from(word(24)).ok().filter(|at| *at >= HEADER)?;
        let head = Bytes::of(&map, head_at, head_len)?;
        if checksum(&head) != sum {
            return None;
        }
        Some(Opened {
            file,
            area: HEADER as u64,
            head,
            map,
        })
    }

    /// Removes the snapshot file when it is still the one opened (a chunk
    /// of it was found damaged: the next load folds the log and writes a
    /// new one); one renamed into its place since is left alone.
    pub(super) fn discard(&self, dir: &Path) {
        use std::os::unix::fs::MetadataExt;
        let path = dir.join(FILE);
        let (Ok(ours), Ok(now)) = (self.file.metadata(), std::fs::symlink_metadata(&path)) else {
            return;
        };
        if (ours.dev(), ours.ino()) == (now.dev(), now.ino()) {
            let _ = std::fs::remove_file(&path);
        }
    }

    /// A chunk's bytes, when they lie inside the file and its first part
    /// passes the checksum the head gives it (a chunk of nodes' definitions
    /// part is checked when first read: see `lazy::Chunk`).
    pub(super) fn chunk(&self, c: &ArchivedSChunk) -> Option<Bytes> {
        let (start, n, split) = self.place(c)?;
        let buf = self.read(start, n)?;
        (checksum(&buf[..split]) == c.sum.to_native()).then_some(buf)
    }

    /// The bytes of chunk `c`'s first part (the part its checksum is
    /// about), unchecked, when they lie inside the file.
    pub(super) fn first_part(&self, c: &ArchivedSChunk) -> Option<Bytes> {
        let (start, _, split) = self.place(c)?;
        self.read(start, split)
    }

    /// Where chunk `c` starts in the file, its length and the length of its
    /// first part, when it lies inside the file.
    fn place(&self, c: &ArchivedSChunk) -> Option<(usize, usize, usize)> {
        let (at, n, split) = (c.at.to_native(), c.len.to_native(), c.split.to_native());
        let start = self.area.checked_add(at)?;
        let inside = start.checked_add(n)? <= self.map.len() as u64 && split <= n;
        inside.then_some((start as usize, n as usize, split as usize))
    }

    /// `n` bytes of the file from `start`.
    fn read(&self, start: usize, n: usize) -> Option<Bytes> {
        Bytes::of(&self.map, start, n)
    }

    /// A chunk of nodes' head part, when it lies inside the file and passes
    /// its checksum, and its definitions part (checked when first needed:
    /// see `lazy::Chunk`).
    pub(super) fn node_chunk(&self, c: &ArchivedSChunk) -> Option<(Bytes, Bytes)> {
        let (start, n, split) = self.place(c)?;
        let head = self.read(start, split)?;
        if checksum(&head) != c.sum.to_native() {
            return None;
        }
        let from = (align(split as u64) as usize).min(n);
        Some((head, self.read(start + from, n - from)?))
    }
}

/// The id index of `c`, in buckets: each node's position (the first, for
/// a repeated id), the edges touching each id (in fold order), each edge's
/// position (the last, for a repeated id, as a map built in order keeps).
pub(super) fn index(c: &Content) -> Vec<SBucket> {
    let n = bucket_count(c.nodes.len(), c.edges.len());
    // Sized once: grown, the tables were rehashed a dozen times at 100,000
    // nodes.
    let mut entries: FastMap<&str, (u32, Vec<u32>)> =
        FastMap::with_capacity_and_hasher(c.nodes.len() + 16, Default::default());
    for (i, node) in c.nodes.iter().enumerate() {
        let e = entries.entry(&node.id).or_insert((NO_NODE, Vec::new()));
        if e.0 == NO_NODE {
            e.0 = i as u32;
        }
    }
    let mut edge_ids: FastMap<&str, u32> =
        FastMap::with_capacity_and_hasher(c.edges.len(), Default::default());
    for (k, edge) in c.edges.iter().enumerate() {
        let k = k as u32;
        entries
            .entry(&edge.from)
            .or_insert((NO_NODE, Vec::new()))
            .1
            .push(k);
        if edge.to != edge.from {
            entries
                .entry(&edge.to)
                .or_insert((NO_NODE, Vec::new()))
                .1
                .push(k);
        }
        edge_ids.insert(&edge.id, k);
    }
    let mut buckets: Vec<SBucket> = (0..n)
        .map(|_| SBucket {
            ids: Vec::new(),
            edges: Vec::new(),
        })
        .collect();
    for (id, (node, edges)) in entries {
        buckets[bucket_of(id, n)].ids.push(SIdEntry {
            id: id.to_string(),
            node,
            edges,
        });
    }
    for (id, at) in edge_ids {
        buckets[bucket_of(id, n)].edges.push(SEdgeId {
            id: id.to_string(),
            at,
        });
    }
    buckets
}

/// The number of buckets of the id index of a content of `nodes` nodes
/// and `edges` edges ([`index`]).
pub(super) fn bucket_count(nodes: usize, edges: usize) -> usize {
    (nodes + 2 * edges).div_ceil(IDS_PER_BUCKET).max(1)
}

/// The id index of `c` from `old`, the index of its first `n0` nodes and
/// `e0` edges (the rest added after them, none of those changed) when
/// both have as many buckets: the buckets an added node, an added edge's
/// ends or its id fall in are made again from the old bucket and what was
/// added; `None` for another count of buckets or an old bucket that does
/// not read. The others are `old`'s bytes.
pub(super) fn index_grown(
    c: &Content,
    old: Vec<Bytes>,
    n0: usize,
    e0: usize,
) -> Option<Vec<Bytes>> {
    let n = bucket_count(c.nodes.len(), c.edges.len());
    if old.len() != n || n0 > c.nodes.len() || e0 > c.edges.len() {
        return None;
    }
    let mut grown: FastMap<usize, SBucket> = FastMap::default();
    fn bucket<'g>(
        grown: &'g mut FastMap<usize, SBucket>,
        old: &[Bytes],
        id: &str,
    ) -> Option<&'g mut SBucket> {
        let b = bucket_of(id, old.len());
        if let std::collections::hash_map::Entry::Vacant(v) = grown.entry(b) {
            v.insert(owned_bucket(&old[b])?);
        }
        grown.get_mut(&b)
    }
    fn entry<'b>(b: &'b mut SBucket, id: &str) -> &'b mut SIdEntry {
        let at = b.ids.iter().position(|e| e.id == id).unwrap_or_else(|| {
            b.ids.push(SIdEntry {
                id: id.to_string(),
                node: NO_NODE,
                edges: Vec::new(),
            });
            b.ids.len() - 1
        });
        &mut b.ids[at]
    }
    for (i, node) in c.nodes.iter().enumerate().skip(n0) {
        let e = entry(bucket(&mut grown, &old, &node.id)?, &node.id);
        if e.node == NO_NODE {
            e.node = u32::try_from(i).ok()?;
        }
    }
    for (k, edge) in c.edges.iter().enumerate().skip(e0) {
        let k = u32::try_from(k).ok()?;
        entry(bucket(&mut grown, &old, &edge.from)?, &edge.from)
            .edges
            .push(k);
        if edge.to != edge.from {
            entry(bucket(&mut grown, &old, &edge.to)?, &edge.to)
                .edges
                .push(k);
        }
        let b = bucket(&mut grown, &old, &edge.id)?;
        b.edges.push(SEdgeId {
            id: edge.id.to_string(),
            at: k,
        });
    }
    let mut out = old;
    for (b, bucket) in grown {
        out[b] = Bytes::from(rkyv::to_bytes::<rkyv::rancor::Error>(&bucket).ok()?);
    }
    Some(out)
}

/// An archived bucket's entries, owned.
fn owned_bucket(bytes: &Bytes) -> Option<SBucket> {
    let b = rkyv::access::<super::archive::ArchivedSBucket, rkyv::rancor::Error>(bytes).ok()?;
    Some(SBucket {
        ids: (b.ids.iter())
            .map(|e| SIdEntry {
                id: e.id.as_str().to_string(),
                node: e.node.to_native(),
                edges: e.edges.iter().map(|k| k.to_native()).collect(),
            })
            .collect(),
        edges: (b.edges.iter())
            .map(|e| SEdgeId {
                id: e.id.as_str().to_string(),
                at: e.at.to_native(),
            })
            .collect(),
    })
}

/// Whether two archived id indexes hold the same entries in the same
/// buckets. A bucket's entries are in the order of a hash map whose seed
/// is the process's (see `model::hash`), so two processes' archives of
/// one content differ in bytes; a lookup reads a bucket whole, in any
/// order. (Debug builds check an index taken over with it.)
pub(super) fn same_buckets(a: &[Bytes], b: &[Bytes]) -> bool {
    type Entry = (String, u32, Vec<u32>);
    type Entries = (Vec<Entry>, Vec<(String, u32)>);
    let entries = |bytes: &Bytes| -> Option<Entries> {
        let b = owned_bucket(bytes)?;
        let mut ids: Vec<Entry> = b.ids.into_iter().map(|e| (e.id, e.node, e.edges)).collect();
        let mut edges: Vec<(String, u32)> = b.edges.into_iter().map(|e| (e.id, e.at)).collect();
        ids.sort();
        edges.sort();
        Some((ids, edges))
    };
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| {
            let (x, y) = (entries(x), entries(y));
            x.is_some() && x == y
        })
}

/// A chunk of a new snapshot: its first part (a chunk of nodes' head
/// part, or the whole of any other chunk), its second part (a chunk of
/// nodes' definitions part, laid at the next multiple of 16; empty for any
/// other chunk) and the second part's checksum when it is known without
/// computing it (a part taken over unread keeps the checksum it was
/// written with, so damage in it is still found when it is read).
pub(super) type Pieces<'a> = (&'a [u8], &'a [u8], Option<u64>);

/// A chunk's length when laid out from its pieces.
fn laid_len(p: &Pieces<'_>) -> u64 {
    if p.1.is_empty() {
        p.0.len() as u64
    } else {
        align(p.0.len() as u64) + p.1.len() as u64
    }
}

/// Writes a snapshot file: the chunks one by one as they are made (each
/// can be dropped once written), then the head, which holds their table,
/// then the header (written last, at the start: a file cut short has no
/// valid header, or a head that fails its checksum).
pub(super) struct Writer<W: Write + Seek> {
    out: W,
    /// Where the next chunk starts, after the header (a multiple of 16).
    at: u64,
}

impl<W: Write + Seek> Writer<W> {
    pub(super) fn new(mut out: W) -> std::io::Result<Writer<W>> {
        out.write_all(&[0u8; HEADER])?;
        Ok(Writer { out, at: 0 })
    }

    /// Writes a chunk and says where it lies (its entry in the table).
    pub(super) fn chunk(&mut self, p: &Pieces<'_>) -> std::io::Result<SChunk> {
        let len = laid_len(p);
        let c = SChunk {
            at: self.at,
            len,
            sum: checksum(p.0),
            split: p.0.len() as u64,
            late: p.2.unwrap_or_else(|| checksum(p.1)),
        };
        self.out.write_all(p.0)?;
        if !p.1.is_empty() {
            self.pad(p.0.len() as u64)?;
            self.out.write_all(p.1)?;
        }
        self.pad(len)?;
        self.at = align(self.at + len);
        Ok(c)
    }

    /// Writes the head after the chunks, then the header; gives the output
    /// back (flushed).
    pub(super) fn finish(mut self, head: &[u8]) -> std::io::Result<W> {
        self.out.write_all(head)?;
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(MAGIC);
        header[8..16].copy_from_slice(&checksum(head).to_le_bytes());
        header[16..24].copy_from_slice(&(head.len() as u64).to_le_bytes());
        header[24..32].copy_from_slice(&(HEADER as u64 + self.at).to_le_bytes());
        self.out.seek(std::io::SeekFrom::Start(0))?;
        self.out.write_all(&header)?;
        self.out.flush()?;
        Ok(self.out)
    }

    /// Zeros from `n` up to the next multiple of 16.
    fn pad(&mut self, n: u64) -> std::io::Result<()> {
        self.out.write_all(&[0u8; 16][..(align(n) - n) as usize])
    }
}
