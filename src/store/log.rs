//! `ops.jsonl`: the append-only op log. Only this file reads and writes it.

use crate::model::Op;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::wire::codec;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read, Write};
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
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LogInfo {
    /// Byte length of the prefix that holds every complete transaction; what
    /// lies beyond belongs to unfinished writes and may be truncated.
    pub good_len: u64,
    /// Total bytes read.
    pub len: u64,
    /// Whether the file ends with a newline (a torn write may not).
    pub ends_with_newline: bool,
    /// Ops of unfinished transactions that were left out, anywhere in the
    /// file (a torn line counts as one).
    pub unfinished: usize,
    /// The lines (1-based) they are on, the first 20.
    pub unfinished_lines: Vec<usize>,
    /// Whether some of them stand before a complete transaction (a merge
    /// put them there): the next write then rewrites the log without them.
    pub unfinished_inside: bool,
    /// The highest lamport among the complete ops (0 for none).
    pub max_lamport: u64,
    /// How many complete ops the log holds.
    pub head: u64,
}

/// How many unfinished lines a log names.
const SHOWN_LINES: usize = 20;

/// Reads and parses a log. A missing file is an empty log. A complete line
/// that does not parse is corruption (exit 3); a partial last line is a torn
/// write and is skipped. The file is read a block at a time and each line
/// parsed as it comes: at 100,000 nodes a copy of the whole log was about
/// 80 MB of fresh memory, held until every op was read.
pub fn read(path: &Path, plan_id: &str) -> Result<Log> {
    let file = match File::open(path) {
        Ok(f) => f,
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
    };
    let io = |e: std::io::Error| Error::io("read", path, &e);
    let len = file.metadata().map_err(io)?.len();
    let reader = std::io::BufReader::with_capacity(BLOCK, file);
    read_lines(reader, len, plan_id, io)
}

/// How much of the log is read at a time.
const BLOCK: usize = 1 << 20;
/// The most ops room is made for before any is read.
const ROOM: usize = 1 << 20;

/// Parses the log whose bytes are `bytes`.
pub fn parse(bytes: &[u8], plan_id: &str) -> Result<Log> {
    // Reading a slice never fails.
    read_lines(bytes, bytes.len() as u64, plan_id, |e| {
        Error::internal(e.to_string())
    })
}

/// The log in `r`, about `len` bytes long, parsed a line at a time as its
/// blocks come (a line a block ended inside is carried to the next); `io`
/// words a failure to read.
fn read_lines(
    mut r: impl BufRead,
    len: u64,
    plan_id: &str,
    io: impl Fn(std::io::Error) -> Error,
) -> Result<Log> {
    // Room for the ops such a log usually holds (planforge's lines are
    // 150 bytes or more), up to a million; a log of shorter lines, or more,
    // grows it (a file of blank lines reserves no more than that).
    let room = usize::try_from(len / 128).map_or(ROOM, |n| n.min(ROOM)) + 16;
    let mut lines = LineReader::new(plan_id, room);
    // A line the block ended inside.
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let block = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io(e)),
        };
        if block.is_empty() {
            break;
        }
        let n = block.len();
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', block) {
            if carry.is_empty() {
                lines.line(&block[start..end], true)?;
            } else {
                carry.extend_from_slice(&block[start..end]);
                lines.line(&carry, true)?;
                carry.clear();
            }
            start = end + 1;
        }
        carry.extend_from_slice(&block[start..]);
        r.consume(n);
    }
    let ends_with_newline = carry.is_empty();
    if !carry.is_empty() {
        lines.line(&carry, false)?;
    }
    lines.finish(ends_with_newline)
}

/// A log's lines as they are read, one after another.
struct LineReader<'p> {
    plan_id: &'p str,
    ops: Vec<Op>,
    /// Per op: its line and the offset just past it.
    places: Vec<(usize, u64)>,
    /// Lines that hold no op: a torn write (possibly glued to the next line
    /// by a merge), as (line, offset past it).
    torn: Vec<(usize, u64)>,
    line_no: usize,
    /// The bytes read so far.
    len: u64,
}

impl<'p> LineReader<'p> {
    fn new(plan_id: &'p str, room: usize) -> LineReader<'p> {
        LineReader {
            plan_id,
            ops: Vec::with_capacity(room),
            places: Vec::with_capacity(room),
            torn: Vec::new(),
            line_no: 0,
            len: 0,
        }
    }

    /// The next line (without its newline); `complete`: a newline ended it.
    fn line(&mut self, raw: &[u8], complete: bool) -> Result<()> {
        self.line_no += 1;
        self.len += raw.len() as u64 + u64::from(complete);
        let (line_no, next) = (self.line_no, self.len);
        if std::str::from_utf8(raw).is_ok_and(|t| t.trim().is_empty()) {
            return Ok(());
        }
        match line_op(raw) {
            Ok((op, glued)) => {
                if glued {
                    self.torn.push((line_no, next));
                }
                self.ops.push(op);
                self.places.push((line_no, next));
            }
            Err(_) if is_torn(raw) || (!complete && is_torn_end(raw)) => {
                self.torn.push((line_no, next))
            }
            Err((column, why)) => {
                let plan_id = self.plan_id;
                let column = column.map(|c| format!(", column {c}")).unwrap_or_default();
                return Err(Error::new(
                    ErrorKind::CorruptStore,
                    format!("{plan_id}/ops.jsonl, the op log of {plan_id}, is damaged at line {line_no}{column}: {why}"),
                )
                .with_help("restore ops.jsonl from version control, or delete the damaged line if you know what it held"));
            }
        }
        Ok(())
    }

    /// The log: the ops of complete transactions, and where the file
    /// stands (`ends_with_newline`: its last byte is a newline, or it is
    /// empty).
    fn finish(self, ends_with_newline: bool) -> Result<Log> {
        let LineReader {
            mut ops,
            places,
            torn,
            len,
            ..
        } = self;
        let done = crate::store::fold::complete(ops.iter());
        let good_len = places
            .iter()
            .zip(&done)
            .rev()
            .find(|(_, d)| **d)
            .map(|((_, e), _)| *e)
            .unwrap_or(0);
        let mut left_out: Vec<(usize, u64)> = torn;
        for (place, d) in places.iter().zip(&done) {
            if !d {
                left_out.push(*place);
            }
        }
        left_out.sort();
        let inside = left_out.iter().any(|(_, end)| *end <= good_len);
        if !left_out.is_empty() {
            // Keep only complete transactions (moved, not copied).
            let mut d = done.iter();
            ops.retain(|_| *d.next().expect("one flag per op"));
        }
        let max_lamport = ops.iter().map(|o| o.lamport).max().unwrap_or(0);
        Ok(Log {
            info: LogInfo {
                good_len,
                len,
                ends_with_newline,
                unfinished: left_out.len(),
                unfinished_lines: left_out.iter().take(SHOWN_LINES).map(|(l, _)| *l).collect(),
                unfinished_inside: inside,
                head: ops.len() as u64,
                max_lamport,
            },
            ops,
        })
    }
}

/// Whether a whole line is the start of an op cut short: a killed
/// writer's last line, which a merge (`merge=union`) ended with a newline
/// and put before other lines. Anything else that does not parse is
/// damage, not an unfinished write.
fn is_torn(raw: &[u8]) -> bool {
    raw.starts_with(OP_START)
        && serde_json::from_slice::<serde::de::IgnoredAny>(raw).is_err_and(|e| e.is_eof())
}

/// How every op line planforge writes starts.
const OP_START: &[u8] = br#"{"opId":"#;

/// Whether the log's last bytes, with no newline after them, are what a
/// killed writer leaves: the start of an op line cut anywhere, even inside
/// `{"opId":` or inside a character (or several such starts, one after the
/// other). Anything else there (text that parses on past its end, complete
/// ops run together on one line by other line ends) is damage: reported,
/// never cut off by the next write.
fn is_torn_end(raw: &[u8]) -> bool {
    let valid = match std::str::from_utf8(raw) {
        Ok(_) => raw.len(),
        // Cut inside a character: what came before it.
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        Err(_) => return false,
    };
    let Ok(text) = std::str::from_utf8(&raw[..valid]) else {
        return false;
    };
    if OP_START.starts_with(text.as_bytes()) {
        return true;
    }
    let starts: Vec<usize> = text.match_indices("{\"opId\":").map(|(at, _)| at).collect();
    starts.first() == Some(&0)
        && starts.iter().enumerate().all(|(k, &at)| {
            let end = starts.get(k + 1).copied().unwrap_or(text.len());
            is_torn(&text.as_bytes()[at..end])
        })
}

/// The op on a line. A line a merge glued to the torn end of another write
/// (`{"opId":…(torn){"opId":…}`) holds its op after the torn part: the op is
/// taken and `glued` says a torn part was left out.
/// A line that holds no op gives its column where known, and why.
fn line_op(raw: &[u8]) -> std::result::Result<(Op, bool), (Option<usize>, String)> {
    let text =
        std::str::from_utf8(raw).map_err(|e| (None, format!("it is not valid UTF-8 ({e})")))?;
    match codec::parse_op_line(text) {
        Ok(op) => Ok((op, false)),
        Err(e) => {
            // A torn write is the start of an op line, as planforge writes
            // them: only then is the rest another op.
            // Only a torn op before it: lines run together by line ends
            // other than `\n` are damage, not a torn write.
            let start = text
                .rfind("{\"opId\":")
                .filter(|at| *at > 0 && is_torn(&raw[..*at]));
            match start.and_then(|at| codec::parse_op_line(&text[at..]).ok()) {
                Some(op) => Ok((op, true)),
                // The record is one line: its column, not "line 1".
                None => Err(match (e.line, e.column) {
                    (Some(1), Some(c)) => {
                        let e = crate::wire::parse::ParseError {
                            line: None,
                            column: None,
                            ..e
                        };
                        (Some(c), e.to_string())
                    }
                    _ => (None, e.to_string()),
                }),
            }
        }
    }
}

/// Appends one transaction's lines in one write at the file's real end
/// (`O_APPEND`) and syncs them: the one commit point of a change. First cuts
/// off an unfinished tail left by a killed writer; unfinished lines inside
/// the log (a merge put them there) are removed by rewriting it whole.
/// Refuses a log with other hard links. When the append fails, the file is
/// cut back to where it was, so a failure changed nothing. Call under the
/// plan lock, with `kept` the complete ops as read under it.
pub fn append(path: &Path, log: &LogInfo, kept: &[Op], ops: &[Op]) -> Result<()> {
    refuse_hard_links(path)?;
    if log.unfinished_inside {
        let mut all: Vec<Op> = kept.to_vec();
        all.extend(ops.iter().cloned());
        return rewrite(path, &all);
    }
    let mut f = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io("open", path, &e))?;
    let real_len = f.metadata().map_err(|e| Error::io("read", path, &e))?.len();
    let mut at = real_len;
    if real_len == log.len && log.good_len < log.len {
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
    let written = write_maybe_crashing(&mut f, buf.as_bytes()).and_then(|()| f.sync_data());
    if let Err(e) = written {
        // Nothing of a failed change may stay behind.
        let _ = f.set_len(at).and_then(|()| f.sync_data());
        return Err(Error::io("append to", path, &e));
    }
    Ok(())
}

/// Refuses a log file that has other names: writing it would change them.
fn refuse_hard_links(path: &Path) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    match std::fs::symlink_metadata(path) {
        Ok(md) if md.nlink() > 1 => Err(Error::new(
            ErrorKind::CorruptStore,
            format!(
                "{} has {} hard links; planforge writes a plan's log only when it is the file's one name, so that no other file changes with it",
                path.display(),
                md.nlink()
            ),
        )
        .with_help("copy the file over itself to break the link, so the log has one name")),
        _ => Ok(()),
    }
}

/// Writes the log anew with exactly `ops`, atomically.
fn rewrite(path: &Path, ops: &[Op]) -> Result<()> {
    let mut text = String::new();
    for op in ops {
        text.push_str(&codec::op_line(op));
        text.push('\n');
    }
    super::atomic::write_atomic(path, text.as_bytes())
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

/// A clean log's lines as read (every line one op of a complete
/// transaction: see [`Lines::read`]), for reading its history without
/// parsing every op: undo and redo read the heads of all, parse the few
/// they need, and find the ops that name an id the way `git log -- path`
/// finds the commits that touch a file.
pub struct Lines {
    bytes: Vec<u8>,
    /// Per op, in log order: where its line starts and ends (newline left out).
    spans: Vec<(usize, usize)>,
}

/// What a line's head says (see [`codec::op_head`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head<'a> {
    pub tx: std::borrow::Cow<'a, str>,
    pub actor: std::borrow::Cow<'a, str>,
    /// The op changes the content (a revision).
    pub content: bool,
}

impl Lines {
    /// The lines of the log at `path`, which `info` describes as clean (no
    /// unfinished line, ending with a newline; the caller checks that):
    /// `None` when the file is no longer `info.len` bytes long or does not
    /// hold `info.head` ops (it moved since it was read).
    pub fn read(path: &Path, info: &LogInfo) -> Result<Option<Lines>> {
        let mut bytes = Vec::with_capacity(info.len as usize + 1);
        match File::open(path) {
            Ok(f) => {
                // One byte more than expected shows a longer file.
                f.take(info.len + 1)
                    .read_to_end(&mut bytes)
                    .map_err(|e| Error::io("read", path, &e))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io("read", path, &e)),
        }
        if bytes.len() as u64 != info.len || bytes.last().is_some_and(|b| *b != b'\n') {
            return Ok(None);
        }
        let mut spans = Vec::with_capacity(info.head as usize);
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', &bytes) {
            let raw = &bytes[start..end];
            // As `parse`: a line of white space holds no op.
            let blank = raw.first() != Some(&b'{')
                && std::str::from_utf8(raw).is_ok_and(|t| t.trim().is_empty());
            if !blank {
                spans.push((start, end));
            }
            start = end + 1;
        }
        Ok((spans.len() as u64 == info.head).then_some(Lines { bytes, spans }))
    }

    /// How many ops the log holds.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    fn line(&self, i: usize) -> &[u8] {
        let (a, b) = self.spans[i];
        &self.bytes[a..b]
    }

    /// The `i`-th op, parsed.
    pub fn op(&self, i: usize, plan_id: &str) -> Result<Op> {
        let text = std::str::from_utf8(self.line(i)).ok();
        text.and_then(|t| codec::parse_op_line(t).ok())
            .ok_or_else(|| {
                Error::new(
                    ErrorKind::CorruptStore,
                    format!(
                        "{plan_id}/ops.jsonl, the op log of {plan_id}, changed while it was read: op {} no longer parses",
                        i + 1
                    ),
                )
                .with_help("run the command again")
            })
    }

    /// The head of every op, in log order: read from the line's start when
    /// planforge spelled it, else from the op parsed.
    pub fn heads(&self, plan_id: &str) -> Result<Vec<Head<'_>>> {
        use std::borrow::Cow;
        (0..self.spans.len())
            .map(|i| match codec::op_head(self.line(i)) {
                Some(h) => Ok(Head {
                    tx: Cow::Borrowed(h.tx),
                    actor: Cow::Borrowed(h.actor),
                    content: codec::kind_is_content(h.kind),
                }),
                None => {
                    let op = self.op(i, plan_id)?;
                    Ok(Head {
                        content: op.body.is_content(),
                        tx: Cow::Owned(op.tx.into()),
                        actor: Cow::Owned(op.actor_id.into()),
                    })
                }
            })
            .collect()
    }

    /// The ops before the `end`-th whose lines may name one of `names` (as
    /// a whole JSON string: an id, an op's kind), in log order: every one
    /// that does, and a few that do not (a line that escapes a string
    /// another way than planforge does is always among them).
    pub fn naming(&self, end: usize, names: &[&str]) -> Vec<usize> {
        let end = end.min(self.spans.len());
        let upto = self.spans.get(end).map_or(self.bytes.len(), |&(a, _)| a);
        let mut patterns: Vec<String> = Vec::with_capacity(names.len() + 2);
        for name in names {
            let (own, others) = codec::spellings(name);
            if patterns.is_empty() {
                patterns.extend(others.iter().map(|s| s.to_string()));
            }
            patterns.push(own);
        }
        if patterns.is_empty() {
            return Vec::new();
        }
        let text = &self.bytes[..upto];
        let mut out: Vec<usize> = Vec::new();
        let mut found = |at: usize| {
            if out.last().is_some_and(|&i| self.spans[i].1 >= at) {
                // On a line already found.
                return;
            }
            // The line that holds `at` (a match never spans a newline).
            out.push(self.spans.partition_point(|&(_, e)| e < at));
        };
        // A few names: SIMD search (Teddy), an order faster than an
        // automaton on JSON text, where every pattern's first byte (a
        // quote) is everywhere.
        let packed = aho_corasick::packed::Config::new()
            .builder()
            .extend(&patterns)
            .build();
        match packed {
            Some(searcher) => searcher.find_iter(text).for_each(|m| found(m.start())),
            None => match aho_corasick::AhoCorasick::new(&patterns) {
                Ok(finder) => finder.find_iter(text).for_each(|m| found(m.start())),
                // No automaton (too large): every line.
                Err(_) => return (0..end).collect(),
            },
        }
        out
    }
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
    fn another_actors_end_does_not_close_a_transaction() {
        // Actor a's transaction `t` lost its closing op; actor b's `t`
        // (the same tx id) has its own: a's op is left out, b's kept.
        let b = line(2, "t", true)
            .replace("\"a:plan-t", "\"b:plan-t")
            .replace("\"actorId\":\"a\"", "\"actorId\":\"b\"");
        let text = format!("{}\n{}\n{b}\n", line(0, "c", true), line(1, "t", false));
        let log = parse(text.as_bytes(), "plan-t").unwrap();
        let kept: Vec<(&str, &str)> = log
            .ops
            .iter()
            .map(|o| (o.actor_id.as_str(), o.tx.as_str()))
            .collect();
        assert_eq!(kept, [("a", "c"), ("b", "t")]);
        assert_eq!(log.info.unfinished, 1);
        assert_eq!(log.info.unfinished_lines, [2]);
    }

    #[test]
    fn the_lines_naming_an_id_are_every_one_that_names_it() {
        let mut text = String::new();
        for i in 0..300u64 {
            let mut l = line(i, &format!("t{}", i % 7), true);
            l = l.replace("\"edgeId\":\"e\"", &format!("\"edgeId\":\"e{}\"", i % 90));
            if i % 50 == 3 {
                // Another writer's escape.
                l = l.replace("\"op\":\"remove_edge\"", "\"op\":\"remove\\u005fedge\"");
            }
            text.push_str(&l);
            text.push('\n');
            if i % 40 == 0 {
                text.push_str("  \n");
            }
        }
        let log = parse(text.as_bytes(), "plan-t").unwrap();
        let path = std::env::temp_dir().join(format!("naming-{}.jsonl", std::process::id()));
        std::fs::write(&path, &text).unwrap();
        let lines = Lines::read(&path, &log.info).unwrap().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(lines.len(), 300);
        for (names, end) in [
            (vec!["e5".to_string(), "t3".to_string()], 300),
            (vec!["e5".to_string()], 120),
            ((0..100).map(|k| format!("e{}", k * 2)).collect(), 250),
        ] {
            let wanted: Vec<&str> = names.iter().map(String::as_str).collect();
            let expected: Vec<usize> = (0..end)
                .filter(|&i| {
                    let l = String::from_utf8(lines.line(i).to_vec()).unwrap();
                    l.contains("\\u") || names.iter().any(|n| l.contains(&format!("\"{n}\"")))
                })
                .collect();
            assert!(!expected.is_empty());
            assert_eq!(
                lines.naming(end, &wanted),
                expected,
                "{} names",
                names.len()
            );
        }
    }

    #[test]
    fn ops_run_together_are_damage_not_a_torn_tail() {
        // Lone CRs (an old Mac's line ends): one line, no newline, every op
        // complete. Read as a torn tail, the next write cut the history.
        let ops = [line(1, "a", true), line(2, "b", true), line(3, "c", true)];
        for sep in ["\r", " ", ""] {
            let text = ops.join(sep);
            let e = parse(text.as_bytes(), "plan-t").unwrap_err();
            assert_eq!(e.kind, ErrorKind::CorruptStore, "{sep:?}");
            assert!(e.message.contains("line 1, column "), "{}", e.message);
            assert!(!e.message.contains("[line"), "{}", e.message);
            // The same inside the log.
            let text = format!("{}\n{}\n", ops.join(sep), line(4, "d", true));
            let e = parse(text.as_bytes(), "plan-t").unwrap_err();
            assert_eq!(e.kind, ErrorKind::CorruptStore, "{sep:?}");
        }
        // A last line that is not an op's start at all.
        let text = format!("{}\nnot json", line(1, "a", true));
        let e = parse(text.as_bytes(), "plan-t").unwrap_err();
        assert_eq!(e.kind, ErrorKind::CorruptStore);
        assert!(e.message.contains("line 2"), "{}", e.message);
    }

    #[test]
    fn a_write_cut_anywhere_is_a_torn_tail() {
        let first = line(1, "a", true);
        let mut last = line(2, "b", true);
        last = last.replace("\"e\"", "\"é\"");
        for cut in 1..last.len() {
            let text = [first.as_bytes(), b"\n", &last.as_bytes()[..cut]].concat();
            let log = parse(&text, "plan-t").unwrap_or_else(|e| panic!("cut at {cut}: {e:?}"));
            assert_eq!(log.ops.len(), 1, "cut at {cut}");
            assert_eq!(log.info.good_len as usize, first.len() + 1);
        }
        // Two torn writes one after the other.
        let text = format!("{}\n{}{}", first, &last[..30], &last[..50]);
        let log = parse(text.as_bytes(), "plan-t").unwrap();
        assert_eq!(log.ops.len(), 1);
        // A torn write a merge ended with a newline and another op glued on.
        let text = format!("{}\n{}{}\n", first, &last[..30], line(3, "c", true));
        let log = parse(text.as_bytes(), "plan-t").unwrap();
        assert_eq!(log.ops.len(), 2);
        assert_eq!(log.info.unfinished, 1);
    }

    /// The file read a block at a time gives what its bytes parse to,
    /// lines across blocks included (long ones, a torn one at the end).
    #[test]
    fn a_file_read_in_blocks_is_its_bytes_parsed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ops.jsonl");
        let long = |lamport: u64, n: usize| {
            line(lamport, "l", true).replace(
                "\"edgeId\":\"e\"",
                &format!("\"edgeId\":\"{}\"", "x".repeat(n)),
            )
        };
        let mut text = String::new();
        for i in 0..2000u64 {
            text.push_str(&line(i, &format!("t{i}"), true));
            text.push('\n');
            if i % 500 == 7 {
                // Lines longer than a block, and blank lines.
                text.push_str(&long(i, BLOCK + 1000 * i as usize));
                text.push_str("\n  \n");
            }
        }
        let torn = &line(9999, "z", true)[..40];
        for (name, bytes) in [
            ("ends with a newline", text.clone()),
            ("ends inside a line", format!("{text}{torn}")),
            (
                "a long line torn",
                format!("{text}{}", &long(9998, 3 * BLOCK)[..2 * BLOCK + 5]),
            ),
            ("empty", String::new()),
            ("no newline at all", line(1, "a", true)),
        ] {
            std::fs::write(&path, &bytes).unwrap();
            let (read, parsed) = (
                read(&path, "plan-t").unwrap(),
                parse(bytes.as_bytes(), "plan-t").unwrap(),
            );
            assert_eq!(read.info, parsed.info, "{name}");
            assert!(read.ops == parsed.ops, "{name}");
        }
        let parsed = parse(text.as_bytes(), "plan-t").unwrap();
        assert_eq!(parsed.ops.len(), 2004);
        assert_eq!(parsed.info.len as usize, text.len());
        // A damaged line is found at its line, however it was read.
        std::fs::write(&path, format!("{text}not json\n")).unwrap();
        let e = read(&path, "plan-t").unwrap_err();
        assert!(e.message.contains("line 2009"), "{}", e.message);
    }

    #[test]
    fn damaged_complete_line_is_corruption() {
        let text = format!("{}\nnot json\n{}\n", line(1, "a", true), line(2, "b", true));
        let e = parse(text.as_bytes(), "plan-t").unwrap_err();
        assert_eq!(e.kind, ErrorKind::CorruptStore);
        assert!(e.message.contains("line 2"), "{}", e.message);
    }
}
