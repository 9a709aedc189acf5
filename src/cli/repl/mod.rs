//! `planforge repl` (SPEC §12): every line is an ordinary planforge command
//! line without the program name, parsed by the same clap tree as the shell
//! (one grammar, one help). REPL-only words: `use ID` (this REPL only),
//! `help [CMD]`, `exit`/`quit` [CODE]. On a terminal it is a rustyline editor
//! with completion, hints and history in the XDG state folder; with stdin
//! not a terminal it runs the lines as a script.
//!
//! The REPL holds no lock and no plan between commands: each command loads
//! what it needs and commits its own transaction, so other processes (a
//! model over MCP, a second shell) can edit the same plan meanwhile.

/// The most lines one script command may span (quotes or backslashes).
const MAX_COMMAND_LINES: usize = 1000;
/// The most bytes one script command may hold across its lines.
const MAX_COMMAND_BYTES: usize = 1 << 20;

pub(crate) mod complete;
pub(crate) mod helper;
pub(crate) mod words;

use crate::cli::commands::Command;
use crate::cli::{Cli, ColorChoice, Format, Global, Reply, Session};
use crate::model::error::Error;

use complete::Source;
use helper::ReplHelper;
use owo_colors::OwoColorize;
use std::io::IsTerminal;
use std::path::PathBuf;

/// What running one line led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing to run (blank or a comment).
    Empty,
    /// A command ran with this exit code.
    Ran(u8),
    /// `exit`/`quit`, with the code asked for (if any).
    Exit(Option<u8>),
}

/// Lines of history kept.
pub(crate) const MAX_HISTORY: usize = 2000;

/// Text shown after `help` in the REPL: what the REPL adds to the commands.
pub(crate) const REPL_HELP: &str = "\
In the REPL, type commands without `planforge`. Also:
  use ID        work on plan ID in this REPL only (the store's current plan stays)
  help [CMD]    this help, or a command's help
  clear         clear the screen (also Ctrl-L)
  exit [CODE]   leave (also quit, or Ctrl-D); Ctrl-C cancels the line being typed
Tab completes commands, flags, plan and node ids, phases, edge ids, tools and
issue codes; `@` completes file names after --def. A line that ends inside a
quote or with a backslash goes on on the next line.";

/// The REPL's state: the flags it was started with and the session the
/// commands run in.
pub(crate) struct Repl {
    base: Global,
    pub(crate) session: Session,
    /// The command line's grammar, built once (with every command's
    /// examples) and copied for each line, not built again per line.
    grammar: std::cell::OnceCell<clap::Command>,
}

impl Repl {
    /// A REPL over `session`. A `-p` given to `planforge repl` becomes the
    /// REPL's own plan, which `use` then changes.
    pub(crate) fn new(mut session: Session) -> Repl {
        let mut base = session.global.clone();
        if let Some(p) = base.plan.take() {
            session.repl_plan = Some(p);
        }
        session.global = base.clone();
        // The REPL's commands share the plans they fold, kept warm.
        session.warm = Some(std::sync::Arc::default());
        Repl {
            base,
            session,
            grammar: std::cell::OnceCell::new(),
        }
    }

    /// The REPL's flags under a line's own flags (the line wins).
    fn merged(&self, line: Global) -> Global {
        let base = &self.base;
        Global {
            store: line.store.or_else(|| base.store.clone()),
            plan: line.plan,
            actor: line.actor.or_else(|| base.actor.clone()),
            format: line.format.or(base.format),
            color: if line.color == ColorChoice::Auto {
                base.color
            } else {
                line.color
            },
            quiet: line.quiet || base.quiet,
            no_pager: line.no_pager || base.no_pager,
            directory: None,
        }
    }

    fn with_global<T>(&mut self, global: Global, f: impl FnOnce(&mut Session) -> T) -> T {
        self.session.global = global;
        let out = f(&mut self.session);
        self.session.global = self.base.clone();
        out
    }

    fn fail(&mut self, global: Global, err: Error) -> Outcome {
        Outcome::Ran(self.with_global(global, |s| crate::cli::print_error(s, &err)))
    }

    /// Runs one complete line (quotes closed) and prints its result.
    pub(crate) fn line(&mut self, line: &str) -> Outcome {
        let words = match words::split(line) {
            Ok(w) => w,
            Err(why) => {
                let g = self.base.clone();
                return self.fail(g, Error::invalid(format!("cannot run the line: {why}")));
            }
        };
        let Some(first) = words.first() else {
            return Outcome::Empty;
        };
        if first == "exit" || first == "quit" {
            return match words.get(1).map(|c| c.parse::<u8>()) {
                None if words.len() == 1 => Outcome::Exit(None),
                Some(Ok(code)) if words.len() == 2 => Outcome::Exit(Some(code)),
                _ => {
                    let g = self.base.clone();
                    self.fail(
                        g,
                        Error::invalid(format!("`{first}` takes at most one exit code (0–255)")),
                    )
                }
            };
        }
        if first == "clear" && words.len() == 1 {
            // As in a shell (Ctrl-L does the same).
            use std::io::{IsTerminal, Write};
            if std::io::stdout().is_terminal() {
                let _ = std::io::stdout().write_all(b"\x1b[H\x1b[2J");
                let _ = std::io::stdout().flush();
            }
            return Outcome::Empty;
        }
        if let Some(e) = unknown_word(first) {
            let g = self.base.clone();
            return self.fail(g, e);
        }
        let wants_json = self.base.format == Some(Format::Json)
            || words
                .windows(2)
                .any(|w| w[0] == "--format" && w[1] == "json")
            || words.iter().any(|w| w == "--format=json");
        let argv = std::iter::once("planforge".to_string()).chain(words.iter().cloned());
        let grammar = self
            .grammar
            .get_or_init(|| {
                let mut c = crate::cli::help::command();
                c.build();
                c
            })
            .clone();
        let cli = match crate::cli::help::parse_with(grammar, argv) {
            Ok(c) => c,
            Err(e) => {
                let code = crate::cli::usage_error(e, wants_json);
                if words.len() == 1 && (first == "help" || first == "--help" || first == "-h") {
                    println!("\n{REPL_HELP}");
                }
                return Outcome::Ran(code);
            }
        };
        let global = self.merged(cli.global);
        match cli.command {
            Command::Use(a) => self.use_plan(global, &a.id),
            Command::Repl(_) | Command::Mcp(_) | Command::Lsp(_) => {
                let name = cli.command.name();
                self.fail(
                    global,
                    Error::invalid(format!("`{name}` cannot run inside the REPL")).with_help(
                        format!("leave the REPL (exit) and run `planforge {name}` from the shell"),
                    ),
                )
            }
            command => {
                let cli = Cli {
                    global: global.clone(),
                    command,
                };
                Outcome::Ran(self.with_global(global, |s| crate::cli::run(s, cli)))
            }
        }
    }

    /// `use ID` in the REPL: this REPL's plan; the store's `current` stays.
    fn use_plan(&mut self, global: Global, id: &str) -> Outcome {
        let result = self.with_global(global.clone(), |s| {
            let store = s.store()?;
            store.load(id)
        });
        match result {
            Ok(loaded) => {
                self.session.repl_plan = Some(id.to_string());
                let reply = Reply::new(
                    format!(
                        "Using {id} ({} at revision {}) in this REPL; the store's current plan is unchanged.",
                        loaded.state(),
                        loaded.revision()
                    ),
                    serde_json::json!({"planId": id, "scope": "repl"}),
                );
                Outcome::Ran(self.with_global(global, |s| crate::cli::print_reply(s, &reply)))
            }
            Err(e) => self.fail(global, e),
        }
    }

    /// Runs lines from `next_line` as a script: blank lines and `#` comments
    /// are skipped, a line that ends inside a quote or with a backslash goes
    /// on on the next one. Stops at the first failing line with its exit code
    /// unless `keep_going`, which runs every line and exits with the first
    /// failure's code.
    pub(crate) fn script(
        &mut self,
        mut next_line: impl FnMut() -> std::io::Result<Option<String>>,
        keep_going: bool,
    ) -> u8 {
        let mut first_failure: Option<u8> = None;
        let mut pending = String::new();
        let mut number = 0usize;
        let mut starts_at = 0usize;
        loop {
            let line = match next_line() {
                Ok(Some(l)) => l,
                Ok(None) => break,
                Err(e) => {
                    let g = self.base.clone();
                    let code = match self.fail(
                        g,
                        Error::invalid(format!(
                            "could not read line {} of the script: {e}",
                            number + 1
                        )),
                    ) {
                        Outcome::Ran(c) => c,
                        _ => 2,
                    };
                    return first_failure.unwrap_or(code);
                }
            };
            number += 1;
            if pending.is_empty() {
                starts_at = number;
            } else {
                pending.push('\n');
            }
            pending.push_str(line.strip_suffix('\r').unwrap_or(&line));
            if let Some(why) = words::split_partial(&pending).incomplete {
                // Each added line re-reads the whole command: bound it, so an
                // unclosed quote cannot make a script run for ever.
                let lines = number - starts_at + 1;
                if lines < MAX_COMMAND_LINES && pending.len() < MAX_COMMAND_BYTES {
                    continue;
                }
                pending.clear();
                let g = self.base.clone();
                let err = Error::invalid(format!(
                    "the command starting on line {starts_at} is still open after {lines} lines ({why}); a command may span at most {MAX_COMMAND_LINES} lines and {} KiB",
                    MAX_COMMAND_BYTES / 1024
                ))
                .with_help("close the quote, or remove the backslash at the end of the line");
                let code = match self.fail(g, err) {
                    Outcome::Ran(c) => c,
                    _ => 2,
                };
                if !keep_going {
                    return code;
                }
                first_failure.get_or_insert(code);
                continue;
            }
            let text = std::mem::take(&mut pending);
            match self.line(&text) {
                Outcome::Empty | Outcome::Ran(0) => {}
                Outcome::Exit(code) => return code.unwrap_or(first_failure.unwrap_or(0)),
                Outcome::Ran(code) => {
                    if !self.base.quiet {
                        if keep_going {
                            eprintln!(
                                "note: line {starts_at} failed (exit {code}); going on (--keep-going)"
                            );
                        } else {
                            eprintln!(
                                "note: line {starts_at} failed (exit {code}); the lines after it were not run (pass --keep-going to run them)"
                            );
                        }
                    }
                    if !keep_going {
                        return code;
                    }
                    first_failure.get_or_insert(code);
                }
            }
        }
        if !pending.is_empty() {
            let why = words::split_partial(&pending)
                .incomplete
                .map(|w| w.to_string())
                .unwrap_or_default();
            let g = self.base.clone();
            let err = Error::invalid(format!("the script ends inside line {starts_at}: {why}"));
            if let Outcome::Ran(code) = self.fail(g, err) {
                first_failure.get_or_insert(code);
            }
        }
        first_failure.unwrap_or(0)
    }

    /// The prompt: the plan, its state and revision (`plan-x editable r12> `),
    /// plain and coloured.
    fn prompt(&self, helper: &ReplHelper) -> (String, String) {
        let t = complete::Target::default();
        let Some(id) = helper.source.plan_id(&t) else {
            let p = "planforge> ".to_string();
            let styled = if helper.color {
                format!("{}> ", "planforge".bold())
            } else {
                p.clone()
            };
            return (p, styled);
        };
        match helper.source.plan(&t) {
            Some(names) => {
                let plain = format!("{id} {} r{}> ", names.state, names.revision);
                if !helper.color {
                    return (plain.clone(), plain);
                }
                let state = match names.state.as_str() {
                    "editable" => names.state.green().to_string(),
                    "reviewable" => names.state.yellow().to_string(),
                    _ => names.state.magenta().to_string(),
                };
                let rev = format!("r{}", names.revision);
                (
                    plain,
                    format!("{} {state} {}> ", id.cyan().bold(), rev.dimmed()),
                )
            }
            None => {
                let plain = format!("{id} (missing)> ");
                let styled = if helper.color {
                    format!("{} {}> ", id.cyan().bold(), "(missing)".red())
                } else {
                    plain.clone()
                };
                (plain, styled)
            }
        }
    }

    /// The interactive loop on a terminal.
    pub(crate) fn interactive(&mut self) -> u8 {
        use rustyline::config::{ColorMode, CompletionType, Config};
        use rustyline::error::ReadlineError;
        let color = crate::cli::ui::color_enabled(self.base.color, std::io::stdout().is_terminal());
        let config = Config::builder()
            .history_ignore_space(true)
            .auto_add_history(false)
            .completion_type(CompletionType::List)
            .color_mode(match (color, self.base.color) {
                (false, _) => ColorMode::Disabled,
                (true, ColorChoice::Always) => ColorMode::Forced,
                (true, _) => ColorMode::Enabled,
            })
            .build();
        let mut rl =
            match rustyline::Editor::<ReplHelper, rustyline::history::FileHistory>::with_config(
                config,
            ) {
                Ok(rl) => rl,
                Err(e) => {
                    eprintln!("error[internal]: could not start the line editor: {e}");
                    return 3;
                }
            };
        {
            use rustyline::history::History;
            let _ = rl.history_mut().ignore_dups(true);
            let _ = rl.history_mut().set_max_len(MAX_HISTORY);
        }
        rl.set_helper(Some(ReplHelper::new(self.session.clone(), color)));
        let history = history_path();
        if let Some(h) = &history {
            if let Some(dir) = h.parent() {
                let _ = std::fs::create_dir_all(dir);
            }
            if h.exists()
                && let Err(e) = rl.load_history(h)
            {
                eprintln!("note: could not read the history {}: {e}", h.display());
            }
        }
        if !self.base.quiet {
            println!(
                "planforge repl: one command per line, as after `planforge` in a shell. `help` lists them; Tab completes; exit or Ctrl-D leaves."
            );
        }
        let mut history_warned = false;
        loop {
            let prompt = {
                let helper = rl.helper_mut().expect("the helper is set");
                helper.source.session = self.session.clone();
                self.prompt(helper)
            };
            match rl.readline(&prompt) {
                Ok(line) => {
                    if !line.trim().is_empty() {
                        let _ = rl.add_history_entry(line.as_str());
                        if let Some(h) = &history
                            && let Err(e) = rl.append_history(h)
                            && !history_warned
                        {
                            history_warned = true;
                            eprintln!("note: could not save the history to {}: {e}", h.display());
                        }
                    }
                    if let Outcome::Exit(code) = self.line(&line) {
                        return code.unwrap_or(0);
                    }
                    // Answered: while the user reads and types, a digest
                    // the line left unknown is computed ahead (a write
                    // starts its own at once; this is for a plan another
                    // process appended to; not for a piped script, whose
                    // next line follows at once).
                    if let Some(w) = &self.session.warm {
                        w.digest_ahead();
                    }
                }
                Err(ReadlineError::Interrupted) => continue,
                Err(ReadlineError::Eof) => return 0,
                Err(e) => {
                    eprintln!("error[internal]: the line editor failed: {e}");
                    return 3;
                }
            }
        }
    }
}

/// Where the REPL keeps its history: `$XDG_STATE_HOME/planforge/history`
/// (by default `~/.local/state/planforge/history`), never in the store.
pub(crate) fn history_path() -> Option<PathBuf> {
    use etcetera::BaseStrategy;
    let base = etcetera::choose_base_strategy().ok()?;
    Some(base.state_dir()?.join("planforge").join("history"))
}

/// `planforge repl`: interactive on a terminal, else a script from stdin.
/// Returns the exit code.
pub(crate) fn run(session: &Session, keep_going: bool) -> u8 {
    let mut repl = Repl::new(session.clone());
    if std::io::stdin().is_terminal() {
        return repl.interactive();
    }
    // One line at a time, without holding stdin's lock, so a command that
    // reads `-` takes the lines that follow it.
    let stdin = std::io::stdin();
    repl.script(
        || {
            let mut buf = String::new();
            match stdin.read_line(&mut buf)? {
                0 => Ok(None),
                _ => {
                    if buf.ends_with('\n') {
                        buf.pop();
                    }
                    Ok(Some(buf))
                }
            }
        },
        keep_going,
    )
}

/// A first word that is neither a command nor one of the REPL's own
/// (`exit`, `quit`, `clear`), with a guess among both: `cler` → `clear`.
fn unknown_word(first: &str) -> Option<Error> {
    use clap::CommandFactory;
    if first.starts_with('-') {
        return None;
    }
    let cli = crate::cli::Cli::command();
    let mut names: Vec<&str> = cli.get_subcommands().map(|c| c.get_name()).collect();
    names.extend(["help", "exit", "quit", "clear"]);
    if names.contains(&first) {
        return None;
    }
    Some(
        Error::invalid(format!(
            "`{first}` is not a planforge command{}",
            crate::model::suggest::did_you_mean(first, names.iter().copied())
        ))
        .with_help("help lists the commands by topic; exit, quit and clear are the REPL's own"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repl() -> Repl {
        Repl::new(Session::new(Global {
            plan: Some("plan-x".into()),
            store: Some("/nonexistent/store".into()),
            quiet: true,
            ..Global::default()
        }))
    }

    #[test]
    fn a_plan_given_to_repl_becomes_the_repls_own() {
        let r = repl();
        assert_eq!(r.session.repl_plan.as_deref(), Some("plan-x"));
        assert_eq!(r.session.global.plan, None);
    }

    #[test]
    fn line_flags_win_over_the_repls() {
        let r = repl();
        let line = Global {
            store: Some("/other".into()),
            format: Some(Format::Json),
            ..Global::default()
        };
        let m = r.merged(line);
        assert_eq!(m.store, Some("/other".into()));
        assert_eq!(m.format, Some(Format::Json));
        assert!(m.quiet);
        let m = r.merged(Global::default());
        assert_eq!(m.store, Some("/nonexistent/store".into()));
    }

    #[test]
    fn exit_blank_and_comment_lines() {
        let mut r = repl();
        assert_eq!(r.line(""), Outcome::Empty);
        assert_eq!(r.line("   # a comment"), Outcome::Empty);
        assert_eq!(r.line("exit"), Outcome::Exit(None));
        assert_eq!(r.line("quit 4"), Outcome::Exit(Some(4)));
        assert_eq!(r.line("exit four"), Outcome::Ran(2));
        assert_eq!(r.line("set n x 'open"), Outcome::Ran(2));
        assert_eq!(r.line("no-such-command"), Outcome::Ran(2));
        assert_eq!(r.line("repl"), Outcome::Ran(2));
    }

    #[test]
    fn scripts_stop_at_the_first_failure_unless_told_to_go_on() {
        let lines = ["# comment", "", "exit 0"];
        let mut it = lines.iter().map(|s| s.to_string());
        assert_eq!(repl().script(|| Ok(it.next()), false), 0);

        let lines = ["no-such-command", "exit 7"];
        let mut it = lines.iter().map(|s| s.to_string());
        assert_eq!(repl().script(|| Ok(it.next()), false), 2);
        let mut it = lines.iter().map(|s| s.to_string());
        assert_eq!(repl().script(|| Ok(it.next()), true), 7);

        let lines = ["no-such-command", "status"];
        let mut it = lines.iter().map(|s| s.to_string());
        // status fails too (no store): the first failure's code wins.
        assert_eq!(repl().script(|| Ok(it.next()), true), 2);

        let lines = ["set n x 'open", "still open"];
        let mut it = lines.iter().map(|s| s.to_string());
        assert_eq!(repl().script(|| Ok(it.next()), false), 2);
    }
}
