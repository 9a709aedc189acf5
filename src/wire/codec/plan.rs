//! A plan's own values in wire form: its bounds, its provenance, an
//! approval of it.

use super::fields::{child, closed, error, object, req_str, req_u64};
use crate::model::value::{MAX_SAFE_INTEGER, Map, Value};
use crate::model::{Bounds, Provenance};
use crate::wire::convert::map_to_json;
use crate::wire::parse::ParseError;
use serde_json::json;

pub fn bounds(v: &Value, at: &str) -> Result<Bounds, ParseError> {
    let m = object(v, at, "bounds")?;
    closed(m, at, "bounds", &Bounds::NAMES)?;
    let mut vals = [0u64; 5];
    for (i, name) in Bounds::NAMES.iter().enumerate() {
        let n = req_u64(m, name, at, "bounds")?;
        if n < 1 {
            return Err(error(
                &child(at, name),
                format!("bounds' `{name}` must be at least 1"),
            ));
        }
        vals[i] = n;
    }
    Ok(Bounds::from_members(vals))
}

pub fn bounds_json(b: &Bounds) -> serde_json::Value {
    serde_json::Value::Object(
        b.members()
            .iter()
            .map(|(k, v)| (k.to_string(), json!(v)))
            .collect(),
    )
}

pub fn provenance(v: &Value, at: &str) -> Result<Provenance, ParseError> {
    let m = object(v, at, "provenance")?;
    match req_str(m, "kind", at, "provenance")? {
        "clone" => {
            closed(
                m,
                at,
                "clone provenance",
                &["kind", "parent", "parentDigest", "parentRevision"],
            )?;
            Ok(Provenance::Clone {
                parent: req_str(m, "parent", at, "provenance")?.to_string(),
                parent_digest: req_str(m, "parentDigest", at, "provenance")?.to_string(),
                parent_revision: req_u64(m, "parentRevision", at, "provenance")?,
            })
        }
        "template" => {
            closed(m, at, "template provenance", &["kind", "template", "args"])?;
            let args = match m.get("args") {
                None => Map::new(),
                Some(a) => object(a, &child(at, "args"), "template provenance args")?.clone(),
            };
            Ok(Provenance::Template {
                template: req_str(m, "template", at, "provenance")?.to_string(),
                args,
            })
        }
        other => Err(error(
            &child(at, "kind"),
            format!("provenance kind `{other}` is unknown; it is \"clone\" or \"template\""),
        )),
    }
}

pub fn provenance_json(p: &Provenance) -> serde_json::Value {
    match p {
        Provenance::Clone {
            parent,
            parent_digest,
            parent_revision,
        } => json!({
            "kind": "clone", "parent": parent, "parentDigest": parent_digest, "parentRevision": parent_revision
        }),
        Provenance::Template { template, args } => json!({
            "kind": "template", "template": template, "args": map_to_json(args)
        }),
    }
}

/// Guards integral JSON numbers for bounds given on the command line.
pub fn checked_bound(n: u64) -> Option<u64> {
    (n >= 1 && (n as f64) <= MAX_SAFE_INTEGER).then_some(n)
}

/// An approval record in wire form (SPEC §4).
pub fn approval_json(a: &crate::model::lifecycle::Approval) -> serde_json::Value {
    json!({
        "planId": a.plan_id,
        "digest": a.digest,
        "authoritySet": a.authority_set.iter().map(super::graph::claim_json).collect::<Vec<_>>(),
        "decidedBy": a.decided_by,
        "decidedAt": a.decided_at,
        "disposition": "approved",
    })
}
