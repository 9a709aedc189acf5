use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Explain an issue code.
///
/// Explain an issue code: what it finds, why it matters, how to fix it.
#[derive(Args, Debug, Clone)]
pub struct ExplainArgs {
    /// The issue code
    pub code: Option<String>,
    /// Explain every code
    #[arg(long)]
    pub all: bool,
}

pub fn run(_s: &mut Session, _a: ExplainArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge explain` is not available in this build yet",
    ))
}
