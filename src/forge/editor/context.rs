//! Where a document's registry comes from, found the way `validate` finds
//! it: a registry file named by the server's `--registry`, else the
//! registry of the store that `--store` or `PLANFORGE_STORE` names, else of
//! the store found from the document's folder upwards (a `plans/` store or
//! a store folder, as commands find theirs from the working directory).

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

/// The registry a document is checked against.
#[derive(Debug, Clone, Default)]
pub(crate) struct Context {
    pub(crate) registry: Option<Registry>,
}

impl Sources {
    /// The context of the document at `path` (`None`: a document that is
    /// no file, whose store is found from the working directory). A
    /// registry that cannot be read is an error, as in `validate`.
    pub(crate) fn context(&self, path: Option<&Path>) -> Result<Context> {
        let store = match &self.store {
            Some(s) => Some(s.clone()),
            None => {
                let from = match path.and_then(Path::parent) {
                    Some(dir) => dir.to_path_buf(),
                    None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
                };
                crate::store::discover(&from)
            }
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
        Ok(Context { registry })
    }
}
