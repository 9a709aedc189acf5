//! Handlers of the read-only authoring tools. Prose for reading, JSON in
//! wire form for the three `raw_*` views.

use super::{Args, Outcome};
use crate::error::{Error, ErrorKind, Result};
use crate::forge::Forge;
use crate::render;
use crate::render::node::Audience;

pub(super) fn get_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let p = f.load(a.str("planId")?)?;
    let audience = match a.opt_str("audience") {
        Some("operator") => Audience::Operator,
        _ => Audience::Model,
    };
    let header = render::prose::Header {
        digest: &p.digest,
        state: Some(p.meta.state.as_str()),
        label: p.meta.label.as_deref(),
        request: p.meta.request.as_deref(),
    };
    Ok(Outcome::text(render::prose::render(
        p.content(),
        &header,
        audience,
    )))
}

pub(super) fn validate_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let p = f.load(a.str("planId")?)?;
    let report = f.check(&p)?;
    let mut out = vec![
        format!(
            "Validation of {} (rev {}, {}): {}.",
            p.plan_id,
            p.revision(),
            p.state(),
            render::issues::counts(&report.counts())
        ),
        render::issues::list(&report.issues),
    ];
    if let Some(s) = crate::check::skipped_summary(&report.skipped) {
        out.push(format!("Note: some checks were {s}."));
    }
    Ok(Outcome::text(out.join("\n")))
}

pub(super) fn plan_status(f: &Forge, a: &Args) -> Result<Outcome> {
    let st = f.status(a.str("planId")?)?;
    Ok(Outcome::text(render::status::status_text(&st)))
}

pub(super) fn raw_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let p = f.store().load_at(a.str("planId")?, a.opt_u64("revision"))?;
    Ok(Outcome::raw(crate::wire::codec::raw_json(
        p.content(),
        &p.digest,
    )))
}

pub(super) fn raw_ops(f: &Forge, a: &Args) -> Result<Outcome> {
    let p = f
        .store()
        .load_at(a.str("planId")?, a.opt_u64("throughRevision"))?;
    let since = a.opt_u64("sinceLamport");
    let ops: Vec<serde_json::Value> = p
        .ops
        .iter()
        .filter(|o| since.is_none_or(|s| o.lamport > s))
        .map(crate::wire::codec::op_json)
        .collect();
    Ok(Outcome::raw(
        serde_json::json!({"planId": p.plan_id, "ops": ops}),
    ))
}

pub(super) fn raw_diff(_f: &Forge, _a: &Args) -> Result<Outcome> {
    Err(Error::internal(
        "raw_diff is not available in this build yet",
    ))
}

pub(super) fn plan_outline(_f: &Forge, _a: &Args) -> Result<Outcome> {
    Err(Error::internal(
        "plan_outline is not available in this build yet",
    ))
}

pub(super) fn plan_read(_f: &Forge, _a: &Args) -> Result<Outcome> {
    Err(Error::internal(
        "plan_read is not available in this build yet",
    ))
}

pub(super) fn explain_issue(_f: &Forge, a: &Args) -> Result<Outcome> {
    let code = a.str("code")?;
    let Some(check) = crate::check::by_code(code) else {
        let codes: Vec<&str> = crate::check::CHECKS.iter().map(|c| c.code()).collect();
        return Err(Error::new(
            ErrorKind::UnknownKey,
            format!(
                "there is no issue code `{}`{}",
                crate::model::ids::quote_id(code),
                crate::model::suggest::did_you_mean(code, codes.iter().copied())
            ),
        )
        .with_help(format!(
            "codes: {}",
            crate::model::suggest::choices(code, codes.iter().copied())
        )));
    };
    Ok(Outcome::text(format!(
        "# {} ({})\n\n{}",
        check.code(),
        check.severity().as_str(),
        check.doc().trim()
    )))
}
