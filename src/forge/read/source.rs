//! What the read commands read a plan through: its nodes and edges by
//! position, from a plan folded in memory or read in place from its
//! snapshot (`store::snapshot::View`). The outline, slices and status are
//! written once over it, so both give the same answer.

use crate::model::lifecycle::State;
use crate::model::{Content, Edge, Node, NodeKind};
use crate::store::snapshot::View;

/// A plan's nodes and edges, by position in fold order.
pub(crate) trait Source {
    fn plan_id(&self) -> &str;
    fn node_count(&self) -> usize;
    fn node_id(&self, i: usize) -> &str;
    fn node_phase(&self, i: usize) -> Option<&str>;
    fn node_kind(&self, i: usize) -> NodeKind;
    /// A string field of the node's definition (`Node::str_field`).
    fn node_str_field(&self, i: usize, key: &str) -> Option<&str>;
    /// The node, whole; `None` when it cannot be read (the caller then
    /// reads the plan from its log).
    fn node(&self, i: usize) -> Option<Node>;
    fn edge_count(&self) -> usize;
    /// An edge's id, source and target.
    fn edge_ends(&self, i: usize) -> (&str, &str, &str);
    fn edge(&self, i: usize) -> Edge;

    /// The position of the node with `id`, when the source has an index
    /// to find it without a pass over every node; `None`: it has none.
    fn find_indexed(&self, _id: &str) -> Option<Option<usize>> {
        None
    }

    /// The positions of the edges from or to `id` in fold order, when the
    /// source has an index; `None`: it has none.
    fn edges_touching_indexed(&self, _id: &str) -> Option<Vec<usize>> {
        None
    }

    /// The position of the edge with `id` (the last, for a repeated id),
    /// when the source has an index; `None`: it has none.
    fn edge_position_indexed(&self, _id: &str) -> Option<Option<usize>> {
        None
    }

    /// Whether a node has the phase `p` (not empty) and whether a node has
    /// none, when the source knows without a pass; `None`: it does not.
    fn phases_indexed(&self, _p: &str) -> Option<(bool, bool)> {
        None
    }

    /// Each node's position by id (the first, for a repeated id).
    fn node_index(&self) -> std::collections::HashMap<&str, usize> {
        let mut m = std::collections::HashMap::with_capacity(self.node_count());
        for i in 0..self.node_count() {
            m.entry(self.node_id(i)).or_insert(i);
        }
        m
    }
}

/// What every answer about a plan names besides its nodes.
#[derive(Debug, Clone)]
pub(crate) struct Head {
    pub(crate) plan_id: String,
    pub(crate) state: State,
    pub(crate) revision: u64,
    pub(crate) digest: String,
}

/// The head of a loaded plan.
pub(crate) fn head_of(loaded: &crate::store::Loaded) -> Head {
    Head {
        plan_id: loaded.plan_id.clone(),
        state: loaded.state(),
        revision: loaded.revision(),
        digest: loaded.digest().to_string(),
    }
}

impl Source for Content {
    fn plan_id(&self) -> &str {
        &self.plan_id
    }
    fn node_count(&self) -> usize {
        self.nodes.len()
    }
    fn node_id(&self, i: usize) -> &str {
        &self.nodes[i].id
    }
    fn node_phase(&self, i: usize) -> Option<&str> {
        self.nodes[i].phase.as_deref()
    }
    fn node_kind(&self, i: usize) -> NodeKind {
        self.nodes[i].kind
    }
    fn node_str_field(&self, i: usize, key: &str) -> Option<&str> {
        self.nodes[i].str_field(key)
    }
    fn node(&self, i: usize) -> Option<Node> {
        Some(self.nodes[i].clone())
    }
    fn edge_count(&self) -> usize {
        self.edges.len()
    }
    fn edge_ends(&self, i: usize) -> (&str, &str, &str) {
        let e = &self.edges[i];
        (&e.id, &e.from, &e.to)
    }
    fn edge(&self, i: usize) -> Edge {
        self.edges[i].clone()
    }
}

/// A plan in memory with its positions by id (a warm fold keeps them:
/// see `Folded::positions`), so that a node, and an edge by id, is found
/// without a pass over the plan.
pub(crate) struct Indexed<'a> {
    content: &'a Content,
    index: Option<&'a crate::store::fold::Index>,
    /// A node id and the positions of the edges at it, in edge order,
    /// when they are known (a warm plan's kept graph has them).
    touching: Option<(&'a str, Vec<usize>)>,
}

impl<'a> Indexed<'a> {
    /// The same source, knowing the positions of the edges into and out
    /// of node `id` (`around`, each in edge order).
    pub(crate) fn touching(mut self, id: &'a str, around: (Vec<usize>, Vec<usize>)) -> Self {
        let (mut at, out) = around;
        at.extend(out);
        at.sort_unstable();
        at.dedup();
        self.touching = Some((id, at));
        self
    }
}

/// `loaded`'s content as a source: with its positions when the fold kept
/// them, or (`make`: a warm process, where a later write takes them over)
/// made now; else the content alone (then without an index).
pub(crate) fn in_memory(loaded: &crate::store::Loaded, make: bool) -> Indexed<'_> {
    let index = if make {
        loaded.folded.positions()
    } else {
        loaded.folded.positions_if_kept()
    };
    Indexed {
        content: loaded.content(),
        index,
        touching: None,
    }
}

impl Source for Indexed<'_> {
    fn plan_id(&self) -> &str {
        self.content.plan_id()
    }
    fn node_count(&self) -> usize {
        self.content.node_count()
    }
    fn node_id(&self, i: usize) -> &str {
        self.content.node_id(i)
    }
    fn node_phase(&self, i: usize) -> Option<&str> {
        self.content.node_phase(i)
    }
    fn node_kind(&self, i: usize) -> NodeKind {
        self.content.node_kind(i)
    }
    fn node_str_field(&self, i: usize, key: &str) -> Option<&str> {
        self.content.node_str_field(i, key)
    }
    fn node(&self, i: usize) -> Option<Node> {
        Source::node(self.content, i)
    }
    fn edge_count(&self) -> usize {
        self.content.edge_count()
    }
    fn edge_ends(&self, i: usize) -> (&str, &str, &str) {
        self.content.edge_ends(i)
    }
    fn edge(&self, i: usize) -> Edge {
        Source::edge(self.content, i)
    }
    fn find_indexed(&self, id: &str) -> Option<Option<usize>> {
        self.index.map(|x| x.node(id))
    }
    fn edges_touching_indexed(&self, id: &str) -> Option<Vec<usize>> {
        let (at, edges) = self.touching.as_ref()?;
        debug_assert!(
            *at != id
                || edges
                    .iter()
                    .copied()
                    .eq((0..self.content.edges.len()).filter(|&k| {
                        let e = &self.content.edges[k];
                        e.from == id || e.to == id
                    })),
            "the edges known at `{id}` are the content's"
        );
        (*at == id).then(|| edges.clone())
    }
    fn edge_position_indexed(&self, id: &str) -> Option<Option<usize>> {
        self.index.map(|x| x.edge(id))
    }
}

/// A snapshot's view, as a source. What cannot be read marks the view
/// damaged (and the answer is then dropped: see `Store::with_view`).
pub(crate) struct Archived<'v, 'a> {
    view: &'v View<'a>,
}

impl<'v, 'a> Archived<'v, 'a> {
    pub(crate) fn new(view: &'v View<'a>) -> Archived<'v, 'a> {
        Archived { view }
    }
}

impl Archived<'_, '_> {
    pub(crate) fn plan_id_str(&self) -> &str {
        self.view.plan_id()
    }
    pub(crate) fn revision(&self) -> u64 {
        self.view.revision()
    }
    pub(crate) fn digest(&self) -> &str {
        self.view.digest()
    }
}

impl Source for Archived<'_, '_> {
    fn plan_id(&self) -> &str {
        self.view.plan_id()
    }
    fn node_count(&self) -> usize {
        self.view.node_count()
    }
    fn node_id(&self, i: usize) -> &str {
        self.view.node_id(i)
    }
    fn node_phase(&self, i: usize) -> Option<&str> {
        self.view.node_phase(i)
    }
    fn node_kind(&self, i: usize) -> NodeKind {
        self.view.node_kind(i)
    }
    fn node_str_field(&self, i: usize, key: &str) -> Option<&str> {
        self.view.node_str_field(i, key)
    }
    fn node(&self, i: usize) -> Option<Node> {
        self.view.node(i)
    }
    fn edge_count(&self) -> usize {
        self.view.edge_count()
    }
    fn edge_ends(&self, i: usize) -> (&str, &str, &str) {
        self.view.edge_ends(i)
    }
    fn edge(&self, i: usize) -> Edge {
        self.view.edge(i)
    }
    fn find_indexed(&self, id: &str) -> Option<Option<usize>> {
        Some(self.view.find(id))
    }
    fn edges_touching_indexed(&self, id: &str) -> Option<Vec<usize>> {
        Some(self.view.edges_touching(id))
    }
    fn edge_position_indexed(&self, id: &str) -> Option<Option<usize>> {
        Some(self.view.edge_position(id))
    }
    fn phases_indexed(&self, p: &str) -> Option<(bool, bool)> {
        Some((self.view.has_phase(p), self.view.has_unphased()))
    }
}
