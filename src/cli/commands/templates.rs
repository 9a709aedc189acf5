use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use crate::render::templates;
use clap::Args;

/// List the plan templates.
///
/// List the plan templates (built in and in the store) with their params.
#[derive(Args, Debug, Clone)]
pub(crate) struct TemplatesArgs {}

pub(crate) fn run(s: &mut Session, _a: TemplatesArgs) -> Result<Reply> {
    s.require_format("templates", &[Format::Text, Format::Json])?;
    let forge = s.forge()?;
    let list = forge.templates()?;
    let refused = list.iter().any(|t| !t.usable());
    let reply = Reply::new(
        templates::list_text(&list, &crate::cli::voice::CliVoice::default()),
        templates::list_json(&list),
    );
    // A refused template is a finding against the store's templates: exit 1.
    Ok(if refused { reply.exit(1) } else { reply })
}
