//! Findings: data, never errors.

use crate::model::remedy::Fix;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Blocking,
    Advisory,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Blocking => "blocking",
            Severity::Advisory => "advisory",
        }
    }
}

/// An issue code with its severity: declared once, in its check's file
/// (`declare_check!`), and used by everything that emits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code {
    /// Stable identifier; never renamed or reused.
    pub name: &'static str,
    pub severity: Severity,
}

/// Unit tests compare codes with their names; the crate's own code compares
/// with the declarations.
#[cfg(test)]
impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.name == *other
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// One finding about a plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Issue {
    pub code: Code,
    /// Addressed to the author: names the id and says what is wrong (the
    /// fix is in `fixes`, worded by each adapter).
    pub message: String,
    pub node_id: Option<String>,
    pub edge_id: Option<String>,
    /// JSON pointer of the offending value. Relative to the node when
    /// `node_id` is set (`/definition/tool`), else relative to the edge when
    /// `edge_id` is set (`/handle`), else absolute in the plan document
    /// (`/bounds/maxNodes`). Renderers resolve it against the document.
    pub pointer: Option<String>,
    /// What to do about it, first the preferred fix.
    pub fixes: Vec<Fix>,
    /// The finding this one follows from, when one fact causes several
    /// (`check::group`): prose shows them as one group, JSON keeps both.
    pub cause: Option<Cause>,
}

/// Names a finding: its code and what it is about. A finding's identity,
/// used by another finding to say it follows from it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Cause {
    pub code: Code,
    pub node_id: Option<String>,
    pub edge_id: Option<String>,
}

impl Cause {
    /// The identity of `i`.
    pub fn of(i: &Issue) -> Cause {
        Cause {
            code: i.code,
            node_id: i.node_id.clone(),
            edge_id: i.edge_id.clone(),
        }
    }
}

impl Issue {
    pub fn new(code: Code, message: impl Into<String>) -> Issue {
        Issue {
            code,
            message: crate::model::text::cut_names(message.into()),
            node_id: None,
            edge_id: None,
            pointer: None,
            fixes: Vec::new(),
            cause: None,
        }
    }
    pub fn severity(&self) -> Severity {
        self.code.severity
    }
    /// Adds a fix (after those already given).
    pub fn fix(mut self, fix: impl Into<Fix>) -> Issue {
        self.fixes.push(fix.into());
        self
    }
    pub fn node(mut self, id: impl Into<String>) -> Issue {
        self.node_id = Some(id.into());
        self
    }
    pub fn edge(mut self, id: impl Into<String>) -> Issue {
        self.edge_id = Some(id.into());
        self
    }
    pub fn at(mut self, pointer: impl Into<String>) -> Issue {
        self.pointer = Some(pointer.into());
        self
    }
    /// The one-line form every list uses:
    /// `  · (<severity>) <code> [node X]: <message>`.
    pub fn line(&self) -> String {
        let i = self;
        let at = match (&i.node_id, &i.edge_id) {
            (Some(n), Some(e)) => format!(" [node {n}, edge {e}]"),
            (Some(n), None) => format!(" [node {n}]"),
            (None, Some(e)) => format!(" [edge {e}]"),
            (None, None) => String::new(),
        };
        format!(
            "  · ({}) {}{at}: {}",
            i.severity().as_str(),
            i.code,
            i.message
        )
    }
    pub fn is_blocking(&self) -> bool {
        self.code.severity == Severity::Blocking
    }
}

/// Blocking and advisory counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub blocking: usize,
    pub advisory: usize,
}

impl Counts {
    pub fn of(issues: &[Issue]) -> Counts {
        let blocking = issues.iter().filter(|i| i.is_blocking()).count();
        Counts {
            blocking,
            advisory: issues.len() - blocking,
        }
    }
}

/// The result of running every check.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub issues: Vec<Issue>,
    /// Codes that could not run, each with the reason.
    pub skipped: Vec<(&'static str, String)>,
}

impl Report {
    pub fn counts(&self) -> Counts {
        Counts::of(&self.issues)
    }
    pub fn has_blocking(&self) -> bool {
        self.issues.iter().any(Issue::is_blocking)
    }
}

/// One line saying which checks were skipped and why, or `None`.
pub fn skipped_summary(skipped: &[(&'static str, String)]) -> Option<String> {
    if skipped.is_empty() {
        return None;
    }
    let mut by_reason: Vec<(&str, Vec<&str>)> = Vec::new();
    for (code, why) in skipped {
        match by_reason.iter_mut().find(|(w, _)| w == why) {
            Some((_, codes)) => codes.push(code),
            None => by_reason.push((why, vec![code])),
        }
    }
    Some(
        by_reason
            .iter()
            .map(|(why, codes)| format!("skipped because {why}: {}", codes.join(", ")))
            .collect::<Vec<_>>()
            .join("; "),
    )
}
