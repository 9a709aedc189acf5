//! Fixes worded for a person in an editor: edits of the document as the
//! document voice words them (`in node `pay`, set `definition.replaySafe`
//! to true`), and the rest as what to do outside the file.

use crate::model::remedy::{Remedy, Voice};

/// Words the remedies that are no edit of the document.
pub(crate) struct EditorVoice;

impl Voice for EditorVoice {
    fn say(&self, r: &Remedy) -> String {
        match r {
            Remedy::Explain { code } => {
                format!("read the explanation of `{code}` (planforge explain {code})")
            }
            Remedy::AddToRegistry { tool } => format!("add the tool `{tool}` to the registry"),
            Remedy::Outline => "look at the document's outline (its symbols)".into(),
            Remedy::ReadNode { node } => format!("look at node `{node}`"),
            Remedy::ReadPhase { phase } => format!("look at the nodes of phase `{phase}`"),
            Remedy::Validate | Remedy::ValidateWithin { .. } => {
                "run planforge validate on the document".into()
            }
            other => format!("{} ({})", other.action().replace('_', " "), "planforge"),
        }
    }
}

/// The document voice, with the editor's words for the rest.
pub(crate) fn document_voice() -> crate::render::voice::DocumentVoice<'static> {
    crate::render::voice::DocumentVoice {
        other: &EditorVoice,
    }
}
