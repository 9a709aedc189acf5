//! Where things are in a store: the file names of a plan folder, a plan
//! id's folder (ids that could leave the store are refused), the plans
//! present, and the refusal of links and special files.

use super::Store;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids;
use crate::model::remedy::Remedy;
use std::fs;
use std::path::{Path, PathBuf};

pub(crate) const OPS_FILE: &str = "ops.jsonl";
pub(crate) const META_FILE: &str = "meta.json";
pub(crate) const LOCK_FILE: &str = "lock";
pub(crate) const CURRENT_FILE: &str = "current";

pub(super) fn refuse_symlink(path: &Path) -> Result<()> {
    if let Ok(md) = fs::symlink_metadata(path)
        && md.file_type().is_symlink()
    {
        return Err(Error::new(
            ErrorKind::CorruptStore,
            format!("{} is a symbolic link; planforge does not follow links inside a store, so nothing is read or written outside it", path.display()),
        )
        .with_help("replace the link with the real file or folder"));
    }
    Ok(())
}

/// As [`refuse_symlink`], and refuses anything but an ordinary file where a
/// store file is expected: reading a pipe would wait forever, a device would
/// never end.
pub(super) fn refuse_special(path: &Path) -> Result<()> {
    refuse_symlink(path)?;
    if let Ok(md) = fs::symlink_metadata(path)
        && !md.is_file()
    {
        return Err(Error::new(
            ErrorKind::CorruptStore,
            format!(
                "{} is not an ordinary file (a folder, pipe or device); planforge reads only ordinary files in a store",
                path.display()
            ),
        )
        .with_help("replace it with the real file"));
    }
    Ok(())
}

/// Whether a folder holds a plan: its op log (or, from an earlier
/// planforge, its `meta.json`), whatever kind of file is there (reading it
/// refuses anything but an ordinary file).
pub(super) fn is_plan_dir(d: &Path) -> bool {
    [OPS_FILE, META_FILE]
        .iter()
        .any(|f| fs::symlink_metadata(d.join(f)).is_ok())
}

impl Store {
    /// The folder of a plan. The id must match the plan id rule, so the path
    /// can never leave the store.
    pub(crate) fn plan_dir(&self, id: &str) -> Result<PathBuf> {
        if !ids::is_valid_plan_id(id) {
            return Err(Error::invalid(format!(
                "`{}` is not a plan id: plan ids look like `plan-<name>` where the name is 1–64 letters, digits, `_` or `-`",
                ids::quote_id(id)
            )));
        }
        Ok(self.root.join(id))
    }

    pub(crate) fn exists(&self, id: &str) -> bool {
        self.plan_dir(id).is_ok_and(|d| is_plan_dir(&d))
    }

    /// Every plan id in the store, sorted.
    pub(crate) fn plan_ids(&self) -> Result<Vec<String>> {
        Ok(self
            .folders()?
            .into_iter()
            .filter_map(|(id, has_log)| has_log.then_some(id))
            .collect())
    }

    /// Every folder of the store named as a plan, sorted, and whether it
    /// holds a plan (see [`is_plan_dir`]; one that does not is named by
    /// [`super::leftover`]).
    pub(super) fn folders(&self) -> Result<Vec<(String, bool)>> {
        let rd = fs::read_dir(&self.root).map_err(|e| Error::io("list", &self.root, &e))?;
        let mut ids = Vec::new();
        for entry in rd.flatten() {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if !ids::is_valid_plan_id(&name) {
                continue;
            }
            let Ok(ft) = entry.file_type() else { continue };
            if ft.is_dir() {
                let has_log = is_plan_dir(&entry.path());
                ids.push((name, has_log));
            }
        }
        ids.sort();
        Ok(ids)
    }

    pub(super) fn unknown_plan(&self, id: &str) -> Error {
        if let Some(what) = self.logless(id) {
            // The folder is there without its log: deleted, or not checked
            // out on this branch.
            return Error::new(
                ErrorKind::UnknownPlan,
                format!(
                    "there is no plan `{id}` in {}: {}",
                    self.root.display(),
                    what.why(id)
                ),
            )
            .on_plan(id)
            .with_help(what.help(id));
        }
        let known = self.plan_ids().unwrap_or_default();
        let hint = crate::model::suggest::did_you_mean(id, known.iter().map(String::as_str));
        Error::new(
            ErrorKind::UnknownPlan,
            format!(
                "there is no plan `{}` in {}{hint}",
                ids::quote_id(id),
                self.root.display()
            ),
        )
        .fix(Remedy::CreatePlan)
        .with_help(if known.is_empty() {
            "or import a plan document".to_string()
        } else {
            format!(
                "plans here: {}",
                crate::model::suggest::choices(id, known.iter().map(String::as_str))
            )
        })
    }
}
