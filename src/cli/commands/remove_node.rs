use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Remove a node and its edges.
///
/// Remove a node and every edge into or out of it, in one step.
#[derive(Args, Debug, Clone)]
pub(crate) struct RemoveNodeArgs {
    /// The node id
    pub(crate) id: String,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: RemoveNodeArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(
        s,
        &forge.remove_node(&plan, &a.id, a.expect.expect_rev)?,
    ))
}
