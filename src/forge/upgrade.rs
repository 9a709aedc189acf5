//! `upgrade`: a whole store brought to the current format at once, instead
//! of each plan on its next write.

use super::Forge;
use crate::model::error::{Error, Result};
use crate::store::Upgraded;

/// What upgrading a store did.
#[derive(Debug)]
pub(crate) struct StoreUpgrade {
    /// The store had no marker and now has one.
    pub(crate) marked: bool,
    /// Each plan and what was done to it, or why it could not be upgraded
    /// (one damaged plan does not stop the others).
    pub(crate) plans: Vec<(String, std::result::Result<Upgraded, Error>)>,
}

impl StoreUpgrade {
    /// Whether every plan could be upgraded.
    pub(crate) fn complete(&self) -> bool {
        self.plans.iter().all(|(_, r)| r.is_ok())
    }
}

impl Forge {
    /// Upgrades every plan of the store (see [`crate::store::Store::upgrade`])
    /// and writes the store's marker.
    pub(crate) fn upgrade_store(&self) -> Result<StoreUpgrade> {
        self.before_write()?;
        let marked = self.store().mark()?;
        let plans = self
            .store()
            .plan_ids()?
            .into_iter()
            .map(|id| {
                let r = self.store().upgrade(&id);
                (id, r)
            })
            .collect();
        Ok(StoreUpgrade { marked, plans })
    }
}
