//! `edit ID --from FILE`: a file an earlier edit kept, reopened on a newer
//! revision. The file's header records the revision it was made at (its
//! base). Each field (the phase, and each key of the definition) is merged
//! three ways, as git merges lines: a field only the person changed takes
//! their value, a field only someone else changed since keeps theirs, and a
//! field both changed differently is a conflict. A conflict refuses the
//! reopen with `revision_moved` (as kubectl refuses a stale
//! resourceVersion), naming the fields; nothing is written, the file stays.
//! So a kept file never silently undoes another writer's change.

use super::Forge;
use super::node_edit::Draft;
use crate::model::error::{Error, ErrorKind, Result};
use crate::model::remedy::Remedy;
use crate::model::{Map, Node, Value};
use crate::wire;

/// The reopened node and the fields someone else changed since the base
/// that it keeps.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Rebased {
    pub(crate) node: Node,
    pub(crate) base: u64,
    pub(crate) kept_theirs: Vec<String>,
}

/// The revision a kept file's header says it was made at.
pub(crate) fn header_revision(text: &str) -> Option<u64> {
    let line = text
        .lines()
        .take_while(|l| l.starts_with('#'))
        .find(|l| l.starts_with("# planforge edit: node "))?;
    let (_, rev) = line.rsplit_once(" at revision ")?;
    rev.trim_end().trim_end_matches('.').parse().ok()
}

/// One field merged: `Ok(value)` or `Err(())` for a conflict.
fn merge<T: PartialEq + Clone>(base: &T, theirs: &T, mine: &T) -> std::result::Result<T, ()> {
    if mine == base || mine == theirs {
        Ok(theirs.clone())
    } else if theirs == base {
        Ok(mine.clone())
    } else {
        Err(())
    }
}

fn shown(v: Option<&Value>) -> String {
    v.map_or_else(|| "absent".to_string(), |v| wire::json::compact_cut(v, 60))
}

impl Forge {
    /// Whether the node differs from what it was at revision `base`.
    pub(crate) fn changed_since(&self, draft: &Draft, base: u64) -> Result<bool> {
        let then = self
            .store()
            .load_at(&draft.plan_id, Some(base.min(draft.revision)))?;
        Ok(then.content().node(&draft.node.id) != Some(&draft.node))
    }

    /// `mine` (the kept file's node, made at revision `base`) merged onto
    /// the node as it is now (`draft.node`). Refuses a conflict.
    pub(crate) fn rebase_kept(&self, draft: &Draft, base: u64, mine: &Node) -> Result<Rebased> {
        let id = &draft.node.id;
        if base > draft.revision {
            return Err(Error::invalid(format!(
                "the kept file says revision {base}, but plan {} is at revision {}",
                draft.plan_id, draft.revision
            ))
            .with_help("editing the node again starts from it as it is")
            .on_plan(draft.plan_id.clone())
            .fix(Remedy::SetDefinition {
                node: id.to_string(),
            }));
        }
        let then = self.store().load_at(&draft.plan_id, Some(base))?;
        let Some(was) = then.content().node(id).cloned() else {
            return Err(Error::new(
                ErrorKind::RevisionMoved,
                format!(
                    "node `{id}` did not exist at revision {base}, which the kept file was made at; nothing was written"
                ),
            ));
        };
        let now = &draft.node;
        let mut conflicts: Vec<String> = Vec::new();
        let mut kept_theirs: Vec<String> = Vec::new();
        let phase = merge(&was.phase, &now.phase, &mine.phase).unwrap_or_else(|()| {
            conflicts.push(format!(
                "`phase` (now {:?}, yours {:?})",
                now.phase.as_deref().unwrap_or("none"),
                mine.phase.as_deref().unwrap_or("none")
            ));
            mine.phase.clone()
        });
        if mine.phase == was.phase && now.phase != was.phase {
            kept_theirs.push("phase".to_string());
        }
        let mut keys: Vec<&crate::model::ids::Id> = mine.definition.keys().collect();
        keys.extend(
            now.definition
                .keys()
                .filter(|k| !mine.definition.contains_key(k)),
        );
        keys.extend(
            was.definition
                .keys()
                .filter(|k| !mine.definition.contains_key(k) && !now.definition.contains_key(k)),
        );
        let mut definition = Map::new();
        for k in keys {
            let (b, t, m) = (
                was.definition.get(k),
                now.definition.get(k),
                mine.definition.get(k),
            );
            match merge(&b, &t, &m) {
                Ok(v) => {
                    if m == b && t != b {
                        kept_theirs.push(k.to_string());
                    }
                    if let Some(v) = v {
                        definition.insert(k.clone(), v.clone());
                    }
                }
                Err(()) => conflicts.push(format!("`{k}` (now {}, yours {})", shown(t), shown(m))),
            }
        }
        if !conflicts.is_empty() {
            return Err(Error::new(
                ErrorKind::RevisionMoved,
                format!(
                    "node `{id}` changed since revision {base}, which the kept file was made at (plan {} is at revision {}), in fields the file changes too: {}; nothing was written",
                    draft.plan_id,
                    draft.revision,
                    conflicts.join(", ")
                ),
            ));
        }
        Ok(Rebased {
            node: Node {
                id: id.clone(),
                phase,
                kind: now.kind,
                definition: definition.into(),
            },
            base,
            kept_theirs,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_revision_is_read_back() {
        let text = "# planforge edit: node `a` of plan p at revision 12.\n# more\nphase: x\n";
        assert_eq!(header_revision(text), Some(12));
        assert_eq!(header_revision("phase: x\n"), None);
    }

    #[test]
    fn a_field_changed_on_one_side_only_merges() {
        assert_eq!(merge(&1, &2, &1), Ok(2));
        assert_eq!(merge(&1, &1, &3), Ok(3));
        assert_eq!(merge(&1, &2, &2), Ok(2));
        assert_eq!(merge(&1, &2, &3), Err(()));
    }
}
