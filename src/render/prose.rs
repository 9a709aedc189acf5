//! The whole plan as prose (`show`, `get_plan`): every node in full, in the
//! order a run would meet them (depth first from the entry), then the nodes
//! no run can reach, also in full. Pure and deterministic.

use super::node::{self, Audience, Style};
use crate::model::{AuthorityClaim, Content, Edge, NodeKind, Provenance};
use std::collections::BTreeMap;

/// What the header may show beside the content.
#[derive(Debug, Clone, Default)]
pub(crate) struct Header<'a> {
    pub(crate) digest: &'a str,
    pub(crate) state: Option<&'a str>,
    pub(crate) label: Option<&'a str>,
    pub(crate) request: Option<&'a str>,
}

/// Renders the plan for an audience.
pub(crate) fn render(c: &Content, h: &Header, audience: Audience) -> String {
    // About a dozen lines a node: room for them at once (grown by doubling,
    // the list of a 100,000-node plan's 1.2 M lines was copied again and
    // again into fresh memory).
    let mut out: Vec<String> = Vec::with_capacity(16 + 12 * c.nodes.len());
    out.extend([
        format!("Plan {}", c.plan_id),
        format!("digest: {}", h.digest),
        format!("revision: {}", c.revision),
    ]);
    if let Some(s) = h.state {
        out.push(format!("state: {s}"));
    }
    if let Some(l) = h.label {
        out.push(format!("label: {l}"));
    }
    out.push(match audience {
        Audience::Model => "Model view · as planned".into(),
        Audience::Operator => "Operator view · as planned".into(),
    });
    out.push(String::new());
    if let Some(r) = h.request {
        out.push("Request, verbatim:".into());
        for line in r.split('\n') {
            out.push(format!("  | {line}"));
        }
        out.push(String::new());
    }
    match &c.provenance {
        Some(Provenance::Clone {
            parent,
            parent_digest,
            parent_revision,
        }) => {
            out.push("Lineage: cloned plan".into());
            out.push(format!(
                "  parent: {parent} (digest {parent_digest}, revision {parent_revision})"
            ));
            out.push(String::new());
        }
        Some(Provenance::Template { template, args }) => {
            out.push("Lineage: instantiated from template".into());
            out.push(format!("  template: {template}"));
            out.push("  args:".into());
            let mut keys: Vec<&crate::model::ids::Id> = args.keys().collect();
            keys.sort();
            for k in keys {
                out.push(format!(
                    "    {k}: {}",
                    crate::forge::present::compact(&args[k.as_str()])
                ));
            }
            out.push(String::new());
        }
        None => {}
    }
    if c.nodes.is_empty() {
        out.push("(no nodes)".into());
        if audience == Audience::Operator {
            out.push(String::new());
            out.extend(authority_tail(&[]));
        }
        return out.join("\n");
    }
    let tools = node::tool_names(c);
    let settling = node::settling_joins(&c.nodes);
    let style = Style {
        audience,
        cut: None,
        tools: Some(&tools),
        settling: Some(&settling),
    };
    let graph = crate::forge::present::Graph::new(c);
    let mut out_edges: Vec<Vec<&Edge>> = vec![Vec::new(); c.nodes.len()];
    let mut in_edges: Vec<Vec<&Edge>> = vec![Vec::new(); c.nodes.len()];
    for (ei, e) in c.edges.iter().enumerate() {
        if let Some((f, t)) = graph.ends.get(ei) {
            out_edges[f].push(e);
            in_edges[t].push(e);
        }
    }
    for list in &mut out_edges {
        list.sort_by(|a, b| (a.handle.to_string(), &a.to).cmp(&(b.handle.to_string(), &b.to)));
    }
    // Depth-first from the entries, each node once.
    let mut order = Vec::with_capacity(c.nodes.len());
    let mut seen = vec![false; c.nodes.len()];
    for &start in &graph.entries {
        if seen[start] {
            continue;
        }
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            if seen[i] {
                continue;
            }
            seen[i] = true;
            order.push(i);
            for e in out_edges[i].iter().rev() {
                if let Some(t) = graph.idx.get(&e.to)
                    && !seen[t]
                {
                    stack.push(t);
                }
            }
        }
    }
    let reached = order.len();
    for (i, s) in seen.iter().enumerate() {
        if !s {
            order.push(i);
        }
    }
    for (step, &i) in order.iter().enumerate() {
        if step == reached {
            // A heading, then the blocks (no blank line between).
            out.push("Unreachable nodes (no run can reach them from the entry):".into());
        }
        out.extend(node::block(
            &c.nodes[i],
            Some(step + 1),
            &out_edges[i],
            &in_edges[i],
            &style,
        ));
        out.push(String::new());
    }
    if audience == Audience::Operator {
        let reach = graph.reachable();
        let claims: Vec<AuthorityClaim> = c
            .nodes
            .iter()
            .enumerate()
            .filter(|(i, n)| n.kind == NodeKind::Call && (reach[*i] || graph.entries.len() != 1))
            .flat_map(|(_, n)| n.authority())
            .collect();
        out.extend(authority_tail(&claims));
    } else {
        out.pop();
    }
    out.join("\n")
}

/// `Total authority requested`, grouped by capability.
fn authority_tail(claims: &[AuthorityClaim]) -> Vec<String> {
    let mut out = vec!["Total authority requested".to_string()];
    if claims.is_empty() {
        out.push("  (no authority claimed by any call)".into());
        return out;
    }
    let mut by_cap: BTreeMap<&str, Vec<&AuthorityClaim>> = BTreeMap::new();
    for c in claims {
        by_cap.entry(&c.capability).or_default().push(c);
    }
    for (cap, mut list) in by_cap {
        list.sort_by(|a, b| (&a.scope, a.verb).cmp(&(&b.scope, b.verb)));
        list.dedup();
        out.push(format!("  {cap}:"));
        for c in list {
            out.push(format!("    · {} · {}", c.scope, c.verb.as_str()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::*;
    use serde_json::json;

    fn sample() -> Content {
        let call = node(
            "fetch",
            NodeKind::Call,
            json!({"tool": "tickets_get", "args": {}, "authority": [{"capability": "tickets", "scope": "support", "verb": "read"}]}),
        );
        let lost = node(
            "lost",
            NodeKind::Call,
            json!({"tool": "audit", "authority": [{"capability": "audit", "scope": "x", "verb": "create"}]}),
        );
        plan(
            vec![entry("start"), call, lost],
            vec![edge("e1", "start", "fetch", "always")],
        )
    }

    #[test]
    fn every_node_is_rendered_in_full_even_unreachable_ones() {
        let t = render(
            &sample(),
            &Header {
                digest: "d",
                ..Default::default()
            },
            Audience::Model,
        );
        assert!(t.contains("1. ENTRY — `start`"));
        assert!(t.contains("2. CALL — `fetch` — tickets_get()"));
        assert!(t.contains("Unreachable nodes"));
        assert!(t.contains("3. CALL — `lost` — audit()"));
        assert!(t.contains("→ on always → step fetch"));
        assert!(!t.contains("Total authority requested"));
    }

    #[test]
    fn operator_view_ends_with_the_authority_requested() {
        let t = render(
            &sample(),
            &Header {
                digest: "d",
                ..Default::default()
            },
            Audience::Operator,
        );
        let tail = t.rsplit("Total authority requested").next().unwrap();
        assert!(tail.contains("tickets:") && tail.contains("· support · read"));
        assert!(
            !tail.contains("audit"),
            "unreachable calls are not approved"
        );
    }

    #[test]
    fn empty_plan() {
        let t = render(&plan(vec![], vec![]), &Header::default(), Audience::Model);
        assert!(t.ends_with("(no nodes)"));
    }
}
