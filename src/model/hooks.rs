//! The test-only environment hooks, all of them, read here and nowhere else.
//! They make tests deterministic and let them crash or stall a writer on
//! purpose; nothing a user sets needs them.
//!
//! | variable | effect |
//! |---|---|
//! | `PLANFORGE_NOW` | the clock reads this RFC 3339 time ([`now`]) |
//! | `PLANFORGE_ID_SEED` | minted ids follow this seed, then a counter ([`id_seed`]) |
//! | `PLANFORGE_TEST_CRASH_AFTER_BYTES` | a writer aborts after writing this many bytes of a transaction ([`crash_after_bytes`]) |
//! | `PLANFORGE_TEST_HOLD_LOCK_MS` | a writer sleeps this long while it holds a plan's lock ([`hold_lock_ms`]) |
//!
//! (`PLANFORGE_LOCK_TIMEOUT_MS`, how long a writer waits for a lock, is a
//! setting, not a hook: `store::lock`.)

fn var(key: &str) -> Option<String> {
    std::env::var(key).ok().filter(|v| !v.is_empty())
}

/// `PLANFORGE_NOW`: a fixed time for the clock.
pub fn now() -> Option<String> {
    var("PLANFORGE_NOW")
}

/// `PLANFORGE_ID_SEED`: a fixed seed for minted ids.
pub fn id_seed() -> Option<String> {
    var("PLANFORGE_ID_SEED")
}

/// `PLANFORGE_TEST_CRASH_AFTER_BYTES`: abort a write after this many bytes.
pub fn crash_after_bytes() -> Option<usize> {
    var("PLANFORGE_TEST_CRASH_AFTER_BYTES").and_then(|v| v.parse().ok())
}

/// `PLANFORGE_TEST_HOLD_LOCK_MS`: hold a taken lock this long.
pub fn hold_lock_ms() -> Option<u64> {
    var("PLANFORGE_TEST_HOLD_LOCK_MS").and_then(|v| v.parse().ok())
}
