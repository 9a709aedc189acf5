//! The wire form (SPEC §1.3): the only place `$ref` / `$param` exist.
//!
//! Everything that crosses a process boundary — documents, op logs, CLI
//! values, tool arguments and outputs — passes through here.

pub mod codec;
pub mod convert;
pub mod findings;
pub mod jcs;
pub mod json;
pub mod parse;
pub mod remedy;
pub mod shorthand;
pub mod span;
pub mod template;

pub use parse::{ParseError, Syntax};
