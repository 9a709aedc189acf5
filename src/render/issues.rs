//! Issue lists: `  · (<severity>) <code> [node X]: <message>`.

use crate::model::Counts;
use crate::model::Issue;
use crate::model::remedy::{Remedy, Voice};
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

/// Findings that follow from one cause, shown as one.
pub(crate) struct Group<'a> {
    pub(crate) head: &'a Issue,
    /// The findings that follow from `head`, directly or not.
    pub(crate) follow: Vec<&'a Issue>,
}

/// The issues as groups (`Issue::cause`), blocking groups first, else in
/// list order. A finding whose cause is not in the list heads its own.
pub(crate) fn groups(issues: &[Issue]) -> Vec<Group<'_>> {
    group_indices(issues.len(), |k| &issues[k])
        .into_iter()
        .map(|(h, follow)| Group {
            head: &issues[h],
            follow: follow.into_iter().map(|k| &issues[k]).collect(),
        })
        .collect()
}

/// [`groups`] over any list that holds issues: each head's index with the
/// indices of the findings that follow from it.
pub(crate) fn group_indices<'a>(
    len: usize,
    issue: impl Fn(usize) -> &'a Issue,
) -> Vec<(usize, Vec<usize>)> {
    use crate::model::Cause;
    use std::collections::HashMap;
    let mut at: HashMap<Cause, usize> = HashMap::with_capacity(len);
    for k in 0..len {
        at.entry(Cause::of(issue(k))).or_insert(k);
    }
    // The head of each finding: follow causes up (a chain is short; the
    // bound guards against a cycle of causes in edited input).
    let head_of = |mut k: usize| {
        for _ in 0..8 {
            match issue(k).cause.as_ref().and_then(|c| at.get(c)) {
                Some(&up) if up != k => k = up,
                _ => break,
            }
        }
        k
    };
    let mut slot: HashMap<usize, usize> = HashMap::new();
    let mut out: Vec<(usize, Vec<usize>)> = Vec::new();
    for k in 0..len {
        let h = head_of(k);
        let g = *slot.entry(h).or_insert_with(|| {
            out.push((h, Vec::new()));
            out.len() - 1
        });
        if h != k {
            out[g].1.push(k);
        }
    }
    out.sort_by_key(|(h, _)| !issue(*h).is_blocking());
    out
}

/// `and 5,997 findings follow from it (2,998 unreachable_node, …)`.
pub(crate) fn follow_line(follow: &[&Issue]) -> Option<String> {
    if follow.is_empty() {
        return None;
    }
    Some(format!(
        "      and {} more finding(s) follow from it: {}",
        crate::model::text::thousands(follow.len()),
        code_counts(follow)
    ))
}

/// `missing_arg, 3 missing_field, 2 unreachable_call`: the codes of
/// `issues` in order of first appearance, counted (at most 8 named).
pub(crate) fn code_counts(issues: &[&Issue]) -> String {
    let mut by_code: Vec<(&str, usize)> = Vec::new();
    for i in issues {
        match by_code.iter().position(|(c, _)| *c == i.code.name) {
            Some(k) => by_code[k].1 += 1,
            None if by_code.len() < 64 => by_code.push((i.code.name, 1)),
            None => {}
        }
    }
    let mut parts: Vec<String> = by_code
        .iter()
        .take(8)
        .map(|(c, n)| match n {
            1 => c.to_string(),
            _ => format!("{} {c}", crate::model::text::thousands(*n)),
        })
        .collect();
    if by_code.len() > 8 {
        parts.push(format!("{} other code(s)", by_code.len() - 8));
    }
    parts.join(", ")
}

/// The lines of one group: its head (the problem statement cut to
/// `budget::MESSAGE`, the fix whole) and what follows from it.
pub(crate) fn group_lines(g: &Group, v: &dyn Voice) -> String {
    let mut head = g.head.clone();
    head.message = crate::model::text::cut(&head.message, crate::model::budget::MESSAGE);
    let mut s = line(&head, v);
    if let Some(f) = follow_line(&g.follow) {
        s.push('\n');
        s.push_str(&f);
    }
    s
}

/// A first group larger than the answer's budget: a fix is never cut (a cut
/// one would be a different fix), so its fixes are named by how to read them
/// whole (`needed`: the group's size). Only data quoted whole in a fix (a
/// 30,000-character tool name) makes a group this large.
fn fixes_named(g: &Group, v: &dyn Voice, needed: usize) -> String {
    let mut head = g.head.clone();
    head.message = crate::model::text::cut(&head.message, crate::model::budget::MESSAGE);
    let whole = Remedy::ValidateWithin {
        max_bytes: (needed + 1024).min(crate::model::budget::CEILING) as u64,
    };
    let mut s = head.line();
    s.push_str(&format!(
        "\n      fix: {} fix(es) too large for this answer ({} bytes); {} shows them whole",
        head.fixes.len(),
        crate::model::text::thousands(needed),
        v.say(&whole)
    ));
    if let Some(f) = follow_line(&g.follow) {
        s.push('\n');
        s.push_str(&f);
    }
    s
}

/// `Issues (N):` and the groups of `issues`, within `budget` bytes: groups
/// while they fit (the first always), then how many were left out and how
/// to read them (`more`, a remedy in the reader's words).
pub(crate) fn within(issues: &[Issue], v: &dyn Voice, budget: usize, more: &Remedy) -> String {
    if issues.is_empty() {
        return "No issues.".into();
    }
    let groups = groups(issues);
    let mut out = if groups.len() == issues.len() {
        format!("Issues ({}):", issues.len())
    } else {
        format!(
            "Issues ({}, in {} group(s) by cause):",
            crate::model::text::thousands(issues.len()),
            crate::model::text::thousands(groups.len())
        )
    };
    // Room for the closing line.
    let room = budget.saturating_sub(out.len() + 240);
    let mut shown = 0;
    let mut findings = 0;
    for g in &groups {
        let mut text = group_lines(g, v);
        if shown > 0 && out.len() + 1 + text.len() > room {
            break;
        }
        // The first group is whole up to 1 KB however small the room.
        if text.len() > room.max(1024) {
            text = fixes_named(g, v, text.len());
        }
        out.push('\n');
        out.push_str(&text);
        shown += 1;
        findings += 1 + g.follow.len();
    }
    if shown < groups.len() {
        out.push_str(&format!(
            "\n  … and {} more group(s), {} finding(s), not shown; {} lists more",
            crate::model::text::thousands(groups.len() - shown),
            crate::model::text::thousands(issues.len() - findings),
            v.say(more)
        ));
    }
    out
}

/// [`within`] the default budget of findings, pointing at `validate` for
/// the rest.
pub(crate) fn within_findings(issues: &[Issue], v: &dyn Voice) -> String {
    use crate::model::budget::{CEILING, FINDINGS};
    let more = Remedy::ValidateWithin {
        max_bytes: (FINDINGS * 4).min(CEILING) as u64,
    };
    within(issues, v, FINDINGS, &more)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::remedy::Fill;

    fn issue(path: &str) -> Issue {
        const X: crate::model::Code = crate::model::Code {
            name: "x",
            severity: crate::model::Severity::Blocking,
        };
        Issue::new(X, "call `c1` is missing a field")
            .node("c1")
            .fix(Remedy::SetField {
                node: "c1".into(),
                path: path.into(),
                value: Fill::choose("VALUE"),
            })
    }

    #[test]
    fn a_first_group_larger_than_the_budget_says_how_to_read_its_fixes() {
        let v = crate::cli::voice::CliVoice::default();
        let more = Remedy::Validate;
        let long = "k".repeat(30_000);
        let out = within(&[issue(&long), issue("output")], &v, 1024, &more);
        assert!(out.len() < 1024, "{} bytes: {out}", out.len());
        assert!(out.contains("call `c1` is missing a field"), "{out}");
        assert!(
            out.contains("fix: 1 fix(es) too large for this answer (30,"),
            "{out}"
        );
        assert!(out.contains("shows them whole"), "{out}");
        // The same list with a fix of ordinary size shows it.
        let out = within(&[issue("output"), issue(&long)], &v, 1024, &more);
        assert!(out.contains("fix: planforge set c1 output VALUE"), "{out}");
        assert!(out.contains("… and 1 more group(s)"), "{out}");
    }
}
