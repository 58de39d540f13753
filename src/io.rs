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
//!
//! Files are opened for reading by [`open_to_read`], which a caller can
//! stop while it waits for a FIFO's writer.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
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

/// Creates the directory `dir` and its missing parents, as Python's
/// `os.makedirs(dir, exist_ok=True)` does. An empty path names no
/// directory: the operating system's `mkdir("")` refuses it (ENOENT, a
/// FileNotFoundError naming `''`, as Python's), where Rust's
/// `create_dir_all` would take it for the current directory and succeed,
/// so that the files meant for a directory landed there instead.
pub fn create_dir_all(dir: &Path) -> Result<()> {
    let made = if dir.as_os_str().is_empty() { fs::create_dir(dir) } else { fs::create_dir_all(dir) };
    made.map_err(|e| Error::io(dir, e))
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

/// Opens `path` for reading as `File::open` does, except that the wait for
/// a FIFO's writer can be stopped: when a signal interrupts the `open`,
/// `stop` is asked whether to give up (`Error::Interrupted`) before it opens
/// again. `File::open` opens again at once, so Ctrl-C (or another signal
/// handler's exception) never stopped the open of a FIFO no one writes to,
/// where Python's `open` raises the handler's exception. (Python's handlers
/// are set without `SA_RESTART`: a signal to the waiting thread interrupts
/// the `open`.) The open blocks as `File::open`'s does, until a writer has
/// opened the FIFO, so a writer that opens several FIFOs before it writes to
/// any is served as before.
///
/// Anything else (a regular file, a device, a missing path) is opened by
/// `File::open` itself. Errors are OS errors naming `path`.
pub fn open_to_read(path: &Path, stop: &dyn Fn() -> bool) -> Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if fs::metadata(path).is_ok_and(|m| m.file_type().is_fifo()) {
            return open_fifo(path, stop);
        }
    }
    #[cfg(not(unix))]
    let _ = stop;
    File::open(path).map_err(|e| Error::io(path, e))
}

/// [`open_to_read`] for a FIFO: `open(2)` as `File::open` calls it
/// (read-only, close-on-exec), `stop` asked when a signal interrupts it.
#[cfg(unix)]
fn open_fifo(path: &Path, stop: &dyn Fn() -> bool) -> Result<File> {
    use std::os::fd::FromRawFd;
    use std::os::unix::ffi::OsStrExt;

    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| Error::io(path, std::io::Error::from(ErrorKind::InvalidInput)))?;
    loop {
        // SAFETY: a NUL-terminated path that lives through the call; no mode
        // is read without `O_CREAT`.
        let fd = unsafe { libc::open(c_path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
        if fd >= 0 {
            // SAFETY: `fd` was just opened and nothing else owns it.
            return Ok(unsafe { File::from_raw_fd(fd) });
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != ErrorKind::Interrupted {
            return Err(Error::io(path, e));
        }
        if stop() {
            return Err(Error::Interrupted);
        }
    }
}

/// The bytes of a file, opened by [`open_to_read`] (`stop` as there), read as
/// `fs::read` reads them: the room for a regular file's length reserved at
/// once, and running out of room an I/O error of kind `OutOfMemory` (with
/// no errno). A read that a signal interrupts (a FIFO whose writer is slow
/// to write) asks `stop` whether to give up (`Error::Interrupted`) before it
/// reads again; `fs::read` reads again at once.
pub fn read_bytes(path: &Path, stop: &dyn Fn() -> bool) -> Result<Vec<u8>> {
    let file = open_to_read(path, stop)?;
    let size = file.metadata().ok().filter(|m| m.is_file()).map_or(0, |m| m.len());
    let mut bytes = Vec::new();
    let size = usize::try_from(size).map_err(|_| ErrorKind::OutOfMemory.into());
    size.and_then(|n| bytes.try_reserve_exact(n).map_err(|_| ErrorKind::OutOfMemory.into()))
        .and_then(|()| Stoppable { file, stop }.read_to_end(&mut bytes))
        .map_err(|e: std::io::Error| match e.get_ref() {
            Some(inner) if inner.is::<Stopped>() => Error::Interrupted,
            _ => Error::io(path, e),
        })?;
    Ok(bytes)
}

/// A file whose reads, when a signal interrupts one, ask `stop` whether to
/// give up (a [`Stopped`] error) before reading again.
struct Stoppable<'a> {
    file: File,
    stop: &'a dyn Fn() -> bool,
}

/// The error of a read that [`Stoppable`]'s `stop` gave up.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Stopped {}

impl Read for Stoppable<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            match self.file.read(buf) {
                Err(e) if e.kind() == ErrorKind::Interrupted => {
                    if (self.stop)() {
                        return Err(std::io::Error::other(Stopped));
                    }
                }
                read => return read,
            }
        }
    }
}

/// The text of a UTF-8 file (a tokenizer's `tokenizer.json`, `vocab.txt`
/// or model directory JSON file, or a corpus file to train on), read by
/// [`read_bytes`] (`stop` as there: a caller that cannot be stopped passes
/// `&|| false`): an OS error for reading (naming the file), an invalid-file
/// error `not UTF-8 text (invalid byte at offset N)`.
pub fn read_utf8(path: &Path, stop: &dyn Fn() -> bool) -> Result<String> {
    let bytes = read_bytes(path, stop)?;
    String::from_utf8(bytes).map_err(|e| {
        Error::invalid_file(path, format!("not UTF-8 text (invalid byte at offset {})", e.utf8_error().valid_up_to()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_directory_path_is_not_found_and_creates_nothing() {
        let err = create_dir_all(Path::new("")).unwrap_err();
        match err {
            Error::Io { path, source } => {
                assert_eq!(path, Path::new(""));
                assert_eq!(source.kind(), ErrorKind::NotFound);
            }
            other => panic!("not an I/O error: {other}"),
        }
        let dir = std::env::temp_dir().join(format!("fwp-io-mkdir-{}", std::process::id())).join("a").join("b");
        create_dir_all(&dir).unwrap();
        create_dir_all(&dir).unwrap(); // exist_ok
        assert!(dir.is_dir());
        fs::remove_dir_all(dir.parent().unwrap().parent().unwrap()).unwrap();
    }

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
    fn a_fifo_is_waited_for_until_asked_to_stop_and_then_read_whole() {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        use std::sync::atomic::AtomicUsize;
        let dir = std::env::temp_dir().join(format!("fwp-io-fifo-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo");
        let c_path = CString::new(fifo.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
        // No writer: the open waits; each signal to the waiting thread asks
        // `stop`, and it gives up when told to.
        extern "C" fn nothing(_: libc::c_int) {}
        // SAFETY: a handler that does nothing, without `SA_RESTART` (as
        // Python sets its handlers), for a signal nothing else here uses.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = nothing as extern "C" fn(libc::c_int) as libc::sighandler_t;
            libc::sigemptyset(&mut action.sa_mask);
            assert_eq!(libc::sigaction(libc::SIGUSR2, &action, std::ptr::null_mut()), 0);
        }
        let asked = std::sync::Arc::new(AtomicUsize::new(0));
        let opener = std::thread::spawn({
            let (fifo, asked) = (fifo.clone(), asked.clone());
            move || {
                matches!(open_to_read(&fifo, &|| asked.fetch_add(1, Ordering::Relaxed) == 2), Err(Error::Interrupted))
            }
        });
        {
            use std::os::unix::thread::JoinHandleExt;
            while !opener.is_finished() {
                std::thread::sleep(std::time::Duration::from_millis(20));
                // SAFETY: the thread is not joined yet, so its id is valid.
                unsafe { libc::pthread_kill(opener.as_pthread_t(), libc::SIGUSR2) };
            }
        }
        assert!(opener.join().unwrap());
        assert_eq!(asked.load(Ordering::Relaxed), 3);
        // A writer that comes late and writes in pieces: every byte, read blocking.
        let writer = std::thread::spawn({
            let fifo = fifo.clone();
            move || {
                std::thread::sleep(std::time::Duration::from_millis(150));
                let mut f = OpenOptions::new().write(true).open(&fifo).unwrap();
                for _ in 0..3 {
                    f.write_all(&[b'x'; 70_000]).unwrap();
                    std::thread::sleep(std::time::Duration::from_millis(30));
                }
            }
        });
        assert_eq!(read_bytes(&fifo, &|| false).unwrap(), vec![b'x'; 210_000]);
        writer.join().unwrap();
        // Files other than FIFOs open as `File::open` opens them.
        let missing = read_bytes(&dir.join("missing"), &|| true).unwrap_err();
        assert!(matches!(missing, Error::Io { ref source, .. } if source.kind() == ErrorKind::NotFound), "{missing}");
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
