use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Show the plan's history, one line per change.
///
/// One line per change (transaction), newest first: the revision after it,
/// the time, the actor, and what it did ("added call node `fetch`"). The
/// revisions are the ones `diff A B`, `raw --rev N` and `clone --at N`
/// take. Lifecycle changes (freeze, approval, label) make no revision and
/// show the revision they were made at in brackets. `ops` prints the raw
/// log.
#[derive(Args, Debug, Clone)]
pub(crate) struct LogArgs {
    /// Only the N newest changes
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub(crate) max_count: Option<usize>,
    /// Oldest first
    #[arg(long)]
    pub(crate) reverse: bool,
}

pub(crate) fn run(s: &mut Session, a: LogArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let all = forge.log(&plan)?;
    let mut changes: Vec<_> = all
        .iter()
        .rev()
        .take(a.max_count.unwrap_or(usize::MAX))
        .collect();
    if a.reverse {
        changes.reverse();
    }
    Ok(Reply::for_format(
        s.format(),
        || crate::render::log::text(&plan, &changes, a.reverse),
        || crate::render::log::json(&plan, &changes),
    ))
}
