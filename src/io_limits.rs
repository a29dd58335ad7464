//! Bounded reads: a file's size in its metadata is a claim, not a limit.
//!
//! `/proc` files report a size of 0 whatever they hold (`/proc/self/pagemap` holds
//! gigabytes), and a file may grow between `stat` and `read`. Every file marbles reads from
//! users (puzzles, rule scripts, Lisp and ICPC files) goes through [`read_at_most`].

use std::io::Read;
use std::path::Path;

/// The file's bytes, or `Ok(None)` when it holds more than `max` bytes: at most `max` bytes
/// and one 8 KiB chunk are ever read, whatever the file claims or holds.
pub fn read_at_most(path: &Path, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    let mut file = std::fs::File::open(path)?;
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
