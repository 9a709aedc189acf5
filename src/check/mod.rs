//! The check engine (SPEC §5).

pub mod issue;

pub use issue::{Counts, Issue, Severity};
