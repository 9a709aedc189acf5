//! Reading a stored plan in place, from its snapshot (issue 17): the
//! counts, the lifecycle, each node's id, phase, kind and fields, and each
//! edge's ends, straight from the validated archive. Only what a command
//! shows is made into the model's types; nothing else is copied.
//!
//! A view exists only when the snapshot is the fold of the whole log as it
//! is now (no tail to fold): the answer is then the one a full load gives.

use super::archive::{self, ArchivedSNode, ArchivedSValue};
use super::{ArchivedSnap, access, keyed, read_file};
use crate::model::lifecycle::Meta;
use crate::model::{Edge, Node, NodeKind};
use crate::store::Store;
use crate::store::paths::{META_FILE, OPS_FILE, refuse_special, refuse_symlink};

/// A stored plan, read in place from its snapshot.
pub(crate) struct View<'a> {
    s: &'a ArchivedSnap,
}

impl<'a> View<'a> {
    pub(crate) fn plan_id(&self) -> &'a str {
        self.s.plan_id.as_str()
    }

    pub(crate) fn revision(&self) -> u64 {
        self.s.revision.to_native()
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
        self.s.nodes.len()
    }

    pub(crate) fn edge_count(&self) -> usize {
        self.s.edges.len()
    }

    fn at(&self, i: usize) -> &'a ArchivedSNode {
        &self.s.nodes[i]
    }

    pub(crate) fn node_id(&self, i: usize) -> &'a str {
        self.at(i).id.as_str()
    }

    pub(crate) fn node_phase(&self, i: usize) -> Option<&'a str> {
        self.at(i).phase.as_ref().map(|p| p.as_str())
    }

    /// The node's kind; `None` for an archive no writer makes.
    pub(crate) fn node_kind(&self, i: usize) -> Option<NodeKind> {
        NodeKind::ALL.get(self.at(i).kind as usize).copied()
    }

    /// A string field of the node's definition (`Node::str_field`).
    pub(crate) fn node_str_field(&self, i: usize, key: &str) -> Option<&'a str> {
        let n = self.at(i);
        let k = n.keys.iter().position(|k| k.as_str() == key)?;
        match n.values.get(k)? {
            ArchivedSValue::String(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The node, as the model's; `None` for an archive no writer makes.
    pub(crate) fn node(&self, i: usize) -> Option<Node> {
        archive::node(self.at(i))
    }

    /// An edge's id, source and target.
    pub(crate) fn edge_ends(&self, i: usize) -> (&'a str, &'a str, &'a str) {
        let e = &self.s.edges[i];
        (e.id.as_str(), e.from.as_str(), e.to.as_str())
    }

    /// The edge, as the model's.
    pub(crate) fn edge(&self, i: usize) -> Edge {
        archive::edge(&self.s.edges[i])
    }
}

impl Store {
    /// `answer` over the plan `id` read in place from its snapshot, when the
    /// snapshot is the fold of the whole log as it is now; `None` (read the
    /// log, as [`Store::load`] does) when there is no such snapshot, in a
    /// warm process (which keeps its own fold), for a plan an earlier
    /// planforge wrote, or when `answer` gives `None`. Never for a verdict.
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
        let buf = read_file(&dir)?;
        let s = access(&buf)?;
        let (_, tail) = keyed(&dir, s, id)?;
        if !tail.is_empty() {
            return None;
        }
        answer(&View { s })
    }
}
