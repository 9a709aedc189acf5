//! Whole-plan operations: create, list, status, clone, import, export.

use super::Forge;
use super::echo::{self, Echo};
use super::read::Source;
use crate::model::Counts;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids;
use crate::model::lifecycle::{Meta, State};
use crate::model::{Bounds, Content, Edge, Node, OpBody};
use crate::store::{Loaded, Start, Store};
use crate::wire::codec::Document;

/// One row of `list`.
#[derive(Debug, Clone)]
pub(crate) struct Summary {
    pub(crate) plan_id: String,
    /// `None` when the plan could not be read (see `damaged`).
    pub(crate) state: Option<State>,
    pub(crate) revision: Option<u64>,
    pub(crate) label: Option<String>,
    pub(crate) updated_at: Option<String>,
    /// Why the plan could not be read, when it could not: one damaged plan
    /// does not hide the others.
    pub(crate) damaged: Option<String>,
    /// The folder holds no op log (`damaged` says what it holds).
    pub(crate) no_log: bool,
}

/// What `status` reports.
#[derive(Debug, Clone)]
pub(crate) struct Status {
    pub(crate) plan_id: String,
    /// The lifecycle and metadata.
    pub(crate) meta: Meta,
    pub(crate) revision: u64,
    pub(crate) digest: String,
    pub(crate) node_count: usize,
    pub(crate) edge_count: usize,
    pub(crate) counts: Counts,
    pub(crate) skipped: Vec<(&'static str, String)>,
}

/// What `import` did.
#[derive(Debug, Clone)]
pub(crate) struct Imported {
    pub(crate) loaded: Loaded,
    /// Claims of the document that were dropped (state, approval …).
    pub(crate) notes: Vec<String>,
    pub(crate) counts: Counts,
}

/// The status of `loaded`, whose findings are `report`.
pub(crate) fn status_of(loaded: &Loaded, report: crate::model::Report) -> Status {
    Status {
        plan_id: loaded.plan_id.clone(),
        meta: loaded.meta.clone(),
        revision: loaded.revision(),
        digest: loaded.digest().to_string(),
        node_count: loaded.content().nodes.len(),
        edge_count: loaded.content().edges.len(),
        counts: report.counts(),
        skipped: report.skipped,
    }
}

/// The label of an `author` request: its first 80 characters, whitespace
/// runs folded to one space.
pub(crate) fn label_of(request: &str) -> String {
    let folded = request.split_whitespace().collect::<Vec<_>>().join(" ");
    folded
        .chars()
        .filter(|&c| !ids::is_line_control(c) && !ids::is_bidi_control(c))
        .take(80)
        .collect()
}

impl Forge {
    /// Creates an empty editable plan (revision 0, default bounds).
    pub(crate) fn create_plan(
        &self,
        id: Option<&str>,
        label: Option<&str>,
        request: Option<&str>,
    ) -> Result<Loaded> {
        let id = match id {
            Some(i) => i.to_string(),
            None => crate::model::mint::plan_id(),
        };
        check_plan_id(&id)?;
        if let Some(l) = label {
            check_label(l)?;
        }
        let start = Start {
            label: label.map(str::to_string),
            request: request.map(str::to_string),
            provenance: None,
        };
        self.before_write()?;
        self.store().create(&id, self.actor(), start, vec![])
    }

    /// Every plan in the store.
    pub(crate) fn list(&self) -> Result<Vec<Summary>> {
        let mut out = Vec::new();
        for id in self.store().plan_ids()? {
            out.push(match self.store().load(&id) {
                Ok(p) => Summary {
                    plan_id: id,
                    state: Some(p.meta.state),
                    revision: Some(p.revision()),
                    label: p.meta.label.clone(),
                    updated_at: Some(p.meta.updated_at.clone()),
                    damaged: None,
                    no_log: false,
                },
                Err(e) => Summary {
                    plan_id: id,
                    state: None,
                    revision: None,
                    label: None,
                    updated_at: None,
                    damaged: Some(e.message),
                    no_log: false,
                },
            });
        }
        for (id, what) in self.store().logless_folders()? {
            let damaged = Some(format!("{}; {}", what.why(&id), what.help(&id)));
            out.push(Summary {
                plan_id: id,
                state: None,
                revision: None,
                label: None,
                updated_at: None,
                damaged,
                no_log: true,
            });
        }
        out.sort_by(|a, b| a.plan_id.cmp(&b.plan_id));
        Ok(out)
    }

    pub(crate) fn status(&self, plan: &str) -> Result<Status> {
        // In place from the snapshot when it can answer (see `read::in_place`).
        let in_place = self.in_place_with(plan, |p| {
            Some(Status {
                plan_id: p.plan.plan_id_str().to_string(),
                meta: p.meta.clone(),
                revision: p.plan.revision(),
                digest: p.plan.digest().to_string(),
                node_count: p.plan.node_count(),
                edge_count: p.plan.edge_count(),
                counts: p.report.counts(),
                skipped: p.report.skipped.clone(),
            })
        });
        if let Some(status) = in_place {
            return Ok(status);
        }
        // Each definition built when read (after a write, the digest reads
        // the changed ones and the checks the touched ones): answered again
        // from the log's fold when one of them was found damaged.
        let loaded = self.store().load_to_check(plan)?;
        self.remade(&loaded, |l| Ok(status_of(l, self.check(l)?)))
    }

    /// Clones the first `at` ops of a plan (default all) into a new editable plan.
    pub(crate) fn clone_plan(&self, source: &str, new_id: &str, at: Option<u64>) -> Result<Echo> {
        check_plan_id(new_id)?;
        let parent = self.store().load_at_with_ops(source, at)?;
        // The content ops only: the copy starts its own lifecycle.
        let mut ops: Vec<crate::model::Op> = parent
            .ops()?
            .iter()
            .filter(|o| o.body.is_content())
            .cloned()
            .collect();
        crate::store::fold::sort_ops(&mut ops);
        if let Some(last) = ops.last_mut() {
            // A prefix may end inside a transaction; in the clone it is whole.
            last.tx_end = true;
        }
        let start = Start {
            label: parent.meta.label.clone(),
            request: parent.meta.request.clone(),
            provenance: Some(crate::model::Provenance::Clone {
                parent: source.to_string(),
                parent_digest: parent.digest().to_string(),
                parent_revision: parent.revision(),
            }),
        };
        self.before_write()?;
        let created = self.store().create_copy(new_id, self.actor(), start, ops)?;
        let report = self.check(&created)?;
        let details = vec![
            format!(
                "parent: {source} at revision {} (digest {})",
                parent.revision(),
                parent.digest()
            ),
            format!(
                "{} node(s), {} edge(s)",
                created.content().nodes.len(),
                created.content().edges.len()
            ),
        ];
        Ok(echo::build(
            &created,
            format!("cloned {source} into {new_id} (editable)"),
            None,
            &report.issues,
            details,
            &[],
            &[],
        ))
    }

    /// Imports a plan document as a new editable plan: `set_bounds`, the
    /// nodes, the edges, in one transaction.
    pub(crate) fn import(&self, doc: Document, id: Option<&str>) -> Result<Imported> {
        let mut notes = Vec::new();
        if let Some(claimed) = &doc.digest {
            let actual = doc.content_digest();
            if &actual != claimed {
                return Err(Error::refused(format!(
                    "the document claims digest {claimed}, but its content hashes to {actual}: it was changed after export"
                ))
                .with_issue(crate::check::digest_mismatch::document_issue(doc.plan_id.as_deref(), claimed, &actual))
                .with_help("remove the `digest` field to import the content as it is now, or re-export the original"));
            }
        }
        let id = match id.or(doc.plan_id.as_deref()) {
            Some(i) => i.to_string(),
            None => crate::model::mint::plan_id(),
        };
        check_plan_id(&id)?;
        if let Some(state) = &doc.state
            && state != "editable"
        {
            notes.push(format!("the document says it is {state}; imported plans always start editable (freeze and submit it again)"));
        }
        if let Some(l) = &doc.label {
            check_label(l)?;
        }
        let start = Start {
            label: doc.label.clone(),
            request: None,
            provenance: doc.provenance.clone(),
        };
        let bodies = import_bodies(doc.bounds, doc.nodes, doc.edges);
        self.before_write()?;
        let loaded = self.store().create(&id, self.actor(), start, bodies)?;
        let counts = self.check(&loaded)?.counts();
        Ok(Imported {
            loaded,
            notes,
            counts,
        })
    }

    /// A plan as a document value (wire form), at a revision; without its
    /// digest when `digest` is false (a document to edit by hand).
    pub(crate) fn export(
        &self,
        plan: &str,
        rev: Option<u64>,
        digest: bool,
    ) -> Result<serde_json::Value> {
        let p = self.store().load_at(plan, rev)?;
        // An earlier revision was editable when it was the latest: whatever
        // the plan became later (frozen, approved) was decided about later
        // content.
        let state = if p.revision() < p.head_revision {
            "editable"
        } else {
            p.meta.state.as_str()
        };
        Ok(crate::wire::codec::document_json(
            p.content(),
            p.meta.label.as_deref(),
            Some(state),
            digest.then_some(p.digest()),
        ))
    }
}

/// The content a document describes, as the fold of its import would give
/// it (without renaming): used to check a claimed digest.
pub fn document_content(doc: &Document, plan_id: &str) -> Content {
    Content {
        plan_id: plan_id.to_string(),
        revision: doc.revision.unwrap_or(0),
        bounds: doc.bounds.unwrap_or_default(),
        nodes: doc.nodes.clone(),
        edges: doc.edges.clone(),
        provenance: doc.provenance.clone(),
    }
}

/// Refuses a plan id that breaks the rule (it is also a folder name).
/// The ops of a document's import, in order: `set_bounds`, the nodes, the
/// edges (moved, not copied).
pub(crate) fn import_bodies(
    bounds: Option<Bounds>,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
) -> Vec<OpBody> {
    let mut bodies = Vec::with_capacity(1 + nodes.len() + edges.len());
    bodies.push(OpBody::SetBounds {
        bounds: bounds.unwrap_or_default(),
    });
    bodies.extend(nodes.into_iter().map(|node| OpBody::AddNode { node }));
    bodies.extend(edges.into_iter().map(|edge| OpBody::AddEdge { edge }));
    bodies
}

/// Refuses a label that is not one short line (see [`ids::label_problem`]).
pub(crate) fn check_label(label: &str) -> Result<()> {
    match ids::label_problem(label) {
        None => Ok(()),
        Some(why) => Err(Error::new(
            ErrorKind::InvalidInput,
            format!(
                "the label \"{}\" is not allowed: {why}",
                ids::quote_id(label)
            ),
        )
        .with_help("give a one-line title of at most 200 characters, or leave the label out")),
    }
}

pub(crate) fn check_plan_id(id: &str) -> Result<()> {
    if ids::is_valid_plan_id(id) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::InvalidInput,
        format!(
            "`{}` is not a valid plan id: plan ids are `plan-` followed by 1–64 letters, digits, `_` or `-` (so they can never name a path outside the store)",
            ids::quote_id(id)
        ),
    )
    .with_help("for example `plan-triage_2`"))
}

/// Creates (or completes) a store folder with the commented default
/// registry (`planforge init`); returns the store and the files written.
pub(crate) fn init_store(dir: &std::path::Path) -> Result<(Store, Vec<String>)> {
    Store::init(dir, crate::registry::DEFAULT_REGISTRY_YAML)
}
