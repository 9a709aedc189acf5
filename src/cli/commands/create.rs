use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;
use serde_json::json;

/// Create an empty editable plan.
///
/// Create an empty editable plan (revision 0, default bounds) and make it
/// the current plan.
#[derive(Args, Debug, Clone)]
pub(crate) struct CreateArgs {
    /// The plan id, `plan-<name>` [default: a fresh `plan-<uuid>`]
    pub(crate) id: Option<String>,
    /// A short label
    #[arg(long)]
    pub(crate) label: Option<String>,
}

pub(crate) fn run(s: &mut Session, a: CreateArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let p = forge.create_plan(a.id.as_deref(), a.label.as_deref(), None)?;
    forge.store().set_current(&p.plan_id)?;
    Ok(Reply::new(
        format!(
            "Created plan {} (editable, rev 0); it is now the current plan.",
            p.plan_id
        ),
        json!({"planId": p.plan_id, "state": "editable", "revision": 0, "digest": p.digest()}),
    ))
}
