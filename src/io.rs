//! Atomic file writes: a temporary file beside the target, then a rename, so a
//! crash or a full disk never leaves a half-written file behind, and a reader
//! only ever sees the old file or the new one.
//!
//! Every call writes its own temporary file, created exclusively (`O_EXCL`)
//! under a name no other call uses (process id, a per-process counter and the
//! clock): threads and processes saving to one path at once each rename a
//! complete file of their own over it, and the last rename wins.
//!
//! A save goes where opening the path for writing would: through symbolic
//! links to the file they name (the link stays a link), keeping an existing
//! file's permission bits. A path that names something other than a regular
//! file or a directory (a FIFO, a device such as `/dev/null`) is written
//! directly, as there is nothing to rename over.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};

/// Temporary files made by this process so far: part of their names.
static MADE: AtomicU64 = AtomicU64::new(0);

/// Writes `contents` to `path` atomically (see the module's documentation);
/// errors name `path` as the caller gave it.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let target = resolve_links(path).map_err(|e| Error::io(path, e))?;
    let permissions = match fs::metadata(&target) {
        Ok(m) if m.is_file() => Some(m.permissions()),
        Ok(m) if !m.is_dir() => return fs::write(&target, contents).map_err(|e| Error::io(path, e)),
        Ok(_) => None,
        Err(e) if e.kind() == ErrorKind::NotFound => None,
        Err(e) => return Err(Error::io(path, e)),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target.file_name().ok_or_else(|| Error::invalid(format!("{}: not a file path", path.display())))?;
    let (tmp, mut file) = create_temporary(dir, &name.to_string_lossy()).map_err(|e| Error::io(path, e))?;
    let result = (|| {
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        file.write_all(contents)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, &target)?;
        sync_dir(dir);
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// Links followed before a save gives up, as the operating system does
/// (Linux's limit).
const MAX_LINKS: usize = 40;

/// The path a write to `path` would open: `path` itself unless it is a
/// symbolic link, else what the links name, followed one by one (a link to a
/// missing file gives that file's path, which the save then creates). Too
/// many links, or a loop, is the error the operating system gives for it.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(fs::metadata(path).err().unwrap_or_else(|| std::io::Error::other("too many levels of symbolic links")))
}

/// A new file `.name.<pid>.<n>.<nanos>.tmp` in `dir`, created exclusively: a
/// name that exists already (left by a crash, or made by another process
/// whose id was reused) is skipped, never opened.
fn create_temporary(dir: &Path, name: &str) -> std::io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    loop {
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let tmp = dir.join(format!(".{name}.{pid}.{n}.{nanos:09}.tmp"));
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(file) => return Ok((tmp, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Makes the rename durable where the platform allows it (best effort: the
/// file itself is complete either way).
fn sync_dir(dir: &Path) {
    #[cfg(unix)]
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// The text of a tokenizer's UTF-8 file (a `tokenizer.json`, `vocab.txt` or
/// a model directory's JSON file): an OS error for reading (naming the file),
/// an invalid-file error `not UTF-8 text (invalid byte at offset N)`.
pub fn read_text(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    String::from_utf8(bytes).map_err(|e| {
        Error::invalid_file(path, format!("not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
    })
}

/// The text of a UTF-8 file: an OS error for reading (naming the file), an
/// invalid-file error naming the first byte that is not UTF-8.
pub fn read_utf8(path: &Path) -> Result<String> {
    let bytes = fs::read(path).map_err(|e| Error::io(path, e))?;
    String::from_utf8(bytes)
        .map_err(|e| Error::invalid_file(path, format!("not UTF-8 at byte {}", e.utf8_error().valid_up_to())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concurrent_writes_to_one_path_never_tear_it() {
        let dir = std::env::temp_dir().join(format!("fwp-io-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.json");
        let contents: Vec<Vec<u8>> = (0..4u8).map(|k| vec![b'a' + k; 100_000 + k as usize]).collect();
        std::thread::scope(|s| {
            for c in &contents {
                let path = &path;
                s.spawn(move || {
                    for _ in 0..20 {
                        write_atomic(path, c).unwrap();
                    }
                });
            }
            s.spawn(|| {
                for _ in 0..200 {
                    if let Ok(read) = fs::read(&path) {
                        assert!(contents.contains(&read), "a torn file of {} bytes", read.len());
                    }
                }
            });
        });
        let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left, ["out.json"], "no temporary file is left behind");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_save_through_a_link_replaces_the_file_it_names_and_keeps_its_mode() {
        use std::os::unix::fs::{symlink, PermissionsExt};
        let dir = std::env::temp_dir().join(format!("fwp-io-links-{}", std::process::id()));
        fs::create_dir_all(dir.join("real")).unwrap();
        let (real, link, chain) = (dir.join("real/out.json"), dir.join("link.json"), dir.join("chain.json"));
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        symlink("real/out.json", &link).unwrap();
        symlink("link.json", &chain).unwrap();
        write_atomic(&chain, b"new").unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert!(fs::symlink_metadata(&chain).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
        let dangling = dir.join("dangling.json");
        symlink("real/later.json", &dangling).unwrap();
        write_atomic(&dangling, b"made").unwrap();
        assert_eq!(fs::read(dir.join("real/later.json")).unwrap(), b"made");
        let looped = dir.join("loop.json");
        symlink("loop.json", &looped).unwrap();
        assert!(write_atomic(&looped, b"x").is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}
