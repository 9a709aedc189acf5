//! The lifecycle (SPEC §4): freeze, unfreeze, submit.

use super::Forge;
use super::echo::{self, Echo};
use crate::model::Report;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::lifecycle::Approval;
use crate::model::lifecycle::State;
use crate::model::remedy::Remedy;
use crate::model::{AuthorityClaim, Issue, OpBody};
use crate::store::{Loaded, ensure_editable};

/// The outcome of `freeze`.
#[derive(Debug, Clone)]
pub(crate) struct Freeze {
    pub(crate) plan_id: String,
    /// Whether the plan is reviewable now.
    pub(crate) frozen: bool,
    /// Whether it already was (a re-check).
    pub(crate) already: bool,
    pub(crate) revision: u64,
    pub(crate) digest: String,
    pub(crate) report: Report,
}

/// What `submit` shows before it approves, and what it approved.
#[derive(Debug, Clone)]
pub(crate) struct Submission {
    pub(crate) plan_id: String,
    pub(crate) digest: String,
    pub(crate) revision: u64,
    pub(crate) authority_set: Vec<AuthorityClaim>,
    pub(crate) decided_by: String,
    pub(crate) decided_at: Option<String>,
    pub(crate) report: Report,
    /// Whether the plan is executable now (false: refused at freeze, with
    /// the blocking issues in `report`).
    pub(crate) approved: bool,
}

impl Submission {
    /// Whether the plan could not be frozen (its blocking findings are in
    /// `report`).
    pub(crate) fn refused(&self) -> bool {
        self.report.issues.iter().any(stops_freeze)
    }
}

/// The union of the authority of every call reachable from the entry,
/// deduplicated, sorted by capability, scope, verb (what an approval must
/// name, and what the fold checks it against).
pub(crate) fn authority_set(loaded: &Loaded) -> Vec<AuthorityClaim> {
    loaded.content().requested_authority()
}

/// Whether a finding stops freeze and submit. The finding that an approval
/// on record does not hold does not: a new freeze and approval are how it
/// is resolved.
fn stops_freeze(i: &Issue) -> bool {
    i.is_blocking() && i.code != crate::check::approval_mismatch::CODE
}

impl Forge {
    /// Runs every check (never from a cache); with no blocking issue the plan
    /// becomes reviewable, bound to the digest that was checked: a `freeze`
    /// op in its log.
    pub(crate) fn freeze(&self, plan: &str) -> Result<Freeze> {
        let loaded = self.load_verified(plan)?;
        if loaded.state() == State::Executable {
            ensure_editable(&loaded)?;
        }
        let mut report = self.check_fresh(&loaded)?;
        let already = loaded.state() == State::Reviewable;
        let blocked = report.issues.iter().any(stops_freeze);
        let mut out = Freeze {
            plan_id: plan.to_string(),
            frozen: false,
            already,
            revision: loaded.revision(),
            digest: loaded.digest().to_string(),
            report: Report::default(),
        };
        if blocked || already {
            out.frozen = already && !blocked;
            out.report = report;
            return Ok(out);
        }
        let (checked, revision) = (loaded.digest().to_string(), loaded.revision());
        let result = self.store().commit_lifecycle(plan, self.actor(), |now| {
            if now.state() != State::Editable || now.digest() != checked {
                let why = if now.state() != State::Editable {
                    format!("it became {}", now.state())
                } else {
                    format!("it moved to revision {}", now.revision())
                };
                return Err(Error::new(ErrorKind::RevisionMoved, why));
            }
            Ok(vec![OpBody::Freeze {
                revision,
                digest: checked.clone(),
            }])
        });
        match result {
            Ok(_) => out.frozen = true,
            Err(e) if e.kind == ErrorKind::RevisionMoved => report
                .issues
                .push(crate::check::transition_rejected::issue(plan, &e.message)),
            Err(e) => return Err(e),
        }
        out.report = report;
        Ok(out)
    }

    /// Makes a reviewable plan editable again (an `unfreeze` op). No checks.
    pub(crate) fn unfreeze(&self, plan: &str) -> Result<Echo> {
        let after = self.store().commit_lifecycle(plan, self.actor(), |now| {
            if now.state() != State::Reviewable {
                return Err(Error::new(
                    ErrorKind::NotEditable,
                    format!(
                        "plan {plan} is {}, not reviewable; only a reviewable plan can be unfrozen",
                        now.state()
                    ),
                )
                .on_plan(plan)
                .with_help(match now.state() {
                    State::Executable => "an executable plan never changes; work on a copy",
                    _ => "it is already editable",
                })
                .fix_if(now.state() == State::Executable, Remedy::Clone));
            }
            Ok(vec![OpBody::Unfreeze])
        })?;
        let report = self.check(&after)?;
        let details = vec![format!(
            "state: reviewable → editable (revision {})",
            after.revision()
        )];
        Ok(echo::build(
            &after,
            format!("unfroze {plan}: it is editable again"),
            None,
            &report.issues,
            details,
            &[],
            &[],
        ))
    }

    /// What an approval would cover: the plan checked as it is now (never
    /// from a cache) and the authority it requests. Nothing is written: an
    /// editable plan is frozen only when the approval is given.
    pub(crate) fn submit_preview(
        &self,
        plan: &str,
        decided_by: Option<&str>,
    ) -> Result<Submission> {
        let decided_by = decided_by.unwrap_or(self.actor()).to_string();
        if !crate::model::ids::is_valid_actor(&decided_by) {
            return Err(Error::invalid(format!(
                "`{}` cannot decide an approval: who decides is named like an actor, 1–64 letters, digits, `_`, `.`, `@` or `-`",
                crate::model::ids::quote_id(&decided_by)
            )));
        }
        let loaded = self.load_verified(plan)?;
        if loaded.state() == State::Executable {
            ensure_editable(&loaded)?;
        }
        // A freeze that did not hold (content merged in or edited after it)
        // was never reviewed as it is: approving it in one go would skip
        // that review.
        if loaded.state() == State::Editable
            && let Some(issue) = crate::check::notes::issues_in(&loaded.notes(), loaded.content())
                .into_iter()
                .find(|i| i.code == crate::check::freeze_mismatch::CODE)
        {
            return Err(Error::refused(format!(
                "plan {plan} was frozen before, but that freeze does not hold (its content changed after it); approving it now would approve content nobody froze"
            ))
            .on_plan(plan)
            .with_issue(issue)
            .fix(Remedy::Status.when("to see what changed"))
            .fix(Remedy::Freeze.when("then submit")));
        }
        let report = self.check_fresh(&loaded)?;
        let blocked = report.issues.iter().any(stops_freeze);
        Ok(Submission {
            plan_id: plan.to_string(),
            digest: loaded.digest().to_string(),
            revision: loaded.revision(),
            authority_set: if blocked {
                Vec::new()
            } else {
                authority_set(&loaded)
            },
            decided_by,
            decided_at: None,
            approved: false,
            report,
        })
    }

    /// Approves the plan at the previewed digest: freezes it when it is
    /// still editable, then approves it (a `freeze` and an `approve` op in
    /// one transaction, or the `approve` op alone): it becomes executable,
    /// forever. Refuses if the plan moved since the preview.
    pub(crate) fn submit_approve(&self, preview: Submission) -> Result<Submission> {
        let decided_at = crate::model::clock::now();
        let plan = preview.plan_id.clone();
        self.store().commit_lifecycle(&plan, self.actor(), |now| {
            if now.state() == State::Executable {
                ensure_editable(now)?;
            }
            if now.digest() != preview.digest {
                return Err(Error::new(
                    ErrorKind::RevisionMoved,
                    format!("plan {plan} changed since it was checked (digest {} → {}); nothing was approved", preview.digest, now.digest()),
                )
                .on_plan(&plan)
                .with_help("submit again to check and approve the plan as it is now"));
            }
            if authority_set(now) != preview.authority_set {
                return Err(Error::new(ErrorKind::RevisionMoved, format!("the authority of plan {plan} changed since it was checked")));
            }
            let mut ops = Vec::new();
            if now.state() == State::Editable {
                ops.push(OpBody::Freeze {
                    revision: now.revision(),
                    digest: preview.digest.clone(),
                });
            }
            ops.push(OpBody::Approve {
                approval: Approval {
                    plan_id: plan.clone(),
                    digest: preview.digest.clone(),
                    authority_set: preview.authority_set.clone(),
                    decided_by: preview.decided_by.clone(),
                    decided_at: decided_at.clone(),
                },
            });
            Ok(ops)
        })?;
        Ok(Submission {
            decided_at: Some(decided_at),
            approved: true,
            ..preview
        })
    }

    /// Freeze (or re-check) and approve in one go, without asking.
    pub(crate) fn submit(&self, plan: &str, decided_by: Option<&str>) -> Result<Submission> {
        let preview = self.submit_preview(plan, decided_by)?;
        if preview.refused() {
            return Ok(preview);
        }
        self.submit_approve(preview)
    }
}
