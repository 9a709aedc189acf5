//! Plan documents read straight from JSON text into the model: nodes are
//! built as the text is read, without the intermediate value of the whole
//! document and the extra walks over it (issue 17: `validate FILE` close to
//! a bare parse).
//!
//! This is a fast path for documents that read cleanly. It accepts exactly
//! what [`super::document`]'s general path accepts and builds the same
//! [`Document`]; at the first thing it does not like, whatever that is, it
//! gives up and the general path reads the text again, so every refusal —
//! its message, its pointer, its line and column — is the general path's.

use super::document::{
    DOCUMENT_KEYS, Document, RawEdge, document_from_value, general_document, named_edges,
};
use crate::model::ids::Id;
use crate::model::value::{Map, Value};
use crate::model::{Handle, Node, NodeKind};
use crate::wire::convert::hydrate_quietly;
use crate::wire::parse::{Ctx, ValueSeed};
use crate::wire::parse::{ParseError, Syntax};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// Reads a plan document from text. Most documents read cleanly: those are
/// read straight into the model; any other is read the general way, which
/// words its refusal.
pub fn document(text: &str, syntax: Syntax) -> Result<Document, ParseError> {
    if syntax == Syntax::Json
        && let Some(doc) = clean(text.strip_prefix('\u{feff}').unwrap_or(text))
    {
        return Ok(doc);
    }
    general_document(text, syntax)
}

/// The document in `text` (JSON), or `None` when anything in it would be
/// refused or is not what this path reads (the caller reads it again the
/// general way, for the refusal).
fn clean(text: &str) -> Option<Document> {
    let ctx = Ctx::quiet_at(0);
    let mut de = serde_json::Deserializer::from_str(text);
    // Nesting is bounded by the value reader (MAX_DEPTH), as in `parse`.
    de.disable_recursion_limit();
    let doc = DocumentSeed(&ctx).deserialize(&mut de).ok()?;
    de.end().ok()?;
    doc
}

/// The whole document: `Some` when it reads as one, `None` (or an error)
/// when the general path must decide.
struct DocumentSeed<'c>(&'c Ctx);

impl<'de> DeserializeSeed<'de> for DocumentSeed<'_> {
    type Value = Option<Document>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_map(self)
    }
}

/// Gives up: the general path reads the text again and says why.
pub(super) fn give_up<E: de::Error>() -> E {
    E::custom("left to the general reader")
}

impl<'de> Visitor<'de> for DocumentSeed<'_> {
    type Value = Option<Document>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a plan document")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let ctx = self.0;
        // The document object is level 1, as in the value reader.
        let mut rest = Map::new();
        let mut nodes: Option<Vec<Node>> = None;
        let mut edges: Option<Vec<RawEdge>> = None;
        while let Some(key) = map.next_key::<String>()? {
            if !DOCUMENT_KEYS.contains(&key.as_str())
                || rest.contains_key(&key)
                || (key == "nodes" && nodes.is_some())
                || (key == "edges" && edges.is_some())
            {
                return Err(give_up());
            }
            if key == "nodes" {
                nodes = Some(map.next_value_seed(NodesSeed(ctx))?);
                continue;
            }
            if key == "edges" {
                edges = Some(map.next_value_seed(EdgesSeed)?);
                continue;
            }
            ctx.set_depth(1);
            let mut v = map.next_value_seed(ValueSeed(ctx))?;
            hydrate_quietly(&mut v).map_err(|_| give_up())?;
            rest.insert(key.into(), v);
        }
        let Ok(mut doc) = document_from_value(&Value::Object(rest)) else {
            return Ok(None);
        };
        if let Some(nodes) = nodes {
            doc.nodes = nodes;
        }
        if let Some(edges) = edges {
            doc.edges = named_edges(edges);
        }
        Ok(Some(doc))
    }
}

/// The `nodes` array (level 2).
struct NodesSeed<'c>(&'c Ctx);

impl<'de> DeserializeSeed<'de> for NodesSeed<'_> {
    type Value = Vec<Node>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Vec<Node>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for NodesSeed<'_> {
    type Value = Vec<Node>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of nodes")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Node>, A::Error> {
        let mut nodes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(n) = seq.next_element_seed(NodeSeed(self.0, 3))? {
            nodes.push(n);
        }
        Ok(nodes)
    }
}

/// One node object at the level given (3 in a document, 2 in an op line):
/// `{id, phase?, kind, definition?}`, read as `codec::node` reads it.
pub(super) struct NodeSeed<'c>(pub(super) &'c Ctx, pub(super) usize);

impl<'de> DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = Node;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        d.deserialize_map(self)
    }
}

/// The keys a node may have.
#[derive(Clone, Copy, PartialEq)]
enum NodeKey {
    Id,
    Phase,
    Kind,
    Definition,
}

impl<'de> DeserializeSeed<'de> for NodeKey {
    type Value = NodeKey;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<NodeKey, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for NodeKey {
    type Value = NodeKey;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a node's key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<NodeKey, E> {
        match s {
            "id" => Ok(NodeKey::Id),
            "phase" => Ok(NodeKey::Phase),
            "kind" => Ok(NodeKey::Kind),
            "definition" => Ok(NodeKey::Definition),
            _ => Err(give_up()),
        }
    }
}

/// A string value, with `$ref`/`$param` objects and every other kind given
/// up on (as `codec::node` refuses them): an id, a phase, a kind or a
/// handle, read without an allocation of its own when short.
pub(super) struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = Id;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Id, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = Id;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Id, E> {
        Ok(Id::from(s))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Id, E> {
        Ok(Id::from(s))
    }
}

/// An optional string: a string, or null (absent).
struct OptText;

impl<'de> DeserializeSeed<'de> for OptText {
    type Value = Option<Id>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Option<Id>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for OptText {
    type Value = Option<Id>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string or null")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Option<Id>, E> {
        Ok(None)
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Option<Id>, E> {
        Ok(Some(Id::from(s)))
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<Option<Id>, E> {
        Ok(Some(Id::from(s)))
    }
}

impl<'de> Visitor<'de> for NodeSeed<'_> {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a node")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let ctx = self.0;
        let (mut id, mut phase, mut kind, mut definition) = (None, None, None, None);
        let mut seen = [false; 4];
        while let Some(key) = map.next_key_seed(NodeKey::Id)? {
            if std::mem::replace(&mut seen[key as usize], true) {
                // The same key twice: the general reader refuses it.
                return Err(give_up());
            }
            match key {
                NodeKey::Id => id = Some(map.next_value_seed(Text)?),
                NodeKey::Kind => {
                    let k = map.next_value_seed(Text)?;
                    kind = Some(NodeKind::parse(&k).ok_or_else(give_up)?);
                }
                NodeKey::Phase => phase = map.next_value_seed(OptText)?,
                NodeKey::Definition => {
                    ctx.set_depth(self.1);
                    let mut v = map.next_value_seed(ValueSeed(ctx))?;
                    hydrate_quietly(&mut v).map_err(|_| give_up())?;
                    match v {
                        Value::Object(d) => definition = Some(d),
                        _ => return Err(give_up()),
                    }
                }
            }
        }
        let (Some(id), Some(kind)) = (id, kind) else {
            return Err(give_up());
        };
        Ok(Node {
            id,
            phase: phase.filter(|p| !p.is_empty()),
            kind,
            definition: definition.unwrap_or_default().into(),
        })
    }
}

/// The `edges` array (level 2).
struct EdgesSeed;

impl<'de> DeserializeSeed<'de> for EdgesSeed {
    type Value = Vec<RawEdge>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Vec<RawEdge>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for EdgesSeed {
    type Value = Vec<RawEdge>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array of edges")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<RawEdge>, A::Error> {
        let mut edges = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(e) = seq.next_element_seed(EdgeSeed)? {
            edges.push(e);
        }
        Ok(edges)
    }
}

/// One edge object: `{id?, from, to, handle?}`, read as `codec::edge`
/// reads it.
pub(super) struct EdgeSeed;

impl<'de> DeserializeSeed<'de> for EdgeSeed {
    type Value = RawEdge;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<RawEdge, D::Error> {
        d.deserialize_map(self)
    }
}

/// The keys an edge may have.
#[derive(Clone, Copy)]
enum EdgeKey {
    Id,
    From,
    To,
    Handle,
}

impl<'de> DeserializeSeed<'de> for EdgeKey {
    type Value = EdgeKey;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<EdgeKey, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for EdgeKey {
    type Value = EdgeKey;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an edge's key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<EdgeKey, E> {
        match s {
            "id" => Ok(EdgeKey::Id),
            "from" => Ok(EdgeKey::From),
            "to" => Ok(EdgeKey::To),
            "handle" => Ok(EdgeKey::Handle),
            _ => Err(give_up()),
        }
    }
}

impl<'de> Visitor<'de> for EdgeSeed {
    type Value = RawEdge;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an edge")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawEdge, A::Error> {
        let (mut id, mut from, mut to, mut handle) = (None, None, None, None);
        let mut seen = [false; 4];
        while let Some(key) = map.next_key_seed(EdgeKey::Id)? {
            if std::mem::replace(&mut seen[key as usize], true) {
                return Err(give_up());
            }
            match key {
                // `id` and `handle` may be null (absent).
                EdgeKey::Id => id = map.next_value_seed(OptText)?,
                EdgeKey::Handle => handle = map.next_value_seed(OptText)?,
                EdgeKey::From => from = Some(map.next_value_seed(Text)?),
                EdgeKey::To => to = Some(map.next_value_seed(Text)?),
            }
        }
        let (Some(from), Some(to)) = (from, to) else {
            return Err(give_up());
        };
        let handle = Handle::parse(handle.as_deref().unwrap_or("always"));
        Ok((id, from, to, handle))
    }
}

#[cfg(test)]
mod tests {
    use super::general_document;
    use crate::wire::parse::Syntax;
    use proptest::prelude::*;

    /// The fast path agrees with the general one: the same document when
    /// that reads it, nothing (so the general path words the refusal) when
    /// it refuses it.
    fn agrees(text: &str) {
        let general = general_document(text, Syntax::Json);
        let fast = super::clean(text);
        match general {
            Ok(doc) => assert_eq!(fast, Some(doc), "{text}"),
            Err(e) => assert!(
                fast.is_none(),
                "the fast path read what was refused ({e}): {text}"
            ),
        }
    }

    #[test]
    fn a_full_document_reads_the_same_both_ways() {
        let text = r#"{"$schema": "x", "formatVersion": 1, "planId": "plan-a", "label": "L",
          "state": "draft", "revision": 3, "digest": null,
          "bounds": {"maxNodes": 9, "maxEdges": 9, "maxSteps": 9, "maxConcurrentFrames": 2, "maxEncodedBytes": 99999},
          "nodes": [
            {"id": "start", "kind": "entry", "phase": "", "definition": {"input": []}},
            {"kind": "call", "id": "c\u0031", "phase": null, "definition": {
               "tool": "t", "args": {"q": {"$ref": {"node": "start", "select": "last", "path": "a.b"}},
               "h": {"$param": {"path": "x"}}, "look": {"$ref": {"node": "n"}, "other": 1},
               "deep": [[{"$ref": {"node": "start", "select": {"index": 2}}}]]}}},
            {"id": "j", "kind": "join", "phase": "p"},
            {"id": "j", "kind": "join"}
          ],
          "edges": [{"from": "start", "to": "c1"}, {"id": "start__c1", "from": "a", "to": "b"},
            {"from": "start", "to": "c1", "handle": "onError", "id": null},
            {"from": "start", "to": "c1", "handle": null}],
          "provenance": {"kind": "template", "template": "t", "args": {"a": {"$param": {"path": "x"}}}}}"#;
        agrees(text);
        if let Err(e) = general_document(text, Syntax::Json) {
            panic!("the full document is refused: {e}");
        }
        agrees(r#"{}"#);
        agrees(r#"{"nodes": [], "edges": []}"#);
    }

    #[test]
    fn whatever_is_refused_is_left_to_the_general_reader() {
        for text in [
            r#"{"nodes": [{"id": "a", "kind": "join", "id": "b"}]}"#,
            r#"{"nodes": [], "nodes": []}"#,
            r#"{"edges": [], "edges": []}"#,
            r#"{"label": "a", "label": "b"}"#,
            r#"{"nodes": [{"id": "a", "kind": "join", "extra": 1}]}"#,
            r#"{"nodes": {"id": "a"}}"#,
            r#"{"nodes": null}"#,
            r#"{"nodes": [{"id": 1, "kind": "join"}]}"#,
            r#"{"nodes": [{"kind": "join"}]}"#,
            r#"{"nodes": [{"id": "a"}]}"#,
            r#"{"nodes": [{"id": "a", "kind": "joyn"}]}"#,
            r#"{"nodes": [{"id": "a", "kind": "join", "definition": null}]}"#,
            r#"{"nodes": [{"id": "a", "kind": "join", "definition": {"$ref": {"node": "b"}}}]}"#,
            r#"{"nodes": [{"id": "a", "kind": "join", "definition": {"x": {"$ref": {"nod": "b"}}}}]}"#,
            r#"{"nodes": [{"id": "a", "kind": "join", "definition": {"x": 9007199254740993}}]}"#,
            r#"{"nodes": [{"id": "a", "kind": "join", "definition": {"x": 1, "x": 2}}]}"#,
            r#"{"nodes": [{"id": {"$ref": {"node": "b"}}, "kind": "join"}]}"#,
            r#"{"nodes": [{"$ref": {"node": "b"}}]}"#,
            r#"{"edges": [{"from": "a"}]}"#,
            r#"{"edges": [{"from": "a", "to": 2}]}"#,
            r#"{"edges": [{"from": "a", "to": "b", "via": "c"}]}"#,
            r#"{"edges": [{"from": "a", "to": "b", "handle": 3}]}"#,
            r#"{"formatVersion": 2}"#,
            r#"{"planId": 5}"#,
            r#"{"revision": -1}"#,
            r#"{"bounds": {"maxNodes": "x"}}"#,
            r#"{"unknown": 1}"#,
            r#"{"nodes": []} trailing"#,
            r#"{"nodes": [}"#,
            r#"[]"#,
            r#""text""#,
            "",
        ] {
            agrees(text);
        }
    }

    #[test]
    fn nesting_is_bounded_as_in_the_general_reader() {
        // A definition three levels down may nest to MAX_DEPTH − 3 levels.
        let max = crate::wire::parse::MAX_DEPTH;
        for depth in [max - 4, max - 3, max - 2, max] {
            let inner = "[".repeat(depth) + &"]".repeat(depth);
            agrees(&format!(
                r#"{{"nodes": [{{"id": "a", "kind": "join", "definition": {{"x": {inner}}}}}]}}"#
            ));
            agrees(&format!(r#"{{"provenance": {{"x": {inner}}}}}"#));
        }
    }

    /// A JSON text from pieces of plan documents: right and wrong keys,
    /// values of every kind, references well and badly formed.
    fn piece() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("1".to_string()),
            Just("9007199254740993".to_string()),
            Just("\"join\"".to_string()),
            Just("\"call\"".to_string()),
            Just("\"a\"".to_string()),
            Just("\"\"".to_string()),
            Just(r#"{"$ref": {"node": "a"}}"#.to_string()),
            Just(r#"{"$ref": {"node": 1}}"#.to_string()),
            Just(r#"{"$param": {"path": "p"}}"#.to_string()),
        ];
        let key = prop_oneof![
            Just("id"),
            Just("kind"),
            Just("phase"),
            Just("definition"),
            Just("from"),
            Just("to"),
            Just("handle"),
            Just("x"),
        ];
        leaf.prop_recursive(3, 24, 4, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4)
                    .prop_map(|v| format!("[{}]", v.join(","))),
                prop::collection::vec((key.clone(), inner), 0..5).prop_map(|kv| {
                    let body: Vec<String> =
                        kv.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
                    format!("{{{}}}", body.join(","))
                }),
            ]
        })
    }

    fn node() -> impl Strategy<Value = String> {
        (
            prop::option::of(prop_oneof![Just("\"a\"".to_string()), piece()]),
            prop::option::of(prop_oneof![Just("\"call\"".to_string()), piece()]),
            prop::option::of(piece()),
            prop::option::of(piece()),
            any::<bool>(),
        )
            .prop_map(|(id, kind, phase, def, twice)| {
                let mut fields = Vec::new();
                for (k, v) in [
                    ("id", id),
                    ("kind", kind),
                    ("phase", phase),
                    ("definition", def),
                ] {
                    if let Some(v) = v {
                        fields.push(format!("\"{k}\": {v}"));
                    }
                }
                if twice && let Some(f) = fields.first().cloned() {
                    fields.push(f);
                }
                format!("{{{}}}", fields.join(","))
            })
    }

    fn edge() -> impl Strategy<Value = String> {
        (
            prop::option::of(piece()),
            prop::option::of(prop_oneof![Just("\"a\"".to_string()), piece()]),
            prop::option::of(prop_oneof![Just("\"b\"".to_string()), piece()]),
            prop::option::of(piece()),
        )
            .prop_map(|(id, from, to, handle)| {
                let fields: Vec<String> =
                    [("id", id), ("from", from), ("to", to), ("handle", handle)]
                        .into_iter()
                        .filter_map(|(k, v)| v.map(|v| format!("\"{k}\": {v}")))
                        .collect();
                format!("{{{}}}", fields.join(","))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
        #[test]
        fn the_fast_path_agrees_with_the_general_reader(
            nodes in prop::collection::vec(node(), 0..4),
            edges in prop::collection::vec(edge(), 0..3),
            extra in prop::option::of((prop_oneof![Just("label"), Just("bounds"), Just("provenance"), Just("nodes"), Just("other")], piece())),
        ) {
            let mut text = format!("{{\"nodes\": [{}], \"edges\": [{}]", nodes.join(","), edges.join(","));
            if let Some((k, v)) = extra {
                text.push_str(&format!(", \"{k}\": {v}"));
            }
            text.push('}');
            agrees(&text);
        }
    }
}
