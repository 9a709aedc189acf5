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

fn boundary(out: &mut Vec<String>, label: &str, edges: &[Edge]) {
    if edges.is_empty() {
        out.push(format!("{label}: (none)"));
    } else {
        out.push(format!("{label} ({}):", edges.len()));
        out.extend(edges.iter().map(boundary_row));
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

/// The slice as prose.
pub(crate) fn text(s: &Slice, v: &dyn Voice) -> String {
    let mut out = vec![header(s)];
    boundary(&mut out, "Incoming from outside the slice", &s.incoming);
    boundary(&mut out, "Outgoing to outside the slice", &s.outgoing);
    let style = Style::model();
    // Each node's edges, grouped once (a phase can hold thousands of nodes).
    let mut from: FastMap<&str, Vec<&Edge>> = FastMap::default();
    let mut to: FastMap<&str, Vec<&Edge>> = FastMap::default();
    for e in s.edges.iter().chain(&s.outgoing) {
        from.entry(e.from.as_str()).or_default().push(e);
    }
    for e in s.edges.iter().chain(&s.incoming) {
        to.entry(e.to.as_str()).or_default().push(e);
    }
    for n in &s.nodes {
        let outgoing = from.get(n.id.as_str()).map_or(&[][..], Vec::as_slice);
        let incoming = to.get(n.id.as_str()).map_or(&[][..], Vec::as_slice);
        out.push(String::new());
        out.extend(node::block(n, None, outgoing, incoming, &style));
    }
    out.push(String::new());
    out.push(super::issues::list(&s.issues, v));
    out.join("\n")
}

fn row_json(e: &Edge) -> Value {
    json!({"edgeId": e.id, "from": e.from, "to": e.to, "handle": e.handle.as_str()})
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

    #[test]
    fn the_slice_locates_itself() {
        let t = text(&slice(), &crate::cli::voice::CliVoice::default());
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
            text(&s, &crate::cli::voice::CliVoice::default())
                .starts_with("Slice of plan-x — (unphased): 2 node(s);")
        );
        let mut n = slice();
        n.kind = SliceKind::Node;
        n.key = "classify".into();
        n.nodes.truncate(1);
        assert!(
            text(&n, &crate::cli::voice::CliVoice::default())
                .starts_with("Slice of plan-x — node classify (phase p2);")
        );
        let empty = Slice {
            incoming: vec![],
            outgoing: vec![],
            issues: vec![],
            ..slice()
        };
        let t = text(&empty, &crate::cli::voice::CliVoice::default());
        assert!(t.contains("Incoming from outside the slice: (none)"));
        assert!(t.ends_with("No issues."));
    }
}
