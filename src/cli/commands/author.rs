use super::read_input;
use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use crate::render::templates;
use clap::Args;

/// Start a plan from an owner's request, kept verbatim.
///
/// Start an empty editable plan from an owner's request, kept verbatim and
/// unparsed (- reads it from stdin).
#[derive(Args, Debug, Clone)]
pub(crate) struct AuthorArgs {
    /// The request, or - for stdin
    #[arg(allow_hyphen_values = true)]
    pub(crate) request: String,
    /// The plan id [default: a fresh one]
    #[arg(long)]
    pub(crate) id: Option<String>,
}

pub(crate) fn run(s: &mut Session, a: AuthorArgs) -> Result<Reply> {
    s.require_format("author", &[Format::Text, Format::Json])?;
    // Byte for byte: nothing is trimmed, split or parsed (stdin included).
    let request = if a.request == "-" {
        read_input("-")?
    } else {
        a.request
    };
    let forge = s.forge()?;
    let p = forge.author(&request, a.id.as_deref())?;
    forge.store().set_current(&p.plan_id)?;
    Ok(Reply::new(
        format!(
            "{}\nIt is now the current plan.",
            templates::authored_text(&p, &s.voice(&p.plan_id))
        ),
        templates::authored_json(&p),
    ))
}
