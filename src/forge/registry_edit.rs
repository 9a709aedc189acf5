//! `registry list|show|add`: the store's registry read, and a tool added
//! to `registry.yaml` as text, so that its comments and layout stay. The new
//! text is parsed back and must hold exactly the entry asked for before it
//! replaces the file (atomically); a refusal writes nothing.

use super::Forge;
use crate::model::error::{Error, ErrorKind, Result};
use crate::model::registry::{Registry, Returns, ToolEntry};
use crate::model::remedy::{RegistryField, Remedy};
use std::path::PathBuf;

/// A tool to add.
#[derive(Debug, Clone)]
pub(crate) struct NewTool {
    pub(crate) name: String,
    pub(crate) entry: ToolEntry,
}

/// `returns` as the registry writes it: text, bytes, media, or
/// `artifact:CLASS`.
pub(crate) fn parse_returns(tool: &str, text: &str) -> Result<Returns> {
    match text {
        "text" => Ok(Returns::Text),
        "bytes" => Ok(Returns::Bytes),
        "media" => Ok(Returns::Media),
        t => match t.strip_prefix("artifact:") {
            Some(c) if !c.is_empty() && crate::model::ids::is_valid_edge_id(c) => {
                Ok(Returns::Artifact {
                    class: c.to_string(),
                })
            }
            _ => Err(Error::invalid(format!(
                "`returns` {t:?} of `{}` is not text, bytes, media or artifact:CLASS; nothing was written",
                crate::model::ids::quote_id(tool)
            ))
            .with_help("artifact:CLASS names a class the registry declares, such as artifact:document")
            .fix_if(
                crate::model::ids::is_valid_node_id(tool),
                Remedy::RegisterTool {
                    tool: tool.to_string(),
                    field: Some(RegistryField::Returns),
                },
            )),
        },
    }
}

/// `name` made a tool name: lowercase, every other character `_`, at most
/// 64 characters.
fn valid_name(name: &str) -> String {
    name.chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect()
}

fn yaml_list(items: &[String]) -> String {
    let q: Vec<String> = items
        .iter()
        .map(|s| crate::wire::json::compact(&crate::model::Value::from(s.as_str())))
        .collect();
    format!("[{}]", q.join(", "))
}

/// The YAML lines of one tool entry, indented under `tools:`.
fn entry_text(t: &NewTool) -> String {
    let e = &t.entry;
    let mut out = format!("  {}:\n", t.name);
    if let Some(s) = &e.summary {
        out.push_str(&format!(
            "    summary: {}\n",
            crate::wire::json::compact(&crate::model::Value::from(s.as_str()))
        ));
    }
    match &e.returns {
        Some(Returns::Artifact { class }) => out.push_str(&format!(
            "    returns: {{kind: artifact, class: {class}}}\n"
        )),
        Some(r) => out.push_str(&format!("    returns: {}\n", r.describe())),
        None => {}
    }
    if !e.required_args.is_empty() {
        out.push_str(&format!(
            "    requiredArgs: {}\n",
            yaml_list(&e.required_args)
        ));
    }
    if e.spawns_agent {
        out.push_str("    spawnsAgent: true\n");
    }
    if let Some(a) = &e.tools_arg {
        out.push_str(&format!("    toolsArg: {a}\n"));
    }
    if !e.writes.is_empty() {
        out.push_str(&format!("    writes: {}\n", yaml_list(&e.writes)));
    }
    out
}

/// `text` with `entry` added at the end of its top-level `tools:` block.
fn inserted(text: &str, entry: &str) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let at = lines.iter().position(|l| {
        let t = l.trim_end();
        t == "tools:" || t == "tools: {}" || t.starts_with("tools: #") || t.starts_with("tools:  #")
    })?;
    let mut out = String::new();
    for l in &lines[..at] {
        out.push_str(l);
    }
    out.push_str("tools:\n");
    // The block runs until the next line that is not indented, blank or a
    // comment; trailing comments and blanks belong to what follows.
    let mut end = at + 1;
    let mut last_body = at;
    while end < lines.len() {
        let l = lines[end];
        let t = l.trim();
        if !(t.is_empty() || t.starts_with('#')) {
            if !l.starts_with(' ') {
                break;
            }
            last_body = end;
        }
        end += 1;
    }
    for l in &lines[at + 1..=last_body] {
        out.push_str(l);
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(entry);
    for l in &lines[last_body + 1..] {
        out.push_str(l);
    }
    Some(out)
}

/// The most characters a summary may have (one line of `registry list`).
const MAX_SUMMARY: usize = 200;

/// Whether `a` can name a call argument: a letter, then letters, digits and
/// `_`, at most 64 (`forbiddenWrites` as the init registry has it).
fn is_arg_name(a: &str) -> bool {
    let mut c = a.chars();
    a.len() <= 64
        && c.next().is_some_and(|f| f.is_ascii_alphabetic())
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// Refuses values `registry add` would write but no one could use: a
/// summary that is empty, too long or not one line, an argument name that
/// is not one, an argument named twice, a tools argument on a tool that
/// spawns no agent.
fn check_values(t: &NewTool) -> Result<()> {
    let e = &t.entry;
    let name = &t.name;
    if let Some(s) = &e.summary {
        let bad = if s.trim().is_empty() {
            Some("is empty".to_string())
        } else if s.chars().any(char::is_control) {
            Some("is not one line of text (it holds a newline or a control character)".to_string())
        } else if s.chars().count() > MAX_SUMMARY {
            Some(format!(
                "has {} characters, more than {MAX_SUMMARY}",
                s.chars().count()
            ))
        } else {
            None
        };
        if let Some(bad) = bad {
            return Err(Error::invalid(format!(
                "the summary of `{name}` {bad}; nothing was written"
            ))
            .with_help("a summary is one line of text")
            .fix(Remedy::RegisterTool {
                tool: name.clone(),
                field: Some(RegistryField::Summary),
            }));
        }
    }
    let fix = |field| Remedy::RegisterTool {
        tool: name.clone(),
        field: Some(field),
    };
    let flags = [
        (RegistryField::RequiredArg, &e.required_args),
        (RegistryField::Writes, &e.writes),
    ];
    let tools_arg: Vec<String> = e.tools_arg.iter().cloned().collect();
    for (field, list) in flags
        .iter()
        .copied()
        .chain([(RegistryField::ToolsArg, &tools_arg)])
    {
        let key = field.key();
        for (i, a) in list.iter().enumerate() {
            if !is_arg_name(a) {
                return Err(Error::invalid(format!(
                    "`{key}` {} of `{name}` is not an argument name: a letter, then letters, digits and `_` (at most 64); nothing was written",
                    crate::wire::json::compact(&crate::model::Value::from(a.as_str()))
                ))
                .fix(fix(field)));
            }
            if list[..i].contains(a) {
                return Err(Error::invalid(format!(
                    "`{key}` `{a}` is given twice for `{name}`; nothing was written"
                ))
                .with_help(format!("give `{a}` once"))
                .fix(fix(field)));
            }
        }
    }
    if e.tools_arg.is_some() && !e.spawns_agent {
        return Err(Error::invalid(format!(
            "`toolsArg` names the argument listing a spawned subagent's tools, but `{name}` spawns no agent; nothing was written"
        ))
        .with_help("a tool that does not spawn an agent has no tools argument: leave it out")
        .fix(fix(RegistryField::ToolsArg)));
    }
    Ok(())
}

impl Forge {
    /// The store's registry and its file.
    pub(crate) fn registry_file(&self) -> Result<(PathBuf, Registry)> {
        let path = self.store().registry_path()?.ok_or_else(|| {
            Error::new(
                ErrorKind::NoStore,
                format!(
                    "the store {} has no registry",
                    self.store().root().display()
                ),
            )
        })?;
        Ok((path.clone(), Registry::load(&path, true)?))
    }

    /// Adds a tool to `registry.yaml`. Refuses a tool that is there, a bad
    /// name, and a registry this edit cannot keep whole (JSON, or no
    /// block-style `tools:`); nothing is written then.
    pub(crate) fn registry_add(&self, t: &NewTool) -> Result<(PathBuf, Registry)> {
        if !crate::model::ids::is_valid_node_id(&t.name) {
            return Err(Error::invalid(format!(
                "`{}` is not a tool name: lowercase letters, digits and `_`; nothing was written",
                crate::model::ids::quote_id(&t.name)
            ))
            .with_help("a tool name is lowercase letters, digits and `_`, like fetch_page")
            .fix_if(
                crate::model::ids::is_valid_node_id(&valid_name(&t.name)),
                Remedy::RegisterTool {
                    tool: valid_name(&t.name),
                    field: None,
                },
            ));
        }
        check_values(t)?;
        // Read, change and write under the store's lock, so that concurrent
        // adds each see the one before and none is lost.
        let _guard = self.store().lock_store()?;
        let (path, reg) = self.registry_file()?;
        if reg.tools.contains_key(&t.name) {
            return Err(Error::new(
                ErrorKind::DuplicateId,
                format!(
                    "the registry {} already has the tool `{}`",
                    path.display(),
                    t.name
                ),
            )
            .with_help("edit its entry in the file to change it"));
        }
        if path.extension().is_some_and(|e| e == "json") {
            return Err(Error::invalid(format!(
                "the registry {} is JSON; adding a tool edits registry.yaml only, so add it to the file by hand",
                path.display()
            )));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io("read", &path, &e))?;
        let new = inserted(&text, &entry_text(t)).ok_or_else(|| {
            Error::invalid(format!(
                "the registry {} has no block-style `tools:` line to add under; add the tool to the file by hand",
                path.display()
            ))
        })?;
        let parsed = Registry::parse(
            &new,
            crate::wire::parse::Syntax::Yaml,
            &path.display().to_string(),
        )
        .map_err(|(m, p)| {
            Error::invalid(format!(
                "the registry would not read with `{}` added ({m} at {p}); nothing was written",
                t.name
            ))
        })?;
        let mut want = reg.tools.clone();
        want.insert(t.name.clone(), t.entry.clone());
        if parsed.tools != want {
            return Err(Error::internal(format!(
                "the registry with `{}` added does not read back as the same tools; nothing was written",
                t.name
            )));
        }
        crate::store::atomic::write_atomic(&path, new.as_bytes())?;
        Ok((path, parsed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_goes_at_the_end_of_the_tools_block_and_comments_stay() {
        let text = "# head\ntools:\n  # a comment\n  a:\n    returns: text\n\n# classes\nartifactClasses: {}\n";
        let t = NewTool {
            name: "b".into(),
            entry: ToolEntry {
                summary: Some("Say \"hi\"".into()),
                returns: Some(Returns::Artifact {
                    class: "doc".into(),
                }),
                required_args: vec!["url".into()],
                ..ToolEntry::default()
            },
        };
        let out = inserted(text, &entry_text(&t)).unwrap();
        assert_eq!(
            out,
            "# head\ntools:\n  # a comment\n  a:\n    returns: text\n  b:\n    summary: \"Say \\\"hi\\\"\"\n    returns: {kind: artifact, class: doc}\n    requiredArgs: [\"url\"]\n\n# classes\nartifactClasses: {}\n"
        );
        assert!(
            inserted("tools: {}\n", "  x:\n    returns: text\n")
                .unwrap()
                .starts_with("tools:\n  x:")
        );
        assert_eq!(inserted("tools: [1]\n", "x"), None);
    }

    fn tool(name: &str, entry: ToolEntry) -> NewTool {
        NewTool {
            name: name.into(),
            entry,
        }
    }

    fn only_fix(e: &Error) -> &Remedy {
        assert_eq!(e.fixes.len(), 1, "{e:?}");
        assert!(
            e.help
                .as_deref()
                .is_none_or(|h| !h.contains("planforge") && !h.contains("--")),
            "{e:?}"
        );
        &e.fixes[0].remedy
    }

    #[test]
    fn refusals_give_the_entry_field_to_set_as_a_fix() {
        let reg = |tool: &str, field| Remedy::RegisterTool {
            tool: tool.into(),
            field,
        };
        let e = check_values(&tool(
            "fetch",
            ToolEntry {
                summary: Some("two\nlines".into()),
                ..ToolEntry::default()
            },
        ))
        .unwrap_err();
        assert!(e.message.contains("the summary of `fetch`"), "{e:?}");
        assert_eq!(only_fix(&e), &reg("fetch", Some(RegistryField::Summary)));
        let e = check_values(&tool(
            "fetch",
            ToolEntry {
                writes: vec!["9x".into()],
                ..ToolEntry::default()
            },
        ))
        .unwrap_err();
        assert_eq!(only_fix(&e), &reg("fetch", Some(RegistryField::Writes)));
        let e = check_values(&tool(
            "fetch",
            ToolEntry {
                required_args: vec!["url".into(), "url".into()],
                ..ToolEntry::default()
            },
        ))
        .unwrap_err();
        assert!(
            e.message.contains("`requiredArgs` `url` is given twice"),
            "{e:?}"
        );
        assert_eq!(
            only_fix(&e),
            &reg("fetch", Some(RegistryField::RequiredArg))
        );
        let e = check_values(&tool(
            "fetch",
            ToolEntry {
                tools_arg: Some("tools".into()),
                ..ToolEntry::default()
            },
        ))
        .unwrap_err();
        assert_eq!(only_fix(&e), &reg("fetch", Some(RegistryField::ToolsArg)));
        let e = parse_returns("fetch", "artifact:").unwrap_err();
        assert_eq!(only_fix(&e), &reg("fetch", Some(RegistryField::Returns)));
        // Near miss: a good entry passes, and a bad returns of a bad name
        // gives no command for a name that cannot be added.
        assert!(check_values(&tool("fetch", ToolEntry::default())).is_ok());
        assert!(
            parse_returns("Bad Name", "nope")
                .unwrap_err()
                .fixes
                .is_empty()
        );
        assert_eq!(valid_name("Fetch Page"), "fetch_page");
    }
}
