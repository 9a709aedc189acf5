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

/// The largest char boundary of `s` at or below `i` (for cutting text at
/// a byte budget without splitting a character).
pub fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut end = i.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    end
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

/// A fast hasher for the many small string-keyed maps of a plan (node ids,
/// definition keys): FxHash's multiply-rotate over 8-byte words, started
/// from a per-process random seed so crafted keys cannot be aimed at it.
#[derive(Clone, Copy)]
pub struct FastHasher(u64);

const FX_K: u64 = 0x517c_c1b7_2722_0a95;

impl Hasher for FastHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut h = self.0;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            h = (h.rotate_left(5) ^ w).wrapping_mul(FX_K);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            h = (h.rotate_left(5) ^ u64::from_le_bytes(buf)).wrapping_mul(FX_K);
        }
        self.0 = h;
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(FX_K);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(FX_K);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // Mix the high bits down: hashbrown takes its control bits from the top.
        let h = self.0;
        h ^ (h >> 29) ^ (h >> 47)
    }
}

/// Builds [`FastHasher`]s from the process seed.
#[derive(Clone, Copy, Default, Debug)]
pub struct FastState;

fn process_seed() -> u64 {
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(0x9e37_79b9_7f4a_7c15);
        h.finish() | 1
    })
}

impl BuildHasher for FastState {
    type Hasher = FastHasher;
    #[inline]
    fn build_hasher(&self) -> FastHasher {
        FastHasher(process_seed())
    }
}

/// A `HashMap` with [`FastState`].
pub type FastMap<K, V> = std::collections::HashMap<K, V, FastState>;
/// A `HashSet` with [`FastState`].
pub type FastSet<K> = std::collections::HashSet<K, FastState>;
