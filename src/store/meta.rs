//! `meta.json`: a plan's state and the other store metadata (not content,
//! except provenance, which the fold takes from here).

use crate::model::AuthorityClaim;
use crate::model::error::Error;
use crate::model::error::Result;
use crate::model::lifecycle::{Approval, Frozen, Meta, State};
use crate::wire::codec;

impl Meta {
    pub(crate) fn parse(text: &str, file: &str) -> Result<Meta> {
        let corrupt = |what: &str| {
            Error::new(crate::model::error::ErrorKind::CorruptStore, format!("{file} is damaged: {what}"))
                .with_help("restore meta.json from version control; the op log next to it holds the plan's content")
        };
        let v = crate::wire::parse::json(text).map_err(|e| corrupt(&e.to_string()))?;
        let v = crate::wire::convert::hydrated(v, "").map_err(|e| corrupt(&e.to_string()))?;
        let m = v
            .as_object()
            .ok_or_else(|| corrupt("it is not a JSON object"))?;
        let s = |k: &str| m.get(k).and_then(|v| v.as_str()).map(str::to_string);
        if let Some(fv) = m.get("formatVersion")
            && fv.as_u64() != Some(1)
        {
            return Err(corrupt(&format!(
                "its formatVersion is {}, and this planforge reads formatVersion 1",
                crate::wire::json::compact(fv)
            )));
        }
        let state = s("state")
            .and_then(|s| State::parse(&s))
            .ok_or_else(|| corrupt("`state` is missing or unknown"))?;
        let provenance = match m.get("provenance") {
            None => None,
            Some(p) => {
                Some(codec::provenance(p, "/provenance").map_err(|e| corrupt(&e.to_string()))?)
            }
        };
        let approval = match m.get("approval") {
            None => None,
            Some(a) => Some(approval_from(a).ok_or_else(|| corrupt("`approval` is malformed"))?),
        };
        let frozen = match m.get("frozen") {
            None | Some(crate::model::Value::Null) => None,
            Some(other) => Some(
                other
                    .as_object()
                    .ok_or_else(|| corrupt("`frozen` is malformed"))?,
            ),
        };
        let frozen = match frozen {
            None => None,
            Some(f) => Some(Frozen {
                revision: f
                    .get("revision")
                    .and_then(|r| r.as_u64())
                    .ok_or_else(|| corrupt("`frozen.revision` is malformed"))?,
                digest: f
                    .get("digest")
                    .and_then(|d| d.as_str())
                    .ok_or_else(|| corrupt("`frozen.digest` is malformed"))?
                    .to_string(),
            }),
        };
        // A frozen plan is checked against the digest it was frozen with:
        // without that record, its integrity cannot be checked.
        if state != State::Editable && frozen.is_none() {
            return Err(corrupt(&format!(
                "the plan is {state} but has no `frozen` record to check its content against"
            )));
        }
        let freezes = m
            .get("freezes")
            .and_then(|f| f.as_array())
            .map(|a| a.iter().filter_map(|r| r.as_u64()).collect())
            .unwrap_or_default();
        let label = s("label");
        if let Some(why) = label.as_deref().and_then(crate::model::ids::label_problem) {
            return Err(corrupt(&format!("its `label` is not a plan label: {why}")));
        }
        Ok(Meta {
            state,
            label,
            request: s("request"),
            provenance,
            approval,
            frozen,
            freezes,
            created_at: s("createdAt").unwrap_or_default(),
            updated_at: s("updatedAt").unwrap_or_default(),
        })
    }
}

fn approval_from(v: &crate::model::Value) -> Option<Approval> {
    let m = v.as_object()?;
    let s = |k: &str| m.get(k).and_then(|v| v.as_str()).map(str::to_string);
    Some(Approval {
        plan_id: s("planId")?,
        digest: s("digest")?,
        authority_set: m
            .get("authoritySet")?
            .as_array()?
            .iter()
            .map(AuthorityClaim::from_value)
            .collect::<Option<Vec<_>>>()?,
        decided_by: s("decidedBy")?,
        decided_at: s("decidedAt")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meta_round_trips() {
        let mut m = Meta::new("2026-01-01T00:00:00Z");
        m.label = Some("x".into());
        m.request = Some("a \"quoted\"\nrequest".into());
        m.frozen = Some(Frozen {
            revision: 3,
            digest: "ab".into(),
        });
        m.freezes = vec![3];
        m.state = State::Reviewable;
        let text = r#"{"formatVersion": 1, "state": "reviewable", "label": "x", "request": "a \"quoted\"\nrequest", "frozen": {"revision": 3, "digest": "ab"}, "freezes": [3], "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"}"#;
        assert_eq!(Meta::parse(text, "meta.json").unwrap(), m);
    }

    #[test]
    fn damaged_records_are_refused_not_ignored() {
        for text in [
            r#"{"formatVersion": 99, "state": "editable"}"#,
            r#"{"formatVersion": 1, "state": "reviewable", "frozen": "yes"}"#,
            r#"{"formatVersion": 1, "state": "executable"}"#,
            r#"{"formatVersion": 1, "state": "editable", "frozen": {"revision": -1, "digest": "x"}}"#,
        ] {
            let e = Meta::parse(text, "plan-x/meta.json").unwrap_err();
            assert_eq!(
                e.kind,
                crate::model::error::ErrorKind::CorruptStore,
                "{text}"
            );
            assert!(e.message.contains("plan-x/meta.json"), "{}", e.message);
        }
        // An editable plan keeps its last freeze record, or has none.
        assert!(Meta::parse(r#"{"state": "editable", "frozen": null}"#, "m").is_ok());
    }
}
