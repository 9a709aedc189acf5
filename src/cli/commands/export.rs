use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Write the plan as a plan document (JSON or YAML).
///
/// Write the plan as a plan document (JSON by default, or --format yaml),
/// with its state, revision and digest; references in wire form.
/// --no-digest leaves the digest out, for a document kept in a repository
/// and edited by hand: `import` and `validate` check a digest against the
/// content, so any edit of a document that has one fails with
/// digest_mismatch.
#[derive(Args, Debug, Clone)]
pub(crate) struct ExportArgs {
    /// Export the plan as it was at this revision
    #[arg(long, value_name = "N")]
    pub(crate) rev: Option<u64>,
    /// Leave the digest out (a document to edit by hand)
    #[arg(long)]
    pub(crate) no_digest: bool,
}

pub(crate) fn run(s: &mut Session, a: ExportArgs) -> Result<Reply> {
    let format = s.require_format("export", &[Format::Text, Format::Json, Format::Yaml])?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let doc = forge.export(&plan, a.rev, !a.no_digest)?;
    Ok(Reply::raw(match format {
        Format::Yaml => crate::wire::json::yaml(&doc),
        _ => crate::wire::json::pretty(&doc),
    }))
}
