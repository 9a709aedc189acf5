use crate::cli::{Reply, Session};
use crate::model::error::Result;

use clap::Args;
use serde_json::json;

/// Bring every plan of the store to the current format now.
///
/// Bring the store to the current format at once: each plan that an earlier
/// planforge wrote keeps its lifecycle in `meta.json`; upgrade writes it into
/// the plan's log as ops (losing nothing) and removes `meta.json`, removes
/// unfinished transactions, and marks the store (`.planforge`). Plans are
/// otherwise upgraded on their next write; run this once and commit, so
/// that every clone reads the same files. A plan that is current is not
/// touched.
#[derive(Args, Debug, Clone)]
pub(crate) struct UpgradeArgs {}

pub(crate) fn run(s: &mut Session, _a: UpgradeArgs) -> Result<Reply> {
    let done = s.forge()?.upgrade_store()?;
    let mut lines = Vec::new();
    let mut rows = Vec::new();
    for (id, r) in &done.plans {
        match r {
            Ok(u) if u.meta_ops == 0 && u.unfinished == 0 => {
                rows.push(json!({"planId": id, "upgraded": false}));
            }
            Ok(u) => {
                let mut what = Vec::new();
                if u.meta_ops > 0 {
                    what.push(format!("moved meta.json into the log ({} ops)", u.meta_ops));
                }
                if u.unfinished > 0 {
                    what.push(format!(
                        "removed {} ops of unfinished transactions",
                        u.unfinished
                    ));
                }
                lines.push(format!("  {id}: {}", what.join("; ")));
                rows.push(json!({"planId": id, "upgraded": true,
                    "lifecycleOps": u.meta_ops, "unfinishedOpsRemoved": u.unfinished}));
            }
            Err(e) => {
                lines.push(format!("  {id}: not upgraded: {}", e.message));
                rows.push(json!({"planId": id, "upgraded": false, "error": {
                    "code": e.kind.code(), "message": e.message}}));
            }
        }
    }
    let changed = rows.iter().filter(|r| r["upgraded"] == true).count();
    let mut text = match (changed, done.marked) {
        (0, false) => format!(
            "The store {} is current; nothing was written.",
            s.store_path().display()
        ),
        _ => format!(
            "Upgraded {changed} of {} plans{}.",
            done.plans.len(),
            if done.marked {
                " and marked the store (.planforge)"
            } else {
                ""
            }
        ),
    };
    for l in &lines {
        text.push('\n');
        text.push_str(l);
    }
    let mut reply = Reply::new(
        text,
        json!({"marked": done.marked, "plans": rows, "complete": done.complete()}),
    );
    if !done.complete() {
        reply.exit = 3;
    }
    Ok(reply)
}
