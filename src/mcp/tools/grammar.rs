//! The node grammar a model needs to write nodes and edges: kinds and their
//! fields, handles per kind, id rules, the `$ref`/`$param` wire form. It is
//! generated from the same tables the checks use (`model::shape`,
//! `NodeKind::allowed_handles`), and stated once, in the description of
//! `add_node` ([`HOME`]): it costs context on every turn. The other
//! tools that need it (`set_node_config`, `set_node_field`,
//! `connect_nodes`) carry one sentence pointing there.

use crate::model::NodeKind;
use crate::model::shape::{self, Field, Shape};

fn shape_text(s: &Shape) -> String {
    match s {
        Shape::Str => "string".into(),
        Shape::Bool => "boolean".into(),
        Shape::Int { min } => format!("integer ≥ {min}"),
        Shape::Enum(c) => c
            .iter()
            .map(|v| format!("\"{v}\""))
            .collect::<Vec<_>>()
            .join("|"),
        Shape::Any => "any value".into(),
        Shape::Record => "object".into(),
        Shape::SchemaObject => "JSON Schema object".into(),
        Shape::Ref => "$ref".into(),
        Shape::Array(item) => match item {
            Shape::Str | Shape::DeclaredField | Shape::PromptPart => {
                format!("{}[]", shape_text(item))
            }
            other => format!("[{}]", shape_text(other)),
        },
        Shape::Object(fields) => format!("{{{}}}", fields_text(&fields.iter().collect::<Vec<_>>())),
        Shape::DeclaredField => "DeclaredField".into(),
        Shape::PromptPart => "({\"text\": string} | $ref)".into(),
        Shape::Emit => "{\"as\": \"value\", \"field\": string} | {\"as\": \"rows\"}".into(),
    }
}

fn fields_text(fields: &[&Field]) -> String {
    fields
        .iter()
        .map(|f| {
            let opt = if f.required { "" } else { "?" };
            format!("{}{opt}: {}", f.name, shape_text(f.shape))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The one tool whose description states the grammar. Every tool that
/// needs the grammar is in its tier.
pub(crate) const HOME: &str = "add_node";

/// What a tool that needs the grammar, other than its home, says instead.
pub(crate) fn pointer() -> String {
    format!(
        "The node grammar (kinds and their fields, edge handles, ids, predicates, the `$ref` form) is stated once, in the description of {HOME}."
    )
}

/// The grammar text (plain, a few hundred words).
pub(crate) fn text() -> String {
    let mut out = vec![
        "NODE GRAMMAR. A node is {\"id\", \"phase\"?, \"kind\", \"definition\"}. The only kinds, with their definition fields (? = optional):".to_string(),
    ];
    for k in NodeKind::ALL {
        // `suppress` is said once below, not on every kind.
        let fields: Vec<&shape::Field> = shape::fields(k)
            .iter()
            .filter(|f| f.name != shape::SUPPRESS)
            .collect();
        let body = if fields.iter().all(|f| !f.required) && !fields.is_empty() {
            // Every field optional: show the two forms it takes.
            let full: Vec<String> = fields
                .iter()
                .map(|f| format!("{}: {}", f.name, shape_text(f.shape)))
                .collect();
            format!("{{}} or {{{}}}", full.join(", "))
        } else {
            format!("{{{}}}", fields_text(&fields))
        };
        out.push(format!("  · {k}: {body}"));
    }
    out.push(format!(
        "  Every definition may also carry {}?: [{{code: string, reason: string}}]: findings of that code on this node are not reported by validation, for the reason given (required).",
        shape::SUPPRESS
    ));
    out.push(
        "  DeclaredField = {\"path\", \"type\": \"string\", \"maxBytes\"?} | {\"path\", \"type\": \"number\"} | {\"path\", \"type\": \"boolean\"} | {\"path\", \"type\": \"enum\", \"values\": [string, …]}."
            .into(),
    );
    out.push("A node may be added half-written and completed later (missing fields are findings that block freeze), but a wrong type or an unknown key is refused.".into());
    out.push("EDGE HANDLES by source kind:".into());
    let mut seen: Vec<&[&str]> = Vec::new();
    for k in NodeKind::ALL {
        let hs = k.allowed_handles();
        if seen.contains(&hs) {
            continue;
        }
        seen.push(hs);
        let kinds: Vec<&str> = NodeKind::ALL
            .iter()
            .filter(|o| o.allowed_handles() == hs)
            .map(|o| o.as_str())
            .collect();
        out.push(format!("  · {} → {}", kinds.join(" | "), hs.join(" | ")));
    }
    out.push(format!(
        "PREDICATES (evaluator \"structured\"): a test {{\"path\": \"<node id>.<field>\", \"op\": {}, \"value\": …}} (`truthy` and `exists` take no value; the path's first segment names the node read), or {{\"all\": [P, …]}}, {{\"any\": [P, …]}}, {{\"not\": P}}. A select's predicate maps each case label to such a predicate.",
        crate::check::predicate::Op::NAMES
            .iter()
            .map(|o| format!("\"{o}\""))
            .collect::<Vec<_>>()
            .join("|")
    ));
    out.push("A select's `case_<label>` handles name labels of its `cases`; every select needs a `default` edge. On success every applicable edge fires (`always` fires beside `match`/`case_*`); on failure ONLY `error` edges fire; `default` fires when no `match`/`case_*` matched. Exactly one entry node, with no incoming edges; no cycles over any handle.".into());
    out.push("IDS: node ids are 1–64 of a-z, 0-9 and _ (no uppercase, `-`, `.` or `/`); edge ids are 1–64 of A-Z, a-z, 0-9, _ and - (left out, one is made: `<from>__<to>`); plan ids are `plan-` + 1–64 of A-Z, a-z, 0-9, _ and -. A phase is a 1–64 character label for reading only; edges alone order execution.".into());
    out.push("REFERENCES (wire form): read another node's output with {\"$ref\": {\"node\": \"<id>\", \"select\": \"first\"|\"last\"|\"all\"|{\"index\": n}, \"path\"?: \"dot.path\", \"branchId\"?: {\"segments\": [{\"edge\": \"<edge id>\"} | {\"join\": \"<id>\", \"of\": [\"<edge id>\", …]}]}}}; a template hole is {\"$param\": {\"path\": \"<param>\"}}. `$ref` and `$param` are reserved: a single-key object with either must be well formed or it is refused; beside other keys it stays a literal (flagged ref_lookalike). Plans read back in this same form.".into());
    out.join("\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_grammar_names_every_kind_and_the_select_handles() {
        let g = super::text();
        for k in crate::model::NodeKind::names() {
            assert!(g.contains(&format!("  · {k}: ")), "{k}");
        }
        assert!(g.contains("select → case_<label> | default | error"), "{g}");
        assert!(g.contains("call | reason | transform | join → always | error"));
        assert!(g.contains("onIndeterminate: \"retry\"|\"halt\"|\"skip\""));
        assert!(g.contains("{\"$param\": {\"path\""));
        assert!(g.contains("ONLY `error` edges fire"));
        assert!(
            g.contains("  · join: {} or {kind: \"diamond\"|\"settle\"}"),
            "{g}"
        );
        assert!(g.contains("\"truthy\"|\"exists\""), "{g}");
    }
}
