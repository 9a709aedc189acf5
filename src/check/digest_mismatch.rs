//! Complexity: O(plan size) (one digest), in the store's integrity check and
//! in `import` / `validate` of documents that claim a digest.

use crate::model::Issue;
use crate::model::lifecycle::State;
use crate::model::remedy::Remedy;

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

/// The finding for a non-editable plan whose content moved after freeze.
pub(crate) fn issue(plan: &str, state: State, frozen: &str, actual: &str) -> Issue {
    Issue::new(
        CODE,
        format!(
            "plan {plan} is {state} with digest {frozen}, but its content now hashes to {actual}: the op log was changed after freeze (a hand edit or a merge); restore the log, or keep working on a copy"
        ),
    )
    .fix(Remedy::Clone.when("to keep working on this content"))
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
    use crate::model::lifecycle::Frozen;
    use crate::model::lifecycle::Meta;
    use crate::model::lifecycle::State;

    fn loaded(recorded: &str) -> crate::store::Loaded {
        let meta = Meta {
            state: State::Reviewable,
            frozen: Some(Frozen {
                revision: 0,
                digest: recorded.into(),
            }),
            ..Meta::new("t")
        };
        let (folded, digest, encoded_len) = crate::store::fold_and_digest("plan-t", &[], &meta);
        crate::store::Loaded::new(
            "plan-t",
            meta,
            Default::default(),
            None,
            folded,
            digest,
            encoded_len,
        )
    }

    #[test]
    fn fires_when_frozen_content_moved() {
        assert!(
            crate::check::notes::issues(&loaded("0000").notes())
                .iter()
                .any(|i| i.code == "digest_mismatch")
        );
    }

    #[test]
    fn passes_when_the_digest_holds() {
        let good = loaded("x").digest.clone();
        assert!(crate::check::notes::issues(&loaded(&good).notes()).is_empty());
    }
}
