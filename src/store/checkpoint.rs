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

use crate::model::hash::hex;
use serde_json::json;
use std::path::Path;

pub(crate) const FILE: &str = "checkpoint.json";

/// The file is two lines: a head `{"formatVersion": 3, "key": …, "sum": …}`
/// and the findings' JSON, `sum` being the SHA-256 (hex) of the key, a
/// newline and the findings' line. A findings line edited by hand (or cut
/// short) no longer matches its sum, and is checked again instead of being
/// answered from (tester, session 10: an emptied list read back as "no
/// issues").
const FORMAT: u64 = 3;

/// The largest checkpoint read: findings of a 100,000-node plan where
/// every node has several take tens of megabytes.
const MAX_LEN: u64 = 256 << 20;

fn sum(key: &str, findings: &str) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(key.as_bytes());
    h.update(b"\n");
    h.update(findings.as_bytes());
    hex(&h.finalize())
}

/// The findings' text kept for `key`, when the checkpoint holds it.
pub(crate) fn read(dir: &Path, key: &str) -> Option<String> {
    let path = dir.join(FILE);
    // Only an ordinary file: not a link, and not a pipe that never ends.
    let md = std::fs::symlink_metadata(&path).ok()?;
    // Nor one larger than any findings planforge writes (a sparse file of
    // gigabytes is not read whole to be refused).
    if !md.file_type().is_file() || md.len() > MAX_LEN {
        return None;
    }
    let mut text = std::fs::read_to_string(path).ok()?;
    let (head, findings) = text.split_once('\n')?;
    let head: serde_json::Value = serde_json::from_str(head).ok()?;
    if head.get("formatVersion")?.as_u64()? != FORMAT
        || head.get("key")?.as_str()? != key
        || head.get("sum")?.as_str()? != sum(key, findings)
    {
        return None;
    }
    // The head taken off in place (no copy of the findings).
    let at = text.len() - findings.len();
    text.drain(..at);
    Some(text)
}

/// Keeps `findings` under `key`, ignoring failures (a read-only store still
/// works).
pub(crate) fn write(dir: &Path, key: &str, findings: &str) {
    let head = json!({"formatVersion": FORMAT, "key": key, "sum": sum(key, findings)});
    let text = format!("{head}\n{findings}");
    let _ = super::atomic::write_cache(&dir.join(FILE), text.as_bytes());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_read_back_only_whole_and_under_their_key() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let findings = json!({"issues": [{"code": "cycle", "node": "a"}], "skipped": []});
        write(d, "k1", &findings.to_string());
        assert_eq!(read(d, "k1"), Some(findings.to_string()));
        assert_eq!(read(d, "k2"), None, "another key");
        let text = std::fs::read_to_string(d.join(FILE)).unwrap();
        // The findings emptied by hand, the head kept: not answered from.
        let (head, _) = text.split_once('\n').unwrap();
        let emptied = format!("{head}\n{}", json!({"issues": [], "skipped": []}));
        std::fs::write(d.join(FILE), emptied).unwrap();
        assert_eq!(read(d, "k1"), None);
        // Cut short, or the format before (one JSON object).
        std::fs::write(d.join(FILE), &text[..text.len() - 3]).unwrap();
        assert_eq!(read(d, "k1"), None);
        let old = json!({"formatVersion": 2, "key": "k1", "findings": {"issues": []}});
        std::fs::write(d.join(FILE), old.to_string()).unwrap();
        assert_eq!(read(d, "k1"), None);
    }
}
