//! Complexity: O(ops), inside the fold and the log reader, which emit this code.

use crate::model::Issue;

declare_check! {
    /// ## What it finds
    /// Ops of a transaction that never finished: a writer was killed (or the
    /// machine stopped) in the middle of appending. The fold ignores them
    /// (advisory), wherever they stand in the log (a merge can put a crashed
    /// write's lines before later ones); the next write removes them under
    /// the lock.
    ///
    /// ## Why it matters
    /// Nothing complete was lost: one change's ops land whole or not at all.
    /// The advisory tells you the last change before the crash did not land,
    /// so you may want to make it again.
    ///
    /// ## How to fix
    /// Make the interrupted change again if it is still wanted. Any write to
    /// the plan removes the unfinished tail.
    ///
    /// ## Example
    /// The last line of `ops.jsonl` belongs to a transaction without `txEnd`:
    /// `{"opId": "ann:plan-x:7:9f…", …, "tx": "9f…", …}`, and no later line
    /// closes `9f…`.
    /// Fixed: add the node again.
    pub TornTail { code: "torn_tail", severity: Advisory, needs: NOTHING, source: Fold }
    fn run(cx, out) {}
}

/// The finding for ops of unfinished transactions that were ignored, on
/// `lines` of the log (the first of them).
pub(crate) fn issue(ops: usize, lines: &[usize]) -> Issue {
    let at = match lines {
        [] => String::new(),
        [one] => format!(" (line {one} of ops.jsonl)"),
        many => format!(
            " (lines {}{} of ops.jsonl)",
            many.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            if ops > many.len() { ", …" } else { "" }
        ),
    };
    Issue::new(
        CODE,
        format!(
            "{ops} op(s) of an unfinished transaction (a write that was interrupted, possibly merged in from another clone) were ignored{at}; the next write to the plan removes them, and nothing complete was lost"
        ),
    )
}

#[cfg(test)]
mod tests {
    use crate::check::testing::*;
    use crate::model::OpBody;

    fn log_text(cut_last: bool) -> String {
        let mut ops =
            crate::store::transaction("t", "plan-t", 0, vec![OpBody::AddNode { node: join("a") }]);
        ops.extend(crate::store::transaction(
            "t",
            "plan-t",
            1,
            vec![
                OpBody::AddNode { node: join("b") },
                OpBody::AddNode { node: join("c") },
            ],
        ));
        if cut_last {
            ops.pop(); // the closing op never reached the disk
        }
        ops.iter()
            .map(|o| crate::wire::codec::op_line(o) + "\n")
            .collect()
    }

    fn load(text: String) -> crate::store::Loaded {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::init(dir.path(), crate::registry::DEFAULT_REGISTRY_YAML)
            .unwrap()
            .0;
        store
            .create("plan-t", "t", crate::store::Start::default(), vec![])
            .unwrap();
        std::fs::write(dir.path().join("plan-t/ops.jsonl"), text).unwrap();
        store.load("plan-t").unwrap()
    }

    #[test]
    fn fires_on_an_unfinished_transaction() {
        let loaded = load(log_text(true));
        assert!(
            crate::check::notes::issues(&loaded.notes())
                .iter()
                .any(|i| i.code == "torn_tail")
        );
        assert_eq!(loaded.content().nodes.len(), 1);
    }

    #[test]
    fn passes_on_complete_transactions() {
        assert!(crate::check::notes::issues(&load(log_text(false)).notes()).is_empty());
    }
}
