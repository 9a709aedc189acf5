use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Draw the plan as a Graphviz (--format dot) or Mermaid (--format mermaid)
/// diagram: phases as clusters, handles as edge labels, error edges dashed.
#[derive(Args, Debug, Clone)]
pub struct GraphArgs {}

pub fn run(_s: &mut Session, _a: GraphArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge graph` is not available in this build yet",
    ))
}
