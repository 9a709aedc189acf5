//! Which node an issue belongs to, for the outline's counts and a slice's
//! findings.

use super::source::Source;
use crate::model::Issue;
use std::collections::HashMap;

/// Which node an issue belongs to: the node it names, else the source of the
/// edge it names (else that edge's target). Issues that name neither belong
/// to the plan as a whole.
pub(crate) struct Attribution<'a> {
    nodes: HashMap<&'a str, usize>,
    edges: Option<HashMap<&'a str, (&'a str, &'a str)>>,
}

impl<'a> Attribution<'a> {
    pub(crate) fn new<P: Source + ?Sized>(c: &'a P, issues: &[Issue]) -> Attribution<'a> {
        let needs_edges = issues
            .iter()
            .any(|i| i.node_id.is_none() && i.edge_id.is_some());
        Attribution {
            nodes: c.node_index(),
            edges: needs_edges.then(|| {
                (0..c.edge_count())
                    .map(|k| {
                        let (id, from, to) = c.edge_ends(k);
                        (id, (from, to))
                    })
                    .collect()
            }),
        }
    }

    pub(crate) fn owner(&self, i: &Issue) -> Option<usize> {
        if let Some(n) = &i.node_id
            && let Some(&ix) = self.nodes.get(n.as_str())
        {
            return Some(ix);
        }
        let (from, to) = self.edges.as_ref()?.get(i.edge_id.as_deref()?)?;
        self.nodes.get(from).or_else(|| self.nodes.get(to)).copied()
    }
}
