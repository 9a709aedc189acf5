//! Wire ⇄ model for nodes, edges, bounds, provenance, ops and plan documents.
//!
//! Decoding takes hydrated values (references already converted) and refuses
//! only what cannot be represented (SPEC §1.1 "shape vs findings"); everything
//! else is kept for the checks to report.

//!
//! One file per form: [`graph`] (nodes and edges), [`plan`] (bounds,
//! provenance, approvals), [`op`] (op log lines) and [`document`] (plan
//! documents and the raw view); [`fields`] reads the fields they share.

mod direct;
mod direct_op;
pub mod document;
pub mod fields;
pub mod graph;
pub mod lifecycle;
pub mod op;
pub mod plan;

pub use direct::document;
pub use document::{
    DOCUMENT_KEYS, Document, document_from_value, document_json, document_owned, raw_json,
};
pub use fields::{error, object};
pub use graph::{
    MAX_DEFINITION_DEPTH, claim_json, edge, edge_json, map_depth, mint_edge_id, node, node_json,
    node_owned, wire_depth,
};
pub use op::{
    OpHead, kind_is_content, op, op_head, op_json, op_line, op_owned, parse_op_line, spellings,
};
pub use plan::{approval_json, bounds, bounds_json, checked_bound, provenance, provenance_json};
