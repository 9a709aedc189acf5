//! Reading the fields of a wire object, each refusal located by its JSON
//! pointer.

use crate::model::value::{Map, Value, push_pointer_token};
use crate::wire::parse::ParseError;

pub fn error(at: &str, message: impl Into<String>) -> ParseError {
    ParseError {
        message: message.into(),
        pointer: Some(at.to_string()),
        line: None,
        column: None,
    }
}

pub fn child(at: &str, key: &str) -> String {
    let mut p = at.to_string();
    p.push('/');
    push_pointer_token(&mut p, key);
    p
}

pub fn object<'v>(v: &'v Value, at: &str, what: &str) -> Result<&'v Map, ParseError> {
    v.as_object().ok_or_else(|| {
        error(
            at,
            format!("{what} must be an object, not {}", v.type_name()),
        )
    })
}

pub fn closed(m: &Map, at: &str, what: &str, allowed: &[&str]) -> Result<(), ParseError> {
    for k in m.keys() {
        if !allowed.contains(&k.as_str()) {
            let hint = crate::model::suggest::did_you_mean(k, allowed.iter().copied());
            return Err(error(
                &child(at, k),
                format!(
                    "{what} has the unknown key `{k}`{hint}; allowed keys: {}",
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

pub fn req_str<'v>(m: &'v Map, key: &str, at: &str, what: &str) -> Result<&'v str, ParseError> {
    match m.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(error(
            &child(at, key),
            format!(
                "{what}'s `{key}` must be a string, not {}",
                other.type_name()
            ),
        )),
        None => Err(error(at, format!("{what} needs `{key}`"))),
    }
}

pub fn opt_str<'v>(
    m: &'v Map,
    key: &str,
    at: &str,
    what: &str,
) -> Result<Option<&'v str>, ParseError> {
    match m.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(error(
            &child(at, key),
            format!(
                "{what}'s `{key}` must be a string, not {}",
                other.type_name()
            ),
        )),
    }
}

pub fn req_u64(m: &Map, key: &str, at: &str, what: &str) -> Result<u64, ParseError> {
    match m.get(key) {
        Some(v) => v.as_u64().ok_or_else(|| {
            error(
                &child(at, key),
                format!(
                    "{what}'s `{key}` must be a non-negative integer, not {}",
                    crate::wire::json::compact(v)
                ),
            )
        }),
        None => Err(error(at, format!("{what} needs `{key}`"))),
    }
}

/// Takes the object at `key` out of `m` (leaving an empty object), so a
/// large definition is moved instead of copied by the owned decoders.
pub fn take_object(m: Option<&mut Value>, key: &str) -> Option<Map> {
    let Some(Value::Object(m)) = m else {
        return None;
    };
    match m.get_mut(key) {
        Some(slot @ Value::Object(_)) => match std::mem::replace(slot, Value::Object(Map::new())) {
            Value::Object(taken) => Some(taken),
            _ => None,
        },
        _ => None,
    }
}
