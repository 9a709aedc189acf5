//! Reading a plan one cannot hold (SPEC §7, §8; seed 000): the flat outline,
//! slices addressed by the outline's own keys, field-level diffs between
//! revisions or documents, and the raw views.
//!
//! Every function here loads the plan once and runs the checks at most once;
//! everything else is linear in nodes + edges.

mod attribution;
pub(crate) mod diff;
mod diff_fold;
pub(crate) mod history;
pub(crate) mod in_place;
pub(crate) mod log;
pub(crate) mod outline;
pub(crate) mod slice;
pub(crate) mod source;

pub(crate) use diff::{Diff, FieldChange, Side};
pub(crate) use outline::{Entry, Outline, outline_of};
pub(crate) use slice::{ReadKey, Slice, SliceKind};
pub(crate) use source::Source;

#[cfg(test)]
mod diff_fold_tests;
#[cfg(test)]
mod in_place_tests;
#[cfg(test)]
mod tests;
