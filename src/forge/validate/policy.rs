//! What a validation reports, beyond what the checks find: inline
//! suppressions (a node's `suppress` list), the selection of codes
//! (`--select` / `--ignore` / `planforge.toml`), and a baseline (a
//! previous report whose findings are not reported again). Applied to each
//! target's findings before they are located, so counts, verdicts, exit
//! codes and every format agree.

use super::select::Selection;
use crate::model::{Content, Report};
use crate::wire::baseline::fingerprint;
use std::collections::HashSet;

/// The findings of a previous report, by fingerprint.
#[derive(Debug, Clone, Default)]
pub struct Baseline {
    /// The file it was read from.
    pub(crate) file: String,
    pub(crate) fingerprints: HashSet<String>,
}

/// Everything that decides what a validation reports.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub(crate) selection: Selection,
    pub(crate) baseline: Option<Baseline>,
    /// The repository root and the working folder, when known: files are
    /// then fingerprinted by their repository-relative path, so a finding
    /// keeps its fingerprint however its path is typed and wherever the
    /// run starts.
    pub(crate) anchor: Option<(std::path::PathBuf, std::path::PathBuf)>,
}

/// What the policy took out of one target's findings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Withheld {
    /// Covered by an inline suppression.
    pub(crate) suppressed: usize,
    /// Of a code that is not selected.
    pub(crate) deselected: usize,
    /// In the baseline.
    pub(crate) baselined: usize,
}

impl std::ops::Add for Withheld {
    type Output = Withheld;
    fn add(self, o: Withheld) -> Withheld {
        Withheld {
            suppressed: self.suppressed + o.suppressed,
            deselected: self.deselected + o.deselected,
            baselined: self.baselined + o.baselined,
        }
    }
}

impl Policy {
    /// The path a file is fingerprinted by: repository-relative when the
    /// policy knows the repository and the file is in it, else as named.
    pub(crate) fn key(&self, file: &str) -> String {
        self.anchor
            .as_ref()
            .and_then(|(root, cwd)| super::inputs::repo_relative(root, cwd, file))
            .unwrap_or_else(|| file.to_string())
    }

    /// Applies the policy to a target's report; `content` is what was
    /// checked (its nodes carry the suppressions), `None` when there is
    /// none (an input that could not be read).
    pub(crate) fn apply(
        &self,
        content: Option<&Content>,
        file: &str,
        plan_id: Option<&str>,
        report: &mut Report,
    ) -> Withheld {
        let sel = &self.selection;
        let mut w = Withheld::default();
        if let Some(c) = content {
            w.suppressed =
                crate::check::unused_suppression::apply(c, report, |code| sel.reports(code));
        }
        if sel.is_narrowed() {
            let before = report.issues.len();
            report.issues.retain(|i| sel.reports(i.code.name));
            report.skipped.retain(|(code, _)| sel.reports(code));
            w.deselected = before - report.issues.len();
        }
        if let Some(b) = &self.baseline {
            let key = self.key(file);
            let before = report.issues.len();
            report
                .issues
                .retain(|i| !b.fingerprints.contains(&fingerprint(&key, plan_id, i)));
            w.baselined = before - report.issues.len();
        }
        w
    }
}
