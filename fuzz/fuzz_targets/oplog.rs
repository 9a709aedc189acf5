//! The op-log reader: arbitrary bytes as `ops.jsonl`, then the fold, the
//! digest and every check. Properties: nothing panics; every op read writes
//! back to a line that reads as the same op; the fold is deterministic and
//! its revision is the number of ops folded.

#![no_main]

use libfuzzer_sys::fuzz_target;
use planforge::forge::templates::default_registry;
use planforge::model::registry::Registry;
use planforge::store::{fold, log};
use planforge::wire::codec;
use std::sync::OnceLock;

fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| default_registry().expect("the default registry reads"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(read) = log::parse(data, "plan-fuzz") else {
        return;
    };
    assert!(read.info.good_len <= read.info.len);
    for op in &read.ops {
        let line = codec::op_line(op);
        let back = codec::parse_op_line(&line)
            .unwrap_or_else(|e| panic!("an op does not read back: {e}\n{line}"));
        assert_eq!(&back, op, "an op changed on the way back: {line}");
    }
    let folded = fold::fold("plan-fuzz", &read.ops);
    assert_eq!(folded.content.revision, read.ops.len() as u64);
    let (digest, _) = planforge::wire::jcs::digest(&folded.content);
    let again = fold::fold_owned("plan-fuzz", read.ops.clone());
    assert_eq!(
        planforge::wire::jcs::digest(&again.content).0,
        digest,
        "the fold is not deterministic"
    );
    let _ = planforge::check::run(&folded.content, Some(registry()), planforge::check::notes::issues(&folded.notes));
});
