use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Take back your latest undo.
///
/// Take back your latest undo by appending its inverse; repeat to walk
/// forward through consecutive undos. A change of yours that is not an undo
/// ends what can be redone, as in an editor; `undo` takes a redo back.
///
/// As with undo, "your" is the actor, and what someone else changed since
/// stays as they left it.
#[derive(Args, Debug, Clone)]
pub(crate) struct RedoArgs {
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: RedoArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(s, &forge.redo(&plan, a.expect.expect_rev)?))
}
