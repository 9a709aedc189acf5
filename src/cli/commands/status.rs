use crate::cli::{Reply, Session};
use crate::model::error::Result;
use crate::render::status;
use clap::Args;

/// Show a plan's state, revision, digest and issue counts.
///
/// Show the plan's state, revision, digest, label, request and issue counts.
#[derive(Args, Debug, Clone)]
pub(crate) struct StatusArgs {}

pub(crate) fn run(s: &mut Session, _a: StatusArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let id = s.plan_id(forge.store())?;
    let st = forge.status(&id)?;
    Ok(Reply::new(
        status::status_text(&st),
        status::status_json(&st),
    ))
}
