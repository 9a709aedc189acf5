use crate::cli::{Reply, Session};
use crate::mcp::tools;
use crate::mcp::tools::Selection;
use crate::model::error::Result;
use clap::{Args, ValueEnum};

#[derive(ValueEnum, Debug, Clone, Copy, Default)]
pub(crate) enum TierArg {
    /// list_templates, instantiate_plan, author_plan: for a conversational agent
    Front,
    /// The graph mechanics (create_plan, add_node, … plan_read): for an authoring agent
    #[default]
    Authoring,
    /// Both tiers
    All,
}

/// Serve the model-facing tools over MCP (stdio).
///
/// An MCP client launches it and talks on stdin/stdout; only protocol
/// frames go to stdout, and the server exits when stdin closes. Tool calls
/// act as `mcp` unless --actor or PLANFORGE_ACTOR says otherwise, and never
/// change the store's current plan. docs/mcp.md shows a client
/// configuration.
#[derive(Args, Debug, Clone)]
pub(crate) struct McpArgs {
    /// Which tools to offer
    #[arg(long, value_enum, default_value_t = TierArg::Authoring)]
    pub(crate) tier: TierArg,
    /// Refuse every tool that changes plans (read-only tools still work)
    #[arg(long)]
    pub(crate) read_only: bool,
}

pub(crate) fn run(s: &mut Session, a: McpArgs) -> Result<Reply> {
    let selection = match a.tier {
        TierArg::Front => Selection::Front,
        TierArg::Authoring => Selection::Authoring,
        TierArg::All => Selection::All,
    };
    crate::mcp::server::serve(crate::mcp::server::Config {
        store: s.store()?,
        actor: tools::actor(s.global.actor.as_deref())?,
        selection,
        read_only: a.read_only,
    })?;
    Ok(Reply::raw(""))
}
