//! The file store (SPEC §3): one folder per plan holding an append-only op
//! log and `meta.json`. The store checks state, revision and legality only;
//! policy (the checks) lives above it.

mod atomic;
pub mod checkpoint;
mod commit;
pub mod exit;
pub mod fold;
mod folder;
mod load;
pub mod lock;
pub mod log;
pub mod meta;
mod paths;

pub use atomic::write_atomic;
pub use commit::{ensure_editable, transaction, transaction_labeled};
pub use load::{Loaded, fold_and_digest};
pub use paths::{CURRENT_FILE, LOCK_FILE, META_FILE, OPS_FILE};

use std::path::PathBuf;

/// The store: a folder of plans.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}
