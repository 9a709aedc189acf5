use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Compare two revisions of the plan (a revision number, `current` or
/// `frozen`), or two plan documents with --files.
#[derive(Args, Debug, Clone)]
pub struct DiffArgs {
    /// From [default: frozen if the plan was ever frozen, else 0]
    pub a: Option<String>,
    /// To [default: current]
    pub b: Option<String>,
    /// Compare two plan documents instead
    #[arg(long, num_args = 2, value_names = ["X", "Y"])]
    pub files: Option<Vec<String>>,
    /// Exit 1 when there are differences
    #[arg(long)]
    pub exit_code: bool,
}

pub fn run(_s: &mut Session, _a: DiffArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge diff` is not available in this build yet",
    ))
}
