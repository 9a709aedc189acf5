//! Handlers of the front tier: what a conversational agent sees.

use super::{Args, Outcome};
use crate::error::{Error, Result};
use crate::forge::Forge;

pub(super) fn list_templates(_f: &Forge, _a: &Args) -> Result<Outcome> {
    Err(Error::internal(
        "list_templates is not available in this build yet",
    ))
}

pub(super) fn instantiate_plan(_f: &Forge, _a: &Args) -> Result<Outcome> {
    Err(Error::internal(
        "instantiate_plan is not available in this build yet",
    ))
}

/// An empty plan whose metadata keeps the request verbatim (never parsed).
pub(super) fn author_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let request = a.str("request")?;
    let label = crate::forge::plans::label_of(request);
    let p = f.create_plan(None, Some(&label), Some(request))?;
    let mut out = vec![
        format!(
            "Created empty plan {} (editable, rev 0), labelled \"{label}\".",
            p.plan_id
        ),
        "The owner's request is stored verbatim:".to_string(),
    ];
    out.extend(request.split('\n').map(|l| format!("  | {l}")));
    if let Some(d) = a.opt_str("detail") {
        out.push("Your detail (not part of the request, not stored):".into());
        out.extend(d.split('\n').map(|l| format!("  | {l}")));
    }
    out.push(format!(
        "Next: build {} with the authoring tools (add_node, connect_nodes, …), then freeze_plan and submit_plan.",
        p.plan_id
    ));
    Ok(Outcome::text(out.join("\n")))
}
