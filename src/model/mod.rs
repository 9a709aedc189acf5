//! The plan model (SPEC §1): real types, no wire form.

pub mod ids;
pub mod node;
pub mod op;
pub mod plan;
pub mod shape;
pub mod suggest;
pub mod value;

pub use node::{AuthorityClaim, DeclaredField, Edge, FieldType, Handle, Node, NodeKind, Verb};
pub use op::{Op, OpBody};
pub use plan::{Bounds, Content, Provenance};
pub use value::{BranchId, Map, Param, Ref, Segment, Select, Value};
