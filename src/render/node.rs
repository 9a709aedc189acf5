//! One node rendered as prose (the blocks of `show`, `read` and the echo).
//! Pure: no I/O, no colour.

use crate::model::ids::escape_controls;
use crate::model::value::Map;
use crate::model::{
    Content, DeclaredField, Edge, FieldType, Handle, Node, NodeKind, Ref, Segment, Select, Value,
    Verb,
};

/// A call's heading names at most this many of its arguments (each is
/// listed with its value under `args:` below it).
const HEAD_ARGS: usize = 12;

/// Who reads the render.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Audience {
    Model,
    Operator,
}

/// How to render node blocks.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style<'a> {
    pub(crate) audience: Audience,
    /// Cut strings longer than this many bytes (the echo uses 120).
    pub(crate) cut: Option<usize>,
    /// Tool names by node id, for operator references (`← … of step x (tool)`).
    pub(crate) tools: Option<&'a ToolNames<'a>>,
    /// The ids of the joins of kind `settle`: an `error` edge into one is
    /// that branch's arrival, not an abort.
    pub(crate) settling: Option<&'a Settling<'a>>,
}

/// The ids of a plan's settling joins.
pub(crate) type Settling<'a> = crate::model::hash::FastSet<&'a str>;

/// The settling joins among `nodes`, built once per render.
pub(crate) fn settling_joins(nodes: &[Node]) -> Settling<'_> {
    nodes
        .iter()
        .filter(|n| n.settles())
        .map(|n| n.id.as_str())
        .collect()
}

/// Node id → the tool a call node invokes.
pub(crate) type ToolNames<'a> = crate::model::hash::FastMap<&'a str, &'a str>;

/// The tool names of a plan's call nodes, built once per render.
pub(crate) fn tool_names(c: &Content) -> ToolNames<'_> {
    c.nodes
        .iter()
        .filter_map(|n| n.tool().map(|t| (n.id.as_str(), t)))
        .collect()
}

impl Style<'_> {
    pub(crate) fn model() -> Style<'static> {
        Style {
            audience: Audience::Model,
            cut: None,
            tools: None,
            settling: None,
        }
    }
}

const PAD: &str = "    ";
const ITEM: &str = "      ";

/// The kind's banner word.
fn banner(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::Entry => "ENTRY",
        NodeKind::Call => "CALL",
        NodeKind::Reason => "REASON",
        NodeKind::Transform => "TRANSFORM",
        NodeKind::Branch => "BRANCH",
        NodeKind::Select => "SELECT",
        NodeKind::Join => "JOIN",
    }
}

/// Renders a node block: header, kind-specific details, and its outgoing
/// edges. `number` prefixes the header (`3. CALL — …`); `incoming` lists a
/// join's arrivals.
pub(crate) fn block(
    node: &Node,
    number: Option<usize>,
    outgoing: &[&Edge],
    incoming: &[&Edge],
    style: &Style,
) -> Vec<String> {
    let mut lines = Vec::new();
    let num = number.map(|n| format!("{n}. ")).unwrap_or_default();
    let phase = node
        .phase
        .as_ref()
        .map(|p| format!(" · phase {}", escape_controls(p)))
        .unwrap_or_default();
    let head = match node.kind {
        NodeKind::Call => {
            let tool = node
                .str_field("tool")
                .map(|t| escape_controls(t).into_owned())
                .unwrap_or_else(|| "(no tool)".into());
            let names = node
                .get("args")
                .and_then(Value::as_object)
                .map(|m| m.keys().map(|k| escape_controls(k)).collect::<Vec<_>>())
                .unwrap_or_default();
            let mut args = names[..names.len().min(HEAD_ARGS)].join(", ");
            if names.len() > HEAD_ARGS {
                args.push_str(&format!(", … {} more", names.len() - HEAD_ARGS));
            }
            format!("{num}CALL — `{}` — {tool}({args}){phase}", node.id)
        }
        k => format!("{num}{} — `{}`{phase}", banner(k), node.id),
    };
    lines.push(head);
    let d = &node.definition;
    match node.kind {
        NodeKind::Entry => fields(&mut lines, "inputs", d.get("input")),
        NodeKind::Call => call(&mut lines, node, style),
        NodeKind::Reason => {
            match d.get("prompt").and_then(Value::as_array) {
                Some(parts) if !parts.is_empty() => {
                    lines.push(format!("{PAD}prompt:"));
                    for p in parts {
                        match p {
                            Value::Ref(r) => {
                                lines.push(format!("{ITEM}ref: {}", reference(r, style)))
                            }
                            Value::Object(m) if m.get("text").is_some() => {
                                lines.push(format!("{ITEM}text: {}", value(&m["text"], style)))
                            }
                            other => lines.push(format!("{ITEM}{}", value(other, style))),
                        }
                    }
                }
                _ => lines.push(format!("{PAD}prompt: (none)")),
            }
            if let Some(s) = d.get("outputSchema") {
                lines.push(format!(
                    "{PAD}output schema: {}",
                    cut(&crate::forge::present::compact(s), style)
                ));
            }
            if let Some(m) = d.get("maxAttempts") {
                lines.push(format!("{PAD}max attempts: {}", value(m, style)));
            }
        }
        NodeKind::Transform => {
            if let Some(s) = d.get("source") {
                lines.push(format!("{PAD}source: {}", value(s, style)));
            }
            match d.get("steps").and_then(Value::as_array) {
                Some(steps) if !steps.is_empty() => {
                    lines.push(format!("{PAD}steps:"));
                    for (i, s) in steps.iter().enumerate() {
                        let name = s
                            .as_object()
                            .and_then(|m| m.get("name"))
                            .and_then(Value::as_str)
                            .unwrap_or("(unnamed)");
                        let args = s
                            .as_object()
                            .and_then(|m| m.get("args"))
                            .map(|a| format!(" args: {}", value(a, style)))
                            .unwrap_or_default();
                        lines.push(format!("{ITEM}{}. {name}{args}", i + 1));
                    }
                }
                _ => lines.push(format!("{PAD}steps: (none)")),
            }
            match d.get("emit").and_then(Value::as_object) {
                Some(e) if e.get("as").and_then(Value::as_str) == Some("rows") => {
                    lines.push(format!("{PAD}emit: rows"))
                }
                Some(e) => {
                    let field = e.get("field").and_then(Value::as_str).unwrap_or("?");
                    lines.push(format!("{PAD}emit: value → {field}"));
                }
                None => {}
            }
            fields(&mut lines, "output", d.get("output"));
        }
        NodeKind::Branch | NodeKind::Select => {
            if let Some(e) = d.get("evaluator") {
                lines.push(format!("{PAD}evaluator: {}", plain(e)));
            }
            if let Some(p) = d.get("predicate") {
                lines.push(format!(
                    "{PAD}predicate: {}",
                    cut(&crate::forge::present::compact(p), style)
                ));
            }
            if node.kind == NodeKind::Select {
                lines.push(format!("{PAD}cases: {}", node.cases().join(", ")));
            }
        }
        NodeKind::Join => {
            if incoming.is_empty() {
                lines.push(format!(
                    "{PAD}awaits no incoming edge yet (connect the branches it joins)"
                ));
            } else if node.settles() {
                lines.push(format!(
                    "{PAD}settles: fires once every branch from its fork arrived on one of its {} incoming edge(s) (an `error` edge included) or stopped:",
                    incoming.len()
                ));
            } else {
                lines.push(format!("{PAD}awaits {} incoming edge(s):", incoming.len()));
            }
            for e in incoming {
                lines.push(format!(
                    "{ITEM}· {} from {} (handle {})",
                    e.id, e.from, e.handle
                ));
            }
        }
    }
    for (k, v) in unknown_keys(node) {
        lines.push(format!(
            "{PAD}{k} (not {} field): {}",
            node.kind.a(),
            value(v, style)
        ));
    }
    completion(&mut lines, outgoing, style);
    if let Some(n) = style.cut {
        bound_lines(&mut lines, n);
    }
    lines
}

/// Most lines a cut (echo) rendering of one node prints.
const MAX_CUT_LINES: usize = 60;

/// Keeps a cut rendering small whatever the node holds (names and keys are
/// not values, so `cut` alone does not reach them): each line at most 4×`n`
/// bytes, at most [`MAX_CUT_LINES`] lines.
fn bound_lines(lines: &mut Vec<String>, n: usize) {
    for l in lines.iter_mut() {
        if l.len() > 4 * n {
            *l = crate::model::text::cut(l, 4 * n);
        }
    }
    if lines.len() > MAX_CUT_LINES {
        let more = lines.len() - (MAX_CUT_LINES - 1);
        lines.truncate(MAX_CUT_LINES - 1);
        lines.push(format!(
            "{PAD}… and {more} more line(s) (read this node alone to see it in full)"
        ));
    }
}

/// Keys the kind does not define, rendered so nothing stays hidden.
fn unknown_keys(node: &Node) -> Vec<(&crate::model::ids::Id, &Value)> {
    let known = crate::model::shape::fields(node.kind);
    node.definition
        .iter()
        .filter(|(k, _)| !known.iter().any(|f| f.name == k.as_str()))
        .collect()
}

fn call(lines: &mut Vec<String>, node: &Node, style: &Style) {
    let d = &node.definition;
    match d.get("args").and_then(Value::as_object) {
        Some(args) if !args.is_empty() => {
            lines.push(format!("{PAD}args:"));
            for (k, v) in args {
                lines.push(format!("{ITEM}{k}: {}", value(v, style)));
            }
        }
        _ => lines.push(format!("{PAD}args: (none)")),
    }
    let claims = node.authority();
    if claims.is_empty() {
        lines.push(format!("{PAD}authority: (none claimed)"));
    } else {
        lines.push(format!("{PAD}authority:"));
        for c in &claims {
            lines.push(format!(
                "{ITEM}· {} · {} · {}",
                c.capability,
                c.scope,
                c.verb.as_str()
            ));
        }
    }
    let replay = d.get("replaySafe").and_then(Value::as_bool);
    let recovery = d.get("onIndeterminate").and_then(Value::as_str);
    let mut risky = true;
    if claims.is_empty() {
        lines.push(format!("{PAD}NO AUTHORITY CLAIMED — whether this changes anything is UNKNOWN. Treat it as potentially mutating."));
    } else if claims.iter().any(|c| c.verb.modifies()) {
        let repeat = match replay {
            Some(true) => "Repeats are safe (declared replay-safe).",
            Some(false) => "Repeats are NOT safe (declared not replay-safe).",
            None => "Whether a repeat is safe is NOT declared.",
        };
        lines.push(format!("{PAD}THIS MODIFIES DATA. {repeat}"));
    } else {
        risky = false;
        debug_assert!(
            claims
                .iter()
                .all(|c| matches!(c.verb, Verb::List | Verb::Read))
        );
        lines.push(format!(
            "{PAD}(no changes made — all declared verbs are read-only)"
        ));
    }
    if risky {
        match recovery {
            Some("retry") => lines.push(format!("{PAD}If interrupted mid-call, this step will be retried.")),
            Some("halt") => lines.push(format!("{PAD}If interrupted mid-call, the run will stop and wait for you.")),
            Some("skip") => lines.push(format!(
                "{PAD}If interrupted mid-call, this step will be SKIPPED — downstream nodes proceed against a step whose effect is UNKNOWN."
            )),
            _ => {}
        }
    }
    if let Some(m) = d.get("onMissingValue").and_then(Value::as_str) {
        lines.push(format!("{PAD}on a missing value: {m}"));
    }
    let declass = node.declassifies();
    if !declass.is_empty() {
        lines.push(format!("{PAD}declassifies: {}", declass.join(", ")));
    }
    fields(lines, "output", d.get("output"));
}

fn fields(lines: &mut Vec<String>, label: &str, v: Option<&Value>) {
    let list: Vec<DeclaredField> = crate::model::node::declared_fields(v);
    if list.is_empty() {
        let none = if label == "inputs" {
            "(none)"
        } else {
            "(none declared)"
        };
        lines.push(format!("{PAD}{label}: {none}"));
    } else {
        lines.push(format!("{PAD}{label}:"));
        for f in &list {
            lines.push(format!("{ITEM}· {}", field(f)));
        }
    }
}

fn field(f: &DeclaredField) -> String {
    match &f.ty {
        FieldType::Enum(_) | FieldType::String { .. } | FieldType::Number | FieldType::Boolean => {
            f.describe()
        }
    }
}

fn completion(lines: &mut Vec<String>, outgoing: &[&Edge], style: &Style) {
    if outgoing.is_empty() {
        lines.push(format!(
            "{PAD}on completion: (terminal — no outgoing edges)"
        ));
        return;
    }
    lines.push(format!("{PAD}on completion:"));
    let mut sorted: Vec<&&Edge> = outgoing.iter().collect();
    sorted.sort_by(|a, b| (a.handle.to_string(), &a.to).cmp(&(b.handle.to_string(), &b.to)));
    for e in sorted {
        let settles = style.settling.is_some_and(|s| s.contains(e.to.as_str()));
        lines.push(format!("{ITEM}{}", edge_line(e, settles)));
    }
}

/// `→ on <handle> → step <id>`, or `→ ABORT on error → step <id>`; an
/// error edge into a settling join (`settles`) is that branch's arrival
/// there: `→ on error, settles at join <id>`.
pub(crate) fn edge_line(e: &Edge, settles: bool) -> String {
    if e.handle == Handle::Error && settles {
        format!(
            "→ on error, arrives at the settling join → step {} (edge {}): the join names this step's failure among its arrivals",
            e.to, e.id
        )
    } else if e.handle == Handle::Error {
        format!("→ ABORT on error → step {} (edge {})", e.to, e.id)
    } else {
        format!("→ on {} → step {} (edge {})", e.handle, e.to, e.id)
    }
}

fn cut(s: &str, style: &Style) -> String {
    match style.cut {
        Some(n) => crate::model::text::cut(s, n),
        None => s.to_string(),
    }
}

/// A value as prose: strings quoted, references spelled for the audience.
pub(crate) fn value(v: &Value, style: &Style) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => crate::model::number::number(*n),
        Value::String(s) => {
            let mut q = String::new();
            crate::forge::present::json_string(&mut q, &cut(s, style));
            q
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter()
                .map(|x| value(x, style))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(m) => record(m, style),
        Value::Ref(r) => reference(r, style),
        Value::Param(p) => format!("$param {{path: \"{}\"}}", p.path),
    }
}

fn record(m: &Map, style: &Style) -> String {
    format!(
        "{{{}}}",
        m.iter()
            .map(|(k, v)| format!("{k}: {}", value(v, style)))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn plain(v: &Value) -> String {
    v.as_str()
        .map(str::to_string)
        .unwrap_or_else(|| crate::forge::present::compact(v))
}

/// A reference, spelled for the audience: the model sees the `$ref` it
/// would write; the operator sees where the value comes from.
pub(crate) fn reference(r: &Ref, style: &Style) -> String {
    let branch = r.branch_id.as_ref().map(|b| {
        if b.segments.is_empty() {
            "entry".to_string()
        } else {
            b.segments
                .iter()
                .map(|s| match s {
                    Segment::Edge(e) => format!("→{e}"),
                    Segment::Join { join, .. } => format!("→join:{join}"),
                })
                .collect::<String>()
        }
    });
    match style.audience {
        Audience::Model => {
            let sel = match &r.select {
                Select::Index(n) => format!("{{index: {n}}}"),
                s => s.describe(),
            };
            let mut s = format!("$ref {{node: {}, select: {sel}", r.node);
            if let Some(p) = &r.path {
                s.push_str(&format!(", path: \"{p}\""));
            }
            if let Some(b) = branch {
                s.push_str(&format!(", branch: {b}"));
            }
            s.push('}');
            s
        }
        Audience::Operator => {
            let sel = match &r.select {
                Select::First => "the first".to_string(),
                Select::Last => "the last".to_string(),
                Select::All => "every".to_string(),
                Select::Index(n) => format!("item {n}"),
            };
            let tool = style
                .tools
                .and_then(|t| t.get(r.node.as_str()))
                .map(|t| format!(" ({t})"))
                .unwrap_or_default();
            let mut s = format!("← {sel} output of step {}{tool}", r.node);
            if let Some(p) = &r.path {
                s.push_str(&format!(" @ {p}"));
            }
            if let Some(b) = branch {
                s.push_str(&format!(" (branch {b})"));
            }
            s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn node(kind: NodeKind, def: serde_json::Value) -> Node {
        let v = crate::wire::convert::from_json(&def, "").unwrap();
        Node {
            id: "n".into(),
            phase: Some("act".into()),
            kind,
            definition: v.as_object().unwrap().clone().into(),
        }
    }

    #[test]
    fn call_block_closes_its_parenthesis_and_names_effects() {
        let n = node(
            NodeKind::Call,
            json!({"tool": "tickets_comment", "args": {"ticket": {"$ref": {"node": "fetch", "select": "first", "path": "id"}}},
                   "authority": [{"capability": "tickets", "scope": "support", "verb": "update"}],
                   "replaySafe": false, "onIndeterminate": "halt", "output": [], "onMissingValue": "fail"}),
        );
        let e = Edge {
            id: "e1".into(),
            from: "n".into(),
            to: "x".into(),
            handle: Handle::Error,
        };
        let text = block(&n, Some(2), &[&e], &[], &Style::model()).join("\n");
        assert!(
            text.starts_with("2. CALL — `n` — tickets_comment(ticket) · phase act"),
            "{text}"
        );
        assert!(text.contains("$ref {node: fetch, select: first, path: \"id\"}"));
        assert!(text.contains("MODIFIES DATA") && text.contains("NOT safe"));
        assert!(text.contains("wait for you"));
        assert!(text.contains("→ ABORT on error → step x"));
        // Into a settling join, an error is that branch's arrival.
        let settling = Settling::from_iter(["x"]);
        let style = Style {
            settling: Some(&settling),
            ..Style::model()
        };
        let text = block(&n, Some(2), &[&e], &[], &style).join("\n");
        assert!(!text.contains("ABORT"), "{text}");
        assert!(
            text.contains("→ on error, arrives at the settling join → step x (edge e1)"),
            "{text}"
        );
    }

    #[test]
    fn claims_decide_the_effect_line() {
        let read_only = node(
            NodeKind::Call,
            json!({"tool": "t", "authority": [{"capability": "c", "scope": "s", "verb": "list"}]}),
        );
        let t = block(&read_only, None, &[], &[], &Style::model()).join("\n");
        assert!(t.contains("no changes made") && !t.contains("MODIFIES"));
        let none = node(
            NodeKind::Call,
            json!({"tool": "t", "onIndeterminate": "skip"}),
        );
        let t = block(&none, None, &[], &[], &Style::model()).join("\n");
        assert!(
            t.contains("NO AUTHORITY CLAIMED") && t.contains("UNKNOWN") && t.contains("proceed")
        );
        assert!(t.contains("(terminal — no outgoing edges)"));
    }

    #[test]
    fn strings_are_cut_for_the_echo() {
        let long = "x".repeat(500);
        let n = node(NodeKind::Call, json!({"tool": "t", "args": {"text": long}}));
        let style = Style {
            cut: Some(120),
            ..Style::model()
        };
        let t = block(&n, None, &[], &[], &style).join("\n");
        assert!(t.len() < 600, "{}", t.len());
        assert!(t.contains('…'));
        // Names and keys too: a huge tool, phase or argument name, or a
        // hundred thousand arguments, stay small.
        let huge = "y".repeat(1_000_000);
        let args: serde_json::Map<String, serde_json::Value> = (0..100_000)
            .map(|i| (format!("{huge:.50}{i}"), json!(i)))
            .collect();
        let mut n = node(NodeKind::Call, json!({"tool": huge, "args": args}));
        n.phase = Some(huge.clone().into());
        let t = block(&n, None, &[], &[], &style).join("\n");
        assert!(t.len() < 40_000, "{}", t.len());
        assert!(t.contains("more line(s)"));
    }

    #[test]
    fn operator_references_name_the_source() {
        let r = Ref {
            node: "fetch".into(),
            select: Select::All,
            path: Some("id".into()),
            branch_id: None,
        };
        let style = Style {
            audience: Audience::Operator,
            cut: None,
            tools: None,
            settling: None,
        };
        assert_eq!(reference(&r, &style), "← every output of step fetch @ id");
    }
}
