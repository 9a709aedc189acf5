//! The frames between the client and the MCP session: every line the client
//! sends is read here first. A line that is not JSON (truncated, invalid
//! UTF-8, nested deeper than a JSON-RPC message can be, larger than
//! [`MAX_FRAME`]) is answered with JSON-RPC `-32700`; a `tools/call` whose
//! params are not `{name, arguments?}` with `-32602`; everything else goes to
//! the session unchanged. The session goes on either way. One writer puts
//! both the session's frames and these answers on stdout, a line each.

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// The largest frame read (far above any tool call).
pub(crate) const MAX_FRAME: usize = 64 * 1024 * 1024;

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub(crate) enum Verdict {
    /// Hand it to the session.
    Pass,
    /// Answer it here with this JSON-RPC error response.
    Answer(Value),
    /// Nothing to do (an empty line).
    Skip,
}

fn error_response(id: Value, code: i64, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The `id` of a message object, read without building the message: a
/// string or number right under the top-level object, if there is one.
fn top_level_id(line: &[u8]) -> Option<Value> {
    let (mut depth, mut i) = (0usize, 0usize);
    while i < line.len() {
        match line[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < line.len() && line[i] != b'"' {
                    i += if line[i] == b'\\' { 2 } else { 1 };
                }
                let key = line.get(start..=i)?;
                i += 1;
                if depth == 1 && key == b"\"id\"" {
                    let rest = line.get(i..)?;
                    let rest = rest
                        .trim_ascii_start()
                        .strip_prefix(b":")?
                        .trim_ascii_start();
                    let end = if rest.first() == Some(&b'"') {
                        1 + rest[1..].iter().position(|b| *b == b'"')? + 1
                    } else {
                        rest.iter()
                            .position(|b| matches!(b, b',' | b'}' | b' '))
                            .unwrap_or(rest.len())
                    };
                    let id: Value = serde_json::from_slice(&rest[..end]).ok()?;
                    return (id.is_string() || id.is_number()).then_some(id);
                }
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Judges one line (without its newline).
pub(crate) fn judge(line: &[u8]) -> Verdict {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Skip;
    }
    let v: Value = match serde_json::from_slice(line) {
        Ok(v) => v,
        Err(e) => {
            if std::str::from_utf8(line).is_err() {
                return Verdict::Answer(error_response(
                    Value::Null,
                    -32700,
                    "Parse error: the frame is not valid UTF-8".into(),
                ));
            }
            // Valid JSON nested too deep for a message: answered with its id,
            // so that the client that waits on it hears back.
            if e.to_string().contains("recursion limit")
                && let Some(id) = top_level_id(line)
            {
                return Verdict::Answer(error_response(
                    id,
                    -32600,
                    "Invalid Request: the message is nested deeper than 128 levels".into(),
                ));
            }
            return Verdict::Answer(error_response(
                Value::Null,
                -32700,
                format!("Parse error: the frame is not JSON: {e}"),
            ));
        }
    };
    let Some(m) = v.as_object() else {
        let what = match v {
            Value::Array(_) => "a list (a batch: batches are not supported)",
            other => crate::wire::json::type_name(&other),
        };
        return Verdict::Answer(error_response(
            Value::Null,
            -32600,
            format!("Invalid Request: a JSON-RPC message is an object, not {what}"),
        ));
    };
    // An id is a string or a number; anything else is answered with null.
    let id = m
        .get("id")
        .filter(|i| i.is_string() || i.is_number())
        .cloned()
        .unwrap_or(Value::Null);
    if m.contains_key("id")
        && !m.contains_key("method")
        && !m.contains_key("result")
        && !m.contains_key("error")
    {
        return Verdict::Answer(error_response(
            id,
            -32600,
            "Invalid Request: a request needs a `method`".into(),
        ));
    }
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Verdict::Answer(error_response(
            id,
            -32600,
            "Invalid Request: `jsonrpc` must be \"2.0\"".into(),
        ));
    }
    let request = m.contains_key("id");
    if request
        && m.get("method").and_then(Value::as_str) == Some("tools/call")
        && let Some(why) = call_params_problem(m.get("params"))
    {
        return Verdict::Answer(error_response(id, -32602, format!("Invalid params: {why}")));
    }
    if let Some(why) = shape_problem(m) {
        // A notification is never answered (JSON-RPC): one whose params
        // are a list is a well-formed JSON-RPC message MCP cannot take,
        // dropped; one that is not a JSON-RPC message at all is answered
        // with the id `null`, as JSON-RPC's own examples answer one.
        if !request && why == ARRAY_PARAMS {
            return Verdict::Skip;
        }
        return Verdict::Answer(error_response(
            id,
            -32600,
            format!("Invalid Request: {why}"),
        ));
    }
    repeated_key(line, m, id).unwrap_or(Verdict::Pass)
}

/// A message that holds a key twice in one object. The frame was read as a
/// `serde_json` value above, which keeps the last of two keys: the session
/// would have acted on one of them, the other dropped unseen. Inside a
/// known tool's arguments it is refused as the tool refuses any argument it
/// cannot read (`planforge tool` and a plan document refuse it the same
/// way); anywhere else the message is an invalid request (its id is named
/// unless the id is the key repeated).
fn repeated_key(line: &[u8], m: &serde_json::Map<String, Value>, id: Value) -> Option<Verdict> {
    let e = crate::wire::parse::json(std::str::from_utf8(line).ok()?).err()?;
    if !e.is_duplicate_key() {
        return None;
    }
    let pointer = e.pointer.clone().unwrap_or_default();
    let name = m
        .get("params")
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str);
    let tool = (m.get("method").and_then(Value::as_str) == Some("tools/call"))
        .then(|| super::tools::all().iter().find(|t| Some(t.name) == name))
        .flatten();
    let inside = pointer
        .strip_prefix("/params/arguments")
        .filter(|at| at.starts_with('/'));
    let (Some(tool), Some(at)) = (tool, inside) else {
        let id = if pointer == "/id" { Value::Null } else { id };
        let e = crate::wire::parse::ParseError {
            line: None,
            column: None,
            ..e
        };
        return Some(Verdict::Answer(error_response(
            id,
            -32600,
            format!("Invalid Request: {e}; a message says each key once"),
        )));
    };
    let e = crate::wire::parse::ParseError {
        pointer: Some(at.to_string()),
        line: None,
        column: None,
        ..e
    };
    // Worded as `planforge tool` words it; the pointer is in the message.
    let e = crate::model::error::Error::invalid(format!("arguments: {e}"));
    let out = super::tools::Outcome::error(tool.name, e);
    let refusal = json!({"content": [{"type": "text", "text": out.text}], "isError": true});
    Some(Verdict::Answer(
        json!({"jsonrpc": "2.0", "id": id, "result": refusal}),
    ))
}

/// Why a message is not shaped as an MCP request or notification: an
/// `id` that is not a string or an integer (JSON-RPC allows any number;
/// the session reads integers only), a `method` that is not a string,
/// `params` that are not an object (JSON-RPC allows an array too; MCP's
/// methods all take named params). Answered here with the id when it can
/// be read: the session would answer without any id, leaving the client
/// that sent it waiting.
fn shape_problem(m: &serde_json::Map<String, Value>) -> Option<&'static str> {
    let method = m.get("method")?;
    if m.get("id")
        .is_some_and(|i| !i.is_string() && i.as_i64().is_none())
    {
        return Some("`id` must be a string or an integer from -2^63 to 2^63-1");
    }
    if !method.is_string() {
        return Some("`method` must be a string");
    }
    match m.get("params") {
        None | Some(Value::Object(_)) => None,
        Some(Value::Array(_)) => Some(ARRAY_PARAMS),
        Some(_) => Some("`params` must be an object"),
    }
}

/// Params given by position, which JSON-RPC allows and MCP does not.
const ARRAY_PARAMS: &str =
    "`params` must be an object: MCP's methods take named params, not a list";

/// Why `tools/call` params are not `{name: string, arguments?: object}`.
fn call_params_problem(params: Option<&Value>) -> Option<String> {
    let Some(p) = params.and_then(Value::as_object) else {
        return Some("tools/call takes params {\"name\": …, \"arguments\": {…}}".into());
    };
    match p.get("name") {
        Some(Value::String(_)) => {}
        Some(_) => return Some("`name` must be the tool's name, a string".into()),
        None => return Some("tools/call needs the tool's `name`".into()),
    }
    match p.get("arguments") {
        None | Some(Value::Null) | Some(Value::Object(_)) => None,
        Some(other) => Some(format!(
            "`arguments` must be an object of the tool's arguments, not {}",
            crate::wire::json::type_name(other)
        )),
    }
}

/// Reads the client's lines from `input`: passes good ones to `session`,
/// answers the others through `out` (while the session's output is open).
/// Returns at EOF (then the session's input closes too).
pub(crate) async fn filter<R, W>(
    mut input: R,
    mut session: W,
    out: mpsc::WeakUnboundedSender<Vec<u8>>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut buf = vec![0u8; 64 * 1024];
    let mut line: Vec<u8> = Vec::new();
    let mut oversized = false;
    loop {
        let n = match input.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        let mut chunk = &buf[..n];
        while let Some(nl) = chunk.iter().position(|b| *b == b'\n') {
            if !oversized {
                line.extend_from_slice(&chunk[..nl]);
            }
            let whole = std::mem::take(&mut line);
            let verdict = if oversized {
                Verdict::Answer(error_response(
                    Value::Null,
                    -32700,
                    format!("Parse error: the frame is larger than {MAX_FRAME} bytes"),
                ))
            } else {
                judge(&whole)
            };
            oversized = false;
            match verdict {
                Verdict::Pass => {
                    let mut framed = whole;
                    framed.push(b'\n');
                    if session.write_all(&framed).await.is_err() {
                        return;
                    }
                }
                Verdict::Answer(v) => {
                    let mut text = serde_json::to_vec(&v).expect("JSON values always serialise");
                    text.push(b'\n');
                    if let Some(out) = out.upgrade() {
                        let _ = out.send(text);
                    }
                }
                Verdict::Skip => {}
            }
            chunk = &chunk[nl + 1..];
        }
        if !oversized {
            line.extend_from_slice(chunk);
            if line.len() > MAX_FRAME {
                oversized = true;
                line = Vec::new();
            }
        }
    }
    // A last line without its newline is still a frame.
    if !line.is_empty() && !oversized {
        match judge(&line) {
            Verdict::Pass => {
                line.push(b'\n');
                let _ = session.write_all(&line).await;
            }
            Verdict::Answer(v) => {
                let mut text = serde_json::to_vec(&v).expect("JSON values always serialise");
                text.push(b'\n');
                if let Some(out) = out.upgrade() {
                    let _ = out.send(text);
                }
            }
            Verdict::Skip => {}
        }
    }
    let _ = session.shutdown().await;
}

/// Copies the session's frames to `out`, whole lines at a time.
pub(crate) async fn relay<R>(mut from_session: R, out: mpsc::UnboundedSender<Vec<u8>>)
where
    R: AsyncRead + Unpin,
{
    let mut buf = vec![0u8; 64 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    loop {
        let n = match from_session.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        if let Some(last) = pending.iter().rposition(|b| *b == b'\n') {
            let rest = pending.split_off(last + 1);
            let _ = out.send(worded(std::mem::replace(&mut pending, rest)));
        }
    }
    if !pending.is_empty() {
        let _ = out.send(worded(pending));
    }
}

/// The methods this server answers (besides notifications), for the
/// message of a method it does not.
const METHODS: &str = "initialize, ping, tools/list and tools/call";

/// The longest method name said back in full (longer ones are cut).
const NAME_MAX: usize = 128;

/// `frames` (whole lines) with the session's "method not found" errors
/// worded: the session's message is the bare method name
/// (`{"code": -32601, "message": "resources/list"}`), which reads as if
/// the method were the error; it becomes `Method not found: …` with the
/// methods this server answers. Lines without such an error pass as they
/// are, unparsed.
fn worded(frames: Vec<u8>) -> Vec<u8> {
    if memchr::memmem::find(&frames, b"-32601").is_none() {
        return frames;
    }
    let mut out = Vec::with_capacity(frames.len() + 128);
    for line in frames.split_inclusive(|b| *b == b'\n') {
        match method_not_found(line) {
            Some(v) => {
                out.extend(serde_json::to_vec(&v).expect("JSON values always serialise"));
                out.push(b'\n');
            }
            None => out.extend_from_slice(line),
        }
    }
    out
}

/// `line` with its error's message worded, when it is a -32601 error
/// whose message is the bare method name (not worded already).
fn method_not_found(line: &[u8]) -> Option<Value> {
    let mut v: Value = serde_json::from_slice(line).ok()?;
    let error = v.get_mut("error")?;
    if error.get("code")?.as_i64()? != -32601 {
        return None;
    }
    let method = error.get("message")?.as_str()?;
    if method.starts_with("Method not found") {
        return None;
    }
    let message = match method.char_indices().nth(NAME_MAX) {
        Some((cut, _)) => format!(
            "Method not found: `{}…` (this server answers {METHODS})",
            &method[..cut]
        ),
        None => format!("Method not found: `{method}` (this server answers {METHODS})"),
    };
    error["message"] = Value::String(message);
    Some(v)
}

/// Writes what the session and the filter produce, one frame at a time.
pub(crate) async fn write_out<W>(mut to: W, mut frames: mpsc::UnboundedReceiver<Vec<u8>>)
where
    W: AsyncWrite + Unpin,
{
    while let Some(f) = frames.recv().await {
        if to.write_all(&f).await.is_err() || to.flush().await.is_err() {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_not_found_is_worded_and_other_frames_pass_as_they_are() {
        let frames = concat!(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"text\":\"-32601\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"error\":{\"code\":-32601,\"message\":\"resources/list\"}}\n",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32601,\"message\":\"Method not found: x\"}}\n",
        );
        let out = String::from_utf8(worded(frames.as_bytes().to_vec())).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "{out}");
        // A result that mentions the number, and a message already worded,
        // pass byte for byte.
        assert_eq!(lines[0], frames.lines().next().unwrap());
        assert_eq!(lines[2], frames.lines().nth(2).unwrap());
        let v: Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(v["id"], "r");
        assert_eq!(v["error"]["code"], -32601);
        assert_eq!(
            v["error"]["message"],
            "Method not found: `resources/list` (this server answers initialize, ping, tools/list and tools/call)"
        );
        // A long name is cut.
        let long = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{{\"code\":-32601,\"message\":\"{}\"}}}}\n",
            "x".repeat(100_000)
        );
        let out: Value = serde_json::from_slice(&worded(long.into_bytes())).unwrap();
        let message = out["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("Method not found: `{}…`", "x".repeat(128))),
            "{message}"
        );
        assert!(message.len() < 300, "{message}");
        // Frames without the code are not parsed at all.
        let plain = b"not json -3260\n".to_vec();
        assert_eq!(worded(plain.clone()), plain);
    }

    fn code(v: Verdict) -> i64 {
        match v {
            Verdict::Answer(r) => r["error"]["code"].as_i64().unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_frames_get_parse_errors_and_bad_params_invalid_params() {
        assert_eq!(
            code(judge(br#"{"jsonrpc": "2.0", "id": 1, "method": "#)),
            -32700
        );
        assert_eq!(
            code(judge(b"{\"jsonrpc\": \"2.0\", \"x\": \"\xff\"}")),
            -32700
        );
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(code(judge(deep.as_bytes())), -32700);
        assert_eq!(code(judge(b"[1, 2]")), -32600);
        for (frame, said) in [
            (
                &b"[1, 2]"[..],
                "a list (a batch: batches are not supported)",
            ),
            (b"42", "a number"),
            (b"\"x\"", "a string"),
            (b"null", "null"),
        ] {
            match judge(frame) {
                Verdict::Answer(v) => assert_eq!(
                    v["error"]["message"],
                    format!("Invalid Request: a JSON-RPC message is an object, not {said}")
                ),
                other => panic!("{other:?}"),
            }
        }
        // Valid but too deep: answered with its id, so the client hears back.
        let deep_call = format!(
            r#"{{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{{"name":"x","arguments":{{"v":{}1{}}}}}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        match judge(deep_call.as_bytes()) {
            Verdict::Answer(v) => assert_eq!(
                (v["id"].clone(), v["error"]["code"].clone()),
                (json!(42), json!(-32600))
            ),
            other => panic!("{other:?}"),
        }
        // A request without a method names its id.
        match judge(br#"{"jsonrpc":"2.0","id":108}"#) {
            Verdict::Answer(v) => assert_eq!(
                (v["id"].clone(), v["error"]["code"].clone()),
                (json!(108), json!(-32600))
            ),
            other => panic!("{other:?}"),
        }
        let call = |params: &str| {
            format!(r#"{{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {params}}}"#)
        };
        let r = judge(call(r#"{"name": "plan_status", "arguments": [1]}"#).as_bytes());
        match &r {
            Verdict::Answer(v) => assert_eq!(v["id"], 7),
            other => panic!("{other:?}"),
        }
        assert_eq!(code(r), -32602);
        assert_eq!(code(judge(call("3").as_bytes())), -32602);
        assert_eq!(code(judge(call(r#"{"arguments": {}}"#).as_bytes())), -32602);
        assert_eq!(
            judge(call(r#"{"name": "plan_status", "arguments": {"planId": "plan-x"}}"#).as_bytes()),
            Verdict::Pass
        );
        assert_eq!(judge(b"  "), Verdict::Skip);
        // Misshapen requests: answered here with their id when it reads,
        // saying what is wrong; well-shaped ones and notifications pass.
        for (frame, id, why) in [
            (
                r#"{"jsonrpc":"2.0","id":25,"method":"ping","params":"bad"}"#,
                json!(25),
                "`params` must be an object",
            ),
            (
                r#"{"jsonrpc":"2.0","id":26,"method":"tools/list","params":[]}"#,
                json!(26),
                ARRAY_PARAMS,
            ),
            (
                r#"{"jsonrpc":"2.0","id":"a","method":123}"#,
                json!("a"),
                "`method` must be a string",
            ),
            (
                r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
                json!(1.5),
                "`id` must be a string or an integer from -2^63 to 2^63-1",
            ),
            (
                r#"{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}"#,
                json!(12345678901234567890u64),
                "`id` must be a string or an integer from -2^63 to 2^63-1",
            ),
            (
                r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
                Value::Null,
                "`id` must be a string or an integer from -2^63 to 2^63-1",
            ),
            (
                r#"{"jsonrpc":"2.0","id":[1],"method":"ping"}"#,
                Value::Null,
                "`id` must be a string or an integer from -2^63 to 2^63-1",
            ),
            (
                r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":true}"#,
                Value::Null,
                "`params` must be an object",
            ),
        ] {
            match judge(frame.as_bytes()) {
                Verdict::Answer(v) => {
                    assert_eq!(v["id"], id, "{frame}");
                    assert_eq!(v["error"]["code"], -32600, "{frame}");
                    assert_eq!(
                        v["error"]["message"],
                        format!("Invalid Request: {why}"),
                        "{frame}"
                    );
                }
                other => panic!("{frame}: {other:?}"),
            }
        }
        for good in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"ping","params":{}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ] {
            assert_eq!(judge(good.as_bytes()), Verdict::Pass, "{good}");
        }
        // Notifications are not answered: one with its params as a list,
        // or a tools/call without an id, whatever its params.
        for quiet in [
            r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}"#,
            r#"{"jsonrpc":"2.0","method":"tools/call","params":[1]}"#,
        ] {
            assert_eq!(judge(quiet.as_bytes()), Verdict::Skip, "{quiet}");
        }
    }

    #[test]
    fn a_key_twice_in_a_calls_arguments_is_refused_naming_it() {
        let call = |args: &str| {
            format!(
                r#"{{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {{"name": "add_node", "arguments": {args}}}}}"#
            )
        };
        let frame = call(
            r#"{"planId": "plan-a", "node": {"id": "a", "kind": "join", "id": "b", "definition": {}}}"#,
        );
        let Verdict::Answer(v) = judge(frame.as_bytes()) else {
            panic!("passed");
        };
        assert_eq!(
            (v["id"].clone(), v["result"]["isError"].clone()),
            (json!(9), json!(true))
        );
        let text = v["result"]["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("add_node refused: arguments: the key \"id\" appears twice in one object; keep one of them (at /node/id)"),
            "{text}"
        );
        assert!(
            !text.contains("column") && text.matches("/node/id").count() == 1,
            "{text}"
        );
        // The same key in two objects is no repeat.
        let ok = call(
            r#"{"planId": "plan-a", "node": {"id": "a", "kind": "join", "definition": {"id": 1}}}"#,
        );
        assert_eq!(judge(ok.as_bytes()), Verdict::Pass);
        // Outside a known tool's arguments: an invalid request, with its id
        // unless the id is the key repeated.
        let other = frame.replace("add_node", "not_a_tool");
        assert_eq!(code(judge(other.as_bytes())), -32600);
        let twice = |frame: &str| match judge(frame.as_bytes()) {
            Verdict::Answer(v) => (v["id"].clone(), v["error"]["message"].clone()),
            other => panic!("{other:?}"),
        };
        let (id, message) = twice(
            r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "plan_status", "name": "add_node", "arguments": {}}}"#,
        );
        assert_eq!(id, json!(3));
        assert!(
            message.as_str().unwrap().contains("\"name\" appears twice"),
            "{message}"
        );
        let (id, _) = twice(r#"{"jsonrpc": "2.0", "id": 3, "id": 4, "method": "tools/list"}"#);
        assert_eq!(id, Value::Null);
        let (_, message) = twice(
            r#"{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "plan_status", "arguments": {}, "arguments": {}}}"#,
        );
        assert!(
            message.as_str().unwrap().contains("(at /params/arguments)"),
            "{message}"
        );
    }
}
