//! Small helpers shared by the check files: node-id suggestions with a work
//! budget, definition walks, and how references and places are named in
//! messages. A helper, not an issue code (it is not in `CHECKS`).

use super::Graph;
use crate::model::hash::FastMap as HashMap;
use crate::model::remedy::{Fill, Fix, Remedy};
use crate::model::suggest;
use crate::model::value::Pointer;
use crate::model::{BranchId, Node, Ref, Segment, Select, Value};
use std::cell::RefCell;

/// A value per node, each computed the first time it is asked for in a
/// run: made in blocks of [`Slots::BLOCK`] nodes when one of them is first
/// asked for, so that a run that asks about a few nodes (an incremental
/// one, issue 17) costs what it asks, not a slot for every node of the
/// plan made and dropped again.
pub(crate) struct Slots<T> {
    blocks: Vec<std::cell::OnceCell<Box<[std::cell::OnceCell<T>]>>>,
}

impl<T> Slots<T> {
    const BLOCK: usize = 256;

    /// Slots for `len` nodes, none made yet.
    pub(crate) fn new(len: usize) -> Slots<T> {
        Slots {
            blocks: (0..len.div_ceil(Self::BLOCK))
                .map(|_| std::cell::OnceCell::new())
                .collect(),
        }
    }

    /// Node `i`'s value, made by `make` the first time.
    pub(crate) fn get_or_init(&self, i: usize, make: impl FnOnce() -> T) -> &T {
        let block = self.blocks[i / Self::BLOCK].get_or_init(|| {
            (0..Self::BLOCK)
                .map(|_| std::cell::OnceCell::new())
                .collect()
        });
        block[i % Self::BLOCK].get_or_init(make)
    }
}

/// Suggestions for a node id that does not exist: a "did you mean" and a
/// capped list of ids, nearest first. Memoised per input, and bounded: only
/// the first few distinct inputs get the full list, and on large plans only
/// they get a "did you mean", so a plan with many broken ids stays linear.
pub(crate) struct IdHints<'g, 'a> {
    g: &'g Graph<'a>,
    memo: RefCell<HashMap<String, IdHint>>,
}

/// What [`IdHints`] found for one missing id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IdHint {
    /// ` (did you mean `x`?); the plan's nodes are `a`, `b` … and N more`,
    /// shortened on large plans (prose, for the message).
    pub(crate) text: String,
    /// The nearest existing id, when one is near enough.
    pub(crate) closest: Option<String>,
    /// Whether `text` lists the plan's node ids (else reading the outline
    /// shows them).
    pub(crate) listed: bool,
}

impl IdHint {
    /// No hint: no nearest id, nothing to add to the message.
    pub(crate) fn none() -> IdHint {
        IdHint {
            text: String::new(),
            closest: None,
            listed: false,
        }
    }

    /// The fix that shows the node ids when the message does not list them.
    pub(crate) fn outline_fix(&self) -> Option<Fix> {
        (!self.listed).then(|| Remedy::Outline.when("to see the plan's node ids"))
    }
}

/// Plans up to this size get the full nearest-first list of ids.
pub(crate) const LIST_UP_TO: usize = 2000;
/// Distinct inputs that get a suggestion on a large plan.
pub(crate) const BUDGET: usize = 32;

impl<'g, 'a> IdHints<'g, 'a> {
    pub(crate) fn new(g: &'g Graph<'a>) -> Self {
        IdHints {
            g,
            memo: RefCell::new(HashMap::default()),
        }
    }

    /// The hint for `input`, a node id the plan does not have.
    pub(crate) fn for_missing(&self, input: &str) -> IdHint {
        if let Some(h) = self.memo.borrow().get(input) {
            return h.clone();
        }
        let n = self.g.len();
        let fresh = self.memo.borrow().len() < BUDGET;
        let ids = self.g.content.nodes.iter().map(|n| n.id.as_str());
        let closest = if fresh || n <= LIST_UP_TO {
            suggest::closest(input, ids.clone()).map(str::to_string)
        } else {
            None
        };
        let did_you_mean = match &closest {
            Some(c) => format!(" (did you mean `{c}`?)"),
            None => String::new(),
        };
        let listed = fresh && n <= LIST_UP_TO;
        let text = if listed {
            format!(
                "{did_you_mean}; the plan's nodes are {}",
                suggest::choices(input, ids)
            )
        } else {
            did_you_mean
        };
        let hint = IdHint {
            text,
            closest,
            listed,
        };
        self.memo
            .borrow_mut()
            .insert(input.to_string(), hint.clone());
        hint
    }
}

/// Visits every value of a node's definition with its pointer relative to
/// the node (`/definition/args/x`).
pub(crate) fn walk_definition<'n>(node: &'n Node, f: &mut dyn FnMut(&Pointer<'n>, &'n Value)) {
    let mut at = Pointer::new("/definition");
    for (k, v) in &node.definition {
        at.push_key(k);
        v.walk(&mut at, f);
        at.pop();
    }
}

/// A value that `unfilled_param`, `ref_lookalike`, `scaffold_placeholder` or
/// `missing_reference` looks for, with where it is.
#[derive(Clone)]
pub(crate) struct LiteralHit<'a> {
    /// Index of the node in the content.
    pub(crate) node: usize,
    pub(crate) pointer: String,
    pub(crate) value: &'a Value,
}

/// Every hole, reference, look-alike record, placeholder string and string
/// starting with `@` in every definition, in node order (one walk for the checks that look for them).
pub(crate) fn literal_hits(content: &crate::model::Content) -> Vec<LiteralHit<'_>> {
    let mut out = Vec::new();
    for (i, n) in content.nodes.iter().enumerate() {
        out.extend(literal_hits_of(n, i));
    }
    out
}

/// The hits of [`literal_hits`] in one node, `i`.
pub(crate) fn literal_hits_of(n: &crate::model::Node, i: usize) -> Vec<LiteralHit<'_>> {
    let mut out = Vec::new();
    walk_definition(n, &mut |at, v| {
        let hit = match v {
            Value::Param(_) | Value::Ref(_) => true,
            // `@…`: perhaps the command line's reference shorthand,
            // stored as text (`ref_lookalike` decides).
            Value::String(s) => s == crate::model::shape::PLACEHOLDER || s.starts_with('@'),
            Value::Object(m) => crate::wire::convert::is_lookalike(m),
            _ => false,
        };
        if hit {
            out.push(LiteralHit {
                node: i,
                pointer: at.to_string(),
                value: v,
            });
        }
    });
    out
}

/// The entries reachability starts from, for messages: `the entry `s``, or
/// `any of the 3 entries (`a`, `b`, `c`)`, at most 20 named.
pub(crate) fn entries_text(g: &Graph) -> String {
    let ids: Vec<&str> = g.entries.iter().map(|&i| g.node(i).id.as_str()).collect();
    match ids.as_slice() {
        [] => "an entry".to_string(),
        [one] => format!("the entry `{one}`"),
        _ => format!(
            "any of the {} entries ({})",
            ids.len(),
            suggest::capped_list(&ids, 20)
        ),
    }
}

/// Where a value sits, for messages: `args.x` or `prompt part 2`.
pub(crate) fn place(pointer: &str) -> String {
    let p = crate::model::value::dot_path(pointer);
    match p.strip_prefix("prompt.") {
        Some(i) if !i.contains('.') => format!("prompt part {i}"),
        _ => format!("`{p}`"),
    }
}

/// A short description of a reference: `` `fetch` `` / `` `fetch.result` ``
/// plus its select when it is not `first`.
pub(crate) fn ref_text(r: &Ref) -> String {
    let mut s = format!("`{}", r.node);
    if let Some(p) = &r.path {
        s.push('.');
        s.push_str(p);
    }
    s.push('`');
    if r.select != Select::First {
        s.push_str(&format!(" (select {})", r.select.describe()));
    }
    s
}

/// A route in words, for a fix's condition: `` `e1` → join `j` → `e5` ``.
pub(crate) fn route_words(b: &BranchId) -> String {
    b.segments
        .iter()
        .map(|s| match s {
            Segment::Edge(e) => format!("`{e}`"),
            Segment::Join { join, .. } => format!("join `{join}`"),
        })
        .collect::<Vec<_>>()
        .join(" → ")
}

/// Whether `first_last_across_join` reports the reference `d`: `first` or
/// `last`, no `branchId`, to a node at or after a join that runs more than
/// once (counted as `ambiguous_reference` counts; a node after a well-formed
/// diamond runs once, so first and last are its one execution). Where runs
/// cannot be counted (no single entry, a cycle) every such reference is
/// reported. `ambiguous_reference` leaves these references to it.
pub(crate) fn first_last_after_join(g: &Graph, after: &[Option<usize>], d: &DataRef) -> bool {
    if !matches!(
        d.r.select,
        crate::model::Select::First | crate::model::Select::Last
    ) || d.r.branch_id.is_some()
        || after[d.target].is_none()
    {
        return false;
    }
    let exec = g.executions();
    let counted = g.entry().is_some_and(|e| exec[e] == 1);
    !counted || exec[d.target] > 1
}

/// The fixes that make the reference `r` at `pointer` of node `node` name
/// one of `routes` with its `branchId`, one fix per route; with no routes
/// known, one fix whose value the author chooses.
pub(crate) fn branch_fixes(
    node: &str,
    pointer: &str,
    r: &Ref,
    routes: Option<&[BranchId]>,
) -> Vec<Fix> {
    let path = crate::model::value::dot_path(pointer);
    let set = |value| Remedy::SetField {
        node: node.to_string(),
        path: path.clone(),
        value,
    };
    match routes {
        Some(routes) if !routes.is_empty() => routes
            .iter()
            .map(|b| {
                let mut with = r.clone();
                with.branch_id = Some(b.clone());
                set(Fill::Value(Value::Ref(Box::new(with))))
                    .when(format!("to read the execution along {}", route_words(b)))
            })
            .collect(),
        _ => vec![Fix::from(set(Fill::choose(
            "the same reference with a branchId naming one route",
        )))],
    }
}

/// `node` is the canonical (first) node with its id, so duplicated ids in a
/// document are reported once.
pub(crate) fn is_canonical(g: &Graph, i: usize) -> bool {
    g.canonical[i]
}

/// One reference read from a node's data places (call args, reason prompt,
/// transform source) whose target exists.
#[derive(Clone)]
pub(crate) struct DataRef<'a> {
    /// The reading node.
    pub(crate) node: usize,
    /// Pointer relative to the reading node (`/definition/args/x`):
    /// borrowed from the kept facts in a warm session, not copied per run.
    pub(crate) pointer: std::borrow::Cow<'a, str>,
    pub(crate) r: &'a Ref,
    pub(crate) target: usize,
}

/// What a data reference selects and whether it names a branch: kept
/// beside each reference's position ([`super::kept_nodes`]) so that a
/// check passes over the references it has no use for without reading
/// them ([`super::Cx::data_refs_where`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RefTag(u8);

impl RefTag {
    const BRANCH: u8 = 1;
    const ALL: u8 = 2;
    const FIRST_OR_LAST: u8 = 4;

    pub(crate) fn of(r: &Ref) -> RefTag {
        let select = match r.select {
            crate::model::Select::All => RefTag::ALL,
            crate::model::Select::First | crate::model::Select::Last => RefTag::FIRST_OR_LAST,
            crate::model::Select::Index(_) => 0,
        };
        RefTag(
            select
                | if r.branch_id.is_some() {
                    RefTag::BRANCH
                } else {
                    0
                },
        )
    }

    /// The tag as stored, and back (`None` for a value no tag has).
    pub(crate) fn bits(self) -> u8 {
        self.0
    }
    pub(crate) fn from_bits(b: u8) -> Option<RefTag> {
        (b & !(RefTag::BRANCH | RefTag::ALL | RefTag::FIRST_OR_LAST) == 0
            && b & (RefTag::ALL | RefTag::FIRST_OR_LAST) != (RefTag::ALL | RefTag::FIRST_OR_LAST))
            .then_some(RefTag(b))
    }

    /// Whether the reference names a branch (`branchId`).
    pub(crate) fn branch(self) -> bool {
        self.0 & RefTag::BRANCH != 0
    }
    /// Whether it selects every execution.
    pub(crate) fn all(self) -> bool {
        self.0 & RefTag::ALL != 0
    }
    /// Whether it selects the first or the last execution.
    pub(crate) fn first_or_last(self) -> bool {
        self.0 & RefTag::FIRST_OR_LAST != 0
    }
}

/// Those of `refs` for which `keep(reader, tag, target)` holds.
pub(crate) fn data_refs_kept<'a>(
    refs: &[DataRef<'a>],
    keep: impl Fn(usize, RefTag, usize) -> bool,
) -> Vec<DataRef<'a>> {
    refs.iter()
        .filter(|d| keep(d.node, RefTag::of(d.r), d.target))
        .cloned()
        .collect()
}

/// Every data reference of the plan whose target exists, in node order.
/// O(size of the definitions).
pub(crate) fn data_refs<'a>(g: &Graph<'a>) -> Vec<DataRef<'a>> {
    let mut out = Vec::new();
    for i in 0..g.len() {
        data_refs_into(g, i, &mut out);
    }
    out
}

/// The [`data_refs`] of node `i` alone.
pub(crate) fn data_refs_of<'a>(g: &Graph<'a>, i: usize) -> Vec<DataRef<'a>> {
    let mut out = Vec::new();
    data_refs_into(g, i, &mut out);
    out
}

fn data_refs_into<'a>(g: &Graph<'a>, i: usize, out: &mut Vec<DataRef<'a>>) {
    if !is_canonical(g, i) {
        return;
    }
    for (pointer, r) in g.node(i).data_refs() {
        if let Some(target) = g.index_of(&r.node) {
            out.push(DataRef {
                node: i,
                pointer: pointer.into(),
                r,
                target,
            });
        }
    }
}

/// Where a transform's `source` leads, as far as the transform rules go.
pub(crate) enum TransformSource<'a> {
    /// No usable `source` reference (missing_field), or a missing target
    /// (missing_reference): nothing for the transform rules to say.
    Unusable,
    /// The source node is not a call.
    NotCall(usize),
    /// A call, with its tool when it names one.
    Call { call: usize, tool: Option<&'a str> },
}

pub(crate) fn transform_source<'a>(g: &Graph<'a>, n: &'a Node) -> TransformSource<'a> {
    let Some(Value::Ref(r)) = n.get("source") else {
        return TransformSource::Unusable;
    };
    let Some(t) = g.index_of(&r.node) else {
        return TransformSource::Unusable;
    };
    let node = g.node(t);
    if node.kind != crate::model::NodeKind::Call {
        return TransformSource::NotCall(t);
    }
    TransformSource::Call {
        call: t,
        tool: node.tool(),
    }
}

/// The artifact class a transform works on, when its source chain is sound
/// (a call whose registered tool returns an artifact).
pub(crate) fn transform_class<'r>(
    g: &Graph,
    n: &Node,
    reg: &'r crate::model::registry::Registry,
) -> Option<&'r str> {
    let TransformSource::Call {
        tool: Some(tool), ..
    } = transform_source(g, n)
    else {
        return None;
    };
    match &reg.tool(tool)?.returns {
        Some(crate::model::registry::Returns::Artifact { class }) => Some(class.as_str()),
        _ => None,
    }
}

// The kept state on disk (see `super::kept_disk`).
super::kept_disk::persist_fields!(IdHint {
    text,
    closest,
    listed
});

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_paths_and_places() {
        assert_eq!(
            crate::model::value::dot_path("/definition/args/x"),
            "args.x"
        );
        assert_eq!(
            crate::model::value::dot_path("/definition/args/a~1b/0"),
            "args.a/b.0"
        );
        assert_eq!(place("/definition/prompt/2"), "prompt part 2");
        assert_eq!(place("/definition/args/x"), "`args.x`");
    }
}
