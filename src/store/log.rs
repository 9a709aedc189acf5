//! `ops.jsonl`: the append-only op log. Only this file reads and writes it.

use crate::model::Op;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::hash::FastSet as HashSet;
use crate::wire::codec;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::Path;

/// The log as read from disk.
#[derive(Debug, Clone, Default)]
pub struct Log {
    /// The ops of complete transactions, in log order (revision N is the
    /// fold of the first N).
    pub ops: Vec<Op>,
    /// Where the file stands.
    pub info: LogInfo,
}

/// What a writer needs to know about the log file, besides its ops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LogInfo {
    /// Byte length of the prefix that holds every complete transaction; what
    /// lies beyond belongs to unfinished writes and may be truncated.
    pub good_len: u64,
    /// Total bytes read.
    pub len: u64,
    /// Whether the file ends with a newline (a torn write may not).
    pub ends_with_newline: bool,
    /// Ops of unfinished transactions that were left out (a partial last
    /// line counts as one).
    pub unfinished: usize,
    /// The highest lamport among the complete ops (0 for none).
    pub max_lamport: u64,
    /// How many complete ops the log holds: the plan's latest revision.
    pub head: u64,
}

/// Reads and parses a log. A missing file is an empty log. A complete line
/// that does not parse is corruption (exit 3); a partial last line is a torn
/// write and is skipped.
pub fn read(path: &Path, plan_id: &str) -> Result<Log> {
    let mut bytes = Vec::new();
    match File::open(path) {
        Ok(mut f) => {
            f.read_to_end(&mut bytes)
                .map_err(|e| Error::io("read", path, &e))?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Log {
                ops: Vec::new(),
                info: LogInfo {
                    ends_with_newline: true,
                    ..LogInfo::default()
                },
            });
        }
        Err(e) => return Err(Error::io("read", path, &e)),
    }
    parse(&bytes, plan_id)
}

pub fn parse(bytes: &[u8], plan_id: &str) -> Result<Log> {
    let mut ops = Vec::new();
    // Offsets just past each line that holds an op.
    let mut ends: Vec<u64> = Vec::new();
    let mut start = 0usize;
    let mut line_no = 0usize;
    let mut torn_line = false;
    while start < bytes.len() {
        line_no += 1;
        let (end, complete) = match bytes[start..].iter().position(|b| *b == b'\n') {
            Some(i) => (start + i, true),
            None => (bytes.len(), false),
        };
        let raw = &bytes[start..end];
        let next = if complete { end + 1 } else { end };
        let text = std::str::from_utf8(raw).ok();
        let trimmed = text.map(str::trim).unwrap_or("");
        if text.is_some() && trimmed.is_empty() {
            start = next;
            continue;
        }
        let parsed = text
            .ok_or_else(|| "it is not valid UTF-8".to_string())
            .and_then(|t| codec::parse_op_line(t).map_err(|e| e.to_string()));
        match parsed {
            Ok(op) => {
                ops.push(op);
                ends.push(next as u64);
            }
            Err(_) if !complete => torn_line = true, // a torn last write
            Err(why) => {
                return Err(Error::new(
                    ErrorKind::CorruptStore,
                    format!("{plan_id}/ops.jsonl, the op log of {plan_id}, is damaged at line {line_no}: {why}"),
                )
                .with_help("restore ops.jsonl from version control, or delete the damaged line if you know what it held"));
            }
        }
        start = next;
    }
    let done: HashSet<String> = crate::store::fold::complete_txs(&ops)
        .into_iter()
        .map(str::to_string)
        .collect();
    let good_len = ops
        .iter()
        .zip(&ends)
        .rev()
        .find(|(o, _)| done.contains(o.tx.as_str()))
        .map(|(_, e)| *e)
        .unwrap_or(0);
    let total = ops.len();
    if done.len() < total {
        // Keep only complete transactions (moved, not copied).
        ops.retain(|o| done.contains(o.tx.as_str()));
    }
    let max_lamport = ops.iter().map(|o| o.lamport).max().unwrap_or(0);
    Ok(Log {
        info: LogInfo {
            good_len,
            len: bytes.len() as u64,
            ends_with_newline: bytes.last().is_none_or(|b| *b == b'\n'),
            unfinished: total - ops.len() + usize::from(torn_line),
            head: ops.len() as u64,
            max_lamport,
        },
        ops,
    })
}

/// Appends one transaction's lines in one write and syncs them. First cuts
/// off an unfinished tail left by a killed writer. Call under the plan lock.
pub fn append(path: &Path, log: &LogInfo, ops: &[Op]) -> Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io("open", path, &e))?;
    let mut at = log.len;
    if log.good_len < log.len {
        f.set_len(log.good_len)
            .map_err(|e| Error::io("repair", path, &e))?;
        at = log.good_len;
    }
    let mut buf = String::new();
    if at > 0 && at == log.len && !log.ends_with_newline {
        // The last complete line lost its newline to a torn write.
        buf.push('\n');
    }
    for op in ops {
        buf.push_str(&codec::op_line(op));
        buf.push('\n');
    }
    use std::io::Seek;
    f.seek(std::io::SeekFrom::Start(at))
        .map_err(|e| Error::io("seek in", path, &e))?;
    write_maybe_crashing(&mut f, buf.as_bytes()).map_err(|e| Error::io("append to", path, &e))?;
    f.sync_data().map_err(|e| Error::io("sync", path, &e))?;
    Ok(())
}

/// Writes all bytes, unless `PLANFORGE_TEST_CRASH_AFTER_BYTES` asks to die
/// after that many (a test hook for crash safety).
pub fn write_maybe_crashing(f: &mut File, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(n) = crate::model::hooks::crash_after_bytes()
        && n < bytes.len()
    {
        f.write_all(&bytes[..n])?;
        f.sync_data()?;
        std::process::abort();
    }
    f.write_all(bytes)
}

/// Writes a whole new log (for new plans).
pub fn write_new(path: &Path, ops: &[Op]) -> Result<()> {
    // A new plan's log is written in its temporary folder (renamed into the
    // store only once whole), so it can be streamed line by line.
    let f = File::create(path).map_err(|e| Error::io("create", path, &e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
    for op in ops {
        serde_json::to_writer(&mut w, &codec::op_json(op))
            .map_err(std::io::Error::from)
            .and_then(|()| w.write_all(b"\n"))
            .map_err(|e| Error::io("write", path, &e))?;
    }
    let f = w
        .into_inner()
        .map_err(|e| Error::io("write", path, e.error()))?;
    f.sync_all().map_err(|e| Error::io("sync", path, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(lamport: u64, tx: &str, end: bool) -> String {
        format!(
            r#"{{"opId":"a:plan-t:{lamport}:{tx}","actorId":"a","lamport":{lamport},"at":"t","tx":"{tx}"{},"op":"remove_edge","edgeId":"e"}}"#,
            if end { r#","txEnd":true"# } else { "" }
        )
    }

    #[test]
    fn torn_tail_is_found() {
        let text = format!(
            "{}\n{}\n{}",
            line(1, "a", true),
            line(2, "b", false),
            &line(3, "b", true)[..20]
        );
        let log = parse(text.as_bytes(), "plan-t").unwrap();
        assert_eq!(log.ops.len(), 1);
        assert_eq!(
            log.info.unfinished, 2,
            "one op without its end, and a torn line"
        );
        assert_eq!(log.info.good_len as usize, line(1, "a", true).len() + 1);
    }

    #[test]
    fn damaged_complete_line_is_corruption() {
        let text = format!("{}\nnot json\n{}\n", line(1, "a", true), line(2, "b", true));
        let e = parse(text.as_bytes(), "plan-t").unwrap_err();
        assert_eq!(e.kind, ErrorKind::CorruptStore);
        assert!(e.message.contains("line 2"), "{}", e.message);
    }
}
