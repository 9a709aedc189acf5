//! `planforge lsp`: the server loop. Requests are answered at once from the
//! text as it is; diagnostics are published after the document has been
//! still for [`Config::debounce`], from a validation that runs on a worker
//! thread (a result for a version the editor has since changed is dropped).

use super::convert::Encoding;
use super::documents::Open;
use super::worker::{Busy, Done, Job, validate_now};
use crate::forge::editor::context::Sources;
use crate::model::error::{Error, Result};
use crossbeam_channel::{Receiver, Sender, select};
use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::request::{self as req, Request as _};
use lsp_types::*;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use std::collections::HashMap;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How the server runs.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) sources: Sources,
    /// How long a document must be still before it is validated.
    pub(crate) debounce: Duration,
}

/// Serves one editor session on stdin and stdout, until `exit` or the end
/// of stdin. Returns the exit status: 1 for an `exit` with no `shutdown`
/// before it (as the LSP specification says), else 0.
pub(crate) fn serve(cfg: Config) -> Result<u8> {
    let (conn, io) = super::transport::stdio();
    let init = match initialize(&conn) {
        Ok(Some(init)) => init,
        // `exit` before `initialize` (with no `shutdown`): status 1.
        Ok(None) => {
            drop(conn);
            io.join();
            return Ok(1);
        }
        Err(e) => {
            drop(conn);
            io.join();
            return Err(e);
        }
    };
    let enc = encoding(&init);
    let watch = watches_dynamically(&init);
    let busy = Arc::new(Busy::default());
    let (jobs, done, threads) = super::worker::start(cfg.sources.clone(), Arc::clone(&busy))?;
    let raw = io.raw.clone();
    let serve = || {
        let mut s = State {
            conn: &conn,
            raw,
            enc,
            cfg,
            open: HashMap::new(),
            buffers: HashMap::new(),
            due: HashMap::new(),
            jobs,
            busy,
            shut_down: false,
            watch,
            reported: Default::default(),
        };
        s.run(&done)
    };
    // The loop answers queries that read documents as deep as `validate`
    // takes (the YAML reader and the walks over what it read recurse once
    // per level): it runs with the worker threads' stack.
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("lsp-loop".into())
            .stack_size(super::worker::STACK)
            .spawn_scoped(scope, serve)
            .map_err(|e| Error::internal(format!("lsp: cannot start the loop: {e}")))
            .map(|h| h.join().unwrap_or(1))
    });
    threads.join();
    let outcome = outcome?;
    drop(conn);
    io.join();
    Ok(outcome)
}

/// Waits for `initialize` and answers it, as the specification says of the
/// messages before it: a request is answered `ServerNotInitialized`
/// (-32002), a notification is dropped, `exit` ends the session (`None`).
/// Unlike `lsp-server`'s `initialize_start`, a client's mistake here does
/// not end the session, nor does the answer show the server's internals;
/// and `initialized` is not awaited (it is an ordinary notification after).
fn initialize(conn: &Connection) -> Result<Option<InitializeParams>> {
    use lsp_server::ErrorCode;
    loop {
        let msg = conn
            .receiver
            .recv()
            .map_err(|_| Error::invalid("lsp: stdin ended before `initialize`"))?;
        match msg {
            Message::Request(r) if r.method == req::Initialize::METHOD => {
                match serde_json::from_value::<InitializeParams>(r.params) {
                    Ok(init) => {
                        let result = serde_json::json!({
                            "capabilities": capabilities(encoding(&init)),
                            "serverInfo": {"name": "planforge", "version": env!("CARGO_PKG_VERSION")},
                        });
                        let _ = conn
                            .sender
                            .send(Message::Response(Response::new_ok(r.id, result)));
                        return Ok(Some(init));
                    }
                    Err(e) => {
                        let _ = conn.sender.send(Message::Response(Response::new_err(
                            r.id,
                            ErrorCode::InvalidParams as i32,
                            format!("malformed initialize params: {e}"),
                        )));
                    }
                }
            }
            Message::Request(r) => {
                let _ = conn.sender.send(Message::Response(Response::new_err(
                    r.id,
                    ErrorCode::ServerNotInitialized as i32,
                    format!(
                        "{} before `initialize`: the server is not initialized yet; send `initialize` first",
                        r.method
                    ),
                )));
            }
            Message::Notification(n) if n.method == note::Exit::METHOD => return Ok(None),
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
}

/// Whether the client registers file watchers the server asks for.
fn watches_dynamically(init: &InitializeParams) -> bool {
    init.capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.did_change_watched_files.as_ref())
        .and_then(|d| d.dynamic_registration)
        .unwrap_or(false)
}

/// The encoding the client offers that the server prefers: UTF-8, then
/// UTF-32, else the protocol's default UTF-16.
fn encoding(init: &InitializeParams) -> Encoding {
    let offered = init
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.clone())
        .unwrap_or_default();
    if offered.contains(&PositionEncodingKind::UTF8) {
        Encoding::Utf8
    } else if offered.contains(&PositionEncodingKind::UTF32) {
        Encoding::Utf32
    } else {
        Encoding::Utf16
    }
}

fn capabilities(enc: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(match enc {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
            Encoding::Utf32 => PositionEncodingKind::UTF32,
        }),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                // A saved settings file or registry open in the editor
                // re-checks the open documents.
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["\"".into(), ":".into(), " ".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX]),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

struct State<'c> {
    conn: &'c Connection,
    /// Answers serialised already, written as they are.
    raw: Sender<String>,
    enc: Encoding,
    cfg: Config,
    open: HashMap<String, Open>,
    /// The text of each open document, changed in place as the editor
    /// changes it (the loop's own: the jobs' clones of [`Open`] share only
    /// the versions' `Arc`s).
    buffers: HashMap<String, String>,
    /// Documents changed and not validated yet: when they are due.
    due: HashMap<String, Instant>,
    jobs: Sender<Job>,
    /// How many documents are due, for the reader to wait for.
    busy: Arc<Busy>,
    /// A `shutdown` request was answered.
    shut_down: bool,
    /// The client registers file watchers when asked (after `initialized`).
    watch: bool,
    /// The settings files and registries that cannot be read, as
    /// published for their own URIs.
    reported: super::elsewhere::Reported,
}

/// A request's result: a value, or JSON serialised already (a large
/// answer, cached per version: the outline).
enum Reply {
    Value(serde_json::Value),
    Raw(std::sync::Arc<str>),
}

/// The id of the server's one request to the client: registering the
/// watchers of the files a validation reads besides the document.
const WATCH_REQUEST: &str = "planforge/watch";

impl State<'_> {
    /// Serves until `exit` (its status) or the end of stdin (0).
    fn run(&mut self, done: &Receiver<Done>) -> u8 {
        loop {
            let timer = match self.due.values().min() {
                Some(t) => crossbeam_channel::at(*t),
                None => crossbeam_channel::never(),
            };
            select! {
                recv(self.conn.receiver) -> msg => match msg {
                    Ok(Message::Request(r)) => self.request(r),
                    Ok(Message::Notification(n)) => {
                        if n.method == note::Exit::METHOD {
                            return u8::from(!self.shut_down);
                        }
                        self.notification(n);
                    }
                    Ok(Message::Response(_)) => {}
                    Err(_) => return 0,
                },
                recv(done) -> d => if let Ok(d) = d { self.publish(d) },
                recv(timer) -> _ => self.start_due(),
            }
            self.busy.due.store(self.due.len(), Ordering::Release);
        }
    }

    fn send(&self, m: Message) {
        let _ = self.conn.sender.send(m);
    }

    /// The response to `id` whose result is `result`, JSON already.
    fn send_raw(&self, id: &lsp_server::RequestId, result: &str) {
        let Ok(id) = serde_json::to_string(id) else {
            return;
        };
        let _ = self.raw.send(format!(
            r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#
        ));
    }

    fn start_due(&mut self) {
        let now = Instant::now();
        let ready: Vec<String> = self
            .due
            .iter()
            .filter(|(_, t)| **t <= now)
            .map(|(u, _)| u.clone())
            .collect();
        for uri in ready {
            self.due.remove(&uri);
            if let Some(o) = self.open.get(&uri) {
                let _ = self.jobs.send(Job {
                    uri,
                    version: o.version,
                    open: o.clone(),
                });
            }
        }
    }

    fn publish(&mut self, d: Done) {
        let Some(o) = self.open.get_mut(&d.uri) else {
            return;
        };
        if o.version != d.validated.version {
            return;
        }
        let Ok(uri) = Uri::from_str(&d.uri) else {
            return;
        };
        // A broken settings file or registry: its error is reported in
        // that file, and the document says it was not checked, pointing
        // there (not the same error twice).
        let broken = d.validated.elsewhere.as_deref().and_then(|e| {
            let there = super::elsewhere::diagnostic(e, self.enc)?;
            Some((super::elsewhere::not_checked(e, &there), there))
        });
        let mut diagnostics = match (&broken, &d.validated.target) {
            (Some((note, _)), _) => vec![note.clone()],
            (None, Some(t)) => {
                super::diagnostics::diagnostics(&uri, t, &o.doc.text, &o.lines, self.enc)
            }
            (None, None) => Vec::new(),
        };
        if d.validated.no_registry {
            diagnostics.push(super::diagnostics::no_registry());
        }
        // This document is itself a broken file another one reads.
        diagnostics.extend(self.reported.of(uri.as_str()).cloned());
        o.last = Some(d.validated);
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: Some(o.version),
        };
        self.send(Message::Notification(Notification::new(
            note::PublishDiagnostics::METHOD.to_string(),
            params,
        )));
        let others = self.reported.update(&d.uri, broken.map(|(_, there)| there));
        self.publish_elsewhere(others);
    }

    fn publish_elsewhere(&self, all: Vec<PublishDiagnosticsParams>) {
        for params in all {
            self.send(Message::Notification(Notification::new(
                note::PublishDiagnostics::METHOD.to_string(),
                params,
            )));
        }
    }

    fn notification(&mut self, n: Notification) {
        match n.method.as_str() {
            note::DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return;
                };
                let d = p.text_document;
                let uri = d.uri.as_str().to_string();
                self.open.insert(
                    uri.clone(),
                    Open::new(&uri, &d.language_id, &d.text, d.version),
                );
                self.buffers.insert(uri.clone(), d.text);
                // Opening is validated at once; changes wait to be still.
                self.due.insert(uri, Instant::now());
            }
            note::DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return;
                };
                let uri = p.text_document.uri.as_str().to_string();
                if let Some(o) = self.open.get_mut(&uri)
                    && let Some(buf) = self.buffers.get_mut(&uri)
                {
                    o.change(buf, p.text_document.version, p.content_changes, self.enc);
                    self.due.insert(uri, Instant::now() + self.cfg.debounce);
                }
            }
            note::Initialized::METHOD if self.watch => self.register_watchers(),
            // A settings file, a registry or a store changed on disk (or a
            // document was saved): every open document is checked again
            // (what is read again is only what changed, see `Sources`).
            note::DidChangeWatchedFiles::METHOD | note::DidSaveTextDocument::METHOD => {
                let at = Instant::now() + self.cfg.debounce;
                for uri in self.open.keys() {
                    self.due.insert(uri.clone(), at);
                }
            }
            note::DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return;
                };
                let uri = p.text_document.uri;
                self.open.remove(uri.as_str());
                self.buffers.remove(uri.as_str());
                self.due.remove(uri.as_str());
                let others = self.reported.update(uri.as_str(), None);
                self.publish_elsewhere(others);
                self.send(Message::Notification(Notification::new(
                    note::PublishDiagnostics::METHOD.to_string(),
                    PublishDiagnosticsParams {
                        uri,
                        diagnostics: Vec::new(),
                        version: None,
                    },
                )));
            }
            _ => {}
        }
    }

    /// Asks the client to report changes of the files validations read
    /// besides the documents: settings files and registries (a store's is
    /// `registry.yaml` or `registry.json`; `--registry` names another).
    fn register_watchers(&self) {
        let mut globs: Vec<String> = ["**/planforge.toml", "**/registry.yaml", "**/registry.json"]
            .map(String::from)
            .to_vec();
        if let Some(p) = &self.cfg.sources.registry {
            let p = std::path::absolute(p).unwrap_or_else(|_| p.clone());
            globs.push(p.display().to_string());
        }
        let watchers: Vec<FileSystemWatcher> = globs
            .into_iter()
            .map(|g| FileSystemWatcher {
                glob_pattern: GlobPattern::String(g),
                kind: None,
            })
            .collect();
        let params = RegistrationParams {
            registrations: vec![Registration {
                id: WATCH_REQUEST.into(),
                method: note::DidChangeWatchedFiles::METHOD.into(),
                register_options: serde_json::to_value(DidChangeWatchedFilesRegistrationOptions {
                    watchers,
                })
                .ok(),
            }],
        };
        self.send(Message::Request(Request::new(
            lsp_server::RequestId::from(WATCH_REQUEST.to_string()),
            req::RegisterCapability::METHOD.into(),
            params,
        )));
    }

    fn request(&mut self, r: Request) {
        let id = r.id.clone();
        let method = r.method.clone();
        if method == req::Initialize::METHOD {
            let code = lsp_server::ErrorCode::InvalidRequest as i32;
            let answer = Response::new_err(
                id,
                code,
                "initialize: the server is initialized already (initialize is sent once a session)"
                    .into(),
            );
            return self.send(Message::Response(answer));
        }
        if self.shut_down || method == req::Shutdown::METHOD {
            let answer = if self.shut_down {
                let code = lsp_server::ErrorCode::InvalidRequest as i32;
                Response::new_err(id, code, format!("{method} after shutdown"))
            } else {
                Response::new_ok(id, ())
            };
            self.shut_down = true;
            return self.send(Message::Response(answer));
        }
        // A bug in one answer is that request's error, not the session's end.
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(r)));
        let answer = match answer {
            Ok(Ok(Reply::Value(v))) => Response::new_ok(id, v),
            Ok(Ok(Reply::Raw(result))) => return self.send_raw(&id, &result),
            Ok(Err((code, message))) => Response::new_err(id, code as i32, message),
            Err(_) => Response::new_err(
                id,
                lsp_server::ErrorCode::InternalError as i32,
                format!("planforge lsp failed to answer {method} (a bug: please report it)"),
            ),
        };
        self.send(Message::Response(answer));
    }

    /// The result of one request, or an error response.
    fn answer(
        &mut self,
        r: Request,
    ) -> std::result::Result<Reply, (lsp_server::ErrorCode, String)> {
        use lsp_server::ErrorCode;
        let bad = |e: serde_json::Error| (ErrorCode::InvalidParams, e.to_string());
        let enc = self.enc;
        let json = |v: serde_json::Result<serde_json::Value>| {
            v.map(Reply::Value)
                .map_err(|e| (ErrorCode::InternalError, e.to_string()))
        };
        match r.method.as_str() {
            req::HoverRequest::METHOD => {
                let p: HoverParams = serde_json::from_value(r.params).map_err(bad)?;
                let Some((o, at)) = self.at(&p.text_document_position_params) else {
                    return Ok(Reply::Value(serde_json::Value::Null));
                };
                json(serde_json::to_value(super::features::hover(o, at, enc)))
            }
            req::GotoDefinition::METHOD => {
                let p: GotoDefinitionParams = serde_json::from_value(r.params).map_err(bad)?;
                let uri = p.text_document_position_params.text_document.uri.clone();
                let Some((o, at)) = self.at(&p.text_document_position_params) else {
                    return Ok(Reply::Value(serde_json::Value::Null));
                };
                let loc = o
                    .doc
                    .definition(at)
                    .map(|s| super::features::location(&uri, o, s, enc));
                json(serde_json::to_value(
                    loc.map(GotoDefinitionResponse::Scalar),
                ))
            }
            req::References::METHOD => {
                let p: ReferenceParams = serde_json::from_value(r.params).map_err(bad)?;
                let uri = p.text_document_position.text_document.uri.clone();
                let Some((o, at)) = self.at(&p.text_document_position) else {
                    return Ok(Reply::Value(serde_json::Value::Null));
                };
                let locs: Vec<Location> = o
                    .doc
                    .references(at, p.context.include_declaration)
                    .into_iter()
                    .map(|s| super::features::location(&uri, o, s, enc))
                    .collect();
                json(serde_json::to_value(locs))
            }
            req::Completion::METHOD => {
                let p: CompletionParams = serde_json::from_value(r.params).map_err(bad)?;
                let Some((o, at)) = self.at(&p.text_document_position) else {
                    return Ok(Reply::Value(serde_json::Value::Null));
                };
                let registry = match o.last.as_ref() {
                    Some(v) => v.registry.clone(),
                    None => self
                        .cfg
                        .sources
                        .context(o.path.as_deref())
                        .ok()
                        .and_then(|c| c.registry),
                };
                // Capped and narrowed to what is typed (`isIncomplete`
                // when some were left out: the client asks again as the
                // user types on).
                let (items, is_incomplete) = match o.doc.complete(at, registry.as_deref()) {
                    Some(c) => {
                        let incomplete = c.incomplete;
                        (super::features::completion_items(o, c, enc), incomplete)
                    }
                    None => (Vec::new(), false),
                };
                json(serde_json::to_value(CompletionResponse::List(
                    CompletionList {
                        is_incomplete,
                        items,
                    },
                )))
            }
            req::DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams = serde_json::from_value(r.params).map_err(bad)?;
                match self.open.get_mut(p.text_document.uri.as_str()) {
                    Some(o) => super::features::symbols_json(o, enc)
                        .map(Reply::Raw)
                        .map_err(|e| (ErrorCode::InternalError, e.to_string())),
                    None => Ok(Reply::Value(serde_json::Value::Null)),
                }
            }
            req::CodeActionRequest::METHOD => {
                let p: CodeActionParams = serde_json::from_value(r.params).map_err(bad)?;
                let key = p.text_document.uri.as_str().to_string();
                let Some(o) = self.open.get_mut(&key) else {
                    return Ok(Reply::Value(serde_json::Value::Null));
                };
                // Fixes are edits of the text as it is now: validate it
                // now if the last validation is of another version.
                if o.current().is_none() {
                    let v = validate_now(&self.cfg.sources, o, o.version, None);
                    o.last = Some(v);
                }
                let o = &self.open[&key];
                let v = o.current().expect("validated above");
                let actions: Vec<CodeActionOrCommand> =
                    super::features::actions(&p.text_document.uri, o, v, p.range, enc)
                        .into_iter()
                        .map(CodeActionOrCommand::CodeAction)
                        .collect();
                json(serde_json::to_value(actions))
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("planforge lsp does not implement {}", r.method),
            )),
        }
    }

    /// The open document and byte offset a position names.
    fn at(&self, p: &TextDocumentPositionParams) -> Option<(&Open, usize)> {
        let o = self.open.get(p.text_document.uri.as_str())?;
        Some((o, o.lines.offset(&o.doc.text, p.position, self.enc)))
    }
}
