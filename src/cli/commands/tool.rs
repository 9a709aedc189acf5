use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Run one model-facing tool call (arguments as JSON, or - for stdin).
#[derive(Args, Debug, Clone)]
pub struct ToolArgs {
    /// The tool name
    pub name: String,
    /// The arguments as a JSON object, or - for stdin
    #[arg(allow_hyphen_values = true)]
    pub args: Option<String>,
}

pub fn run(_s: &mut Session, _a: ToolArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge tool` is not available in this build yet",
    ))
}
