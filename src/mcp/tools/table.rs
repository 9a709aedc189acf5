//! THE tool table: every model-facing tool once, with its schema and its
//! handler (in `front`, `authoring`, `reading`).

use super::{ParamSpec, Tier, Tool};
use crate::model::NodeKind;
use serde_json::json;

fn plan_id() -> ParamSpec {
    (
        "planId",
        json!({"type": "string", "minLength": 1, "description": "The plan's id, `plan-…`"}),
        true,
    )
}

/// `maxBytes`: a larger budget for the answer than `default`.
fn max_bytes(default: usize) -> ParamSpec {
    (
        "maxBytes",
        json!({"type": "integer", "minimum": 1024,
            "description": format!("The most bytes the answer may have (default {default}, at most {}); what does not fit is counted and named", crate::model::budget::CEILING)}),
        false,
    )
}

fn node_id(what: &str) -> ParamSpec {
    (
        "nodeId",
        json!({"type": "string", "minLength": 1, "description": what}),
        true,
    )
}

fn kinds() -> serde_json::Value {
    json!(NodeKind::names())
}

pub(super) static TOOLS: &[Tool] = &[
    // ---------------------------------------------------------------- front
    Tool {
        name: "list_templates",
        title: "List templates",
        tier: Tier::Front,
        summary: "List the plan templates you can instantiate, each with its id, what it is for and its params (name: type). Use instantiate_plan with one of them; when none fits, use author_plan.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: Vec::new,
        handler: super::front::list_templates,
    },
    Tool {
        name: "instantiate_plan",
        title: "Instantiate a template",
        tier: Tier::Front,
        summary: "Create a new editable plan from a template: `template` is a template id from list_templates, `args` maps each of its params to a value of the declared type. Returns the new plan's id and a rendering of it.",
        grammar: false,
        read_only: false,
        destructive: false,
        idempotent: false,
        expect_revision: false,
        params: || {
            vec![
                (
                    "template",
                    json!({"type": "string", "minLength": 1, "description": "A template id from list_templates"}),
                    true,
                ),
                (
                    "args",
                    json!({"type": "object", "description": "One value per template param, by name"}),
                    true,
                ),
            ]
        },
        handler: super::front::instantiate_plan,
    },
    Tool {
        name: "author_plan",
        title: "Start a plan from a request",
        tier: Tier::Front,
        summary: "Start an empty editable plan for an owner's request that no template fits. Pass the owner's words VERBATIM in `request`: do not summarise, split or paraphrase them (details such as a place name must survive). `detail` is optional context of your own; it is shown back to you but never merged into the request. Returns the new plan's id; it is then built with the authoring tools.",
        grammar: false,
        read_only: false,
        destructive: false,
        idempotent: false,
        expect_revision: false,
        params: || {
            vec![
                (
                    "request",
                    json!({"type": "string", "minLength": 1, "description": "The owner's request, verbatim"}),
                    true,
                ),
                (
                    "detail",
                    json!({"type": "string", "description": "Optional context of your own (not stored in the request)"}),
                    false,
                ),
            ]
        },
        handler: super::front::author_plan,
    },
    // ------------------------------------------------------------ authoring
    Tool {
        name: "create_plan",
        title: "Create an empty plan",
        tier: Tier::Authoring,
        summary: "Create an empty editable plan (revision 0, default bounds). Without `planId` a fresh `plan-<id>` is made; a taken id is refused.",
        grammar: false,
        read_only: false,
        destructive: false,
        idempotent: false,
        expect_revision: false,
        params: || {
            vec![
                (
                    "planId",
                    json!({"type": "string", "minLength": 1, "description": "`plan-` followed by 1–64 letters, digits, `_` or `-`"}),
                    false,
                ),
                (
                    "label",
                    json!({"type": "string", "description": "A short human label"}),
                    false,
                ),
            ]
        },
        handler: super::authoring::create_plan,
    },
    Tool {
        name: "add_node",
        title: "Add a node",
        tier: Tier::Authoring,
        summary: "Add one node to an editable plan. Returns a short echo: the node, its neighbours, the issues near it and the plan-wide counts. An existing id is refused (change a node with set_node_config or set_node_field).",
        grammar: true,
        read_only: false,
        destructive: false,
        idempotent: true,
        expect_revision: true,
        params: || {
            vec![
                plan_id(),
                (
                    "node",
                    json!({
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "minLength": 1, "description": "Node id"},
                            "phase": {"type": ["string", "null"], "description": "Phase label (optional)"},
                            "kind": {"enum": kinds()},
                            "definition": {"type": "object", "description": "The kind's fields (see the node grammar below)"}
                        },
                        "required": ["id", "kind", "definition"],
                        "additionalProperties": false
                    }),
                    true,
                ),
            ]
        },
        handler: super::authoring::add_node,
    },
    Tool {
        name: "set_node_config",
        title: "Replace a node's definition",
        tier: Tier::Authoring,
        summary: "Replace a node's whole definition. `definition.kind` must be the node's current kind (a kind never changes: remove the node and add a new one); `definition.definition` holds the kind's fields. Returns the echo.",
        grammar: true,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: true,
        params: || {
            vec![
                plan_id(),
                node_id("The node to change"),
                (
                    "definition",
                    json!({
                        "type": "object",
                        "properties": {
                            "kind": {"enum": kinds()},
                            "definition": {"type": "object", "description": "The kind's fields (see the node grammar in add_node)"}
                        },
                        "required": ["kind", "definition"],
                        "additionalProperties": false
                    }),
                    true,
                ),
            ]
        },
        handler: super::authoring::set_node_config,
    },
    Tool {
        name: "set_node_field",
        title: "Set one field of a node",
        tier: Tier::Authoring,
        summary: "Set one field of a node's definition by dot path relative to the definition (`tool`, `args.ticket`, `replaySafe`), creating intermediate objects. `value` is any JSON value or a reference. A new key one letter off a key the node has, and a call argument its tool's registry entry does not name, are refused as typos unless `add` is true; `remove: true` (without `value`) takes the field out. Returns the echo.",
        grammar: true,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: true,
        params: || {
            vec![
                plan_id(),
                node_id("The node to change"),
                (
                    "path",
                    json!({"type": "string", "minLength": 1, "description": "Dot path inside the definition"}),
                    true,
                ),
                (
                    "value",
                    json!({"description": "The new value (required unless `remove`)"}),
                    false,
                ),
                (
                    "add",
                    json!({"type": "boolean", "description": "Add `path` as a new field even when it looks like a typo or the registry does not name the argument"}),
                    false,
                ),
                (
                    "remove",
                    json!({"type": "boolean", "description": "Remove the field at `path` instead of setting it"}),
                    false,
                ),
            ]
        },
        handler: super::authoring::set_node_field,
    },
    Tool {
        name: "set_node_phase",
        title: "Set a node's phase",
        tier: Tier::Authoring,
        summary: "Set a node's phase (a label for reading and grouping; edges alone order execution), or clear it with null. Returns the echo.",
        grammar: false,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: true,
        params: || {
            vec![
                plan_id(),
                node_id("The node to move"),
                (
                    "phase",
                    json!({"type": ["string", "null"], "description": "1–64 characters, or null for unphased"}),
                    true,
                ),
            ]
        },
        handler: super::authoring::set_node_phase,
    },
    Tool {
        name: "connect_nodes",
        title: "Connect two nodes",
        tier: Tier::Authoring,
        summary: "Connect two existing nodes with an edge. `handle` says when it fires (default `always`; branch and select sources must name one); `id` is optional. A handle the source kind does not have is refused. Returns the echo of the source node.",
        grammar: true,
        read_only: false,
        destructive: false,
        idempotent: true,
        expect_revision: true,
        params: || {
            vec![
                plan_id(),
                (
                    "edge",
                    json!({
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "minLength": 1, "description": "Edge id (optional)"},
                            "from": {"type": "string", "minLength": 1, "description": "Source node id"},
                            "to": {"type": "string", "minLength": 1, "description": "Target node id"},
                            "handle": {"type": "string", "minLength": 1, "description": "When the edge fires"}
                        },
                        "required": ["from", "to"],
                        "additionalProperties": false
                    }),
                    true,
                ),
            ]
        },
        handler: super::authoring::connect_nodes,
    },
    Tool {
        name: "remove_node",
        title: "Remove a node and its edges",
        tier: Tier::Authoring,
        summary: "Remove a node and every edge touching it, in one step. Returns the removed edges and the former neighbours.",
        grammar: false,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: true,
        params: || vec![plan_id(), node_id("The node to remove")],
        handler: super::authoring::remove_node,
    },
    Tool {
        name: "disconnect_edge",
        title: "Remove an edge",
        tier: Tier::Authoring,
        summary: "Remove one edge by its id. Returns the echo of its former source node.",
        grammar: false,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: true,
        params: || {
            vec![
                plan_id(),
                (
                    "edgeId",
                    json!({"type": "string", "minLength": 1, "description": "The edge to remove"}),
                    true,
                ),
            ]
        },
        handler: super::authoring::disconnect_edge,
    },
    Tool {
        name: "set_bounds",
        title: "Replace the plan's bounds",
        tier: Tier::Authoring,
        summary: "Replace all five bounds of a plan (each an integer ≥ 1; the defaults are maxNodes 256, maxEdges 512, maxSteps 4096, maxConcurrentFrames 32, maxEncodedBytes 1048576). Bounds are content: checked at freeze and approved. Returns before → after.",
        grammar: false,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: true,
        params: || {
            let n = json!({"type": "integer", "minimum": 1});
            vec![
                plan_id(),
                (
                    "bounds",
                    json!({
                        "type": "object",
                        "properties": {
                            "maxNodes": n, "maxEdges": n, "maxSteps": n,
                            "maxConcurrentFrames": n, "maxEncodedBytes": n
                        },
                        "required": ["maxNodes", "maxEdges", "maxSteps", "maxConcurrentFrames", "maxEncodedBytes"],
                        "additionalProperties": false
                    }),
                    true,
                ),
            ]
        },
        handler: super::authoring::set_bounds,
    },
    Tool {
        name: "undo_change",
        title: "Undo your latest change",
        tier: Tier::Authoring,
        summary: "Undo your latest change to an editable plan (the latest change made by this server's actor that is not undone yet) by appending its inverse as a new change: a node it added is removed, a node it removed comes back with every edge it lost, a changed field, phase, edge or bounds gets its earlier value. Whatever someone else changed again since stays as they left it, and the echo says which. Call it again to walk further back; the log keeps both the change and its undo. Returns the echo.",
        grammar: false,
        read_only: false,
        destructive: true,
        idempotent: false,
        expect_revision: true,
        params: || vec![plan_id()],
        handler: super::authoring::undo_change,
    },
    Tool {
        name: "clone_plan",
        title: "Copy a plan into a new editable one",
        tier: Tier::Authoring,
        summary: "Copy a plan (or its first `atRevision` ops) into a new editable plan with no approval; its provenance names the parent. The way to change an executable plan. Returns the new plan's id, revision and counts.",
        grammar: false,
        read_only: false,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || {
            vec![
                (
                    "sourcePlanId",
                    json!({"type": "string", "minLength": 1, "description": "The plan to copy"}),
                    true,
                ),
                (
                    "newPlanId",
                    json!({"type": "string", "minLength": 1, "description": "The new plan's id, `plan-…`"}),
                    true,
                ),
                (
                    "atRevision",
                    json!({"type": "integer", "minimum": 0, "description": "Copy only the first N ops"}),
                    false,
                ),
            ]
        },
        handler: super::authoring::clone_plan,
    },
    Tool {
        name: "orchestrate_plan",
        title: "Orchestrate a task decomposition",
        tier: Tier::Authoring,
        summary: "Turn a task decomposition into a new editable orchestration plan (seed 003): classify each task's coupling, choose the first matching bounded mechanism, run the four multi-subagent checks with their fallbacks, and store the plan (spawns at depth 1, owner verification, reconciliation with one disposition per unit, the failure reports). `decomposition` has `roles` ({name: {instructions, tools}}), `tasks` (each {name, role, goal, input, output}, optionally needs, challenges, digest, maxOutputBytes, done, coupling), `synthesis` ({output}), optionally contextBudgetBytes, maxConcurrent and coupling. Returns what it decided and the plan's outline; a refusal names the task and what to change, and stores nothing.",
        grammar: false,
        read_only: false,
        destructive: false,
        idempotent: false,
        expect_revision: false,
        params: || {
            vec![
                (
                    "decomposition",
                    json!({"type": "object", "description": "The task decomposition: roles, tasks, synthesis (the keys of an orchestrate file)"}),
                    true,
                ),
                (
                    "planId",
                    json!({"type": "string", "minLength": 1, "description": "The new plan's id, `plan-…` (default: a fresh one); a taken id is refused"}),
                    false,
                ),
            ]
        },
        handler: super::authoring::orchestrate_plan,
    },
    Tool {
        name: "get_plan",
        title: "Read the whole plan as prose",
        tier: Tier::Authoring,
        summary: "The whole plan as prose: every node in full with its edges, in the order a run meets them, then any unreachable nodes. The operator audience spells references as provenance and ends with the total authority requested. For large plans use plan_outline and plan_read.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || {
            vec![
                plan_id(),
                (
                    "audience",
                    json!({"enum": ["model", "operator"], "description": "Default model"}),
                    false,
                ),
            ]
        },
        handler: super::reading::get_plan,
    },
    Tool {
        name: "validate_plan",
        title: "List every finding",
        tier: Tier::Authoring,
        summary: "Run every check on a plan and list its issues, grouped by cause (one line for a fact that shows as many findings), blocking first (blocking issues prevent freeze). Changes nothing; freeze_plan runs the same checks.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || vec![plan_id(), max_bytes(crate::model::budget::FINDINGS)],
        handler: super::reading::validate_plan,
    },
    Tool {
        name: "freeze_plan",
        title: "Freeze a plan for review",
        tier: Tier::Authoring,
        summary: "Run every check; with no blocking issue the plan becomes reviewable (read-only), bound to the digest that was checked. Refused with the blocking issues otherwise: fix them and call it again. There is no dry run (validate_plan is the read-only check).",
        grammar: false,
        read_only: false,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || vec![plan_id()],
        handler: super::authoring::freeze_plan,
    },
    Tool {
        name: "unfreeze_plan",
        title: "Unfreeze a plan to edit it again",
        tier: Tier::Authoring,
        summary: "Make a reviewable plan editable again (no checks). An executable plan never changes: clone it instead.",
        grammar: false,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: false,
        params: || vec![plan_id()],
        handler: super::authoring::unfreeze_plan,
    },
    Tool {
        name: "submit_plan",
        title: "Approve a plan (irreversible)",
        tier: Tier::Authoring,
        summary: "Freeze the plan (or re-check a reviewable one) and approve it in the name of `decidedBy`: it becomes executable and can never change again. Returns the authority set approved (every claim of every reachable call); refused with the blocking issues if the checks fail.",
        grammar: false,
        read_only: false,
        destructive: true,
        idempotent: true,
        expect_revision: false,
        params: || {
            vec![
                plan_id(),
                (
                    "decidedBy",
                    json!({"type": "string", "minLength": 1, "description": "Who approves"}),
                    true,
                ),
            ]
        },
        handler: super::authoring::submit_plan,
    },
    Tool {
        name: "plan_status",
        title: "A plan's state and counts",
        tier: Tier::Authoring,
        summary: "A plan's state (editable, reviewable, executable), revision, digest, label, request, node and edge counts and issue counts.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || vec![plan_id()],
        handler: super::reading::plan_status,
    },
    Tool {
        name: "raw_plan",
        title: "A plan's content as JSON",
        tier: Tier::Authoring,
        summary: "The plan's content as JSON, exactly as the digest covers it, at its current revision or at `revision`: {planId, digest, revision, bounds, nodes, edges, provenance?}. References appear in the same wire form you write them in.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || {
            vec![
                plan_id(),
                (
                    "revision",
                    json!({"type": "integer", "minimum": 0, "description": "Default: current"}),
                    false,
                ),
            ]
        },
        handler: super::reading::raw_plan,
    },
    Tool {
        name: "raw_diff",
        title: "Two revisions' difference as JSON",
        tier: Tier::Authoring,
        summary: "What changed between two revisions of a plan, as JSON: {from, to, nodesAdded, nodesRemoved, nodesChanged: [{nodeId, fields: [{path, before, after}]}], edgesAdded, edgesRemoved}. `a` and `b` are a revision number, \"current\" or \"frozen\" (the last freeze).",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || {
            let side = json!({"type": ["integer", "string"], "minimum": 0, "description": "A revision number, \"current\" or \"frozen\""});
            vec![plan_id(), ("a", side.clone(), true), ("b", side, true)]
        },
        handler: super::reading::raw_diff,
    },
    Tool {
        name: "raw_ops",
        title: "A plan's op log as JSON",
        tier: Tier::Authoring,
        summary: "The plan's op log as JSON, in log order: only ops with a lamport greater than `sinceLamport`, and only the first `throughRevision` ops, when given.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || {
            vec![
                plan_id(),
                (
                    "sinceLamport",
                    json!({"type": "integer", "minimum": 0}),
                    false,
                ),
                (
                    "throughRevision",
                    json!({"type": "integer", "minimum": 0}),
                    false,
                ),
            ]
        },
        handler: super::reading::raw_ops,
    },
    Tool {
        name: "plan_outline",
        title: "A plan's outline: phases and node ids",
        tier: Tier::Authoring,
        summary: "One flat outline of a plan: one entry per phase in order of first appearance, then `(unphased)`; each with every node id, the tool of each call, its issue count and a one-line summary. Read any entry with plan_read, using the key exactly as printed. Small plans (under about 40 nodes) are simply read whole with get_plan.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || vec![plan_id()],
        handler: super::reading::plan_outline,
    },
    Tool {
        name: "plan_read",
        title: "Read one phase or one node",
        tier: Tier::Authoring,
        summary: "Read one slice of a plan by a key plan_outline printed: `phase` (a phase name, or `(unphased)`) or `node` (a node id), exactly one of the two. Every node in the slice is rendered in full with its edges, plus its boundary: each edge crossing into or out of the slice, so you can keep linking without re-reading the outline.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || {
            vec![
                plan_id(),
                (
                    "phase",
                    json!({"type": "string", "description": "A phase name as the outline printed it"}),
                    false,
                ),
                (
                    "node",
                    json!({"type": "string", "minLength": 1, "description": "A node id"}),
                    false,
                ),
                max_bytes(crate::model::budget::READ),
            ]
        },
        handler: super::reading::plan_read,
    },
    Tool {
        name: "explain_issue",
        title: "Explain an issue code",
        tier: Tier::Authoring,
        summary: "The long explanation of an issue code (for example `unreachable_node`): what it finds, why it matters, how to fix it, with an example. The code `orchestrate` gives the topic instead: which node, edge, check or refusal of an orchestrated plan carries each of seed 003's steps, failure classes and Output fields.",
        grammar: false,
        read_only: true,
        destructive: false,
        idempotent: true,
        expect_revision: false,
        params: || {
            vec![(
                "code",
                json!({"type": "string", "minLength": 1, "description": "An issue code, or the topic `orchestrate`"}),
                true,
            )]
        },
        handler: super::reading::explain_issue,
    },
];
