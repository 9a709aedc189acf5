//! Help as git and kubectl print it: the top-level help lists the commands
//! by topic, every command's help ends with EXAMPLES, and the global options
//! have a section of their own. `command()` is the clap tree with all of it,
//! used to parse, to complete and to write the man pages.

use clap::CommandFactory;

/// The topics of the top-level help, in order, each with its commands.
pub(crate) const TOPICS: [(&str, &[&str]); 7] = [
    (
        "Authoring",
        &[
            "create",
            "author",
            "add-node",
            "set",
            "set-config",
            "phase",
            "connect",
            "disconnect",
            "remove-node",
            "bounds",
            "edit",
            "undo",
            "redo",
        ],
    ),
    (
        "Reading",
        &[
            "status", "show", "outline", "read", "log", "diff", "graph", "raw", "ops", "explain",
        ],
    ),
    (
        "Lifecycle",
        &["validate", "freeze", "unfreeze", "submit", "clone"],
    ),
    ("Documents", &["export", "import", "schema", "lsp"]),
    ("Templates", &["templates", "instantiate", "orchestrate"]),
    ("Model tools", &["tool", "mcp"]),
    (
        "Store and shell",
        &[
            "init",
            "list",
            "use",
            "remove",
            "registry",
            "upgrade",
            "repl",
            "completions",
            "help",
        ],
    ),
];

/// Each command's examples: the command line, then what it does.
pub(crate) const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "init",
        &[
            (
                "planforge init",
                "a store in ./plans: registry.yaml, templates/, git files",
            ),
            (
                "planforge --store ci/plans init",
                "a store in another folder",
            ),
        ],
    ),
    (
        "list",
        &[
            (
                "planforge list",
                "the plans; * marks the one commands act on",
            ),
            ("planforge --format json list", "the same as JSON"),
        ],
    ),
    (
        "use",
        &[(
            "planforge use plan-hello",
            "later commands act on plan-hello",
        )],
    ),
    (
        "create",
        &[(
            "planforge create plan-hello --label \"Write a note\"",
            "an empty editable plan, now current",
        )],
    ),
    (
        "remove",
        &[
            (
                "planforge remove plan-old",
                "asks, then deletes plan-old and its history",
            ),
            (
                "planforge remove plan-old --yes",
                "without asking (scripts)",
            ),
        ],
    ),
    (
        "author",
        &[(
            "planforge author \"Summarise the open tickets every Monday\"",
            "a plan started from the request, kept verbatim",
        )],
    ),
    (
        "status",
        &[
            ("planforge status", "state, revision, digest, issue counts"),
            (
                "planforge -p plan-hello --format json status",
                "another plan, as JSON",
            ),
        ],
    ),
    (
        "show",
        &[
            (
                "planforge show",
                "the whole plan as prose (paged on a terminal)",
            ),
            ("planforge show --no-pager", "printed directly"),
        ],
    ),
    (
        "outline",
        &[(
            "planforge outline",
            "one line per phase: the table of contents",
        )],
    ),
    (
        "read",
        &[
            (
                "planforge read gather",
                "one phase, with the edges crossing its border",
            ),
            ("planforge read --node fetch", "one node"),
        ],
    ),
    (
        "add-node",
        &[
            (
                "planforge add-node start --kind entry --input topic:string:200",
                "the entry, with one run input",
            ),
            (
                "planforge add-node fetch --kind call --phase gather --tool read_artifact --arg path=notes/a.md --output content:string --authority files/notes/read --replay-safe --on-indeterminate retry --on-missing-value fail",
                "a complete call",
            ),
            (
                "planforge add-node summarise --kind reason --phase act --prompt \"Summarise:\" --prompt @fetch.content --max-attempts 2",
                "a reason step reading fetch's output",
            ),
        ],
    ),
    (
        "set-config",
        &[(
            "planforge set-config fetch --def @fetch.yaml",
            "replace fetch's definition from a file",
        )],
    ),
    (
        "set",
        &[
            ("planforge set fetch args.path notes/b.md", "one field"),
            (
                "planforge set fetch authority files/notes/read,files/notes/list",
                "the shorthands of add-node",
            ),
            (
                "planforge set summarise prompt.1 @fetch[all].content",
                "a reference",
            ),
            (
                "planforge set fetch args.encoding utf-8 --add",
                "a new field next to one it looks like",
            ),
        ],
    ),
    (
        "phase",
        &[
            ("planforge phase fetch gather", "move fetch to phase gather"),
            ("planforge phase fetch --clear", "make it unphased"),
        ],
    ),
    (
        "connect",
        &[
            ("planforge connect start fetch", "an edge on `always`"),
            (
                "planforge connect check notify --handle match",
                "on a branch outcome",
            ),
        ],
    ),
    (
        "disconnect",
        &[(
            "planforge disconnect start__fetch",
            "remove the edge by its id",
        )],
    ),
    (
        "remove-node",
        &[
            (
                "planforge remove-node fetch",
                "asks, then removes fetch and its edges",
            ),
            (
                "planforge remove-node fetch --yes",
                "without asking (scripts)",
            ),
        ],
    ),
    (
        "bounds",
        &[
            ("planforge bounds", "print the bounds"),
            ("planforge bounds --max-nodes 512", "raise one"),
        ],
    ),
    (
        "edit",
        &[
            ("planforge edit fetch", "fetch as YAML in $VISUAL / $EDITOR"),
            (
                "planforge edit fetch --from /tmp/planforge-edit-fetch-x.yaml",
                "reopen a copy an edit kept",
            ),
        ],
    ),
    (
        "undo",
        &[
            ("planforge undo", "take back your latest change"),
            (
                "planforge undo --expect-rev 12",
                "only if the plan is at revision 12",
            ),
        ],
    ),
    ("redo", &[("planforge redo", "take back your latest undo")]),
    (
        "validate",
        &[
            ("planforge validate", "the current plan"),
            (
                "planforge validate --all --format github",
                "every stored plan, as GitHub annotations",
            ),
            (
                "planforge validate --registry plans/registry.yaml docs/plans/a.json",
                "a document, offline",
            ),
        ],
    ),
    (
        "freeze",
        &[("planforge freeze", "check and make the plan reviewable")],
    ),
    ("unfreeze", &[("planforge unfreeze", "editable again")]),
    (
        "upgrade",
        &[(
            "planforge upgrade",
            "bring every plan to the current format",
        )],
    ),
    (
        "submit",
        &[
            (
                "planforge submit",
                "asks, then approves: executable for good",
            ),
            (
                "planforge submit --yes --by release-bot",
                "without asking, as another actor",
            ),
        ],
    ),
    (
        "clone",
        &[
            ("planforge clone plan-hello2", "copy the current plan"),
            (
                "planforge -p plan-hello clone plan-old --at 3",
                "the plan as it was at revision 3 (see log)",
            ),
        ],
    ),
    (
        "diff",
        &[
            (
                "planforge diff",
                "the frozen revision (else 0) against the current one",
            ),
            ("planforge diff 4 7", "two revisions, as log numbers them"),
            ("planforge diff a.json b.json", "two documents"),
        ],
    ),
    (
        "raw",
        &[(
            "planforge raw --rev 4",
            "the content at revision 4, as JSON",
        )],
    ),
    (
        "log",
        &[
            ("planforge log", "one line per change, newest first"),
            ("planforge log -n 5", "the five newest"),
            (
                "planforge --format json log --reverse",
                "oldest first, as JSON",
            ),
        ],
    ),
    (
        "ops",
        &[("planforge ops", "the raw op log, one JSON line per op")],
    ),
    (
        "export",
        &[
            ("planforge export > plan.json", "the plan as a document"),
            (
                "planforge export --no-digest --format yaml",
                "for hand editing",
            ),
        ],
    ),
    (
        "import",
        &[
            (
                "planforge import plan.json",
                "a new editable plan from a document",
            ),
            (
                "planforge import plan.yaml --id plan-copy",
                "under another id",
            ),
        ],
    ),
    (
        "graph",
        &[
            ("planforge graph --format dot", "a Graphviz diagram"),
            ("planforge graph --format mermaid", "a Mermaid one"),
        ],
    ),
    (
        "templates",
        &[("planforge templates", "the templates and their params")],
    ),
    (
        "instantiate",
        &[(
            "planforge instantiate single --arg role=researcher --arg goal=\"Find sources\"",
            "a plan from the template single",
        )],
    ),
    (
        "orchestrate",
        &[(
            "planforge orchestrate task.yaml",
            "an orchestration plan from a decomposition",
        )],
    ),
    (
        "explain",
        &[
            (
                "planforge explain tainted_call_arg",
                "what it finds, why it matters, how to fix it",
            ),
            ("planforge explain --all", "every code"),
        ],
    ),
    (
        "schema",
        &[("planforge schema", "the JSON Schema of plan documents")],
    ),
    (
        "tool",
        &[
            (
                "planforge tool list_plans",
                "one model-facing tool call, from the shell",
            ),
            (
                "planforge tool outline '{\"planId\": \"plan-hello\"}'",
                "with arguments",
            ),
        ],
    ),
    (
        "mcp",
        &[(
            "planforge --store \"$PWD/plans\" mcp",
            "serve the tools over stdio (register it with an MCP client)",
        )],
    ),
    (
        "lsp",
        &[(
            "planforge lsp",
            "a language server for plan documents over stdio (start it from your editor)",
        )],
    ),
    (
        "repl",
        &[(
            "planforge repl",
            "a shell where every line is a planforge command",
        )],
    ),
    (
        "completions",
        &[(
            "planforge completions bash",
            "the bash script (completes plan ids, node ids and phases)",
        )],
    ),
    (
        "registry",
        &[
            ("planforge registry list", "the tools calls may invoke"),
            ("planforge registry show read_artifact", "one tool"),
            (
                "planforge registry add fetch_page --returns text --summary \"Fetch one web page\" --required-arg url",
                "allow a new tool",
            ),
        ],
    ),
    (
        "registry list",
        &[
            (
                "planforge registry list",
                "each tool, what it returns, its summary",
            ),
            ("planforge --format json registry list", "the same as JSON"),
        ],
    ),
    (
        "registry show",
        &[(
            "planforge registry show spawn_subagent",
            "one tool: returns, required args, tools arg, writes",
        )],
    ),
    (
        "registry add",
        &[
            (
                "planforge registry add fetch_page --returns text --summary \"Fetch one web page\" --required-arg url",
                "a tool returning text that needs `url`",
            ),
            (
                "planforge registry add report_fetch --returns artifact:json_document",
                "a tool returning an artifact of a class the registry declares",
            ),
            (
                "planforge registry add run_helper --returns text --spawns-agent --tools-arg tools --required-arg tools",
                "a tool that starts a subagent",
            ),
        ],
    ),
];

/// The width the help wraps at (`max_term_width` of the clap tree).
const HELP_WIDTH: usize = 100;

/// An example command as the help prints it: indented, and a line too long
/// for the help broken at spaces with ` \` as a shell continues it, so it
/// is never wrapped mid-command.
fn example_line(line: &str) -> String {
    let room = HELP_WIDTH - 4;
    // Shell words, a quoted string being one word.
    let mut words: Vec<String> = vec![String::new()];
    let mut quote = None;
    for ch in line.chars() {
        match (quote, ch) {
            (None, ' ') => words.push(String::new()),
            (None, '"' | '\'') => quote = Some(ch),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        if quote.is_some() || ch != ' ' {
            words.last_mut().expect("one word").push(ch);
        }
    }
    let mut out = String::from("  ");
    let mut col = 2;
    for (i, word) in words.iter().enumerate() {
        let len = word.chars().count();
        if i > 0 && col + 1 + len + 2 > room {
            out.push_str(" \\\n      ");
            col = 6;
        } else if i > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += len;
    }
    out
}

/// The EXAMPLES section of `name`'s help.
pub(crate) fn examples(name: &str) -> Option<String> {
    let (_, ex) = EXAMPLES.iter().find(|(n, _)| *n == name)?;
    let mut out = String::from("Examples:\n");
    for (line, what) in ex.iter() {
        out.push_str(&format!("  # {what}\n{}\n", example_line(line)));
    }
    Some(out)
}

/// The top-level list of commands, by topic.
fn topics(cmd: &clap::Command) -> String {
    let width = cmd
        .get_subcommands()
        .map(|c| c.get_name().len())
        .max()
        .unwrap_or(0)
        + 2;
    let mut out = String::new();
    for (topic, names) in TOPICS {
        out.push_str(&format!("{topic}:\n"));
        for n in names {
            let about = if *n == "help" {
                "Print this help, or a command's help".to_string()
            } else {
                cmd.find_subcommand(n)
                    .and_then(|c| c.get_about())
                    .map(|a| a.to_string())
                    .unwrap_or_default()
            };
            out.push_str(&format!("  {n:<width$}{about}\n"));
        }
        out.push('\n');
    }
    out
}

/// The clap tree with topics, examples and the exit codes.
pub(crate) fn command() -> clap::Command {
    let mut cmd = super::Cli::command();
    let list = topics(&cmd);
    cmd = cmd.help_template(format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{list}Global options:\n{{options}}\n{{after-help}}"
    ));
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    for n in names {
        cmd = cmd.mut_subcommand(&n, |c| with_examples(c, &n));
    }
    cmd
}

/// `c` (the command `path`, `registry add` for a nested one) with its
/// examples after its help, and its subcommands' too.
fn with_examples(mut c: clap::Command, path: &str) -> clap::Command {
    if let Some(ex) = examples(path) {
        let after = match c.get_after_help() {
            Some(a) => format!("{ex}\n{a}"),
            None => ex,
        };
        c = c.after_help(after);
    }
    let subs: Vec<String> = c
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for s in subs {
        let full = format!("{path} {s}");
        c = c.mut_subcommand(&s, |sub| with_examples(sub, &full));
    }
    c
}

/// Parses a command line with [`command`].
///
/// A command line that parses is read with the bare grammar first
/// (`Cli::command()`): the topics and examples [`command`] adds show only
/// in help, and adding them to each of the ≈ 45 commands was ≈ 2.2 M
/// instructions (≈ 0.6 ms) before every command started its work. Any
/// error (help and version included) is made again with the whole
/// grammar, so that what it prints is the same.
pub(crate) fn parse<I, T>(args: I) -> Result<super::Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    parse_with(super::Cli::command(), args.iter().cloned()).or_else(|_| parse_with(command(), args))
}

/// Parses a command line with `grammar` (a [`command`], or a copy of one).
pub(crate) fn parse_with<I, T>(grammar: clap::Command, args: I) -> Result<super::Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::FromArgMatches;
    let mut m = grammar.try_get_matches_from(args)?;
    super::Cli::from_arg_matches_mut(&mut m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command line reads the same through [`parse`] (the bare grammar
    /// first) as through the whole grammar, and an error prints the same.
    #[test]
    fn the_bare_grammar_first_reads_and_refuses_as_the_whole() {
        let lines: [&[&str]; 9] = [
            &["planforge", "status"],
            &[
                "planforge",
                "--store",
                "s",
                "-p",
                "x",
                "connect",
                "a",
                "b",
                "--id",
                "e",
            ],
            &["planforge", "--help"],
            &["planforge", "connect", "--help"],
            &["planforge", "help", "registry"],
            &["planforge", "--version"],
            &["planforge", "conect", "a", "b"],
            &["planforge", "connect", "a"],
            &["planforge"],
        ];
        for line in lines {
            let whole = parse_with(command(), line.iter().copied());
            match (parse(line.iter().copied()), whole) {
                (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{line:?}"),
                (Err(a), Err(b)) => {
                    assert_eq!(a.kind(), b.kind(), "{line:?}");
                    assert_eq!(a.render().to_string(), b.render().to_string(), "{line:?}");
                }
                (a, b) => panic!("{line:?}: {:?} against {:?}", a.is_ok(), b.is_ok()),
            }
        }
        let help = parse(["planforge", "connect", "--help"]).unwrap_err();
        assert!(
            help.render().to_string().contains("Examples"),
            "examples in help"
        );
        // Every command's and subcommand's help.
        let cmd = command();
        for c in cmd.get_subcommands() {
            let mut paths = vec![vec![c.get_name()]];
            paths.extend(
                c.get_subcommands()
                    .map(|s| vec![c.get_name(), s.get_name()]),
            );
            for path in paths {
                let line: Vec<&str> = ["planforge"]
                    .into_iter()
                    .chain(path)
                    .chain(["--help"])
                    .collect();
                let (a, b) = (
                    parse(line.iter().copied()),
                    parse_with(command(), line.iter().copied()),
                );
                let (Err(a), Err(b)) = (a, b) else {
                    panic!("{line:?} is help")
                };
                assert_eq!(a.render().to_string(), b.render().to_string(), "{line:?}");
            }
        }
    }

    /// Every command is in one topic and has examples, and every example
    /// parses as the command it documents.
    #[test]
    fn topics_and_examples_cover_every_command_and_parse() {
        let cmd = command();
        let mut names: Vec<&str> = cmd.get_subcommands().map(|c| c.get_name()).collect();
        names.push("help");
        let mut listed: Vec<&str> = TOPICS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        listed.sort();
        names.sort();
        assert_eq!(listed, names);
        // Every command and subcommand but `help`, by its path.
        let mut paths: Vec<String> = Vec::new();
        for c in cmd.get_subcommands() {
            paths.push(c.get_name().to_string());
            for s in c.get_subcommands().filter(|s| s.get_name() != "help") {
                paths.push(format!("{} {}", c.get_name(), s.get_name()));
            }
        }
        for n in &paths {
            let (_, ex) = EXAMPLES
                .iter()
                .find(|(e, _)| e == n)
                .unwrap_or_else(|| panic!("`{n}` has no examples"));
            for (line, _) in ex.iter() {
                let line = line.split(" > ").next().unwrap();
                let words =
                    crate::cli::repl::words::split(&line.replace("\"$PWD/plans\"", "plans"))
                        .unwrap();
                assert_eq!(words[0], "planforge");
                let cli = parse(&words).unwrap_or_else(|e| panic!("{line}: {e}"));
                let top = n.split(' ').next().unwrap();
                assert_eq!(cli.command.name(), top, "{line}");
                // A nested command's examples run that subcommand.
                if let Some(sub) = n.split(' ').nth(1) {
                    assert!(words.iter().any(|w| w == sub), "{line}");
                }
            }
        }
        assert_eq!(EXAMPLES.len(), paths.len());
    }

    /// A long example is broken with ` \` where a shell continues it,
    /// never wrapped by the help mid-command, and reads back as the same
    /// words.
    #[test]
    fn long_examples_break_as_a_shell_continues_them() {
        let (_, ex) = EXAMPLES.iter().find(|(n, _)| *n == "add-node").unwrap();
        for (line, _) in ex.iter() {
            let shown = example_line(line);
            for l in shown.lines() {
                assert!(l.chars().count() <= HELP_WIDTH - 4, "{l}");
            }
            let joined = shown.replace(" \\\n      ", " ");
            assert_eq!(joined.trim_start(), *line);
        }
        assert!(
            ex.iter().any(|(l, _)| example_line(l).contains(" \\\n")),
            "some add-node example is long"
        );
    }
}
