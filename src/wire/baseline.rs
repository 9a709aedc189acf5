//! `validate --baseline FILE`: the fingerprints of the findings in a
//! previous report — planforge's `--format json` (`issues[].fingerprint`)
//! or SARIF (`runs[].results[].partialFingerprints["planforgeFinding/v1"]`).

use crate::model::Issue;
use crate::model::error::{Error, Result};
use serde_json::Value;
use std::collections::HashSet;

/// The key of a finding's fingerprint in SARIF `partialFingerprints`.
pub(crate) const SARIF_KEY: &str = "planforgeFinding/v1";

/// A finding's identity, stable across unrelated edits: the lowercase hex
/// SHA-256 of the JSON array `[code, file, planId, nodeId, edgeId,
/// pointer]` (the pointer relative to the node or edge, as issues carry it,
/// so inserting another node does not change it). Line numbers and the
/// message (which may name other nodes) are left out. SARIF carries it as
/// `partialFingerprints`, JSON as `fingerprint`; a baseline matches by it.
pub(crate) fn fingerprint(file: &str, plan_id: Option<&str>, i: &Issue) -> String {
    let key = serde_json::json!([i.code.name, file, plan_id, i.node_id, i.edge_id, i.pointer])
        .to_string();
    crate::model::hash::hex_sha256(key.as_bytes())
}

/// The fingerprints in a report's text; `file` names it in errors.
pub(crate) fn fingerprints(text: &str, file: &str) -> Result<HashSet<String>> {
    let v: Value = serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| {
        Error::invalid(format!(
            "--baseline {file}: not a JSON report ({e}); write one with validate --format json or --format sarif"
        ))
    })?;
    // A report that left findings out cannot say they are known.
    let omitted = v
        .get("omitted")
        .or_else(|| v.pointer("/runs/0/properties/omitted"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if omitted > 0 {
        return Err(Error::invalid(format!(
            "--baseline {file}: the report left {omitted} finding(s) out (its listing limit); write the baseline with validate --max-findings 0"
        )));
    }
    let mut out = HashSet::new();
    let mut found_shape = false;
    if let Some(runs) = v.get("runs").and_then(Value::as_array) {
        found_shape = true;
        for r in runs.iter().filter_map(|r| r.get("results")?.as_array()) {
            for res in r {
                if let Some(fp) = res
                    .get("partialFingerprints")
                    .and_then(|p| p.get(SARIF_KEY))
                    .and_then(Value::as_str)
                {
                    out.insert(fp.to_string());
                }
            }
        }
    }
    if let Some(issues) = v.get("issues").and_then(Value::as_array) {
        found_shape = true;
        for i in issues {
            match i.get("fingerprint").and_then(Value::as_str) {
                Some(fp) => {
                    out.insert(fp.to_string());
                }
                None => {
                    return Err(Error::invalid(format!(
                        "--baseline {file}: a finding has no fingerprint (the report was written by an older planforge); write it again with validate --format json"
                    )));
                }
            }
        }
    }
    if !found_shape {
        return Err(Error::invalid(format!(
            "--baseline {file}: neither a planforge JSON report (issues) nor SARIF (runs); write one with validate --format json or --format sarif"
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_and_sarif_reports() {
        let j = r#"{"issues": [{"code": "cycle", "fingerprint": "aa"}]}"#;
        assert!(fingerprints(j, "b.json").unwrap().contains("aa"));
        let s =
            r#"{"runs": [{"results": [{"partialFingerprints": {"planforgeFinding/v1": "bb"}}]}]}"#;
        assert!(fingerprints(s, "b.sarif").unwrap().contains("bb"));
        assert!(fingerprints("{}", "x").is_err());
        assert!(fingerprints("nope", "x").is_err());
        assert!(fingerprints(r#"{"issues": [{"code": "cycle"}]}"#, "x").is_err());
        let cut = r#"{"issues": [], "omitted": 3}"#;
        assert!(
            fingerprints(cut, "x")
                .unwrap_err()
                .message
                .contains("--max-findings 0")
        );
    }
}
