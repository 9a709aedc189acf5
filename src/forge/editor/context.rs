//! Where a document's registry comes from, found the way `validate` finds
//! it: a registry file named by the server's `--registry`, else the
//! registry of the store that `--store` or `PLANFORGE_STORE` names, else of
//! the store found from the document's folder upwards (a `plans/` store or
//! a store folder, as commands find theirs from the working directory).
//! Its settings too: the nearest `planforge.toml` from the document's
//! folder up to its repository root, else the store's, as `validate` finds
//! it from the working folder.
//!
//! Both are read once per folder and kept: they are read again when a file
//! they came from changed (its modification time or its length), or when
//! another file now applies (the lookup, a few `stat`s, runs every time).

use crate::forge::validate::config;
use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::store::Store;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

/// What the server was told on its command line, and the contexts read.
#[derive(Debug, Clone, Default)]
pub(crate) struct Sources {
    /// `--registry FILE`.
    pub(crate) registry: Option<PathBuf>,
    /// `--store` or `PLANFORGE_STORE`.
    pub(crate) store: Option<PathBuf>,
    /// The context of each folder, with the files it was read from (shared
    /// by the clones: the validation worker's and the editor loop's).
    pub(crate) read: Arc<Mutex<HashMap<PathBuf, Kept>>>,
}

/// A folder's context, and the files it was read from as they were then.
pub(crate) type Kept = (Vec<Stamp>, Context);

/// Folders whose context is kept at most (an editor opens documents in a
/// few; past this the kept ones are dropped and read again when asked).
const MAX_FOLDERS: usize = 64;

/// A file a context was read from: its path, and its modification time and
/// length (`None`: it does not exist).
pub(crate) type Stamp = (PathBuf, Option<(Option<SystemTime>, u64)>);

fn stamp(p: &Path) -> Stamp {
    let meta = std::fs::metadata(p).ok();
    (p.to_path_buf(), meta.map(|m| (m.modified().ok(), m.len())))
}

/// The registry a document is checked against, and what is reported of
/// its findings (the settings file's selection; inline suppressions).
#[derive(Debug, Clone, Default)]
pub(crate) struct Context {
    pub(crate) registry: Option<Arc<Registry>>,
    pub(crate) policy: crate::forge::validate::policy::Policy,
}

impl Sources {
    /// The context of the document at `path` (`None`: a document that is
    /// no file, whose store is found from the working directory). A
    /// registry or settings file that cannot be read is an error, as in
    /// `validate`, with the file it is in.
    ///
    /// A file that cannot be read because it is being written (it changed
    /// while it was read, or it is empty: an editor or a tool truncated it
    /// and has not written it yet) is read once more after [`SETTLE`], so
    /// that a re-check its change triggered does not report a half-written
    /// file (until the next re-check).
    pub(crate) fn context(&self, path: Option<&Path>) -> std::result::Result<Context, Box<Broken>> {
        match self.context_once(path) {
            Err((broken, before)) if settling(&broken, &before) => {
                std::thread::sleep(SETTLE);
                self.context_once(path).map_err(|(b, _)| b)
            }
            r => r.map_err(|(b, _)| b),
        }
    }

    /// As [`Sources::context`], read once; on an error, with the stamps of
    /// the files as they were before they were read.
    fn context_once(
        &self,
        path: Option<&Path>,
    ) -> std::result::Result<Context, (Box<Broken>, Vec<Stamp>)> {
        let from = match path.and_then(Path::parent) {
            Some(dir) => dir.to_path_buf(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
        };
        let store = match &self.store {
            Some(s) => Some(s.clone()),
            None => crate::store::discover(&from),
        };
        // The files the context comes from, found (not read).
        let registry_file = match &self.registry {
            Some(p) => Some((p.clone(), false)),
            None => match store.as_ref().and_then(|s| Store::open(s).ok()) {
                Some(st) => st
                    .registry_path()
                    .map_err(|error| (Box::new(Broken { file: None, error }), Vec::new()))?
                    .map(|p| (p, true)),
                None => None,
            },
        };
        let in_store = store.as_deref().filter(|s| s.is_dir());
        let settings = config::applies(false, &from, in_store);
        let stamps: Vec<Stamp> = registry_file
            .iter()
            .map(|(p, _)| p)
            .chain(settings.iter())
            .map(|p| stamp(p))
            .collect();
        let kept = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((s, c)) = kept.get(&from)
            && *s == stamps
        {
            return Ok(c.clone());
        }
        drop(kept);
        let registry = match &registry_file {
            Some((p, store)) => Some(Arc::new(Registry::load(p, *store).map_err(|error| {
                let file = Some(p.clone());
                (Box::new(Broken { file, error }), stamps.clone())
            })?)),
            None => None,
        };
        let ctx = Context {
            registry,
            policy: policy(&from, in_store).map_err(|error| {
                let file = settings.clone();
                (Box::new(Broken { file, error }), stamps.clone())
            })?,
        };
        let mut kept = self.read.lock().unwrap_or_else(PoisonError::into_inner);
        if kept.len() >= MAX_FOLDERS {
            kept.clear();
        }
        kept.insert(from, (stamps, ctx.clone()));
        Ok(ctx)
    }
}

/// How long a file that is being written is given before it is read again.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(100);

/// Whether the file `broken` names looks half-written: it changed since
/// `before` (its stamp when it was about to be read), or it is empty.
fn settling(broken: &Broken, before: &[Stamp]) -> bool {
    let Some(file) = &broken.file else {
        return false;
    };
    let now = stamp(file);
    let empty = matches!(now.1, Some((_, 0)));
    let changed = before.iter().any(|b| b.0 == now.0 && b.1 != now.1);
    empty || changed
}

/// A registry or settings file that cannot be read: the error, and the
/// file it is in when it is one (a store that cannot be opened is none).
#[derive(Debug)]
pub(crate) struct Broken {
    pub(crate) file: Option<PathBuf>,
    pub(crate) error: crate::model::error::Error,
}

/// The largest file [`Broken::place`] reads again to place its error.
const MAX_PLACED: u64 = 16 * 1024 * 1024;

impl Broken {
    /// Where in its file the error is: the file's text and the span of
    /// what is wrong (the place the reader names; else the value the
    /// message quotes; else the file's start). `None`: no file, or it
    /// cannot be read now.
    pub(crate) fn place(&self) -> Option<(String, crate::wire::span::Span)> {
        use crate::wire::span::{Span, locate, offset};
        let file = self.file.as_ref()?;
        if std::fs::metadata(file).ok()?.len() > MAX_PLACED {
            return None;
        }
        let text = std::fs::read_to_string(file).ok()?;
        let at_char = |at: usize| Span {
            start: at,
            end: at + text[at..].chars().next().map_or(0, char::len_utf8),
        };
        let first_line = |s: Span| Span {
            start: s.start,
            end: text[s.start..s.end]
                .find('\n')
                .map_or(s.end, |n| s.start + n),
        };
        let line_col = self
            .error
            .location
            .as_ref()
            .and_then(|l| Some((l.line?, l.column.unwrap_or(1))));
        let by_reader = line_col.and_then(|(l, c)| offset(&text, l, c)).map(at_char);
        let syntax = crate::wire::Syntax::from_path(&file.to_string_lossy());
        let by_registry = || {
            let syntax = syntax.unwrap_or_else(|| crate::wire::Syntax::sniff(&text));
            match crate::wire::parse::parse(&text, syntax) {
                Err(e) => match (e.line, &e.pointer) {
                    (Some(l), _) => offset(&text, l, e.column.unwrap_or(1)).map(at_char),
                    (None, Some(p)) => locate(&text, syntax, p).map(|l| first_line(l.span)),
                    (None, None) => None,
                },
                Ok(_) => {
                    let (_, p) = Registry::parse(&text, syntax, "").err()?;
                    locate(&text, syntax, &p).map(|l| first_line(l.span))
                }
            }
        };
        // A settings file's value it names (`unknown_tol` selects no code).
        let quoted = || {
            let msg = &self.error.message;
            let name = msg.split('`').nth(1)?;
            [format!("\"{name}\""), format!("'{name}'")]
                .iter()
                .find_map(|q| {
                    text.find(q.as_str()).map(|at| Span {
                        start: at,
                        end: at + q.len(),
                    })
                })
                .or_else(|| {
                    msg.contains("fail-on")
                        .then(|| text.find("fail-on"))
                        .flatten()
                        .map(|at| Span {
                            start: at,
                            end: at + "fail-on".len(),
                        })
                })
        };
        let toml = file.extension().is_some_and(|e| e == "toml");
        let span = by_reader
            .or_else(|| if toml { quoted() } else { by_registry() })
            .unwrap_or(Span { start: 0, end: 0 });
        Some((text, span))
    }
}

/// The selection of the settings file that applies to documents in
/// `from` (none: every code).
fn policy(from: &Path, store: Option<&Path>) -> Result<crate::forge::validate::policy::Policy> {
    use crate::forge::validate::select;
    let Some(c) = config::find(None, false, from, store)? else {
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
    fn a_file_being_written_is_read_again_and_a_broken_one_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let reg = dir.path().join("registry.yaml");
        let broken = |file: &Path| Broken {
            file: Some(file.to_path_buf()),
            error: crate::model::error::Error::invalid("unreadable"),
        };
        // Empty: truncated by a writer that has not written it yet.
        std::fs::write(&reg, "").unwrap();
        assert!(settling(&broken(&reg), &[stamp(&reg)]));
        // Broken as it is, and unchanged since it was read: reported.
        std::fs::write(&reg, "tools: [\n").unwrap();
        let before = [stamp(&reg)];
        assert!(!settling(&broken(&reg), &before));
        // Changed while it was read (its length): read again.
        std::fs::write(&reg, "tools: [\n  ").unwrap();
        assert!(settling(&broken(&reg), &before));
        // No file (a store that cannot be opened): nothing to wait for.
        let none = Broken {
            file: None,
            error: crate::model::error::Error::invalid("no store"),
        };
        assert!(!settling(&none, &[]));
        // Read through `context`: an empty registry named by --registry is
        // still reported once it stays empty.
        std::fs::write(&reg, "").unwrap();
        let named = Sources {
            registry: Some(reg.clone()),
            ..Sources::default()
        };
        let e = named
            .context(Some(&dir.path().join("plan.json")))
            .unwrap_err();
        assert_eq!(e.file.as_deref(), Some(reg.as_path()));
    }

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

    #[test]
    fn a_registry_is_read_again_only_when_it_changed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let file = dir.path().join("registry.yaml");
        std::fs::write(&file, "tools:\n  get: {returns: text}\n").unwrap();
        let sources = Sources {
            registry: Some(file.clone()),
            ..Sources::default()
        };
        let doc = dir.path().join("plan.json");
        let first = sources.context(Some(&doc)).unwrap().registry.unwrap();
        // Unchanged: the registry read before, not a new reading.
        let again = sources.context(Some(&doc)).unwrap().registry.unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        // A clone of the sources (the worker's) shares what was read.
        let cloned = sources.clone().context(Some(&doc)).unwrap().registry;
        assert!(Arc::ptr_eq(&first, &cloned.unwrap()));
        std::fs::write(
            &file,
            "tools:\n  get: {returns: text}\n  put: {returns: text}\n",
        )
        .unwrap();
        let changed = sources.context(Some(&doc)).unwrap().registry.unwrap();
        assert!(!Arc::ptr_eq(&first, &changed));
        assert!(changed.tools.contains_key("put") && !first.tools.contains_key("put"));
        // A settings file that appears applies at once.
        std::fs::write(
            dir.path().join("planforge.toml"),
            "[validate]\nignore = [\"unknown_tool\"]\n",
        )
        .unwrap();
        let ctx = sources.context(Some(&doc)).unwrap();
        assert!(!ctx.policy.selection.reports("unknown_tool"));
    }
}

#[cfg(test)]
mod placed {
    use super::*;

    /// The text of `file`'s error span, when the context of a document
    /// beside it fails.
    fn placed(dir: &Path, sources: &Sources) -> (PathBuf, String) {
        let broken = sources.context(Some(&dir.join("plan.json"))).unwrap_err();
        let (text, span) = broken.place().expect("a place");
        (broken.file.unwrap(), text[span.start..span.end].to_string())
    }

    #[test]
    fn a_broken_settings_file_or_registry_is_placed_in_that_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let toml = dir.path().join("planforge.toml");
        std::fs::write(&toml, "[validate]\nignore = [\"unknown_tol\"]\n").unwrap();
        let none = Sources::default();
        assert_eq!(
            placed(dir.path(), &none),
            (toml.clone(), "\"unknown_tol\"".into())
        );
        std::fs::write(&toml, "[validate\n").unwrap();
        assert_eq!(placed(dir.path(), &none).1, "\n");
        std::fs::remove_file(&toml).unwrap();
        let reg = dir.path().join("registry.yaml");
        let named = Sources {
            registry: Some(reg.clone()),
            ..Sources::default()
        };
        std::fs::write(&reg, "tools:\n  get: 5\n").unwrap();
        assert_eq!(placed(dir.path(), &named), (reg.clone(), "5".into()));
        std::fs::write(&reg, "tools:\n  get: {returns: text}\n  put: [\n").unwrap();
        let (_, at) = placed(dir.path(), &named);
        assert!(at.len() <= 1, "one character at the reader's place: {at:?}");
    }
}
