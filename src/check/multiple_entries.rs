//! Complexity: O(k) for k entry nodes.

use crate::model::Issue;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// A plan with more than one `entry` node.
    ///
    /// ## Why it matters
    /// An executor materialises the run input into exactly one entry; with two
    /// it cannot tell which. Routes, dominators and taint are defined from one
    /// entry, so those checks are skipped until this is fixed.
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
            let ids: Vec<&str> = entries.iter().map(|&i| cx.graph.node(i).id.as_str()).collect();
            for &i in &entries[1..] {
                let id = &cx.graph.node(i).id;
                out.push(
                    Issue::new(CODE,
                        format!(
                            "the plan has {} entry nodes ({}); a plan has exactly one, and `{id}` is not the first",
                            ids.len(),
                            ids.join(", ")
                        ),
                    )
                    .node(id.clone())
                    .fix(Remedy::RemoveNode { node: id.clone() }.when(format!(
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
    fn passes_with_one_entry() {
        assert!(run_one(&MultipleEntries, &plan(vec![entry("a"), join("j")], vec![])).is_empty());
    }
}
