//! Complexity: O(1), emitted by `freeze` / `submit` (the forge's lifecycle).

use crate::model::Issue;
use crate::model::remedy::Remedy;

declare_check! {
    /// ## What it finds
    /// A freeze whose checks passed, but the plan changed (or changed state)
    /// between the checks and the moment the freeze was to be recorded.
    ///
    /// ## Why it matters
    /// A freeze binds to the digest that was checked. Recording it for content
    /// nobody checked would let an unchecked plan become reviewable.
    ///
    /// ## How to fix
    /// Freeze again: it checks the plan as it is now.
    ///
    /// ## Example
    /// Process A freezes the plan at revision 12 while process B adds a node
    /// (revision 13) before A records the freeze: A reports
    /// `transition_rejected` and the plan stays editable.
    pub TransitionRejected { code: "transition_rejected", severity: Blocking, needs: NOTHING, source: Lifecycle }
    fn run(cx, out) {}
}

/// The finding for a freeze that lost a race with another change.
pub(crate) fn issue(plan: &str, why: &str) -> Issue {
    Issue::new(
        CODE,
        format!("plan {plan} changed while it was being checked ({why}); nothing was frozen"),
    )
    .fix(Remedy::Freeze.when("it checks the plan as it is now"))
}
