use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Check plans or plan documents (for CI).
///
/// Check plans or plan documents, for CI. An ARG that is -, an existing file,
/// or ends in .json/.yaml/.yml is a document (checked offline); otherwise a
/// plan id. No ARG: the current plan. Exit 1 when a blocking issue is found.
#[derive(Args, Debug, Clone)]
pub struct ValidateArgs {
    /// Plan documents or plan ids
    pub args: Vec<String>,
    /// Every plan in the store
    #[arg(long)]
    pub all: bool,
    /// The registry to check documents against
    #[arg(long, value_name = "FILE")]
    pub registry: Option<std::path::PathBuf>,
}

pub fn run(_s: &mut Session, _a: ValidateArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge validate` is not available in this build yet",
    ))
}
