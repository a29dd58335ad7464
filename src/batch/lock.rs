//! One batch per report folder: an advisory lock on `.lock` in the folder, holding who took it.
//!
//! The lock is the operating system's (`flock`), so it is released when the process ends,
//! however it ends; the file's text (pid, host, start time) is only there to name the holder.
//! A batch that finishes removes the file while it still holds the lock; one that takes a
//! lock checks that the file it locked is still the one at `.lock` (not one removed since it
//! opened it), and tries again if not, so two batches never both hold the folder.

use super::folder::Folder;
use std::io::{Read, Seek, Write};

const LOCK: &str = ".lock";

/// The held lock on a report folder; dropping it releases the folder.
#[derive(Debug)]
pub struct ReportLock {
    file: std::fs::File,
    /// The report folder, held open ([`Folder`]).
    folder: Folder,
}

impl Drop for ReportLock {
    /// Removes `.lock` before the lock is released (the file closes after this): a batch
    /// that opened it meanwhile finds it gone once it gets the lock, and tries again.
    fn drop(&mut self) {
        use std::os::unix::fs::MetadataExt;
        let ours = self.file.metadata().map(|m| (m.dev(), m.ino()));
        let there = std::fs::symlink_metadata(self.folder.at(LOCK)).map(|m| (m.dev(), m.ino()));
        if ours.is_ok() && ours.ok() == there.ok() {
            let _ = std::fs::remove_file(self.folder.at(LOCK));
        }
    }
}

/// Tries to take the lock again after finding `.lock` replaced this many times.
const RETRIES: usize = 100;

/// Takes the report folder `dir` for this process, or says who holds it. Nothing in the
/// folder is changed when another process holds it.
pub fn acquire(dir: &Folder) -> anyhow::Result<ReportLock> {
    let path = dir.at(LOCK);
    let cannot = |e: std::io::Error| anyhow::anyhow!("cannot lock {}: {e}", dir.shown(LOCK).display());
    let mut tries = 0;
    let mut file = loop {
        let file = lock_once(dir)?;
        use std::os::unix::fs::MetadataExt;
        let ours = file.metadata().map_err(cannot)?;
        match std::fs::symlink_metadata(&path) {
            Ok(m) if (m.dev(), m.ino()) == (ours.dev(), ours.ino()) => break file,
            // Removed by the batch that held it, after this one opened it: open it anew.
            _ if tries < RETRIES => tries += 1,
            _ => return Err(cannot(std::io::Error::other("it keeps being replaced"))),
        }
    };
    // A `.lock` marbles did not write (its text names a pid) is the user's: not replaced.
    let mut held = Vec::new();
    (&file).take(64).read_to_end(&mut held).map_err(cannot)?;
    if !held.is_empty() && !held.starts_with(b"pid ") {
        anyhow::bail!(
            "{}: a file marbles did not write (its lock reads `pid N on host H, …`); move it away \
             or choose another --report folder; nothing was solved and no report was touched",
            dir.shown(LOCK).display()
        );
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
    Ok(ReportLock {
        file,
        folder: dir.again().map_err(cannot)?,
    })
}

/// Opens `.lock` in `dir` and takes its lock, or says who holds it.
fn lock_once(dir: &Folder) -> anyhow::Result<std::fs::File> {
    let path = dir.at(LOCK);
    let cannot = |e: std::io::Error| anyhow::anyhow!("cannot lock {}: {e}", dir.shown(LOCK).display());
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
                "another process".to_string()
            } else {
                with_age(holder)
            };
            anyhow::bail!(
                "report folder {} is in use by another marbles batch ({holder}); \
                 wait for it to finish or give another --report folder",
                dir.name().display()
            );
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(cannot(e)),
    }
    Ok(file)
}

/// The holder's text with its start told as an age: `…, started at unix time T` becomes
/// `…, started 2 min 5 s ago`.
fn with_age(holder: &str) -> String {
    let Some((who, t)) = holder.rsplit_once(", started at unix time ") else {
        return holder.to_string();
    };
    let Ok(t) = t.trim().parse::<u64>() else {
        return holder.to_string();
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let age = now.saturating_sub(t);
    let age = match age {
        a if a < 60 => format!("{a} s"),
        a if a < 3600 => format!("{} min {} s", a / 60, a % 60),
        a if a < 86_400 => format!("{} h {} min", a / 3600, a % 3600 / 60),
        a => format!("{} days {} h", a / 86_400, a % 86_400 / 3600),
    };
    format!("{who}, started {age} ago")
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
