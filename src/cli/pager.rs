//! Long output on a terminal goes through a pager, as git does: `$PAGER`,
//! else `less` with `LESS=FRX` (quit when it fits one screen, keep colours,
//! leave the text on the screen) unless `LESS` is set, from the shell and
//! from the REPL alike (the REPL's prompt comes back when the pager quits).
//! Never when stdout is not a terminal, with `--no-pager`, or when `PAGER`
//! is empty or `cat`; output that fits the screen is printed directly.

use std::io::Write;

/// Whether `text` should go through the pager.
pub(crate) fn wanted(no_pager: bool, text: &str) -> bool {
    use std::io::IsTerminal;
    if no_pager || !std::io::stdout().is_terminal() {
        return false;
    }
    let rows = terminal_size::terminal_size()
        .map(|(_, h)| h.0 as usize)
        .or_else(|| std::env::var("LINES").ok()?.parse().ok())
        .unwrap_or(24);
    let cols = terminal_size::terminal_size()
        .map(|(w, _)| w.0 as usize)
        .unwrap_or(80)
        .max(1);
    // Lines as the terminal shows them (long lines wrap).
    let shown: usize = text
        .lines()
        .map(|l| crate::render::width(l).div_ceil(cols).max(1))
        .sum();
    shown >= rows
}

/// The pager command line, or `None` for none (`PAGER` empty or `cat`).
fn command() -> Option<String> {
    let pager = match std::env::var("PAGER") {
        Ok(p) => p,
        Err(_) => "less".to_string(),
    };
    let p = pager.trim();
    if p.is_empty() || p == "cat" {
        return None;
    }
    Some(p.to_string())
}

/// Shows `text` in the pager; `false` when no pager could run (the caller
/// prints it then).
pub(crate) fn show(text: &str) -> bool {
    let Some(line) = command() else {
        return false;
    };
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(&line).stdin(std::process::Stdio::piped());
    crate::model::pages::as_before(&mut c);
    if std::env::var_os("LESS").is_none() {
        c.env("LESS", "FRX");
    }
    if std::env::var_os("LV").is_none() {
        c.env("LV", "-c");
    }
    let Ok(mut child) = c.spawn() else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit early (q) closes the pipe: not an error.
        let _ = stdin.write_all(text.as_bytes());
    }
    // `sh` exits 126 or 127 when the pager cannot run (not found, not
    // executable); it has printed why. As git does, the output then comes
    // unpaged, with a warning, rather than not at all.
    match child.wait().map(|st| st.code()) {
        Ok(Some(code @ (126 | 127))) => {
            eprintln!(
                "warning: the pager `{}` could not run (exit {code}), so the output follows unpaged; set PAGER to a pager that runs, or give --no-pager",
                crate::cli::ui::terminal_safe(&line, false)
            );
            false
        }
        _ => true,
    }
}
