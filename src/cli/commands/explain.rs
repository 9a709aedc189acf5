use crate::cli::{Format, Reply, Session};
use crate::forge::explain;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::render;
use clap::Args;

/// Explain an issue code, or a topic.
///
/// Explain an issue code: what it finds, why it matters, how to fix it, with
/// an example. --all explains every code; --format json gives {code,
/// severity, summary, explanation, source} (with --all, {codes: [...]}).
/// The topic `orchestrate` says, for each of seed 003's steps, failure
/// classes and Output fields, which node, edge, check or refusal of an
/// orchestrated plan carries it, and which decompositions select each
/// mechanism row; it is read from docs/orchestration.md (--format json:
/// {topic, title, source, tables: [{title, columns, rows}]}). An unknown
/// code exits 2 and names the nearest one.
#[derive(Args, Debug, Clone)]
pub(crate) struct ExplainArgs {
    /// The issue code, or the topic `orchestrate`
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
    if let Some(t) = explain::topic(&code) {
        return Ok(Reply::new(
            render::explain::topic_text(&t),
            render::explain::topic_json(&t),
        ));
    }
    let e = explain::explain(&code)?;
    Ok(Reply::new(
        render::explain::text(&e),
        render::explain::json(&e),
    ))
}
