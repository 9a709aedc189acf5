use crate::cli::{Reply, Session};
use crate::error::{Error, Result};
use clap::Args;

/// List the plan templates.
///
/// List the plan templates (built in and in the store) with their params.
#[derive(Args, Debug, Clone)]
pub struct TemplatesArgs {}

pub fn run(_s: &mut Session, _a: TemplatesArgs) -> Result<Reply> {
    Err(Error::internal(
        "`planforge templates` is not available in this build yet",
    ))
}
