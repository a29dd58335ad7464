//! One batch per report folder: an advisory lock on `.lock` in the folder, holding who took it.
//!
//! The lock is the operating system's (`flock`), so it is released when the process ends,
//! however it ends; the file's text (pid, host, start time) is only there to name the holder.

use std::io::{Read, Seek, Write};
use std::path::Path;

const LOCK: &str = ".lock";

/// The held lock on a report folder; dropping it releases the folder.
#[derive(Debug)]
pub struct ReportLock {
    _file: std::fs::File,
}

/// Takes the report folder `dir` (creating it) for this process, or says who holds it.
/// Nothing in the folder is changed when another process holds it.
pub fn acquire(dir: &Path) -> anyhow::Result<ReportLock> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("cannot create report folder {}: {e}", dir.display()))?;
    let path = dir.join(LOCK);
    let cannot = |e: std::io::Error| anyhow::anyhow!("cannot lock {}: {e}", path.display());
    // A link planted as `.lock` is refused, not followed: the holder's text would overwrite
    // whatever it points at.
    let mut file = crate::owned::open(
        &path,
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
    )
    .map_err(cannot)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = Read::by_ref(&mut file).take(4096).read_to_string(&mut holder);
            let holder = holder.trim();
            let holder = if holder.is_empty() {
                "another process"
            } else {
                holder
            };
            anyhow::bail!(
                "report folder {} is in use by another marbles batch ({holder}); \
                 wait for it to finish or give another --report folder",
                dir.display()
            );
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(cannot(e)),
    }
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let text = format!(
        "pid {} on host {}, started at unix time {started}\n",
        std::process::id(),
        host()
    );
    file.set_len(0).map_err(cannot)?;
    file.rewind().map_err(cannot)?;
    file.write_all(text.as_bytes()).map_err(cannot)?;
    Ok(ReportLock { _file: file })
}

/// This machine's name, as the kernel knows it.
fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".into())
}
