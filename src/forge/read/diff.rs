//! Field-level diffs between two plan contents: two revisions of a plan, or
//! two plan documents.

use super::history::revision_of;
use crate::forge::Forge;
use crate::model::error::Result;
use crate::model::{Content, Edge, Map, Node, Provenance, Value};
use crate::wire::codec::Document;
use std::borrow::Cow;
use std::collections::HashMap;

/// One side of a diff.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Side {
    /// How the side was named: `frozen`, `current`, a revision number, or a
    /// file name.
    pub(crate) label: String,
    pub(crate) revision: Option<u64>,
    pub(crate) digest: String,
}

/// One changed field. `None` = absent on that side.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FieldChange {
    /// `phase`, or a dot path relative to the definition (`args.ticket`,
    /// `output.0`), as `planforge set` takes it.
    pub(crate) path: String,
    pub(crate) before: Option<Value>,
    pub(crate) after: Option<Value>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NodeChange {
    pub(crate) node_id: String,
    pub(crate) fields: Vec<FieldChange>,
}

/// The difference between two plan contents.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Diff {
    pub(crate) plan_id: Option<String>,
    pub(crate) from: Side,
    pub(crate) to: Side,
    /// Whole nodes, in the `to` side's order.
    pub(crate) nodes_added: Vec<Node>,
    /// Whole nodes, in the `from` side's order.
    pub(crate) nodes_removed: Vec<Node>,
    pub(crate) nodes_changed: Vec<NodeChange>,
    pub(crate) edges_added: Vec<Edge>,
    pub(crate) edges_removed: Vec<Edge>,
    /// Plan-level changes: `bounds.<member>` and `provenance`.
    pub(crate) plan_changed: Vec<FieldChange>,
}

impl Diff {
    /// No difference between the two sides.
    fn none(plan_id: Option<String>, from: Side, to: Side) -> Diff {
        Diff {
            plan_id,
            from,
            to,
            nodes_added: Vec::new(),
            nodes_removed: Vec::new(),
            nodes_changed: Vec::new(),
            edges_added: Vec::new(),
            edges_removed: Vec::new(),
            plan_changed: Vec::new(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.nodes_added.is_empty()
            && self.nodes_removed.is_empty()
            && self.nodes_changed.is_empty()
            && self.edges_added.is_empty()
            && self.edges_removed.is_empty()
            && self.plan_changed.is_empty()
    }
}

fn join_path(prefix: &str, key: &str) -> String {
    if prefix.is_empty() {
        key.to_string()
    } else {
        format!("{prefix}.{key}")
    }
}

/// Field-level differences: objects recurse by key, arrays of equal length
/// by index; anything else (a reference, a scalar, an array whose length
/// changed) is compared as a whole.
fn diff_value(path: String, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<FieldChange>) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => diff_map(&path, x, y, out),
        (Some(Value::Array(x)), Some(Value::Array(y))) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff_value(join_path(&path, &i.to_string()), Some(p), Some(q), out);
            }
        }
        (x, y) if x == y => {}
        (x, y) => out.push(FieldChange {
            path,
            before: x.cloned(),
            after: y.cloned(),
        }),
    }
}

fn diff_map(prefix: &str, x: &Map, y: &Map, out: &mut Vec<FieldChange>) {
    for (k, v) in x {
        diff_value(join_path(prefix, k), Some(v), y.get(k), out);
    }
    for (k, v) in y {
        if !x.contains_key(k) {
            diff_value(join_path(prefix, k), None, Some(v), out);
        }
    }
}

fn provenance_value(p: &Option<Provenance>) -> Option<Value> {
    p.as_ref().map(|p| {
        crate::wire::convert::from_json(&crate::wire::codec::provenance_json(p), "")
            .expect("provenance converts back")
    })
}

/// Compares two contents. Nodes are matched by id (a node whose kind changed
/// is removed and added), edges by id (a change of endpoints or handle is
/// removed and added).
pub(crate) fn diff_contents(a: &Content, b: &Content, from: Side, to: Side) -> Diff {
    if std::ptr::eq(a, b) {
        // A content compared with itself: nothing differs (no pass over
        // every node and edge).
        return Diff::none(Some(b.plan_id.clone()), from, to);
    }
    let a_nodes: HashMap<&str, &Node> = a.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let b_nodes: HashMap<&str, &Node> = b.nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let same_kind = |x: &Node, other: &HashMap<&str, &Node>| {
        other.get(x.id.as_str()).is_some_and(|y| y.kind == x.kind)
    };
    let nodes_removed: Vec<Node> = a
        .nodes
        .iter()
        .filter(|n| !same_kind(n, &b_nodes))
        .cloned()
        .collect();
    let mut nodes_added = Vec::new();
    let mut nodes_changed = Vec::new();
    for n in &b.nodes {
        match a_nodes.get(n.id.as_str()) {
            Some(old) if old.kind == n.kind => {
                if *old == n {
                    continue;
                }
                let mut fields = Vec::new();
                if old.phase != n.phase {
                    fields.push(FieldChange {
                        path: "phase".into(),
                        before: old.phase.as_ref().map(|p| Value::String(p.clone())),
                        after: n.phase.as_ref().map(|p| Value::String(p.clone())),
                    });
                }
                diff_map("", &old.definition, &n.definition, &mut fields);
                if !fields.is_empty() {
                    nodes_changed.push(NodeChange {
                        node_id: n.id.to_string(),
                        fields,
                    });
                }
            }
            _ => nodes_added.push(n.clone()),
        }
    }
    let a_edges: HashMap<&str, &Edge> = a.edges.iter().map(|e| (e.id.as_str(), e)).collect();
    let b_edges: HashMap<&str, &Edge> = b.edges.iter().map(|e| (e.id.as_str(), e)).collect();
    let edges_removed = a
        .edges
        .iter()
        .filter(|e| b_edges.get(e.id.as_str()).is_none_or(|f| f != e))
        .cloned()
        .collect();
    let edges_added = b
        .edges
        .iter()
        .filter(|e| a_edges.get(e.id.as_str()).is_none_or(|f| f != e))
        .cloned()
        .collect();
    let mut plan_changed = Vec::new();
    for ((name, x), (_, y)) in a.bounds.members().into_iter().zip(b.bounds.members()) {
        if x != y {
            plan_changed.push(FieldChange {
                path: format!("bounds.{name}"),
                before: Some(Value::from(x)),
                after: Some(Value::from(y)),
            });
        }
    }
    if a.provenance != b.provenance {
        plan_changed.push(FieldChange {
            path: "provenance".into(),
            before: provenance_value(&a.provenance),
            after: provenance_value(&b.provenance),
        });
    }
    Diff {
        plan_id: (a.plan_id == b.plan_id).then(|| b.plan_id.clone()),
        from,
        to,
        nodes_added,
        nodes_removed,
        nodes_changed,
        edges_added,
        edges_removed,
        plan_changed,
    }
}

/// The content of a document (as its import would fold it) and its digest.
pub(crate) fn document_side(doc: &Document) -> (Content, String) {
    let content =
        crate::forge::plans::document_content(doc, doc.plan_id.as_deref().unwrap_or_default());
    let (digest, _) = crate::wire::jcs::digest(&content);
    (content, digest)
}

/// A side's label and revision.
type Named = (String, u64);

/// The two sides a diff's selectors name, in plan `plan` at revision
/// `current`, last frozen at `frozen`: `a` defaults to `frozen` (when the
/// plan was ever frozen, else `0`), `b` to `current`.
fn sides(
    plan: &str,
    current: u64,
    frozen: Option<u64>,
    a: &str,
    b: &str,
) -> Result<(Named, Named)> {
    let default_a = if frozen.is_some() { "frozen" } else { "0" };
    Ok((
        revision_of(plan, current, frozen, a, default_a)?,
        revision_of(plan, current, frozen, b, "current")?,
    ))
}

impl Forge {
    /// Compares two revisions of a plan. `a`/`b` are a revision number,
    /// `current` or `frozen`; `""` takes the default: `frozen` (when the plan
    /// was ever frozen, else `0`) for `a`, `current` for `b`.
    pub(crate) fn diff(&self, plan: &str, a: &str, b: &str) -> Result<Diff> {
        // Two sides at the current revision need no history and no plan:
        // a content compared with itself. The snapshot read in place says
        // which revisions the selectors name, and the digest.
        let in_place = self.store().with_view(plan, |v| {
            let frozen = v.meta()?.frozen.map(|f| f.revision);
            Some((v.revision(), frozen, v.digest().to_string()))
        });
        if let Some((current, frozen, digest)) = &in_place {
            let (current, frozen) = (*current, *frozen);
            let ((la, ra), (lb, rb)) = sides(plan, current, frozen, a, b)?;
            if ra == current && rb == current {
                let side = |label| Side {
                    label,
                    revision: Some(current),
                    digest: digest.clone(),
                };
                return Ok(Diff::none(Some(plan.to_string()), side(la), side(lb)));
            }
        }
        if !self.store().is_warm()
            && let Some(d) = self.diff_by_change(plan, a, b, in_place)?
        {
            return Ok(d);
        }
        let loaded = self.store().load_with_ops(plan)?;
        let history = loaded.ops()?;
        let frozen = loaded.meta.frozen.as_ref().map(|f| f.revision);
        let ((la, ra), (lb, rb)) = sides(plan, loaded.revision(), frozen, a, b)?;
        // The current revision is borrowed as loaded; only an earlier one is
        // folded again, from the ops as read (a plan can be large: no
        // copies of it).
        let at = |r: u64| -> (Cow<'_, Content>, String) {
            if r == loaded.revision() {
                (Cow::Borrowed(loaded.content()), loaded.digest().to_string())
            } else {
                let f = crate::store::fold::fold_at(&loaded.plan_id, history, r);
                let d = crate::wire::jcs::digest(&f.content).0;
                (Cow::Owned(f.content), d)
            }
        };
        let (ca, da) = at(ra);
        let (cb, db) = if rb == ra {
            (Cow::Borrowed(&*ca), da.clone())
        } else {
            at(rb)
        };
        Ok(diff_contents(
            &ca,
            &cb,
            Side {
                label: la,
                revision: Some(ra),
                digest: da,
            },
            Side {
                label: lb,
                revision: Some(rb),
                digest: db,
            },
        ))
    }

    /// [`Forge::diff`] of two revisions folded once from the log and
    /// compared on what changed between them (see `diff_fold`); `None` when
    /// that cannot answer: a selector needs the last freeze and no current
    /// snapshot says which revision it was (only a whole fold knows), or
    /// the two revisions cannot be folded in one pass.
    fn diff_by_change(
        &self,
        plan: &str,
        a: &str,
        b: &str,
        in_place: Option<(u64, Option<u64>, String)>,
    ) -> Result<Option<Diff>> {
        let needs_frozen = a.is_empty() || a == "frozen" || b == "frozen";
        if needs_frozen && in_place.is_none() {
            // Known to answer nothing: the log is not read for it.
            return Ok(None);
        }
        let ops = self.store().log_ops(plan)?;
        let head = crate::store::fold::revisions(&ops);
        let fresh = in_place.filter(|(current, ..)| *current == head);
        let frozen = match &fresh {
            Some((_, frozen, _)) => *frozen,
            None if needs_frozen => return Ok(None),
            None => None,
        };
        let ((la, ra), (lb, rb)) = sides(plan, head, frozen, a, b)?;
        let head_digest = fresh.map(|(.., digest)| digest);
        let span = (ra.min(rb), ra.max(rb));
        let Some(parts) = super::diff_fold::fold_two(plan, ops, span, (head, head_digest)) else {
            return Ok(None);
        };
        let (earlier, later) = (parts.earlier, parts.later);
        let ((ca, da), (cb, db)) = if ra <= rb {
            (earlier, later)
        } else {
            (later, earlier)
        };
        let side = |label, revision, digest| Side {
            label,
            revision: Some(revision),
            digest,
        };
        Ok(Some(diff_contents(
            &ca,
            &cb,
            side(la, ra, da),
            side(lb, rb, db),
        )))
    }

    /// Compares two plan documents (no store needed). The sides' labels are
    /// left empty for the caller to name.
    pub(crate) fn diff_documents(x: &Document, y: &Document) -> Diff {
        let (cx, dx) = document_side(x);
        let (cy, dy) = document_side(y);
        diff_contents(
            &cx,
            &cy,
            Side {
                label: String::new(),
                revision: x.revision,
                digest: dx,
            },
            Side {
                label: String::new(),
                revision: y.revision,
                digest: dy,
            },
        )
    }
}
