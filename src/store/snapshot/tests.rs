//! The snapshot never answers for a log it is not the fold of: every way
//! the log or the snapshot can change leaves a one-shot load equal to a
//! fresh fold of the log.

use super::chunks::{HEADER, checksum};
use super::stamp::{HEAD_SAMPLE, TAIL_SAMPLE};
use super::*;
use crate::model::note::Note;
use crate::model::{Map, Node, NodeKind, OpBody, Value};
use crate::store::{Start, Store};
use std::path::PathBuf;

fn node(id: &str) -> Node {
    let mut definition = Map::new();
    definition.insert("note".into(), Value::String(format!("about {id}").into()));
    definition.insert(
        "list".into(),
        Value::Array(vec![Value::Number(1.5), Value::Bool(true), Value::Null]),
    );
    Node {
        id: id.into(),
        phase: Some("p1".into()),
        kind: NodeKind::Join,
        definition: definition.into(),
    }
}

fn store(dir: &Path) -> Store {
    let (s, _) = Store::init(dir, crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
    s.create(
        "plan-s",
        "ann",
        Start::default(),
        vec![
            OpBody::AddNode { node: node("a") },
            OpBody::AddNode { node: node("b") },
        ],
    )
    .unwrap();
    s.one_shot(false)
}

fn add(store: &Store, id: &str) {
    store
        .commit("plan-s", "bob", None, |_| {
            Ok(vec![OpBody::AddNode { node: node(id) }])
        })
        .unwrap();
}

fn plan_dir(store: &Store) -> PathBuf {
    store.plan_dir("plan-s").unwrap()
}

fn log_path(store: &Store) -> PathBuf {
    plan_dir(store).join(OPS_FILE)
}

/// A one-shot load, which must equal a fresh fold of the log; says whether
/// it came from the snapshot (and from which prefix).
fn same(store: &Store, why: &str) -> Option<u64> {
    let shot = store.load_one_shot("plan-s").unwrap();
    let cold = store.load_cold("plan-s", None, false).unwrap();
    assert_eq!(shot.content(), cold.content(), "{why}: content");
    assert_eq!(shot.digest(), cold.digest(), "{why}: digest");
    assert_eq!(shot.notes(), cold.notes(), "{why}: notes");
    assert_eq!(shot.meta, cold.meta, "{why}: lifecycle");
    assert_eq!(shot.log, cold.log, "{why}: log");
    assert_eq!(shot.head_revision, cold.head_revision, "{why}: head");
    shot.snapshot_at.filter(|_| shot.restored)
}

/// The length of the log prefix the snapshot on disk folds.
fn snap_len(store: &Store) -> Option<u64> {
    let o = Opened::open(&plan_dir(store))?;
    Some(view::head(&o)?.len.to_native())
}

fn log_len(store: &Store) -> u64 {
    std::fs::metadata(log_path(store)).unwrap().len()
}

#[test]
fn a_snapshot_is_written_then_used_and_extended_by_the_tail() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    assert_eq!(same(&s, "first read"), None, "nothing to start from");
    assert!(plan_dir(&s).join(FILE).is_file());
    let len = std::fs::metadata(log_path(&s)).unwrap().len();
    assert_eq!(same(&s, "second read"), Some(len), "from the snapshot");
    // Another process appends without touching the snapshot (a warm
    // session writes no snapshot): the tail is folded on top.
    let warm = s.clone().warm(std::sync::Arc::default());
    add(&warm, "c");
    assert_eq!(snap_len(&s), Some(len), "a warm write leaves the snapshot");
    // The old snapshot and the tail; the reader then writes a snapshot of
    // the whole log.
    let at = same(&s, "after another process appended");
    assert_eq!(at, Some(log_len(&s)));
    assert_eq!(snap_len(&s), Some(log_len(&s)));
    let c = s.load_one_shot("plan-s").unwrap();
    assert!(c.restored && c.content().node("c").is_some());
    // A one-shot write starts from the snapshot and leaves it alone while
    // the tail is short.
    let len = log_len(&s);
    add(&s, "d");
    add(&s, "e");
    assert_eq!(snap_len(&s), Some(len), "writes only append");
    let shot = s.load_to_write("plan-s").unwrap();
    assert!(shot.restored && shot.content().node("e").is_some());
    assert_eq!(
        snap_len(&s),
        Some(len),
        "nor does the load a write starts from"
    );
    assert_eq!(same(&s, "after one-shot writes"), Some(log_len(&s)));
}

#[test]
fn a_long_tail_makes_a_new_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    same(&s, "first read");
    let warm = s.clone().warm(std::sync::Arc::default());
    let mut i = 0;
    let len0 = std::fs::metadata(log_path(&s)).unwrap().len();
    while std::fs::metadata(log_path(&s)).unwrap().len() < len0 + REWRITE_TAIL + 1 {
        warm.commit("plan-s", "bob", None, |_| {
            Ok((0..200)
                .map(|j| OpBody::AddNode {
                    node: node(&format!("n{i}_{j}")),
                })
                .collect())
        })
        .unwrap();
        i += 1;
    }
    assert_eq!(snap_len(&s), Some(len0));
    assert_eq!(same(&s, "a long tail, folded"), Some(log_len(&s)));
    let len = log_len(&s);
    assert_eq!(snap_len(&s), Some(len));
    // A one-shot write past the threshold rewrites it (and only then).
    let mut i = 0;
    while log_len(&s) <= len + REWRITE_TAIL {
        s.commit("plan-s", "bob", None, |_| {
            Ok((0..200)
                .map(|j| OpBody::AddNode {
                    node: node(&format!("m{i}_{j}")),
                })
                .collect())
        })
        .unwrap();
        i += 1;
        let at = snap_len(&s).unwrap();
        assert!(at == len || at == log_len(&s), "{at}");
    }
    assert_eq!(
        snap_len(&s),
        Some(log_len(&s)),
        "rewritten past the threshold"
    );
    assert_eq!(same(&s, "after one-shot writes"), Some(log_len(&s)));
}

#[test]
fn a_shorter_log_is_folded_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    add(&s, "c");
    same(&s, "first read");
    let text = std::fs::read_to_string(log_path(&s)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    std::fs::write(log_path(&s), lines[..lines.len() - 1].join("\n") + "\n").unwrap();
    assert_eq!(same(&s, "after a truncation"), None);
    assert!(
        s.load_one_shot("plan-s")
            .unwrap()
            .content()
            .node("c")
            .is_none()
    );
    // Cut inside a line: a torn tail, reported as a fresh read reports it.
    let text = std::fs::read(log_path(&s)).unwrap();
    std::fs::write(log_path(&s), &text[..text.len() - 7]).unwrap();
    same(&s, "after a cut inside a line");
}

/// A store whose plan has forty nodes (n00 … n39) and no snapshot yet:
/// the next read writes one of the whole log (not of a prefix and a tail).
fn forty_nodes(dir: &Path) -> Store {
    let s = store(dir);
    for i in 0..40 {
        add(&s, &format!("n{i:02}"));
    }
    std::fs::remove_file(plan_dir(&s).join(FILE)).unwrap();
    s
}

#[test]
fn a_rewrite_of_the_same_length_is_folded_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let s = forty_nodes(dir.path());
    same(&s, "first read");
    let path = log_path(&s);
    let len = std::fs::metadata(&path).unwrap().len();
    assert_eq!(same(&s, "from the snapshot"), Some(len));
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find("\"n20\"").unwrap();
    assert!(
        at > HEAD_SAMPLE && at < text.len() - TAIL_SAMPLE,
        "between the samples"
    );
    let mut bytes = text.into_bytes();
    bytes[at + 1] = b'x';
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.write_all_at(&bytes, 0).unwrap();
    drop(f);
    assert_eq!(same(&s, "after a rewrite in place"), None);
    assert!(
        s.load_one_shot("plan-s")
            .unwrap()
            .content()
            .node("x20")
            .is_some()
    );
    // Another file of the same length at the path (a checkout, a restore).
    same(&s, "again");
    bytes[at + 1] = b'y';
    let other = dir.path().join("other");
    std::fs::write(&other, &bytes).unwrap();
    std::fs::rename(&other, &path).unwrap();
    assert_eq!(same(&s, "after another file replaced the log"), None);
    assert!(
        s.load_one_shot("plan-s")
            .unwrap()
            .content()
            .node("y20")
            .is_some()
    );
}

#[test]
fn a_changed_prefix_with_a_tail_is_folded_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    same(&s, "first read");
    let path = log_path(&s);
    // The first op changed, and a line appended: the sample at the start
    // of the prefix differs.
    let text = std::fs::read_to_string(&path).unwrap();
    let changed = text.replacen("\"a\"", "\"q\"", 1);
    assert_eq!(changed.len(), text.len());
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.write_all_at(changed.as_bytes(), 0).unwrap();
    drop(f);
    let warm = s.clone().warm(std::sync::Arc::default());
    add(&warm, "c");
    assert_eq!(same(&s, "after a rewrite and an append"), None);
    assert!(
        s.load_one_shot("plan-s")
            .unwrap()
            .content()
            .node("q")
            .is_some()
    );
}

#[test]
fn an_edit_in_the_middle_then_an_append_is_folded_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let s = forty_nodes(dir.path());
    same(&s, "first read");
    let path = log_path(&s);
    add(&s, "m1");
    // Appends by planforge: the snapshot and the tail.
    assert!(same(&s, "after an append").is_some());
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text.find("\"n20\"").unwrap();
    assert!(at > HEAD_SAMPLE && at < text.len() - TAIL_SAMPLE);
    std::thread::sleep(std::time::Duration::from_millis(25));
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.write_all_at(b"x", at as u64 + 1).unwrap();
    drop(f);
    // Then an append by a planforge session (which leaves the snapshot
    // alone): longer, the same bytes at both ends of the snapshot's
    // prefix, but not by appends alone since.
    let warm = s.clone().warm(std::sync::Arc::default());
    add(&warm, "m2");
    assert_eq!(same(&s, "after an edit and an append"), None);
    let l = s.load_one_shot("plan-s").unwrap();
    assert!(l.content().node("x20").is_some() && l.content().node("m2").is_some());
}

/// [`chain`]'s store in a temporary folder (kept while it is held), its
/// snapshot's path and the snapshot's bytes as written (to damage).
fn chain_snapshot() -> (tempfile::TempDir, Store, PathBuf, Vec<u8>) {
    let dir = tempfile::tempdir().unwrap();
    let s = chain(dir.path());
    let snap = plan_dir(&s).join(FILE);
    let good = std::fs::read(&snap).unwrap();
    (dir, s, snap, good)
}

/// Where the head, the first node chunk and the first bucket of the id
/// index lie in the snapshot file of `store`'s plan.
struct Regions {
    head: std::ops::Range<usize>,
    nodes: std::ops::Range<usize>,
    /// The first node chunk's definitions part.
    defs: std::ops::Range<usize>,
    buckets: Vec<std::ops::Range<usize>>,
}

fn regions(store: &Store) -> Regions {
    let o = Opened::open(&plan_dir(store)).unwrap();
    let s = view::head(&o).unwrap();
    let at = |c: &chunks::ArchivedSChunk| {
        let start = o.area as usize + c.at.to_native() as usize;
        start..start + c.len.to_native() as usize
    };
    let nodes = at(&s.node_chunks[0]);
    let split = s.node_chunks[0].split.to_native() as usize;
    let file = std::fs::read(plan_dir(store).join(FILE)).unwrap();
    let head_at = u64::from_le_bytes(file[24..32].try_into().unwrap()) as usize;
    Regions {
        head: head_at..head_at + o.head.len(),
        defs: nodes.start + split.div_ceil(16) * 16..nodes.end,
        nodes,
        buckets: s.buckets.iter().map(at).collect(),
    }
}

/// The head's checksum made right again after an edit of `b`'s head.
fn resum_head(b: &mut [u8], head: &std::ops::Range<usize>) {
    let sum = checksum(&b[head.clone()]).to_le_bytes();
    b[8..16].copy_from_slice(&sum);
}

/// A part's checksum (in the head's table) made right again after an edit
/// of its bytes `chunk` (a whole chunk, or a chunk of nodes' definitions
/// part), then the head's.
fn resum_chunk(b: &mut [u8], r: &Regions, chunk: &std::ops::Range<usize>, old: u64) {
    let new = checksum(&b[chunk.clone()]).to_le_bytes();
    let old = old.to_le_bytes();
    let at = b[r.head.clone()]
        .windows(8)
        .position(|w| w == old)
        .expect("the chunk's checksum is in the head");
    b[r.head.start + at..r.head.start + at + 8].copy_from_slice(&new);
    resum_head(b, &r.head);
}

#[test]
fn damaged_snapshot_bytes_mean_a_fresh_fold() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    same(&s, "first read");
    let snap = plan_dir(&s).join(FILE);
    let good = std::fs::read(&snap).unwrap();
    let r = regions(&s);
    // Where the id `b` of the second node is archived.
    let inside = r.nodes.start
        + good[r.nodes.clone()]
            .windows(7)
            .position(|w| w == b"about b")
            .unwrap();
    let mut cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("the header only", good[..HEADER].to_vec()),
        ("cut inside the head", good[..r.head.end - 1].to_vec()),
        ("cut inside the nodes", good[..inside].to_vec()),
        ("garbage", vec![0xA5; good.len()]),
        ("another magic number", {
            let mut b = good.clone();
            b[7] ^= 1;
            b
        }),
        ("another head length", {
            let mut b = good.clone();
            b[16] ^= 8;
            b
        }),
        ("another head offset", {
            let mut b = good.clone();
            b[24] ^= 16;
            b
        }),
        ("the head offset inside the header", {
            let mut b = good.clone();
            b[24..32].copy_from_slice(&8u64.to_le_bytes());
            b
        }),
    ];
    for at in [
        r.head.start,
        r.head.end - 1,
        r.nodes.start,
        inside,
        r.nodes.end - 1,
    ] {
        let mut b = good.clone();
        b[at] ^= 0x20;
        cases.push(("a flipped byte", b));
    }
    // Valid checksums, bytes rkyv's validation refuses: a string that is
    // not UTF-8 (a lead byte inside an inline string; 0xFF would end it),
    // in the head and in a chunk.
    let mut b = good.clone();
    let at = r.head.start
        + b[r.head.clone()]
            .windows(6)
            .position(|w| w == b"plan-s")
            .unwrap();
    b[at + 1] = 0xC0;
    resum_head(&mut b, &r.head);
    cases.push(("a head that does not validate", b));
    let mut b = good.clone();
    b[inside + 1] = 0xC0;
    resum_chunk(&mut b, &r, &r.defs, checksum(&good[r.defs.clone()]));
    cases.push(("a chunk that does not validate", b));
    for (why, bytes) in cases {
        std::fs::write(&snap, &bytes).unwrap();
        assert_eq!(same(&s, why), None, "{why}");
        // ...and the next read has a good snapshot again.
        assert!(same(&s, why).is_some(), "{why}: rebuilt");
    }
}

/// A plan of 600 nodes in a chain (three chunks of nodes, two of edges,
/// several buckets), and its snapshot of the whole log.
fn chain(dir: &Path) -> Store {
    let s = store(dir);
    s.commit("plan-s", "bob", None, |_| {
        let mut ops: Vec<OpBody> = (0..600)
            .map(|i| OpBody::AddNode {
                node: node(&format!("n{i:03}")),
            })
            .collect();
        ops.extend((1..600).map(|i| OpBody::AddEdge {
            edge: crate::model::Edge {
                id: format!("e{i:03}").into(),
                from: format!("n{:03}", i - 1).into(),
                to: format!("n{i:03}").into(),
                handle: crate::model::Handle::Always,
            },
        }));
        Ok(ops)
    })
    .unwrap();
    std::fs::remove_file(plan_dir(&s).join(FILE)).ok();
    same(&s, "first read");
    assert_eq!(same(&s, "from the snapshot"), Some(log_len(&s)));
    s
}

/// What a reader in place says of the node `id`: its position, the node,
/// and its edges' ids; `None` when the view cannot answer.
fn in_place(s: &Store, id: &str) -> Option<(usize, Node, Vec<String>)> {
    s.with_view("plan-s", |v| {
        let i = v.find(id)?;
        let n = v.node(i)?;
        let edges = v
            .edges_touching(id)
            .into_iter()
            .map(|k| v.edge_ends(k).0.to_string())
            .collect();
        Some((i, n, edges))
    })
}

#[test]
fn a_reader_in_place_reads_one_node_through_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let s = chain(dir.path());
    let cold = s.load_cold("plan-s", None, false).unwrap();
    for id in ["a", "b", "n000", "n300", "n599"] {
        let (i, n, edges) = in_place(&s, id).expect(id);
        let c = cold.content();
        assert_eq!(&c.nodes[i], &n, "{id}");
        let want: Vec<String> = c
            .edges
            .iter()
            .filter(|e| e.from == id || e.to == id)
            .map(|e| e.id.to_string())
            .collect();
        assert_eq!(edges, want, "{id}");
    }
    let (id, pos) = s
        .with_view("plan-s", |v| Some((v.find("zz"), v.edge_position("e300"))))
        .unwrap();
    assert_eq!(id, None, "an absent id");
    assert_eq!(
        pos,
        cold.content().edges.iter().position(|e| e.id == "e300")
    );
}

/// The chunk that holds node `n300` (the second of three) damaged: a reader
/// that reads it gets no answer, one that does not is answered, and a fold
/// from the snapshot (what a write starts from) reads every chunk, so it
/// folds the log.
#[test]
fn a_damaged_chunk_is_detected_before_use() {
    let (_dir, s, snap, good) = chain_snapshot();
    let o = Opened::open(&plan_dir(&s)).unwrap();
    let h = view::head(&o).unwrap();
    assert_eq!(h.node_chunks.len(), 3);
    let c = &h.node_chunks[1];
    let start = o.area as usize + c.at.to_native() as usize;
    let second = start..start + c.len.to_native() as usize;
    let at = start
        + good[second.clone()]
            .windows(4)
            .position(|w| w == b"n300")
            .unwrap();
    drop(o);
    let mut bad = good.clone();
    bad[at + 1] = b'9';
    std::fs::write(&snap, &bad).unwrap();
    assert_eq!(in_place(&s, "n300"), None, "the damaged chunk is not used");
    assert!(!snap.exists(), "and the snapshot is removed, to be rebuilt");
    std::fs::write(&snap, &bad).unwrap();
    assert!(in_place(&s, "n010").is_some(), "another chunk is");
    assert_eq!(
        s.with_view("plan-s", |v| Some(v.node_count())),
        Some(602),
        "the head alone"
    );
    let write = s.load_to_write("plan-s").unwrap();
    assert!(!write.restored, "a write's fold reads every chunk");
    assert_eq!(
        write.content(),
        s.load_cold("plan-s", None, false).unwrap().content()
    );
    std::fs::write(&snap, &bad).unwrap();
    assert_eq!(same(&s, "a damaged chunk"), None);
    // The nodes and edges are made on two threads (each claims chunks:
    // the other one edges from the first on, then nodes from the last
    // back; this one nodes from the first on, then edges from the last
    // back): a damaged chunk wherever it lies, or a damaged edge in the
    // first or the last chunk of edges (either thread's), means a fresh
    // fold.
    let first = o_range(&s, 0);
    let edges = |k: usize| {
        let o = Opened::open(&plan_dir(&s)).unwrap();
        let h = view::head(&o).unwrap();
        assert_eq!(h.edge_chunks.len(), 2, "two chunks of edges");
        o.area as usize + h.edge_chunks[k].at.to_native() as usize
    };
    for (why, at) in [
        ("this thread's", first.start + 40),
        ("the other's", at),
        ("the first edge", edges(0) + 40),
        ("the last edge", edges(1) + 40),
    ] {
        let mut bad = good.clone();
        bad[at] ^= 0x20;
        std::fs::write(&snap, &bad).unwrap();
        let write = s.load_to_write("plan-s").unwrap();
        assert!(!write.restored, "{why} chunk damaged: not restored");
        std::fs::write(&snap, &good).unwrap();
        let write = s.load_to_write("plan-s").unwrap();
        assert!(write.restored, "{why} chunk sound: restored");
        assert_eq!(
            write.content(),
            s.load_cold("plan-s", None, false).unwrap().content()
        );
    }
}

/// A head that passes its checks but counts more edges than its chunks
/// hold (a forged file, its checksum made again) is not trusted to size
/// what a restore makes: the write folds the log.
#[test]
fn an_edge_count_past_the_chunks_is_damage() {
    let (_dir, s, snap, good) = chain_snapshot();
    let r = regions(&s);
    let edges = s.with_view("plan-s", |v| Some(v.edge_count())).unwrap();
    assert!(edges > 512, "two chunks of edges");
    let count = (edges as u64).to_le_bytes();
    let found: Vec<usize> = good[r.head.clone()]
        .windows(8)
        .enumerate()
        .filter(|(_, w)| *w == count)
        .map(|(k, _)| r.head.start + k)
        .collect();
    let [at] = found[..] else {
        panic!("the edge count once in the head: {found:?}")
    };
    let mut lie = good.clone();
    lie[at..at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    resum_head(&mut lie, &r.head);
    std::fs::write(&snap, &lie).unwrap();
    let write = s.load_to_write("plan-s").unwrap();
    assert!(!write.restored, "a count past the chunks: not restored");
    assert_eq!(
        write.content(),
        s.load_cold("plan-s", None, false).unwrap().content()
    );
}

/// Where node chunk `k` of `s`'s snapshot lies in its file.
fn o_range(s: &Store, k: usize) -> std::ops::Range<usize> {
    let o = Opened::open(&plan_dir(s)).unwrap();
    let h = view::head(&o).unwrap();
    let c = &h.node_chunks[k];
    let start = o.area as usize + c.at.to_native() as usize;
    start..start + c.len.to_native() as usize
}

#[test]
fn a_damaged_bucket_drops_the_answer_and_a_damaged_head_the_snapshot() {
    let (_dir, s, snap, good) = chain_snapshot();
    let r = regions(&s);
    // Every bucket of the id index damaged: a reader in place that looks
    // an id up has no answer (the snapshot is removed, to be rebuilt), one
    // that reads the head only has.
    let mut bad = good.clone();
    for b in &r.buckets {
        bad[b.start + b.len() / 2] ^= 0x01;
    }
    std::fs::write(&snap, &bad).unwrap();
    assert_eq!(s.with_view("plan-s", |v| Some(v.node_count())), Some(602));
    assert_eq!(in_place(&s, "n300"), None);
    assert!(!snap.exists());
    // The head damaged: nothing is read from the snapshot.
    let mut bad = good.clone();
    bad[r.head.start + r.head.len() / 2] ^= 0x01;
    std::fs::write(&snap, &bad).unwrap();
    assert_eq!(s.with_view("plan-s", |v| Some(v.node_count())), None);
    assert_eq!(in_place(&s, "n300"), None);
    assert_eq!(same(&s, "a damaged head"), None);
}

/// A snapshot that passes every check and lies (a node's text changed,
/// the checksums made right): cached answers trust it, as they trust any
/// cache keyed by the log; a verdict's load never reads it, so it gives
/// the log's plan.
#[test]
fn a_verdict_never_reads_the_snapshot() {
    let (_dir, s, snap, good) = chain_snapshot();
    let r = regions(&s);
    let mut lie = good.clone();
    let at = r.nodes.start
        + good[r.nodes.clone()]
            .windows(7)
            .position(|w| w == b"about a")
            .unwrap();
    lie[at + 6] = b'z';
    resum_chunk(&mut lie, &r, &r.defs, checksum(&good[r.defs.clone()]));
    std::fs::write(&snap, &lie).unwrap();
    let note = |l: &crate::store::Loaded| l.content().node("a").unwrap().definition["note"].clone();
    let cached = s.load_one_shot("plan-s").unwrap();
    assert!(cached.restored);
    assert_eq!(
        note(&cached),
        Value::String("about z".into()),
        "a valid cache is used"
    );
    let verdict = s.load_verified("plan-s").unwrap();
    assert_eq!(note(&verdict), Value::String("about a".into()));
    assert_eq!(
        verdict.content(),
        s.load_cold("plan-s", None, false).unwrap().content()
    );
}

#[test]
fn another_binary_or_plan_makes_its_own_snapshot() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    same(&s, "first read");
    let snap = plan_dir(&s).join(FILE);
    let good = std::fs::read(&snap).unwrap();
    // The same archive, written by another binary.
    let o = Opened::open(&plan_dir(&s)).unwrap();
    let id = super::super::checkpoint::binary_identity();
    assert_eq!(view::head(&o).unwrap().binary.as_str(), id);
    let r = regions(&s);
    let mut b = good.clone();
    let at = b
        .windows(id.len())
        .position(|w| w == id.as_bytes())
        .unwrap();
    b[at] = if b[at] == b'9' { b'8' } else { b'9' };
    resum_head(&mut b, &r.head);
    std::fs::write(&snap, &b).unwrap();
    let o = Opened::open(&plan_dir(&s)).expect("a valid head");
    assert!(view::head(&o).is_some(), "a valid archive");
    assert_eq!(same(&s, "another binary's snapshot"), None);
    // Another plan's snapshot copied beside this log.
    let t = s.clone();
    t.create("plan-t", "ann", Start::default(), vec![]).unwrap();
    t.load_one_shot("plan-t").unwrap();
    std::fs::copy(
        t.plan_dir("plan-t").unwrap().join(FILE),
        plan_dir(&s).join(FILE),
    )
    .unwrap();
    assert_eq!(same(&s, "another plan's snapshot"), None);
}

#[test]
fn a_snapshot_is_not_written_from_a_log_that_moved_while_read() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    let md = std::fs::metadata(log_path(&s)).unwrap();
    let loaded = s.load_cold("plan-s", None, false).unwrap();
    // A concurrent writer appends between the read and the snapshot.
    let warm = s.clone().warm(std::sync::Arc::default());
    add(&warm, "c");
    save(&plan_dir(&s), &loaded, &md, None);
    assert!(!plan_dir(&s).join(FILE).exists());
    same(&s, "after the concurrent write");
}

#[test]
fn a_snapshot_that_cannot_be_written_is_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    // A folder where the file would go: the rename fails.
    std::fs::create_dir(plan_dir(&s).join(FILE)).unwrap();
    for i in 0..3 {
        assert_eq!(same(&s, "unwritable"), None);
        add(&s, &format!("w{i}"));
    }
    assert!(plan_dir(&s).join(FILE).is_dir());
}

#[test]
fn a_fold_that_noticed_something_is_not_snapshotted() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    std::fs::remove_file(plan_dir(&s).join(FILE)).ok();
    // Two nodes under one id in one change: `duplicate_node_id`.
    let mut other = node("a");
    other.kind = NodeKind::Reason;
    s.commit("plan-s", "bob", None, |_| {
        Ok(vec![OpBody::AddNode {
            node: other.clone(),
        }])
    })
    .unwrap();
    std::fs::remove_file(plan_dir(&s).join(FILE)).ok();
    let notes = s.load_cold("plan-s", None, false).unwrap().notes();
    assert!(
        notes
            .iter()
            .any(|n| matches!(n, Note::DuplicateNodeId { .. })),
        "{notes:?}"
    );
    assert_eq!(same(&s, "first read"), None);
    assert_eq!(same(&s, "second read"), None);
    assert!(!plan_dir(&s).join(FILE).exists());
}

#[test]
fn the_archive_keeps_every_value_and_the_lifecycle() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path());
    let mut n = node("deep");
    let mut inner = Map::new();
    inner.insert(
        "k".into(),
        Value::Array(vec![Value::String("é\u{1F600}".into())]),
    );
    n.definition.insert("obj".into(), Value::Object(inner));
    let mut r = crate::model::Ref::new("a");
    r.select = crate::model::Select::Index(3);
    r.path = Some("x.y".into());
    r.branch_id = Some(crate::model::BranchId {
        segments: vec![
            crate::model::Segment::Edge("e1".into()),
            crate::model::Segment::Join {
                join: "j".into(),
                of: vec!["e2".into(), "e3".into()],
            },
        ],
    });
    n.definition.insert("ref".into(), Value::Ref(Box::new(r)));
    n.definition.insert(
        "param".into(),
        Value::Param(crate::model::Param { path: "p.q".into() }),
    );
    s.commit("plan-s", "bob", None, |_| {
        Ok(vec![
            OpBody::AddNode { node: n.clone() },
            OpBody::AddEdge {
                edge: crate::model::Edge {
                    id: "a__b".into(),
                    from: "a".into(),
                    to: "b".into(),
                    handle: crate::model::Handle::Case("x".into()),
                },
            },
        ])
    })
    .unwrap();
    same(&s, "first read");
    assert!(same(&s, "from the snapshot").is_some());
}

/// A one-shot process leaves the snapshot for after its answer: nothing
/// is written while the command runs, then the newest fold of each log is,
/// once (a later fold of the same log supersedes an earlier one), and only
/// if the log did not move since.
#[test]
fn a_one_shot_process_writes_the_snapshot_after_its_answer() {
    let dir = tempfile::tempdir().unwrap();
    let s = store(dir.path()).one_shot(true);
    let snap = plan_dir(&s).join(FILE);
    let first = s.load_one_shot("plan-s").unwrap();
    assert!(!first.restored);
    assert!(!snap.exists(), "not on the path of the answer");
    save_deferred();
    assert_eq!(snap_len(&s), Some(log_len(&s)), "written after it");
    // A write and a read that folds its tail: one deferred save, of the
    // whole log.
    add(&s, "c");
    let after = s.load_one_shot("plan-s").unwrap();
    assert!(after.restored && after.content().node("c").is_some());
    assert_ne!(snap_len(&s), Some(log_len(&s)), "still the older prefix");
    assert_eq!(DEFERRED.with(|d| d.borrow().len()), 1, "one per log");
    save_deferred();
    assert_eq!(snap_len(&s), Some(log_len(&s)));
    // The log moves before the deferred save: nothing is written.
    let at = log_len(&s);
    add(&s, "d");
    let _ = s.load_one_shot("plan-s").unwrap();
    add(
        &s.clone().one_shot(false).warm(std::sync::Arc::default()),
        "e",
    );
    save_deferred();
    assert_eq!(snap_len(&s), Some(at), "a log that moved is not archived");
    assert_eq!(same(&s, "after all that"), Some(log_len(&s)));
}

/// The snapshot keeps the digest's marks: a fold on top of it resumes the
/// digest (after an added node, after an added edge) and gives the digest
/// a fresh fold gives; damaged marks are never used.
#[test]
fn the_digest_resumes_from_the_snapshots_marks() {
    let dir = tempfile::tempdir().unwrap();
    let s = chain(dir.path());
    let shot = s.load_one_shot("plan-s").unwrap();
    assert!(shot.restored && shot.folded.digest_marks().is_some());
    add(&s, "late");
    let after = s.load_to_write("plan-s").unwrap();
    assert!(after.restored, "a prefix and a tail");
    assert_eq!(same(&s, "after an added node"), Some(log_len(&s)));
    s.commit("plan-s", "bob", None, |_| {
        Ok(vec![OpBody::AddEdge {
            edge: crate::model::Edge {
                id: "e_late".into(),
                from: "n599".into(),
                to: "late".into(),
                handle: crate::model::Handle::Always,
            },
        }])
    })
    .unwrap();
    assert!(same(&s, "after an added edge").is_some());
    // The marks' chunk damaged: the snapshot is not used.
    std::fs::remove_file(plan_dir(&s).join(FILE)).ok();
    same(&s, "rebuilt");
    let snap = plan_dir(&s).join(FILE);
    let mut bad = std::fs::read(&snap).unwrap();
    let o = Opened::open(&plan_dir(&s)).unwrap();
    let h = view::head(&o).unwrap();
    assert_eq!(h.marks.len(), 1);
    let at = o.area as usize + h.marks[0].at.to_native() as usize + 4;
    drop(o);
    bad[at] ^= 0x10;
    std::fs::write(&snap, &bad).unwrap();
    assert_eq!(same(&s, "damaged marks"), None);
}

/// Every chunk of the snapshot on disk (nodes, edges, the id index's
/// buckets), as bytes.
/// The snapshot's chunks of nodes and edges, as bytes, and its id index's
/// buckets (whose entries' order is a hash map's: compared with
/// [`chunks::same_buckets`]).
fn chunk_bytes(s: &Store) -> (Vec<Vec<u8>>, Vec<chunks::Bytes>) {
    let o = Opened::open(&plan_dir(s)).unwrap();
    let h = view::head(&o).unwrap();
    let read = |c| o.chunk(c).expect("a chunk as written");
    let table = h.node_chunks.iter().chain(h.edge_chunks.iter());
    let items = table.map(|c| read(c).to_vec()).collect();
    (items, h.buckets.iter().map(read).collect())
}

/// A reader that folds a tail writes a snapshot that takes over the old
/// chunks before the tail's first change (debug builds compare each with a
/// fresh archive): it is, chunk for chunk, the snapshot a fresh fold of
/// the whole log writes. After a node added and removed at the end (all
/// taken over), a field set in the second chunk, an edge added, a node
/// removed in the first chunk.
#[test]
fn a_snapshot_after_a_tail_takes_over_the_unchanged_chunks_and_equals_a_fresh_one() {
    let dir = tempfile::tempdir().unwrap();
    let s = chain(dir.path());
    let field = |id: &str| OpBody::SetNodeField {
        node_id: id.into(),
        path: "note".into(),
        value: Value::String("changed".into()),
    };
    let tails: Vec<Vec<OpBody>> = vec![
        vec![OpBody::AddNode { node: node("cold") }],
        vec![OpBody::RemoveNode {
            node_id: "cold".into(),
            incident_edge_ids: vec![],
        }],
        vec![field("n300")],
        vec![OpBody::AddEdge {
            edge: crate::model::Edge {
                id: "e_back".into(),
                from: "n599".into(),
                to: "n000".into(),
                handle: crate::model::Handle::Always,
            },
        }],
        vec![OpBody::RemoveNode {
            node_id: "n100".into(),
            incident_edge_ids: vec!["e100".into(), "e101".into()],
        }],
    ];
    for (i, ops) in tails.into_iter().enumerate() {
        s.commit("plan-s", "bob", None, |_| Ok(ops.clone()))
            .unwrap();
        let why = format!("tail {i}");
        assert_eq!(
            same(&s, &why),
            Some(log_len(&s)),
            "{why}: a prefix and a tail"
        );
        assert_eq!(snap_len(&s), Some(log_len(&s)), "{why}: a new snapshot");
        let taken = chunk_bytes(&s);
        std::fs::remove_file(plan_dir(&s).join(FILE)).unwrap();
        assert_eq!(same(&s, &why), None, "{why}: folded afresh");
        let fresh = chunk_bytes(&s);
        assert!(taken.0 == fresh.0, "{why}: the same chunks");
        assert!(
            chunks::same_buckets(&taken.1, &fresh.1),
            "{why}: the same ids"
        );
    }
}

/// A definition's value: every kind of value the model holds, strings
/// with multi-byte characters, nested up to three levels.
fn value_strategy() -> impl proptest::strategy::Strategy<Value = Value> {
    use crate::model::value::{BranchId, Param, Ref, Segment, Select};
    use proptest::prelude::*;
    let select = prop_oneof![
        Just(Select::First),
        Just(Select::Last),
        Just(Select::All),
        (0u64..5).prop_map(Select::Index),
    ];
    let segment = prop_oneof![
        "[a-z]{1,3}".prop_map(Segment::Edge),
        ("[a-z]{1,3}", proptest::collection::vec("[a-z]{1,3}", 0..3))
            .prop_map(|(join, of)| Segment::Join { join, of }),
    ];
    let reference = (
        "[a-zé]{1,4}",
        select,
        proptest::option::of("[a-z]{1,3}(\\.[a-z]{1,3}){0,2}"),
        proptest::option::of(proptest::collection::vec(segment, 0..3)),
    )
        .prop_map(|(node, select, path, b)| {
            Value::Ref(Box::new(Ref {
                node,
                select,
                path,
                branch_id: b.map(|segments| BranchId { segments }),
            }))
        });
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-1.0e6f64..1.0e6).prop_map(Value::Number),
        "\\PC{0,6}".prop_map(|s: String| Value::String(s.into())),
        "[a-z]{1,3}(\\.[a-z]{1,3}){0,2}".prop_map(|path| Value::Param(Param { path })),
        reference,
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec(("[a-zé]{0,3}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

fn random_node(i: usize, def: Vec<(String, Value)>) -> Node {
    Node {
        id: format!("r{i:03}").into(),
        phase: (!i.is_multiple_of(3)).then(|| format!("p{}", i % 4).into()),
        kind: NodeKind::ALL[i % NodeKind::ALL.len()],
        definition: def.into_iter().collect::<Map>().into(),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// A plan restored from its snapshot, its definitions read on demand
    /// from their chunks, is the fold of its log in every definition:
    /// after random edits that change some definitions (a field set, a
    /// whole definition replaced, a node added or removed, a phase
    /// changed), read from the snapshot and the tail, and from the new
    /// snapshot a reader writes (which takes over the chunks still as
    /// read: debug builds compare each with a fresh archive).
    #[test]
    fn a_content_restored_on_demand_equals_the_owned_one(
        n in 200usize..700,
        defs in proptest::collection::vec(
            proptest::collection::vec(("[a-zé]{1,4}", value_strategy()), 0..5), 8),
        edits in proptest::collection::vec((0usize..5, 0usize..700, 0usize..8), 1..6),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        s.commit("plan-s", "bob", None, |_| {
            Ok((0..n)
                .map(|i| OpBody::AddNode { node: random_node(i, defs[i % defs.len()].clone()) })
                .collect())
        })
        .unwrap();
        same(&s, "first read");
        proptest::prop_assert_eq!(same(&s, "from the snapshot"), Some(log_len(&s)));
        for (step, &(what, at, d)) in edits.iter().enumerate() {
            let id = format!("r{:03}", at % n);
            let def: Map = defs[d].clone().into_iter().collect();
            let body = match what {
                0 => OpBody::SetNodeField {
                    node_id: id,
                    path: "changed".into(),
                    value: Value::Object(def),
                },
                1 => OpBody::SetNodeDefinition { node_id: id, definition: def },
                2 => OpBody::AddNode { node: random_node(1000 + step, defs[d].clone()) },
                3 => OpBody::RemoveNode { node_id: id, incident_edge_ids: Vec::new() },
                _ => OpBody::SetNodePhase { node_id: id, phase: Some("moved".into()) },
            };
            // An edit the fold refuses (a removed node's field) is no test.
            let _ = s.commit("plan-s", "bob", None, |_| Ok(vec![body.clone()]));
            // A write reads definitions on demand; a reader restores the
            // whole plan to read all of it, built at once.
            let read = s.load_one_shot("plan-s").unwrap();
            let owned = read.content().nodes.iter().all(|x| x.definition.source().is_none());
            proptest::prop_assert!(owned, "a reader's definitions are built");
            let shot = s.load_to_write("plan-s").unwrap();
            proptest::prop_assert!(shot.restored, "restored from the snapshot");
            let lazy = shot.content().nodes.iter().filter(|x| x.definition.source().is_some()).count();
            proptest::prop_assert!(lazy > 0, "definitions read on demand");
            let cold = s.load_cold("plan-s", None, false).unwrap();
            proptest::prop_assert_eq!(shot.content().nodes.len(), cold.content().nodes.len());
            for (a, b) in shot.content().nodes.iter().zip(&cold.content().nodes) {
                proptest::prop_assert_eq!(&a.id, &b.id);
                proptest::prop_assert_eq!(&*a.definition, &*b.definition);
            }
            same(&s, "after an edit");
        }
    }
}

/// The id index of a content that only grew, made from the old index and
/// what was added (new nodes, the ends and ids of new edges, one of them
/// dangling), holds what a fresh index holds; with another count of
/// buckets it is made whole instead.
#[test]
fn an_id_index_that_only_grew_is_the_old_one_with_its_additions() {
    use crate::model::{Content, Edge, Handle};
    let edge = |id: &str, from: &str, to: &str| Edge {
        id: id.into(),
        from: from.into(),
        to: to.into(),
        handle: Handle::parse("always"),
    };
    let archive = |c: &Content| -> Vec<chunks::Bytes> {
        (chunks::index(c).iter())
            .map(|b| chunks::Bytes::from(rkyv::to_bytes::<rkyv::rancor::Error>(b).unwrap()))
            .collect()
    };
    let mut c = Content::empty("plan-s".to_string());
    c.nodes = (0..300).map(|i| node(&format!("n{i}"))).collect();
    c.edges = (1..300)
        .map(|i| edge(&format!("e{i}"), &format!("n{}", i - 1), &format!("n{i}")))
        .collect();
    let old = archive(&c);
    let (n0, e0) = (c.nodes.len(), c.edges.len());
    c.nodes.push(node("late"));
    c.edges.push(edge("e_late", "n7", "late"));
    c.edges.push(edge("e_loose", "nobody", "n3"));
    let grown = chunks::index_grown(&c, old.clone(), n0, e0).expect("as many buckets");
    assert!(chunks::same_buckets(&grown, &archive(&c)));
    assert!(
        !chunks::same_buckets(&old, &archive(&c)),
        "the index did change"
    );
    // Enough added ids for another bucket: made whole by the caller.
    c.nodes.extend((0..300).map(|i| node(&format!("more{i}"))));
    assert!(chunks::index_grown(&c, old, n0, e0).is_none());
}
