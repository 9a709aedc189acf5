use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;
use clap_complete::Shell;

/// Print a shell completion script.
///
/// Print a shell completion script (bash, zsh, fish, elvish, powershell).
/// The script asks planforge itself on every Tab, so it completes commands,
/// flags and the store's plan ids, node ids, phases, edge ids, tools and
/// templates as they are now (`COMPLETE=bash planforge` prints the same).
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

/// The completion script of `shell`: it registers `planforge` itself as
/// the completer, so every Tab asks the binary (see `cli::dynamic`).
pub(crate) fn script(shell: Shell) -> String {
    crate::cli::dynamic::registration(match shell {
        Shell::Bash => "bash",
        Shell::Zsh => "zsh",
        Shell::Fish => "fish",
        Shell::Elvish => "elvish",
        _ => "powershell",
    })
}

pub(crate) fn run(s: &mut Session, a: CompletionsArgs) -> Result<Reply> {
    s.require_format("completions", &[crate::cli::Format::Text])?;
    Ok(Reply::raw(script(a.shell)))
}
