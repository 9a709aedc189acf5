//! A warm forge (the REPL's, `planforge mcp`'s) answers as a cold one:
//! the echo's neighbours, a retried connect and a slice of one node, which
//! a warm plan finds through its kept graph and positions (issue 17).

use super::read::ReadKey;
use super::*;
use crate::model::{Map, Node, NodeKind};
use crate::store::Store;

fn node(id: &str, kind: NodeKind) -> Node {
    Node {
        id: id.into(),
        phase: None,
        kind,
        definition: Map::new().into(),
    }
}

#[test]
fn a_warm_forge_echoes_connects_and_reads_as_a_cold_one() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = Store::init(dir.path(), crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
    let cold = Forge::new(store.clone(), "ann").with_registry(None);
    let warm = Forge::new(store.warm(std::sync::Arc::default()), "ann").with_registry(None);
    warm.create_plan(Some("plan-w"), None, None).unwrap();
    warm.add_node("plan-w", node("s", NodeKind::Entry), Default::default())
        .unwrap();
    for id in ["a", "b", "c"] {
        warm.add_node("plan-w", node(id, NodeKind::Join), Default::default())
            .unwrap();
    }
    let edges = [("s", "a"), ("s", "b"), ("a", "c"), ("b", "c"), ("c", "a")];
    for (from, to) in edges {
        let e = warm.connect("plan-w", from, to, None, None, None).unwrap();
        let c = cold.connect("plan-w", from, to, None, None, None).unwrap();
        // The cold connect came second: it found the edge already there.
        assert!(c.changed.contains("nothing changed"), "{}", c.changed);
        assert_eq!(e.predecessors, c.predecessors, "{from} → {to}");
        assert_eq!(e.successors, c.successors, "{from} → {to}");
        // Retried on the warm plan: the same edge, nothing changed.
        let again = warm.connect("plan-w", from, to, None, None, None).unwrap();
        assert!(
            again.changed.contains("nothing changed"),
            "{}",
            again.changed
        );
    }
    assert_eq!(
        warm.load("plan-w").unwrap().content().edges.len(),
        edges.len()
    );
    for id in ["s", "a", "b", "c"] {
        let w = warm.read("plan-w", ReadKey::Node(id.into())).unwrap();
        let c = cold.read("plan-w", ReadKey::Node(id.into())).unwrap();
        assert_eq!(
            (&w.nodes, &w.edges, &w.incoming, &w.outgoing),
            (&c.nodes, &c.edges, &c.incoming, &c.outgoing),
            "{id}"
        );
        assert_eq!(w.issues, c.issues, "{id}");
    }
}
