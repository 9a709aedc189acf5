//! What a `planforge.toml` says about validation: which codes are
//! reported and which findings fail the run. The file is read by
//! `wire::config` and found by `forge::validate::config`.

use std::path::PathBuf;

/// Which findings make `validate` fail (exit 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailOn {
    /// Blocking findings.
    Blocking,
    /// Blocking and advisory findings.
    Advisory,
    /// None: exit 0 whenever the run completes.
    Never,
}

impl FailOn {
    pub const NAMES: [&'static str; 3] = ["blocking", "advisory", "never"];

    pub fn parse(s: &str) -> Option<FailOn> {
        match s {
            "blocking" => Some(FailOn::Blocking),
            "advisory" => Some(FailOn::Advisory),
            "never" => Some(FailOn::Never),
            _ => None,
        }
    }
}

/// The `[validate]` table of a `planforge.toml`. Absent keys are `None`:
/// the command line or the defaults decide.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidateConfig {
    /// The file it was read from (outputs name it).
    pub path: PathBuf,
    /// Selectors of the codes to report (codes, code prefixes, `ALL`,
    /// `blocking`, `advisory`, `registry`).
    pub select: Option<Vec<String>>,
    /// Selectors of the codes to leave out.
    pub ignore: Vec<String>,
    pub fail_on: Option<FailOn>,
}
