//! Writing a plan: a transaction's ops, and the write transaction that
//! appends them under the plan's lock (state, expected revision and depth
//! checked first); a metadata change under the lock; a plan created whole
//! or removed whole under the store's lock.

use super::Store;
use super::atomic::{sync_dir, write_atomic};
use super::fold;
use super::load::{Loaded, fold_and_digest};
use super::log::{self, LogInfo};
use super::paths::{CURRENT_FILE, LOCK_FILE, META_FILE, OPS_FILE, refuse_special, refuse_symlink};
use super::{checkpoint, lock};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids;
use crate::model::lifecycle::{Meta, State};
use crate::model::remedy::Remedy;
use crate::model::{Op, OpBody};
use std::fs;

/// Builds the ops of one transaction: lamports R+1…R+k, one tx id, the last
/// op closing it.
pub fn transaction(actor: &str, plan_id: &str, revision: u64, bodies: Vec<OpBody>) -> Vec<Op> {
    transaction_labeled(actor, plan_id, revision, "", bodies)
}

/// As [`transaction`], with a tx id that starts with `label` (e.g. `undo-…`,
/// so later readers can tell what a transaction was for).
pub(crate) fn transaction_labeled(
    actor: &str,
    plan_id: &str,
    revision: u64,
    label: &str,
    bodies: Vec<OpBody>,
) -> Vec<Op> {
    let tx = format!("{label}{}", crate::model::mint::tx_id());
    let at = crate::model::clock::now();
    let k = bodies.len();
    bodies
        .into_iter()
        .enumerate()
        .map(|(i, body)| {
            let lamport = revision + i as u64 + 1;
            Op {
                op_id: format!("{actor}:{plan_id}:{lamport}:{tx}"),
                actor_id: actor.to_string(),
                lamport,
                at: at.clone(),
                tx: tx.clone(),
                tx_end: i + 1 == k,
                body,
            }
        })
        .collect()
}

impl Store {
    /// Runs one write transaction on a plan under its lock: checks the state
    /// and the expected revision, asks `build` for the ops (it sees the plan
    /// folded under the lock and may refuse), appends them in one write and
    /// returns the plan after the write. No ops → nothing is written.
    pub(crate) fn commit<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnOnce(&Loaded) -> Result<Vec<OpBody>>,
    {
        self.commit_labeled(id, actor, expect_rev, "", build)
    }

    /// As [`commit`](Self::commit), with a tx id starting with `label`.
    pub(crate) fn commit_labeled<F>(
        &self,
        id: &str,
        actor: &str,
        expect_rev: Option<u64>,
        label: &str,
        build: F,
    ) -> Result<(Loaded, Vec<Op>)>
    where
        F: FnOnce(&Loaded) -> Result<Vec<OpBody>>,
    {
        let dir = self.plan_dir(id)?;
        if !dir.join(META_FILE).exists() {
            return Err(self.unknown_plan(id));
        }
        refuse_symlink(&dir)?;
        let _guard = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
        // A labelled transaction (undo) reads history; others need only the
        // folded plan.
        let before = if label.is_empty() {
            self.load(id)?
        } else {
            self.load_with_ops(id)?
        };
        ensure_editable(&before)?;
        if let Some(want) = expect_rev
            && want != before.revision()
        {
            return Err(Error::new(
                ErrorKind::RevisionMoved,
                format!("plan {id} is at revision {}, not {want}: someone changed it since you read it", before.revision()),
            )
            .with_help("read the plan again (status, outline or read) and redo the change against the new revision"));
        }
        let bodies = build(&before)?;
        if bodies.is_empty() {
            return Ok((before, Vec::new()));
        }
        refuse_too_deep(&bodies)?;
        // New ops must sort after every op in the log. A log planforge wrote
        // numbers its ops 1, 2, 3 … so that is the revision (SPEC §2); a log
        // with lines removed or edited by hand can hold higher lamports, and
        // ops numbered from the revision would sort before them and be lost.
        let base = before.revision().max(before.log.max_lamport);
        if base.saturating_add(bodies.len() as u64) > crate::model::value::MAX_SAFE_INTEGER as u64 {
            return Err(Error::new(
                ErrorKind::CorruptStore,
                format!(
                    "{}: the highest lamport in the log is {}, too close to 2^53−1 for another change to be numbered after it",
                    dir.join(OPS_FILE).display(),
                    before.log.max_lamport
                ),
            )
            .with_help("the log was edited by hand; export the plan and import the document under a new id"));
        }
        let ops = transaction_labeled(actor, id, base, label, bodies);
        log::append(&dir.join(OPS_FILE), &before.log, &ops)?;
        let mut meta = before.meta.clone();
        meta.updated_at = crate::model::clock::now();
        write_atomic(
            &dir.join(META_FILE),
            crate::wire::json::pretty(&meta.to_json()).as_bytes(),
        )?;
        // The new ops sort after every older one (their lamports are above
        // every lamport in the log), so they apply on top of the fold already
        // made.
        let mut before = before;
        let folded = std::mem::replace(&mut before.folded, fold::Folded::empty(id));
        let after = match fold::fold_after(folded, before.log.max_lamport, &ops) {
            Some(folded) => {
                let (digest, encoded_len) = crate::wire::jcs::digest(&folded.content);
                let max_lamport = ops
                    .iter()
                    .map(|o| o.lamport)
                    .max()
                    .unwrap_or(0)
                    .max(before.log.max_lamport);
                let log = LogInfo {
                    max_lamport,
                    unfinished: 0,
                    head: before.log.head + ops.len() as u64,
                    ..before.log
                };
                let kept = before.ops.take().map(|mut all| {
                    all.extend(ops.iter().cloned());
                    all
                });
                // Under the lock the file is ours: its stamp now is exact.
                let stamp = checkpoint::log_stamp(&dir.join(OPS_FILE));
                Loaded {
                    plan_id: id.to_string(),
                    meta,
                    log,
                    ops: kept,
                    folded,
                    digest,
                    encoded_len,
                    stamp,
                    cached: None,
                    leak: self.one_shot,
                }
            }
            None => {
                drop(before);
                let mut reloaded = self.load(id)?;
                reloaded.meta = meta;
                reloaded
            }
        };
        Ok((after, ops))
    }

    /// Changes a plan's metadata (lifecycle transitions) under its lock.
    pub(crate) fn update_meta<F>(&self, id: &str, change: F) -> Result<Loaded>
    where
        F: FnOnce(&Loaded, &mut Meta) -> Result<()>,
    {
        let dir = self.plan_dir(id)?;
        if !dir.join(META_FILE).exists() {
            return Err(self.unknown_plan(id));
        }
        refuse_symlink(&dir)?;
        let _guard = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
        let mut loaded = self.load(id)?;
        let mut meta = loaded.meta.clone();
        change(&loaded, &mut meta)?;
        meta.updated_at = crate::model::clock::now();
        write_atomic(
            &dir.join(META_FILE),
            crate::wire::json::pretty(&meta.to_json()).as_bytes(),
        )?;
        loaded.meta = meta;
        Ok(loaded)
    }

    /// Creates a plan from a first transaction (no ops: an empty plan).
    pub(crate) fn create(
        &self,
        id: &str,
        actor: &str,
        meta: Meta,
        bodies: Vec<OpBody>,
    ) -> Result<Loaded> {
        let ops = if bodies.is_empty() {
            Vec::new()
        } else {
            transaction(actor, id, 0, bodies)
        };
        self.create_with_ops(id, meta, ops)
    }

    /// Creates a plan holding exactly `ops` (complete transactions). The
    /// folder is built under a temporary name inside the store and renamed
    /// into place, so a plan appears whole or not at all.
    pub(crate) fn create_with_ops(&self, id: &str, meta: Meta, ops: Vec<Op>) -> Result<Loaded> {
        let dir = self.plan_dir(id)?;
        // The commands that create a plan then make it current: a `current`
        // that cannot be written refuses before anything is created, not after.
        refuse_special(&self.root.join(CURRENT_FILE))?;
        refuse_too_deep(ops.iter().map(|o| &o.body))?;
        let _guard = lock::acquire(&self.root.join(".lock"), "the store")?;
        if fs::symlink_metadata(&dir).is_ok() {
            return Err(Error::new(
                ErrorKind::DuplicateId,
                format!("a plan `{id}` already exists in {}", self.root.display()),
            )
            .with_help("choose another id, or remove the existing plan first"));
        }
        let tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempdir_in(&self.root)
            .map_err(|e| Error::io("create a temporary folder in", &self.root, &e))?;
        log::write_new(&tmp.path().join(OPS_FILE), &ops)?;
        let meta_text = crate::wire::json::pretty(&meta.to_json());
        let mp = tmp.path().join(META_FILE);
        fs::write(&mp, meta_text).map_err(|e| Error::io("write", &mp, &e))?;
        fs::File::open(&mp)
            .and_then(|f| f.sync_all())
            .map_err(|e| Error::io("sync", &mp, &e))?;
        sync_dir(tmp.path());
        let tmp_path = tmp.keep();
        if let Err(e) = fs::rename(&tmp_path, &dir) {
            let _ = fs::remove_dir_all(&tmp_path);
            return Err(Error::io("move the new plan into", &dir, &e));
        }
        sync_dir(&self.root);
        let (folded, digest, encoded_len) = fold_and_digest(id, &ops, &meta);
        let info = LogInfo {
            max_lamport: ops.iter().map(|o| o.lamport).max().unwrap_or(0),
            ends_with_newline: true,
            head: ops.len() as u64,
            ..LogInfo::default()
        };
        let stamp = checkpoint::log_stamp(&dir.join(OPS_FILE));
        Ok(Loaded {
            plan_id: id.to_string(),
            meta,
            log: info,
            ops: Some(ops),
            folded,
            digest,
            encoded_len,
            stamp,
            cached: None,
            leak: self.one_shot,
        })
    }

    /// Deletes a plan: renamed aside first, so readers see it whole or gone.
    pub(crate) fn remove(&self, id: &str) -> Result<()> {
        let dir = self.plan_dir(id)?;
        if !dir.join(META_FILE).exists() {
            return Err(self.unknown_plan(id));
        }
        refuse_symlink(&dir)?;
        let _store = lock::acquire(&self.root.join(".lock"), "the store")?;
        let _plan = lock::acquire(&dir.join(LOCK_FILE), &format!("plan {id}"))?;
        let aside = self
            .root
            .join(format!(".tmp-removed-{}", crate::model::mint::tx_id()));
        fs::rename(&dir, &aside).map_err(|e| Error::io("remove", &dir, &e))?;
        sync_dir(&self.root);
        fs::remove_dir_all(&aside).map_err(|e| Error::io("remove", &aside, &e))?;
        if self.current()?.as_deref() == Some(id) {
            let _ = fs::remove_file(self.root.join(CURRENT_FILE));
        }
        Ok(())
    }
}

/// Refuses a definition nested deeper than a plan can hold: written anyway,
/// its op line would be refused by the next read (the plan would no longer
/// load), and its document by the next import.
fn refuse_too_deep<'a>(bodies: impl IntoIterator<Item = &'a OpBody>) -> Result<()> {
    use crate::wire::codec::{MAX_DEFINITION_DEPTH, map_depth};
    for b in bodies {
        let (node, def) = match b {
            OpBody::AddNode { node } => (&node.id, &node.definition),
            OpBody::SetNodeDefinition {
                node_id,
                definition,
            } => (node_id, definition),
            _ => continue,
        };
        let depth = map_depth(def);
        if depth > MAX_DEFINITION_DEPTH {
            return Err(Error::invalid(format!(
                "the definition of `{}` is nested {depth} levels deep; a plan holds definitions up to {MAX_DEFINITION_DEPTH} levels (so that its op log and its documents read back); flatten it",
                ids::quote_id(node),
            )));
        }
    }
    Ok(())
}

/// Refuses writes to a plan that is not editable, saying how to proceed.
pub(crate) fn ensure_editable(p: &Loaded) -> Result<()> {
    match p.meta.state {
        State::Editable => Ok(()),
        State::Reviewable => Err(Error::new(
            ErrorKind::NotEditable,
            format!(
                "plan {} is reviewable (frozen at revision {}); its content cannot change",
                p.plan_id,
                p.revision()
            ),
        )
        .on_plan(&p.plan_id)
        .fix(Remedy::Unfreeze.when("to edit it again (the freeze is then undone)"))
        .with_help("or submit it as it is")),
        State::Executable => Err(Error::new(
            ErrorKind::NotEditable,
            format!(
                "plan {} is executable (approved); nothing can change it, ever",
                p.plan_id
            ),
        )
        .on_plan(&p.plan_id)
        .fix(Remedy::Clone.when("to keep working on a copy"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Node, NodeKind, Value};
    use crate::wire::codec::MAX_DEFINITION_DEPTH;

    /// A definition `{"x": [[…]]}` exactly `depth` levels deep.
    fn nested(depth: usize) -> crate::model::value::Map {
        let mut v = Value::Array(Vec::new());
        for _ in 2..depth {
            v = Value::Array(vec![v]);
        }
        let mut m = crate::model::value::Map::new();
        m.insert("x".into(), v);
        m
    }

    fn add(store: &Store, id: &str, depth: usize) -> Result<(Loaded, Vec<Op>)> {
        store.commit("plan-d", "t", None, |_| {
            Ok(vec![OpBody::AddNode {
                node: Node {
                    id: id.into(),
                    phase: None,
                    kind: NodeKind::Join,
                    definition: nested(depth),
                },
            }])
        })
    }

    #[test]
    fn a_definition_deeper_than_a_plan_holds_is_refused_before_it_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let (store, _) = Store::init(dir.path(), crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
        store
            .create("plan-d", "t", Meta::new("2026-01-01T00:00:00Z"), vec![])
            .unwrap();
        assert_eq!(crate::wire::codec::map_depth(&nested(7)), 7);
        let e = add(&store, "deep", MAX_DEFINITION_DEPTH + 1).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidInput, "{}", e.message);
        assert_eq!(store.load("plan-d").unwrap().revision(), 0);
        // At the bound it is written, the plan loads, and its export reads
        // back, as JSON and as YAML.
        add(&store, "edge", MAX_DEFINITION_DEPTH).unwrap();
        let p = store.load("plan-d").unwrap();
        assert_eq!(p.revision(), 1);
        let doc = crate::wire::codec::document_json(p.content(), None, None, None);
        let json = crate::wire::json::pretty(&doc);
        let back = crate::wire::codec::document(&json, crate::wire::Syntax::Json).unwrap();
        assert_eq!(back.nodes, p.content().nodes);
        let yaml = crate::wire::json::yaml(&doc);
        let back = crate::wire::codec::document(&yaml, crate::wire::Syntax::Yaml).unwrap();
        assert_eq!(back.nodes, p.content().nodes);
    }
}
