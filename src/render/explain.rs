//! `explain` as text and JSON: `# code (severity)` then the documentation.

use crate::forge::explain::Explanation;
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
