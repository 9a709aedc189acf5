use crate::cli::{Reply, Session};
use crate::model::error::Result;
use clap::Args;
use serde_json::json;

/// Make a plan the store's current plan.
///
/// Make a plan the store's current plan (used when -p is not given).
/// Inside the REPL, `use` only changes that REPL's plan.
#[derive(Args, Debug, Clone)]
pub(crate) struct UseArgs {
    /// The plan id
    pub(crate) id: String,
}

pub(crate) fn run(s: &mut Session, a: UseArgs) -> Result<Reply> {
    let store = s.store()?;
    store.load(&a.id)?;
    store.set_current(&a.id)?;
    Ok(Reply::new(
        format!("Current plan: {}.", a.id),
        json!({"planId": a.id}),
    ))
}
