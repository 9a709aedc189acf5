use crate::cli::{Format, Reply, Session};
use crate::model::error::Error;
use crate::model::error::Result;
use crate::model::{Map, Value};
use crate::render::templates;
use clap::Args;

/// Create a plan from a template.
///
/// Create a plan from a template, filling its params.
#[derive(Args, Debug, Clone)]
pub(crate) struct InstantiateArgs {
    /// The template id
    pub(crate) template: String,
    /// A param value, NAME=VALUE; repeatable
    #[arg(long = "arg", value_name = "NAME=VALUE")]
    pub(crate) args: Vec<String>,
    /// The new plan's id [default: a fresh one]
    #[arg(long)]
    pub(crate) id: Option<String>,
}

/// `NAME=VALUE` pairs as text values (each is converted by its param's type).
pub(crate) fn parse_args(pairs: &[String]) -> Result<Map> {
    let mut out = Map::new();
    for pair in pairs {
        let Some((name, value)) = pair.split_once('=') else {
            return Err(Error::invalid(format!(
                "`--arg {pair}` has no `=`; write --arg NAME=VALUE"
            )));
        };
        if name.is_empty() {
            return Err(Error::invalid(format!(
                "`--arg {pair}` names no param; write --arg NAME=VALUE"
            )));
        }
        if out
            .insert(name.into(), Value::String(value.into()))
            .is_some()
        {
            return Err(Error::invalid(format!(
                "the param `{name}` is given twice; give each param once"
            )));
        }
    }
    Ok(out)
}

pub(crate) fn run(s: &mut Session, a: InstantiateArgs) -> Result<Reply> {
    s.require_format("instantiate", &[Format::Text, Format::Json])?;
    let args = parse_args(&a.args)?;
    let forge = s.forge()?;
    let made = forge.instantiate(&a.template, &args, a.id.as_deref())?;
    forge.store().set_current(&made.loaded.plan_id)?;
    Ok(Reply::new(
        format!(
            "{}\nIt is now the current plan.",
            templates::instantiated_text(&made)
        ),
        templates::instantiated_json(&made),
    ))
}
