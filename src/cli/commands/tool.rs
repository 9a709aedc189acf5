use super::read_input;
use crate::cli::{Format, Reply, Session};
use crate::forge::Forge;
use crate::mcp::tools;
use crate::mcp::tools::Gate;
use crate::mcp::tools::Selection;
use crate::model::error::Result;
use clap::Args;
use serde_json::json;

/// Run one model-facing tool call.
///
/// Exactly what a model's call over MCP runs: the tool's text goes to
/// stdout (with --format json: {ok, text}, or a raw tool's JSON), and a
/// refusal exits 1, 2 or 3. Tools act as `mcp` unless --actor or
/// PLANFORGE_ACTOR says otherwise, and never change the store's current
/// plan.
///
/// Example: planforge tool add_node '{"planId": "plan-a", "node": {"id":
/// "start", "kind": "entry", "definition": {"input": []}}}'
#[derive(Args, Debug, Clone)]
pub(crate) struct ToolArgs {
    /// The tool name (any tier)
    pub(crate) name: String,
    /// The arguments as a JSON object, or - for stdin [default: {}]
    #[arg(allow_hyphen_values = true, value_name = "ARGS_JSON")]
    pub(crate) args: Option<String>,
}

pub(crate) fn run(s: &mut Session, a: ToolArgs) -> Result<Reply> {
    s.require_format("tool", &[Format::Text, Format::Json])?;
    let tool = tools::find(Selection::All, &a.name)
        .ok_or_else(|| tools::unknown_tool(Selection::All, &a.name))?;
    let (name, text) = match a.args.as_deref() {
        None => ("arguments", "{}".to_string()),
        Some("-") => ("stdin", read_input("-")?),
        Some(t) => ("arguments", t.to_string()),
    };
    let args = crate::wire::parse::json(&text)
        .and_then(|v| crate::wire::convert::hydrated(v, ""))
        .map_err(|e| e.into_error(Some(name)).with_source(name, text.clone()))?;
    let forge = Forge::new(s.store()?, tools::actor(s.global.actor.as_deref())?);
    let out = tools::call(&forge, tool, args, Gate::default());
    let doc = match (&out.json, &out.error) {
        (Some(raw), _) if out.ok => raw.clone(),
        (_, Some(e)) => json!({
            "ok": false, "text": out.text,
            "error": {"code": e.code(), "message": e.message, "help": e.help},
        }),
        _ => json!({"ok": out.ok, "text": out.text}),
    };
    Ok(Reply::new(out.text, doc).exit(out.exit))
}
