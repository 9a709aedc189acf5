use crate::cli::{Reply, Session};
use crate::model::error::Result;
use crate::render::status;
use clap::Args;

/// Check the plan and make it reviewable (read-only).
///
/// Run every check; with no blocking issue the plan becomes reviewable
/// (read-only), bound to the digest that was checked. Exit 1 when refused.
/// There is no dry run: `validate` is the read-only check.
#[derive(Args, Debug, Clone)]
pub(crate) struct FreezeArgs {}

pub(crate) fn run(s: &mut Session, _a: FreezeArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let f = forge.freeze(&plan)?;
    if f.frozen {
        return Ok(Reply::new(
            status::freeze_text(&f, &s.voice(&plan)),
            status::freeze_json(&f),
        ));
    }
    // Refused: each blocking issue is also drawn on stderr, in the plan's
    // export text (text mode only).
    let diagnostics = if s.format() == crate::cli::Format::Text {
        let located = forge.locate(&plan, f.report.clone())?;
        crate::render::diagnostics::blocking(&located, &s.voice(&plan))
    } else {
        Vec::new()
    };
    Ok(Reply::new(
        status::freeze_text(&f, &s.voice(&plan)),
        status::freeze_json(&f),
    )
    .headline(status::refused_headline(
        &format!("Plan {plan} could not be frozen"),
        &f.report,
        diagnostics.len(),
        &s.voice(&plan),
    ))
    .diagnostics(diagnostics)
    .exit(1))
}
