use super::read_input;
use crate::cli::{Format, Reply, Session};
use crate::forge::templates::{default_registry, orchestrate_unstored};
use crate::model::error::Result;
use crate::render::templates;
use crate::wire::Syntax;
use clap::Args;

/// Turn a task decomposition into an orchestration plan.
///
/// Turn a task decomposition (roles, tasks, synthesis) into an orchestration
/// plan: classify coupling, choose one bounded mechanism, emit the plan.
#[derive(Args, Debug, Clone)]
pub(crate) struct OrchestrateArgs {
    /// The decomposition (YAML or JSON)
    pub(crate) file: String,
    /// Print the plan without storing it
    #[arg(long)]
    pub(crate) print: bool,
    /// The new plan's id [default: a fresh one]
    #[arg(long)]
    pub(crate) id: Option<String>,
}

pub(crate) fn run(s: &mut Session, a: OrchestrateArgs) -> Result<Reply> {
    s.require_format("orchestrate", &[Format::Text, Format::Json])?;
    let text = read_input(&a.file)?;
    let name = if a.file == "-" {
        "stdin"
    } else {
        a.file.as_str()
    };
    let syntax = Syntax::from_path(&a.file).unwrap_or_else(|| Syntax::sniff(&text));
    let d = crate::forge::orchestrate::parse(&text, syntax, name)?;
    let done = if a.print {
        // Shown, not stored: the store's registry when there is a store,
        // else the one `init` writes.
        let registry = match s.store() {
            Ok(store) => {
                crate::forge::orchestrate::guard_store(&d, store.root())?;
                let forge = crate::forge::Forge::new(store, s.actor()?);
                forge.registry()?.cloned()
            }
            Err(_) => {
                let folder = std::path::Path::new(crate::forge::orchestrate::STORE_FOLDER);
                crate::forge::orchestrate::guard_store(&d, folder)?;
                None
            }
        };
        let registry = match registry {
            Some(r) => r,
            None => default_registry()?,
        };
        let id = match &a.id {
            Some(i) => {
                crate::forge::plans::check_plan_id(i)?;
                i.clone()
            }
            None => crate::model::mint::plan_id(),
        };
        orchestrate_unstored(&d, &registry, &id)?
    } else {
        let forge = s.forge()?;
        let o = forge.orchestrate(&d, a.id.as_deref())?;
        if let Some((p, _)) = &o.stored {
            forge.store().set_current(&p.plan_id)?;
        }
        o
    };
    let mut text = templates::orchestrated_text(&done, &d, &crate::cli::voice::CliVoice::default());
    if done.stored.is_some() {
        text.push_str("\nIt is now the current plan.");
    }
    Ok(Reply::new(text, templates::orchestrated_json(&done, &d)))
}
