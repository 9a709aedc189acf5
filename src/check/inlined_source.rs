//! Complexity: O(size of the definitions): one walk of every node's
//! definition (of a spawning call, its `input` only); a literal's SHA-256
//! is computed only when its length equals a declared slice's `bytes`, once
//! per literal.

use crate::check::support::is_canonical;
use crate::model::remedy::{Fill, Remedy};
use crate::model::value::Pointer;
use crate::model::{Issue, NodeKind, Value};

/// The context budget an orchestrator is held to when its plan does not
/// say otherwise (`orchestrate`'s default `contextBudgetBytes`): a literal
/// larger than this cannot be held for verification and reconciliation.
pub(crate) const CONTEXT_BUDGET_BYTES: u64 = 200_000;

/// The arg of a spawn naming its source slice by identity and extent.
const IDENTITY_ARG: &str = "inputIdentity";

/// A source slice declared in the plan: a spawn's `inputIdentity`.
struct Slice {
    spawn: String,
    run_input: String,
    sha256: String,
    bytes: u64,
}

/// Every `inputIdentity` the spawning calls declare (literal ones).
fn declared(g: &crate::check::Graph, spawns: &[usize]) -> Vec<Slice> {
    spawns
        .iter()
        .filter_map(|&i| {
            let node = g.node(i);
            let id = node
                .get("args")?
                .as_object()?
                .get(IDENTITY_ARG)?
                .as_object()?;
            Some(Slice {
                spawn: node.id.to_string(),
                run_input: id
                    .get("runInput")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                sha256: id.get("sha256")?.as_str()?.to_ascii_lowercase(),
                bytes: id.get("bytes")?.as_u64()?,
            })
        })
        .collect()
}

/// An input of at most this many bytes is a slice's identity and extent;
/// a larger one is source text (`orchestrate`'s own rule, its
/// `DESCRIPTOR_BYTES`). In a plan that declares slices, a multi-line
/// literal over it in the orchestrator's text is source text pasted back.
pub(crate) const DESCRIPTOR_BYTES: u64 = 1024;

/// What a literal is: the whole source of a declared slice, source text in
/// a plan that declares slices, or a text over the context budget.
enum Found<'s> {
    Source(&'s Slice),
    SourceText,
    OverBudget,
}

/// The texts a pasted copy of a source may have been before it lost its
/// final newline or had its line ends converted: the literal itself, with
/// `\r\n` as `\n`, and each with a final `\n` added back.
fn variants(s: &str) -> Vec<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    let mut v: Vec<Cow<'_, str>> = vec![Cow::Borrowed(s), Cow::Owned(format!("{s}\n"))];
    if s.contains('\r') {
        let lf = s.replace("\r\n", "\n");
        v.push(Cow::Owned(format!("{lf}\n")));
        v.push(Cow::Owned(lf));
    }
    v
}

/// The first literal under `v` (at `at`) that is a declared slice's whole
/// source (same size, then same SHA-256) or, failing that, larger than the
/// context budget; and how many such literals there are.
fn scan<'a, 's>(
    v: &'a Value,
    at: &mut Pointer<'a>,
    slices: &'s [Slice],
) -> (Option<(String, u64, Found<'s>)>, usize) {
    let mut first = None;
    let mut count = 0;
    v.walk(at, &mut |p, x| {
        let Value::String(s) = x else { return };
        let len = s.len() as u64;
        let found = variants(s)
            .iter()
            .find_map(|t| {
                let mut same_size = slices
                    .iter()
                    .filter(|sl| sl.bytes == t.len() as u64)
                    .peekable();
                same_size.peek()?;
                let hash = crate::model::hash::hex_sha256(t.as_bytes());
                same_size.find(|sl| sl.sha256 == hash).map(Found::Source)
            })
            .or_else(|| (len > CONTEXT_BUDGET_BYTES).then_some(Found::OverBudget))
            .or_else(|| {
                (!slices.is_empty() && len > DESCRIPTOR_BYTES && s.trim_end().contains('\n'))
                    .then_some(Found::SourceText)
            });
        if let Some(f) = found {
            count += 1;
            if first.is_none() {
                first = Some((p.to_string(), len, f));
            }
        }
    });
    (first, count)
}

/// Whether a spawn reads the run input `name` by reference (a path whose
/// first segment is `name`: `accept.slice_a`, `start.slice_a`). `accept`
/// passing it on, or a verify step naming it, gives no unit its slice.
fn read_by_spawn(cx: &crate::check::Cx<'_>, spawns: &[usize], name: &str) -> bool {
    let mut read = false;
    for &i in spawns {
        for v in cx.graph.node(i).definition.values() {
            v.walk(&mut Pointer::new(""), &mut |_, x| {
                if let Value::Ref(r) = x {
                    let head = r.path.as_deref().and_then(|p| p.split('.').next());
                    read |= head == Some(name);
                }
            });
        }
    }
    read
}

/// A source slice the entry declares as a run input — a string of more
/// than [`DESCRIPTOR_BYTES`] (`maxBytes`), source text by `orchestrate`'s
/// own rule — that no spawn reads and no spawn's `inputIdentity` names
/// (both removed by hand): the slice is supplied to the run and reaches no
/// unit, so the unit that was to digest it gets something else.
fn unread_run_inputs(
    cx: &crate::check::Cx<'_>,
    spawns: &[usize],
    slices: &[Slice],
    out: &mut Vec<Issue>,
) {
    let g = &cx.graph;
    for e in (0..g.len()).filter(|&i| g.node(i).kind == NodeKind::Entry) {
        let entry = g.node(e);
        let Some(inputs) = entry.get("input").and_then(Value::as_array) else {
            continue;
        };
        for (k, f) in inputs.iter().enumerate() {
            let Some(m) = f.as_object() else { continue };
            let name = m.get("path").and_then(Value::as_str).unwrap_or("");
            let big = m.get("type").and_then(Value::as_str) == Some("string")
                && m.get("maxBytes")
                    .and_then(Value::as_u64)
                    .is_some_and(|b| b > DESCRIPTOR_BYTES);
            if !big
                || slices.iter().any(|sl| sl.run_input == name)
                || read_by_spawn(cx, spawns, name)
            {
                continue;
            }
            out.push(
                Issue::new(
                    CODE,
                    format!(
                        "the entry `{}` declares the run input `{name}`, source text of up to {} bytes (a slice for a bounded digest), but no spawn reads it and no spawn's `{IDENTITY_ARG}` names it: the unit it was for no longer gets its slice by reference, so the orchestrator holds whatever it gets instead",
                        entry.id,
                        m.get("maxBytes").and_then(Value::as_u64).unwrap_or(0)
                    ),
                )
                .node(entry.id.clone())
                .at(format!("/definition/input/{k}"))
                .fix(unread_fix(cx, entry, name)),
            );
        }
    }
}

/// The fix for a run input no unit reads: give it back to the unit
/// `orchestrate` named it for (`slice_a` → `spawn_a`), when that spawn is
/// there; else drop it from the entry's inputs.
fn unread_fix(cx: &crate::check::Cx<'_>, entry: &crate::model::Node, name: &str) -> Remedy {
    let spawn = name
        .strip_prefix("slice_")
        .map(|u| format!("spawn_{u}"))
        .filter(|s| cx.graph.index_of(s).is_some());
    match spawn {
        Some(s) => Remedy::SetField {
            node: s,
            path: "args.input".into(),
            value: Fill::choose(format!(
                "a reference to the run input `{name}` (as `accept` passes it on), with `{IDENTITY_ARG}` giving its identity and extent again"
            )),
        },
        None => Remedy::SetField {
            node: entry.id.to_string(),
            path: "input".into(),
            value: Fill::choose(format!(
                "the entry's inputs without `{name}`, if no unit is to read it"
            )),
        },
    }
}

/// A declared slice whose run input no spawn reads any longer (a hand
/// edit that replaced the spawn's input): the unit no longer gets its slice
/// by identity, whatever it got instead.
fn unread(cx: &crate::check::Cx<'_>, spawns: &[usize], slices: &[Slice], out: &mut Vec<Issue>) {
    unread_run_inputs(cx, spawns, slices, out);
    for sl in slices.iter().filter(|sl| !sl.run_input.is_empty()) {
        // A spawn already found holding source text says it once.
        if out
            .iter()
            .any(|i| i.code == CODE && i.node_id.as_deref() == Some(sl.spawn.as_str()))
        {
            continue;
        }
        if read_by_spawn(cx, spawns, &sl.run_input) {
            continue;
        }
        out.push(
            Issue::new(
                CODE,
                format!(
                    "spawn `{}` declares source slice `{}` in `{IDENTITY_ARG}`, but nothing reads the run input `{}` any longer: the unit no longer gets its slice by reference (its `input` was replaced), so the orchestrator holds whatever it gets instead",
                    sl.spawn, sl.run_input, sl.run_input
                ),
            )
            .node(sl.spawn.clone())
            .at("/definition/args/input")
            .fix(Remedy::SetField {
                node: sl.spawn.clone(),
                path: "args.input".into(),
                value: Fill::choose(format!(
                    "a reference to the run input `{}` (the entry's, declassified by `accept`), which the run supplies",
                    sl.run_input
                )),
            }),
        );
    }
}

declare_check! {
    /// ## What it finds
    /// In a plan with a spawning call (`spawnsAgent: true`), a literal
    /// string in the orchestrator's own text — the definition of any node
    /// that does not spawn, or the `input` of a spawn — that is a unit's
    /// whole source: its size and SHA-256 equal an `inputIdentity` a spawn
    /// declares (`{runInput, sha256, bytes, lines}`, as the bounded digest
    /// mechanism of `orchestrate` writes it). Failing that, a literal larger
    /// than the 200,000-byte context budget an orchestrator is held to
    /// (`orchestrate`'s default `contextBudgetBytes`). One finding per node,
    /// at the first such literal. A pasted copy counts as the source when,
    /// with its line ends made `\n` and its final newline put back, it is
    /// (so a lost final newline or CRLF line ends do not hide it). In a plan
    /// that declares a slice, any literal over 1,024 bytes that spans
    /// several lines fires too: `orchestrate` itself treats an input over
    /// 1,024 bytes as source text rather than a slice's identity and
    /// extent, so half a source, a source split in parts, or one with its
    /// trailing spaces stripped is still source text (its own instructions
    /// are one paragraph each). A spawn's `goal` is read as its `input` is.
    /// And a declared slice whose run input no spawn reads any longer
    /// (the spawn's `input` replaced by hand; `accept` passing the run
    /// input on, or a verify step naming it, gives no unit its slice)
    /// fires at that spawn; so does, at the entry, a run input it declares
    /// as source text (a string of more than 1,024 `maxBytes`) that no
    /// spawn reads and no `inputIdentity` names (both removed by hand).
    /// References
    /// are not read: a slice passed by reference to the run input is what
    /// the mechanism wants. Needs a registry.
    ///
    /// ## Why it matters
    /// Seed 003's bounded digest mechanism: "give each subagent only its
    /// assigned source slice and a fixed digest schema; keep source text out
    /// of the orchestrator context". `orchestrate` keeps each slice out of
    /// the plan (a run input named by its identity), but a hand edit can
    /// paste the source back into a verify step or a spawn's `input`, and
    /// the plan still runs — with the whole source in the orchestrator's
    /// context, the context overflow the mechanism exists to prevent. In
    /// seed 003 this check carries step 2's bounded digest row and the
    /// context-overflow failure class for edited plans.
    ///
    /// ## How to fix
    /// Remove the literal. A verify step names the slice by its identity and
    /// extent (the spawn's `inputIdentity`) and checks the digest's coverage
    /// against that; a spawn's `input` is a reference to the run input that
    /// `accept` declassifies (`{"$ref": {"node": "accept", "path":
    /// "slice_<unit>"}}`), which the run supplies; a spawn's `goal` says
    /// the task in words. For a slice nothing reads, set the spawn's `input`
    /// back to that reference (and its `inputIdentity`), or drop the run
    /// input from the entry if no unit is to read it.
    ///
    /// ## Example
    /// `spawn_log_a` declares `"inputIdentity": {"runInput": "slice_log_a",
    /// "sha256": "4644…", "bytes": 126889, "lines": 1000}`, and a text part
    /// of `verify_log_a`'s prompt is those 126,889 bytes. Fixed: delete that
    /// part; the prompt keeps the identity.
    pub InlinedSource { code: "inlined_source", severity: Blocking, needs: REGISTRY, source: Check }
    fn run(cx, out) {
        let Some((reg, spawns)) = cx.orchestration() else { return };
        let g = &cx.graph;
        let slices = declared(g, spawns);
        for (i, node) in cx.content.nodes.iter().enumerate() {
            if !is_canonical(g, i) {
                continue;
            }
            let spawn = node.kind == NodeKind::Call && spawns.contains(&i);
            let (first, count) = if spawn {
                let Some(args) = node.get("args").and_then(Value::as_object) else { continue };
                let mut first = None;
                let mut count = 0;
                for key in ["input", "goal"] {
                    let Some(v) = args.get(key) else { continue };
                    let (f, c) = scan(v, &mut Pointer::new(format!("/definition/args/{key}")), &slices);
                    count += c;
                    if first.is_none() {
                        first = f;
                    }
                }
                (first, count)
            } else {
                let mut first = None;
                let mut count = 0;
                for (k, v) in &node.definition {
                    let mut at = Pointer::new("/definition");
                    at.push_key(k);
                    let (f, c) = scan(v, &mut at, &slices);
                    count += c;
                    if first.is_none() {
                        first = f;
                    }
                }
                (first, count)
            };
            let Some((pointer, len, found)) = first else { continue };
            let more = if count > 1 {
                format!(" ({} more such literal(s) in it)", count - 1)
            } else {
                String::new()
            };
            let what = match found {
                Found::Source(sl) => format!(
                    "the whole source of slice `{}` (its {len} bytes and SHA-256 are those `{}` declares in `{IDENTITY_ARG}`)",
                    sl.run_input, sl.spawn
                ),
                Found::SourceText => format!(
                    "a literal of {len} bytes over several lines, source text (over the {DESCRIPTOR_BYTES} bytes of a slice's identity and extent) in a plan that keeps its slices out by identity"
                ),
                Found::OverBudget => format!(
                    "a literal of {len} bytes, over the {CONTEXT_BUDGET_BYTES}-byte context budget an orchestrator is held to"
                ),
            };
            let where_ = if !spawn {
                "orchestrator step"
            } else if pointer.starts_with("/definition/args/goal") {
                "the goal of spawn"
            } else {
                "the input of spawn"
            };
            let mut issue = Issue::new(
                CODE,
                format!(
                    "{where_} `{}` holds {what} at {pointer}{more}: source text must stay out of the orchestrator's context (the bounded digest mechanism gives only the subagent its slice, and the orchestrator names it by identity and extent)",
                    node.id
                ),
            )
            .node(node.id.clone())
            .at(pointer.clone());
            issue = if spawn && pointer.starts_with("/definition/args/goal") {
                issue.fix(Remedy::SetField {
                    node: node.id.to_string(),
                    path: "args.goal".into(),
                    value: Fill::choose("the goal in words, without the source (the input carries the slice by reference)"),
                })
            } else if spawn {
                let run_input = match found {
                    Found::Source(sl) if !sl.run_input.is_empty() => format!("`{}`", sl.run_input),
                    _ => "of the slice".to_string(),
                };
                issue.fix(Remedy::SetField {
                    node: node.id.to_string(),
                    path: "args.input".into(),
                    value: Fill::choose(format!("a reference to the run input {run_input}, which the run supplies")),
                })
            } else {
                issue.fix(
                    Remedy::SetDefinition { node: node.id.to_string() }
                        .when("without the literal: name the slice by its identity and extent instead"),
                )
            };
            out.push(issue);
        }
        unread(cx, spawns, &slices, out);
    }
}

#[cfg(test)]
mod tests {
    use super::InlinedSource;
    use crate::check::testing::*;
    use serde_json::json;

    const REG: &str = "tools: {spawn: {returns: text, spawnsAgent: true}, other: {returns: text}}";

    fn source() -> String {
        "line of the log\n".repeat(200)
    }

    fn identity(s: &str) -> serde_json::Value {
        json!({"runInput": "slice_a", "sha256": crate::model::hash::hex_sha256(s.as_bytes()), "bytes": s.len(), "lines": 200})
    }

    fn with(
        spawn_input: serde_json::Value,
        verify_text: &str,
        declared: &str,
    ) -> Vec<crate::model::Issue> {
        let p = plan(
            vec![
                entry("start"),
                call_with(
                    "spawn_a",
                    "spawn",
                    json!({"input": spawn_input, "inputIdentity": identity(declared)}),
                    &[],
                ),
                node(
                    "verify_a",
                    crate::model::NodeKind::Reason,
                    json!({"prompt": [{"text": "Verify."}, {"text": verify_text}]}),
                ),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "verify_a", "always"),
            ],
        );
        run_reg(&InlinedSource, &p, &registry(REG))
    }

    #[test]
    fn fires_on_the_source_pasted_into_a_verify_step_or_a_spawns_input() {
        let src = source();
        let issues = with(r("start", Some("slice_a")), &src, &src);
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert_eq!(issues[0].node_id.as_deref(), Some("verify_a"));
        assert_eq!(
            issues[0].pointer.as_deref(),
            Some("/definition/prompt/1/text")
        );
        assert!(
            issues[0]
                .message
                .contains("whole source of slice `slice_a`"),
            "{}",
            issues[0].message
        );
        let issues = with(json!(src), "Verify.", &src);
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert_eq!(issues[0].node_id.as_deref(), Some("spawn_a"));
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/args/input"));
        // No identity matches, but the literal is over the budget.
        let big = "x".repeat(super::CONTEXT_BUDGET_BYTES as usize + 1);
        let issues = with(r("start", Some("slice_a")), &big, &src);
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert!(
            issues[0]
                .message
                .contains("over the 200000-byte context budget"),
            "{}",
            issues[0].message
        );
    }

    #[test]
    fn passes_a_reference_an_identity_and_a_same_size_other_text() {
        let src = source();
        // The mechanism as emitted: the input by reference, the identity in words.
        assert!(with(r("start", Some("slice_a")), "sha256 and extent only", &src).is_empty());
        // Same size, other bytes (one line: no source text either): not
        // the source.
        let other = src.replace('\n', " ");
        assert_eq!(other.len(), src.len());
        assert!(with(r("start", Some("slice_a")), &other, &src).is_empty());
        // At the budget exactly: not over it.
        let at = "x".repeat(super::CONTEXT_BUDGET_BYTES as usize);
        assert!(with(r("start", Some("slice_a")), &at, &src).is_empty());
    }

    fn one_at(issues: &[crate::model::Issue], node: &str, says: &str) {
        assert_eq!(issues.len(), 1, "{issues:#?}");
        assert_eq!(issues[0].node_id.as_deref(), Some(node));
        assert!(issues[0].message.contains(says), "{}", issues[0].message);
    }

    #[test]
    fn fires_on_ordinary_copy_variants_of_the_source() {
        let src = source();
        let by_ref = || r("start", Some("slice_a"));
        // Its final newline lost, its line ends converted: still the source.
        one_at(
            &with(by_ref(), &src[..src.len() - 1], &src),
            "verify_a",
            "whole source of slice `slice_a`",
        );
        one_at(
            &with(by_ref(), &src.replace('\n', "\r\n"), &src),
            "verify_a",
            "whole source of slice `slice_a`",
        );
        // Half of it: multi-line text over a slice identity's size.
        one_at(
            &with(by_ref(), &src[..1600], &src),
            "verify_a",
            "over several lines, source text",
        );
    }

    #[test]
    fn fires_on_the_source_in_a_spawns_goal_and_on_a_slice_nothing_reads() {
        let src = source();
        let p = |args: serde_json::Value| {
            plan(
                vec![entry("start"), call_with("spawn_a", "spawn", args, &[])],
                vec![edge("e1", "start", "spawn_a", "always")],
            )
        };
        let reg = registry(REG);
        let goal = p(
            json!({"input": r("start", Some("slice_a")), "goal": src, "inputIdentity": identity(&src)}),
        );
        let issues = run_reg(&InlinedSource, &goal, &reg);
        one_at(&issues, "spawn_a", "whole source of slice `slice_a`");
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/args/goal"));
        let unread = p(json!({"input": "the log", "inputIdentity": identity(&src)}));
        let issues = run_reg(&InlinedSource, &unread, &reg);
        // A step that only passes the run input on is no unit reading it.
        let mut passed = unread.clone();
        passed.nodes.push(call_with(
            "accept",
            "noop",
            json!({"slice_a": r("start", Some("slice_a"))}),
            &[],
        ));
        let found = run_reg(&InlinedSource, &passed, &reg);
        one_at(
            &found,
            "spawn_a",
            "nothing reads the run input `slice_a` any longer",
        );
        one_at(
            &issues,
            "spawn_a",
            "nothing reads the run input `slice_a` any longer",
        );
        assert!(matches!(
            &issues[0].fixes[0].remedy,
            crate::model::remedy::Remedy::SetField { path, .. } if path == "args.input"
        ));
    }

    #[test]
    fn fires_on_a_slice_run_input_no_spawn_reads_or_names() {
        // `inputIdentity` deleted and the input replaced (tester's
        // `w_slice_unread2`): the entry still declares the slice.
        let p = |input: serde_json::Value| {
            plan(
                vec![
                    node(
                        "start",
                        crate::model::NodeKind::Entry,
                        json!({"input": [
                            {"path": "assignment", "type": "string"},
                            {"path": "slice_a", "type": "string", "maxBytes": 122880}
                        ]}),
                    ),
                    call_with("spawn_a", "spawn", json!({"input": input}), &[]),
                ],
                vec![edge("e1", "start", "spawn_a", "always")],
            )
        };
        let reg = registry(REG);
        let issues = run_reg(&InlinedSource, &p(json!("the log")), &reg);
        one_at(
            &issues,
            "start",
            "declares the run input `slice_a`, source text of up to 122880 bytes",
        );
        assert_eq!(issues[0].pointer.as_deref(), Some("/definition/input/1"));
        assert!(matches!(
            &issues[0].fixes[0].remedy,
            crate::model::remedy::Remedy::SetField { node, path, .. }
                if node == "spawn_a" && path == "args.input"
        ));
        // Near miss: the spawn reads it by reference.
        assert!(run_reg(&InlinedSource, &p(r("start", Some("slice_a"))), &reg).is_empty());
    }

    #[test]
    fn passes_long_one_paragraph_instructions_and_long_text_without_slices() {
        let src = source();
        // A reconciliation prompt of one paragraph over 1,024 bytes.
        let prose = "Reconcile the verified artifacts against the cited evidence. ".repeat(20);
        assert!(with(r("start", Some("slice_a")), &prose, &src).is_empty());
        // Multi-line text over 1,024 bytes in a plan that declares no slice.
        let p = plan(
            vec![
                entry("start"),
                call_with("spawn_a", "spawn", json!({"input": "small"}), &[]),
                node(
                    "verify_a",
                    crate::model::NodeKind::Reason,
                    json!({"prompt": [{"text": src[..1600].to_string()}]}),
                ),
            ],
            vec![
                edge("e1", "start", "spawn_a", "always"),
                edge("e2", "spawn_a", "verify_a", "always"),
            ],
        );
        assert!(run_reg(&InlinedSource, &p, &registry(REG)).is_empty());
    }
}
