use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use crate::render::graph;
use clap::Args;

/// Draw the plan as a Graphviz or Mermaid diagram.
///
/// Draw the plan as a Graphviz (--format dot, the default) or Mermaid
/// (--format mermaid) diagram: phases as clusters, handles as edge labels,
/// error edges dashed.
///
/// Render DOT with `planforge graph | dot -Tsvg > plan.svg`.
#[derive(Args, Debug, Clone)]
pub(crate) struct GraphArgs {
    /// Draw the plan as it was at this revision
    #[arg(long, value_name = "N")]
    pub(crate) rev: Option<u64>,
}

pub(crate) fn run(s: &mut Session, a: GraphArgs) -> Result<Reply> {
    let format = s.require_format("graph", &[Format::Text, Format::Dot, Format::Mermaid])?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let p = forge.store().load_at(&plan, a.rev)?;
    Ok(Reply::raw(match format {
        Format::Mermaid => graph::mermaid(p.content()),
        _ => graph::dot(p.content()),
    }))
}
