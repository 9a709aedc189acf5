use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Print the plan's op log, one op per line (JSON in wire form).
#[derive(Args, Debug, Clone)]
pub struct OpsArgs {
    /// Only ops with a lamport greater than N
    #[arg(long, value_name = "N")]
    pub since_lamport: Option<u64>,
    /// Only the first REV ops
    #[arg(long, value_name = "REV")]
    pub through: Option<u64>,
}

pub fn run(_s: &mut Session, _a: OpsArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge ops` is not available in this build yet",
    ))
}
