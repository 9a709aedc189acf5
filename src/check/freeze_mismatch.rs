//! Complexity: O(ops), inside the fold (`store::lifecycle`).

use crate::model::Issue;
use crate::model::note::{FreezeReason, OpRef};
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// A freeze that does not hold: content ops come after it in the log (a
    /// merge from another clone, a hand edit), or it records a digest the
    /// content did not have where it stands. The plan is editable again.
    /// Advisory.
    ///
    /// ## Why it matters
    /// A freeze binds a plan to content someone checked. Content merged in
    /// after it was never checked, so the freeze no longer says anything:
    /// the plan is back to editable, and the reviewers should know why.
    ///
    /// ## How to fix
    /// Look at what changed since the freeze (the ops the finding names),
    /// then freeze again.
    ///
    /// ## Example
    /// Ann freezes plan-x at revision 12; Bob's clone added a node at
    /// lamport 11, merged in later: the freeze stands after content nobody
    /// froze, and the plan is editable. Fixed: freeze again.
    pub FreezeMismatch { code: "freeze_mismatch", severity: Advisory, needs: NOTHING, source: Lifecycle }
    fn run(cx, out) {}
}

/// The finding for a freeze that does not hold.
pub(crate) fn issue(digest: &str, revision: u64, by: &OpRef, reason: &FreezeReason) -> Issue {
    let why = match reason {
        FreezeReason::ContentAfter(ops) => {
            let mut s = ops
                .first
                .iter()
                .map(|r| {
                    let node = r
                        .node
                        .as_ref()
                        .map(|n| format!(" `{n}`"))
                        .unwrap_or_default();
                    format!("{}{node} by {} (lamport {})", r.kind, r.actor, r.lamport)
                })
                .collect::<Vec<_>>()
                .join("; ");
            if ops.total > ops.first.len() {
                s.push_str(&format!("; and {} more", ops.total - ops.first.len()));
            }
            format!("content changed after it: {s}")
        }
        FreezeReason::DigestDiffers { actual } => {
            format!("it records digest {digest}, but the content there hashes to {actual}")
        }
    };
    Issue::new(
        CODE,
        format!(
            "the freeze at revision {revision} by {} (lamport {}) does not hold, so the plan is editable again: {why}",
            by.actor, by.lamport
        ),
    )
    .fix(Remedy::Freeze.when("after looking at what changed"))
}

#[cfg(test)]
mod tests {
    use crate::check::testing::*;
    use crate::model::OpBody;
    use crate::model::lifecycle::State;

    #[test]
    fn fires_on_content_after_a_freeze_and_not_on_a_clean_one() {
        let start = crate::store::transaction(
            "ann",
            "plan-t",
            0,
            vec![OpBody::AddNode { node: entry("s") }],
        );
        let digest =
            crate::wire::jcs::digest(&crate::store::fold::fold("plan-t", &start).content).0;
        let mut ops = start.clone();
        ops.extend(crate::store::transaction(
            "ann",
            "plan-t",
            1,
            vec![OpBody::Freeze {
                revision: 1,
                digest,
            }],
        ));
        let f = crate::store::fold::fold("plan-t", &ops);
        assert_eq!(f.meta.state, State::Reviewable);
        assert!(crate::check::notes::issues(&f.notes).is_empty());
        ops.extend(crate::store::transaction(
            "bob",
            "plan-t",
            5,
            vec![OpBody::AddNode { node: join("j") }],
        ));
        let f = crate::store::fold::fold("plan-t", &ops);
        assert_eq!(f.meta.state, State::Editable);
        let issues = crate::check::notes::issues(&f.notes);
        assert_eq!(issues.len(), 1);
        assert_eq!(issues[0].code, "freeze_mismatch");
        assert!(
            issues[0].message.contains("add_node `j` by bob"),
            "{}",
            issues[0].message
        );
    }
}
