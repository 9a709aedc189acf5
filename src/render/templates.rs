//! The front operations as prose and JSON: the template list, an
//! instantiation, an authored plan, and an orchestration. Pure.

use super::issues;
use crate::forge::orchestrate::build::NO_SPAWN;
use crate::forge::present::Loaded;
use crate::forge::templates::{Instantiated, Orchestrated, TemplateSummary};
use crate::model::remedy::{Remedy, Voice};
use crate::model::{DeclaredField, FieldType};
use serde_json::{Value, json};

/// `path: type` for a param, with its bound or values.
pub(crate) fn param_text(p: &DeclaredField) -> String {
    match &p.ty {
        FieldType::Enum(vs) => format!("{}: enum ({})", p.path, vs.join("|")),
        _ => p.describe(),
    }
}

/// `Templates (<n>):` with `  · <id> — <summary>` and a `params:` line
/// each, then the refused ones with their reasons.
pub(crate) fn list_text(list: &[TemplateSummary], v: &dyn Voice) -> String {
    let (usable, refused): (Vec<&TemplateSummary>, Vec<&TemplateSummary>) =
        list.iter().partition(|t| t.usable());
    let mut out = Vec::new();
    if usable.is_empty() {
        out.push(format!(
            "No templates can be instantiated. Start from the owner's request: {}.",
            v.say(&Remedy::Author)
        ));
    } else {
        out.push(format!("Templates ({}):", usable.len()));
        for t in &usable {
            out.push(format!("  · {} — {}", t.id, t.summary));
            if t.source != "built-in" {
                out.push(format!("    from: {}", t.source));
            }
            let params: Vec<String> = t.params.iter().map(param_text).collect();
            out.push(format!(
                "    params: {}",
                if params.is_empty() {
                    "(none)".to_string()
                } else {
                    params.join(", ")
                }
            ));
            for i in &t.issues {
                out.push(format!("  {}", issues::line(i, v)));
            }
        }
    }
    if !refused.is_empty() {
        out.push(format!("Refused templates ({}):", refused.len()));
        for t in &refused {
            out.push(format!("  · {} — {}", t.id, t.source));
            if let Some(m) = &t.malformed {
                out.push(format!("    {m}"));
            }
            for i in &t.issues {
                out.push(format!("  {}", issues::line(i, v)));
            }
        }
    }
    if list.iter().any(|t| !t.registry_checked) {
        out.push("Note: the store has no registry, so `unknown_tool` was not checked.".into());
    }
    out.join("\n")
}

/// `{templates: [{id, summary, source, params, usable, issues, malformed?}]}`.
pub(crate) fn list_json(list: &[TemplateSummary]) -> Value {
    let items: Vec<Value> = list
        .iter()
        .map(|t| {
            let mut m = serde_json::Map::new();
            m.insert("id".into(), t.id.clone().into());
            m.insert("summary".into(), t.summary.clone().into());
            m.insert("source".into(), t.source.clone().into());
            m.insert(
                "params".into(),
                Value::Array(
                    t.params
                        .iter()
                        .map(crate::forge::present::param_json)
                        .collect(),
                ),
            );
            m.insert("usable".into(), t.usable().into());
            m.insert("issues".into(), issues::json_list(&t.issues));
            if let Some(x) = &t.malformed {
                m.insert("malformed".into(), x.clone().into());
            }
            Value::Object(m)
        })
        .collect();
    json!({
        "templates": items,
        "registryChecked": list.iter().all(|t| t.registry_checked),
    })
}

/// The bounded summary of an instantiation: the new plan, its args (cut at
/// 120 bytes each), its issue counts and its outline.
pub(crate) fn instantiated_text(i: &Instantiated) -> String {
    let p = &i.loaded;
    let mut out = vec![format!(
        "Instantiated plan {} from template \"{}\" (editable, rev {}): {} node(s), {} edge(s).",
        p.plan_id,
        i.template,
        p.revision(),
        p.content().nodes.len(),
        p.content().edges.len()
    )];
    if !i.args.is_empty() {
        out.push("Args:".into());
        for (k, v) in &i.args {
            out.push(format!(
                "  {k} = {}",
                crate::forge::present::compact_cut(v, 120)
            ));
        }
    }
    out.push(format!("Issues: {}.", issues::counts(&i.counts)));
    out.push(super::outline::text(&i.outline));
    out.join("\n")
}

pub(crate) fn instantiated_json(i: &Instantiated) -> Value {
    let p = &i.loaded;
    json!({
        "planId": p.plan_id,
        "template": i.template,
        "args": crate::forge::present::map_to_json(&i.args),
        "state": p.meta.state.as_str(),
        "revision": p.revision(),
        "digest": p.digest(),
        "nodeCount": p.content().nodes.len(),
        "edgeCount": p.content().edges.len(),
        "issues": issues::counts_json(&i.counts),
        "outline": super::outline::json(&i.outline),
    })
}

/// Lines and bytes of an authored request shown in the echo.
const ECHO_REQUEST_LINES: usize = 40;
const ECHO_REQUEST_BYTES: usize = 4000;

/// An authored plan: its id, label, and the request exactly as stored.
pub(crate) fn authored_text(p: &Loaded, v: &dyn Voice) -> String {
    let mut out = vec![format!(
        "Created empty plan {} (editable, rev 0), labelled \"{}\".",
        p.plan_id,
        p.meta.label.as_deref().unwrap_or("")
    )];
    if let Some(r) = &p.meta.request {
        out.push("The owner's request, kept verbatim:".into());
        // The echo stays bounded: a long request is shown in part here (the
        // plan keeps it whole).
        let mut shown = 0usize;
        for (i, l) in r.split('\n').enumerate() {
            if i == ECHO_REQUEST_LINES || shown + l.len() > ECHO_REQUEST_BYTES {
                if i < ECHO_REQUEST_LINES {
                    let cut = crate::model::text::cut(l, ECHO_REQUEST_BYTES - shown);
                    out.push(format!("  | {cut}"));
                }
                out.push(format!(
                    "  … (the request is {} bytes on {} lines in all; {} shows it whole)",
                    r.len(),
                    r.split('\n').count(),
                    v.say(&Remedy::Status)
                ));
                break;
            }
            shown += l.len();
            out.push(format!("  | {l}"));
        }
    }
    out.push(format!(
        "Next: build it (add nodes, connect them, or follow a template's shape), then freeze and submit; {} shows the request.",
        v.say(&Remedy::Status)
    ));
    out.join("\n")
}

pub(crate) fn authored_json(p: &Loaded) -> Value {
    json!({
        "planId": p.plan_id,
        "state": p.meta.state.as_str(),
        "revision": p.revision(),
        "digest": p.digest(),
        "label": p.meta.label,
        "request": p.meta.request,
    })
}

fn table(rows: &[Vec<String>]) -> Vec<String> {
    let cols = rows.first().map_or(0, Vec::len);
    let widths: Vec<usize> = (0..cols)
        .map(|c| rows.iter().map(|r| super::width(&r[c])).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|r| {
            let cells: Vec<String> = r
                .iter()
                .enumerate()
                .map(|(c, x)| {
                    if c + 1 == cols {
                        x.clone()
                    } else {
                        super::pad(x, widths[c])
                    }
                })
                .collect();
            format!("  {}", cells.join("  ").trim_end())
        })
        .collect()
}

/// The decisions of `orchestrate`: the classification table, the mechanism
/// and why, the four checks, the fallbacks taken, depth 1 and the units'
/// order.
pub(crate) fn orchestration_report(
    o: &Orchestrated,
    d: &crate::forge::orchestrate::Decomposition,
) -> String {
    let x = &o.orchestration;
    let mut out = vec!["Classification (coupling of each task):".to_string()];
    let mut rows = vec![vec![
        "task".to_string(),
        "role".into(),
        "coupling".into(),
        "from".into(),
        "needs".into(),
        "challenges".into(),
        "output".into(),
    ]];
    let dash = |v: &[String]| {
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(", ")
        }
    };
    for ((t, c), u) in d.tasks.iter().zip(&x.couplings).zip(&x.tasks) {
        rows.push(vec![
            t.name.clone(),
            t.role.clone(),
            c.coupling.name().into(),
            c.source.into(),
            dash(&t.needs),
            dash(&t.challenges),
            u.output.clone(),
        ]);
    }
    out.extend(table(&rows));
    match x.matched {
        Some(m) => out.push(format!(
            "Mechanism matched: {} (seed 003, row {}): {}.",
            m.name(),
            m.row(),
            x.why
        )),
        None => out.push(format!("Mechanism matched: none — {}.", x.why)),
    }
    out.push("Checks before spawning more than one subagent:".into());
    for c in &x.checks {
        out.push(format!("  {:<4}  {} — {}", c.status, c.name, c.detail));
    }
    for r in &x.reductions {
        out.push(format!("Fallback: {r}."));
    }
    if !x.bounds.is_empty() {
        out.push(format!(
            "Bounds raised to fit the plan: {}.",
            x.bounds
                .iter()
                .map(|(name, from, to)| format!("{name} {from} → {to}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    out.push(format!(
        "Mechanism used: {} — {}.",
        x.mechanism.name(),
        x.mechanism
            .action_for(x.tasks.iter().any(|u| u.slice.is_some()))
    ));
    out.push(format!(
        "Depth 1: only the orchestrator spawns subagents; every spawn passes `noSpawn: true`, and every role's instructions end with: \"{NO_SPAWN}\""
    ));
    if x.removed.is_empty() {
        out.push("  No role held a spawning tool.".into());
    }
    for (role, tools) in &x.removed {
        out.push(format!(
            "  Removed {} from the tools of role `{role}`.",
            tools
                .iter()
                .map(|t| format!("`{t}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    for (task, slice) in x
        .tasks
        .iter()
        .zip(&d.tasks)
        .filter_map(|(u, t)| u.slice.as_ref().map(|s| (&t.name, s)))
    {
        out.push(format!(
            "Source slice of `{task}` kept out of the plan: the run supplies it as `{}` ({} bytes, {} lines, sha256 {}).",
            slice.field, slice.bytes, slice.lines, slice.sha256
        ));
    }
    out.push(format!(
        "Units, {}: {}.",
        if x.spec.parallel() {
            "spawned in one turn, meeting at the join"
        } else {
            "one at a time, each verified before the next"
        },
        x.order.join(", ")
    ));
    out.join("\n")
}

/// The report, then the stored plan's outline (or, with `--print`, the
/// whole plan as prose).
pub(crate) fn orchestrated_text(
    o: &Orchestrated,
    d: &crate::forge::orchestrate::Decomposition,
    v: &dyn Voice,
) -> String {
    let mut out = vec![orchestration_report(o, d)];
    let counts = crate::model::Counts::of(&o.issues);
    match &o.stored {
        Some((p, outline)) => {
            out.push(format!(
                "Stored plan {} (editable, rev {}): {} node(s), {} edge(s); issues: {}.",
                p.plan_id,
                p.revision(),
                p.content().nodes.len(),
                p.content().edges.len(),
                issues::counts(&counts)
            ));
            out.push(super::outline::text(outline));
        }
        None => {
            let c = &o.orchestration.content;
            out.push(format!(
                "Plan {} (not stored): {} node(s), {} edge(s); issues: {}.",
                c.plan_id,
                c.nodes.len(),
                c.edges.len(),
                issues::counts(&counts)
            ));
            let header = super::prose::Header {
                digest: &o.digest,
                state: None,
                label: Some(&o.orchestration.label),
                request: None,
            };
            out.push(super::prose::render(
                c,
                &header,
                super::node::Audience::Model,
            ));
        }
    }
    if !o.issues.is_empty() {
        out.push(issues::list(&o.issues, v));
    }
    out.join("\n")
}

pub(crate) fn orchestrated_json(
    o: &Orchestrated,
    d: &crate::forge::orchestrate::Decomposition,
) -> Value {
    let x = &o.orchestration;
    let classification: Vec<Value> = d
        .tasks
        .iter()
        .zip(&x.couplings)
        .zip(&x.tasks)
        .map(|((t, c), u)| {
            let slice = u.slice.as_ref().map(|s| {
                json!({"runInput": s.field, "sha256": s.sha256, "bytes": s.bytes, "lines": s.lines})
            });
            json!({"task": t.name, "role": t.role, "coupling": c.coupling.name(),
                   "couplingFrom": c.source, "needs": t.needs, "challenges": t.challenges,
                   "output": u.output, "slice": slice})
        })
        .collect();
    let checks: Vec<Value> = x
        .checks
        .iter()
        .map(|c| json!({"check": c.name, "status": c.status, "detail": c.detail}))
        .collect();
    let removed: Vec<Value> = x
        .removed
        .iter()
        .map(|(role, tools)| json!({"role": role, "tools": tools}))
        .collect();
    let mut m = serde_json::Map::new();
    m.insert("planId".into(), x.content.plan_id.clone().into());
    m.insert("stored".into(), o.stored.is_some().into());
    m.insert("classification".into(), Value::Array(classification));
    m.insert(
        "matched".into(),
        match x.matched {
            Some(mm) => json!({"mechanism": mm.name(), "row": mm.row()}),
            None => Value::Null,
        },
    );
    m.insert("why".into(), x.why.clone().into());
    m.insert("checks".into(), Value::Array(checks));
    m.insert("reductions".into(), json!(x.reductions));
    m.insert(
        "boundsRaised".into(),
        Value::Array(
            x.bounds
                .iter()
                .map(|(name, from, to)| json!({"bound": name, "default": from, "value": to}))
                .collect(),
        ),
    );
    m.insert("mechanism".into(), x.mechanism.name().into());
    m.insert(
        "depth".into(),
        json!({"noSpawnLine": NO_SPAWN, "noSpawnArg": true, "removed": removed}),
    );
    m.insert("order".into(), json!(x.order));
    m.insert("digest".into(), o.digest.clone().into());
    m.insert(
        "issues".into(),
        issues::counts_json(&crate::model::Counts::of(&o.issues)),
    );
    match &o.stored {
        Some((p, outline)) => {
            m.insert("revision".into(), p.revision().into());
            m.insert("outline".into(), super::outline::json(outline));
        }
        None => {
            m.insert(
                "plan".into(),
                crate::forge::present::document_json(&x.content, Some(&x.label), None, None),
            );
        }
    }
    Value::Object(m)
}
