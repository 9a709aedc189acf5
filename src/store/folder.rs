//! The store folder itself: opening it, creating it (`.gitignore`,
//! `.gitattributes`, the registry, `templates/`), its current plan, its
//! registry file and its templates folder.

use super::Store;
use super::atomic::write_atomic;
use super::paths::{CURRENT_FILE, refuse_special, refuse_symlink};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use std::fs;
use std::path::{Path, PathBuf};

const GITIGNORE: &str =
    "# written by planforge init\ncurrent\n*/lock\n*/checkpoint*\n.lock\n.tmp-*\n";
const GITATTRIBUTES: &str = "# written by planforge init: concurrent histories of a plan merge line by line;\n# the fold orders them\n*/ops.jsonl merge=union\n";

/// The file `init` writes that makes a folder a store.
pub(crate) const MARKER: &str = ".planforge";
const MARKER_TEXT: &str =
    "# A planforge store (written by planforge init): plans, the registry, templates.\nformat 2\n";

/// Whether `dir` is a store: `init` made it (its marker), or it holds a
/// registry (stores made before the marker).
pub(crate) fn is_store(dir: &Path) -> bool {
    [MARKER, "registry.yaml", "registry.json"]
        .iter()
        .any(|f| fs::symlink_metadata(dir.join(f)).is_ok())
}

/// The nearest store for a command run in `from`: `plans/` in `from` or in
/// the nearest folder above it that has one, or `from` itself (or a folder
/// above it) when it is a store — as git finds its repository.
pub(crate) fn discover(from: &Path) -> Option<PathBuf> {
    let mut dir = Some(from);
    while let Some(d) = dir {
        if is_store(&d.join("plans")) {
            return Some(d.join("plans"));
        }
        if is_store(d) {
            return Some(d.to_path_buf());
        }
        dir = d.parent();
    }
    None
}

impl Store {
    /// Opens a store folder: one that `init` made. Any other folder is
    /// refused (exit 3) before anything is read or written.
    pub(crate) fn open(root: impl Into<PathBuf>) -> Result<Store> {
        let root = root.into();
        match fs::metadata(&root) {
            Ok(md) if md.is_dir() && is_store(&root) => Ok(Store {
                root,
                one_shot: false,
                warm: None,
                decoder: None,
            }),
            Ok(md) if md.is_dir() => Err(Error::new(
                ErrorKind::NoStore,
                format!(
                    "{} is a folder, but not a plan store: `init` makes one (it writes {MARKER}, the registry and the git files)",
                    root.display()
                ),
            )
            .with_help("point --store or PLANFORGE_STORE at a store, or create one here with init")),
            Ok(_) => Err(Error::new(ErrorKind::NoStore, format!("the store {} is not a folder", root.display()))),
            Err(_) => Err(Error::new(
                ErrorKind::NoStore,
                format!("there is no plan store at {}", root.display()),
            )
            .with_help("create one with init, or point --store or PLANFORGE_STORE at an existing one")),
        }
    }

    /// Creates (or completes) a store folder: `.gitignore`, `.gitattributes`,
    /// `registry` as `registry.yaml` and `templates/`. Existing files are
    /// kept.
    pub(crate) fn init(root: impl Into<PathBuf>, registry: &str) -> Result<(Store, Vec<String>)> {
        let root = root.into();
        fs::create_dir_all(&root).map_err(|e| Error::io("create", &root, &e))?;
        refuse_symlink(&root.join(MARKER))?;
        let mut written = Vec::new();
        if !root.join(MARKER).exists() {
            write_atomic(&root.join(MARKER), MARKER_TEXT.as_bytes())?;
            written.push(MARKER.to_string());
        }
        let store = Store::open(root)?;
        let has_registry =
            store.root.join("registry.yaml").exists() || store.root.join("registry.json").exists();
        let mut files: Vec<(&str, &str)> =
            vec![(".gitignore", GITIGNORE), (".gitattributes", GITATTRIBUTES)];
        if !has_registry {
            files.push(("registry.yaml", registry));
        }
        for (name, text) in files {
            let p = store.root.join(name);
            if !p.exists() {
                write_atomic(&p, text.as_bytes())?;
                written.push(name.to_string());
            }
        }
        let t = store.root.join("templates");
        if !t.exists() {
            fs::create_dir_all(&t).map_err(|e| Error::io("create", &t, &e))?;
            written.push("templates/".into());
        }
        Ok((store, written))
    }

    /// Writes the store's marker when it has none (a store an earlier
    /// planforge made, known by its registry). Says whether it wrote it.
    pub(crate) fn mark(&self) -> Result<bool> {
        let path = self.root.join(MARKER);
        refuse_symlink(&path)?;
        if fs::symlink_metadata(&path).is_ok() {
            return Ok(false);
        }
        write_atomic(&path, MARKER_TEXT.as_bytes())?;
        Ok(true)
    }

    pub(crate) fn root(&self) -> &Path {
        &self.root
    }

    /// The store's current plan id, if set.
    pub(crate) fn current(&self) -> Result<Option<String>> {
        let p = self.root.join(CURRENT_FILE);
        refuse_special(&p)?;
        match fs::read_to_string(&p) {
            Ok(s) => {
                let s = s.trim();
                Ok((!s.is_empty()).then(|| s.to_string()))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io("read", &p, &e)),
        }
    }

    pub(crate) fn set_current(&self, id: &str) -> Result<()> {
        self.plan_dir(id)?;
        let p = self.root.join(CURRENT_FILE);
        refuse_symlink(&p)?;
        write_atomic(&p, format!("{id}\n").as_bytes())
    }

    /// Takes the store's lock (the one creating and removing a plan take)
    /// for a read-modify-write of a file of the whole store, such as
    /// `registry.yaml`: concurrent writers then wait for each other, and
    /// each reads what the one before wrote.
    pub(crate) fn lock_store(&self) -> Result<super::lock::LockGuard> {
        super::lock::acquire(&self.root.join(".lock"), "the store")
    }

    /// The registry file of the store, if any (both present is an error).
    pub(crate) fn registry_path(&self) -> Result<Option<PathBuf>> {
        let y = self.root.join("registry.yaml");
        let j = self.root.join("registry.json");
        refuse_special(&y)?;
        refuse_special(&j)?;
        match (y.is_file(), j.is_file()) {
            (true, true) => Err(Error::new(
                ErrorKind::CorruptStore,
                format!(
                    "the store {} holds both registry.yaml and registry.json; keep one",
                    self.root.display()
                ),
            )),
            (true, false) => Ok(Some(y)),
            (false, true) => Ok(Some(j)),
            (false, false) => Ok(None),
        }
    }

    /// The store's templates folder.
    pub(crate) fn templates_dir(&self) -> PathBuf {
        self.root.join("templates")
    }
}
