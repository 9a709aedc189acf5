use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Serve the model-facing tools over MCP on stdin/stdout.
#[derive(Args, Debug, Clone)]
pub struct McpArgs {
    /// Which tools: front, authoring or all
    #[arg(long, default_value = "authoring")]
    pub tier: String,
    /// Refuse every mutating tool
    #[arg(long)]
    pub read_only: bool,
}

pub fn run(_s: &mut Session, _a: McpArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge mcp` is not available in this build yet",
    ))
}
