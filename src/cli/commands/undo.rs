use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Undo your latest change to the plan by appending its inverse; repeat to
/// walk further back.
#[derive(Args, Debug, Clone)]
pub struct UndoArgs {}

pub fn run(_s: &mut Session, _a: UndoArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge undo` is not available in this build yet",
    ))
}
