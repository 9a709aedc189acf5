//! Fixes as data. A finding or a refusal says in prose what is wrong and
//! carries what to do as [`Fix`]es; each adapter words a [`Remedy`] in its
//! reader's vocabulary through a [`Voice`]: the CLI as a `planforge …`
//! command line, the model-facing tools as a tool call with its arguments,
//! `--format json` as a structured `fix` object. Prose that reaches a model
//! never names a CLI command, and prose that reaches a terminal never names a
//! tool call.

use crate::model::{NodeKind, Value};

/// A value a fix sets: known, or to be chosen by the author.
#[derive(Debug, Clone, PartialEq)]
pub enum Fill {
    /// This exact value (a reference included).
    Value(Value),
    /// A value the author chooses; the text says what kind (`VALUE`,
    /// `a literal or a reference`, `PHASE`).
    Choose(String),
}

/// A node a fix names: a known id, or one the author picks.
#[derive(Debug, Clone, PartialEq)]
pub enum Pick {
    Id(String),
    /// Any node that fits; the text says which (`a step before it`).
    Any(String),
}

impl Pick {
    pub fn id(id: impl AsRef<str>) -> Pick {
        Pick::Id(id.as_ref().to_owned())
    }
    pub fn any(what: impl Into<String>) -> Pick {
        Pick::Any(what.into())
    }
}

impl Fill {
    pub fn choose(what: impl Into<String>) -> Fill {
        Fill::Choose(what.into())
    }
}

/// One of a plan's five bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    MaxNodes,
    MaxEdges,
    MaxSteps,
    MaxConcurrentFrames,
    MaxEncodedBytes,
}

impl Bound {
    /// The bound's name in documents and tool arguments (`maxNodes`).
    pub fn key(self) -> &'static str {
        match self {
            Bound::MaxNodes => "maxNodes",
            Bound::MaxEdges => "maxEdges",
            Bound::MaxSteps => "maxSteps",
            Bound::MaxConcurrentFrames => "maxConcurrentFrames",
            Bound::MaxEncodedBytes => "maxEncodedBytes",
        }
    }
}

/// What a reader can do about a finding or a refusal. The plan it applies to
/// is the one the answer is about (the voice knows it).
#[derive(Debug, Clone, PartialEq)]
pub enum Remedy {
    /// Set a definition field; `path` is a dot path under the definition.
    SetField {
        node: String,
        path: String,
        value: Fill,
    },
    /// Set a definition field the node does not have and its tool's
    /// registry entry does not name (a new argument): the edit must say the
    /// new key is meant, or it is refused as unknown.
    AddField {
        node: String,
        path: String,
        value: Fill,
    },
    /// Set a node's phase (`None`: leave it unphased).
    SetPhase {
        node: String,
        phase: Option<Fill>,
    },
    /// Replace a node's whole definition (its kind stays).
    SetDefinition {
        node: String,
    },
    /// Connect two nodes on a handle (`None`: the source's default).
    Connect {
        from: Pick,
        to: Pick,
        handle: Option<String>,
    },
    Disconnect {
        edge: String,
    },
    /// Disconnect an edge and connect its two nodes again on `handle`: moves
    /// it to another handle, or (on the same handle) gives it a new minted
    /// id.
    ChangeHandle {
        edge: String,
        from: String,
        to: String,
        handle: String,
    },
    /// Move the edge `edge` (from `from`, on `handle`) to the target `to`:
    /// one fix that removes it and connects `from` to `to` on the same
    /// handle in its place. Doing only half (removing it) is no fix.
    Retarget {
        edge: String,
        from: String,
        to: Pick,
        handle: String,
    },
    RemoveNode {
        node: String,
    },
    /// Add a node (`id`/`kind` when the fix knows them).
    AddNode {
        id: Option<String>,
        kind: Option<NodeKind>,
    },
    /// Raise one bound to `value` (the others stay as they are).
    SetBound {
        bound: Bound,
        value: u64,
    },
    Freeze,
    /// Freeze (when editable) and approve the plan as it is now.
    Submit,
    Unfreeze,
    /// Copy the plan into a new editable one and work on the copy.
    Clone,
    /// Read the plan's outline (its phases and node ids).
    Outline,
    /// Read one node in full, with its edges.
    ReadNode {
        node: String,
    },
    /// Read one phase.
    ReadPhase {
        phase: String,
    },
    /// The plan's state, revision, digest and counts.
    Status,
    /// Every finding of the plan.
    Validate,
    /// The plan's findings within a larger byte budget.
    ValidateWithin {
        max_bytes: u64,
    },
    /// The long explanation of an issue code.
    Explain {
        code: String,
    },
    /// The templates, with their params.
    ListTemplates,
    /// Start a plan from the owner's request.
    Author,
    /// Make a new empty plan.
    CreatePlan,
    /// The tool must be added to the registry by its owner (models never add
    /// tools to the registry).
    AddToRegistry {
        tool: String,
    },
    /// Add `tool` to the registry again with `field` of its entry set right
    /// (`None`: the tool's name is what was wrong). An owner's operation:
    /// models never add tools to the registry.
    RegisterTool {
        tool: String,
        field: Option<RegistryField>,
    },
}

/// A field of a registry entry, as a fix names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegistryField {
    Summary,
    Returns,
    RequiredArg,
    Writes,
    /// The argument listing a spawned subagent's tools (the tool must
    /// spawn an agent).
    ToolsArg,
}

impl RegistryField {
    /// The entry's key in registry.yaml (and the JSON `fix` object).
    pub fn key(self) -> &'static str {
        match self {
            RegistryField::Summary => "summary",
            RegistryField::Returns => "returns",
            RegistryField::RequiredArg => "requiredArgs",
            RegistryField::Writes => "writes",
            RegistryField::ToolsArg => "toolsArg",
        }
    }
    pub fn from_key(key: &str) -> Option<RegistryField> {
        [
            RegistryField::Summary,
            RegistryField::Returns,
            RegistryField::RequiredArg,
            RegistryField::Writes,
            RegistryField::ToolsArg,
        ]
        .into_iter()
        .find(|f| f.key() == key)
    }
}

/// A remedy, and when it is the right one (`None`: always).
#[derive(Debug, Clone, PartialEq)]
pub struct Fix {
    pub remedy: Remedy,
    /// The condition under which this fix is the right one, in neutral prose
    /// (`if calling the tool again does no harm`); never a command.
    pub when: Option<String>,
}

impl Fix {
    /// The condition, names quoted in it cut as in a message
    /// ([`crate::model::text::cut_names`]).
    pub fn when(mut self, condition: impl Into<String>) -> Fix {
        self.when = Some(crate::model::text::cut_names(condition.into()));
        self
    }
}

impl From<Remedy> for Fix {
    fn from(remedy: Remedy) -> Fix {
        Fix { remedy, when: None }
    }
}

impl Remedy {
    pub fn when(self, condition: impl Into<String>) -> Fix {
        Fix::from(self).when(condition)
    }
    /// The action's name in the JSON `fix` object (`set_field`).
    pub fn action(&self) -> &'static str {
        match self {
            Remedy::SetField { .. } => "set_field",
            Remedy::AddField { .. } => "add_field",
            Remedy::SetPhase { .. } => "set_phase",
            Remedy::SetDefinition { .. } => "set_definition",
            Remedy::Connect { .. } => "connect",
            Remedy::Disconnect { .. } => "disconnect",
            Remedy::ChangeHandle { .. } => "change_handle",
            Remedy::Retarget { .. } => "retarget_edge",
            Remedy::RemoveNode { .. } => "remove_node",
            Remedy::AddNode { .. } => "add_node",
            Remedy::SetBound { .. } => "set_bound",
            Remedy::Freeze => "freeze",
            Remedy::Submit => "submit",
            Remedy::Unfreeze => "unfreeze",
            Remedy::Clone => "clone",
            Remedy::Outline => "outline",
            Remedy::ReadNode { .. } => "read_node",
            Remedy::ReadPhase { .. } => "read_phase",
            Remedy::Status => "status",
            Remedy::Validate | Remedy::ValidateWithin { .. } => "validate",
            Remedy::Explain { .. } => "explain",
            Remedy::ListTemplates => "list_templates",
            Remedy::Author => "author",
            Remedy::CreatePlan => "create_plan",
            Remedy::AddToRegistry { .. } => "add_to_registry",
            Remedy::RegisterTool { .. } => "register_tool",
        }
    }
}

/// How one reader is told to carry out a remedy.
pub trait Voice {
    /// The remedy in this reader's vocabulary: a command line, a tool call.
    fn say(&self, remedy: &Remedy) -> String;

    /// Fixes as one clause: `X`, `X (if …), or Y (otherwise)`.
    fn fixes(&self, fixes: &[Fix]) -> String {
        let mut out = String::new();
        for (i, f) in fixes.iter().enumerate() {
            if i > 0 {
                out.push_str(if i + 1 == fixes.len() { ", or " } else { ", " });
            }
            out.push_str(&self.say(&f.remedy));
            if let Some(w) = &f.when {
                out.push_str(&format!(" ({w})"));
            }
        }
        out
    }
}
