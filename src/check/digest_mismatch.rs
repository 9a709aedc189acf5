//! Complexity: O(plan size) (one digest), in the store's integrity check and
//! in `import` / `validate` of documents that claim a digest.

use crate::model::Issue;

declare_check! {
    /// ## What it finds
    /// Content whose digest differs from the one claimed: a frozen or approved
    /// plan whose op log no longer hashes to the digest recorded at freeze, or
    /// a plan document whose `digest` field does not match its own content.
    ///
    /// ## Why it matters
    /// Freeze and approval bind to a digest. If the content moved afterwards
    /// (a hand edit, a merge after freeze), what a reviewer approved is not
    /// what would run. Submitting refuses such a plan, and importing refuses
    /// such a document.
    ///
    /// ## How to fix
    /// For a stored plan: restore its op log from version control, or clone it
    /// into a new plan and freeze the clone again. For a document: remove the
    /// `digest` field (or export it again) before importing.
    ///
    /// ## Example
    /// `meta.json` says `"frozen": {"revision": 12, "digest": "3f…"}` but the
    /// log now folds to digest `9a…`.
    pub DigestMismatch { code: "digest_mismatch", severity: Blocking, needs: NOTHING, source: Lifecycle }
    fn run(cx, out) {}
}

/// The finding for a document whose claimed digest its content lacks
/// (`plan`: the document's plan id, when it names one).
pub(crate) fn document_issue(plan: Option<&str>, claimed: &str, actual: &str) -> Issue {
    Issue::new(
        CODE,
        format!(
            "the document{} claims digest {claimed}, but its content hashes to {actual}: it was changed after it was exported. Remove the `digest` field to check and import the content as it is now, or go back to the exported original",
            plan.map(|id| format!(" for {id}")).unwrap_or_default()
        ),
    )
    .at("/digest")
}

#[cfg(test)]
mod tests {
    use crate::wire::Syntax;

    fn validate(digest: &str) -> Vec<&'static str> {
        let doc = format!(
            r#"{{"formatVersion": 1, "planId": "plan-d", "digest": "{digest}", "nodes": [{{"id": "s", "kind": "entry", "definition": {{"input": []}}}}], "edges": []}}"#
        );
        let t = crate::forge::validate::check_document(
            "d.json",
            doc,
            Syntax::Json,
            None,
            &crate::forge::validate::Options::default(),
        )
        .unwrap();
        t.report.issues.iter().map(|i| i.code.name).collect()
    }

    #[test]
    fn fires_when_a_document_claims_a_digest_its_content_lacks() {
        assert!(validate("0000").contains(&"digest_mismatch"));
    }

    #[test]
    fn passes_when_the_claimed_digest_is_the_contents() {
        let doc = r#"{"formatVersion": 1, "planId": "plan-d", "nodes": [{"id": "s", "kind": "entry", "definition": {"input": []}}], "edges": []}"#;
        let d = crate::wire::codec::document(doc, Syntax::Json)
            .unwrap()
            .content_digest();
        assert!(!validate(&d).contains(&"digest_mismatch"));
    }
}
