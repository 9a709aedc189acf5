//! Two revisions of one plan for a diff, folded in one pass and compared on
//! what changed between them.
//!
//! The ops up to the earlier revision are folded (consumed, not copied), the
//! ops between the two are applied to that fold ([`fold_after`]), and only
//! the nodes and edges those ops name — and the edges at those nodes, which
//! a removal takes with it — are compared: nothing else can differ. A diff
//! of the import against a plan a few writes later holds one plan in memory,
//! not three (the ops, the current plan and the earlier one), and compares
//! a few nodes, not every one. Where [`fold_after`] cannot promise the
//! result of a whole fold (the two revisions cut one transaction, or the
//! earlier fold set aside an op a later one could revive), the caller folds
//! each side whole.

use crate::model::hash::FastSet;
use crate::model::{Content, Op};
use crate::store::fold::{fold_after, fold_owned, sort_ops};

/// The node and edge ids the ops between two revisions name.
#[derive(Default)]
struct Changed {
    nodes: FastSet<String>,
    edges: FastSet<String>,
}

impl Changed {
    fn of(ops: &[Op]) -> Changed {
        let mut c = Changed::default();
        for op in ops {
            if let Some(id) = op.body.node_id() {
                c.nodes.insert(id.to_string());
            }
            c.edges
                .extend(op.body.edge_ids().into_iter().map(str::to_string));
        }
        c
    }

    /// The part of `c` these ids can have changed (in `c`'s order), with
    /// its bounds and provenance.
    fn part(&self, c: &Content) -> Content {
        let at = |id: &str| self.nodes.contains(id);
        Content {
            plan_id: c.plan_id.clone(),
            revision: c.revision,
            bounds: c.bounds,
            nodes: c.nodes.iter().filter(|n| at(&n.id)).cloned().collect(),
            edges: (c.edges.iter())
                .filter(|e| self.edges.contains(e.id.as_str()) || at(&e.from) || at(&e.to))
                .cloned()
                .collect(),
            provenance: c.provenance.clone(),
        }
    }
}

/// The position in `ops` (in fold order) just after its `revision`-th
/// content op and the lifecycle ops that follow it: where `fold_at` cuts.
fn cut(ops: &[Op], revision: u64) -> usize {
    let mut seen = 0;
    ops.iter()
        .position(|o| {
            if o.body.is_content() {
                seen += 1;
            }
            seen > revision
        })
        .unwrap_or(ops.len())
}

/// Two revisions of a plan, each as the part of it the ops between them can
/// have changed, with its digest.
pub(super) struct Parts {
    /// The earlier revision's part and digest.
    pub(super) earlier: (Content, String),
    /// The later revision's.
    pub(super) later: (Content, String),
}

/// Revisions `lo` ≤ `hi` of the plan whose log holds `ops`, folded in one
/// pass; `head_digest`, when known, is the digest of its head revision
/// `head`. `None` when the two cannot be folded in one pass (see the
/// module's doc).
pub(super) fn fold_two(
    plan: &str,
    mut ops: Vec<Op>,
    (lo, hi): (u64, u64),
    (head, head_digest): (u64, Option<String>),
) -> Option<Parts> {
    sort_ops(&mut ops);
    let (at_lo, at_hi) = (cut(&ops, lo), cut(&ops, hi));
    let mut between = ops.split_off(at_lo);
    between.truncate(at_hi - at_lo);
    let max_lamport = ops.iter().map(|o| o.lamport).max().unwrap_or(0);
    let changed = Changed::of(&between);
    let earlier = fold_owned(plan, ops);
    let earlier_digest = crate::wire::jcs::digest(&earlier.content).0;
    let earlier_part = changed.part(&earlier.content);
    if lo == hi {
        // One revision: one fold (applying no ops is not always the same
        // fold: at revision 0, `create_plan`'s provenance is not yet the
        // content's).
        let same = (earlier_part.clone(), earlier_digest.clone());
        return Some(Parts {
            earlier: (earlier_part, earlier_digest),
            later: same,
        });
    }
    let later = fold_after(earlier, max_lamport, &between)?;
    let later_digest = match head_digest {
        Some(d) if hi == head => d,
        _ => crate::wire::jcs::digest(&later.content).0,
    };
    Some(Parts {
        earlier: (earlier_part, earlier_digest),
        later: (changed.part(&later.content), later_digest),
    })
}
