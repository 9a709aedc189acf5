//! The lifecycle, derived by the fold (issue 12): the state, the freeze, the
//! approval, the label and the request come from the lifecycle ops in the
//! log, in fold order, and every transition is checked against the content
//! where it stands. A plan is executable only when its latest transition is
//! an approval that matches the content it approved, the content at head and
//! the authority that content requests; anything else is a note the checks
//! word as a finding. Both clones of a merge fold one order, so both reach
//! the same verdict.

use crate::model::lifecycle::{Approval, Frozen, Meta, State};
use crate::model::note::{FreezeReason, Note, OpRef, OpRefs, VoidReason};
use crate::model::{AuthorityClaim, Op, OpBody};

/// The content as it stands at a lifecycle op: what a freeze or an approval
/// is checked against.
pub(crate) struct Here {
    pub(crate) digest: String,
    pub(crate) revision: u64,
    pub(crate) authority: Vec<AuthorityClaim>,
}

/// The lifecycle so far.
#[derive(Debug, Clone)]
pub struct Machine {
    pub meta: Meta,
    created: bool,
    /// The freeze that made the plan reviewable, while it is.
    freeze_by: Option<OpRef>,
    /// The approval that made it executable, while it is.
    approved_by: Option<OpRef>,
    /// The approval on record that does not hold, while it is the latest
    /// transition.
    void: Option<(Approval, OpRef, Vec<VoidReason>)>,
    /// The latest freeze, when it does not hold.
    freeze_void: Option<(Frozen, OpRef, FreezeReason)>,
}

impl Default for Machine {
    fn default() -> Machine {
        Machine {
            meta: Meta::new(""),
            created: false,
            freeze_by: None,
            approved_by: None,
            void: None,
            freeze_void: None,
        }
    }
}

impl Machine {
    /// Whether nothing on record fails to hold (no void approval, no freeze
    /// that does not hold): then the machine is its metadata, whether the
    /// plan was created, and the ops that froze and approved it.
    pub(crate) fn is_quiet(&self) -> bool {
        self.void.is_none() && self.freeze_void.is_none()
    }

    /// Whether the plan was created, and the ops that froze and approved it.
    pub(crate) fn quiet_parts(&self) -> (bool, Option<&OpRef>, Option<&OpRef>) {
        (
            self.created,
            self.freeze_by.as_ref(),
            self.approved_by.as_ref(),
        )
    }

    /// A quiet machine from its parts (see [`Machine::quiet_parts`]).
    pub(crate) fn from_quiet_parts(
        meta: Meta,
        created: bool,
        freeze_by: Option<OpRef>,
        approved_by: Option<OpRef>,
    ) -> Machine {
        Machine {
            meta,
            created,
            freeze_by,
            approved_by,
            void: None,
            freeze_void: None,
        }
    }
}

/// How a note names `op`, whose body is `body`.
pub(crate) fn op_ref(op: &Op, body: &OpBody) -> OpRef {
    OpRef {
        actor: op.actor_id.clone(),
        lamport: op.lamport,
        at: op.at.clone(),
        kind: body.kind(),
        node: body.node_id().map(Into::into),
    }
}

impl Machine {
    /// Every op passes here in fold order (content ops too, for the time).
    pub(crate) fn seen(&mut self, op: &Op) {
        if self.meta.created_at.is_empty() {
            self.meta.created_at = op.at.to_string();
        }
        // In place: no allocation per op.
        self.meta.updated_at.clear();
        self.meta.updated_at.push_str(&op.at);
    }

    /// A content op (named by `op`) was applied.
    pub(crate) fn content_changed(&mut self, op: OpRef) {
        match self.meta.state {
            State::Editable => {}
            State::Reviewable => {
                let frozen = self
                    .meta
                    .frozen
                    .clone()
                    .expect("a reviewable plan has a freeze");
                let by = self
                    .freeze_by
                    .take()
                    .expect("a reviewable plan has a freeze op");
                let mut after = OpRefs::default();
                after.push(op.clone());
                self.freeze_void = Some((frozen, by, FreezeReason::ContentAfter(after)));
                self.meta.state = State::Editable;
            }
            State::Executable => {
                let (approval, by) = self.take_approval();
                let mut after = OpRefs::default();
                after.push(op.clone());
                self.void = Some((approval, by, vec![VoidReason::ContentAfter(after)]));
                self.meta.state = State::Editable;
            }
        }
        // Later content ops join the note already made.
        let same = |after: &OpRefs| after.total > 0 && after.first.last() == Some(&op);
        if let Some((_, _, reasons)) = &mut self.void
            && let Some(VoidReason::ContentAfter(after)) = reasons.last_mut()
            && !same(after)
        {
            after.push(op.clone());
        }
        if let Some((_, _, FreezeReason::ContentAfter(after))) = &mut self.freeze_void
            && !same(after)
        {
            after.push(op);
        }
    }

    /// A lifecycle op; `here` is the content where it stands (needed by
    /// freeze and approve only).
    pub(crate) fn lifecycle(&mut self, op: &Op, plan_id: &str, here: impl FnOnce() -> Here) {
        match &op.body {
            OpBody::CreatePlan {
                label,
                request,
                provenance,
            } if !self.created => {
                self.created = true;
                self.meta.created_at = op.at.to_string();
                self.meta.label = label.clone();
                self.meta.request = request.clone();
                self.meta.provenance = provenance.clone();
            }
            OpBody::CreatePlan { .. } => {}
            OpBody::SetLabel { label } => self.meta.label = label.clone(),
            OpBody::Freeze { digest, .. } => self.freeze(op, digest, here()),
            OpBody::Unfreeze => self.unfreeze(op),
            OpBody::Approve { approval } => self.approve(op, approval, plan_id, here()),
            _ => unreachable!("content ops go to content_changed"),
        }
    }

    fn freeze(&mut self, op: &Op, digest: &str, here: Here) {
        match self.meta.state {
            // Approved content does not need freezing again.
            State::Executable => {}
            State::Reviewable
                if self.meta.frozen.as_ref().map(|f| f.digest.as_str()) == Some(digest) => {}
            State::Editable | State::Reviewable => {
                let frozen = Frozen {
                    revision: op_revision(op).unwrap_or(here.revision),
                    digest: digest.to_string(),
                };
                if digest == here.digest {
                    self.meta.state = State::Reviewable;
                    self.meta.freezes.push(here.revision);
                    self.meta.frozen = Some(Frozen {
                        revision: here.revision,
                        digest: here.digest,
                    });
                    self.freeze_by = Some(op_ref(op, &op.body));
                    // A new freeze supersedes a freeze that did not hold;
                    // an approval that did not hold stays reported until a
                    // new approval (issue 12: an approval made void by a
                    // merge is a blocking finding, whatever follows).
                    self.freeze_void = None;
                } else {
                    self.freeze_void = Some((
                        frozen,
                        op_ref(op, &op.body),
                        FreezeReason::DigestDiffers {
                            actual: here.digest,
                        },
                    ));
                }
            }
        }
    }

    fn unfreeze(&mut self, op: &Op) {
        match self.meta.state {
            State::Editable => {}
            State::Reviewable => {
                self.meta.state = State::Editable;
                self.freeze_by = None;
            }
            State::Executable => {
                let (approval, by) = self.take_approval();
                self.void = Some((
                    approval,
                    by,
                    vec![VoidReason::UnfrozenAfter(op_ref(op, &op.body))],
                ));
                self.meta.state = State::Editable;
            }
        }
    }

    /// An executable plan's approval and the op that made it, taken off the
    /// plan when something after it voids it.
    fn take_approval(&mut self) -> (Approval, OpRef) {
        let approval = self
            .meta
            .approval
            .take()
            .expect("an executable plan is approved");
        let by = self
            .approved_by
            .take()
            .expect("an executable plan has an approve op");
        (approval, by)
    }

    fn approve(&mut self, op: &Op, approval: &Approval, plan_id: &str, here: Here) {
        let same_claims = |a: &[AuthorityClaim], b: &[AuthorityClaim]| {
            // A set: order and repeats do not matter.
            let key = |c: &AuthorityClaim| (c.capability.clone(), c.scope.clone(), c.verb.as_str());
            let mut x: Vec<_> = a.iter().map(key).collect();
            let mut y: Vec<_> = b.iter().map(key).collect();
            x.sort();
            x.dedup();
            y.sort();
            y.dedup();
            x == y
        };
        let mut reasons = Vec::new();
        if self.meta.state != State::Reviewable {
            reasons.push(VoidReason::NotReviewable {
                state: self.meta.state,
            });
        }
        if approval.plan_id != plan_id {
            reasons.push(VoidReason::OtherPlan {
                plan: approval.plan_id.clone(),
            });
        }
        if approval.digest != here.digest {
            reasons.push(VoidReason::DigestDiffers {
                approved: approval.digest.clone(),
                actual: here.digest,
            });
        }
        if !crate::model::ids::is_valid_actor(&approval.decided_by) {
            reasons.push(VoidReason::BadRecord {
                what:
                    "who decided is not an actor name (1–64 letters, digits, `_`, `.`, `@` or `-`)"
                        .into(),
            });
        }
        if !crate::model::clock::is_rfc3339(&approval.decided_at) {
            reasons.push(VoidReason::BadRecord {
                what: "when it was decided is not a time (RFC 3339, UTC)".into(),
            });
        }
        if !same_claims(&approval.authority_set, &here.authority) {
            reasons.push(VoidReason::AuthorityDiffers {
                approved: approval.authority_set.clone(),
                requested: here.authority,
            });
        }
        if reasons.is_empty() {
            self.meta.state = State::Executable;
            self.meta.approval = Some(approval.clone());
            self.approved_by = Some(op_ref(op, &op.body));
            self.void = None;
        } else if self.meta.state != State::Executable {
            // A void record on an executable plan changes nothing: the
            // approval that holds stays; one on another plan is the finding.
            self.void = Some((approval.clone(), op_ref(op, &op.body), reasons));
        }
    }

    /// The lifecycle as the plan's metadata, and the notes about it.
    pub fn finish(self) -> (Meta, Vec<Note>) {
        let mut notes = Vec::new();
        if let Some((approval, by, reasons)) = self.void {
            notes.push(Note::ApprovalVoid {
                approval,
                by,
                reasons,
            });
        }
        if let Some((frozen, by, reason)) = self.freeze_void
            && self.meta.state == State::Editable
        {
            notes.push(Note::FreezeNotHeld {
                digest: frozen.digest,
                revision: frozen.revision,
                by,
                reason,
            });
        }
        (self.meta, notes)
    }
}

/// The revision a freeze op records.
fn op_revision(op: &Op) -> Option<u64> {
    match &op.body {
        OpBody::Freeze { revision, .. } => Some(*revision),
        _ => None,
    }
}
