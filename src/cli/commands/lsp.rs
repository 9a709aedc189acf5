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
    /// milliseconds (0 to 10000)
    #[arg(long, value_name = "MS", default_value_t = 200, allow_negative_numbers = true, value_parser = debounce)]
    pub(crate) debounce_ms: u64,
}

/// The longest debounce: past ten seconds an editor shows stale findings
/// long after typing stopped.
const MAX_DEBOUNCE_MS: u64 = 10_000;

/// `--debounce-ms`: a whole number of milliseconds in range. A negative
/// one is read as a value (not as an unknown flag `-1`) and refused with
/// the range.
fn debounce(s: &str) -> std::result::Result<u64, String> {
    let range =
        format!("the debounce is a whole number of milliseconds from 0 to {MAX_DEBOUNCE_MS}");
    match s.trim().parse::<i128>() {
        Ok(n) if (0..=i128::from(MAX_DEBOUNCE_MS)).contains(&n) => Ok(n as u64),
        Ok(_) => Err(format!("{range}; `{s}` is out of range")),
        Err(_) => Err(format!("{range}; `{s}` is not one")),
    }
}

pub(crate) fn run(s: &mut Session, a: LspArgs) -> Result<Reply> {
    // A --registry that cannot be read is refused before serving, as
    // `validate --registry` refuses it before reading any input: it is
    // the command line that is wrong (`invalid_input`, exit 2), not a
    // document. One that reads but is malformed is served: its error is
    // shown in it, where it is fixed while the server runs.
    if let Some(p) = &a.registry {
        crate::registry::read_bounded(p).map_err(|why| {
            crate::model::error::Error::invalid(format!(
                "could not read the registry {}: {why}",
                p.display()
            ))
        })?;
    }
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
