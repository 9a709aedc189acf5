//! Where a JSON pointer lands in a document's text, for diagnostics.
//!
//! Findings carry JSON pointers (`/nodes/2/definition/tool`); people and CI
//! want a file, a line and a column. [`SpanIndex`] reads a document's text
//! once and maps any pointer to the byte range of the value it names:
//! for JSON with a small scanner of our own, for YAML with serde-saphyr's
//! `Spanned` locations. Lines and columns are 1-based and columns count
//! Unicode scalar values (SARIF's `unicodeCodePoints`); an end position is
//! exclusive (the character after the value), as in SARIF and terraform.
//!
//! Building an index is O(size of the text); a lookup is O(depth × the
//! width of the objects on the way).

use super::parse::Syntax;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A byte range in a text: `start..end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
}

/// A 1-based line and column (columns count Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// A span with its start and (exclusive) end positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Located {
    pub span: Span,
    pub start: Position,
    pub end: Position,
    /// The pointer actually found: the one asked for, or its longest prefix
    /// that exists (a missing field is reported at the object that lacks it).
    pub pointer: String,
    pub exact: bool,
}

#[derive(Debug)]
enum Kind {
    Scalar,
    /// Members in text order: key, the key's span, the value.
    Object(Vec<(String, Span, Tree)>),
    Array(Vec<Tree>),
}

#[derive(Debug)]
struct Tree {
    span: Span,
    kind: Kind,
}

/// Byte offsets of line starts, for offset → position.
#[derive(Debug)]
struct Lines {
    starts: Vec<usize>,
    /// Characters before every [`SAMPLE`]-th byte (at a char boundary at or
    /// before it), so a column is counted from the nearest sample rather than
    /// from the start of a line that may be the whole document. Empty for
    /// ASCII text, where characters are bytes.
    samples: Vec<(usize, usize)>,
}

/// Bytes between character-count samples.
const SAMPLE: usize = 256;

impl Lines {
    fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        let mut samples = Vec::new();
        if !text.is_ascii() {
            let mut at = 0;
            for (chars, (i, _)) in text.char_indices().enumerate() {
                if i >= at {
                    samples.push((i, chars));
                    at = i + SAMPLE;
                }
            }
        }
        Lines { starts, samples }
    }

    /// Characters before byte `offset` (a char boundary).
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        if self.samples.is_empty() {
            return offset;
        }
        let k = match self.samples.binary_search_by(|(b, _)| b.cmp(&offset)) {
            Ok(k) => k,
            Err(k) => k - 1,
        };
        let (b, c) = self.samples[k];
        c + text[b..offset].chars().count()
    }

    fn position(&self, text: &str, offset: usize) -> Position {
        let offset = crate::model::text::floor_char_boundary(text, offset.min(text.len()));
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.starts[line];
        Position {
            line: line + 1,
            column: self.chars_before(text, offset) - self.chars_before(text, start) + 1,
        }
    }
}

/// The 1-based position of a byte offset.
pub fn position(text: &str, offset: usize) -> Position {
    Lines::new(text).position(text, offset)
}

/// The byte offset of a 1-based line and column (columns in characters),
/// clamped to the line's end; `None` past the last line.
pub fn offset(text: &str, line: usize, column: usize) -> Option<usize> {
    if line == 0 {
        return None;
    }
    let lines = Lines::new(text);
    let start = *lines.starts.get(line - 1)?;
    let rest = &text[start..];
    let line_len = rest.find('\n').unwrap_or(rest.len());
    let at = rest[..line_len]
        .char_indices()
        .nth(column.saturating_sub(1))
        .map(|(i, _)| i)
        .unwrap_or(line_len);
    Some(start + at)
}

/// A document's text, indexed for pointer lookups.
pub struct SpanIndex<'t> {
    text: &'t str,
    lines: Lines,
    root: Tree,
}

impl fmt::Debug for SpanIndex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SpanIndex")
            .field("bytes", &self.text.len())
            .finish()
    }
}

impl<'t> SpanIndex<'t> {
    /// Indexes a document; `None` when the text does not parse.
    pub fn new(text: &'t str, syntax: Syntax) -> Option<SpanIndex<'t>> {
        let root = match syntax {
            Syntax::Json => json_tree(text)?,
            Syntax::Yaml => yaml_tree(text)?,
        };
        Some(SpanIndex {
            text,
            lines: Lines::new(text),
            root,
        })
    }

    pub fn text(&self) -> &'t str {
        self.text
    }

    pub fn position(&self, offset: usize) -> Position {
        self.lines.position(self.text, offset)
    }

    /// The span of the value at `pointer`, if it exists.
    pub fn find(&self, pointer: &str) -> Option<Span> {
        let (tree, depth, total) = self.walk(pointer)?;
        (depth == total).then_some(tree.span)
    }

    /// The value at `pointer`, or at its longest existing prefix.
    pub fn locate(&self, pointer: &str) -> Option<Located> {
        let (tree, depth, total) = self.walk(pointer)?;
        let found = if depth == total {
            pointer.to_string()
        } else {
            prefix(pointer, depth)
        };
        Some(self.located(tree.span, found, depth == total))
    }

    /// A span with its positions.
    pub fn located(&self, span: Span, pointer: String, exact: bool) -> Located {
        Located {
            span,
            start: self.position(span.start),
            end: self.position(span.end),
            pointer,
            exact,
        }
    }

    /// Walks as far as the pointer leads: the tree reached, how many tokens
    /// were followed and how many there are. `None` for a malformed pointer.
    fn walk(&self, pointer: &str) -> Option<(&Tree, usize, usize)> {
        let tokens = tokens(pointer)?;
        let mut cur = &self.root;
        for (i, tok) in tokens.iter().enumerate() {
            let next = match &cur.kind {
                Kind::Object(members) => members
                    .iter()
                    .rev()
                    .find(|(k, _, _)| k == tok)
                    .map(|(_, _, v)| v),
                Kind::Array(items) => array_index(tok).and_then(|i| items.get(i)),
                Kind::Scalar => None,
            };
            match next {
                Some(t) => cur = t,
                None => return Some((cur, i, tokens.len())),
            }
        }
        Some((cur, tokens.len(), tokens.len()))
    }

    /// The span of the key naming the member at `pointer` (its last token),
    /// when the parent is an object.
    pub fn key_span(&self, pointer: &str) -> Option<Span> {
        let tokens = tokens(pointer)?;
        let (last, parents) = tokens.split_last()?;
        let mut cur = &self.root;
        for tok in parents {
            cur = match &cur.kind {
                Kind::Object(m) => m.iter().rev().find(|(k, _, _)| k == tok).map(|x| &x.2)?,
                Kind::Array(items) => items.get(array_index(tok)?)?,
                Kind::Scalar => return None,
            };
        }
        match &cur.kind {
            Kind::Object(m) => m.iter().rev().find(|(k, _, _)| k == last).map(|x| x.1),
            _ => None,
        }
    }
}

fn array_index(tok: &str) -> Option<usize> {
    if tok.is_empty() || (tok.len() > 1 && tok.starts_with('0')) {
        return None;
    }
    tok.parse().ok()
}

/// The decoded tokens of a JSON pointer (`""` is the root).
pub fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    let rest = pointer.strip_prefix('/')?;
    Some(
        rest.split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect(),
    )
}

/// The first `depth` tokens of a pointer, still escaped.
fn prefix(pointer: &str, depth: usize) -> String {
    if depth == 0 {
        return String::new();
    }
    pointer
        .split('/')
        .take(depth + 1)
        .collect::<Vec<_>>()
        .join("/")
}

/// One-shot lookup: the value at `pointer` (or its nearest existing parent).
pub fn locate(text: &str, syntax: Syntax, pointer: &str) -> Option<Located> {
    SpanIndex::new(text, syntax)?.locate(pointer)
}

// ---------------------------------------------------------------- JSON

/// Deeper than the parser accepts, so any document it read fits.
const MAX_SCAN_DEPTH: usize = 512;

struct Scanner<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
    depth: usize,
}

fn json_tree(text: &str) -> Option<Tree> {
    let mut s = Scanner {
        text,
        b: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    if text.starts_with('\u{feff}') {
        s.i = 3;
    }
    let t = s.value()?;
    s.ws();
    (s.i == s.b.len()).then_some(t)
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        self.ws();
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }

    fn value(&mut self) -> Option<Tree> {
        self.ws();
        let start = self.i;
        match *self.b.get(self.i)? {
            b'{' => self.object(),
            b'[' => self.array(),
            b'"' => {
                self.string()?;
                Some(Tree {
                    span: Span { start, end: self.i },
                    kind: Kind::Scalar,
                })
            }
            _ => {
                while let Some(&c) = self.b.get(self.i) {
                    if matches!(c, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r') {
                        break;
                    }
                    self.i += 1;
                }
                (self.i > start).then_some(Tree {
                    span: Span { start, end: self.i },
                    kind: Kind::Scalar,
                })
            }
        }
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_SCAN_DEPTH).then_some(())
    }

    fn object(&mut self) -> Option<Tree> {
        self.enter()?;
        let start = self.i;
        self.i += 1;
        let mut members = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b'}') {
            self.i += 1;
        } else {
            loop {
                self.ws();
                let key_start = self.i;
                let key = self.string()?;
                let key_span = Span {
                    start: key_start,
                    end: self.i,
                };
                self.eat(b':')?;
                let v = self.value()?;
                members.push((key, key_span, v));
                self.ws();
                match *self.b.get(self.i)? {
                    b',' => self.i += 1,
                    b'}' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Tree {
            span: Span { start, end: self.i },
            kind: Kind::Object(members),
        })
    }

    fn array(&mut self) -> Option<Tree> {
        self.enter()?;
        let start = self.i;
        self.i += 1;
        let mut items = Vec::new();
        self.ws();
        if self.b.get(self.i) == Some(&b']') {
            self.i += 1;
        } else {
            loop {
                items.push(self.value()?);
                self.ws();
                match *self.b.get(self.i)? {
                    b',' => self.i += 1,
                    b']' => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(Tree {
            span: Span { start, end: self.i },
            kind: Kind::Array(items),
        })
    }

    /// A string token at the cursor, decoded; the cursor ends after it.
    fn string(&mut self) -> Option<String> {
        if self.b.get(self.i) != Some(&b'"') {
            return None;
        }
        self.i += 1;
        let mut out = String::new();
        let mut run = self.i;
        loop {
            match *self.b.get(self.i)? {
                b'"' => {
                    out.push_str(self.text.get(run..self.i)?);
                    self.i += 1;
                    return Some(out);
                }
                b'\\' => {
                    out.push_str(self.text.get(run..self.i)?);
                    self.i += 1;
                    let c = *self.b.get(self.i)?;
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let ch = if (0xD800..0xDC00).contains(&hi)
                                && self.b.get(self.i..self.i + 2) == Some(b"\\u")
                            {
                                self.i += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) {
                                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                    char::from_u32(cp).unwrap_or('\u{fffd}')
                                } else {
                                    // A lone high surrogate, then another escape.
                                    out.push('\u{fffd}');
                                    char::from_u32(lo).unwrap_or('\u{fffd}')
                                }
                            } else {
                                char::from_u32(hi).unwrap_or('\u{fffd}')
                            };
                            out.push(ch);
                        }
                        _ => return None,
                    }
                    run = self.i;
                }
                _ => self.i += 1,
            }
        }
    }

    fn hex4(&mut self) -> Option<u32> {
        let s = self.text.get(self.i..self.i + 4)?;
        self.i += 4;
        u32::from_str_radix(s, 16).ok()
    }
}

// ---------------------------------------------------------------- YAML

/// A YAML node with serde-saphyr's location of where it is written.
struct YTree(serde_saphyr::Spanned<YKind>);

enum YKind {
    Scalar,
    Map(Vec<(serde_saphyr::Spanned<YKey>, YTree)>),
    Seq(Vec<YTree>),
}

struct YKey(String);

impl<'de> Deserialize<'de> for YTree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YTree, D::Error> {
        Ok(YTree(serde_saphyr::Spanned::deserialize(d)?))
    }
}

impl<'de> Deserialize<'de> for YKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YKind, D::Error> {
        d.deserialize_any(YVisitor)
    }
}

struct YVisitor;

impl<'de> Visitor<'de> for YVisitor {
    type Value = YKind;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_unit<E: de::Error>(self) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_none<E: de::Error>(self) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<YKind, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<YKind, A::Error> {
        let mut items = Vec::new();
        while let Some(t) = seq.next_element::<YTree>()? {
            items.push(t);
        }
        Ok(YKind::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<YKind, A::Error> {
        let mut members = Vec::new();
        while let Some(k) = map.next_key::<serde_saphyr::Spanned<YKey>>()? {
            let v = map.next_value::<YTree>()?;
            members.push((k, v));
        }
        Ok(YKind::Map(members))
    }
}

impl<'de> Deserialize<'de> for YKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YKey, D::Error> {
        struct K;
        impl Visitor<'_> for K {
            type Value = YKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping key")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<YKey, E> {
                Ok(YKey(s.to_string()))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<YKey, E> {
                Ok(YKey(b.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<YKey, E> {
                Ok(YKey(n.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<YKey, E> {
                Ok(YKey(n.to_string()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<YKey, E> {
                Ok(YKey(n.to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<YKey, E> {
                Ok(YKey("null".into()))
            }
        }
        d.deserialize_any(K)
    }
}

fn yaml_tree(text: &str) -> Option<Tree> {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = super::parse::MAX_DEPTH;
    let scaled = (text.len() / 2).max(1_000_000);
    budget.max_events = scaled;
    budget.max_nodes = scaled;
    budget.max_recorded_anchor_events = 100_000;
    budget.max_recorded_anchor_bytes = 16 * 1024 * 1024;
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget);
    opts.with_snippet = false;
    let y: YTree = serde_saphyr::from_str_with_options(text, opts).ok()?;
    Some(convert_yaml(text, &y))
}

/// The byte span serde-saphyr recorded for a value, if any.
fn saphyr_span(text: &str, loc: &serde_saphyr::Location) -> Option<Span> {
    let s = loc.span();
    let start = usize::try_from(s.byte_offset()?).ok()?;
    let len = usize::try_from(s.byte_len()?).ok()?;
    let end = start.checked_add(len)?;
    (end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end))
        .then_some(Span { start, end })
}

fn convert_yaml(text: &str, y: &YTree) -> Tree {
    let at = saphyr_span(text, &y.0.referenced).unwrap_or(Span { start: 0, end: 0 });
    match &y.0.value {
        YKind::Scalar => {
            // A block scalar's span runs through the indentation after it.
            let trimmed = text[at.start..at.end].trim_end().len();
            Tree {
                span: Span {
                    start: at.start,
                    end: at.start + trimmed,
                },
                kind: Kind::Scalar,
            }
        }
        YKind::Seq(items) => {
            let items: Vec<Tree> = items.iter().map(|t| convert_yaml(text, t)).collect();
            let last = items.iter().map(|t| t.span.end).max();
            Tree {
                span: collection_span(text, at, last),
                kind: Kind::Array(items),
            }
        }
        YKind::Map(members) => {
            let mut out = Vec::with_capacity(members.len());
            let mut last = None;
            for (k, v) in members {
                let key_span = saphyr_span(text, &k.referenced).unwrap_or(at);
                let mut v = convert_yaml(text, v);
                if v.span.is_empty() && matches!(v.kind, Kind::Scalar) {
                    // `key:` with nothing after it: the key is the place.
                    v.span = key_span;
                }
                last = last.max(Some(v.span.end)).max(Some(key_span.end));
                out.push((k.value.0.clone(), key_span, v));
            }
            Tree {
                span: collection_span(text, at, last),
                kind: Kind::Object(out),
            }
        }
    }
}

/// A collection runs from where it starts to the end of its last member,
/// plus the closing bracket of a flow collection.
fn collection_span(text: &str, at: Span, last: Option<usize>) -> Span {
    let mut end = last.unwrap_or(at.end).max(at.end);
    let closer = match text.as_bytes().get(at.start) {
        Some(b'{') => Some(b'}'),
        Some(b'[') => Some(b']'),
        _ => None,
    };
    if let Some(c) = closer {
        let b = text.as_bytes();
        let mut i = end;
        while let Some(&x) = b.get(i) {
            if x == c {
                end = i + 1;
                break;
            }
            if !matches!(x, b' ' | b'\t' | b'\n' | b'\r' | b',') {
                break;
            }
            i += 1;
        }
    }
    Span {
        start: at.start,
        end,
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn columns_count_characters_on_long_lines_fast_and_right() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push_str(if i % 3 == 0 { "é€𝄞x" } else { "abc" });
        }
        text.push_str("\nzé\n");
        let lines = Lines::new(&text);
        for (off, _) in text.char_indices().step_by(37) {
            let start = text[..off].rfind('\n').map(|i| i + 1).unwrap_or(0);
            let want = text[start..off].chars().count() + 1;
            assert_eq!(lines.position(&text, off).column, want, "offset {off}");
        }
    }

    use super::*;

    fn text_at<'a>(text: &'a str, syntax: Syntax, pointer: &str) -> &'a str {
        let idx = SpanIndex::new(text, syntax).expect("indexes");
        let s = idx.find(pointer).unwrap_or_else(|| panic!("{pointer}"));
        &text[s.start..s.end]
    }

    const JSON: &str = r#"{
  "nodes": [
    {"id": "a", "kind": "entry"},
    {"id": "b\u00e9", "definition": {"tool": "x", "a/b": [1, 2.5e3, null], "t~": true}},
    {"id": "é☃", "definition": {"tool": "tickets_gett"}}
  ],
  "edges": []
}"#;

    #[test]
    fn json_pointers_land_on_their_values() {
        assert_eq!(text_at(JSON, Syntax::Json, "/nodes/0/id"), "\"a\"");
        assert_eq!(
            text_at(JSON, Syntax::Json, "/nodes/1/definition/a~1b/1"),
            "2.5e3"
        );
        assert_eq!(
            text_at(JSON, Syntax::Json, "/nodes/1/definition/t~0"),
            "true"
        );
        assert_eq!(
            text_at(JSON, Syntax::Json, "/nodes/0"),
            r#"{"id": "a", "kind": "entry"}"#
        );
        assert_eq!(text_at(JSON, Syntax::Json, "/edges"), "[]");
        assert_eq!(text_at(JSON, Syntax::Json, ""), JSON);
    }

    #[test]
    fn positions_count_characters() {
        let idx = SpanIndex::new(JSON, Syntax::Json).unwrap();
        let l = idx.locate("/nodes/2/definition/tool").unwrap();
        assert!(l.exact);
        assert_eq!(&JSON[l.span.start..l.span.end], "\"tickets_gett\"");
        // `    {"id": "é☃", "definition": {"tool": ` is 40 characters.
        assert_eq!(
            l.start,
            Position {
                line: 5,
                column: 41
            }
        );
        assert_eq!(
            l.end,
            Position {
                line: 5,
                column: 55
            }
        );
    }

    #[test]
    fn missing_members_fall_back_to_the_nearest_parent() {
        let idx = SpanIndex::new(JSON, Syntax::Json).unwrap();
        let l = idx.locate("/nodes/0/definition/tool").unwrap();
        assert!(!l.exact);
        assert_eq!(l.pointer, "/nodes/0");
        assert_eq!(idx.find("/nodes/9"), None);
        assert_eq!(idx.find("nodes"), None);
        let k = idx.key_span("/nodes/1/definition/tool").unwrap();
        assert_eq!(&JSON[k.start..k.end], "\"tool\"");
    }

    #[test]
    fn escaped_keys_are_decoded() {
        let t = r#"{"a\"b": 1, "\ud83d\ude00": 2}"#;
        assert_eq!(text_at(t, Syntax::Json, "/a\"b"), "1");
        assert_eq!(text_at(t, Syntax::Json, "/😀"), "2");
        // Lone surrogates never panic.
        let t = r#"{"\ud83d\u0041": 1, "\udc00": 2, "\ud83d": 3}"#;
        assert_eq!(text_at(t, Syntax::Json, "/\u{fffd}A"), "1");
        assert!(SpanIndex::new(t, Syntax::Json).is_some());
    }

    const YAML: &str = "formatVersion: 1
nodes:
  - id: start
    kind: entry
    definition: {input: []}
  - id: \"é☃\"
    kind: call
    definition:
      tool: 'tickets_gett'
      text: |
        hello
        world
      empty:
edges: [{id: e1, from: a, to: b}]
";

    #[test]
    fn yaml_pointers_land_on_their_values() {
        assert_eq!(text_at(YAML, Syntax::Yaml, "/nodes/0/id"), "start");
        assert_eq!(text_at(YAML, Syntax::Yaml, "/nodes/1/id"), "\"é☃\"");
        assert_eq!(
            text_at(YAML, Syntax::Yaml, "/nodes/1/definition/tool"),
            "'tickets_gett'"
        );
        assert_eq!(
            text_at(YAML, Syntax::Yaml, "/nodes/1/definition/text"),
            "hello\n        world"
        );
        assert_eq!(
            text_at(YAML, Syntax::Yaml, "/nodes/0/definition"),
            "{input: []}"
        );
        assert_eq!(
            text_at(YAML, Syntax::Yaml, "/nodes/0/definition/input"),
            "[]"
        );
        assert_eq!(text_at(YAML, Syntax::Yaml, "/edges/0/to"), "b");
        assert_eq!(
            text_at(YAML, Syntax::Yaml, "/edges"),
            "[{id: e1, from: a, to: b}]"
        );
        assert_eq!(
            text_at(YAML, Syntax::Yaml, "/nodes/1/definition/empty"),
            "empty"
        );
        let n1 = text_at(YAML, Syntax::Yaml, "/nodes/1");
        assert!(
            n1.starts_with("id: \"é☃\"") && n1.ends_with("empty"),
            "{n1}"
        );
    }

    #[test]
    fn yaml_positions_are_one_based_characters() {
        let l = locate(YAML, Syntax::Yaml, "/nodes/1/definition/tool").unwrap();
        assert_eq!(
            l.start,
            Position {
                line: 9,
                column: 13
            }
        );
        assert_eq!(
            l.end,
            Position {
                line: 9,
                column: 27
            }
        );
        let l = locate(YAML, Syntax::Yaml, "/nodes/1/kind").unwrap();
        assert_eq!(
            l.start,
            Position {
                line: 7,
                column: 11
            }
        );
    }

    #[test]
    fn offsets_and_positions_agree() {
        let t = "ab\né☃x\n";
        assert_eq!(position(t, 0), Position { line: 1, column: 1 });
        let x = t.find('x').unwrap();
        assert_eq!(position(t, x), Position { line: 2, column: 3 });
        assert_eq!(offset(t, 2, 3), Some(x));
        assert_eq!(offset(t, 2, 99), Some(t.len() - 1));
        assert_eq!(offset(t, 9, 1), None);
    }

    #[test]
    fn unreadable_text_has_no_index() {
        assert!(SpanIndex::new("{\"a\": ", Syntax::Json).is_none());
        assert!(SpanIndex::new("[1, 2", Syntax::Json).is_none());
        let deep = "[".repeat(1000) + &"]".repeat(1000);
        assert!(SpanIndex::new(&deep, Syntax::Json).is_none());
    }
}
