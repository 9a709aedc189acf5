//! Where a document's registry comes from, found the way `validate` finds
//! it: a registry file named by the server's `--registry`, else the
//! registry of the store that `--store` or `PLANFORGE_STORE` names, else of
//! the store found from the document's folder upwards (a `plans/` store or
//! a store folder, as commands find theirs from the working directory).
//! Its settings too: the nearest `planforge.toml` from the document's
//! folder up to its repository root, else the store's, as `validate` finds
//! it from the working folder.

use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::store::Store;
use std::path::{Path, PathBuf};

/// What the server was told on its command line.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sources {
    /// `--registry FILE`.
    pub(crate) registry: Option<PathBuf>,
    /// `--store` or `PLANFORGE_STORE`.
    pub(crate) store: Option<PathBuf>,
}

/// The registry a document is checked against, and what is reported of
/// its findings (the settings file's selection; inline suppressions).
#[derive(Debug, Clone, Default)]
pub(crate) struct Context {
    pub(crate) registry: Option<Registry>,
    pub(crate) policy: crate::forge::validate::policy::Policy,
}

impl Sources {
    /// The context of the document at `path` (`None`: a document that is
    /// no file, whose store is found from the working directory). A
    /// registry that cannot be read is an error, as in `validate`.
    pub(crate) fn context(&self, path: Option<&Path>) -> Result<Context> {
        let from = match path.and_then(Path::parent) {
            Some(dir) => dir.to_path_buf(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        };
        let store = match &self.store {
            Some(s) => Some(s.clone()),
            None => crate::store::discover(&from),
        };
        let registry = match &self.registry {
            Some(p) => Some(Registry::load(p, false)?),
            None => match store.as_ref().and_then(|s| Store::open(s).ok()) {
                Some(st) => match st.registry_path()? {
                    Some(p) => Some(Registry::load(&p, true)?),
                    None => None,
                },
                None => None,
            },
        };
        Ok(Context {
            registry,
            policy: policy(&from, store.as_deref())?,
        })
    }
}

/// The selection of the settings file that applies to documents in
/// `from` (none: every code).
fn policy(from: &Path, store: Option<&Path>) -> Result<crate::forge::validate::policy::Policy> {
    use crate::forge::validate::{config, select};
    let Some(c) = config::find(None, false, from, store.filter(|s| s.is_dir()))? else {
        return Ok(Default::default());
    };
    let origin = c.path.display().to_string();
    let selection = select::Selection::from_given(&[select::Given {
        origin: &origin,
        select: c.select.as_deref(),
        ignore: &c.ignore,
    }])?;
    Ok(crate::forge::validate::policy::Policy {
        selection,
        ..Default::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_documents_settings_file_selects_its_codes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        std::fs::create_dir(dir.path().join("docs")).unwrap();
        let doc = dir.path().join("docs/plan.json");
        let ctx = Sources::default().context(Some(&doc)).unwrap();
        assert!(ctx.policy.selection.reports("unknown_tool"));
        std::fs::write(
            dir.path().join("planforge.toml"),
            "[validate]\nignore = [\"unknown_tool\"]\n",
        )
        .unwrap();
        let ctx = Sources::default().context(Some(&doc)).unwrap();
        assert!(!ctx.policy.selection.reports("unknown_tool"));
        // A broken settings file is the document's input error.
        std::fs::write(
            dir.path().join("planforge.toml"),
            "[validate]\nignor = []\n",
        )
        .unwrap();
        assert!(Sources::default().context(Some(&doc)).is_err());
    }
}
