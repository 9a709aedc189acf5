//! Terminal concerns: colour policy and the rendering of errors. The only
//! place that decides about colour.

use super::ColorChoice;
use crate::error::Error;
use owo_colors::OwoColorize;

/// `--color`, then `NO_COLOR` (set and non-empty: no colour), then
/// `CLICOLOR_FORCE` (set and not `0`: colour), then whether the stream is a
/// terminal.
pub fn color_enabled(choice: ColorChoice, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()) {
                return false;
            }
            if std::env::var_os("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") {
                return true;
            }
            is_terminal
        }
    }
}

/// An error as text for stderr: `error[code]: message`, its location, the
/// help line, and where to read more.
pub fn render_error(err: &Error, color: bool) -> String {
    let code = err
        .issue
        .as_ref()
        .map(|i| i.code)
        .unwrap_or_else(|| err.code());
    let head = format!("error[{code}]");
    let mut out = if color {
        format!("{}: {}\n", head.red().bold(), err.message)
    } else {
        format!("{head}: {}\n", err.message)
    };
    if let Some(loc) = &err.location {
        let mut parts = Vec::new();
        if let Some(f) = &loc.file {
            parts.push(f.clone());
        }
        if let (Some(l), Some(c)) = (loc.line, loc.column) {
            parts.push(format!("line {l}, column {c}"));
        }
        if let Some(p) = &loc.pointer {
            parts.push(format!(
                "at {}",
                if p.is_empty() { "the document root" } else { p }
            ));
        }
        if !parts.is_empty() {
            out.push_str(&format!("  --> {}\n", parts.join(", ")));
        }
    }
    if let Some(h) = &err.help {
        let label = if color {
            "help".cyan().bold().to_string()
        } else {
            "help".to_string()
        };
        for (i, line) in h.lines().enumerate() {
            if i == 0 {
                out.push_str(&format!("  {label}: {line}\n"));
            } else {
                out.push_str(&format!("        {line}\n"));
            }
        }
    }
    if let Some(i) = &err.issue {
        out.push_str(&format!("  see: planforge explain {}\n", i.code));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_errors_have_no_escape_codes() {
        let e = Error::invalid("bad thing").with_help("do this");
        let t = render_error(&e, false);
        assert_eq!(t, "error[invalid_input]: bad thing\n  help: do this\n");
        assert!(!t.contains('\u{1b}'));
    }

    #[test]
    fn explicit_choices_win() {
        assert!(color_enabled(ColorChoice::Always, false));
        assert!(!color_enabled(ColorChoice::Never, true));
    }
}
