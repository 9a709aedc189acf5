use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;
use clap_complete::Shell;

/// Print a shell completion script.
///
/// Print a shell completion script (bash, zsh, fish, elvish, powershell).
///
/// The scripts are also committed under completions/. Install, for example:
///   bash:  planforge completions bash > ~/.local/share/bash-completion/completions/planforge
///   zsh:   planforge completions zsh > "${fpath[1]}/_planforge"
///   fish:  planforge completions fish > ~/.config/fish/completions/planforge.fish
#[derive(Args, Debug, Clone)]
pub(crate) struct CompletionsArgs {
    /// The shell
    #[arg(value_enum)]
    pub(crate) shell: Shell,
}

/// The completion script of `shell` for the whole command tree.
pub(crate) fn script(shell: Shell) -> String {
    let mut cmd = crate::cli::help::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "planforge", &mut out);
    String::from_utf8(out).expect("completion scripts are UTF-8")
}

pub(crate) fn run(s: &mut Session, a: CompletionsArgs) -> Result<Reply> {
    s.require_format("completions", &[crate::cli::Format::Text])?;
    Ok(Reply::raw(script(a.shell)))
}
