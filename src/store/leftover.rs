//! A plan folder without its op log: what it holds decides what it is.
//!
//! A plan folder holds the op log (committed) and files planforge keeps
//! beside it that the store's `.gitignore` ignores: the lock, the
//! `checkpoint*` caches, `.tmp-…` files. Checking out a branch on which the
//! plan does not exist removes the log and leaves those behind, so a
//! folder holding only them is a **leftover**: no plan, nothing of value
//! (everything in it is derived from a log that is gone). `create` of that
//! id clears it, `remove` clears it, `list` names it and `validate --all`
//! passes over it, as git's own commands see nothing there.
//!
//! A folder holding anything else without a log (a log deleted by hand
//! beside someone's notes, a half-committed folder) is not planforge's to
//! clear: every command names it and the file found, `validate --all`
//! reports it as an input that cannot be read, and `create` and `remove`
//! refuse it.

use super::Store;
use super::paths::{LOCK_FILE, OPS_FILE, is_plan_dir, refuse_symlink};
use crate::model::error::{Error, ErrorKind, Result};
use std::fs;
use std::path::Path;

/// What a plan folder without an op log holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Logless {
    /// Only files planforge keeps beside a log (ignored by git).
    Leftover,
    /// Also this file (or folder), which planforge does not write.
    Holds(String),
}

/// Whether `name` is a file planforge keeps in a plan folder beside its log
/// (the store's `.gitignore` ignores each: `*/lock`, `*/checkpoint*`,
/// `.tmp-*`, `.lock`, `current`).
fn is_ours(name: &str) -> bool {
    name == LOCK_FILE
        || name == ".lock"
        || name == "current"
        || name.starts_with("checkpoint")
        || name.starts_with(".tmp-")
}

/// What the folder `dir` holds, when it is a folder (not a link) without an
/// op log; `None` otherwise. A folder that cannot be listed holds "?".
pub(super) fn of_dir(dir: &Path) -> Option<Logless> {
    if !fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) || is_plan_dir(dir) {
        return None;
    }
    let Ok(rd) = fs::read_dir(dir) else {
        return Some(Logless::Holds("?".into()));
    };
    for entry in rd {
        let Ok(entry) = entry else {
            return Some(Logless::Holds("?".into()));
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if !is_ours(&name) || entry.file_type().map_or(true, |t| !t.is_file()) {
            return Some(Logless::Holds(name));
        }
    }
    Some(Logless::Leftover)
}

impl Logless {
    /// The help for plan `id`'s folder without its log.
    pub(crate) fn help(&self, id: &str) -> String {
        match self {
            Logless::Leftover => format!(
                "restore {id}/{OPS_FILE} from version control (check out a branch that has the plan); creating plan `{id}` anew, or removing it, clears the folder"
            ),
            Logless::Holds(_) => format!(
                "restore {id}/{OPS_FILE} from version control, or move what the folder holds elsewhere and delete the folder {id}/ to use the id again"
            ),
        }
    }

    /// The message for plan `id`'s folder without its log, as in "there is no
    /// plan `id` in S: {this}".
    pub(crate) fn why(&self, id: &str) -> String {
        match self {
            Logless::Leftover => format!(
                "its folder {id}/ holds no op log ({id}/{OPS_FILE}), only files planforge keeps beside one (a checkout of a branch without the plan leaves them)"
            ),
            Logless::Holds(f) => format!(
                "its folder {id}/ is there, but holds no op log ({id}/{OPS_FILE}); it holds `{f}`, which planforge does not write"
            ),
        }
    }
}

impl Store {
    /// What plan `id`'s folder holds, when it is there without an op log.
    pub(crate) fn logless(&self, id: &str) -> Option<Logless> {
        of_dir(&self.plan_dir(id).ok()?)
    }

    /// Every folder named as a plan that holds no op log, sorted by id.
    pub(crate) fn logless_folders(&self) -> Result<Vec<(String, Logless)>> {
        Ok(self
            .folders()?
            .into_iter()
            .filter_map(|(id, has_log)| {
                if has_log {
                    return None;
                }
                let what = of_dir(&self.root.join(&id))?;
                Some((id, what))
            })
            .collect())
    }

    /// Deletes plan `id`'s leftover folder (under the store's lock, held by
    /// the caller): renamed aside first, as a removed plan is. Refuses a
    /// folder that holds anything planforge does not write, or that gained
    /// a log meanwhile.
    pub(super) fn clear_leftover(&self, id: &str) -> Result<()> {
        let dir = self.plan_dir(id)?;
        refuse_symlink(&dir)?;
        match of_dir(&dir) {
            Some(Logless::Leftover) => {}
            Some(what @ Logless::Holds(_)) => {
                return Err(Error::new(
                    ErrorKind::Refused,
                    format!("plan `{id}`: {}", what.why(id)),
                )
                .on_plan(id)
                .with_help(what.help(id)));
            }
            None if self.exists(id) => {
                return Err(Error::new(
                    ErrorKind::DuplicateId,
                    format!("a plan `{id}` already exists in {}", self.root.display()),
                ));
            }
            None => return Ok(()),
        }
        let aside = self
            .root
            .join(format!(".tmp-removed-{}", crate::model::mint::tx_id()));
        fs::rename(&dir, &aside).map_err(|e| Error::io("clear", &dir, &e))?;
        super::atomic::sync_dir(&self.root);
        fs::remove_dir_all(&aside).map_err(|e| Error::io("clear", &aside, &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(names: &[&str]) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        for n in names {
            fs::write(t.path().join(n), b"x").unwrap();
        }
        t
    }

    #[test]
    fn a_folder_of_caches_is_a_leftover_and_anything_else_is_named() {
        let caches = folder(&["lock", "checkpoint.snap", "checkpoint.kept", ".tmp-abc"]);
        assert_eq!(of_dir(caches.path()), Some(Logless::Leftover));
        assert_eq!(of_dir(folder(&[]).path()), Some(Logless::Leftover));
        let notes = folder(&["lock", "notes.md"]);
        assert_eq!(
            of_dir(notes.path()),
            Some(Logless::Holds("notes.md".into()))
        );
        // A log (or an old meta.json) makes it a plan folder.
        assert_eq!(of_dir(folder(&["lock", OPS_FILE]).path()), None);
        assert_eq!(of_dir(folder(&["meta.json"]).path()), None);
        // A folder named like a cache is not a cache.
        let sub = folder(&["lock"]);
        fs::create_dir(sub.path().join("checkpoint.d")).unwrap();
        assert_eq!(
            of_dir(sub.path()),
            Some(Logless::Holds("checkpoint.d".into()))
        );
        assert_eq!(of_dir(&sub.path().join("absent")), None);
    }
}
