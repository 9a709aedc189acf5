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

use crate::check::Report;
use crate::model::Issue;
use crate::model::Severity;
use serde_json::json;
use std::path::Path;

pub const FILE: &str = "checkpoint.json";

/// What a checkpoint holds.
#[derive(Debug, Clone, Default)]
pub struct Checkpoint {
    /// The log file this was computed from: its length and mtime (ns).
    pub log_len: u64,
    pub log_modified: u128,
    pub revision: u64,
    pub digest: String,
    pub encoded_len: usize,
    /// Findings, with the key they are valid for.
    pub report: Option<(String, Report)>,
}

/// Reads a checkpoint; `None` when absent or unreadable.
pub fn read(dir: &Path) -> Option<Checkpoint> {
    let path = dir.join(FILE);
    // Only an ordinary file: not a link, and not a pipe that never ends.
    if !std::fs::symlink_metadata(&path).ok()?.file_type().is_file() {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    let report = match v.get("findings") {
        Some(f) => {
            let key = f.get("key")?.as_str()?.to_string();
            let issues = f
                .get("issues")?
                .as_array()?
                .iter()
                .map(issue_from)
                .collect::<Option<Vec<_>>>()?;
            let skipped = f
                .get("skipped")?
                .as_array()?
                .iter()
                .map(|s| {
                    Some((
                        static_code(s.get("code")?.as_str()?)?,
                        s.get("reason")?.as_str()?.to_string(),
                    ))
                })
                .collect::<Option<Vec<_>>>()?;
            Some((key, Report { issues, skipped }))
        }
        None => None,
    };
    Some(Checkpoint {
        log_len: v.get("logLen")?.as_u64()?,
        log_modified: v.get("logModified")?.as_str()?.parse().ok()?,
        revision: v.get("revision")?.as_u64()?,
        digest: v.get("digest")?.as_str()?.to_string(),
        encoded_len: v.get("encodedLen")?.as_u64()? as usize,
        report,
    })
}

/// Writes a checkpoint, ignoring failures (a read-only store still works).
pub fn write(dir: &Path, c: &Checkpoint) {
    let mut v = json!({
        "formatVersion": 1,
        "logLen": c.log_len,
        "logModified": c.log_modified.to_string(),
        "revision": c.revision,
        "digest": c.digest,
        "encodedLen": c.encoded_len,
    });
    if let Some((key, report)) = &c.report {
        v["findings"] = json!({
            "key": key,
            "issues": report.issues.iter().map(crate::render::issues::json).collect::<Vec<_>>(),
            "skipped": report.skipped.iter().map(|(c, r)| json!({"code": c, "reason": r})).collect::<Vec<_>>(),
        });
    }
    let text = serde_json::to_string(&v).expect("JSON values always serialise");
    let _ = super::write_atomic(&dir.join(FILE), text.as_bytes());
}

/// The `&'static str` of a known issue code.
fn static_code(code: &str) -> Option<&'static str> {
    crate::check::by_code(code).map(|c| c.code())
}

fn issue_from(v: &serde_json::Value) -> Option<Issue> {
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
    let severity = match v.get("severity")?.as_str()? {
        "blocking" => Severity::Blocking,
        "advisory" => Severity::Advisory,
        _ => return None,
    };
    Some(Issue {
        code: static_code(v.get("code")?.as_str()?)?,
        severity,
        message: s("message")?,
        node_id: s("nodeId"),
        edge_id: s("edgeId"),
        pointer: s("pointer"),
    })
}

/// The log file's length and modification time, when it can be read.
pub fn log_stamp(path: &Path) -> Option<(u64, u128)> {
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
pub fn binary_identity() -> String {
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
