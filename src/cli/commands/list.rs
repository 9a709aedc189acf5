use crate::cli::{Reply, Session};
use crate::model::error::Result;
use crate::render::status;
use clap::Args;

/// List the plans in the store.
///
/// List the plans in the store with their state, revision and label.
#[derive(Args, Debug, Clone)]
pub(crate) struct ListArgs {}

pub(crate) fn run(s: &mut Session, _a: ListArgs) -> Result<Reply> {
    let plans = s.forge()?.list()?;
    Ok(Reply::new(
        status::list_text(&plans, &s.voice("")),
        status::list_json(&plans),
    ))
}
