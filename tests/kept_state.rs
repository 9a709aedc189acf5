//! The checks' kept state (`checkpoint.kept`) beside a plan's log never
//! changes an answer: damaged inside one node's facts, which are read only
//! when a command uses them, under a checksum made again so that the store
//! takes the file, the one-shot commands say what they say without the file.

mod common;

use common::Env;
use std::path::PathBuf;

/// The store's checksum of a kept file's body: what a hostile writer
/// recomputes.
fn checksum(bytes: &[u8]) -> u64 {
    planforge::store::cache_checksum(bytes)
}

/// A store holding the weekly report example, its references' path `week`
/// renamed to a word of its own, after a `status`
/// (which keeps the checks' state).
fn store_with_kept_state() -> (Env, PathBuf) {
    let env = Env::new();
    let doc = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/documents/weekly_report.json"),
    )
    .unwrap();
    let doc = doc.replace("\"path\": \"week\"", "\"path\": \"zz_week_marker\"");
    let file = env.write("weekly.json", &doc);
    env.ok(&["import", file.to_str().unwrap(), "--id", "plan-w"]);
    env.ok(&["status", "-p", "plan-w"]);
    let kept = env.store().join("plan-w").join("checkpoint.kept");
    assert!(kept.is_file(), "the status kept the checks' state");
    (env, kept)
}

/// What the commands after the damage say.
fn answers(env: &Env) -> Vec<String> {
    vec![
        env.ok(&["add-node", "extra", "--kind", "join", "-p", "plan-w"]),
        env.ok(&["connect", "extra", "publish", "--id", "e_x", "-p", "plan-w"]),
        env.ok(&["--format", "json", "status", "-p", "plan-w"]),
        env.ok(&["connect", "start", "extra", "--id", "e_y", "-p", "plan-w"]),
    ]
}

#[test]
fn a_kept_state_damaged_inside_a_nodes_facts_answers_as_none() {
    let (damaged, kept) = store_with_kept_state();
    let mut bytes = std::fs::read(&kept).unwrap();
    // The file as written checks.
    assert_eq!(bytes[8..16], checksum(&bytes[16..]).to_le_bytes());
    // `sales_figures`' facts: its id, then its reference's pointer, node
    // and path (a value's strings are kept together).
    let slot = b"sales_figures/definition/args/weekopen_weekzz_week_marker";
    let marks: Vec<usize> = (0..bytes.len())
        .filter(|&k| bytes[k..].starts_with(slot))
        .collect();
    assert_eq!(marks.len(), 1, "one node's facts");
    // Not UTF-8 any more, under a checksum the store accepts.
    bytes[marks[0] + slot.len() - 3] = 0xff;
    let sum = checksum(&bytes[16..]);
    bytes[8..16].copy_from_slice(&sum.to_le_bytes());
    std::fs::write(&kept, &bytes).unwrap();

    let (clean, kept) = store_with_kept_state();
    std::fs::remove_file(&kept).unwrap();
    let (with, without) = (answers(&damaged), answers(&clean));
    assert_eq!(with, without);
    assert!(with[1].contains("e_x"), "{}", with[1]);
}

/// A kept file whose checksum fails is not used, wherever the damage lies:
/// in the state (read on the thread that decodes it) or in the stamp the
/// store reads first to cut the log's tail (before the checksum is read).
#[test]
fn a_kept_state_that_fails_its_checksum_answers_as_none() {
    let (clean, kept) = store_with_kept_state();
    std::fs::remove_file(&kept).unwrap();
    let without = answers(&clean);
    let (_first, first_kept) = store_with_kept_state();
    let bytes = std::fs::read(&first_kept).unwrap();
    // The stamp follows the binary's and the plan's names, each a length
    // and its bytes.
    let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let plan_at = 24 + word(16);
    let stamp_at = plan_at + 8 + word(plan_at);
    for at in [
        stamp_at,
        stamp_at + 16,
        stamp_at + 24,
        bytes.len() / 2,
        bytes.len() - 1,
    ] {
        let (damaged, kept) = store_with_kept_state();
        let mut flipped = std::fs::read(&kept).unwrap();
        assert_eq!(flipped.len(), bytes.len());
        flipped[at] ^= 0x10;
        std::fs::write(&kept, &flipped).unwrap();
        assert_eq!(
            answers(&damaged),
            without,
            "a flip at byte {at} of {}",
            bytes.len()
        );
    }
}
