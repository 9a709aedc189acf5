//! RFC 8785 (JCS) canonical JSON of plan content, and the digest over it.
//!
//! Written straight from the IR (references in wire form) without building an
//! intermediate tree: the digest is computed on every read of a plan.

use crate::model::number::number;
use crate::model::plan::{Content, Provenance};
use crate::model::value::{BranchId, Map, Ref, Segment, Select, Value};
use crate::model::{Edge, Node};

/// Writes a JSON string literal with JCS escaping.
pub fn string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Only ASCII bytes are escaped, so the runs between them are copied
    // whole (a byte at a time, the digest of a large plan spent a tenth
    // of its time here).
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0C => "\\f",
            b'\r' => "\\r",
            b if b < 0x20 => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xF)]));
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// A small builder for canonical objects whose keys are known statically.
struct Obj<'o> {
    out: &'o mut String,
    first: bool,
}

impl<'o> Obj<'o> {
    fn open(out: &'o mut String) -> Obj<'o> {
        out.push('{');
        Obj { out, first: true }
    }
    /// Keys must be given in canonical order.
    fn key(&mut self, k: &str) -> &mut String {
        if !self.first {
            self.out.push(',');
        }
        self.first = false;
        string(self.out, k);
        self.out.push(':');
        self.out
    }
    fn close(self) {
        self.out.push('}');
    }
}

pub fn value(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // Integers below 10^15 are their digits (as `number_len` counts
        // them), written without the general formatter's strings.
        Value::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => {
            use std::fmt::Write;
            let _ = write!(out, "{}", *n as i64);
        }
        Value::Number(n) => out.push_str(&number(*n)),
        Value::String(s) => string(out, s),
        Value::Array(a) => {
            out.push('[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                value(out, item);
            }
            out.push(']');
        }
        Value::Object(m) => map(out, m),
        Value::Ref(r) => {
            let mut o = Obj::open(out);
            reference(o.key("$ref"), r);
            o.close();
        }
        Value::Param(p) => {
            let mut o = Obj::open(out);
            let inner = o.key("$param");
            let mut i = Obj::open(inner);
            string(i.key("path"), &p.path);
            i.close();
            o.close();
        }
    }
}

pub fn map(out: &mut String, m: &Map) {
    // The entries sorted with their values (no lookup per key), on the
    // stack for the small objects a plan is made of.
    let mut entries: smallvec::SmallVec<[(&str, &Value); 16]> =
        m.iter().map(|(k, v)| (k.as_str(), v)).collect();
    if entries.iter().all(|(k, _)| k.is_ascii()) {
        entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
    } else {
        entries.sort_unstable_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    }
    out.push('{');
    for (i, (k, v)) in entries.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        string(out, k);
        out.push(':');
        value(out, v);
    }
    out.push('}');
}

fn reference(out: &mut String, r: &Ref) {
    let mut o = Obj::open(out);
    if let Some(b) = &r.branch_id {
        branch(o.key("branchId"), b);
    }
    string(o.key("node"), &r.node);
    if let Some(p) = &r.path {
        string(o.key("path"), p);
    }
    let s = o.key("select");
    match &r.select {
        Select::First => string(s, "first"),
        Select::Last => string(s, "last"),
        Select::All => string(s, "all"),
        Select::Index(n) => {
            let mut i = Obj::open(s);
            i.key("index").push_str(&n.to_string());
            i.close();
        }
    }
    o.close();
}

fn branch(out: &mut String, b: &BranchId) {
    let mut o = Obj::open(out);
    let segs = o.key("segments");
    segs.push('[');
    for (i, s) in b.segments.iter().enumerate() {
        if i > 0 {
            segs.push(',');
        }
        let mut so = Obj::open(segs);
        match s {
            Segment::Edge(e) => string(so.key("edge"), e),
            Segment::Join { join, of } => {
                string(so.key("join"), join);
                let arr = so.key("of");
                arr.push('[');
                for (j, e) in of.iter().enumerate() {
                    if j > 0 {
                        arr.push(',');
                    }
                    string(arr, e);
                }
                arr.push(']');
            }
        }
        so.close();
    }
    segs.push(']');
    o.close();
}

pub fn node(out: &mut String, n: &Node) {
    let mut o = Obj::open(out);
    map(o.key("definition"), &n.definition);
    string(o.key("id"), &n.id);
    string(o.key("kind"), n.kind.as_str());
    if let Some(p) = &n.phase {
        string(o.key("phase"), p);
    }
    o.close();
}

pub fn edge(out: &mut String, e: &Edge) {
    let mut o = Obj::open(out);
    string(o.key("from"), &e.from);
    string(o.key("handle"), &e.handle.as_str());
    string(o.key("id"), &e.id);
    string(o.key("to"), &e.to);
    o.close();
}

fn provenance(out: &mut String, p: &Provenance) {
    let mut o = Obj::open(out);
    match p {
        Provenance::Clone {
            parent,
            parent_digest,
            parent_revision,
        } => {
            string(o.key("kind"), "clone");
            string(o.key("parent"), parent);
            string(o.key("parentDigest"), parent_digest);
            o.key("parentRevision")
                .push_str(&parent_revision.to_string());
        }
        Provenance::Template { template, args } => {
            map(o.key("args"), args);
            string(o.key("kind"), "template");
            string(o.key("template"), template);
        }
    }
    o.close();
}

/// The canonical text the digest hashes: `{bounds, edges, nodes, planId,
/// provenance?, revision}`.
pub fn content(c: &Content) -> String {
    content_of(&Parts::of(c))
}

/// Plan content by its parts, for callers that hold them apart (a document
/// checked against the digest it claims).
pub struct Parts<'a> {
    pub plan_id: &'a str,
    pub revision: u64,
    pub bounds: &'a crate::model::Bounds,
    pub nodes: &'a [Node],
    pub edges: &'a [Edge],
    pub provenance: Option<&'a Provenance>,
}

impl<'a> Parts<'a> {
    /// The parts of `c`.
    pub fn of(c: &'a Content) -> Parts<'a> {
        Parts {
            plan_id: &c.plan_id,
            revision: c.revision,
            bounds: &c.bounds,
            nodes: &c.nodes,
            edges: &c.edges,
            provenance: c.provenance.as_ref(),
        }
    }
}

/// The canonical text of content given by parts.
pub fn content_of(c: &Parts) -> String {
    let mut out = String::with_capacity(256 + c.nodes.len() * 256);
    write(c, &mut out, |_| {});
    out
}

/// Writes the canonical text of `c` to `out`, calling `written` after each
/// edge and node (a caller that hashes the text as it goes empties `out`).
fn write(c: &Parts, out: &mut String, mut written: impl FnMut(&mut String)) {
    head(out, c.bounds);
    for (i, e) in c.edges.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        edge(out, e);
        written(out);
    }
    out.push_str(BETWEEN);
    for (i, n) in c.nodes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        node(out, n);
        written(out);
    }
    tail(out, c.plan_id, c.provenance, c.revision);
}

/// What stands between the last edge and the first node in [`content`]'s
/// text.
pub const BETWEEN: &str = "],\"nodes\":[";

/// The start of [`content`]'s text, up to its first edge: `{"bounds":{…},"edges":[`.
pub fn head(out: &mut String, b: &crate::model::Bounds) {
    out.push_str("{\"bounds\":");
    let mut bo = Obj::open(out);
    bo.key("maxConcurrentFrames")
        .push_str(&b.max_concurrent_frames.to_string());
    bo.key("maxEdges").push_str(&b.max_edges.to_string());
    bo.key("maxEncodedBytes")
        .push_str(&b.max_encoded_bytes.to_string());
    bo.key("maxNodes").push_str(&b.max_nodes.to_string());
    bo.key("maxSteps").push_str(&b.max_steps.to_string());
    bo.close();
    out.push_str(",\"edges\":[");
}

/// The end of [`content`]'s text, after its last node: `],"planId":…,"revision":…}`.
pub fn tail(out: &mut String, plan_id: &str, provenance: Option<&Provenance>, revision: u64) {
    out.push_str("],\"planId\":");
    string(out, plan_id);
    if let Some(p) = provenance {
        out.push_str(",\"provenance\":");
        self::provenance(out, p);
    }
    out.push_str(",\"revision\":");
    out.push_str(&revision.to_string());
    out.push('}');
}

/// The byte length of [`content`]'s text, computed without writing it (the
/// order of keys does not change a length, so nothing is sorted either).
pub fn encoded_len(c: &Content) -> usize {
    let b = &c.bounds;
    let mut n = "{\"bounds\":{\"maxConcurrentFrames\":,\"maxEdges\":,\"maxEncodedBytes\":,\"maxNodes\":,\"maxSteps\":},\"edges\":[],\"nodes\":[],\"planId\":,\"revision\":}".len();
    for v in [
        b.max_concurrent_frames,
        b.max_edges,
        b.max_encoded_bytes,
        b.max_nodes,
        b.max_steps,
        c.revision,
    ] {
        n += digits(v);
    }
    n += string_len(&c.plan_id);
    n += c.edges.len().saturating_sub(1) + c.nodes.len().saturating_sub(1);
    n += c.edges.iter().map(edge_len).sum::<usize>();
    n += c.nodes.iter().map(node_len).sum::<usize>();
    if let Some(p) = &c.provenance {
        let mut t = String::new();
        provenance(&mut t, p);
        n += ",\"provenance\":".len() + t.len();
    }
    n
}

/// The byte length of [`edge`]'s text.
pub fn edge_len(e: &Edge) -> usize {
    "{\"from\":,\"handle\":,\"id\":,\"to\":}".len()
        + string_len(&e.from)
        + string_len(&e.handle.as_str())
        + string_len(&e.id)
        + string_len(&e.to)
}

/// The byte length of [`node`]'s text.
pub fn node_len(node: &Node) -> usize {
    let mut n = "{\"definition\":,\"id\":,\"kind\":}".len()
        + map_len(&node.definition)
        + string_len(&node.id)
        + string_len(node.kind.as_str());
    if let Some(p) = &node.phase {
        n += ",\"phase\":".len() + string_len(p);
    }
    n
}

fn digits(v: u64) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The length of a string literal as [`string`] writes it.
fn string_len(s: &str) -> usize {
    let mut n = 2 + s.len();
    // Almost no string needs escaping: count candidates branch-free first
    // (this loop vectorises) and walk the bytes only when there are some.
    let special = s
        .bytes()
        .map(|b| usize::from(b < 0x20 || b == b'"' || b == b'\\'))
        .sum::<usize>();
    if special == 0 {
        return n;
    }
    for b in s.bytes() {
        match b {
            b'"' | b'\\' | 0x08 | b'\t' | b'\n' | 0x0C | b'\r' => n += 1,
            b if b < 0x20 => n += 5,
            _ => {}
        }
    }
    n
}

/// The length of [`number`]'s text, without writing it for integers.
fn number_len(x: f64) -> usize {
    // Integers below 10^15 print as their digits (with a sign).
    if x.fract() == 0.0 && x.abs() < 1e15 {
        let mag = x.abs() as u64;
        return usize::from(x < 0.0) + digits(mag);
    }
    number(x).len()
}

fn map_len(m: &Map) -> usize {
    let mut n = 2 + m.len().saturating_sub(1);
    for (k, v) in m.iter() {
        n += string_len(k) + 1 + value_len(v);
    }
    n
}

fn value_len(v: &Value) -> usize {
    match v {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(x) => number_len(*x),
        Value::String(s) => string_len(s),
        Value::Array(a) => 2 + a.len().saturating_sub(1) + a.iter().map(value_len).sum::<usize>(),
        Value::Object(m) => map_len(m),
        Value::Ref(r) => "{\"$ref\":}".len() + reference_len(r),
        Value::Param(p) => "{\"$param\":{\"path\":}}".len() + string_len(&p.path),
    }
}

/// The length of [`reference`]'s text.
fn reference_len(r: &Ref) -> usize {
    let mut n = "{\"node\":,\"select\":}".len() + string_len(&r.node);
    if let Some(b) = &r.branch_id {
        n += ",\"branchId\":".len() + branch_len(b);
    }
    if let Some(p) = &r.path {
        n += ",\"path\":".len() + string_len(p);
    }
    n += match &r.select {
        Select::First => string_len("first"),
        Select::Last => string_len("last"),
        Select::All => string_len("all"),
        Select::Index(i) => "{\"index\":}".len() + digits(*i),
    };
    n
}

/// The length of [`branch`]'s text.
fn branch_len(b: &BranchId) -> usize {
    let segs = &b.segments;
    let mut n = "{\"segments\":[]}".len() + segs.len().saturating_sub(1);
    for s in segs {
        n += match s {
            Segment::Edge(e) => "{\"edge\":}".len() + string_len(e),
            Segment::Join { join, of } => {
                "{\"join\":,\"of\":[]}".len()
                    + string_len(join)
                    + of.len().saturating_sub(1)
                    + of.iter().map(|e| string_len(e)).sum::<usize>()
            }
        };
    }
    n
}

/// The digest of plan content and the byte length of the text it hashed
/// (the plan's encoded size, checked against `maxEncodedBytes`). The text
/// is hashed as it is written, a few kilobytes at a time: at 100,000 nodes
/// it is ≈ 90 MB that would otherwise be built (and grown) first.
pub fn digest(c: &Content) -> (String, usize) {
    use sha2::{Digest, Sha256};
    const FLUSH_AT: usize = 16 * 1024;
    let mut hasher = Sha256::new();
    let mut len = 0;
    let mut out = String::with_capacity(FLUSH_AT + 4096);
    let mut hash = |out: &mut String| {
        hasher.update(out.as_bytes());
        len += out.len();
        out.clear();
    };
    write(&Parts::of(c), &mut out, |out| {
        if out.len() >= FLUSH_AT {
            hash(out);
        }
    });
    hash(&mut out);
    (crate::model::hash::hex(&hasher.finalize()), len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::hash::hex_sha256;

    #[test]
    fn rfc8785_number_vectors() {
        // Appendix B of RFC 8785 (IEEE 754 bit patterns → expected text).
        let cases: &[(u64, &str)] = &[
            (0x0000000000000000, "0"),
            (0x8000000000000000, "0"),
            (0x0000000000000001, "5e-324"),
            (0x8000000000000001, "-5e-324"),
            (0x7fefffffffffffff, "1.7976931348623157e+308"),
            (0xffefffffffffffff, "-1.7976931348623157e+308"),
            (0x4340000000000000, "9007199254740992"),
            (0xc340000000000000, "-9007199254740992"),
            (0x4430000000000000, "295147905179352830000"),
            (0x44b52d02c7e14af5, "9.999999999999997e+22"),
            (0x44b52d02c7e14af6, "1e+23"),
            (0x44b52d02c7e14af7, "1.0000000000000001e+23"),
            (0x444b1ae4d6e2ef4e, "999999999999999700000"),
            (0x444b1ae4d6e2ef4f, "999999999999999900000"),
            (0x444b1ae4d6e2ef50, "1e+21"),
            (0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"),
            (0x3eb0c6f7a0b5ed8d, "0.000001"),
            (0x41b3de4355555553, "333333333.3333332"),
            (0x41b3de4355555554, "333333333.33333325"),
            (0x41b3de4355555555, "333333333.3333333"),
            (0x41b3de4355555556, "333333333.3333334"),
            (0x41b3de4355555557, "333333333.33333343"),
            (0xbecbf647612f3696, "-0.0000033333333333333333"),
            (0x43143ff3c1cb0959, "1424953923781206.2"),
        ];
        for (bits, want) in cases {
            assert_eq!(number(f64::from_bits(*bits)), *want, "bits {bits:016x}");
        }
    }

    #[test]
    fn encoded_len_matches_the_text() {
        let mut c = Content::empty("plan-x\u{e9}");
        c.revision = 1234;
        c.bounds.max_nodes = 1;
        let def = crate::wire::convert::from_json(
            &serde_json::json!({"a": [1, 2.5, -0.001, 1.5e-9, null, true, false, "q\"\\\n\u{1}\u{7f}é",
                -42, 0, -0.0, 999_999_999_999_999_i64, 1e15, -1e15, 9_007_199_254_740_991_i64, -9_007_199_254_740_991_i64, 1.25e-300, 2.5e-7, 123.5, "plain", ""],
                "r": {"$ref": {"node": "n", "select": {"index": 3}, "path": "p.q"}},
                "h": {"$param": {"path": "x\"y"}}, "e": {}, "l": [],
                "refs": [{"$ref": {"node": "m", "select": "first"}}, {"$ref": {"node": "m", "select": "last"}},
                    {"$ref": {"node": "m", "select": "all", "path": "a"}},
                    {"$ref": {"node": "m", "select": {"index": 0}}},
                    {"$ref": {"node": "m", "select": "first", "branchId": {"segments": []}}},
                    {"$ref": {"node": "m", "select": "last", "path": "z", "branchId": {"segments": [
                        {"edge": "e\u{2}"}, {"join": "j", "of": []}, {"join": "j", "of": ["a", "b\\"]}]}}}]}),
            "",
        )
        .unwrap();
        c.nodes.push(crate::model::Node {
            id: "n".into(),
            phase: Some("p h".into()),
            kind: crate::model::NodeKind::Call,
            definition: def.as_object().unwrap().clone().into(),
        });
        c.nodes.push(crate::model::Node {
            id: "m".into(),
            phase: None,
            kind: crate::model::NodeKind::Join,
            definition: Map::new().into(),
        });
        c.edges.push(crate::model::Edge {
            id: "e".into(),
            from: "n".into(),
            to: "m".into(),
            handle: crate::model::Handle::parse("case_x"),
        });
        assert_eq!(encoded_len(&c), content(&c).len());
        c.provenance = Some(Provenance::Template {
            template: "t".into(),
            args: Map::new(),
        });
        assert_eq!(encoded_len(&c), content(&c).len());
        assert_eq!(
            encoded_len(&Content::empty("plan-e")),
            content(&Content::empty("plan-e")).len()
        );
    }

    #[test]
    fn the_digest_hashes_the_text_as_written_in_pieces() {
        let mut c = Content::empty("plan-x");
        c.revision = 7;
        for i in 0..2_000 {
            let id = format!("n{i:04}");
            let def = crate::wire::convert::from_json(
                &serde_json::json!({"tool": "t", "note": "é".repeat(i % 50)}),
                "",
            )
            .unwrap();
            c.nodes.push(crate::model::Node {
                id: id.as_str().into(),
                phase: None,
                kind: crate::model::NodeKind::Call,
                definition: def.as_object().unwrap().clone().into(),
            });
            if i > 0 {
                c.edges.push(crate::model::Edge {
                    id: format!("e{i}").as_str().into(),
                    from: format!("n{:04}", i - 1).as_str().into(),
                    to: id.as_str().into(),
                    handle: crate::model::Handle::parse("always"),
                });
            }
        }
        let text = content(&c);
        assert!(text.len() > 200_000);
        assert_eq!(digest(&c), (hex_sha256(text.as_bytes()), text.len()));
        let empty = Content::empty("plan-e");
        let text = content(&empty);
        assert_eq!(digest(&empty), (hex_sha256(text.as_bytes()), text.len()));
    }

    #[test]
    fn every_character_is_written_as_json_writes_it() {
        let mut all: String = (0u8..0x80).map(char::from).collect();
        all.push_str("é€\u{1d11e}\u{2028}\u{7f}x");
        let samples = [
            all.clone(),
            all.chars().rev().collect(),
            String::new(),
            "plain".into(),
        ];
        for text in samples
            .iter()
            .chain(all.chars().map(String::from).collect::<Vec<_>>().iter())
        {
            let mut out = String::new();
            string(&mut out, text);
            assert_eq!(out, serde_json::to_string(text).unwrap(), "{text:?}");
            assert_eq!(out.len(), string_len(text), "{text:?}");
        }
    }

    #[test]
    fn a_number_in_a_value_is_written_as_number_writes_it() {
        for n in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            7.0,
            8192.0,
            -123.0,
            0.5,
            -2.5,
            1e-7,
            123.456,
            999_999_999_999_999.0,
            1e15,
            -1e15,
            1e16,
            9_007_199_254_740_991.0,
            1e21,
            1e300,
        ] {
            let mut out = String::new();
            value(&mut out, &Value::Number(n));
            assert_eq!(out, number(n), "{n:e}");
            assert_eq!(out.len(), value_len(&Value::Number(n)), "{n:e}");
        }
    }

    #[test]
    fn strings_and_key_order() {
        let mut s = String::new();
        string(&mut s, "a\"\\\n\u{1}€");
        assert_eq!(s, "\"a\\\"\\\\\\n\\u0001€\"");
        let mut m = Map::new();
        m.insert("b".into(), Value::Number(1.0));
        m.insert("a".into(), Value::Null);
        m.insert("\u{fb33}".into(), Value::Bool(true));
        // U+1D11E is a surrogate pair (D834 DD1E): before U+FB33 in UTF-16
        // order, although after it in code point order.
        m.insert("\u{1d11e}".into(), Value::Bool(false));
        let mut out = String::new();
        map(&mut out, &m);
        assert_eq!(
            out,
            "{\"a\":null,\"b\":1,\"\u{1d11e}\":false,\"\u{fb33}\":true}"
        );
    }
}
