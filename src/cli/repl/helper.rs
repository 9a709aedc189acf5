//! The rustyline helper: completion, hints, continuation of unclosed quotes,
//! and the names completion offers, read from the store. Nothing here takes a
//! lock: it reads files the store replaces atomically or appends to, and
//! caches what it read until those files change.

use super::complete::{self, PlanNames, Source, Target};
use super::words;
use crate::cli::Session;
use crate::store::Store;
use owo_colors::OwoColorize;
use rustyline::completion::Completer;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hint, Hinter};
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Helper};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::SystemTime;

/// What identifies a version of a file: its length and modification time.
type Stamp = Vec<(u64, Option<SystemTime>)>;

fn stamp(paths: &[PathBuf]) -> Stamp {
    paths
        .iter()
        .map(|p| match std::fs::metadata(p) {
            Ok(m) => (m.len(), m.modified().ok()),
            Err(_) => (u64::MAX, None),
        })
        .collect()
}

/// A plan's names by (store folder, plan id), with the version they were
/// read from.
type PlanCache = HashMap<(PathBuf, String), (Stamp, Rc<PlanNames>)>;

/// Names from the store, cached per file version.
pub(crate) struct StoreSource {
    pub(crate) session: Session,
    plans: RefCell<PlanCache>,
    tools: RefCell<HashMap<PathBuf, (Stamp, Vec<String>)>>,
}

impl StoreSource {
    pub(crate) fn new(session: Session) -> StoreSource {
        StoreSource {
            session,
            plans: RefCell::new(HashMap::new()),
            tools: RefCell::new(HashMap::new()),
        }
    }

    fn store(&self, t: &Target) -> Option<Store> {
        let path = match &t.store {
            Some(s) => PathBuf::from(s),
            None => self.session.store_path(),
        };
        Store::open(path).ok()
    }

    /// The revisions of the line's plan a `diff` takes, newest first, each
    /// with what its change did: `current`, `frozen` when the plan has a
    /// frozen revision, then every revision `log` shows.
    pub(crate) fn revisions(&self, t: &Target) -> Vec<(String, String)> {
        let (Some(store), Some(id)) = (self.store(t), self.plan_id(t)) else {
            return Vec::new();
        };
        let forge = crate::forge::Forge::new(store, "completion");
        let Ok(changes) = forge.log(&id) else {
            return Vec::new();
        };
        let mut out = vec![("current".to_string(), "the plan as it is now".to_string())];
        if self.plan(t).is_some_and(|p| p.state != "editable") {
            out.push((
                "frozen".to_string(),
                "the revision it was frozen at".to_string(),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for c in changes.iter().rev() {
            if seen.insert(c.revision) {
                out.push((c.revision.to_string(), c.summary.clone()));
            }
        }
        out
    }

    /// The plan a command on this line would work on.
    pub(crate) fn plan_id(&self, t: &Target) -> Option<String> {
        if let Some(p) = &t.plan {
            return Some(p.clone());
        }
        let store = self.store(t)?;
        self.session.plan_id(&store).ok()
    }

    /// The names of a plan, read again only when its files changed.
    pub(crate) fn plan_names(&self, store: &Store, id: &str) -> Option<Rc<PlanNames>> {
        let dir = store.plan_dir(id).ok()?;
        let files = [
            dir.join(crate::store::OPS_FILE),
            dir.join(crate::store::META_FILE),
        ];
        let now = stamp(&files);
        let key = (store.root().to_path_buf(), id.to_string());
        if let Some((s, names)) = self.plans.borrow().get(&key)
            && *s == now
        {
            return Some(names.clone());
        }
        let loaded = store.load(id).ok()?;
        let names = Rc::new(names_of(&loaded));
        self.plans.borrow_mut().insert(key, (now, names.clone()));
        Some(names)
    }
}

/// The completion names of a loaded plan.
pub(crate) fn names_of(loaded: &crate::store::Loaded) -> PlanNames {
    let c = loaded.content();
    let mut phases: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut unphased = false;
    for n in &c.nodes {
        match &n.phase {
            Some(p) => {
                if seen.insert(p.as_str()) {
                    phases.push(p.to_string());
                }
            }
            None => unphased = true,
        }
    }
    let nodes = c
        .nodes
        .iter()
        .map(|n| {
            let cases = match n.definition.get("cases") {
                Some(crate::model::Value::Array(items)) => items
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect(),
                _ => Vec::new(),
            };
            (n.id.to_string(), n.kind, cases)
        })
        .collect();
    PlanNames {
        plan_id: loaded.plan_id.clone(),
        state: loaded.state().to_string(),
        revision: loaded.revision(),
        nodes,
        phases,
        unphased,
        edges: c.edges.iter().map(|e| e.id.to_string()).collect(),
    }
}

impl Source for StoreSource {
    fn plan_ids(&self, t: &Target) -> Vec<String> {
        self.store(t)
            .and_then(|s| s.plan_ids().ok())
            .unwrap_or_default()
    }

    fn plan(&self, t: &Target) -> Option<Rc<PlanNames>> {
        let store = self.store(t)?;
        let id = self.plan_id(t)?;
        self.plan_names(&store, &id)
    }

    fn tools(&self, t: &Target) -> Vec<String> {
        let Some(store) = self.store(t) else {
            return Vec::new();
        };
        let Ok(Some(path)) = store.registry_path() else {
            return Vec::new();
        };
        let now = stamp(std::slice::from_ref(&path));
        if let Some((s, names)) = self.tools.borrow().get(&path)
            && *s == now
        {
            return names.clone();
        }
        let names: Vec<String> = match crate::model::registry::Registry::load(&path, true) {
            Ok(r) => r.tool_names().map(str::to_string).collect(),
            Err(_) => Vec::new(),
        };
        self.tools.borrow_mut().insert(path, (now, names.clone()));
        names
    }

    fn templates(&self, t: &Target) -> Vec<String> {
        let mut ids: Vec<String> = BUILTIN_IDS.with(|b| b.clone());
        if let Some(s) = self.store(t) {
            ids.extend(template_ids(&s.templates_dir()));
        }
        ids.sort();
        ids.dedup();
        ids
    }
}

thread_local! {
    /// The built-in template ids (parsed once per REPL).
    static BUILTIN_IDS: Vec<String> = crate::forge::template::builtins().into_iter().map(|t| t.id).collect();
}

/// The ids of the store's own templates: one file each in `templates/`,
/// named after the template.
pub(crate) fn template_ids(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = rd
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let (stem, ext) = name.rsplit_once('.')?;
            matches!(ext, "yaml" | "yml" | "json").then(|| stem.to_string())
        })
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// A hint: shown dimmed after the cursor; the right arrow accepts it only
/// when it is the rest of a word.
pub(crate) struct ReplHint {
    display: String,
    accept: bool,
}

impl Hint for ReplHint {
    fn display(&self) -> &str {
        &self.display
    }
    fn completion(&self) -> Option<&str> {
        self.accept.then_some(self.display.as_str())
    }
}

/// The REPL's rustyline helper.
pub(crate) struct ReplHelper {
    pub(crate) root: clap::Command,
    pub(crate) source: StoreSource,
    pub(crate) color: bool,
}

impl ReplHelper {
    pub(crate) fn new(session: Session, color: bool) -> ReplHelper {
        use clap::CommandFactory;
        let mut root = crate::cli::Cli::command();
        root.build();
        ReplHelper {
            root,
            source: StoreSource::new(session),
            color,
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let c = complete::complete(&self.root, line, pos, &self.source);
        Ok((c.start, c.candidates))
    }
}

impl Hinter for ReplHelper {
    type Hint = ReplHint;
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<ReplHint> {
        let (display, accept) = complete::hint(&self.root, line, pos, &self.source)?;
        Some(ReplHint {
            display: if accept {
                display
            } else {
                format!("  {display}")
            },
            accept,
        })
    }
}

impl Highlighter for ReplHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(hint.dimmed().to_string())
        } else {
            Cow::Borrowed(hint)
        }
    }
}

impl Validator for ReplHelper {
    /// A line that stops inside a quote or after a trailing backslash goes
    /// on on the next line, as in a shell.
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        Ok(match words::split_partial(ctx.input()).incomplete {
            Some(_) => ValidationResult::Incomplete,
            None => ValidationResult::Valid(None),
        })
    }
}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::repl::complete::Source;

    #[test]
    fn template_ids_include_the_built_ins_and_the_stores() {
        let dir = tempfile::tempdir().unwrap();
        let store = dir.path().join("plans");
        crate::forge::plans::init_store(&store).unwrap();
        std::fs::write(store.join("templates/mine.yaml"), "id: mine\n").unwrap();
        let src = StoreSource::new(Session::default());
        let t = Target {
            store: Some(store.display().to_string()),
            plan: None,
        };
        let ids = src.templates(&t);
        assert!(ids.iter().any(|i| i == "fan_out_2"), "{ids:?}");
        assert!(ids.iter().any(|i| i == "mine"), "{ids:?}");
    }
}
