//! Handlers of the read-only authoring tools. Prose for reading, JSON in
//! wire form for the three `raw_*` views.

use super::{Args, Outcome};
use crate::forge::Forge;
use crate::forge::read::ReadKey;
use crate::mcp::voice::ToolVoice;
use crate::model::Value;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::render;
use crate::render::node::Audience;

pub(super) fn get_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let p = f.load(a.str("planId")?)?;
    let audience = match a.opt_str("audience") {
        Some("operator") => Audience::Operator,
        _ => Audience::Model,
    };
    let header = render::prose::Header {
        digest: p.digest(),
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

/// The `maxBytes` a call asked for, else `default`.
fn budget_of(a: &Args, default: usize) -> Result<usize> {
    crate::model::budget::requested(a.opt_u64("maxBytes"), default)
        .map_err(|why| crate::model::error::Error::invalid(format!("`maxBytes`: {why}")))
}

pub(super) fn validate_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let plan = a.str("planId")?;
    let budget = budget_of(a, crate::model::budget::FINDINGS)?;
    let t = f.validate(plan, &crate::forge::validate::Options::default())?;
    let p = f.load(plan)?;
    let report = &t.report;
    let head = format!(
        "Validation of {} (rev {}, {}): {}.",
        p.plan_id,
        p.revision(),
        p.state(),
        render::issues::counts(&report.counts())
    );
    let note = crate::model::issue::skipped_summary(&report.skipped)
        .map(|s| format!("\nNote: some checks were {s}."))
        .unwrap_or_default();
    let more = crate::model::remedy::Remedy::ValidateWithin {
        max_bytes: (budget * 4).min(crate::model::budget::CEILING) as u64,
    };
    let list = render::issues::within(
        &report.issues,
        &ToolVoice::about(&p.plan_id),
        budget.saturating_sub(head.len() + note.len() + 1),
        &more,
    );
    Ok(Outcome::text(format!("{head}\n{list}{note}")))
}

pub(super) fn plan_status(f: &Forge, a: &Args) -> Result<Outcome> {
    let st = f.status(a.str("planId")?)?;
    Ok(Outcome::text(render::status::status_text(&st)))
}

pub(super) fn raw_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(Outcome::raw(
        f.raw(a.str("planId")?, a.opt_u64("revision"))?,
    ))
}

pub(super) fn raw_ops(f: &Forge, a: &Args) -> Result<Outcome> {
    let plan = a.str("planId")?;
    let ops = f.ops(
        plan,
        a.opt_u64("sinceLamport"),
        a.opt_u64("throughRevision"),
    )?;
    Ok(Outcome::raw(render::diff::ops_json(plan, &ops)))
}

/// A diff side: a revision number, `current` or `frozen`.
fn side(a: &Args, key: &str) -> Result<String> {
    match a.value(key)? {
        Value::String(s) => Ok(s.to_string()),
        v => v.as_u64().map(|n| n.to_string()).ok_or_else(|| {
            Error::invalid(format!(
                "`{key}` must be a revision number, \"current\" or \"frozen\", not {}",
                crate::wire::json::compact(v)
            ))
        }),
    }
}

pub(super) fn raw_diff(f: &Forge, a: &Args) -> Result<Outcome> {
    let d = f.diff(a.str("planId")?, &side(a, "a")?, &side(a, "b")?)?;
    Ok(Outcome::raw(render::diff::json(&d)))
}

pub(super) fn plan_outline(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(Outcome::text(render::outline::text(
        &f.outline(a.str("planId")?)?,
    )))
}

pub(super) fn plan_read(f: &Forge, a: &Args) -> Result<Outcome> {
    let key = match (a.get("phase"), a.opt_str("node")) {
        (Some(Value::String(p)), None) => ReadKey::Phase(p.to_string()),
        (None, Some(n)) => ReadKey::Node(n.to_string()),
        (phase, _) => {
            let which = if phase.is_some() { "both" } else { "neither" };
            return Err(Error::invalid(format!(
                "plan_read takes exactly one of `phase` and `node`, and was given {which}"
            ))
            .with_help(
                "pass {\"phase\": \"<name>\"} (or \"(unphased)\") or {\"node\": \"<id>\"}, exactly as plan_outline printed it",
            ));
        }
    };
    let budget = budget_of(a, crate::model::budget::READ)?;
    let slice = f.read(a.str("planId")?, key)?;
    Ok(Outcome::text(render::read::text(
        &slice,
        &ToolVoice::about(&slice.plan_id),
        budget,
    )))
}

pub(super) fn explain_issue(_f: &Forge, a: &Args) -> Result<Outcome> {
    let code = a.str("code")?;
    if let Some(t) = crate::forge::explain::topic(code) {
        return Ok(Outcome::text(render::explain::topic_text(&t).trim_end()));
    }
    let e = crate::forge::explain::explain(code)?;
    Ok(Outcome::text(render::explain::text(&e).trim_end()))
}
