//! Fixes worded for a terminal: each remedy as the `planforge …` command line
//! that carries it out, ready to paste into a POSIX shell.

use crate::model::Value;
use crate::model::remedy::{Fill, Pick, Remedy, Voice};

/// Words remedies as command lines. `plan`: the plan they apply to when it
/// is not the session's current one (then `-p PLAN` is added).
#[derive(Debug, Clone, Default)]
pub(crate) struct CliVoice {
    pub(crate) plan: Option<String>,
}

impl CliVoice {
    /// The voice for remedies about `plan`, as seen from a session whose
    /// current plan is `current`.
    pub(crate) fn about(plan: &str, current: Option<&str>) -> CliVoice {
        CliVoice {
            plan: (current != Some(plan)).then(|| plan.to_string()),
        }
    }

    /// An edge disconnected, then connected again from `from` to `to` (already worded).
    fn reconnect(&self, edge: &str, from: &str, to: &str, handle: &str) -> String {
        let first = self.on_plan(format!("planforge disconnect {}", quote(edge)));
        let then = format!(
            "planforge connect {} {to} --handle {}",
            quote(from),
            quote(handle)
        );
        format!("{first} && {}", self.on_plan(then))
    }

    fn on_plan(&self, mut cmd: String) -> String {
        if let Some(p) = &self.plan {
            cmd.push_str(" -p ");
            cmd.push_str(&quote(p));
        }
        cmd
    }
}

/// The `planforge registry add` line that adds `tool` as the registry
/// `planforge init` writes has it (a store initialised before the tool was
/// there lacks it); `None` for a tool init's registry does not know.
fn registry_add(tool: &str) -> Option<String> {
    use crate::model::registry::Returns;
    let reg = crate::forge::templates::default_registry().ok()?;
    let e = reg.tool(tool)?;
    let mut cmd = format!("planforge registry add {}", quote(tool));
    let returns = match e.returns.as_ref()? {
        Returns::Text => "text".to_string(),
        Returns::Bytes => "bytes".to_string(),
        Returns::Media => "media".to_string(),
        Returns::Artifact { class } => format!("artifact:{class}"),
    };
    cmd.push_str(&format!(" --returns {}", quote(&returns)));
    if let Some(s) = &e.summary {
        cmd.push_str(&format!(" --summary {}", quote(s)));
    }
    for a in &e.required_args {
        cmd.push_str(&format!(" --required-arg {}", quote(a)));
    }
    if e.spawns_agent {
        cmd.push_str(" --spawns-agent");
    }
    if let Some(t) = &e.tools_arg {
        cmd.push_str(&format!(" --tools-arg {}", quote(t)));
    }
    for w in &e.writes {
        cmd.push_str(&format!(" --writes {}", quote(w)));
    }
    Some(cmd)
}

/// One shell word: as is when it needs no quoting, else single-quoted.
pub(crate) fn quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(c, '_' | '-' | '.' | '/' | ':' | '@' | '%' | '+' | '=' | ',')
        });
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

fn pick(p: &Pick) -> String {
    match p {
        Pick::Id(id) => quote(id),
        Pick::Any(what) => format!("<{what}>"),
    }
}

fn value(v: &Fill) -> String {
    match v {
        Fill::Value(v) => quote(&crate::wire::shorthand::text(v)),
        Fill::Choose(what) => placeholder(what),
    }
}

/// `VALUE` stays as it is; a description becomes `<a literal or a reference>`.
fn placeholder(what: &str) -> String {
    if what.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
        what.to_string()
    } else {
        format!("<{what}>")
    }
}

fn phase(p: &Option<Fill>) -> String {
    match p {
        None => "--clear".into(),
        Some(Fill::Value(Value::String(s))) => quote(s),
        Some(f) => value(f),
    }
}

impl Voice for CliVoice {
    fn say(&self, r: &Remedy) -> String {
        let cmd = match r {
            Remedy::SetField {
                node,
                path,
                value: v,
            } => format!("planforge set {} {} {}", quote(node), quote(path), value(v)),
            // A key the registry does not name is refused unless `--add`
            // says it is meant.
            Remedy::AddField {
                node,
                path,
                value: v,
            } => {
                let v = value(v);
                // A value that reads as a flag goes after `--`.
                let tail = if v.starts_with('-') && v.parse::<f64>().is_err() {
                    format!("--add -- {v}")
                } else {
                    format!("{v} --add")
                };
                format!("planforge set {} {} {tail}", quote(node), quote(path))
            }
            Remedy::SetPhase { node, phase: p } => {
                format!("planforge phase {} {}", quote(node), phase(p))
            }
            Remedy::SetDefinition { node } => format!("planforge edit {}", quote(node)),
            Remedy::Connect { from, to, handle } => {
                let mut c = format!("planforge connect {} {}", pick(from), pick(to));
                if let Some(h) = handle {
                    c.push_str(&format!(" --handle {}", quote(h)));
                }
                c
            }
            Remedy::Disconnect { edge } => format!("planforge disconnect {}", quote(edge)),
            Remedy::ChangeHandle {
                edge,
                from,
                to,
                handle,
            } => return self.reconnect(edge, from, &quote(to), handle),
            Remedy::Retarget {
                edge,
                from,
                to,
                handle,
            } => return self.reconnect(edge, from, &pick(to), handle),
            Remedy::RemoveNode { node } => format!("planforge remove-node {}", quote(node)),
            Remedy::AddNode { id, kind } => format!(
                "planforge add-node {} --kind {}",
                id.as_deref().map(quote).unwrap_or_else(|| "ID".into()),
                kind.map(|k| k.as_str()).unwrap_or("KIND")
            ),
            Remedy::SetBound { bound, value } => {
                let flag: String = bound
                    .key()
                    .chars()
                    .flat_map(|c| {
                        if c.is_ascii_uppercase() {
                            vec!['-', c.to_ascii_lowercase()]
                        } else {
                            vec![c]
                        }
                    })
                    .collect();
                format!("planforge bounds --{flag} {value}")
            }
            Remedy::Freeze => "planforge freeze".into(),
            Remedy::Submit => "planforge submit".into(),
            Remedy::Unfreeze => "planforge unfreeze".into(),
            Remedy::Clone => "planforge clone plan-<new-name>".into(),
            Remedy::Outline => "planforge outline".into(),
            Remedy::ReadNode { node } => format!("planforge read --node {}", quote(node)),
            Remedy::ReadPhase { phase } => format!("planforge read --phase {}", quote(phase)),
            Remedy::Status => "planforge status".into(),
            Remedy::Validate => "planforge validate".into(),
            // The command draws every finding unless told otherwise.
            Remedy::ValidateWithin { .. } => "planforge validate".into(),
            Remedy::Explain { code } => return format!("planforge explain {}", quote(code)),
            Remedy::ListTemplates => return "planforge templates".into(),
            Remedy::Author => return "planforge author \"<the owner's request>\"".into(),
            Remedy::CreatePlan => return "planforge create plan-<name>".into(),
            Remedy::RegisterTool { tool, field } => {
                use crate::model::remedy::RegistryField as F;
                // `--returns` is required, so every example gives it.
                let example = match field {
                    None | Some(F::Returns) => "",
                    Some(F::Summary) => " --summary \"One line saying what it does\"",
                    Some(F::RequiredArg) => " --required-arg path",
                    Some(F::Writes) => " --writes path",
                    Some(F::ToolsArg) => " --spawns-agent --tools-arg tools",
                };
                return format!(
                    "planforge registry add {} --returns text{example}",
                    quote(tool)
                );
            }
            Remedy::AddToRegistry { tool } => {
                return registry_add(tool)
                    .unwrap_or_else(|| crate::render::voice::add_to_registry(tool));
            }
        };
        self.on_plan(cmd)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::remedy::Bound;
    use crate::model::{NodeKind, Ref};

    #[test]
    fn remedies_read_as_command_lines() {
        let v = CliVoice::default();
        // A key the registry does not name: `--add` says it is meant, after
        // the value, or before `--` when the value reads as a flag.
        let add = |value| Remedy::AddField {
            node: "s".into(),
            path: "args.noSpawn".into(),
            value,
        };
        assert_eq!(
            v.say(&add(Fill::Value(Value::Bool(true)))),
            "planforge set s args.noSpawn true --add"
        );
        assert_eq!(
            v.say(&add(Fill::Value(Value::from("--x")))),
            "planforge set s args.noSpawn --add -- --x"
        );
        let set = |value| Remedy::SetField {
            node: "pay".into(),
            path: "replaySafe".into(),
            value,
        };
        assert_eq!(
            v.say(&set(Fill::Value(Value::Bool(true)))),
            "planforge set pay replaySafe true"
        );
        assert_eq!(
            v.say(&set(Fill::choose("VALUE"))),
            "planforge set pay replaySafe VALUE"
        );
        let mut r = Ref::new("fetch");
        r.select = crate::model::Select::Last;
        r.path = Some("body".into());
        assert_eq!(
            v.say(&set(Fill::Value(Value::Ref(Box::new(r))))),
            "planforge set pay replaySafe '@fetch[last].body'"
        );
        assert_eq!(
            v.say(&set(Fill::Value(Value::String("two words".into())))),
            "planforge set pay replaySafe 'two words'"
        );
        assert_eq!(
            v.say(&Remedy::Connect {
                from: Pick::any("a step before it"),
                to: Pick::id("n"),
                handle: None
            }),
            "planforge connect <a step before it> n"
        );
        assert_eq!(
            v.say(&Remedy::SetBound {
                bound: Bound::MaxEncodedBytes,
                value: 9
            }),
            "planforge bounds --max-encoded-bytes 9"
        );
        assert_eq!(
            v.say(&Remedy::AddNode {
                id: Some("start".into()),
                kind: Some(NodeKind::Entry)
            }),
            "planforge add-node start --kind entry"
        );
        // A moved edge: one line that removes it and connects in its place.
        assert_eq!(
            CliVoice::about("plan-b", Some("plan-a")).say(&Remedy::Retarget {
                edge: "verified__landing".into(),
                from: "verified".into(),
                to: Pick::id("landing"),
                handle: "case_some".into(),
            }),
            "planforge disconnect verified__landing -p plan-b && planforge connect verified landing --handle case_some -p plan-b"
        );
        let other = CliVoice::about("plan-b", Some("plan-a"));
        assert_eq!(other.say(&Remedy::Unfreeze), "planforge unfreeze -p plan-b");
        assert_eq!(
            CliVoice::about("plan-a", Some("plan-a")).say(&Remedy::Unfreeze),
            "planforge unfreeze"
        );
        assert_eq!(quote("it's"), "'it'\\''s'");
    }
}
