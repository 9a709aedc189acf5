//! The checkpoint beside a plan's log: the findings reading the plan last
//! produced, so read commands on an unchanged plan do not check it again.
//!
//! It is a cache that never decides (issue 12): `freeze`, `submit` and
//! `validate` never read it, and for the others it is keyed by a hash of
//! what the findings summarise — the content (the key of the log prefix it
//! is the fold of, `snapshot::Stamp`, or else its digest computed from the
//! log), the lifecycle and the fold's notes, the registry's bytes and the
//! planforge binary — so a changed log can never be answered from it. A missing or damaged file means "check again". It is
//! ignored by git (`*/checkpoint*`), and a failure to write it is ignored.

use serde_json::json;
use std::path::Path;

pub(crate) const FILE: &str = "checkpoint.json";

/// The findings kept for `key`, when the checkpoint holds them.
pub(crate) fn read(dir: &Path, key: &str) -> Option<serde_json::Value> {
    let path = dir.join(FILE);
    // Only an ordinary file: not a link, and not a pipe that never ends.
    if !std::fs::symlink_metadata(&path).ok()?.file_type().is_file() {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    if v.get("formatVersion")?.as_u64()? != 2 || v.get("key")?.as_str()? != key {
        return None;
    }
    v.get("findings").cloned()
}

/// Keeps `findings` under `key`, ignoring failures (a read-only store still
/// works).
pub(crate) fn write(dir: &Path, key: &str, findings: serde_json::Value) {
    let v = json!({"formatVersion": 2, "key": key, "findings": findings});
    let text = serde_json::to_string(&v).expect("JSON values always serialise");
    let _ = super::atomic::write_atomic(&dir.join(FILE), text.as_bytes());
}

/// Identifies the running planforge binary (checks change with it).
pub(crate) fn binary_identity() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let stamp = std::env::current_exe()
            .ok()
            .and_then(|p| std::fs::metadata(p).ok())
            .map(|md| {
                let modified = md
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_nanos());
                format!("{}-{modified}", md.len())
            })
            .unwrap_or_else(|| "unknown".into());
        format!("{}-{stamp}", env!("CARGO_PKG_VERSION"))
    })
    .clone()
}
