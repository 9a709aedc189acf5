//! The key of a log prefix (the snapshot's scheme, shared with the kept
//! checks and the findings in `checkpoint.json`): the log file's identity,
//! the prefix's length, its first 512 bytes and its last 4 KiB, and the
//! log's modification and change times when it was that long.

use std::fs::File;
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::Path;

/// How many bytes at the start of the folded prefix the key compares.
pub(super) const HEAD_SAMPLE: usize = 512;
/// How many bytes at the end of the folded prefix the key compares.
pub(super) const TAIL_SAMPLE: usize = 4096;

/// The modification and change times of `md` (seconds, nanoseconds).
pub(super) fn times(md: &std::fs::Metadata) -> [i64; 4] {
    [md.mtime(), md.mtime_nsec(), md.ctime(), md.ctime_nsec()]
}

/// Whether the file holds `want` at `at`.
fn same_bytes(file: &File, at: u64, want: &[u8]) -> bool {
    let mut got = vec![0u8; want.len()];
    file.read_exact_at(&mut got, at).is_ok() && got == want
}

/// Names the log prefix a fold (or what was made from one) is of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Stamp {
    pub(crate) dev: u64,
    pub(crate) ino: u64,
    pub(crate) len: u64,
    /// Modification and change times (seconds, nanoseconds) of the log when
    /// it was `len` bytes long.
    pub(crate) times: [i64; 4],
    pub(crate) head: Vec<u8>,
    pub(crate) tail: Vec<u8>,
}

impl Stamp {
    /// The stamp of the log `file` as `md` describes it (its whole length).
    pub(crate) fn read(file: &File, md: &std::fs::Metadata) -> Option<Stamp> {
        let len = md.len() as usize;
        let mut head = vec![0u8; len.min(HEAD_SAMPLE)];
        let tail_len = len.min(TAIL_SAMPLE);
        let mut tail = vec![0u8; tail_len];
        file.read_exact_at(&mut head, 0).ok()?;
        file.read_exact_at(&mut tail, (len - tail_len) as u64)
            .ok()?;
        Some(Stamp {
            dev: md.dev(),
            ino: md.ino(),
            len: md.len(),
            times: times(md),
            head,
            tail,
        })
    }

    /// Whether the log (`file`, `md` now, in `dir`) is this prefix, or this
    /// prefix and a tail only planforge appended (its record of its own
    /// appends says so): the same file, at least as long, with the same
    /// bytes where the prefix starts and ends; at the same length, with
    /// the same times (else it was rewritten in place).
    pub(crate) fn leads(&self, dir: &Path, file: &File, md: &std::fs::Metadata) -> bool {
        if (md.dev(), md.ino()) != (self.dev, self.ino) || md.len() < self.len {
            return false;
        }
        if md.len() == self.len && times(md) != self.times {
            return false;
        }
        let since = (self.dev, self.ino, self.len, self.times[2], self.times[3]);
        if md.len() > self.len && !super::super::appends::vouches(dir, &since, md) {
            return false;
        }
        let Some(tail_at) = self.len.checked_sub(self.tail.len() as u64) else {
            return false;
        };
        same_bytes(file, 0, &self.head) && same_bytes(file, tail_at, &self.tail)
    }

    /// A short text naming this prefix (a hash of every part), for keys.
    pub(crate) fn key(&self) -> String {
        let mut b = Vec::with_capacity(64 + self.head.len() + self.tail.len());
        for n in [self.dev, self.ino, self.len] {
            b.extend_from_slice(&n.to_le_bytes());
        }
        for t in self.times {
            b.extend_from_slice(&t.to_le_bytes());
        }
        b.extend_from_slice(&(self.head.len() as u64).to_le_bytes());
        b.extend_from_slice(&self.head);
        b.extend_from_slice(&self.tail);
        crate::model::hash::hex_sha256(&b)
    }

    /// This stamp as bytes ([`Stamp::get`] reads them back).
    pub(super) fn put(&self, out: &mut Vec<u8>) {
        for n in [self.dev, self.ino, self.len] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for t in self.times {
            out.extend_from_slice(&t.to_le_bytes());
        }
        for part in [&self.head, &self.tail] {
            out.extend_from_slice(&(part.len() as u64).to_le_bytes());
            out.extend_from_slice(part);
        }
    }

    /// What [`Stamp::put`] wrote at the start of `bytes`, and the rest.
    pub(super) fn get(bytes: &[u8]) -> Option<(Stamp, &[u8])> {
        let mut r = Reader(bytes);
        let (dev, ino, len) = (r.u64()?, r.u64()?, r.u64()?);
        let times = [r.i64()?, r.i64()?, r.i64()?, r.i64()?];
        let head = r.bytes()?.to_vec();
        let tail = r.bytes()?.to_vec();
        let ok = head.len() <= HEAD_SAMPLE && tail.len() <= TAIL_SAMPLE;
        let stamp = Stamp {
            dev,
            ino,
            len,
            times,
            head,
            tail,
        };
        ok.then_some((stamp, r.0))
    }
}

/// Reads what [`Stamp::put`] and the kept file's head write.
pub(super) struct Reader<'a>(pub(super) &'a [u8]);

impl<'a> Reader<'a> {
    pub(super) fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        (n <= self.0.len()).then(|| {
            let (head, rest) = self.0.split_at(n);
            self.0 = rest;
            head
        })
    }
    pub(super) fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    fn i64(&mut self) -> Option<i64> {
        Some(i64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
    /// A length, then that many bytes.
    pub(super) fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.u64()?).ok()?;
        self.take(n)
    }
}
