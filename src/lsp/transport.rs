//! The stdio transport: `Content-Length` frames read and written here rather
//! than by `lsp-server`'s reader, which ends the session at the first
//! malformed message. A frame whose header or body is not JSON-RPC is
//! answered as JSON-RPC 2.0 says (`-32700` Parse error, `-32600` Invalid
//! Request, with `id: null`) and the session goes on; only the end of stdin
//! (or `exit`) ends the reader.

use crossbeam_channel::{Receiver, Sender};
use lsp_server::{Connection, Message};
use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

/// The largest message body read (64 MiB, some eight times a 10,000-node
/// plan sent whole): a larger `Content-Length` is a parse error, its body
/// skipped unread so the next frame is read, and no memory is reserved for
/// it.
pub(crate) const MAX_MESSAGE: usize = 64 << 20;

/// One frame read: a message, or the error response its sender is owed.
#[derive(Debug)]
pub(crate) enum Frame {
    Message(Message),
    Invalid(serde_json::Value),
}

/// The threads behind [`stdio`]; joining the writer flushes every answer.
pub(crate) struct Io {
    writer: JoinHandle<()>,
    /// Answers serialised already (a large one, cached): each body is a
    /// whole JSON-RPC message, written as it is.
    pub(crate) raw: Sender<String>,
}

impl Io {
    pub(crate) fn join(self) {
        drop(self.raw);
        let _ = self.writer.join();
    }
}

/// A connection on stdin and stdout.
pub(crate) fn stdio() -> (Connection, Io) {
    let (out_tx, out_rx) = crossbeam_channel::unbounded::<Message>();
    let (raw_tx, raw_rx) = crossbeam_channel::unbounded::<String>();
    let (in_tx, in_rx) = crossbeam_channel::unbounded::<Message>();
    let writer = std::thread::spawn(move || write_all(&out_rx, &raw_rx));
    // The reader is not joined: after `exit` it may still wait on stdin.
    std::thread::spawn(move || read_all(&mut io::stdin().lock(), &in_tx));
    (
        Connection {
            sender: out_tx,
            receiver: in_rx,
        },
        Io {
            writer,
            raw: raw_tx,
        },
    )
}

/// Writes the messages and the raw bodies as they come, until both
/// senders are gone (or stdout is).
fn write_all(out: &Receiver<Message>, raw: &Receiver<String>) {
    let (mut out, mut raw) = (Some(out), Some(raw));
    let (no_message, no_body) = (crossbeam_channel::never(), crossbeam_channel::never());
    while out.is_some() || raw.is_some() {
        let written = crossbeam_channel::select! {
            recv(out.unwrap_or(&no_message)) -> m => match m {
                Ok(m) => m.write(&mut io::stdout().lock()),
                Err(_) => { out = None; Ok(()) }
            },
            recv(raw.unwrap_or(&no_body)) -> b => match b {
                Ok(body) => write_body(&mut io::stdout().lock(), &body),
                Err(_) => { raw = None; Ok(()) }
            },
        };
        if written.is_err() {
            return;
        }
    }
}

fn write_body(w: &mut impl Write, text: &str) -> io::Result<()> {
    write!(w, "Content-Length: {}\r\n\r\n{text}", text.len())?;
    w.flush()
}

fn read_all(input: &mut impl BufRead, to: &Sender<Message>) {
    while let Ok(Some(frames)) = read_frame(input) {
        for frame in frames {
            match frame {
                Frame::Message(m) => {
                    let exit = matches!(&m, Message::Notification(n) if n.method == "exit");
                    if to.send(m).is_err() || exit {
                        return;
                    }
                }
                Frame::Invalid(v) => {
                    if write_raw(&mut io::stdout().lock(), &v).is_err() {
                        return;
                    }
                }
            }
        }
    }
}

fn write_raw(w: &mut impl Write, v: &serde_json::Value) -> io::Result<()> {
    write_body(w, &v.to_string())
}

/// The JSON-RPC error response with `id: null`.
fn invalid(code: i32, message: String) -> Frame {
    Frame::Invalid(serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": code, "message": message},
    }))
}

/// The next frame, or `None` at the end of the input. A header that is not
/// `Name: value` makes the frame a parse error. Text before the first
/// header (a body sent with no header before the next message) is a parse
/// error of its own, one per line (on the next header's line, one with
/// that frame), and the frame after it is read. A request with `id: null` is an invalid request.
pub(crate) fn read_frame(r: &mut impl BufRead) -> io::Result<Option<Vec<Frame>>> {
    let mut size: Option<usize> = None;
    let mut bad: Option<String> = None;
    let mut garbage: Option<Frame> = None;
    // A header line was read (text that is no header is not one).
    let mut headers = false;
    let mut line = String::new();
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        let text = line.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if headers {
                break;
            }
            continue;
        }
        let header = match text.find("Content-Length:") {
            Some(i) if i > 0 => {
                garbage = Some(invalid(
                    -32700,
                    format!("Parse error: {:?} is not a header", &text[..i]),
                ));
                &text[i..]
            }
            _ => text,
        };
        match header.split_once(':') {
            Some((name, value)) if name.eq_ignore_ascii_case("Content-Length") => {
                headers = true;
                match value.trim().parse::<usize>() {
                    Ok(n) => size = Some(n),
                    Err(_) => {
                        bad.get_or_insert_with(|| format!("malformed header {header:?}"));
                    }
                }
            }
            Some((name, _))
                if !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') =>
            {
                headers = true;
            }
            // Before any header: a line that is no header (of a body sent
            // with none) is a parse error of its own, answered at once (the
            // sender may wait for it), and the frame that follows is read
            // by the next call.
            _ if !headers => {
                return Ok(Some(vec![invalid(
                    -32700,
                    "Parse error: a line with no Content-Length header before it".into(),
                )]));
            }
            _ => {
                bad.get_or_insert_with(|| format!("malformed header {header:?}"));
            }
        }
    }
    if size.is_none() {
        bad.get_or_insert_with(|| "no Content-Length header".into());
    }
    if let Some(n) = size.filter(|&n| n > MAX_MESSAGE) {
        let skipped = io::copy(&mut r.by_ref().take(n as u64), &mut io::sink())?;
        if skipped < n as u64 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let why = format!(
            "Parse error: the message is {n} bytes, over the {MAX_MESSAGE} a message may have"
        );
        return Ok(Some(
            garbage.into_iter().chain([invalid(-32700, why)]).collect(),
        ));
    }
    let mut body = vec![0; size.unwrap_or(0)];
    r.read_exact(&mut body)?;
    let frame = match (bad, serde_json::from_slice::<serde_json::Value>(&body)) {
        (Some(why), _) => invalid(-32700, format!("Parse error: {why}")),
        (None, Err(_)) => invalid(-32700, "Parse error: the body is not JSON".into()),
        // A request whose id is null, an object, an array, a boolean or a
        // fraction would read as a notification (its id ignored) and get no
        // answer: JSON-RPC calls it an invalid request, and LSP gives requests
        // an integer or string id.
        (None, Ok(value)) if value.get("id").is_some_and(|i| !valid_id(i)) => invalid(
            -32600,
            format!(
                "Invalid Request: its id is {}; a request's id is an integer or a string, and a notification has no id",
                id_kind(&value["id"])
            ),
        ),
        (None, Ok(value)) => match serde_json::from_value::<Message>(value) {
            Ok(m) => Frame::Message(m),
            Err(_) => invalid(
                -32600,
                "Invalid Request: neither a request, a response nor a notification".into(),
            ),
        },
    };
    Ok(Some(garbage.into_iter().chain([frame]).collect()))
}

/// Whether `id` is one LSP allows: an integer or a string.
fn valid_id(id: &serde_json::Value) -> bool {
    id.is_string() || id.is_i64() || id.is_u64()
}

/// What an id that is not allowed is, for the error message.
fn id_kind(id: &serde_json::Value) -> &'static str {
    match id {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a fraction",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
        serde_json::Value::String(_) => "a string",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &str) -> Vec<Frame> {
        let mut r = io::Cursor::new(input.as_bytes().to_vec());
        std::iter::from_fn(|| read_frame(&mut r).unwrap())
            .flatten()
            .collect()
    }

    fn code(f: &Frame) -> i64 {
        match f {
            Frame::Invalid(v) => {
                assert!(v["id"].is_null(), "{v}");
                v["error"]["code"].as_i64().unwrap()
            }
            Frame::Message(m) => panic!("a message: {m:?}"),
        }
    }

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    const OK: &str = r#"{"jsonrpc":"2.0","id":1,"method":"shutdown"}"#;

    #[test]
    fn malformed_frames_are_answered_and_reading_goes_on() {
        let input = [
            frame("hello"),
            frame(r#"{"jsonrpc":"2.0"}"#),
            format!("{OK}\r\n\r\n"),
            frame(OK),
        ]
        .concat();
        let got = frames(&input);
        assert_eq!(got.len(), 4, "{got:?}");
        assert_eq!(code(&got[0]), -32700);
        assert_eq!(code(&got[1]), -32600);
        assert_eq!(code(&got[2]), -32700);
        assert!(matches!(&got[3], Frame::Message(Message::Request(r)) if r.method == "shutdown"));
    }

    #[test]
    fn a_body_without_header_before_the_next_frame_keeps_that_frame() {
        let got = frames(&format!("{OK}{}", frame(OK)));
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(code(&got[0]), -32700);
        assert!(matches!(&got[1], Frame::Message(_)), "{got:?}");
    }

    #[test]
    fn a_body_without_header_on_its_own_lines_keeps_the_next_frame() {
        let pretty = "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1\n}\r\n";
        for (garbage, lines) in [(format!("{OK}\r\n"), 1), (pretty.to_string(), 4)] {
            let got = frames(&format!("{garbage}{}", frame(OK)));
            assert_eq!(got.len(), lines + 1, "{got:?}");
            assert!(got[..lines].iter().all(|f| code(f) == -32700));
            assert!(
                matches!(&got[lines], Frame::Message(Message::Request(r)) if r.method == "shutdown")
            );
        }
        // Answered at once, not when the next frame comes.
        let mut r = io::Cursor::new(format!("{OK}\r\n").into_bytes());
        assert_eq!(code(&read_frame(&mut r).unwrap().unwrap()[0]), -32700);
    }

    #[test]
    fn a_request_whose_id_is_not_an_integer_or_string_is_invalid() {
        let got = frames(&frame(r#"{"jsonrpc":"2.0","id":null,"method":"shutdown"}"#));
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(code(&got[0]), -32600);
        for id in [r#"{"x":1}"#, "[1]", "true", "1.5"] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"foo/bar","params":{{}}}}"#);
            let got = frames(&frame(&body));
            assert_eq!(got.len(), 1, "{id}: {got:?}");
            assert_eq!(code(&got[0]), -32600, "{id}");
        }
        for id in ["1", "-1", r#""s""#] {
            let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"shutdown"}}"#);
            let got = frames(&frame(&body));
            assert!(
                matches!(&got[0], Frame::Message(Message::Request(_))),
                "{id}: {got:?}"
            );
        }
        // A notification (no id at all) is one.
        let got = frames(&frame(r#"{"jsonrpc":"2.0","method":"exit"}"#));
        assert!(
            matches!(&got[0], Frame::Message(Message::Notification(_))),
            "{got:?}"
        );
    }

    #[test]
    fn a_message_over_the_cap_is_a_parse_error_and_the_next_is_read() {
        let n = MAX_MESSAGE + 1;
        let input = [
            format!("Content-Length: {n}\r\n\r\n"),
            " ".repeat(n),
            frame(OK),
        ]
        .concat();
        let got = frames(&input);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(code(&got[0]), -32700);
        assert!(matches!(&got[1], Frame::Message(Message::Request(r)) if r.method == "shutdown"));
        // Cut short: the end of the input, not a message.
        let mut r = io::Cursor::new(format!("Content-Length: {n}\r\n\r\n{OK}").into_bytes());
        assert!(read_frame(&mut r).is_err());
        // At the cap: read as usual.
        let mut body = OK.to_string();
        body.push_str(&" ".repeat(MAX_MESSAGE - OK.len()));
        assert!(matches!(&frames(&frame(&body))[0], Frame::Message(_)));
    }

    #[test]
    fn end_of_input_ends_reading() {
        assert!(frames("").is_empty());
        assert!(frames("Content-Length: 10\r\n").is_empty());
    }
}
