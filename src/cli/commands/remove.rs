use crate::cli::{Reply, Session};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::lifecycle::State;
use crate::store::Logless;
use clap::Args;
use serde_json::json;

/// Delete a plan from the store.
///
/// Delete a plan and its whole history. On a terminal it asks first; without
/// one it needs --yes. Reviewable and executable plans also need --force.
#[derive(Args, Debug, Clone)]
pub(crate) struct RemoveArgs {
    /// The plan id
    pub(crate) id: String,
    /// Also delete a reviewable or executable plan
    #[arg(long)]
    pub(crate) force: bool,
    /// Do not ask (needed without a terminal)
    #[arg(long, short = 'y')]
    pub(crate) yes: bool,
}

pub(crate) fn run(s: &mut Session, a: RemoveArgs) -> Result<Reply> {
    let store = s.store()?;
    if store.logless(&a.id) == Some(Logless::Leftover) {
        return clear_leftover(s, &a);
    }
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
            "run `planforge remove {} --force --yes` if you mean it",
            a.id
        )));
    }
    let question = format!(
        "Delete plan {} ({}, rev {}, {} node(s)) and its whole history?",
        a.id,
        p.meta.state,
        p.revision(),
        p.content().nodes.len()
    );
    if !s.confirm(
        &question,
        &format!("remove deletes plan {} for good", a.id),
        a.yes,
    )? {
        return Ok(Reply::new(
            format!(
                "Not removed: plan {} is still there, and nothing was changed.",
                a.id
            ),
            json!({"planId": a.id, "removed": false}),
        )
        .exit(1));
    }
    store.remove(&a.id)?;
    Ok(Reply::new(
        format!("Removed plan {}.", a.id),
        json!({"planId": a.id, "removed": true}),
    ))
}

/// Plan `a.id`'s folder holds no op log, only files planforge keeps beside
/// one (a checkout of a branch without the plan leaves them): cleared.
fn clear_leftover(s: &mut Session, a: &RemoveArgs) -> Result<Reply> {
    let question = format!(
        "Plan {} has no op log; delete its folder {}/, which holds only planforge's caches?",
        a.id, a.id
    );
    let why = format!("remove deletes the folder {}/", a.id);
    if !s.confirm(&question, &why, a.yes)? {
        return Ok(Reply::new(
            format!("Not removed: the folder {}/ is still there.", a.id),
            json!({"planId": a.id, "removed": false}),
        )
        .exit(1));
    }
    s.store()?.remove(&a.id)?;
    Ok(Reply::new(
        format!(
            "Removed the folder {}/ (no op log, only planforge's caches).",
            a.id
        ),
        json!({"planId": a.id, "removed": true}),
    ))
}
