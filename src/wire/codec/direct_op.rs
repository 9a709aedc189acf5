//! Op lines read straight into the model (issue 17: a log read with no
//! snapshot). Most lines of a large log add a node or an edge; read the
//! general way, each became a value of the whole line first (a map of its
//! fields, each string allocated), then an op with every string allocated
//! again.
//!
//! Like [`super::direct`], this is a fast path for lines that read cleanly:
//! it reads `add_node`, `replace_node` and `add_edge` lines, accepts exactly
//! what [`super::op`] accepts and builds the same [`Op`]; at the first thing
//! it does not like, whatever that is, it gives up and the general path
//! reads the line again, so every refusal is the general path's.

use super::direct::{EdgeSeed, NodeSeed, Text as ShortText, give_up};
use crate::model::ids::Id;
use crate::model::value::MAX_SAFE_INTEGER;
use crate::model::{Edge, Op, OpBody};
use crate::wire::parse::Ctx;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use std::fmt;

/// The op on `line`, or `None` when the general path must read it (another
/// kind of op, or anything it would refuse).
pub(super) fn op(line: &str) -> Option<Op> {
    let ctx = Ctx::quiet_at(0);
    let mut de = serde_json::Deserializer::from_str(line);
    // Nesting is bounded by the value reader (MAX_DEPTH), as in `parse`.
    de.disable_recursion_limit();
    let op = LineSeed(&ctx).deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(op)
}

/// The keys such a line may have.
#[derive(Clone, Copy)]
enum Key {
    OpId,
    ActorId,
    Lamport,
    At,
    Tx,
    TxEnd,
    Op,
    Node,
    Edge,
}

impl<'de> DeserializeSeed<'de> for Key {
    type Value = Key;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Key {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an op's key")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
        Ok(match s {
            "opId" => Key::OpId,
            "actorId" => Key::ActorId,
            "lamport" => Key::Lamport,
            "at" => Key::At,
            "tx" => Key::Tx,
            "txEnd" => Key::TxEnd,
            "op" => Key::Op,
            "node" => Key::Node,
            "edge" => Key::Edge,
            _ => return Err(give_up()),
        })
    }
}

/// A string field, owned.
struct Text;

impl<'de> DeserializeSeed<'de> for Text {
    type Value = String;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Text {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<String, E> {
        Ok(s.to_string())
    }
    fn visit_string<E: de::Error>(self, s: String) -> Result<String, E> {
        Ok(s)
    }
}

/// The lamport: a whole number the general reader keeps (up to 2^53−1).
struct Lamport;

impl<'de> DeserializeSeed<'de> for Lamport {
    type Value = u64;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        d.deserialize_u64(self)
    }
}

impl<'de> Visitor<'de> for Lamport {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a whole number")
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<u64, E> {
        if n as f64 > MAX_SAFE_INTEGER {
            return Err(give_up());
        }
        Ok(n)
    }
}

/// `txEnd`: a boolean.
struct Flag;

impl<'de> DeserializeSeed<'de> for Flag {
    type Value = bool;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<bool, D::Error> {
        d.deserialize_bool(self)
    }
}

impl<'de> Visitor<'de> for Flag {
    type Value = bool;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a boolean")
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<bool, E> {
        Ok(b)
    }
}

/// The line's object (level 1).
struct LineSeed<'c>(&'c Ctx);

impl<'de> DeserializeSeed<'de> for LineSeed<'_> {
    type Value = Op;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Op, D::Error> {
        d.deserialize_map(self)
    }
}

/// The fields read so far.
#[derive(Default)]
struct Fields {
    op_id: Option<String>,
    actor_id: Option<Id>,
    lamport: Option<u64>,
    at: Option<Id>,
    tx: Option<Id>,
    tx_end: Option<bool>,
    kind: Option<String>,
    node: Option<crate::model::Node>,
    edge: Option<super::document::RawEdge>,
}

impl<'de> Visitor<'de> for LineSeed<'_> {
    type Value = Op;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an op")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Op, A::Error> {
        let mut f = Fields::default();
        let mut seen = [false; 9];
        while let Some(key) = map.next_key_seed(Key::Op)? {
            if std::mem::replace(&mut seen[key as usize], true) {
                // The same key twice: the general reader refuses it.
                return Err(give_up());
            }
            match key {
                Key::OpId => f.op_id = Some(map.next_value_seed(Text)?),
                Key::ActorId => f.actor_id = Some(map.next_value_seed(ShortText)?),
                Key::Lamport => f.lamport = Some(map.next_value_seed(Lamport)?),
                Key::At => f.at = Some(map.next_value_seed(ShortText)?),
                Key::Tx => f.tx = Some(map.next_value_seed(ShortText)?),
                Key::TxEnd => f.tx_end = Some(map.next_value_seed(Flag)?),
                Key::Op => f.kind = Some(map.next_value_seed(Text)?),
                Key::Node => f.node = Some(map.next_value_seed(NodeSeed(self.0, 2))?),
                Key::Edge => f.edge = Some(map.next_value_seed(EdgeSeed)?),
            }
        }
        f.op().ok_or_else(give_up)
    }
}

impl Fields {
    /// The op, when every field it needs is there and no other.
    fn op(self) -> Option<Op> {
        let body = match (self.kind.as_deref()?, self.node, self.edge) {
            ("add_node", Some(node), None) => OpBody::AddNode { node },
            ("replace_node", Some(node), None) => OpBody::ReplaceNode { node },
            ("add_edge", None, Some((Some(id), from, to, handle))) => OpBody::AddEdge {
                edge: Edge {
                    id,
                    from,
                    to,
                    handle,
                },
            },
            _ => return None,
        };
        Some(Op {
            op_id: self.op_id?,
            actor_id: self.actor_id?,
            lamport: self.lamport?,
            at: self.at?,
            tx: self.tx?,
            tx_end: self.tx_end.unwrap_or(false),
            body,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::wire::codec::op::general_op_line;
    use proptest::prelude::*;

    /// The fast path agrees with the general one: the same op when that
    /// reads the line, nothing (so the general path words the refusal)
    /// when it refuses it.
    fn agrees(line: &str) {
        let general = general_op_line(line);
        let fast = super::op(line);
        match general {
            Ok(op) => {
                if let Some(f) = fast {
                    assert_eq!(f, op, "{line}");
                }
            }
            Err(e) => assert!(
                fast.is_none(),
                "the fast path read what was refused ({e}): {line}"
            ),
        }
    }

    const NODE: &str = r#"{"opId":"a:p:3:t","actorId":"a","lamport":3,"at":"2026-01-01T00:00:00Z","tx":"t","op":"add_node","node":{"id":"c1","phase":"p","kind":"call","definition":{"tool":"t","args":{"q":{"$ref":{"node":"start","select":"last","path":"a.b"}},"h":{"$param":{"path":"x"}}}}}}"#;
    const EDGE: &str = r#"{"opId":"a:p:4:t","actorId":"a","lamport":4,"at":"2026-01-01T00:00:00Z","tx":"t","txEnd":true,"op":"add_edge","edge":{"id":"e1","from":"start","to":"c1","handle":"case_x"}}"#;

    #[test]
    fn node_and_edge_lines_are_read_by_the_fast_path_as_the_general_one_reads_them() {
        for line in [NODE, EDGE] {
            let fast = super::op(line).expect("a clean line is read by the fast path");
            assert_eq!(fast, general_op_line(line).unwrap());
        }
        let replace = NODE.replace("add_node", "replace_node");
        assert!(super::op(&replace).is_some());
        agrees(&replace);
    }

    #[test]
    fn what_the_general_path_refuses_or_reads_otherwise_is_left_to_it() {
        let cases = [
            // Another kind of op, or a kind that does not match its payload.
            NODE.replace("add_node", "set_node_phase"),
            NODE.replace("add_node", "add_edge"),
            EDGE.replace("add_edge", "add_node"),
            // A key twice, an unknown key, a missing field.
            NODE.replace(r#""tx":"t","#, r#""tx":"t","tx":"u","#),
            NODE.replace(r#""tx":"t","#, r#""tx":"t","extra":1,"#),
            NODE.replace(r#""tx":"t","#, ""),
            EDGE.replace(r#""id":"e1","#, ""),
            EDGE.replace(r#""id":"e1","#, r#""id":null,"#),
            // Fields of the wrong type or beyond what the reader keeps.
            NODE.replace(r#""lamport":3"#, r#""lamport":3.0"#),
            NODE.replace(r#""lamport":3"#, r#""lamport":-3"#),
            NODE.replace(r#""lamport":3"#, r#""lamport":9007199254740992"#),
            NODE.replace(r#""lamport":3"#, r#""lamport":9007199254740991"#),
            EDGE.replace(r#""txEnd":true"#, r#""txEnd":1"#),
            EDGE.replace(r#""txEnd":true"#, r#""txEnd":null"#),
            NODE.replace(r#""at":"2026-01-01T00:00:00Z""#, r#""at":null"#),
            NODE.replace(r#""kind":"call""#, r#""kind":"cal""#),
            NODE.replace(r#""phase":"p""#, r#""phase":"""#),
            NODE.replace(r#""phase":"p""#, r#""phase":null"#),
            NODE.replace(r#""phase":"p""#, r#""phase":7"#),
            NODE.replace(r#""id":"c1""#, r#""id":{"$ref":{"node":"x"}}"#),
            NODE.replace(r#""select":"last""#, r#""select":"sideways""#),
            NODE.replace(r#""tool":"t""#, r#""tool":"t","tool":"u""#),
            NODE.replace(r#""tool":"t""#, r#""tool":1e400"#),
            EDGE.replace(r#""handle":"case_x""#, r#""handle":null"#),
            EDGE.replace(r#""from":"start""#, r#""from":"st\u0061rt""#),
            // Not one object.
            format!("{NODE} "),
            format!("{NODE}{{}}"),
            format!("[{NODE}]"),
            NODE[..NODE.len() - 1].to_string(),
        ];
        for line in &cases {
            agrees(line);
        }
    }

    #[test]
    fn nesting_is_bounded_where_the_general_reader_bounds_it() {
        let max = crate::wire::parse::MAX_DEPTH;
        for depth in [max - 4, max - 3, max - 2, max - 1, max, max + 1] {
            let deep = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
            agrees(&NODE.replace(r#""tool":"t""#, &format!(r#""tool":{deep}"#)));
        }
    }

    proptest! {
        /// Any line made by cutting, doubling or replacing a stretch of a
        /// clean one.
        #[test]
        fn damaged_lines_agree(
            which in 0usize..2,
            at in 0usize..400,
            len in 0usize..12,
            with in prop::sample::select(vec!["", "\"", "{", "}", ",", ":", "null", "1", "\"x\"", "[]", "\\u0000", " "]),
        ) {
            let line = [NODE, EDGE][which];
            let at = at.min(line.len());
            let end = (at + len).min(line.len());
            if line.is_char_boundary(at) && line.is_char_boundary(end) {
                agrees(&format!("{}{with}{}", &line[..at], &line[end..]));
                agrees(&format!("{}{}", &line[..end], &line[at..]));
            }
        }
    }
}
