use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// Edit one node as YAML in $VISUAL / $EDITOR; saving applies the change as
/// one step. A parse or shape error reopens the file with the error on top;
/// an emptied file aborts.
#[derive(Args, Debug, Clone)]
pub struct EditArgs {
    /// The node id
    pub id: String,
}

pub fn run(_s: &mut Session, _a: EditArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge edit` is not available in this build yet",
    ))
}
