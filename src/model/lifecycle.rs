//! A plan's lifecycle and the store's metadata about it (SPEC §4): its
//! state, freezes and approval, label and request. Reading and writing them
//! is the store's business (`crate::store::meta`).

use crate::model::{AuthorityClaim, Provenance};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Editable,
    Reviewable,
    Executable,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Editable => "editable",
            State::Reviewable => "reviewable",
            State::Executable => "executable",
        }
    }
    pub fn parse(s: &str) -> Option<State> {
        match s {
            "editable" => Some(State::Editable),
            "reviewable" => Some(State::Reviewable),
            "executable" => Some(State::Executable),
            _ => None,
        }
    }
}

impl std::fmt::Display for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The record of a plan's last freeze.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frozen {
    pub revision: u64,
    pub digest: String,
}

/// The approval that made a plan executable (SPEC §4).
#[derive(Debug, Clone, PartialEq)]
pub struct Approval {
    pub plan_id: String,
    pub digest: String,
    pub authority_set: Vec<AuthorityClaim>,
    pub decided_by: String,
    pub decided_at: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    pub state: State,
    pub label: Option<String>,
    /// The owner's request, verbatim (`author`).
    pub request: Option<String>,
    pub provenance: Option<Provenance>,
    pub approval: Option<Approval>,
    /// The last freeze; kept after unfreeze so `diff frozen current` works.
    pub frozen: Option<Frozen>,
    /// Revisions at which the plan was frozen, oldest first.
    pub freezes: Vec<u64>,
    pub created_at: String,
    pub updated_at: String,
}

impl Meta {
    pub fn new(now: &str) -> Meta {
        Meta {
            state: State::Editable,
            label: None,
            request: None,
            provenance: None,
            approval: None,
            frozen: None,
            freezes: Vec::new(),
            created_at: now.to_string(),
            updated_at: now.to_string(),
        }
    }
}
