//! One file per command. This enum and `dispatch` are the only places a
//! command is listed.

use super::{Reply, Session};
use crate::model::error::Result;
use clap::Subcommand;

pub(crate) mod add_node;
pub(crate) mod author;
pub(crate) mod bounds;
pub(crate) mod clone;
pub(crate) mod completions;
pub(crate) mod connect;
pub(crate) mod create;
pub(crate) mod diff;
pub(crate) mod disconnect;
pub(crate) mod edit;
pub(crate) mod explain;
pub(crate) mod export;
pub(crate) mod freeze;
pub(crate) mod graph;
pub(crate) mod import;
pub(crate) mod init;
pub(crate) mod instantiate;
pub(crate) mod list;
pub(crate) mod log;
pub(crate) mod lsp;
pub(crate) mod mcp;
pub(crate) mod ops;
pub(crate) mod orchestrate;
pub(crate) mod outline;
pub(crate) mod phase;
pub(crate) mod raw;
pub(crate) mod read;
pub(crate) mod redo;
pub(crate) mod registry;
pub(crate) mod remove;
pub(crate) mod remove_node;
pub(crate) mod repl;
pub(crate) mod schema;
pub(crate) mod set;
pub(crate) mod set_config;
pub(crate) mod show;
pub(crate) mod status;
pub(crate) mod submit;
pub(crate) mod templates;
pub(crate) mod tool;
pub(crate) mod undo;
pub(crate) mod unfreeze;
pub(crate) mod upgrade;
pub(crate) mod use_plan;
pub(crate) mod validate;
pub(crate) mod validate_folders;

/// Every command; each one's help is the doc comment of its Args struct.
#[derive(Subcommand, Debug, Clone)]
pub(crate) enum Command {
    Init(init::InitArgs),
    List(list::ListArgs),
    Use(use_plan::UseArgs),
    Create(create::CreateArgs),
    Remove(remove::RemoveArgs),
    Author(author::AuthorArgs),
    Status(status::StatusArgs),
    Show(show::ShowArgs),
    Outline(outline::OutlineArgs),
    Read(read::ReadArgs),
    AddNode(add_node::AddNodeArgs),
    SetConfig(set_config::SetConfigArgs),
    Set(set::SetArgs),
    Phase(phase::PhaseArgs),
    Connect(connect::ConnectArgs),
    Disconnect(disconnect::DisconnectArgs),
    RemoveNode(remove_node::RemoveNodeArgs),
    Bounds(bounds::BoundsArgs),
    Edit(edit::EditArgs),
    Undo(undo::UndoArgs),
    Redo(redo::RedoArgs),
    Validate(validate::ValidateArgs),
    Freeze(freeze::FreezeArgs),
    Unfreeze(unfreeze::UnfreezeArgs),
    Upgrade(upgrade::UpgradeArgs),
    Submit(submit::SubmitArgs),
    Clone(clone::CloneArgs),
    Diff(diff::DiffArgs),
    Raw(raw::RawArgs),
    Log(log::LogArgs),
    Ops(ops::OpsArgs),
    Export(export::ExportArgs),
    Import(import::ImportArgs),
    Graph(graph::GraphArgs),
    Templates(templates::TemplatesArgs),
    Instantiate(instantiate::InstantiateArgs),
    Orchestrate(orchestrate::OrchestrateArgs),
    Explain(explain::ExplainArgs),
    Schema(schema::SchemaArgs),
    Tool(tool::ToolArgs),
    Mcp(mcp::McpArgs),
    Lsp(lsp::LspArgs),
    Registry(registry::RegistryArgs),
    Repl(repl::ReplArgs),
    Completions(completions::CompletionsArgs),
}

impl Command {
    /// Whether the command writes to the plan or the store.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Command::Init(_) => "init",
            Command::List(_) => "list",
            Command::Use(_) => "use",
            Command::Create(_) => "create",
            Command::Remove(_) => "remove",
            Command::Author(_) => "author",
            Command::Status(_) => "status",
            Command::Show(_) => "show",
            Command::Outline(_) => "outline",
            Command::Read(_) => "read",
            Command::AddNode(_) => "add-node",
            Command::SetConfig(_) => "set-config",
            Command::Set(_) => "set",
            Command::Phase(_) => "phase",
            Command::Connect(_) => "connect",
            Command::Disconnect(_) => "disconnect",
            Command::RemoveNode(_) => "remove-node",
            Command::Bounds(_) => "bounds",
            Command::Edit(_) => "edit",
            Command::Undo(_) => "undo",
            Command::Redo(_) => "redo",
            Command::Validate(_) => "validate",
            Command::Freeze(_) => "freeze",
            Command::Unfreeze(_) => "unfreeze",
            Command::Upgrade(_) => "upgrade",
            Command::Submit(_) => "submit",
            Command::Clone(_) => "clone",
            Command::Diff(_) => "diff",
            Command::Raw(_) => "raw",
            Command::Log(_) => "log",
            Command::Ops(_) => "ops",
            Command::Export(_) => "export",
            Command::Import(_) => "import",
            Command::Graph(_) => "graph",
            Command::Templates(_) => "templates",
            Command::Instantiate(_) => "instantiate",
            Command::Orchestrate(_) => "orchestrate",
            Command::Explain(_) => "explain",
            Command::Schema(_) => "schema",
            Command::Tool(_) => "tool",
            Command::Mcp(_) => "mcp",
            Command::Lsp(_) => "lsp",
            Command::Registry(_) => "registry",
            Command::Repl(_) => "repl",
            Command::Completions(_) => "completions",
        }
    }
}

/// Whether the command checks `--format` against a list of its own (it
/// prints documents, diagrams or CI formats), or runs a session that does
/// (`mcp`, `repl`). A test keeps this list equal to the commands whose file
/// calls `require_format`.
fn own_formats(c: &Command) -> bool {
    OWN_FORMATS.contains(&c.name())
}

const OWN_FORMATS: [&str; 19] = [
    "author",
    "completions",
    "diff",
    "explain",
    "export",
    "graph",
    "instantiate",
    "ops",
    "orchestrate",
    "outline",
    "raw",
    "read",
    "schema",
    "show",
    "templates",
    "tool",
    "validate",
    "mcp",
    "repl",
];

/// Runs a command.
pub(crate) fn dispatch(s: &mut Session, command: Command) -> Result<Reply> {
    // Commands that print only prose or JSON refuse the other formats
    // before anything runs (the others check their own list).
    if !own_formats(&command) {
        s.require_format(
            command.name(),
            &[crate::cli::Format::Text, crate::cli::Format::Json],
        )?;
    }
    match command {
        Command::Init(a) => init::run(s, a),
        Command::List(a) => list::run(s, a),
        Command::Use(a) => use_plan::run(s, a),
        Command::Create(a) => create::run(s, a),
        Command::Remove(a) => remove::run(s, a),
        Command::Author(a) => author::run(s, a),
        Command::Status(a) => status::run(s, a),
        Command::Show(a) => show::run(s, a),
        Command::Outline(a) => outline::run(s, a),
        Command::Read(a) => read::run(s, a),
        Command::AddNode(a) => add_node::run(s, a),
        Command::SetConfig(a) => set_config::run(s, a),
        Command::Set(a) => set::run(s, a),
        Command::Phase(a) => phase::run(s, a),
        Command::Connect(a) => connect::run(s, a),
        Command::Disconnect(a) => disconnect::run(s, a),
        Command::RemoveNode(a) => remove_node::run(s, a),
        Command::Bounds(a) => bounds::run(s, a),
        Command::Edit(a) => edit::run(s, a),
        Command::Undo(a) => undo::run(s, a),
        Command::Redo(a) => redo::run(s, a),
        Command::Validate(a) => validate::run(s, a),
        Command::Freeze(a) => freeze::run(s, a),
        Command::Unfreeze(a) => unfreeze::run(s, a),
        Command::Upgrade(a) => upgrade::run(s, a),
        Command::Submit(a) => submit::run(s, a),
        Command::Clone(a) => clone::run(s, a),
        Command::Diff(a) => diff::run(s, a),
        Command::Raw(a) => raw::run(s, a),
        Command::Log(a) => log::run(s, a),
        Command::Ops(a) => ops::run(s, a),
        Command::Export(a) => export::run(s, a),
        Command::Import(a) => import::run(s, a),
        Command::Graph(a) => graph::run(s, a),
        Command::Templates(a) => templates::run(s, a),
        Command::Instantiate(a) => instantiate::run(s, a),
        Command::Orchestrate(a) => orchestrate::run(s, a),
        Command::Explain(a) => explain::run(s, a),
        Command::Schema(a) => schema::run(s, a),
        Command::Tool(a) => tool::run(s, a),
        Command::Mcp(a) => mcp::run(s, a),
        Command::Lsp(a) => lsp::run(s, a),
        Command::Registry(a) => registry::run(s, a),
        Command::Repl(a) => repl::run(s, a),
        Command::Completions(a) => completions::run(s, a),
    }
}

/// The echo of a mutation as a reply.
pub(crate) fn echo_reply(s: &Session, echo: &crate::forge::Echo) -> Reply {
    Reply::new(
        crate::render::echo::text(echo, &s.voice(&echo.plan_id)),
        crate::render::echo::json(echo),
    )
}

pub(crate) use crate::wire::parse::MAX_INPUT_BYTES;

/// Reads text from a path, or stdin for `-`, up to [`MAX_INPUT_BYTES`].
pub(crate) fn read_input(path: &str) -> Result<String> {
    use crate::model::error::Error;
    use crate::wire::parse::{Unread, read_text};
    let name = if path == "-" { "standard input" } else { path };
    let read = if path == "-" {
        read_text(std::io::stdin(), 0)
    } else {
        std::fs::File::open(path)
            .map_err(Unread::Io)
            .and_then(|f| read_text(&f, f.metadata().map_or(0, |m| m.len())))
    };
    read.map_err(|why| match why {
        Unread::Io(e) => Error::invalid(format!("could not read {name}: {e}")),
        Unread::TooLarge => Error::invalid(format!(
            "{name} is larger than {} MiB, more than any plan document or value planforge reads",
            MAX_INPUT_BYTES / (1024 * 1024)
        )),
        Unread::NotUtf8(at) => Error::invalid(format!(
            "{name} is not valid UTF-8 (first bad byte at offset {at}); plans are UTF-8 text"
        )),
    })
}

#[cfg(test)]
mod format_tests {
    /// The commands exempt from the prose-or-JSON rule are exactly those
    /// that check the format themselves (and the two sessions).
    #[test]
    fn own_formats_are_the_commands_that_check_them() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/cli/commands");
        let mut checking: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.file_stem().is_some_and(|s| s != "mod"))
            .filter(|p| {
                std::fs::read_to_string(p)
                    .unwrap()
                    .contains("require_format(")
            })
            .map(|p| p.file_stem().unwrap().to_string_lossy().replace('_', "-"))
            .collect();
        checking.extend(["mcp".to_string(), "repl".to_string()]);
        checking.sort();
        let mut own: Vec<String> = super::OWN_FORMATS.iter().map(|s| s.to_string()).collect();
        own.sort();
        assert_eq!(own, checking);
    }
}
