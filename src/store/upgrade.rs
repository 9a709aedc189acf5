//! Plans written by an earlier planforge keep their lifecycle in
//! `meta.json`. They are read as the ops that file stands for, and the next
//! write to the plan (or `planforge upgrade`) appends those ops for real and
//! removes `meta.json`: nothing is lost, and from then on nothing git tracks
//! can conflict.
//!
//! The ops are the same on every clone (fixed ids, times from the file), so
//! two clones that upgrade one plan append identical lines, which the fold
//! takes once.

use super::fold;
use crate::model::lifecycle::{Meta, State};
use crate::model::{Op, OpBody};

/// The actor of upgrade ops: `~` sorts after every actor name, so an upgrade
/// op placed at an op's lamport folds right after it.
const ACTOR: &str = "~upgrade";
const TX: &str = "upgrade";

/// The ops `meta` stands for, placed among `log`'s ops: the creation first;
/// a last freeze where its revision stands (with the unfreeze after it when
/// the plan is editable again); an approval at the end.
pub(super) fn ops_for(plan_id: &str, meta: &Meta, log: &[Op]) -> Vec<Op> {
    let mut sorted: Vec<&Op> = log.iter().collect();
    sorted.sort_by(|a, b| fold::order(a, b));
    let max = sorted.iter().map(|o| o.lamport).max().unwrap_or(0);
    let mut out = vec![op(
        plan_id,
        0,
        "create",
        &meta.created_at,
        OpBody::CreatePlan {
            label: meta.label.clone(),
            request: meta.request.clone(),
            provenance: meta.provenance.clone(),
        },
    )];
    if let Some(f) = &meta.frozen {
        // The lamport of the freeze's last content op (0: before any).
        let at = sorted
            .iter()
            .filter(|o| o.body.is_content())
            .nth((f.revision as usize).saturating_sub(1))
            .filter(|_| f.revision > 0)
            .map_or(0, |o| o.lamport);
        let at = if meta.state == State::Editable {
            at
        } else {
            max
        };
        out.push(op(
            plan_id,
            at,
            "freeze",
            &meta.updated_at,
            OpBody::Freeze {
                revision: f.revision,
                digest: f.digest.clone(),
            },
        ));
        if meta.state == State::Editable {
            out.push(op(
                plan_id,
                at,
                "unfreeze",
                &meta.updated_at,
                OpBody::Unfreeze,
            ));
        }
    }
    if meta.state == State::Executable
        && let Some(a) = &meta.approval
    {
        out.push(op(
            plan_id,
            max,
            "zapprove",
            &a.decided_at,
            OpBody::Approve {
                approval: a.clone(),
            },
        ));
    }
    if let Some(last) = out.last_mut() {
        last.tx_end = true;
    }
    out
}

fn op(plan_id: &str, lamport: u64, name: &str, at: &str, body: OpBody) -> Op {
    Op {
        op_id: format!("{ACTOR}:{plan_id}:{lamport}:{TX}-{name}"),
        actor_id: ACTOR.into(),
        lamport,
        at: at.into(),
        tx: TX.into(),
        tx_end: false,
        body,
    }
}
