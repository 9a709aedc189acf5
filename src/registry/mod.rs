//! The registry (SPEC §6): the invocable allowlist and its metadata.

use crate::model::error::Error;
use crate::model::error::ErrorKind;
use crate::model::error::Result;
use crate::model::registry::{
    ArgType, ArtifactClass, Registry, Returns, StepArg, StepDef, ToolEntry,
};
use crate::model::value::Value;
use crate::wire::parse::{MAX_INPUT_BYTES, Syntax};
use std::path::Path;

/// The last registry read in this process, kept with the text it was
/// parsed from (issue 17): a long-lived session (the REPL, `planforge mcp`)
/// reads the file on every call, so that an edit applies at once, and
/// parses it again only when its text (or its name or syntax) changed.
/// Keyed by the whole text, it can never answer for another registry.
mod parsed {
    use super::{Registry, Syntax};
    use std::sync::Mutex;

    static LAST: Mutex<Option<(Syntax, String, Registry)>> = Mutex::new(None);

    /// The registry parsed from `text` as `syntax`, read from `source`,
    /// when it is the one kept.
    pub(super) fn get(source: &str, syntax: Syntax, text: &str) -> Option<Registry> {
        let last = LAST.lock().unwrap_or_else(|p| p.into_inner());
        match &*last {
            Some((s, t, reg)) if *s == syntax && t == text && reg.source == source => {
                Some(reg.clone())
            }
            _ => None,
        }
    }

    /// Keeps `reg`, parsed from `text` as `syntax`.
    pub(super) fn keep(syntax: Syntax, text: &str, reg: &Registry) {
        let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
        *last = Some((syntax, text.to_string(), reg.clone()));
    }
}

/// A registry file's text, read up to [`MAX_INPUT_BYTES`] (a pipe such as
/// `--registry <(…)` is read too; `/dev/zero` is refused once past the
/// bound instead of read without end).
pub(crate) fn read_bounded(path: &Path) -> std::result::Result<String, String> {
    read_at_most(path, MAX_INPUT_BYTES)
}

/// [`read_bounded`] with the bound `max` (bytes): why not, as a clause.
fn read_at_most(path: &Path, max: u64) -> std::result::Result<String, String> {
    use crate::wire::parse::{Unread, read_text_within};
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let hint = file.metadata().map_or(0, |m| m.len());
    read_text_within(&file, hint, max).map_err(|why| match why {
        Unread::Io(e) => e.to_string(),
        Unread::TooLarge if max >= 1024 * 1024 => format!(
            "it is larger than {} MiB, more than any registry planforge reads",
            max / (1024 * 1024)
        ),
        Unread::TooLarge => {
            format!("it is larger than {max} bytes, more than any registry planforge reads")
        }
        Unread::NotUtf8(at) => format!("it is not UTF-8 text (first bad byte at offset {at})"),
    })
}

/// The commented registry `planforge init` writes.
pub(crate) const DEFAULT_REGISTRY_YAML: &str = include_str!("default.yaml");

impl Registry {
    /// Reads a registry file. `store` says whether it is the store's own
    /// registry (a defect is then exit 3) or one named with `--registry`
    /// (exit 2).
    pub(crate) fn load(path: &Path, store: bool) -> Result<Registry> {
        let kind = if store {
            ErrorKind::CorruptStore
        } else {
            ErrorKind::InvalidInput
        };
        let text = read_bounded(path).map_err(|why| {
            Error::new(
                kind,
                format!("could not read the registry {}: {why}", path.display()),
            )
        })?;
        let syntax =
            Syntax::from_path(&path.to_string_lossy()).unwrap_or_else(|| Syntax::sniff(&text));
        let source = path.display().to_string();
        if let Some(reg) = parsed::get(&source, syntax, &text) {
            return Ok(reg);
        }
        let parsed = Registry::parse(&text, syntax, &source);
        if let Ok(reg) = &parsed {
            parsed::keep(syntax, &text, reg);
        }
        parsed.map_err(|(msg, ptr)| {
            Error::new(
                kind,
                format!(
                    "the registry {} is malformed at {}: {msg}",
                    path.display(),
                    if ptr.is_empty() {
                        "its root".to_string()
                    } else {
                        ptr
                    }
                ),
            )
            .with_help(
                "fix the registry file (a store's first registry is a commented example of every field)",
            )
        })
    }

    /// Parses registry text; errors carry a message and a JSON pointer.
    pub fn parse(
        text: &str,
        syntax: Syntax,
        source: &str,
    ) -> std::result::Result<Registry, (String, String)> {
        let v = crate::wire::parse::parse(text, syntax)
            .map_err(|e| (e.message, e.pointer.unwrap_or_default()))?;
        let root = obj(&v, "")?;
        closed(root, "", &["tools", "artifactClasses", "evaluators"])?;
        let mut reg = Registry {
            source: source.to_string(),
            fingerprint: crate::model::hash::hex_sha256(text.as_bytes()),
            ..Registry::default()
        };
        if let Some(t) = root.get("tools") {
            for (name, entry) in obj(t, "/tools")? {
                let at = format!("/tools/{name}");
                reg.tools.insert(name.to_string(), tool_entry(entry, &at)?);
            }
        }
        if let Some(c) = root.get("artifactClasses") {
            for (name, class) in obj(c, "/artifactClasses")? {
                let at = format!("/artifactClasses/{name}");
                reg.artifact_classes
                    .insert(name.to_string(), artifact_class(class, &at)?);
            }
        }
        if let Some(e) = root.get("evaluators") {
            let arr = e.as_array().ok_or((
                "`evaluators` must be a list of evaluator ids".to_string(),
                "/evaluators".to_string(),
            ))?;
            for (i, id) in arr.iter().enumerate() {
                let id = id.as_str().ok_or((
                    format!("evaluator {i} must be a string"),
                    format!("/evaluators/{i}"),
                ))?;
                reg.evaluators.push(id.to_string());
            }
        }
        for (name, entry) in &reg.tools {
            if let Some(Returns::Artifact { class }) = &entry.returns
                && !reg.artifact_classes.contains_key(class)
            {
                return Err((
                    format!(
                        "tool `{name}` returns the artifact class `{class}`, which artifactClasses does not define"
                    ),
                    format!("/tools/{name}/returns/class"),
                ));
            }
        }
        for (name, class) in &reg.artifact_classes {
            if let Some(parent) = &class.extends {
                if !reg.artifact_classes.contains_key(parent) {
                    return Err((
                        format!("class `{name}` extends `{parent}`, which is not defined"),
                        format!("/artifactClasses/{name}/extends"),
                    ));
                }
                let mut cur = Some(parent.clone());
                let mut steps = 0;
                while let Some(c) = cur {
                    if c == *name || steps > reg.artifact_classes.len() {
                        return Err((
                            format!(
                                "class `{name}` extends itself through its parents; `extends` must not loop"
                            ),
                            format!("/artifactClasses/{name}/extends"),
                        ));
                    }
                    steps += 1;
                    cur = reg.artifact_classes.get(&c).and_then(|k| k.extends.clone());
                }
            }
        }
        Ok(reg)
    }
}

type PResult<T> = std::result::Result<T, (String, String)>;

fn obj<'v>(v: &'v Value, at: &str) -> PResult<&'v crate::model::Map> {
    v.as_object().ok_or_else(|| {
        (
            format!("expected a mapping, found {}", v.type_name()),
            at.to_string(),
        )
    })
}

fn closed(m: &crate::model::Map, at: &str, allowed: &[&str]) -> PResult<()> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            let hint = crate::model::suggest::did_you_mean(k, allowed.iter().copied());
            return Err((
                format!("unknown key `{k}`{hint}; allowed: {}", allowed.join(", ")),
                format!("{at}/{k}"),
            ));
        }
    }
    Ok(())
}

fn string_list(v: &Value, at: &str) -> PResult<Vec<String>> {
    let arr = v
        .as_array()
        .ok_or_else(|| ("expected a list of strings".to_string(), at.to_string()))?;
    arr.iter()
        .enumerate()
        .map(|(i, s)| {
            s.as_str()
                .map(str::to_string)
                .ok_or_else(|| ("expected a string".to_string(), format!("{at}/{i}")))
        })
        .collect()
}

fn tool_entry(v: &Value, at: &str) -> PResult<ToolEntry> {
    let m = obj(v, at)?;
    closed(
        m,
        at,
        &[
            "summary",
            "returns",
            "requiredArgs",
            "spawnsAgent",
            "toolsArg",
            "writes",
        ],
    )?;
    let mut e = ToolEntry::default();
    if let Some(s) = m.get("summary") {
        e.summary = Some(
            s.as_str()
                .ok_or((
                    "`summary` must be a string".to_string(),
                    format!("{at}/summary"),
                ))?
                .to_string(),
        );
    }
    if let Some(r) = m.get("returns") {
        let rat = format!("{at}/returns");
        e.returns = Some(match r {
            Value::String(s) => match s.as_str() {
                "text" => Returns::Text,
                "bytes" => Returns::Bytes,
                "media" => Returns::Media,
                other => {
                    return Err((
                        format!(
                            "`returns: {other}` is unknown; use text, bytes, media or {{kind: artifact, class: <class>}}"
                        ),
                        rat,
                    ));
                }
            },
            Value::Object(rm) => {
                closed(rm, &rat, &["kind", "class"])?;
                if rm.get("kind").and_then(Value::as_str) != Some("artifact") {
                    return Err((
                        "an object `returns` must be {kind: artifact, class: <class>}".to_string(),
                        format!("{rat}/kind"),
                    ));
                }
                let class = rm.get("class").and_then(Value::as_str).ok_or((
                    "an artifact return needs `class`".to_string(),
                    format!("{rat}/class"),
                ))?;
                Returns::Artifact {
                    class: class.to_string(),
                }
            }
            _ => {
                return Err((
                    "`returns` must be text, bytes, media or {kind: artifact, class}".to_string(),
                    rat,
                ));
            }
        });
    }
    if let Some(r) = m.get("requiredArgs") {
        e.required_args = string_list(r, &format!("{at}/requiredArgs"))?;
    }
    if let Some(s) = m.get("spawnsAgent") {
        e.spawns_agent = s.as_bool().ok_or((
            "`spawnsAgent` must be true or false".to_string(),
            format!("{at}/spawnsAgent"),
        ))?;
    }
    if let Some(t) = m.get("toolsArg") {
        e.tools_arg = Some(
            t.as_str()
                .ok_or((
                    "`toolsArg` must be an arg name".to_string(),
                    format!("{at}/toolsArg"),
                ))?
                .to_string(),
        );
    }
    if let Some(w) = m.get("writes") {
        e.writes = string_list(w, &format!("{at}/writes"))?;
    }
    Ok(e)
}

fn artifact_class(v: &Value, at: &str) -> PResult<ArtifactClass> {
    let m = obj(v, at)?;
    closed(m, at, &["extends", "steps"])?;
    let mut c = ArtifactClass::default();
    if let Some(x) = m.get("extends") {
        c.extends = Some(
            x.as_str()
                .ok_or((
                    "`extends` must be a class name".to_string(),
                    format!("{at}/extends"),
                ))?
                .to_string(),
        );
    }
    if let Some(steps) = m.get("steps") {
        for (name, step) in obj(steps, &format!("{at}/steps"))? {
            let sat = format!("{at}/steps/{name}");
            let sm = obj(step, &sat)?;
            closed(sm, &sat, &["args"])?;
            let mut def = StepDef::default();
            if let Some(args) = sm.get("args") {
                for (an, ty) in obj(args, &format!("{sat}/args"))? {
                    let (name, optional) = match an.strip_suffix('?') {
                        Some(n) => (n.to_string(), true),
                        None => (an.to_string(), false),
                    };
                    let ty = match ty.as_str() {
                        Some("string") => ArgType::String,
                        Some("number") => ArgType::Number,
                        Some("integer") => ArgType::Integer,
                        Some("boolean") => ArgType::Boolean,
                        _ => {
                            return Err((
                                "a step arg type is string, number, integer or boolean".to_string(),
                                format!("{sat}/args/{an}"),
                            ));
                        }
                    };
                    def.args.push(StepArg { name, ty, optional });
                }
            }
            c.steps.insert(name.to_string(), def);
        }
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A registry is read up to a bound (so `/dev/zero` ends in a refusal,
    /// not a read without end) and must be UTF-8; the near miss, a file at
    /// the bound, reads whole.
    #[test]
    fn a_registry_is_read_up_to_a_bound_and_as_utf8() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("registry.yaml");
        std::fs::write(&p, "tools: {}\n").unwrap();
        assert_eq!(read_at_most(&p, 10).unwrap(), "tools: {}\n");
        let why = read_at_most(&p, 9).unwrap_err();
        assert!(why.contains("larger than 9 bytes"), "{why}");
        std::fs::write(&p, b"tools: \xff\n").unwrap();
        let why = read_bounded(&p).unwrap_err();
        assert!(
            why.contains("not UTF-8 text (first bad byte at offset 7)"),
            "{why}"
        );
        let err = Registry::load(&p, false).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{err}");
    }

    #[test]
    fn default_registry_parses() {
        let r = Registry::parse(DEFAULT_REGISTRY_YAML, Syntax::Yaml, "default").unwrap();
        for t in [
            "spawn_subagent",
            "read_artifact",
            "accept_assignment",
            "write_synthesis",
            "report_failure",
        ] {
            assert!(r.tool(t).is_some(), "{t}");
        }
        assert!(r.tool("spawn_subagent").unwrap().spawns_agent);
        let steps = r.class_steps("json_document");
        assert!(steps.contains_key("artifact_head") && steps.contains_key("artifact_json_get"));
    }

    /// A registry read again is parsed again only when its text changed:
    /// an edit (even one of the same length), and a file made malformed,
    /// are seen on the next read.
    #[test]
    fn a_registry_read_again_follows_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("registry.yaml");
        std::fs::write(&path, "tools: {aa: {returns: text}}\n").unwrap();
        let first = Registry::load(&path, true).unwrap();
        assert!(first.tool("aa").is_some());
        assert_eq!(Registry::load(&path, true).unwrap(), first);
        std::fs::write(&path, "tools: {bb: {returns: text}}\n").unwrap();
        let second = Registry::load(&path, true).unwrap();
        assert!(second.tool("bb").is_some() && second.tool("aa").is_none());
        assert_ne!(second.fingerprint, first.fingerprint);
        std::fs::write(&path, "tools: {bb: {retruns: text}}\n").unwrap();
        assert!(Registry::load(&path, true).is_err());
        std::fs::write(&path, "tools: {aa: {returns: text}}\n").unwrap();
        assert_eq!(Registry::load(&path, true).unwrap(), first);
    }

    #[test]
    fn malformed_registries_name_the_key() {
        for (text, ptr) in [
            ("tools: {a: {returns: banana}}", "/tools/a/returns"),
            ("tools: {a: {retruns: text}}", "/tools/a/retruns"),
            (
                "artifactClasses: {a: {extends: b}, b: {extends: a}}",
                "/artifactClasses/a/extends",
            ),
            (
                "tools: {a: {returns: {kind: artifact, class: nope}}}",
                "/tools/a/returns/class",
            ),
        ] {
            let (_, p) = Registry::parse(text, Syntax::Yaml, "t").unwrap_err();
            assert_eq!(p, ptr, "{text}");
        }
    }
}
