use crate::cli::{Format, Reply, Session};
use crate::forge::explain;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::render;
use clap::Args;

/// Explain an issue code.
///
/// Explain an issue code: what it finds, why it matters, how to fix it, with
/// an example. --all explains every code; --format json gives {code,
/// severity, summary, explanation, source} (with --all, {codes: [...]}).
/// An unknown code exits 2 and names the nearest one.
#[derive(Args, Debug, Clone)]
pub(crate) struct ExplainArgs {
    /// The issue code
    pub(crate) code: Option<String>,
    /// Explain every code
    #[arg(long, conflicts_with = "code")]
    pub(crate) all: bool,
}

pub(crate) fn run(s: &mut Session, a: ExplainArgs) -> Result<Reply> {
    s.require_format("explain", &[Format::Text, Format::Json])?;
    if a.all {
        let all = explain::explain_all();
        return Ok(Reply::new(
            render::explain::all_text(&all),
            render::explain::all_json(&all),
        ));
    }
    let Some(code) = a.code else {
        return Err(Error::invalid("name an issue code, or pass --all")
            .with_help("for example `planforge explain unknown_tool`; `planforge explain --all` lists every code"));
    };
    let e = explain::explain(&code)?;
    Ok(Reply::new(
        render::explain::text(&e),
        render::explain::json(&e),
    ))
}
