//! Values held in node definitions.
//!
//! A value is JSON data plus two real types of our own: a [`Ref`] (a read of
//! another node's output) and a [`Param`] (a template hole). Neither is ever an
//! object with a marker key: the `{"$ref": …}` / `{"$param": …}` spellings exist
//! only in `crate::wire`.

use indexmap::IndexMap;

/// An object: keys keep the order they were written in.
pub type Map = IndexMap<String, Value>;

/// The largest integer magnitude a plan may hold (2^53 − 1): beyond it two
/// different integers share one IEEE double, and so one digest.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// Always finite; integral values satisfy |n| ≤ 2^53 − 1 (checked on the way in).
    Number(f64),
    String(String),
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

    /// Visits every value in this tree, depth first, with its JSON pointer
    /// relative to `base`. References and params are leaves.
    pub fn walk<'a>(&'a self, base: &mut String, f: &mut dyn FnMut(&str, &'a Value)) {
        f(base, self);
        match self {
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = base.len();
                    base.push('/');
                    base.push_str(&i.to_string());
                    item.walk(base, f);
                    base.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, v) in map {
                    let len = base.len();
                    base.push('/');
                    push_pointer_token(base, k);
                    v.walk(base, f);
                    base.truncate(len);
                }
            }
            _ => {}
        }
    }
}

/// Appends `token` to a JSON pointer, escaping `~` and `/` (RFC 6901).
pub fn push_pointer_token(pointer: &mut String, token: &str) {
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
        Value::String(s.to_string())
    }
}
impl From<String> for Value {
    fn from(s: String) -> Self {
        Value::String(s)
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
