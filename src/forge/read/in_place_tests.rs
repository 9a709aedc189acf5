//! Read commands answered in place from the snapshot say exactly what they
//! say after a full load: status, outline and read (phases, the unphased
//! nodes, nodes, refused keys), as text and as JSON, on generated plans.

use super::in_place::InPlace;
use super::outline::outline_of;
use super::slice::slice_of;
use super::*;
use crate::check::testing::{call_with, edge, entry, join, node, r};
use crate::cli::voice::CliVoice;
use crate::forge::Forge;
use crate::forge::plans::status_of;
use crate::model::{Node, NodeKind, OpBody};
use crate::render;
use crate::store::{Start, Store};
use serde_json::json;

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A plan of `entry`, then calls (known and unknown tools, references to
/// nodes present and absent), joins, transforms, in phases or none, and
/// edges forward (some with handles that are findings): its ops.
fn generated(seed: u64) -> Vec<OpBody> {
    let mut g = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let n = 3 + g.below(40);
    let phases = ["gather", "decide", "act", "(unphased)", "n3"];
    let mut ids: Vec<String> = Vec::new();
    let mut ops = Vec::new();
    for i in 0..n {
        let id = format!("n{i}");
        let mut nd: Node = match (i, g.below(5)) {
            (0, _) => entry(&id),
            (_, 0) => join(&id),
            (_, 1) => node(
                &id,
                NodeKind::Transform,
                json!({"source": r(&format!("n{}", g.below(i + 3)), None), "steps": []}),
            ),
            (_, 2) => call_with(&id, "no_such_tool", json!({}), &[]),
            _ => {
                let target = format!("n{}", g.below(i + 2));
                call_with(
                    &id,
                    "http_get",
                    json!({"url": r(&target, Some("/out")), "k": 1.5}),
                    &["out"],
                )
            }
        };
        nd.phase = match g.below(7) {
            k @ 0..=4 => Some(phases[k].into()),
            5 => Some(String::new().into()),
            _ => None,
        };
        ids.push(id);
        ops.push(OpBody::AddNode { node: nd });
    }
    for k in 0..(n + g.below(n)) {
        let a = g.below(n);
        let b = g.below(n);
        if a >= b {
            continue;
        }
        let handle = ["always", "error", "bogus handle"][g.below(3)];
        ops.push(OpBody::AddEdge {
            edge: edge(&format!("e{k}"), &ids[a], &ids[b], handle),
        });
    }
    ops
}

/// Every key worth reading in a plan: each phase, the unphased, some
/// nodes, and keys that are refused (unknown, ambiguous, phase-only).
fn keys(seed: u64) -> Vec<ReadKey> {
    let mut k = vec![
        ReadKey::Auto("gather".into()),
        ReadKey::Phase("decide".into()),
        ReadKey::Auto("(unphased)".into()),
        ReadKey::Phase(String::new()),
        ReadKey::Auto("n3".into()),
        ReadKey::Node("n3".into()),
        ReadKey::Phase("n3".into()),
        ReadKey::Node("n0".into()),
        ReadKey::Auto("n1".into()),
        ReadKey::Node("gathr".into()),
        ReadKey::Auto("nothing".into()),
        ReadKey::Phase("act".into()),
    ];
    k.push(ReadKey::Node(format!("n{}", seed % 7)));
    k
}

fn setup(dir: &std::path::Path, seed: u64) -> Forge {
    let (store, _) = Store::init(dir, crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
    store
        .create("plan-g", "ann", Start::default(), generated(seed))
        .unwrap();
    Forge::new(store.one_shot(false), "ann")
}

/// Each answer's text and JSON, from a full load (the checkpoint's
/// findings, as a second full load reads them).
fn full(forge: &Forge, seed: u64) -> Vec<String> {
    let loaded = forge.store().load_one_shot("plan-g").unwrap();
    let report = forge.check(&loaded).unwrap();
    let v = CliVoice::about("plan-g", Some("plan-g"));
    let status = status_of(&loaded, report.clone());
    let outline = outline_of(&loaded, &report.issues);
    let mut out = vec![
        render::status::status_text(&status),
        render::status::status_json(&status).to_string(),
        render::outline::text(&outline),
        render::outline::json(&outline).to_string(),
    ];
    for key in keys(seed) {
        out.push(match slice_of(&loaded, &key, &report.issues) {
            Ok(s) => format!(
                "{}\n{}",
                render::read::text(&s, &v, 1 << 20),
                render::read::json(&s)
            ),
            Err(e) => format!("{:?} {} {:?} {:?}", e.kind, e.message, e.help, e.fixes),
        });
    }
    out
}

/// The same answers, through the forge's operations (in place when the
/// snapshot can answer).
fn answered(forge: &Forge, seed: u64) -> Vec<String> {
    let v = CliVoice::about("plan-g", Some("plan-g"));
    let status = forge.status("plan-g").unwrap();
    let outline = forge.outline("plan-g").unwrap();
    let mut out = vec![
        render::status::status_text(&status),
        render::status::status_json(&status).to_string(),
        render::outline::text(&outline),
        render::outline::json(&outline).to_string(),
    ];
    for key in keys(seed) {
        out.push(match forge.read("plan-g", key) {
            Ok(s) => format!(
                "{}\n{}",
                render::read::text(&s, &v, 1 << 20),
                render::read::json(&s)
            ),
            Err(e) => format!("{:?} {} {:?} {:?}", e.kind, e.message, e.help, e.fixes),
        });
    }
    out
}

fn answers_in_place(forge: &Forge) -> bool {
    forge
        .in_place_with("plan-g", |p: &InPlace<'_, '_>| Some(p.plan.node_count()))
        .is_some()
}

#[test]
fn answers_in_place_equal_answers_after_a_full_load() {
    for seed in 0..16 {
        let dir = tempfile::tempdir().unwrap();
        let forge = setup(dir.path(), seed);
        // No snapshot yet: nothing is answered in place.
        assert!(!answers_in_place(&forge), "seed {seed}: no snapshot yet");
        let want = full(&forge, seed);
        assert!(
            answers_in_place(&forge),
            "seed {seed}: the snapshot answers"
        );
        let got = answered(&forge, seed);
        assert_eq!(got.len(), want.len());
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g, w, "seed {seed}");
        }
        // Another write: the snapshot holds a prefix of the log, so the
        // answer comes from the log (and is the new plan's).
        forge
            .store()
            .commit("plan-g", "bob", None, |_| {
                Ok(vec![OpBody::AddNode {
                    node: {
                        let mut n = join("late");
                        n.phase = Some("gather".into());
                        n
                    },
                }])
            })
            .unwrap();
        let snap = crate::store::snapshot::FILE;
        let snap_path = forge.store().plan_dir("plan-g").unwrap().join(snap);
        std::fs::remove_file(&snap_path).ok();
        assert!(!answers_in_place(&forge), "seed {seed}: no snapshot");
        let want = full(&forge, seed);
        assert!(answers_in_place(&forge), "seed {seed}: rebuilt");
        assert_eq!(answered(&forge, seed), want, "seed {seed}, after a write");
    }
}

#[test]
fn a_snapshot_with_a_tail_or_no_findings_is_not_read_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let forge = setup(dir.path(), 3);
    let want = full(&forge, 3);
    assert!(answers_in_place(&forge));
    // The findings gone: the answer comes from a full load (which keeps
    // them again).
    let plan_dir = forge.store().plan_dir("plan-g").unwrap();
    std::fs::remove_file(plan_dir.join("checkpoint.json")).unwrap();
    assert!(!answers_in_place(&forge));
    assert_eq!(answered(&forge, 3), want);
    assert!(answers_in_place(&forge));
    // Another process appends: the tail is not in the snapshot.
    forge
        .store()
        .commit("plan-g", "bob", None, |_| {
            Ok(vec![OpBody::AddNode { node: join("more") }])
        })
        .unwrap();
    assert!(!answers_in_place(&forge));
    let after = answered(&forge, 3);
    assert!(after[0].contains("Nodes: "));
    assert_ne!(after[0], want[0], "the new node is counted");
}

/// A diff of the current revision with itself is answered from the
/// snapshot in place (no plan restored, no history folded) and is the diff
/// made from the log; other selectors, and wrong ones, answer as from the
/// log.
#[test]
fn a_diff_answered_in_place_is_the_diff_from_the_log() {
    let dir = tempfile::tempdir().unwrap();
    let forge = setup(dir.path(), 5);
    forge
        .store()
        .commit("plan-g", "bob", None, |_| {
            Ok(vec![OpBody::AddNode { node: join("late") }])
        })
        .unwrap();
    let sels = [
        ("current", "current"),
        ("", ""),
        ("0", "current"),
        ("1", ""),
        ("frozen", ""),
        ("99", "current"),
        ("x", ""),
    ];
    let answer = |f: &Forge| {
        sels.iter()
            .map(|(a, b)| format!("{:?}", f.diff("plan-g", a, b).map_err(|e| e.message)))
            .collect::<Vec<_>>()
    };
    full(&forge, 5);
    let snap_path = forge
        .store()
        .plan_dir("plan-g")
        .unwrap()
        .join(crate::store::snapshot::FILE);
    assert!(snap_path.is_file(), "a snapshot of the whole log");
    let from_snapshot = answer(&forge);
    std::fs::remove_file(&snap_path).unwrap();
    assert_eq!(answer(&forge), from_snapshot);
    assert!(from_snapshot[0].contains("nodes_added: []"));
    assert!(
        from_snapshot[2].contains("\"late\""),
        "{}",
        from_snapshot[2]
    );
}
