//! One file per command. This enum and `dispatch` are the only places a
//! command is listed.

use super::{Reply, Session};
use crate::error::Result;
use clap::Subcommand;

pub mod add_node;
pub mod author;
pub mod bounds;
pub mod clone;
pub mod completions;
pub mod connect;
pub mod create;
pub mod diff;
pub mod disconnect;
pub mod edit;
pub mod explain;
pub mod export;
pub mod freeze;
pub mod graph;
pub mod import;
pub mod init;
pub mod instantiate;
pub mod list;
pub mod mcp;
pub mod ops;
pub mod orchestrate;
pub mod outline;
pub mod phase;
pub mod raw;
pub mod read;
pub mod remove;
pub mod remove_node;
pub mod repl;
pub mod set;
pub mod set_config;
pub mod show;
pub mod status;
pub mod submit;
pub mod templates;
pub mod tool;
pub mod undo;
pub mod unfreeze;
pub mod use_plan;
pub mod validate;

#[derive(Subcommand, Debug, Clone)]
pub enum Command {
    /// Create a plan store (default ./plans) with its registry and git files
    Init(init::InitArgs),
    /// List the plans in the store
    List(list::ListArgs),
    /// Make a plan the store's current plan
    Use(use_plan::UseArgs),
    /// Create an empty editable plan
    Create(create::CreateArgs),
    /// Delete a plan from the store
    Remove(remove::RemoveArgs),
    /// Start a plan from an owner's request, kept verbatim
    Author(author::AuthorArgs),
    /// Show a plan's state, revision, digest and issue counts
    Status(status::StatusArgs),
    /// Render the whole plan as prose
    Show(show::ShowArgs),
    /// One flat outline of the plan: phases, node ids, tools, issue counts
    Outline(outline::OutlineArgs),
    /// Read one slice of the plan by an outline key (phase or node id)
    Read(read::ReadArgs),
    /// Add a node
    AddNode(add_node::AddNodeArgs),
    /// Replace a node's whole definition
    SetConfig(set_config::SetConfigArgs),
    /// Set one field of a node's definition
    Set(set::SetArgs),
    /// Set or clear a node's phase
    Phase(phase::PhaseArgs),
    /// Connect two nodes with an edge
    Connect(connect::ConnectArgs),
    /// Remove an edge
    Disconnect(disconnect::DisconnectArgs),
    /// Remove a node and its edges
    RemoveNode(remove_node::RemoveNodeArgs),
    /// Print or set the plan's bounds
    Bounds(bounds::BoundsArgs),
    /// Edit one node as YAML in $VISUAL / $EDITOR
    Edit(edit::EditArgs),
    /// Undo your latest change to the plan
    Undo(undo::UndoArgs),
    /// Check plans or plan documents (for CI)
    Validate(validate::ValidateArgs),
    /// Check the plan and make it reviewable (read-only)
    Freeze(freeze::FreezeArgs),
    /// Make a reviewable plan editable again
    Unfreeze(unfreeze::UnfreezeArgs),
    /// Freeze and approve the plan: it becomes executable, forever
    Submit(submit::SubmitArgs),
    /// Copy a plan (or its first revisions) into a new editable plan
    Clone(clone::CloneArgs),
    /// Compare two revisions of a plan, or two plan documents
    Diff(diff::DiffArgs),
    /// Print the plan's content as JSON (wire form)
    Raw(raw::RawArgs),
    /// Print the plan's op log
    Ops(ops::OpsArgs),
    /// Write the plan as a plan document (JSON or YAML)
    Export(export::ExportArgs),
    /// Create a plan from a plan document
    Import(import::ImportArgs),
    /// Draw the plan as a Graphviz or Mermaid diagram
    Graph(graph::GraphArgs),
    /// List the plan templates
    Templates(templates::TemplatesArgs),
    /// Create a plan from a template
    Instantiate(instantiate::InstantiateArgs),
    /// Turn a task decomposition into an orchestration plan
    Orchestrate(orchestrate::OrchestrateArgs),
    /// Explain an issue code
    Explain(explain::ExplainArgs),
    /// Run one model-facing tool call
    Tool(tool::ToolArgs),
    /// Serve the model-facing tools over MCP (stdio)
    Mcp(mcp::McpArgs),
    /// Interactive shell: every line is a planforge command
    Repl(repl::ReplArgs),
    /// Print a shell completion script
    Completions(completions::CompletionsArgs),
}

impl Command {
    /// Whether the command writes to the plan or the store.
    pub fn name(&self) -> &'static str {
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
            Command::Validate(_) => "validate",
            Command::Freeze(_) => "freeze",
            Command::Unfreeze(_) => "unfreeze",
            Command::Submit(_) => "submit",
            Command::Clone(_) => "clone",
            Command::Diff(_) => "diff",
            Command::Raw(_) => "raw",
            Command::Ops(_) => "ops",
            Command::Export(_) => "export",
            Command::Import(_) => "import",
            Command::Graph(_) => "graph",
            Command::Templates(_) => "templates",
            Command::Instantiate(_) => "instantiate",
            Command::Orchestrate(_) => "orchestrate",
            Command::Explain(_) => "explain",
            Command::Tool(_) => "tool",
            Command::Mcp(_) => "mcp",
            Command::Repl(_) => "repl",
            Command::Completions(_) => "completions",
        }
    }
}

/// Runs a command.
pub fn dispatch(s: &mut Session, command: Command) -> Result<Reply> {
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
        Command::Validate(a) => validate::run(s, a),
        Command::Freeze(a) => freeze::run(s, a),
        Command::Unfreeze(a) => unfreeze::run(s, a),
        Command::Submit(a) => submit::run(s, a),
        Command::Clone(a) => clone::run(s, a),
        Command::Diff(a) => diff::run(s, a),
        Command::Raw(a) => raw::run(s, a),
        Command::Ops(a) => ops::run(s, a),
        Command::Export(a) => export::run(s, a),
        Command::Import(a) => import::run(s, a),
        Command::Graph(a) => graph::run(s, a),
        Command::Templates(a) => templates::run(s, a),
        Command::Instantiate(a) => instantiate::run(s, a),
        Command::Orchestrate(a) => orchestrate::run(s, a),
        Command::Explain(a) => explain::run(s, a),
        Command::Tool(a) => tool::run(s, a),
        Command::Mcp(a) => mcp::run(s, a),
        Command::Repl(a) => repl::run(s, a),
        Command::Completions(a) => completions::run(s, a),
    }
}

/// The echo of a mutation as a reply.
pub fn echo_reply(echo: &crate::forge::Echo) -> Reply {
    Reply::new(
        crate::render::echo::text(echo),
        crate::render::echo::json(echo),
    )
}

/// Reads text from a path, or stdin for `-`.
pub fn read_input(path: &str) -> Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| {
            crate::error::Error::invalid(format!("could not read standard input: {e}"))
        })?;
    } else {
        bytes = std::fs::read(path)
            .map_err(|e| crate::error::Error::invalid(format!("could not read {path}: {e}")))?;
    }
    String::from_utf8(bytes).map_err(|e| {
        crate::error::Error::invalid(format!(
            "{} is not valid UTF-8 (first bad byte at offset {}); plans are UTF-8 text",
            if path == "-" { "standard input" } else { path },
            e.utf8_error().valid_up_to()
        ))
    })
}
