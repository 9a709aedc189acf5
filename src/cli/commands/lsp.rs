use crate::cli::{Reply, Session};
use crate::forge::editor::context::Sources;
use crate::model::error::Result;
use clap::Args;
use std::path::PathBuf;

/// Serve plan documents to an editor over the Language Server Protocol (stdio).
///
/// An editor's LSP client launches it and talks on stdin/stdout: every
/// finding of validate on the open JSON and YAML plan documents as
/// diagnostics (refreshed when typing pauses), go to definition and find
/// references of node ids, hover on node ids and tool names, the outline as
/// document symbols, completion of node ids, reference paths, handles,
/// tools and phases, and the fixes that are edits as code actions.
///
/// Registry checks use --registry FILE, else the registry of the store that
/// --store or PLANFORGE_STORE names, else of the store found from each
/// document's folder upwards, as validate finds it. docs/lsp.md shows the
/// set-up for VS Code, Neovim and Helix.
#[derive(Args, Debug, Clone)]
pub(crate) struct LspArgs {
    /// The registry to check against [default: the store's]
    #[arg(long, value_name = "FILE")]
    pub(crate) registry: Option<PathBuf>,
    /// Validate a changed document once it has been still this many
    /// milliseconds
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub(crate) debounce_ms: u64,
}

pub(crate) fn run(s: &mut Session, a: LspArgs) -> Result<Reply> {
    let status = crate::lsp::server::serve(crate::lsp::server::Config {
        sources: Sources {
            registry: a.registry,
            store: s.named_store(),
            ..Sources::default()
        },
        debounce: std::time::Duration::from_millis(a.debounce_ms),
    })?;
    Ok(Reply::raw("").exit(status))
}
