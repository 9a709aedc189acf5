//! YAML spans: serde-saphyr's `Spanned` locations, converted into the span
//! tree of a YAML document.

use super::tree::{Kind, Span, Tree};
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A YAML node with serde-saphyr's location of where it is written.
struct YTree(serde_saphyr::Spanned<YKind>);

enum YKind {
    Scalar,
    Map(Vec<(serde_saphyr::Spanned<YKey>, YTree)>),
    Seq(Vec<YTree>),
}

struct YKey(String);

impl<'de> Deserialize<'de> for YTree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YTree, D::Error> {
        Ok(YTree(serde_saphyr::Spanned::deserialize(d)?))
    }
}

impl<'de> Deserialize<'de> for YKind {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YKind, D::Error> {
        d.deserialize_any(YVisitor)
    }
}

struct YVisitor;

impl<'de> Visitor<'de> for YVisitor {
    type Value = YKind;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a YAML value")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_u128<E: de::Error>(self, _: u128) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_bytes<E: de::Error>(self, _: &[u8]) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_unit<E: de::Error>(self) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_none<E: de::Error>(self) -> Result<YKind, E> {
        Ok(YKind::Scalar)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<YKind, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<YKind, A::Error> {
        let mut items = Vec::new();
        while let Some(t) = seq.next_element::<YTree>()? {
            items.push(t);
        }
        Ok(YKind::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<YKind, A::Error> {
        let mut members = Vec::new();
        while let Some(k) = map.next_key::<serde_saphyr::Spanned<YKey>>()? {
            let v = map.next_value::<YTree>()?;
            members.push((k, v));
        }
        Ok(YKind::Map(members))
    }
}

impl<'de> Deserialize<'de> for YKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<YKey, D::Error> {
        struct K;
        impl Visitor<'_> for K {
            type Value = YKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a mapping key")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<YKey, E> {
                Ok(YKey(s.to_string()))
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<YKey, E> {
                Ok(YKey(b.to_string()))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<YKey, E> {
                Ok(YKey(n.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<YKey, E> {
                Ok(YKey(n.to_string()))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<YKey, E> {
                Ok(YKey(n.to_string()))
            }
            fn visit_unit<E: de::Error>(self) -> Result<YKey, E> {
                Ok(YKey("null".into()))
            }
        }
        d.deserialize_any(K)
    }
}

pub(super) fn yaml_tree(text: &str) -> Option<Tree> {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_depth = crate::wire::parse::MAX_DEPTH;
    let scaled = (text.len() / 2).max(1_000_000);
    budget.max_events = scaled;
    budget.max_nodes = scaled;
    budget.max_recorded_anchor_events = 100_000;
    budget.max_recorded_anchor_bytes = 16 * 1024 * 1024;
    let mut opts = serde_saphyr::Options::default();
    opts.budget = Some(budget);
    opts.with_snippet = false;
    let y: YTree = serde_saphyr::from_str_with_options(text, opts).ok()?;
    Some(convert_yaml(text, &y))
}

/// The byte span serde-saphyr recorded for a value, if any.
fn saphyr_span(text: &str, loc: &serde_saphyr::Location) -> Option<Span> {
    let s = loc.span();
    let start = usize::try_from(s.byte_offset()?).ok()?;
    let len = usize::try_from(s.byte_len()?).ok()?;
    let end = start.checked_add(len)?;
    (end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end))
        .then_some(Span { start, end })
}

fn convert_yaml(text: &str, y: &YTree) -> Tree {
    let at = saphyr_span(text, &y.0.referenced).unwrap_or(Span { start: 0, end: 0 });
    match &y.0.value {
        YKind::Scalar => {
            // A block scalar's span runs through the indentation after it.
            let trimmed = text[at.start..at.end].trim_end().len();
            Tree {
                span: Span {
                    start: at.start,
                    end: at.start + trimmed,
                },
                kind: Kind::Scalar,
            }
        }
        YKind::Seq(items) => {
            let items: Vec<Tree> = items.iter().map(|t| convert_yaml(text, t)).collect();
            let last = items.iter().map(|t| t.span.end).max();
            Tree {
                span: collection_span(text, at, last),
                kind: Kind::Array(items),
            }
        }
        YKind::Map(members) => {
            let mut out = Vec::with_capacity(members.len());
            let mut last = None;
            for (k, v) in members {
                let key_span = saphyr_span(text, &k.referenced).unwrap_or(at);
                let mut v = convert_yaml(text, v);
                if v.span.is_empty() && matches!(v.kind, Kind::Scalar) {
                    // `key:` with nothing after it: the key is the place.
                    v.span = key_span;
                }
                last = last.max(Some(v.span.end)).max(Some(key_span.end));
                out.push((k.value.0.clone(), key_span, v));
            }
            Tree {
                span: collection_span(text, at, last),
                kind: Kind::Object(out),
            }
        }
    }
}

/// A collection runs from where it starts to the end of its last member,
/// plus the closing bracket of a flow collection.
fn collection_span(text: &str, at: Span, last: Option<usize>) -> Span {
    let mut end = last.unwrap_or(at.end).max(at.end);
    let closer = match text.as_bytes().get(at.start) {
        Some(b'{') => Some(b'}'),
        Some(b'[') => Some(b']'),
        _ => None,
    };
    if let Some(c) = closer {
        let b = text.as_bytes();
        let mut i = end;
        while let Some(&x) = b.get(i) {
            if x == c {
                end = i + 1;
                break;
            }
            if !matches!(x, b' ' | b'\t' | b'\n' | b'\r' | b',') {
                break;
            }
            i += 1;
        }
    }
    Span {
        start: at.start,
        end,
    }
}
