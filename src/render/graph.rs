//! A plan as a diagram: Graphviz DOT or a Mermaid flowchart. Phases become
//! clusters (subgraphs), handles label the edges, error edges are dashed.
//! Every id and label is escaped, so a hostile id cannot break the diagram.
//! Pure.

use crate::model::{Content, Edge, Handle, Node, NodeKind};
use indexmap::IndexMap;
use std::collections::HashMap;
use std::fmt::Write;

/// Nodes grouped by phase in order of first appearance; unphased nodes last.
fn groups(c: &Content) -> (IndexMap<&str, Vec<usize>>, Vec<usize>) {
    let mut phases: IndexMap<&str, Vec<usize>> = IndexMap::new();
    let mut loose = Vec::new();
    for (i, n) in c.nodes.iter().enumerate() {
        match n.phase.as_deref().filter(|p| !p.is_empty()) {
            Some(p) => phases.entry(p).or_default().push(i),
            None => loose.push(i),
        }
    }
    (phases, loose)
}

/// What a node's box says below its id.
fn subtitle(n: &Node) -> String {
    match n.tool() {
        Some(t) => format!("call · {t}"),
        // The two join kinds fire differently: a settling join once every
        // branch arrived (an error edge included) or stopped, the other when
        // every incoming edge fired.
        None if n.settles() => {
            "join · settle: fires once every branch arrived or stopped, errors included".into()
        }
        None if n.kind == NodeKind::Join => "join · waits for every incoming edge".into(),
        None => n.kind.as_str().to_string(),
    }
}

// ---------------------------------------------------------------------------
// Graphviz
// ---------------------------------------------------------------------------

/// A DOT double-quoted string. Inside labels `\n` is a line break; control
/// characters become spaces.
fn dq(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn dot_shape(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Entry => "oval",
        NodeKind::Branch | NodeKind::Select => "diamond",
        NodeKind::Join => "hexagon",
        _ => "box",
    }
}

fn dot_node(out: &mut String, n: &Node, indent: &str) {
    let label = format!("{}\n{}", n.id, subtitle(n));
    // A settling join is drawn with a double outline.
    let twice = if n.settles() { ", peripheries=2" } else { "" };
    let _ = writeln!(
        out,
        "{indent}{} [label={}, shape={}{twice}];",
        dq(&n.id),
        dq(&label),
        dot_shape(n.kind)
    );
}

fn dot_edge(out: &mut String, e: &Edge) {
    let dashed = if e.handle == Handle::Error {
        ", style=dashed, color=\"#b22222\", fontcolor=\"#b22222\""
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "  {} -> {} [label={}, tooltip={}{dashed}];",
        dq(&e.from),
        dq(&e.to),
        dq(&e.handle.as_str()),
        dq(&format!("edge {}", e.id))
    );
}

/// The plan as a Graphviz digraph (`dot -Tsvg` renders it).
pub(crate) fn dot(c: &Content) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", dq(&c.plan_id));
    out.push_str("  graph [rankdir=TB, fontname=\"Helvetica\"];\n");
    out.push_str("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n");
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=9];\n");
    let (phases, loose) = groups(c);
    for (k, (phase, members)) in phases.iter().enumerate() {
        let _ = writeln!(out, "  subgraph {} {{", dq(&format!("cluster_{k}")));
        let _ = writeln!(out, "    label={};", dq(phase));
        out.push_str("    style=rounded; color=\"#999999\";\n");
        for &i in members {
            dot_node(&mut out, &c.nodes[i], "    ");
        }
        out.push_str("  }\n");
    }
    for &i in &loose {
        dot_node(&mut out, &c.nodes[i], "  ");
    }
    for e in &c.edges {
        dot_edge(&mut out, e);
    }
    out.push_str("}\n");
    out
}

// ---------------------------------------------------------------------------
// Mermaid
// ---------------------------------------------------------------------------

/// Text inside a Mermaid `"…"` label: quotes, markup and entity starts are
/// written as Mermaid entity codes.
fn mq(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("#quot;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '&' => out.push_str("#amp;"),
            '`' => out.push_str("#96;"),
            '|' => out.push_str("#124;"),
            '\n' => out.push_str("<br/>"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn mermaid_node(out: &mut String, key: &str, n: &Node, indent: &str) {
    let label = mq(&format!("{}\n{}", n.id, subtitle(n)));
    let (open, close) = match n.kind {
        NodeKind::Entry => ("([", "])"),
        NodeKind::Branch | NodeKind::Select => ("{", "}"),
        NodeKind::Join => ("{{", "}}"),
        _ => ("[", "]"),
    };
    let _ = writeln!(out, "{indent}{key}{open}{label}{close}");
}

/// The plan as a Mermaid `flowchart`. Mermaid node keys are synthetic
/// (`n0`, `n1`, …) so no id can collide with Mermaid's keywords; every
/// node's label starts with its id.
pub(crate) fn mermaid(c: &Content) -> String {
    let mut out = String::from("flowchart TD\n");
    let mut keys: HashMap<&str, String> = HashMap::with_capacity(c.nodes.len());
    for (i, n) in c.nodes.iter().enumerate() {
        keys.entry(n.id.as_str()).or_insert_with(|| format!("n{i}"));
    }
    let (phases, loose) = groups(c);
    for (k, (phase, members)) in phases.iter().enumerate() {
        let _ = writeln!(out, "  subgraph s{k}[{}]", mq(phase));
        for &i in members {
            mermaid_node(&mut out, &format!("n{i}"), &c.nodes[i], "    ");
        }
        out.push_str("  end\n");
    }
    for &i in &loose {
        mermaid_node(&mut out, &format!("n{i}"), &c.nodes[i], "  ");
    }
    // Endpoints that name no node (possible in a document) get a box too.
    let mut missing = 0;
    let mut key_of = |id: &str, out: &mut String, keys: &mut HashMap<&str, String>| -> String {
        if let Some(k) = keys.get(id) {
            return k.clone();
        }
        let k = format!("m{missing}");
        missing += 1;
        let _ = writeln!(out, "  {k}[{}]", mq(&format!("{id}\n(missing node)")));
        k
    };
    for e in &c.edges {
        let from = key_of(&e.from, &mut out, &mut keys);
        let to = key_of(&e.to, &mut out, &mut keys);
        let arrow = if e.handle == Handle::Error {
            "-.->"
        } else {
            "-->"
        };
        let _ = writeln!(out, "  {from} {arrow}|{}| {to}", mq(&e.handle.as_str()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::*;
    use serde_json::json;

    fn sample() -> Content {
        let mut s = entry("start");
        s.phase = Some("p1".into());
        let mut f = call_with("fetch", "tickets_get", json!({}), &[]);
        f.phase = Some("p1".into());
        plan(
            vec![s, f, step("end"), step("q\"x")],
            vec![
                edge("e1", "start", "fetch", "always"),
                edge("e2", "fetch", "end", "error"),
                edge("e3", "fetch", "gone", "always"),
            ],
        )
    }

    #[test]
    fn dot_clusters_phases_labels_handles_and_dashes_errors() {
        let d = dot(&sample());
        assert!(d.starts_with("digraph \"plan-test\" {\n"));
        assert!(d.contains("subgraph \"cluster_0\" {\n    label=\"p1\";"));
        assert!(d.contains("\"fetch\" [label=\"fetch\\ncall · tickets_get\", shape=box];"));
        assert!(d.contains("\"start\" -> \"fetch\" [label=\"always\", tooltip=\"edge e1\"];"));
        assert!(
            d.contains("\"fetch\" -> \"end\" [label=\"error\", tooltip=\"edge e2\", style=dashed")
        );
        assert!(d.contains("\"q\\\"x\" [label=\"q\\\"x\\ncall · noop\""));
        assert!(d.ends_with("}\n"));
    }

    #[test]
    fn the_two_join_kinds_are_told_apart() {
        let p = plan(
            vec![
                node("j", NodeKind::Join, json!({})),
                node("s", NodeKind::Join, json!({"kind": "settle"})),
            ],
            vec![],
        );
        let d = dot(&p);
        assert!(
            d.contains(
                "\"j\" [label=\"j\\njoin · waits for every incoming edge\", shape=hexagon];"
            ),
            "{d}"
        );
        assert!(
            d.contains("\"s\" [label=\"s\\njoin · settle: fires once every branch arrived or stopped, errors included\", shape=hexagon, peripheries=2];"),
            "{d}"
        );
        let m = mermaid(&p);
        assert!(
            m.contains("join · waits for every incoming edge") && m.contains("join · settle:"),
            "{m}"
        );
    }

    #[test]
    fn mermaid_names_every_node_and_survives_keywords() {
        let m = mermaid(&sample());
        assert!(m.starts_with("flowchart TD\n  subgraph s0[\"p1\"]\n"));
        assert!(m.contains("n0([\"start<br/>entry\"])"));
        assert!(m.contains("n2[\"end<br/>call · noop\"]"));
        assert!(m.contains("n3[\"q#quot;x<br/>call · noop\"]"));
        assert!(m.contains("n1 -.->|\"error\"| n2"));
        assert!(m.contains("m0[\"gone<br/>(missing node)\"]"));
        assert!(m.contains("n1 -->|\"always\"| m0"));
    }
}
