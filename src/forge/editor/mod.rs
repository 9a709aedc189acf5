//! What an editor asks about a plan document while it is being written
//! (`planforge lsp`): where a node id is defined and used, what is under
//! the cursor, what may be typed there, the outline, and the fixes that are
//! data as edits of the text. Every query reads the text as it is now, with
//! its spans ([`crate::wire::span`]), so it answers on a document that does
//! not read as a plan yet (an unknown kind, a missing `select`), and on
//! YAML as on JSON. The diagnostics are `validate`'s
//! ([`super::validate::check_input`]).
//!
//! Offsets are bytes into the text; the adapter converts them to its
//! protocol's positions.

pub(crate) mod actions;
pub(crate) mod complete;
pub(crate) mod context;
pub(crate) mod edits;
pub(crate) mod hover;
pub(crate) mod navigate;
pub(crate) mod shape;
pub(crate) mod symbols;

pub(crate) use crate::wire::Syntax;
pub(crate) use crate::wire::span::Span;
use crate::wire::span::{OwnedIndex, SpanIndex};
use shape::Shape;
use std::sync::{Arc, Mutex, OnceLock};

/// A document's text, as an editor holds it, with what reading it builds
/// (its span index and its shape), made once per version on first use and
/// shared by the clones of the version (the validation worker's and the
/// editor loop's).
///
/// A version that is not well-formed (mid-typing) keeps the last version
/// that was known to be: navigation, hover, completion and the outline then
/// answer from that text, through [`Moved`] (the text before the first
/// change and after the last one is the same in both, so a place there
/// maps by its distance from the start or the end; a place in between, in
/// the text that changed, has no counterpart and gives no answer).
#[derive(Debug, Clone)]
pub(crate) struct Doc {
    pub(crate) text: Arc<str>,
    pub(crate) syntax: Syntax,
    read: Cell,
    /// The last version known to be well-formed, when this one is another.
    good: Option<Arc<Read>>,
    /// The version before (its text and its reading), when it was not
    /// read yet when this one came (the reader thread may be reading it,
    /// or waiting for a pause in typing): it is the better fallback, read
    /// when a query needs it, if well-formed.
    pending: Option<(Arc<str>, Cell)>,
    /// Completion's reading of this version repaired at an offset (not
    /// well-formed as it is): the offset and the repaired text's reading,
    /// `None` when no repair there reads. Kept for the next request at
    /// the same place of the same version (an editor asks again as the
    /// user goes on), so the repaired text is read once, not per request.
    repaired: Arc<Mutex<Option<Repaired>>>,
}

/// A repaired reading: the offset repaired for, and where the repair went
/// in and the reading (`None`: no repair there reads).
type Repaired = (usize, Option<(usize, Arc<Read>)>);

/// A version's reading, made once.
type Cell = Arc<OnceLock<Option<Arc<Read>>>>;

/// A text's reading; `None` when it is not well-formed JSON or YAML.
fn reading(text: &Arc<str>, syntax: Syntax) -> Option<Arc<Read>> {
    let index = OwnedIndex::new(Arc::clone(text), syntax)?;
    Some(Arc::new(Read::new(index)))
}

/// A cell's reading, if it was made and the text was well-formed.
fn made(cell: &Cell) -> Option<Arc<Read>> {
    cell.get().cloned().flatten()
}

/// A well-formed text read: its index, and its shape when first asked
/// (validation needs only the index: the shape is for the queries).
#[derive(Debug)]
pub(crate) struct Read {
    pub(crate) index: OwnedIndex,
    shape: OnceLock<Shape>,
}

impl Read {
    /// A well-formed text's reading (its shape made on first use).
    pub(crate) fn new(index: OwnedIndex) -> Read {
        Read {
            index,
            shape: OnceLock::new(),
        }
    }

    /// The nodes, edges and references, read from the index once.
    pub(crate) fn shape(&self) -> &Shape {
        self.shape.get_or_init(|| Shape::of(&self.index.index()))
    }
}

/// Where a well-formed text and a later text differ: the bytes they share
/// at the start and at the end (at character boundaries).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Moved {
    prefix: usize,
    suffix: usize,
    /// Their lengths: the text read and the text now.
    from_len: usize,
    to_len: usize,
}

impl Moved {
    pub(crate) fn between(from: &str, to: &str) -> Moved {
        let (a, b) = (from.as_bytes(), to.as_bytes());
        let mut prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        while !from.is_char_boundary(prefix) || !to.is_char_boundary(prefix) {
            prefix -= 1;
        }
        let most = a.len().min(b.len()) - prefix;
        let mut suffix = a
            .iter()
            .rev()
            .zip(b.iter().rev())
            .take(most)
            .take_while(|(x, y)| x == y)
            .count();
        while !from.is_char_boundary(a.len() - suffix) || !to.is_char_boundary(b.len() - suffix) {
            suffix -= 1;
        }
        Moved {
            prefix,
            suffix,
            from_len: a.len(),
            to_len: b.len(),
        }
    }

    /// An offset of the text now in the text read, outside the change.
    pub(crate) fn back(&self, at: usize) -> Option<usize> {
        if at <= self.prefix {
            Some(at)
        } else if at >= self.to_len - self.suffix {
            Some(at + self.from_len - self.to_len)
        } else {
            None
        }
    }

    /// An offset of the text read in the text now, outside the change.
    pub(crate) fn forth(&self, at: usize) -> Option<usize> {
        if at <= self.prefix {
            Some(at)
        } else if at >= self.from_len - self.suffix {
            Some(at + self.to_len - self.from_len)
        } else {
            None
        }
    }

    pub(crate) fn span(&self, s: Span) -> Option<Span> {
        Some(Span {
            start: self.forth(s.start)?,
            end: self.forth(s.end)?,
        })
    }
}

/// What a query reads: this version, or the last well-formed one and how
/// the text moved since.
pub(crate) struct View<'d> {
    pub(crate) read: &'d Read,
    pub(crate) moved: Option<Moved>,
}

impl View<'_> {
    pub(crate) fn index(&self) -> SpanIndex<'_> {
        self.read.index.index()
    }
    /// An offset of the text now in the text read.
    pub(crate) fn back(&self, at: usize) -> Option<usize> {
        match &self.moved {
            None => Some(at),
            Some(m) => m.back(at),
        }
    }
    /// A span of the text read in the text now.
    pub(crate) fn forth(&self, s: Span) -> Option<Span> {
        match &self.moved {
            None => Some(s),
            Some(m) => m.span(s),
        }
    }
}

impl Doc {
    pub(crate) fn new(text: impl Into<Arc<str>>, syntax: Syntax) -> Doc {
        Doc {
            text: text.into(),
            syntax,
            read: Arc::default(),
            good: None,
            pending: None,
            repaired: Arc::default(),
        }
    }

    /// The next version of this document: `text`, which keeps this
    /// version's reading (or its last good one) for while it does not read.
    pub(crate) fn edited(&self, text: impl Into<Arc<str>>) -> Doc {
        let before = || {
            self.pending
                .as_ref()
                .and_then(|(_, c)| made(c))
                .or(self.good.clone())
        };
        let (good, pending) = match self.read.get() {
            Some(Some(r)) => (Some(Arc::clone(r)), None),
            Some(None) => (before(), None),
            None => (
                before(),
                Some((Arc::clone(&self.text), Arc::clone(&self.read))),
            ),
        };
        Doc {
            good,
            pending,
            ..Doc::new(text, self.syntax)
        }
    }

    /// The syntax a document's name or first character says.
    pub(crate) fn syntax_of(name: &str, text: &str) -> Syntax {
        Syntax::from_path(name).unwrap_or_else(|| Syntax::sniff(text))
    }

    /// This version read (once); `None` when it is not well-formed JSON or
    /// YAML.
    pub(crate) fn read(&self) -> Option<&Read> {
        self.read
            .get_or_init(|| reading(&self.text, self.syntax))
            .as_deref()
    }

    /// Reads this version and its shape for the queries without ever
    /// holding a query up: the reading is made outside the version's cell
    /// and put in only if no query made it meanwhile. The reader thread
    /// runs at the lowest priority, so a query must not wait for it: one
    /// that needs the reading first makes it itself, at its own priority.
    pub(crate) fn read_aside(&self) -> usize {
        if self.read.get().is_none() {
            let _ = self.read.set(reading(&self.text, self.syntax));
        }
        let Some(Some(r)) = self.read.get() else {
            return 0;
        };
        if r.shape.get().is_none() {
            let _ = r.shape.set(Shape::of(&r.index.index()));
        }
        r.shape().nodes.len()
    }

    /// The text's span index; `None` when it is not well-formed JSON or
    /// YAML.
    pub(crate) fn index(&self) -> Option<SpanIndex<'_>> {
        self.read().map(|r| r.index.index())
    }

    /// The text's span index if this version was read already (nothing
    /// is read here).
    pub(crate) fn index_if_read(&self) -> Option<SpanIndex<'_>> {
        self.read.get()?.as_deref().map(|r| r.index.index())
    }

    /// A reading made already of an earlier version, while this one is
    /// not read yet, when the place `at` (an offset of this text; `None`:
    /// no one place) and the top-level item it is in (a node, an edge) are
    /// outside what changed since: a query right after a change then
    /// answers at once from the last reading, as rust-analyzer answers from
    /// its last analysis, instead of reading a large text first (the reader
    /// thread reads this version after a pause in typing). `None`: this
    /// version is read, or there is no such reading, or the place's item
    /// changed; the query then reads this version ([`Doc::view`]).
    pub(crate) fn stale(&self, at: Option<usize>) -> Option<View<'_>> {
        if self.read.get().is_some() {
            return None;
        }
        let pending = self
            .pending
            .as_ref()
            .and_then(|(_, c)| c.get())
            .and_then(Option::as_ref);
        let read: &Read = pending.or(self.good.as_ref())?;
        let moved = Moved::between(read.index.text(), &self.text);
        if let Some(at) = at {
            let was = moved.back(at)?;
            let idx = read.index.index();
            let c = idx.cursor(was)?;
            let item: Vec<&str> = c.pointer.splitn(4, '/').take(3).collect();
            let around = idx.find(&item.join("/")).unwrap_or(c.span);
            let outside =
                around.end <= moved.prefix || around.start >= moved.from_len - moved.suffix;
            if !outside {
                return None;
            }
        }
        Some(View {
            read,
            moved: Some(moved),
        })
    }

    /// What queries read: this version when it is well-formed, else the
    /// last one that was.
    pub(crate) fn view(&self) -> Option<View<'_>> {
        if let Some(read) = self.read() {
            return Some(View { read, moved: None });
        }
        let pending = self
            .pending
            .as_ref()
            .and_then(|(text, c)| c.get_or_init(|| reading(text, self.syntax)).as_ref());
        let good = match pending {
            Some(r) => r,
            None => self.good.as_ref()?,
        };
        Some(View {
            moved: Some(Moved::between(good.index.text(), &self.text)),
            read: good,
        })
    }
}

impl Doc {
    /// Whether the text is meant as a plan document, so that an editor
    /// attached to every JSON or YAML file leaves the others alone: its
    /// top level has `nodes`, `formatVersion` or `planId`, or (not
    /// well-formed yet) the text names one of them.
    ///
    /// The text is first looked at without being read whole (a JSON top
    /// level scanned only as far as one of those keys; a YAML one by the
    /// first characters of its lines): most plan documents say so at once,
    /// and validation then reads the text only once.
    pub(crate) fn is_plan_document(&self) -> bool {
        const KEYS: [&str; 3] = ["nodes", "formatVersion", "planId"];
        let said = match self.syntax {
            Syntax::Json => crate::wire::span::Seek::new(&self.text)
                .is_some_and(|s| KEYS.iter().any(|k| s.has_member(k))),
            Syntax::Yaml => {
                let s = crate::wire::span::YamlSeek::new(&self.text);
                KEYS.iter().any(|k| s.has_member(k) == Some(true))
            }
        };
        if said {
            return true;
        }
        match self.index() {
            Some(idx) => idx
                .members("")
                .is_some_and(|m| m.iter().any(|(k, _, _)| KEYS.contains(&k.as_str()))),
            None => KEYS
                .iter()
                .any(|k| names_top_level_key(&self.text, self.syntax, k)),
        }
    }
}

/// Whether a text that does not read whole has `key` as a key of its top
/// level (not nested, not a longer key starting with it): a JSON string at
/// depth one followed by `:`, or a YAML line starting with `key:`.
fn names_top_level_key(text: &str, syntax: Syntax, key: &str) -> bool {
    match syntax {
        Syntax::Yaml => text.lines().any(|l| {
            [key.to_string(), format!("\"{key}\""), format!("'{key}'")]
                .iter()
                .any(|k| {
                    l.strip_prefix(k.as_str())
                        .is_some_and(|r| r.trim_start().starts_with(':'))
                })
        }),
        Syntax::Json => {
            let b = text.as_bytes();
            let (mut depth, mut i) = (0usize, 0usize);
            while i < b.len() {
                match b[i] {
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => depth = depth.saturating_sub(1),
                    b'"' => {
                        let start = i + 1;
                        i += 1;
                        while i < b.len() && b[i] != b'"' {
                            i += if b[i] == b'\\' { 2 } else { 1 };
                        }
                        let end = i.min(b.len());
                        let after = b.get(end + 1..).unwrap_or_default();
                        let colon = after.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b':');
                        if depth == 1 && colon && &b[start..end] == key.as_bytes() {
                            return true;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
            false
        }
    }
}

/// A string as the document writes one in `syntax` at a place that held
/// `like` (the text being replaced): JSON strings are always quoted; in
/// YAML the quoting of `like` is kept, and a plain scalar stays plain when
/// the value needs no quotes.
pub(crate) fn quoted(value: &str, syntax: Syntax, like: &str) -> String {
    let json = serde_json::to_string(value).expect("strings always serialise");
    match syntax {
        Syntax::Json => json,
        Syntax::Yaml if like.starts_with('"') => json,
        Syntax::Yaml if like.starts_with('\'') => format!("'{}'", value.replace('\'', "''")),
        Syntax::Yaml => {
            let plain = !value.is_empty()
                && value
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
                && !matches!(
                    value,
                    "true" | "false" | "null" | "yes" | "no" | "on" | "off"
                )
                && value.parse::<f64>().is_err();
            if plain { value.to_string() } else { json }
        }
    }
}

#[cfg(test)]
mod tests;
