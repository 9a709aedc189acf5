//! Where a validation's settings come from: `--config FILE`, else the
//! nearest `planforge.toml` from the working folder up to the root of its
//! repository (the folder holding `.git`), else one in the store's folder —
//! the nearest file wins, as ruff finds its `ruff.toml`. `--isolated`
//! reads none.

use super::policy::Baseline;
use crate::model::config::ValidateConfig;
use crate::model::error::{Error, Result};
use std::path::{Path, PathBuf};

/// The name of the settings file.
pub(crate) const FILE: &str = "planforge.toml";

/// The largest settings file or baseline read (bigger ones are refused).
const MAX_BYTES: u64 = crate::wire::parse::MAX_INPUT_BYTES;

/// The settings file that applies, read; `None` when there is none.
pub(crate) fn find(
    explicit: Option<&Path>,
    isolated: bool,
    cwd: &Path,
    store: Option<&Path>,
) -> Result<Option<ValidateConfig>> {
    if let Some(p) = explicit {
        return read(p).map(Some);
    }
    match applies(isolated, cwd, store) {
        Some(p) => read(&p).map(Some),
        None => Ok(None),
    }
}

/// The settings file [`find`] reads when no file is named, without
/// reading it (`planforge lsp` rereads it only when it changed).
pub(crate) fn applies(isolated: bool, cwd: &Path, store: Option<&Path>) -> Option<PathBuf> {
    if isolated {
        return None;
    }
    let in_store = || {
        store
            .map(|s| s.join(FILE))
            .filter(|p| std::fs::symlink_metadata(p).is_ok())
    };
    nearest(cwd).or_else(in_store)
}

/// The nearest `planforge.toml` from `cwd` upwards, stopping at the folder
/// that holds `.git`.
fn nearest(cwd: &Path) -> Option<PathBuf> {
    for dir in cwd.ancestors() {
        let p = dir.join(FILE);
        // Anything by that name counts (a folder or a broken link is then
        // refused when read, not passed over in silence).
        if std::fs::symlink_metadata(&p).is_ok() {
            return Some(p);
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    None
}

fn read_text(p: &Path, what: &str) -> Result<String> {
    let meta =
        std::fs::metadata(p).map_err(|e| Error::invalid(format!("{what} {}: {e}", p.display())))?;
    if !meta.is_file() {
        return Err(Error::invalid(format!(
            "{what} {}: not a file",
            p.display()
        )));
    }
    if meta.len() > MAX_BYTES {
        return Err(Error::invalid(format!(
            "{what} {}: {} bytes is more than the {MAX_BYTES} read",
            p.display(),
            meta.len()
        )));
    }
    let bytes = std::fs::read(p).map_err(|e| Error::io(&format!("read {what}"), p, &e))?;
    String::from_utf8(bytes)
        .map_err(|_| Error::invalid(format!("{what} {}: not UTF-8 text", p.display())))
}

fn read(p: &Path) -> Result<ValidateConfig> {
    let text = read_text(p, "the settings file")?;
    crate::wire::config::parse(&text, p)
}

/// Reads `--baseline FILE`.
pub(crate) fn baseline(p: &Path) -> Result<Baseline> {
    let file = p.display().to_string();
    let text = read_text(p, "--baseline")?;
    Ok(Baseline {
        fingerprints: crate::wire::baseline::fingerprints(&text, &file)?,
        file,
    })
}
