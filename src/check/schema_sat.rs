//! What a JSON Schema lets through (not a code): a satisfiability judgement
//! over the subset a verify step's `outputSchema` may use, for
//! `ungated_unit`'s "this verification cannot fail".
//!
//! A schema's instances are approximated per JSON type (null, boolean,
//! number, string, array, object) as none, a finite set of values, or "any
//! of that type". [`over`] gives a superset of the valid instances, [`under`]
//! a subset (`not` swaps the two). Keywords understood: `type`, `const`,
//! `enum`, `allOf`, `anyOf`, `oneOf`, `not`, `pattern` (a literal anchored
//! at both ends, `^pass$`, `^(pass|ok)$`), `maxLength`/`minLength`,
//! `maxItems`/`minItems`, `items` (a schema), `minimum`/`maximum` and the
//! annotations (`title`, `description`, …). Any other keyword leaves the
//! superset as it is and empties the subset: an unknown keyword can only
//! make a verification look *able* to fail, never rigged.
//!
//! Complexity: O(size of the schema × finite values held, ≤ [`CAP`]), with
//! recursion bounded by [`DEPTH`].

use crate::model::Value;

/// How deep the judgement follows nested schemas; deeper is unknown.
const DEPTH: usize = 32;
/// The most finite values a part holds; more is "any".
const CAP: usize = 64;

const STRING: usize = 3;
const ARRAY: usize = 4;
const OBJECT: usize = 5;

/// Keywords that never restrict an instance.
const ANNOTATIONS: [&str; 11] = [
    "title",
    "description",
    "$comment",
    "default",
    "examples",
    "$schema",
    "$id",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$anchor",
];

/// The instances of one JSON type a schema admits.
#[derive(Debug, Clone, PartialEq)]
enum Part {
    No,
    Vals(Vec<Value>),
    All,
}

/// Per JSON type (null, boolean, number, string, array, object).
#[derive(Debug, Clone, PartialEq)]
struct Space([Part; 6]);

fn type_of(v: &Value) -> Option<usize> {
    Some(match v {
        Value::Null => 0,
        Value::Bool(_) => 1,
        Value::Number(_) => 2,
        Value::String(_) => 3,
        Value::Array(_) => 4,
        Value::Object(_) => 5,
        Value::Ref(_) | Value::Param(_) => return None,
    })
}

/// Every value of a finite type (null, boolean).
fn domain(t: usize) -> Option<Vec<Value>> {
    match t {
        0 => Some(vec![Value::Null]),
        1 => Some(vec![Value::Bool(false), Value::Bool(true)]),
        _ => None,
    }
}

impl Part {
    fn meet(&self, o: &Part) -> Part {
        match (self, o) {
            (Part::No, _) | (_, Part::No) => Part::No,
            (Part::All, x) | (x, Part::All) => x.clone(),
            (Part::Vals(a), Part::Vals(b)) => {
                Part::Vals(a.iter().filter(|v| b.contains(v)).cloned().collect())
            }
        }
    }
    fn join(&self, o: &Part) -> Part {
        match (self, o) {
            (Part::All, _) | (_, Part::All) => Part::All,
            (Part::No, x) | (x, Part::No) => x.clone(),
            (Part::Vals(a), Part::Vals(b)) => {
                let mut all = a.clone();
                all.extend(b.iter().filter(|v| !a.contains(v)).cloned());
                if all.len() > CAP {
                    Part::All
                } else {
                    Part::Vals(all)
                }
            }
        }
    }
    /// The complement within type `t`; `wide`: what an infinite complement
    /// becomes (`All` for a superset, `No` for a subset).
    fn complement(&self, t: usize, wide: Part) -> Part {
        match (self, domain(t)) {
            (Part::All, _) => Part::No,
            (Part::No, _) => Part::All,
            (Part::Vals(vs), Some(d)) => {
                Part::Vals(d.into_iter().filter(|v| !vs.contains(v)).collect())
            }
            (Part::Vals(_), None) => wide,
        }
    }
    fn is_empty(&self) -> bool {
        matches!(self, Part::No) || matches!(self, Part::Vals(v) if v.is_empty())
    }
}

impl Space {
    fn all(p: Part) -> Space {
        Space(std::array::from_fn(|_| p.clone()))
    }
    fn of(values: &[Value]) -> Space {
        let mut s = Space::all(Part::No);
        for v in values.iter().take(CAP + 1) {
            if let Some(t) = type_of(v) {
                s.0[t] = s.0[t].join(&Part::Vals(vec![v.clone()]));
            }
        }
        if values.len() > CAP {
            return Space::all(Part::All);
        }
        s
    }
    fn types(a: &Value, subset: bool) -> Option<Space> {
        let names: Vec<&str> = match a {
            Value::String(s) => vec![s.as_str()],
            Value::Array(xs) => xs.iter().filter_map(Value::as_str).collect(),
            _ => return None,
        };
        let mut s = Space::all(Part::No);
        for n in names {
            let (t, p) = match n {
                "null" => (0, Part::All),
                "boolean" => (1, Part::All),
                "number" => (2, Part::All),
                // Not every number: the subset cannot say which.
                "integer" => (2, if subset { Part::No } else { Part::All }),
                "string" => (3, Part::All),
                "array" => (4, Part::All),
                "object" => (5, Part::All),
                _ => return None,
            };
            s.0[t] = s.0[t].join(&p);
        }
        Some(s)
    }
    fn meet(&self, o: &Space) -> Space {
        Space(std::array::from_fn(|t| self.0[t].meet(&o.0[t])))
    }
    fn join(&self, o: &Space) -> Space {
        Space(std::array::from_fn(|t| self.0[t].join(&o.0[t])))
    }
    fn complement(&self, wide: Part) -> Space {
        Space(std::array::from_fn(|t| {
            self.0[t].complement(t, wide.clone())
        }))
    }
    fn with(mut self, t: usize, p: Part) -> Space {
        self.0[t] = self.0[t].meet(&p);
        self
    }
    /// Keeps the finite values `keep` accepts.
    fn filter(mut self, keep: impl Fn(&Value) -> bool) -> Space {
        for p in &mut self.0 {
            if let Part::Vals(vs) = p {
                vs.retain(&keep);
            }
        }
        self
    }
}

/// The literal strings an anchored pattern matches exactly (`^pass$`,
/// `^(pass|ok)$`, `^(?:pass)$`), or `None` when it is not that simple.
fn literals(pattern: &str) -> Option<Vec<Value>> {
    let inner = pattern.strip_prefix('^')?.strip_suffix('$')?;
    if inner.ends_with('\\') {
        return None;
    }
    let grouped = inner
        .strip_prefix("(?:")
        .or_else(|| inner.strip_prefix('('))
        .and_then(|s| s.strip_suffix(')'));
    let alternatives: Vec<&str> = match grouped {
        Some(g) => g.split('|').collect(),
        None => vec![inner],
    };
    let mut out = Vec::new();
    for alt in alternatives {
        let mut lit = String::new();
        let mut chars = alt.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some(e) if e.is_ascii_punctuation() => lit.push(e),
                    _ => return None,
                },
                '.' | '^' | '$' | '|' | '?' | '*' | '+' | '(' | ')' | '[' | ']' | '{' | '}' => {
                    return None;
                }
                c => lit.push(c),
            }
        }
        out.push(Value::String(lit.into()));
    }
    Some(out)
}

fn number(a: &Value) -> Option<f64> {
    match a {
        Value::Number(n) => Some(*n),
        _ => None,
    }
}

/// Whether `v` is valid against `s`: `None` when the judgement cannot tell
/// (a keyword it does not know, a pattern that is not a literal).
fn valid(s: &Value, v: &Value, depth: usize) -> Option<bool> {
    let m = match s {
        Value::Bool(b) => return Some(*b),
        Value::Object(m) if depth > 0 => m,
        _ => return None,
    };
    let mut known = true;
    for (k, a) in m.iter() {
        match keyword(k, a, v, depth - 1) {
            Some(false) => return Some(false),
            Some(true) => {}
            None => known = false,
        }
    }
    known.then_some(true)
}

/// One keyword of a schema applied to `v` (see [`valid`]).
fn keyword(k: &str, a: &Value, v: &Value, depth: usize) -> Option<bool> {
    let each = |xs: &Value| -> Option<Vec<Option<bool>>> {
        Some(xs.as_array()?.iter().map(|x| valid(x, v, depth)).collect())
    };
    let len = |f: fn(usize, f64) -> bool, n: Option<usize>| match (n, number(a)) {
        (None, _) => Some(true),
        (Some(n), Some(x)) => Some(f(n, x)),
        (Some(_), None) => None,
    };
    let chars = match v {
        Value::String(s) => Some(s.chars().count()),
        _ => None,
    };
    let items = match v {
        Value::Array(xs) => Some(xs.len()),
        _ => None,
    };
    let num = number(v);
    match k {
        _ if ANNOTATIONS.contains(&k) => Some(true),
        "type" => {
            let s = Space::types(a, false)?;
            let t = type_of(v)?;
            let integral = !matches!(a, Value::String(n) if n == "integer")
                || num.is_some_and(|n| n.fract() == 0.0);
            Some(!s.0[t].is_empty() && integral)
        }
        "const" => Some(a == v),
        "enum" => Some(a.as_array()?.contains(v)),
        "allOf" => each(a)?
            .into_iter()
            .try_fold(true, |acc, r| Some(acc && r?)),
        "anyOf" => {
            let rs = each(a)?;
            if rs.contains(&Some(true)) {
                Some(true)
            } else {
                rs.iter().all(|r| *r == Some(false)).then_some(false)
            }
        }
        "oneOf" => {
            let rs = each(a)?;
            let known: Option<Vec<bool>> = rs.into_iter().collect();
            Some(known?.iter().filter(|&&b| b).count() == 1)
        }
        "not" => valid(a, v, depth).map(|b| !b),
        "pattern" => match (v, literals(a.as_str()?)) {
            (Value::String(_), Some(ls)) => Some(ls.contains(v)),
            (Value::String(_), None) => None,
            _ => Some(true),
        },
        "maxLength" => len(|n, x| n as f64 <= x, chars),
        "minLength" => len(|n, x| n as f64 >= x, chars),
        "maxItems" => len(|n, x| n as f64 <= x, items),
        "minItems" => len(|n, x| n as f64 >= x, items),
        "minimum" | "maximum" => match (num, number(a)) {
            (None, _) => Some(true),
            (Some(n), Some(x)) => Some(if k == "minimum" { n >= x } else { n <= x }),
            (Some(_), None) => None,
        },
        "items" => match v {
            Value::Array(xs) => xs
                .iter()
                .map(|x| valid(a, x, depth))
                .try_fold(true, |acc, r| Some(acc && r?)),
            _ => Some(true),
        },
        _ => None,
    }
}

/// Whether an object schema lets its properties take the values `fields`
/// gives them, the other properties aside: `properties` entries of the
/// fields given are judged as [`valid`] judges them, `required` and
/// `additionalProperties` are taken to hold (the other properties could
/// be anything), `type` must allow an object, and `allOf`, `anyOf`,
/// `oneOf` and `not` combine members judged the same way. `None` when a
/// keyword it does not know decides it.
pub(crate) fn admits_fields(schema: &Value, fields: &[(&str, Value)]) -> Option<bool> {
    object_admits(schema, fields, DEPTH)
}

fn object_admits(s: &Value, fields: &[(&str, Value)], depth: usize) -> Option<bool> {
    let m = match s {
        Value::Bool(b) => return Some(*b),
        Value::Object(m) if depth > 0 => m,
        _ => return None,
    };
    let each = |xs: &Value| -> Option<Vec<Option<bool>>> {
        Some(
            xs.as_array()?
                .iter()
                .map(|x| object_admits(x, fields, depth - 1))
                .collect(),
        )
    };
    let mut known = true;
    for (k, a) in m.iter() {
        let r = match k.as_str() {
            _ if ANNOTATIONS.contains(&k.as_str()) => Some(true),
            "required" | "additionalProperties" => Some(true),
            "type" => Space::types(a, false).map(|t| !t.0[OBJECT].is_empty()),
            "properties" => {
                let props = a.as_object();
                fields
                    .iter()
                    .filter_map(|(f, v)| Some((props?.get(f)?, v)))
                    .map(|(sub, v)| valid(sub, v, depth - 1))
                    .try_fold(true, |acc, r| Some(acc && r?))
            }
            "allOf" => {
                each(a).and_then(|rs| rs.into_iter().try_fold(true, |acc, r| Some(acc && r?)))
            }
            "anyOf" => each(a).and_then(|rs| {
                if rs.contains(&Some(true)) {
                    Some(true)
                } else {
                    rs.iter().all(|r| *r == Some(false)).then_some(false)
                }
            }),
            "oneOf" => each(a).and_then(|rs| {
                let known: Option<Vec<bool>> = rs.into_iter().collect();
                Some(known?.iter().filter(|&&b| b).count() == 1)
            }),
            "not" => object_admits(a, fields, depth - 1).map(|b| !b),
            _ => None,
        };
        match r {
            Some(false) => return Some(false),
            Some(true) => {}
            None => known = false,
        }
    }
    known.then_some(true)
}

/// A superset of the instances valid against `s`.
fn over(s: &Value, depth: usize) -> Space {
    let m = match s {
        Value::Bool(false) => return Space::all(Part::No),
        Value::Object(m) if depth > 0 => m,
        _ => return Space::all(Part::All),
    };
    let d = depth - 1;
    let mut sp = Space::all(Part::All);
    for (k, a) in m.iter() {
        sp = match k.as_str() {
            "type" => Space::types(a, false).map_or(sp.clone(), |t| sp.meet(&t)),
            "const" => sp.meet(&Space::of(std::slice::from_ref(a))),
            "enum" => a
                .as_array()
                .map_or(sp.clone(), |xs| sp.meet(&Space::of(xs))),
            "allOf" => a
                .as_array()
                .into_iter()
                .flatten()
                .fold(sp, |acc, x| acc.meet(&over(x, d))),
            "anyOf" | "oneOf" => match a.as_array().filter(|xs| !xs.is_empty()) {
                Some(xs) => sp.meet(
                    &xs.iter()
                        .fold(Space::all(Part::No), |acc, x| acc.join(&over(x, d))),
                ),
                None => sp,
            },
            "not" => sp.meet(&under(a, d).complement(Part::All)),
            "pattern" => match a.as_str().and_then(literals) {
                Some(ls) => sp.with(STRING, Part::Vals(ls)),
                None => sp,
            },
            "maxLength" if number(a).is_some_and(|x| x < 1.0) => sp.with(
                STRING,
                Part::Vals(vec![Value::String(String::new().into())]),
            ),
            "maxItems" if number(a).is_some_and(|x| x < 1.0) => {
                sp.with(ARRAY, Part::Vals(vec![Value::Array(Vec::new())]))
            }
            "items" if over(a, d).0.iter().all(Part::is_empty) => {
                sp.with(ARRAY, Part::Vals(vec![Value::Array(Vec::new())]))
            }
            _ => sp,
        };
    }
    sp.filter(|v| valid(s, v, depth) != Some(false))
}

/// A subset of the instances valid against `s`.
fn under(s: &Value, depth: usize) -> Space {
    let m = match s {
        Value::Bool(true) => return Space::all(Part::All),
        Value::Object(m) if depth > 0 => m,
        _ => return Space::all(Part::No),
    };
    let d = depth - 1;
    let mut sp = Space::all(Part::All);
    // A keyword that restricts type `t` in a way the subset cannot say:
    // only the finite values it is known to accept stay.
    let narrow = |sp: Space, t: usize| {
        let p = match &sp.0[t] {
            Part::All => Part::No,
            p => p.clone(),
        };
        let mut sp = sp;
        sp.0[t] = p;
        sp
    };
    for (k, a) in m.iter() {
        sp = match k.as_str() {
            k if ANNOTATIONS.contains(&k) => sp,
            "type" => Space::types(a, true).map_or(Space::all(Part::No), |t| sp.meet(&t)),
            "const" => sp.meet(&Space::of(std::slice::from_ref(a))),
            "enum" => a
                .as_array()
                .map_or(Space::all(Part::No), |xs| sp.meet(&Space::of(xs))),
            "allOf" => a
                .as_array()
                .into_iter()
                .flatten()
                .fold(sp, |acc, x| acc.meet(&under(x, d))),
            "anyOf" => sp.meet(
                &a.as_array()
                    .into_iter()
                    .flatten()
                    .fold(Space::all(Part::No), |acc, x| acc.join(&under(x, d))),
            ),
            "not" => sp.meet(&over(a, d).complement(Part::No)),
            "pattern" => match a.as_str().and_then(literals) {
                Some(ls) => sp.with(STRING, Part::Vals(ls)),
                None => narrow(sp, STRING),
            },
            "maxLength" | "minLength" | "format" => narrow(sp, STRING),
            "items" | "maxItems" | "minItems" | "contains" | "prefixItems" | "uniqueItems" => {
                narrow(sp, ARRAY)
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                narrow(sp, 2)
            }
            _ => (0..6).fold(sp, narrow),
        };
    }
    sp.filter(|v| valid(s, v, depth) == Some(true))
}

/// What a verification's field can say, by its schema: whether `pass` (the
/// one passing value, `"pass"` or `[]`) can be returned, and whether any
/// other value can (a failure, as the gate that tests `eq pass` sees it).
/// `false` is proven; `true` may be an over-estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Outcomes {
    pub(crate) can_pass: bool,
    pub(crate) can_fail: bool,
}

/// Judges `schema` for the passing value `pass`: satisfiability of `schema`
/// ∧ `const pass` and of `schema` ∧ `not const pass`.
pub(crate) fn judge(schema: &Value, pass: &Value) -> Outcomes {
    let sp = over(schema, DEPTH);
    let t = type_of(pass);
    let can_pass = valid(schema, pass, DEPTH) != Some(false)
        && t.is_some_and(|t| match &sp.0[t] {
            Part::All => true,
            Part::Vals(vs) => vs.contains(pass),
            Part::No => false,
        });
    let can_fail = sp.0.iter().enumerate().any(|(k, p)| match p {
        Part::No => false,
        Part::Vals(vs) => vs.iter().any(|v| v != pass),
        Part::All => domain(k).is_none_or(|d| d.iter().any(|v| v != pass)),
    });
    Outcomes { can_pass, can_fail }
}

#[cfg(test)]
mod tests {
    use super::{Outcomes, judge};
    use serde_json::json;

    fn of(schema: serde_json::Value, pass: serde_json::Value) -> Outcomes {
        let s = crate::wire::convert::from_json(&schema, "").unwrap();
        let p = crate::wire::convert::from_json(&pass, "").unwrap();
        judge(&s, &p)
    }

    const RIGGED: Outcomes = Outcomes {
        can_pass: true,
        can_fail: false,
    };
    const OPEN: Outcomes = Outcomes {
        can_pass: true,
        can_fail: true,
    };

    #[test]
    fn verdict_schemas_that_admit_nothing_but_pass() {
        for s in [
            json!({"type": "string", "const": "pass"}),
            json!({"enum": ["pass"]}),
            json!({"type": "string", "pattern": "^pass$"}),
            json!({"pattern": "^(?:pass)$", "type": "string"}),
            json!({"type": "string", "allOf": [{"const": "pass"}]}),
            json!({"allOf": [{"type": "string"}, {"enum": ["pass", "fail"]}, {"not": {"const": "fail"}}]}),
            json!({"anyOf": [{"const": "pass"}, {"const": "pass", "title": "again"}]}),
            json!({"type": "string", "maxLength": 4, "pattern": "^(pass|fail)$", "not": {"pattern": "^fail$"}}),
            json!({"oneOf": [{"const": "pass"}], "description": "x"}),
        ] {
            assert_eq!(of(s.clone(), json!("pass")), RIGGED, "{s}");
        }
    }

    #[test]
    fn failed_criteria_schemas_that_admit_nothing_but_the_empty_list() {
        for s in [
            json!({"type": "array", "maxItems": 0}),
            json!({"type": "array", "const": []}),
            json!({"type": "array", "items": false}),
            json!({"type": "array", "items": {"not": {}}}),
            json!({"type": "array", "items": {"allOf": [{"const": 1}, {"const": 2}]}}),
            json!({"type": "array", "items": {"type": "string", "enum": [1]}}),
            json!({"allOf": [{"type": "array"}, {"maxItems": 0}]}),
            json!({"enum": [[]]}),
        ] {
            assert_eq!(of(s.clone(), json!([])), RIGGED, "{s}");
        }
    }

    #[test]
    fn schemas_that_can_fail_or_that_the_judgement_cannot_read() {
        for (s, pass) in [
            (
                json!({"type": "string", "enum": ["pass", "fail"]}),
                json!("pass"),
            ),
            (json!({"type": "string"}), json!("pass")),
            // No `type`: a number is not "pass" either.
            (json!({"pattern": "^pass$"}), json!("pass")),
            (
                json!({"type": "string", "pattern": "^pass|fail$"}),
                json!("pass"),
            ),
            (
                json!({"type": "string", "pattern": "^p.ss$"}),
                json!("pass"),
            ),
            // Unknown keywords never make a schema rigged.
            (
                json!({"type": "string", "not": {"x-unknown": 1}}),
                json!("pass"),
            ),
            (
                json!({"type": "string", "not": {"enum": ["fail"], "x-unknown": 1}}),
                json!("pass"),
            ),
            (
                json!({"type": "array", "items": {"enum": ["c1", "c2"]}}),
                json!([]),
            ),
            (json!({"items": false}), json!([])),
            (json!({"type": "array", "maxItems": 6}), json!([])),
            (
                json!({"type": "array", "items": {"not": {"dependentSchemas": {}}}}),
                json!([]),
            ),
            (json!(true), json!([])),
            (json!({}), json!("pass")),
        ] {
            assert_eq!(of(s.clone(), pass), OPEN, "{s}");
        }
    }

    #[test]
    fn schemas_that_cannot_pass() {
        for (s, pass) in [
            (json!({"const": "fail"}), json!("pass")),
            (
                json!({"type": "string", "pattern": "^fail$"}),
                json!("pass"),
            ),
            (json!({"type": "array", "minItems": 1}), json!([])),
            (json!(false), json!("pass")),
            (json!({"not": {}}), json!([])),
        ] {
            assert!(!of(s.clone(), pass).can_pass, "{s}");
        }
        // Nested past the depth bound: unknown, so it can fail.
        let mut deep = json!({"const": "pass"});
        for _ in 0..40 {
            deep = json!({"allOf": [deep]});
        }
        assert!(of(deep, json!("pass")).can_fail);
    }
}
