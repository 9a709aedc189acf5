use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Create a plan from a template.
///
/// Create a plan from a template, filling its params.
#[derive(Args, Debug, Clone)]
pub struct InstantiateArgs {
    /// The template id
    pub template: String,
    /// A param value, NAME=VALUE; repeatable
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub args: Vec<String>,
    /// The new plan's id [default: a fresh one]
    #[arg(long)]
    pub id: Option<String>,
}

pub fn run(_s: &mut Session, _a: InstantiateArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge instantiate` is not available in this build yet",
    ))
}
