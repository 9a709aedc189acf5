use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Error;
use crate::model::error::Result;
use clap::Args;

/// Set or clear a node's phase.
///
/// Set a node's phase, or clear it (the node becomes unphased). Phases are
/// labels for reading and grouping; edges alone order execution.
#[derive(Args, Debug, Clone)]
pub(crate) struct PhaseArgs {
    /// The node id
    pub(crate) id: String,
    /// The phase name
    #[arg(required_unless_present = "clear", conflicts_with = "clear")]
    pub(crate) phase: Option<String>,
    /// Make the node unphased
    #[arg(long)]
    pub(crate) clear: bool,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: PhaseArgs) -> Result<Reply> {
    if a.phase.as_deref() == Some(crate::model::ids::UNPHASED) {
        return Err(Error::invalid(
            "`(unphased)` names the outline entry of nodes without a phase; use --clear to make a node unphased",
        ));
    }
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(
        s,
        &forge.set_node_phase(
            &plan,
            &a.id,
            if a.clear { None } else { a.phase },
            a.expect.expect_rev,
        )?,
    ))
}
