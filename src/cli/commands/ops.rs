use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Print the plan's op log.
///
/// Print the plan's op log, one op per line (JSON in wire form), in log
/// order. Only ops of complete transactions are printed.
#[derive(Args, Debug, Clone)]
pub(crate) struct OpsArgs {
    /// Only ops with a lamport greater than N
    #[arg(long, value_name = "N")]
    pub(crate) since_lamport: Option<u64>,
    /// Only the first REV ops (the ops of revision REV)
    #[arg(long, value_name = "REV")]
    pub(crate) through: Option<u64>,
}

pub(crate) fn run(s: &mut Session, a: OpsArgs) -> Result<Reply> {
    s.require_format("ops", &[Format::Text, Format::Json])?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let ops = forge.ops(&plan, a.since_lamport, a.through)?;
    Ok(Reply::new(
        crate::render::diff::ops_text(&ops),
        crate::render::diff::ops_json(&plan, &ops),
    ))
}
