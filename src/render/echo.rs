//! The bounded mutation echo, as prose and as JSON.

use super::node::{self, Style};
use crate::forge::echo::{Echo, MAX_STRING, Neighbour};
use crate::model::remedy::{Remedy, Voice};
use serde_json::{Value, json};

/// Bytes of issue lines an echo prints at most (after the first issue).
const ISSUE_BUDGET: usize = 700;
/// Each issue message in an echo is cut to this many bytes.
const MAX_MESSAGE: usize = 240;

fn neighbours(label: &str, list: &[Neighbour], more: usize) -> String {
    if list.is_empty() {
        return format!("{label}: (none)");
    }
    let mut s = format!(
        "{label}: {}",
        list.iter()
            .map(|n| format!("{} (edge {}, {})", n.node_id, n.edge_id, n.handle))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if more > 0 {
        s.push_str(&format!(" … and {more} more"));
    }
    s
}

/// The echo as prose.
pub(crate) fn text(e: &Echo, v: &dyn Voice) -> String {
    let mut out = vec![format!(
        "Plan {} (rev {}) — {}.",
        e.plan_id, e.revision, e.changed
    )];
    if let Some(n) = &e.node {
        out.push(String::new());
        let style = Style {
            cut: Some(MAX_STRING),
            ..Style::model()
        };
        // The echo lists neighbours below; the block keeps its own edges out.
        let mut lines = node::block(n, None, &[], &[], &style);
        if lines.last().is_some_and(|l| l.contains("on completion")) {
            lines.pop();
        }
        out.extend(lines);
        out.push(String::new());
        out.push(neighbours(
            "Predecessors",
            &e.predecessors,
            e.more_predecessors,
        ));
        out.push(neighbours("Successors", &e.successors, e.more_successors));
    }
    for d in &e.details {
        out.push(format!("  {d}"));
    }
    if !e.issues.is_empty() {
        let total = e.issues.len() + e.more_issues;
        out.push(format!("Issues near this change ({total}):"));
        // A byte budget keeps the echo small whatever the messages say; the
        // full messages are one `validate` away.
        let mut budget = ISSUE_BUDGET;
        let mut shown = 0;
        for i in &e.issues {
            let mut i = i.clone();
            i.message = crate::model::text::cut(&i.message, MAX_MESSAGE);
            let line = super::issues::line(&i, v);
            if shown > 0 && line.len() > budget {
                break;
            }
            budget = budget.saturating_sub(line.len());
            out.push(line);
            shown += 1;
        }
        if total > shown {
            out.push(format!(
                "  … and {} more ({} lists them all)",
                total - shown,
                v.say(&Remedy::Validate)
            ));
        }
    }
    out.push(format!(
        "Plan-wide: {} (state {}).",
        super::issues::counts(&e.counts),
        e.state
    ));
    out.join("\n")
}

fn neighbour_json(n: &Neighbour) -> Value {
    json!({"edgeId": n.edge_id, "nodeId": n.node_id, "handle": n.handle})
}

/// `{planId, revision, changed, node?, predecessors, successors, issues, counts}`.
pub(crate) fn json(e: &Echo) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("planId".into(), e.plan_id.clone().into());
    m.insert("revision".into(), e.revision.into());
    m.insert("state".into(), e.state.as_str().into());
    m.insert("changed".into(), e.changed.clone().into());
    if let Some(n) = &e.node {
        // Bounded like the prose: long strings are cut (and say so).
        let mut n = n.clone();
        let mut cut = false;
        for v in n.definition.values_mut() {
            cut |= v.cut_strings(MAX_STRING);
        }
        let mut node = crate::forge::present::node_json(&n);
        if cut {
            node["truncated"] = true.into();
        }
        m.insert("node".into(), node);
    }
    m.insert(
        "predecessors".into(),
        Value::Array(e.predecessors.iter().map(neighbour_json).collect()),
    );
    m.insert(
        "successors".into(),
        Value::Array(e.successors.iter().map(neighbour_json).collect()),
    );
    if !e.details.is_empty() {
        m.insert("details".into(), json!(e.details));
    }
    m.insert("issues".into(), super::issues::json_list(&e.issues));
    if e.more_issues > 0 {
        m.insert("moreIssues".into(), e.more_issues.into());
    }
    m.insert("counts".into(), super::issues::counts_json(&e.counts));
    Value::Object(m)
}
