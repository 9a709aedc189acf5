//! The file store (SPEC §3): one folder per plan holding an append-only op
//! log and `meta.json`. The store checks state, revision and legality only;
//! policy (the checks) lives above it.

mod appends;
pub(crate) mod atomic;
pub(crate) mod checkpoint;
mod commit;
pub(crate) mod early;
pub mod fold;
mod folder;
mod late;
mod leftover;
pub(crate) mod lifecycle;
mod load;
pub(crate) mod lock;
pub mod log;
pub(crate) mod meta;
mod paths;
pub(crate) mod snapshot;
mod sweep;
mod upgrade;
pub(crate) mod warm;

pub use commit::transaction;

/// The checksum a snapshot's chunk and the checks' kept file carry (what a
/// hostile test recomputes to make damage the store takes for sound).
pub fn cache_checksum(bytes: &[u8]) -> u64 {
    snapshot::chunks::checksum(bytes)
}
pub(crate) use commit::{Start, Upgraded, ensure_editable, expect_revision};
pub(crate) use folder::discover;
pub(crate) use leftover::Logless;
pub(crate) use load::Loaded;
pub(crate) use paths::{META_FILE, OPS_FILE};

use std::path::PathBuf;

/// The store: a folder of plans.
#[derive(Debug, Clone)]
pub(crate) struct Store {
    root: PathBuf,
    /// The process exits right after its command: plans it loads are left
    /// to the operating system instead of being freed piece by piece (on a
    /// 10,000-node plan that freeing costs as much as reading it). Long-lived
    /// processes (REPL, MCP) never set it.
    one_shot: bool,
    /// The plans a long-lived process keeps folded between calls (see
    /// `warm`); `None` for one-shot commands.
    warm: Option<std::sync::Arc<warm::Warm>>,
    /// What decodes the checks' kept state on another thread while a
    /// one-shot write restores its plan (see `early`).
    decoder: Option<early::Decoder>,
}

impl Store {
    /// This store, for a process that exits right after one command.
    pub(crate) fn one_shot(mut self, yes: bool) -> Store {
        self.one_shot = yes;
        // Its digests are not resumed by a later call of the same session.
        if yes {
            fold::keep_node_texts(false);
        }
        self
    }

    /// This store, decoding the checks' kept state with `decoder` on
    /// another thread while a one-shot write restores its plan.
    pub(crate) fn decode_kept_with(mut self, decoder: early::Decoder) -> Store {
        self.decoder = Some(decoder);
        self
    }

    /// This store, keeping the plans it folds in `warm` between calls (the
    /// REPL and `planforge mcp`; see `warm`).
    pub(crate) fn warm(mut self, warm: std::sync::Arc<warm::Warm>) -> Store {
        self.warm = Some(warm);
        self
    }
}
