use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Undo your latest change to the plan.
///
/// Undo your latest change to the plan by appending its inverse; repeat to
/// walk further back.
///
/// "Your" is the actor (--actor, PLANFORGE_ACTOR, else $USER): other
/// people's changes are never undone, and what someone changed again after
/// your change stays as they left it (the echo says so). The log keeps both
/// the change and its undo.
#[derive(Args, Debug, Clone)]
pub(crate) struct UndoArgs {
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: UndoArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let echo = forge.undo(&plan, a.expect.expect_rev).map_err(|e| {
        if !e.message.starts_with("nothing to undo") {
            return e;
        }
        let help = e.help.as_deref().unwrap_or_default().to_string();
        e.with_help(format!(
            "{help}
planforge log -p {plan} lists the plan's changes, who made them, and which are inherited from a parent"
        ))
    })?;
    Ok(echo_reply(s, &echo))
}
