use crate::cli::{Reply, Session};
use crate::error::Result;
use crate::render::status;
use clap::Args;

/// Check the plan and make it reviewable (read-only).
///
/// Run every check; with no blocking issue the plan becomes reviewable
/// (read-only), bound to the digest that was checked. Exit 1 when refused.
/// There is no dry run: `validate` is the read-only check.
#[derive(Args, Debug, Clone)]
pub struct FreezeArgs {}

pub fn run(s: &mut Session, _a: FreezeArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let f = forge.freeze(&plan)?;
    let exit = if f.frozen { 0 } else { 1 };
    Ok(Reply::new(status::freeze_text(&f), status::freeze_json(&f)).exit(exit))
}
