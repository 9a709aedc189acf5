//! `log`: a plan's history one change (transaction) per line, in fold
//! order, each with the revision it leads to, who made it, when, and what it
//! did in words ("added call node `fetch`"). The revisions are the ones
//! `diff`, `raw --rev` and `clone --at` take.

use crate::forge::Forge;
use crate::model::error::Result;
use crate::model::{Op, OpBody};

/// One change: the ops of one transaction.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Change {
    /// The revision after it (for a lifecycle change, the revision it was
    /// made at).
    pub(crate) revision: u64,
    /// How many revisions it made (content ops).
    pub(crate) content_ops: u64,
    pub(crate) actor: String,
    pub(crate) at: String,
    pub(crate) tx: String,
    /// What it did, in words.
    pub(crate) summary: String,
    /// Its op kinds, in order.
    pub(crate) ops: Vec<&'static str>,
    /// Copied from the parent when this plan was cloned: part of its
    /// history (its revisions count), not its own to undo.
    pub(crate) inherited: bool,
}

/// The most op summaries one change lists before counting the rest.
const MAX_PARTS: usize = 3;

/// One op in words.
fn op_words(body: &OpBody) -> String {
    match body {
        OpBody::AddNode { node } => format!("added {} node `{}`", node.kind, node.id),
        OpBody::ReplaceNode { node } => format!("replaced {} node `{}`", node.kind, node.id),
        OpBody::RemoveNode {
            node_id,
            incident_edge_ids,
        } => match incident_edge_ids.len() {
            0 => format!("removed node `{node_id}`"),
            n => format!("removed node `{node_id}` and its {n} edge(s)"),
        },
        OpBody::SetNodeField { node_id, path, .. } => format!("set `{path}` of `{node_id}`"),
        OpBody::SetNodeDefinition { node_id, .. } => {
            format!("replaced the definition of `{node_id}`")
        }
        OpBody::SetNodePhase { node_id, phase } => match phase {
            Some(p) => format!("moved `{node_id}` to phase `{p}`"),
            None => format!("made `{node_id}` unphased"),
        },
        OpBody::AddEdge { edge } => format!(
            "connected `{}` → `{}` on `{}` (edge `{}`)",
            edge.from, edge.to, edge.handle, edge.id
        ),
        OpBody::RemoveEdge { edge_id } => format!("disconnected edge `{edge_id}`"),
        OpBody::SetBounds { .. } => "changed the bounds".into(),
        OpBody::CreatePlan { label, .. } => match label {
            Some(l) => format!("created the plan, labelled {l:?}"),
            None => "created the plan".into(),
        },
        OpBody::SetLabel { label } => match label {
            Some(l) => format!("labelled the plan {l:?}"),
            None => "removed the plan's label".into(),
        },
        OpBody::Freeze { revision, .. } => format!("froze the plan at revision {revision}"),
        OpBody::Unfreeze => "unfroze the plan".into(),
        OpBody::Approve { approval } => format!(
            "approved the plan (decided by {}, {} authority claim(s))",
            approval.decided_by,
            approval.authority_set.len()
        ),
    }
}

/// A transaction in words: its ops' words, the first few, then a count;
/// an undo or a redo says so.
fn summary(tx: &str, ops: &[&Op]) -> String {
    let mut parts: Vec<String> = ops
        .iter()
        .take(MAX_PARTS)
        .map(|o| op_words(&o.body))
        .collect();
    if ops.len() > MAX_PARTS {
        parts.push(format!("{} more op(s)", ops.len() - MAX_PARTS));
    }
    let what = parts.join("; ");
    if crate::forge::undo::log::is_undo(tx) {
        format!("undo: {what}")
    } else if crate::forge::undo::log::is_redo(tx) {
        format!("redo: {what}")
    } else {
        what
    }
}

/// A clone's history as git keeps it: the parent's changes up to the clone
/// point (marked inherited, their revisions as they were), then the clone's
/// creation, worded "cloned from PARENT at revision R", at that point rather
/// than before everything, then the clone's own changes.
fn cloned_at(
    out: &mut Vec<Change>,
    copied: &std::collections::HashSet<(&str, &str)>,
    parent: &str,
    at: u64,
) {
    for c in out.iter_mut() {
        c.inherited = copied.contains(&(c.actor.as_str(), c.tx.as_str()));
    }
    let Some(i) = out.iter().position(|c| c.ops.contains(&"create_plan")) else {
        return;
    };
    let mut created = out.remove(i);
    created.revision = at;
    created.summary = format!(
        "cloned from {parent} at revision {at} (the changes before are {parent}'s, copied)"
    );
    let after = out.iter().rposition(|c| c.inherited).map_or(0, |p| p + 1);
    out.insert(after.max(i), created);
}

/// The changes of `ops` (in fold order), oldest first.
pub(crate) fn changes(ops: &[Op]) -> Vec<Change> {
    let mut out = Vec::new();
    let mut revision = 0u64;
    let mut i = 0;
    while i < ops.len() {
        // A transaction is one actor's ops with one tx id, one after the
        // other (two actors that spell the same tx id made two changes).
        let (tx, actor) = (&ops[i].tx, &ops[i].actor_id);
        let mut j = i;
        while j < ops.len() && ops[j].tx == *tx && ops[j].actor_id == *actor {
            j += 1;
        }
        let group: Vec<&Op> = ops[i..j].iter().collect();
        let content_ops = group.iter().filter(|o| o.body.is_content()).count() as u64;
        revision += content_ops;
        out.push(Change {
            revision,
            content_ops,
            actor: group[0].actor_id.to_string(),
            at: group[0].at.to_string(),
            tx: tx.to_string(),
            summary: summary(tx, &group),
            ops: group.iter().map(|o| o.body.kind()).collect(),
            inherited: false,
        });
        i = j;
    }
    out
}

impl Forge {
    /// The plan's changes, oldest first.
    pub(crate) fn log(&self, plan: &str) -> Result<Vec<Change>> {
        let loaded = self.store().load_with_ops(plan)?;
        let mut ops = loaded.ops()?.to_vec();
        crate::store::fold::sort_ops(&mut ops);
        let mut out = changes(&ops);
        if let Some(crate::model::Provenance::Clone {
            parent,
            parent_revision,
            ..
        }) = &loaded.meta.provenance
        {
            let own = crate::forge::undo::inherited(&loaded);
            let copied: std::collections::HashSet<(&str, &str)> = loaded.ops()?[..own]
                .iter()
                .filter(|o| o.body.is_content())
                .map(|o| (o.actor_id.as_str(), o.tx.as_str()))
                .collect();
            cloned_at(&mut out, &copied, parent, *parent_revision);
        }
        Ok(out)
    }
}
