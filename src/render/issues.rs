//! Issue lists: `  · (<severity>) <code> [node X]: <message>`.

use crate::model::Counts;
use crate::model::Issue;
use crate::model::remedy::Voice;
use serde_json::{Value, json};

/// One issue line, and under it its fixes in the reader's words.
pub(crate) fn line(i: &Issue, v: &dyn Voice) -> String {
    let mut s = i.line();
    if !i.fixes.is_empty() {
        s.push_str("\n      fix: ");
        s.push_str(&v.fixes(&i.fixes));
    }
    s
}

/// `No issues.` or `Issues (<n>):` followed by one line each.
pub(crate) fn list(issues: &[Issue], v: &dyn Voice) -> String {
    if issues.is_empty() {
        return "No issues.".into();
    }
    let mut out = format!("Issues ({}):", issues.len());
    for i in issues {
        out.push('\n');
        out.push_str(&line(i, v));
    }
    out
}

/// `3 blocking, 1 advisory`.
pub(crate) fn counts(c: &Counts) -> String {
    format!("{} blocking, {} advisory", c.blocking, c.advisory)
}

pub(crate) fn counts_json(c: &Counts) -> Value {
    json!({"blocking": c.blocking, "advisory": c.advisory})
}

/// An issue as JSON (`{code, severity, message, nodeId?, edgeId?, pointer?}`).
pub(crate) fn json(i: &Issue) -> Value {
    crate::forge::present::issue_json(i)
}

pub(crate) fn json_list(issues: &[Issue]) -> Value {
    Value::Array(issues.iter().map(json).collect())
}
