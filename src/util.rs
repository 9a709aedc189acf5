//! Clock and id minting, with the deterministic test hooks of SPEC §3
//! (`PLANFORGE_NOW`, `PLANFORGE_ID_SEED`).

use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The current time as RFC 3339 UTC (`2026-11-30T13:49:46Z`), or
/// `PLANFORGE_NOW` when set.
pub fn now() -> String {
    if let Ok(fixed) = std::env::var("PLANFORGE_NOW")
        && !fixed.is_empty()
    {
        return fixed;
    }
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(secs)
}

/// Formats seconds since the epoch as RFC 3339 UTC.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 → (year, month, day), proleptic Gregorian.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

static COUNTER: AtomicU64 = AtomicU64::new(0);
static ONE_SHOT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Marks this process as one command that exits right after: large plans
/// it loaded are then left to the operating system instead of being freed
/// piece by piece (on a 10,000-node plan that freeing costs as much as
/// reading it). Long-running processes (REPL, MCP) never set it.
pub fn set_one_shot() {
    ONE_SHOT.store(true, Ordering::Relaxed);
}

/// Whether [`set_one_shot`] was called.
pub fn one_shot() -> bool {
    ONE_SHOT.load(Ordering::Relaxed)
}

/// 64 random-looking bits. With `PLANFORGE_ID_SEED` the sequence is fixed per
/// process (seed, then a counter), so tests see stable ids.
pub fn random_u64() -> u64 {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    if let Ok(seed) = std::env::var("PLANFORGE_ID_SEED")
        && !seed.is_empty()
    {
        let digest = crate::wire::jcs::hex_sha256(format!("{seed}:{n}").as_bytes());
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
    fn dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_796_046_586), "2026-11-30T13:49:46Z");
    }

    #[test]
    fn minted_plan_ids_are_valid() {
        for _ in 0..50 {
            let id = plan_id();
            assert!(crate::model::ids::is_valid_plan_id(&id), "{id}");
            assert_eq!(id.len(), 41);
        }
    }
}
