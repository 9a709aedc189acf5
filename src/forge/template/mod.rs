//! Plan templates (SPEC §9): `{id, summary, params, nodes, edges, bounds?}`
//! whose definitions may hold holes (`Param`), in YAML or JSON.
//!
//! Templates come from the built-ins embedded in the binary (generated from
//! the orchestration emitter, see [`builtin`]) and from the store's
//! `templates/` folder, one file each, named after the template's id. Each
//! one is checked when it is loaded (`unknown_param`, `unknown_tool`,
//! `param_not_declassified`); a template with a blocking finding is refused.
//! Instantiation converts the args by their params' types (`invalid_args`)
//! and fills every hole.

pub(crate) mod builtin;
#[cfg(test)]
mod generate;

use crate::model::Issue;
use crate::model::registry::Registry;
use crate::model::{Bounds, Content, DeclaredField, Map, Node, Value};
use crate::wire::parse::{ParseError, Syntax};
use std::path::Path;

/// Where a template was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Embedded in the binary.
    Builtin,
    /// A file of the store's `templates/` folder (its name).
    Store(String),
}

impl Origin {
    /// `built-in` or `templates/<file>`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Origin::Builtin => "built-in".into(),
            Origin::Store(f) => format!("templates/{f}"),
        }
    }
}

/// A template, read and hydrated (holes are real `Param`s).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Template {
    pub(crate) id: String,
    pub(crate) summary: String,
    /// Declared params, in declared order (the order args are checked in).
    pub(crate) params: Vec<DeclaredField>,
    /// The nodes and edges (plan id = the template id; default bounds).
    pub(crate) content: Content,
    /// The bounds the template asks for (`None`: the defaults).
    pub(crate) bounds: Option<Bounds>,
    pub(crate) origin: Origin,
}

/// Reads a template document (see [`crate::wire::template::document`]).
pub(crate) fn parse(text: &str, syntax: Syntax, origin: Origin) -> Result<Template, ParseError> {
    let d = crate::wire::template::document(text, syntax)?;
    Ok(Template {
        id: d.id,
        summary: d.summary,
        params: d.params,
        content: d.content,
        bounds: d.bounds,
        origin,
    })
}

/// The template as a document value (wire form), keys in
/// [`TEMPLATE_KEYS`](crate::wire::template::TEMPLATE_KEYS) order.
#[cfg(test)]
pub(crate) fn to_json(t: &Template) -> serde_json::Value {
    crate::wire::template::document_json(
        &t.id,
        &t.summary,
        &t.params,
        &t.content,
        t.bounds.as_ref(),
    )
}

/// Every finding on a template, in catalogue order: `unknown_param`,
/// `unknown_tool` (when a registry is given), `param_not_declassified`.
pub(crate) fn check(t: &Template, registry: Option<&Registry>) -> Vec<Issue> {
    let mut out = Vec::new();
    crate::check::unknown_param::find(&t.content, &t.params, &mut out);
    if let Some(reg) = registry {
        let cx = crate::check::Cx::new(&t.content, Some(reg));
        crate::check::Check::run(&crate::check::unknown_tool::UnknownTool, &cx, &mut out);
    }
    crate::check::param_not_declassified::find(&t.content, &mut out);
    out
}

/// Fills every hole of the template's nodes with its param's value.
/// `args` must hold a value for every hole (see `invalid_args::convert_args`
/// and `unknown_param`); a hole without one is an internal error.
pub(crate) fn substitute(t: &Template, args: &Map) -> Result<Vec<Node>, String> {
    fn fill(v: &mut Value, args: &Map) -> Result<(), String> {
        match v {
            Value::Param(p) => match args.get(&p.path) {
                Some(x) => {
                    *v = x.clone();
                    Ok(())
                }
                None => Err(p.path.clone()),
            },
            Value::Array(items) => items.iter_mut().try_for_each(|x| fill(x, args)),
            Value::Object(m) => m.values_mut().try_for_each(|x| fill(x, args)),
            _ => Ok(()),
        }
    }
    let mut nodes = t.content.nodes.clone();
    for n in &mut nodes {
        for v in n.definition.values_mut() {
            fill(v, args)?;
        }
    }
    Ok(nodes)
}

/// A file of `templates/` that could not be read as a template.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Malformed {
    /// The file name.
    pub(crate) file: String,
    /// The id the file is named for (its stem).
    pub(crate) id: String,
    pub(crate) message: String,
}

/// The built-in templates, parsed (they are tested to parse and to be
/// clean against the registry `init` writes).
pub(crate) fn builtins() -> Vec<Template> {
    builtin::FILES
        .iter()
        .filter_map(|(_, text)| parse(text, Syntax::Yaml, Origin::Builtin).ok())
        .collect()
}

/// Reads every template file of a store's `templates/` folder (`.yaml`,
/// `.yml`, `.json`; other files are ignored), sorted by file name. A file
/// must be named after its template's id and may not take a built-in's id.
pub(crate) fn load_dir(dir: &Path) -> Vec<Result<Template, Malformed>> {
    if std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()) {
        return vec![Err(Malformed {
            file: String::new(),
            id: "templates".into(),
            message: "templates/ is a symbolic link; planforge does not follow links inside a store, so no template is read from it".into(),
        })];
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, std::path::PathBuf)> = entries
        .filter_map(|e| e.ok())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(name, _)| !name.starts_with('.') && Syntax::from_path(name).is_some())
        .filter(|(name, _)| !name.to_ascii_lowercase().ends_with(".jsonl"))
        .collect();
    files.sort();
    let builtin_ids: Vec<String> = builtins().into_iter().map(|t| t.id).collect();
    let mut seen: Vec<String> = Vec::new();
    files
        .into_iter()
        .map(|(name, path)| {
            let stem = name
                .rsplit_once('.')
                .map(|(s, _)| s.to_string())
                .unwrap_or_else(|| name.clone());
            let malformed = |message: String| Malformed {
                file: name.clone(),
                id: stem.clone(),
                message,
            };
            let kind = std::fs::symlink_metadata(&path).map(|m| m.file_type());
            if kind.as_ref().is_ok_and(|k| k.is_symlink()) {
                return Err(malformed(format!(
                    "templates/{name} is a symbolic link; planforge does not follow links inside a store"
                )));
            }
            // A pipe or a device would block the read (or never end).
            if !kind.as_ref().is_ok_and(|k| k.is_file() || k.is_dir()) {
                return Err(malformed(format!(
                    "templates/{name} is not an ordinary file (a pipe, socket or device); a template is a YAML or JSON file"
                )));
            }
            let text = std::fs::read(&path)
                .map_err(|e| malformed(format!("could not read templates/{name}: {e}")))
                .and_then(|b| {
                    String::from_utf8(b).map_err(|_| {
                        malformed(format!("templates/{name} is not valid UTF-8 text"))
                    })
                })?;
            let syntax = Syntax::from_path(&name).unwrap_or(Syntax::Yaml);
            let t = parse(&text, syntax, Origin::Store(name.clone()))
                .map_err(|e| malformed(format!("templates/{name}: {e}")))?;
            if t.id != stem {
                return Err(malformed(format!(
                    "templates/{name} declares the id `{}`; a template file is named after its id (templates/{}.yaml)",
                    t.id, t.id
                )));
            }
            if builtin_ids.contains(&t.id) {
                return Err(malformed(format!(
                    "templates/{name} takes the id `{}`, which is a built-in template's; choose another id (and file name)",
                    t.id
                )));
            }
            if seen.contains(&t.id) {
                return Err(malformed(format!(
                    "templates/{name} repeats the id `{}` of another file; keep one",
                    t.id
                )));
            }
            seen.push(t.id.clone());
            Ok(t)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = r#"
id: demo
summary: a demo
params:
  - {path: goal, type: string, maxBytes: 100}
  - {path: n, type: number}
nodes:
  - {id: start, kind: entry, definition: {input: []}}
  - id: use
    kind: call
    definition: {tool: t, args: {goal: {$param: {path: goal}}, n: {$param: {path: n}}}}
edges:
  - {from: start, to: use}
"#;

    #[test]
    fn parses_holes_and_mints_edge_ids() {
        let t = parse(T, Syntax::Yaml, Origin::Builtin).unwrap();
        assert_eq!(t.id, "demo");
        assert_eq!(t.params.len(), 2);
        assert_eq!(t.content.edges[0].id, "start__use");
        let args = t.content.nodes[1].definition["args"].as_object().unwrap();
        assert!(matches!(args["goal"], Value::Param(_)));
        // JSON round trip through to_json keeps the template.
        let text = serde_json::to_string(&to_json(&t)).unwrap();
        let back = parse(&text, Syntax::Json, Origin::Builtin).unwrap();
        assert_eq!(back, t);
    }

    #[test]
    fn refuses_what_cannot_be_a_template() {
        for (bad, needle) in [
            (T.replace("id: demo", "id: Demo"), "not allowed"),
            (
                T.replace("summary: a demo", "summary: ''"),
                "empty `summary`",
            ),
            (
                T.replace("type: number", "type: integer"),
                "params are declared fields",
            ),
            (T.replace("path: n,", "path: goal,"), "twice"),
            (
                T.replace("edges:", "phases: []\nedges:"),
                "unknown key `phases`",
            ),
            (T.replace("{$param: {path: n}}", "{$param: {}}"), "$param"),
        ] {
            let e = parse(&bad, Syntax::Yaml, Origin::Builtin).unwrap_err();
            assert!(e.message.contains(needle), "{needle}: {e}");
        }
    }

    #[test]
    fn substitution_fills_every_hole() {
        let t = parse(T, Syntax::Yaml, Origin::Builtin).unwrap();
        let mut args = Map::new();
        args.insert("goal".into(), "survey".into());
        args.insert("n".into(), Value::Number(3.0));
        let nodes = substitute(&t, &args).unwrap();
        let a = nodes[1].definition["args"].as_object().unwrap();
        assert_eq!(a["goal"], Value::String("survey".into()));
        assert_eq!(a["n"], Value::Number(3.0));
        args.shift_remove("n");
        assert_eq!(substitute(&t, &args).unwrap_err(), "n");
    }

    #[test]
    fn store_files_are_named_after_their_id() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("demo.yaml"), T).unwrap();
        std::fs::write(dir.path().join("other.yaml"), T).unwrap();
        std::fs::write(
            dir.path().join("single.yaml"),
            T.replace("id: demo", "id: single"),
        )
        .unwrap();
        std::fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        let loaded = load_dir(dir.path());
        assert_eq!(loaded.len(), 3);
        assert!(loaded[0].is_ok());
        let other = loaded[1].as_ref().unwrap_err();
        assert!(
            other.message.contains("named after its id"),
            "{}",
            other.message
        );
        let single = loaded[2].as_ref().unwrap_err();
        assert!(single.message.contains("built-in"), "{}", single.message);
    }
}
