//! Complexity: O(size of the definitions) (one walk over every value); in
//! a warm session the sums are kept ([`Phases`]) and nodes added at the end
//! cost only themselves.

use crate::model::hash::FastMap;
use crate::model::remedy::{Fill, Remedy};
use crate::model::touched::Touched;
use crate::model::{Content, Issue, Map, Node, Value};

declare_check! {
    /// ## What it finds
    /// A phase whose nodes no longer fit one read: rendered in full they
    /// would take more than the 16 KB a read shows by default (estimated from
    /// the size of their definitions).
    ///
    /// ## Why it matters
    /// A model works on a plan it cannot hold by reading it one phase at a
    /// time. A read of a phase larger than the budget shows the first nodes
    /// in full and only the ids of the others, so every further node costs
    /// the reader another call — and the phase stops being a unit one can
    /// think about at once.
    ///
    /// ## How to fix
    /// Split the phase: give the later nodes their own phase (a phase is
    /// just a name on each node). Or read with a larger budget when the
    /// phase really is one unit.
    ///
    /// ## Example
    /// A phase `research` of 600 calls, each with its arguments, output and
    /// authority. Fixed: the first 100 stay in `research`, the others move to
    /// `research_2` … `research_6`.
    pub OversizedPhase { code: "oversized_phase", severity: Advisory, needs: NOTHING, source: Check }
    fn run(cx, out) {
        let fresh;
        let phases = match cx.kept_phases {
            Some(p) => p,
            None => {
                fresh = Phases::new(cx.content, |i| cx.node_size(i));
                &fresh
            }
        };
        let budget = crate::model::budget::READ;
        for sum in &phases.list {
            let Some(cut) = sum.first_over.map(|i| &cx.content.nodes[i]) else { continue };
            let phase = &sum.name;
            out.push(
                Issue::new(CODE,
                    format!(
                        "phase `{phase}` has {} node(s), about {} KB when read in full, more than one read shows ({} KB): a read shows its first nodes in full and the others by id; it overflows at node `{}`",
                        crate::model::text::thousands(sum.count),
                        crate::model::text::thousands(sum.size / 1024),
                        budget / 1024,
                        cut.id
                    ),
                )
                .node(cut.id.clone())
                .fix(Remedy::SetPhase {
                    node: cut.id.to_string(),
                    phase: Some(Fill::Choose(format!("a new phase after `{phase}`, for this node and the ones after it"))),
                }),
            );
        }
    }
}

/// Each phase's node count and read size, in the order of its first node,
/// and where it overflows one read; kept between incremental runs (issue
/// 17), where a change that adds nodes at the end costs only those nodes.
#[derive(Debug, Default)]
pub(crate) struct Phases {
    list: Vec<PhaseSum>,
    /// Phase name → its place in `list`.
    at: FastMap<String, usize>,
    /// Per node: its phase's place in `list` and its own read size.
    nodes: Vec<(Option<usize>, usize)>,
}

/// One phase's sums.
#[derive(Debug)]
struct PhaseSum {
    name: String,
    /// Nodes in it.
    count: usize,
    /// The read size of its nodes, less those too large for a read alone.
    size: usize,
    /// The node at which `size` first goes over one read.
    first_over: Option<usize>,
}

impl Phases {
    /// The sums of `content`, `size` giving each node's read size.
    pub(crate) fn new(content: &Content, size: impl Fn(usize) -> usize) -> Phases {
        let mut p = Phases::default();
        for (i, n) in content.nodes.iter().enumerate() {
            p.push(i, n, size(i));
        }
        p
    }

    /// Brings the sums up to `content` after `touched`: the nodes added at
    /// the end are counted; false (then they are to be made again) when a
    /// node was removed or a touched one changed its phase or size.
    pub(crate) fn update(
        &mut self,
        content: &Content,
        touched: &Touched,
        index_of: impl Fn(&str) -> Option<usize>,
        size: impl Fn(usize) -> usize,
    ) -> bool {
        let n0 = self.nodes.len();
        if touched.removed || content.nodes.len() < n0 {
            return false;
        }
        for id in &touched.nodes {
            let Some(i) = index_of(id).filter(|&i| i < n0) else {
                continue;
            };
            let (slot, own) = self.nodes[i];
            let name = slot.map(|k| self.list[k].name.as_str());
            if name != phase_of(&content.nodes[i]) || own != size(i) {
                return false;
            }
        }
        for (i, n) in content.nodes.iter().enumerate().skip(n0) {
            self.push(i, n, size(i));
        }
        true
    }

    /// Counts node `i`, `n`, of read size `own`.
    fn push(&mut self, i: usize, n: &Node, own: usize) {
        let slot = phase_of(n).map(|p| match self.at.get(p) {
            Some(&k) => k,
            None => {
                self.list.push(PhaseSum {
                    name: p.to_string(),
                    count: 0,
                    size: 0,
                    first_over: None,
                });
                self.at.insert(p.to_string(), self.list.len() - 1);
                self.list.len() - 1
            }
        });
        self.nodes.push((slot, own));
        let Some(k) = slot else { return };
        let sum = &mut self.list[k];
        sum.count += 1;
        // A node too large for a read by itself is about the node, not the
        // phase: no split helps.
        if own > crate::model::budget::READ {
            return;
        }
        sum.size += own;
        if sum.size > crate::model::budget::READ && sum.first_over.is_none() {
            sum.first_over = Some(i);
        }
    }
}

/// The phase a node is in (none when empty).
fn phase_of(n: &Node) -> Option<&str> {
    n.phase.as_deref().filter(|p| !p.is_empty())
}

/// About how many bytes a node takes when read in full: a fixed cost for
/// its lines, plus its text.
pub(crate) fn estimate(n: &Node) -> usize {
    96 + n.id.len() + map_size(&n.definition)
}

fn map_size(m: &Map) -> usize {
    m.into_iter()
        .map(|(k, v)| 8 + k.len() + value_size(v))
        .sum()
}

fn value_size(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len() + 2,
        Value::Array(a) => a.iter().map(|x| 4 + value_size(x)).sum(),
        Value::Object(m) => map_size(m),
        Value::Ref(r) => 40 + r.node.len(),
        _ => 8,
    }
}

// The kept state on disk (see `super::kept_disk`).
super::kept_disk::persist_fields!(Phases {
    list,
    at,
    nodes as super::kept_disk::OptPairs
});
super::kept_disk::persist_fields!(PhaseSum {
    name,
    count,
    size,
    first_over
});

#[cfg(test)]
mod tests {
    use super::OversizedPhase;
    use crate::check::testing::*;

    fn phase_of(n: usize, phase: &str, text: usize) -> Vec<crate::model::Node> {
        (0..n)
            .map(|i| {
                let mut node = node(
                    &format!("n{i}"),
                    crate::model::NodeKind::Call,
                    serde_json::json!({"tool": "t", "args": {"text": "x".repeat(text)}}),
                );
                node.phase = Some(phase.into());
                node
            })
            .collect()
    }

    #[test]
    fn fires_on_a_phase_larger_than_one_read() {
        let p = plan(phase_of(200, "research", 100), vec![]);
        let issues = run_one(&OversizedPhase, &p);
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert!(
            issues[0]
                .message
                .contains("phase `research` has 200 node(s)"),
            "{}",
            issues[0].message
        );
        assert!(issues[0].node_id.is_some());
    }

    #[test]
    fn one_large_node_is_not_a_phase_to_split() {
        let p = plan(phase_of(1, "research", 40_000), vec![]);
        assert!(run_one(&OversizedPhase, &p).is_empty());
    }

    #[test]
    fn a_phase_that_fits_one_read_is_fine() {
        let p = plan(phase_of(40, "research", 100), vec![]);
        assert!(run_one(&OversizedPhase, &p).is_empty());
    }
}
