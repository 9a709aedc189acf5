//! Shell completion through the binary itself (clap's dynamic completion):
//! the shell asks `planforge` for candidates on every Tab, so plan ids, node
//! ids, phases, edge ids, tools and templates of the store come back as they
//! are now — the same names the REPL completes. `planforge completions
//! SHELL` prints the registration script (`COMPLETE=SHELL planforge` does
//! too).

use super::repl::complete::{Source, Target, ValueKind, value_kind};
use super::repl::helper::StoreSource;
use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};

/// The store and plan the line being completed names (`-p/--plan`,
/// `--store`, `-C`), from the words after the shell's `--`; `-C` changes
/// directory, as the command itself would.
fn line_target(words: &[String]) -> Target {
    let mut t = Target {
        store: None,
        plan: None,
    };
    let line = words
        .iter()
        .position(|w| w == "--")
        .map_or(&[][..], |i| &words[i + 1..]);
    let mut it = line.iter().peekable();
    while let Some(w) = it.next() {
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (w.as_str(), None),
        };
        if !matches!(flag, "-p" | "--plan" | "--store" | "-C") {
            continue;
        }
        // bash splits `--plan=ID` into `--plan`, `=`, `ID` (`=` is in its
        // COMP_WORDBREAKS).
        if inline.is_none() && it.peek().is_some_and(|v| *v == "=") {
            it.next();
        }
        let Some(v) = inline.or_else(|| it.peek().map(|v| v.to_string())) else {
            break;
        };
        match flag {
            "-p" | "--plan" => t.plan = Some(v),
            "--store" => t.store = Some(v),
            _ => {
                let _ = std::env::set_current_dir(&v);
            }
        }
    }
    t
}

/// The store's names of one kind, starting with `prefix`.
fn names(kind: ValueKind, prefix: &str) -> Vec<CompletionCandidate> {
    let source = StoreSource::new(super::Session::new(super::Global::default()));
    let words: Vec<String> = std::env::args().collect();
    let t = line_target(&words);
    let all: Vec<String> = match kind {
        ValueKind::PlanId => source.plan_ids(&t),
        ValueKind::Tool => source.tools(&t),
        ValueKind::Template => source.templates(&t),
        ValueKind::NodeId | ValueKind::Phase | ValueKind::EdgeId | ValueKind::ReadKey => {
            let Some(p) = source.plan(&t) else {
                return Vec::new();
            };
            let nodes = p.nodes.iter().map(|(id, _, _)| id.clone());
            match kind {
                ValueKind::NodeId => nodes.collect(),
                ValueKind::Phase => p.phases.clone(),
                ValueKind::EdgeId => p.edges.clone(),
                _ => p.phases.iter().cloned().chain(nodes).collect(),
            }
        }
        ValueKind::IssueCode => crate::check::CHECKS
            .iter()
            .map(|c| c.code().to_string())
            .collect(),
        ValueKind::Revision => {
            return source
                .revisions(&t)
                .into_iter()
                .filter(|(r, _)| r.starts_with(prefix))
                .map(|(r, what)| CompletionCandidate::new(r).help(Some(what.into())))
                .collect();
        }
        _ => return Vec::new(),
    };
    all.into_iter()
        .filter(|n| n.starts_with(prefix))
        .map(CompletionCandidate::new)
        .collect()
}

/// Whether completion of `kind` asks the store.
fn from_store(kind: ValueKind) -> bool {
    matches!(
        kind,
        ValueKind::PlanId
            | ValueKind::NodeId
            | ValueKind::Phase
            | ValueKind::EdgeId
            | ValueKind::ReadKey
            | ValueKind::Tool
            | ValueKind::Template
            | ValueKind::IssueCode
            | ValueKind::Revision
    )
}

fn completer(kind: ValueKind) -> ArgValueCompleter {
    ArgValueCompleter::new(move |current: &std::ffi::OsStr| names(kind, &current.to_string_lossy()))
}

/// `cmd` with a store completer on every argument that names something in
/// the store.
pub(crate) fn with_completers(mut cmd: clap::Command) -> clap::Command {
    cmd = cmd.mut_arg("plan", |a| a.add(completer(ValueKind::PlanId)));
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for name in subs {
        cmd = cmd.mut_subcommand(&name, |sub| completers_of(sub, &name));
    }
    cmd
}

/// `sub` (the command `name`, `registry show` for a nested one) with its
/// store completers, and its subcommands' too.
fn completers_of(mut sub: clap::Command, name: &str) -> clap::Command {
    let ids: Vec<(String, ValueKind)> = sub
        .get_arguments()
        .map(|a| (a.get_id().to_string(), value_kind(name, a)))
        .filter(|(_, k)| from_store(*k))
        .collect();
    for (id, kind) in ids {
        sub = sub.mut_arg(id, |a| a.add(completer(kind)));
    }
    let nested: Vec<String> = sub
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .filter(|n| n != "help")
        .collect();
    for n in nested {
        let full = format!("{name} {n}");
        sub = sub.mut_subcommand(&n, |c| completers_of(c, &full));
    }
    sub
}

/// Answers a completion request from the shell and exits, when this run is
/// one (the `COMPLETE` environment variable is set); otherwise returns.
pub(crate) fn complete_if_asked() {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if std::env::var_os("COMPLETE").is_some_and(|s| s == "bash")
        && let Some(index) = std::env::var("_CLAP_COMPLETE_INDEX")
            .ok()
            .and_then(|i| i.parse::<usize>().ok())
        && let Some(start) = args.iter().position(|a| a == "--").map(|i| i + 1)
    {
        let (words, moved) = join_bash_equals(args.split_off(start), index);
        args.extend(words);
        if moved != index {
            // SAFETY: called first thing in `main`, before any thread is
            // started (clap_complete itself removes `COMPLETE` the same way).
            unsafe { std::env::set_var("_CLAP_COMPLETE_INDEX", moved.to_string()) };
        }
    }
    let dir = std::env::current_dir().ok();
    match clap_complete::CompleteEnv::with_factory(|| with_completers(super::help::command()))
        .completer("planforge")
        .try_complete(args, dir.as_deref())
    {
        Ok(true) => std::process::exit(0),
        Ok(false) => {}
        Err(e) => e.exit(),
    }
}

/// bash splits `--plan=ID` into the words `--plan`, `=`, `ID`, so clap
/// would read `=` as the value and `ID` as a command. Joins each such
/// triple before the word being completed (`index`) back into one word and
/// returns the words and the index of the word being completed among them.
/// A value that is itself being completed (`--phase=ga<TAB>`) stays split, as
/// bash replaces only that word.
fn join_bash_equals(
    words: Vec<std::ffi::OsString>,
    index: usize,
) -> (Vec<std::ffi::OsString>, usize) {
    let mut moved = index;
    let mut out: Vec<std::ffi::OsString> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let joins = words[i] == "="
            && i + 1 < index
            && out
                .last()
                .and_then(|f| f.to_str())
                .is_some_and(|f| f.starts_with("--") && f.len() > 2 && !f.contains('='));
        if joins {
            let flag = out.pop().expect("checked above");
            let mut w = flag;
            w.push("=");
            w.push(&words[i + 1]);
            out.push(w);
            i += 2;
            moved -= 2;
            continue;
        }
        out.push(words[i].clone());
        i += 1;
    }
    (out, moved)
}

/// The registration script of `shell` (what `COMPLETE=shell planforge`
/// prints).
pub(crate) fn registration(shell: &str) -> String {
    use clap_complete::env::EnvCompleter;
    let mut out = Vec::new();
    let r = match shell {
        "bash" => clap_complete::env::Bash.write_registration(
            "COMPLETE",
            "planforge",
            "planforge",
            "planforge",
            &mut out,
        ),
        "zsh" => clap_complete::env::Zsh.write_registration(
            "COMPLETE",
            "planforge",
            "planforge",
            "planforge",
            &mut out,
        ),
        "fish" => clap_complete::env::Fish.write_registration(
            "COMPLETE",
            "planforge",
            "planforge",
            "planforge",
            &mut out,
        ),
        "elvish" => clap_complete::env::Elvish.write_registration(
            "COMPLETE",
            "planforge",
            "planforge",
            "planforge",
            &mut out,
        ),
        _ => clap_complete::env::Powershell.write_registration(
            "COMPLETE",
            "planforge",
            "planforge",
            "planforge",
            &mut out,
        ),
    };
    r.expect("writing to a Vec does not fail");
    String::from_utf8(out).expect("registration scripts are UTF-8")
}
