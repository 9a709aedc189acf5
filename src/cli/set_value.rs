//! The VALUE of `set ID PATH VALUE`: JSON, a reference or a plain string,
//! and where the path names a field `add-node` has a flag for, that flag's
//! shorthand: `authority` takes `CAP/SCOPE/VERB` (a comma-separated list),
//! `input` and `output` take `PATH:TYPE` (several separated by spaces), and
//! the lists `values`, `declassifies` and `cases` take `a,b,c`. An index
//! (`authority.0`, `output.1`) takes one item.

use super::node_flags::{claim, declared_field, prompt_part};
use crate::model::Value;
use crate::model::error::{Error, Result};
use crate::wire::shorthand;

/// Examples of `set`, for refusals of its VALUE.
pub(crate) fn examples(node: &str) -> String {
    format!(
        "for example: planforge set {node} args.path notes/a.md, planforge set {node} maxAttempts 3, planforge set {node} args.ticket @start.ticket_id, planforge set {node} authority files/notes/read, planforge set {node} output 'id:string state:enum:open,closed', planforge set {node} declassifies id,state"
    )
}

/// Reads VALUE for `path` of node `node`.
pub(crate) fn read(node: &str, path: &str, text: &str) -> Result<Value> {
    let parsed = shorthand::value(text).map_err(|e| {
        let help = if path == "prompt" || path.starts_with("prompt.") {
            prompt_examples(node)
        } else {
            examples(node)
        };
        Error::invalid(format!("the value {text:?}: {}", e.message)).with_help(help)
    })?;
    if let Some(v) = prompt(node, path, text, &parsed)? {
        return Ok(v);
    }
    // JSON and references are taken as given; only a plain string may be a
    // field shorthand.
    if !matches!(parsed, Value::String(_)) || text.trim_start().starts_with('"') {
        return Ok(parsed);
    }
    let segs: Vec<&str> = path.split('.').collect();
    let (key, one) = match segs.as_slice() {
        [.., k, i] if i.parse::<usize>().is_ok() => (*k, true),
        [.., k] => (*k, false),
        [] => return Ok(parsed),
    };
    let many = |items: Vec<Value>| {
        if one {
            match <[Value; 1]>::try_from(items) {
                Ok([v]) => Ok(v),
                Err(_) => Err(Error::invalid(format!(
                    "`{path}` is one item of a list, but {text:?} gives several; set `{}` to the whole list instead",
                    segs[..segs.len() - 1].join(".")
                ))
                .with_help(examples(node))),
            }
        } else {
            Ok(Value::Array(items))
        }
    };
    match key {
        "authority" => {
            let claims = text
                .split(',')
                .map(|t| {
                    claim(t.trim()).ok_or_else(|| {
                        Error::invalid(format!(
                            "{t:?} is not an authority claim: write CAPABILITY/SCOPE/VERB (verb list, read, create, update or delete), several separated by commas"
                        ))
                        .with_help(format!(
                            "for example: planforge set {node} {path} files/notes/read"
                        ))
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            many(claims)
        }
        "input" | "output" if text.contains(':') => {
            let fields = text
                .split_whitespace()
                .map(|f| {
                    declared_field(&format!("`{key}`"), f).map_err(|e| {
                        e.with_help(format!(
                            "for example: planforge set {node} {path} 'id:string:64 count:number state:enum:open,closed'"
                        ))
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            many(fields)
        }
        "values" | "declassifies" | "cases" if !one => Ok(Value::Array(
            text.split(',')
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(Value::from)
                .collect(),
        )),
        _ => Ok(parsed),
    }
}

/// `prompt` as `--prompt` takes it: at `prompt`, a text, a reference, or a
/// JSON list of texts and references (items already parts stay); at
/// `prompt.N`, one text or reference. `None` for other paths.
fn prompt(node: &str, path: &str, text: &str, parsed: &Value) -> Result<Option<Value>> {
    let whole = path == "prompt";
    let one = path
        .strip_prefix("prompt.")
        .is_some_and(|i| i.parse::<usize>().is_ok());
    if !whole && !one {
        return Ok(None);
    }
    let refused = |p: &str| {
        Error::invalid(format!(
            "{p:?} is not a prompt part: give text, or a reference like @fetch.content"
        ))
        .with_help(prompt_examples(node))
    };
    let part = |v: &Value| -> Result<Value> {
        match v {
            Value::String(s) => prompt_part(s).ok_or_else(|| refused(s)),
            other => Ok(other.clone()),
        }
    };
    let literal = text.trim_start().starts_with('"');
    let p = match parsed {
        Value::Array(items) if whole => {
            return Ok(Some(Value::Array(
                items.iter().map(part).collect::<Result<Vec<_>>>()?,
            )));
        }
        // A quoted string is text even when it starts with `@`.
        Value::String(s) if literal => {
            let mut m = crate::model::value::Map::new();
            m.insert("text".into(), s.as_str().into());
            Value::Object(m)
        }
        Value::String(s) => part(&Value::String(s.clone()))?,
        Value::Ref(_) => parsed.clone(),
        other => return Ok(Some(other.clone())),
    };
    Ok(Some(if whole { Value::Array(vec![p]) } else { p }))
}

/// Examples of `set` for a prompt, for its refusals.
pub(crate) fn prompt_examples(node: &str) -> String {
    format!(
        "for example: planforge set {node} prompt 'Summarise the ticket' (one text part), planforge set {node} prompt '[\"Summarise\", \"@fetch.content\"]' (texts and references, in order), planforge set {node} prompt.2 @fetch.content (one part; the index one past the end adds it)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn j(v: Value) -> serde_json::Value {
        serde_json::from_str(&crate::wire::json::compact(&v)).unwrap()
    }

    #[test]
    fn field_shorthands_by_path() {
        assert_eq!(
            j(read("n", "authority", "files/notes/read,t/s/list").unwrap()),
            json!([{"capability": "files", "scope": "notes", "verb": "read"},
                   {"capability": "t", "scope": "s", "verb": "list"}])
        );
        assert_eq!(
            j(read("n", "authority.0", "files/notes/read").unwrap()),
            json!({"capability": "files", "scope": "notes", "verb": "read"})
        );
        assert_eq!(
            j(read("n", "output", "id:string:64 state:enum:a,b").unwrap()),
            json!([{"path": "id", "type": "string", "maxBytes": 64},
                   {"path": "state", "type": "enum", "values": ["a", "b"]}])
        );
        assert_eq!(
            j(read("n", "output.0.values", "a,b").unwrap()),
            json!(["a", "b"])
        );
        assert_eq!(j(read("n", "declassifies", "id").unwrap()), json!(["id"]));
        // JSON, references and other paths are as before.
        assert_eq!(j(read("n", "authority", "[]").unwrap()), json!([]));
        assert_eq!(j(read("n", "output", "\"a:b\"").unwrap()), json!("a:b"));
        assert_eq!(j(read("n", "args.url", "a:b").unwrap()), json!("a:b"));
        assert!(matches!(
            read("n", "args.x", "@s.y").unwrap(),
            Value::Ref(_)
        ));
    }

    #[test]
    fn refusals_give_an_example() {
        let e = read("fetch", "authority", "files-read").unwrap_err();
        assert!(e.message.contains("CAPABILITY/SCOPE/VERB"), "{e}");
        assert_eq!(
            e.help.as_deref(),
            Some("for example: planforge set fetch authority files/notes/read")
        );
        let e = read("fetch", "args.x", "{").unwrap_err();
        assert!(
            e.help
                .unwrap()
                .contains("planforge set fetch args.path notes/a.md")
        );
        assert!(read("n", "authority.0", "a/b/read,c/d/read").is_err());
    }
}
