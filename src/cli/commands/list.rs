use crate::cli::{Reply, Session};
use crate::model::error::Result;
use crate::render::status;
use clap::Args;

/// List the plans in the store.
///
/// List the plans in the store with their state, revision and label; `*`
/// marks the plan commands act on when no plan is named (as `git branch`
/// marks the branch checked out).
#[derive(Args, Debug, Clone)]
pub(crate) struct ListArgs {}

pub(crate) fn run(s: &mut Session, _a: ListArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plans = forge.list()?;
    let current = s.plan_id(forge.store()).ok();
    Ok(Reply::new(
        status::list_text(&plans, current.as_deref(), &s.voice("")),
        status::list_json(&plans, current.as_deref()),
    ))
}
