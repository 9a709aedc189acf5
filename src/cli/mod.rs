//! The command line (SPEC §11): the clap tree, one file per command under
//! `commands/`, and the printing of replies and errors.

pub(crate) mod commands;
pub(crate) mod dynamic;
pub(crate) mod help;
#[cfg(test)]
mod man;
pub(crate) mod node_flags;
pub(crate) mod pager;
pub(crate) mod repl;
pub(crate) mod session;
pub(crate) mod set_value;
pub(crate) mod ui;
pub(crate) mod voice;

use crate::model::error::Error;
use clap::{Args, Parser, ValueEnum};
pub(crate) use session::Session;
use std::path::PathBuf;

pub(crate) const EXIT_CODES: &str = "\
Exit codes:
  0  ok
  1  refused by the plan's rules or findings: blocking issues, a lifecycle
     refusal (not editable), a forbidden handle, a duplicate id, a moved
     revision, a non-empty diff with --exit-code
  2  usage or input error: bad syntax, a malformed value, an unknown plan,
     node, key or revision
  3  store, I/O or internal failure: a missing or corrupt store, a busy lock,
     memory running out (the error says whether the change was written)";

/// Author, read, validate, freeze and submit plans: DAGs of agent and tool
/// steps kept in a file-backed store.
#[derive(Parser, Debug, Clone)]
#[command(name = "planforge", version, after_help = EXIT_CODES, max_term_width = 100)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: Global,
    #[command(subcommand)]
    pub(crate) command: commands::Command,
}

/// Flags every command takes.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct Global {
    /// The plan store folder [env: PLANFORGE_STORE] [default: the nearest plans/ store from here up, else ./plans]
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_name = "DIR"
    )]
    pub(crate) store: Option<PathBuf>,
    /// The plan to work on [env: PLANFORGE_PLAN] [default: the store's current plan]
    #[arg(
        short = 'p',
        long = "plan",
        global = true,
        help_heading = "Global options",
        value_name = "ID"
    )]
    pub(crate) plan: Option<String>,
    /// Who is acting [env: PLANFORGE_ACTOR, else $USER]
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_name = "NAME"
    )]
    pub(crate) actor: Option<String>,
    /// Output format (commands that print documents or diagrams add yaml,
    /// sarif, github, dot or mermaid)
    #[arg(
        long,
        global = true,
        help_heading = "Global options",
        value_enum,
        value_name = "FORMAT"
    )]
    pub(crate) format: Option<Format>,
    /// When to use colour (NO_COLOR and CLICOLOR_FORCE are honoured)
    #[arg(long, global = true, help_heading = "Global options", value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub(crate) color: ColorChoice,
    /// Print no prose on success (errors still go to stderr, and a --format
    /// json document is always printed); the exit code says how it went
    #[arg(short, long, global = true, help_heading = "Global options")]
    pub(crate) quiet: bool,
    /// Never page long output (on a terminal it goes through $PAGER, else
    /// less -FRX)
    #[arg(long, global = true, help_heading = "Global options")]
    pub(crate) no_pager: bool,
    /// Run as if started in DIR (as git -C): the store is looked for from
    /// there, and relative paths are read from there
    #[arg(
        short = 'C',
        value_name = "DIR",
        global = true,
        help_heading = "Global options"
    )]
    pub(crate) directory: Option<PathBuf>,
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Text,
    Json,
    Yaml,
    Sarif,
    Github,
    Dot,
    Mermaid,
}

impl Format {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Yaml => "yaml",
            Format::Sarif => "sarif",
            Format::Github => "github",
            Format::Dot => "dot",
            Format::Mermaid => "mermaid",
        }
    }
}

#[derive(ValueEnum, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// `--expect-rev N`, on every mutating command.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct Expect {
    /// Refuse (revision_moved) unless the plan is at this revision
    #[arg(long = "expect-rev", value_name = "N")]
    pub(crate) expect_rev: Option<u64>,
}

/// What a command produced: prose, the JSON document, and the exit code.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) text: String,
    pub(crate) json: serde_json::Value,
    pub(crate) exit: u8,
    /// Notes for stderr (text mode only).
    pub(crate) notes: Vec<String>,
    /// Text printed as is in every format (documents, diagrams).
    pub(crate) raw: bool,
    /// Findings drawn on stderr in text mode (validate, freeze and submit
    /// refusals), before the text.
    pub(crate) diagnostics: Vec<crate::render::diagnostics::IssueDiagnostic>,
    /// What stdout shows instead of `text` when a person sees both streams
    /// on a terminal and the diagnostics already spell the findings out.
    pub(crate) headline: Option<String>,
}

impl Reply {
    pub(crate) fn new(text: impl Into<String>, json: serde_json::Value) -> Reply {
        Reply {
            text: text.into(),
            json,
            exit: 0,
            notes: Vec::new(),
            raw: false,
            diagnostics: Vec::new(),
            headline: None,
        }
    }
    /// A reply for `format`, building only the form that will be printed
    /// (on a large plan each form costs as much as reading the plan).
    pub(crate) fn for_format(
        format: Format,
        text: impl FnOnce() -> String,
        json: impl FnOnce() -> serde_json::Value,
    ) -> Reply {
        if format == Format::Json {
            Reply::new(String::new(), json())
        } else {
            Reply::new(text(), serde_json::Value::Null)
        }
    }
    /// Output printed verbatim whatever the format (export, graph, …).
    pub(crate) fn raw(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            json: serde_json::Value::Null,
            exit: 0,
            notes: Vec::new(),
            raw: true,
            diagnostics: Vec::new(),
            headline: None,
        }
    }
    pub(crate) fn exit(mut self, code: u8) -> Reply {
        self.exit = code;
        self
    }
    pub(crate) fn note(mut self, n: impl Into<String>) -> Reply {
        self.notes.push(n.into());
        self
    }
    pub(crate) fn headline(mut self, h: impl Into<String>) -> Reply {
        self.headline = Some(h.into());
        self
    }
    pub(crate) fn diagnostics(
        mut self,
        d: Vec<crate::render::diagnostics::IssueDiagnostic>,
    ) -> Reply {
        self.diagnostics = d;
        self
    }
}

/// Adds `formatVersion: 1` first, unless present.
pub(crate) fn versioned(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) if !m.contains_key("formatVersion") => {
            let mut out = serde_json::Map::new();
            out.insert("formatVersion".into(), 1.into());
            out.extend(m);
            serde_json::Value::Object(out)
        }
        other => other,
    }
}

/// Prints a reply to stdout (and its notes to stderr); returns the exit code.
pub(crate) fn print_reply(session: &Session, reply: &Reply) -> u8 {
    use std::io::Write;
    // Quiet silences prose; a JSON document is the output's contract and is
    // always printed.
    if session.global.quiet && (reply.raw || session.format() != Format::Json) {
        return reply.exit;
    }
    if session.format() == Format::Text && !reply.diagnostics.is_empty() {
        let style = ui::stderr_style(session.global.color);
        let mut err = std::io::stderr().lock();
        for d in &reply.diagnostics {
            let _ = err.write_all(ui::issue_report(d, style).as_bytes());
        }
    }
    let out = std::io::stdout().lock();
    let both_terminals = {
        use std::io::IsTerminal;
        std::io::stdout().is_terminal() && std::io::stderr().is_terminal()
    };
    // The text is not copied on its way out (`show` of a 100,000-node
    // plan is 45 MB): borrowed, escaped only where it must be, and a last
    // newline written after it when it has none.
    let text: std::borrow::Cow<'_, str> = if reply.raw || session.format() != Format::Json {
        let t = match &reply.headline {
            Some(h) if both_terminals && !reply.diagnostics.is_empty() => h.as_str(),
            _ => reply.text.as_str(),
        };
        // Prose quotes the plan: keep a hostile id from driving the terminal.
        // Documents and diagrams (raw) go out byte for byte.
        if reply.raw {
            std::borrow::Cow::Borrowed(t)
        } else {
            ui::terminal_safe_cow(t, session.color_stdout())
        }
    } else {
        crate::wire::json::pretty(&versioned(reply.json.clone())).into()
    };
    let end = if !text.is_empty() && !text.ends_with('\n') {
        "\n"
    } else {
        ""
    };
    let paged =
        session.format() == Format::Text && pager::wanted(session.global.no_pager, &text) && {
            drop(out);
            pager::show(&format!("{text}{end}"))
        };
    if !paged {
        let mut out = std::io::stdout().lock();
        let written = (out.write_all(text.as_bytes()))
            .and_then(|()| out.write_all(end.as_bytes()))
            .and_then(|()| out.flush());
        if let Err(e) = written {
            return unwritten(session, &e, reply.exit);
        }
    }
    if session.format() != Format::Json {
        for n in &reply.notes {
            eprintln!("note: {}", ui::terminal_safe(n, false));
        }
    }
    reply.exit
}

/// The exit code of an answer that could not be written to stdout
/// (`code`: the command's own). A reader that closed the pipe early
/// (`| head`) chose to read no more: `code` stands. Any other failure (a
/// full disk under `> plan.json`) is an I/O failure, exit 3, said on
/// stderr (stdout is what failed, whatever the format): a script must not
/// take a cut-off document for the answer. What the command changed, if
/// anything, stays changed, and the message says so.
pub(crate) fn unwritten(session: &Session, e: &std::io::Error, code: u8) -> u8 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        return code;
    }
    let err = Error::new(
        crate::model::error::ErrorKind::Internal,
        format!(
            "the answer could not be written to standard output ({e}); what the command changed, if anything, stays changed"
        ),
    );
    let style = ui::stderr_style(session.global.color);
    eprint!(
        "{}",
        ui::error_report(&err, style, &voice::CliVoice::default())
    );
    err.exit_code()
}

/// Prints an error: a JSON document on stdout with `--format json`, else a
/// diagnostic on stderr. Returns the exit code.
pub(crate) fn print_error(session: &Session, err: &Error) -> u8 {
    use std::io::Write;
    if session.format() == Format::Json {
        let _ = std::io::stdout().write_all(
            crate::wire::json::pretty(&crate::wire::findings::error_json(err)).as_bytes(),
        );
    } else {
        eprint!(
            "{}",
            ui::error_report(
                err,
                ui::stderr_style(session.global.color),
                &err.plan
                    .as_deref()
                    .map(|p| session.voice(p))
                    .unwrap_or_default()
            )
        );
    }
    err.exit_code()
}

/// Runs one parsed command line in a session.
pub(crate) fn run(session: &mut Session, cli: Cli) -> u8 {
    session.global = cli.global.clone();
    match commands::dispatch(session, cli.command) {
        Ok(reply) => print_reply(session, &reply),
        Err(e) => print_error(session, &e),
    }
}

/// The program's entry point.
pub fn main() -> std::process::ExitCode {
    dynamic::complete_if_asked();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let wants_json = args
        .windows(2)
        .any(|w| w[0] == "--format" && w[1] == "json")
        || args.iter().any(|a| a == "--format=json");
    if wants_json {
        // As early as it is known: memory running out from here on is
        // answered as a JSON document.
        crate::model::oom::answer_in_json();
    }
    let cli = match help::parse(&args) {
        Ok(c) => c,
        Err(e) => return std::process::ExitCode::from(usage_error(e, wants_json)),
    };
    if let Some(dir) = &cli.global.directory
        && let Err(e) = std::env::set_current_dir(dir)
    {
        let session = Session::new(cli.global.clone());
        let err = Error::invalid(format!("cannot change to {} (-C): {e}", dir.display()));
        return std::process::ExitCode::from(print_error(&session, &err));
    }
    let one_shot = !matches!(
        cli.command,
        commands::Command::Repl(_) | commands::Command::Mcp(_) | commands::Command::Lsp(_)
    );
    let mut session = Session::new(cli.global.clone());
    session.one_shot = one_shot;
    let code = run(&mut session, cli);
    if one_shot {
        crate::model::oom::answered(code);
    }
    // The answer is out: now the snapshot a one-shot load or write left to
    // write (never on the path of the answer).
    crate::store::snapshot::save_deferred();
    if one_shot {
        leave(code);
    }
    std::process::ExitCode::from(code)
}

/// Ends a one-shot process with `code` once its answer is out and its
/// files are written, without the allocator's clean-up at exit: mimalloc
/// then hands a large plan's memory back to the system region by region
/// (a hundred calls at 100,000 nodes), which the system does at once when
/// the process ends.
fn leave(code: u8) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    // SAFETY: `_exit` ends the process. Nothing is left to run: every
    // value `main` made is dropped (the deferred writes are done), and
    // standard output and error are flushed.
    unsafe { libc::_exit(i32::from(code)) }
}

/// Prints a clap error (help and version are not errors) and returns its code.
pub(crate) fn usage_error(e: clap::Error, json: bool) -> u8 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                2
            } else {
                0
            }
        }
        _ if json => {
            print!(
                "{}",
                crate::wire::json::pretty(&crate::wire::findings::error_json(&usage_refusal(&e)))
            );
            2
        }
        _ => {
            // A usage error is drawn as every other refusal is: `error[code]:
            // …` off a terminal, the graphical report on one (the REPL's
            // errors look alike whatever their cause).
            eprint!(
                "{}",
                ui::error_report(
                    &usage_refusal(&e),
                    ui::stderr_style(ColorChoice::Auto),
                    &voice::CliVoice::default()
                )
            );
            2
        }
    }
}

/// A clap usage error as a refusal: what is wrong on one line (the missing
/// arguments named in it), the usage and clap's tip as help.
pub(crate) fn usage_refusal(e: &clap::Error) -> Error {
    if let Some(err) = unknown_command(e) {
        return err;
    }
    let text = e.render().to_string();
    let text = text.trim().trim_start_matches("error: ");
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let mut message = first.trim_end_matches(':').trim().to_string();
    let mut named = Vec::new();
    let mut help = Vec::new();
    for line in rest.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if line.starts_with("For more information") {
            continue;
        } else if let Some(u) = line.strip_prefix("Usage: ") {
            let command: Vec<&str> = u
                .split_whitespace()
                .take_while(|w| !w.starts_with(['-', '<', '[']))
                .collect();
            let command = command.join(" ");
            help.push(format!("usage: {u}"));
            help.push(format!("more: {command} --help"));
        } else if line.starts_with('<') || line.starts_with("--") || line.starts_with('-') {
            named.push(line.to_string());
        } else {
            help.insert(0, line.to_string());
        }
    }
    if !named.is_empty() {
        message = format!("{message}: {}", named.join(", "));
    }
    let mut err = Error::invalid(message);
    if !help.is_empty() {
        err = err.with_help(help.join("\n"));
    }
    err
}

/// `planforge clear`: clap's own guess for an unknown command is loose
/// (`create` for `clear`, `orchestrate` for `echo`); ours suggests only a
/// plausible typo, and otherwise points at the list.
fn unknown_command(e: &clap::Error) -> Option<Error> {
    use clap::CommandFactory;
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::InvalidSubcommand {
        return None;
    }
    let Some(ContextValue::String(word)) = e.get(ContextKind::InvalidSubcommand) else {
        return None;
    };
    let cli = Cli::command();
    let names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
    let err = Error::invalid(format!(
        "`{word}` is not a planforge command{}",
        crate::model::suggest::did_you_mean(word, names.iter().copied())
    ));
    Some(err.with_help("planforge help lists the commands by topic"))
}
