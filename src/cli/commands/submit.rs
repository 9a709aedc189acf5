use crate::cli::{Reply, Session};
use crate::model::error::Error;
use crate::model::error::Result;
use crate::render::status;
use clap::Args;
use std::io::{BufRead, Write};

/// Freeze and approve the plan: it becomes executable, forever.
///
/// Freeze the plan (or re-check a reviewable one) and approve it: it becomes
/// executable, forever. Prints the authority set approved: every claim of
/// every reachable call. On a terminal it asks first, unless --yes.
#[derive(Args, Debug, Clone)]
pub(crate) struct SubmitArgs {
    /// Who approves [default: the actor]
    #[arg(long, value_name = "NAME")]
    pub(crate) by: Option<String>,
    /// Approve without asking
    #[arg(long, short = 'y')]
    pub(crate) yes: bool,
}

pub(crate) fn run(s: &mut Session, a: SubmitArgs) -> Result<Reply> {
    let forge = s.forge()?;
    let plan = s.plan_id(forge.store())?;
    if let Some(by) = &a.by
        && by.trim().is_empty()
    {
        return Err(Error::invalid("--by needs a name"));
    }
    // An approval is for good: it is given on a terminal, or asked for in
    // so many words.
    if !a.yes && !s.interactive() {
        return Err(Error::invalid(format!(
            "submit approves plan {plan} for good, and there is no terminal to ask on; nothing was changed"
        ))
        .with_help("pass --yes to approve without asking"));
    }
    let preview = forge.submit_preview(&plan, a.by.as_deref())?;
    if preview.refused() {
        // Each blocking issue is also drawn on stderr, in the plan's export
        // text (text mode only).
        let diagnostics = if s.format() == crate::cli::Format::Text {
            let located = forge.locate(&plan, preview.report.clone())?;
            crate::render::diagnostics::blocking(&located, &s.voice(&plan))
        } else {
            Vec::new()
        };
        return Ok(Reply::new(
            status::submit_text(&preview, &s.voice(&preview.plan_id)),
            status::submit_json(&preview),
        )
        .headline(status::refused_headline(
            &format!("Could not freeze {plan} for submission"),
            &preview.report,
            diagnostics.len(),
            &s.voice(&plan),
        ))
        .diagnostics(diagnostics)
        .exit(1));
    }
    if !a.yes && s.interactive() {
        let mut err = std::io::stderr().lock();
        let _ = writeln!(
            err,
            "Plan {} (rev {}, digest {}) passes every check.",
            preview.plan_id, preview.revision, preview.digest
        );
        for line in status::authority_lines(&preview) {
            let _ = writeln!(err, "{line}");
        }
        let _ = write!(
            err,
            "Approve it as {}? It becomes executable and can never change. [y/N] ",
            preview.decided_by
        );
        let _ = err.flush();
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            let state = forge.load(&plan)?.state();
            return Ok(Reply::new(
                format!("Not approved: plan {plan} is still {state}, and nothing was changed."),
                serde_json::json!({"planId": plan, "approved": false, "state": state.as_str()}),
            )
            .exit(1));
        }
    }
    let done = forge.submit_approve(preview)?;
    Ok(Reply::new(
        status::submit_text(&done, &s.voice(&done.plan_id)),
        status::submit_json(&done),
    ))
}
