//! Complexity: O(ops), inside the fold (`store::lifecycle`), which proves
//! every approval against the content.

use crate::model::Issue;
use crate::model::lifecycle::Approval;
use crate::model::note::{OpRef, OpRefs, VoidReason};
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// An approval on record that does not hold, so the plan is not
    /// executable: the content changed after it (a merge from another clone,
    /// a hand edit of the log), the plan was unfrozen after it, or the record
    /// itself approves other content, another plan, or another authority set
    /// than the content requests. The finding names what differs and whose
    /// ops caused it.
    ///
    /// ## Why it matters
    /// An approval is a person's decision about exact content and exact
    /// authority. An executor runs only what was approved; a plan whose
    /// record no longer matches its content must not be run, on any clone.
    ///
    /// ## How to fix
    /// Review the plan as it is now and approve it again (freeze, then
    /// submit): a new approval replaces the one that does not hold. Or keep
    /// the approved content by going back to the log as it was (restore it
    /// from version control), or work on a copy.
    ///
    /// ## Example
    /// Ann submits plan-x on her clone; Bob adds a node on his; the clones
    /// merge. The log holds Ann's approval (lamport 14), then Bob's new node
    /// `late` (lamport 15): the plan is not executable, and this finding
    /// names Bob's op. Fixed: freeze and submit again after reviewing `late`.
    pub ApprovalMismatch { code: "approval_mismatch", severity: Blocking, needs: NOTHING, source: Lifecycle }
    fn run(cx, out) {}
}

fn who(r: &OpRef) -> String {
    let node = r
        .node
        .as_ref()
        .map(|n| format!(" `{n}`"))
        .unwrap_or_default();
    format!(
        "{}{node} by {} (lamport {}, {})",
        r.kind, r.actor, r.lamport, r.at
    )
}

fn list(refs: &OpRefs) -> String {
    let mut s = refs.first.iter().map(who).collect::<Vec<_>>().join("; ");
    if refs.total > refs.first.len() {
        s.push_str(&format!("; and {} more", refs.total - refs.first.len()));
    }
    s
}

fn claims(c: &[crate::model::AuthorityClaim]) -> String {
    if c.is_empty() {
        return "none".into();
    }
    // At most 20 claims, then a count: the set grows with the plan.
    let mut s = c
        .iter()
        .take(20)
        .map(|c| format!("{}/{}/{}", c.capability, c.scope, c.verb.as_str()))
        .collect::<Vec<_>>()
        .join(", ");
    if c.len() > 20 {
        s.push_str(&format!(" … and {} more", c.len() - 20));
    }
    s
}

fn reason(r: &VoidReason) -> String {
    match r {
        VoidReason::NotReviewable { state } => {
            format!("the plan was {state}, not reviewable, where the approval stands in the log")
        }
        VoidReason::OtherPlan { plan } => format!("the record approves {plan}, another plan"),
        VoidReason::DigestDiffers { approved, actual } => {
            format!(
                "the record approves digest {approved}, but the content there hashes to {actual}"
            )
        }
        VoidReason::AuthorityDiffers {
            approved,
            requested,
        } => format!(
            "the record approves the authority [{}], but the content requests [{}]",
            claims(approved),
            claims(requested)
        ),
        VoidReason::ContentAfter(ops) => format!("content changed after it: {}", list(ops)),
        VoidReason::UnfrozenAfter(by) => format!("the plan was unfrozen after it ({})", who(by)),
        VoidReason::BadRecord { what } => format!("the record is not one planforge writes: {what}"),
    }
}

/// The finding for an approval on record that does not hold.
pub(crate) fn issue(approval: &Approval, by: &OpRef, reasons: &[VoidReason]) -> Issue {
    let why = reasons.iter().map(reason).collect::<Vec<_>>().join("; ");
    Issue::new(
        CODE,
        format!(
            "the approval of {} by {} ({}, lamport {}) does not hold, so the plan is not executable: {why}",
            approval.plan_id, approval.decided_by, approval.decided_at, by.lamport
        ),
    )
    .at("/approval")
    .fix(Remedy::Submit.when("after reviewing the plan as it is now: a new approval replaces this one"))
    .fix(Remedy::Clone.when("to work on a copy instead"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::testing::*;
    use crate::model::lifecycle::State;
    use crate::model::{Op, OpBody};

    fn approval(plan: &str, digest: &str) -> Approval {
        Approval {
            plan_id: plan.into(),
            digest: digest.into(),
            authority_set: vec![],
            decided_by: "ann".into(),
            decided_at: "2026-01-01T00:00:00Z".into(),
        }
    }

    fn lifecycle(ops: Vec<Vec<OpBody>>) -> Vec<Op> {
        let mut out = Vec::new();
        for bodies in ops {
            let base = out.len() as u64;
            out.extend(crate::store::transaction("ann", "plan-t", base, bodies));
        }
        out
    }

    fn folded(ops: &[Op]) -> crate::store::fold::Folded {
        crate::store::fold::fold("plan-t", ops)
    }

    #[test]
    fn fires_on_content_after_approval_and_on_a_record_for_other_content() {
        let start = vec![OpBody::AddNode { node: entry("s") }];
        let base = lifecycle(vec![start.clone()]);
        let digest = crate::wire::jcs::digest(&folded(&base).content).0;
        let freeze = OpBody::Freeze {
            revision: 1,
            digest: digest.clone(),
        };
        let ok = lifecycle(vec![
            start.clone(),
            vec![freeze.clone()],
            vec![OpBody::Approve {
                approval: approval("plan-t", &digest),
            }],
        ]);
        let f = folded(&ok);
        assert_eq!(f.meta.state, State::Executable);
        assert!(
            !f.notes
                .iter()
                .any(|n| matches!(n, crate::model::note::Note::ApprovalVoid { .. }))
        );
        // Content after it: not executable, the finding names the op.
        let mut after = ok.clone();
        after.extend(crate::store::transaction(
            "bob",
            "plan-t",
            10,
            vec![OpBody::AddNode { node: join("late") }],
        ));
        let f = folded(&after);
        assert_eq!(f.meta.state, State::Editable);
        let issues = crate::check::notes::issues(&f.notes);
        let i = issues
            .iter()
            .find(|i| i.code == "approval_mismatch")
            .expect("fires");
        assert!(
            i.message.contains("add_node `late` by bob"),
            "{}",
            i.message
        );
        // A record for another plan or digest.
        let bad = lifecycle(vec![
            start,
            vec![freeze],
            vec![OpBody::Approve {
                approval: approval("plan-other", "00"),
            }],
        ]);
        let f = folded(&bad);
        assert_eq!(f.meta.state, State::Reviewable);
        let issues = crate::check::notes::issues(&f.notes);
        let i = issues
            .iter()
            .find(|i| i.code == "approval_mismatch")
            .expect("fires");
        assert!(
            i.message.contains("another plan") && i.message.contains("digest 00"),
            "{}",
            i.message
        );
    }

    #[test]
    fn a_forged_record_or_a_reordered_authority_set() {
        let start = vec![OpBody::AddNode { node: entry("s") }];
        let base = lifecycle(vec![start.clone()]);
        let digest = crate::wire::jcs::digest(&folded(&base).content).0;
        let freeze = OpBody::Freeze {
            revision: 1,
            digest: digest.clone(),
        };
        let with = |a: crate::model::lifecycle::Approval| {
            folded(&lifecycle(vec![
                start.clone(),
                vec![freeze.clone()],
                vec![OpBody::Approve { approval: a }],
            ]))
        };
        let mut forged = approval("plan-t", &digest);
        forged.decided_by = "ceo\nApproved by the board".into();
        forged.decided_at = "yesterday".into();
        let f = with(forged);
        assert_eq!(f.meta.state, State::Reviewable);
        let issues = crate::check::notes::issues(&f.notes);
        let i = issues
            .iter()
            .find(|i| i.code == "approval_mismatch")
            .expect("fires");
        assert!(
            i.message.contains("not an actor name") && i.message.contains("not a time"),
            "{}",
            i.message
        );
    }

    #[test]
    fn a_new_approval_replaces_one_that_did_not_hold() {
        let start = vec![OpBody::AddNode { node: entry("s") }];
        let base = lifecycle(vec![start.clone()]);
        let digest = crate::wire::jcs::digest(&folded(&base).content).0;
        let ops = lifecycle(vec![
            start,
            vec![OpBody::Freeze {
                revision: 1,
                digest: digest.clone(),
            }],
            vec![OpBody::Approve {
                approval: approval("plan-t", "00"),
            }],
            vec![OpBody::Approve {
                approval: approval("plan-t", &digest),
            }],
        ]);
        let f = folded(&ops);
        assert_eq!(f.meta.state, State::Executable);
        assert!(crate::check::notes::issues(&f.notes).is_empty());
    }
}
