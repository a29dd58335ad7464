//! Files marbles owns (report files, the journal, the lock, shard results, imported specs) and
//! the ones it reads back: opened here only as regular files and never through a link planted
//! in their place.
//!
//! Every writer opens its file through [`open`] (or [`create_new`], [`replace`]): `O_NOFOLLOW`
//! refuses a symbolic link at the path instead of writing to what it points at, `O_NONBLOCK`
//! keeps a FIFO there from blocking the open, and the open file is asked (`fstat`) whether it
//! is regular. [`open_to_read`] does the same for what `--resume` reads back. The ground
//! floor: imports nothing of the crate.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Why a symbolic link in the place of a file marbles owns is refused.
const LINK: &str = "is a symbolic link; marbles does not write or read its own files through a link \
                    (one planted there would redirect them elsewhere): remove it";

/// Why a file with another name (a hard link) in the place of a file marbles writes is refused.
const HARD_LINK: &str = "has another name (a hard link); marbles does not write its own files where \
                         another name would see the change (one planted there would redirect them): remove it";

/// Why a FIFO, socket or device in the place of a file marbles owns is refused.
const NOT_REGULAR: &str = "is not a regular file (a FIFO, socket or device?); marbles writes and reads \
                           back only regular files of its own";

/// Opens `path` as `options` ask, refusing a symbolic link or anything but a regular file at
/// the path (the error says which; the caller names the path).
///
/// A file that has another name too (a hard link) is refused as well: writing to it would
/// change the file under its other name. `options` must not truncate: the check comes after
/// the open, and a truncation would already have changed that file.
pub fn open(path: &Path, options: &mut OpenOptions) -> io::Result<File> {
    let file = options
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| explain(path, e))?;
    let file = regular(file)?;
    match std::os::unix::fs::MetadataExt::nlink(&file.metadata()?) {
        1 => Ok(file),
        _ => Err(io::Error::other(HARD_LINK)),
    }
}

/// Creates `path` for writing (0666 less the umask, like any output); whatever is there
/// already, a link included, is refused.
pub fn create_new(path: &Path) -> io::Result<File> {
    open(path, OpenOptions::new().write(true).create_new(true))
}

/// Opens `path` to read it back, as a regular file only: through a link only to a file
/// inside the folder `within` (`results.jsonl` is a link marbles made into the current report
/// set, inside the report folder), judged on the file once opened. The folder is given as
/// where it is reached and the name a refusal shows it by.
pub fn open_to_read(path: &Path, within: Option<(&Path, &Path)>) -> io::Result<File> {
    let out_of = |shown: &Path, real: &Path| {
        io::Error::other(Refused(format!(
            "a link out of {} (to {}); marbles reads back only the files it wrote there",
            shown.display(),
            real.display()
        )))
    };
    // Inside a folder, the kernel follows links only while they stay in it: no path is
    // compared, so a folder renamed meanwhile cannot make a file inside look outside.
    let beneath = within.and_then(|(dir, shown)| Some((dir, shown, path.strip_prefix(dir).ok()?)));
    if let Some((dir, shown, rel)) = beneath
        && let Some(opened) = open_beneath(dir, rel, libc::O_NONBLOCK)
    {
        return match opened {
            Ok(file) => regular(file),
            Err(e) if e.raw_os_error() == Some(libc::EXDEV) => {
                let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
                Err(out_of(shown, &real))
            }
            Err(e) => Err(explain(path, e)),
        };
    }
    let flags = libc::O_NONBLOCK | if within.is_some() { 0 } else { libc::O_NOFOLLOW };
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)
        .map_err(|e| explain(path, e))?;
    if let Some((dir, shown)) = within {
        let real = real_path(&file, path)?;
        if !real.starts_with(std::fs::canonicalize(dir)?) {
            return Err(out_of(shown, &real));
        }
    }
    regular(file)
}

/// Opens `rel` inside the folder `dir` to read, as `openat2(RESOLVE_BENEATH)` does: a link
/// is followed only while it stays inside the folder, one leading out fails with `EXDEV`.
/// `None` where the kernel has no `openat2` (before Linux 5.6, or a sandbox refusing it).
fn open_beneath(dir: &Path, rel: &Path, flags: i32) -> Option<io::Result<File>> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::io::{AsRawFd, FromRawFd};
    let folder = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_PATH | libc::O_DIRECTORY)
        .open(dir)
    {
        Ok(f) => f,
        Err(e) => return Some(Err(e)),
    };
    let name = std::ffi::CString::new(rel.as_os_str().as_bytes()).ok()?;
    /// The kernel's `struct open_how` (libc's cannot be built field by field).
    #[repr(C)]
    struct OpenHow {
        flags: u64,
        mode: u64,
        resolve: u64,
    }
    let how = OpenHow {
        flags: (libc::O_RDONLY | libc::O_CLOEXEC | flags) as u64,
        mode: 0,
        resolve: libc::RESOLVE_BENEATH | libc::RESOLVE_NO_MAGICLINKS,
    };
    // SAFETY: `openat2` with an open folder, a NUL-terminated name and an `open_how` of the
    // size given; the descriptor it returns is ours alone.
    let fd = unsafe {
        libc::syscall(
            libc::SYS_openat2,
            folder.as_raw_fd(),
            name.as_ptr(),
            &how as *const OpenHow,
            std::mem::size_of::<OpenHow>(),
        )
    };
    if fd < 0 {
        let e = io::Error::last_os_error();
        return match e.raw_os_error() {
            Some(libc::ENOSYS | libc::EPERM) => None,
            _ => Some(Err(e)),
        };
    }
    // SAFETY: `fd` was just opened by `openat2` and is owned by nothing else.
    Some(Ok(unsafe { File::from_raw_fd(fd as i32) }))
}

/// A refusal carried inside an `io::Error`, in its own words: [`open_to_read`]'s of a link out
/// of the folder it was given, a judge's of a file opened (`spec::input`). A caller tells it
/// from a failure to read by [`refusal`].
#[derive(Debug)]
pub struct Refused(pub String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// The words of the [`Refused`] `e` carries, if it carries one.
pub fn refusal(e: &io::Error) -> Option<&str> {
    e.get_ref()?.downcast_ref::<Refused>().map(|r| r.0.as_str())
}

/// The real path of the open `file`, as the kernel has it (`/proc/self/fd`), whatever name
/// opened it and whatever that name leads to since; where that cannot be read, the real path
/// of `path`, the name it was opened by.
pub fn real_path(file: &File, path: &Path) -> io::Result<std::path::PathBuf> {
    std::fs::read_link(by_fd(file)).or_else(|_| std::fs::canonicalize(path))
}

/// The kernel's name for the open `file` (`/proc/self/fd/N`): a path that reaches the file
/// itself while it is open, whatever its names lead to since (for a folder, the files in it
/// are reached below it).
pub fn by_fd(file: &File) -> std::path::PathBuf {
    use std::os::unix::io::AsRawFd;
    std::path::PathBuf::from(format!("/proc/self/fd/{}", file.as_raw_fd()))
}

/// Writes `contents` to `path` so that a reader sees the old file or the whole new one: a
/// temporary file beside it, created new ([`create_new`]; one a kill left behind is removed
/// first, a link there as a link), synced, then renamed over `path` (a link at `path` is
/// replaced, not followed).
pub fn replace(path: &Path, contents: &[u8]) -> io::Result<()> {
    let name = path
        .file_name()
        .map_or_else(Default::default, |n| n.to_string_lossy());
    let tmp = path.with_file_name(format!(".{name}.{}.tmp", std::process::id()));
    match std::fs::remove_file(&tmp) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    let written = create_new(&tmp).and_then(|mut f| {
        f.write_all(contents)?;
        f.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// `file`, if it is a regular file.
fn regular(file: File) -> io::Result<File> {
    match file.metadata()?.is_file() {
        true => Ok(file),
        false => Err(io::Error::other(NOT_REGULAR)),
    }
}

/// An open's error said in words when a link or a special file is in the way (`O_NOFOLLOW`
/// says `ELOOP`, `O_EXCL` `EEXIST`, a FIFO with no reader `ENXIO`).
fn explain(path: &Path, e: io::Error) -> io::Error {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => io::Error::new(e.kind(), LINK),
        Ok(m) if !m.is_file() && !m.is_dir() => io::Error::new(e.kind(), NOT_REGULAR),
        _ => e,
    }
}

/// A temporary folder (kept while the first value lives), by its real path, holding the
/// folders `subs`, for the tests of links within it and out of it.
#[cfg(test)]
pub fn temp_with(subs: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let d = std::fs::canonicalize(dir.path()).unwrap();
    for sub in subs {
        std::fs::create_dir_all(d.join(sub)).unwrap();
    }
    (dir, d)
}

/// Runs `body` while another thread flips `link` between a link to `targets[0]` and one to
/// `targets[1]` as fast as it can (each flip a rename over it, so the name is always there),
/// for the tests of what marbles reads or writes through a name swapped under it.
#[cfg(test)]
pub fn while_flipping<T>(link: &Path, targets: [&Path; 2], body: impl FnOnce() -> T) -> T {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = AtomicBool::new(false);
    let tmp = link.with_file_name(".flip");
    std::thread::scope(|s| {
        s.spawn(|| {
            for to in targets.iter().cycle() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                std::os::unix::fs::symlink(to, &tmp).unwrap();
                std::fs::rename(&tmp, link).unwrap();
            }
        });
        let out = body();
        stop.store(true, Ordering::Relaxed);
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report folder renamed back and forth while a file in it is read back, reached
    /// through the open folder: it is never called a link out of the folder (it was, some 700
    /// times in 5,000, when the folder's real path and the file's were compared). Where the
    /// kernel has no `openat2` the paths are compared still, and this is not asserted.
    #[test]
    fn a_file_read_back_while_its_folder_moves_is_not_called_a_link_out() {
        let (_t, d) = temp_with(&["x/gen"]);
        std::fs::write(d.join("x/gen/results.jsonl"), "").unwrap();
        std::os::unix::fs::symlink("gen/results.jsonl", d.join("x/results.jsonl")).unwrap();
        let handle = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_DIRECTORY)
            .open(d.join("x"))
            .unwrap();
        let at = by_fd(&handle);
        let read = || open_to_read(&at.join("results.jsonl"), Some((&at, Path::new("x"))));
        let stop = std::sync::atomic::AtomicBool::new(false);
        let refused = std::thread::scope(|s| {
            s.spawn(|| {
                let names = [d.join("x"), d.join("y")];
                for k in 0.. {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        std::fs::rename(&names[k % 2], &names[0]).ok();
                        break;
                    }
                    std::fs::rename(&names[k % 2], &names[(k + 1) % 2]).unwrap();
                }
            });
            let refused = (0..5_000).filter(|_| read().is_err()).count();
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
            refused
        });
        if open_beneath(&at, Path::new("results.jsonl"), 0).is_some() {
            assert_eq!(refused, 0);
        }
    }

    #[test]
    fn a_planted_link_is_neither_followed_nor_replaced_by_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let link = dir.path().join("owned");
        std::os::unix::fs::symlink(&victim, &link).unwrap();
        let writable = || OpenOptions::new().write(true).create(true).truncate(true).clone();
        for e in [
            open(&link, &mut writable()).unwrap_err(),
            create_new(&link).unwrap_err(),
            open_to_read(&link, None).unwrap_err(),
        ] {
            assert!(e.to_string().starts_with("is a symbolic link"), "{e}");
        }
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        replace(&link, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "new");
        // Read back through a link only to a file inside the folder given.
        let (inside, out) = (dir.path().join("in"), tempfile::tempdir().unwrap());
        std::fs::create_dir(&inside).unwrap();
        std::fs::write(inside.join("mine"), "").unwrap();
        std::fs::write(out.path().join("theirs"), "").unwrap();
        std::os::unix::fs::symlink("mine", inside.join("ok")).unwrap();
        std::os::unix::fs::symlink(out.path().join("theirs"), inside.join("out")).unwrap();
        let within = Some((inside.as_path(), inside.as_path()));
        assert!(open_to_read(&inside.join("ok"), within).is_ok());
        let e = open_to_read(&inside.join("out"), within).unwrap_err();
        assert!(
            refusal(&e).is_some_and(|r| r.starts_with("a link out of ")),
            "{e}"
        );
        assert!(
            open_to_read(
                Path::new("/dev/zero"),
                Some((Path::new("/dev"), Path::new("/dev")))
            )
            .unwrap_err()
            .to_string()
            .starts_with("is not a regular file")
        );
    }
}
