//! The outline as text (plain aligned lines, or a table for a terminal) and
//! as JSON. One flat level: an entry per phase, then `(unphased)`. Ids, phase
//! names and tool names are printed verbatim; there are no line numbers.

use crate::forge::read::{Entry, Outline};
use serde_json::{Value, json};

/// The first line: which plan, its state, size, issues and digest.
pub(crate) fn header(o: &Outline) -> String {
    let issues = if o.counts.blocking + o.counts.advisory == 0 {
        "no issues".to_string()
    } else {
        format!(
            "{} blocking and {} advisory issue(s){}",
            o.counts.blocking,
            o.counts.advisory,
            if o.plan_issues > 0 {
                format!(" ({} about the whole plan)", o.plan_issues)
            } else {
                String::new()
            }
        )
    };
    format!(
        "Outline of {} ({}, revision {}, {} node(s), {} edge(s), {issues}, digest {}).",
        o.plan_id, o.state, o.revision, o.node_count, o.edge_count, o.digest
    )
}

fn issues_cell(e: &Entry) -> String {
    format!("{} issue(s)", e.issue_count)
}

/// Plain text: one aligned line per entry — the key, the summary, the issue
/// count, then the node ids and the tools of its calls. Pure.
pub(crate) fn text(o: &Outline) -> String {
    let mut out = vec![header(o)];
    if o.node_count == 0 {
        out.push("(no nodes)".into());
        return out.join("\n");
    }
    let rows: Vec<(&str, String, String, &Entry)> = o
        .entries()
        .map(|e| (e.key(), e.summary(), issues_cell(e), e))
        .collect();
    let kw = rows.iter().map(|r| super::width(r.0)).max().unwrap_or(0);
    let sw = rows.iter().map(|r| super::width(&r.1)).max().unwrap_or(0);
    let iw = rows.iter().map(|r| super::width(&r.2)).max().unwrap_or(0);
    for (key, summary, issues, e) in rows {
        let mut line = format!(
            "{}  {}  {}  nodes: {}",
            super::pad(key, kw),
            super::pad(&summary, sw),
            super::pad_left(&issues, iw),
            e.node_ids.join(", ")
        );
        if !e.tools.is_empty() {
            line.push_str("  tools: ");
            line.push_str(&e.tools.join(", "));
        }
        out.push(line);
    }
    out.join("\n")
}

/// The narrowest terminal the table is drawn for; below it (or when the
/// width is unknown) the plain lines read better.
pub(crate) const MIN_TABLE_WIDTH: u16 = 60;

/// The width of the terminal on stdout, if it has one. The only function
/// here that asks the outside world; the CLI calls it, renderers never do.
pub(crate) fn terminal_width() -> Option<u16> {
    comfy_table::Table::new().width()
}

/// The outline as a table `width` columns wide, for a person at a terminal
/// (plain lines when `width` is under [`MIN_TABLE_WIDTH`]).
pub(crate) fn table(o: &Outline, width: u16) -> String {
    use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
    if o.node_count == 0 || width < MIN_TABLE_WIDTH {
        return text(o);
    }
    let mut t = Table::new();
    t.load_style(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width)
        .set_header(vec!["Phase", "Summary", "Issues", "Nodes", "Tools"]);
    for e in o.entries() {
        t.add_row(vec![
            e.key().to_string(),
            e.summary(),
            e.issue_count.to_string(),
            e.node_ids.join(", "),
            e.tools.join(", "),
        ]);
    }
    format!("{}\n{t}", header(o))
}

fn entry_json(e: &Entry) -> Value {
    json!({
        "phase": e.key(),
        "summary": e.summary(),
        "nodeIds": e.node_ids,
        "tools": e.tools,
        "issueCount": e.issue_count,
    })
}

/// `{planId, state, digest, nodeCount, phases: [{phase, summary, nodeIds,
/// tools, issueCount}], unphased?}`.
pub(crate) fn json(o: &Outline) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("planId".into(), o.plan_id.clone().into());
    m.insert("state".into(), o.state.as_str().into());
    m.insert("digest".into(), o.digest.clone().into());
    m.insert("nodeCount".into(), o.node_count.into());
    m.insert(
        "phases".into(),
        Value::Array(o.phases.iter().map(entry_json).collect()),
    );
    if let Some(u) = &o.unphased {
        m.insert("unphased".into(), entry_json(u));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Counts;
    use crate::model::lifecycle::State;

    fn entry(phase: Option<&str>, ids: &[&str], tools: &[&str]) -> Entry {
        Entry {
            phase: phase.map(str::to_string),
            node_ids: ids.iter().map(|s| s.to_string()).collect(),
            tools: tools.iter().map(|s| s.to_string()).collect(),
            issue_count: 0,
            calls: tools.len(),
            reasons: 0,
            transforms: 0,
            others: ids.len() - tools.len(),
        }
    }

    fn outline(phases: Vec<Entry>, unphased: Option<Entry>) -> Outline {
        let n = phases
            .iter()
            .chain(unphased.iter())
            .map(|e| e.node_ids.len())
            .sum();
        Outline {
            plan_id: "plan-x".into(),
            state: State::Editable,
            revision: 4,
            digest: "abc".into(),
            node_count: n,
            edge_count: 0,
            phases,
            unphased,
            counts: Counts::default(),
            plan_issues: 0,
        }
    }

    #[test]
    fn plain_lines_are_aligned_and_verbatim() {
        let o = outline(
            vec![
                entry(Some("gather"), &["first"], &["original"]),
                entry(Some("act on it"), &["a", "b"], &[]),
            ],
            Some(entry(None, &["late", "later"], &["t", "t"])),
        );
        let t = text(&o);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[1],
            "gather      1 node(s) — 1 call, 0 reason, 0 transform, 0 other  0 issue(s)  nodes: first  tools: original"
        );
        assert!(
            lines[2].starts_with("act on it   2 node(s)"),
            "{}",
            lines[2]
        );
        assert!(lines[2].ends_with("nodes: a, b"), "{}", lines[2]);
        assert!(lines[3].starts_with("(unphased)  "));
        assert!(lines[3].ends_with("tools: t, t"));
    }

    #[test]
    fn wide_characters_keep_the_columns_aligned() {
        let o = outline(
            vec![
                entry(Some("p3 日本"), &["a"], &[]),
                entry(Some("plain"), &["b"], &[]),
            ],
            None,
        );
        let t = text(&o);
        let cols: Vec<usize> = t
            .lines()
            .skip(1)
            .map(|l| crate::render::width(&l[..l.find("nodes:").unwrap()]))
            .collect();
        assert!(cols.windows(2).all(|w| w[0] == w[1]), "{t}");
    }

    #[test]
    fn empty_plans_say_so() {
        let o = outline(vec![], None);
        assert!(text(&o).ends_with("\n(no nodes)"));
        assert_eq!(json(&o)["phases"], json!([]));
        assert!(json(&o).get("unphased").is_none());
    }

    #[test]
    fn json_has_the_spec_shape() {
        let o = outline(
            vec![entry(Some("p1"), &["a"], &["t"])],
            Some(entry(None, &["b"], &[])),
        );
        let j = json(&o);
        let keys: Vec<&String> = j.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "planId",
                "state",
                "digest",
                "nodeCount",
                "phases",
                "unphased"
            ]
        );
        assert_eq!(j["unphased"]["phase"], "(unphased)");
        assert_eq!(j["phases"][0]["tools"], json!(["t"]));
    }

    #[test]
    fn the_table_names_every_entry() {
        let o = outline(
            vec![entry(Some("p1"), &["a"], &["t"])],
            Some(entry(None, &["b"], &[])),
        );
        let t = table(&o, 100);
        assert_eq!(table(&o, 20), text(&o), "too narrow for a table");
        assert!(t.contains("p1") && t.contains("(unphased)") && t.contains("Tools"));
        assert!(t.lines().all(|l| l.chars().count() <= 100));
    }
}
