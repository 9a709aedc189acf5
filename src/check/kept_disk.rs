//! The incremental checks' kept state as bytes (issue 17), so a one-shot
//! process can start from what the last one kept instead of checking the
//! whole plan: [`Persist`] writes a value to a byte buffer ([`Out`]) and
//! reads it back ([`In`]), field by field, in a compact form of its own
//! (integers in LEB128, lengths before contents, the strings' text apart
//! and validated once).
//!
//! Reading never trusts the bytes: a length longer than what is left, a
//! tag out of range, text that is not UTF-8 or a finding that does not
//! read back gives `None` (the caller then checks everything afresh), and
//! no allocation is made larger than the bytes left could fill. The bytes
//! are checked against a checksum by the store before they get here; this
//! is the second line, against a reader of another layout.
//!
//! Deserialised to owned values, not read in place: the incremental run
//! updates its maps and vectors in place, and an archive would have to be
//! copied out first anyway. An rkyv archive of the largest part
//! (`KeptNodes`), validated (bytecheck) and copied out, cost twice this
//! form's reading at 100,000 nodes (160 M instructions against 78 M:
//! `docs/performance.md`, session 14), so the form stays this one.

use crate::model::hash::{FastMap, FastSet};
use crate::model::{BranchId, Issue, Ref, Report, Segment, Select};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::Hash;

/// Bytes being written: the values, and apart from them the text of
/// every string in the order written (so that reading validates the text
/// as UTF-8 once, not string by string).
#[derive(Default)]
pub(crate) struct Out {
    bytes: Vec<u8>,
    text: String,
}

impl Out {
    /// `v` in LEB128: seven bits a byte, low first, the high bit set on
    /// every byte but the last (most counts, positions and lengths are
    /// small: one to three bytes instead of eight).
    #[inline]
    fn u64(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.bytes.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.bytes.push(v as u8);
    }
    #[inline]
    fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }
    /// A list of `u32`s at a fixed width (its length first), read back in
    /// bulk by [`In::u32s`]: for long lists of positions, where reading
    /// each as a varint cost more than the bytes saved.
    pub(crate) fn u32s(&mut self, v: &[u32]) {
        self.u64(v.len() as u64);
        self.bytes.reserve(v.len() * 4);
        for x in v {
            self.bytes.extend_from_slice(&x.to_le_bytes());
        }
    }
    /// Bytes as they are, their length first (read back by [`In::blob`]).
    pub(crate) fn blob(&mut self, b: &[u8]) {
        self.u64(b.len() as u64);
        self.bytes.extend_from_slice(b);
    }
    /// What `write` writes, as a buffer of its own (its own text) written
    /// as a blob: found by [`In::part_span`] and read back apart from the
    /// rest by [`In::open_part`], so that parts can be read on different
    /// threads ([`super::kept_parts`]).
    pub(crate) fn part(&mut self, write: impl FnOnce(&mut Out)) {
        let mut part = Out::default();
        write(&mut part);
        self.blob(&part.finish());
    }
    /// What was written, as one buffer: the text's length, the text, the
    /// values.
    pub(crate) fn finish(self) -> Vec<u8> {
        let mut head = Out::default();
        head.u64(self.text.len() as u64);
        let mut all = head.bytes;
        all.reserve(self.text.len() + self.bytes.len());
        all.extend_from_slice(self.text.as_bytes());
        all.extend_from_slice(&self.bytes);
        all
    }
}

/// Bytes being read: the values left, and the strings' text left.
pub(crate) struct In<'a> {
    rest: &'a [u8],
    text: &'a str,
    /// The buffer being read, when it is shared ([`In::open_shared`]).
    shared: Option<&'a Shared>,
}

/// A buffer of kept bytes that what is read from it may keep a share of
/// (the mapped kept state).
pub(crate) type Shared = std::sync::Arc<dyn std::ops::Deref<Target = [u8]> + Send + Sync>;

/// Bytes kept to be decoded later ([`In::blob_kept`]): a part of a
/// [`Shared`] buffer, or a copy when the buffer is not shared.
#[derive(Clone)]
pub(crate) enum Blob {
    Own(Vec<u8>),
    Part(Shared, std::ops::Range<usize>),
}

impl Default for Blob {
    fn default() -> Blob {
        Blob::Own(Vec::new())
    }
}

impl std::ops::Deref for Blob {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Blob::Own(v) => v,
            Blob::Part(all, range) => &all[range.clone()],
        }
    }
}

impl<'a> In<'a> {
    /// What [`Out::finish`] wrote: `None` when the text is not there whole
    /// or is not UTF-8.
    pub(crate) fn open(all: &'a [u8]) -> Option<In<'a>> {
        let mut inp = In {
            rest: all,
            text: "",
            shared: None,
        };
        let n = usize::try_from(inp.u64()?).ok()?;
        let text = std::str::from_utf8(inp.take(n)?).ok()?;
        Some(In { text, ..inp })
    }
    /// As [`In::open`], over a shared buffer: blobs kept from it
    /// ([`In::blob_kept`]) are parts of it, not copies.
    pub(crate) fn open_shared(all: &'a Shared) -> Option<In<'a>> {
        let bytes: &'a [u8] = all;
        let inp = In::open(bytes)?;
        Some(In {
            shared: Some(all),
            ..inp
        })
    }
    /// Whether every byte was read.
    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty() && self.text.is_empty()
    }
    /// The next `n` bytes of text, when they end on a character's end.
    #[inline]
    fn text(&mut self, n: usize) -> Option<&'a str> {
        let head = self.text.get(..n)?;
        self.text = &self.text[n..];
        Some(head)
    }
    #[inline]
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, rest) = self.rest.split_at(n);
        self.rest = rest;
        Some(head)
    }
    /// What [`Out::u64`] wrote: at most ten bytes, the last one's high
    /// bit clear, no bits beyond 64.
    #[inline]
    fn u64(&mut self) -> Option<u64> {
        // Most are one byte.
        if let Some((&b, rest)) = self.rest.split_first()
            && b < 0x80
        {
            self.rest = rest;
            return Some(u64::from(b));
        }
        let mut v: u64 = 0;
        for (i, &b) in self.rest.iter().enumerate().take(10) {
            let bits = u64::from(b & 0x7f);
            if i == 9 && bits > 1 {
                return None;
            }
            v |= bits << (7 * i);
            if b & 0x80 == 0 {
                self.rest = &self.rest[i + 1..];
                return Some(v);
            }
        }
        None
    }
    #[inline]
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    /// What [`Out::u32s`] wrote.
    pub(crate) fn u32s(&mut self) -> Option<Vec<u32>> {
        let n = self.count(4)?;
        let raw = self.take(n * 4)?;
        Some(roomy(
            raw.chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        ))
    }
    /// What [`Persist::put`] of a `String` wrote.
    fn string(&mut self) -> Option<String> {
        let n = usize::try_from(self.u64()?).ok()?;
        Some(self.text(n)?.to_string())
    }
    /// What [`Out::blob`] wrote.
    pub(crate) fn blob(&mut self) -> Option<&'a [u8]> {
        let n = self.count(1)?;
        self.take(n)
    }
    /// Where what [`Out::part`] wrote lies in the shared buffer this
    /// reads (to open it later with [`In::open_part`]); `None` when it is
    /// cut or this does not read a shared buffer.
    pub(crate) fn part_span(&mut self) -> Option<std::ops::Range<usize>> {
        let all = self.shared?;
        let b = self.blob()?;
        Some(span_in(all, b))
    }
    /// The part at `span` of `all` ([`In::part_span`]), opened to read
    /// (what is kept of it is a share of `all`).
    pub(crate) fn open_part(all: &'a Shared, span: std::ops::Range<usize>) -> Option<In<'a>> {
        let bytes: &'a [u8] = all;
        let inp = In::open(bytes.get(span)?)?;
        Some(In {
            shared: Some(all),
            ..inp
        })
    }
    /// What [`Out::blob`] wrote, to keep: a part of the buffer when it is
    /// shared (at 100,000 nodes the per-node facts are 5.6 MB that a copy
    /// would make fresh), else a copy.
    pub(crate) fn blob_kept(&mut self) -> Option<Blob> {
        let b = self.blob()?;
        Some(self.kept(b))
    }
    /// What [`Persist::put`] of a `String` wrote, to keep (as
    /// [`In::blob_kept`]): UTF-8 from end to end.
    pub(crate) fn text_kept(&mut self) -> Option<Blob> {
        let n = usize::try_from(self.u64()?).ok()?;
        let t = self.text(n)?.as_bytes();
        Some(self.kept(t))
    }
    /// What [`Out::u32s`] wrote, to keep as they lie ([`Words`]).
    pub(crate) fn u32s_kept(&mut self) -> Option<Words> {
        let n = self.count(4)?;
        let raw = self.take(n * 4)?;
        Some(Words(self.kept(raw)))
    }
    /// `b`, read from this buffer, kept: a part of it when it is shared.
    fn kept(&self, b: &[u8]) -> Blob {
        match self.shared {
            Some(all) => Blob::Part(all.clone(), span_in(all, b)),
            None => Blob::Own(b.to_vec()),
        }
    }
    /// A count of items each at least `min` bytes long: `None` when the
    /// bytes left cannot hold them (so no allocation is made for them).
    #[inline]
    fn count(&mut self, min: usize) -> Option<usize> {
        let n = usize::try_from(self.u64()?).ok()?;
        (n.saturating_mul(min.max(1)) <= self.rest.len()).then_some(n)
    }
}

/// A list of `u32`s as [`Out::u32s`] wrote them (little-endian), kept
/// where they lie and each read when asked for ([`In::u32s_kept`]).
#[derive(Clone, Default)]
pub(crate) struct Words(Blob);

impl Words {
    pub(crate) fn len(&self) -> usize {
        self.0.len() / 4
    }
    /// The items as they lie (little-endian).
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.0
    }
    /// In a list of where each of a run of spans ends: where span `k`
    /// lies (from where the one before ends).
    #[inline]
    pub(crate) fn span(&self, k: usize) -> std::ops::Range<usize> {
        span_by(k, |i| self.get(i) as usize)
    }
    /// Whether, as such a list, it never goes back and ends at `total`.
    pub(crate) fn ends_at(&self, total: usize) -> bool {
        let mut last = 0;
        self.iter().all(|e| {
            let ok = e >= last;
            last = e;
            ok
        }) && last as usize == total
    }
    /// Item `k` (below [`Words::len`]).
    #[inline]
    pub(crate) fn get(&self, k: usize) -> u32 {
        let b: &[u8] = &self.0;
        let w = &b[k * 4..k * 4 + 4];
        u32::from_le_bytes([w[0], w[1], w[2], w[3]])
    }
    /// Every item, in order.
    pub(crate) fn iter(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.0
            .chunks_exact(4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    }
}

/// Bisection over `len` items by `cmp` (how item `k` compares with what
/// is looked for), as [`slice::binary_search_by`] answers, for items read
/// where they lie rather than from a slice.
pub(crate) fn bisect(
    len: usize,
    cmp: impl Fn(usize) -> std::cmp::Ordering,
) -> Result<usize, usize> {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match cmp(mid) {
            std::cmp::Ordering::Less => lo = mid + 1,
            std::cmp::Ordering::Greater => hi = mid,
            std::cmp::Ordering::Equal => return Ok(mid),
        }
    }
    Err(lo)
}

/// In a run of spans given by where each ends (`end(i)`): where span `k`
/// lies, from where the one before ends.
#[inline]
pub(crate) fn span_by(k: usize, end: impl Fn(usize) -> usize) -> std::ops::Range<usize> {
    let start = if k == 0 { 0 } else { end(k - 1) };
    start..end(k)
}

/// Where `b`, cut from the bytes of `all`, lies in them.
fn span_in(all: &Shared, b: &[u8]) -> std::ops::Range<usize> {
    let start = b.as_ptr() as usize - all.as_ptr() as usize;
    start..start + b.len()
}

/// A value written as bytes and read back.
pub(crate) trait Persist: Sized {
    fn put(&self, out: &mut Out);
    fn get(inp: &mut In<'_>) -> Option<Self>;
    /// The fewest bytes one value takes (bounds a count against the bytes
    /// left).
    const MIN: usize = 1;
}

/// [`Persist`] for a struct, field by field in the order given (every
/// field must be listed: the struct literal fails to compile otherwise).
/// `field as Codec` writes and reads that field through a [`Via`] codec
/// (the bulk forms of long lists of positions and flags) instead of its
/// own [`Persist`] (not in the form with `..`).
macro_rules! persist_fields {
    // `..` after the fields: the others are caches, made again when needed
    // (they start as `Default::default()` gives them).
    ($t:ty { $($f:ident),* $(,)? .. }) => {
        impl $crate::check::kept_disk::Persist for $t {
            fn put(&self, out: &mut $crate::check::kept_disk::Out) {
                $( $crate::check::kept_disk::Persist::put(&self.$f, out); )*
            }
            fn get(inp: &mut $crate::check::kept_disk::In<'_>) -> Option<Self> {
                Some(Self {
                    $( $f: $crate::check::kept_disk::Persist::get(inp)?, )*
                    ..Default::default()
                })
            }
        }
    };
    ($t:ty { $($f:ident $(as $c:ty)?),* $(,)? }) => {
        impl $crate::check::kept_disk::Persist for $t {
            fn put(&self, out: &mut $crate::check::kept_disk::Out) {
                $( $crate::check::kept_disk::persist_put!(&self.$f, out $(, $c)?); )*
            }
            fn get(inp: &mut $crate::check::kept_disk::In<'_>) -> Option<Self> {
                // Fields are evaluated in the order written.
                Some(Self { $( $f: $crate::check::kept_disk::persist_get!(inp $(, $c)?)?, )* })
            }
        }
    };
}
/// One field's write for [`persist_fields!`].
macro_rules! persist_put {
    ($v:expr, $out:ident) => {
        $crate::check::kept_disk::Persist::put($v, $out)
    };
    ($v:expr, $out:ident, $c:ty) => {
        <$c as $crate::check::kept_disk::Via<_>>::put($v, $out)
    };
}
/// One field's read for [`persist_fields!`].
macro_rules! persist_get {
    ($inp:ident) => {
        $crate::check::kept_disk::Persist::get($inp)
    };
    ($inp:ident, $c:ty) => {
        <$c as $crate::check::kept_disk::Via<_>>::get($inp)
    };
}
pub(crate) use persist_fields;
pub(crate) use persist_get;
pub(crate) use persist_put;

impl Persist for u64 {
    #[inline]
    fn put(&self, out: &mut Out) {
        out.u64(*self);
    }
    #[inline]
    fn get(inp: &mut In<'_>) -> Option<u64> {
        inp.u64()
    }
    const MIN: usize = 1;
}

impl Persist for usize {
    #[inline]
    fn put(&self, out: &mut Out) {
        out.u64(*self as u64);
    }
    #[inline]
    fn get(inp: &mut In<'_>) -> Option<usize> {
        usize::try_from(inp.u64()?).ok()
    }
    const MIN: usize = 1;
}

impl Persist for bool {
    #[inline]
    fn put(&self, out: &mut Out) {
        out.u8(u8::from(*self));
    }
    #[inline]
    fn get(inp: &mut In<'_>) -> Option<bool> {
        match inp.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl Persist for String {
    fn put(&self, out: &mut Out) {
        out.u64(self.len() as u64);
        out.text.push_str(self);
    }
    fn get(inp: &mut In<'_>) -> Option<String> {
        inp.string()
    }
    const MIN: usize = 1;
}

impl<T: Persist> Persist for Option<T> {
    #[inline]
    fn put(&self, out: &mut Out) {
        match self {
            None => out.u8(0),
            Some(v) => {
                out.u8(1);
                v.put(out);
            }
        }
    }
    #[inline]
    fn get(inp: &mut In<'_>) -> Option<Option<T>> {
        match inp.u8()? {
            0 => Some(None),
            1 => Some(Some(T::get(inp)?)),
            _ => None,
        }
    }
}

impl<A: Persist, B: Persist> Persist for (A, B) {
    #[inline]
    fn put(&self, out: &mut Out) {
        self.0.put(out);
        self.1.put(out);
    }
    #[inline]
    fn get(inp: &mut In<'_>) -> Option<(A, B)> {
        Some((A::get(inp)?, B::get(inp)?))
    }
    const MIN: usize = A::MIN + B::MIN;
}

/// Writes a length, then each item.
fn put_all<'t, T: Persist + 't>(len: usize, items: impl Iterator<Item = &'t T>, out: &mut Out) {
    out.u64(len as u64);
    for v in items {
        v.put(out);
    }
}

/// A map's entries, its length first (as [`put_all`] writes a list).
fn put_pairs<'t, K: Persist + 't, V: Persist + 't>(
    len: usize,
    items: impl Iterator<Item = (&'t K, &'t V)>,
    out: &mut Out,
) {
    out.u64(len as u64);
    for (k, v) in items {
        k.put(out);
        v.put(out);
    }
}

/// Reads a map's entries as [`put_pairs`] wrote them into `m` with
/// `insert`; `None` when one is damaged or a key comes twice (`len` tells
/// the map's length after).
fn get_pairs<K: Persist, V: Persist, M>(
    inp: &mut In<'_>,
    n: usize,
    mut m: M,
    insert: impl Fn(&mut M, K, V),
    len: impl Fn(&M) -> usize,
) -> Option<M> {
    for _ in 0..n {
        let k = K::get(inp)?;
        insert(&mut m, k, V::get(inp)?);
    }
    (len(&m) == n).then_some(m)
}

impl<T: Persist> Persist for Vec<T> {
    fn put(&self, out: &mut Out) {
        put_all(self.len(), self.iter(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Vec<T>> {
        let n = inp.count(T::MIN)?;
        let mut v = with_room(n);
        for _ in 0..n {
            v.push(T::get(inp)?);
        }
        Some(v)
    }
    const MIN: usize = 1;
}

impl<K: Persist + Eq + Hash, V: Persist> Persist for FastMap<K, V> {
    fn put(&self, out: &mut Out) {
        put_pairs(self.len(), self.iter(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Self> {
        let n = inp.count(K::MIN + V::MIN)?;
        let m = FastMap::with_capacity_and_hasher(n, Default::default());
        get_pairs(inp, n, m, |m, k, v| drop(m.insert(k, v)), Self::len)
    }
    const MIN: usize = 1;
}

impl<K: Persist + Eq + Hash> Persist for FastSet<K> {
    fn put(&self, out: &mut Out) {
        put_all(self.len(), self.iter(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Self> {
        let n = inp.count(K::MIN)?;
        let mut s = FastSet::with_capacity_and_hasher(n, Default::default());
        for _ in 0..n {
            s.insert(K::get(inp)?);
        }
        (s.len() == n).then_some(s)
    }
    const MIN: usize = 1;
}

impl<K: Persist + Ord, V: Persist> Persist for BTreeMap<K, V> {
    fn put(&self, out: &mut Out) {
        put_pairs(self.len(), self.iter(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Self> {
        let n = inp.count(K::MIN + V::MIN)?;
        get_pairs(
            inp,
            n,
            BTreeMap::new(),
            |m, k, v| drop(m.insert(k, v)),
            Self::len,
        )
    }
    const MIN: usize = 1;
}

impl<K: Persist + Ord> Persist for BTreeSet<K> {
    fn put(&self, out: &mut Out) {
        put_all(self.len(), self.iter(), out);
    }
    /// Written in order: read as a list, each item above the one before
    /// (so each once), and the set built from it in bulk.
    fn get(inp: &mut In<'_>) -> Option<Self> {
        let items: Vec<K> = Vec::get(inp)?;
        items
            .windows(2)
            .all(|w| w[0] < w[1])
            .then(|| items.into_iter().collect())
    }
    const MIN: usize = 1;
}

/// Findings: as the checkpoint keeps them (`wire::findings`, which reads
/// back every field), a JSON text per list.
impl Persist for Issue {
    fn put(&self, out: &mut Out) {
        let report = Report {
            issues: vec![self.clone()],
            skipped: Vec::new(),
        };
        crate::wire::findings::report_text(&report).put(out);
    }
    fn get(inp: &mut In<'_>) -> Option<Issue> {
        let text = String::get(inp)?;
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        let codes = |c: &str| super::by_code(c).map(|c| c.code());
        let mut r = crate::wire::findings::report_from_json(&v, codes)?;
        (r.issues.len() == 1).then(|| r.issues.pop())?
    }
    const MIN: usize = 1;
}

impl Persist for Select {
    fn put(&self, out: &mut Out) {
        match self {
            Select::First => out.u8(0),
            Select::Last => out.u8(1),
            Select::All => out.u8(2),
            Select::Index(i) => {
                out.u8(3);
                out.u64(*i);
            }
        }
    }
    fn get(inp: &mut In<'_>) -> Option<Select> {
        Some(match inp.u8()? {
            0 => Select::First,
            1 => Select::Last,
            2 => Select::All,
            3 => Select::Index(inp.u64()?),
            _ => return None,
        })
    }
}

impl Persist for Segment {
    fn put(&self, out: &mut Out) {
        match self {
            Segment::Edge(e) => {
                out.u8(0);
                e.put(out);
            }
            Segment::Join { join, of } => {
                out.u8(1);
                join.put(out);
                of.put(out);
            }
        }
    }
    fn get(inp: &mut In<'_>) -> Option<Segment> {
        Some(match inp.u8()? {
            0 => Segment::Edge(String::get(inp)?),
            1 => Segment::Join {
                join: String::get(inp)?,
                of: Vec::get(inp)?,
            },
            _ => return None,
        })
    }
}

persist_fields!(BranchId { segments });
persist_fields!(Ref {
    node,
    select,
    path,
    branch_id
});

/// Another way than its own [`Persist`] to write and read a `T` (see
/// [`persist_fields!`]).
pub(crate) trait Via<T> {
    fn put(v: &T, out: &mut Out);
    fn get(inp: &mut In<'_>) -> Option<T>;
}

/// A vector for `n` items read back, with room for a few more: a command
/// that adds a node or an edge pushes one to many of them, which at the
/// exact length would make each copy itself whole into a new allocation
/// (at 100,000 nodes, tens of MB moved and faulted in). Room never
/// written costs no memory.
pub(crate) fn with_room<T>(n: usize) -> Vec<T> {
    let mut v = Vec::with_capacity(n + n / 64 + 16);
    crate::model::pages::populate(&mut v);
    v
}

/// `items` collected into a vector [`with_room`].
pub(crate) fn roomy<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut v = with_room(items.len());
    v.extend(items);
    v
}

/// A `Vec<usize>` at a fixed width read in bulk: a width byte (4 when
/// every value fits 32 bits, else 8), the count, the values little-endian.
/// Long lists of positions read this way cost a few instructions a value
/// instead of a varint's call each.
pub(crate) struct Flat;

impl Via<Vec<usize>> for Flat {
    fn put(v: &Vec<usize>, out: &mut Out) {
        let narrow = v.iter().all(|&x| u32::try_from(x).is_ok());
        out.u8(if narrow { 4 } else { 8 });
        out.u64(v.len() as u64);
        if narrow {
            out.bytes.reserve(v.len() * 4);
            for &x in v {
                out.bytes.extend_from_slice(&(x as u32).to_le_bytes());
            }
        } else {
            out.bytes.reserve(v.len() * 8);
            for &x in v {
                out.bytes.extend_from_slice(&(x as u64).to_le_bytes());
            }
        }
    }
    fn get(inp: &mut In<'_>) -> Option<Vec<usize>> {
        Some(roomy(Raw::get(inp)?.iter()))
    }
}

/// A [`Flat`] list as it lies in the bytes, read value by value: what is
/// made of it (pairs, lists, options) is made in one pass, without a
/// vector of the values first.
#[derive(Clone, Copy)]
pub(crate) struct Raw<'a> {
    /// Bytes a value: 4, or 8.
    width: usize,
    bytes: &'a [u8],
}

impl<'a> Raw<'a> {
    /// What [`Flat`] wrote (a width of 8 only where a `usize` holds 64
    /// bits).
    pub(crate) fn get(inp: &mut In<'a>) -> Option<Raw<'a>> {
        let width = match inp.u8()? {
            4 => 4,
            8 if usize::BITS >= 64 => 8,
            _ => return None,
        };
        let n = inp.count(width)?;
        let bytes = inp.take(n * width)?;
        Some(Raw { width, bytes })
    }

    /// How many values.
    pub(crate) fn len(&self) -> usize {
        self.bytes.len() / self.width
    }

    /// The values, in order.
    pub(crate) fn iter(self) -> impl ExactSizeIterator<Item = usize> + 'a {
        self.bytes.chunks_exact(self.width).map(|c| match c {
            &[a, b, c, d] => u32::from_le_bytes([a, b, c, d]) as usize,
            c => {
                let mut w = [0u8; 8];
                w.copy_from_slice(c);
                u64::from_le_bytes(w) as usize
            }
        })
    }

    /// The values two by two (`None` for an odd count).
    pub(crate) fn pairs(self) -> Option<impl ExactSizeIterator<Item = (usize, usize)> + 'a> {
        let mut values = self.iter();
        self.len().is_multiple_of(2).then(move || {
            (0..self.len() / 2)
                .map(move |_| (values.next().unwrap_or(0), values.next().unwrap_or(0)))
        })
    }
}

/// A `Vec<Option<usize>>` (positions or none) as one [`Flat`] list, each
/// position plus one, 0 for none.
pub(crate) struct Opts;

impl Via<Vec<Option<usize>>> for Opts {
    fn put(v: &Vec<Option<usize>>, out: &mut Out) {
        Flat::put(&v.iter().map(|x| x.map_or(0, |p| p + 1)).collect(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Vec<Option<usize>>> {
        Some(roomy(Raw::get(inp)?.iter().map(|x| x.checked_sub(1))))
    }
}

/// A `Vec<(Option<usize>, usize)>` as one [`Flat`] list of pairs, the
/// first plus one (0 for none).
pub(crate) struct OptPairs;

impl Via<Vec<(Option<usize>, usize)>> for OptPairs {
    fn put(v: &Vec<(Option<usize>, usize)>, out: &mut Out) {
        let pair = |&(a, b): &(Option<usize>, usize)| [a.map_or(0, |p| p + 1), b];
        Flat::put(&v.iter().flat_map(pair).collect(), out);
    }
    fn get(inp: &mut In<'_>) -> Option<Vec<(Option<usize>, usize)>> {
        let pairs = Raw::get(inp)?.pairs()?;
        Some(roomy(pairs.map(|(a, b)| (a.checked_sub(1), b))))
    }
}

/// A `Vec<bool>` as one byte each (0 or 1), read in bulk.
pub(crate) struct Bits;

impl Via<Vec<bool>> for Bits {
    fn put(v: &Vec<bool>, out: &mut Out) {
        out.u64(v.len() as u64);
        out.bytes.extend(v.iter().map(|&b| u8::from(b)));
    }
    fn get(inp: &mut In<'_>) -> Option<Vec<bool>> {
        let n = inp.count(1)?;
        let raw = inp.take(n)?;
        raw.iter()
            .all(|&b| b <= 1)
            .then(|| roomy(raw.iter().map(|&b| b == 1)))
    }
}

/// An `Option<T>` whose value goes through the codec `C`.
pub(crate) struct Opt<C>(std::marker::PhantomData<C>);

impl<T, C: Via<T>> Via<Option<T>> for Opt<C> {
    fn put(v: &Option<T>, out: &mut Out) {
        match v {
            None => out.u8(0),
            Some(x) => {
                out.u8(1);
                C::put(x, out);
            }
        }
    }
    fn get(inp: &mut In<'_>) -> Option<Option<T>> {
        match inp.u8()? {
            0 => Some(None),
            1 => Some(Some(C::get(inp)?)),
            _ => None,
        }
    }
}

/// `value` as bytes.
pub(crate) fn to_bytes<T: Persist>(value: &T) -> Vec<u8> {
    let mut out = Out::default();
    value.put(&mut out);
    out.finish()
}

/// What [`to_bytes`] wrote, when `bytes` hold exactly one such value.
pub(crate) fn from_bytes<T: Persist>(bytes: &[u8]) -> Option<T> {
    read_whole(In::open(bytes)?)
}

/// [`from_bytes`] of a shared buffer (see [`In::open_shared`]).
#[cfg(test)]
pub(crate) fn from_shared<T: Persist>(bytes: &Shared) -> Option<T> {
    read_whole(In::open_shared(bytes)?)
}

/// A `T` read from `inp`, which it must take whole.
fn read_whole<T: Persist>(mut inp: In<'_>) -> Option<T> {
    let v = T::get(&mut inp)?;
    inp.is_empty().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::remedy::Remedy;

    #[test]
    fn values_read_back_and_damage_reads_as_nothing() {
        let mut m: FastMap<String, Vec<Issue>> = FastMap::default();
        let e = crate::check::testing::edge("e1", "a", "b", "always");
        let issue = super::super::dangling_edge::issue(&e, "b")
            .node("a")
            .fix(Remedy::Outline.when("it lists every node id"));
        m.insert("a".into(), vec![issue]);
        type T = (Vec<Option<(usize, usize)>>, FastMap<String, Vec<Issue>>);
        let v: T = (vec![Some((1, 2)), None], m);
        let bytes = to_bytes(&v);
        let back: T = from_bytes(&bytes).expect("reads back");
        assert_eq!(back, v);
        // Cut anywhere, or one byte too many: nothing.
        for cut in 0..bytes.len() {
            assert!(from_bytes::<T>(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(from_bytes::<T>(&longer).is_none());
        // A huge count is refused before anything is allocated.
        let mut huge = Out::default();
        huge.u64(1 << 40);
        assert!(from_bytes::<Vec<String>>(&huge.finish()).is_none());
        // Text that is not UTF-8, or cut inside a character, is refused.
        let word = to_bytes(&"é".to_string());
        let mut bad = word.clone();
        bad[1] = 0xff;
        assert!(from_bytes::<String>(&bad).is_none());
        let mut inside = Out::default();
        inside.u64(2);
        inside.text.push('é');
        inside.u64(1);
        assert!(from_bytes::<String>(&inside.finish()).is_none());
        // Numbers: every size reads back; more than 64 bits is refused.
        for n in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(
                from_bytes::<u64>(&{
                    let mut o = Out::default();
                    o.u64(n);
                    o.finish()
                }),
                Some(n)
            );
        }
        let mut over = vec![0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
        over.push(0x02);
        assert!(from_bytes::<u64>(&over).is_none());
        // A set reads back; one written out of order or with an item
        // twice is refused.
        let set: BTreeSet<usize> = [3, 1, 200].into_iter().collect();
        assert_eq!(from_bytes::<BTreeSet<usize>>(&to_bytes(&set)), Some(set));
        for items in [vec![1usize, 3, 2], vec![1, 1]] {
            assert!(from_bytes::<BTreeSet<usize>>(&to_bytes(&items)).is_none());
        }
        // A bad tag is refused.
        assert!(from_bytes::<Option<u64>>(&[7]).is_none());
        assert!(from_bytes::<bool>(&[2]).is_none());
    }

    /// Puts `v` through the codec `C` and reads it back (exactly).
    fn via<T, C: Via<T>>(v: &T) -> (Vec<u8>, Option<T>) {
        let mut out = Out::default();
        C::put(v, &mut out);
        let bytes = out.finish();
        let back = In::open(&bytes).and_then(|mut inp| {
            let v = C::get(&mut inp)?;
            inp.is_empty().then_some(v)
        });
        (bytes, back)
    }

    #[test]
    fn bulk_codecs_read_back_and_damage_reads_as_nothing() {
        let narrow = vec![0, 5, u32::MAX as usize];
        let wide = vec![0, usize::MAX, 7];
        for v in [&narrow, &wide, &Vec::new()] {
            assert_eq!(via::<_, Flat>(v).1.as_ref(), Some(v));
        }
        let bits = vec![true, false, true];
        assert_eq!(via::<_, Bits>(&bits).1, Some(bits.clone()));
        let opts = vec![Some(0), None, Some(9)];
        assert_eq!(via::<_, Opts>(&opts).1, Some(opts.clone()));
        let pairs = vec![(Some(0), 7), (None, usize::MAX)];
        assert_eq!(via::<_, OptPairs>(&pairs).1, Some(pairs.clone()));
        let opt = Some(narrow.clone());
        assert_eq!(via::<_, Opt<Flat>>(&opt).1, Some(opt.clone()));
        assert_eq!(via::<_, Opt<Flat>>(&None).1, Some(None));
        // Cut anywhere: nothing.
        let (bytes, _) = via::<_, OptPairs>(&pairs);
        for cut in 0..bytes.len() {
            let back = In::open(&bytes[..cut]).and_then(|mut inp| OptPairs::get(&mut inp));
            assert!(back.is_none(), "cut at {cut}");
        }
        // A width other than 4 or 8, a flag other than 0 or 1: nothing.
        let read = |bytes: &[u8], f: &dyn Fn(&mut In<'_>) -> bool| {
            In::open(bytes).is_some_and(|mut inp| f(&mut inp))
        };
        let mut o = Out::default();
        o.u8(5);
        o.u64(0);
        assert!(!read(&o.finish(), &|i| Flat::get(i).is_some()));
        let (mut b, _) = via::<_, Bits>(&bits);
        *b.last_mut().unwrap() = 2;
        assert!(!read(&b, &|i| Bits::get(i).is_some()));
    }
}
