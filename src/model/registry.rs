//! The registry's content (SPEC §6): the invocable allowlist and each tool's
//! metadata. Reading and writing registry files is `crate::registry`.

use crate::model::value::Value;
use indexmap::IndexMap;

/// What a tool returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Returns {
    Text,
    Bytes,
    Media,
    Artifact { class: String },
}

impl Returns {
    pub fn describe(&self) -> String {
        match self {
            Returns::Text => "text".into(),
            Returns::Bytes => "bytes".into(),
            Returns::Media => "media".into(),
            Returns::Artifact { class } => format!("an artifact of class `{class}`"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ToolEntry {
    pub summary: Option<String>,
    /// `None` when the registry does not say (transforms then refuse it).
    pub returns: Option<Returns>,
    pub required_args: Vec<String>,
    pub spawns_agent: bool,
    pub tools_arg: Option<String>,
    pub writes: Vec<String>,
}

impl ToolEntry {
    /// The arguments the entry names: the required ones, the tools argument
    /// and the written ones, each once, in that order. `set` refuses a new
    /// argument outside them unless told it is meant, so a fix that adds one
    /// says so (`Remedy::AddField`).
    pub fn known_args(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let all = self
            .required_args
            .iter()
            .chain(self.tools_arg.iter())
            .chain(self.writes.iter());
        for a in all {
            if !out.contains(a) {
                out.push(a.clone());
            }
        }
        out
    }
}

/// The type of a transform step argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgType {
    String,
    Number,
    Integer,
    Boolean,
}

impl ArgType {
    pub fn as_str(self) -> &'static str {
        match self {
            ArgType::String => "string",
            ArgType::Number => "number",
            ArgType::Integer => "integer",
            ArgType::Boolean => "boolean",
        }
    }
    /// Whether a value has this type.
    pub fn accepts(self, v: &Value) -> bool {
        match self {
            ArgType::String => v.as_str().is_some(),
            ArgType::Number => v.as_f64().is_some(),
            ArgType::Integer => v.as_f64().is_some_and(|n| n.fract() == 0.0),
            ArgType::Boolean => v.as_bool().is_some(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct StepArg {
    pub name: String,
    pub ty: ArgType,
    pub optional: bool,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct StepDef {
    pub args: Vec<StepArg>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct ArtifactClass {
    pub extends: Option<String>,
    pub steps: IndexMap<String, StepDef>,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Registry {
    /// Looked up for every call node by many checks: the fast hasher.
    pub tools: IndexMap<String, ToolEntry, crate::model::hash::FastState>,
    pub artifact_classes: IndexMap<String, ArtifactClass>,
    /// Evaluator ids declared wired (besides the built-in `structured`).
    pub evaluators: Vec<String>,
    /// Where it was read from, for messages.
    pub source: String,
    /// SHA-256 of the text it was parsed from (empty for a registry built in
    /// code); findings cached for a plan are keyed by it.
    pub fingerprint: String,
}

/// The evaluator that is always wired.
pub const STRUCTURED: &str = "structured";

impl Registry {
    pub fn tool(&self, name: &str) -> Option<&ToolEntry> {
        self.tools.get(name)
    }

    pub fn tool_names(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    pub fn has_evaluator(&self, id: &str) -> bool {
        id == STRUCTURED || self.evaluators.iter().any(|e| e == id)
    }

    /// The steps a class offers: its own and inherited ones, nearest class
    /// first (a nearer definition wins).
    pub fn class_steps(&self, class: &str) -> IndexMap<String, StepDef> {
        let mut out = IndexMap::new();
        let mut cur = Some(class.to_string());
        let mut seen = std::collections::HashSet::new();
        while let Some(c) = cur {
            if !seen.insert(c.clone()) {
                break;
            }
            let Some(def) = self.artifact_classes.get(&c) else {
                break;
            };
            for (name, step) in &def.steps {
                out.entry(name.clone()).or_insert_with(|| step.clone());
            }
            cur = def.extends.clone();
        }
        out
    }
}
