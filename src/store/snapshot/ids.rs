//! The snapshot's id index as the fold of a tail asks it (issue 17): the
//! position of a node or an edge by its id, read from the one bucket the
//! id hashes to, so that folding a one-shot command's tail on top of a
//! restored plan looks its few ids up without scanning every node (or
//! indexing every id: about 15 ms at 100,000 nodes once a tail names more
//! than a handful).
//!
//! A bucket is read from the mapped file and checked (its checksum and
//! rkyv's validation) at each lookup; one that fails answers "cannot tell"
//! and the fold looks the id up itself (see `fold::content::Ids`), which
//! also checks that the position it is given holds that id.

use super::ArchivedSnap;
use super::archive::ArchivedSBucket;
use super::chunks::NO_NODE;
use super::chunks::{Bytes, Opened, bucket_of, checksum};
use crate::store::fold::Lookup;

/// The id index of the content a snapshot holds.
pub(super) struct SnapIds {
    /// Each bucket's bytes (unchecked until a lookup reads them) and
    /// checksum.
    buckets: Vec<(Bytes, u64)>,
    nodes: usize,
    edges: usize,
}

impl SnapIds {
    /// The index of the snapshot `s` opened as `opened`, when every bucket
    /// lies inside the file.
    pub(super) fn of(s: &ArchivedSnap, opened: &Opened) -> Option<SnapIds> {
        let buckets = s
            .buckets
            .iter()
            .map(|c| Some((opened.first_part(c)?, c.sum.to_native())))
            .collect::<Option<Vec<_>>>()?;
        (!buckets.is_empty()).then_some(SnapIds {
            buckets,
            nodes: s.node_count.to_native() as usize,
            edges: s.edge_count.to_native() as usize,
        })
    }

    /// The bucket `id` hashes to, when it passes its checks.
    fn bucket(&self, id: &str) -> Option<&ArchivedSBucket> {
        let (bytes, sum) = &self.buckets[bucket_of(id, self.buckets.len())];
        if checksum(bytes) != *sum {
            return None;
        }
        rkyv::access::<ArchivedSBucket, rkyv::rancor::Error>(bytes).ok()
    }
}

impl Lookup for SnapIds {
    fn nodes(&self) -> usize {
        self.nodes
    }

    fn edges(&self) -> usize {
        self.edges
    }

    fn node(&self, id: &str) -> Option<Option<usize>> {
        let b = self.bucket(id)?;
        let Some(e) = b.ids.iter().find(|e| e.id == id) else {
            return Some(None);
        };
        let at = e.node.to_native();
        Some((at != NO_NODE).then_some(at as usize))
    }

    fn edge(&self, id: &str) -> Option<Option<usize>> {
        let b = self.bucket(id)?;
        Some(
            b.edges
                .iter()
                .find(|e| e.id == id)
                .map(|e| e.at.to_native() as usize),
        )
    }

    fn edges_touching(&self, id: &str) -> Option<Vec<usize>> {
        let b = self.bucket(id)?;
        let Some(e) = b.ids.iter().find(|e| e.id == id) else {
            return Some(Vec::new());
        };
        let at: Vec<usize> = e.edges.iter().map(|k| k.to_native() as usize).collect();
        // Positions inside the content, in order (what a writer makes).
        let sound = at.iter().all(|&k| k < self.edges) && at.is_sorted();
        sound.then_some(at)
    }
}
