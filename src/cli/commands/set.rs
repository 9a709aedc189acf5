use super::echo_reply;
use crate::cli::{Expect, Reply, Session};
use crate::model::error::Error;
use crate::model::error::Result;
use clap::Args;

/// Set one field of a node's definition.
///
/// PATH is a dot path relative to the definition (`tool`, `args.ticket`);
/// VALUE is JSON, a reference (@node, @node.path, @node[last].path,
/// @node[all], @node[2].path, @node@e1/e2.path) or a plain string. Write a
/// literal string starting with @ as JSON: '"@home"'. The shorthands of
/// add-node work too: `authority` takes CAP/SCOPE/VERB (several separated by
/// commas), `input` and `output` take PATH:TYPE (several separated by
/// spaces), `values`, `declassifies` and `cases` take a,b,c, and `prompt`
/// takes a text, a reference or a JSON list of them, as --prompt does
/// (`prompt.N` sets one part; N one past the end adds one). A new key
/// one letter off a key the node has (`args.bdy` beside `args.body`) is
/// refused as a typo unless --add says it is meant. --remove takes the
/// field out. A value that starts with `-` (other than a number) is read
/// as a flag: give it after `--` (`set ID PATH -- --literal`).
#[derive(Args, Debug, Clone)]
pub(crate) struct SetArgs {
    /// The node id
    #[arg(index = 1)]
    pub(crate) id: String,
    /// The field's dot path
    #[arg(index = 2)]
    pub(crate) path: String,
    /// The new value (one starting with `-` other than a number goes after
    /// `--`: `set ID PATH -- --literal`)
    // Explicit indices: completion re-adds `id` with its completer, which
    // would otherwise move it after the optional VALUE.
    #[arg(index = 3, allow_negative_numbers = true, conflicts_with = "remove")]
    pub(crate) value: Option<String>,
    /// Remove the field at PATH instead of setting it
    #[arg(long)]
    pub(crate) remove: bool,
    /// Add PATH as a new field even when it is one letter off a field the
    /// node has
    #[arg(long)]
    pub(crate) add: bool,
    #[command(flatten)]
    pub(crate) expect: Expect,
}

pub(crate) fn run(s: &mut Session, a: SetArgs) -> Result<Reply> {
    if a.value.is_none() && !a.remove {
        return Err(Error::invalid(
            "the following required arguments were not provided: <VALUE>",
        )
        .with_help("usage: planforge set <ID> <PATH> <VALUE>, or planforge set <ID> <PATH> --remove\nmore: planforge set --help"));
    }
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    let Some(text) = &a.value else {
        let echo = forge
            .remove_node_field(&plan, &a.id, &a.path, a.expect.expect_rev)
            .map_err(|e| match e.kind {
                crate::model::error::ErrorKind::UnknownKey => {
                    e.with_help(format!("planforge read {} shows its fields", a.id))
                }
                _ => e,
            })?;
        return Ok(echo_reply(s, &echo));
    };
    let value = crate::cli::set_value::read(&a.id, &a.path, text)?;
    let echo = forge
        .set_node_field(&plan, &a.id, &a.path, value, a.expect.expect_rev, a.add)
        .map_err(|e| typo_help(e, &a))
        .map_err(|e| prompt_help(e, &a))?;
    Ok(echo_reply(s, &echo))
}

/// A refused typo also says how to add the field anyway.
fn typo_help(e: Error, a: &SetArgs) -> Error {
    let worded = e
        .fixes
        .iter()
        .any(|f| matches!(f.remedy, crate::model::remedy::Remedy::AddField { .. }));
    if e.kind != crate::model::error::ErrorKind::UnknownKey || a.add || worded {
        return e;
    }
    let value = a.value.as_deref().unwrap_or_default();
    let quoted = crate::cli::voice::quote(value);
    // A value that reads as a flag goes after `--`, as it had to be given.
    let tail = if value.starts_with('-') && value.parse::<f64>().is_err() {
        format!("--add -- {quoted}")
    } else {
        format!("{quoted} --add")
    };
    e.with_help(format!(
        "to add `{}` as a new field: planforge set {} {} {tail}",
        a.path, a.id, a.path
    ))
}

/// A refused prompt value also shows the forms `set` takes for a prompt.
fn prompt_help(e: Error, a: &SetArgs) -> Error {
    let at_prompt = a.path == "prompt" || a.path.starts_with("prompt.");
    if e.kind != crate::model::error::ErrorKind::InvalidInput || !at_prompt || !e.fixes.is_empty() {
        return e;
    }
    let help = crate::cli::set_value::prompt_examples(&a.id);
    match e.help.as_deref() {
        Some(h) if !h.is_empty() => {
            let h = h.to_string();
            e.with_help(format!("{h}\n{help}"))
        }
        _ => e.with_help(help),
    }
}
