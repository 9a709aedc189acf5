//! Renderers: pure functions from data to text (and to JSON shapes). No I/O,
//! no colour, so the CLI, the REPL and the model-facing tools print
//! byte-identical text.

pub(crate) mod diagnostics;
pub(crate) mod diff;
pub(crate) mod echo;
pub(crate) mod explain;
pub(crate) mod graph;
pub(crate) mod issues;
pub(crate) mod log;
pub(crate) mod node;
pub(crate) mod outline;
pub(crate) mod prose;
pub(crate) mod read;
pub(crate) mod registry;
pub(crate) mod sarif;
pub(crate) mod status;
pub(crate) mod templates;
pub(crate) mod voice;

/// How many terminal columns a string takes (wide characters count two).
pub(crate) fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` padded with spaces to `w` columns (by display width, not chars).
pub(crate) fn pad(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// `s` right-aligned in `w` columns.
pub(crate) fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}
