use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Connect two nodes with an edge.
///
/// Connect two nodes. Handles per source kind: entry `always`; call, reason,
/// transform, join `always`|`error`; branch `match`|`no_match`|`default`|
/// `error`; select `case_<label>`|`default`|`error`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ConnectArgs {
    /// The source node
    pub(crate) from: String,
    /// The target node
    pub(crate) to: String,
    /// When the edge fires [default: always]
    #[arg(long)]
    pub(crate) handle: Option<String>,
    /// The edge id [default: `<from>__<to>`, made unique]
    #[arg(long)]
    pub(crate) id: Option<String>,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: ConnectArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(
        s,
        &forge.connect(
            &plan,
            &a.from,
            &a.to,
            a.handle.as_deref(),
            a.id.as_deref(),
            a.expect.expect_rev,
        )?,
    ))
}
