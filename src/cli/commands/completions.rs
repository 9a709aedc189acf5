use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Print a shell completion script (bash, zsh, fish, elvish, powershell).
#[derive(Args, Debug, Clone)]
pub struct CompletionsArgs {
    /// The shell
    pub shell: String,
}

pub fn run(_s: &mut Session, _a: CompletionsArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge completions` is not available in this build yet",
    ))
}
