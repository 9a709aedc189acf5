//! Complexity: O(params + args + the bytes of the given values). Emitted by
//! `instantiate` (`crate::forge::templates`), never on plans.

use crate::model::Issue;
use crate::model::remedy::Remedy;
use crate::model::suggest;
use crate::model::{DeclaredField, FieldType, Map, Value};

declare_check! {
    /// ## What it finds
    /// Arguments given to instantiate a template that do not fit the
    /// template's params: a param without a value, a value of
    /// the wrong type (a string over the param's `maxBytes`, text that is not
    /// a number, an enum value outside its `values`…), or a name the template
    /// does not declare. Each is named with the param, the expected type and
    /// what was given. The plan is not created.
    ///
    /// Values given as text are converted by the param's type: a `number`
    /// param takes `3` or `2.5`, a `boolean` takes `true` or `false`, and a
    /// `string` takes the text as it is (no JSON decoding, no references).
    ///
    /// ## Why it matters
    /// Every hole of the template is filled with its param's value, and the
    /// plan is built from them in one transaction. A missing or mistyped
    /// value would leave a hole (`unfilled_param`) or a value the template's
    /// steps do not expect; a misspelt name would silently drop the value.
    ///
    /// ## How to fix
    /// Give every param once, with a value of its type: the list of
    /// templates shows each template's params as `name: type`. Check the
    /// spelling of names the template does not declare (the message suggests
    /// the nearest).
    ///
    /// ## Example
    /// The template `single` instantiated with `goal` = `Survey` and
    /// `output` = `a.md` (it also needs `role`, `input` and `synthesis`).
    /// Fixed: also give `role` = `researcher`, `input` = `docs/` and
    /// `synthesis` = `report.md`.
    pub InvalidArgs { code: "invalid_args", severity: Blocking, needs: NOTHING, source: Template }
    fn run(cx, out) {}
}

/// How a param's type is named in messages: `a string of at most N bytes`,
/// `a finite number`, `a boolean`, `one of "a", "b"`.
pub(crate) fn expected(p: &DeclaredField) -> String {
    match &p.ty {
        FieldType::String { max_bytes: None } => "a string".into(),
        FieldType::String { max_bytes: Some(n) } => format!("a string of at most {n} bytes"),
        FieldType::Number => "a finite number".into(),
        FieldType::Boolean => "a boolean (true or false)".into(),
        FieldType::Enum(vs) => format!(
            "one of {}",
            vs.iter()
                .map(|v| format!("\"{v}\""))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// What was given, for messages: the JSON text cut at 40 bytes.
fn given(v: &Value) -> String {
    match v {
        Value::String(s) => crate::model::text::cut(&format!("{s:?}"), 40),
        Value::Ref(_) | Value::Param(_) => format!(
            "{} ({})",
            v.type_name(),
            crate::wire::json::compact_cut(v, 40)
        ),
        other => crate::wire::json::compact_cut(other, 40),
    }
}

/// Converts one value by its param's type, or says why it does not fit.
fn convert(p: &DeclaredField, v: &Value) -> Result<Value, String> {
    let wrong = || {
        format!(
            "param `{}` expects {}, but was given {}",
            p.path,
            expected(p),
            given(v)
        )
    };
    match (&p.ty, v) {
        (FieldType::String { max_bytes }, Value::String(s)) => match max_bytes {
            Some(n) if s.len() as u64 > *n => Err(format!(
                "param `{}` expects {}, but was given a string of {} bytes",
                p.path,
                expected(p),
                s.len()
            )),
            _ => Ok(v.clone()),
        },
        (FieldType::Number, Value::Number(_)) => Ok(v.clone()),
        // A number written as text must be exactly a JSON number, as `bounds`
        // takes its numbers: no spaces around it.
        (FieldType::Number, Value::String(s)) if s.trim() != s => Err(wrong()),
        (FieldType::Number, Value::String(s)) => match crate::wire::parse::json(s) {
            Ok(n @ Value::Number(_)) => Ok(n),
            Ok(_) => Err(wrong()),
            Err(e) if e.message.contains("too large") || e.message.contains("finite") => {
                Err(format!(
                    "param `{}` expects {}, but {}",
                    p.path,
                    expected(p),
                    e.message
                ))
            }
            Err(_) => Err(wrong()),
        },
        (FieldType::Boolean, Value::Bool(_)) => Ok(v.clone()),
        (FieldType::Boolean, Value::String(s)) if s == "true" || s == "false" => {
            Ok(Value::Bool(s == "true"))
        }
        (FieldType::Enum(values), Value::String(s)) => {
            if values.iter().any(|x| x == s) {
                Ok(v.clone())
            } else {
                Err(format!(
                    "{}{}",
                    wrong(),
                    suggest::did_you_mean(s, values.iter().map(String::as_str))
                ))
            }
        }
        _ => Err(wrong()),
    }
}

/// Checks and converts the given args against the params, in declared
/// order. `Ok` holds exactly the declared params, converted; `Err` holds one
/// `invalid_args` issue naming every problem.
pub(crate) fn convert_args(params: &[DeclaredField], args: &Map) -> Result<Map, Box<Issue>> {
    let mut out = Map::new();
    let mut missing = Vec::new();
    let mut problems = Vec::new();
    for p in params {
        match args.get(&p.path) {
            None => missing.push(p),
            Some(v) => match convert(p, v) {
                Ok(v) => {
                    out.insert(p.path.clone().into(), v);
                }
                Err(m) => problems.push(m),
            },
        }
    }
    match missing.as_slice() {
        [] => {}
        [p] => problems.insert(
            0,
            format!(
                "param `{}` is required and was not given; it expects {}",
                p.path,
                expected(p)
            ),
        ),
        many => problems.insert(
            0,
            format!(
                "these required params were not given: {}",
                many.iter()
                    .map(|p| format!("`{}` ({})", p.path, expected(p)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    }
    let names: Vec<&str> = params.iter().map(|p| p.path.as_str()).collect();
    let mut unknown = false;
    for k in args.keys() {
        if !names.contains(&k.as_str()) {
            unknown = true;
            problems.push(format!(
                "`{k}` is not a param of this template{}",
                suggest::did_you_mean(k, names.iter().copied())
            ));
        }
    }
    if problems.is_empty() {
        return Ok(out);
    }
    if unknown {
        problems.push(if names.is_empty() {
            "it takes no params".to_string()
        } else {
            format!(
                "its params are {}",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        });
    }
    Err(Box::new(Issue::new(CODE, problems.join("; ")).fix(
        Remedy::ListTemplates.when("to see each template's params with their types"),
    )))
}

#[cfg(test)]
mod tests {
    use super::convert_args;
    use crate::model::{DeclaredField, FieldType, Map, Value};

    fn params() -> Vec<DeclaredField> {
        vec![
            DeclaredField {
                path: "goal".into(),
                ty: FieldType::String { max_bytes: Some(8) },
            },
            DeclaredField {
                path: "budget".into(),
                ty: FieldType::Number,
            },
            DeclaredField {
                path: "strict".into(),
                ty: FieldType::Boolean,
            },
            DeclaredField {
                path: "tone".into(),
                ty: FieldType::Enum(vec!["plain".into(), "formal".into()]),
            },
        ]
    }

    fn args(pairs: &[(&str, &str)]) -> Map {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), Value::String((*v).into())))
            .collect()
    }

    #[test]
    fn fires_naming_the_param_the_type_and_what_was_given() {
        let e = convert_args(
            &params(),
            &args(&[
                ("goal", "a goal far too long"),
                ("budget", "lots"),
                ("strict", "yes"),
                ("tone", "plian"),
                ("extra", "x"),
            ]),
        )
        .unwrap_err();
        assert_eq!(e.code, "invalid_args");
        assert_eq!(
            e.fixes[0].remedy,
            crate::model::remedy::Remedy::ListTemplates
        );
        let m = &e.message;
        for needle in [
            "param `goal` expects a string of at most 8 bytes, but was given a string of 19 bytes",
            "param `budget` expects a finite number, but was given \"lots\"",
            "param `strict` expects a boolean (true or false), but was given \"yes\"",
            "param `tone` expects one of \"plain\", \"formal\", but was given \"plian\" (did you mean `plain`?)",
            "`extra` is not a param of this template",
        ] {
            assert!(m.contains(needle), "{needle}\n{m}");
        }
        let missing = convert_args(&params(), &args(&[])).unwrap_err();
        assert!(missing.message.starts_with(
            "these required params were not given: `goal` (a string of at most 8 bytes), `budget` (a finite number)"
        ), "{}", missing.message);
        let one = convert_args(
            &params(),
            &args(&[("goal", "g"), ("budget", "1"), ("strict", "false")]),
        )
        .unwrap_err();
        assert_eq!(
            one.message,
            "param `tone` is required and was not given; it expects one of \"plain\", \"formal\""
        );
        let spaced = convert_args(
            &params(),
            &args(&[
                ("goal", "g"),
                ("budget", " 1"),
                ("strict", "false"),
                ("tone", "plain"),
            ]),
        )
        .unwrap_err();
        assert!(
            spaced
                .message
                .contains("param `budget` expects a finite number, but was given \" 1\""),
            "{}",
            spaced.message
        );
    }

    #[test]
    fn passes_values_of_each_type_converted_from_text() {
        let ok = convert_args(
            &params(),
            &args(&[
                ("goal", "short"),
                ("budget", "2.5"),
                ("strict", "true"),
                ("tone", "formal"),
            ]),
        )
        .unwrap();
        assert_eq!(ok["budget"], Value::Number(2.5));
        assert_eq!(ok["strict"], Value::Bool(true));
        assert_eq!(ok["goal"], Value::String("short".into()));
        // Typed values (the model-facing tool) pass as they are.
        let mut typed = args(&[("goal", "x"), ("tone", "plain")]);
        typed.insert("budget".into(), Value::Number(3.0));
        typed.insert("strict".into(), Value::Bool(false));
        assert!(convert_args(&params(), &typed).is_ok());
    }
}
