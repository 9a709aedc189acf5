use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Error;
use crate::model::error::Result;
use clap::Args;

/// Set one field of a node's definition.
///
/// PATH is a dot path relative to the
/// definition (`tool`, `args.ticket`); VALUE is JSON, a reference (@node,
/// @node.path, @node[last].path, @node[all], @node[2].path) or a plain
/// string. Write a literal string starting with @ as JSON: '"@home"'.
#[derive(Args, Debug, Clone)]
pub(crate) struct SetArgs {
    /// The node id
    pub(crate) id: String,
    /// The field's dot path
    pub(crate) path: String,
    /// The new value
    #[arg(allow_hyphen_values = true)]
    pub(crate) value: String,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: SetArgs) -> Result<Reply> {
    let value = crate::wire::shorthand::value(&a.value)
        .map_err(|e| Error::invalid(format!("the value {:?}: {}", a.value, e)))?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(
        s,
        &forge.set_node_field(&plan, &a.id, &a.path, value, a.expect.expect_rev)?,
    ))
}
