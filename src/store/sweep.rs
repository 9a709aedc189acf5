//! Leftovers of killed writers: every file the store replaces is written to
//! a `.tmp-…` file first and renamed into place, and a removed plan is
//! renamed to `.tmp-removed-…` before it is deleted. A process killed in
//! between leaves that temporary behind (git-ignored, but it takes space and
//! shows in `ls -a`). A writer holding the lock of a folder removes the ones
//! old enough that no live writer can still own them, as git's `gc` removes
//! its stale temporary objects.

use std::fs;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// A temporary this old belongs to no live writer: a write takes well under
/// a second, a deferred snapshot of a 100,000-node plan a few seconds.
pub(crate) const STALE_AFTER: Duration = Duration::from_secs(3600);

/// Removes the stale temporaries directly in `dir` (never anything else:
/// only names starting with `.tmp-`, never through a symbolic link). Errors
/// are ignored: a leftover that cannot be removed now is tried again at the
/// next write.
pub(crate) fn stale_temps(dir: &Path, now: SystemTime) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        if !entry.file_name().as_encoded_bytes().starts_with(b".tmp-") {
            continue;
        }
        let Ok(md) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let old = md
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .is_some_and(|age| age >= STALE_AFTER);
        if !old {
            continue;
        }
        let _ = if md.is_dir() {
            fs::remove_dir_all(entry.path())
        } else {
            fs::remove_file(entry.path())
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::File;

    fn aged(path: &Path, age: Duration) {
        let f = File::options().write(true).open(path).unwrap();
        f.set_modified(SystemTime::now() - age).unwrap();
    }

    #[test]
    fn only_old_temporaries_go() {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let hour = STALE_AFTER;
        for name in [".tmp-old", ".tmp-young", "ops.jsonl", ".tmpx-old"] {
            fs::write(d.join(name), b"x").unwrap();
        }
        aged(&d.join(".tmp-old"), hour + Duration::from_secs(5));
        aged(&d.join(".tmpx-old"), hour * 2);
        aged(&d.join("ops.jsonl"), hour * 2);
        aged(&d.join(".tmp-young"), hour - Duration::from_secs(60));
        // A removed plan left aside, with a file inside.
        let aside = d.join(".tmp-removed-abc");
        fs::create_dir(&aside).unwrap();
        fs::write(aside.join("ops.jsonl"), b"x").unwrap();
        // A link named like a temporary, to a folder outside: the link may
        // go, never what it points to.
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("keep"), b"x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(outside.path(), d.join(".tmp-link")).unwrap();

        stale_temps(d, SystemTime::now());
        assert!(!d.join(".tmp-old").exists());
        assert!(d.join(".tmp-young").exists());
        assert!(d.join("ops.jsonl").exists());
        assert!(d.join(".tmpx-old").exists());
        assert!(outside.path().join("keep").exists());

        // An hour later everything named `.tmp-` is stale.
        stale_temps(d, SystemTime::now() + hour * 4);
        assert!(!d.join(".tmp-young").exists());
        assert!(!aside.exists());
        assert!(d.join("ops.jsonl").exists());
        assert!(outside.path().join("keep").exists());
    }

    #[test]
    fn a_write_removes_what_a_killed_writer_left() {
        use crate::model::OpBody;
        use crate::store::{Start, Store};
        let tmp = tempfile::tempdir().unwrap();
        let (store, _) = Store::init(tmp.path(), crate::registry::DEFAULT_REGISTRY_YAML).unwrap();
        store
            .create("plan-s", "ann", Start::default(), Vec::new())
            .unwrap();
        let dir = store.plan_dir("plan-s").unwrap();
        let (old, young) = (dir.join(".tmp-killed"), dir.join(".tmp-live"));
        fs::write(&old, b"half a snapshot").unwrap();
        fs::write(&young, b"a live write").unwrap();
        aged(&old, STALE_AFTER * 2);
        store
            .commit("plan-s", "bob", None, |_| {
                let node = crate::model::Node {
                    id: "a".into(),
                    phase: None,
                    kind: crate::model::NodeKind::Join,
                    definition: crate::model::Map::new().into(),
                };
                Ok(vec![OpBody::AddNode { node }])
            })
            .unwrap();
        assert!(!old.exists(), "a killed writer's temporary stays");
        assert!(young.exists(), "a live writer's temporary was removed");
    }
}
