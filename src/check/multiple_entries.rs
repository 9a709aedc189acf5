//! Complexity: O(k) for k entry nodes (each message names at most 20).

use crate::model::Issue;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// A plan with more than one `entry` node.
    ///
    /// ## Why it matters
    /// An executor materialises the run input into exactly one entry; with two
    /// it cannot tell which. Routes, dominators and taint are defined from one
    /// entry, so those checks are skipped until this is fixed (reachability
    /// still runs, from every entry).
    ///
    /// ## How to fix
    /// Keep one entry. Turn the others into ordinary steps, or remove them and
    /// connect their successors to the remaining entry.
    ///
    /// ## Example
    /// ```json
    /// {"nodes": [{"id": "a", "kind": "entry", "definition": {"input": []}},
    ///            {"id": "b", "kind": "entry", "definition": {"input": []}}], "edges": []}
    /// ```
    /// Fixed: remove the node `b` and connect `a` to what `b` fed.
    pub MultipleEntries { code: "multiple_entries", severity: Blocking, needs: NOTHING, source: Check }
    fn run(cx, out) {
        let entries = &cx.graph.entries;
        if entries.len() > 1 {
            // One list for every finding, at most 20 names: the message does
            // not grow with the number of entries.
            let ids: Vec<&str> = entries.iter().map(|&i| cx.graph.node(i).id.as_str()).collect();
            let listed = crate::model::suggest::capped_list(&ids, 20);
            for &i in &entries[1..] {
                let id = &cx.graph.node(i).id;
                out.push(
                    Issue::new(CODE,
                        format!(
                            "the plan has {} entry nodes ({listed}); a plan has exactly one, and `{id}` is not the first",
                            ids.len(),
                        ),
                    )
                    .node(id.clone())
                    .fix(Remedy::RemoveNode { node: id.to_string() }.when(format!(
                        "then connect `{}` to the steps `{id}` fed; or turn `{id}` into an ordinary step",
                        ids[0]
                    ))),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MultipleEntries;
    use crate::check::testing::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn fires_on_two_entries() {
        let issues = run_one(
            &MultipleEntries,
            &plan(vec![entry("a"), entry("b")], vec![]),
        );
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].node_id.as_deref(), Some("b"));
        assert_eq!(
            issues[0].fixes[0].remedy,
            Remedy::RemoveNode { node: "b".into() }
        );
    }

    #[test]
    fn many_entries_give_bounded_messages() {
        let nodes = (0..500).map(|i| entry(&format!("e{i}"))).collect();
        let issues = run_one(&MultipleEntries, &plan(nodes, vec![]));
        assert_eq!(issues.len(), 499);
        for i in &issues {
            assert!(i.message.contains("and 480 more"), "{}", i.message);
            assert!(i.message.len() < 400, "{}", i.message);
        }
    }

    #[test]
    fn passes_with_one_entry() {
        assert!(run_one(&MultipleEntries, &plan(vec![entry("a"), join("j")], vec![])).is_empty());
    }
}
