//! Atomic writes: a file is replaced whole or not at all (temporary file in
//! the same folder, sync, rename, sync the folder).

use crate::model::error::Error;
use crate::model::error::Result;
use std::fs;
use std::io::Write;
use std::path::Path;

/// A temporary file (`.tmp-…`) in `dir`, to be written and renamed into
/// place (`persist`): recorded so that memory running out while it is
/// written removes it (`model::oom::pending`) instead of leaving it to the
/// sweep of stale temporaries an hour later.
pub(crate) struct Temp {
    file: tempfile::NamedTempFile,
    _pending: crate::model::oom::Pending,
}

impl Temp {
    pub(crate) fn in_dir(dir: &Path) -> std::io::Result<Temp> {
        let file = tempfile::Builder::new().prefix(".tmp-").tempfile_in(dir)?;
        let _pending = crate::model::oom::pending(file.path());
        Ok(Temp { file, _pending })
    }

    /// Renamed to `path`, replacing what is there.
    pub(crate) fn persist(self, path: &Path) -> std::io::Result<()> {
        self.file.persist(path).map(drop).map_err(|e| e.error)
    }
}

impl std::ops::Deref for Temp {
    type Target = tempfile::NamedTempFile;
    fn deref(&self) -> &tempfile::NamedTempFile {
        &self.file
    }
}

impl std::ops::DerefMut for Temp {
    fn deref_mut(&mut self) -> &mut tempfile::NamedTempFile {
        &mut self.file
    }
}

pub(super) fn sync_dir(path: &Path) {
    if let Ok(d) = fs::File::open(path) {
        let _ = d.sync_all();
    }
}

/// Replaces a file atomically: temp file in the same folder, sync, rename,
/// sync the folder.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    replace(path, bytes, true)
}

/// Replaces a cache file atomically (a reader sees the old file or the new
/// one, whole), without waiting for the disk: a cache checks what it reads
/// and is made again when it is missing or torn after a crash, so the two
/// syncs (milliseconds each on a real disk, in every one-shot write) would
/// buy nothing.
pub(crate) fn write_cache(path: &Path, bytes: &[u8]) -> Result<()> {
    replace(path, bytes, false)
}

/// [`write_atomic`], the syncs only when `durable`.
fn replace(path: &Path, bytes: &[u8], durable: bool) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp =
        Temp::in_dir(dir).map_err(|e| Error::io("create a temporary file in", dir, &e))?;
    tmp.write_all(bytes)
        .map_err(|e| Error::io("write", tmp.path(), &e))?;
    // Temporary files are private; the store's files are ordinary files
    // (committed, shared): keep an existing file's mode, else rw-r--r--.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(path)
            .map(|m| m.permissions().mode())
            .unwrap_or(0o644);
        let _ = tmp
            .as_file()
            .set_permissions(fs::Permissions::from_mode(mode));
    }
    if durable {
        tmp.as_file()
            .sync_all()
            .map_err(|e| Error::io("sync", tmp.path(), &e))?;
    }
    tmp.persist(path)
        .map_err(|e| Error::io("replace", path, &e))?;
    if durable {
        sync_dir(dir);
    }
    Ok(())
}
