use super::echo_reply;
use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Copy a plan (or its first revisions) into a new editable plan.
///
/// Copy the plan's first REV ops (default: all) into a new editable plan,
/// with no approval and provenance naming its parent. The clone becomes the
/// current plan. As a git clone does, it carries the parent's history up to
/// that point: `log` on the clone lists the copied changes (with their
/// revisions, which diff and clone --at take), then "cloned from PARENT at
/// revision R", then the clone's own changes; `undo` takes back only the
/// clone's own changes.
#[derive(Args, Debug, Clone)]
pub(crate) struct CloneArgs {
    /// The new plan's id, `plan-<name>`
    pub(crate) new_id: String,
    /// Clone the plan as it was at this revision
    #[arg(long, value_name = "REV")]
    pub(crate) at: Option<u64>,
}

pub(crate) fn run(s: &mut Session, a: CloneArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let echo = forge.clone_plan(&plan, &a.new_id, a.at)?;
    forge.store().set_current(&a.new_id)?;
    // Like create, import and instantiate: say that the next command goes
    // to the clone.
    let mut reply = echo_reply(s, &echo);
    reply
        .text
        .push_str(&format!("\n{} is now the current plan.", a.new_id));
    Ok(reply)
}
