//! `planforge mcp`: the model-facing tools over MCP on stdin/stdout, with
//! the official `rmcp` SDK. A thin adapter over `forge::tools`: the tool
//! list, schemas and annotations come from the one tool table, and every
//! call runs through `forge::tools::call_wire`.
//!
//! stdout carries protocol frames only; the one startup line goes to stderr.
//! Calls are serialised (one at a time, under a mutex), so two calls never
//! interleave on a plan; the store's lock still guards against other
//! processes. The server exits cleanly when stdin reaches EOF.

use super::frames;
use crate::forge::Forge;
use crate::mcp::tools;
use crate::mcp::tools::Gate;
use crate::mcp::tools::Selection;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::store::Store;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use std::sync::{Arc, Mutex};

/// How the server is configured.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) store: Store,
    pub(crate) actor: String,
    pub(crate) selection: Selection,
    pub(crate) read_only: bool,
}

/// The MCP server handler.
pub(crate) struct Server {
    config: Config,
    tools: Vec<Tool>,
    /// Serialises calls: one forge operation at a time.
    lock: Arc<Mutex<()>>,
}

/// The rmcp form of one tool: name, description, schema, annotations.
pub(crate) fn tool_entry(t: &tools::Tool) -> Tool {
    let schema = match t.input_schema() {
        serde_json::Value::Object(m) => m,
        _ => JsonObject::new(),
    };
    // Every tool works on the store alone: a closed world.
    let annotations = ToolAnnotations::with_title(t.title)
        .read_only(t.read_only)
        .destructive(t.destructive)
        .idempotent(t.idempotent)
        .open_world(false);
    Tool::new(t.name, t.description(), Arc::new(schema))
        .with_title(t.title)
        .with_annotations(annotations)
}

impl Server {
    pub(crate) fn new(mut config: Config) -> Server {
        // The session's calls share the plans they fold, kept warm (issue
        // 17; see `store::warm`): each call looks at the log first.
        config.store = config.store.warm(Arc::default());
        let tools = tools::selected(config.selection).map(tool_entry).collect();
        Server {
            config,
            tools,
            lock: Arc::new(Mutex::new(())),
        }
    }

    /// Runs one call to completion (synchronously: calls are serialised).
    fn run(&self, t: &tools::Tool, args: Option<JsonObject>) -> CallToolResult {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        // A fresh forge per call: the registry is re-read, so edits to it
        // apply without restarting the server; the plans stay warm in the
        // store.
        let forge = Forge::new(self.config.store.clone(), self.config.actor.clone());
        let args = args.map(serde_json::Value::Object);
        let gate = Gate {
            read_only: self.config.read_only,
        };
        let out = tools::call_wire(&forge, t, args.as_ref(), gate);
        // The answer is made: a digest the call left to compute (after a
        // write) is hashed on another thread while the client reads it.
        self.config.store.digest_ahead();
        let content = vec![ContentBlock::text(out.text)];
        if out.ok {
            CallToolResult::success(content)
        } else {
            CallToolResult::error(content)
        }
    }
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let mode = if self.config.read_only {
            " This server is read-only: tools that change plans refuse."
        } else {
            ""
        };
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("planforge", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!(
                "planforge: author, read, validate, freeze and submit plans (DAGs of agent and tool steps). Tools return prose; refusals say what to fix and name the id.{mode}"
            ))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, ErrorData> {
        let Some(t) = tools::find(self.config.selection, &request.name) else {
            let e = tools::unknown_tool(self.config.selection, &request.name);
            let text = match &e.help {
                Some(h) => format!("{}; {h}", e.message),
                None => e.message.clone(),
            };
            return Err(ErrorData::invalid_params(text, None));
        };
        Ok(self.run(t, request.arguments).into())
    }
}

/// Serves until stdin closes. Blocks the calling thread.
pub(crate) fn serve(config: Config) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::internal(format!("could not start the MCP runtime: {e}")))?;
    let count = tools::selected(config.selection).count();
    eprintln!(
        "planforge mcp: serving {count} {} tool(s) on stdio, store {}, actor {}{}",
        config.selection.as_str(),
        config.store.root().display(),
        config.actor,
        if config.read_only { ", read-only" } else { "" }
    );
    let result = runtime.block_on(async move {
        use rmcp::service::ServerInitializeError as Init;
        // Every frame passes the filter first (see `frames`); one writer
        // puts the session's frames and the filter's answers on stdout.
        let (to_session, session_in) = tokio::io::duplex(1 << 20);
        let (session_out, from_session) = tokio::io::duplex(1 << 20);
        let (frames_tx, frames_rx) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(frames::filter(
            tokio::io::stdin(),
            to_session,
            frames_tx.downgrade(),
        ));
        tokio::spawn(frames::relay(from_session, frames_tx));
        let writer = tokio::spawn(frames::write_out(tokio::io::stdout(), frames_rx));
        let service = match Server::new(config).serve((session_in, session_out)).await {
            Ok(service) => service,
            // The client went away before the session began: nothing to do.
            Err(Init::ConnectionClosed(_)) => return Ok(()),
            Err(Init::ExpectedInitializeRequest(_)) => {
                return Err(Error::invalid(
                    "the MCP client sent something other than `initialize` first; a session starts with an initialize request, then the initialized notification",
                ));
            }
            Err(e) => {
                return Err(Error::internal(format!(
                    "the MCP session did not start: {e}"
                )));
            }
        };
        let ended = service
            .waiting()
            .await
            .map_err(|e| Error::internal(format!("the MCP session failed: {e}")));
        // The session's output is closed now: let the writer finish.
        let _ = writer.await;
        ended.map(|_| ())
    });
    // A read of stdin cannot be cancelled: do not wait for it on the way out.
    runtime.shutdown_background();
    result
}
