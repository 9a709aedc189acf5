//! `log`: one line per change, newest first as git prints it — revision,
//! time, actor, what it did — and the JSON form.

use crate::forge::read::log::Change;
use serde_json::{Value, json};

/// The log as text: a header naming the plan, then one line per change.
pub(crate) fn text(plan: &str, changes: &[&Change], oldest_first: bool) -> String {
    let order = if oldest_first {
        "oldest first"
    } else {
        "newest first"
    };
    let width = changes
        .iter()
        .map(|c| c.revision.to_string().len())
        .max()
        .unwrap_or(1)
        + 2;
    let actor_width = changes
        .iter()
        .map(|c| c.actor.chars().count())
        .max()
        .unwrap_or(0)
        .min(24);
    let mut out = vec![format!(
        "History of {plan}, {order} (revisions as diff and clone --at take them; a lifecycle change makes none, its revision in brackets):"
    )];
    for c in changes {
        // A lifecycle change makes no revision: its revision in brackets.
        let rev = if c.content_ops == 0 {
            format!("({})", c.revision)
        } else {
            format!("{} ", c.revision)
        };
        out.push(format!(
            "{rev:>width$}  {}  {}  {}",
            c.at,
            super::pad(&crate::model::text::cut(&c.actor, 24), actor_width),
            c.summary
        ));
    }
    out.join("\n")
}

/// The log as JSON: `{planId, changes: [{revision, revisions, actor, at,
/// tx, summary, ops, inherited}]}`, in the order printed (`inherited`: a
/// change a clone copied from its parent).
pub(crate) fn json(plan: &str, changes: &[&Change]) -> Value {
    json!({
        "planId": plan,
        "changes": changes.iter().map(|c| json!({
            "revision": c.revision,
            "revisions": c.content_ops,
            "actor": c.actor,
            "at": c.at,
            "tx": c.tx,
            "summary": c.summary,
            "ops": c.ops,
            "inherited": c.inherited,
        })).collect::<Vec<_>>(),
    })
}
