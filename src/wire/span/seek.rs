//! Pointer lookups in a JSON text that was read as a document already,
//! without indexing all of it: each lookup scans only as far as its
//! pointer leads (the members and items before the one it names, skipped
//! without being read), and what a scan found is kept for the next one.
//!
//! For `validate`, which has read the document (serde) before it has any
//! finding to place: building the whole span tree too ([`super::SpanIndex`])
//! was a second parse of the text for a handful of pointers (issue 18).
//!
//! It answers exactly as [`super::SpanIndex`] does on such a text: the text
//! is well-formed JSON and has no duplicate keys (the reader refuses them),
//! so the first member with a key is the only one. On any other text it
//! answers something and never panics, but not necessarily the same.

use super::index::{Locate, Located, prefix, tokens};
use super::json::decode_string;
use super::lines::{Lines, Position};
use super::tree::Span;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

/// A JSON text read as a document, for pointer lookups.
pub(crate) struct Seek<'t> {
    text: &'t str,
    /// Where the root value starts and ends (after a byte-order mark and
    /// white space; before trailing white space).
    root: Span,
    lines: OnceCell<Lines>,
    /// What is known of each container (by the offset it starts at).
    seen: RefCell<HashMap<usize, Kids>>,
}

/// The members or items of a container scanned so far.
#[derive(Default)]
struct Kids {
    items: Vec<Kid>,
    /// The container's end (after its closing bracket), once scanned to it.
    end: Option<usize>,
}

#[derive(Clone, Copy)]
struct Kid {
    /// An object member's key (with its quotes).
    key: Option<Span>,
    /// Where the value starts.
    value: usize,
}

const WS: [u8; 4] = [b' ', b'\t', b'\n', b'\r'];

impl<'t> Seek<'t> {
    /// A locator over `text`, a JSON document; `None` when it holds no
    /// value.
    pub(crate) fn new(text: &'t str) -> Option<Seek<'t>> {
        let b = text.as_bytes();
        let mut start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        while b.get(start).is_some_and(|c| WS.contains(c)) {
            start += 1;
        }
        let mut end = b.len();
        while end > start && WS.contains(&b[end - 1]) {
            end -= 1;
        }
        if start >= end {
            return None;
        }
        Some(Seek {
            text,
            root: Span { start, end },
            lines: OnceCell::new(),
            seen: RefCell::new(HashMap::new()),
        })
    }

    fn position(&self, offset: usize) -> Position {
        self.lines
            .get_or_init(|| Lines::new(self.text))
            .position(self.text, offset)
    }

    fn byte(&self, at: usize) -> Option<u8> {
        self.text.as_bytes().get(at).copied()
    }

    fn ws(&self, mut at: usize) -> usize {
        while self.byte(at).is_some_and(|c| WS.contains(&c)) {
            at += 1;
        }
        at
    }

    /// The end of the value starting at `at` (after it), skipped without
    /// being read; a container scanned before is not scanned again.
    fn end_of(&self, at: usize) -> usize {
        if let Some(end) = self.seen.borrow().get(&at).and_then(|k| k.end) {
            return end;
        }
        let b = self.text.as_bytes();
        match self.byte(at) {
            Some(b'"') => string_end(b, at),
            Some(b'{' | b'[') => {
                let mut depth = 0usize;
                let mut i = at;
                while let Some(&c) = b.get(i) {
                    match c {
                        b'"' => {
                            i = string_end(b, i);
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                b.len()
            }
            _ => {
                let mut i = at;
                while b
                    .get(i)
                    .is_some_and(|c| !matches!(c, b',' | b']' | b'}') && !WS.contains(c))
                {
                    i += 1;
                }
                i
            }
        }
    }

    /// Scans one more member or item of the container at `at`; `false`
    /// once its end is reached (or the text is not what was expected).
    fn scan_one(&self, at: usize, kids: &mut Kids) -> bool {
        if kids.end.is_some() {
            return false;
        }
        let object = self.byte(at) == Some(b'{');
        let mut i = match kids.items.last() {
            None => self.ws(at + 1),
            Some(last) => {
                let i = self.ws(self.end_of(last.value));
                match self.byte(i) {
                    Some(b',') => self.ws(i + 1),
                    _ => {
                        kids.end = Some(i + 1);
                        return false;
                    }
                }
            }
        };
        if kids.items.is_empty() && matches!(self.byte(i), Some(b'}' | b']')) {
            kids.end = Some(i + 1);
            return false;
        }
        let key = if object {
            let end = string_end(self.text.as_bytes(), i);
            let key = Span { start: i, end };
            i = self.ws(end);
            if self.byte(i) != Some(b':') {
                kids.end = Some(i);
                return false;
            }
            i = self.ws(i + 1);
            Some(key)
        } else {
            None
        };
        kids.items.push(Kid { key, value: i });
        true
    }

    /// Whether the key at `key` (with its quotes) decodes to `tok`.
    fn key_is(&self, key: Span, tok: &str) -> bool {
        let raw = self.text.get(key.start + 1..key.end.saturating_sub(1));
        match raw {
            Some(raw) if !raw.contains('\\') => raw == tok,
            _ => decode_string(self.text, key.start).is_some_and(|k| k == tok),
        }
    }

    /// The member `tok` of the object at `at`, or its item `tok` if it is
    /// an array; `None` when there is none (a scalar has none).
    fn child(&self, at: usize, tok: &str) -> Option<Kid> {
        let index = match self.byte(at)? {
            b'{' => None,
            b'[' => Some(array_index(tok)?),
            _ => return None,
        };
        // Out of the map while scanned (skipping a value reads the map).
        let mut kids = self.seen.borrow_mut().remove(&at).unwrap_or_default();
        let found = self.kid(at, &mut kids, index, tok);
        self.seen.borrow_mut().insert(at, kids);
        found
    }

    /// As [`Seek::child`], with the container's kids known so far.
    fn kid(&self, at: usize, kids: &mut Kids, index: Option<usize>, tok: &str) -> Option<Kid> {
        let mut from = 0;
        loop {
            let found = match index {
                Some(n) => kids.items.get(n).copied(),
                // Keys are unique: the first member with the key is the one.
                None => kids.items[from..]
                    .iter()
                    .find(|k| k.key.is_some_and(|key| self.key_is(key, tok)))
                    .copied(),
            };
            if found.is_some() {
                return found;
            }
            from = kids.items.len();
            if !self.scan_one(at, kids) {
                return None;
            }
        }
    }
}

/// How far a pointer leads: the value reached (its start), the key of the
/// last member followed, how many tokens were followed, and how many there
/// are.
struct Walked {
    value: usize,
    key: Option<Span>,
    depth: usize,
    total: usize,
}

impl Seek<'_> {
    fn walk(&self, pointer: &str) -> Option<Walked> {
        let tokens = tokens(pointer)?;
        let mut w = Walked {
            value: self.root.start,
            key: None,
            depth: 0,
            total: tokens.len(),
        };
        for tok in &tokens {
            match self.child(w.value, tok) {
                Some(kid) => {
                    w.value = kid.value;
                    w.key = kid.key;
                    w.depth += 1;
                }
                None => break,
            }
        }
        Some(w)
    }

    fn span_at(&self, at: usize) -> Span {
        let end = if at == self.root.start {
            self.root.end
        } else {
            self.end_of(at)
        };
        Span { start: at, end }
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
}

impl Seek<'_> {
    /// Whether the root is an object with a member `key`.
    pub(crate) fn has_member(&self, key: &str) -> bool {
        self.child(self.root.start, key).is_some()
    }
}

impl Locate for Seek<'_> {
    fn text(&self) -> &str {
        self.text
    }

    fn locate(&self, pointer: &str) -> Option<Located> {
        let w = self.walk(pointer)?;
        let exact = w.depth == w.total;
        let found = if exact {
            pointer.to_string()
        } else {
            prefix(pointer, w.depth)
        };
        Some(self.located(self.span_at(w.value), found, exact))
    }

    fn find(&self, pointer: &str) -> Option<Span> {
        let w = self.walk(pointer)?;
        (w.depth == w.total).then(|| self.span_at(w.value))
    }

    fn key_span(&self, pointer: &str) -> Option<Span> {
        let w = self.walk(pointer)?;
        (w.depth == w.total && w.total > 0)
            .then_some(w.key)
            .flatten()
    }
}

/// After the string starting at `at` (its closing quote), or the text's end.
fn string_end(b: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while let Some(&c) = b.get(i) {
        match c {
            b'"' => return i + 1,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    b.len()
}

fn array_index(tok: &str) -> Option<usize> {
    if tok.is_empty() || (tok.len() > 1 && tok.starts_with('0')) {
        return None;
    }
    tok.parse().ok()
}
