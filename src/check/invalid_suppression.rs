//! Complexity: O(s) over the suppressions written on nodes.

use crate::model::Issue;
use crate::model::remedy::{Fill, Remedy};
use crate::model::shape::SUPPRESS;
use crate::model::{Node, Value};

declare_check! {
    /// ## What it finds
    /// An inline suppression that cannot mean anything: an entry of a
    /// node's `suppress` list whose `code` is not an issue code, whose
    /// `reason` is empty, whose code the node already suppresses, or whose
    /// code is `invalid_suppression` itself (which cannot be suppressed:
    /// the reason a suppression requires would be suppressed away). (A
    /// missing `code` or `reason`, or one that is not a string, is a
    /// `missing_field` or `unknown_field` finding like any other.)
    ///
    /// ## Why it matters
    /// A suppression hides a finding from `validate`, so it must say what
    /// it hides and why: a reviewer reads the reason instead of the finding.
    /// A misspelt code hides nothing and leaves the author believing the
    /// finding is handled; a suppression without a reason is a finding
    /// silenced with no record of the decision.
    ///
    /// ## How to fix
    /// Name a real code (the message gives the nearest) and write why the finding does not apply to this
    /// node, or remove the entry.
    ///
    /// ## Example
    /// ```json
    /// {"id": "notify", "kind": "call", "definition": {"tool": "chat_post", "…": "…",
    ///   "suppress": [{"code": "unknown_tol", "reason": ""}]}}
    /// ```
    /// Fixed: `"suppress": [{"code": "unknown_tool", "reason": "chat_post is registered by the deploy job"}]`.
    pub InvalidSuppression { code: "invalid_suppression", severity: Blocking, needs: NOTHING, source: Check, scope: Node }
    fn run(cx, out) {
        // Every node, a repeated id's too (an incremental run then checks
        // every node: see `incremental::run`).
        for (_, n) in cx.nodes() {
            check_node(n, out);
        }
    }
}

/// The entries of `n`'s `suppress` list that are well-formed objects:
/// `(index, code, reason)`.
pub(crate) fn entries(n: &Node) -> impl Iterator<Item = (usize, &str, &str)> {
    n.definition
        .get(SUPPRESS)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .filter_map(|(i, e)| {
            let m = e.as_object()?;
            Some((i, m.get("code")?.as_str()?, m.get("reason")?.as_str()?))
        })
}

/// Whether an entry can suppress anything: a real code other than
/// `invalid_suppression`, and a reason.
pub(crate) fn is_valid(code: &str, reason: &str) -> bool {
    is_suppressible(code) && !reason.trim().is_empty()
}

/// Whether findings of `code` can be suppressed: a real code, and not
/// `invalid_suppression` (a suppression's missing reason is never hidden).
pub(crate) fn is_suppressible(code: &str) -> bool {
    super::by_code(code).is_some() && code != CODE.name
}

fn check_node(n: &Node, out: &mut Vec<Issue>) {
    let mut seen: Vec<&str> = Vec::new();
    for (i, code, reason) in entries(n) {
        let at = format!("/definition/{SUPPRESS}/{i}");
        if super::by_code(code).is_none() {
            let codes = super::CHECKS.iter().map(|c| c.code().name);
            let near = crate::model::suggest::closest(code, codes.clone());
            let value = match near {
                Some(c) => Fill::Value(Value::String(c.into())),
                None => Fill::choose("an issue code"),
            };
            out.push(
                Issue::new(
                    CODE,
                    format!(
                        "node `{}` suppresses `{}`, which is not an issue code{}; it suppresses nothing",
                        n.id,
                        crate::model::ids::quote_id(code),
                        crate::model::suggest::did_you_mean(code, codes)
                    ),
                )
                .node(n.id.clone())
                .at(format!("{at}/code"))
                .fix(Remedy::SetField {
                    node: n.id.to_string(),
                    path: format!("{SUPPRESS}.{i}.code"),
                    value,
                }),
            );
        } else if code == CODE.name {
            out.push(
                Issue::new(
                    CODE,
                    format!(
                        "node `{}` suppresses `{code}`, which cannot be suppressed (a suppression must say why); remove this entry and fix the entry it would hide",
                        n.id
                    ),
                )
                .node(n.id.clone())
                .at(format!("{at}/code")),
            );
        } else if reason.trim().is_empty() {
            out.push(
                Issue::new(
                    CODE,
                    format!(
                        "node `{}` suppresses `{code}` without a reason; write why the finding does not apply here",
                        n.id
                    ),
                )
                .node(n.id.clone())
                .at(format!("{at}/reason"))
                .fix(Remedy::SetField {
                    node: n.id.to_string(),
                    path: format!("{SUPPRESS}.{i}.reason"),
                    value: Fill::choose("why the finding does not apply"),
                }),
            );
        } else if seen.contains(&code) {
            out.push(
                Issue::new(
                    CODE,
                    format!("node `{}` suppresses `{code}` twice; keep one entry", n.id),
                )
                .node(n.id.clone())
                .at(at),
            );
        }
        seen.push(code);
    }
}

#[cfg(test)]
mod tests {
    use super::InvalidSuppression;
    use crate::check::testing::*;
    use serde_json::json;

    fn with(suppress: serde_json::Value) -> crate::model::Content {
        let n = node(
            "a",
            crate::model::NodeKind::Join,
            json!({ "suppress": suppress }),
        );
        plan(
            vec![entry("start"), n],
            vec![edge("e1", "start", "a", "always")],
        )
    }

    #[test]
    fn fires_on_unknown_codes_empty_reasons_and_repeats() {
        let issues = run_one(
            &InvalidSuppression,
            &with(json!([
                {"code": "unknown_tol", "reason": "x"},
                {"code": "cycle", "reason": "  "},
                {"code": "no_entry", "reason": "r"},
                {"code": "no_entry", "reason": "r"}
            ])),
        );
        assert_eq!(issues.len(), 3, "{issues:?}");
        assert!(
            issues[0].message.contains("did you mean `unknown_tool`"),
            "{}",
            issues[0].message
        );
        assert_eq!(
            issues[0].pointer.as_deref(),
            Some("/definition/suppress/0/code")
        );
        assert_eq!(
            issues[1].pointer.as_deref(),
            Some("/definition/suppress/1/reason")
        );
        assert_eq!(issues[2].pointer.as_deref(), Some("/definition/suppress/3"));
    }

    #[test]
    fn fires_on_a_suppression_of_itself_and_it_hides_nothing() {
        let content = with(json!([
            {"code": "unknown_tool", "reason": ""},
            {"code": "invalid_suppression", "reason": "the reason is elsewhere"}
        ]));
        let issues = run_one(&InvalidSuppression, &content);
        assert_eq!(issues.len(), 2, "{issues:?}");
        assert!(
            issues[1].message.contains("cannot be suppressed"),
            "{}",
            issues[1].message
        );
        assert_eq!(
            issues[1].pointer.as_deref(),
            Some("/definition/suppress/1/code")
        );
        // Applied as validate applies suppressions: both findings stay.
        let mut report = crate::model::issue::Report {
            issues,
            skipped: Vec::new(),
        };
        assert_eq!(
            super::super::unused_suppression::apply(&content, &mut report, |_| true),
            0
        );
        assert_eq!(
            report
                .issues
                .iter()
                .filter(|i| i.code.name == "invalid_suppression")
                .count(),
            2
        );
    }

    #[test]
    fn passes_on_a_known_code_with_a_reason() {
        let issues = run_one(
            &InvalidSuppression,
            &with(json!([{"code": "unknown_tool", "reason": "registered at deploy"}])),
        );
        assert!(issues.is_empty(), "{issues:?}");
    }
}
