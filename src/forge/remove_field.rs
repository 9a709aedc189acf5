//! `set ID PATH --remove`: takes one field (a key, or an item of a list)
//! out of a node's definition, as one transaction. A field the node does
//! not have is refused (`unknown_key`), nothing written, as `git config
//! --unset` refuses a missing key.

use super::Forge;
use super::edit::{new_refusable, refuse_shape};
use crate::model::error::{Error, ErrorKind, Result};
use crate::model::{Map, OpBody, Value};
use crate::store::fold::get_path;

/// Removes the dot path from `def`; false when it is not there.
fn remove_path(def: &mut Map, path: &str) -> bool {
    match path.split_once('.') {
        None => def.shift_remove(path).is_some(),
        Some((head, rest)) => match def.get_mut(head) {
            Some(v) => remove_in(v, rest),
            None => false,
        },
    }
}

fn remove_in(v: &mut Value, path: &str) -> bool {
    match v {
        Value::Object(m) => remove_path(m, path),
        Value::Array(items) => {
            let (head, rest) = path
                .split_once('.')
                .map_or((path, None), |(h, r)| (h, Some(r)));
            let Ok(idx) = head.parse::<usize>() else {
                return false;
            };
            match (rest, idx < items.len()) {
                (_, false) => false,
                (None, true) => {
                    items.remove(idx);
                    true
                }
                (Some(rest), true) => remove_in(&mut items[idx], rest),
            }
        }
        _ => false,
    }
}

impl Forge {
    /// Removes the field at `path` of `node_id`'s definition.
    pub(crate) fn remove_node_field(
        &self,
        plan: &str,
        node_id: &str,
        path: &str,
        expect: Option<u64>,
    ) -> Result<super::echo::Echo> {
        let mut was = None;
        self.before_write()?;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            let node = before
                .content()
                .node(node_id)
                .ok_or_else(|| super::unknown_node(before, node_id))?;
            let mut def = node.definition.clone();
            was = get_path(&def, path).cloned();
            if !remove_path(&mut def, path) {
                return Err(Error::new(
                    ErrorKind::UnknownKey,
                    format!(
                        "node `{node_id}` has no field `{path}` to remove; nothing was written"
                    ),
                )
                .on_plan(&before.plan_id)
                .with_help(format!("read `{node_id}` to see the fields it has")));
            }
            let problems = new_refusable(node.kind, Some(&node.definition), &def);
            if !problems.is_empty() {
                return Err(refuse_shape(node_id, node.kind, &problems));
            }
            Ok(vec![OpBody::SetNodeDefinition {
                node_id: node_id.to_string(),
                definition: def.into(),
            }])
        })?;
        let was = was.map_or_else(String::new, |v| {
            format!(" (was {})", crate::wire::json::compact_cut(&v, 80))
        });
        self.remade(&after, |after| {
            let report = self.check(after)?;
            Ok(super::echo::build(
                after,
                format!("removed `{path}` of `{node_id}`{was}"),
                Some(node_id),
                &report.issues,
                vec![],
                &[],
                &[],
            ))
        })
    }
}
