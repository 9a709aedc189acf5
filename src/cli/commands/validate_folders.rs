//! Where `validate FILE` finds a plan document's settings and registry:
//! from the document's own folder upwards — the nearest `planforge.toml`
//! up to its repository root (else its store's), and the registry of the
//! store found from that folder — as `planforge lsp` finds them for the
//! document in the editor, and as ruff finds each file's configuration
//! from the file's folder rather than the working folder. So
//! `validate docs/a/plan.yaml` says what the editor says on that file,
//! wherever it is run from. `--config`, `--isolated`, `--registry`,
//! `--store` and `PLANFORGE_STORE` name one for every input; standard
//! input, stored plans and what applies to the run as a whole (`fail-on`)
//! use the working folder's.

use crate::cli::Session;
use crate::forge::validate::policy::Policy;
use crate::forge::validate::{Options, config};
use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::store::Store;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What the command line names for every input.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Named {
    /// `--config`.
    pub(crate) config: bool,
    /// `--isolated`.
    pub(crate) isolated: bool,
    /// `--registry`.
    pub(crate) registry: bool,
}

/// The run's policy with the settings file found from a folder upwards
/// (else in a store): `validate`'s `policy_at`.
pub(crate) type PolicyAt<'r> = &'r dyn Fn(&Path, Option<&Path>) -> Result<Policy>;

/// The settings and registries of the documents' folders, each read once.
pub(crate) struct Folders<'r> {
    named: Named,
    policy_at: PolicyAt<'r>,
    cwd: PathBuf,
    /// The working folder's store (where it would be), its registry and
    /// the run's options (its settings file's).
    store: PathBuf,
    registry: Option<&'r Registry>,
    opts: &'r Options,
    config: Option<PathBuf>,
    /// `--registry`, `--store` or `PLANFORGE_STORE`: one registry for all.
    named_registry: bool,
    /// Other stores' registries, by store.
    registries: HashMap<PathBuf, Option<Registry>>,
    /// Other settings files' options, by settings file.
    options: HashMap<Option<PathBuf>, Options>,
}

impl<'r> Folders<'r> {
    pub(crate) fn new(
        s: &Session,
        named: Named,
        policy_at: PolicyAt<'r>,
        registry: Option<&'r Registry>,
        opts: &'r Options,
    ) -> Folders<'r> {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let store = s.store_path();
        let at = store.is_dir().then_some(store.as_path());
        let config = config::applies(named.isolated, &cwd, at);
        Folders {
            named,
            policy_at,
            named_registry: named.registry || s.named_store().is_some(),
            store,
            registry,
            opts,
            config,
            cwd,
            registries: HashMap::new(),
            options: HashMap::new(),
        }
    }

    /// The registry and options of the document at `file`. A settings
    /// file or registry of its folder that cannot be read is its error.
    pub(crate) fn of(&mut self, file: &Path) -> Result<(Option<&Registry>, &Options)> {
        let dir = self.cwd.join(file.parent().unwrap_or(Path::new("")));
        let store = match self.named_registry {
            true => None,
            false => crate::store::discover(&dir),
        };
        let own_store = store.as_ref().filter(|s| **s != self.store);
        if let Some(st) = own_store
            && !self.registries.contains_key(st)
        {
            let registry = match Store::open(st)?.registry_path()? {
                Some(p) => Some(Registry::load(&p, true)?),
                None => None,
            };
            self.registries.insert(st.clone(), registry);
        }
        let in_store = store
            .as_deref()
            .or(Some(self.store.as_path()))
            .filter(|s| s.is_dir());
        let settings = match self.named.config || self.named.isolated {
            true => self.config.clone(),
            false => config::applies(false, &dir, in_store),
        };
        let own_settings = (settings != self.config).then_some(settings);
        if let Some(c) = &own_settings
            && !self.options.contains_key(c)
        {
            let policy = (self.policy_at)(&dir, in_store)?;
            let opts = Options {
                policy: Arc::new(policy),
                ..self.opts.clone()
            };
            self.options.insert(c.clone(), opts);
        }
        let registry = match (self.named_registry, own_store, &store) {
            (true, _, _) => self.registry,
            (false, Some(st), _) => self.registries[st].as_ref(),
            // The working folder's store, or none above the document.
            (false, None, Some(_)) => self.registry,
            (false, None, None) => None,
        };
        let opts = match &own_settings {
            Some(c) => &self.options[c],
            None => self.opts,
        };
        Ok((registry, opts))
    }
}
