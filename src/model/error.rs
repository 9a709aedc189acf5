//! The one error type. Findings are not errors (see `check::Issue`); an error
//! is a refusal or a failure, and its kind fixes the exit code (SPEC §11):
//! 1 refused by the plan's rules, 2 usage or input error, 3 store, I/O or
//! internal failure.

use super::issue::Issue;
use super::remedy::Fix;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    UnknownPlan,
    UnknownNode,
    UnknownEdge,
    UnknownKey,
    AmbiguousKey,
    UnknownRevision,
    InvalidInput,
    DuplicateId,
    NotEditable,
    RevisionMoved,
    /// A mutation the plan's rules forbid (a handle its source kind does not
    /// have, a kind change through set-config, …): exit 1, code `refused`
    /// (so a script can tell it from `invalid_input`, exit 2).
    Refused,
    StoreBusy,
    /// No store where one was looked for (or a folder `init` did not make).
    NoStore,
    CorruptStore,
    Internal,
}

impl ErrorKind {
    /// The `error.code` of `--format json` (SPEC §8).
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::UnknownPlan => "unknown_plan",
            ErrorKind::UnknownNode => "unknown_node",
            ErrorKind::UnknownEdge => "unknown_edge",
            ErrorKind::UnknownKey => "unknown_key",
            ErrorKind::AmbiguousKey => "ambiguous_key",
            ErrorKind::UnknownRevision => "unknown_revision",
            ErrorKind::InvalidInput => "invalid_input",
            ErrorKind::Refused => "refused",
            ErrorKind::DuplicateId => "duplicate_id",
            ErrorKind::NotEditable => "not_editable",
            ErrorKind::RevisionMoved => "revision_moved",
            ErrorKind::StoreBusy => "store_busy",
            ErrorKind::NoStore => "no_store",
            ErrorKind::CorruptStore => "corrupt_store",
            ErrorKind::Internal => "internal",
        }
    }

    pub fn exit_code(self) -> u8 {
        match self {
            ErrorKind::DuplicateId
            | ErrorKind::NotEditable
            | ErrorKind::RevisionMoved
            | ErrorKind::Refused => 1,
            ErrorKind::UnknownPlan
            | ErrorKind::UnknownNode
            | ErrorKind::UnknownEdge
            | ErrorKind::UnknownKey
            | ErrorKind::AmbiguousKey
            | ErrorKind::UnknownRevision
            | ErrorKind::InvalidInput => 2,
            ErrorKind::StoreBusy
            | ErrorKind::NoStore
            | ErrorKind::CorruptStore
            | ErrorKind::Internal => 3,
        }
    }
}

/// Where in a text an input error is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// A file path, `-` for stdin, or a plan id.
    pub file: Option<String>,
    pub pointer: Option<String>,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

#[derive(Debug, Clone)]
pub struct Error {
    pub kind: ErrorKind,
    /// What is wrong, naming the exact id.
    pub message: String,
    /// Advice in neutral prose (no command, flag or tool names: those are
    /// `fixes`, worded by each adapter).
    pub help: Option<Box<str>>,
    /// What to do about it, as data.
    pub fixes: Vec<Fix>,
    /// The plan the refusal is about, when it is about one (the fixes apply
    /// to it).
    pub plan: Option<Box<str>>,
    pub location: Option<Box<Location>>,
    /// The finding behind a rule refusal (e.g. `invalid_handle`).
    pub issue: Option<Box<Issue>>,
    /// The source text, for rendering a labelled snippet.
    pub source: Option<Box<(String, String)>>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            message: message.into(),
            help: None,
            fixes: Vec::new(),
            plan: None,
            location: None,
            issue: None,
            source: None,
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Error {
        self.help = Some(help.into().into_boxed_str());
        self
    }
    /// Adds a fix when `cond` holds.
    pub fn fix_if(self, cond: bool, fix: impl Into<Fix>) -> Error {
        if cond { self.fix(fix) } else { self }
    }
    /// Says which plan the refusal (and its fixes) is about.
    pub fn on_plan(mut self, plan: impl Into<String>) -> Error {
        self.plan = Some(plan.into().into_boxed_str());
        self
    }
    /// Adds a fix (after those already given).
    pub fn fix(mut self, fix: impl Into<Fix>) -> Error {
        self.fixes.push(fix.into());
        self
    }
    pub fn at(mut self, location: Location) -> Error {
        self.location = Some(Box::new(location));
        self
    }
    pub fn with_issue(mut self, issue: Issue) -> Error {
        self.issue = Some(Box::new(issue));
        self
    }
    /// Attaches the text the location points into (name, text).
    pub fn with_source(mut self, name: impl Into<String>, text: impl Into<String>) -> Error {
        self.source = Some(Box::new((name.into(), text.into())));
        self
    }

    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::InvalidInput, message)
    }
    pub fn refused(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Refused, message)
    }
    pub fn internal(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Internal, message)
    }

    /// An I/O failure on a path.
    pub fn io(action: &str, path: &std::path::Path, e: &std::io::Error) -> Error {
        Error::internal(format!("could not {action} {}: {e}", path.display()))
    }

    pub fn exit_code(&self) -> u8 {
        self.kind.exit_code()
    }
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
