use super::read_input;
use crate::cli::{Reply, Session};
use crate::model::error::Result;
use crate::render::status;
use crate::wire::Syntax;
use clap::{Args, ValueEnum};

#[derive(ValueEnum, Debug, Clone, Copy)]
pub(crate) enum InputFormat {
    Json,
    Yaml,
}

/// Create a plan from a plan document.
///
/// Create a new editable plan from a plan document (JSON or YAML; - reads
/// stdin). A claimed state or approval is dropped with a note; a claimed
/// digest the content does not have refuses the import. The plan becomes
/// the current plan.
#[derive(Args, Debug, Clone)]
pub(crate) struct ImportArgs {
    /// The plan document, or - for stdin
    pub(crate) file: String,
    /// The new plan's id [default: the document's planId, else a fresh one]
    #[arg(long)]
    pub(crate) id: Option<String>,
    /// The document's syntax [default: by extension, else sniffed]
    #[arg(long, value_enum)]
    pub(crate) input_format: Option<InputFormat>,
}

/// Reads a plan document from a path (or stdin).
pub(crate) fn read_document(
    file: &str,
    format: Option<InputFormat>,
) -> Result<crate::wire::codec::Document> {
    let text = read_input(file)?;
    let syntax = match format {
        Some(InputFormat::Json) => Syntax::Json,
        Some(InputFormat::Yaml) => Syntax::Yaml,
        None => Syntax::from_path(file).unwrap_or_else(|| Syntax::sniff(&text)),
    };
    let name = if file == "-" { "stdin" } else { file };
    crate::wire::codec::document(&text, syntax)
        .map_err(|e| e.into_error(Some(name)).with_source(name, text.clone()))
}

pub(crate) fn run(s: &mut Session, a: ImportArgs) -> Result<Reply> {
    let doc = read_document(&a.file, a.input_format)?;
    let forge = s.forge()?;
    let imported = forge.import(doc, a.id.as_deref())?;
    forge.store().set_current(&imported.loaded.plan_id)?;
    // Like create, clone, author and instantiate: say that the next
    // command goes to the imported plan.
    let mut json = status::import_json(&imported);
    json["current"] = true.into();
    let mut reply = Reply::new(
        format!(
            "{}\n{} is now the current plan.",
            status::import_text(&imported),
            imported.loaded.plan_id
        ),
        json,
    );
    for n in &imported.notes {
        reply = reply.note(n.clone());
    }
    Ok(reply)
}
