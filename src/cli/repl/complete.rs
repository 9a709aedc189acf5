//! Completion and hints for REPL lines. The grammar is the clap tree itself:
//! this walks it (commands, flags, positionals and their values), so nothing
//! here lists a command or a flag a second time. What a value may be comes
//! from the argument: its possible values when clap has them, else the
//! short table in [`value_kind`] (node ids, phases, edge ids, …), whose
//! names come from a [`Source`] (the store, in the REPL).

use super::words::{self, Split};
use crate::model::NodeKind;
use clap::{Arg, Command};
use std::path::Path;

/// What the names of one plan look like to completion.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PlanNames {
    pub(crate) plan_id: String,
    pub(crate) state: String,
    pub(crate) revision: u64,
    /// Node ids with their kind and, for select nodes, their case labels.
    pub(crate) nodes: Vec<(String, NodeKind, Vec<String>)>,
    /// Phase names in fold order (first appearance), without `(unphased)`.
    pub(crate) phases: Vec<String>,
    /// Whether some node has no phase (then `(unphased)` is an outline key).
    pub(crate) unphased: bool,
    pub(crate) edges: Vec<String>,
}

/// Which store and plan a line is about (`--store`, `-p` on the line).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Target {
    pub(crate) store: Option<String>,
    pub(crate) plan: Option<String>,
}

/// Where completion finds names.
pub(crate) trait Source {
    fn plan_ids(&self, t: &Target) -> Vec<String>;
    fn plan(&self, t: &Target) -> Option<std::rc::Rc<PlanNames>>;
    fn tools(&self, t: &Target) -> Vec<String>;
    fn templates(&self, t: &Target) -> Vec<String>;
}

/// Words the REPL understands beyond the clap tree.
pub(crate) const REPL_WORDS: [&str; 3] = ["clear", "exit", "quit"];

/// What kind of value an argument takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueKind {
    PlanId,
    NodeId,
    /// `read KEY`: a phase, `(unphased)` or a node id.
    ReadKey,
    /// An existing phase name (`phase`, `--phase` of add-node).
    Phase,
    /// A phase name or `(unphased)` (`read --phase`).
    PhaseKey,
    EdgeId,
    Tool,
    Template,
    IssueCode,
    NodeKindName,
    /// The handle of a `connect`, from its FROM node's kind.
    Handle,
    /// A definition field of the node named by the first positional (`set`).
    Field,
    /// A value (`set VALUE`, `--arg NAME=VALUE`): `@` starts a reference.
    Value,
    /// `--def`: `@FILE` names a file.
    Def,
    Path,
    /// A plan id or a document path (`validate`).
    PlanOrPath,
    /// `diff A B`.
    Revision,
    McpTier,
    /// A model-facing tool (`tool NAME`).
    ModelTool,
    Nothing,
}

/// The value kind of `arg` of the command `cmd`. Possible values known to
/// clap win; then this table; then clap's value hint.
pub(crate) fn value_kind(cmd: &str, arg: &Arg) -> ValueKind {
    use ValueKind::*;
    let id = arg.get_id().as_str();
    let kind = match (cmd, id) {
        (_, "plan") => PlanId,
        (_, "store") => Path,
        ("use" | "remove", "id") => PlanId,
        ("set" | "set-config" | "phase" | "remove-node" | "edit", "id") => NodeId,
        ("connect", "from" | "to") => NodeId,
        ("connect", "handle") => Handle,
        ("set", "path") => Field,
        ("set", "value") => Value,
        ("add-node" | "set-config", "args") => Value,
        ("add-node" | "set-config", "def") => Def,
        ("add-node" | "set-config", "kind") => NodeKindName,
        ("add-node" | "set-config", "tool") => Tool,
        ("add-node", "phase") | ("phase", "phase") => Phase,
        ("read", "key") => ReadKey,
        ("read", "phase") => PhaseKey,
        ("read", "node") => NodeId,
        ("disconnect", "edge") => EdgeId,
        ("explain", "code") => IssueCode,
        ("instantiate", "template") => Template,
        ("validate", "args") => PlanOrPath,
        ("validate", "registry") => Path,
        ("import" | "orchestrate", "file") => Path,
        ("diff", "files") => Path,
        ("diff", "a" | "b") => Revision,
        ("init", "dir") => Path,
        ("mcp", "tier") => McpTier,
        ("tool", "name") => ModelTool,
        ("registry show", "tool") => Tool,
        _ => Nothing,
    };
    if kind != Nothing {
        return kind;
    }
    match arg.get_value_hint() {
        clap::ValueHint::FilePath | clap::ValueHint::DirPath | clap::ValueHint::AnyPath => Path,
        _ => Nothing,
    }
}

/// Candidates for the word ending at the cursor.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Completion {
    /// Byte offset where the replaced word starts.
    pub(crate) start: usize,
    /// Replacements, quoted when needed; complete words end with a space.
    pub(crate) candidates: Vec<String>,
    /// Display-only description of what comes next, when nothing completes.
    pub(crate) usage: Option<String>,
}

/// Where the walk of a line's words ended.
struct Walk<'c> {
    cmd: &'c Command,
    /// Subcommand names from the root.
    names: Vec<String>,
    target: Target,
    /// A flag waiting for its value, and how many values it still wants.
    expecting: Option<(&'c Arg, usize)>,
    /// Values given to positionals so far.
    positionals: Vec<String>,
    after_dashes: bool,
}

fn find_long<'c>(cmd: &'c Command, long: &str) -> Option<&'c Arg> {
    cmd.get_arguments().find(|a| a.get_long() == Some(long))
}

fn find_short(cmd: &Command, short: char) -> Option<&Arg> {
    cmd.get_arguments().find(|a| a.get_short() == Some(short))
}

fn wanted_values(arg: &Arg) -> usize {
    if !arg.get_action().takes_values() {
        return 0;
    }
    arg.get_num_args().map(|r| r.min_values()).unwrap_or(1)
}

fn record(target: &mut Target, arg: &Arg, value: &str) {
    match arg.get_id().as_str() {
        "plan" => target.plan = Some(value.to_string()),
        "store" => target.store = Some(value.to_string()),
        _ => {}
    }
}

fn walk<'c>(root: &'c Command, words: &[String]) -> Option<Walk<'c>> {
    let mut w = Walk {
        cmd: root,
        names: Vec::new(),
        target: Target::default(),
        expecting: None,
        positionals: Vec::new(),
        after_dashes: false,
    };
    for word in words {
        if let Some((arg, left)) = w.expecting.take() {
            record(&mut w.target, arg, word);
            if left > 1 {
                w.expecting = Some((arg, left - 1));
            }
            continue;
        }
        if !w.after_dashes && word == "--" {
            w.after_dashes = true;
            continue;
        }
        if !w.after_dashes && word.starts_with("--") {
            let body = &word[2..];
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (body, None),
            };
            if let Some(arg) = find_long(w.cmd, name) {
                match inline {
                    Some(v) => record(&mut w.target, arg, v),
                    None => {
                        let n = wanted_values(arg);
                        if n > 0 {
                            w.expecting = Some((arg, n));
                        }
                    }
                }
            }
            continue;
        }
        if !w.after_dashes && word.len() > 1 && word.starts_with('-') && !is_number(word) {
            let cluster: Vec<char> = word[1..].chars().collect();
            for (i, c) in cluster.iter().enumerate() {
                let Some(arg) = find_short(w.cmd, *c) else {
                    break;
                };
                if wanted_values(arg) > 0 {
                    let rest: String = cluster[i + 1..].iter().collect();
                    if rest.is_empty() {
                        w.expecting = Some((arg, wanted_values(arg)));
                    } else {
                        record(&mut w.target, arg, rest.trim_start_matches('='));
                    }
                    break;
                }
            }
            continue;
        }
        if w.cmd.has_subcommands() && w.positionals.is_empty() {
            let sub = w.cmd.find_subcommand(word)?;
            w.names.push(sub.get_name().to_string());
            w.cmd = sub;
            continue;
        }
        w.positionals.push(word.clone());
    }
    Some(w)
}

fn is_number(s: &str) -> bool {
    s[1..].chars().all(|c| c.is_ascii_digit() || c == '.') && s.len() > 1
}

/// The positional argument that the `n`-th positional value fills.
fn positional_at(cmd: &Command, n: usize) -> Option<&Arg> {
    for (slot, arg) in cmd.get_positionals().enumerate() {
        let many = arg
            .get_num_args()
            .map(|r| r.max_values() > 1)
            .unwrap_or(false)
            || matches!(arg.get_action(), clap::ArgAction::Append);
        if many || n == slot {
            return Some(arg);
        }
    }
    None
}

/// Completes the word that ends at `pos` in `line`. `root` must be built
/// (`Command::build`) so global flags reach every subcommand.
pub(crate) fn complete(root: &Command, line: &str, pos: usize, src: &dyn Source) -> Completion {
    let head = &line[..pos];
    let split = words::split_partial(head);
    if split.in_comment {
        return Completion {
            start: pos,
            ..Completion::default()
        };
    }
    let (prior, current, start) = current_word(&split, pos);
    let Some(w) = walk(root, &prior) else {
        return Completion {
            start,
            ..Completion::default()
        };
    };
    let cmd_name = w.names.first().map(String::as_str).unwrap_or("");
    let mut out = Completion {
        start,
        ..Completion::default()
    };
    // A flag's value.
    if let Some((arg, _)) = w.expecting {
        out.candidates = values(cmd_name, arg, &current, &w, src);
        return out;
    }
    // A flag, or a flag's value after `=`.
    if !w.after_dashes && current.starts_with('-') {
        if let Some((name, value)) = current.strip_prefix("--").and_then(|b| b.split_once('=')) {
            if let Some(arg) = find_long(w.cmd, name) {
                let prefix = format!("--{name}=");
                out.candidates = values(cmd_name, arg, value, &w, src)
                    .into_iter()
                    .map(|c| format!("{prefix}{c}"))
                    .collect();
            }
            return out;
        }
        let mut flags: Vec<String> = w
            .cmd
            .get_arguments()
            .filter(|a| !a.is_positional() && !a.is_hide_set())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .collect();
        flags.push("--help".into());
        if w.names.is_empty() {
            flags.push("--version".into());
        }
        out.candidates = finish(&current, flags, false);
        return out;
    }
    // A command (or the command `help` explains).
    if w.cmd.has_subcommands() && w.positionals.is_empty() {
        let mut names: Vec<String> = w
            .cmd
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
            .map(|c| c.get_name().to_string())
            .collect();
        if w.names.is_empty() {
            names.extend(REPL_WORDS.iter().map(|s| s.to_string()));
        }
        out.candidates = finish(&current, names, false);
        return out;
    }
    if w.names.first().map(String::as_str) == Some("help") {
        let names = root
            .get_subcommands()
            .map(|c| c.get_name().to_string())
            .collect();
        out.candidates = finish(&current, names, false);
        return out;
    }
    if let Some(arg) = positional_at(w.cmd, w.positionals.len()) {
        out.candidates = values(cmd_name, arg, &current, &w, src);
    }
    out
}

/// Splits off the word being completed: (words before it, its text, start).
fn current_word(split: &Split, pos: usize) -> (Vec<String>, String, usize) {
    let mut prior: Vec<String> = split.words.iter().map(|w| w.text.clone()).collect();
    if split.open_word {
        let last = split.words.last().expect("an open word exists");
        prior.pop();
        (prior, last.text.clone(), last.start)
    } else {
        (prior, String::new(), pos)
    }
}

/// Candidates for a value of `arg`.
fn values(cmd: &str, arg: &Arg, current: &str, w: &Walk, src: &dyn Source) -> Vec<String> {
    let possible: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| p.get_name().to_string())
        .collect();
    if !possible.is_empty() {
        return finish(current, possible, false);
    }
    let t = &w.target;
    let plan = || src.plan(t);
    let node_ids = || {
        plan()
            .map(|p| p.nodes.iter().map(|n| n.0.clone()).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    match value_kind(cmd, arg) {
        ValueKind::PlanId => finish(current, src.plan_ids(t), false),
        ValueKind::NodeId => finish(current, node_ids(), false),
        ValueKind::ReadKey | ValueKind::PhaseKey => {
            let mut keys = Vec::new();
            if let Some(p) = plan() {
                keys.extend(p.phases.iter().cloned());
                if p.unphased {
                    keys.push(crate::model::ids::UNPHASED.to_string());
                }
                if value_kind(cmd, arg) == ValueKind::ReadKey {
                    keys.extend(p.nodes.iter().map(|n| n.0.clone()));
                }
            }
            finish(current, keys, false)
        }
        ValueKind::Phase => finish(
            current,
            plan().map(|p| p.phases.clone()).unwrap_or_default(),
            false,
        ),
        ValueKind::EdgeId => finish(
            current,
            plan().map(|p| p.edges.clone()).unwrap_or_default(),
            false,
        ),
        ValueKind::Tool => finish(current, src.tools(t), false),
        ValueKind::Template => finish(current, src.templates(t), false),
        ValueKind::IssueCode => finish(
            current,
            crate::check::CHECKS
                .iter()
                .map(|c| c.code().to_string())
                .collect(),
            false,
        ),
        ValueKind::NodeKindName => finish(
            current,
            NodeKind::names().into_iter().map(String::from).collect(),
            false,
        ),
        ValueKind::Handle => {
            let from = w
                .positionals
                .first()
                .and_then(|f| plan().and_then(|p| p.nodes.iter().find(|n| &n.0 == f).cloned()));
            let handles: Vec<String> = match from {
                Some((_, kind, cases)) => kind
                    .allowed_handles()
                    .iter()
                    .flat_map(|h| {
                        if h.starts_with("case_") {
                            cases.iter().map(|c| format!("case_{c}")).collect()
                        } else {
                            vec![h.to_string()]
                        }
                    })
                    .collect(),
                None => crate::model::Handle::NAMED
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            };
            finish(current, handles, false)
        }
        ValueKind::Field => {
            let kind = w
                .positionals
                .first()
                .and_then(|n| plan().and_then(|p| p.nodes.iter().find(|x| &x.0 == n).map(|x| x.1)));
            let names = kind
                .map(|k| {
                    crate::model::shape::fields(k)
                        .iter()
                        .map(|f| f.name.to_string())
                        .collect()
                })
                .unwrap_or_default();
            finish(current, names, false)
        }
        ValueKind::Value => {
            // `--arg NAME=@ref` or a bare `@ref`.
            let (lead, rest) = match current.split_once('=') {
                Some((name, v)) if arg.get_id().as_str() == "args" => (format!("{name}="), v),
                _ => (String::new(), current),
            };
            match rest.strip_prefix('@') {
                Some(_) => finish(
                    current,
                    node_ids()
                        .into_iter()
                        .map(|n| format!("{lead}@{n}"))
                        .collect(),
                    false,
                ),
                None => Vec::new(),
            }
        }
        ValueKind::Def => match current.strip_prefix('@') {
            Some(p) => paths(p).into_iter().map(|c| format!("@{c}")).collect(),
            None if current.is_empty() => vec!["@".to_string()],
            None => Vec::new(),
        },
        ValueKind::Path => paths(current),
        ValueKind::PlanOrPath => {
            let mut c = finish(current, src.plan_ids(t), false);
            c.extend(paths(current));
            c
        }
        ValueKind::Revision => finish(
            current,
            vec!["current".to_string(), "frozen".to_string()],
            false,
        ),
        ValueKind::McpTier => finish(
            current,
            ["front", "authoring", "all"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            false,
        ),
        ValueKind::ModelTool => finish(
            current,
            crate::mcp::tools::all()
                .iter()
                .map(|t| t.name.to_string())
                .collect(),
            false,
        ),
        ValueKind::Nothing => Vec::new(),
    }
}

/// Keeps the names that extend `current`, deduplicated in order, quoted when
/// needed, each followed by a space (unless `open`, for a prefix such as a
/// folder).
fn finish(current: &str, names: Vec<String>, open: bool) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    names
        .into_iter()
        .filter(|n| n.starts_with(current))
        .filter(|n| seen.insert(n.clone()))
        .map(|n| {
            let mut q = words::quote(&n);
            if !open {
                q.push(' ');
            }
            q
        })
        .collect()
}

/// File and folder names that extend `partial` (relative to the working
/// folder, or absolute). Folders end with `/` and take no space.
pub(crate) fn paths(partial: &str) -> Vec<String> {
    let (dir, stem) = match partial.rfind('/') {
        Some(i) => (&partial[..=i], &partial[i + 1..]),
        None => ("", partial),
    };
    let read_from = if dir.is_empty() {
        Path::new(".")
    } else {
        Path::new(dir)
    };
    let Ok(entries) = std::fs::read_dir(read_from) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for e in entries.flatten() {
        let Ok(name) = e.file_name().into_string() else {
            continue;
        };
        if !name.starts_with(stem) || (name.starts_with('.') && !stem.starts_with('.')) {
            continue;
        }
        let is_dir = e.path().is_dir();
        let full = format!("{dir}{name}");
        let mut q = words::quote(&full);
        q.push(if is_dir { '/' } else { ' ' });
        if is_dir && q.starts_with('\'') {
            // A quoted folder: keep the quote open so the path can go on.
            q = format!("'{}/", full.replace('\'', r"'\''"));
        }
        out.push(q);
    }
    out.sort();
    out
}

/// A hint for the end of the line: the rest of the only candidate (which
/// the right arrow accepts), or the arguments still to come.
pub(crate) fn hint(
    root: &Command,
    line: &str,
    pos: usize,
    src: &dyn Source,
) -> Option<(String, bool)> {
    if pos != line.len() || line.trim().is_empty() {
        return None;
    }
    let split = words::split_partial(line);
    if split.in_comment || split.incomplete.is_some() {
        return None;
    }
    if split.open_word {
        let c = complete(root, line, pos, src);
        let typed = &line[c.start..];
        if let [only] = c.candidates.as_slice() {
            let only = only.trim_end();
            if only.len() > typed.len() && only.starts_with(typed) {
                return Some((only[typed.len()..].to_string(), true));
            }
        }
        return None;
    }
    let words: Vec<String> = split.words.iter().map(|w| w.text.clone()).collect();
    let w = walk(root, &words)?;
    if w.names.is_empty() || w.expecting.is_some() {
        return None;
    }
    let rest: Vec<String> = w
        .cmd
        .get_positionals()
        .skip(w.positionals.len())
        .map(|a| {
            let name = a
                .get_value_names()
                .and_then(|v| v.first())
                .map(|s| s.to_string())
                .unwrap_or_else(|| a.get_id().as_str().to_uppercase());
            if a.is_required_set() {
                name
            } else {
                format!("[{name}]")
            }
        })
        .collect();
    (!rest.is_empty()).then(|| (rest.join(" "), false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;
    use std::rc::Rc;

    struct Fake;
    impl Source for Fake {
        fn plan_ids(&self, _: &Target) -> Vec<String> {
            vec!["plan-alpha".into(), "plan-beta".into()]
        }
        fn plan(&self, t: &Target) -> Option<Rc<PlanNames>> {
            let id = t.plan.clone().unwrap_or_else(|| "plan-alpha".into());
            let nodes = if id == "plan-beta" {
                vec![("other".to_string(), NodeKind::Join, vec![])]
            } else {
                vec![
                    ("first_step".to_string(), NodeKind::Entry, vec![]),
                    ("fetch".to_string(), NodeKind::Call, vec![]),
                    (
                        "route".to_string(),
                        NodeKind::Select,
                        vec!["big".to_string(), "small".to_string()],
                    ),
                ]
            };
            Some(Rc::new(PlanNames {
                plan_id: id,
                state: "editable".into(),
                revision: 3,
                nodes,
                phases: vec!["Phase One".into(), "act".into()],
                unphased: true,
                edges: vec!["first_step__fetch".into()],
            }))
        }
        fn tools(&self, _: &Target) -> Vec<String> {
            vec!["tickets_get".into(), "report_fetch".into()]
        }
        fn templates(&self, _: &Target) -> Vec<String> {
            Vec::new()
        }
    }

    fn root() -> Command {
        let mut c = crate::cli::Cli::command();
        c.build();
        c
    }

    fn cands(line: &str) -> Vec<String> {
        complete(&root(), line, line.len(), &Fake).candidates
    }

    #[test]
    fn commands_and_repl_words() {
        assert_eq!(cands("rea"), ["read "]);
        assert!(cands("").contains(&"add-node ".to_string()));
        assert!(cands("ex").contains(&"exit ".to_string()));
        assert!(cands("ex").contains(&"explain ".to_string()));
        assert!(cands("help con").contains(&"connect ".to_string()));
        assert!(cands("nonsense x").is_empty());
    }

    #[test]
    fn node_ids_phases_edges_and_unphased() {
        assert_eq!(cands("read fir"), ["first_step "]);
        let keys = cands("read ");
        assert_eq!(
            keys,
            [
                "'Phase One' ",
                "act ",
                "(unphased) ",
                "first_step ",
                "fetch ",
                "route "
            ]
        );
        assert_eq!(cands("read --phase 'Ph"), ["'Phase One' "]);
        assert_eq!(cands("read --phase P"), ["'Phase One' "]);
        assert_eq!(cands("phase fetch "), ["'Phase One' ", "act "]);
        assert_eq!(cands("disconnect fi"), ["first_step__fetch "]);
        assert_eq!(cands("connect first_step fe"), ["fetch "]);
        assert_eq!(cands("-p plan-beta read o"), ["other "]);
        assert_eq!(cands("read --plan=plan-beta o"), ["other "]);
    }

    #[test]
    fn flags_and_their_values() {
        let f = cands("add-node x --k");
        assert_eq!(f, ["--kind "]);
        assert!(cands("connect a b --").contains(&"--handle ".to_string()));
        assert!(cands("connect a b --").contains(&"--plan ".to_string()));
        assert_eq!(cands("add-node x --kind se"), ["select "]);
        assert_eq!(cands("add-node x --tool tic"), ["tickets_get "]);
        assert_eq!(cands("--format j"), ["json "]);
        assert_eq!(cands("status --color=n"), ["--color=never "]);
        assert_eq!(cands("use plan-b"), ["plan-beta "]);
        assert_eq!(cands("explain dangling"), ["dangling_edge "]);
        assert_eq!(
            cands("connect route x --handle case_"),
            ["case_big ", "case_small "]
        );
        assert_eq!(cands("set fetch to"), ["tool "]);
        assert_eq!(cands("set fetch args.x @fe"), ["@fetch "]);
        assert_eq!(cands("add-node y --kind call --arg a=@ro"), ["a=@route "]);
        assert_eq!(cands("diff cur"), ["current "]);
        assert_eq!(cands("tool add_n"), ["add_node "]);
    }

    #[test]
    fn files_after_at() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("fetch.yaml"), "{}").unwrap();
        std::fs::create_dir(dir.path().join("defs")).unwrap();
        let base = dir.path().display().to_string();
        let got = cands(&format!("add-node x --kind call --def @{base}/fe"));
        assert_eq!(got, [format!("@{base}/fetch.yaml ")]);
        let got = cands(&format!("add-node x --kind call --def @{base}/d"));
        assert_eq!(got, [format!("@{base}/defs/")]);
        let got = cands(&format!("import {base}/f"));
        assert_eq!(got, [format!("{base}/fetch.yaml ")]);
    }

    #[test]
    fn hints_show_the_only_candidate_or_what_comes_next() {
        let r = root();
        assert_eq!(
            hint(&r, "read fir", 8, &Fake),
            Some(("st_step".to_string(), true))
        );
        assert_eq!(
            hint(&r, "connect ", 8, &Fake),
            Some(("FROM TO".to_string(), false))
        );
        assert_eq!(
            hint(&r, "connect a ", 10, &Fake),
            Some(("TO".to_string(), false))
        );
        assert_eq!(hint(&r, "status ", 7, &Fake), None);
        assert_eq!(hint(&r, "", 0, &Fake), None);
    }
}
