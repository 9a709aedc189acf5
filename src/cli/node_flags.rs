//! A node definition from `--def` and field flags (`add-node`, `set-config`).

use crate::model::error::Error;
use crate::model::error::Result;
use crate::model::value::Map;
use crate::model::{AuthorityClaim, Value};
use crate::wire::{Syntax, shorthand};
use clap::Args;

#[derive(Args, Debug, Clone, Default)]
pub(crate) struct DefFlags {
    /// The definition: JSON or YAML text, @FILE, or - for stdin. Field flags
    /// below are applied on top of it.
    #[arg(long, value_name = "JSON|@FILE|-", allow_hyphen_values = true)]
    pub(crate) def: Option<String>,

    /// entry: a run input field, PATH:TYPE (TYPE: string[:MAXBYTES], number,
    /// boolean, enum:A,B,…); repeatable
    #[arg(
        long = "input",
        value_name = "PATH:TYPE",
        help_heading = "Entry fields"
    )]
    pub(crate) input: Vec<String>,

    /// call: the tool to invoke (from the registry)
    #[arg(long, value_name = "TOOL", help_heading = "Call fields")]
    pub(crate) tool: Option<String>,
    /// call: an argument, NAME=VALUE; VALUE is JSON, a reference (@node,
    /// @node.path, @node[last].path, @node[all], @node[2].path) or a plain
    /// string; repeatable
    #[arg(long = "arg", value_name = "NAME=VALUE", help_heading = "Call fields")]
    pub(crate) args: Vec<String>,
    /// call, transform: an output field, PATH:TYPE (as --input); repeatable
    #[arg(
        long = "output",
        value_name = "PATH:TYPE",
        help_heading = "Call fields"
    )]
    pub(crate) output: Vec<String>,
    /// call: an authority claim, CAPABILITY/SCOPE/VERB (verb: list, read,
    /// create, update, delete); repeatable
    #[arg(
        long = "authority",
        value_name = "CAP/SCOPE/VERB",
        help_heading = "Call fields"
    )]
    pub(crate) authority: Vec<String>,
    /// call: whether repeating the call is safe (--replay-safe or --replay-safe=false)
    #[arg(long = "replay-safe", value_name = "BOOL", num_args = 0..=1, default_missing_value = "true", help_heading = "Call fields")]
    pub(crate) replay_safe: Option<bool>,
    /// call: what to do when it is unknown whether the call took effect
    #[arg(long = "on-indeterminate", value_parser = ["retry", "halt", "skip"], help_heading = "Call fields")]
    pub(crate) on_indeterminate: Option<String>,
    /// call: what to do when an argument's value is missing at run time
    #[arg(long = "on-missing-value", value_parser = ["fail", "omit"], help_heading = "Call fields")]
    pub(crate) on_missing_value: Option<String>,
    /// call: an output field this call asserts is sanitised; repeatable
    #[arg(
        long = "declassify",
        value_name = "FIELD",
        help_heading = "Call fields"
    )]
    pub(crate) declassify: Vec<String>,

    /// reason: a prompt part: text, or a reference (@node.path); repeatable, in order
    #[arg(
        long = "prompt",
        value_name = "TEXT|@REF",
        help_heading = "Reason fields"
    )]
    pub(crate) prompt: Vec<String>,
    /// reason: the JSON Schema object of its output
    #[arg(
        long = "output-schema",
        value_name = "JSON",
        help_heading = "Reason fields"
    )]
    pub(crate) output_schema: Option<String>,
    /// reason: how many attempts at a valid output (≥ 1)
    #[arg(
        long = "max-attempts",
        value_name = "N",
        help_heading = "Reason fields"
    )]
    pub(crate) max_attempts: Option<u64>,

    /// transform: the call whose artifact it reads (@node)
    #[arg(long, value_name = "@REF", help_heading = "Transform fields")]
    pub(crate) source: Option<String>,
    /// transform: a step, NAME or NAME:ARGS_JSON; repeatable, in order
    #[arg(
        long = "step",
        value_name = "NAME[:ARGS]",
        help_heading = "Transform fields"
    )]
    pub(crate) steps: Vec<String>,
    /// transform: `rows`, or `value:FIELD`
    #[arg(
        long,
        value_name = "rows|value:FIELD",
        help_heading = "Transform fields"
    )]
    pub(crate) emit: Option<String>,

    /// branch, select: the predicate evaluator (built in: structured)
    #[arg(long, value_name = "ID", help_heading = "Branch and select fields")]
    pub(crate) evaluator: Option<String>,
    /// branch, select: the predicate (JSON or YAML)
    #[arg(long, value_name = "JSON", help_heading = "Branch and select fields")]
    pub(crate) predicate: Option<String>,
    /// select: a case label; repeatable, in order
    #[arg(
        long = "case",
        value_name = "LABEL",
        help_heading = "Branch and select fields"
    )]
    pub(crate) cases: Vec<String>,

    /// join: mark it explicitly as a diamond join ({"kind": "diamond"})
    #[arg(long, help_heading = "Join fields")]
    pub(crate) diamond: bool,
}

/// `flag` is a flag's name (`input`: "--input …"), or a field's name in
/// backquotes for `set` (`` `input` ``), which has no such flag.
fn bad(flag: &str, given: &str, want: &str) -> Error {
    if flag.starts_with('`') {
        return Error::invalid(format!("{flag} {given:?} is not {want}"));
    }
    Error::invalid(format!("--{flag} {given:?} is not {want}"))
}

/// One prompt part as `--prompt` (and `set ID prompt…`) takes it: a
/// reference (`@node.path`), or else text (`{"text": …}`). `None` for a
/// text that starts with `@` but is no valid reference.
pub(crate) fn prompt_part(p: &str) -> Option<Value> {
    match shorthand::value(p) {
        Ok(Value::Ref(r)) => Some(Value::Ref(r)),
        _ if p.starts_with('@') => None,
        _ => {
            let mut m = Map::new();
            m.insert("text".into(), p.into());
            Some(Value::Object(m))
        }
    }
}

/// Reads a JSON or YAML value given inline, from `@FILE`, or from stdin (`-`).
pub(crate) fn read_value(text: &str, what: &str) -> Result<Value> {
    let (source, name) = if let Some(path) = text.strip_prefix('@') {
        (super::commands::read_input(path)?, path.to_string())
    } else if text == "-" {
        (super::commands::read_input("-")?, "stdin".to_string())
    } else {
        (text.to_string(), what.to_string())
    };
    let syntax = Syntax::from_path(&name).unwrap_or_else(|| Syntax::sniff(&source));
    let v = crate::wire::parse::parse(&source, syntax).map_err(|e| {
        e.into_error(Some(&name))
            .with_source(name.clone(), source.clone())
    })?;
    crate::wire::convert::hydrated(v, "").map_err(|e| e.into_error(Some(&name)))
}

/// A declared field from `PATH:TYPE`.
pub(crate) fn declared_field(flag: &str, spec: &str) -> Result<Value> {
    let mut parts = spec.splitn(3, ':');
    let path = parts.next().unwrap_or("");
    let ty = parts.next().ok_or_else(|| {
        bad(
            flag,
            spec,
            "PATH:TYPE (e.g. id:string, count:number, state:enum:open,closed)",
        )
    })?;
    let rest = parts.next();
    if path.is_empty() {
        return Err(bad(flag, spec, "PATH:TYPE with a non-empty path"));
    }
    let mut m = Map::new();
    m.insert("path".into(), path.into());
    m.insert("type".into(), ty.into());
    match (ty, rest) {
        ("string", None) | ("number", None) | ("boolean", None) => {}
        ("string", Some(n)) => {
            let n: u64 = n
                .parse()
                .map_err(|_| bad(flag, spec, "PATH:string:MAXBYTES with a whole number"))?;
            m.insert("maxBytes".into(), Value::Number(n as f64));
        }
        ("enum", Some(vals)) => {
            let values: Vec<Value> = vals
                .split(',')
                .filter(|v| !v.is_empty())
                .map(Value::from)
                .collect();
            if values.is_empty() {
                return Err(bad(flag, spec, "PATH:enum:A,B,… with at least one value"));
            }
            m.insert("values".into(), Value::Array(values));
        }
        _ => {
            return Err(bad(
                flag,
                spec,
                "PATH:TYPE with TYPE string[:MAXBYTES], number, boolean or enum:A,B,…",
            ));
        }
    }
    Ok(Value::Object(m))
}

/// An authority claim object from `CAPABILITY/SCOPE/VERB`.
pub(crate) fn claim(text: &str) -> Option<Value> {
    let c = AuthorityClaim::parse_triple(text)?;
    let mut m = Map::new();
    m.insert("capability".into(), c.capability.into());
    m.insert("scope".into(), c.scope.into());
    m.insert("verb".into(), c.verb.as_str().into());
    Some(Value::Object(m))
}

/// A reference given as `@node…`.
fn reference(flag: &str, text: &str) -> Result<Value> {
    match text.strip_prefix('@') {
        Some(r) => Ok(Value::Ref(Box::new(
            shorthand::reference(r).map_err(|e| Error::invalid(e.message))?,
        ))),
        None => Err(bad(flag, text, "a reference like @node or @node.path")),
    }
}

impl DefFlags {
    /// The definition: `--def` (or an empty object), then each flag given.
    pub(crate) fn definition(&self) -> Result<Map> {
        let mut def = match &self.def {
            Some(text) => match read_value(text, "--def")? {
                Value::Object(m) => m,
                other => {
                    return Err(Error::invalid(format!(
                        "--def must be an object (a definition), not {}",
                        other.type_name()
                    )));
                }
            },
            None => Map::new(),
        };
        self.entry_and_call_fields(&mut def)?;
        self.call_policy_fields(&mut def)?;
        self.reason_fields(&mut def)?;
        self.transform_fields(&mut def)?;
        self.branch_fields(&mut def)?;
        Ok(def)
    }

    /// `--input`, `--tool`, `--arg`, `--output`.
    fn entry_and_call_fields(&self, def: &mut Map) -> Result<()> {
        let mut set = |k: &str, v: Value| {
            def.insert(k.into(), v);
        };
        if !self.input.is_empty() {
            set(
                "input",
                Value::Array(
                    self.input
                        .iter()
                        .map(|s| declared_field("input", s))
                        .collect::<Result<_>>()?,
                ),
            );
        }
        if let Some(t) = &self.tool {
            set("tool", t.as_str().into());
        }
        if !self.args.is_empty() {
            let mut args = Map::new();
            for a in &self.args {
                let (k, v) = a
                    .split_once('=')
                    .ok_or_else(|| bad("arg", a, "NAME=VALUE"))?;
                if k.is_empty() {
                    return Err(bad("arg", a, "NAME=VALUE with a name"));
                }
                let v = shorthand::value(v)
                    .map_err(|e| Error::invalid(format!("--arg {k}: {}", e.message)))?;
                args.insert(k.into(), v);
            }
            set("args", Value::Object(args));
        }
        if !self.output.is_empty() {
            set(
                "output",
                Value::Array(
                    self.output
                        .iter()
                        .map(|s| declared_field("output", s))
                        .collect::<Result<_>>()?,
                ),
            );
        }
        Ok(())
    }

    /// `--authority`, `--replay-safe`, `--on-indeterminate`, `--on-missing-value`,
    /// `--declassify`.
    fn call_policy_fields(&self, def: &mut Map) -> Result<()> {
        let mut set = |k: &str, v: Value| {
            def.insert(k.into(), v);
        };
        if !self.authority.is_empty() {
            let mut claims = Vec::new();
            for a in &self.authority {
                claims.push(claim(a).ok_or_else(|| {
                    bad(
                        "authority",
                        a,
                        "CAPABILITY/SCOPE/VERB with verb list, read, create, update or delete",
                    )
                })?);
            }
            set("authority", Value::Array(claims));
        }
        if let Some(b) = self.replay_safe {
            set("replaySafe", Value::Bool(b));
        }
        if let Some(v) = &self.on_indeterminate {
            set("onIndeterminate", v.as_str().into());
        }
        if let Some(v) = &self.on_missing_value {
            set("onMissingValue", v.as_str().into());
        }
        if !self.declassify.is_empty() {
            set(
                "declassifies",
                Value::Array(
                    self.declassify
                        .iter()
                        .map(|s| Value::from(s.as_str()))
                        .collect(),
                ),
            );
        }
        Ok(())
    }

    /// `--prompt`, `--output-schema`, `--max-attempts`.
    fn reason_fields(&self, def: &mut Map) -> Result<()> {
        let mut set = |k: &str, v: Value| {
            def.insert(k.into(), v);
        };
        if !self.prompt.is_empty() {
            let mut parts = Vec::new();
            for p in &self.prompt {
                parts.push(
                    prompt_part(p).ok_or_else(|| bad("prompt", p, "text or a valid reference"))?,
                );
            }
            set("prompt", Value::Array(parts));
        }
        if let Some(s) = &self.output_schema {
            set("outputSchema", read_value(s, "--output-schema")?);
        }
        if let Some(n) = self.max_attempts {
            set("maxAttempts", Value::Number(n as f64));
        }
        Ok(())
    }

    /// `--source`, `--step`, `--emit`.
    fn transform_fields(&self, def: &mut Map) -> Result<()> {
        let mut set = |k: &str, v: Value| {
            def.insert(k.into(), v);
        };
        if let Some(s) = &self.source {
            set("source", reference("source", s)?);
        }
        if !self.steps.is_empty() {
            let mut steps = Vec::new();
            for st in &self.steps {
                let mut m = Map::new();
                match st.split_once(':') {
                    Some((name, args)) => {
                        m.insert("name".into(), name.into());
                        m.insert("args".into(), read_value(args, "--step")?);
                    }
                    None => {
                        m.insert("name".into(), st.as_str().into());
                    }
                }
                steps.push(Value::Object(m));
            }
            set("steps", Value::Array(steps));
        }
        if let Some(e) = &self.emit {
            let mut m = Map::new();
            match e.split_once(':') {
                Some(("value", field)) if !field.is_empty() => {
                    m.insert("as".into(), "value".into());
                    m.insert("field".into(), field.into());
                }
                None if e == "rows" => {
                    m.insert("as".into(), "rows".into());
                }
                _ => return Err(bad("emit", e, "`rows` or `value:FIELD`")),
            }
            set("emit", Value::Object(m));
        }
        Ok(())
    }

    /// `--evaluator`, `--predicate`, `--case`, `--diamond`.
    fn branch_fields(&self, def: &mut Map) -> Result<()> {
        let mut set = |k: &str, v: Value| {
            def.insert(k.into(), v);
        };
        if let Some(e) = &self.evaluator {
            set("evaluator", e.as_str().into());
        }
        if let Some(p) = &self.predicate {
            set("predicate", read_value(p, "--predicate")?);
        }
        if !self.cases.is_empty() {
            set(
                "cases",
                Value::Array(self.cases.iter().map(|c| Value::from(c.as_str())).collect()),
            );
        }
        if self.diamond {
            set("kind", "diamond".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_specs() {
        let v = declared_field("output", "state:enum:open,closed").unwrap();
        assert_eq!(
            crate::wire::json::compact(&v),
            r#"{"path":"state","type":"enum","values":["open","closed"]}"#
        );
        let v = declared_field("input", "id:string:64").unwrap();
        assert_eq!(
            crate::wire::json::compact(&v),
            r#"{"path":"id","type":"string","maxBytes":64}"#
        );
        assert!(declared_field("input", "id").is_err());
        assert!(declared_field("input", "id:banana").is_err());
    }

    #[test]
    fn flags_build_a_call() {
        let f = DefFlags {
            tool: Some("tickets_get".into()),
            args: vec![
                "id=@start.ticket_id".into(),
                "limit=3".into(),
                "mode=fast".into(),
            ],
            authority: vec!["tickets/support/read".into()],
            replay_safe: Some(true),
            ..DefFlags::default()
        };
        let d = f.definition().unwrap();
        assert_eq!(
            crate::wire::json::compact(&Value::Object(d)),
            r#"{"tool":"tickets_get","args":{"id":{"$ref":{"node":"start","select":"first","path":"ticket_id"}},"limit":3,"mode":"fast"},"authority":[{"capability":"tickets","scope":"support","verb":"read"}],"replaySafe":true}"#
        );
    }
}
