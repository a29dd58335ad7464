//! Where a result's file lies, as `--resume` knows it: the path the batch named it by, taken
//! from the folder the batch ran in, that folder said from the report folder. So the same
//! files are known from any folder a batch runs in and however their folder is spelt, in a
//! project moved whole with its reports too, and never as another folder's files of the same
//! names. The report folder is taken where it really is (links worked out, by the folder
//! marbles has open), as the folder marbles runs in is; a file's path is worked out by name,
//! no file looked at, unless it holds a `..`, which may follow a link: that one is taken
//! where the kernel takes it.

use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// The folder marbles runs in, looked up once: what this run's relative paths are taken from.
fn here<'a>() -> Option<&'a Path> {
    static HERE: OnceLock<Option<PathBuf>> = OnceLock::new();
    HERE.get_or_init(|| std::env::current_dir().ok()).as_deref()
}

/// `path` from the root (a relative one taken from the folder marbles runs in), its `.` and
/// `..` worked out by name.
fn absolute(path: &Path) -> PathBuf {
    let whole = here().filter(|_| path.is_relative()).map(|h| h.join(path));
    let mut out = PathBuf::new();
    for part in whole.as_deref().unwrap_or(path).components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` taken from `base` (from [`absolute`]): where a `..` follows a link (`deep/..`
/// with `deep` a link elsewhere) the kernel's answer, for the file as it stands, else by
/// name.
fn resolved(base: &Path, path: &Path) -> PathBuf {
    let whole = base.join(path);
    match climbs(path) {
        true => std::fs::canonicalize(&whole).unwrap_or_else(|_| absolute(&whole)),
        false => absolute(&whole),
    }
}

/// Whether `path` holds a `..`.
fn climbs(path: &Path) -> bool {
    path.components().any(|c| c == Component::ParentDir)
}

/// `to` as a path from `base`, both from [`absolute`].
fn between(base: &Path, to: &Path) -> PathBuf {
    let (base, to): (Vec<_>, Vec<_>) = (base.components().collect(), to.components().collect());
    let same = base.iter().zip(&to).take_while(|(b, t)| b == t).count();
    let mut out: PathBuf = base[same..].iter().map(|_| Component::ParentDir).collect();
    out.extend(&to[same..]);
    out
}

/// The folder this batch runs in, said from its report folder, once [`reports_in`] is told.
static FROM: OnceLock<String> = OnceLock::new();

/// Tells where this batch's report folder really is (links worked out, as the folder it runs
/// in is): each record it writes then says, from there, the folder the batch runs in
/// ([`from`]), `.` when they are one.
pub fn reports_in(report: &Path) {
    let from = between(&absolute(report), &absolute(Path::new(".")));
    if let Some(from) = from.to_str() {
        let _ = FROM.set(if from.is_empty() { "." } else { from }.to_string());
    }
}

/// The folder this batch runs in, from its report folder (`..` for `reports/`): what its
/// records' relative paths are taken from. None when no report folder was told, or the path
/// is not UTF-8 (such records are taken from the folder a later run runs in).
pub fn from() -> Option<&'static str> {
    FROM.get().map(String::as_str)
}

/// A hash of a path from the root, its `.` and `..` worked out: what a file is known by.
pub fn key_of(path: &Path) -> u64 {
    key_in(Path::new(""), path)
}

/// [`key_of`] `base` (from [`absolute`]) joined with `path`, without making the path where
/// it has no `..` (every file of a batch, a few times each, and every record read back).
fn key_in(base: &Path, path: &Path) -> u64 {
    use std::hash::{Hash, Hasher};
    if climbs(path) {
        return key_of(&resolved(base, path));
    }
    let base = if path.is_absolute() { Path::new("") } else { base };
    let mut h = rustc_hash::FxHasher::default();
    let parts = base.components().chain(path.components());
    parts
        .filter(|&c| c != Component::CurDir)
        .for_each(|part| part.hash(&mut h));
    h.finish()
}

/// What this run knows the file it names `file` by.
pub fn file_key(file: &str) -> u64 {
    key_in(here().unwrap_or(Path::new("")), Path::new(file))
}

/// The files a report folder's records name, from where the folder is now.
#[derive(Default)]
pub struct Places {
    reports: PathBuf,
    /// The last `from` met, and the folder it names from [`absolute`]: records say one or a
    /// few.
    last: Option<(String, PathBuf)>,
}

impl Places {
    /// For the records in the report folder that really is at `reports` (links worked out).
    pub fn new(reports: &Path) -> Self {
        Places {
            reports: absolute(reports),
            last: None,
        }
    }

    /// The file a record names `file`, from the root: taken from the folder its batch ran in
    /// (`from`, said from the report folder), or, for a record that says none (written
    /// before records said it), from the folder this run runs in.
    pub fn file(&self, from: Option<&str>, file: &str) -> PathBuf {
        match from {
            Some(from) => resolved(&absolute(&self.reports.join(from)), Path::new(file)),
            None => resolved(here().unwrap_or(Path::new("")), Path::new(file)),
        }
    }

    /// [`Places::file`], the folder of a `from` worked out once for the records that say it.
    pub fn place(&mut self, from: Option<&str>, file: &str) -> PathBuf {
        let Some(from) = from else {
            return self.file(None, file);
        };
        if self.last.as_ref().is_none_or(|(last, _)| last != from) {
            self.last = Some((from.to_string(), absolute(&self.reports.join(from))));
        }
        let (_, base) = self.last.as_ref().expect("set above");
        resolved(base, Path::new(file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_known_however_it_is_spelt_and_from_wherever_its_batch_ran() {
        let here = here().unwrap();
        let same = [
            "set/a.yaml",
            "./set/a.yaml",
            "set//a.yaml",
            "set/./a.yaml",
            "x/../set/a.yaml",
        ];
        for s in same {
            assert_eq!(file_key(s), key_of(&here.join("set/a.yaml")), "{s}");
        }
        assert_eq!(
            file_key(&here.join("set/a.yaml").display().to_string()),
            file_key("set/a.yaml")
        );
        assert_ne!(file_key("set/b.yaml"), file_key("set/a.yaml"));
        // A record written by a batch run in `proj`, its reports in `proj/rep` (`from` ".."),
        // names `proj/set/a.yaml`, wherever `proj` is now.
        let mut places = Places::new(Path::new("/moved/proj/rep"));
        assert_eq!(
            places.file(Some(".."), "set/a.yaml"),
            Path::new("/moved/proj/set/a.yaml")
        );
        assert_eq!(
            places.file(Some("../sub"), "../set/a.yaml"),
            Path::new("/moved/proj/set/a.yaml")
        );
        assert_eq!(places.file(Some(".."), "/abs/a.yaml"), Path::new("/abs/a.yaml"));
        for (from, file) in [
            ("..", "set/a.yaml"),
            ("../sub", "../set/a.yaml"),
            ("..", "./set//a.yaml"),
        ] {
            assert_eq!(
                key_of(&places.place(Some(from), file)),
                key_of(Path::new("/moved/proj/set/a.yaml")),
                "{from} {file}"
            );
        }
        assert_eq!(
            key_of(&places.place(Some(".."), "/abs/a.yaml")),
            key_of(Path::new("/abs/a.yaml"))
        );
        assert_eq!(between(Path::new("/p/rep"), Path::new("/p")), Path::new(".."));
        assert_eq!(between(Path::new("/p/rep"), Path::new("/p/rep")), Path::new(""));
        assert_eq!(between(Path::new("/p"), Path::new("/q/r")), Path::new("../q/r"));
    }
}
