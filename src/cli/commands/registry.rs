use crate::cli::{Reply, Session};
use crate::forge::registry_edit::{NewTool, parse_returns};
use crate::model::error::{Error, ErrorKind, Result};
use crate::model::registry::ToolEntry;
use crate::render::registry as view;
use clap::{Args, Subcommand};

/// List, show or add the tools calls may invoke.
///
/// The store's registry (registry.yaml) is the one allowlist of tools a
/// call node may invoke. `add` appends a tool to it, keeping the file's
/// comments and layout; a refusal (a tool already there, a bad value)
/// writes nothing, and the file is replaced whole or not at all.
#[derive(Args, Debug, Clone)]
pub(crate) struct RegistryArgs {
    #[command(subcommand)]
    pub(crate) action: Action,
}

#[derive(Subcommand, Debug, Clone)]
pub(crate) enum Action {
    /// List the tools
    List,
    /// Show one tool
    Show {
        /// The tool name
        tool: String,
    },
    /// Add a tool to registry.yaml
    Add(AddArgs),
}

#[derive(Args, Debug, Clone)]
pub(crate) struct AddArgs {
    /// The tool name: lowercase letters, digits and `_`
    pub(crate) tool: String,
    /// What it returns: text, bytes, media, or artifact:CLASS
    #[arg(long, value_name = "KIND")]
    pub(crate) returns: String,
    /// One line shown in messages
    #[arg(long)]
    pub(crate) summary: Option<String>,
    /// An arg every call must pass; repeatable
    #[arg(long = "required-arg", value_name = "ARG")]
    pub(crate) required_args: Vec<String>,
    /// It starts a subagent
    #[arg(long)]
    pub(crate) spawns_agent: bool,
    /// The arg listing the tools a spawned subagent may use
    #[arg(long, value_name = "ARG")]
    pub(crate) tools_arg: Option<String>,
    /// An arg whose value names the artifact the call writes; repeatable
    #[arg(long = "writes", value_name = "ARG")]
    pub(crate) writes: Vec<String>,
}

pub(crate) fn run(s: &mut Session, a: RegistryArgs) -> Result<Reply> {
    let forge = s.forge()?;
    match a.action {
        Action::List => {
            let (path, reg) = forge.registry_file()?;
            let src = path.display().to_string();
            Ok(Reply::new(
                view::list_text(&src, &reg),
                view::list_json(&src, &reg),
            ))
        }
        Action::Show { tool } => {
            let (path, reg) = forge.registry_file()?;
            let e = reg.tool(&tool).ok_or_else(|| {
                Error::new(
                    ErrorKind::UnknownKey,
                    format!(
                        "the registry {} has no tool `{}`{}",
                        path.display(),
                        crate::model::ids::quote_id(&tool),
                        crate::model::suggest::did_you_mean(&tool, reg.tool_names())
                    ),
                )
                .with_help("planforge registry list lists them")
            })?;
            Ok(Reply::new(
                view::show_text(&tool, e),
                view::tool_json(&tool, e),
            ))
        }
        Action::Add(add) => {
            let t = NewTool {
                name: add.tool.clone(),
                entry: ToolEntry {
                    summary: add.summary.clone(),
                    returns: Some(parse_returns(&add.tool, &add.returns)?),
                    required_args: add.required_args.clone(),
                    spawns_agent: add.spawns_agent,
                    tools_arg: add.tools_arg.clone(),
                    writes: add.writes.clone(),
                },
            };
            let (path, reg) = forge.registry_add(&t)?;
            let e = reg.tool(&t.name).expect("added");
            Ok(Reply::new(
                format!(
                    "Added tool {} to {}.\n{}",
                    t.name,
                    path.display(),
                    view::show_text(&t.name, e)
                ),
                view::tool_json(&t.name, e),
            ))
        }
    }
}
