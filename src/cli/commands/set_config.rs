use super::echo_reply;
use crate::cli::node_flags::DefFlags;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Replace a node's whole definition.
///
/// Replace a node's whole definition (from --def and field flags). The kind
/// cannot change.
#[derive(Args, Debug, Clone)]
pub(crate) struct SetConfigArgs {
    /// The node id
    pub(crate) id: String,
    /// The node's kind, as a check [default: the node's current kind]
    #[arg(long, value_name = "KIND")]
    pub(crate) kind: Option<crate::model::NodeKind>,
    #[command(flatten)]
    pub(crate) def: DefFlags,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: SetConfigArgs) -> Result<Reply> {
    let definition = a.def.definition()?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let kind = match &a.kind {
        Some(k) => *k,
        None => {
            let loaded = forge.load(&plan)?;
            loaded
                .content()
                .node(&a.id)
                .map(|n| n.kind)
                .ok_or_else(|| crate::forge::unknown_node(&loaded, &a.id))?
        }
    };
    Ok(echo_reply(
        s,
        &forge.set_node_config(&plan, &a.id, kind, definition, a.expect.expect_rev)?,
    ))
}
