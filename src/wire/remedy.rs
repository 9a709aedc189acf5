//! The JSON form of fixes (`--format json`'s `fix` object), written and
//! read back: `{"action": "set_field", "nodeId": "pay", "path":
//! "replaySafe", "value": true, "when": "…"}`. A value the author chooses is
//! `"choose": "VALUE"` instead of `"value"`; a node the author picks is
//! `{"choose": "a step before it"}` instead of its id. Values are in wire
//! form (references as `{"$ref": …}`).

use super::convert::{from_json, to_json};
use crate::model::NodeKind;
use crate::model::remedy::{Bound, Fill, Fix, Pick, Remedy};
use serde_json::{Map, Value as J, json};

/// One fix as JSON.
pub(crate) fn fix_json(f: &Fix) -> J {
    let mut m = Map::new();
    m.insert("action".into(), f.remedy.action().into());
    fields(&f.remedy, &mut m);
    if let Some(w) = &f.when {
        m.insert("when".into(), w.clone().into());
    }
    J::Object(m)
}

/// The `fix` (the preferred one) and `alternatives` keys of a finding or an
/// error, added to `m` when there are fixes.
pub(crate) fn insert_fixes(m: &mut Map<String, J>, fixes: &[Fix]) {
    if let Some((first, rest)) = fixes.split_first() {
        m.insert("fix".into(), fix_json(first));
        if !rest.is_empty() {
            m.insert(
                "alternatives".into(),
                J::Array(rest.iter().map(fix_json).collect()),
            );
        }
    }
}

/// Reads back the fixes [`insert_fixes`] wrote (`None`: not readable).
pub(crate) fn fixes_from(m: &Map<String, J>) -> Option<Vec<Fix>> {
    let mut out = Vec::new();
    if let Some(f) = m.get("fix") {
        out.push(fix_from_json(f)?);
        for a in m.get("alternatives").map_or(&[][..], |a| {
            a.as_array().map(Vec::as_slice).unwrap_or_default()
        }) {
            out.push(fix_from_json(a)?);
        }
    }
    Some(out)
}

fn pick_json(p: &Pick) -> J {
    match p {
        Pick::Id(id) => id.clone().into(),
        Pick::Any(what) => json!({"choose": what}),
    }
}

fn fields(r: &Remedy, m: &mut Map<String, J>) {
    let mut put = |k: &str, v: J| {
        m.insert(k.to_string(), v);
    };
    match r {
        Remedy::SetField { node, path, value } | Remedy::AddField { node, path, value } => {
            put("nodeId", node.clone().into());
            put("path", path.clone().into());
            match value {
                Fill::Value(v) => put("value", to_json(v)),
                Fill::Choose(what) => put("choose", what.clone().into()),
            }
        }
        Remedy::SetPhase { node, phase } => {
            put("nodeId", node.clone().into());
            match phase {
                None => put("phase", J::Null),
                Some(Fill::Value(v)) => put("phase", to_json(v)),
                Some(Fill::Choose(what)) => put("choose", what.clone().into()),
            }
        }
        Remedy::SetDefinition { node }
        | Remedy::RemoveNode { node }
        | Remedy::ReadNode { node } => put("nodeId", node.clone().into()),
        Remedy::Connect { from, to, handle } => {
            put("from", pick_json(from));
            put("to", pick_json(to));
            if let Some(h) = handle {
                put("handle", h.clone().into());
            }
        }
        Remedy::Disconnect { edge } => put("edgeId", edge.clone().into()),
        Remedy::ChangeHandle {
            edge,
            from,
            to,
            handle,
        } => {
            put("edgeId", edge.clone().into());
            put("from", from.clone().into());
            put("to", to.clone().into());
            put("handle", handle.clone().into());
        }
        Remedy::Retarget {
            edge,
            from,
            to,
            handle,
        } => {
            put("edgeId", edge.clone().into());
            put("from", from.clone().into());
            put("to", pick_json(to));
            put("handle", handle.clone().into());
        }
        Remedy::AddNode { id, kind } => {
            if let Some(id) = id {
                put("nodeId", id.clone().into());
            }
            if let Some(k) = kind {
                put("kind", k.as_str().into());
            }
        }
        Remedy::SetBound { bound, value } => {
            put("bound", bound.key().into());
            put("value", (*value).into());
        }
        Remedy::ReadPhase { phase } => put("phase", phase.clone().into()),
        Remedy::Explain { code } => put("code", code.clone().into()),
        Remedy::AddToRegistry { tool } => put("tool", tool.clone().into()),
        Remedy::RegisterTool { tool, field } => {
            put("tool", tool.clone().into());
            if let Some(f) = field {
                put("field", f.key().into());
            }
        }
        Remedy::ValidateWithin { max_bytes } => put("maxBytes", (*max_bytes).into()),
        Remedy::Freeze
        | Remedy::Submit
        | Remedy::Unfreeze
        | Remedy::Clone
        | Remedy::Outline
        | Remedy::Status
        | Remedy::Validate
        | Remedy::ListTemplates
        | Remedy::Author
        | Remedy::CreatePlan => {}
    }
}

fn fix_from_json(v: &J) -> Option<Fix> {
    let m = v.as_object()?;
    let s = |k: &str| m.get(k).and_then(J::as_str).map(str::to_string);
    let pick = |k: &str| -> Option<Pick> {
        match m.get(k)? {
            J::String(id) => Some(Pick::Id(id.clone())),
            J::Object(o) => Some(Pick::Any(o.get("choose")?.as_str()?.to_string())),
            _ => None,
        }
    };
    let fill = |k: &str| -> Option<Fill> {
        match (m.get(k), s("choose")) {
            (Some(v), _) => Some(Fill::Value(from_json(v, "").ok()?)),
            (None, Some(what)) => Some(Fill::Choose(what)),
            (None, None) => None,
        }
    };
    let remedy = match m.get("action")?.as_str()? {
        "set_field" => Remedy::SetField {
            node: s("nodeId")?,
            path: s("path")?,
            value: fill("value")?,
        },
        "add_field" => Remedy::AddField {
            node: s("nodeId")?,
            path: s("path")?,
            value: fill("value")?,
        },
        "set_phase" => Remedy::SetPhase {
            node: s("nodeId")?,
            phase: match m.get("phase") {
                Some(J::Null) => None,
                _ => Some(fill("phase")?),
            },
        },
        "set_definition" => Remedy::SetDefinition { node: s("nodeId")? },
        "connect" => Remedy::Connect {
            from: pick("from")?,
            to: pick("to")?,
            handle: s("handle"),
        },
        "disconnect" => Remedy::Disconnect { edge: s("edgeId")? },
        "change_handle" => Remedy::ChangeHandle {
            edge: s("edgeId")?,
            from: s("from")?,
            to: s("to")?,
            handle: s("handle")?,
        },
        "retarget_edge" => Remedy::Retarget {
            edge: s("edgeId")?,
            from: s("from")?,
            to: pick("to")?,
            handle: s("handle")?,
        },
        "remove_node" => Remedy::RemoveNode { node: s("nodeId")? },
        "add_node" => Remedy::AddNode {
            id: s("nodeId"),
            kind: match s("kind") {
                Some(k) => Some(NodeKind::parse(&k)?),
                None => None,
            },
        },
        "set_bound" => Remedy::SetBound {
            bound: bound(&s("bound")?)?,
            value: m.get("value")?.as_u64()?,
        },
        "freeze" => Remedy::Freeze,
        "submit" => Remedy::Submit,
        "unfreeze" => Remedy::Unfreeze,
        "clone" => Remedy::Clone,
        "outline" => Remedy::Outline,
        "read_node" => Remedy::ReadNode { node: s("nodeId")? },
        "read_phase" => Remedy::ReadPhase { phase: s("phase")? },
        "status" => Remedy::Status,
        "validate" => match m.get("maxBytes") {
            Some(n) => Remedy::ValidateWithin {
                max_bytes: n.as_u64()?,
            },
            None => Remedy::Validate,
        },
        "explain" => Remedy::Explain { code: s("code")? },
        "list_templates" => Remedy::ListTemplates,
        "author" => Remedy::Author,
        "create_plan" => Remedy::CreatePlan,
        "add_to_registry" => Remedy::AddToRegistry { tool: s("tool")? },
        "register_tool" => Remedy::RegisterTool {
            tool: s("tool")?,
            field: match s("field") {
                Some(k) => Some(crate::model::remedy::RegistryField::from_key(&k)?),
                None => None,
            },
        },
        _ => return None,
    };
    Some(Fix {
        remedy,
        when: s("when"),
    })
}

fn bound(key: &str) -> Option<Bound> {
    [
        Bound::MaxNodes,
        Bound::MaxEdges,
        Bound::MaxSteps,
        Bound::MaxConcurrentFrames,
        Bound::MaxEncodedBytes,
    ]
    .into_iter()
    .find(|b| b.key() == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Ref, Select, Value};

    #[test]
    fn every_kind_of_fix_reads_back_as_written() {
        let fixes = vec![
            Fix::from(Remedy::SetField {
                node: "pay".into(),
                path: "replaySafe".into(),
                value: Fill::Value(Value::Bool(true)),
            })
            .when("if a repeat does no harm"),
            Remedy::SetField {
                node: "w".into(),
                path: "args.content".into(),
                value: Fill::Value(Value::Ref(Box::new(Ref {
                    node: "accept".into(),
                    select: Select::First,
                    path: Some("topic".into()),
                    branch_id: None,
                }))),
            }
            .into(),
            Remedy::SetPhase {
                node: "a".into(),
                phase: None,
            }
            .into(),
            Remedy::AddField {
                node: "spawn_a".into(),
                path: "args.noSpawn".into(),
                value: Fill::Value(Value::Bool(true)),
            }
            .into(),
            Remedy::Connect {
                from: Pick::any("a step before it"),
                to: Pick::id("n"),
                handle: Some("default".into()),
            }
            .into(),
            Remedy::ChangeHandle {
                edge: "e1".into(),
                from: "s".into(),
                to: "f".into(),
                handle: "always".into(),
            }
            .into(),
            Remedy::Retarget {
                edge: "e2".into(),
                from: "g".into(),
                to: Pick::id("r"),
                handle: "no_match".into(),
            }
            .into(),
            Remedy::Retarget {
                edge: "e3".into(),
                from: "g".into(),
                to: Pick::any("a failure report"),
                handle: "default".into(),
            }
            .into(),
            Remedy::AddNode {
                id: None,
                kind: Some(NodeKind::Entry),
            }
            .into(),
            Remedy::SetBound {
                bound: Bound::MaxNodes,
                value: 320,
            }
            .into(),
            Remedy::Explain {
                code: "cycle".into(),
            }
            .into(),
            Remedy::Clone.into(),
        ];
        let mut m = Map::new();
        insert_fixes(&mut m, &fixes);
        assert_eq!(m["fix"]["action"], "set_field");
        assert_eq!(m["fix"]["value"], true);
        assert_eq!(m["alternatives"][0]["value"]["$ref"]["node"], "accept");
        assert_eq!(m["alternatives"][2]["action"], "add_field");
        assert_eq!(m["alternatives"][3]["from"]["choose"], "a step before it");
        assert_eq!(fixes_from(&m), Some(fixes));
        assert_eq!(fixes_from(&Map::new()), Some(vec![]));
    }
}
