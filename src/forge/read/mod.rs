//! Reading a plan one cannot hold (SPEC §7, §8; seed 000): the flat outline,
//! slices addressed by the outline's own keys, field-level diffs between
//! revisions or documents, and the raw views.
//!
//! Every function here loads the plan once and runs the checks at most once;
//! everything else is linear in nodes + edges.

mod attribution;
pub mod diff;
pub mod history;
pub mod outline;
pub mod slice;

pub use diff::{Diff, FieldChange, NodeChange, Side, diff_contents, document_side};
pub use outline::{Entry, Outline, outline_of};
pub use slice::{ReadKey, Slice, SliceKind, slice_of};

#[cfg(test)]
mod tests;
