use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use crate::render::outline;
use clap::Args;

/// One flat outline of the plan: phases, node ids, tools, issue counts.
///
/// One flat outline of the plan: an entry per phase in order of first
/// appearance, then `(unphased)`; each with its node ids, the tool of each
/// call, its open-issue count and a one-line summary.
///
/// Every key the outline prints (a phase name, `(unphased)`, or a node id)
/// is what `planforge read` takes, as printed. On a terminal the outline is a
/// table; otherwise one aligned line per entry.
#[derive(Args, Debug, Clone)]
pub(crate) struct OutlineArgs {}

pub(crate) fn run(s: &mut Session, _a: OutlineArgs) -> Result<Reply> {
    let format = s.require_format("outline", &[Format::Text, Format::Json])?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let o = forge.outline(&plan)?;
    let width = (format == Format::Text && stdout_is_terminal())
        .then(outline::terminal_width)
        .flatten();
    Ok(Reply::for_format(
        format,
        || match width {
            Some(w) => outline::table(&o, w),
            None => outline::text(&o),
        },
        || outline::json(&o),
    ))
}

fn stdout_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal()
}
