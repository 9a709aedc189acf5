//! Byte budgets: how much one answer may say, whatever the plan holds
//! (issue 13). A model reads every byte it is given; a person scrolls past
//! them. Each answer that can grow with the plan fits one of these, and
//! says what it left out and how to read it.

/// A mutation echo (CLI and tools).
pub const ECHO: usize = 1200;
/// A read of a phase or a node (`read`, `plan_read`), by default.
pub const READ: usize = 16 * 1024;
/// The findings of `validate_plan` and of a refused freeze or submit, by
/// default.
pub const FINDINGS: usize = 4 * 1024;
/// The most a caller may ask for (`maxBytes`, `--max-bytes`).
pub const CEILING: usize = 1024 * 1024;
/// An issue's problem statement in a budgeted list is cut to this many
/// bytes; its fix never is.
pub const MESSAGE: usize = 320;

/// A budget a caller asked for: `None` → `default`, else at least 1 KB and
/// at most [`CEILING`]. Returns `Err` with the allowed range when out of it.
pub fn requested(asked: Option<u64>, default: usize) -> Result<usize, String> {
    match asked {
        None => Ok(default),
        Some(n) if (1024..=CEILING as u64).contains(&n) => Ok(n as usize),
        Some(n) => Err(format!(
            "{n} bytes is outside the budgets an answer can have: 1024 to {CEILING}"
        )),
    }
}
