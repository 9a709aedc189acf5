use super::echo_reply;
use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Make a reviewable plan editable again.
///
/// Make a reviewable plan editable again (no checks).
#[derive(Args, Debug, Clone)]
pub(crate) struct UnfreezeArgs {}

pub(crate) fn run(s: &mut Session, _a: UnfreezeArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(s, &forge.unfreeze(&plan)?))
}
