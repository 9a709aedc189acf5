//! planforge: author, read, validate, freeze and submit plans.

pub mod check;
pub mod cli;
pub mod forge;
pub(crate) mod lsp;
pub(crate) mod mcp;
pub mod model;
pub mod registry;
pub(crate) mod render;
pub mod store;
pub mod wire;
