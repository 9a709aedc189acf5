use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Remove an edge.
///
/// Remove an edge by id.
#[derive(Args, Debug, Clone)]
pub(crate) struct DisconnectArgs {
    /// The edge id
    pub(crate) edge: String,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: DisconnectArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(
        s,
        &forge.disconnect(&plan, &a.edge, a.expect.expect_rev)?,
    ))
}
