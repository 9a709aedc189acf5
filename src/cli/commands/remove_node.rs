use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Remove a node and its edges.
///
/// Remove a node and every edge into or out of it, in one step. On a
/// terminal it asks first; without one it needs --yes (undo brings the node
/// back).
#[derive(Args, Debug, Clone)]
pub(crate) struct RemoveNodeArgs {
    /// The node id
    pub(crate) id: String,
    /// Do not ask (needed without a terminal)
    #[arg(long, short = 'y')]
    pub(crate) yes: bool,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: RemoveNodeArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    if !a.yes {
        let loaded = forge.load(&plan)?;
        crate::store::ensure_editable(&loaded)?;
        let node = loaded
            .content()
            .node(&a.id)
            .ok_or_else(|| crate::forge::unknown_node(&loaded, &a.id))?;
        let edges = loaded
            .content()
            .edges
            .iter()
            .filter(|e| e.from == a.id || e.to == a.id)
            .count();
        let question = format!(
            "Remove {} node `{}` and its {edges} edge(s) from {plan}?",
            node.kind, a.id
        );
        let what = format!("remove-node removes `{}` and its {edges} edge(s)", a.id);
        if !s.confirm(&question, &what, false)? {
            return Ok(Reply::new(
                format!(
                    "Not removed: `{}` is still in {plan}, and nothing was changed.",
                    a.id
                ),
                serde_json::json!({"planId": plan, "nodeId": a.id, "removed": false}),
            )
            .exit(1));
        }
    }
    Ok(echo_reply(
        s,
        &forge.remove_node(&plan, &a.id, a.expect.expect_rev)?,
    ))
}
