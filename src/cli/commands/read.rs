use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Read one slice of the plan by a key the outline printed: a phase name,
/// `(unphased)`, or a node id. The slice carries its boundary edges.
#[derive(Args, Debug, Clone)]
pub struct ReadArgs {
    /// A phase name, `(unphased)`, or a node id
    pub key: Option<String>,
    /// Read KEY as a phase
    #[arg(long, value_name = "PHASE")]
    pub phase: Option<String>,
    /// Read KEY as a node id
    #[arg(long, value_name = "ID")]
    pub node: Option<String>,
}

pub fn run(_s: &mut Session, _a: ReadArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge read` is not available in this build yet",
    ))
}
