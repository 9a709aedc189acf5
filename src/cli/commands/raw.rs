use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Print the plan's content as JSON in wire form (what the digest covers).
#[derive(Args, Debug, Clone)]
pub struct RawArgs {
    /// At this revision
    #[arg(long, value_name = "N")]
    pub rev: Option<u64>,
}

pub fn run(_s: &mut Session, _a: RawArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge raw` is not available in this build yet",
    ))
}
