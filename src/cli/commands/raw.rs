use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Print the plan's content as JSON (wire form).
///
/// Print the plan's content as JSON in wire form (what the digest covers):
/// `{planId, digest, revision, bounds, nodes, edges, provenance?}`.
#[derive(Args, Debug, Clone)]
pub(crate) struct RawArgs {
    /// At this revision [default: the current one]
    #[arg(long, value_name = "N")]
    pub(crate) rev: Option<u64>,
}

pub(crate) fn run(s: &mut Session, a: RawArgs) -> Result<Reply> {
    s.require_format("raw", &[Format::Text, Format::Json])?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let raw = forge.raw(&plan, a.rev)?;
    Ok(Reply::new(crate::render::diff::raw_text(&raw), raw))
}
