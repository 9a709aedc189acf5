//! A slice of a plan (`read`) as prose and as JSON: where it sits, the edges
//! that cross its border, every node in full with its edges, and the issues
//! on its nodes. Pure.

use super::node::{self, Style};
use crate::forge::read::{Slice, SliceKind};
use crate::model::Edge;
use crate::model::hash::FastMap;
use crate::model::remedy::Voice;
use serde_json::{Value, json};

fn boundary_row(e: &Edge) -> String {
    format!("  · edge {}: {} → {} ({})", e.id, e.from, e.to, e.handle)
}

/// The edges crossing the border, within `room` bytes, then how many more.
fn boundary(out: &mut Vec<String>, label: &str, edges: &[Edge], room: usize) {
    if edges.is_empty() {
        out.push(format!("{label}: (none)"));
        return;
    }
    out.push(format!("{label} ({}):", edges.len()));
    let mut used = 0;
    for (k, e) in edges.iter().enumerate() {
        let row = boundary_row(e);
        if k > 0 && used + row.len() + 1 + 80 > room {
            out.push(format!(
                "  … and {} more edge(s) (each node below lists its own)",
                edges.len() - k
            ));
            return;
        }
        used += row.len() + 1;
        out.push(row);
    }
}

/// The first line: the plan, what the slice is, and where the plan stands.
pub(crate) fn header(s: &Slice) -> String {
    let what = match s.kind {
        SliceKind::Phase => format!("phase {}: {} node(s)", s.key, s.nodes.len()),
        SliceKind::Unphased => format!("{}: {} node(s)", s.key, s.nodes.len()),
        SliceKind::Node => match &s.phase {
            Some(p) => format!("node {} (phase {p})", s.key),
            None => format!("node {} (unphased)", s.key),
        },
    };
    format!(
        "Slice of {} — {what}; revision {}, {}, digest {}.",
        s.plan_id, s.revision, s.state, s.digest
    )
}

/// The slice as prose, within `budget` bytes: the header, the border, the
/// nodes in full while they fit, then the id of every node not shown (read
/// each by id), then the issues on the slice's nodes, grouped by cause.
pub(crate) fn text(s: &Slice, v: &dyn Voice, budget: usize) -> String {
    let mut out = vec![header(s)];
    let share = budget / 8;
    boundary(
        &mut out,
        "Incoming from outside the slice",
        &s.incoming,
        share,
    );
    boundary(
        &mut out,
        "Outgoing to outside the slice",
        &s.outgoing,
        share,
    );
    let mut settling = node::settling_joins(&s.nodes);
    settling.extend(s.settling.iter().map(String::as_str));
    let style = Style {
        settling: Some(&settling),
        ..Style::model()
    };
    // Each node's edges, grouped once (a phase can hold thousands of nodes).
    let mut from: FastMap<&str, Vec<&Edge>> = FastMap::default();
    let mut to: FastMap<&str, Vec<&Edge>> = FastMap::default();
    for e in s.edges.iter().chain(&s.outgoing) {
        from.entry(e.from.as_str()).or_default().push(e);
    }
    for e in s.edges.iter().chain(&s.incoming) {
        to.entry(e.to.as_str()).or_default().push(e);
    }
    let more = crate::model::remedy::Remedy::ValidateWithin {
        max_bytes: crate::model::budget::FINDINGS as u64 * 4,
    };
    let issues = super::issues::within(
        &s.issues,
        v,
        (budget / 4).min(crate::model::budget::FINDINGS),
        &more,
    );
    let mut used: usize = out.iter().map(|l| l.len() + 1).sum::<usize>() + issues.len() + 200;
    // What naming every node not shown costs, as nodes are shown.
    let mut names_left: usize = s.nodes.iter().map(|n| n.id.len() + 4).sum();
    let mut shown = 0;
    for n in &s.nodes {
        let outgoing = from.get(n.id.as_str()).map_or(&[][..], Vec::as_slice);
        let incoming = to.get(n.id.as_str()).map_or(&[][..], Vec::as_slice);
        let block = node::block(n, None, outgoing, incoming, &style);
        let size: usize = block.iter().map(|l| l.len() + 1).sum::<usize>() + 1;
        let names_after = names_left - (n.id.len() + 4);
        if used + size + names_after > budget {
            break;
        }
        used += size;
        names_left = names_after;
        out.push(String::new());
        out.extend(block);
        shown += 1;
    }
    if shown == 0
        && let Some(n) = s.nodes.first()
    {
        // A node larger than the budget: its first lines, then how to read
        // it whole.
        let outgoing = from.get(n.id.as_str()).map_or(&[][..], Vec::as_slice);
        let incoming = to.get(n.id.as_str()).map_or(&[][..], Vec::as_slice);
        let block = node::block(n, None, outgoing, incoming, &style);
        let room = budget
            .saturating_sub(used.min(budget) + 200)
            .max(budget / 2);
        let mut size = 0;
        out.push(String::new());
        let total = block.len();
        for (k, mut l) in block.into_iter().enumerate() {
            if k == 0 && l.len() + 1 > room {
                // Even its first line is larger than the read: cut short.
                l = crate::model::text::cut(&l, room.saturating_sub(4));
            }
            if k > 0 && size + l.len() + 1 > room {
                out.push(format!(
                    "    … and {} more line(s) of `{}`: it is larger than this read ({} bytes; a read can be given up to {})",
                    total - k,
                    n.id,
                    budget,
                    crate::model::budget::CEILING
                ));
                break;
            }
            size += l.len() + 1;
            out.push(l);
        }
        used += size;
        shown = 1;
    }
    if shown < s.nodes.len() {
        out.push(String::new());
        out.push(not_shown(s, shown, v, budget.saturating_sub(used)));
    }
    out.push(String::new());
    out.push(issues);
    out.join("\n")
}

/// `Not shown in full (40 nodes; read each by id, …): `a`, `b`, …`: every
/// node after the first `shown`, by id, as long as `room` allows.
fn not_shown(s: &Slice, shown: usize, v: &dyn Voice, room: usize) -> String {
    let rest = &s.nodes[shown..];
    let how = v.say(&crate::model::remedy::Remedy::ReadNode {
        node: rest[0].id.to_string(),
    });
    let mut line = format!(
        "Not shown in full ({} node(s); read each by its id, as in {how}):",
        rest.len()
    );
    // Every id when they all fit; else as many as fit with room for the
    // closing words.
    let all: usize = rest.iter().map(|n| n.id.len() + 4).sum();
    let fits_all = line.len() + all <= room.max(200);
    for (k, n) in rest.iter().enumerate() {
        if !fits_all && line.len() + n.id.len() + 4 + 90 > room.max(200) {
            line.push_str(&format!(
                " … and {} more, in the outline (the slice is larger than one read)",
                rest.len() - k
            ));
            break;
        }
        line.push_str(if k == 0 { " `" } else { ", `" });
        line.push_str(&n.id);
        line.push('`');
    }
    line
}

fn row_json(e: &Edge) -> Value {
    json!({"edgeId": e.id.as_str(), "from": e.from.as_str(), "to": e.to.as_str(), "handle": e.handle.as_str()})
}

/// `{planId, key, phase?, nodes, edges, boundary: {incoming, outgoing},
/// issues}`; `edges` are those inside the slice, the boundary rows those
/// that cross its border.
pub(crate) fn json(s: &Slice) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("planId".into(), s.plan_id.clone().into());
    m.insert("key".into(), s.key.clone().into());
    if let Some(p) = &s.phase {
        m.insert("phase".into(), p.clone().into());
    }
    m.insert(
        "nodes".into(),
        Value::Array(
            s.nodes
                .iter()
                .map(crate::forge::present::node_json)
                .collect(),
        ),
    );
    m.insert(
        "edges".into(),
        Value::Array(
            s.edges
                .iter()
                .map(crate::forge::present::edge_json)
                .collect(),
        ),
    );
    m.insert(
        "boundary".into(),
        json!({
            "incoming": s.incoming.iter().map(row_json).collect::<Vec<_>>(),
            "outgoing": s.outgoing.iter().map(row_json).collect::<Vec<_>>(),
        }),
    );
    m.insert("issues".into(), super::issues::json_list(&s.issues));
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::*;
    use crate::model::Issue;
    use crate::model::lifecycle::State;
    use serde_json::json;

    fn slice() -> Slice {
        let mut a = call_with(
            "classify",
            "tickets_get",
            json!({"t": r("fetch", Some("id"))}),
            &[],
        );
        a.phase = Some("p2".into());
        let mut j = join("merge");
        j.phase = Some("p2".into());
        Slice {
            plan_id: "plan-x".into(),
            state: State::Editable,
            revision: 7,
            digest: "d".into(),
            kind: SliceKind::Phase,
            key: "p2".into(),
            phase: Some("p2".into()),
            nodes: vec![a, j],
            edges: vec![edge("e3", "classify", "merge", "always")],
            incoming: vec![
                edge("e2", "fetch", "classify", "always"),
                edge("e9", "side", "merge", "always"),
            ],
            outgoing: vec![edge("e4", "merge", "done", "error")],
            settling: vec![],
            issues: vec![
                Issue::new(
                    crate::model::Code {
                        name: "unknown_tool",
                        severity: crate::model::Severity::Blocking,
                    },
                    "no such tool",
                )
                .node("classify"),
            ],
        }
    }

    /// A call with hundreds of long argument names: its heading names a
    /// dozen, and a read smaller than even that heading cuts it short
    /// (it printed every name, 21 KB for a 1 KB read).
    #[test]
    fn a_heading_larger_than_the_read_is_cut_short() {
        let args: serde_json::Map<String, serde_json::Value> = (0..300)
            .map(|i| (format!("k{i:03}_{}", "x".repeat(60)), json!(i)))
            .collect();
        let mut s = slice();
        s.kind = SliceKind::Node;
        s.key = "classify".into();
        s.nodes = vec![call_with(
            "classify",
            "t",
            serde_json::Value::Object(args),
            &[],
        )];
        let voice = crate::cli::voice::CliVoice::default();
        let whole = text(&s, &voice, crate::model::budget::READ);
        let head = whole.lines().find(|l| l.starts_with("CALL")).unwrap();
        assert!(head.ends_with(", … 288 more)"), "{head}");
        assert_eq!(head.matches("_xxx").count(), 12);
        let small = text(&s, &voice, 1024);
        let head = small.lines().find(|l| l.starts_with("CALL")).unwrap();
        assert!(head.len() <= 1024 && head.ends_with('…'), "{head}");
        assert!(small.len() < 2048, "{} bytes", small.len());
        assert!(small.contains("more line(s) of `classify`"));
    }

    #[test]
    fn the_slice_locates_itself() {
        let t = text(
            &slice(),
            &crate::cli::voice::CliVoice::default(),
            crate::model::budget::READ,
        );
        assert!(t.starts_with(
            "Slice of plan-x — phase p2: 2 node(s); revision 7, editable, digest d.\n"
        ));
        assert!(t.contains("Incoming from outside the slice (2):\n  · edge e2: fetch → classify (always)\n  · edge e9: side → merge (always)"));
        assert!(
            t.contains("Outgoing to outside the slice (1):\n  · edge e4: merge → done (error)")
        );
        // Full blocks with their edges, a join with its arrivals.
        assert!(t.contains("CALL — `classify` — tickets_get(t) · phase p2"));
        assert!(t.contains("→ on always → step merge (edge e3)"));
        assert!(t.contains("awaits 2 incoming edge(s):"));
        assert!(t.contains("→ ABORT on error → step done (edge e4)"));
        assert!(
            t.ends_with("Issues (1):\n  · (blocking) unknown_tool [node classify]: no such tool")
        );
        // The same edge into a settling join outside the slice: an arrival.
        let settled = Slice {
            settling: vec!["done".into()],
            ..slice()
        };
        let t = text(
            &settled,
            &crate::cli::voice::CliVoice::default(),
            crate::model::budget::READ,
        );
        assert!(
            t.contains("→ on error, arrives at the settling join → step done (edge e4)"),
            "{t}"
        );
    }

    #[test]
    fn json_has_the_spec_shape() {
        let j = json(&slice());
        let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "planId", "key", "phase", "nodes", "edges", "boundary", "issues"
            ]
        );
        assert_eq!(
            j["boundary"]["incoming"][0],
            json!({"edgeId": "e2", "from": "fetch", "to": "classify", "handle": "always"})
        );
        assert_eq!(
            j["nodes"][0]["definition"]["args"]["t"]["$ref"]["node"],
            "fetch"
        );
    }

    #[test]
    fn unphased_slices_have_no_phase() {
        let mut s = slice();
        s.kind = SliceKind::Unphased;
        s.key = "(unphased)".into();
        s.phase = None;
        assert!(json(&s).get("phase").is_none());
        assert!(
            text(
                &s,
                &crate::cli::voice::CliVoice::default(),
                crate::model::budget::READ
            )
            .starts_with("Slice of plan-x — (unphased): 2 node(s);")
        );
        let mut n = slice();
        n.kind = SliceKind::Node;
        n.key = "classify".into();
        n.nodes.truncate(1);
        assert!(
            text(
                &n,
                &crate::cli::voice::CliVoice::default(),
                crate::model::budget::READ
            )
            .starts_with("Slice of plan-x — node classify (phase p2);")
        );
        let empty = Slice {
            incoming: vec![],
            outgoing: vec![],
            issues: vec![],
            ..slice()
        };
        let t = text(
            &empty,
            &crate::cli::voice::CliVoice::default(),
            crate::model::budget::READ,
        );
        assert!(t.contains("Incoming from outside the slice: (none)"));
        assert!(t.ends_with("No issues."));
    }
}
