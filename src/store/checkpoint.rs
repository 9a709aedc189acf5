//! The checkpoint beside a plan's log (SPEC §3 fast path): what reading the
//! plan last produced — its digest and encoded size, and the findings of
//! every check — so an unchanged plan is not hashed and checked again.
//!
//! It is a cache, never a source of truth: it is keyed by the log file's exact
//! length and modification time (the log only grows, and every write changes
//! both), and the findings additionally by the digest, the plan's state and
//! freeze record, the registry's bytes and the planforge binary itself. Any
//! mismatch, a missing file or a damaged one means "compute again". It is
//! ignored by git (`*/checkpoint*`), and a failure to write it is ignored.

use serde_json::json;
use std::path::Path;

pub(crate) const FILE: &str = "checkpoint.json";

/// What a checkpoint holds.
#[derive(Debug, Clone, Default)]
pub(crate) struct Checkpoint {
    /// The log file this was computed from: its length and mtime (ns).
    pub(crate) log_len: u64,
    pub(crate) log_modified: u128,
    pub(crate) revision: u64,
    pub(crate) digest: String,
    pub(crate) encoded_len: usize,
    /// Findings in their JSON form, with the key they are valid for (the
    /// store keeps them without reading them; the forge encodes them).
    pub(crate) findings: Option<(String, serde_json::Value)>,
}

/// Reads a checkpoint; `None` when absent or unreadable.
pub(crate) fn read(dir: &Path) -> Option<Checkpoint> {
    let path = dir.join(FILE);
    // Only an ordinary file: not a link, and not a pipe that never ends.
    if !std::fs::symlink_metadata(&path).ok()?.file_type().is_file() {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let findings = match v.get("findings") {
        Some(f) => {
            let mut value = f.as_object()?.clone();
            let key = value.remove("key")?.as_str()?.to_string();
            Some((key, serde_json::Value::Object(value)))
        }
        None => None,
    };
    Some(Checkpoint {
        log_len: v.get("logLen")?.as_u64()?,
        log_modified: v.get("logModified")?.as_str()?.parse().ok()?,
        revision: v.get("revision")?.as_u64()?,
        digest: v.get("digest")?.as_str()?.to_string(),
        encoded_len: v.get("encodedLen")?.as_u64()? as usize,
        findings,
    })
}

/// Writes a checkpoint, ignoring failures (a read-only store still works).
pub(crate) fn write(dir: &Path, c: &Checkpoint) {
    let mut v = json!({
        "formatVersion": 1,
        "logLen": c.log_len,
        "logModified": c.log_modified.to_string(),
        "revision": c.revision,
        "digest": c.digest,
        "encodedLen": c.encoded_len,
    });
    if let Some((key, value)) = &c.findings {
        let mut f = value.as_object().cloned().unwrap_or_default();
        f.insert("key".into(), key.clone().into());
        v["findings"] = serde_json::Value::Object(f);
    }
    let text = serde_json::to_string(&v).expect("JSON values always serialise");
    let _ = super::atomic::write_atomic(&dir.join(FILE), text.as_bytes());
}

/// The log file's length and modification time, when it can be read.
pub(crate) fn log_stamp(path: &Path) -> Option<(u64, u128)> {
    let md = std::fs::metadata(path).ok()?;
    let modified = md
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_nanos();
    Some((md.len(), modified))
}

/// Identifies the running planforge binary (checks change with it).
pub(crate) fn binary_identity() -> String {
    static ID: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let stamp = std::env::current_exe()
            .ok()
            .and_then(|p| log_stamp(&p))
            .map(|(len, m)| format!("{len}-{m}"))
            .unwrap_or_else(|| "unknown".into());
        format!("{}-{stamp}", env!("CARGO_PKG_VERSION"))
    })
    .clone()
}
