//! The wire form (SPEC §1.3): the only place `$ref` / `$param` exist.
//!
//! Everything that crosses a process boundary — documents, op logs, CLI
//! values, tool arguments and outputs — passes through here.

pub(crate) mod baseline;
pub mod codec;
pub(crate) mod config;
pub mod convert;
pub(crate) mod findings;
pub mod jcs;
pub mod json;
pub mod parse;
pub(crate) mod remedy;
pub(crate) mod reread;
pub mod schema;
pub(crate) mod shorthand;
pub(crate) mod span;
pub(crate) mod template;

pub use parse::{ParseError, Syntax};
