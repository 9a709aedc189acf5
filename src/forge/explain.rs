//! `explain`: the long explanation of an issue code, as data.
//!
//! The text is each check's own documentation (What it finds / Why it
//! matters / How to fix / Example), kept beside the check in `src/check/`.
//! The CLI (`planforge explain`) and the model-facing tool `explain_issue`
//! both call [`explain`]; `render::explain` turns the result into text.

use crate::check;
use crate::check::Check;
use crate::model::Severity;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;

/// What `explain` says about one code.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Explanation {
    pub(crate) code: &'static str,
    pub(crate) severity: Severity,
    /// The first sentence of "What it finds".
    pub(crate) summary: String,
    /// The whole documentation, markdown.
    pub(crate) explanation: String,
    /// The file that holds the check (`src/check/<code>.rs`).
    pub(crate) source: &'static str,
}

/// Explains one code; an unknown code is refused (exit 2) with the nearest.
pub(crate) fn explain(code: &str) -> Result<Explanation> {
    match check::by_code(code) {
        Some(c) => Ok(of(c)),
        None => Err(unknown_code(code)),
    }
}

/// Every code, in the order the checks run.
pub(crate) fn explain_all() -> Vec<Explanation> {
    check::CHECKS.iter().map(|c| of(*c)).collect()
}

fn of(c: &'static dyn Check) -> Explanation {
    let explanation = markdown(c.doc());
    Explanation {
        code: c.code().name,
        severity: c.code().severity,
        summary: first_sentence(&section(&explanation, "What it finds").unwrap_or_default()),
        explanation,
        source: c.file(),
    }
}

/// A topic `explain` gives besides the codes: its tables, read from the
/// one docs page that holds them, so the two cannot drift.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Topic {
    pub(crate) name: &'static str,
    pub(crate) title: &'static str,
    /// The docs page it is read from.
    pub(crate) source: &'static str,
    pub(crate) tables: Vec<Table>,
}

/// One table of a topic: its heading, column names and rows (cells as the
/// markdown gives them).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Table {
    pub(crate) title: String,
    pub(crate) columns: Vec<String>,
    pub(crate) rows: Vec<Vec<String>>,
}

/// The topics: `orchestrate` (which node, edge, check or refusal carries
/// each of seed 003's steps, failure classes and Output fields, and which
/// decompositions select each mechanism row), from docs/orchestration.md.
const TOPICS: [(&str, &str, &str, &str, &[&str]); 1] = [(
    "orchestrate",
    "where each part of seed 003 is carried in an orchestrated plan",
    "docs/orchestration.md",
    include_str!("../../docs/orchestration.md"),
    &[
        "Where each part of seed 003 is carried",
        "Which decompositions select which row",
    ],
)];

/// The topic `name`, when there is one.
pub(crate) fn topic(name: &str) -> Option<Topic> {
    let (name, title, source, text, sections) = TOPICS.iter().find(|t| t.0 == name)?;
    let mut tables = Vec::new();
    for s in *sections {
        tables.extend(tables_under(text, s));
    }
    Some(Topic {
        name,
        title,
        source,
        tables,
    })
}

/// The names of the topics.
pub(crate) fn topics() -> impl Iterator<Item = &'static str> {
    TOPICS.iter().map(|t| t.0)
}

/// The cells of a markdown table row (`| a | b |`).
fn cells(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|').trim_end_matches('|');
    t.split('|').map(|c| c.trim().to_string()).collect()
}

/// The tables under the `## <section>` heading of `text`, up to the next
/// `## `: each titled by the `### ` heading above it (the section's own
/// title when there is none).
fn tables_under(text: &str, section: &str) -> Vec<Table> {
    let mut out: Vec<Table> = Vec::new();
    let mut inside = false;
    let mut title = section.to_string();
    let mut open = false;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            inside = h.trim() == section;
            open = false;
            continue;
        }
        if !inside {
            continue;
        }
        if let Some(h) = line.strip_prefix("### ") {
            title = h.trim().to_string();
            open = false;
            continue;
        }
        if !line.trim_start().starts_with('|') {
            open = false;
            continue;
        }
        let row = cells(line);
        if row
            .iter()
            .all(|c| !c.is_empty() && c.chars().all(|x| x == '-' || x == ':'))
        {
            continue;
        }
        match out.last_mut() {
            Some(t) if open => t.rows.push(row),
            _ => {
                out.push(Table {
                    title: title.clone(),
                    columns: row,
                    rows: Vec::new(),
                });
                open = true;
            }
        }
    }
    out
}

fn unknown_code(code: &str) -> Error {
    let codes = || check::CHECKS.iter().map(|c| c.code().name);
    let quoted = crate::model::ids::quote_id(code);
    Error::new(
        ErrorKind::UnknownKey,
        format!(
            "there is no issue code or topic `{quoted}`{}",
            crate::model::suggest::did_you_mean(code, codes().chain(topics()))
        ),
    )
    .with_help(format!(
        "codes: {}; topics: {}",
        crate::model::suggest::choices(code, codes()),
        topics().collect::<Vec<_>>().join(", ")
    ))
}

/// A check's doc comment as markdown: doc comments keep the space after
/// `///`, which would indent every line.
fn markdown(doc: &str) -> String {
    let lines: Vec<&str> = doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect();
    lines.join("\n").trim().to_string()
}

/// The body of the `## <heading>` section of an explanation, trimmed.
pub(crate) fn section(explanation: &str, heading: &str) -> Option<String> {
    let mut out: Option<Vec<&str>> = None;
    for line in explanation.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            if out.is_some() {
                break;
            }
            if h.trim() == heading {
                out = Some(Vec::new());
            }
            continue;
        }
        if let Some(body) = out.as_mut() {
            body.push(line);
        }
    }
    out.map(|b| b.join("\n").trim().to_string())
}

/// The first paragraph of a section as one line: what diagnostics print as
/// `help`.
pub(crate) fn paragraph(text: &str) -> String {
    text.split("\n\n")
        .next()
        .unwrap_or("")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// How to fix issues of `code`, as one paragraph; `None` for an unknown code.
pub(crate) fn how_to_fix(code: &str) -> Option<String> {
    let c = check::by_code(code)?;
    section(&markdown(c.doc()), "How to fix").map(|s| paragraph(&s))
}

/// The first sentence of a section, on one line. A lead-in that introduces
/// a list or a table ends the summary (its `:` becomes a `.`); a section
/// that opens with a list is summarised by its first item.
fn first_sentence(text: &str) -> String {
    let mut lead: Vec<&str> = Vec::new();
    let mut first_item: Vec<&str> = Vec::new();
    let mut in_list = false;
    for line in text.split("\n\n").next().unwrap_or("").lines() {
        let t = line.trim();
        if let Some(item) = t.strip_prefix("- ") {
            if lead.is_empty() {
                lead.push(item);
                continue;
            }
            if in_list {
                break;
            }
            in_list = true;
            first_item.push(item);
            continue;
        }
        if t.starts_with('|') {
            break;
        }
        if in_list {
            first_item.push(t);
        } else {
            lead.push(t);
        }
    }
    let mut flat = lead.join(" ");
    // A short lead-in ("For a call `S`:") says nothing alone: add the first
    // item, up to its first clause.
    if flat.ends_with(':') && flat.split_whitespace().count() <= 12 && !first_item.is_empty() {
        let item = first_item.join(" ");
        let cut = [" — ", "; "]
            .iter()
            .filter_map(|sep| item.find(sep))
            .min()
            .unwrap_or(item.len());
        flat = format!("{} {}.", flat, item[..cut].trim_end_matches(['.', ';']));
    }
    // A sentence ends at ". " (not inside a backticked span such as `a.b`).
    let mut in_code = false;
    let chars: Vec<(usize, char)> = flat.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        match c {
            '`' => in_code = !in_code,
            '.' if !in_code && chars.get(k + 1).is_none_or(|(_, n)| *n == ' ') => {
                return flat[..=i].to_string();
            }
            _ => {}
        }
    }
    match flat.strip_suffix(':') {
        Some(s) => format!("{s}."),
        None => flat,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_a_summary_and_a_fix() {
        for e in explain_all() {
            assert!(!e.summary.is_empty(), "{}", e.code);
            assert!(e.summary.len() < e.explanation.len(), "{}", e.code);
            assert!(e.explanation.starts_with("## What it finds"), "{}", e.code);
            assert!(e.source.ends_with(&format!("{}.rs", e.code)), "{}", e.code);
            let fix = how_to_fix(e.code).unwrap();
            assert!(!fix.is_empty() && !fix.contains('\n'), "{}", e.code);
        }
    }

    #[test]
    fn the_orchestrate_topic_reads_every_table_of_its_docs_page() {
        let t = topic("orchestrate").unwrap();
        let titles: Vec<&str> = t.tables.iter().map(|x| x.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "The procedure",
                "The failure classes",
                "The Output contract",
                "Which decompositions select which row"
            ]
        );
        // Every seed step, failure class and Output field, each with what
        // carries it.
        let rows: Vec<usize> = t.tables.iter().map(|x| x.rows.len()).collect();
        assert_eq!(rows, [8, 6, 8, 7]);
        for table in &t.tables {
            for row in &table.rows {
                assert_eq!(row.len(), table.columns.len(), "{row:?}");
                assert!(row.iter().all(|c| !c.is_empty()), "{row:?}");
            }
        }
        assert!(t.tables[0].rows[7][0].starts_with("8. Write only the synthesis"));
        assert!(t.tables[1].rows[5][1].contains("missing_rollback"));
        assert!(topic("orchestration").is_none());
        assert!(
            explain("orchestrat")
                .unwrap_err()
                .help
                .unwrap()
                .contains("topics: orchestrate")
        );
    }

    #[test]
    fn summaries_are_first_sentences() {
        let e = explain("dangling_edge").unwrap();
        assert_eq!(
            e.summary,
            "An edge whose `from` or `to` node no longer exists once the op log is folded."
        );
        assert_eq!(e.severity, Severity::Advisory);
        assert_eq!(e.source, "src/check/dangling_edge.rs");
    }

    #[test]
    fn unknown_codes_suggest_the_nearest() {
        let e = explain("unknown_tol").unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(
            e.message.contains("did you mean `unknown_tool`?"),
            "{}",
            e.message
        );
        assert!(e.help.unwrap().contains("`unknown_tool`"));
    }

    #[test]
    fn sections_stop_at_the_next_heading() {
        let t = "## A\none\n\ntwo\n## B\nthree";
        assert_eq!(section(t, "A").as_deref(), Some("one\n\ntwo"));
        assert_eq!(section(t, "B").as_deref(), Some("three"));
        assert_eq!(section(t, "C"), None);
        assert_eq!(paragraph("a\nb\n\nc"), "a b");
        assert_eq!(
            first_sentence("Sets `a.b` to x. Then y."),
            "Sets `a.b` to x."
        );
        assert_eq!(
            first_sentence("Finds this:\n- one — more\n- two"),
            "Finds this: one."
        );
        assert_eq!(
            first_sentence(
                "Finds a long list of things of many kinds, each of them with its own rule:\n- one\n- two"
            ),
            "Finds a long list of things of many kinds, each of them with its own rule."
        );
        assert_eq!(first_sentence("- One. More.\n- two"), "One.");
        assert_eq!(first_sentence("A thing:\n\n| a |"), "A thing.");
    }
}
