//! The MCP adapter: the model-facing tools (one table, over the forge) and
//! the MCP server that serves them; `planforge tool` uses the same table.

pub mod frames;
pub mod server;
pub mod tools;
pub mod voice;
