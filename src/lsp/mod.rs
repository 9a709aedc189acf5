//! The editor adapter: `planforge lsp`, the Language Server Protocol over
//! stdio (on `lsp-server` and `lsp-types`, as rust-analyzer is). Every
//! answer comes from the forge: diagnostics are `validate`'s findings on the
//! document as it is in the editor, navigation, hover, completion and the
//! fixes are the queries of `forge::editor`; this module only converts
//! positions and words the answers.

pub(crate) mod convert;
pub(crate) mod diagnostics;
pub(crate) mod documents;
pub(crate) mod elsewhere;
pub(crate) mod features;
pub(crate) mod server;
pub(crate) mod transport;
pub(crate) mod voice;
pub(crate) mod worker;
