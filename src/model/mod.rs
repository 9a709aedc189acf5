//! The plan model (SPEC §1): real types, no wire form.

pub mod budget;
pub mod clock;
pub mod config;
pub mod def;
pub mod error;
pub mod hash;
pub mod hooks;
pub mod ids;
pub mod issue;
pub mod lifecycle;
pub mod map;
pub mod mint;
pub mod node;
pub mod note;
pub mod number;
pub mod oom;
pub mod op;
pub mod pages;
pub mod plan;
pub mod registry;
pub mod remedy;
pub mod shape;
pub mod suggest;
pub mod text;
pub mod touched;
pub mod value;

pub use def::Def;
pub use issue::{Cause, Code, Counts, Issue, Report, Severity};
pub use node::{AuthorityClaim, DeclaredField, Edge, FieldType, Handle, Node, NodeKind, Verb};
pub use op::{Op, OpBody};
pub use plan::{Bounds, Content, Provenance};
pub use value::{BranchId, Map, Param, Ref, Segment, Select, Value};
