//! The fixes of a finding that are data, as edits of the document's text:
//! set a definition field (a reference renamed to the did-you-mean id, a
//! `select` added), move an edge to the suggested handle, connect an edge
//! that names no node to the one meant (its endpoint renamed to the
//! did-you-mean id), set a phase; and,
//! for any finding on a node, a suppression of its code on that node.
//!
//! A reference without `select` does not read as a plan at all (an input
//! error, `invalid_document`), so its fix is made here, from the text: the
//! same reference with `select` set, as a `SetField` remedy like any other.

use super::edits::{Edit, push_item, set_member};
use super::shape::Shape;
use super::{Doc, Syntax};
use crate::forge::validate::Finding;
use crate::model::remedy::{Fill, Fix, Pick, Remedy};
use crate::model::{Ref, Select, Value};
use crate::wire::span::{SpanIndex, escape_token, tokens};

/// A fix and the edits that carry it out.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Action {
    pub(crate) fix: Fix,
    pub(crate) edits: Vec<Edit>,
    /// The finding's first fix: the one to apply without asking.
    pub(crate) preferred: bool,
    /// What the edits do when they are not what the fix says: a `Connect`
    /// carried out on the dangling edge itself (its id, and each endpoint
    /// set with the node it now names), not by adding an edge.
    pub(crate) sets_endpoints: Option<(String, Vec<(&'static str, String)>)>,
}

/// A suppression of a finding's code on its node: the node, the code, and
/// the edits that add `{"code": …, "reason": ""}` to the node definition's
/// `suppress` list. The reason is left empty for the author to write (a
/// suppression requires one). When the node already has an entry for the
/// code, there are no edits and `existing` is that entry's reason (or the
/// entry, when it has no reason): the place to write it, not a second entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Suppression {
    pub(crate) node: String,
    pub(crate) code: &'static str,
    pub(crate) edits: Vec<Edit>,
    pub(crate) existing: Option<crate::wire::span::Span>,
}

/// The key of a node definition's suppressions.
pub(crate) const SUPPRESS_KEY: &str = "suppress";

/// What can be done about one finding.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Fixes {
    pub(crate) actions: Vec<Action>,
    pub(crate) suppression: Option<Suppression>,
}

impl Doc {
    /// The fixes of each finding (in their order): those that can be
    /// carried out as edits, and a suppression when the finding is about a
    /// node the document has. The text is read once for all of them.
    pub(crate) fn fixes(&self, findings: &[&Finding]) -> Vec<Fixes> {
        let Some(read) = self.read() else {
            return findings
                .iter()
                .map(|_| Fixes {
                    actions: Vec::new(),
                    suppression: None,
                })
                .collect();
        };
        let (idx, shape) = (read.index.index(), read.shape());
        findings
            .iter()
            .map(|f| Fixes {
                actions: actions(&idx, self.syntax, shape, f),
                suppression: suppression(&idx, self.syntax, shape, f),
            })
            .collect()
    }

    /// The fixes of one finding.
    #[cfg(test)]
    pub(crate) fn fixes_of(&self, finding: &Finding) -> Fixes {
        self.fixes(&[finding]).remove(0)
    }
}

/// The finding's fixes that can be carried out as edits, in the finding's
/// order.
fn actions(idx: &SpanIndex, syntax: Syntax, shape: &Shape, finding: &Finding) -> Vec<Action> {
    let mut fixes = finding.issue.fixes.clone();
    if fixes.is_empty() {
        fixes = input_fixes(idx, shape, finding);
    }
    fixes
        .into_iter()
        .enumerate()
        .filter_map(|(i, fix)| {
            let (edits, sets_endpoints) = match edits_for(idx, syntax, shape, &fix.remedy) {
                Some(e) => (e, None),
                None => {
                    let (e, sets) = reconnect(idx, syntax, shape, finding, &fix.remedy)?;
                    (e, Some(sets))
                }
            };
            Some(Action {
                fix,
                edits,
                preferred: i == 0,
                sets_endpoints,
            })
        })
        .collect()
}

/// A suppression of the finding's code on its node.
fn suppression(
    idx: &SpanIndex,
    syntax: Syntax,
    shape: &Shape,
    finding: &Finding,
) -> Option<Suppression> {
    let code = finding.issue.code.name;
    // validate never lets `invalid_suppression` be suppressed.
    if !crate::check::invalid_suppression::is_suppressible(code) {
        return None;
    }
    let node = finding.issue.node_id.clone()?;
    let at = format!("/nodes/{}/definition", shape.node(&node)?.index);
    let entry = format!(
        "{{\"code\": {}, \"reason\": \"\"}}",
        serde_json::to_string(code).expect("strings always serialise")
    );
    let list = format!("{at}/{SUPPRESS_KEY}");
    let items = idx.items(&list).unwrap_or_default();
    let same = (0..items.len())
        .find(|i| idx.string_at(&format!("{list}/{i}/code")).as_deref() == Some(code));
    if let Some(i) = same {
        let reason = idx.find(&format!("{list}/{i}/reason"));
        return Some(Suppression {
            node,
            code,
            edits: Vec::new(),
            existing: Some(reason.unwrap_or(items[i])),
        });
    }
    let edit = match idx.items(&list) {
        Some(_) => push_item(idx, &list, &entry)?,
        None => set_member(idx, syntax, &at, SUPPRESS_KEY, &format!("[{entry}]"))?,
    };
    Some(Suppression {
        node,
        code,
        edits: vec![edit],
        existing: None,
    })
}

/// The edits a remedy makes, when it is an edit of the text.
fn edits_for(idx: &SpanIndex, syntax: Syntax, shape: &Shape, r: &Remedy) -> Option<Vec<Edit>> {
    let json = |v: &serde_json::Value| serde_json::to_string(v).expect("JSON always serialises");
    match r {
        Remedy::SetField {
            node,
            path,
            value: Fill::Value(v),
        }
        | Remedy::AddField {
            node,
            path,
            value: Fill::Value(v),
        } => {
            let mut at = format!("/nodes/{}/definition", shape.node(node)?.index);
            for t in path.split('.') {
                at.push('/');
                at.push_str(&escape_token(t));
            }
            if let Value::Ref(r) = v
                && idx.members(&format!("{at}/$ref")).is_some()
            {
                return ref_edits(idx, syntax, &format!("{at}/$ref"), r);
            }
            let text = json(&crate::wire::convert::to_json(v));
            let (parent, last) = at.rsplit_once('/')?;
            let last = tokens(&format!("/{last}"))?.pop()?;
            Some(vec![set_member(idx, syntax, parent, &last, &text)?])
        }
        Remedy::ChangeHandle { edge, handle, .. } => {
            let e = shape
                .edges
                .iter()
                .rev()
                .find(|e| e.id.as_deref() == Some(edge.as_str()))?;
            let text = json(&serde_json::Value::String(handle.clone()));
            Some(vec![set_member(
                idx,
                syntax,
                &format!("/edges/{}", e.index),
                "handle",
                &text,
            )?])
        }
        Remedy::Retarget {
            edge,
            to: Pick::Id(to),
            ..
        } => {
            let e = shape
                .edges
                .iter()
                .rev()
                .find(|e| e.id.as_deref() == Some(edge.as_str()))?;
            let text = json(&serde_json::Value::String(to.clone()));
            Some(vec![set_member(
                idx,
                syntax,
                &format!("/edges/{}", e.index),
                "to",
                &text,
            )?])
        }
        Remedy::SetPhase {
            node,
            phase: Some(Fill::Value(Value::String(p))),
        } => {
            let text = json(&serde_json::Value::String(p.to_string()));
            let at = format!("/nodes/{}", shape.node(node)?.index);
            Some(vec![set_member(idx, syntax, &at, "phase", &text)?])
        }
        _ => None,
    }
}

/// A `Connect` fix of a finding on an edge whose endpoint names no node of
/// the document (`dangling_edge`: the fold dropped it): the edge itself,
/// with that endpoint set to the node the fix connects (the other one
/// stays), and the edge's id with the endpoints set. Any other `Connect`
/// adds an edge, which is no edit of a text.
#[allow(clippy::type_complexity)]
fn reconnect(
    idx: &SpanIndex,
    syntax: Syntax,
    shape: &Shape,
    finding: &Finding,
    r: &Remedy,
) -> Option<(Vec<Edit>, (String, Vec<(&'static str, String)>))> {
    let Remedy::Connect {
        from: Pick::Id(from),
        to: Pick::Id(to),
        ..
    } = r
    else {
        return None;
    };
    let id = finding.issue.edge_id.as_deref()?;
    let e = shape
        .edges
        .iter()
        .rev()
        .find(|e| e.id.as_deref() == Some(id))?;
    let at = format!("/edges/{}", e.index);
    let mut out = Vec::new();
    let mut sets = Vec::new();
    for (key, want, now) in [("from", from, &e.from), ("to", to, &e.to)] {
        let (have, span) = now.as_ref()?;
        if have == want {
            continue;
        }
        // Only an endpoint that names no node is renamed.
        if shape.node(have).is_some() {
            return None;
        }
        let like = &idx.text()[span.start..span.end];
        out.push(set_member(
            idx,
            syntax,
            &at,
            key,
            &super::quoted(want, syntax, like),
        )?);
        sets.push((key, want.clone()));
    }
    (!out.is_empty()).then(|| (out, (id.to_string(), sets)))
}

/// The members of the reference at `at` (a `$ref` object) that differ from
/// `r`, set; the rest of the text is left as it is.
fn ref_edits(idx: &SpanIndex, syntax: Syntax, at: &str, r: &Ref) -> Option<Vec<Edit>> {
    let wire = crate::wire::convert::to_json(&Value::Ref(Box::new(r.clone())));
    let inner = wire.get("$ref")?.as_object()?;
    let mut out = Vec::new();
    for (k, v) in inner {
        let same = match v {
            serde_json::Value::String(s) => {
                idx.string_at(&format!("{at}/{}", escape_token(k))).as_ref() == Some(s)
            }
            _ => false,
        };
        if !same {
            let text = serde_json::to_string(v).expect("JSON always serialises");
            out.push(set_member(idx, syntax, at, k, &text)?);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Fixes for an input error the reader gives none for: a reference that
/// lacks `select` gets it (`first`, `last` or `all`).
fn input_fixes(idx: &SpanIndex, shape: &Shape, finding: &Finding) -> Vec<Fix> {
    let Some(p) = &finding.issue.pointer else {
        return Vec::new();
    };
    let at = if p.ends_with("/$ref") {
        p.clone()
    } else {
        format!("{p}/$ref")
    };
    let Some(members) = idx.members(&at) else {
        return Vec::new();
    };
    if members.iter().any(|(k, _, _)| k == "select") {
        return Vec::new();
    }
    let t = tokens(&at).unwrap_or_default();
    let (Some("nodes"), Some(i), Some("definition")) = (
        t.first().map(String::as_str),
        t.get(1).and_then(|i| i.parse::<usize>().ok()),
        t.get(2).map(String::as_str),
    ) else {
        return Vec::new();
    };
    let (Some(holder), Some(target)) = (
        shape.nodes.get(i).and_then(|n| n.id.clone()),
        idx.string_at(&format!("{at}/node")),
    ) else {
        return Vec::new();
    };
    let field = t[3..t.len() - 1].join(".");
    [
        (Select::First, "to read its first execution"),
        (Select::Last, "to read its last execution"),
        (Select::All, "to read every execution, as a list"),
    ]
    .into_iter()
    .map(|(select, when)| {
        let mut r = Ref::new(target.clone());
        r.select = select;
        r.path = idx.string_at(&format!("{at}/path"));
        Remedy::SetField {
            node: holder.clone(),
            path: field.clone(),
            value: Fill::Value(Value::Ref(Box::new(r))),
        }
        .when(when)
    })
    .collect()
}
