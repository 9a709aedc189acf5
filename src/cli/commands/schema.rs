use crate::cli::{Format, Reply, Session};
use crate::model::error::Result;
use clap::Args;

/// Print the JSON Schema of plan documents.
///
/// Print the JSON Schema (draft 2020-12) of plan documents, the files
/// `export` writes and `import` and `validate` read, for editors and other
/// validators. It is built from the same tables as the checks: node kinds
/// and their definition fields, handles, bounds, `$ref` and `$param`. A
/// document may name it in a top-level `$schema` key, which planforge
/// ignores. The repository keeps a copy in schema/plan.schema.json.
#[derive(Args, Debug, Clone)]
pub(crate) struct SchemaArgs {}

pub(crate) fn run(s: &mut Session, _a: SchemaArgs) -> Result<Reply> {
    s.require_format("schema", &[Format::Text, Format::Json])?;
    Ok(Reply::raw(crate::wire::json::pretty(
        &crate::wire::schema::plan_schema(),
    )))
}
