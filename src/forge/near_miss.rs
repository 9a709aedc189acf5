//! Typos an edit would otherwise keep: a `set` path whose new key is one
//! letter off a key the node has (`args.bdy` beside `args.body`, or an arg
//! its tool requires), a new argument the tool's registry entry does not
//! list, and a new phase one letter off a phase the plan has.

use crate::model::registry::Registry;
use crate::model::suggest::closest;
use crate::model::{Content, Node, NodeKind, Value};
use crate::store::fold::get_path;

/// A new key in a path that is a near miss of a key already there.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct KeyMiss {
    /// The path up to and including the mistyped key (`args.bdy`).
    pub(crate) typed: String,
    /// The same path with the key meant (`args.body`).
    pub(crate) meant: String,
    /// `path` with the key meant in place of the typo.
    pub(crate) corrected: String,
}

/// Whether setting `path` on `node` would add a key that is a near miss of
/// one the node has (or, under a call's `args`, of an argument its tool
/// requires). `None` when every key is there or the new key is unlike them.
pub(crate) fn new_key(node: &Node, path: &str, registry: Option<&Registry>) -> Option<KeyMiss> {
    let segs: Vec<&str> = path.split('.').collect();
    for i in 0..segs.len() {
        let prefix = segs[..=i].join(".");
        if get_path(&node.definition, &prefix).is_some() {
            continue;
        }
        let parent = segs[..i].join(".");
        let mut keys: Vec<String> = match i {
            0 => return None, // new top-level keys are checked by the shape
            _ => match get_path(&node.definition, &parent) {
                Some(Value::Object(m)) => m.keys().map(ToString::to_string).collect(),
                _ => return None,
            },
        };
        if parent == "args"
            && node.kind == NodeKind::Call
            && let (Some(r), Some(Value::String(tool))) = (registry, node.definition.get("tool"))
            && let Some(t) = r.tool(tool)
        {
            keys.extend(t.known_args());
        }
        // `item2` beside `item1` is a sibling, not a typo.
        keys.retain(|k| !numbered_siblings(k, segs[i]));
        let meant = closest(segs[i], keys.iter().map(String::as_str))?;
        let mut fixed = segs.clone();
        fixed[i] = meant;
        return Some(KeyMiss {
            typed: prefix,
            meant: fixed[..=i].join("."),
            corrected: fixed.join("."),
        });
    }
    None
}

/// A new argument of a call (`args.X` where the node has no `X`) that the
/// registry cannot vouch for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum NewArg {
    /// The tool's registry entry does not name `arg`; `known` are the
    /// arguments it names (maybe none).
    NotTaken {
        arg: String,
        tool: String,
        known: Vec<String>,
    },
    /// Nothing to check `arg` against: no registry, no tool, or a tool the
    /// registry does not list.
    Unchecked { arg: String, why: String },
}

/// Whether setting `path` on `node` adds an argument its tool's registry
/// entry does not name (`None`: not a new argument, or one it names).
pub(crate) fn new_arg(node: &Node, path: &str, registry: Option<&Registry>) -> Option<NewArg> {
    if node.kind != NodeKind::Call {
        return None;
    }
    let arg = path.strip_prefix("args.")?.split('.').next()?.to_string();
    if let Some(Value::Object(args)) = node.definition.get("args")
        && args.contains_key(&arg)
    {
        return None;
    }
    let tool = match node.definition.get("tool") {
        Some(Value::String(t)) => t.clone(),
        _ => {
            return Some(NewArg::Unchecked {
                arg,
                why: "the node names no tool to check it against".into(),
            });
        }
    };
    let Some(r) = registry else {
        return Some(NewArg::Unchecked {
            arg,
            why: format!("there is no registry to check it against tool `{tool}`"),
        });
    };
    let Some(t) = r.tool(&tool) else {
        return Some(NewArg::Unchecked {
            arg,
            why: format!("the registry has no tool `{tool}` to check it against"),
        });
    };
    let known = t.known_args();
    if known.contains(&arg) {
        return None;
    }
    Some(NewArg::NotTaken {
        arg,
        tool: tool.to_string(),
        known,
    })
}

/// Whether `a` and `b` differ only in digits (`w0_1` and `w0_2`).
fn numbered_siblings(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .all(|(x, y)| x == y || (x.is_ascii_digit() && y.is_ascii_digit()))
}

/// A note when `phase` is new to the plan and a near miss of a phase it
/// has: "phase `fetsh` is new … did you mean `fetch`?". The phase of the
/// node `moved` (the one being given `phase`) does not count.
pub(crate) fn new_phase(before: &Content, phase: Option<&str>, moved: &str) -> Option<String> {
    let phase = phase?;
    let mut phases: Vec<&str> = before
        .nodes
        .iter()
        .filter(|n| n.id != moved)
        .filter_map(|n| n.phase.as_deref())
        .collect();
    if phases.contains(&phase) {
        return None;
    }
    phases.sort_unstable();
    phases.dedup();
    let meant = closest(phase, phases.iter().copied())?;
    Some(format!(
        "phase `{phase}` is new to this plan; did you mean the existing phase `{meant}`?"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::registry::ToolEntry;
    use crate::model::value::Map;

    fn call(args: &[&str]) -> Node {
        let mut a = Map::new();
        for k in args {
            a.insert((*k).into(), Value::String("x".into()));
        }
        let mut d = Map::new();
        d.insert("tool".into(), Value::String("t".into()));
        d.insert("args".into(), Value::Object(a));
        Node {
            id: "n".into(),
            phase: None,
            kind: NodeKind::Call,
            definition: d.into(),
        }
    }

    #[test]
    fn a_new_key_one_letter_off_an_existing_one_is_a_miss() {
        let n = call(&["body", "path"]);
        let m = new_key(&n, "args.bdy", None).unwrap();
        assert_eq!(
            (m.typed.as_str(), m.meant.as_str()),
            ("args.bdy", "args.body")
        );
        let m = new_key(&n, "args.bdy.x", None).unwrap();
        assert_eq!(m.corrected, "args.body.x");
        // Existing keys, unlike keys and new top-level keys are not misses.
        assert_eq!(new_key(&n, "args.body", None), None);
        assert_eq!(new_key(&n, "args.title", None), None);
        assert_eq!(new_key(&n, "tool", None), None);
        assert_eq!(new_key(&n, "args.body.inner", None), None);
        // Numbered siblings are not typos of each other.
        let n = call(&["item1", "w0_0"]);
        assert_eq!(new_key(&n, "args.item2", None), None);
        assert_eq!(new_key(&n, "args.w0_1", None), None);
        assert!(new_key(&n, "args.itm1", None).is_some());
    }

    fn registry() -> Registry {
        let mut r = Registry::default();
        r.tools.insert(
            "t".into(),
            ToolEntry {
                required_args: vec!["path".into(), "content".into()],
                writes: vec!["path".into()],
                tools_arg: Some("tools".into()),
                ..Default::default()
            },
        );
        r
    }

    #[test]
    fn a_new_argument_the_registry_does_not_name_is_found() {
        let r = registry();
        let n = call(&["path"]);
        assert_eq!(
            new_arg(&n, "args.zzz", Some(&r)),
            Some(NewArg::NotTaken {
                arg: "zzz".into(),
                tool: "t".into(),
                known: vec!["path".into(), "content".into(), "tools".into()],
            })
        );
        // Named by the entry, already on the node, or not an argument.
        assert_eq!(new_arg(&n, "args.content", Some(&r)), None);
        assert_eq!(new_arg(&n, "args.tools.0", Some(&r)), None);
        assert_eq!(new_arg(&n, "args.path.x", Some(&r)), None);
        assert_eq!(new_arg(&n, "replaySafe", Some(&r)), None);
        // Nothing to check against.
        assert!(matches!(
            new_arg(&n, "args.zzz", None),
            Some(NewArg::Unchecked { why, .. }) if why.contains("no registry")
        ));
        let mut other = call(&[]);
        other
            .definition
            .insert("tool".into(), Value::String("u".into()));
        assert!(matches!(
            new_arg(&other, "args.zzz", Some(&r)),
            Some(NewArg::Unchecked { why, .. }) if why.contains("no tool `u`")
        ));
        // A near miss of the tools argument is a typo.
        assert_eq!(
            new_key(&n, "args.tols", Some(&r)).unwrap().meant,
            "args.tools"
        );
    }

    #[test]
    fn a_new_phase_near_an_existing_one_gets_a_note() {
        let mut c = crate::check::testing::plan(vec![crate::check::testing::entry("s")], vec![]);
        c.nodes[0].phase = Some("fetch".into());
        assert!(
            new_phase(&c, Some("fetsh"), "x")
                .unwrap()
                .contains("did you mean the existing phase `fetch`")
        );
        assert_eq!(new_phase(&c, Some("fetch"), "x"), None);
        assert_eq!(new_phase(&c, Some("publish"), "x"), None);
        assert_eq!(new_phase(&c, None, "x"), None);
        // Renaming the phase of its only node is not a typo of itself.
        assert_eq!(new_phase(&c, Some("fetsh"), "s"), None);
    }
}
