//! What one command (or one REPL) works with: the global flags, the store,
//! the plan, the actor.

use super::{Format, Global};
use crate::forge::Forge;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::store::Store;
use std::path::PathBuf;

#[derive(Debug, Clone, Default)]
pub(crate) struct Session {
    pub(crate) global: Global,
    /// The plan chosen by `use` inside a REPL (local to that REPL).
    pub(crate) repl_plan: Option<String>,
    /// The process runs one command and exits (not a REPL or a server): what
    /// it loaded may be left to the operating system.
    pub(crate) one_shot: bool,
    /// A REPL keeps the plans it folds (and their findings) between its
    /// commands (issue 17; see `store::warm`).
    pub(crate) warm: Option<std::sync::Arc<crate::store::warm::Warm>>,
}

impl Session {
    pub(crate) fn new(global: Global) -> Session {
        Session {
            global,
            repl_plan: None,
            one_shot: false,
            warm: None,
        }
    }

    pub(crate) fn format(&self) -> Format {
        self.global.format.unwrap_or(Format::Text)
    }

    /// The format, refusing one the command does not print.
    pub(crate) fn require_format(&self, command: &str, allowed: &[Format]) -> Result<Format> {
        let f = self.format();
        if allowed.contains(&f) {
            return Ok(f);
        }
        let names: Vec<&str> = allowed.iter().map(|f| f.name()).collect();
        Err(Error::invalid(format!(
            "`{command}` does not print {}; it prints {}",
            f.name(),
            names.join(", ")
        )))
    }

    /// The store folder: `--store`, `PLANFORGE_STORE`, else the nearest
    /// store from the working folder up (`plans/` in it or a parent, as git
    /// finds its repository), else `./plans`.
    pub(crate) fn store_path(&self) -> PathBuf {
        self.named_store().unwrap_or_else(|| {
            std::env::current_dir()
                .ok()
                .and_then(|d| crate::store::discover(&d))
                .unwrap_or_else(|| PathBuf::from("plans"))
        })
    }

    /// The store the flags or the environment name, if any.
    pub(crate) fn named_store(&self) -> Option<PathBuf> {
        if let Some(s) = &self.global.store {
            return Some(s.clone());
        }
        match std::env::var_os("PLANFORGE_STORE") {
            Some(s) if !s.is_empty() => Some(PathBuf::from(s)),
            _ => None,
        }
    }

    pub(crate) fn store(&self) -> Result<Store> {
        let store = Store::open(self.store_path())?.one_shot(self.one_shot);
        Ok(match &self.warm {
            Some(w) => store.warm(w.clone()),
            None => store,
        })
    }

    pub(crate) fn actor(&self) -> Result<String> {
        crate::forge::resolve_actor(self.global.actor.as_deref())
    }

    pub(crate) fn forge(&self) -> Result<Forge> {
        Ok(Forge::new(self.store()?, self.actor()?))
    }

    /// The plan to work on: `-p`, the REPL's `use`, `PLANFORGE_PLAN`, or the
    /// store's current plan.
    pub(crate) fn plan_id(&self, store: &Store) -> Result<String> {
        if let Some(p) = &self.global.plan {
            return Ok(p.clone());
        }
        if let Some(p) = &self.repl_plan {
            return Ok(p.clone());
        }
        if let Ok(p) = std::env::var("PLANFORGE_PLAN")
            && !p.is_empty()
        {
            return Ok(p);
        }
        match store.current()? {
            Some(id) if store.exists(&id) => Ok(id),
            Some(id) => Err(Error::new(
                ErrorKind::UnknownPlan,
                format!("the current plan `{}` (from {}/current) no longer exists", crate::model::ids::quote_id(&id), store.root().display()),
            )
            .with_help("choose another with `planforge use ID` (see `planforge list`), or pass -p ID")),
            None => Err(Error::new(ErrorKind::UnknownPlan, "no plan is selected")
                .with_help("pass -p ID, set PLANFORGE_PLAN, or run `planforge use ID` (see `planforge list`)")),
        }
    }

    /// The voice that words fixes about `plan` as command lines: with
    /// `-p PLAN` when a bare command would reach another plan.
    pub(crate) fn voice(&self, plan: &str) -> super::voice::CliVoice {
        let implicit = self.repl_plan.clone().or_else(|| {
            std::env::var("PLANFORGE_PLAN")
                .ok()
                .filter(|p| !p.is_empty())
                .or_else(|| self.store().ok()?.current().ok()?)
        });
        super::voice::CliVoice::about(plan, implicit.as_deref())
    }

    /// Whether stdout may carry colour.
    pub(crate) fn color_stdout(&self) -> bool {
        use std::io::IsTerminal;
        super::ui::color_enabled(self.global.color, std::io::stdout().is_terminal())
    }

    /// Asks `question` with `[y/N]` on the terminal, unless `yes` (--yes).
    /// Without a terminal to ask on, refuses (nothing changed): `what` says
    /// what would have happened.
    pub(crate) fn confirm(&self, question: &str, what: &str, yes: bool) -> Result<bool> {
        use std::io::{BufRead, Write};
        if yes {
            return Ok(true);
        }
        if !self.interactive() {
            return Err(Error::invalid(format!(
                "{what}, and there is no terminal to ask on; nothing was changed"
            ))
            .with_help("pass --yes to go ahead without asking"));
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "{question} [y/N] ");
        let _ = err.flush();
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        Ok(matches!(answer.trim(), "y" | "Y" | "yes"))
    }

    /// Whether stdin is a terminal a person can answer on.
    pub(crate) fn interactive(&self) -> bool {
        use std::io::IsTerminal;
        std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
    }
}
