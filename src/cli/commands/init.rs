use crate::cli::{Reply, Session};
use crate::model::error::Result;

use clap::Args;
use serde_json::json;
use std::path::PathBuf;

/// Create a plan store (default ./plans) with its registry and git files.
///
/// Create a plan store: the folder, `registry.yaml` (commented, with the
/// orchestration tools), `templates/`, `.gitignore` and `.gitattributes`.
/// Existing files are kept.
#[derive(Args, Debug, Clone)]
pub(crate) struct InitArgs {
    /// The store folder [default: --store, PLANFORGE_STORE or ./plans]
    pub(crate) dir: Option<PathBuf>,
}

pub(crate) fn run(s: &mut Session, a: InitArgs) -> Result<Reply> {
    // Like `git init`: here (`./plans`) unless a folder is named.
    let dir = a
        .dir
        .or_else(|| s.named_store())
        .unwrap_or_else(|| std::path::PathBuf::from("plans"));
    let (store, written) = crate::forge::plans::init_store(&dir)?;
    let root = store.root().display().to_string();
    let text = if written.is_empty() {
        format!("The store {root} is already set up; nothing was written.")
    } else {
        format!(
            "Initialised the plan store {root}: wrote {}.",
            written.join(", ")
        )
    };
    Ok(Reply::new(text, json!({"store": root, "written": written})))
}
