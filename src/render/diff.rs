//! The raw views: a diff as `+`/`-`/`~` prose and as JSON, the raw content
//! and the op log. Pure; the CLI adds colour on a terminal. References keep
//! their wire form in JSON and are compared as a whole.

use super::node::{self, Style};
use crate::forge::present::edge_json;
use crate::forge::present::node_json;
use crate::forge::present::op_json;
use crate::forge::present::op_line;
use crate::forge::read::{Diff, FieldChange, Side};
use crate::model::{Edge, Node, Op, Value};
use serde_json::json;
use std::collections::HashMap;

fn side(s: &Side) -> String {
    let digest = format!("digest {}", s.digest);
    match (s.label.parse::<u64>(), s.revision) {
        (Ok(_), Some(r)) => format!("revision {r} ({digest})"),
        (_, Some(r)) => format!("{} (revision {r}, {digest})", s.label),
        (_, None) => format!("{} ({digest})", s.label),
    }
}

fn shown(v: &Option<Value>) -> String {
    match v {
        Some(v) => node::value(v, &Style::model()),
        None => "(absent)".into(),
    }
}

fn change(c: &FieldChange) -> String {
    format!("{}: {} → {}", c.path, shown(&c.before), shown(&c.after))
}

fn node_head(n: &Node) -> String {
    match &n.phase {
        Some(p) => format!("node {} ({}, phase {p})", n.id, n.kind),
        None => format!("node {} ({})", n.id, n.kind),
    }
}

fn edge_text(e: &Edge) -> String {
    format!("edge {}: {} → {} ({})", e.id, e.from, e.to, e.handle)
}

/// An empty diff: "No differences." when the digests agree; otherwise what
/// the digest covers beyond nodes, edges, bounds and provenance (a change and
/// its undo leave the same content at a later revision).
fn no_differences(d: &Diff) -> String {
    if d.from.digest == d.to.digest {
        return "No differences.".into();
    }
    let why = match (d.from.revision, d.to.revision) {
        (Some(a), Some(b)) if a != b => format!("the revision ({a} → {b})"),
        _ => "the plan id and revision".into(),
    };
    format!(
        "No differences in nodes, edges, bounds or provenance; the digests differ because a digest also covers {why}."
    )
}

/// The diff as prose: a header naming both sides, then one `+`/`-`/`~` line
/// per node and edge (changed fields below, before → after), then a count.
pub(crate) fn text(d: &Diff) -> String {
    let plan = d
        .plan_id
        .as_deref()
        .filter(|p| !p.is_empty())
        .map(|p| format!(" of {p}"))
        .unwrap_or_default();
    let mut out = vec![format!("Diff{plan}: {} → {}.", side(&d.from), side(&d.to))];
    if d.is_empty() {
        out.push(no_differences(d));
        return out.join("\n");
    }
    let style = Style::model();
    for n in &d.nodes_removed {
        out.push(format!("- {}", node_head(n)));
    }
    // Every edge of a new node is new too.
    let mut outgoing: HashMap<&str, Vec<&Edge>> = HashMap::new();
    let mut incoming: HashMap<&str, Vec<&Edge>> = HashMap::new();
    if !d.nodes_added.is_empty() {
        for e in &d.edges_added {
            outgoing.entry(e.from.as_str()).or_default().push(e);
            incoming.entry(e.to.as_str()).or_default().push(e);
        }
    }
    for n in &d.nodes_added {
        out.push(format!("+ {}", node_head(n)));
        let none = Vec::new();
        let lines = node::block(
            n,
            None,
            outgoing.get(n.id.as_str()).unwrap_or(&none),
            incoming.get(n.id.as_str()).unwrap_or(&none),
            &style,
        );
        out.extend(lines.into_iter().map(|l| format!("    {l}")));
    }
    for c in &d.nodes_changed {
        out.push(format!("~ node {}", c.node_id));
        out.extend(c.fields.iter().map(|f| format!("    {}", change(f))));
    }
    for e in &d.edges_removed {
        out.push(format!("- {}", edge_text(e)));
    }
    for e in &d.edges_added {
        out.push(format!("+ {}", edge_text(e)));
    }
    for c in &d.plan_changed {
        out.push(format!("~ plan {}", change(c)));
    }
    out.push(format!(
        "{} node(s) added, {} removed, {} changed; {} edge(s) added, {} removed{}.",
        d.nodes_added.len(),
        d.nodes_removed.len(),
        d.nodes_changed.len(),
        d.edges_added.len(),
        d.edges_removed.len(),
        if d.plan_changed.is_empty() {
            String::new()
        } else {
            format!("; {} plan field(s) changed", d.plan_changed.len())
        }
    ));
    out.join("\n")
}

fn side_json(s: &Side) -> serde_json::Value {
    json!({"revision": s.revision, "digest": s.digest})
}

/// `{path, before, after}`; a side on which the field is absent has no key.
fn change_json(c: &FieldChange) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("path".into(), c.path.clone().into());
    if let Some(b) = &c.before {
        m.insert("before".into(), crate::forge::present::to_json(b));
    }
    if let Some(a) = &c.after {
        m.insert("after".into(), crate::forge::present::to_json(a));
    }
    serde_json::Value::Object(m)
}

/// `{from: {revision, digest}, to, nodesAdded, nodesRemoved, nodesChanged:
/// [{nodeId, fields: [{path, before, after}]}], edgesAdded, edgesRemoved}`,
/// plus `planChanged` when bounds or provenance differ.
pub(crate) fn json(d: &Diff) -> serde_json::Value {
    let mut m = serde_json::Map::new();
    m.insert("from".into(), side_json(&d.from));
    m.insert("to".into(), side_json(&d.to));
    m.insert(
        "nodesAdded".into(),
        d.nodes_added.iter().map(node_json).collect(),
    );
    m.insert(
        "nodesRemoved".into(),
        d.nodes_removed.iter().map(node_json).collect(),
    );
    m.insert(
        "nodesChanged".into(),
        d.nodes_changed
            .iter()
            .map(|c| {
                json!({
                    "nodeId": c.node_id,
                    "fields": c.fields.iter().map(change_json).collect::<Vec<_>>(),
                })
            })
            .collect(),
    );
    m.insert(
        "edgesAdded".into(),
        d.edges_added.iter().map(edge_json).collect(),
    );
    m.insert(
        "edgesRemoved".into(),
        d.edges_removed.iter().map(edge_json).collect(),
    );
    if !d.plan_changed.is_empty() {
        m.insert(
            "planChanged".into(),
            d.plan_changed.iter().map(change_json).collect(),
        );
    }
    serde_json::Value::Object(m)
}

/// The raw content view as text: 2-space JSON, references in wire form.
pub(crate) fn raw_text(raw: &serde_json::Value) -> String {
    crate::forge::present::pretty(raw)
}

/// Ops as their `ops.jsonl` lines, one per line.
pub(crate) fn ops_text(ops: &[Op]) -> String {
    let mut out = String::new();
    for o in ops {
        out.push_str(&op_line(o));
        out.push('\n');
    }
    out
}

/// `{planId, ops: [...]}`.
pub(crate) fn ops_json(plan_id: &str, ops: &[Op]) -> serde_json::Value {
    json!({"planId": plan_id, "ops": ops.iter().map(op_json).collect::<Vec<_>>()})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::*;
    use crate::forge::read::diff::{NodeChange, diff_contents};
    use serde_json::json;

    fn sides() -> (Side, Side) {
        (
            Side {
                label: "frozen".into(),
                revision: Some(3),
                digest: "aa".into(),
            },
            Side {
                label: "current".into(),
                revision: Some(5),
                digest: "bb".into(),
            },
        )
    }

    #[test]
    fn text_marks_each_change() {
        let before = plan(
            vec![
                entry("s"),
                call_with("first", "original", json!({}), &[]),
                step("old"),
            ],
            vec![
                edge("e1", "s", "first", "always"),
                edge("e2", "first", "old", "error"),
            ],
        );
        let mut after = before.clone();
        after.nodes.remove(2);
        after.edges.remove(1);
        after.nodes[1] = call_with("first", "changed", json!({"x": r("s", None)}), &[]);
        after
            .nodes
            .push(call_with("late", "notify", json!({}), &[]));
        after.edges.push(edge("e3", "first", "late", "always"));
        let (a, b) = sides();
        let d = diff_contents(&before, &after, a, b);
        let t = text(&d);
        assert!(t.starts_with(
            "Diff of plan-test: frozen (revision 3, digest aa) → current (revision 5, digest bb).\n"
        ));
        assert!(t.contains("\n- node old (call)\n"));
        assert!(
            t.contains("\n+ node late (call)\n    CALL — `late` — notify()"),
            "{t}"
        );
        assert!(t.contains(
            "\n~ node first\n    tool: \"original\" → \"changed\"\n    args.x: (absent) → $ref {node: s, select: first}"
        ));
        assert!(t.contains("\n- edge e2: first → old (error)"));
        assert!(t.contains("\n+ edge e3: first → late (always)"));
        assert!(t.ends_with("1 node(s) added, 1 removed, 1 changed; 1 edge(s) added, 1 removed."));
    }

    #[test]
    fn json_keeps_references_in_wire_form_and_omits_absent_sides() {
        let (a, b) = sides();
        let d = Diff {
            plan_id: None,
            from: a,
            to: b,
            nodes_added: vec![],
            nodes_removed: vec![],
            nodes_changed: vec![NodeChange {
                node_id: "n".into(),
                fields: vec![FieldChange {
                    path: "args.x".into(),
                    before: None,
                    after: Some(Value::Ref(Box::new(crate::model::Ref::new("s")))),
                }],
            }],
            edges_added: vec![],
            edges_removed: vec![],
            plan_changed: vec![],
        };
        let j = json(&d);
        assert_eq!(j["from"], json!({"revision": 3, "digest": "aa"}));
        assert_eq!(
            j["nodesChanged"][0]["fields"][0],
            json!({"path": "args.x", "after": {"$ref": {"node": "s", "select": "first"}}})
        );
        let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "from",
                "to",
                "nodesAdded",
                "nodesRemoved",
                "nodesChanged",
                "edgesAdded",
                "edgesRemoved"
            ]
        );
    }

    #[test]
    fn an_empty_diff_says_so() {
        let (a, mut b) = sides();
        b.label = "4".into();
        b.revision = Some(4);
        let c = plan(vec![entry("s")], vec![]);
        let mut same = b.clone();
        same.digest = a.digest.clone();
        let t = text(&diff_contents(&c, &c, a.clone(), same));
        assert!(
            t.ends_with(&format!(
                "→ revision 4 (digest {}).\nNo differences.",
                a.digest
            )),
            "{t}"
        );
        // A change and its undo: the same content, another revision, so
        // another digest; the diff never says "No differences" then.
        let t = text(&diff_contents(&c, &c, a, b));
        assert!(
            t.ends_with("No differences in nodes, edges, bounds or provenance; the digests differ because a digest also covers the revision (3 → 4)."),
            "{t}"
        );
    }
}
