//! The lifecycle (SPEC §4): freeze, unfreeze, submit.

use super::Forge;
use super::echo::{self, Echo};
use crate::model::Report;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::lifecycle::Approval;
use crate::model::lifecycle::Frozen;
use crate::model::lifecycle::State;
use crate::model::remedy::Remedy;
use crate::model::{AuthorityClaim, NodeKind};
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

/// The union of the authority of every call reachable from the entry,
/// deduplicated, sorted by capability, scope, verb.
pub(crate) fn authority_set(loaded: &Loaded) -> Vec<AuthorityClaim> {
    let content = loaded.content();
    let graph = crate::check::Graph::new(content);
    let reach = graph.reachable();
    let mut set: Vec<AuthorityClaim> = content
        .nodes
        .iter()
        .enumerate()
        .filter(|(i, n)| reach[*i] && n.kind == NodeKind::Call)
        .flat_map(|(_, n)| n.authority())
        .collect();
    set.sort();
    set.dedup();
    set
}

impl Forge {
    /// Runs every check; with no blocking issue the plan becomes reviewable,
    /// bound to the digest that was checked.
    pub(crate) fn freeze(&self, plan: &str) -> Result<Freeze> {
        let loaded = self.load(plan)?;
        if loaded.state() == State::Executable {
            ensure_editable(&loaded)?;
        }
        let mut report = self.check(&loaded)?;
        let already = loaded.state() == State::Reviewable;
        let mut out = Freeze {
            plan_id: plan.to_string(),
            frozen: false,
            already,
            revision: loaded.revision(),
            digest: loaded.digest.clone(),
            report: Report::default(),
        };
        if report.has_blocking() || already {
            out.frozen = already && !report.has_blocking();
            out.report = report;
            return Ok(out);
        }
        let checked = loaded.digest.clone();
        let result = self.store().update_meta(plan, |now, meta| {
            if now.state() != State::Editable || now.digest != checked {
                let why = if now.state() != State::Editable {
                    format!("it became {}", now.state())
                } else {
                    format!("it moved to revision {}", now.revision())
                };
                return Err(Error::new(ErrorKind::RevisionMoved, why));
            }
            meta.state = State::Reviewable;
            meta.frozen = Some(Frozen {
                revision: now.revision(),
                digest: checked.clone(),
            });
            meta.freezes.push(now.revision());
            Ok(())
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

    /// Makes a reviewable plan editable again. No checks.
    pub(crate) fn unfreeze(&self, plan: &str) -> Result<Echo> {
        let after = self.store().update_meta(plan, |now, meta| {
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
            meta.state = State::Editable;
            Ok(())
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

    /// What an approval would cover: freezes (or re-checks) the plan and
    /// computes the authority set. Nothing is approved yet.
    pub(crate) fn submit_preview(
        &self,
        plan: &str,
        decided_by: Option<&str>,
    ) -> Result<Submission> {
        let loaded = self.load(plan)?;
        if loaded.state() == State::Executable {
            ensure_editable(&loaded)?;
        }
        let freeze = self.freeze(plan)?;
        let loaded = self.load(plan)?;
        Ok(Submission {
            plan_id: plan.to_string(),
            digest: loaded.digest.clone(),
            revision: loaded.revision(),
            authority_set: if freeze.frozen {
                authority_set(&loaded)
            } else {
                Vec::new()
            },
            decided_by: decided_by.unwrap_or(self.actor()).to_string(),
            decided_at: None,
            approved: false,
            report: freeze.report,
        })
    }

    /// Approves a reviewable plan at the previewed digest: it becomes
    /// executable, forever. Refuses if the plan moved since the preview.
    pub(crate) fn submit_approve(&self, preview: Submission) -> Result<Submission> {
        let decided_at = crate::model::clock::now();
        let plan = preview.plan_id.clone();
        self.store().update_meta(&plan, |now, meta| {
            if now.state() != State::Reviewable {
                return Err(Error::new(
                    ErrorKind::NotEditable,
                    format!("plan {plan} is {} now, not reviewable; run submit again", now.state()),
                ));
            }
            if now.digest != preview.digest || meta.frozen.as_ref().map(|f| &f.digest) != Some(&preview.digest) {
                return Err(Error::new(
                    ErrorKind::RevisionMoved,
                    format!("plan {plan} changed since it was checked (digest {} → {}); nothing was approved", preview.digest, now.digest),
                )
                .on_plan(&plan)
                .with_help("submit again to check and approve the plan as it is now"));
            }
            if authority_set(now) != preview.authority_set {
                return Err(Error::new(ErrorKind::RevisionMoved, format!("the authority of plan {plan} changed since it was checked")));
            }
            meta.state = State::Executable;
            meta.approval = Some(Approval {
                plan_id: plan.clone(),
                digest: preview.digest.clone(),
                authority_set: preview.authority_set.clone(),
                decided_by: preview.decided_by.clone(),
                decided_at: decided_at.clone(),
            });
            Ok(())
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
        if preview.report.has_blocking() {
            return Ok(preview);
        }
        self.submit_approve(preview)
    }
}
