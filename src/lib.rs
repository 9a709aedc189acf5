//! planforge: author, read, validate, freeze and submit plans.

pub mod check;
pub mod cli;
pub mod error;
pub mod forge;
pub mod mcp;
pub mod model;
pub mod orchestrate;
pub mod registry;
pub mod render;
pub mod repl;
pub mod store;
pub mod template;
pub mod util;
pub mod wire;
