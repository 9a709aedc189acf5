//! Complexity: O(size of the definitions) (one walk over every value).

use crate::model::remedy::{Fill, Remedy};
use crate::model::{Issue, Map, Node, Value};

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
        let budget = crate::model::budget::READ;
        let mut phases: Vec<(&str, usize, usize, Option<&Node>)> = Vec::new();
        let mut at: crate::model::hash::FastMap<&str, usize> = Default::default();
        for (i, n) in cx.content.nodes.iter().enumerate() {
            let Some(p) = n.phase.as_deref().filter(|p| !p.is_empty()) else { continue };
            let k = *at.entry(p).or_insert_with(|| {
                phases.push((p, 0, 0, None));
                phases.len() - 1
            });
            let (_, size, count, first_over) = &mut phases[k];
            *count += 1;
            // A node too large for a read by itself is about the node, not
            // the phase: no split helps.
            let own = cx.node_size(i);
            if own > budget {
                continue;
            }
            *size += own;
            if *size > budget && first_over.is_none() {
                *first_over = Some(n);
            }
        }
        for (phase, size, count, first_over) in phases {
            let Some(cut) = first_over else { continue };
            out.push(
                Issue::new(CODE,
                    format!(
                        "phase `{phase}` has {} node(s), about {} KB when read in full, more than one read shows ({} KB): a read shows its first nodes in full and the others by id; it overflows at node `{}`",
                        crate::model::text::thousands(count),
                        crate::model::text::thousands(size / 1024),
                        budget / 1024,
                        cut.id
                    ),
                )
                .node(cut.id.clone())
                .fix(Remedy::SetPhase {
                    node: cut.id.clone(),
                    phase: Some(Fill::Choose(format!("a new phase after `{phase}`, for this node and the ones after it"))),
                }),
            );
        }
    }
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
