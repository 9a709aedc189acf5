use super::echo_reply;
use crate::cli::node_flags::DefFlags;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use crate::model::{Node, NodeKind};
use clap::Args;

/// Add a node.
///
/// Its definition comes from --def (JSON or YAML, @FILE, or -
/// for stdin) and from field flags. A node may be added half-written and
/// completed later with `set`; wrong types and unknown keys are refused.
#[derive(Args, Debug, Clone)]
pub(crate) struct AddNodeArgs {
    /// The node id: lowercase letters, digits and `_`
    pub(crate) id: String,
    /// The node kind
    #[arg(long, value_name = "KIND")]
    pub(crate) kind: NodeKind,
    /// The phase (a label for reading; edges alone order execution)
    #[arg(long)]
    pub(crate) phase: Option<String>,
    /// Replace an existing node with this id, in place
    #[arg(long)]
    pub(crate) replace: bool,
    /// Fill missing required strings with the placeholder `lorem ipsum`
    /// (freeze refuses it until replaced) and missing lists and objects
    /// with empty ones
    #[arg(long)]
    pub(crate) scaffold: bool,
    #[command(flatten)]
    pub(crate) def: DefFlags,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: AddNodeArgs) -> Result<Reply> {
    let kind = a.kind;
    let definition = a.def.definition()?;
    let node = Node {
        id: a.id.into(),
        phase: a.phase.filter(|p| !p.is_empty()).map(Into::into),
        kind,
        definition: definition.into(),
    };
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    Ok(echo_reply(
        s,
        &forge.add_node(
            &plan,
            node,
            crate::forge::edit::AddNode {
                replace: a.replace,
                scaffold: a.scaffold,
                expect: a.expect.expect_rev,
            },
        )?,
    ))
}
