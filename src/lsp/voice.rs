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
            // validate's words (one source), so the diagnostic's help is validate's.
            Remedy::AddToRegistry { tool } => crate::render::voice::add_to_registry(tool),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adding_a_tool_is_worded_as_validate_words_it() {
        let r = Remedy::AddToRegistry {
            tool: "read_artifct".into(),
        };
        assert_eq!(
            EditorVoice.say(&r),
            "add `read_artifct` under `tools:` in the store's registry.yaml"
        );
        assert_eq!(
            EditorVoice.say(&r),
            crate::render::voice::add_to_registry("read_artifct")
        );
    }
}
