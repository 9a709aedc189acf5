//! Paths into a definition (object keys only; arrays and references are
//! leaves): reading, writing, and the smallest paths where two differ.

use crate::model::Value;
use crate::model::value::Map;

/// A definition path (object keys only; arrays and references are leaves).
pub(crate) type Path = Vec<String>;

pub(crate) fn get<'a>(m: &'a Map, path: &[String]) -> Option<&'a Value> {
    let (first, rest) = path.split_first()?;
    let v = m.get(first)?;
    if rest.is_empty() {
        return Some(v);
    }
    match v {
        Value::Object(inner) => get(inner, rest),
        _ => None,
    }
}

pub(crate) fn put(m: &mut Map, path: &[String], value: Option<Value>) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    if rest.is_empty() {
        match value {
            Some(v) => {
                m.insert(first.clone().into(), v);
            }
            None => {
                m.shift_remove(first);
            }
        }
        return;
    }
    if value.is_none() && !m.contains_key(first) {
        return;
    }
    let entry = m.get_or_insert_with(first.clone().into(), || Value::Object(Map::new()));
    if !matches!(entry, Value::Object(_)) {
        *entry = Value::Object(Map::new());
    }
    if let Value::Object(inner) = entry {
        put(inner, rest, value);
    }
}

/// The smallest paths where two definitions differ.
pub(crate) fn diff_paths(b: &Map, a: &Map, base: &mut Path, out: &mut Vec<Path>) {
    let mut keys: Vec<&crate::model::ids::Id> = b.keys().collect();
    keys.extend(a.keys().filter(|k| !b.contains_key(k)));
    for k in keys {
        base.push(k.to_string());
        match (b.get(k), a.get(k)) {
            (Some(Value::Object(x)), Some(Value::Object(y))) if x != y => {
                diff_paths(x, y, base, out)
            }
            (x, y) if x != y => out.push(base.clone()),
            _ => {}
        }
        base.pop();
    }
}

pub(crate) fn show(path: &[String]) -> String {
    path.join(".")
}
