//! Bounded reads: a file's size in its metadata is a claim, not a limit.
//!
//! `/proc` files report a size of 0 whatever they hold (`/proc/self/pagemap` holds
//! gigabytes), and a file may grow between `stat` and `read`. Every file marbles reads from
//! users (puzzles, rule scripts, Lisp and ICPC files) goes through [`read_at_most`].

use std::io::Read;
use std::path::Path;

/// The file's bytes, or `Ok(None)` when it holds more than `max` bytes: at most `max` bytes
/// and one 8 KiB chunk are ever read, whatever the file claims or holds.
///
/// Callers look at the metadata first to refuse FIFOs and devices with a clear message; the
/// file is then opened without blocking and asked again, so a FIFO swapped in between the
/// two is refused here instead of blocking the read forever.
pub fn read_at_most(path: &Path, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other(
            "is not a regular file (it was replaced while being read?)",
        ));
    }
    let mut bytes = Vec::new();
    // Whole 8 KiB reads: some kernel files (pagemap) refuse reads of other sizes.
    let mut chunk = [0u8; 8192];
    while bytes.len() as u64 <= max {
        match file.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A FIFO with no writer would block a plain open or read forever; it is refused at once,
    /// even when the caller's own metadata check was passed by a regular file since swapped.
    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = std::env::temp_dir().join(format!("marbles-fifo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("p.yaml");
        let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = read_at_most(&fifo, 1024).unwrap_err();
        assert!(err.to_string().contains("is not a regular file"), "{err}");
        std::fs::write(dir.join("q.yaml"), "abc").unwrap();
        assert_eq!(read_at_most(&dir.join("q.yaml"), 1024).unwrap().unwrap(), b"abc");
        assert_eq!(read_at_most(&dir.join("q.yaml"), 2).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
