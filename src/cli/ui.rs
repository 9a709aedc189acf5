//! Terminal concerns: colour policy and the rendering of errors and
//! findings on stderr. The only place that decides about colour.
//!
//! On a terminal, when the colour policy allows, errors and findings are
//! miette's graphical reports, with a labelled snippet of the document when
//! there is one. Otherwise they are plain text without escape codes, with
//! `file:line:column`, so logs, pipes and tests never depend on a terminal.

use super::ColorChoice;
use crate::model::error::Error;
use crate::model::remedy::Voice;
use crate::render::diagnostics::{self, IssueDiagnostic, SourceText};
use crate::wire::Syntax;
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan};
use owo_colors::OwoColorize;
use std::fmt;

/// `--color`, then `NO_COLOR` (set and non-empty: no colour), then
/// `CLICOLOR_FORCE` (set and not `0`: colour), then whether the stream is a
/// terminal.
pub(crate) fn color_enabled(choice: ColorChoice, is_terminal: bool) -> bool {
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

/// How diagnostics are drawn on a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// Plain text, optionally with a coloured heading.
    Plain { color: bool },
    /// miette's graphical report (a terminal that may show colour).
    Graphical { color: bool, width: usize },
}

/// The style for stderr: graphical on a terminal when the colour policy
/// allows colour there, else plain.
pub(crate) fn stderr_style(choice: ColorChoice) -> Style {
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    style_for(color_enabled(choice, terminal), terminal)
}

/// The style for a stream that is (or is not) a terminal.
pub(crate) fn style_for(color: bool, terminal: bool) -> Style {
    if terminal && color {
        Style::Graphical {
            color,
            width: terminal_width(),
        }
    } else {
        Style::Plain { color }
    }
}

/// `COLUMNS` when set, else 100.
fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .filter(|w: &usize| *w >= 40)
        .unwrap_or(100)
}

fn graphical(d: &dyn Diagnostic, color: bool, width: usize) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false);
    let mut out = String::new();
    if handler.render_report(&mut out, d).is_err() {
        out = format!("{d}\n");
    }
    out
}

/// An error, drawn in `style`, its fixes worded by `voice`.
pub(crate) fn error_report(err: &Error, style: Style, voice: &dyn Voice) -> String {
    match style {
        Style::Plain { color } => terminal_safe(&render_error(err, color, voice), color),
        Style::Graphical { color, width } => terminal_safe(
            &graphical(&ErrorReport::new(err, voice), color, width),
            color,
        ),
    }
}

/// What an error's `help` says: its fixes as command lines, then its advice.
pub(crate) fn help_text(err: &Error, voice: &dyn Voice) -> Option<String> {
    let mut lines = Vec::new();
    if !err.fixes.is_empty() {
        lines.push(voice.fixes(&err.fixes));
    }
    lines.extend(err.help.as_deref().map(str::to_string));
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Text that may quote a hostile plan (ids, phases, tool names), made safe
/// for a terminal: control characters other than newline and tab, and the
/// bidirectional controls that reorder text, are shown escaped (`\u{1b}`),
/// so content can neither move the cursor, retitle the window nor display
/// as something else. With `color`, colour sequences (SGR: `ESC [ digits;…
/// m`) are kept.
pub(crate) fn terminal_safe(s: &str, color: bool) -> String {
    terminal_safe_cow(s, color).into_owned()
}

/// [`terminal_safe`], borrowing `s` when it has nothing to escape (a
/// whole plan's prose is tens of megabytes at 100,000 nodes).
pub(crate) fn terminal_safe_cow(s: &str, color: bool) -> std::borrow::Cow<'_, str> {
    if first_unsafe(s).is_none() {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some((i, c)) = first_unsafe(rest) {
        out.push_str(&rest[..i]);
        let after = &rest[i + c.len_utf8()..];
        if color
            && c == '\u{1b}'
            && let Some(body) = after.strip_prefix('[')
            && let Some(end) = body.find(|c: char| !(c.is_ascii_digit() || c == ';'))
            && body[end..].starts_with('m')
        {
            out.push_str(&rest[i..i + 2 + end + 1]);
            rest = &body[end + 1..];
            continue;
        }
        out.push_str(&c.escape_unicode().to_string());
        rest = after;
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// The first character of `s` to escape and where it starts. Printable
/// ASCII, newline and tab are passed over a byte at a time (a whole plan's
/// prose is mostly that), any other character is looked at whole.
fn first_unsafe(s: &str) -> Option<(usize, char)> {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if (0x20..0x7f).contains(&b) || b == b'\n' || b == b'\t' {
            i += 1;
            continue;
        }
        // `i` is at a character's start: only whole characters were passed.
        let c = s[i..].chars().next()?;
        if unsafe_char(c) {
            return Some((i, c));
        }
        i += c.len_utf8();
    }
    None
}

fn unsafe_char(c: char) -> bool {
    (crate::model::ids::is_line_control(c) && c != '\n' && c != '\t')
        || crate::model::ids::is_bidi_control(c)
}

/// A finding, drawn in `style`.
pub(crate) fn issue_report(d: &IssueDiagnostic, style: Style) -> String {
    let color = match style {
        Style::Plain { color } | Style::Graphical { color, .. } => color,
    };
    terminal_safe(&issue_report_raw(d, style), color)
}

fn issue_report_raw(d: &IssueDiagnostic, style: Style) -> String {
    match style {
        Style::Plain { color } => {
            let text = diagnostics::plain(d);
            if !color {
                return text;
            }
            let (head, rest) = text.split_once(": ").unwrap_or((&text, ""));
            let head = match d.severity {
                crate::model::Severity::Blocking => head.red().bold().to_string(),
                crate::model::Severity::Advisory => head.yellow().bold().to_string(),
            };
            format!("{head}: {rest}")
        }
        Style::Graphical { color, width } => graphical(d, color, width) + "\n",
    }
}

/// An error as text for stderr: `error[code]: message`, its location, the
/// help line, and where to read more.
pub(crate) fn render_error(err: &Error, color: bool, voice: &dyn Voice) -> String {
    let code = err
        .issue
        .as_ref()
        .map(|i| i.code.name)
        .unwrap_or_else(|| err.code());
    let head = format!("error[{code}]");
    let mut out = if color {
        format!("{}: {}\n", head.red().bold(), err.message)
    } else {
        format!("{head}: {}\n", err.message)
    };
    if let Some(loc) = &err.location {
        // `file:line:col (at pointer)`, as findings show their place.
        let at = loc
            .pointer
            .as_ref()
            .map(|p| format!("at {}", if p.is_empty() { "the document root" } else { p }));
        let place = match (&loc.file, loc.line, loc.column) {
            (Some(f), Some(l), Some(c)) => Some(format!("{f}:{l}:{c}")),
            (Some(f), _, _) => Some(f.clone()),
            (None, Some(l), Some(c)) => Some(format!("line {l}, column {c}")),
            _ => None,
        };
        let text = match (place, at) {
            (Some(p), Some(a)) => Some(format!("{p} ({a})")),
            (Some(p), None) => Some(p),
            (None, a) => a,
        };
        if let Some(t) = text {
            out.push_str(&format!("  --> {t}\n"));
        }
    }
    if let Some(h) = &help_text(err, voice) {
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

/// An [`Error`] as a miette diagnostic with a labelled snippet: the error
/// carries the text (`with_source`) and where in it the problem is (a line
/// and column, or a pointer).
struct ErrorReport<'e> {
    err: &'e Error,
    help: Option<String>,
    source: Option<SourceText>,
    label: Option<LabeledSpan>,
}

impl<'e> ErrorReport<'e> {
    fn new(err: &'e Error, voice: &dyn Voice) -> ErrorReport<'e> {
        let help = help_text(err, voice);
        let (Some(src), Some(loc)) = (&err.source, &err.location) else {
            return ErrorReport {
                err,
                help,
                source: None,
                label: None,
            };
        };
        let (name, text) = (&src.0, &src.1);
        // The value the pointer names when the text indexes (its first
        // line), else one character at the line and column.
        let syntax = Syntax::from_path(name).unwrap_or_else(|| Syntax::sniff(text));
        let by_pointer = loc.pointer.as_ref().and_then(|p| {
            let l = crate::wire::span::locate(text, syntax, p).filter(|l| l.exact)?;
            let s = &text[l.span.start..l.span.end];
            Some((l.span.start, s.find('\n').unwrap_or(s.len())))
        });
        let by_position = || {
            let at = crate::wire::span::offset(text, loc.line?, loc.column?)?;
            let len = text[at..].chars().next().map_or(0, char::len_utf8);
            Some((at, len))
        };
        let span = by_pointer.or_else(by_position);
        match span {
            Some(span) => ErrorReport {
                err,
                help,
                source: Some(SourceText::new(name, std::sync::Arc::from(text.as_str()))),
                label: Some(LabeledSpan::new_primary_with_span(
                    loc.pointer
                        .as_ref()
                        .filter(|p| !p.is_empty())
                        .map(|p| format!("at {p}")),
                    span,
                )),
            },
            None => ErrorReport {
                err,
                help,
                source: None,
                label: None,
            },
        }
    }
}

impl fmt::Debug for ErrorReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.err, f)
    }
}

impl fmt::Display for ErrorReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.err, f)
    }
}

impl std::error::Error for ErrorReport<'_> {}

impl Diagnostic for ErrorReport<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let code = match &self.err.issue {
            Some(i) => i.code.name,
            None => self.err.code(),
        };
        Some(Box::new(code))
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.err
            .issue
            .as_ref()
            .map(|i| Box::new(format!("planforge explain {}", i.code)) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.source.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let l = self.label.clone()?;
        Some(Box::new(std::iter::once(l)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hostile_text_cannot_drive_the_terminal() {
        assert_eq!(terminal_safe("plain\ttext\n", true), "plain\ttext\n");
        assert!(matches!(
            terminal_safe_cow("plain\ttext\n", false),
            std::borrow::Cow::Borrowed(_)
        ));
        // The byte scan finds what a scan of every character finds.
        for text in [
            "plain ascii\n\twith tabs",
            "caf\u{e9} \u{65e5}\u{672c} \u{1f600}\u{202e}x",
            "\u{7f}\u{80}\u{9f}\u{a0}",
            "a\u{2028}b\u{2029}c\u{061c}d\u{200e}\u{200f}\u{2066}\u{2069}",
            "\u{1b}[31mred\u{1b}[0m\r\u{0}",
            "",
        ] {
            let mut rest = text;
            loop {
                let want = rest.char_indices().find(|(_, c)| unsafe_char(*c));
                assert_eq!(first_unsafe(rest), want, "{text:?}");
                let Some((i, c)) = want else { break };
                rest = &rest[i + c.len_utf8()..];
            }
        }
        assert_eq!(
            terminal_safe("a\u{1b}]0;pwned\u{7}b\u{1b}[2Jc", true),
            "a\\u{1b}]0;pwned\\u{7}b\\u{1b}[2Jc"
        );
        assert_eq!(terminal_safe("x\u{202e}y\u{0}", false), "x\\u{202e}y\\u{0}");
        // Colour stays colour when colour is on, and only then.
        let red = "\u{1b}[1;31merror\u{1b}[0m";
        assert_eq!(terminal_safe(red, true), red);
        assert_eq!(terminal_safe(red, false), "\\u{1b}[1;31merror\\u{1b}[0m");
        assert_eq!(terminal_safe("\u{1b}[", true), "\\u{1b}[");
    }
    use crate::model::error::Location;

    #[test]
    fn plain_errors_have_no_escape_codes() {
        let e = Error::invalid("bad thing").with_help("do this");
        let t = render_error(&e, false, &crate::cli::voice::CliVoice::default());
        assert_eq!(t, "error[invalid_input]: bad thing\n  help: do this\n");
        assert!(!t.contains('\u{1b}'));
        assert_eq!(
            error_report(
                &e,
                Style::Plain { color: false },
                &crate::cli::voice::CliVoice::default()
            ),
            t
        );
    }

    #[test]
    fn explicit_choices_win() {
        assert!(color_enabled(ColorChoice::Always, false));
        assert!(!color_enabled(ColorChoice::Never, true));
    }

    #[test]
    fn graphical_only_on_a_terminal_with_colour() {
        assert_eq!(style_for(false, true), Style::Plain { color: false });
        assert_eq!(style_for(true, false), Style::Plain { color: true });
        assert!(matches!(style_for(true, true), Style::Graphical { .. }));
    }

    #[test]
    fn graphical_errors_label_the_place() {
        let text = "{\n  \"nodes\": [\n    {\"id\": \"a\", \"kind\": \"cal\"}\n  ]\n}\n";
        let e = Error::invalid("node `a` has the unknown kind `cal`")
            .at(Location {
                file: Some("p.json".into()),
                pointer: Some("/nodes/0/kind".into()),
                line: None,
                column: None,
            })
            .with_source("p.json", text)
            .with_help("the kinds are entry, call, …");
        let g = error_report(
            &e,
            Style::Graphical {
                color: false,
                width: 80,
            },
            &crate::cli::voice::CliVoice::default(),
        );
        assert!(g.contains("[p.json:3:25]"), "{g}");
        assert!(g.contains("\"cal\""), "{g}");
        assert!(g.contains("at /nodes/0/kind"), "{g}");
        assert!(g.contains("help: the kinds are entry"), "{g}");
        assert!(!g.contains('\u{1b}'), "{g}");
    }

    #[test]
    fn graphical_positions_count_characters() {
        // `é☃` is 5 bytes and 2 characters, before the value on its line.
        let text = "{\"nodes\": [\n  {\"id\": \"s\", \"kind\": \"entry\", \"definition\": {\"input\": []}},\n  {\"id\": \"a\", \"phase\": \"é☃\", \"kind\": \"call\", \"definition\": {\"tool\": \"nope\", \"args\": {}, \"output\": [], \"onMissingValue\": \"fail\", \"authority\": [], \"replaySafe\": true, \"onIndeterminate\": \"halt\"}}\n], \"edges\": [{\"id\": \"e\", \"from\": \"s\", \"to\": \"a\"}]}";
        let reg =
            crate::model::registry::Registry::parse("tools: {t: {}}", Syntax::Yaml, "r").unwrap();
        let t = crate::forge::validate::check_document(
            "p.json",
            text.into(),
            Syntax::Json,
            Some(&reg),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let f = &t.findings[0];
        let start = f.location.as_ref().unwrap().start;
        let d = IssueDiagnostic::new(&t, f, &crate::cli::voice::CliVoice::default());
        let g = issue_report(
            &d,
            Style::Graphical {
                color: false,
                width: 300,
            },
        );
        let want = format!("[p.json:{}:{}]", start.line, start.column);
        assert_eq!((start.line, start.column), (3, 69));
        assert!(g.contains(&want), "{want}\n{g}");
        assert!(diagnostics::plain(&d).contains("p.json:3:69"));
    }

    #[test]
    fn graphical_findings_underline_the_value() {
        let text = "{\"nodes\": [\n  {\"id\": \"s\", \"kind\": \"entry\", \"definition\": {\"input\": []}},\n  {\"id\": \"a\", \"kind\": \"call\", \"definition\": {\"tool\": \"nope\", \"args\": {}, \"output\": [], \"onMissingValue\": \"fail\", \"authority\": [], \"replaySafe\": true, \"onIndeterminate\": \"halt\"}}\n], \"edges\": [{\"id\": \"e\", \"from\": \"s\", \"to\": \"a\"}]}";
        let reg =
            crate::model::registry::Registry::parse("tools: {t: {}}", Syntax::Yaml, "r").unwrap();
        let t = crate::forge::validate::check_document(
            "p.json",
            text.into(),
            Syntax::Json,
            Some(&reg),
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        let d = IssueDiagnostic::new(&t, &t.findings[0], &crate::cli::voice::CliVoice::default());
        let g = issue_report(
            &d,
            Style::Graphical {
                color: false,
                width: 200,
            },
        );
        assert!(
            g.contains("unknown_tool (planforge explain unknown_tool)"),
            "{g}"
        );
        assert!(g.contains("[p.json:3:54]"), "{g}");
        assert!(g.contains("node `a`: definition.tool"), "{g}");
        assert!(
            g.contains("help: planforge set a tool <a tool from the registry>"),
            "{g}"
        );
        // The underline sits exactly under `"nope"` (6 characters).
        let lines: Vec<&str> = g.lines().collect();
        let at = lines.iter().position(|l| l.contains("\"nope\"")).unwrap();
        let col = lines[at][..lines[at].find("\"nope\"").unwrap()]
            .chars()
            .count();
        let under: Vec<char> = lines[at + 1].chars().collect();
        assert!(
            under[col..col + 6].iter().all(|c| matches!(c, '─' | '┬')),
            "{g}"
        );
        assert!(!matches!(under[col - 1], '─' | '┬'), "{g}");
        assert!(!matches!(under.get(col + 6), Some('─' | '┬')), "{g}");
        let plain = issue_report(&d, Style::Plain { color: false });
        assert_eq!(plain, diagnostics::plain(&d));
    }
}
