//! Reading a plan: its metadata and op log, folded (at a revision, or
//! current), digested, with the checkpoint that spares an unchanged log the
//! digest and the checks.

use super::Store;
use super::checkpoint;
use super::fold::{self, Folded};
use super::log::{self, Log, LogInfo};
use super::paths::{META_FILE, OPS_FILE, refuse_special, refuse_symlink};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::lifecycle::{Meta, State};
use crate::model::note::Note;
use crate::model::{Content, Op};
use std::fs;
use std::path::Path;

/// A plan read from the store and folded.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    pub(crate) plan_id: String,
    pub(crate) meta: Meta,
    /// Where the log file stands (for the next writer).
    pub(crate) log: LogInfo,
    /// Ops of complete transactions, in log order (revision N = the first
    /// N); kept only when asked for (see [`Loaded::ops`]).
    pub(super) ops: Option<Vec<Op>>,
    pub(crate) folded: Folded,
    pub(crate) digest: String,
    /// Byte length of the canonical text the digest hashes.
    pub(crate) encoded_len: usize,
    /// The log file's (length, mtime) this was read from, when exact.
    pub(super) stamp: Option<(u64, u128)>,
    /// Findings cached in the checkpoint, with their key.
    pub(super) cached: Option<(String, serde_json::Value)>,
    /// Left to the operating system when dropped ([`Store::one_shot`]).
    pub(super) leak: bool,
}

impl Drop for Loaded {
    fn drop(&mut self) {
        if self.leak {
            // The process is about to exit: skip freeing the plan's many
            // small allocations (see `Store::one_shot`).
            std::mem::forget(std::mem::take(&mut self.folded.content.nodes));
            std::mem::forget(std::mem::take(&mut self.folded.content.edges));
            std::mem::forget(self.ops.take());
        }
    }
}

impl Loaded {
    /// Assembles a loaded plan (for stores' tests and in-memory plans).
    #[cfg(test)]
    pub(crate) fn new(
        plan_id: &str,
        meta: Meta,
        log: LogInfo,
        ops: Option<Vec<Op>>,
        folded: Folded,
        digest: String,
        encoded_len: usize,
    ) -> Loaded {
        Loaded {
            plan_id: plan_id.to_string(),
            meta,
            log,
            ops,
            folded,
            digest,
            encoded_len,
            stamp: None,
            cached: None,
            leak: false,
        }
    }

    /// Findings cached for this exact plan under `key`, if any.
    pub(crate) fn cached_findings(&self, key: &str) -> Option<&serde_json::Value> {
        self.cached
            .as_ref()
            .filter(|(k, _)| k == key)
            .map(|(_, r)| r)
    }

    /// The ops of complete transactions, in log order. Only plans loaded with
    /// `load_with_ops` / `load_at_with_ops` (or inside `commit_labeled`) keep
    /// them: most readers need the folded content only.
    pub(crate) fn ops(&self) -> Result<&[Op]> {
        self.ops.as_deref().ok_or_else(|| {
            Error::internal(format!(
                "plan {} was loaded without its op log; this is a bug in planforge",
                self.plan_id
            ))
        })
    }

    pub(crate) fn content(&self) -> &Content {
        &self.folded.content
    }
    pub(crate) fn revision(&self) -> u64 {
        self.folded.content.revision
    }
    pub(crate) fn state(&self) -> State {
        self.meta.state
    }

    /// What the fold noticed, plus the integrity check of a non-editable
    /// plan: its content must still hash to the digest recorded at freeze.
    pub(crate) fn notes(&self) -> Vec<Note> {
        let mut out = self.folded.notes.clone();
        if self.meta.state != State::Editable
            && let Some(f) = &self.meta.frozen
            && f.digest != self.digest
        {
            out.push(Note::DigestMismatch {
                plan: self.plan_id.clone(),
                state: self.meta.state,
                frozen: f.digest.clone(),
                actual: self.digest.clone(),
            });
        }
        out
    }
}

/// Folds ops with a plan's provenance and digests the result.
pub(crate) fn fold_and_digest(plan_id: &str, ops: &[Op], meta: &Meta) -> (Folded, String, usize) {
    let folded = fold::fold(plan_id, ops, meta.provenance.clone());
    let (digest, len) = crate::wire::jcs::digest(&folded.content);
    (folded, digest, len)
}

impl Store {
    fn read_meta(&self, id: &str, dir: &Path) -> Result<Meta> {
        refuse_symlink(dir)?;
        let path = dir.join(META_FILE);
        refuse_special(&path)?;
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(self.unknown_plan(id)),
            Err(e) => {
                return Err(Error::new(
                    ErrorKind::CorruptStore,
                    format!("could not read {}: {e}", path.display()),
                ));
            }
        };
        Meta::parse(&text, &format!("{id}/{META_FILE}"))
    }

    /// Loads and folds a plan at its current revision (without keeping its
    /// ops).
    pub(crate) fn load(&self, id: &str) -> Result<Loaded> {
        self.load_impl(id, None, false)
    }

    /// As [`load`](Self::load), keeping the ops (for history: diff, undo, ops).
    pub(crate) fn load_with_ops(&self, id: &str) -> Result<Loaded> {
        self.load_impl(id, None, true)
    }

    /// Loads a plan folded at `revision` (its first N ops), or at its current
    /// revision.
    pub(crate) fn load_at(&self, id: &str, revision: Option<u64>) -> Result<Loaded> {
        self.load_impl(id, revision, false)
    }

    /// As [`load_at`](Self::load_at), keeping the ops.
    pub(crate) fn load_at_with_ops(&self, id: &str, revision: Option<u64>) -> Result<Loaded> {
        self.load_impl(id, revision, true)
    }

    fn load_impl(&self, id: &str, revision: Option<u64>, keep_ops: bool) -> Result<Loaded> {
        let dir = self.plan_dir(id)?;
        let meta = self.read_meta(id, &dir)?;
        let ops_path = dir.join(OPS_FILE);
        refuse_special(&ops_path)?;
        // Stat before reading: a write in between changes the length.
        let stamp = checkpoint::log_stamp(&ops_path);
        let Log { mut ops, info } = log::read(&ops_path, id)?;
        let stamp = stamp.filter(|(len, _)| *len == info.len);
        let whole = match revision {
            Some(r) if r > ops.len() as u64 => {
                return Err(Error::new(
                    ErrorKind::UnknownRevision,
                    format!(
                        "plan {id} has no revision {r}; its revisions run from 0 to {}",
                        ops.len()
                    ),
                ));
            }
            Some(r) if r < ops.len() as u64 => {
                ops.truncate(r as usize);
                false
            }
            _ => true,
        };
        let (mut folded, ops) = if keep_ops {
            (fold::fold(id, &ops, meta.provenance.clone()), Some(ops))
        } else {
            (fold::fold_owned(id, ops, meta.provenance.clone()), None)
        };
        // The digest of an unchanged log is in the checkpoint.
        let saved = if whole {
            stamp.and_then(|_| checkpoint::read(&dir))
        } else {
            None
        };
        let fresh = saved.filter(|c| {
            Some((c.log_len, c.log_modified)) == stamp && c.revision == folded.content.revision
        });
        let (digest, encoded_len, cached) = match fresh {
            Some(c) => (c.digest, c.encoded_len, c.findings),
            None => {
                let (digest, encoded_len) = crate::wire::jcs::digest(&folded.content);
                if whole && let Some((log_len, log_modified)) = stamp {
                    let c = checkpoint::Checkpoint {
                        log_len,
                        log_modified,
                        revision: folded.content.revision,
                        digest: digest.clone(),
                        encoded_len,
                        findings: None,
                    };
                    checkpoint::write(&dir, &c);
                }
                (digest, encoded_len, None)
            }
        };
        if whole && info.unfinished > 0 {
            folded.notes.push(Note::TornTail {
                ops: info.unfinished,
            });
        }
        Ok(Loaded {
            plan_id: id.to_string(),
            meta,
            log: info,
            ops,
            folded,
            digest,
            encoded_len,
            stamp: if whole { stamp } else { None },
            cached,
            leak: self.one_shot,
        })
    }

    /// Keeps a plan's findings in its checkpoint, valid under `key` (the
    /// caller's digest of everything the findings depend on).
    pub(crate) fn save_findings(&self, loaded: &Loaded, key: &str, findings: serde_json::Value) {
        let Some((log_len, log_modified)) = loaded.stamp else {
            return;
        };
        let Ok(dir) = self.plan_dir(&loaded.plan_id) else {
            return;
        };
        let c = checkpoint::Checkpoint {
            log_len,
            log_modified,
            revision: loaded.revision(),
            digest: loaded.digest.clone(),
            encoded_len: loaded.encoded_len,
            findings: Some((key.to_string(), findings)),
        };
        checkpoint::write(&dir, &c);
    }
}
