use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::Bounds;
use crate::model::error::Error;
use crate::model::error::Result;
use clap::Args;

/// Print or set the plan's bounds.
///
/// Print the plan's bounds, or set them: flags not given keep their current
/// values. Bounds are content: digested and approved.
#[derive(Args, Debug, Clone)]
pub(crate) struct BoundsArgs {
    /// Most nodes the plan may hold
    #[arg(long, value_name = "N")]
    pub(crate) max_nodes: Option<u64>,
    /// Most edges the plan may hold
    #[arg(long, value_name = "N")]
    pub(crate) max_edges: Option<u64>,
    /// Most node executions in one run
    #[arg(long, value_name = "N")]
    pub(crate) max_steps: Option<u64>,
    /// Most executions at the same time
    #[arg(long, value_name = "N")]
    pub(crate) max_concurrent_frames: Option<u64>,
    /// Most bytes of the plan's canonical encoding
    #[arg(long, value_name = "N")]
    pub(crate) max_encoded_bytes: Option<u64>,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: BoundsArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let given = [
        a.max_nodes,
        a.max_edges,
        a.max_steps,
        a.max_concurrent_frames,
        a.max_encoded_bytes,
    ];
    let current = forge.load(&plan)?.content().bounds;
    if given.iter().all(Option::is_none) {
        let text = current
            .members()
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join("\n");
        return Ok(Reply::new(
            text,
            serde_json::json!({"planId": plan, "bounds": crate::wire::codec::bounds_json(&current)}),
        ));
    }
    let mut vals = [0u64; 5];
    for (i, ((name, cur), g)) in current.members().iter().zip(given).enumerate() {
        vals[i] = match g {
            Some(v) => crate::wire::codec::checked_bound(v).ok_or_else(|| {
                Error::invalid(format!(
                    "{name} must be a whole number from 1 to 9007199254740991, not {v}"
                ))
            })?,
            None => *cur,
        };
    }
    Ok(echo_reply(
        s,
        &forge.set_bounds(&plan, Bounds::from_members(vals), a.expect.expect_rev)?,
    ))
}
