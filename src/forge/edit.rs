//! Authoring operations: each is one transaction, checked against the fold
//! under the lock, and answered with the bounded echo.

use super::echo::{self, Echo};
use super::{Forge, unknown_edge, unknown_node};
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::ids;
use crate::model::remedy::{Fill, Pick, Remedy};
use crate::model::shape::{self, ProblemKind, ShapeProblem};
use crate::model::value::Map;
use crate::model::{Bounds, Content, Edge, Handle, Node, NodeKind, OpBody, Value};
use crate::store::Loaded;
use crate::store::fold::{get_path, set_path};

/// The placeholder `--scaffold` writes and `scaffold_placeholder` blocks.
pub(crate) use crate::model::shape::PLACEHOLDER;

/// Problems of `after` that `before` did not have and that a mutation must
/// refuse: wrong types and unknown keys (missing fields stay findings).
pub(crate) fn new_refusable(
    kind: NodeKind,
    before: Option<&Map>,
    after: &Map,
) -> Vec<ShapeProblem> {
    let old = before
        .map(|b| shape::check_definition(kind, b))
        .unwrap_or_default();
    shape::check_definition(kind, after)
        .into_iter()
        .filter(|p| !matches!(p.kind, ProblemKind::Missing { .. }))
        .filter(|p| !old.contains(p))
        .collect()
}

pub(crate) fn refuse_shape(node: &str, kind: NodeKind, problems: &[ShapeProblem]) -> Error {
    let mut lines: Vec<String> = problems
        .iter()
        .take(8)
        .map(|p| p.describe(node, kind))
        .collect();
    if problems.len() > 8 {
        lines.push(format!("… and {} more", problems.len() - 8));
    }
    Error::invalid(lines.join("\n")).with_help(format!(
        "nothing was written; the {kind} definition's fields are: {}",
        shape::fields(kind)
            .iter()
            .map(|f| if f.required {
                f.name.to_string()
            } else {
                format!("{}?", f.name)
            })
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn check_node_id(id: &str) -> Result<()> {
    if ids::is_valid_node_id(id) {
        return Ok(());
    }
    Err(Error::invalid(format!(
        "`{}` is not a valid node id: use 1–64 lowercase letters, digits and `_` (no `/`, `.` or `-`, so an id never reads as a path)",
        ids::quote_id(id)
    )))
}

fn check_phase(phase: &str) -> Result<()> {
    match ids::phase_problem(phase) {
        None => Ok(()),
        Some(why) => Err(Error::invalid(format!(
            "the phase `{}` is not allowed: {why}",
            ids::quote_id(phase)
        ))
        .with_help(
            "phase names are 1–64 characters without control or bidirectional characters, and without spaces or invisible characters at either end",
        )),
    }
}

/// Fills missing required fields with neutral scaffolding: strings with the
/// placeholder, arrays and objects empty. Booleans, enums and numbers are
/// left for the author to decide.
pub(crate) fn scaffold(kind: NodeKind, def: &mut Map) {
    for f in shape::fields(kind) {
        if !f.required || def.contains_key(f.name) {
            continue;
        }
        let v = match f.shape {
            shape::Shape::Str => Value::String(PLACEHOLDER.into()),
            shape::Shape::Array(_) => Value::Array(Vec::new()),
            shape::Shape::Record | shape::Shape::SchemaObject => Value::Object(Map::new()),
            _ => continue,
        };
        def.insert(f.name.into(), v);
    }
}

/// How `add_node` adds.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct AddNode {
    /// Replace a node of the same id in place instead of refusing.
    pub(crate) replace: bool,
    /// Fill missing required strings with the scaffold placeholder.
    pub(crate) scaffold: bool,
    /// Refuse unless the plan is still at this revision.
    pub(crate) expect: Option<u64>,
}

impl Forge {
    fn echo(
        &self,
        after: &Loaded,
        changed: String,
        focus: Option<&str>,
        details: Vec<String>,
        extra_nodes: &[String],
        extra_edges: &[String],
    ) -> Result<Echo> {
        self.remade(after, |after| {
            // The checks' graph knows the focus node's edges: looked up
            // there rather than found by a pass over every edge.
            let (report, around) = self.check_around(after, focus)?;
            Ok(echo::build_around(
                after,
                changed.clone(),
                focus,
                &report.issues,
                details.clone(),
                extra_nodes,
                extra_edges,
                around,
            ))
        })
    }

    /// Adds a node (or, with `replace`, replaces one in place).
    pub(crate) fn add_node(&self, plan: &str, mut node: Node, opts: AddNode) -> Result<Echo> {
        let AddNode {
            replace,
            scaffold: scaffold_missing,
            expect,
        } = opts;
        check_node_id(&node.id)?;
        if let Some(p) = &node.phase {
            check_phase(p)?;
        }
        if scaffold_missing {
            scaffold(node.kind, &mut node.definition);
        }
        let problems = new_refusable(node.kind, None, &node.definition);
        if !problems.is_empty() {
            return Err(refuse_shape(&node.id, node.kind, &problems));
        }
        let id = node.id.clone();
        let kind = node.kind;
        let mut replaced = false;
        self.before_write()?;
        let mut same = false;
        let mut phase_note = None;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            phase_note =
                super::near_miss::new_phase(before.content(), node.phase.as_deref(), &node.id);
            if let Some(existing) = before.node(&node.id) {
                // A retried add finds its node: nothing changes.
                if *existing == node {
                    same = true;
                    return Ok(vec![]);
                }
                if !replace {
                    return Err(Error::new(
                        ErrorKind::DuplicateId,
                        format!(
                            "plan {} already has a node `{}` ({})",
                            before.plan_id, node.id, existing.kind
                        ),
                    )
                    .on_plan(&before.plan_id)
                    .fix(
                        Remedy::SetDefinition {
                            node: node.id.to_string(),
                        }
                        .when("to change the existing node"),
                    )
                    .fix(
                        Remedy::AddNode {
                            id: None,
                            kind: Some(node.kind),
                        }
                        .when("under another id"),
                    ));
                }
                replaced = true;
            }
            // A clone: the closure may run again (see `store::late`).
            let node = node.clone();
            Ok(vec![if replaced {
                OpBody::ReplaceNode { node }
            } else {
                OpBody::AddNode { node }
            }])
        })?;
        let changed = if same {
            format!("{kind} node `{id}` is already exactly this; nothing changed")
        } else {
            let verb = if replaced { "replaced" } else { "added" };
            format!("{verb} {kind} node `{id}`")
        };
        self.echo(
            &after,
            changed,
            Some(&id),
            phase_note.into_iter().collect(),
            &[],
            &[],
        )
    }

    /// Replaces a node's whole definition; the kind must stay the same.
    pub(crate) fn set_node_config(
        &self,
        plan: &str,
        node_id: &str,
        kind: NodeKind,
        definition: Map,
        expect: Option<u64>,
    ) -> Result<Echo> {
        self.before_write()?;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            let node = before
                .node(node_id)
                .ok_or_else(|| unknown_node(before, node_id))?;
            if node.kind != kind {
                return Err(Error::refused(format!(
                    "node `{node_id}` is {} node; its kind cannot change into {} node",
                    node.kind.a(),
                    kind.a()
                ))
                .with_help(format!(
                    "give {} definition, or remove `{node_id}` and add a new {kind} node",
                    node.kind.a()
                )));
            }
            let problems = new_refusable(kind, Some(&node.definition), &definition);
            if !problems.is_empty() {
                return Err(refuse_shape(node_id, kind, &problems));
            }
            Ok(vec![OpBody::SetNodeDefinition {
                node_id: node_id.to_string(),
                definition: definition.clone(),
            }])
        })?;
        self.echo(
            &after,
            format!("replaced the definition of `{node_id}`"),
            Some(node_id),
            vec![],
            &[],
            &[],
        )
    }

    /// Sets one field of a node's definition by dot path. Unless `add_new`,
    /// a new key one letter off a key the node has (`args.bdy` beside
    /// `args.body`), and a new argument its tool's registry entry does not
    /// name, are refused (unknown_key); a new argument nothing can vouch for
    /// (no registry entry) gets a note in the echo.
    pub(crate) fn set_node_field(
        &self,
        plan: &str,
        node_id: &str,
        path: &str,
        value: Value,
        expect: Option<u64>,
        add_new: bool,
    ) -> Result<Echo> {
        if path.is_empty() || path.split('.').any(str::is_empty) {
            return Err(Error::invalid(format!(
                "`{path}` is not a field path: write dot-separated names relative to the definition, like `tool` or `args.ticket`"
            )));
        }
        if let Some(seg) = path
            .split('.')
            .find(|s| crate::wire::convert::is_reserved_key(s))
        {
            return Err(Error::invalid(format!(
                "`{seg}` in the path `{}` is reserved for references and template holes, so it cannot be a field name",
                crate::model::text::cut(path, 120)
            ))
            .with_help("to set a reference, give the reference as the whole value of a field"));
        }
        // Each path segment is a level of the definition: deeper than a plan
        // holds, it could not be exported and read back.
        let room = crate::wire::codec::MAX_DEFINITION_DEPTH;
        let segments = path.split('.').count();
        if segments + crate::wire::codec::wire_depth(&value) > room {
            return Err(Error::invalid(format!(
                "setting `{}` to this value would nest the definition more than {room} levels deep, more than a plan holds; flatten the value or shorten the path",
                crate::model::text::cut(path, 120),
            )));
        }
        let mut before_value = None;
        let registry = if add_new { None } else { self.registry()? };
        let mut arg_note = None;
        self.before_write()?;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            let node = before.node(node_id).ok_or_else(|| unknown_node(before, node_id))?;
            if !add_new && let Some(miss) = super::near_miss::new_key(node, path, registry) {
                return Err(Error::new(
                    ErrorKind::UnknownKey,
                    format!(
                        "node `{node_id}` has no field `{}` (did you mean `{}`?); nothing was written",
                        miss.typed, miss.meant
                    ),
                )
                .on_plan(&before.plan_id)
                .fix(Remedy::SetField {
                    node: node_id.to_string(),
                    path: miss.corrected.clone(),
                    value: Fill::Value(value.clone()),
                })
                .fix(
                    Remedy::AddField {
                        node: node_id.to_string(),
                        path: path.to_string(),
                        value: Fill::Value(value.clone()),
                    }
                    .when(format!("if `{}` is meant as a new field", miss.typed)),
                ));
            }
            if !add_new {
                arg_note = new_arg_refusal(before, node, path, &value, registry)?;
            }
            let segs: Vec<&str> = path.split('.').collect();
            for i in 1..segs.len() {
                let prefix = segs[..i].join(".");
                if let Some(Value::Ref(_)) = get_path(&node.definition, &prefix) {
                    return Err(Error::invalid(format!(
                        "`{prefix}` of node `{node_id}` is a reference; its inside cannot be set field by field"
                    ))
                    .on_plan(&before.plan_id)
                    .fix(Remedy::SetField {
                        node: node_id.to_string(),
                        path: prefix.clone(),
                        value: Fill::choose("the whole new reference"),
                    }));
                }
            }
            let (path, value) = list_step(node, path, value.clone()).map_err(|e| e.on_plan(&before.plan_id))?;
            let path = path.as_str();
            before_value = get_path(&node.definition, path).cloned();
            let mut def = node.definition.clone();
            set_path(&mut def, path, value.clone());
            let problems = new_refusable(node.kind, Some(&node.definition), &def);
            if !problems.is_empty() {
                return Err(refuse_shape(node_id, node.kind, &problems));
            }
            if before_value.as_ref() == Some(&value) {
                return Ok(vec![]);
            }
            Ok(vec![OpBody::SetNodeField { node_id: node_id.to_string(), path: path.to_string(), value }])
        })?;
        let was = match &before_value {
            Some(v) => format!(" (was {})", crate::wire::json::compact_cut(v, 80)),
            None => String::new(),
        };
        self.echo(
            &after,
            format!("set `{path}` of `{node_id}`{was}"),
            Some(node_id),
            arg_note.into_iter().collect(),
            &[],
            &[],
        )
    }

    /// Sets or clears a node's phase.
    pub(crate) fn set_node_phase(
        &self,
        plan: &str,
        node_id: &str,
        phase: Option<String>,
        expect: Option<u64>,
    ) -> Result<Echo> {
        let phase = phase.filter(|p| !p.is_empty());
        if let Some(p) = &phase {
            check_phase(p)?;
        }
        self.before_write()?;
        let mut phase_note = None;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            let node = before
                .node(node_id)
                .ok_or_else(|| unknown_node(before, node_id))?;
            if node.phase.as_deref() == phase.as_deref() {
                return Ok(vec![]);
            }
            phase_note = super::near_miss::new_phase(before.content(), phase.as_deref(), node_id);
            Ok(vec![OpBody::SetNodePhase {
                node_id: node_id.to_string(),
                phase: phase.clone(),
            }])
        })?;
        let changed = match &phase {
            Some(p) => format!("moved `{node_id}` to phase `{p}`"),
            None => format!("made `{node_id}` unphased"),
        };
        self.echo(
            &after,
            changed,
            Some(node_id),
            phase_note.into_iter().collect(),
            &[],
            &[],
        )
    }

    /// Connects two nodes. Without a handle, `always` (refused for branch and
    /// select sources, which must say which outcome). Without an id, one is
    /// minted under the lock.
    pub(crate) fn connect(
        &self,
        plan: &str,
        from: &str,
        to: &str,
        handle: Option<&str>,
        id: Option<&str>,
        expect: Option<u64>,
    ) -> Result<Echo> {
        if let Some(id) = id
            && !ids::is_valid_edge_id(id)
        {
            return Err(Error::invalid(format!(
                "`{}` is not a valid edge id: use 1–64 letters, digits, `_` or `-` (or give no id to get a readable one)",
                ids::quote_id(id)
            )));
        }
        let mut edge_id = String::new();
        let mut existing = false;
        self.before_write()?;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            let c = before.content();
            let source = before.node(from).ok_or_else(|| unknown_node(before, from))?;
            if before.node(to).is_none() {
                return Err(unknown_node(before, to));
            }
            let allowed = source.kind.allowed_handles();
            let handle = match handle {
                Some(h) => Handle::parse(h),
                None if source.kind.allows(&Handle::Always) => Handle::Always,
                None => {
                    return Err(Error::invalid(format!(
                        "`{from}` is {} node: say which outcome the edge follows with a handle ({})",
                        source.kind.a(),
                        allowed.join(", ")
                    ))
                    .fix(Remedy::Connect {
                        from: Pick::id(from),
                        to: Pick::id(to),
                        handle: Some(unused_handle(c, from, allowed).to_string()),
                    }));
                }
            };
            if !source.kind.allows(&handle) {
                return Err(forbidden_handle(c, source, &handle, to));
            }
            // A retried connect finds its edge: nothing changes.
            // Among the edges out of `from` (the kept graph's, on a warm
            // plan, or the snapshot's id index: no pass over every edge).
            let same = |e: &&Edge| e.from == from && e.to == to && e.handle == handle;
            let around = self.edges_around(before, from).map(|(_, out)| out);
            let found = match around.or_else(|| before.edges_touching(from)) {
                Some(ks) => ks.iter().map(|&k| &c.edges[k]).find(same),
                None => c.edges.iter().find(same),
            };
            if let Some(e) = found {
                edge_id = e.id.to_string();
                existing = true;
                return Ok(vec![]);
            }
            edge_id = match id {
                Some(i) => {
                    if let Some(e) = before.edge(i) {
                        return Err(Error::new(
                            ErrorKind::DuplicateId,
                            format!("plan {} already has an edge `{i}` ({} → {} on `{}`)", before.plan_id, e.from, e.to, e.handle),
                        )
                        .with_help("choose another id, or give no id to get a readable one"));
                    }
                    i.to_string()
                }
                None => {
                    // The first candidate is almost always free: a pass of
                    // compares, not a set of every edge id (built only when
                    // more candidates are tried).
                    let tries = std::cell::Cell::new(0u32);
                    let taken = std::cell::OnceCell::new();
                    crate::wire::codec::mint_edge_id(from, to, &handle, |cand| {
                        tries.set(tries.get() + 1);
                        if tries.get() == 1 {
                            return before.edge(cand).is_some();
                        }
                        let set: &std::collections::HashSet<&str> = taken.get_or_init(|| c.edges.iter().map(|e| e.id.as_str()).collect());
                        set.contains(cand)
                    })
                }
            };
            Ok(vec![OpBody::AddEdge { edge: Edge { id: edge_id.clone().into(), from: from.into(), to: to.into(), handle } }])
        })?;
        let handle_text = after
            .edge(&edge_id)
            .map(|e| e.handle.to_string())
            .unwrap_or_default();
        let changed = if existing {
            let other_id = match id {
                Some(i) if i != edge_id => format!(" (not `{i}`)"),
                _ => String::new(),
            };
            format!(
                "`{from}` → `{to}` on `{handle_text}` is already edge `{edge_id}`{other_id}; nothing changed"
            )
        } else {
            format!("connected `{from}` → `{to}` on `{handle_text}` as edge `{edge_id}`")
        };
        self.echo(
            &after,
            changed,
            Some(from),
            vec![],
            &[to.to_string()],
            &[edge_id.clone()],
        )
    }

    /// Removes an edge.
    pub(crate) fn disconnect(
        &self,
        plan: &str,
        edge_id: &str,
        expect: Option<u64>,
    ) -> Result<Echo> {
        let mut removed: Option<Edge> = None;
        self.before_write()?;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            let e = before
                .content()
                .edge(edge_id)
                .ok_or_else(|| unknown_edge(before, edge_id))?;
            removed = Some(e.clone());
            Ok(vec![OpBody::RemoveEdge {
                edge_id: edge_id.to_string(),
            }])
        })?;
        let e = removed.expect("set when the edge exists");
        self.echo(
            &after,
            format!(
                "disconnected edge `{edge_id}` ({} → {} on `{}`)",
                e.from, e.to, e.handle
            ),
            Some(&e.from),
            vec![],
            &[e.to.to_string()],
            &[],
        )
    }

    /// Removes a node with its incident edges, in one transaction.
    pub(crate) fn remove_node(
        &self,
        plan: &str,
        node_id: &str,
        expect: Option<u64>,
    ) -> Result<Echo> {
        let mut incident: Vec<Edge> = Vec::new();
        let mut kind = NodeKind::Join;
        self.before_write()?;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            let c = before.content();
            let node = c
                .node(node_id)
                .ok_or_else(|| unknown_node(before, node_id))?;
            kind = node.kind;
            incident = c
                .edges
                .iter()
                .filter(|e| e.from == node_id || e.to == node_id)
                .cloned()
                .collect();
            Ok(vec![OpBody::RemoveNode {
                node_id: node_id.to_string(),
                incident_edge_ids: incident.iter().map(|e| e.id.to_string()).collect(),
            }])
        })?;
        let mut neighbours: Vec<String> = Vec::new();
        for e in &incident {
            let other = if e.from == node_id { &e.to } else { &e.from };
            if other != node_id && !neighbours.iter().any(|n| n == other) {
                neighbours.push(other.to_string());
            }
        }
        let details = vec![removed_edges(node_id, &incident)];
        self.echo(
            &after,
            format!(
                "removed {kind} node `{node_id}` and its {} edge(s)",
                incident.len()
            ),
            None,
            details,
            &neighbours,
            &[],
        )
    }

    /// Replaces all five bounds.
    pub(crate) fn set_bounds(
        &self,
        plan: &str,
        bounds: Bounds,
        expect: Option<u64>,
    ) -> Result<Echo> {
        let mut old = Bounds::default();
        self.before_write()?;
        let (after, _) = self.store().commit(plan, self.actor(), expect, |before| {
            old = before.content().bounds;
            if old == bounds {
                return Ok(vec![]);
            }
            Ok(vec![OpBody::SetBounds { bounds }])
        })?;
        let details = old
            .members()
            .iter()
            .zip(bounds.members().iter())
            .map(|((name, a), (_, b))| {
                if a == b {
                    format!("{name}: {a}")
                } else {
                    format!("{name}: {a} → {b}")
                }
            })
            .collect();
        self.echo(
            &after,
            "set the bounds".to_string(),
            None,
            details,
            &[],
            &[],
        )
    }
}

/// `a, b, c … and N more`, plain (no backticks), or `(none)`.
/// Every edge a removal took, compactly and within a line: `removed 33
/// edge(s): in from a, b (error); out to x … and 20 more (undoing the change
/// restores them all)`. Ids are left out: a reconnection mints new ones.
fn removed_edges(node: &str, edges: &[Edge]) -> String {
    const ROOM: usize = 190;
    let mut s = format!("removed {} edge(s):", edges.len());
    if edges.is_empty() {
        s.push_str(" none");
        return s;
    }
    let item = |e: &Edge| {
        let other = if e.to == node { &e.from } else { &e.to };
        match e.handle.as_str().as_ref() {
            "always" => other.to_string(),
            h => format!("{other} ({h})"),
        }
    };
    let (ins, outs): (Vec<&Edge>, Vec<&Edge>) = edges.iter().partition(|e| e.to == node);
    let mut listed = 0;
    for (label, list) in [(" in from", &ins), (" out to", &outs)] {
        if list.is_empty() {
            continue;
        }
        if listed > 0 {
            s.push(';');
        }
        s.push_str(label);
        for (k, e) in list.iter().enumerate() {
            let it = item(e);
            if s.len() + it.len() + 2 > ROOM {
                s.push_str(&format!(
                    " … and {} more (undoing the change restores them all)",
                    edges.len() - listed
                ));
                return s;
            }
            s.push_str(if k == 0 { " " } else { ", " });
            s.push_str(&it);
            listed += 1;
        }
    }
    s
}

pub(crate) fn bounded_list(items: &[String], cap: usize) -> String {
    if items.is_empty() {
        return "(none)".into();
    }
    let mut s = items
        .iter()
        .take(cap)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > cap {
        s.push_str(&format!(" … and {} more", items.len() - cap));
    }
    s
}

/// The refusal of a handle `source`'s kind does not have, with the handle to
/// use instead: the one the given text is closest to, else the first the
/// source does not use yet.
fn forbidden_handle(c: &Content, source: &Node, handle: &Handle, to: &str) -> Error {
    let allowed = source.kind.allowed_handles();
    let given = handle.as_str();
    let near = crate::model::suggest::closest(&given, allowed.iter().copied());
    let hint = crate::model::suggest::did_you_mean(&given, allowed.iter().copied());
    let use_instead = near.unwrap_or_else(|| unused_handle(c, &source.id, allowed));
    let issue = crate::check::invalid_handle::issue_for(&source.id, source.kind, handle, to);
    Error::refused(format!(
        "`{}` is {} node, which has no `{handle}` handle{hint}; its handles are {}",
        source.id,
        source.kind.a(),
        allowed.join(", ")
    ))
    .with_issue(issue)
    .fix(Remedy::Connect {
        from: Pick::id(&source.id),
        to: Pick::id(to),
        handle: Some(use_instead.to_string()),
    })
}

/// The first of `allowed` that no edge from `from` uses yet (else the
/// first): `case_<label>` stands for any case.
fn unused_handle<'a>(c: &Content, from: &str, allowed: &[&'a str]) -> &'a str {
    let used: Vec<String> = c
        .edges
        .iter()
        .filter(|e| e.from == from)
        .map(|e| e.handle.as_str().into_owned())
        .collect();
    allowed
        .iter()
        .find(|h| !h.contains('<') && !used.iter().any(|u| u == *h))
        .copied()
        .unwrap_or(allowed[0])
}

/// The refusal of a new argument the tool's registry entry does not name
/// (a fix per named argument not set yet), or the note for one nothing can
/// check.
fn new_arg_refusal(
    before: &Loaded,
    node: &Node,
    path: &str,
    value: &Value,
    registry: Option<&crate::model::registry::Registry>,
) -> Result<Option<String>> {
    use super::near_miss::NewArg;
    match super::near_miss::new_arg(node, path, registry) {
        None => Ok(None),
        Some(NewArg::Unchecked { arg, why }) => Ok(Some(format!(
            "`args.{arg}` is a new argument of `{}`; {why}",
            node.id
        ))),
        Some(NewArg::NotTaken { arg, tool, known }) => {
            let named = if known.is_empty() {
                "its registry entry names no arguments".to_string()
            } else {
                let list: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
                format!("its registry entry names {}", list.join(", "))
            };
            let set: Vec<&String> = known
                .iter()
                .filter(|k| get_path(&node.definition, &format!("args.{k}")).is_none())
                .collect();
            let rest = path.split_once('.').map_or("", |(_, r)| r);
            let tail = rest
                .split_once('.')
                .map_or(String::new(), |(_, t)| format!(".{t}"));
            let mut e = Error::new(
                ErrorKind::UnknownKey,
                format!(
                    "the tool `{tool}` of node `{}` takes no argument `{arg}` ({named}); nothing was written",
                    node.id
                ),
            )
            .on_plan(&before.plan_id);
            // The value given is offered for an argument it may have been
            // meant for (one the typed name is a near miss of); for any
            // other, the value is the author's to give.
            for k in set {
                let meant = crate::model::suggest::closest(&arg, [k.as_str()]).is_some();
                e = e.fix(Remedy::SetField {
                    node: node.id.to_string(),
                    path: format!("args.{k}{tail}"),
                    value: if meant {
                        Fill::Value(value.clone())
                    } else {
                        Fill::choose(format!("the value of `{k}`"))
                    },
                });
            }
            Err(e.fix(
                Remedy::AddField {
                    node: node.id.to_string(),
                    path: path.to_string(),
                    value: Fill::Value(value.clone()),
                }
                .when("if the argument is meant although the registry does not name it"),
            ))
        }
    }
}

/// A path through a list of the node: an index within it is set in place,
/// the index one past its end appends (the whole list is set, with the
/// value added), and any other step into the list is refused, naming the
/// list and its length.
fn list_step(node: &crate::model::Node, path: &str, value: Value) -> Result<(String, Value)> {
    let segs: Vec<&str> = path.split('.').collect();
    for i in 1..segs.len() {
        let prefix = segs[..i].join(".");
        let Some(Value::Array(items)) = get_path(&node.definition, &prefix) else {
            continue;
        };
        let n = items.len();
        match segs[i].parse::<usize>() {
            Ok(idx) if idx < n => continue,
            Ok(idx) if idx == n && i + 1 == segs.len() => {
                let mut all = items.clone();
                all.push(value);
                return Ok((prefix, Value::Array(all)));
            }
            _ => {
                return Err(Error::invalid(format!(
                    "`{prefix}` of node `{}` is a list of {n} item(s), so `{}` in `{path}` is not a place in it: give an index 0 to {}, or {n} to add an item at the end; nothing was written",
                    node.id,
                    segs[i],
                    n.saturating_sub(1)
                ))
                .fix(Remedy::SetField {
                    node: node.id.to_string(),
                    path: format!("{prefix}.{n}"),
                    value: if i + 1 == segs.len() {
                        Fill::Value(value)
                    } else {
                        Fill::choose("the new item")
                    },
                }));
            }
        }
    }
    Ok((path.to_string(), value))
}
