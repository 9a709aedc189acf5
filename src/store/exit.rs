//! One-shot processes: a command that exits right after its answer.

use std::sync::atomic::{AtomicBool, Ordering};

static ONE_SHOT: AtomicBool = AtomicBool::new(false);

/// Marks this process as one command that exits right after: large plans
/// it loaded are then left to the operating system instead of being freed
/// piece by piece (on a 10,000-node plan that freeing costs as much as
/// reading it). Long-running processes (REPL, MCP) never set it.
pub fn set_one_shot() {
    ONE_SHOT.store(true, Ordering::Relaxed);
}

/// Drops a large value, or, in a one-shot process, leaves it to the
/// operating system (see [`set_one_shot`]).
pub fn discard<T>(v: T) {
    if one_shot() {
        std::mem::forget(v);
    } else {
        drop(v);
    }
}

/// Whether [`set_one_shot`] was called.
pub fn one_shot() -> bool {
    ONE_SHOT.load(Ordering::Relaxed)
}
