//! What a new snapshot takes from the one its fold was restored from
//! (issue 17: a change costs what it changes). A reader that folds a tail
//! on top of a snapshot writes a new one; the chunks of nodes and edges
//! that lie wholly before the first position the tail changed are the old
//! chunks' bytes, as the restore read and checked them, and the id index's
//! buckets are the old ones when no node and no edge changed (the few
//! that added ones fall in made again). Only the rest is archived again. Debug builds compare every chunk taken over
//! with a fresh archive of the same nodes, edges or ids.

use super::chunks::Bytes;
use super::chunks::{EDGES_PER_CHUNK, NODES_PER_CHUNK, Opened};
use super::lazy::Chunk;
use super::view::{self, Slots};
use crate::model::Content;
use crate::store::fold::Changed;
use std::sync::Arc;

/// The old snapshot (still open), its chunks of nodes and edges as read,
/// its counts, and the first positions the tail changed.
pub(super) struct Reuse {
    opened: Opened,
    nodes: usize,
    edges: usize,
    node_chunks: Vec<Option<Arc<Chunk>>>,
    edge_chunks: Vec<Option<Arc<Chunk>>>,
    changed: Changed,
}

impl Reuse {
    /// From the snapshot `opened`, the chunks the restore read from it
    /// (`bufs`, in its slots' order) and what the tail changed.
    pub(super) fn new(opened: Opened, bufs: Slots, changed: Changed) -> Option<Reuse> {
        let s = view::head(&opened)?;
        let nodes = s.node_count.to_native() as usize;
        let edges = s.edge_count.to_native() as usize;
        let (nc, ec) = (s.node_chunks.len(), s.edge_chunks.len());
        let mut bufs = bufs.into_iter().map(|c| c.into_inner().flatten());
        let node_chunks = bufs.by_ref().take(nc).collect();
        let edge_chunks = bufs.take(ec).collect();
        Some(Reuse {
            opened,
            nodes,
            edges,
            node_chunks,
            edge_chunks,
            changed,
        })
    }

    /// The old archive of chunk `k` of nodes, when a content of `count`
    /// nodes holds the old nodes there: the chunk ends before the first
    /// changed position and holds as many nodes as the old one.
    pub(super) fn node_chunk(&mut self, k: usize, count: usize) -> Option<Arc<Chunk>> {
        let same = unchanged(k, NODES_PER_CHUNK, count, self.nodes, self.changed.node);
        self.node_chunks.get_mut(k).filter(|_| same)?.take()
    }

    /// As [`Reuse::node_chunk`], for chunk `k` of edges.
    pub(super) fn edge_chunk(&mut self, k: usize, count: usize) -> Option<Arc<Chunk>> {
        let same = unchanged(k, EDGES_PER_CHUNK, count, self.edges, self.changed.edge);
        self.edge_chunks.get_mut(k).filter(|_| same)?.take()
    }

    /// The id index's buckets of `c` from the old ones (read and checked
    /// now), when `c` is the old content in every old node and edge (the
    /// same ids at the same positions) with nodes and edges added after
    /// them: the old buckets, with those the added ids fall in made again
    /// (the buckets' count the same; else `None`, and all are made).
    pub(super) fn buckets(&self, c: &Content) -> Option<Vec<Bytes>> {
        let (nodes, edges) = (c.nodes.len(), c.edges.len());
        // Every old node and edge as it was: only added ones after them.
        let grew = self.changed.node >= self.nodes && self.changed.edge >= self.edges;
        if !grew || nodes < self.nodes || edges < self.edges {
            return None;
        }
        let s = view::head(&self.opened)?;
        let old = (s.buckets.iter())
            .map(|c| self.opened.chunk(c))
            .collect::<Option<Vec<_>>>()?;
        if nodes == self.nodes && edges == self.edges {
            return Some(old);
        }
        super::chunks::index_grown(c, old, self.nodes, self.edges)
    }
}

/// Whether chunk `k` (of `per` items) of a list of `count` items holds
/// the old list's items (`old` of them, all before `changed` the same).
fn unchanged(k: usize, per: usize, count: usize, old: usize, changed: usize) -> bool {
    let end = ((k + 1) * per).min(count);
    end <= changed && end == ((k + 1) * per).min(old) && end > k * per
}

#[cfg(test)]
mod tests {
    use super::unchanged;

    #[test]
    fn a_chunk_is_kept_only_when_it_ends_before_the_first_change_with_as_many_items() {
        // 600 items in chunks of 256: 0..256, 256..512, 512..600.
        assert!(unchanged(0, 256, 600, 600, 256));
        assert!(!unchanged(0, 256, 600, 600, 255), "its last item changed");
        assert!(unchanged(1, 256, 600, 600, 600));
        assert!(unchanged(2, 256, 600, 600, usize::MAX), "nothing changed");
        assert!(!unchanged(2, 256, 601, 600, 600), "an item added in it");
        assert!(!unchanged(2, 256, 599, 600, 599), "an item removed from it");
        assert!(!unchanged(3, 256, 600, 600, usize::MAX), "past the end");
        assert!(unchanged(1, 256, 700, 600, 600), "items added after it");
    }
}
