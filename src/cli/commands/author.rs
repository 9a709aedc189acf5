use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Start a plan from an owner's request, kept verbatim.
///
/// Start an empty editable plan from an owner's request, kept verbatim and
/// unparsed (- reads it from stdin).
#[derive(Args, Debug, Clone)]
pub struct AuthorArgs {
    /// The request, or - for stdin
    #[arg(allow_hyphen_values = true)]
    pub request: String,
    /// The plan id [default: a fresh one]
    #[arg(long)]
    pub id: Option<String>,
}

pub fn run(_s: &mut Session, _a: AuthorArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge author` is not available in this build yet",
    ))
}
