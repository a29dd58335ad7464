//! Safe input: the files users hand marbles (puzzles, rule scripts, Lisp, matrix, ICPC and
//! shard files) are read here, bounded whatever the file claims or holds (this was
//! `io_limits`, now beside the spec reader that is its main caller).
//!
//! [`read_text`] is the way in for text (puzzles, rule scripts, Lisp, matrix and ICPC files):
//! it refuses directories, FIFOs, sockets and devices from their metadata, files over
//! [`MAX_SPEC_BYTES`], and bytes that are not UTF-8 (located at their line). Underneath it,
//! [`read_at_most`] is the bounded read itself, also used alone for shard files and for the
//! bytes a batch hashes. A file's size in its metadata is a claim, not a limit: `/proc` files
//! report a size of 0 whatever they hold (`/proc/self/pagemap` holds gigabytes), and a file
//! may grow between `stat` and `read`. (What a YAML text may expand to once read is bounded
//! in `yaml` and `expansion`.)

use crate::diag::{Diagnostic, Result};
use std::io::Read;
use std::path::Path;

/// Specs larger than this are refused before parsing: no real puzzle comes near it.
pub const MAX_SPEC_BYTES: u64 = 1 << 20;

/// An ICPC file read by a command that holds one case at a time (`solve`, `check`, `count`,
/// `play`) may be this large: 10,000 cases of the contest's 40 × 40 boards take 74 MB. A
/// batch holds a file's results until the file is done, so it keeps [`MAX_SPEC_BYTES`].
pub const MAX_CASES_BYTES: u64 = 256 << 20;

/// What a file read by [`read_text`] is, for its messages: scripts are read the same way.
fn kind_of(path: &Path) -> &'static str {
    match path.extension().is_some_and(|e| e.eq_ignore_ascii_case("rhai")) {
        true => "rule script",
        false if path.file_name().is_some_and(|n| n == crate::project::FILE) => "project file",
        false => "puzzle file",
    }
}

/// Reads a small UTF-8 text file, refusing directories, FIFOs, huge files and bad bytes.
pub fn read_text(path: &Path) -> Result<String> {
    read_text_up_to(path, MAX_SPEC_BYTES)
}

/// [`read_text`], for a file of at most `max` bytes.
pub fn read_text_up_to(path: &Path, max: u64) -> Result<String> {
    read_text_judged(path, max, Judges::default())
}

/// Why a file, by the real path of the file actually opened, is not to be read; `None` to
/// read it. Judged on the open file, not on its name, so that a name swapped for a link
/// between a check and the open cannot lead the read elsewhere.
pub type Judge<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// Who judges a read ([`read_text_judged`]): the file once opened, by its real path; and a
/// file not there, by its folder's real path, before a name in that folder is offered instead.
#[derive(Clone, Copy, Default)]
pub struct Judges<'a> {
    pub file: Option<Judge<'a>>,
    pub folder: Option<Judge<'a>>,
}

/// [`read_text_up_to`], judged by `judges` before a byte of the file is read (or a name near
/// it offered): a refusal is the error, in the judge's words.
pub fn read_text_judged(path: &Path, max: u64, judges: Judges) -> Result<String> {
    let meta = std::fs::metadata(path).map_err(|e| {
        // A file not there: its folder, opened once, judged by its real path before any name
        // in it is offered instead, and those names read from the folder judged (a name
        // swapped for a link out between the two offered names from out there).
        let near_in = match (e.kind(), judges.folder) {
            (std::io::ErrorKind::NotFound, Some(judge)) => {
                use std::os::unix::fs::OpenOptionsExt;
                let parent = crate::diag::parent_of(path);
                let folder = std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_DIRECTORY)
                    .open(parent)
                    .and_then(|f| crate::owned::real_path(&f, parent).map(|real| (real, f)));
                match folder {
                    Ok((real, f)) => match judge(&real) {
                        Some(why) => return Diagnostic::new(path, why),
                        None => Some(f),
                    },
                    Err(_) => None,
                }
            }
            _ => None,
        };
        // A link whose target is gone: say so, as the link itself is there to see.
        let why = match std::fs::read_link(path) {
            Ok(to) if e.kind() == std::io::ErrorKind::NotFound => {
                format!("a link to {}, which does not exist", to.display())
            }
            _ if e.kind() == std::io::ErrorKind::NotFound => {
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
                let hint = match (&near_in, judges.folder) {
                    (Some(f), _) => crate::diag::near_name_in(&crate::owned::by_fd(f), name),
                    // A folder judged that could not be opened offers no name.
                    (None, Some(_)) => String::new(),
                    (None, None) => crate::diag::near_name(path),
                };
                match hint.is_empty() {
                    true => io_reason(&e),
                    false => format!("{}; {}", io_reason(&e), hint.trim_end()),
                }
            }
            _ => io_reason(&e),
        };
        Diagnostic::new(path, format!("cannot read: {why}"))
    })?;
    if meta.is_dir() {
        return Err(Diagnostic::new(
            path,
            "is a directory, not a puzzle file (use `marbles batch` for folders)",
        ));
    }
    if !meta.is_file() {
        return Err(Diagnostic::new(
            path,
            format!(
                "is not a regular file (a FIFO, socket or device?); marbles reads {}s only",
                kind_of(path)
            ),
        ));
    }
    // A file there says 0 bytes and may hold gigabytes (`/proc/self/pagemap`): refused unread.
    if let Some(fs) = special_file_system(path) {
        return Err(Diagnostic::new(
            path,
            format!("is on a {fs} file system, not a {} (not read)", kind_of(path)),
        ));
    }
    if meta.len() > max {
        let notation = crate::formats::Notation::of(path, None);
        let (kind, advice) = match (kind_of(path), max) {
            ("puzzle file", MAX_SPEC_BYTES) if notation.name == "icpc" => (
                "puzzle files",
                format!(
                    " (a file of many cases may be split into several, which `batch` solves as a \
                     folder; `solve` reads one of up to {MAX_CASES_BYTES} bytes, a case at a time)"
                ),
            ),
            ("puzzle file", MAX_SPEC_BYTES) if notation.several.is_some() => (
                "puzzle files",
                " (a file of many cases may be split into several, which `batch` solves as a folder)".into(),
            ),
            ("puzzle file", MAX_SPEC_BYTES) => ("puzzle files", String::new()),
            ("puzzle file", _) => ("ICPC files", " (split it into several)".into()),
            ("project file", _) => ("project files", String::new()),
            _ => (
                "rule scripts",
                " (a family's tables are built by its code, not written out in it)".into(),
            ),
        };
        return Err(Diagnostic::new(
            path,
            format!(
                "is {} bytes; {kind} are limited to {max} bytes{advice}",
                meta.len()
            ),
        ));
    }
    let bytes = read_opened(path, max, judges.file)
        .map_err(|e| match crate::owned::refusal(&e) {
            Some(why) => Diagnostic::new(path, why),
            None => Diagnostic::new(path, format!("cannot read: {}", io_reason(&e))),
        })?
        .ok_or_else(|| {
            Diagnostic::new(
                path,
                format!(
                    "holds more than its size says ({} bytes): files are limited to {max} bytes",
                    meta.len()
                ),
            )
        })?;
    if utf16(&bytes) {
        return Err(
            Diagnostic::new(path, "is UTF-16 text, and marbles reads UTF-8: save it as UTF-8")
                .at(Some(1), None),
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        let upto = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
        Diagnostic::new(path, "is not valid UTF-8 text").at(Some(line), None)
    })
}

/// Whether `bytes` start as UTF-16 text does: with its byte-order mark, or (without one) with a
/// zero byte beside each of their first characters, as ASCII is written in UTF-16.
fn utf16(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64) & !1];
    let zeros = |from: usize| !head.is_empty() && head.iter().skip(from).step_by(2).all(|&b| b == 0);
    bytes.starts_with(&[0xFE, 0xFF]) || bytes.starts_with(&[0xFF, 0xFE]) || zeros(0) || zeros(1)
}

/// The kind of special file system `dir` (a folder or a file) is on, if it is one whose files
/// marbles must not walk or read: `/proc`
/// and `/sys` hold links back into the whole tree (every process's root, cwd and open
/// folders), so following links there walks without end; none holds puzzles.
pub fn special_file_system(dir: &Path) -> Option<&'static str> {
    use std::os::unix::ffi::OsStrExt;
    // Their `statfs` magic numbers (linux/magic.h).
    const SPECIAL: [(u64, &str); 16] = [
        (0x9fa0, "proc"),
        (0x6265_6572, "sysfs"),
        (0x6462_6720, "debugfs"),
        (0x7472_6163, "tracefs"),
        (0x7363_6673, "securityfs"),
        (0x0027_e0eb, "cgroup"),
        (0x6367_7270, "cgroup2"),
        (0x1cd1, "devpts"),
        (0xcafe_4a11, "bpf"),
        (0x6265_6570, "configfs"),
        (0x6165_676c, "pstore"),
        (0xf97c_ff8c, "selinuxfs"),
        (0xde5e_81e4, "efivarfs"),
        (0x6573_5543, "fusectl"),
        (0x4249_4e4d, "binfmt_misc"),
        (0x6e73_6673, "nsfs"),
    ];
    let path = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: statfs fills the struct it is given from a NUL-terminated path.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(path.as_ptr(), &mut st) } != 0 {
        return None;
    }
    let magic = st.f_type as u64 & 0xffff_ffff;
    SPECIAL.iter().find(|(m, _)| *m == magic).map(|&(_, name)| name)
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// The file's bytes, or `Ok(None)` when it holds more than `max` bytes: at most `max` bytes
/// and one 8 KiB chunk are ever read, whatever the file claims or holds.
///
/// Callers look at the metadata first to refuse FIFOs and devices with a clear message; the
/// file is then opened without blocking and asked again, so a FIFO swapped in between the
/// two is refused here instead of blocking the read forever.
pub fn read_at_most(path: &Path, max: u64) -> std::io::Result<Option<Vec<u8>>> {
    read_opened(path, max, None)
}

/// [`read_at_most`], the file once opened judged by `judge` on its real path (what
/// `/proc/self/fd` says the open file is; where that cannot be read, the name's real path).
fn read_opened(path: &Path, max: u64, judge: Option<Judge>) -> std::io::Result<Option<Vec<u8>>> {
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
    if let Some(judge) = judge {
        let real = crate::owned::real_path(&file, path)?;
        if let Some(why) = judge(&real) {
            return Err(std::io::Error::other(crate::owned::Refused(why)));
        }
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
