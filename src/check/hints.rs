//! Did-you-mean hints for the missing node ids that references and
//! reference shorthands name (`missing_reference`, `ref_lookalike`), by a
//! rule that depends on the content alone, never on which node asks first,
//! so that a node's findings can be checked again on their own (issue 17).
//!
//! The rule: on a plan of up to [`LIST_UP_TO`] nodes every missing id gets
//! a "did you mean", and the [`BUDGET`] smallest of them (in string order)
//! also the list of the plan's ids, nearest first; on a larger plan only
//! those [`BUDGET`] get a "did you mean" (each costs a pass over the ids,
//! so a plan with many broken ids stays linear). The nearest id is the one
//! [`suggest::closest`] picks: lowest score, first in node order.
//!
//! [`KeptHints`] keeps every missing id's hint between runs and brings it
//! up to date from what a change touched: an id that became (or stopped
//! being) one of the budgeted, a nearest id removed or moved, or a touched
//! id nearer than the kept one; it says whose hint changed, so that only
//! the nodes naming those ids are checked again.

use super::Graph;
use super::support::{BUDGET, IdHint, LIST_UP_TO, LiteralHit, is_canonical, literal_hits_of};
use crate::model::hash::{FastMap, FastSet};
use crate::model::touched::Touched;
use crate::model::{Node, Value, suggest};
use std::cell::RefCell;
use std::collections::BTreeMap;

/// The node id a literal value names: a reference's target, or the target
/// of a string spelling one in the command line's shorthand (`@fetch.body`).
pub(crate) fn name_of(value: &Value) -> Option<String> {
    match value {
        Value::Ref(r) => Some(r.node.clone()),
        Value::String(s) => super::ref_lookalike::shorthand(s).map(|r| r.node),
        _ => None,
    }
}

/// Every node id `node` names (see [`name_of`]), each once, sorted.
pub(crate) fn names_of(node: &Node) -> Vec<String> {
    let mut out: Vec<String> = literal_hits_of(node, 0)
        .iter()
        .filter_map(|h| name_of(h.value))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The hint for `input`, a node id the plan does not have, under the rule
/// above; `budgeted`: it is one of the [`BUDGET`] smallest missing ids.
pub(crate) fn hint(g: &Graph, input: &str, budgeted: bool) -> IdHint {
    let closest = if budgeted || g.len() <= LIST_UP_TO {
        suggest::closest(input, ids(g)).map(str::to_string)
    } else {
        None
    };
    with_closest(g, input, closest, budgeted)
}

fn ids<'g>(g: &'g Graph) -> impl Iterator<Item = &'g str> + Clone + 'g {
    g.content.nodes.iter().map(|n| n.id.as_str())
}

/// The hint for `input` once its nearest id is known.
fn with_closest(g: &Graph, input: &str, closest: Option<String>, budgeted: bool) -> IdHint {
    let did_you_mean = match &closest {
        Some(c) => format!(" (did you mean `{c}`?)"),
        None => String::new(),
    };
    let listed = budgeted && g.len() <= LIST_UP_TO;
    let text = if listed {
        format!(
            "{did_you_mean}; the plan's nodes are {}",
            suggest::choices(input, ids(g))
        )
    } else {
        did_you_mean
    };
    IdHint {
        text,
        closest,
        listed,
    }
}

/// The hints one run hands out: which missing ids are budgeted, and each
/// hint once made (or kept from the last run).
#[derive(Debug, Default)]
pub(crate) struct Hints<'k> {
    budgeted: FastSet<String>,
    kept: Option<&'k BTreeMap<String, IdHint>>,
    memo: RefCell<FastMap<String, IdHint>>,
}

impl<'k> Hints<'k> {
    /// For a run over the whole plan: the budget from every canonical
    /// node's named ids (its `hits`).
    pub(crate) fn of(g: &Graph, hits: &[LiteralHit]) -> Hints<'k> {
        let mut missing: Vec<String> = hits
            .iter()
            .filter(|h| is_canonical(g, h.node))
            .filter_map(|h| name_of(h.value))
            .filter(|id| g.index_of(id).is_none())
            .collect();
        missing.sort_unstable();
        missing.dedup();
        missing.truncate(BUDGET);
        Hints {
            budgeted: missing.into_iter().collect(),
            kept: None,
            memo: RefCell::default(),
        }
    }

    /// The hint for `input`, a node id the plan does not have.
    pub(crate) fn for_missing(&self, g: &Graph, input: &str) -> IdHint {
        if let Some(h) = self.kept.and_then(|k| k.get(input)) {
            return h.clone();
        }
        if let Some(h) = self.memo.borrow().get(input) {
            return h.clone();
        }
        let h = hint(g, input, self.budgeted.contains(input));
        self.memo.borrow_mut().insert(input.to_string(), h.clone());
        h
    }
}

/// Every missing named id's hint, kept between runs (see the module doc).
#[derive(Debug, Default)]
pub(crate) struct KeptHints {
    /// Whether it describes the content of the last run.
    ready: bool,
    /// Whether it had more than [`LIST_UP_TO`] nodes.
    large: bool,
    /// Every id some node names that the content does not have, in string
    /// order (the first [`BUDGET`] are the budgeted), with its hint.
    missing: BTreeMap<String, IdHint>,
}

impl KeptHints {
    /// Brings the table up to `g`'s content. `named` says whether some node
    /// names an id; `renamed` holds the ids touched readers stopped or
    /// started naming. Without `touched` (or before the first run)
    /// everything is made again. Returns the ids whose hint changed (the
    /// nodes naming them are to be checked again).
    pub(crate) fn update(
        &mut self,
        g: &Graph,
        named: &dyn Fn(&str) -> bool,
        all_named: &mut dyn Iterator<Item = &str>,
        renamed: &FastSet<String>,
        touched: Option<&Touched>,
    ) -> Vec<String> {
        let large = g.len() > LIST_UP_TO;
        let t = match touched {
            Some(t) if self.ready && large == self.large => t,
            _ => {
                let crossed = touched.is_some() && self.ready;
                self.rebuild(g, all_named, large);
                // Past the list limit either way every hint may differ:
                // every node naming a missing id is checked again.
                return match crossed {
                    true => self.missing.keys().cloned().collect(),
                    false => Vec::new(),
                };
            }
        };
        let before = self.budgeted();
        for id in renamed.iter().chain(&t.nodes) {
            if named(id) && g.index_of(id).is_none() {
                if !self.missing.contains_key(id) {
                    // Made below (a fresh id is never in `before`).
                    self.missing.insert(id.clone(), IdHint::none());
                }
            } else {
                self.missing.remove(id);
            }
        }
        let after = self.budgeted();
        let fresh: FastSet<&String> = renamed.iter().chain(&t.nodes).collect();
        let mut changed = Vec::new();
        // On a large plan an id outside the budget has no hint to update:
        // only the budgeted, and those just leaving it, are looked at.
        let look: Vec<String> = if large {
            after.iter().chain(&before).cloned().collect()
        } else {
            self.missing.keys().cloned().collect()
        };
        for id in look {
            let Some(old) = self.missing.get(&id) else {
                continue;
            };
            let budgeted = after.contains(&id);
            let new = if fresh.contains(&id) || budgeted != before.contains(&id) {
                hint(g, &id, budgeted)
            } else if large && !budgeted {
                continue;
            } else {
                let closest = nearer(g, &id, old.closest.as_deref(), &t.nodes);
                if budgeted && !large && !t.nodes.is_empty() {
                    // The listed ids may have changed.
                    with_closest(g, &id, closest, true)
                } else if closest == old.closest {
                    continue;
                } else {
                    with_closest(g, &id, closest, budgeted)
                }
            };
            if &new != old {
                changed.push(id.clone());
                self.missing.insert(id, new);
            }
        }
        changed
    }

    /// Everything made again for `g`'s content.
    fn rebuild(&mut self, g: &Graph, all_named: &mut dyn Iterator<Item = &str>, large: bool) {
        let mut missing: Vec<&str> = all_named.filter(|id| g.index_of(id).is_none()).collect();
        missing.sort_unstable();
        missing.dedup();
        self.missing = missing
            .iter()
            .enumerate()
            .map(|(k, id)| (id.to_string(), hint(g, id, k < BUDGET)))
            .collect();
        self.large = large;
        self.ready = true;
    }

    /// The budgeted ids: the first [`BUDGET`] missing ones.
    fn budgeted(&self) -> FastSet<String> {
        self.missing.keys().take(BUDGET).cloned().collect()
    }

    /// The hints for this run's checks, from the table.
    pub(crate) fn lend(&self) -> Hints<'_> {
        Hints {
            budgeted: self.budgeted(),
            kept: Some(&self.missing),
            memo: RefCell::default(),
        }
    }
}

/// The nearest id to `input` after a change touching `touched`, given the
/// nearest before: found again over every id when that one was touched
/// (removed, or moved in node order), else the nearer of it and the
/// touched ids still present (ties to the first in node order).
fn nearer(g: &Graph, input: &str, was: Option<&str>, touched: &FastSet<String>) -> Option<String> {
    if was.is_some_and(|w| touched.contains(w)) {
        return suggest::closest(input, ids(g)).map(str::to_string);
    }
    let at = |id: &str| g.index_of(id).unwrap_or(usize::MAX);
    let mut best: Option<(usize, usize, &str)> =
        was.and_then(|w| suggest::score(input, w).map(|s| (s, at(w), w)));
    for t in touched {
        let Some(i) = g.index_of(t) else { continue };
        let Some(s) = suggest::score(input, t) else {
            continue;
        };
        if best.is_none_or(|(bs, bi, _)| (s, i) < (bs, bi)) {
            best = Some((s, i, t));
        }
    }
    best.map(|(_, _, id)| id.to_string())
}

// The kept state on disk (see `super::kept_disk`).
super::kept_disk::persist_fields!(KeptHints {
    ready,
    large,
    missing
});

#[cfg(test)]
mod tests {
    use crate::check::incremental::{Kept, run};
    use crate::check::testing::{call_with, entry, plan, r, step};
    use crate::model::touched::Touched;
    use crate::model::{Content, Issue, Node, OpBody};
    use serde_json::json;

    /// A plan over the list limit: an entry, 2,100 steps `w0000` …, and
    /// 40 readers `r0` … each naming a missing id `w0000x`, `w0050x` … (so
    /// more missing ids than the budget).
    fn large() -> Content {
        let mut nodes = vec![entry("s")];
        nodes.extend((0..2100).map(|k| step(&format!("w{k:04}"))));
        nodes.extend((0..40).map(|k| reader(&format!("r{k}"), &format!("w{:04}x", k * 50))));
        plan(nodes, vec![])
    }

    fn reader(id: &str, names: &str) -> Node {
        call_with(id, "t", json!({"x": r(names, None)}), &[])
    }

    fn apply(c: &mut Content, op: &OpBody) {
        match op {
            OpBody::AddNode { node } => c.nodes.push(node.clone()),
            OpBody::RemoveNode { node_id, .. } => c.nodes.retain(|n| n.id != *node_id),
            _ => unreachable!("not used here"),
        }
    }

    fn missing(issues: &[Issue]) -> Vec<&str> {
        issues
            .iter()
            .filter(|i| i.code.name == "missing_reference")
            .map(|i| i.message.as_str())
            .collect()
    }

    /// On a large plan the budgeted ids are the smallest missing ones,
    /// whatever the node order, and after each change the kept hints
    /// (an id entering the budget and pushing one out, a nearest id
    /// removed, a nearer one added) give what a full check gives.
    #[test]
    fn large_plan_hints_follow_every_change_and_not_node_order() {
        let mut c = large();
        let full = crate::check::run(&c, None, vec![]);
        let with_hint = |is: &[Issue]| {
            missing(is)
                .iter()
                .filter(|m| m.contains("did you mean"))
                .count()
        };
        assert_eq!(missing(&full.issues).len(), 40);
        assert_eq!(with_hint(&full.issues), super::BUDGET);
        // The 32 smallest: `w0000x` … `w1550x` (not `w1600x` …).
        assert!(
            missing(&full.issues)
                .iter()
                .any(|m| m.contains("`w1550x` (did you mean `w1550`?)"))
        );
        assert!(
            missing(&full.issues)
                .iter()
                .any(|m| m.contains("no node `w1600x`") && !m.contains("did you mean"))
        );
        let mut reversed = c.clone();
        reversed.nodes.reverse();
        let mut a = missing(&full.issues);
        let back = crate::check::run(&reversed, None, vec![]);
        let mut b = missing(&back.issues);
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "the hints do not depend on node order");

        let mut kept = Kept::default();
        assert_eq!(
            run(&mut kept, &c, None, vec![], None, None).issues,
            full.issues
        );
        let steps = [
            // A smaller missing id: enters the budget, `w1550x` leaves it.
            OpBody::AddNode {
                node: reader("r_new", "a_missing"),
            },
            // The nearest id of `w0050x` goes: `w0051` or another is next.
            OpBody::RemoveNode {
                node_id: "w0050".into(),
                incident_edge_ids: vec![],
            },
            // Nearer than `w0100` for `w0100x` (the same letters in capitals).
            OpBody::AddNode {
                node: step("W0100X"),
            },
            // Back out of the budget: `w1550x` is in again.
            OpBody::RemoveNode {
                node_id: "r_new".into(),
                incident_edge_ids: vec![],
            },
            // `w0000x` is now a node: its reader's finding goes.
            OpBody::AddNode {
                node: step("w0000x"),
            },
        ];
        for (k, op) in steps.iter().enumerate() {
            let t = Touched::of(&c, [op]);
            apply(&mut c, op);
            let full = crate::check::run(&c, None, vec![]);
            let inc = run(&mut kept, &c, None, vec![], Some(&t), None);
            assert_eq!(missing(&inc.issues), missing(&full.issues), "step {k}");
            assert_eq!(inc.issues, full.issues, "step {k}");
            let w1550 = missing(&inc.issues)
                .into_iter()
                .find(|m| m.contains("no node `w1550x`"))
                .unwrap();
            // Out of the budget while `a_missing` is named (steps 0 to 2).
            assert_eq!(w1550.contains("did you mean"), k >= 3, "step {k}: {w1550}");
        }
        assert!(
            missing(&kept_run(&mut kept, &c))
                .iter()
                .any(|m| m.contains("`w0100x` (did you mean `W0100X`?)"))
        );
    }

    /// A plan growing past the list limit loses the list of ids in every
    /// hint, also of nodes the change did not touch.
    #[test]
    fn crossing_the_list_limit_makes_every_hint_again() {
        let mut nodes = vec![entry("s"), reader("r", "w0007x")];
        nodes.extend((0..super::LIST_UP_TO - 2).map(|k| step(&format!("w{k:04}"))));
        let mut c = plan(nodes, vec![]);
        let mut kept = Kept::default();
        let first = run(&mut kept, &c, None, vec![], None, None);
        assert!(missing(&first.issues)[0].contains("the plan's nodes are"));
        for op in [
            OpBody::AddNode { node: step("more") },
            OpBody::RemoveNode {
                node_id: "more".into(),
                incident_edge_ids: vec![],
            },
        ] {
            let t = Touched::of(&c, [&op]);
            apply(&mut c, &op);
            let full = crate::check::run(&c, None, vec![]);
            let inc = run(&mut kept, &c, None, vec![], Some(&t), None);
            assert_eq!(inc.issues, full.issues, "{op:?}");
        }
    }

    fn kept_run(kept: &mut Kept, c: &Content) -> Vec<Issue> {
        run(kept, c, None, vec![], Some(&Touched::default()), None).issues
    }
}
