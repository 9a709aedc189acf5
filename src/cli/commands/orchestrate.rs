use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Turn a task decomposition into an orchestration plan.
///
/// Turn a task decomposition (roles, tasks, synthesis) into an orchestration
/// plan: classify coupling, choose one bounded mechanism, emit the plan.
#[derive(Args, Debug, Clone)]
pub struct OrchestrateArgs {
    /// The decomposition (YAML or JSON)
    pub file: String,
    /// Print the plan without storing it
    #[arg(long)]
    pub print: bool,
    /// The new plan's id [default: a fresh one]
    #[arg(long)]
    pub id: Option<String>,
}

pub fn run(_s: &mut Session, _a: OrchestrateArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge orchestrate` is not available in this build yet",
    ))
}
