//! `planforge mcp` driven as an MCP client would drive it: raw JSON-RPC,
//! one message per line, over the child's stdin and stdout.

mod common;

use common::{Env, bin};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

/// A running server and the client side of its stdio.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Client {
    fn start(store: &Path, extra: &[&str]) -> Client {
        let mut child = Command::new(bin())
            .arg("--store")
            .arg(store)
            .arg("mcp")
            .args(extra)
            .env("NO_COLOR", "1")
            .env_remove("PLANFORGE_ACTOR")
            .env_remove("PLANFORGE_STORE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        let mut c = Client {
            child,
            stdin,
            lines: rx,
            next_id: 1,
        };
        let init = c.request(
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "planforge-tests", "version": "0"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "planforge", "{init}");
        assert!(
            init["result"]["capabilities"]["tools"].is_object(),
            "{init}"
        );
        c.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        c
    }

    fn send(&mut self, msg: Value) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    /// Writes raw bytes and a newline: a frame that may not be JSON at all.
    fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next frame the server writes.
    fn next_frame(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(60))
            .expect("no frame");
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("non-JSON line ({e}): {line}"))
    }

    /// Sends a request and returns its response. Every line the server
    /// writes must be a JSON-RPC message.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no response to {method}"));
            let msg: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"));
            assert_eq!(msg["jsonrpc"], "2.0", "{line}");
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    fn tool_names(&mut self) -> Vec<String> {
        let r = self.request("tools/list", json!({}));
        r["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{r}"))
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_string())
            .collect()
    }

    /// Calls a tool: (isError, text).
    fn call(&mut self, name: &str, args: Value) -> (bool, String) {
        let r = self.request("tools/call", json!({"name": name, "arguments": args}));
        let result = &r["result"];
        assert!(result.is_object(), "{name}: {r}");
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: {r}"))
            .to_string();
        if !name.starts_with("raw_") {
            common::assert_model_text(&text);
        }
        (result["isError"] == json!(true), text)
    }

    fn ok(&mut self, name: &str, args: Value) -> String {
        let (err, text) = self.call(name, args);
        assert!(!err, "{name} refused:\n{text}");
        text
    }

    fn refused(&mut self, name: &str, args: Value) -> String {
        let (err, text) = self.call(name, args);
        assert!(err, "{name} was not refused:\n{text}");
        text
    }

    /// Closes stdin and waits: the server must exit 0 on EOF, with nothing
    /// but protocol frames left on stdout.
    fn finish(mut self) {
        drop(self.stdin.take());
        let status = wait_with_timeout(&mut self.child, Duration::from_secs(30));
        assert_eq!(status, Some(0), "the server did not exit 0 on EOF");
        while let Ok(line) = self.lines.try_recv() {
            serde_json::from_str::<Value>(&line)
                .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_with_timeout(child: &mut Child, limit: Duration) -> Option<i32> {
    let start = std::time::Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s.code();
        }
        if start.elapsed() > limit {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const AUTHORING: [&str; 24] = [
    "create_plan",
    "add_node",
    "set_node_config",
    "set_node_field",
    "set_node_phase",
    "connect_nodes",
    "remove_node",
    "disconnect_edge",
    "set_bounds",
    "undo_change",
    "clone_plan",
    "orchestrate_plan",
    "get_plan",
    "validate_plan",
    "freeze_plan",
    "unfreeze_plan",
    "submit_plan",
    "plan_status",
    "raw_plan",
    "raw_diff",
    "raw_ops",
    "plan_outline",
    "plan_read",
    "explain_issue",
];

/// A raw tool's answer: JSON, compact (no indentation costs the model
/// context), parsed.
fn compact_json(text: &str) -> Value {
    let v: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(serde_json::to_string(&v).unwrap(), text, "not compact JSON");
    v
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn entry() -> Value {
    json!({"id": "start", "phase": "intake", "kind": "entry",
           "definition": {"input": [{"path": "ticket", "type": "string"}]}})
}

/// A call whose tool name is one letter off the registry's `read_artifact`.
fn fetch() -> Value {
    json!({"id": "fetch", "phase": "work", "kind": "call", "definition": {
        "tool": "read_artifcat",
        "args": {"path": {"$ref": {"node": "start", "select": "first", "path": "ticket"}}},
        "output": [{"path": "content", "type": "string"}],
        "onMissingValue": "fail",
        "authority": [{"capability": "artifacts", "scope": "tickets", "verb": "read"}],
        "replaySafe": true,
        "onIndeterminate": "retry",
        "declassifies": ["content"]
    }})
}

fn summarize() -> Value {
    json!({"id": "summarize", "phase": "work", "kind": "reason", "definition": {
        "prompt": [{"text": "Summarise the ticket"},
                   {"$ref": {"node": "fetch", "select": "first", "path": "content"}}],
        "outputSchema": {"type": "object", "properties": {"summary": {"type": "string"}}},
        "maxAttempts": 2
    }})
}

/// The process runs on ordinary pages, not transparent huge pages (see
/// `src/main.rs`: after a pause, a virtual machine's host supplies each
/// huge page afresh, and a command at 100,000 nodes waited several times
/// as long). Read from the running server's own status in /proc.
#[cfg(target_os = "linux")]
#[test]
fn the_process_asks_for_ordinary_pages() {
    let env = Env::new().init();
    let c = Client::start(&env.store(), &[]);
    let status = std::fs::read_to_string(format!("/proc/{}/status", c.child.id())).unwrap();
    let thp = status.lines().find(|l| l.starts_with("THP_enabled:"));
    // A kernel that does not report it has nothing to disable.
    if let Some(line) = thp {
        assert_eq!(line.split_whitespace().nth(1), Some("0"), "{status}");
    }
    c.finish();
}

#[test]
fn a_client_builds_freezes_and_submits_a_plan() {
    let store = Env::new();
    let mut c = Client::start(&store.store(), &[]);

    // tools/list: exactly the authoring tier, with schemas and annotations.
    let list = c.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let names: Vec<String> = tools
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        sorted(names),
        sorted(AUTHORING.iter().map(|s| s.to_string()).collect())
    );
    // Annotations: `every_tool_is_titled_and_annotated_for_what_it_does`.
    let by_name = |n: &str| tools.iter().find(|t| t["name"] == n).unwrap().clone();
    let schema = &by_name("add_node")["inputSchema"];
    assert_eq!(schema["additionalProperties"], false);
    assert_eq!(schema["required"], json!(["planId", "node"]));
    assert!(
        by_name("add_node")["description"]
            .as_str()
            .unwrap()
            .contains("case_<label>")
    );
    let total = list.to_string().len();
    // The grammar once, not four times (it was 29.5 KB with it repeated).
    assert!(total < 25_000, "tools/list is {total} bytes");

    let text = c.ok("create_plan", json!({"planId": "plan-mcp"}));
    assert!(text.contains("plan-mcp"), "{text}");

    let text = c.ok("add_node", json!({"planId": "plan-mcp", "node": entry()}));
    assert!(text.contains("start") && text.contains("rev 1"), "{text}");
    assert!(text.len() <= 1200, "{text}");
    c.ok("add_node", json!({"planId": "plan-mcp", "node": fetch()}));
    c.ok(
        "add_node",
        json!({"planId": "plan-mcp", "node": summarize(), "expectedRevision": 2}),
    );
    let text = c.ok(
        "connect_nodes",
        json!({"planId": "plan-mcp", "edge": {"from": "start", "to": "fetch"}}),
    );
    assert!(text.contains("start__fetch"), "{text}");
    c.ok(
        "connect_nodes",
        json!({"planId": "plan-mcp", "edge": {"id": "e2", "from": "fetch", "to": "summarize", "handle": "always"}}),
    );

    // Scoped reading.
    let outline = c.ok("plan_outline", json!({"planId": "plan-mcp"}));
    for needle in [
        "intake",
        "work",
        "start",
        "fetch",
        "summarize",
        "read_artifcat",
    ] {
        assert!(outline.contains(needle), "{needle}: {outline}");
    }
    let slice = c.ok("plan_read", json!({"planId": "plan-mcp", "node": "fetch"}));
    assert!(slice.contains("fetch") && slice.contains("start__fetch") && slice.contains("e2"));
    let slice = c.ok("plan_read", json!({"planId": "plan-mcp", "phase": "work"}));
    assert!(slice.contains("summarize") && slice.contains("start__fetch"));

    // Freeze is refused, naming the node and the tool; fixed; accepted.
    let text = c.refused("freeze_plan", json!({"planId": "plan-mcp"}));
    for needle in [
        "freeze_plan",
        "unknown_tool",
        "fetch",
        "read_artifcat",
        "read_artifact",
    ] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    c.ok(
        "set_node_field",
        json!({"planId": "plan-mcp", "nodeId": "fetch", "path": "tool", "value": "read_artifact"}),
    );
    let text = c.ok("freeze_plan", json!({"planId": "plan-mcp"}));
    assert!(text.contains("reviewable"), "{text}");
    let text = c.ok(
        "submit_plan",
        json!({"planId": "plan-mcp", "decidedBy": "owner"}),
    );
    assert!(text.contains("executable") && text.contains("artifacts / tickets / read"));

    // The reference reads back in the wire form it was written in.
    let raw = c.ok("raw_plan", json!({"planId": "plan-mcp"}));
    let raw = compact_json(&raw);
    let node = raw["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == "fetch")
        .unwrap();
    assert_eq!(
        node["definition"]["args"]["path"],
        json!({"$ref": {"node": "start", "select": "first", "path": "ticket"}})
    );
    let ops = compact_json(&c.ok("raw_ops", json!({"planId": "plan-mcp"})));
    let diff = c.ok(
        "raw_diff",
        json!({"planId": "plan-mcp", "a": 0, "b": "current"}),
    );
    assert_eq!(
        compact_json(&diff)["nodesAdded"].as_array().unwrap().len(),
        3
    );
    assert!(
        ops["ops"]
            .as_array()
            .unwrap()
            .iter()
            .all(|o| o["actorId"] == "mcp")
    );

    // A later mutation is refused, with the way out.
    let text = c.refused(
        "add_node",
        json!({"planId": "plan-mcp", "node": {"id": "late", "kind": "join", "definition": {}}}),
    );
    assert!(
        text.contains("executable") && text.contains("clone_plan"),
        "{text}"
    );

    // Unknown argument keys and wrong types are refused, naming them.
    let text = c.refused("create_plan", json!({"planId": "plan-two", "lable": "x"}));
    assert!(
        text.contains("`lable`") && text.contains("`label`"),
        "{text}"
    );
    let text = c.refused(
        "connect_nodes",
        json!({"planId": "plan-mcp", "edge": {"from": "a", "to": 3, "kind": "x"}}),
    );
    assert!(text.contains("`edge` has no key `kind`"), "{text}");
    assert!(
        text.contains("`edge.to` must be a string, not a number"),
        "{text}"
    );

    // An unknown tool is a protocol error, and the session goes on.
    let r = c.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    c.ok("plan_status", json!({"planId": "plan-mcp"}));

    // Tools never change the store's current plan.
    assert!(!store.store().join("current").exists());
    c.finish();
}

#[test]
fn add_node_refuses_wrong_types_in_the_definition_naming_them() {
    let store = Env::new();
    let mut c = Client::start(&store.store(), &[]);
    c.ok("create_plan", json!({"planId": "plan-x"}));
    let text = c.refused(
        "add_node",
        json!({"planId": "plan-x", "node": {"id": "fetch", "kind": "call",
               "definition": {"tool": 3, "replaySafe": "yes", "colour": "red"}}}),
    );
    for needle in ["fetch", "tool", "replaySafe", "colour"] {
        assert!(text.contains(needle), "{needle}: {text}");
    }
    let text = c.refused(
        "add_node",
        json!({"planId": "plan-x", "node": {"id": "a", "kind": "call",
               "definition": {"args": {"x": {"$ref": {"node": "b"}}}}}}),
    );
    assert!(
        text.contains("select") && text.contains("/node/definition/args/x"),
        "{text}"
    );
    // Half-written is fine: missing fields are findings, not refusals.
    c.ok(
        "add_node",
        json!({"planId": "plan-x", "node": {"id": "fetch", "kind": "call", "definition": {"tool": "read_artifact"}}}),
    );
    let text = c.refused(
        "set_node_config",
        json!({"planId": "plan-x", "nodeId": "fetch",
               "definition": {"kind": "call", "definition": {"tool": "read_artifact", "bogus": 1}}}),
    );
    assert!(text.contains("bogus"), "{text}");
    c.finish();
}

#[test]
fn read_only_servers_refuse_mutations_and_still_read() {
    let store = Env::new();
    {
        let mut c = Client::start(&store.store(), &[]);
        c.ok("create_plan", json!({"planId": "plan-ro"}));
        c.ok("add_node", json!({"planId": "plan-ro", "node": entry()}));
        c.finish();
    }
    let mut c = Client::start(&store.store(), &["--read-only"]);
    // Mutating tools stay listed.
    assert_eq!(
        sorted(c.tool_names()),
        sorted(AUTHORING.iter().map(|s| s.to_string()).collect())
    );
    let text = c.refused("add_node", json!({"planId": "plan-ro", "node": fetch()}));
    assert!(
        text.contains("read-only") && text.contains("add_node"),
        "{text}"
    );
    let text = c.ok("plan_outline", json!({"planId": "plan-ro"}));
    assert!(text.contains("start"), "{text}");
    let text = c.ok("plan_status", json!({"planId": "plan-ro"}));
    assert!(text.contains("rev=1"), "{text}");
    c.finish();
}

#[test]
fn the_front_tier_is_exactly_three_tools() {
    let store = Env::new();
    let mut c = Client::start(&store.store(), &["--tier", "front"]);
    assert_eq!(
        c.tool_names(),
        ["list_templates", "instantiate_plan", "author_plan"]
    );
    let r = c.request(
        "tools/call",
        json!({"name": "add_node", "arguments": {"planId": "plan-a"}}),
    );
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let text = c.ok("list_templates", json!({}));
    for id in [
        "single",
        "fan_out_2",
        "ordered_handoff_3",
        "advocate_critic",
    ] {
        assert!(text.contains(&format!("· {id} — ")), "{id}: {text}");
    }
    let args = json!({"role": "researcher", "goal": "Find the three cheapest flights",
                      "input": "dates: May 3-5", "output": "flights.md", "synthesis": "summary.md"});
    let text = c.ok(
        "instantiate_plan",
        json!({"template": "single", "args": args}),
    );
    assert!(text.contains("from template \"single\""), "{text}");
    assert!(text.contains("Issues: 0 blocking"), "{text}");
    let text = c.refused(
        "instantiate_plan",
        json!({"template": "single", "args": {"role": "researcher"}}),
    );
    assert!(
        text.contains("invalid_args") && text.contains("`goal`"),
        "{text}"
    );
    assert!(text.contains("list_templates"), "{text}");
    let request = "Pick up my prescription \"as usual\"\nat the Holly Springs Walgreens";
    let text = c.ok(
        "author_plan",
        json!({"request": request, "detail": "weekly"}),
    );
    assert!(text.contains("Holly Springs Walgreens"), "{text}");
    let id = text
        .split_whitespace()
        .find(|w| w.starts_with("plan-"))
        .unwrap()
        .to_string();
    // The plan's creation, the first op of its log, keeps the request.
    let log = std::fs::read_to_string(store.store().join(&id).join("ops.jsonl")).unwrap();
    let created: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(created["op"], "create_plan");
    assert_eq!(
        created["request"], request,
        "the request is kept byte for byte"
    );
    c.finish();
    let mut all = Client::start(&store.store(), &["--tier", "all"]);
    assert_eq!(all.tool_names().len(), 27);
    all.finish();
}

#[test]
fn pipelined_calls_are_serialised_and_none_is_lost() {
    let store = Env::new();
    let mut c = Client::start(&store.store(), &[]);
    c.ok("create_plan", json!({"planId": "plan-many"}));
    let first = c.next_id;
    for i in 0..20 {
        let id = c.next_id;
        c.next_id += 1;
        c.send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "add_node",
            "arguments": {"planId": "plan-many", "node": {"id": format!("n{i}"), "kind": "join", "definition": {}}}
        }}));
    }
    let mut answered = std::collections::BTreeSet::new();
    while answered.len() < 20 {
        let line = c.lines.recv_timeout(Duration::from_secs(60)).unwrap();
        let msg: Value = serde_json::from_str(&line).unwrap();
        assert_ne!(msg["result"]["isError"], json!(true), "{msg}");
        answered.insert(msg["id"].as_u64().unwrap());
    }
    assert_eq!(answered, (first..first + 20).collect());
    let ops: Value =
        serde_json::from_str(&c.ok("raw_ops", json!({"planId": "plan-many"}))).unwrap();
    let lamports: Vec<u64> = ops["ops"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["op"] == "add_node")
        .map(|o| o["lamport"].as_u64().unwrap())
        .collect();
    assert_eq!(lamports, (1..=20).collect::<Vec<_>>());
    c.finish();
}

#[test]
fn a_client_that_leaves_or_skips_initialize_gets_a_clean_answer() {
    let env = Env::new();
    // Standard input closed before any message: nothing to serve, exit 0.
    let out = env.with_stdin(&["mcp"], b"");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
    // A notification where `initialize` belongs: a refusal that says so.
    let out = env.with_stdin(
        &["mcp"],
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("initialize request") && !err.contains("Notification("),
        "{err}"
    );
}

#[test]
fn frames_that_are_not_json_rpc_get_error_replies_and_the_session_goes_on() {
    let env = Env::new();
    let mut c = Client::start(&env.store(), &[]);
    let bad: [&[u8]; 3] = [
        br#"{"jsonrpc": "2.0", "id": 40, "method": "tools/list""#,
        b"{\"jsonrpc\": \"2.0\", \"id\": 41, \"method\": \"\xff\xfe\"}",
        &[b'['; 100_000],
    ];
    for frame in bad {
        c.send_raw(frame);
        let r = c.next_frame();
        assert_eq!(r["error"]["code"], -32700, "{r}");
        assert_eq!(r["id"], Value::Null, "{r}");
    }
    // Malformed tools/call params: invalid params, with the request's id.
    for params in [
        json!({"name": "plan_status", "arguments": [1, 2]}),
        json!({"arguments": {}}),
        json!("plan_status"),
    ] {
        let r = c.request("tools/call", params);
        assert_eq!(r["error"]["code"], -32602, "{r}");
    }
    // A method the server does not answer: said so, with those it does.
    for method in ["resources/list", "no/such", "with space"] {
        let r = c.request(method, json!({}));
        assert_eq!(r["error"]["code"], -32601, "{r}");
        assert_eq!(
            r["error"]["message"],
            format!(
                "Method not found: `{method}` (this server answers initialize, ping, tools/list and tools/call)"
            ),
            "{r}"
        );
    }
    // The session is still there.
    assert!(c.tool_names().contains(&"plan_status".to_string()));
    c.finish();
}

/// Every tool of every tier, as `tools/list` publishes it: a title, all four
/// hints, a closed world, and hints that say what the tool does.
#[test]
fn every_tool_is_titled_and_annotated_for_what_it_does() {
    let env = Env::new();
    let mut c = Client::start(&env.store(), &["--tier", "all"]);
    let list = c.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 27);
    let read_only = [
        "list_templates",
        "get_plan",
        "validate_plan",
        "plan_status",
        "raw_plan",
        "raw_diff",
        "raw_ops",
        "plan_outline",
        "plan_read",
        "explain_issue",
    ];
    // Every tool that overwrites or removes something, or cannot be taken
    // back.
    let destructive = [
        "set_node_config",
        "set_node_field",
        "set_node_phase",
        "remove_node",
        "disconnect_edge",
        "set_bounds",
        "undo_change",
        "unfreeze_plan",
        "submit_plan",
    ];
    // A repeat makes one more plan, or takes back one more change.
    let once = [
        "instantiate_plan",
        "author_plan",
        "create_plan",
        "orchestrate_plan",
        "undo_change",
    ];
    for t in tools {
        let name = t["name"].as_str().unwrap();
        let a = &t["annotations"];
        let title = t["title"].as_str().unwrap_or_default();
        assert!(!title.is_empty(), "{name}: no title: {t}");
        assert_eq!(a["title"], title, "{name}");
        let hint = |k: &str| {
            a[k].as_bool()
                .unwrap_or_else(|| panic!("{name}: no boolean {k}: {t}"))
        };
        assert!(!hint("openWorldHint"), "{name}");
        assert_eq!(hint("readOnlyHint"), read_only.contains(&name), "{name}");
        assert_eq!(
            hint("destructiveHint"),
            destructive.contains(&name),
            "{name}"
        );
        assert_eq!(hint("idempotentHint"), !once.contains(&name), "{name}");
        common::assert_model_text(t["description"].as_str().unwrap());
    }
    // The node grammar is stated once; the others that need it point there.
    let descriptions: Vec<(&str, &str)> = tools
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap(),
                t["description"].as_str().unwrap(),
            )
        })
        .collect();
    let stating: Vec<&str> = descriptions
        .iter()
        .filter(|(_, d)| d.contains("NODE GRAMMAR"))
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(stating, ["add_node"]);
    let pointing: Vec<&str> = descriptions
        .iter()
        .filter(|(_, d)| d.contains("stated once, in the description of add_node"))
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(
        pointing,
        ["set_node_config", "set_node_field", "connect_nodes"]
    );
    c.finish();
}

/// Nodes and edges of a raw plan, in a comparable order.
fn graph_of(c: &mut Client, plan: &str) -> (Vec<Value>, Vec<Value>) {
    let raw = compact_json(&c.ok("raw_plan", json!({"planId": plan})));
    let sorted_by_id = |k: &str| {
        let mut v = raw[k].as_array().unwrap().clone();
        v.sort_by_key(|x| x["id"].as_str().unwrap().to_string());
        v
    };
    (sorted_by_id("nodes"), sorted_by_id("edges"))
}

#[test]
fn undo_change_after_remove_node_restores_the_node_and_every_edge() {
    let env = Env::new();
    let mut c = Client::start(&env.store(), &[]);
    let plan = "plan-undo";
    c.ok("create_plan", json!({"planId": plan}));
    c.ok("add_node", json!({"planId": plan, "node": entry()}));
    c.ok("add_node", json!({"planId": plan, "node": fetch()}));
    c.ok("add_node", json!({"planId": plan, "node": summarize()}));
    for (id, from, to, handle) in [
        ("e1", "start", "fetch", "always"),
        ("e2", "fetch", "summarize", "always"),
        ("e3", "fetch", "summarize", "error"),
        ("e4", "start", "summarize", "always"),
    ] {
        c.ok(
            "connect_nodes",
            json!({"planId": plan, "edge": {"id": id, "from": from, "to": to, "handle": handle}}),
        );
    }
    let before = graph_of(&mut c, plan);
    let text = c.ok("remove_node", json!({"planId": plan, "nodeId": "fetch"}));
    assert!(text.contains("3 edge"), "{text}");
    assert_ne!(graph_of(&mut c, plan), before);

    // A moved revision is refused; then the undo puts everything back.
    let text = c.refused(
        "undo_change",
        json!({"planId": plan, "expectedRevision": 1}),
    );
    assert!(text.contains("undo_change"), "{text}");
    let text = c.ok("undo_change", json!({"planId": plan}));
    assert!(
        text.contains("undid") && text.contains("remove_node"),
        "{text}"
    );
    assert!(text.contains("fetch"), "{text}");
    assert_eq!(graph_of(&mut c, plan), before, "after the undo");

    // Again: the change before it (the edge e4) is taken back.
    let text = c.ok("undo_change", json!({"planId": plan}));
    assert!(text.contains("e4"), "{text}");
    let (_, edges) = graph_of(&mut c, plan);
    assert_eq!(edges.len(), 3);

    // A read-only server refuses it like every mutation.
    c.finish();
    let mut ro = Client::start(&env.store(), &["--read-only"]);
    let text = ro.refused("undo_change", json!({"planId": plan}));
    assert!(text.contains("read-only"), "{text}");
    ro.finish();
}

/// The version of the official MCP Python SDK the end-to-end client is
/// pinned to (also in `.ci/run` and the README).
const MCP_SDK: &str = "2.3.0";

/// How to give this test its Python, said whenever it has none.
fn python_setup() -> String {
    format!(
        "tests/mcp_client.py needs a Python with the official MCP Python SDK, `mcp` {MCP_SDK}. \
         From the repository root: `python3 -m venv .venv && .venv/bin/pip install mcp=={MCP_SDK}` \
         (on Debian or Ubuntu, `apt-get install python3-venv` first if `python3 -m venv` fails), \
         or set PLANFORGE_MCP_PYTHON to a Python that has it; .ci/run does the former"
    )
}

/// `PLANFORGE_MCP_PYTHON`, else the repository's `.venv/bin/python`: a
/// Python that has the pinned SDK, or a failure saying how to get one.
fn sdk_python() -> String {
    let python = match std::env::var("PLANFORGE_MCP_PYTHON") {
        Ok(p) if !p.is_empty() => p,
        _ => format!("{}/.venv/bin/python", env!("CARGO_MANIFEST_DIR")),
    };
    let probe = Command::new(&python)
        .args([
            "-c",
            "import importlib.metadata as m, mcp; print(m.version('mcp'))",
        ])
        .output();
    let version = match probe {
        Ok(out) if out.status.success() => String::from_utf8_lossy(&out.stdout).trim().to_string(),
        Ok(out) => panic!(
            "{python} cannot import the MCP SDK ({}).\n{}",
            String::from_utf8_lossy(&out.stderr).trim(),
            python_setup()
        ),
        Err(e) => panic!("{python} does not run ({e}).\n{}", python_setup()),
    };
    assert_eq!(
        version,
        MCP_SDK,
        "{python} has mcp {version}, not the pinned {MCP_SDK}.\n{}",
        python_setup()
    );
    python
}

#[test]
fn the_official_python_sdk_client_passes() {
    let python = sdk_python();
    let script = format!("{}/tests/mcp_client.py", env!("CARGO_MANIFEST_DIR"));
    let mut cmd = Command::new(&python);
    cmd.arg(&script)
        .arg(bin())
        .env("NO_COLOR", "1")
        .env_remove("PLANFORGE_ACTOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for v in common::SCRUBBED {
        cmd.env_remove(v);
    }
    let mut child = cmd.spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).unwrap();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stderr, &mut s).unwrap();
        s
    });
    let status = wait_with_timeout(&mut child, Duration::from_secs(120));
    let _ = child.kill();
    let (out, err) = (out.join().unwrap(), err.join().unwrap());
    assert_eq!(
        status,
        Some(0),
        "{python} {script} failed:\n{out}\n--- stderr\n{err}"
    );
    assert!(out.trim_end().ends_with("all passed"), "{out}");
}
