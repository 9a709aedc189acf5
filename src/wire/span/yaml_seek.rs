//! Pointer lookups in a YAML text that was read as a document already,
//! without indexing all of it: the YAML counterpart of [`super::Seek`].
//!
//! A plan document in YAML is a block mapping at the top level (`nodes:`,
//! `edges:`, …), whose large members are block sequences of small items.
//! Its top-level keys and the lines its sequences' items start on are
//! found by looking at the first characters of each line; a lookup then
//! reads, with the YAML reader's spans, only the lines of the one member or
//! item its pointer leads into, offset to where they are (a value's span
//! depends only on its own text: its first and last tokens). What was read
//! is kept for the next lookup.
//!
//! It answers exactly as [`super::SpanIndex`] does. What it does not read
//! line by line — a top level in flow style (`{…}`), quoted or complex
//! top-level keys, anchors and aliases, tags, directives, a second
//! document, tabs, a byte-order mark — and any part whose lines do not read
//! on their own is looked up in the whole text's index instead, built once.

use super::index::{Locate, Located, SpanIndex, tokens};
use super::lines::{Lines, Position};
use super::tree::Span;
use crate::wire::parse::Syntax;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

/// A YAML text read as a document, for pointer lookups.
pub(crate) struct YamlSeek<'t> {
    text: &'t str,
    lines: OnceCell<Lines>,
    /// The top-level members, when the top level reads line by line.
    top: Option<Vec<Top>>,
    /// The line starts of each top-level block sequence's items (by the
    /// member's place in `top`).
    items: RefCell<HashMap<usize, Rc<Vec<usize>>>>,
    /// The index of each part read (by where it starts and ends); `None`:
    /// the part does not read on its own.
    parts: RefCell<HashMap<(usize, usize), Part<'t>>>,
    /// The whole text's index, when something needs it.
    whole: OnceCell<Option<SpanIndex<'t>>>,
}

/// A part of the text read on its own: its index, or `None` when it does
/// not read alone.
type Part<'t> = Option<Rc<SpanIndex<'t>>>;

/// A top-level member: its key, the start of its line and the end of its
/// lines (the next member's line), and whether its value is a block
/// sequence (its first item's line start and its items' indentation).
pub(super) struct Top {
    pub(super) key: String,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) sequence: Option<(usize, usize)>,
}

impl<'t> YamlSeek<'t> {
    pub(crate) fn new(text: &'t str) -> YamlSeek<'t> {
        YamlSeek {
            text,
            lines: OnceCell::new(),
            top: top_level(text),
            items: RefCell::default(),
            parts: RefCell::default(),
            whole: OnceCell::new(),
        }
    }

    /// Whether the top level is a block mapping with a member `key`, as
    /// far as its lines say (`None`: they do not say).
    pub(crate) fn has_member(&self, key: &str) -> Option<bool> {
        Some(self.top.as_ref()?.iter().any(|t| t.key == key))
    }

    /// Whether the whole text was indexed (for tests: a plan document's
    /// lookups read only their parts).
    #[cfg(test)]
    pub(super) fn read_whole(&self) -> bool {
        self.whole.get().is_some()
    }

    fn whole(&self) -> Option<&SpanIndex<'t>> {
        self.whole
            .get_or_init(|| SpanIndex::new(self.text, Syntax::Yaml))
            .as_ref()
    }

    fn position(&self, offset: usize) -> Position {
        self.lines
            .get_or_init(|| Lines::new(self.text))
            .position(self.text, offset)
    }

    /// The index of the text from `start` to `end`, read once.
    fn part(&self, start: usize, end: usize) -> Option<Rc<SpanIndex<'t>>> {
        if let Some(p) = self.parts.borrow().get(&(start, end)) {
            return p.clone();
        }
        let read = SpanIndex::new(&self.text[start..end], Syntax::Yaml).map(Rc::new);
        self.parts.borrow_mut().insert((start, end), read.clone());
        read
    }

    /// The line starts of the items of the top-level member `k`'s block
    /// sequence (its first item's line and the items' indentation).
    fn items(&self, k: usize, first: usize, indent: usize) -> Rc<Vec<usize>> {
        if let Some(i) = self.items.borrow().get(&k) {
            return Rc::clone(i);
        }
        let end = self.top.as_ref().map_or(self.text.len(), |t| t[k].end);
        let starts = Rc::new(item_starts(self.text, first, indent, end));
        self.items.borrow_mut().insert(k, Rc::clone(&starts));
        starts
    }
}

/// Where a pointer leads in the parts: a part of the text, the pointer
/// within it, and how the part's pointers read in the whole document.
struct InPart {
    start: usize,
    end: usize,
    pointer: String,
    /// The whole document's pointer for the part's `/0` (an item read as
    /// a one-item sequence), or `None` when the part's pointers are the
    /// document's (a top-level member read as a one-member mapping).
    item: Option<String>,
}

impl YamlSeek<'_> {
    /// The part a pointer of at least two tokens under a top-level member
    /// leads into; `Err(())` when the whole index must answer.
    fn route(&self, pointer: &str, toks: &[String]) -> Result<Option<InPart>, ()> {
        let top = self.top.as_ref().ok_or(())?;
        let k = top.iter().rposition(|t| t.key == toks[0]).ok_or(())?;
        let t = &top[k];
        let Some((first, indent)) = t.sequence else {
            return Ok(Some(InPart {
                start: t.start,
                end: t.end,
                pointer: pointer.to_string(),
                item: None,
            }));
        };
        if toks.len() == 1 {
            return Ok(None);
        }
        let items = self.items(k, first, indent);
        let Some(n) = array_index(&toks[1]).filter(|n| *n < items.len()) else {
            return Ok(None);
        };
        let end = items.get(n + 1).copied().unwrap_or(t.end);
        let raw: Vec<&str> = pointer.splitn(4, '/').collect();
        Ok(Some(InPart {
            start: items[n],
            end,
            pointer: match raw.get(3) {
                Some(rest) => format!("/0/{rest}"),
                None => "/0".to_string(),
            },
            item: Some(format!("/{}/{}", raw[1], raw[2])),
        }))
    }

    /// A top-level block sequence itself (`/nodes`): from where its first
    /// item's part says it starts to the end of its last item.
    fn sequence(&self, pointer: &str, k: usize) -> Option<Located> {
        let t = &self.top.as_ref()?[k];
        let (first, indent) = t.sequence?;
        let items = self.items(k, first, indent);
        let head_end = items.get(1).copied().unwrap_or(t.end);
        let head = self.part(t.start, head_end)?;
        let mut span = shift(head.find(pointer)?, t.start);
        let last = *items.last()?;
        let tail = self.part(last, t.end)?;
        span.end = span.end.max(shift(tail.find("/0")?, last).end);
        Some(self.located(span, pointer.to_string(), true))
    }

    fn located(&self, span: Span, pointer: String, exact: bool) -> Located {
        Located {
            span,
            start: self.position(span.start),
            end: self.position(span.end),
            pointer,
            exact,
        }
    }

    /// `locate`, or `Err(())` when the whole index must answer.
    fn seek(&self, pointer: &str) -> Result<Option<Located>, ()> {
        let Some(toks) = tokens(pointer) else {
            return Ok(None);
        };
        if toks.is_empty() {
            return Err(());
        }
        let top = self.top.as_ref().ok_or(())?;
        let k = top.iter().rposition(|t| t.key == toks[0]).ok_or(())?;
        let Some(part) = self.route(pointer, &toks)? else {
            // The sequence itself, or an item it does not have.
            let raw: Vec<&str> = pointer.splitn(3, '/').collect();
            let own = format!("/{}", raw[1]);
            let seq = self.sequence(&own, k).ok_or(())?;
            return Ok(Some(Located {
                exact: toks.len() == 1,
                ..seq
            }));
        };
        let index = self.part(part.start, part.end).ok_or(())?;
        let l = index.locate(&part.pointer).ok_or(())?;
        let pointer = match &part.item {
            None => l.pointer,
            // The part's root is no place in the document.
            Some(_) if l.pointer.is_empty() => return Err(()),
            Some(item) => format!("{item}{}", &l.pointer["/0".len()..]),
        };
        Ok(Some(self.located(
            shift(l.span, part.start),
            pointer,
            l.exact,
        )))
    }
}

impl Locate for YamlSeek<'_> {
    fn text(&self) -> &str {
        self.text
    }

    fn locate(&self, pointer: &str) -> Option<Located> {
        match self.seek(pointer) {
            Ok(l) => l,
            Err(()) => self.whole()?.locate(pointer),
        }
    }

    fn find(&self, pointer: &str) -> Option<Span> {
        self.locate(pointer).filter(|l| l.exact).map(|l| l.span)
    }

    fn key_span(&self, pointer: &str) -> Option<Span> {
        let toks = tokens(pointer)?;
        let answer = || -> Result<Option<Span>, ()> {
            if toks.is_empty() {
                return Ok(None);
            }
            let top = self.top.as_ref().ok_or(())?;
            let k = top.iter().rposition(|t| t.key == toks[0]).ok_or(())?;
            let t = &top[k];
            if toks.len() == 1 {
                // The top-level key: in the member's first lines.
                let end = match t.sequence {
                    Some((first, indent)) => self
                        .items(k, first, indent)
                        .get(1)
                        .copied()
                        .unwrap_or(t.end),
                    None => t.end,
                };
                let part = self.part(t.start, end).ok_or(())?;
                return Ok(part.key_span(pointer).map(|s| shift(s, t.start)));
            }
            match self.route(pointer, &toks)? {
                Some(p) => {
                    let index = self.part(p.start, p.end).ok_or(())?;
                    Ok(index.key_span(&p.pointer).map(|s| shift(s, p.start)))
                }
                None => Ok(None),
            }
        };
        match answer() {
            Ok(s) => s,
            Err(()) => self.whole()?.key_span(pointer),
        }
    }
}

fn shift(s: Span, by: usize) -> Span {
    Span {
        start: s.start + by,
        end: s.end + by,
    }
}

fn array_index(tok: &str) -> Option<usize> {
    if tok.is_empty() || (tok.len() > 1 && tok.starts_with('0')) {
        return None;
    }
    tok.parse().ok()
}

/// The line starts of a block sequence's items: its lines from `first`
/// (its first item's) to `end` that are items at `indent`.
pub(super) fn item_starts(text: &str, first: usize, indent: usize, end: usize) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut at = first;
    while at < end {
        let line = line_at(text, at);
        if indentation(line) == indent && is_item(&line[indent..]) {
            starts.push(at);
        }
        at += line.len() + 1;
    }
    starts
}

/// The line starting at `at` (without its `\n`).
pub(super) fn line_at(text: &str, at: usize) -> &str {
    let rest = &text[at..];
    &rest[..rest.find('\n').unwrap_or(rest.len())]
}

pub(super) fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A line that says nothing: blank, or a comment.
pub(super) fn is_blank(line: &str) -> bool {
    let t = line.trim_start_matches(' ').trim_end_matches('\r');
    t.is_empty() || t.starts_with('#')
}

/// A sequence item's first line (`- …`, or `-` alone), from its dash.
pub(super) fn is_item(from_dash: &str) -> bool {
    let rest = from_dash.trim_end_matches('\r');
    rest == "-" || rest.starts_with("- ")
}

/// The top-level members, when the top level is a block mapping whose keys
/// are plain and whose lines say where each member is; `None` otherwise.
pub(super) fn top_level(text: &str) -> Option<Vec<Top>> {
    if text.starts_with('\u{feff}') {
        return None;
    }
    let mut top: Vec<Top> = Vec::new();
    let mut at = 0;
    let mut first = true;
    while at < text.len() {
        let line = line_at(text, at);
        let next = at + line.len() + 1;
        if is_blank(line) {
            at = next;
            continue;
        }
        if line.starts_with('\t') || (top.is_empty() && indentation(line) > 0) {
            // A tab, or something before the first key: read whole.
            return None;
        }
        if indentation(line) > 0 {
            at = next;
            continue;
        }
        let content = line.trim_end_matches('\r');
        if first && (content == "---" || content.starts_with("--- #")) {
            first = false;
            at = next;
            continue;
        }
        first = false;
        if is_item(content) {
            // An item of the sequence of the member before, at column 0.
            top.last()?;
            at = next;
            continue;
        }
        let key = plain_key(content)?;
        if let Some(last) = top.last_mut() {
            last.end = at;
        }
        top.push(Top {
            key: key.to_string(),
            start: at,
            end: text.len(),
            sequence: None,
        });
        at = next;
    }
    for t in &mut top {
        t.sequence = sequence_of(text, t);
    }
    Some(top)
}

/// The key of a top-level line `key:` or `key: value`, when plain.
fn plain_key(line: &str) -> Option<&str> {
    let first = line.chars().next()?;
    if "\"'{[?&*!|>@`%,#-:".contains(first) {
        return None;
    }
    let key = line[..key_colon(line)?].trim_end_matches(' ');
    (!key.is_empty() && !key.contains(" #")).then_some(key)
}

/// Where the colon after a top-level line's plain key is.
fn key_colon(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    line.match_indices(':')
        .find(|(i, _)| matches!(b.get(i + 1), None | Some(b' ' | b'\r')))
        .map(|(i, _)| i)
}

/// Whether a top-level member's value is a block sequence: nothing after
/// its key but a comment, and its next line that says something is an
/// item. Its first item's line start and indentation.
fn sequence_of(text: &str, t: &Top) -> Option<(usize, usize)> {
    let line = line_at(text, t.start);
    let after = line[key_colon(line)? + 1..].trim_matches([' ', '\r']);
    if !after.is_empty() && !after.starts_with('#') {
        return None;
    }
    let mut at = t.start + line.len() + 1;
    while at < t.end {
        let line = line_at(text, at);
        if !is_blank(line) {
            let indent = indentation(line);
            return is_item(&line[indent..]).then_some((at, indent));
        }
        at += line.len() + 1;
    }
    None
}
