use crate::cli::{Reply, Session};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::lifecycle::State;
use clap::Args;
use serde_json::json;

/// Delete a plan from the store.
///
/// Reviewable and executable plans need --force.
#[derive(Args, Debug, Clone)]
pub(crate) struct RemoveArgs {
    /// The plan id
    pub(crate) id: String,
    /// Also delete a reviewable or executable plan
    #[arg(long)]
    pub(crate) force: bool,
}

pub(crate) fn run(s: &mut Session, a: RemoveArgs) -> Result<Reply> {
    let store = s.store()?;
    let p = store.load(&a.id)?;
    if p.meta.state != State::Editable && !a.force {
        return Err(Error::new(
            ErrorKind::NotEditable,
            format!(
                "plan {} is {}; deleting it needs --force",
                a.id, p.meta.state
            ),
        )
        .with_help(format!(
            "run `planforge remove {} --force` if you mean it",
            a.id
        )));
    }
    store.remove(&a.id)?;
    Ok(Reply::new(
        format!("Removed plan {}.", a.id),
        json!({"planId": a.id, "removed": true}),
    ))
}
