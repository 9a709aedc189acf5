//! The MCP adapter: the model-facing tools (one table, over the forge) and
//! the MCP server that serves them; `planforge tool` uses the same table.

pub(crate) mod frames;
pub(crate) mod server;
pub(crate) mod tools;
pub(crate) mod voice;
