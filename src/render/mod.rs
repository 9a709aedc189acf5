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
pub mod voice;

/// How many terminal columns a string takes (wide characters count two).
pub fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` padded with spaces to `w` columns (by display width, not chars).
pub fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// `s` right-aligned in `w` columns.
pub fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}
