//! Status, list, freeze, submit and import results as prose and JSON.

use super::issues;
use crate::forge::lifecycle::{Freeze, Submission};
use crate::forge::plans::{Imported, Status, Summary};
use crate::forge::present::claim_json;
use crate::model::remedy::{Remedy, Voice};
use serde_json::{Value, json};

pub(crate) fn status_text(s: &Status) -> String {
    let p = s;
    let mut out = vec![format!(
        "Plan {}: state={}, rev={}, digest={}.",
        p.plan_id, p.meta.state, p.revision, p.digest
    )];
    // A label or a name from a merged or edited log can hold any text:
    // shown escaped, so that it cannot print lines of its own.
    let esc = |t: &str| crate::model::ids::escape_controls(t).into_owned();
    if let Some(l) = &p.meta.label {
        out.push(format!("Label: {}", esc(l)));
    }
    if let Some(r) = &p.meta.request {
        out.push("Request (verbatim):".into());
        for line in r.lines() {
            out.push(format!("  | {line}"));
        }
    }
    out.push(format!("Nodes: {}, edges: {}.", p.node_count, p.edge_count));
    out.push(format!("Issues: {}.", issues::counts(&s.counts)));
    if let Some(f) = &p.meta.frozen {
        out.push(format!(
            "Last frozen at revision {} (digest {}).",
            f.revision, f.digest
        ));
    }
    if let Some(a) = &p.meta.approval {
        out.push(format!(
            "Approved by {} at {} ({} authority claim(s)).",
            esc(&a.decided_by),
            esc(&a.decided_at),
            a.authority_set.len()
        ));
    }
    if let Some(prov) = &p.meta.provenance {
        out.push(match prov {
            crate::model::Provenance::Clone {
                parent,
                parent_revision,
                ..
            } => {
                format!("Cloned from {parent} at revision {parent_revision}.")
            }
            crate::model::Provenance::Template { template, .. } => {
                format!("Instantiated from template {template}.")
            }
        });
    }
    if let Some(s) = crate::model::issue::skipped_summary(&s.skipped) {
        out.push(format!("Note: some checks were {s}."));
    }
    out.join("\n")
}

pub(crate) fn status_json(s: &Status) -> Value {
    let p = s;
    let mut m = serde_json::Map::new();
    m.insert("planId".into(), p.plan_id.clone().into());
    m.insert("state".into(), p.meta.state.as_str().into());
    m.insert("revision".into(), p.revision.into());
    m.insert("digest".into(), p.digest.clone().into());
    m.insert(
        "label".into(),
        p.meta.label.clone().map(Value::from).unwrap_or(Value::Null),
    );
    if let Some(r) = &p.meta.request {
        m.insert("request".into(), r.clone().into());
    }
    if let Some(f) = &p.meta.frozen {
        m.insert(
            "frozen".into(),
            json!({"revision": f.revision, "digest": f.digest}),
        );
    }
    if let Some(a) = &p.meta.approval {
        m.insert("approval".into(), crate::forge::present::approval_json(a));
    }
    if let Some(prov) = &p.meta.provenance {
        m.insert(
            "provenance".into(),
            crate::forge::present::provenance_json(prov),
        );
    }
    m.insert("nodeCount".into(), p.node_count.into());
    m.insert("edgeCount".into(), p.edge_count.into());
    m.insert("issues".into(), issues::counts_json(&s.counts));
    Value::Object(m)
}

pub(crate) fn list_text(plans: &[Summary], current: Option<&str>, v: &dyn Voice) -> String {
    if plans.is_empty() {
        return format!(
            "No plans in this store. Create one: {}.",
            v.say(&Remedy::CreatePlan)
        );
    }
    let w = plans
        .iter()
        .map(|p| super::width(&p.plan_id))
        .max()
        .unwrap_or(0);
    let mark = |p: &Summary| {
        if current == Some(p.plan_id.as_str()) {
            "* "
        } else {
            "  "
        }
    };
    plans
        .iter()
        .map(|p| match (&p.damaged, p.state, p.revision) {
            (None, Some(state), Some(rev)) => format!(
                "{}{:w$}  {:10}  rev {:<5}  {}",
                mark(p),
                p.plan_id,
                state.as_str(),
                rev,
                crate::model::ids::escape_controls(p.label.as_deref().unwrap_or("")),
                w = w
            )
            .trim_end()
            .to_string(),
            (why, _, _) => format!(
                "{}{:w$}  {:10}  {}",
                mark(p),
                p.plan_id,
                if p.no_log { "no op log" } else { "damaged" },
                why.as_deref().unwrap_or("it could not be read"),
                w = w
            ),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn list_json(plans: &[Summary], current: Option<&str>) -> Value {
    json!({"plans": plans.iter().map(|p| {
        let mut row = json!({
            "planId": p.plan_id, "state": p.state.map(|s| s.as_str()), "revision": p.revision,
            "label": p.label, "updatedAt": p.updated_at,
            "current": current == Some(p.plan_id.as_str()),
        });
        if let Some(why) = &p.damaged {
            row["damaged"] = why.clone().into();
        }
        if p.no_log {
            row["noOpLog"] = true.into();
        }
        row
    }).collect::<Vec<_>>()})
}

pub(crate) fn freeze_text(f: &Freeze, v: &dyn Voice) -> String {
    let head = if f.frozen && f.already {
        format!(
            "Plan {} is already reviewable (rev {}); its checks still pass.",
            f.plan_id, f.revision
        )
    } else if f.frozen {
        format!(
            "Plan {} is now reviewable (frozen at rev {}, digest {}).",
            f.plan_id, f.revision, f.digest
        )
    } else {
        format!(
            "Plan {} could not be frozen: {} blocking issue(s).",
            f.plan_id,
            f.report.counts().blocking
        )
    };
    let mut out = vec![head, issues::within_findings(&f.report.issues, v)];
    if let Some(s) = crate::model::issue::skipped_summary(&f.report.skipped) {
        out.push(format!("Note: some checks were {s}."));
    }
    out.join("\n")
}

pub(crate) fn freeze_json(f: &Freeze) -> Value {
    json!({
        "planId": f.plan_id, "frozen": f.frozen, "revision": f.revision, "digest": f.digest,
        "counts": issues::counts_json(&f.report.counts()), "issues": issues::json_list(&f.report.issues),
        "skipped": f.report.skipped.iter().map(|(c, w)| json!({"code": c, "reason": w})).collect::<Vec<_>>(),
    })
}

/// The authority lines of a submission.
pub(crate) fn authority_lines(s: &Submission) -> Vec<String> {
    let mut out = vec![format!(
        "Authority set ({} claim(s)):",
        s.authority_set.len()
    )];
    for c in &s.authority_set {
        out.push(format!(
            "  · {} / {} / {}",
            c.capability,
            c.scope,
            c.verb.as_str()
        ));
    }
    out
}

pub(crate) fn submit_text(s: &Submission, v: &dyn Voice) -> String {
    if !s.approved {
        return format!(
            "Could not freeze {} for submission.\n{}",
            s.plan_id,
            issues::within_findings(&s.report.issues, v)
        );
    }
    let mut out = vec![format!(
        "Plan {} is now executable: approved by {} at digest {}.",
        s.plan_id, s.decided_by, s.digest
    )];
    out.extend(authority_lines(s));
    out.join("\n")
}

pub(crate) fn submit_json(s: &Submission) -> Value {
    json!({
        "planId": s.plan_id, "approved": s.approved, "digest": s.digest, "revision": s.revision,
        "approval": if s.approved { json!({
            "planId": s.plan_id, "digest": s.digest,
            "authoritySet": s.authority_set.iter().map(claim_json).collect::<Vec<_>>(),
            "decidedBy": s.decided_by, "decidedAt": s.decided_at, "disposition": "approved",
        }) } else { Value::Null },
        "issues": issues::json_list(&s.report.issues),
    })
}

pub(crate) fn import_text(i: &Imported) -> String {
    let p = &i.loaded;
    let mut out = vec![format!(
        "Imported {} (editable, rev {}): {} node(s), {} edge(s).",
        p.plan_id,
        p.revision(),
        p.content().nodes.len(),
        p.content().edges.len()
    )];
    // The notes go to stderr once, as every command's notes do.
    out.push(format!("Issues: {}.", issues::counts(&i.counts)));
    out.join("\n")
}

pub(crate) fn import_json(i: &Imported) -> Value {
    let p = &i.loaded;
    json!({
        "planId": p.plan_id, "state": p.meta.state.as_str(), "revision": p.revision(), "digest": p.digest(),
        "nodeCount": p.content().nodes.len(), "edgeCount": p.content().edges.len(),
        "notes": i.notes, "issues": issues::counts_json(&i.counts),
    })
}

/// The stdout line of a refused freeze or submit whose findings are drawn
/// on stderr (`drawn` of them): how many, and where the rest are.
pub(crate) fn refused_headline(
    what: &str,
    r: &crate::model::Report,
    drawn: usize,
    v: &dyn Voice,
) -> String {
    let blocking: Vec<crate::model::Issue> = r
        .issues
        .iter()
        .filter(|i| i.is_blocking())
        .cloned()
        .collect();
    let groups = issues::groups(&blocking).len();
    if groups <= drawn {
        return format!("{what}: {} blocking issue(s), shown above.", blocking.len());
    }
    format!(
        "{what}: {} blocking issue(s) in {} group(s) by cause; the first {drawn} are shown above, and {} lists them all.",
        crate::model::text::thousands(blocking.len()),
        crate::model::text::thousands(groups),
        v.say(&crate::model::remedy::Remedy::Validate)
    )
}
