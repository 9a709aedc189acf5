//! A plan's history: its revisions (as `diff` names them), the raw content
//! at a revision, and the ops of its log.

use crate::forge::Forge;
use crate::model::Op;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids::quote_id;

/// A revision selector of `diff` resolved in plan `id` at revision
/// `current`, last frozen at `frozen`: a number, `current`, `frozen`, or
/// `""` for the side's default.
pub(crate) fn revision_of(
    id: &str,
    current: u64,
    frozen: Option<u64>,
    sel: &str,
    default: &str,
) -> Result<(String, u64)> {
    let sel = if sel.is_empty() { default } else { sel };
    match sel {
        "current" => Ok(("current".into(), current)),
        "frozen" => match frozen {
            Some(f) => Ok(("frozen".into(), f)),
            None => Err(Error::new(
                ErrorKind::UnknownRevision,
                format!("plan {id} was never frozen, so there is no `frozen` revision to compare"),
            )
            .with_help(format!(
                "compare revision numbers instead (0 to {current}), or `current`"
            ))),
        },
        n => match n.parse::<u64>() {
            Ok(r) if r <= current => Ok((n.to_string(), r)),
            Ok(r) => Err(Error::new(
                ErrorKind::UnknownRevision,
                format!("plan {id} has no revision {r}; its revisions run from 0 to {current}"),
            )
            .with_help(format!(
                "use a number from 0 to {current}, `current` or `frozen`"
            ))),
            Err(_) => Err(Error::new(
                ErrorKind::UnknownRevision,
                format!("`{}` is not a revision of plan {id}", quote_id(n)),
            )
            .with_help(format!(
                "a revision is a number from 0 to {current}, `current` or `frozen`"
            ))),
        },
    }
}

impl Forge {
    /// The raw view of a plan's content at a revision (default: current),
    /// in wire form: `{planId, digest, revision, bounds, nodes, edges,
    /// provenance?}`.
    pub(crate) fn raw(&self, plan: &str, rev: Option<u64>) -> Result<serde_json::Value> {
        let p = self.store().load_at(plan, rev)?;
        Ok(crate::wire::codec::raw_json(p.content(), p.digest()))
    }

    /// The ops of complete transactions, in log order; with `through` (a
    /// revision), in fold order up to that revision's last content op; then
    /// only those with a lamport above `since_lamport`.
    pub(crate) fn ops(
        &self,
        plan: &str,
        since_lamport: Option<u64>,
        through: Option<u64>,
    ) -> Result<Vec<Op>> {
        let loaded = self.store().load_with_ops(plan)?;
        let mut ops = loaded.ops()?.to_vec();
        if let Some(r) = through {
            let head = loaded.head_revision;
            if r > head {
                return Err(Error::new(
                    ErrorKind::UnknownRevision,
                    format!("plan {plan} has no revision {r}; its revisions run from 0 to {head}"),
                )
                .with_help(format!("use a revision from 0 to {head}")));
            }
            ops = crate::store::fold::at_revision(ops, r);
        }
        if let Some(s) = since_lamport {
            ops.retain(|o| o.lamport > s);
        }
        Ok(ops)
    }
}
