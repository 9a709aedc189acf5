//! Minting ids (transactions, plans), with the deterministic test hook
//! `PLANFORGE_ID_SEED` (SPEC §3).

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// 64 random-looking bits. With `PLANFORGE_ID_SEED` the sequence is fixed per
/// process (seed, then a counter), so tests see stable ids.
pub fn random_u64() -> u64 {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    if let Some(seed) = crate::model::hooks::id_seed() {
        let digest = crate::model::hash::hex_sha256(format!("{seed}:{n}").as_bytes());
        return u64::from_str_radix(&digest[..16], 16).expect("hex digits");
    }
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(n);
    h.write_u32(std::process::id());
    h.write_u128(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

/// A transaction id: 16 hex digits.
pub fn tx_id() -> String {
    format!("{:016x}", random_u64())
}

/// A fresh plan id in UUID layout: `plan-xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
pub fn plan_id() -> String {
    let a = random_u64();
    let b = random_u64();
    let hex = format!("{a:016x}{b:016x}");
    format!(
        "plan-{}-{}-4{}-{}{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[13..16],
        ["8", "9", "a", "b"][(b & 3) as usize],
        &hex[17..20],
        &hex[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minted_plan_ids_are_valid() {
        for _ in 0..50 {
            let id = plan_id();
            assert!(crate::model::ids::is_valid_plan_id(&id), "{id}");
            assert_eq!(id.len(), 41);
        }
    }
}
