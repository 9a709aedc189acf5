//! Nodes, edges, handles and the typed views of a node's definition.

use super::def::Def;
use super::ids::Id;
use super::value::{Map, Pointer, Ref, Value};

/// The seven node kinds. Closed: nothing else can be represented.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKind {
    Entry,
    Call,
    Reason,
    Transform,
    Branch,
    Select,
    Join,
}

impl NodeKind {
    pub const ALL: [NodeKind; 7] = [
        NodeKind::Entry,
        NodeKind::Call,
        NodeKind::Reason,
        NodeKind::Transform,
        NodeKind::Branch,
        NodeKind::Select,
        NodeKind::Join,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            NodeKind::Entry => "entry",
            NodeKind::Call => "call",
            NodeKind::Reason => "reason",
            NodeKind::Transform => "transform",
            NodeKind::Branch => "branch",
            NodeKind::Select => "select",
            NodeKind::Join => "join",
        }
    }

    /// The kind with its article: `an entry`, `a call`.
    pub fn a(self) -> &'static str {
        match self {
            NodeKind::Entry => "an entry",
            NodeKind::Call => "a call",
            NodeKind::Reason => "a reason",
            NodeKind::Transform => "a transform",
            NodeKind::Branch => "a branch",
            NodeKind::Select => "a select",
            NodeKind::Join => "a join",
        }
    }

    pub fn parse(s: &str) -> Option<NodeKind> {
        NodeKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Why `s` is not a kind, with the nearest one.
    pub fn unknown(s: &str) -> String {
        format!(
            "`{}` is not a node kind{}; the kinds are {}",
            crate::model::ids::quote_id(s),
            crate::model::suggest::did_you_mean(s, NodeKind::names()),
            NodeKind::names().join(", ")
        )
    }

    pub fn names() -> Vec<&'static str> {
        NodeKind::ALL.iter().map(|k| k.as_str()).collect()
    }

    /// The outgoing handles this kind allows, as written in messages
    /// (`case_<label>` stands for every case label of a select).
    pub fn allowed_handles(self) -> &'static [&'static str] {
        match self {
            NodeKind::Entry => &["always"],
            NodeKind::Call | NodeKind::Reason | NodeKind::Transform | NodeKind::Join => {
                &["always", "error"]
            }
            NodeKind::Branch => &["match", "no_match", "default", "error"],
            NodeKind::Select => &["case_<label>", "default", "error"],
        }
    }

    /// Whether an edge with `handle` may leave a node of this kind.
    pub fn allows(self, handle: &Handle) -> bool {
        matches!(
            (self, handle),
            (NodeKind::Entry, Handle::Always)
                | (
                    NodeKind::Call | NodeKind::Reason | NodeKind::Transform | NodeKind::Join,
                    Handle::Always | Handle::Error,
                )
                | (
                    NodeKind::Branch,
                    Handle::Match | Handle::NoMatch | Handle::Default | Handle::Error
                )
                | (
                    NodeKind::Select,
                    Handle::Case(_) | Handle::Default | Handle::Error
                )
        )
    }
}

/// The one parser of kind names: flags, tool arguments and documents.
impl std::str::FromStr for NodeKind {
    type Err = String;
    fn from_str(s: &str) -> Result<NodeKind, String> {
        NodeKind::parse(s).ok_or_else(|| NodeKind::unknown(s))
    }
}

/// `--kind` on the command line: the seven kinds, completed by the shells.
impl clap::ValueEnum for NodeKind {
    fn value_variants<'a>() -> &'a [NodeKind] {
        &NodeKind::ALL
    }
    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

impl std::fmt::Display for NodeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The handle an edge leaves its source by.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Handle {
    Always,
    Match,
    NoMatch,
    Default,
    Error,
    /// `case_<label>`; the label may be empty (then `unknown_case` says so).
    Case(Id),
    /// Anything else; kept so a document can be validated, reported as `invalid_handle`.
    Other(Id),
}

impl Handle {
    pub const NAMED: [&'static str; 5] = ["always", "match", "no_match", "default", "error"];

    pub fn parse(s: &str) -> Handle {
        match s {
            "always" => Handle::Always,
            "match" => Handle::Match,
            "no_match" => Handle::NoMatch,
            "default" => Handle::Default,
            "error" => Handle::Error,
            _ => match s.strip_prefix("case_") {
                Some(label) => Handle::Case(Id::from(label)),
                None => Handle::Other(Id::from(s)),
            },
        }
    }

    pub fn as_str(&self) -> std::borrow::Cow<'_, str> {
        match self {
            Handle::Always => "always".into(),
            Handle::Match => "match".into(),
            Handle::NoMatch => "no_match".into(),
            Handle::Default => "default".into(),
            Handle::Error => "error".into(),
            Handle::Case(l) => format!("case_{l}").into(),
            Handle::Other(s) => s.as_str().into(),
        }
    }

    /// Handles that fire on success (everything but `error`).
    pub fn is_success(&self) -> bool {
        !matches!(self, Handle::Error)
    }
}

impl std::fmt::Display for Handle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub id: Id,
    /// `None` = unphased (an empty phase is stored as absent).
    pub phase: Option<Id>,
    pub kind: NodeKind,
    /// Kept as written: a half-written definition is legal, and its problems
    /// are findings. Typed views below read it. Owned, or read on demand
    /// from a stored snapshot ([`Def`]).
    pub definition: Def,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub id: Id,
    pub from: Id,
    pub to: Id,
    pub handle: Handle,
}

impl Edge {
    /// The identity an edge id stands for: two edges with one id and a different
    /// signature are a `duplicate_edge_id`.
    pub fn same_signature(&self, other: &Edge) -> bool {
        self.from == other.from && self.to == other.to && self.handle == other.handle
    }
}

/// The type of a declared field.
#[derive(Debug, Clone, PartialEq)]
pub enum FieldType {
    String { max_bytes: Option<u64> },
    Number,
    Boolean,
    Enum(Vec<String>),
}

/// A field a node promises to produce (or the run input an entry accepts).
#[derive(Debug, Clone, PartialEq)]
pub struct DeclaredField {
    pub path: String,
    pub ty: FieldType,
}

impl DeclaredField {
    /// Reads a declared field leniently (`None` when it is malformed; the shape
    /// check reports why).
    pub fn from_value(v: &Value) -> Option<DeclaredField> {
        let m = v.as_object()?;
        let path = m.get("path")?.as_str()?.to_string();
        let ty = match m.get("type")?.as_str()? {
            "string" => FieldType::String {
                max_bytes: m.get("maxBytes").and_then(Value::as_u64),
            },
            "number" => FieldType::Number,
            "boolean" => FieldType::Boolean,
            "enum" => FieldType::Enum(
                m.get("values")?
                    .as_array()?
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
            ),
            _ => return None,
        };
        Some(DeclaredField { path, ty })
    }

    /// The field as a definition value, `{path, type, maxBytes?, values?}`
    /// (what [`DeclaredField::from_value`] reads).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("path".into(), Value::from(self.path.as_str()));
        let ty = match &self.ty {
            FieldType::String { .. } => "string",
            FieldType::Number => "number",
            FieldType::Boolean => "boolean",
            FieldType::Enum(_) => "enum",
        };
        m.insert("type".into(), Value::from(ty));
        match &self.ty {
            FieldType::String { max_bytes: Some(n) } => {
                m.insert("maxBytes".into(), Value::from(*n));
            }
            FieldType::Enum(vs) => {
                let values = vs.iter().map(|v| Value::from(v.as_str())).collect();
                m.insert("values".into(), Value::Array(values));
            }
            _ => {}
        }
        Value::Object(m)
    }

    /// `p: string`, `p: string (≤ N bytes)`, `p: enum {a, b}` …
    pub fn describe(&self) -> String {
        match &self.ty {
            FieldType::String { max_bytes: None } => format!("{}: string", self.path),
            FieldType::String { max_bytes: Some(n) } => {
                format!("{}: string (≤ {n} bytes)", self.path)
            }
            FieldType::Number => format!("{}: number", self.path),
            FieldType::Boolean => format!("{}: boolean", self.path),
            FieldType::Enum(vs) => format!("{}: enum {{{}}}", self.path, vs.join(", ")),
        }
    }
}

/// Reads an array of declared fields, skipping malformed members.
pub fn declared_fields(v: Option<&Value>) -> Vec<DeclaredField> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(DeclaredField::from_value).collect())
        .unwrap_or_default()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verb {
    List,
    Read,
    Create,
    Update,
    Delete,
}

impl Verb {
    pub const NAMES: [&'static str; 5] = ["list", "read", "create", "update", "delete"];
    pub fn parse(s: &str) -> Option<Verb> {
        Some(match s {
            "list" => Verb::List,
            "read" => Verb::Read,
            "create" => Verb::Create,
            "update" => Verb::Update,
            "delete" => Verb::Delete,
            _ => return None,
        })
    }
    pub fn as_str(self) -> &'static str {
        Verb::NAMES[self as usize]
    }
    pub fn modifies(self) -> bool {
        matches!(self, Verb::Create | Verb::Update | Verb::Delete)
    }
}

/// One capability a call asks for. No verb implies another.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AuthorityClaim {
    pub capability: String,
    pub scope: String,
    pub verb: Verb,
}

impl AuthorityClaim {
    pub fn from_value(v: &Value) -> Option<AuthorityClaim> {
        let m = v.as_object()?;
        Some(AuthorityClaim {
            capability: m.get("capability")?.as_str()?.to_string(),
            scope: m.get("scope")?.as_str()?.to_string(),
            verb: Verb::parse(m.get("verb")?.as_str()?)?,
        })
    }

    /// `cap/scope/verb`, the CLI's `--authority` form.
    pub fn parse_triple(s: &str) -> Option<AuthorityClaim> {
        let mut parts = s.splitn(3, '/');
        let capability = parts.next()?.to_string();
        let scope = parts.next()?.to_string();
        let verb = Verb::parse(parts.next()?)?;
        if capability.is_empty() || scope.is_empty() {
            return None;
        }
        Some(AuthorityClaim {
            capability,
            scope,
            verb,
        })
    }
}

/// A join's `kind` marking it explicitly as a diamond join: a barrier that
/// waits for every incoming edge (the same as `{}`).
pub const DIAMOND: &str = "diamond";
/// A join's `kind` that settles instead of waiting for every incoming edge:
/// it fires once per execution of its fork, when nothing more can arrive —
/// every branch the fork opened has reached it on one of its incoming edges
/// (an `error` edge included) or stopped. Its output is one item per
/// arrival, as for any join (`via`, `from`, `branch`), so what follows sees
/// on which edge, from which node, each branch arrived: this is how a
/// parallel unit whose step errored is still counted (seed 003's partial
/// landing) instead of leaving the barrier waiting forever.
pub const SETTLE: &str = "settle";

impl Node {
    /// Whether this is a join of kind `settle` (see [`SETTLE`]).
    pub fn settles(&self) -> bool {
        self.kind == NodeKind::Join && self.str_field("kind") == Some(SETTLE)
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.definition.get(key)
    }

    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }

    /// The tool a call node invokes.
    pub fn tool(&self) -> Option<&str> {
        if self.kind == NodeKind::Call {
            self.definition.tool()
        } else {
            None
        }
    }

    /// The fields this node declares for references to read: entry `input`,
    /// call/transform `output`, join `via`/`from`/`branch`, and the properties
    /// of a reason node's `outputSchema` (recursively, as dot paths).
    pub fn declared_paths(&self) -> Vec<String> {
        match self.kind {
            NodeKind::Entry => paths_of(declared_fields(self.get("input"))),
            NodeKind::Call | NodeKind::Transform => paths_of(declared_fields(self.get("output"))),
            NodeKind::Join => vec!["via".into(), "from".into(), "branch".into()],
            NodeKind::Reason => {
                let mut out = Vec::new();
                if let Some(schema) = self.get("outputSchema") {
                    schema_property_paths(schema, "", &mut out, 0);
                }
                out
            }
            NodeKind::Branch | NodeKind::Select => Vec::new(),
        }
    }

    /// The authority claims of a call node (malformed claims are skipped).
    pub fn authority(&self) -> Vec<AuthorityClaim> {
        self.get("authority")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(AuthorityClaim::from_value).collect())
            .unwrap_or_default()
    }

    /// Names listed in a call's `declassifies`.
    pub fn declassifies(&self) -> Vec<&str> {
        self.get("declassifies")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// The case labels of a select node.
    pub fn cases(&self) -> Vec<&str> {
        self.get("cases")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default()
    }

    /// Every reference in the places references are read from (call args,
    /// reason prompt parts, transform source), with its JSON pointer relative
    /// to the node (`/definition/args/x`).
    pub fn data_refs(&self) -> Vec<(String, &Ref)> {
        let mut out = Vec::new();
        match self.kind {
            NodeKind::Call => {
                if let Some(args) = self.get("args") {
                    args.walk(&mut Pointer::new("/definition/args"), &mut |p, v| {
                        if let Value::Ref(r) = v {
                            out.push((p.to_string(), &**r));
                        }
                    });
                }
            }
            NodeKind::Reason => {
                if let Some(Value::Array(parts)) = self.get("prompt") {
                    for (i, part) in parts.iter().enumerate() {
                        if let Value::Ref(r) = part {
                            out.push((format!("/definition/prompt/{i}"), &**r));
                        }
                    }
                }
            }
            NodeKind::Transform => {
                if let Some(Value::Ref(r)) = self.get("source") {
                    out.push(("/definition/source".into(), &**r));
                }
            }
            _ => {}
        }
        out
    }

    /// Every reference anywhere in the definition, with its pointer.
    pub fn all_refs(&self) -> Vec<(String, &Ref)> {
        let mut out = Vec::new();
        for (k, v) in &self.definition {
            let mut base = String::from("/definition/");
            super::value::push_pointer_token(&mut base, k);
            v.walk(&mut Pointer::new(base), &mut |p, v| {
                if let Value::Ref(r) = v {
                    out.push((p.to_string(), &**r));
                }
            });
        }
        out
    }
}

fn paths_of(fields: Vec<DeclaredField>) -> Vec<String> {
    fields.into_iter().map(|f| f.path).collect()
}

/// Collects `properties` names of a JSON Schema object as dot paths.
fn schema_property_paths(schema: &Value, prefix: &str, out: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    let Some(props) = schema
        .as_object()
        .and_then(|m| m.get("properties"))
        .and_then(Value::as_object)
    else {
        return;
    };
    for (name, sub) in props {
        let path = if prefix.is_empty() {
            name.to_string()
        } else {
            format!("{prefix}.{name}")
        };
        out.push(path.clone());
        schema_property_paths(sub, &path, out, depth + 1);
    }
}

/// Whether a reference path is covered by a declared path: equal, or one is a
/// dot-prefix of the other.
pub fn path_covered(path: &str, declared: &str) -> bool {
    path == declared
        || path
            .strip_prefix(declared)
            .is_some_and(|rest| rest.starts_with('.'))
        || declared
            .strip_prefix(path)
            .is_some_and(|rest| rest.starts_with('.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_round_trip() {
        for h in [
            "always", "match", "no_match", "default", "error", "case_big", "weird",
        ] {
            assert_eq!(Handle::parse(h).as_str(), h);
        }
        assert_eq!(Handle::parse("case_x"), Handle::Case("x".into()));
        assert!(NodeKind::Select.allows(&Handle::parse("case_x")));
        assert!(!NodeKind::Branch.allows(&Handle::parse("case_x")));
        assert!(!NodeKind::Entry.allows(&Handle::Error));
    }

    #[test]
    fn path_cover_rules() {
        assert!(path_covered("result", "result"));
        assert!(path_covered("result.items", "result"));
        assert!(path_covered("result", "result.items"));
        assert!(!path_covered("resultx", "result"));
        assert!(!path_covered("foo", "result"));
    }
}
