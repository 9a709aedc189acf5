//! The forge: the one place operations live. The CLI, the REPL and the
//! model-facing tools are thin adapters over these functions.

pub(crate) mod echo;
pub(crate) mod edit;
pub(crate) mod editor;
pub(crate) mod explain;
pub(crate) mod kept_edit;
pub(crate) mod lifecycle;
pub(crate) mod near_miss;
pub(crate) mod node_edit;
#[cfg(test)]
mod oneshot_tests;
pub(crate) mod orchestrate;
pub mod plans;
pub(crate) mod present;
pub(crate) mod read;
pub(crate) mod registry_edit;
pub(crate) mod remove_field;
pub(crate) mod template;
pub mod templates;
pub(crate) mod undo;
pub(crate) mod upgrade;
pub mod validate;
#[cfg(test)]
mod warm_tests;

pub(crate) use echo::Echo;

use crate::check;
use crate::model::Issue;
use crate::model::Report;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::registry::Registry;
use crate::model::remedy::Remedy;
use crate::store::{Loaded, Store};
use std::cell::OnceCell;

/// An actor name from `--actor`, `PLANFORGE_ACTOR`, `$USER`, or `anonymous`.
pub(crate) fn resolve_actor(flag: Option<&str>) -> Result<String> {
    let from_env = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
    let (actor, source) = match flag {
        Some(a) => (a.to_string(), "--actor"),
        None => match from_env("PLANFORGE_ACTOR") {
            Some(a) => (a, "PLANFORGE_ACTOR"),
            None => match from_env("USER") {
                Some(u) if crate::model::ids::is_valid_actor(&u) => (u, "$USER"),
                _ => ("anonymous".to_string(), "default"),
            },
        },
    };
    if !crate::model::ids::is_valid_actor(&actor) {
        return Err(Error::invalid(format!(
            "the actor `{}` (from {source}) is not allowed: actors are 1–64 letters, digits, `_`, `.`, `@` or `-`",
            crate::model::ids::quote_id(&actor)
        )));
    }
    Ok(actor)
}

/// Operations on one store, as one actor.
pub(crate) struct Forge {
    store: Store,
    actor: String,
    registry: OnceCell<Option<Registry>>,
}

/// The checks' kept state read in parts by the threads that help (see
/// `store::early`).
struct KeptParts(check::incremental::Decoding);

impl crate::store::early::Job for KeptParts {
    fn help(&self, stop: &dyn Fn() -> bool) {
        self.0.help(stop);
    }
    fn made(&self) -> crate::store::early::Made {
        Box::new(self.0.take())
    }
}

impl Forge {
    pub(crate) fn new(store: Store, actor: impl Into<String>) -> Forge {
        let open = |bytes: &crate::store::early::Bytes| {
            let parts = check::incremental::Kept::decoding(bytes)?;
            Some(std::sync::Arc::new(KeptParts(parts))
                as std::sync::Arc<dyn crate::store::early::Job>)
        };
        let decoder = crate::store::early::Decoder(std::sync::Arc::new(open));
        Forge {
            store: store.decode_kept_with(decoder),
            actor: actor.into(),
            registry: OnceCell::new(),
        }
    }

    /// Uses `registry` instead of the store's own.
    pub(crate) fn with_registry(self, registry: Option<Registry>) -> Forge {
        let cell = OnceCell::new();
        let _ = cell.set(registry);
        Forge {
            registry: cell,
            ..self
        }
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// Called before every write: reads the registry first, so a registry
    /// that cannot be read refuses the change before anything is written (the
    /// echo after a write needs it; failing only then reported as failed a
    /// change that had landed).
    pub(crate) fn before_write(&self) -> Result<()> {
        self.registry().map(|_| ())
    }
    pub(crate) fn actor(&self) -> &str {
        &self.actor
    }

    /// The registry in use: the store's `registry.yaml`/`.json`, read once.
    pub(crate) fn registry(&self) -> Result<Option<&Registry>> {
        if let Some(r) = self.registry.get() {
            return Ok(r.as_ref());
        }
        let loaded = match self.store.registry_path()? {
            Some(p) => Some(Registry::load(&p, true)?),
            None => None,
        };
        Ok(self.registry.get_or_init(|| loaded).as_ref())
    }

    /// `make` over `after`, the plan a write left; made again over the
    /// log's fold when a definition `after` holds on the snapshot was found
    /// damaged late, while writing or while making (see `store::late`):
    /// an echo never shows what a damaged part gave.
    pub(crate) fn remade<T>(
        &self,
        after: &Loaded,
        make: impl Fn(&Loaded) -> Result<T>,
    ) -> Result<T> {
        let made = make(after);
        if !after.late_damaged() {
            return made;
        }
        make(&self.store.refold_late(&after.plan_id)?)
    }

    pub(crate) fn load(&self, plan: &str) -> Result<Loaded> {
        self.store.load(plan)
    }

    /// The plan, for a verdict (freeze, submit, validate): never a kept
    /// fold that the log's bytes do not verify.
    pub(crate) fn load_verified(&self, plan: &str) -> Result<Loaded> {
        self.store.load_verified(plan)
    }

    /// Every finding on a stored plan (the fold's first, then every check),
    /// for read commands and the echo of writes: kept in the plan's
    /// checkpoint, keyed by the log prefix the plan is the fold of (or, when
    /// that is not known, the content's digest) and everything else the
    /// findings depend on. A warm process keeps them in memory instead and,
    /// after a change, checks again only what the change can affect
    /// (`check::incremental`); a one-shot process does the same from the
    /// state the last one kept on disk (`checkpoint.kept`), when there is
    /// one for a prefix of the log.
    pub(crate) fn check(&self, loaded: &Loaded) -> Result<Report> {
        Ok(self.check_around(loaded, None)?.0)
    }

    /// As [`Forge::check`], with the positions of the edges into and out
    /// of node `focus` (for the echo of a write) when the checks' graph
    /// knows them: a warm plan's kept one, or the one a one-shot write's
    /// checks just brought up to `loaded` (rather than a pass over every
    /// edge).
    pub(crate) fn check_around(
        &self,
        loaded: &Loaded,
        focus: Option<&str>,
    ) -> Result<(Report, Option<Around>)> {
        let mut around = None;
        let report = self.check_once(loaded, focus.map(|id| (id, &mut around)))?;
        Ok((report, around))
    }

    /// [`Forge::check`], and the edges at `focus.0` into `focus.1` when
    /// the checks' graph knows them.
    fn check_once(
        &self,
        loaded: &Loaded,
        focus: Option<(&str, &mut Option<Around>)>,
    ) -> Result<Report> {
        let registry = self.registry()?;
        let notes = loaded.notes();
        let registry_key = registry
            .map(|r| r.fingerprint.as_str())
            .unwrap_or("no registry");
        if self.store.is_warm() {
            // The kept findings belong to one fold object (the warm entry
            // checks that), so the content needs no digest in the key.
            let key = format!("{notes:?}|{registry_key}");
            let report = self.check_warm(loaded, &key);
            if let Some((id, around)) = focus {
                *around = self.edges_around(loaded, id);
            }
            return Ok(report);
        }
        // A registry without a fingerprint cannot be told from another.
        let known = registry.is_none_or(|r| !r.fingerprint.is_empty());
        let Some(stamp) = loaded.stamp.as_ref().filter(|_| known) else {
            let key = findings_key(loaded.digest(), &notes, registry_key);
            if let Some(report) = self.cached_findings(&loaded.plan_id, &key) {
                return Ok(report);
            }
            let report = self.check_fresh(loaded)?;
            if known && !loaded.late_damaged() {
                let text = crate::wire::findings::report_text(&report);
                self.store.save_findings(&loaded.plan_id, &key, &text);
            }
            return Ok(report);
        };
        let key = findings_key(&stamp.key(), &notes, registry_key);
        // With kept checks for an earlier prefix, the checkpoint's findings
        // (if any) can only be a write's own, and the kept state is to be
        // brought up to this fold anyway.
        let moved = loaded
            .kept_checks
            .as_ref()
            .is_some_and(|k| k.at != stamp.len);
        if !moved && let Some(report) = self.cached_findings(&loaded.plan_id, &key) {
            return Ok(report);
        }
        let (report, kept, afresh) = self.check_from_kept(loaded, registry);
        if let Some((id, around)) = focus {
            *around = kept.edges_at(loaded.content(), id);
        }
        let state = (afresh || self.store.checks_worth_keeping(loaded)).then(|| kept.to_bytes());
        if loaded.leaks() {
            // The process exits after its answer: freeing every map of a
            // large plan's state costs more than nothing.
            std::mem::forget(kept);
        }
        let text = crate::wire::findings::report_text(&report);
        self.store.keep_checks(loaded, Some((key, text)), state);
        Ok(report)
    }

    /// A one-shot process's findings on `loaded`: from the checks' state
    /// an earlier one kept, run again on what changed since, or from
    /// nothing (every check on everything); the state they end with; and
    /// whether they started from nothing.
    fn check_from_kept(
        &self,
        loaded: &Loaded,
        registry: Option<&Registry>,
    ) -> (Report, check::incremental::Kept, bool) {
        let from = loaded.kept_checks.as_ref().and_then(|k| {
            // Decoded on another thread while the plan was restored, when a
            // one-shot write started it; else now.
            let early = k.early.take().and_then(|m| m.downcast::<Option<_>>().ok());
            let kept = match early {
                Some(kept) => *kept,
                // Not decoded early (or not sound: then not at all).
                None if !k.bytes.sound() => None,
                None => {
                    let bytes: crate::store::early::Bytes = std::sync::Arc::new(k.bytes.clone());
                    check::incremental::Kept::from_shared(&bytes)
                }
            }?;
            Some((kept, &k.touched))
        });
        let afresh = from.is_none();
        let (mut kept, touched) = match from {
            Some((kept, touched)) => (kept, Some(touched)),
            None => Default::default(),
        };
        let report = check::incremental::run(
            &mut kept,
            loaded.content(),
            registry,
            check::notes::issues_in(&loaded.notes(), loaded.content()),
            touched,
            loaded.encoded_len_if_known(),
        );
        (report, kept, afresh)
    }

    /// The findings the plan's checkpoint keeps under `key`, if any.
    pub(crate) fn cached_findings(&self, plan: &str, key: &str) -> Option<Report> {
        let text = self.store.cached_findings(plan, key)?;
        crate::wire::findings::report_from_text(&text, |c| check::by_code(c).map(|c| c.code()))
    }

    /// A warm process's findings on `loaded`: the kept ones, or the checks
    /// run again on what changed since the kept run (everything, when
    /// nothing is kept or what changed is not known).
    fn check_warm(&self, loaded: &Loaded, key: &str) -> Report {
        if let Some(report) = self.store.warm_findings(loaded, key) {
            return report;
        }
        let registry = self.registry().ok().flatten();
        let (mut kept, touched) = match self.store.take_warm_checks(loaded) {
            Some(c) => match c.state.downcast::<check::incremental::Kept>() {
                Ok(k) => (*k, Some(c.touched)),
                Err(_) => Default::default(),
            },
            None => Default::default(),
        };
        // The encoded size, measured from the last digest's marks where
        // there is one; else the digest is computed now, so that the next
        // write's size (and digest) costs only what that write changed.
        let encoded_len = loaded
            .encoded_len_if_known()
            .unwrap_or_else(|| loaded.folded.digested().1);
        let report = check::incremental::run(
            &mut kept,
            loaded.content(),
            registry,
            check::notes::issues_in(&loaded.notes(), loaded.content()),
            touched.as_ref(),
            Some(encoded_len),
        );
        self.store
            .keep_warm_findings(loaded, key, &report, Box::new(kept));
        report
    }

    /// The positions of the edges into and out of node `id` of `loaded`,
    /// each in edge order, when a warm process's checks keep its graph
    /// (after [`Forge::check`] on it): no pass over every edge.
    pub(crate) fn edges_around(&self, loaded: &Loaded, id: &str) -> Option<Around> {
        self.store.peek_warm_checks(loaded, |kept| {
            kept.downcast_ref::<check::incremental::Kept>()?
                .edges_at(loaded.content(), id)
        })
    }

    /// Every finding on a stored plan, computed now: what freeze, submit and
    /// validate decide on (never a cache).
    pub(crate) fn check_fresh(&self, loaded: &Loaded) -> Result<Report> {
        Ok(check::run_sized(
            loaded.content(),
            self.registry()?,
            check::notes::issues_in(&loaded.notes(), loaded.content()),
            loaded.encoded_len_if_known(),
        ))
    }
}

/// The key a stored plan's findings are kept under: they depend on the
/// content (named by `content`: the key of the log prefix it is the fold
/// of, or its digest), what the fold noticed
/// (lifecycle included), the registry (`registry_key`: its fingerprint, or
/// "no registry") and the checks themselves.
pub(crate) fn findings_key(
    content: &str,
    notes: &[crate::model::note::Note],
    registry_key: &str,
) -> String {
    crate::model::hash::hex_sha256(
        format!(
            "{}|{:?}|{}|{}",
            content,
            notes,
            registry_key,
            crate::store::checkpoint::binary_identity(),
        )
        .as_bytes(),
    )
}

/// Refuses an unknown node id with the nearest valid ones.
pub(crate) fn unknown_node(loaded: &Loaded, id: &str) -> Error {
    let ids = loaded.content().nodes.iter().map(|n| n.id.as_str());
    let hint = crate::model::suggest::did_you_mean(id, ids.clone());
    let quoted = crate::model::ids::quote_id(id);
    let err = Error::new(
        ErrorKind::UnknownNode,
        format!("plan {} has no node `{quoted}`{hint}", loaded.plan_id),
    )
    .on_plan(&loaded.plan_id);
    if loaded.content().nodes.is_empty() {
        err.with_help("the plan has no nodes yet")
            .fix(Remedy::AddNode {
                id: None,
                kind: None,
            })
    } else {
        err.with_help(format!(
            "nodes: {}",
            crate::model::suggest::choices(id, ids)
        ))
        .fix(Remedy::Outline.when("it lists every node id"))
    }
}

/// Refuses an unknown edge id with the nearest valid ones.
pub(crate) fn unknown_edge(loaded: &Loaded, id: &str) -> Error {
    let ids = loaded.content().edges.iter().map(|e| e.id.as_str());
    let hint = crate::model::suggest::did_you_mean(id, ids.clone());
    Error::new(
        ErrorKind::UnknownEdge,
        format!(
            "plan {} has no edge `{}`{hint}",
            loaded.plan_id,
            crate::model::ids::quote_id(id)
        ),
    )
    .with_help(if loaded.content().edges.is_empty() {
        "the plan has no edges".to_string()
    } else {
        format!("edges: {}", crate::model::suggest::choices(id, ids))
    })
}

/// The positions of the edges into and out of a node (see
/// [`Forge::check_around`]).
pub(crate) type Around = (Vec<usize>, Vec<usize>);

/// Issues that name a node, one of `edges`, or one of `neighbours`.
pub(crate) fn issues_near<'a>(
    issues: &'a [Issue],
    nodes: &[&str],
    edges: &[&str],
) -> impl Iterator<Item = &'a Issue> + 'a {
    let nodes: std::collections::HashSet<String> = nodes.iter().map(|s| s.to_string()).collect();
    let edges: std::collections::HashSet<String> = edges.iter().map(|s| s.to_string()).collect();
    issues.iter().filter(move |i| {
        i.node_id.as_ref().is_some_and(|n| nodes.contains(n))
            || i.edge_id.as_ref().is_some_and(|e| edges.contains(e))
    })
}
