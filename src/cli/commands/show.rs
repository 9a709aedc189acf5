use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use crate::render::node::Audience;
use crate::render::prose::{self, Header};
use clap::{Args, ValueEnum};

#[derive(ValueEnum, Debug, Clone, Copy, Default)]
pub(crate) enum AudienceArg {
    #[default]
    Model,
    Operator,
}

/// Render the whole plan as prose.
///
/// Render the whole plan as prose: every node in full, in the order a run
/// meets them, then the unreachable ones. The operator view spells
/// references as provenance and ends with the total authority requested.
/// For a large plan, prefer `outline` and `read`.
#[derive(Args, Debug, Clone)]
pub(crate) struct ShowArgs {
    /// Who reads it
    #[arg(long, value_enum, default_value_t = AudienceArg::Model)]
    pub(crate) audience: AudienceArg,
    /// Show the plan as it was at this revision
    #[arg(long, value_name = "N")]
    pub(crate) rev: Option<u64>,
}

pub(crate) fn run(s: &mut Session, a: ShowArgs) -> Result<Reply> {
    s.require_format("show", &[Format::Text, Format::Json])?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    // The current revision comes from the snapshot (no fold of the whole
    // log); an earlier one is folded from the log.
    let p = match a.rev {
        None => forge.store().load(&plan)?,
        rev => forge.store().load_at(&plan, rev)?,
    };
    let audience = match a.audience {
        AudienceArg::Model => Audience::Model,
        AudienceArg::Operator => Audience::Operator,
    };
    let header = Header {
        digest: p.digest(),
        state: Some(p.meta.state.as_str()),
        label: p.meta.label.as_deref(),
        request: p.meta.request.as_deref(),
    };
    let render = || prose::render(p.content(), &header, audience);
    Ok(Reply::for_format(
        s.format(),
        render,
        || serde_json::json!({"planId": p.plan_id, "revision": p.revision(), "digest": p.digest(), "text": render()}),
    ))
}
