//! Late damage (issue 17): a snapshot's chunk of nodes keeps its
//! definitions in a part checked only when a definition in it is first
//! read, after the load said the snapshot was sound. Such a part found
//! damaged then sets the flag of the plan it was restored into: nothing
//! made from that plan may be kept (a write is decided again on a fresh
//! fold of the log, an echo remade from one; no snapshot, findings or
//! kept checks are saved from it).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The flag a restored plan and the chunks it reads share (none for a
/// plan folded from its log, which reads nothing late).
#[derive(Clone, Debug, Default)]
pub(crate) struct Late(Option<Arc<AtomicBool>>);

impl Late {
    /// A flag for a plan restored from a snapshot, not set.
    pub(crate) fn new() -> Late {
        Late(Some(Arc::new(AtomicBool::new(false))))
    }

    /// A definitions part of the plan was found damaged.
    pub(crate) fn set(&self) {
        if let Some(f) = &self.0 {
            f.store(true, Ordering::SeqCst);
        }
    }

    /// Whether a definitions part of the plan was found damaged.
    pub(crate) fn is_set(&self) -> bool {
        self.0.as_ref().is_some_and(|f| f.load(Ordering::SeqCst))
    }
}

#[cfg(test)]
mod tests {
    use super::Late;

    #[test]
    fn a_flag_is_shared_by_its_clones_and_a_plan_folded_from_its_log_has_none() {
        let late = Late::new();
        let shared = late.clone();
        assert!(!shared.is_set());
        late.set();
        assert!(shared.is_set(), "every clone sees it");
        let none = Late::default();
        none.set();
        assert!(!none.is_set(), "no flag to set");
    }
}
