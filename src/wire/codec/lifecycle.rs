//! The lifecycle ops in wire form: `create_plan`, `set_label`, `freeze`,
//! `unfreeze`, `approve`.

use super::fields::{child, closed, error, object, opt_str, req_str, req_u64};
use super::plan::{approval_json, provenance, provenance_json};
use crate::model::lifecycle::Approval;
use crate::model::value::{Map, Value};
use crate::model::{AuthorityClaim, OpBody};
use crate::wire::parse::ParseError;

/// The body of a lifecycle op of `kind`, or `None` when `kind` is not one.
/// `common` lists the keys every op has.
pub(super) fn body(
    kind: &str,
    m: &Map,
    at: &str,
    common: &[&str],
) -> Option<Result<OpBody, ParseError>> {
    let allow = |extra: &[&str]| -> Result<(), ParseError> {
        let all: Vec<&str> = common.iter().chain(extra.iter()).copied().collect();
        closed(m, at, &format!("a {kind} op"), &all)
    };
    let read = || -> Result<OpBody, ParseError> {
        Ok(match kind {
            "create_plan" => {
                allow(&["label", "request", "provenance"])?;
                OpBody::CreatePlan {
                    label: opt_str(m, "label", at, "an op")?.map(str::to_string),
                    request: opt_str(m, "request", at, "an op")?.map(str::to_string),
                    provenance: match m.get("provenance") {
                        None | Some(Value::Null) => None,
                        Some(p) => Some(provenance(p, &child(at, "provenance"))?),
                    },
                }
            }
            "set_label" => {
                allow(&["label"])?;
                OpBody::SetLabel {
                    label: opt_str(m, "label", at, "an op")?.map(str::to_string),
                }
            }
            "freeze" => {
                allow(&["revision", "digest"])?;
                OpBody::Freeze {
                    revision: req_u64(m, "revision", at, "a freeze op")?,
                    digest: req_str(m, "digest", at, "a freeze op")?.to_string(),
                }
            }
            "unfreeze" => {
                allow(&[])?;
                OpBody::Unfreeze
            }
            "approve" => {
                allow(&["approval"])?;
                let a = m
                    .get("approval")
                    .ok_or_else(|| error(at, "an approve op needs `approval`"))?;
                OpBody::Approve {
                    approval: approval(a, &child(at, "approval"))?,
                }
            }
            _ => unreachable!("only lifecycle kinds reach here"),
        })
    };
    matches!(
        kind,
        "create_plan" | "set_label" | "freeze" | "unfreeze" | "approve"
    )
    .then(read)
}

/// An approval record (SPEC §4), every field required.
pub fn approval(v: &Value, at: &str) -> Result<Approval, ParseError> {
    let what = "an approval";
    let m = object(v, at, what)?;
    closed(
        m,
        at,
        what,
        &[
            "planId",
            "digest",
            "authoritySet",
            "decidedBy",
            "decidedAt",
            "disposition",
        ],
    )?;
    if req_str(m, "disposition", at, what)? != "approved" {
        return Err(error(
            &child(at, "disposition"),
            "an approval's disposition is \"approved\"",
        ));
    }
    let set_at = child(at, "authoritySet");
    let authority_set = match m.get("authoritySet") {
        Some(Value::Array(a)) => a
            .iter()
            .map(AuthorityClaim::from_value)
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| error(&set_at, "each authority claim is {capability, scope, verb}"))?,
        _ => {
            return Err(error(
                &set_at,
                "an approval's authoritySet is a list of claims",
            ));
        }
    };
    Ok(Approval {
        plan_id: req_str(m, "planId", at, what)?.to_string(),
        digest: req_str(m, "digest", at, what)?.to_string(),
        authority_set,
        decided_by: req_str(m, "decidedBy", at, what)?.to_string(),
        decided_at: req_str(m, "decidedAt", at, what)?.to_string(),
    })
}

/// Adds a lifecycle op's fields to its line; false when `body` is content.
pub(super) fn insert(body: &OpBody, m: &mut serde_json::Map<String, serde_json::Value>) -> bool {
    let mut put = |k: &str, v: serde_json::Value| {
        m.insert(k.to_string(), v);
    };
    match body {
        OpBody::CreatePlan {
            label,
            request,
            provenance,
        } => {
            if let Some(l) = label {
                put("label", l.clone().into());
            }
            if let Some(r) = request {
                put("request", r.clone().into());
            }
            if let Some(p) = provenance {
                put("provenance", provenance_json(p));
            }
        }
        OpBody::SetLabel { label } => put(
            "label",
            label
                .clone()
                .map(serde_json::Value::from)
                .unwrap_or(serde_json::Value::Null),
        ),
        OpBody::Freeze { revision, digest } => {
            put("revision", (*revision).into());
            put("digest", digest.clone().into());
        }
        OpBody::Unfreeze => {}
        OpBody::Approve { approval } => put("approval", approval_json(approval)),
        _ => return false,
    }
    true
}
