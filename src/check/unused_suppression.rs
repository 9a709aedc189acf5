//! Complexity: O(i + s): one pass over the findings, one over the
//! suppressions. Emitted by [`apply`], which `validate` calls after the
//! checks ran.

use super::invalid_suppression::{entries, is_valid};
use crate::model::shape::SUPPRESS;
use crate::model::{Content, Issue, Report};
use std::collections::HashMap;

declare_check! {
    /// ## What it finds
    /// An inline suppression that suppresses nothing: the node's `suppress`
    /// list names a code that no finding on that node has. Reported only
    /// when the code's check ran and its code is selected (a suppression
    /// of a skipped or ignored check is left alone).
    ///
    /// ## Why it matters
    /// Suppressions outlive the findings they were written for. One left
    /// behind after the node was fixed would silently hide the next real
    /// finding of that code on the node, and its reason no longer says
    /// anything true.
    ///
    /// ## How to fix
    /// Remove the entry from the node's `suppress` list (and the list when
    /// it is empty).
    ///
    /// ## Example
    /// `fetch` calls `tickets_get`, which is in the registry, and carries
    /// `"suppress": [{"code": "unknown_tool", "reason": "registered next sprint"}]`.
    /// Fixed: the entry removed.
    pub UnusedSuppression { code: "unused_suppression", severity: Advisory, needs: NOTHING, source: Validate }
    fn run(cx, out) {}
}

/// Takes every finding an inline suppression covers out of `report` and
/// adds `unused_suppression` for each valid suppression that covered none
/// (when `reported(code)` and its check was not skipped). Returns how many
/// findings were suppressed.
pub(crate) fn apply(
    content: &Content,
    report: &mut Report,
    reported: impl Fn(&str) -> bool,
) -> usize {
    // node → (code, index in the node's list, used).
    let mut wanted: HashMap<&str, Vec<(&str, usize, bool)>> = HashMap::new();
    for n in &content.nodes {
        for (i, code, reason) in entries(n) {
            let list = wanted.entry(n.id.as_str()).or_default();
            if is_valid(code, reason) && !list.iter().any(|(c, _, _)| *c == code) {
                list.push((code, i, false));
            }
        }
    }
    if wanted.is_empty() {
        return 0;
    }
    let before = report.issues.len();
    report.issues.retain(|issue| {
        let Some(node) = issue.node_id.as_deref() else {
            return true;
        };
        let hit = wanted
            .get_mut(node)
            .and_then(|l| l.iter_mut().find(|(c, _, _)| *c == issue.code.name));
        match hit {
            Some((_, _, used)) => {
                *used = true;
                false
            }
            None => true,
        }
    });
    let suppressed = before - report.issues.len();
    let mut unused: Vec<(&str, &str, usize)> = wanted
        .iter()
        .flat_map(|(node, l)| l.iter().map(move |e| (*node, e)))
        .filter(|(_, (_, _, used))| !used)
        .map(|(node, (code, i, _))| (node, *code, *i))
        .filter(|(_, code, _)| reported(code) && !report.skipped.iter().any(|(c, _)| c == code))
        .collect();
    unused.sort();
    for (node, code, i) in unused {
        report.issues.push(
            Issue::new(
                CODE,
                format!(
                    "node `{node}` suppresses `{code}`, but no `{code}` finding is on it; remove the suppression"
                ),
            )
            .node(node)
            .at(format!("/definition/{SUPPRESS}/{i}")),
        );
    }
    suppressed
}

#[cfg(test)]
mod tests {
    use super::apply;
    use crate::check::testing::*;
    use serde_json::json;

    fn suppressing(code: &str) -> crate::model::Content {
        let n = node(
            "a",
            crate::model::NodeKind::Call,
            json!({"tool": "ghost", "args": {}, "output": [], "onMissingValue": "fail",
                   "authority": [], "replaySafe": true, "onIndeterminate": "halt",
                   "suppress": [{"code": code, "reason": "registered at deploy"}]}),
        );
        plan(
            vec![entry("start"), n],
            vec![edge("e1", "start", "a", "always")],
        )
    }

    fn report(c: &crate::model::Content) -> crate::model::Report {
        crate::check::run(
            c,
            Some(&registry("tools: {noop: {returns: text}}")),
            Vec::new(),
        )
    }

    #[test]
    fn fires_on_a_suppression_that_covers_nothing() {
        let c = suppressing("cycle");
        let mut r = report(&c);
        assert_eq!(apply(&c, &mut r, |_| true), 0);
        let unused: Vec<_> = r
            .issues
            .iter()
            .filter(|i| i.code == "unused_suppression")
            .collect();
        assert_eq!(unused.len(), 1, "{:?}", r.issues);
        assert_eq!(unused[0].pointer.as_deref(), Some("/definition/suppress/0"));
        // The finding that is there is still reported.
        assert!(r.issues.iter().any(|i| i.code == "unknown_tool"));
        // An ignored code's suppression is left alone.
        let mut r = report(&c);
        apply(&c, &mut r, |code| code != "cycle");
        assert!(r.issues.iter().all(|i| i.code != "unused_suppression"));
    }

    #[test]
    fn passes_on_a_suppression_that_covers_a_finding() {
        let c = suppressing("unknown_tool");
        let mut r = report(&c);
        assert_eq!(apply(&c, &mut r, |_| true), 1);
        assert!(
            r.issues
                .iter()
                .all(|i| i.code != "unknown_tool" && i.code != "unused_suppression"),
            "{:?}",
            r.issues
        );
        // Without a registry the check is skipped: not called unused.
        let mut r = crate::check::run(&c, None, Vec::new());
        apply(&c, &mut r, |_| true);
        assert!(r.issues.iter().all(|i| i.code != "unused_suppression"));
    }
}
