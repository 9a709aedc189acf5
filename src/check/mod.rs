//! The check engine (SPEC §5).
//!
//! One issue code is one file under `src/check/`: the check, its documentation
//! (What it finds / Why it matters / How to fix / Example) and its tests.
//! [`CHECKS`] lists every code once and fixes the order in which they run.
//! Every check runs and every issue is collected; nothing stops at the first.

pub(crate) mod flow;
pub(crate) mod graph;
mod group;
pub(crate) mod hints;
pub mod incremental;
mod kahn;
mod kept_adj;
mod kept_disk;
mod kept_graph;
pub(crate) mod kept_ids;
mod kept_lanes;
mod kept_later;
mod kept_lazy;
mod kept_nodes;
mod kept_parts;
pub mod notes;
pub(crate) mod predicate;
pub(crate) mod support;

use crate::model::{Code, Issue, Report};
pub(crate) use graph::Graph;
pub(crate) use inlined_source::{CODE as INLINED_SOURCE, CONTEXT_BUDGET_BYTES, DESCRIPTOR_BYTES};
pub(crate) use synthesis::unit_keys;

use crate::model::Content;
use crate::model::registry::Registry;

/// What a check needs before it can run. Only what a check cannot do
/// without is required: reachability needs an entry, not acyclicity; what
/// runs before what needs acyclicity, not one entry; routes, dominators and
/// taint need both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Needs {
    /// Acyclic with exactly one entry (routes, dominators, taint).
    pub(crate) routable: bool,
    /// Acyclic, with any number of entries (ancestry: what runs before what).
    pub(crate) acyclic: bool,
    /// At least one entry (reachability from the entries).
    pub(crate) entry: bool,
    /// A registry (tool metadata).
    pub(crate) registry: bool,
}

impl Needs {
    pub(crate) const NOTHING: Needs = Needs {
        routable: false,
        acyclic: false,
        entry: false,
        registry: false,
    };
    pub(crate) const ROUTES: Needs = Needs {
        routable: true,
        ..Needs::NOTHING
    };
    pub(crate) const ACYCLIC: Needs = Needs {
        acyclic: true,
        ..Needs::NOTHING
    };
    pub(crate) const REACH: Needs = Needs {
        entry: true,
        ..Needs::NOTHING
    };
    pub(crate) const REGISTRY: Needs = Needs {
        registry: true,
        ..Needs::NOTHING
    };
    pub(crate) const BOTH: Needs = Needs {
        routable: true,
        registry: true,
        ..Needs::NOTHING
    };
}

/// Where a code's issues come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// Run by the engine on plan content.
    Check,
    /// Emitted by the fold or the log reader (`run` does nothing).
    Fold,
    /// Emitted by the lifecycle (freeze, integrity) (`run` does nothing).
    Lifecycle,
    /// Emitted by `validate` when it applies inline suppressions (`run`
    /// does nothing).
    Validate,
    /// Emitted on templates: by the template loader (`template::check`) and
    /// by `instantiate` (`run` does nothing; plans never get these codes).
    Template,
}

/// What a check's findings depend on, for the incremental checks (issue 17).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Findings about one node at a time. While it looks at node `i` (the
    /// nodes [`Cx::nodes`] yields), the check reads only that node, the
    /// edges at it, the nodes at their other ends and the registry, and
    /// every finding it makes then is node `i`'s. So after a change only the
    /// nodes it touched and their neighbours are checked again.
    Node,
    /// As [`Scope::Node`], and the node may also read the nodes it names in
    /// a data reference (its `$ref` targets, which need no edge): after a
    /// change, a node that references a touched id is checked again too.
    /// Such a check looks at the references of [`Cx::scoped_data_refs`].
    Refs,
    /// As [`Scope::Refs`], and the node may also read its ancestors (the
    /// nodes with an edge path to it), the ancestors of the nodes it names,
    /// and the edges among them: what runs before it or before what it
    /// reads. After a change, the nodes downstream of a touched node
    /// (reachable from it over edges in the new graph) and the nodes naming
    /// one of those are checked again too; an edge removed, or a node, has
    /// its ends in [`Touched`](crate::model::touched::Touched), so the
    /// nodes that lost an ancestor are downstream of one of them. Such a
    /// check reads no plan-wide fact (the number of entries, ids across
    /// the plan), looks at [`Cx::nodes`] or [`Cx::scoped_data_refs`], and
    /// names the node in every finding ([`Issue::node_id`]): it runs once
    /// over all the nodes to look at again, and its findings are kept by
    /// the node they name.
    ///
    /// Of its ancestors it reads which nodes they are and the edges among
    /// them, not their definitions, and it finds what is *not* upstream: a
    /// change that adds nodes and edges and neither removes nor moves one
    /// only makes more nodes upstream, so it can take a finding away or
    /// word it anew but never make one on a node that had none. After such
    /// a change only the nodes it had findings on are checked again besides
    /// the nodes added or edited (not the ends of an added edge, which
    /// keep their definitions) and the nodes naming one of them (no walk
    /// downstream, no neighbours).
    Downstream,
    /// Findings about one edge at a time. While it looks at edge `k` (the
    /// edges [`Cx::edges`] yields), the check reads only that edge, the
    /// nodes at its ends and the other edges at those nodes, and every
    /// finding it makes then is edge `k`'s. So after a change only the new
    /// edges and the edges at a touched node are checked again (an edge
    /// added, removed or replaced has its ends in
    /// [`Touched`](crate::model::touched::Touched)).
    Edge,
    /// Findings that may read the graph anywhere (reachability, routes,
    /// dominators, taint), made for the nodes [`Cx::nodes`] yields (or the
    /// references [`Cx::scoped_data_refs`] gives) and listed in node
    /// order, where a *loose* node (no edge at it, no entry, named by no
    /// other node) changes no other node's findings. So after a change that
    /// only adds loose nodes, the findings of the last run stay and the new
    /// nodes' follow them, found by a run over the new nodes alone. Any
    /// other change runs it whole.
    Graph,
    /// As [`Scope::Graph`], and the findings read no edge: they are made of
    /// the nodes' definitions, kinds and data references alone (the graph's
    /// shape decides at most whether the check runs, by its
    /// [`Check::needs`], and how fast). So after a change that touches no
    /// node (only edges added or removed), the last run's findings stay
    /// (debug builds compare them with a fresh run).
    Data,
    /// As [`Scope::Graph`], and every finding names its node and is about
    /// something *not* upstream of it (reachability read anywhere, as
    /// [`Scope::Downstream`] reads ancestors): a change that only adds
    /// nodes and edges (none removed or moved) only makes more nodes
    /// upstream, so it can take a finding away or word it anew but never
    /// make one on an untouched node that had none. After such a change
    /// only the nodes it had findings on and the touched nodes and their
    /// neighbours are checked again (one run over all of them, in node
    /// order, with [`Cx::grown`] set); plan-wide facts it reads (the
    /// hints for missing ids) must depend only on the nodes that have
    /// findings. Any other change runs it as [`Scope::Graph`].
    Upstream,
    /// Anything else (ids and sizes across the plan, hints that list the
    /// plan's ids): run whole after every change.
    Plan,
}

/// What every check sees.
pub struct Cx<'a> {
    pub(crate) content: &'a Content,
    pub(crate) graph: Graph<'a>,
    pub(crate) registry: Option<&'a Registry>,
    /// The one node a [`Scope::Node`] check looks at, when not all.
    scope: std::cell::Cell<Option<usize>>,
    /// The nodes a [`Scope::Downstream`] check looks at, in node order,
    /// when not all (one run for all of them, so batched analyses such as
    /// [`flow::reaches_many`] stay batched).
    scope_many: std::cell::RefCell<Option<std::rc::Rc<[usize]>>>,
    /// The one edge a [`Scope::Edge`] check looks at, when not all.
    edge_scope: std::cell::Cell<Option<usize>>,
    /// Set by a [`Scope::Graph`] check run over new loose nodes alone when
    /// they may change the other nodes' findings after all: it is then run
    /// whole.
    pub(crate) whole: std::cell::Cell<bool>,
    /// Set while a [`Scope::Upstream`] check runs over the nodes it had
    /// findings on and the touched ones after a change that only added
    /// nodes and edges (the other nodes' findings stay none).
    pub(crate) grown: std::cell::Cell<bool>,
    data_refs: std::cell::OnceCell<Vec<support::DataRef<'a>>>,
    encoded_len: std::cell::OnceCell<usize>,
    shapes: std::cell::OnceCell<support::Slots<Vec<crate::model::shape::ShapeProblem>>>,
    literal_hits: std::cell::OnceCell<Vec<support::LiteralHit<'a>>>,
    hints: std::cell::OnceCell<hints::Hints<'a>>,
    declared: std::cell::OnceCell<support::Slots<Vec<String>>>,
    spawns: std::cell::OnceCell<Vec<usize>>,
    /// Each node's data references and size, kept between incremental
    /// runs ([`kept_nodes`]); walked afresh without them.
    kept_nodes: Option<&'a kept_nodes::KeptNodes>,
    /// `unreachable_call`'s own walk, kept between incremental runs.
    kept_reach: Option<&'a unreachable_call::KeptReach>,
    /// `oversized_phase`'s sums, kept between incremental runs.
    kept_phases: Option<&'a oversized_phase::Phases>,
    /// `tainted_call_arg`'s taint, kept between incremental runs (the
    /// check brings it up to each run).
    kept_taint: Option<&'a std::cell::RefCell<Option<tainted_call_arg::KeptTaint>>>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(content: &'a Content, registry: Option<&'a Registry>) -> Cx<'a> {
        Cx::with_graph(content, registry, Graph::new(content))
    }

    /// As [`new`](Self::new), over `graph` (`content`'s).
    pub(crate) fn with_graph(
        content: &'a Content,
        registry: Option<&'a Registry>,
        graph: Graph<'a>,
    ) -> Cx<'a> {
        Cx {
            content,
            graph,
            registry,
            scope: std::cell::Cell::new(None),
            scope_many: std::cell::RefCell::new(None),
            edge_scope: std::cell::Cell::new(None),
            whole: std::cell::Cell::new(false),
            grown: std::cell::Cell::new(false),
            data_refs: std::cell::OnceCell::new(),
            encoded_len: std::cell::OnceCell::new(),
            shapes: std::cell::OnceCell::new(),
            literal_hits: std::cell::OnceCell::new(),
            hints: std::cell::OnceCell::new(),
            declared: std::cell::OnceCell::new(),
            spawns: std::cell::OnceCell::new(),
            kept_nodes: None,
            kept_reach: None,
            kept_phases: None,
            kept_taint: None,
        }
    }

    /// The field paths node `node` declares ([`crate::model::Node::declared_paths`]),
    /// computed once per run however many nodes read it.
    pub(crate) fn declared_paths(&self, node: usize) -> &[String] {
        let all = self
            .declared
            .get_or_init(|| support::Slots::new(self.content.nodes.len()));
        all.get_or_init(node, || self.content.nodes[node].declared_paths())
    }

    /// The hint for `input`, a node id the plan does not have, that a
    /// reference or a reference shorthand names (see [`hints`]): the same
    /// whichever node asks, and whichever asks first.
    pub(crate) fn missing_hint(&self, input: &str) -> support::IdHint {
        self.hints
            .get_or_init(|| hints::Hints::of(&self.graph, self.literal_hits()))
            .for_missing(&self.graph, input)
    }

    /// The calls that spawn an agent ([`synthesis::spawns`]; none without a
    /// registry), found once per run for the orchestration checks.
    pub(crate) fn spawns(&self) -> &[usize] {
        self.spawns
            .get_or_init(|| match (self.registry, self.kept_nodes) {
                (Some(_), Some(k)) => k.spawns(&self.graph),
                (Some(reg), None) => synthesis::spawns(&self.graph, reg),
                (None, _) => Vec::new(),
            })
    }

    /// What every orchestration check starts from: the registry and the
    /// spawning calls, or `None` (nothing to check) without a registry or
    /// without a spawn.
    pub(crate) fn orchestration(&self) -> Option<(&'a Registry, &[usize])> {
        let reg = self.registry?;
        let spawns = self.spawns();
        (!spawns.is_empty()).then_some((reg, spawns))
    }

    /// Each node's departures from its kind's shape, computed once and
    /// shared by `missing_field`, `unknown_field` and the safety checks.
    pub(crate) fn shape_problems(&self, node: usize) -> &[crate::model::shape::ShapeProblem] {
        let all = self
            .shapes
            .get_or_init(|| support::Slots::new(self.content.nodes.len()));
        all.get_or_init(node, || {
            let n = &self.content.nodes[node];
            crate::model::shape::check_definition(n.kind, &n.definition)
        })
    }

    /// The nodes a [`Scope::Node`] check looks at: every node, or the one
    /// the incremental checks ask about.
    pub(crate) fn nodes(&self) -> impl Iterator<Item = (usize, &'a crate::model::Node)> + 'a {
        let content = self.content;
        self.positions().map(move |i| (i, &content.nodes[i]))
    }

    /// Whether the incremental checks asked about some nodes only (one,
    /// or many), rather than every node.
    fn scoped(&self) -> bool {
        self.scope.get().is_some() || self.scope_many.borrow().is_some()
    }

    /// The positions of [`Cx::nodes`], in order.
    fn positions(&self) -> impl Iterator<Item = usize> + 'a {
        let many = self.scope_many.borrow().clone();
        let (range, many) = match (many, self.scope.get()) {
            (Some(m), _) => (0..m.len(), Some(m)),
            (None, Some(i)) => (i..i + 1, None),
            (None, None) => (0..self.content.nodes.len(), None),
        };
        range.map(move |k| many.as_ref().map_or(k, |m| m[k]))
    }

    /// Those of [`Cx::nodes`] at positions `keep` takes, asked before the
    /// node is read: a graph check that looks at a few nodes by the
    /// graph's own facts (joins, the unreachable) skips the rest of
    /// 100,000 without reading them.
    pub(crate) fn nodes_where<'s>(
        &'s self,
        keep: impl Fn(usize) -> bool + 's,
    ) -> impl Iterator<Item = (usize, &'a crate::model::Node)> + 's
    where
        'a: 's,
    {
        let content = self.content;
        self.positions()
            .filter(move |&i| keep(i))
            .map(move |i| (i, &content.nodes[i]))
    }

    /// Whether a definition of the plan was found damaged where the store
    /// keeps it (it then read as empty): the findings are put aside by the
    /// command (debug comparisons with a fresh pass do not hold then).
    pub(crate) fn definitions_damaged(&self) -> bool {
        let stored = self
            .content
            .nodes
            .iter()
            .find_map(|n| n.definition.source());
        stored.is_some_and(|(source, _)| source.damaged())
    }

    /// The joins among [`Cx::nodes`] that `keep` takes, in order: in a run
    /// over every node from the graph's list of its joins
    /// ([`Graph::join_nodes`], one pass a run for the four join rules
    /// rather than a pass over 100,000 nodes each), else as
    /// [`Cx::nodes_where`] finds them.
    pub(crate) fn joins_where(
        &self,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<(usize, &'a crate::model::Node)> {
        let g = &self.graph;
        let at: Vec<usize> = match self.scoped() {
            false => g
                .join_nodes()
                .iter()
                .copied()
                .filter(|&i| keep(i))
                .collect(),
            true => self
                .positions()
                .filter(|&i| g.joins[i] && keep(i))
                .collect(),
        };
        at.into_iter()
            .map(|i| (i, &self.content.nodes[i]))
            .collect()
    }

    /// The nodes a check that reads only some kinds of node looks at: in a
    /// run over every node with the kept facts, those `listed` picks from
    /// them (without a pass over every node); else those
    /// [`Cx::nodes`] yields.
    pub(crate) fn kept_or_nodes(
        &self,
        listed: impl FnOnce(&kept_nodes::KeptNodes) -> Vec<usize>,
    ) -> Vec<usize> {
        match self.kept_nodes {
            Some(kept) if !self.scoped() => listed(kept),
            _ => self.nodes().map(|(i, _)| i).collect(),
        }
    }

    /// The edges a [`Scope::Edge`] check looks at, with their positions:
    /// every edge, or the one the incremental checks ask about.
    pub(crate) fn edges(&self) -> impl Iterator<Item = (usize, &'a crate::model::Edge)> + 'a {
        let edges = &self.content.edges;
        let range = match self.edge_scope.get() {
            Some(k) => k..k + 1,
            None => 0..edges.len(),
        };
        range.map(move |k| (k, &edges[k]))
    }

    /// Whether a [`Scope::Edge`] check looks at one edge only (then a
    /// check that compares it with other edges finds them at its ends,
    /// not by a pass over every edge).
    pub(crate) fn one_edge(&self) -> bool {
        self.edge_scope.get().is_some()
    }

    /// The literal values some checks look for anywhere in a definition
    /// (holes, look-alike records, the scaffold placeholder), found in one
    /// walk shared by those checks.
    pub(crate) fn literal_hits(&self) -> &[support::LiteralHit<'a>] {
        self.literal_hits
            .get_or_init(|| support::literal_hits(self.content))
    }

    /// As [`literal_hits`](Self::literal_hits), of the nodes
    /// [`nodes`](Self::nodes) yields.
    pub(crate) fn scoped_literal_hits(&self) -> std::borrow::Cow<'_, [support::LiteralHit<'a>]> {
        match self.scope.get() {
            None => std::borrow::Cow::Borrowed(self.literal_hits()),
            Some(i) => std::borrow::Cow::Owned(support::literal_hits_of(&self.content.nodes[i], i)),
        }
    }

    /// The byte length of the plan's canonical encoding (what the digest
    /// hashes), computed at most once; a caller that already knows it (the
    /// store digests every plan it loads) passes it to [`run_sized`].
    pub(crate) fn encoded_len(&self) -> usize {
        *self
            .encoded_len
            .get_or_init(|| crate::wire::jcs::encoded_len(self.content))
    }

    /// As [`data_refs`](Self::data_refs), of the nodes
    /// [`nodes`](Self::nodes) yields.
    pub(crate) fn scoped_data_refs(&self) -> std::borrow::Cow<'_, [support::DataRef<'a>]> {
        if let Some(many) = self.scope_many.borrow().as_ref() {
            let mut out = Vec::new();
            for &i in many.iter() {
                out.extend(support::data_refs_of(&self.graph, i));
            }
            return std::borrow::Cow::Owned(out);
        }
        match self.scope.get() {
            None => std::borrow::Cow::Borrowed(self.data_refs()),
            Some(i) => std::borrow::Cow::Owned(support::data_refs_of(&self.graph, i)),
        }
    }

    /// Those of [`Cx::scoped_data_refs`] for which `keep(reader, tag,
    /// target)` holds. With the kept facts and no scope, the slots of the
    /// others are not read (a change to the edges runs the reference checks
    /// over the whole plan, each wanting a few kinds of reference).
    pub(crate) fn data_refs_where(
        &self,
        keep: impl Fn(usize, support::RefTag, usize) -> bool,
    ) -> Vec<support::DataRef<'a>> {
        if self.scoped() {
            return support::data_refs_kept(&self.scoped_data_refs(), keep);
        }
        self.all_data_refs_where(keep)
    }

    /// Those of [`Cx::data_refs`] for which `keep(reader, tag, target)`
    /// holds, whatever the scope (see [`Cx::data_refs_where`]).
    pub(crate) fn all_data_refs_where(
        &self,
        keep: impl Fn(usize, support::RefTag, usize) -> bool,
    ) -> Vec<support::DataRef<'a>> {
        match self.kept_nodes {
            Some(k) if self.data_refs.get().is_none() => k.data_refs_where(&self.graph, keep),
            _ => support::data_refs_kept(self.data_refs(), keep),
        }
    }

    /// The reader and the target of each of [`Cx::data_refs`], in order:
    /// with the kept facts, without reading the references.
    pub(crate) fn data_ref_ends(&self) -> Vec<(usize, usize)> {
        match self.kept_nodes {
            Some(k) if self.data_refs.get().is_none() => k.data_ref_ends(&self.graph),
            _ => self
                .data_refs()
                .iter()
                .map(|d| (d.node, d.target))
                .collect(),
        }
    }

    /// Every data reference whose target exists, collected once and shared
    /// by the reference checks (see [`support::data_refs`]).
    pub(crate) fn data_refs(&self) -> &[support::DataRef<'a>] {
        self.data_refs.get_or_init(|| match self.kept_nodes {
            Some(k) => k.data_refs(&self.graph),
            None => support::data_refs(&self.graph),
        })
    }

    /// The tests of node `node`'s structured predicate
    /// ([`predicate_unknown_node::tests_of`]).
    pub(crate) fn predicate_tests(&self, node: usize) -> std::borrow::Cow<'_, [(String, String)]> {
        match self.kept_nodes {
            Some(k) => std::borrow::Cow::Borrowed(k.tests(node, &self.content.nodes[node].id)),
            None => {
                std::borrow::Cow::Owned(predicate_unknown_node::tests_of(&self.content.nodes[node]))
            }
        }
    }

    /// Node `node`'s read size ([`oversized_phase::estimate`]).
    pub(crate) fn node_size(&self, node: usize) -> usize {
        match self.kept_nodes {
            Some(k) => k.size(node),
            None => oversized_phase::estimate(&self.content.nodes[node]),
        }
    }
}

pub trait Check: Sync {
    /// The code and severity, as the check's file declares them.
    fn code(&self) -> Code;
    fn needs(&self) -> Needs;
    fn source(&self) -> Source;
    /// The long explanation (markdown with the four sections).
    fn doc(&self) -> &'static str;
    /// The file that holds this check.
    fn file(&self) -> &'static str;
    /// What the findings depend on (see [`Scope`]).
    fn scope(&self) -> Scope {
        Scope::Plan
    }
    fn run(&self, cx: &Cx, out: &mut Vec<Issue>);
}

/// Declares one check: its doc comment becomes `explain`'s text.
///
/// ```ignore
/// declare_check! {
///     /// ## What it finds
///     /// …
///     pub NoEntry { code: "no_entry", severity: Blocking, needs: NOTHING, source: Check }
///     fn run(cx, out) { … }
/// }
/// ```
#[macro_export]
macro_rules! declare_check {
    (
        $(#[doc = $doc:expr])*
        pub $name:ident { code: $code:literal, severity: $sev:ident, needs: $needs:ident, source: $src:ident $(, scope: $scope:ident)? }
        fn run($cx:ident, $out:ident) $body:block
    ) => {
        /// This check's code and severity: every finding with this code
        /// is made with it.
        pub(crate) const CODE: $crate::model::Code = $crate::model::Code {
            name: $code,
            severity: $crate::model::Severity::$sev,
        };

        $(#[doc = $doc])*
        pub(crate) struct $name;

        impl $crate::check::Check for $name {
            fn code(&self) -> $crate::model::Code {
                CODE
            }
            fn needs(&self) -> $crate::check::Needs {
                $crate::check::Needs::$needs
            }
            fn source(&self) -> $crate::check::Source {
                $crate::check::Source::$src
            }
            fn doc(&self) -> &'static str {
                concat!($($doc, "\n"),*)
            }
            fn file(&self) -> &'static str {
                file!()
            }
            $(
                fn scope(&self) -> $crate::check::Scope {
                    $crate::check::Scope::$scope
                }
            )?
            #[allow(unused_variables)]
            fn run(&self, $cx: &$crate::check::Cx, $out: &mut Vec<$crate::model::Issue>) $body
        }
    };
}

mod ambiguous_reference;
pub(crate) mod approval_mismatch;
mod bounds_exceeded;
pub(crate) mod contention_collision;
mod cycle;
mod dangling_edge;
pub(crate) mod digest_mismatch;
mod duplicate_edge;
mod duplicate_edge_id;
pub(crate) mod duplicate_node_id;
mod entry_has_incoming;
mod evaluator_error;
mod failed_gate_writes;
mod first_last_across_join;
pub(crate) mod freeze_mismatch;
pub(crate) mod incomplete_failure_report;
pub(crate) mod incomplete_spawn_spec;
mod inlined_source;
pub(crate) mod invalid_args;
pub(crate) mod invalid_document;
mod invalid_edge_id;
pub(crate) mod invalid_handle;
mod invalid_node_id;
pub(crate) mod invalid_phase;
pub(crate) mod invalid_suppression;
mod join_no_fork;
mod join_not_diamond;
mod join_reconvergence;
mod media_feeds_fields;
mod missing_arg;
mod missing_field;
mod missing_on_indeterminate;
mod missing_reference;
mod missing_replay_safe;
mod missing_rollback;
mod multiple_entries;
mod nested_join;
mod nested_spawn;
mod no_entry;
pub(crate) mod oversized_phase;
pub(crate) mod param_not_declassified;
mod partial_landing_report;
pub(crate) mod predicate_unknown_node;
mod ref_lookalike;
mod reference_not_upstream;
mod retry_unsafe_repeat;
mod scaffold_placeholder;
mod schema_sat;
mod select_missing_default;
mod settle_error_edge;
#[cfg(test)]
mod situations;
mod synthesis;
mod tainted_call_arg;
pub(crate) mod torn_tail;
mod transform_source_not_artifact;
mod transform_source_not_call;
mod transform_step_args;
mod transform_undeclared_tool;
mod transform_unknown_step;
pub(crate) mod transition_rejected;
mod undeclared_field;
mod undiscarded_artifacts;
mod undisposed_synthesis;
mod unfilled_param;
mod ungated_unit;
mod unknown_branch;
mod unknown_case;
mod unknown_field;
pub(crate) mod unknown_node;
pub(crate) mod unknown_param;
pub(crate) mod unknown_tool;
pub(crate) mod unreachable_call;
mod unreachable_node;
mod unreconciled_unit;
mod unused_case;
pub(crate) mod unused_suppression;
mod unwired_evaluator;

/// Every issue code, once, in the order checks run.
pub static CHECKS: &[&dyn Check] = &[
    &no_entry::NoEntry,
    &multiple_entries::MultipleEntries,
    &entry_has_incoming::EntryHasIncoming,
    &cycle::Cycle,
    &invalid_node_id::InvalidNodeId,
    &invalid_phase::InvalidPhase,
    &oversized_phase::OversizedPhase,
    &invalid_edge_id::InvalidEdgeId,
    &duplicate_edge_id::DuplicateEdgeId,
    &duplicate_edge::DuplicateEdge,
    &duplicate_node_id::DuplicateNodeId,
    &invalid_handle::InvalidHandle,
    &unknown_case::UnknownCase,
    &unused_case::UnusedCase,
    &select_missing_default::SelectMissingDefault,
    &unreachable_node::UnreachableNode,
    &join_no_fork::JoinNoFork,
    &join_not_diamond::JoinNotDiamond,
    &nested_join::NestedJoin,
    &join_reconvergence::JoinReconvergence,
    &missing_reference::MissingReference,
    &undeclared_field::UndeclaredField,
    &reference_not_upstream::ReferenceNotUpstream,
    &first_last_across_join::FirstLastAcrossJoin,
    &ambiguous_reference::AmbiguousReference,
    &unknown_branch::UnknownBranch,
    &tainted_call_arg::TaintedCallArg,
    &unknown_tool::UnknownTool,
    &missing_replay_safe::MissingReplaySafe,
    &missing_on_indeterminate::MissingOnIndeterminate,
    &retry_unsafe_repeat::RetryUnsafeRepeat,
    &media_feeds_fields::MediaFeedsFields,
    &missing_arg::MissingArg,
    &transform_source_not_call::TransformSourceNotCall,
    &transform_undeclared_tool::TransformUndeclaredTool,
    &transform_source_not_artifact::TransformSourceNotArtifact,
    &transform_unknown_step::TransformUnknownStep,
    &transform_step_args::TransformStepArgs,
    &unwired_evaluator::UnwiredEvaluator,
    &evaluator_error::EvaluatorError,
    &predicate_unknown_node::PredicateUnknownNode,
    &missing_field::MissingField,
    &unknown_field::UnknownField,
    &scaffold_placeholder::ScaffoldPlaceholder,
    &unfilled_param::UnfilledParam,
    &ref_lookalike::RefLookalike,
    &bounds_exceeded::BoundsExceeded,
    &contention_collision::ContentionCollision,
    &nested_spawn::NestedSpawn,
    &incomplete_spawn_spec::IncompleteSpawnSpec,
    &unreconciled_unit::UnreconciledUnit,
    &failed_gate_writes::FailedGateWrites,
    &ungated_unit::UngatedUnit,
    &undisposed_synthesis::UndisposedSynthesis,
    &undiscarded_artifacts::UndiscardedArtifacts,
    &missing_rollback::MissingRollback,
    &incomplete_failure_report::IncompleteFailureReport,
    &partial_landing_report::PartialLandingReport,
    &settle_error_edge::SettleErrorEdge,
    &inlined_source::InlinedSource,
    &unreachable_call::UnreachableCall,
    &dangling_edge::DanglingEdge,
    &unknown_node::UnknownNode,
    &torn_tail::TornTail,
    &digest_mismatch::DigestMismatch,
    &invalid_document::InvalidDocument,
    &invalid_suppression::InvalidSuppression,
    &unused_suppression::UnusedSuppression,
    &approval_mismatch::ApprovalMismatch,
    &freeze_mismatch::FreezeMismatch,
    &transition_rejected::TransitionRejected,
    &unknown_param::UnknownParam,
    &param_not_declassified::ParamNotDeclassified,
    &invalid_args::InvalidArgs,
];

/// Looks a code up.
pub fn by_code(code: &str) -> Option<&'static dyn Check> {
    CHECKS.iter().copied().find(|c| c.code().name == code)
}

/// Runs every check on `content`, after the `prior` findings (the fold's and
/// the store's), which come first.
pub fn run(content: &Content, registry: Option<&Registry>, prior: Vec<Issue>) -> Report {
    run_sized(content, registry, prior, None)
}

/// As [`run`], with the plan's encoded size when the caller knows it.
pub fn run_sized(
    content: &Content,
    registry: Option<&Registry>,
    prior: Vec<Issue>,
    encoded_len: Option<usize>,
) -> Report {
    let cx = Cx::new(content, registry);
    if let Some(n) = encoded_len {
        let _ = cx.encoded_len.set(n);
    }
    let mut report = Report {
        issues: prior,
        skipped: Vec::new(),
    };
    let skip = Skips::of(&cx.graph);
    for check in CHECKS {
        if check.source() != Source::Check {
            continue;
        }
        if let Some(why) = skip.reason(*check, registry.is_some()) {
            report.skipped.push((check.code().name, why.to_string()));
            continue;
        }
        check.run(&cx, &mut report.issues);
    }
    group::apply(&cx, &mut report.issues);
    report
}

/// Why a check that needs a shape of graph cannot run on this one, worked
/// out once per run.
pub(crate) struct Skips {
    /// The graph has a cycle.
    cyclic: Option<&'static str>,
    /// The plan has no entry node.
    no_entry: Option<&'static str>,
    /// Not exactly one entry, or a cycle: why routes cannot be enumerated.
    unroutable: Option<String>,
}

impl Skips {
    pub(crate) fn of(g: &Graph) -> Skips {
        let cyclic = g.topo.is_none().then_some("the graph has a cycle");
        let no_entry = g.entries.is_empty().then_some("the plan has no entry node");
        let entries = match g.entries.len() {
            1 => None,
            0 => Some("the plan has no entry node".to_string()),
            n => Some(format!("the plan has {n} entry nodes, not exactly one")),
        };
        let unroutable = match (cyclic, entries) {
            (Some(c), Some(e)) => Some(format!("{c} and {e}")),
            (Some(c), None) => Some(c.to_string()),
            (None, e) => e,
        };
        Skips {
            cyclic,
            no_entry,
            unroutable,
        }
    }

    /// Why `check` does not run on this graph (with or without a
    /// registry), if it does not.
    pub(crate) fn reason(&self, check: &dyn Check, registry: bool) -> Option<&str> {
        let needs = check.needs();
        self.why(needs)
            .or_else(|| (needs.registry && !registry).then_some("no registry is available"))
    }

    /// The reason a check with these needs is skipped, if it is.
    fn why(&self, needs: Needs) -> Option<&str> {
        if needs.routable
            && let Some(u) = &self.unroutable
        {
            return Some(u);
        }
        if needs.acyclic && self.cyclic.is_some() {
            return self.cyclic;
        }
        if needs.entry && self.no_entry.is_some() {
            return self.no_entry;
        }
        None
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! Small builders for check tests.
    use crate::model::{Content, Edge, Handle, Map, Node, NodeKind, Value};

    pub(crate) fn node(id: &str, kind: NodeKind, def: serde_json::Value) -> Node {
        let v = crate::wire::convert::from_json(&def, "").expect("test definition");
        let definition = match v {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        Node {
            id: id.into(),
            phase: None,
            kind,
            definition: definition.into(),
        }
    }
    pub(crate) fn edge(id: &str, from: &str, to: &str, handle: &str) -> Edge {
        Edge {
            id: id.into(),
            from: from.into(),
            to: to.into(),
            handle: Handle::parse(handle),
        }
    }
    pub(crate) fn plan(nodes: Vec<Node>, edges: Vec<Edge>) -> Content {
        let mut c = Content::empty("plan-test");
        c.nodes = nodes;
        c.edges = edges;
        c
    }
    /// Runs one check and returns its issues.
    pub(crate) fn run_one(check: &dyn super::Check, content: &Content) -> Vec<super::Issue> {
        let cx = super::Cx::new(content, None);
        let mut out = Vec::new();
        check.run(&cx, &mut out);
        out
    }
    pub(crate) fn entry(id: &str) -> Node {
        node(id, NodeKind::Entry, serde_json::json!({"input": []}))
    }
    pub(crate) fn join(id: &str) -> Node {
        node(id, NodeKind::Join, serde_json::json!({}))
    }
    /// A complete `call` of the tool `tool` with these args, declaring `output`.
    pub(crate) fn call_with(
        id: &str,
        tool: &str,
        args: serde_json::Value,
        output: &[&str],
    ) -> Node {
        let output: Vec<serde_json::Value> = output
            .iter()
            .map(|p| serde_json::json!({"path": p, "type": "string"}))
            .collect();
        node(
            id,
            NodeKind::Call,
            serde_json::json!({
                "tool": tool, "args": args, "output": output, "onMissingValue": "fail",
                "authority": [], "replaySafe": true, "onIndeterminate": "halt"
            }),
        )
    }
    /// A complete `call` with no args and no output: a plain step for graph tests.
    pub(crate) fn step(id: &str) -> Node {
        call_with(id, "noop", serde_json::json!({}), &[])
    }
    /// A `{"$ref": …}` in wire JSON.
    pub(crate) fn r(node: &str, path: Option<&str>) -> serde_json::Value {
        match path {
            Some(p) => serde_json::json!({"$ref": {"node": node, "select": "first", "path": p}}),
            None => serde_json::json!({"$ref": {"node": node, "select": "first"}}),
        }
    }
    pub(crate) fn registry(yaml: &str) -> crate::model::registry::Registry {
        crate::model::registry::Registry::parse(yaml, crate::wire::Syntax::Yaml, "test")
            .expect("test registry")
    }
    /// A `transform` node reading from `source`, with these steps.
    pub(crate) fn transform_with(id: &str, source: &str, steps: serde_json::Value) -> Node {
        node(
            id,
            NodeKind::Transform,
            serde_json::json!({"source": r(source, None), "steps": steps, "emit": {"as": "rows"}, "output": []}),
        )
    }
    /// A `transform` node reading from `source`, with no steps.
    pub(crate) fn transform(id: &str, source: &str) -> Node {
        transform_with(id, source, serde_json::json!([]))
    }
    /// The registry `init` writes, plus `report_fetch`, a tool returning a
    /// `json_document` artifact.
    pub(crate) fn artifact_registry() -> crate::model::registry::Registry {
        registry(&crate::registry::DEFAULT_REGISTRY_YAML.replace(
            "tools:\n",
            "tools:\n  report_fetch: {returns: {kind: artifact, class: json_document}}\n",
        ))
    }
    /// `report_fetch` feeding a transform `t` with these steps.
    pub(crate) fn fetch_then_steps(steps: serde_json::Value) -> Content {
        plan(
            vec![
                call_with("a", "report_fetch", serde_json::json!({}), &[]),
                transform_with("t", "a", steps),
            ],
            vec![],
        )
    }
    /// Runs one check with a registry and returns its issues.
    pub(crate) fn run_reg(
        check: &dyn super::Check,
        content: &Content,
        registry: &crate::model::registry::Registry,
    ) -> Vec<super::Issue> {
        let cx = super::Cx::new(content, Some(registry));
        let mut out = Vec::new();
        check.run(&cx, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files under `src/check/` that are helpers, not issue codes.
    const HELPERS: [&str; 22] = [
        "kahn",
        "kept_adj",
        "kept_lanes",
        "kept_disk",
        "kept_nodes",
        "kept_graph",
        "kept_ids",
        "kept_lazy",
        "kept_later",
        "kept_parts",
        "synthesis",
        "schema_sat",
        "hints",
        "mod",
        "group",
        "incremental",
        "graph",
        "notes",
        "flow",
        "predicate",
        "support",
        "situations",
    ];

    /// Every non-test source file under `src/`, as (path, code before its
    /// first `#[cfg(test)]`).
    fn sources() -> Vec<(String, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut out = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") && !is_test_file(&p) {
                    let text = std::fs::read_to_string(&p).unwrap();
                    let code = text.split("#[cfg(test)]").next().unwrap().to_string();
                    let rel = p
                        .strip_prefix(&root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned();
                    out.push((rel, code));
                }
            }
        }
        out
    }

    /// A file its parent declares `#[cfg(test)] mod name;`.
    fn is_test_file(p: &std::path::Path) -> bool {
        let stem = p.file_stem().unwrap().to_string_lossy();
        let dir = p.parent().unwrap();
        let parent = [dir.join("mod.rs"), dir.with_extension("rs")]
            .into_iter()
            .find(|f| f.is_file() && f != p);
        parent.is_some_and(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .contains(&format!("#[cfg(test)]\nmod {stem};"))
        })
    }

    /// A code reaches a finding only through its check file's declaration:
    /// no `Code` is written anywhere else, findings are made only in
    /// `src/check/` (the forge and the store call its constructors), and
    /// every check file makes its findings with its own `CODE`.
    #[test]
    fn every_emitted_code_is_a_declared_one() {
        for (file, code) in sources() {
            let literal = code.match_indices("Code {").any(|(at, _)| {
                let before = code[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                    && code[at + 6..].trim_start().starts_with("name")
            });
            if file != "check/mod.rs" && file != "model/issue.rs" {
                assert!(!literal, "src/{file} writes a `Code` itself");
            }
            if !file.starts_with("check/") && file != "model/issue.rs" {
                assert!(
                    !code.contains("Issue::new("),
                    "src/{file} makes a finding: use the constructor of the code's check file"
                );
            }
            if file.starts_with("check/") {
                for (at, _) in code.match_indices("Issue::new(") {
                    let arg = code[at + "Issue::new(".len()..].trim_start();
                    assert!(
                        arg.starts_with("CODE"),
                        "src/{file} makes a finding with another file's code"
                    );
                }
            }
        }
        // Every declaration is listed, so every emitted code is in the table.
        for (file, code) in sources() {
            if let Some(at) = code.find("code: \"") {
                let name = code[at + 7..].split('"').next().unwrap();
                if file.starts_with("check/") && file != "check/mod.rs" {
                    assert!(
                        by_code(name).is_some(),
                        "{name} (src/{file}) is not in CHECKS"
                    );
                }
            }
        }
    }

    #[test]
    fn every_code_file_is_listed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/check");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".rs") else {
                continue;
            };
            if HELPERS.contains(&stem) {
                continue;
            }
            assert!(
                by_code(stem).is_some(),
                "src/check/{name} is not listed in CHECKS"
            );
        }
    }

    /// The model-facing tools (`src/mcp/tools/table.rs`), whose names the
    /// explanations must not use: `explain_issue` serves them to models.
    const TOOL_NAMES: [&str; 25] = [
        "list_templates",
        "instantiate_plan",
        "author_plan",
        "create_plan",
        "add_node",
        "set_node_config",
        "set_node_field",
        "set_node_phase",
        "connect_nodes",
        "remove_node",
        "disconnect_edge",
        "set_bounds",
        "clone_plan",
        "get_plan",
        "validate_plan",
        "freeze_plan",
        "unfreeze_plan",
        "submit_plan",
        "plan_status",
        "raw_plan",
        "raw_diff",
        "raw_ops",
        "plan_outline",
        "plan_read",
        "explain_issue",
    ];

    #[test]
    fn explanations_name_no_command_flag_shorthand_or_tool() {
        for c in CHECKS {
            let doc = c.doc();
            let code = c.code().name;
            assert!(!doc.contains("planforge "), "{code}: {doc}");
            for (i, _) in doc.match_indices("--") {
                let next = doc[i + 2..].chars().next();
                assert!(
                    !next.is_some_and(|ch| ch.is_ascii_lowercase()),
                    "{code} names a flag: {doc}"
                );
            }
            for (i, _) in doc.match_indices('@') {
                let word: String = doc[i + 1..]
                    .chars()
                    .take_while(|ch| ch.is_ascii_lowercase() || *ch == '_')
                    .collect();
                assert!(
                    word.is_empty() || !doc[i + 1 + word.len()..].starts_with('.'),
                    "{code} uses the @node.path shorthand: {doc}"
                );
            }
            for tool in TOOL_NAMES {
                let named = doc.match_indices(tool).any(|(i, _)| {
                    let before = doc[..i].chars().next_back();
                    let after = doc[i + tool.len()..].chars().next();
                    let part = |ch: Option<char>| {
                        ch.is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '_')
                    };
                    !part(before) && !part(after)
                });
                assert!(!named, "{code} names the tool {tool}: {doc}");
            }
        }
    }

    #[test]
    fn codes_are_unique_snake_case_and_documented() {
        let mut seen = crate::model::hash::FastSet::default();
        for c in CHECKS {
            let code = c.code().name;
            assert!(seen.insert(code), "{code} listed twice");
            assert!(
                code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
                "{code}"
            );
            assert!(
                c.file().ends_with(&format!("{code}.rs")),
                "{code} lives in {}",
                c.file()
            );
            for section in [
                "## What it finds",
                "## Why it matters",
                "## How to fix",
                "## Example",
            ] {
                assert!(c.doc().contains(section), "{code} lacks {section}");
            }
        }
    }
}
