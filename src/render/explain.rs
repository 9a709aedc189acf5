//! `explain` as text and JSON: `# code (severity)` then the documentation.

use crate::forge::explain::{Explanation, Topic};
use serde_json::{Value, json};

/// One code: `# unknown_tool (blocking)`, a blank line, the explanation.
pub(crate) fn text(e: &Explanation) -> String {
    format!(
        "# {} ({})\n\n{}\n",
        e.code,
        e.severity.as_str(),
        e.explanation
    )
}

/// A topic: `# name: title (from source)`, then per table `## title` and
/// per row its first cell, then each other cell under its column's name.
pub(crate) fn topic_text(t: &Topic) -> String {
    let mut out = format!("# {}: {} (from {})\n", t.name, t.title, t.source);
    for table in &t.tables {
        out.push_str(&format!("\n## {}\n", table.title));
        for row in &table.rows {
            out.push_str(&format!("\n{}\n", row[0]));
            for (col, cell) in table.columns.iter().zip(row).skip(1) {
                out.push_str(&format!("  {col}: {cell}\n"));
            }
        }
    }
    out
}

/// `{topic, title, source, tables: [{title, columns, rows}]}`.
pub(crate) fn topic_json(t: &Topic) -> Value {
    json!({
        "topic": t.name,
        "title": t.title,
        "source": t.source,
        "tables": t.tables.iter().map(|x| json!({
            "title": x.title,
            "columns": x.columns,
            "rows": x.rows,
        })).collect::<Vec<_>>(),
    })
}

/// Every code, separated by blank lines, in the order the checks run.
pub(crate) fn all_text(all: &[Explanation]) -> String {
    all.iter().map(text).collect::<Vec<_>>().join("\n")
}

/// `{code, severity, summary, explanation, source}`.
pub(crate) fn json(e: &Explanation) -> Value {
    json!({
        "code": e.code,
        "severity": e.severity.as_str(),
        "summary": e.summary,
        "explanation": e.explanation,
        "source": e.source,
    })
}

/// `{codes: [...]}`.
pub(crate) fn all_json(all: &[Explanation]) -> Value {
    json!({"codes": all.iter().map(json).collect::<Vec<_>>()})
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forge::explain::{explain, explain_all};

    #[test]
    fn text_starts_with_the_heading() {
        let t = text(&explain("cycle").unwrap());
        assert!(
            t.starts_with("# cycle (blocking)\n\n## What it finds\n"),
            "{t}"
        );
        assert!(t.contains("## How to fix"));
    }

    #[test]
    fn all_lists_every_code_once() {
        let all = explain_all();
        let t = all_text(&all);
        for e in &all {
            assert_eq!(
                t.matches(&format!("# {} (", e.code)).count(),
                1,
                "{}",
                e.code
            );
        }
        let j = all_json(&all);
        assert_eq!(j["codes"].as_array().unwrap().len(), all.len());
        assert_eq!(j["codes"][0]["code"], all[0].code);
    }
}
