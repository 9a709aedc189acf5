use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// An interactive shell: every line is a planforge command without the
/// program name. With stdin not a terminal, runs the lines as a script.
#[derive(Args, Debug, Clone)]
pub struct ReplArgs {
    /// In a script, keep going after a failing line
    #[arg(long)]
    pub keep_going: bool,
}

pub fn run(_s: &mut Session, _a: ReplArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge repl` is not available in this build yet",
    ))
}
