//! One server per data directory: an advisory lock (`flock`, through
//! std's `File::try_lock`) on `server.lock` in the directory, the file
//! holding the holder's pid so that a refused second server can name it.
//! The OS releases the lock when the holding process ends, however it
//! ends (`kill -9` included), so a file left behind never blocks the next
//! start. Within one process the lock is shared: `xodus-server` takes it
//! before it binds its addresses, and the SQLite store it then opens on
//! the same directory holds the same lock.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::Duration;

/// The lock file's name in the data directory.
pub const LOCK_FILE: &str = "server.lock";

/// How long to wait for this process's own lock being let go (a store of
/// the same directory dropped on another thread while a new one opens).
const OWN_RELEASE_WAIT: Duration = Duration::from_secs(2);

/// Why a data directory could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum DirLockError {
    /// Another process holds the directory.
    #[error(
        "data directory {dir} is in use by another process ({holder}); stop it first, or give this server another --data-dir"
    )]
    InUse {
        /// The directory.
        dir: String,
        /// The holder in words: "pid 1234, xodus-server".
        holder: String,
    },
    /// The directory or its lock file could not be created or locked.
    #[error("cannot lock data directory {dir}: {source}")]
    Io {
        /// The directory.
        dir: String,
        /// Why.
        source: std::io::Error,
    },
}

/// The lock on one data directory, held until the last clone drops.
#[derive(Clone, Debug)]
pub struct DataDirLock {
    held: Arc<Held>,
}

/// The open, locked file (closing it releases the lock).
#[derive(Debug)]
struct Held {
    _file: File,
}

/// The locks this process holds, by canonical directory.
static HELD: Mutex<Vec<(PathBuf, Weak<Held>)>> = Mutex::new(Vec::new());

impl DataDirLock {
    /// Locks `dir` (created if missing) for this process, or shares the
    /// lock this process already holds on it. Another process holding it
    /// is [`DirLockError::InUse`], naming that process.
    pub fn acquire(dir: &Path) -> Result<DataDirLock, DirLockError> {
        let io = |source| DirLockError::Io { dir: dir.display().to_string(), source };
        std::fs::create_dir_all(dir).map_err(io)?;
        let key = dir.canonicalize().map_err(io)?;
        let mut held = HELD.lock().unwrap_or_else(PoisonError::into_inner);
        held.retain(|(_, w)| w.strong_count() > 0);
        if let Some(h) = held.iter().find(|(k, _)| *k == key).and_then(|(_, w)| w.upgrade()) {
            return Ok(DataDirLock { held: h });
        }
        let file = lock_file(dir, &key.join(LOCK_FILE))?;
        let h = Arc::new(Held { _file: file });
        held.push((key, Arc::downgrade(&h)));
        tracing::debug!(dir = %dir.display(), "data directory locked");
        Ok(DataDirLock { held: h })
    }

    /// True when `self` and `other` are the same lock (tests).
    pub fn same_as(&self, other: &DataDirLock) -> bool {
        Arc::ptr_eq(&self.held, &other.held)
    }
}

/// Opens and locks `path`, then writes this process's pid in it.
fn lock_file(dir: &Path, path: &Path) -> Result<File, DirLockError> {
    let io = |source| DirLockError::Io { dir: dir.display().to_string(), source };
    // Not truncated on open: until it is locked, the pid in it is the
    // holder's, which a refusal names.
    let mut file = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(path).map_err(io)?;
    let begun = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::Error(e)) => return Err(io(e)),
            Err(TryLockError::WouldBlock) => {
                let pid = holder_pid(&mut file);
                // This very process, letting go of a lock whose last
                // handle is dropping on another thread: wait for it.
                if pid == Some(std::process::id()) && begun.elapsed() < OWN_RELEASE_WAIT {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                return Err(DirLockError::InUse { dir: dir.display().to_string(), holder: holder_words(pid) });
            }
        }
    }
    file.set_len(0).map_err(io)?;
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    writeln!(file, "{}", std::process::id()).map_err(io)?;
    file.flush().map_err(io)?;
    Ok(file)
}

/// The pid written in the lock file, if it holds one.
fn holder_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// "pid 1234, xodus-server" (the name where the system tells it), or
/// "pid unknown" when the holder has not written its pid yet.
fn holder_words(pid: Option<u32>) -> String {
    let Some(pid) = pid else {
        return "pid unknown".to_string();
    };
    match std::fs::read_to_string(format!("/proc/{pid}/comm")) {
        Ok(name) if !name.trim().is_empty() => format!("pid {pid}, {}", name.trim()),
        _ => format!("pid {pid}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("xodus-dirlock-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn one_process_shares_its_lock_and_lets_it_go_with_the_last_handle() {
        let dir = temp("shared");
        let a = DataDirLock::acquire(&dir).expect("first");
        let b = DataDirLock::acquire(&dir.join(".")).expect("the same directory again, in this process");
        assert!(a.same_as(&b), "one lock, shared");
        let pid = std::fs::read_to_string(dir.join(LOCK_FILE)).expect("lock file");
        assert_eq!(pid.trim(), std::process::id().to_string());
        drop((a, b));
        // A handle of its own (as another process would have) locks it now.
        let mut file = OpenOptions::new().read(true).write(true).open(dir.join(LOCK_FILE)).expect("open");
        file.try_lock().expect("released with the last handle");
        assert_eq!(holder_pid(&mut file), Some(std::process::id()));
        drop(file);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_lock_held_elsewhere_is_refused_naming_the_holder() {
        let dir = temp("held");
        std::fs::create_dir_all(&dir).expect("dir");
        // Another open file description stands for another process.
        let other = OpenOptions::new().read(true).write(true).create(true).truncate(false).open(dir.join(LOCK_FILE));
        let mut other = other.expect("open");
        other.try_lock().expect("lock");
        writeln!(other, "4242").expect("pid");
        match DataDirLock::acquire(&dir) {
            Err(DirLockError::InUse { holder, .. }) => assert!(holder.starts_with("pid 4242"), "{holder}"),
            other => panic!("not refused: {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
