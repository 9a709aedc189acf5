//! `undo` (SPEC §11; the seed's "rollback is undo"): appends the inverse of
//! this actor's latest transaction that is not undone yet, as one new
//! transaction whose tx id is `undo-<original tx>-<new id>`. Nothing is ever
//! taken out of the log.
//!
//! The inverse is computed by folding the log before the transaction (B) and
//! with it (A), and restoring B wherever A differs from it: a node the
//! transaction added is removed (with its edges), a node it removed comes
//! back with the edges it lost, a changed phase, definition field or bounds
//! gets its earlier value. Something the transaction changed that another
//! transaction changed again since is left as it is now and reported, so an
//! undo never throws away someone else's later work. Repeated undos walk
//! further back: undo transactions and the ones they undid are skipped.

use super::echo::{self, Echo};
use super::{Forge, edit::bounded_list};
use crate::model::error::Error;
use crate::model::error::Result;
use crate::model::value::Map;
use crate::model::{Content, Edge, Node, Op, OpBody, Provenance, Value};
use crate::store::Loaded;
use crate::store::fold::fold;
use std::collections::{HashMap, HashSet};

/// The tx label of an undo transaction.
pub const LABEL: &str = "undo-";

/// One transaction of the log: its ops, where they sit, who wrote them.
struct Tx<'a> {
    id: &'a str,
    actor: &'a str,
    at: &'a str,
    /// Index of its first op in the log.
    start: usize,
    ops: Vec<&'a Op>,
}

/// Transactions in log order (by their first op).
fn transactions(ops: &[Op]) -> Vec<Tx<'_>> {
    let mut out: Vec<Tx> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for (i, op) in ops.iter().enumerate() {
        match at.get(op.tx.as_str()) {
            Some(&k) => out[k].ops.push(op),
            None => {
                at.insert(&op.tx, out.len());
                out.push(Tx {
                    id: &op.tx,
                    actor: &op.actor_id,
                    at: &op.at,
                    start: i,
                    ops: vec![op],
                });
            }
        }
    }
    out
}

/// The transaction an undo transaction undid.
pub fn undone_by(tx: &str) -> Option<&str> {
    let rest = tx.strip_prefix(LABEL)?;
    rest.rsplit_once('-').map(|(orig, _)| orig)
}

/// What undoing one transaction takes.
#[derive(Debug, Default)]
struct Inverse {
    bodies: Vec<OpBody>,
    /// What the inverse does, in words.
    done: Vec<String>,
    /// What it leaves as it is (changed again since), in words.
    kept: Vec<String>,
    /// Whether the transaction changed anything at all.
    had_effect: bool,
    nodes: Vec<String>,
    edges: Vec<String>,
}

/// A definition path (object keys only; arrays and references are leaves).
type Path = Vec<String>;

fn get<'a>(m: &'a Map, path: &[String]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    let v = m.get(first)?;
    if rest.is_empty() {
        return Some(v);
    }
    match v {
        Value::Object(inner) => get(inner, rest),
        _ => None,
    }
}

fn put(m: &mut Map, path: &[String], value: Option<Value>) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    if rest.is_empty() {
        match value {
            Some(v) => {
                m.insert(first.clone(), v);
            }
            None => {
                m.shift_remove(first);
            }
        }
        return;
    }
    if value.is_none() && !m.contains_key(first) {
        return;
    }
    let entry = m
        .entry(first.clone())
        .or_insert_with(|| Value::Object(Map::new()));
    if !matches!(entry, Value::Object(_)) {
        *entry = Value::Object(Map::new());
    }
    if let Value::Object(inner) = entry {
        put(inner, rest, value);
    }
}

/// The smallest paths where two definitions differ.
fn diff_paths(b: &Map, a: &Map, base: &mut Path, out: &mut Vec<Path>) {
    let mut keys: Vec<&String> = b.keys().collect();
    keys.extend(a.keys().filter(|k| !b.contains_key(k)));
    for k in keys {
        base.push(k.clone());
        match (b.get(k), a.get(k)) {
            (Some(Value::Object(x)), Some(Value::Object(y))) if x != y => {
                diff_paths(x, y, base, out)
            }
            (x, y) if x != y => out.push(base.clone()),
            _ => {}
        }
        base.pop();
    }
}

fn show(path: &[String]) -> String {
    path.join(".")
}

/// The inverse of `tx` against the current content `c`.
fn invert(
    plan_id: &str,
    ops: &[Op],
    tx: &Tx,
    provenance: Option<Provenance>,
    c: &Content,
) -> Inverse {
    let prefix = &ops[..tx.start];
    let b = fold(plan_id, prefix, provenance.clone()).content;
    let mut with: Vec<Op> = prefix.to_vec();
    with.extend(tx.ops.iter().map(|o| (*o).clone()));
    let a = fold(plan_id, &with, provenance).content;
    let mut inv = Inverse::default();

    let (bn, an, cn) = (b.node_index(), a.node_index(), c.node_index());
    let node = |content: &'_ Content, idx: &HashMap<&str, usize>, id: &str| -> Option<Node> {
        idx.get(id).map(|&i| content.nodes[i].clone())
    };
    let mut node_ids: Vec<&str> = b.nodes.iter().map(|n| n.id.as_str()).collect();
    node_ids.extend(
        a.nodes
            .iter()
            .map(|n| n.id.as_str())
            .filter(|id| !bn.contains_key(id)),
    );

    let mut removes: Vec<String> = Vec::new();
    let mut adds: Vec<Node> = Vec::new();
    let mut phases: Vec<OpBody> = Vec::new();
    let mut definitions: Vec<OpBody> = Vec::new();
    for id in node_ids {
        let (nb, na, nc) = (node(&b, &bn, id), node(&a, &an, id), node(c, &cn, id));
        if nb == na {
            continue;
        }
        inv.had_effect = true;
        inv.nodes.push(id.to_string());
        match (nb, na) {
            (None, Some(na)) => match nc {
                None => {}
                Some(nc) if nc == na => {
                    removes.push(id.to_string());
                    inv.done
                        .push(format!("removed node `{id}`, which it added"));
                }
                Some(_) => inv.kept.push(format!(
                    "node `{id}`, which it added, was changed since; it stays"
                )),
            },
            (Some(nb), None) => match nc {
                None => {
                    inv.done
                        .push(format!("added back node `{id}`, which it removed"));
                    adds.push(nb);
                }
                Some(_) => inv.kept.push(format!(
                    "node `{id}`, which it removed, exists again; it stays as it is"
                )),
            },
            (Some(nb), Some(na)) => {
                let Some(nc) = nc else {
                    inv.kept
                        .push(format!("node `{id}` was removed since; it stays removed"));
                    continue;
                };
                if nb.kind != na.kind {
                    if nc == na {
                        inv.done.push(format!(
                            "put back node `{id}` as the {} node it was",
                            nb.kind
                        ));
                        adds.push(nb);
                    } else {
                        inv.kept.push(format!(
                            "node `{id}` was changed since; it stays {} node",
                            nc.kind.a()
                        ));
                    }
                    continue;
                }
                if nb.phase != na.phase {
                    if nc.phase == na.phase {
                        phases.push(OpBody::SetNodePhase {
                            node_id: id.to_string(),
                            phase: nb.phase.clone(),
                        });
                        inv.done.push(match &nb.phase {
                            Some(p) => format!("moved `{id}` back to phase `{p}`"),
                            None => format!("made `{id}` unphased again"),
                        });
                    } else {
                        inv.kept
                            .push(format!("the phase of `{id}` was changed since; it stays"));
                    }
                }
                let mut paths = Vec::new();
                diff_paths(&nb.definition, &na.definition, &mut Vec::new(), &mut paths);
                let mut restored = nc.definition.clone();
                let mut fields: Vec<(Path, Value)> = Vec::new();
                let mut whole = false;
                for p in &paths {
                    let (vb, va, vc) = (
                        get(&nb.definition, p),
                        get(&na.definition, p),
                        get(&nc.definition, p),
                    );
                    if vc != va {
                        inv.kept.push(format!(
                            "`{}` of `{id}` was changed since; it stays",
                            show(p)
                        ));
                        continue;
                    }
                    put(&mut restored, p, vb.cloned());
                    match vb {
                        Some(v) if p.iter().all(|s| !s.contains('.')) => {
                            fields.push((p.clone(), v.clone()))
                        }
                        _ => whole = true,
                    }
                    inv.done.push(match vb {
                        Some(_) => format!("restored `{}` of `{id}`", show(p)),
                        None => format!("dropped `{}` of `{id}`, which it added", show(p)),
                    });
                }
                if restored != nc.definition {
                    if whole {
                        definitions.push(OpBody::SetNodeDefinition {
                            node_id: id.to_string(),
                            definition: restored,
                        });
                    } else {
                        definitions.extend(fields.into_iter().map(|(p, v)| OpBody::SetNodeField {
                            node_id: id.to_string(),
                            path: p.join("."),
                            value: v,
                        }));
                    }
                }
            }
            (None, None) => {}
        }
    }

    // Nodes present once the inverse is applied, for edges coming back.
    let removed: HashSet<&str> = removes.iter().map(String::as_str).collect();
    let present = |id: &str| {
        (cn.contains_key(id) && !removed.contains(id)) || adds.iter().any(|n| n.id == id)
    };
    let (be, ae, ce) = (edge_index(&b), edge_index(&a), edge_index(c));
    let mut edge_ids: Vec<&str> = b.edges.iter().map(|e| e.id.as_str()).collect();
    edge_ids.extend(
        a.edges
            .iter()
            .map(|e| e.id.as_str())
            .filter(|id| !be.contains_key(id)),
    );
    let mut edge_removes: Vec<String> = Vec::new();
    let mut edge_adds: Vec<Edge> = Vec::new();
    for id in edge_ids {
        let (eb, ea, ec) = (be.get(id), ae.get(id), ce.get(id));
        if eb == ea {
            continue;
        }
        inv.had_effect = true;
        inv.edges.push(id.to_string());
        let goes_with_node =
            |e: &Edge| removed.contains(e.from.as_str()) || removed.contains(e.to.as_str());
        match (eb, ea) {
            (None, Some(ea)) => match ec {
                None => {}
                Some(ec) if ec == ea => {
                    if !goes_with_node(ec) {
                        edge_removes.push(id.to_string());
                    }
                    inv.done
                        .push(format!("removed edge `{id}`, which it added"));
                }
                Some(_) => inv.kept.push(format!(
                    "edge `{id}`, which it added, was changed since; it stays"
                )),
            },
            (Some(eb), None) => match ec {
                None if present(&eb.from) && present(&eb.to) => {
                    edge_adds.push((*eb).clone());
                    inv.done.push(format!(
                        "added back edge `{id}` ({} → {} on `{}`)",
                        eb.from, eb.to, eb.handle
                    ));
                }
                None => inv.kept.push(format!(
                    "edge `{id}` cannot come back: node `{}` is gone",
                    if present(&eb.from) { &eb.to } else { &eb.from }
                )),
                Some(ec) if ec == eb => {}
                Some(_) => inv.kept.push(format!(
                    "edge `{id}`, which it removed, exists again; it stays as it is"
                )),
            },
            (Some(eb), Some(ea)) => {
                if ec == Some(ea) {
                    edge_removes.push(id.to_string());
                    edge_adds.push((*eb).clone());
                    inv.done.push(format!("put back edge `{id}` as it was"));
                } else {
                    inv.kept
                        .push(format!("edge `{id}` was changed since; it stays"));
                }
            }
            (None, None) => {}
        }
    }

    let mut bounds = Vec::new();
    if b.bounds != a.bounds {
        inv.had_effect = true;
        if c.bounds == a.bounds {
            bounds.push(OpBody::SetBounds { bounds: b.bounds });
            inv.done.push("restored the bounds".to_string());
        } else {
            inv.kept
                .push("the bounds were changed since; they stay".to_string());
        }
    }

    inv.bodies.extend(
        edge_removes
            .into_iter()
            .map(|edge_id| OpBody::RemoveEdge { edge_id }),
    );
    for id in removes {
        let incident = c
            .edges
            .iter()
            .filter(|e| e.from == id || e.to == id)
            .map(|e| e.id.clone())
            .collect();
        inv.bodies.push(OpBody::RemoveNode {
            node_id: id,
            incident_edge_ids: incident,
        });
    }
    inv.bodies
        .extend(adds.into_iter().map(|node| OpBody::AddNode { node }));
    inv.bodies.extend(phases);
    inv.bodies.extend(definitions);
    inv.bodies
        .extend(edge_adds.into_iter().map(|edge| OpBody::AddEdge { edge }));
    inv.bodies.extend(bounds);
    inv
}

fn edge_index(c: &Content) -> HashMap<&str, &Edge> {
    c.edges.iter().map(|e| (e.id.as_str(), e)).collect()
}

/// A short account of a transaction's ops: `add_node x, add_edge x__y …`.
fn summary(tx: &Tx) -> String {
    let items: Vec<String> = tx
        .ops
        .iter()
        .map(|o| {
            let what = match &o.body {
                OpBody::AddEdge { edge } => Some(edge.id.as_str()),
                OpBody::RemoveEdge { edge_id } => Some(edge_id.as_str()),
                other => other.node_id(),
            };
            match what {
                Some(w) => format!("{} `{w}`", o.body.kind()),
                None => o.body.kind().to_string(),
            }
        })
        .collect();
    bounded_list(&items, 6)
}

/// The ops a plan inherited from its parent (a clone's first ops), which are
/// not this plan's to undo.
fn inherited(loaded: &Loaded) -> usize {
    match &loaded.meta.provenance {
        Some(Provenance::Clone {
            parent_revision, ..
        }) => *parent_revision as usize,
        _ => 0,
    }
}

/// The transaction an undo takes back, with its inverse.
struct Found {
    tx: String,
    what: String,
    inverse: Inverse,
}

/// Finds `actor`'s latest transaction that is not undone yet and that can
/// still be undone, walking back past those that changed nothing.
fn find(loaded: &Loaded, actor: &str) -> Result<Found> {
    let txs = transactions(loaded.ops()?);
    let undone: HashSet<&str> = txs.iter().filter_map(|t| undone_by(t.id)).collect();
    let first_own = inherited(loaded);
    // Changes whose every effect others have changed again since: nothing of
    // them is left to take back, so undo walks past them (and says so).
    let mut overridden: Vec<(String, Vec<String>)> = Vec::new();
    for tx in txs.iter().rev() {
        if tx.actor != actor
            || tx.id.starts_with(LABEL)
            || undone.contains(tx.id)
            || tx.start < first_own
        {
            continue;
        }
        let inverse = invert(
            &loaded.plan_id,
            loaded.ops()?,
            tx,
            loaded.meta.provenance.clone(),
            loaded.content(),
        );
        if inverse.bodies.is_empty() {
            if inverse.had_effect && !inverse.kept.is_empty() {
                overridden.push((
                    format!("transaction {} ({})", tx.id, summary(tx)),
                    inverse.kept.clone(),
                ));
            }
            // It changed nothing, or others already took it back.
            continue;
        }
        let mut what = format!("transaction {} of {} ({})", tx.id, tx.at, summary(tx));
        if !overridden.is_empty() {
            let later: Vec<String> = overridden.iter().map(|(t, _)| t.clone()).collect();
            what.push_str(&format!(
                "; your later {} left nothing to undo, others having changed all of it since",
                bounded_list(&later, 3)
            ));
        }
        return Ok(Found {
            tx: tx.id.to_string(),
            what,
            inverse,
        });
    }
    if let Some((latest, kept)) = overridden.first() {
        return Err(Error::refused(format!(
            "cannot undo your latest change to plan {} ({latest}): everything it changed was changed again since, and no earlier change of yours is left to undo",
            loaded.plan_id
        ))
        .with_help(format!(
            "{}; change it by hand (`set`, `phase`, `edit`), so nobody's later work is lost",
            bounded_list(kept, 4)
        )));
    }
    Err(Error::refused(format!(
        "nothing to undo: {actor} has no change to plan {} that is not undone yet",
        loaded.plan_id
    ))
    .with_help(format!(
        "undo takes back only your own changes (actor `{actor}`; --actor or PLANFORGE_ACTOR say who you are); `planforge ops` lists every change"
    )))
}

impl Forge {
    /// Undoes this actor's latest transaction that is not undone yet, in
    /// one transaction labelled `undo-<tx>-`.
    pub fn undo(&self, plan: &str, expect: Option<u64>) -> Result<Echo> {
        let actor = self.actor().to_string();
        // The label names the undone transaction, so it is chosen before the
        // lock is taken and confirmed under it; should this actor's history
        // move in between (another process of the same actor), look again.
        let mut attempts = 0;
        let (after, found) = loop {
            attempts += 1;
            let loaded = self.store().load_with_ops(plan)?;
            crate::store::ensure_editable(&loaded)?;
            let target = find(&loaded, &actor)?.tx;
            let label = format!("{LABEL}{target}-");
            let mut found: Option<Found> = None;
            let mut moved = false;
            self.before_write()?;
            let result = self
                .store()
                .commit_labeled(plan, &actor, expect, &label, |before| {
                    let f = find(before, &actor)?;
                    if f.tx != target {
                        moved = true;
                        return Err(Error::internal(
                            "the latest change to undo moved while the undo was prepared",
                        ));
                    }
                    let bodies = f.inverse.bodies.clone();
                    found = Some(f);
                    Ok(bodies)
                });
            match result {
                Err(_) if moved && attempts < 5 => continue,
                Err(e) => return Err(e),
                Ok((after, _)) => break (after, found.expect("set when the commit went through")),
            }
        };
        let inv = &found.inverse;
        let report = self.check(&after)?;
        let focus = match inv.nodes.as_slice() {
            [one] if after.content().node(one).is_some() => Some(one.clone()),
            _ => None,
        };
        let mut details = vec![format!(
            "done: {}",
            bounded_list(&inv.done, echo::MAX_NEIGHBOURS)
        )];
        if !inv.kept.is_empty() {
            details.push(format!(
                "left as is (changed again since): {}",
                bounded_list(&inv.kept, echo::MAX_NEIGHBOURS)
            ));
        }
        Ok(echo::build(
            &after,
            format!("undid your {}", found.what),
            focus.as_deref(),
            &report.issues,
            details,
            &inv.nodes,
            &inv.edges,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::model::{Bounds, Handle, NodeKind};
    use crate::store::Store;

    fn forge(dir: &std::path::Path, actor: &str) -> Forge {
        let (store, _) = Store::init(dir, crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
        Forge::new(store, actor).with_registry(None)
    }

    fn node(id: &str, kind: NodeKind, phase: Option<&str>) -> Node {
        Node {
            id: id.into(),
            phase: phase.map(str::to_string),
            kind,
            definition: Map::new(),
        }
    }

    fn content(f: &Forge) -> Content {
        f.load("plan-u").unwrap().content().clone()
    }

    /// Content with nodes and edges sorted, so a node put back at the end
    /// compares equal.
    fn sorted(mut c: Content) -> Content {
        c.revision = 0;
        c.nodes.sort_by(|a, b| a.id.cmp(&b.id));
        c.edges.sort_by(|a, b| a.id.cmp(&b.id));
        c
    }

    fn built(dir: &std::path::Path) -> Forge {
        let f = forge(dir, "ann");
        f.create_plan(Some("plan-u"), None, None).unwrap();
        f.add_node(
            "plan-u",
            node("start", NodeKind::Entry, Some("in")),
            false,
            false,
            None,
        )
        .unwrap();
        f.add_node(
            "plan-u",
            node("work", NodeKind::Join, None),
            false,
            false,
            None,
        )
        .unwrap();
        f.connect("plan-u", "start", "work", None, None, None)
            .unwrap();
        f
    }

    #[test]
    fn each_kind_of_change_is_taken_back_step_by_step() {
        let dir = tempfile::tempdir().unwrap();
        let f = built(dir.path());
        let mut history = vec![content(&f)];
        f.set_node_phase("plan-u", "work", Some("act".into()), None)
            .unwrap();
        history.push(content(&f));
        f.set_node_field(
            "plan-u",
            "work",
            "kind",
            Value::String("diamond".into()),
            None,
        )
        .unwrap();
        history.push(content(&f));
        f.set_bounds(
            "plan-u",
            Bounds {
                max_nodes: 9,
                ..Bounds::default()
            },
            None,
        )
        .unwrap();
        history.push(content(&f));
        f.remove_node("plan-u", "work", None).unwrap();
        assert!(content(&f).edges.is_empty());
        // Undo walks back through every change, restoring each state.
        while let Some(expected) = history.pop() {
            let echo = f.undo("plan-u", None).unwrap();
            assert!(echo.changed.starts_with("undid your transaction"));
            assert_eq!(sorted(content(&f)), sorted(expected));
        }
        // Then the connect and both add-nodes: back to an empty plan.
        for _ in 0..3 {
            f.undo("plan-u", None).unwrap();
        }
        let c = content(&f);
        assert!(c.nodes.is_empty() && c.edges.is_empty());
        let err = f.undo("plan-u", None).unwrap_err();
        assert_eq!(err.exit_code(), 1);
        assert!(
            err.message.starts_with("nothing to undo"),
            "{}",
            err.message
        );
        // Every undo is its own labelled transaction; nothing left the log.
        let loaded = f.store().load_with_ops("plan-u").unwrap();
        let undos: HashSet<&str> = loaded
            .ops()
            .unwrap()
            .iter()
            .filter(|o| o.tx.starts_with(LABEL))
            .map(|o| o.tx.as_str())
            .collect();
        assert_eq!(undos.len(), 7);
        for u in undos {
            let target = undone_by(u).unwrap();
            assert!(loaded.ops().unwrap().iter().any(|o| o.tx == target));
        }
    }

    #[test]
    fn a_removed_node_comes_back_with_its_edges() {
        let dir = tempfile::tempdir().unwrap();
        let f = built(dir.path());
        let before = content(&f);
        f.remove_node("plan-u", "start", None).unwrap();
        let echo = f.undo("plan-u", None).unwrap();
        assert_eq!(sorted(content(&f)), sorted(before));
        assert!(echo.details[0].contains("added back node `start`"));
        assert!(echo.details[0].contains("added back edge `start__work`"));
    }

    #[test]
    fn only_this_actors_changes_are_undone_and_later_work_is_kept() {
        let dir = tempfile::tempdir().unwrap();
        let ann = built(dir.path());
        let bob = forge(dir.path(), "bob");
        ann.set_node_phase("plan-u", "work", Some("act".into()), None)
            .unwrap();
        bob.add_node(
            "plan-u",
            node("bobs", NodeKind::Join, None),
            false,
            false,
            None,
        )
        .unwrap();
        // Bob has one change; his undo takes back exactly that.
        bob.undo("plan-u", None).unwrap();
        assert!(content(&ann).node("bobs").is_none());
        assert_eq!(
            content(&ann).node("work").unwrap().phase.as_deref(),
            Some("act")
        );
        assert!(
            bob.undo("plan-u", None)
                .unwrap_err()
                .message
                .starts_with("nothing to undo")
        );
        // Bob moves the node again: nothing of Ann's phase change is left, so
        // her undo walks past it to her earlier change, says so, and keeps
        // Bob's phase.
        bob.set_node_phase("plan-u", "work", Some("bobs phase".into()), None)
            .unwrap();
        let edges_before = content(&ann).edges.len();
        let echo = ann.undo("plan-u", None).unwrap();
        assert!(
            echo.changed.contains("left nothing to undo"),
            "{}",
            echo.changed
        );
        assert_eq!(content(&ann).edges.len(), edges_before - 1);
        assert_eq!(
            content(&ann).node("work").unwrap().phase.as_deref(),
            Some("bobs phase")
        );
    }

    #[test]
    fn an_actor_whose_only_change_was_overtaken_is_told_so() {
        let dir = tempfile::tempdir().unwrap();
        let ann = built(dir.path());
        let cat = forge(dir.path(), "cat");
        cat.set_node_phase("plan-u", "work", Some("cats".into()), None)
            .unwrap();
        ann.set_node_phase("plan-u", "work", Some("anns".into()), None)
            .unwrap();
        let err = cat.undo("plan-u", None).unwrap_err();
        assert_eq!(err.exit_code(), 1);
        assert!(
            err.message.contains("changed again since"),
            "{}",
            err.message
        );
        assert_eq!(
            content(&ann).node("work").unwrap().phase.as_deref(),
            Some("anns")
        );
    }

    #[test]
    fn a_partly_overtaken_change_undoes_the_rest_and_says_what_it_kept() {
        let dir = tempfile::tempdir().unwrap();
        let ann = built(dir.path());
        let bob = forge(dir.path(), "bob");
        let mut def = Map::new();
        def.insert("tool".into(), Value::String("a".into()));
        def.insert("args".into(), Value::Object(Map::new()));
        ann.add_node(
            "plan-u",
            Node {
                definition: def,
                ..node("call", NodeKind::Call, None)
            },
            false,
            false,
            None,
        )
        .unwrap();
        let mut def = Map::new();
        def.insert("tool".into(), Value::String("b".into()));
        def.insert(
            "args".into(),
            Value::Object([("x".to_string(), Value::Bool(true))].into_iter().collect()),
        );
        ann.set_node_config("plan-u", "call", NodeKind::Call, def, None)
            .unwrap();
        bob.set_node_field("plan-u", "call", "tool", Value::String("c".into()), None)
            .unwrap();
        let echo = ann.undo("plan-u", None).unwrap();
        let n = content(&ann).node("call").unwrap().clone();
        assert_eq!(n.definition.get("tool"), Some(&Value::String("c".into())));
        assert_eq!(n.definition.get("args"), Some(&Value::Object(Map::new())));
        assert!(
            echo.details[1].contains("`tool` of `call` was changed since"),
            "{:?}",
            echo.details
        );
    }

    #[test]
    fn refuses_on_a_plan_that_is_not_editable_and_skips_a_clones_inheritance() {
        let dir = tempfile::tempdir().unwrap();
        let f = built(dir.path());
        f.clone_plan("plan-u", "plan-c", None).unwrap();
        let err = f.undo("plan-c", None).unwrap_err();
        assert!(
            err.message.starts_with("nothing to undo"),
            "{}",
            err.message
        );
        f.store()
            .update_meta("plan-u", |now, m| {
                // As freeze leaves it: reviewable, with its freeze record.
                m.state = crate::model::lifecycle::State::Reviewable;
                m.frozen = Some(crate::model::lifecycle::Frozen {
                    revision: now.revision(),
                    digest: now.digest.clone(),
                });
                Ok(())
            })
            .unwrap();
        let err = f.undo("plan-u", None).unwrap_err();
        assert_eq!(err.code(), "not_editable");
        assert_eq!(err.exit_code(), 1);
    }

    #[test]
    fn an_edge_with_an_explicit_handle_is_put_back_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let f = built(dir.path());
        f.connect("plan-u", "work", "start", Some("error"), Some("back"), None)
            .unwrap();
        f.disconnect("plan-u", "back", None).unwrap();
        f.undo("plan-u", None).unwrap();
        let c = content(&f);
        let e = c.edge("back").unwrap();
        assert_eq!(
            (e.from.as_str(), e.to.as_str(), &e.handle),
            ("work", "start", &Handle::Error)
        );
        f.undo("plan-u", None).unwrap();
        assert!(content(&f).edge("back").is_none());
    }

    #[test]
    fn undo_labels_name_the_transaction_they_undo() {
        assert_eq!(
            undone_by("undo-0123456789abcdef-fedcba9876543210"),
            Some("0123456789abcdef")
        );
        assert_eq!(
            undone_by("undo-import-01-fedcba9876543210"),
            Some("import-01")
        );
        assert_eq!(undone_by("0123456789abcdef"), None);
    }

    #[test]
    fn definition_paths_are_the_smallest_differences() {
        let b: Map = [
            ("tool".to_string(), Value::String("a".into())),
            (
                "args".to_string(),
                Value::Object(
                    [("x".to_string(), Value::Number(1.0))]
                        .into_iter()
                        .collect(),
                ),
            ),
        ]
        .into_iter()
        .collect();
        let mut a = b.clone();
        put(
            &mut a,
            &["args".into(), "y".into()],
            Some(Value::Bool(true)),
        );
        put(&mut a, &["extra".into()], Some(Value::Null));
        let mut out = Vec::new();
        diff_paths(&b, &a, &mut Vec::new(), &mut out);
        assert_eq!(
            out,
            vec![
                vec!["args".to_string(), "y".to_string()],
                vec!["extra".to_string()]
            ]
        );
        let mut back = a.clone();
        for p in &out {
            put(&mut back, p, get(&b, p).cloned());
        }
        assert_eq!(back, b);
    }
}
