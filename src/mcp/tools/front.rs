//! Handlers of the front tier: what a conversational agent sees. Each calls
//! the forge operation of `templates`, `instantiate` and `author`.

use super::authoring::object;
use super::{Args, Outcome};
use crate::forge::Forge;
use crate::mcp::voice::ToolVoice;
use crate::model::error::Result;
use crate::render;

pub(super) fn list_templates(f: &Forge, _a: &Args) -> Result<Outcome> {
    Ok(Outcome::text(render::templates::list_text(
        &f.templates()?,
        &ToolVoice::default(),
    )))
}

pub(super) fn instantiate_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let args = object(a.value("args")?, "args")?;
    let made = f.instantiate(a.str("template")?, args, None)?;
    Ok(Outcome::text(format!(
        "{}\nRead it with plan_outline and plan_read; change it with the authoring tools; freeze_plan and submit_plan when it is right.",
        render::templates::instantiated_text(&made)
    )))
}

/// An empty plan whose metadata keeps the request verbatim (never parsed).
pub(super) fn author_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let p = f.author(a.str("request")?, None)?;
    // The shared text ends with advice in CLI terms; the tools have their own.
    let text = render::templates::authored_text(&p, &ToolVoice::about(&p.plan_id));
    let mut out: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with("Next: "))
        .map(str::to_string)
        .collect();
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
