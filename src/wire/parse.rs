//! Text → plain values (objects stay objects; `$ref` conversion is
//! `convert::hydrate`'s job). One visitor serves JSON and YAML, so both refuse
//! the same things: duplicate keys, non-string keys, numbers a digest cannot
//! hold, and nesting deeper than [`MAX_DEPTH`].

use crate::model::ids::Id;
use crate::model::value::{MAX_SAFE_INTEGER, Map, Value, push_pointer_token};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::fmt;

/// How a duplicate key's refusal goes on after the key.
const DUPLICATE_KEY: &str = " appears twice in one object; keep one of them";

/// Deepest nesting accepted in any document or value.
/// Deep enough for a structured predicate nested to its own limit (256
/// levels of `all`/`any`, two JSON levels each) inside a plan document;
/// shallow enough that nothing recursing over a value can exhaust the stack.
pub const MAX_DEPTH: usize = 520;

/// The most bytes read from one input (a document, a registry, a settings
/// file, a baseline): far above any plan (a 100k-node document is well
/// under 100 MiB), and a bound on what `/dev/zero` or an endless pipe can
/// make planforge hold.
pub const MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// Why [`read_text`] gave no text (each caller words it for its input).
#[derive(Debug)]
pub enum Unread {
    Io(std::io::Error),
    /// More than the bound.
    TooLarge,
    /// Not UTF-8: the offset of the first bad byte.
    NotUtf8(usize),
}

/// The text `r` holds, read up to [`MAX_INPUT_BYTES`] (`hint`: the size
/// expected, to size the buffer once; a pipe or device says 0 and the
/// buffer grows as it reads).
pub fn read_text(r: impl std::io::Read, hint: u64) -> Result<String, Unread> {
    read_text_within(r, hint, MAX_INPUT_BYTES)
}

/// [`read_text`] with the bound `max` (bytes).
pub(crate) fn read_text_within(
    r: impl std::io::Read,
    hint: u64,
    max: u64,
) -> Result<String, Unread> {
    use std::io::Read;
    let mut bytes = Vec::new();
    bytes.reserve_exact(hint.min(max) as usize + 1);
    r.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(Unread::Io)?;
    if bytes.len() as u64 > max {
        return Err(Unread::TooLarge);
    }
    String::from_utf8(bytes).map_err(|e| Unread::NotUtf8(e.utf8_error().valid_up_to()))
}

/// A syntax or representation error, with where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub message: String,
    /// JSON pointer of the offending value, when known.
    pub pointer: Option<String>,
    /// 1-based line and column, when the parser knows them.
    pub line: Option<usize>,
    pub column: Option<usize>,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(p) = &self.pointer {
            write!(
                f,
                " (at {})",
                if p.is_empty() { "the document root" } else { p }
            )?;
        }
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, " [line {l}, column {c}]")?;
        }
        Ok(())
    }
}

/// Shared state while visiting: the pointer of the value being read, and the
/// first error's pointer (serde's error type cannot carry it).
///
/// Tracking the pointer costs a string operation per value, so a parse runs
/// without it; only when it fails is the text parsed again with tracking, to
/// name where.
pub(crate) struct Ctx {
    track: bool,
    /// YAML only: read each node's tag too (refusing the non-JSON ones).
    yaml_tags: bool,
    pointer: RefCell<String>,
    error_pointer: RefCell<Option<String>>,
    depth: std::cell::Cell<usize>,
    /// The entries of the objects being read, innermost last: each object
    /// is made from its own once read, in a vector of exactly its size
    /// (grown by doubling, a plan's hundreds of thousands of small objects
    /// held a third more than they needed and were copied as they grew).
    entries: RefCell<Vec<(Id, Value)>>,
    /// The items of the arrays being read, the same way.
    items: RefCell<Vec<Value>>,
}

/// Up to this many entries an object being read is kept with the others
/// (a new key compared with each of its keys); a larger one becomes a map
/// (with its hash index) and grows as maps do.
const STACKED: usize = 32;

impl Ctx {
    /// A context for one quiet JSON read (no pointer tracking) whose values
    /// start `depth` levels down (see `codec::direct`).
    pub(crate) fn quiet_at(depth: usize) -> Ctx {
        let ctx = Ctx::new(false);
        ctx.depth.set(depth);
        ctx
    }

    /// Sets how deep the next value read sits.
    pub(crate) fn set_depth(&self, depth: usize) {
        self.depth.set(depth);
    }

    fn new(track: bool) -> Ctx {
        Ctx {
            track,
            yaml_tags: false,
            pointer: RefCell::new(String::new()),
            error_pointer: RefCell::new(None),
            depth: std::cell::Cell::new(0),
            entries: RefCell::new(Vec::new()),
            items: RefCell::new(Vec::new()),
        }
    }
    fn fail<E: de::Error>(&self, msg: String) -> E {
        let mut ep = self.error_pointer.borrow_mut();
        if ep.is_none() {
            *ep = Some(self.pointer.borrow().clone());
        }
        E::custom(msg)
    }
}

pub(crate) struct ValueSeed<'c>(pub(crate) &'c Ctx);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        if self.0.yaml_tags {
            d.deserialize_newtype_struct(YAML_TAGGED, Tagged(ValueVisitor(self.0)))
        } else {
            d.deserialize_any(ValueVisitor(self.0))
        }
    }
}

/// serde-saphyr's name for "this node and its tag" (its `Tagged` wrapper):
/// the node arrives as a sequence `[value, tag?]`.
const YAML_TAGGED: &str = "__yaml_tagged";

/// The YAML tags a plan may carry: none, `!`, and the JSON types of the core
/// schema. Others (`!!binary`, `!!timestamp`, `!!set`, `!custom`) would give a
/// value other than the one written, or none JSON has.
fn json_tag(tag: &str) -> bool {
    match tag.strip_prefix("tag:yaml.org,2002:") {
        Some(t) => matches!(t, "str" | "int" | "float" | "bool" | "null" | "map" | "seq"),
        None => tag == "!",
    }
}

/// Reads a YAML node with its tag, then the node itself with the inner
/// visitor (a value or a key).
struct Tagged<V>(V);

impl<'de, V: Visitor<'de> + Copy + HasCtx> Visitor<'de> for Tagged<V> {
    type Value = V::Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.0.expecting(f)
    }
    fn visit_newtype_struct<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        d.deserialize_any(self.0)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<V::Value, A::Error> {
        let value = seq
            .next_element_seed(Plain(self.0))?
            .ok_or_else(|| de::Error::custom("a YAML node without a value"))?;
        let tag: Option<String> = seq.next_element()?;
        if let Some(tag) = tag
            && !json_tag(&tag)
        {
            let shown = match tag.strip_prefix("tag:yaml.org,2002:") {
                Some(t) => format!("!!{t}"),
                None => tag.clone(),
            };
            return Err(self.0.ctx().fail(format!(
                "the YAML tag `{shown}` is not allowed: plans are JSON, so only untagged values (or !!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are read; remove the tag and write the value itself"
            )));
        }
        Ok(value)
    }
}

/// The node under a tag, read by the inner visitor.
struct Plain<V>(V);

impl<'de, V: Visitor<'de>> DeserializeSeed<'de> for Plain<V> {
    type Value = V::Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        d.deserialize_any(self.0)
    }
}

trait HasCtx {
    fn ctx(&self) -> &Ctx;
}

#[derive(Clone, Copy)]
struct ValueVisitor<'c>(&'c Ctx);

impl HasCtx for ValueVisitor<'_> {
    fn ctx(&self) -> &Ctx {
        self.0
    }
}

fn check_integer<E: de::Error>(ctx: &Ctx, n: f64, text: &dyn fmt::Display) -> Result<Value, E> {
    if n.abs() > MAX_SAFE_INTEGER {
        // `1e308` is integral too: show huge values in exponent form, not as
        // hundreds of digits.
        let mut shown = text.to_string();
        if shown.len() > 24 {
            shown = format!("{n:e}");
        }
        return Err(ctx.fail(format!(
            "the number {shown} is too large: plans hold whole numbers up to 2^53−1 (9007199254740991) in magnitude, beyond which two different numbers share one digest; write it as a string"
        )));
    }
    Ok(Value::Number(n))
}

impl<'de> Visitor<'de> for ValueVisitor<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Value, E> {
        check_integer(self.0, n as f64, &n)
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Value, E> {
        check_integer(self.0, n as f64, &n)
    }
    fn visit_i128<E: de::Error>(self, n: i128) -> Result<Value, E> {
        check_integer(self.0, n as f64, &n)
    }
    fn visit_u128<E: de::Error>(self, n: u128) -> Result<Value, E> {
        check_integer(self.0, n as f64, &n)
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Value, E> {
        if !n.is_finite() {
            return Err(self.0.fail(format!(
                "the number {n} is not finite: plans hold finite numbers only (JSON has no NaN or infinity)"
            )));
        }
        if n.fract() == 0.0 && n.abs() > MAX_SAFE_INTEGER {
            return check_integer(self.0, n, &n);
        }
        Ok(Value::Number(if n == 0.0 { 0.0 } else { n }))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s.into()))
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<Value, E> {
        Err(self
            .0
            .fail("binary data is not a JSON value; write it as a string".into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let ctx = self.0;
        enter::<A::Error>(ctx)?;
        let base = ctx.items.borrow().len();
        let mut n = 0usize;
        loop {
            let next = if ctx.track {
                let len = ctx.pointer.borrow().len();
                {
                    let mut p = ctx.pointer.borrow_mut();
                    p.push('/');
                    p.push_str(&n.to_string());
                }
                let next = seq.next_element_seed(ValueSeed(ctx))?;
                ctx.pointer.borrow_mut().truncate(len);
                next
            } else {
                seq.next_element_seed(ValueSeed(ctx))?
            };
            match next {
                Some(v) => {
                    ctx.items.borrow_mut().push(v);
                    n += 1;
                }
                None => break,
            }
        }
        ctx.depth.set(ctx.depth.get() - 1);
        let items = ctx.items.borrow_mut().drain(base..).collect();
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let ctx = self.0;
        enter::<A::Error>(ctx)?;
        let base = ctx.entries.borrow().len();
        // The object once it has more than STACKED entries.
        let mut large: Option<Map> = None;
        while let Some(key) = map.next_key_seed(KeySeed(ctx))? {
            let len = ctx.pointer.borrow().len();
            if ctx.track {
                let mut p = ctx.pointer.borrow_mut();
                p.push('/');
                push_pointer_token(&mut p, &key);
            }
            let twice = match &large {
                Some(m) => m.contains_key(&key),
                None => ctx.entries.borrow()[base..].iter().any(|(k, _)| *k == key),
            };
            if twice {
                return Err(ctx.fail(format!("the key {key:?}{DUPLICATE_KEY}")));
            }
            let v = map.next_value_seed(ValueSeed(ctx))?;
            if ctx.track {
                ctx.pointer.borrow_mut().truncate(len);
            }
            match &mut large {
                Some(m) => m.push_new(key, v),
                None => {
                    let mut e = ctx.entries.borrow_mut();
                    e.push((key, v));
                    if e.len() - base > STACKED {
                        large = Some(Map::from_unique(e.drain(base..).collect()));
                    }
                }
            }
        }
        ctx.depth.set(ctx.depth.get() - 1);
        let out = large
            .unwrap_or_else(|| Map::from_unique(ctx.entries.borrow_mut().drain(base..).collect()));
        Ok(Value::Object(out))
    }
}

fn enter<E: de::Error>(ctx: &Ctx) -> Result<(), E> {
    let d = ctx.depth.get() + 1;
    ctx.depth.set(d);
    if d > MAX_DEPTH {
        return Err(ctx.fail(format!(
            "the value is nested more than {MAX_DEPTH} levels deep; flatten it"
        )));
    }
    Ok(())
}

struct KeySeed<'c>(&'c Ctx);

impl<'de> DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Id;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Id, D::Error> {
        if self.0.yaml_tags {
            d.deserialize_newtype_struct(YAML_TAGGED, Tagged(KeyVisitor(self.0)))
        } else {
            d.deserialize_any(KeyVisitor(self.0))
        }
    }
}

#[derive(Clone, Copy)]
struct KeyVisitor<'c>(&'c Ctx);

impl HasCtx for KeyVisitor<'_> {
    fn ctx(&self) -> &Ctx {
        self.0
    }
}

impl<'de> Visitor<'de> for KeyVisitor<'_> {
    type Value = Id;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Id, E> {
        Ok(Id::from(s))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Id, E> {
        Ok(Id::from(s))
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Id, E> {
        Err(self.non_string(&b))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Id, E> {
        Err(self.non_string(&n))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Id, E> {
        Err(self.non_string(&n))
    }
    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Id, E> {
        Err(self.non_string(&n))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Id, E> {
        Err(self.non_string(&"null"))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<Id, A::Error> {
        Err(self.non_string(&"a mapping"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<Id, A::Error> {
        Err(self.non_string(&"a sequence"))
    }
}

impl KeyVisitor<'_> {
    fn non_string<E: de::Error>(&self, k: &dyn fmt::Display) -> E {
        self.0.fail(format!(
            "the mapping key {k} is not a string: plans are JSON, whose keys are strings; quote it"
        ))
    }
}

/// Parses JSON text into a plain value.
pub fn json(text: &str) -> Result<Value, ParseError> {
    json_with(text, false).or_else(|_| json_with(text, true))
}

fn json_with(text: &str, track: bool) -> Result<Value, ParseError> {
    let ctx = Ctx::new(track);
    let mut de = serde_json::Deserializer::from_str(text);
    // Our visitor refuses nesting past MAX_DEPTH before it can hurt the
    // stack; serde_json's own (smaller) limit would cut predicates short.
    de.disable_recursion_limit();
    let result = ValueSeed(&ctx)
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|_| v));
    result.map_err(|e| {
        let pointer = ctx.error_pointer.borrow().clone();
        let msg = e.to_string();
        // serde_json appends " at line L column C"; we report those separately.
        let message = match msg.rfind(" at line ") {
            Some(i) => msg[..i].to_string(),
            None => msg,
        };
        let message = if message == "recursion limit exceeded" {
            format!("the value is nested more than {MAX_DEPTH} levels deep; flatten it")
        } else {
            message
        };
        ParseError {
            message,
            pointer,
            line: (e.line() > 0).then_some(e.line()),
            column: (e.line() > 0).then_some(e.column()),
        }
    })
}

/// Parses YAML text (1.2 core schema) into a plain value. Aliases are bounded,
/// merge keys, `.nan`/`.inf` and non-string keys are refused.
pub fn yaml(text: &str) -> Result<Value, ParseError> {
    // The YAML deserializer spends far more stack per nesting level than the
    // JSON one; parse on a thread whose stack holds MAX_DEPTH levels with room
    // to spare (the memory is only reserved, not used, by shallow documents).
    deep(&|| yaml_with(text, false).or_else(|_| yaml_with(text, true))).unwrap_or_else(|| {
        Err(ParseError {
            message: "the YAML reader failed on this document; check its syntax".into(),
            pointer: None,
            line: None,
            column: None,
        })
    })
}

/// Items of a top-level block sequence cut out of a YAML document (a
/// sequence of them, at their indentation), read as they read there
/// (`planforge lsp` reads again only the item an edit is in, see
/// `span::Items`): as deep as there (the sequence inside the document's
/// mapping), tags read when the whole document has a `!` (`tags`, as its
/// reading does). `None` when the text does not read: the caller then
/// reads the whole document, which says why.
pub(crate) fn yaml_part(text: &str, tags: bool) -> Option<Value> {
    deep(&|| {
        let mut ctx = Ctx::quiet_at(1);
        ctx.yaml_tags = tags;
        yaml_in(text, &ctx).ok()
    })
    .flatten()
}

/// Runs a YAML read on a thread with the stack it needs; `None` when the
/// reader panicked.
fn deep<T: Send>(read: &(dyn Fn() -> T + Sync)) -> Option<T> {
    std::thread::scope(|scope| {
        match std::thread::Builder::new()
            .name("yaml".into())
            .stack_size(YAML_STACK)
            .spawn_scoped(scope, read)
        {
            Ok(handle) => handle.join().ok(),
            Err(_) => Some(read()),
        }
    })
}

/// Stack for YAML parsing: well above what MAX_DEPTH levels need.
const YAML_STACK: usize = 64 * 1024 * 1024;

fn yaml_with(text: &str, track: bool) -> Result<Value, ParseError> {
    let mut ctx = Ctx::new(track);
    // Tags are spelled with `!`: without one, there is no tag to read.
    ctx.yaml_tags = text.contains('!');
    yaml_in(text, &ctx)
}

/// Reads YAML text with `ctx` (its depth, tags and tracking).
fn yaml_in(text: &str, ctx: &Ctx) -> Result<Value, ParseError> {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = MAX_DEPTH;
    // Scale with the document: a large plan has many events, an alias bomb has
    // few bytes and many expansions.
    let scaled = (text.len() / 2).max(1_000_000);
    budget.max_events = scaled;
    budget.max_nodes = scaled;
    budget.max_recorded_anchor_events = 100_000;
    budget.max_recorded_anchor_bytes = 16 * 1024 * 1024;
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget);
    opts.strict_booleans = true;
    opts.merge_keys = serde_saphyr::MergeKeyPolicy::Error;
    opts.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::Reject;
    opts.reject_unsupported_tags = true;
    opts.with_snippet = false;
    let result = serde_saphyr::with_deserializer_from_str_with_options(text, opts, |de| {
        ValueSeed(ctx).deserialize(de)
    });
    result.map_err(|e| {
        let loc = e.location();
        let pointer = ctx.error_pointer.borrow().clone();
        ParseError {
            message: yaml_message(&e),
            pointer,
            line: loc.map(|l| l.line() as usize).filter(|l| *l > 0),
            column: loc.map(|l| l.column() as usize).filter(|c| *c > 0),
        }
    })
}

/// A YAML error in words for the author (the library's developer wording
/// names its own options).
fn yaml_message(e: &serde_saphyr::Error) -> String {
    let nested = || format!("the value is nested more than {MAX_DEPTH} levels deep; flatten it");
    let mut message = e.render_with_formatter(&serde_saphyr::UserMessageFormatter);
    if let Some(i) = message.find(" at line ") {
        message.truncate(i);
    }
    if message.contains("recursion limit") || message.contains("Depth {") {
        return nested();
    }
    if let Some(i) = message.find("limits breached: ") {
        let limit = &message[i + "limits breached: ".len()..];
        return format!(
            "the YAML document is too large or expands too much to read (limit reached: {limit}); aliases (`*name`) that repeat big values are the usual cause: write the values out, or split the document"
        );
    }
    if message.starts_with("unsupported tag") || message.contains("tagged scalar") {
        message.push_str(": plans are JSON, so only untagged values (or !!str, !!int, !!float, !!bool, !!null, !!map, !!seq) are read; remove the tag and write the value itself");
    }
    if message.starts_with("only single YAML document expected") {
        return "the file holds more than one YAML document (a `---` separates them); a plan document is exactly one".into();
    }
    message
}

/// Which syntax a document is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    Json,
    Yaml,
}

impl Syntax {
    /// By file extension; `None` when it says nothing.
    pub fn from_path(path: &str) -> Option<Syntax> {
        let lower = path.to_ascii_lowercase();
        if lower.ends_with(".json") || lower.ends_with(".jsonl") {
            Some(Syntax::Json)
        } else if lower.ends_with(".yaml") || lower.ends_with(".yml") {
            Some(Syntax::Yaml)
        } else {
            None
        }
    }

    /// Sniffs content: JSON documents start with `{` or `[` after whitespace.
    pub fn sniff(text: &str) -> Syntax {
        match text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .chars()
            .next()
        {
            Some('{') | Some('[') => Syntax::Json,
            _ => Syntax::Yaml,
        }
    }
}

/// Parses a document's text in the given syntax.
pub fn parse(text: &str, syntax: Syntax) -> Result<Value, ParseError> {
    match syntax {
        // A byte order mark some editors write: YAML skips it, and RFC 8259
        // lets JSON readers ignore it. (Op-log lines never carry one.)
        Syntax::Json => json(text.strip_prefix('\u{feff}').unwrap_or(text)),
        Syntax::Yaml => yaml(text),
    }
}

impl ParseError {
    /// This error as a refusal of named input (exit 2), located.
    /// Whether the text was refused for a key that appears twice in one
    /// object (its pointer names the second).
    pub fn is_duplicate_key(&self) -> bool {
        self.message.contains(DUPLICATE_KEY)
    }

    pub fn into_error(self, file: Option<&str>) -> crate::model::error::Error {
        use crate::model::error::{Error, Location};
        let where_ = file.map(|f| format!("{f}: ")).unwrap_or_default();
        Error::invalid(format!("{where_}{self}")).at(Location {
            file: file.map(str::to_string),
            pointer: self.pointer,
            line: self.line,
            column: self.column,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_basics() {
        let v = json(r#"{"a": [1, 2.5, "x", null, true], "b": {}}"#).unwrap();
        let m = v.as_object().unwrap();
        assert_eq!(m.keys().collect::<Vec<_>>(), vec!["a", "b"]);
    }

    #[test]
    fn duplicate_keys_are_refused_with_pointer() {
        let e = json(r#"{"a": {"b": 1, "b": 2}}"#).unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        assert_eq!(e.pointer.as_deref(), Some("/a/b"));
    }

    #[test]
    fn big_numbers_are_refused() {
        assert!(json("9007199254740991").is_ok());
        let e = json(r#"{"x": [9007199254740992]}"#).unwrap_err();
        assert_eq!(e.pointer.as_deref(), Some("/x/0"));
        assert!(json("1e400").is_err());
        assert!(json("-9007199254740993").is_err());
        // Shown in exponent form, not as 309 digits.
        let e = json("1.7976931348623157e308").unwrap_err();
        assert!(
            e.message
                .starts_with("the number 1.7976931348623157e308 is too large"),
            "{}",
            e.message
        );
    }

    #[test]
    fn deep_nesting_is_refused() {
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(json(&deep).unwrap_err().message.contains("nested"));
        assert!(yaml(&deep).is_err());
    }

    #[test]
    fn yaml_core_schema() {
        let v = yaml("a: yes\nb: true\nc: 1.5\nd: null\n").unwrap();
        let m = v.as_object().unwrap();
        assert_eq!(m["a"], Value::String("yes".into()));
        assert_eq!(m["b"], Value::Bool(true));
        assert!(yaml("a: .nan\n").is_err());
        assert!(yaml("a: .inf\n").is_err());
        assert!(yaml("1: x\n").is_err());
        assert!(yaml("base: &b {x: 1}\nd:\n  <<: *b\n").is_err());
        assert!(yaml("a: 1\na: 2\n").is_err());
    }

    #[test]
    fn yaml_alias_bomb_is_bounded() {
        let mut s = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            s.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        assert!(yaml(&s).is_err());
    }
}
