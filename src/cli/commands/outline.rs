use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// One flat outline of the plan: an entry per phase in order of first
/// appearance, then `(unphased)`; each with its node ids, the tool of each
/// call, its open-issue count and a one-line summary.
#[derive(Args, Debug, Clone)]
pub struct OutlineArgs {}

pub fn run(_s: &mut Session, _a: OutlineArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge outline` is not available in this build yet",
    ))
}
