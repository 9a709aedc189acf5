use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Interactive shell: every line is a planforge command.
///
/// An interactive shell: every line is a planforge command without the
/// program name. With stdin not a terminal, runs the lines as a script.
///
/// Besides the commands: `use ID` (this REPL only; the store's current plan
/// stays), `help [CMD]`, `exit [CODE]` or `quit`, Ctrl-D to leave and Ctrl-C
/// to cancel the line being typed. History is kept in
/// $XDG_STATE_HOME/planforge/history. A script skips blank lines and `#`
/// comments and stops at the first failing line, exiting with its code.
#[derive(Args, Debug, Clone)]
pub(crate) struct ReplArgs {
    /// In a script, run every line even after one fails; exit with the
    /// first failure's code
    #[arg(long)]
    pub(crate) keep_going: bool,
}

pub(crate) fn run(s: &mut Session, a: ReplArgs) -> Result<Reply> {
    let code = crate::cli::repl::run(s, a.keep_going);
    Ok(Reply::raw(String::new()).exit(code))
}
