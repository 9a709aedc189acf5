//! `edit NODE` (SPEC §11): one node as a YAML document a person edits in
//! their editor, like `kubectl edit`. This module renders the document
//! (a comment header with the plan, the revision and the node's current
//! issues, then `phase`, `kind` and `definition` in wire form), reads it back
//! (syntax, `$ref` conversion and the shape check of `set-config`: a wrong
//! type or an unknown key is refused, a missing field stays a finding) and
//! applies the difference as one transaction. Running the editor is the
//! CLI's job; a refusal from [`parse`] is meant to be shown in the file.
//!
//! The kind cannot change here (the refusal says how to get a node of
//! another kind), and neither can the id. A concurrent change is never
//! overwritten: the transaction checks under the lock that the node is still
//! as it was when the file was written, and refuses with `revision_moved`
//! otherwise. Changes elsewhere in the plan meanwhile do not matter.

use super::echo::{self, Echo};
use super::edit::{new_refusable, refuse_shape};
use super::{Forge, unknown_node};
use crate::model::Issue;
use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::remedy::{Remedy, Voice};
use crate::model::{Node, OpBody, Value, ids};
use crate::wire;

/// Marks the lines of an error shown at the top of the file; they are
/// removed before the file is read again.
pub(crate) const ERROR_MARK: &str = "# ! ";

/// Issues listed in the header, at most.
const MAX_HEADER_ISSUES: usize = 20;

/// The node as it was when the file was written, and the file's text.
#[derive(Debug, Clone)]
pub(crate) struct Draft {
    pub(crate) plan_id: String,
    pub(crate) revision: u64,
    pub(crate) node: Node,
    pub(crate) text: String,
}

/// What an edited file says.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Parsed {
    /// Nothing but comments and blank lines: abort.
    Empty,
    /// The same node (key order aside).
    Unchanged,
    Changed(Node),
}

/// The file for `node`: the header, then the node in wire form.
pub(crate) fn render(plan_id: &str, revision: u64, node: &Node, issues: &[&Issue]) -> String {
    let mut out = format!(
        "# planforge edit: node `{}` of plan {plan_id} at revision {revision}.\n\
         # Save and quit to apply your change as one step; empty the file to abort.\n\
         # The kind cannot change here. References are written\n\
         # {{$ref: {{node: <id>, select: first|last|all|{{index: N}}, path: <dot.path>}}}}.\n",
        node.id
    );
    if issues.is_empty() {
        out.push_str(&format!("# `{}` has no issues now.\n", node.id));
    } else {
        out.push_str(&format!("# Issues on `{}` now:\n", node.id));
        for i in issues.iter().take(MAX_HEADER_ISSUES) {
            let message = i.message.replace('\n', " ");
            out.push_str(&format!(
                "#   {} {}: {}\n",
                i.severity().as_str(),
                i.code,
                message
            ));
        }
        if issues.len() > MAX_HEADER_ISSUES {
            out.push_str(&format!(
                "#   … and {} more\n",
                issues.len() - MAX_HEADER_ISSUES
            ));
        }
    }
    let mut doc = serde_json::Map::new();
    doc.insert(
        "phase".into(),
        match &node.phase {
            Some(p) => p.as_str().into(),
            None => serde_json::Value::Null,
        },
    );
    doc.insert("kind".into(), node.kind.as_str().into());
    doc.insert(
        "definition".into(),
        wire::convert::map_to_json(&node.definition),
    );
    out.push_str(&wire::json::yaml(&serde_json::Value::Object(doc)));
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The text without a previous error block.
pub(crate) fn strip_errors(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|l| !(l.starts_with(ERROR_MARK) || l.trim_end() == ERROR_MARK.trim_end()))
        .collect()
}

/// `body` with `err` shown on top, in comment lines, its fixes worded by
/// `voice`.
pub(crate) fn with_error(body: &str, err: &Error, voice: &dyn Voice) -> String {
    let mut lines = vec!["error: the edited node was not applied".to_string()];
    let at_line = err.location.as_ref().and_then(|l| l.line);
    // The parser's own `[line N, column M]` counts from the file as it was
    // saved; the line below counts in the file as reopened: only that one.
    let own_place = |l: &str| match l.rfind(" [line ") {
        Some(i) if at_line.is_some() && l.ends_with(']') => l[..i].to_string(),
        _ => l.to_string(),
    };
    lines.extend(err.message.lines().map(|l| format!("  {}", own_place(l))));
    if at_line.is_some() {
        lines.push(String::new()); // filled in below, once the block's length is known
    }
    if !err.fixes.is_empty() {
        lines.push(format!("help: {}", voice.fixes(&err.fixes)));
    }
    if let Some(h) = &err.help {
        lines.extend(h.lines().map(|l| format!("help: {l}")));
    }
    lines.push("Fix it and save again, or empty the file to abort.".to_string());
    lines.push(String::new());
    if let (Some(line), Some(slot)) = (at_line, lines.iter().position(String::is_empty)) {
        let column = err
            .location
            .as_ref()
            .and_then(|l| l.column)
            .map(|c| format!(", column {c}"))
            .unwrap_or_default();
        lines[slot] = format!("  at line {}{column} of this file", line + lines.len());
    }
    let mut out: String = lines
        .iter()
        .map(|l| {
            if l.is_empty() {
                format!("{}\n", ERROR_MARK.trim_end())
            } else {
                format!("{ERROR_MARK}{l}\n")
            }
        })
        .collect();
    out.push_str(body);
    out
}

fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    })
}

/// Reads an edited file (without its error block) against the node it was
/// written from. Every refusal is addressed to the person editing.
pub(crate) fn parse(text: &str, original: &Node) -> Result<Parsed> {
    if is_blank(text) {
        return Ok(Parsed::Empty);
    }
    let value = wire::parse::yaml(text)
        .and_then(|v| wire::convert::hydrated(v, ""))
        .map_err(|e| e.into_error(None))?;
    let Value::Object(mut map) = value else {
        return Err(Error::invalid(format!(
            "the file holds {} where the node is expected: keep the keys `phase`, `kind` and `definition`",
            value.type_name()
        )));
    };
    match map.shift_remove("id") {
        None => {}
        Some(Value::String(id)) if id == original.id => {}
        Some(other) => {
            return Err(Error::invalid(format!(
                "the node id cannot change in edit (it is `{}`; the file says {})",
                original.id,
                wire::json::compact_cut(&other, 80)
            ))
            .with_help(
                "remove the `id` line; to rename a node, add one with the new id and remove the old one",
            ));
        }
    }
    map.insert("id".into(), Value::String(original.id.clone()));
    let node = wire::codec::node(&Value::Object(map), "").map_err(|e| e.into_error(None))?;
    if let Some(p) = &node.phase
        && let Some(why) = ids::phase_problem(p)
    {
        return Err(Error::invalid(format!(
            "the phase `{}` is not allowed: {why}",
            ids::quote_id(p)
        ))
        .with_help("write `phase: null` (or leave it out) for an unphased node"));
    }
    if node.kind != original.kind {
        return Err(Error::refused(format!(
            "node `{}` is {} node; edit cannot turn it into {} node",
            original.id,
            original.kind.a(),
            node.kind.a()
        ))
        .with_help(format!("set `kind` back to {}", original.kind))
        .fix(
            Remedy::RemoveNode {
                node: original.id.to_string(),
            }
            .when(format!(
                "for {} node: remove this one, then add a new one",
                node.kind.a()
            )),
        )
        .fix(Remedy::AddNode {
            id: None,
            kind: Some(node.kind),
        }));
    }
    let problems = new_refusable(node.kind, Some(&original.definition), &node.definition);
    if !problems.is_empty() {
        return Err(refuse_shape(&node.id, node.kind, &problems));
    }
    if node == *original {
        Ok(Parsed::Unchanged)
    } else {
        Ok(Parsed::Changed(node))
    }
}

impl Forge {
    /// The file to edit `node_id` in. Refuses a plan that is not editable
    /// before anyone starts typing.
    pub(crate) fn edit_draft(&self, plan: &str, node_id: &str) -> Result<Draft> {
        let loaded = self.load(plan)?;
        crate::store::ensure_editable(&loaded)?;
        let node = loaded
            .content()
            .node(node_id)
            .cloned()
            .ok_or_else(|| unknown_node(&loaded, node_id))?;
        let report = self.check(&loaded)?;
        let issues: Vec<&Issue> = report
            .issues
            .iter()
            .filter(|i| i.node_id.as_deref() == Some(node_id))
            .collect();
        Ok(Draft {
            text: render(&loaded.plan_id, loaded.revision(), &node, &issues),
            plan_id: loaded.plan_id.clone(),
            revision: loaded.revision(),
            node,
        })
    }

    /// Applies an edited node as one transaction: its phase and its
    /// definition, each when changed. Refuses with `revision_moved` when the
    /// node changed (or went) since the draft was written.
    pub(crate) fn apply_edit(&self, draft: &Draft, edited: Node) -> Result<Echo> {
        let id = draft.node.id.clone();
        let mut what: Vec<String> = Vec::new();
        let (after, _) = self
            .store()
            .commit(&draft.plan_id, self.actor(), None, |before| {
                let now = before.content().node(&id);
                if now != Some(&draft.node) {
                    let how = if now.is_some() { "changed" } else { "removed" };
                    return Err(Error::new(
                        ErrorKind::RevisionMoved,
                        format!(
                            "node `{id}` was {how} by someone else while you edited it (plan {} moved from revision {} to {}); nothing was written",
                            before.plan_id,
                            draft.revision,
                            before.revision()
                        ),
                    ));
                }
                let mut ops = Vec::new();
                if edited.phase != draft.node.phase {
                    what.push(match &edited.phase {
                        Some(p) => format!("phase → `{p}`"),
                        None => "phase cleared".to_string(),
                    });
                    ops.push(OpBody::SetNodePhase {
                        node_id: id.to_string(),
                        phase: edited.phase.as_ref().map(ToString::to_string),
                    });
                }
                if edited.definition != draft.node.definition {
                    let mut keys: Vec<&str> = Vec::new();
                    for (k, v) in &edited.definition {
                        if draft.node.definition.get(k) != Some(v) {
                            keys.push(k);
                        }
                    }
                    for k in draft.node.definition.keys() {
                        if !edited.definition.contains_key(k) {
                            keys.push(k);
                        }
                    }
                    what.push(format!("definition ({})", keys.join(", ")));
                    ops.push(OpBody::SetNodeDefinition {
                        node_id: id.to_string(),
                        definition: (*edited.definition).clone(),
                    });
                }
                Ok(ops)
            })?;
        self.remade(&after, |after| {
            let report = self.check(after)?;
            Ok(echo::build(
                after,
                format!("edited `{id}`: {}", what.join("; ")),
                Some(&id),
                &report.issues,
                vec![],
                &[],
                &[],
            ))
        })
    }

    /// The echo of an edit that wrote nothing (`why` says why).
    pub(crate) fn edit_noop(&self, draft: &Draft, why: &str) -> Result<Echo> {
        let loaded = self.load(&draft.plan_id)?;
        let report = self.check(&loaded)?;
        Ok(echo::build(
            &loaded,
            why.to_string(),
            Some(&draft.node.id),
            &report.issues,
            vec![],
            &[],
            &[],
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NodeKind;
    use crate::model::value::Map;

    fn call() -> Node {
        let v = wire::parse::json(
            r#"{"id": "fetch", "phase": "in", "kind": "call", "definition": {
                "tool": "tickets_get",
                "args": {"id": {"$ref": {"node": "start", "select": "first", "path": "ticket"}}},
                "replaySafe": true}}"#,
        )
        .unwrap();
        wire::codec::node(&wire::convert::hydrated(v, "").unwrap(), "").unwrap()
    }

    fn draft_text(n: &Node) -> String {
        render("plan-x", 4, n, &[])
    }

    #[test]
    fn the_file_round_trips_to_the_same_node() {
        let n = call();
        let text = draft_text(&n);
        assert!(text.starts_with("# planforge edit: node `fetch` of plan plan-x at revision 4."));
        assert!(text.contains("$ref"), "{text}");
        assert_eq!(parse(&text, &n).unwrap(), Parsed::Unchanged);
    }

    #[test]
    fn changes_are_read_with_references() {
        let n = call();
        let text = draft_text(&n)
            .replace("tickets_get", "tickets_list")
            .replace("phase: in", "phase: fetch things");
        let Parsed::Changed(m) = parse(&text, &n).unwrap() else {
            panic!("a change")
        };
        assert_eq!(m.phase.as_deref(), Some("fetch things"));
        assert_eq!(
            m.definition.get("tool"),
            Some(&Value::String("tickets_list".into()))
        );
        assert!(matches!(
            m.definition
                .get("args")
                .and_then(|a| a.as_object())
                .and_then(|a| a.get("id")),
            Some(Value::Ref(_))
        ));
    }

    #[test]
    fn refusals_a_person_can_fix_in_the_file() {
        let n = call();
        let base = draft_text(&n);
        let cases = [
            (
                base.replace("kind: call", "kind: join"),
                "cannot turn it into a join",
            ),
            (
                base.replace("replaySafe: true", "replaySafe: maybe"),
                "replaySafe",
            ),
            (
                base.replace("tool: tickets_get", "tool: tickets_get\n  colour: red"),
                "colour",
            ),
            (base.replace("phase: in", "phase: '(unphased)'"), "reserved"),
            (base.replace("definition:", "definition: [1,\n"), "line"),
            (format!("id: other\n{base}"), "id cannot change"),
        ];
        for (text, needle) in cases {
            let err = parse(&text, &n).unwrap_err();
            let shown = format!("{} {}", err.message, err.help.clone().unwrap_or_default());
            assert!(shown.contains(needle), "{needle:?} not in {shown:?}");
        }
    }

    #[test]
    fn missing_fields_stay_findings_and_an_empty_file_aborts() {
        let n = Node {
            id: "j".into(),
            phase: None,
            kind: NodeKind::Call,
            definition: Map::new().into(),
        };
        let text = "kind: call\ndefinition:\n  tool: x\n";
        assert!(matches!(parse(text, &n).unwrap(), Parsed::Changed(_)));
        assert_eq!(parse("# nothing\n\n   \n", &n).unwrap(), Parsed::Empty);
    }

    #[test]
    fn error_blocks_are_replaced_not_stacked() {
        let n = call();
        let base = draft_text(&n);
        let broken = base.replace("definition:", "definition: [1,\n");
        let err = parse(&broken, &n).unwrap_err();
        let once = with_error(&broken, &err, &crate::cli::voice::CliVoice::default());
        assert!(once.starts_with("# ! error: the edited node was not applied\n"));
        let twice = with_error(
            &strip_errors(&once),
            &err,
            &crate::cli::voice::CliVoice::default(),
        );
        assert_eq!(once, twice);
        assert_eq!(strip_errors(&once), broken);
        // The line it points at is a line of the reopened file.
        let at = once
            .lines()
            .find_map(|l| l.strip_prefix("# !   at line "))
            .and_then(|l| l.split(|c: char| !c.is_ascii_digit()).next())
            .and_then(|d| d.parse::<usize>().ok());
        let loc = err.location.as_ref().and_then(|l| l.line).unwrap();
        let block = once.lines().take_while(|l| l.starts_with("# !")).count();
        assert_eq!(at, Some(loc + block));
    }
}
