use crate::cli::{Format, Reply, Session};
use crate::forge::read::ReadKey;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::render::read;
use clap::Args;

/// Read one slice of the plan by a key the outline printed.
///
/// KEY is a phase name, `(unphased)`, or a node id, exactly as printed.
/// The slice names its phase, renders every node in it in full with its
/// edges, lists each edge that crosses its border (edge id, from, to,
/// handle) so you can keep linking without the outline, and the issues on
/// its nodes. A key that is both a phase and a node id needs --phase or
/// --node. In JSON, `edges` are the edges inside the slice and `boundary`
/// those that cross it.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["key", "phase", "node"])))]
pub(crate) struct ReadArgs {
    /// A phase name, `(unphased)`, or a node id, exactly as the outline prints it
    pub(crate) key: Option<String>,
    /// Read this phase (`(unphased)` or "" for the nodes without one)
    #[arg(long, value_name = "PHASE")]
    pub(crate) phase: Option<String>,
    /// Read this node
    #[arg(long, value_name = "ID")]
    pub(crate) node: Option<String>,
    /// Print at most N bytes of prose (1024 to 1048576): nodes in full while
    /// they fit, then the ids of the others. JSON holds the whole slice (as
    /// `validate` lists every finding in JSON)
    #[arg(long, value_name = "N", default_value_t = crate::model::budget::READ as u64)]
    pub(crate) max_bytes: u64,
}

pub(crate) fn run(s: &mut Session, a: ReadArgs) -> Result<Reply> {
    s.require_format("read", &[Format::Text, Format::Json])?;
    let key = match (a.key, a.phase, a.node) {
        (Some(k), None, None) => ReadKey::Auto(k),
        (None, Some(p), None) => ReadKey::Phase(p),
        (None, None, Some(n)) => ReadKey::Node(n),
        _ => {
            return Err(
                Error::invalid("`read` takes one key: KEY, --phase PHASE or --node ID").with_help(
                    "for example `planforge read gather` or `planforge read --node fetch`",
                ),
            );
        }
    };
    let budget = crate::model::budget::requested(Some(a.max_bytes), 0)
        .map_err(|why| Error::invalid(format!("--max-bytes: {why}")))?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let slice = forge.read(&plan, key)?;
    Ok(Reply::for_format(
        s.format(),
        || read::text(&slice, &s.voice(&slice.plan_id), budget),
        || read::json(&slice),
    ))
}
