//! Renderers: pure functions from data to text (and to JSON shapes). No I/O,
//! no colour, so the CLI, the REPL and the model-facing tools print
//! byte-identical text.

pub mod diagnostics;
pub mod diff;
pub mod echo;
pub mod explain;
pub mod graph;
pub mod issues;
pub mod node;
pub mod outline;
pub mod prose;
pub mod read;
pub mod sarif;
pub mod status;
pub mod templates;
