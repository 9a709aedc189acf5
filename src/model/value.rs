//! Values held in node definitions.
//!
//! A value is JSON data plus two real types of our own: a [`Ref`] (a read of
//! another node's output) and a [`Param`] (a template hole). Neither is ever an
//! object with a marker key: the `{"$ref": …}` / `{"$param": …}` spellings exist
//! only in `crate::wire`.

/// An object of values (see [`super::map::Map`]).
pub type Map = super::map::Map<Value>;

/// The largest integer magnitude a plan may hold (2^53 − 1): beyond it two
/// different integers share one IEEE double, and so one digest.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// Always finite; integral values satisfy |n| ≤ 2^53 − 1 (checked on the way in).
    Number(f64),
    String(super::ids::Id),
    Array(Vec<Value>),
    Object(Map),
    Ref(Box<Ref>),
    Param(Param),
}

/// Which executions of the target node a reference reads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Select {
    First,
    Last,
    All,
    Index(u64),
}

impl Select {
    /// The text form used in messages and the CLI shorthand.
    pub fn describe(&self) -> String {
        match self {
            Select::First => "first".into(),
            Select::Last => "last".into(),
            Select::All => "all".into(),
            Select::Index(n) => format!("index {n}"),
        }
    }
}

/// One step of a route from the entry to an execution of a node.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    Edge(String),
    /// After a join: the join node and all of its incoming edge ids, sorted.
    Join {
        join: String,
        of: Vec<String>,
    },
}

/// Names one execution of a node: the route that led to it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BranchId {
    pub segments: Vec<Segment>,
}

/// A read of another node's output.
#[derive(Debug, Clone, PartialEq)]
pub struct Ref {
    pub node: String,
    pub select: Select,
    /// Dot path into the selected item.
    pub path: Option<String>,
    pub branch_id: Option<BranchId>,
}

impl Ref {
    pub fn new(node: impl Into<String>) -> Self {
        Ref {
            node: node.into(),
            select: Select::First,
            path: None,
            branch_id: None,
        }
    }

    /// The first segment of the path, if any.
    pub fn root_field(&self) -> Option<&str> {
        self.path
            .as_deref()
            .map(|p| p.split('.').next().unwrap_or(p))
    }
}

/// A template hole, filled by `instantiate`. Legal only inside templates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub path: String,
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }
    /// An integral number that fits in `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) if n.fract() == 0.0 && *n >= 0.0 && *n <= MAX_SAFE_INTEGER => {
                Some(*n as u64)
            }
            _ => None,
        }
    }
    pub fn as_ref_value(&self) -> Option<&Ref> {
        match self {
            Value::Ref(r) => Some(r),
            _ => None,
        }
    }

    /// Cuts every string longer than `max` bytes (on a char boundary, marked
    /// with `…`), in place; says whether anything was cut.
    pub fn cut_strings(&mut self, max: usize) -> bool {
        match self {
            Value::String(s) if s.len() > max => {
                s.truncate(crate::model::text::floor_char_boundary(s, max));
                s.push('…');
                true
            }
            Value::Array(a) => a.iter_mut().fold(false, |cut, v| v.cut_strings(max) | cut),
            Value::Object(m) => m
                .values_mut()
                .fold(false, |cut, v| v.cut_strings(max) | cut),
            _ => false,
        }
    }

    /// A short name of this value's JSON type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
            Value::Ref(_) => "a $ref",
            Value::Param(_) => "a $param",
        }
    }

    /// Visits every value in this tree, depth first, with where it sits
    /// (`at` extended by object keys and array indexes; format it with
    /// `to_string()` only when needed). References and params are leaves.
    pub fn walk<'a>(&'a self, at: &mut Pointer<'a>, f: &mut dyn FnMut(&Pointer<'a>, &'a Value)) {
        f(at, self);
        match self {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    at.segs.push(Seg::Index(i));
                    item.walk(at, f);
                    at.segs.pop();
                }
            }
            Value::Object(map) => {
                for (k, v) in map {
                    at.segs.push(Seg::Key(k));
                    v.walk(at, f);
                    at.segs.pop();
                }
            }
            _ => {}
        }
    }
}

/// A JSON pointer under construction during a walk: a base and the keys and
/// indexes below it, formatted only when asked (`to_string()`).
#[derive(Debug, Clone)]
pub struct Pointer<'a> {
    base: String,
    segs: Vec<Seg<'a>>,
}

#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

impl<'a> Pointer<'a> {
    /// A pointer starting at `base` (itself a pointer, e.g. `/definition/args`).
    pub fn new(base: impl Into<String>) -> Self {
        Pointer {
            base: base.into(),
            segs: Vec::new(),
        }
    }
    /// Steps into an object member.
    pub fn push_key(&mut self, key: &'a str) {
        self.segs.push(Seg::Key(key));
    }
    /// Steps back out.
    pub fn pop(&mut self) {
        self.segs.pop();
    }
}

impl std::fmt::Display for Pointer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = self.base.clone();
        for seg in &self.segs {
            s.push('/');
            match seg {
                Seg::Key(k) => push_pointer_token(&mut s, k),
                Seg::Index(i) => s.push_str(&i.to_string()),
            }
        }
        f.write_str(&s)
    }
}

/// Appends `token` to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub fn push_pointer_token(pointer: &mut String, token: &str) {
    if !token.bytes().any(|b| b == b'~' || b == b'/') {
        pointer.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

/// A JSON pointer built from tokens.
pub fn pointer(tokens: &[&str]) -> String {
    let mut p = String::new();
    for t in tokens {
        p.push('/');
        push_pointer_token(&mut p, t);
    }
    p
}

impl From<&str> for Value {
    fn from(s: &str) -> Self {
        Value::String(s.into())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s.into())
    }
}
impl From<bool> for Value {
    fn from(b: bool) -> Self {
        Value::Bool(b)
    }
}
impl From<u64> for Value {
    fn from(n: u64) -> Self {
        Value::Number(n as f64)
    }
}
impl From<Ref> for Value {
    fn from(r: Ref) -> Self {
        Value::Ref(Box::new(r))
    }
}

/// The dot path of a definition field (what `set` and `set_node_field`
/// take) for a pointer under `/definition`
/// (`/definition/args/x` → `args.x`).
pub fn dot_path(pointer: &str) -> String {
    pointer
        .strip_prefix("/definition/")
        .unwrap_or(pointer)
        .split('/')
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

#[cfg(test)]
mod tests {
    use super::{Map, Value};

    /// A value is four words: an object is a vector and an optional index.
    #[test]
    fn a_value_is_32_bytes() {
        assert_eq!(std::mem::size_of::<Map>(), 32);
        assert_eq!(std::mem::size_of::<Value>(), 32);
    }
}
