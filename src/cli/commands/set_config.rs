use super::echo_reply;
use crate::cli::node_flags::DefFlags;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Replace a node's whole definition.
///
/// Replace a node's whole definition (from --def and field flags). The kind
/// cannot change.
#[derive(Args, Debug, Clone)]
pub(crate) struct SetConfigArgs {
    /// The node id
    pub(crate) id: String,
    /// The node's kind, as a check [default: the node's current kind]
    #[arg(long, value_name = "KIND")]
    pub(crate) kind: Option<crate::model::NodeKind>,
    #[command(flatten)]
    pub(crate) def: DefFlags,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: SetConfigArgs) -> Result<Reply> {
    let definition = a.def.definition()?;
    whole_node(&a, &definition)?;
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let kind = match &a.kind {
        Some(k) => *k,
        None => {
            let loaded = forge.load(&plan)?;
            loaded
                .content()
                .node(&a.id)
                .map(|n| n.kind)
                .ok_or_else(|| crate::forge::unknown_node(&loaded, &a.id))?
        }
    };
    Ok(echo_reply(
        s,
        &forge.set_node_config(&plan, &a.id, kind, definition, a.expect.expect_rev)?,
    ))
}

/// Refuses a `--def` that holds a whole node as `edit` writes it (`kind`
/// and an object `definition`, maybe `phase`), naming the command that
/// takes such a file.
fn whole_node(a: &SetConfigArgs, def: &crate::model::Map) -> Result<()> {
    use crate::model::Value;
    let looks_whole = def.contains_key("kind")
        && matches!(def.get("definition"), Some(Value::Object(_)))
        && def
            .keys()
            .all(|k| matches!(k.as_str(), "kind" | "definition" | "phase" | "id"));
    if !looks_whole {
        return Ok(());
    }
    let from = match a.def.def.as_deref().and_then(|d| d.strip_prefix('@')) {
        Some(file) => format!(
            "planforge edit {} --from {}",
            a.id,
            crate::cli::voice::quote(file)
        ),
        None => format!("planforge edit {} --from FILE", a.id),
    };
    Err(crate::model::error::Error::invalid(format!(
        "--def holds a whole node (`kind`, `definition`{}), as `edit` writes it, not the definition of `{}`; nothing was written",
        if def.contains_key("phase") { ", `phase`" } else { "" },
        a.id
    ))
    .with_help(format!(
        "{from} applies such a file; or give --def only its `definition` part"
    )))
}
