//! Fixes worded as edits of a plan document: what a person (or an editor)
//! changes in the JSON or YAML file that `validate` checked. Remedies that
//! are not edits of the document (explain a code, read an outline) are
//! worded by the reader's own voice.

use crate::forge::present::compact;
use crate::model::remedy::{Fill, Pick, Remedy, Voice};

/// What a person does to make `tool` callable, when no command can add it:
/// the words `validate` and the editor share.
pub(crate) fn add_to_registry(tool: &str) -> String {
    format!(
        "add `{}` under `tools:` in the store's registry.yaml",
        crate::model::ids::quote_id(tool)
    )
}

/// Words remedies as document edits; the rest as `other` does.
pub(crate) struct DocumentVoice<'a> {
    pub(crate) other: &'a dyn Voice,
}

fn pick(p: &Pick) -> String {
    match p {
        Pick::Id(id) => format!("\"{id}\""),
        Pick::Any(what) => format!("<{what}>"),
    }
}

fn fill(f: &Fill) -> String {
    match f {
        Fill::Value(v) => compact(v),
        Fill::Choose(what) => format!("<{what}>"),
    }
}

impl Voice for DocumentVoice<'_> {
    fn say(&self, r: &Remedy) -> String {
        match r {
            // A document edit needs no word that the key is new.
            Remedy::SetField { node, path, value } | Remedy::AddField { node, path, value } => {
                format!(
                    "in node `{node}`, set `definition.{path}` to {}",
                    fill(value)
                )
            }
            Remedy::SetPhase { node, phase: None } => {
                format!("in node `{node}`, remove `phase`")
            }
            Remedy::SetPhase {
                node,
                phase: Some(p),
            } => format!("in node `{node}`, set `phase` to {}", fill(p)),
            Remedy::SetDefinition { node } => format!("rewrite the definition of node `{node}`"),
            Remedy::Connect { from, to, handle } => format!(
                "add the edge {{\"from\": {}, \"to\": {}{}}} to `edges`",
                pick(from),
                pick(to),
                handle
                    .as_ref()
                    .map(|h| format!(", \"handle\": \"{h}\""))
                    .unwrap_or_default()
            ),
            Remedy::Disconnect { edge } => format!("remove the edge `{edge}` from `edges`"),
            Remedy::ChangeHandle { edge, handle, .. } => {
                format!("in the edge `{edge}`, set `handle` to \"{handle}\"")
            }
            Remedy::Retarget { edge, to, .. } => {
                format!("in the edge `{edge}`, set `to` to {}", pick(to))
            }
            Remedy::RemoveNode { node } => {
                format!("remove node `{node}` from `nodes`, and the edges that name it")
            }
            Remedy::AddNode { id, kind } => format!(
                "add a node{}{} to `nodes`",
                id.as_ref().map(|i| format!(" `{i}`")).unwrap_or_default(),
                kind.map(|k| format!(" of kind `{k}`")).unwrap_or_default()
            ),
            Remedy::SetBound { bound, value } => {
                format!("set `bounds.{}` to {value}", bound.key())
            }
            other => self.other.say(other),
        }
    }
}
