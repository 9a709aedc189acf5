//! Handlers of the mutating authoring tools: decode the arguments (wire form
//! already converted), call the forge operation the CLI calls, render the
//! bounded echo.

use super::{Args, Outcome};
use crate::forge::{Echo, Forge};
use crate::mcp::voice::ToolVoice;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::model::value::Map;
use crate::model::{NodeKind, Value};
use crate::render;
use crate::wire::codec;

pub(super) fn echo(e: Echo) -> Outcome {
    Outcome::text(render::echo::text(&e, &ToolVoice::about(&e.plan_id)))
}

/// A decoding refusal from the wire module, with its pointer.
pub(super) fn wire_error(e: crate::wire::ParseError) -> Error {
    e.into_error(None)
}

/// An object argument (the schema has already said it is one).
pub(super) fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map> {
    v.as_object()
        .ok_or_else(|| Error::invalid(format!("`{what}` must be an object, not {}", v.type_name())))
}

fn kind(name: &str) -> Result<NodeKind> {
    name.parse().map_err(Error::invalid)
}

pub(super) fn create_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let p = f.create_plan(a.opt_str("planId"), a.opt_str("label"), None)?;
    let label = p
        .meta
        .label
        .as_deref()
        .map(|l| format!(", labelled \"{l}\""))
        .unwrap_or_default();
    Ok(Outcome::text(format!(
        "Created plan {} (editable, rev 0, no nodes, default bounds){label}. Start it with add_node: exactly one `entry` node, then the steps, then connect_nodes.",
        p.plan_id
    )))
}

pub(super) fn add_node(f: &Forge, a: &Args) -> Result<Outcome> {
    let node = codec::node(a.value("node")?, "/node").map_err(wire_error)?;
    Ok(echo(f.add_node(
        a.str("planId")?,
        node,
        crate::forge::edit::AddNode {
            expect: a.expect(),
            ..Default::default()
        },
    )?))
}

pub(super) fn set_node_config(f: &Forge, a: &Args) -> Result<Outcome> {
    let d = object(a.value("definition")?, "definition")?;
    let k = kind(d.get("kind").and_then(Value::as_str).unwrap_or_default())?;
    let def = d
        .get("definition")
        .map(|v| object(v, "definition.definition"))
        .transpose()?
        .cloned()
        .unwrap_or_default();
    Ok(echo(f.set_node_config(
        a.str("planId")?,
        a.str("nodeId")?,
        k,
        def,
        a.expect(),
    )?))
}

pub(super) fn set_node_field(f: &Forge, a: &Args) -> Result<Outcome> {
    let (plan, node, path) = (a.str("planId")?, a.str("nodeId")?, a.str("path")?);
    let flag = |k: &str| a.get(k).and_then(Value::as_bool).unwrap_or(false);
    let value = a.map_value("value");
    if flag("remove") {
        if value.is_some() {
            return Err(Error::invalid(
                "`value` and `remove: true` cannot go together: remove takes the field out",
            )
            .with_help(format!(
                r#"set_node_field {{"planId":"{plan}","nodeId":"{node}","path":"{path}","remove":true}}"#
            )));
        }
        return Ok(echo(f.remove_node_field(plan, node, path, a.expect())?));
    }
    let Some(value) = value else {
        return Err(Error::invalid(
            "`value` is required unless `remove` is true",
        ));
    };
    let add = flag("add");
    f.set_node_field(plan, node, path, value.clone(), a.expect(), add)
        .map(echo)
        .map_err(|e| {
            let worded = e
                .fixes
                .iter()
                .any(|f| matches!(f.remedy, crate::model::remedy::Remedy::AddField { .. }));
            if e.kind != crate::model::error::ErrorKind::UnknownKey || worded {
                return e;
            }
            e.with_help(format!(
                "to add `{path}` as a new field anyway, call set_node_field again with \"add\": true"
            ))
        })
}

pub(super) fn set_node_phase(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(echo(f.set_node_phase(
        a.str("planId")?,
        a.str("nodeId")?,
        a.opt_str("phase").map(str::to_string),
        a.expect(),
    )?))
}

pub(super) fn connect_nodes(f: &Forge, a: &Args) -> Result<Outcome> {
    let e = object(a.value("edge")?, "edge")?;
    let s = |k: &str| e.get(k).and_then(Value::as_str);
    let from = s("from").unwrap_or_default();
    let to = s("to").unwrap_or_default();
    Ok(echo(f.connect(
        a.str("planId")?,
        from,
        to,
        s("handle"),
        s("id"),
        a.expect(),
    )?))
}

pub(super) fn remove_node(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(echo(f.remove_node(
        a.str("planId")?,
        a.str("nodeId")?,
        a.expect(),
    )?))
}

pub(super) fn disconnect_edge(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(echo(f.disconnect(
        a.str("planId")?,
        a.str("edgeId")?,
        a.expect(),
    )?))
}

pub(super) fn set_bounds(f: &Forge, a: &Args) -> Result<Outcome> {
    let b = codec::bounds(a.value("bounds")?, "/bounds").map_err(wire_error)?;
    Ok(echo(f.set_bounds(a.str("planId")?, b, a.expect())?))
}

pub(super) fn undo_change(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(echo(f.undo(a.str("planId")?, a.expect())?))
}

pub(super) fn clone_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(echo(f.clone_plan(
        a.str("sourcePlanId")?,
        a.str("newPlanId")?,
        a.opt_u64("atRevision"),
    )?))
}

pub(super) fn freeze_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let fr = f.freeze(a.str("planId")?)?;
    let text = render::status::freeze_text(&fr, &ToolVoice::about(&fr.plan_id));
    Ok(if fr.frozen {
        Outcome::text(text)
    } else {
        Outcome::refused(format!("freeze_plan refused: {text}"))
    })
}

pub(super) fn unfreeze_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    Ok(echo(f.unfreeze(a.str("planId")?)?))
}

pub(super) fn submit_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let s = f.submit(a.str("planId")?, Some(a.str("decidedBy")?))?;
    let text = render::status::submit_text(&s, &ToolVoice::about(&s.plan_id));
    Ok(if s.approved {
        Outcome::text(text)
    } else {
        Outcome::refused(format!("submit_plan refused: {text}"))
    })
}

/// `orchestrate` as a tool: the decomposition as an object (the keys of the
/// YAML/JSON file `planforge orchestrate` reads), stored as a new editable
/// plan. The forge operation is the CLI's; only the wording is the tools'.
pub(super) fn orchestrate_plan(f: &Forge, a: &Args) -> Result<Outcome> {
    let d = object(a.value("decomposition")?, "decomposition")?;
    let text = crate::wire::json::compact(&Value::Object(d.clone()));
    let d = crate::forge::orchestrate::parse(&text, crate::wire::Syntax::Json, "decomposition")?;
    let o = f.orchestrate(&d, a.opt_str("planId"))?;
    let id = o
        .stored
        .as_ref()
        .map(|(p, _)| p.plan_id.clone())
        .unwrap_or_default();
    Ok(Outcome::text(format!(
        "{}\nNext: read {id} with plan_outline and plan_read, then freeze_plan and submit_plan. Supply each source slice the report names under its run-input name when the plan runs.",
        render::templates::orchestrated_text(&o, &d, &ToolVoice::about(&id))
    )))
}
