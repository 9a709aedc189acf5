//! Answering a read command from the plan's snapshot in place (issue 17):
//! no fold, no node made into the model's types but those the answer
//! shows. Only when the snapshot is the fold of the whole log and the
//! checkpoint holds the findings for its content; else the caller loads
//! the plan from its log, which gives the same answer (and leaves both
//! current for the next command).

use super::source::{Archived, Head};
use crate::forge::Forge;
use crate::model::Report;
use crate::model::lifecycle::Meta;

/// What an answer read in place is made from.
pub(crate) struct InPlace<'v, 'a> {
    pub(crate) plan: Archived<'v, 'a>,
    pub(crate) meta: Meta,
    pub(crate) report: Report,
}

impl InPlace<'_, '_> {
    pub(crate) fn head(&self) -> Head {
        Head {
            plan_id: self.plan.plan_id_str().to_string(),
            state: self.meta.state,
            revision: self.plan.revision(),
            digest: self.plan.digest().to_string(),
        }
    }
}

impl Forge {
    /// `answer` over the plan read in place from its snapshot, with its
    /// findings; `None`: read it from the log instead.
    pub(crate) fn in_place_with<R>(
        &self,
        plan: &str,
        answer: impl FnOnce(&InPlace<'_, '_>) -> Option<R>,
    ) -> Option<R> {
        let registry = self.registry().ok()?;
        let registry_key = registry
            .map(|r| r.fingerprint.as_str())
            .unwrap_or("no registry");
        self.store().with_view(plan, |view| {
            // A snapshot is made only of a fold without notes; the
            // findings are keyed by the log prefix it folds (the whole log).
            let key = crate::forge::findings_key(&view.stamp().key(), &[], registry_key);
            let report = self.cached_findings(plan, &key)?;
            let found = InPlace {
                plan: Archived::new(view),
                meta: view.meta()?,
                report,
            };
            answer(&found)
        })
    }

    /// As [`Forge::in_place_with`], for an answer made from the plan, its
    /// head and its findings.
    pub(crate) fn in_place<R>(
        &self,
        plan: &str,
        answer: impl FnOnce(&Archived<'_, '_>, Head, &[crate::model::Issue]) -> Option<R>,
    ) -> Option<R> {
        self.in_place_with(plan, |p| answer(&p.plan, p.head(), &p.report.issues))
    }
}
