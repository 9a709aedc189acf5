//! Complexity: O(1) per input, emitted by `validate` (the forge) for an input
//! it could not check.

use crate::model::Issue;

declare_check! {
    /// ## What it finds
    /// An input of a validation that could not be checked at all: a plan
    /// document that is missing, unreadable, not UTF-8, too large, not JSON or
    /// YAML, or not a plan document (an unknown node kind, a field of the
    /// wrong type, an invalid `planId`), or a plan id that names no stored
    /// plan. The finding names the file and, when the reader knows them, the
    /// line and column of the first problem.
    ///
    /// ## Why it matters
    /// Nothing in such an input was checked, so none of its problems can be
    /// listed: passing it silently would let a broken plan through. The other
    /// inputs are still checked and reported, and the run fails with the exit
    /// code of an input error.
    ///
    /// ## How to fix
    /// Fix the document at the place named (the first syntax or shape error;
    /// others may follow once it is fixed), or correct the path or plan id.
    /// Once the document reads, its findings are listed like any other.
    ///
    /// ## Example
    /// `plans/triage.json` holds `{"nodes": [{"id": "a", "kind": "cal"}]}`:
    /// the finding reads ``unknown kind `cal` `` at `plans/triage.json:1:32`
    /// (pointer `/nodes/0/kind`).
    /// Fixed: `"kind": "call"`.
    pub InvalidDocument { code: "invalid_document", severity: Blocking, needs: NOTHING, source: Lifecycle }
    fn run(cx, out) {}
}

/// The finding for an input that could not be checked; `pointer` (absolute
/// in the document) says where, when the reader knows it.
pub(crate) fn issue(message: impl Into<String>, pointer: Option<&str>) -> Issue {
    let i = Issue::new(CODE, message);
    match pointer {
        Some(p) => i.at(p),
        None => i,
    }
}

#[cfg(test)]
mod tests {
    use crate::wire::Syntax;

    #[test]
    fn fires_on_a_document_that_does_not_parse() {
        let t = crate::forge::validate::check_input(
            "bad.json",
            "{\"nodes\": [{\"id\": \"a\", \"kind\": \"cal\"}]}".to_string(),
            Syntax::Json,
            None,
            &crate::forge::validate::Options::default(),
        );
        let codes: Vec<&str> = t.report.issues.iter().map(|i| i.code.name).collect();
        assert_eq!(codes, ["invalid_document"]);
        assert_eq!(t.failed, Some(2));
    }

    #[test]
    fn passes_on_a_document_that_parses() {
        let t = crate::forge::validate::check_input(
            "ok.json",
            r#"{"formatVersion": 1, "nodes": [], "edges": []}"#.to_string(),
            Syntax::Json,
            None,
            &crate::forge::validate::Options::default(),
        );
        assert!(t.report.issues.iter().all(|i| i.code != "invalid_document"));
        assert_eq!(t.failed, None);
    }
}
