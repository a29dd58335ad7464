//! Rule scripts: find a family's Rhai script, run it once in a sandbox, and read back its tables.
//!
//! A script defines `fn rules(board)` and returns a map describing the family's geometry and
//! moves (see docs/rules.md). Nothing here runs during a search: [`crate::model`] compiles
//! these tables into bit masks first.

pub mod alloc;
mod board;
pub mod cache;
mod locate;
mod sandbox;
mod worker;

pub use board::ScriptBoard;
pub use sandbox::{IN_SCRIPT, MAX_SCRIPT_BYTES, ScriptLimits};

use crate::diag::{Diagnostic, Result};
use crate::spec::{BoardSpec, Cell, Spec};
use rhai::{Array, Dynamic, Map};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The rule scripts shipped with marbles, built in so the binary works from any folder.
pub const BUILTIN: &[(&str, &str)] = &[
    ("peg_hop", include_str!("../../rules/peg_hop.rhai")),
    ("triangle_hop", include_str!("../../rules/triangle_hop.rhai")),
    ("tilt_roll", include_str!("../../rules/tilt_roll.rhai")),
    ("diagonal_hop", include_str!("../../rules/diagonal_hop.rhai")),
    ("frogs_toads", include_str!("../../rules/frogs_toads.rhai")),
    ("hoppers", include_str!("../../rules/hoppers.rhai")),
    ("slide_maze", include_str!("../../rules/slide_maze.rhai")),
    ("ricochet", include_str!("../../rules/ricochet.rhai")),
];

/// A rule script's text and where it came from.
#[derive(Debug, Clone)]
pub struct Script {
    /// The family name: the script's file stem.
    pub name: String,
    /// Where it was read, or `<builtin>/NAME.rhai`.
    pub origin: PathBuf,
    /// Shared: every case of a file, every puzzle of a folder, holds the same text.
    pub source: Arc<str>,
    /// The SHA-256 of `source`, in hex: answers name it, `--resume` compares it, and the
    /// tables it gives are kept by it (see [`cache`]).
    pub hash: String,
}

impl Script {
    pub fn new(name: String, origin: PathBuf, source: String) -> Self {
        let hash = crate::fingerprint::hash(&source);
        // A byte order mark (Windows editors write one) is no Rhai; the hash keeps the bytes.
        let source = match source.strip_prefix('\u{feff}') {
            Some(rest) => rest.to_string(),
            None => source,
        };
        Script {
            name,
            origin,
            source: source.into(),
            hash,
        }
    }
}

/// Which kind of search a family needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Hop,
    Tilt,
    /// Pieces of kinds, moves as rewrites of cells (see [`RewriteRule`]).
    Rewrite,
    /// Robots of kinds that slide until a wall, the edge or another robot stops them (see
    /// [`crate::model::slide`]): no move list, the model works out every slide natively.
    Slide,
}

pub use crate::lattice::Layout;

/// One direction a family names.
#[derive(Debug, Clone, PartialEq)]
pub struct Direction {
    pub name: String,
    /// The unit step, `[drow, dcol]`: tilt families roll marbles nearest that side first.
    pub step: Option<[i64; 2]>,
}

/// A hop: `from` and every `over` cell must hold pegs and `to` must be empty; afterwards
/// `from` and `over` are empty and `to` holds a peg.
#[derive(Debug, Clone, PartialEq)]
pub struct HopRule {
    pub dir: Option<usize>,
    pub from: Cell,
    pub over: Vec<Cell>,
    pub to: Cell,
}

/// A rewrite: the cells `at` must hold what `was` says, one character a cell (`.` empty, a
/// kind's letter, `*` any piece), and afterwards hold what `becomes` says (`*` where `was` has
/// `*`: that piece stays as it is).
#[derive(Debug, Clone, PartialEq)]
pub struct RewriteRule {
    pub dir: Option<usize>,
    pub at: Vec<Cell>,
    pub was: Vec<u8>,
    pub becomes: Vec<u8>,
}

/// A tilt link: a marble at `from`, rolling in direction `dir`, moves next to `to`.
/// A cell with no link in a direction is blocked that way (edge or wall).
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub dir: usize,
    pub from: Cell,
    pub to: Cell,
}

/// What a rule script hands back, still in the user's coordinates.
#[derive(Debug, Clone)]
pub struct RuleTables {
    pub kind: Kind,
    pub layout: Layout,
    pub directions: Vec<Direction>,
    pub hops: Vec<HopRule>,
    pub links: Vec<Link>,
    /// A tilt family that gave no `links`: each square links to the square one `step` away in
    /// each direction, where the board has one (built natively: a 40 × 40 board's 6,400 links
    /// took its script a third of a second).
    pub links_from_steps: bool,
    pub rewrites: Vec<RewriteRule>,
    /// A rewrite family's kinds, their letters in the order the family lists them.
    pub pieces: Vec<u8>,
    /// The family's default number of pegs to leave.
    pub default_pegs: Option<u32>,
    /// What the script printed, in order.
    pub printed: Vec<String>,
}

/// A script's path as messages show it: relative to the working folder when it lies below it
/// (the lookup itself runs on real, canonical folders).
fn shown(path: PathBuf) -> PathBuf {
    std::env::current_dir()
        .and_then(|c| c.canonicalize())
        .ok()
        .filter(|c| c.parent().is_some())
        .and_then(|c| path.strip_prefix(&c).ok().map(Path::to_path_buf))
        // The working directory itself is `.`, not an empty name.
        .map(|p| {
            if p.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                p
            }
        })
        .unwrap_or(path)
}

/// Scripts found by [`resolve`], by the folder of the spec as written and the name asked
/// for: a batch reads each rule script once, not once per puzzle (finding it took a dozen
/// system calls, and reading it was most of a small puzzle's time). Cleared when it holds
/// 1,024.
static FOUND: crate::memo::Kept<(PathBuf, String), Script> = crate::memo::Kept::new(1024);

/// The script a spec names, as `find` finds it; found once per process for each folder and
/// name, then kept: a script edited while marbles runs is read again only by the next run.
pub fn resolve(spec: &Spec) -> Result<Script> {
    if !crate::memo::enabled() {
        return find(spec);
    }
    // Files of one folder find the same scripts, unless a file is a link to another folder.
    let linked = std::fs::symlink_metadata(&spec.path).is_ok_and(|m| m.file_type().is_symlink());
    let place = match linked {
        true => spec.path.clone(),
        false => spec.path.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let key = (place, spec.rules.trim().to_string());
    if let Some(s) = FOUND.get(&key) {
        return Ok(s);
    }
    let script = find(spec)?;
    FOUND.put(key, script.clone());
    Ok(script)
}

/// Finds the script a spec names: a path relative to the spec, or by name `NAME.rhai` in a
/// `rules/` folder beside the spec's real location or above it, up to the first boundary
/// (a folder holding `marbles.toml` or `.git`), else a built-in family. It depends on the
/// file's place alone: not on how its path is spelled, where marbles runs from, or which
/// folders the command line names (a batch of `A` and one of `A A/sub` once climbed to
/// different heights). Without a boundary above the spec only the `rules/` folder beside it
/// is searched, so a stray `rules/` above it (`/tmp/rules`) is never used.
fn find(spec: &Spec) -> Result<Script> {
    let name = spec.rules.trim();
    let line = crate::spec::key_line(&spec.source, "rules");
    let base = real_folder(&spec.path);
    if name.ends_with(".rhai") || name.contains('/') || name.contains('\\') {
        let refused =
            |why: String| Diagnostic::new(&spec.path, format!("rules: {name}: {why}")).at(line, None);
        let path = inside_project(&base, name).map_err(refused)?;
        // Judged again on the file opened, as by name below.
        let top = project_top(&base);
        let judge = |real: &Path| {
            let out = !real.starts_with(top) || real.extension().is_none_or(|e| e != "rhai");
            out.then(|| {
                format!(
                    "a link to {}, out of the puzzle's project or no `.rhai` script",
                    real.display()
                )
            })
        };
        let source = read_judged(&path, &judge).map_err(|e| {
            let e = e.0;
            let mut message = format!("rule script {}: {}", shown(path.clone()).display(), e.message);
            // `rules: peg_hop.rhai`, not beside the puzzle, meant the family by its name.
            let stem = name.strip_suffix(".rhai").filter(|s| !s.contains(['/', '\\']));
            if let Some(stem) = stem.filter(|_| !path.exists()) {
                let by_name = Spec {
                    rules: stem.to_string(),
                    ..spec.clone()
                };
                if let Ok(s) = find(&by_name) {
                    message += &format!(
                        "; did you mean the family `{stem}` ({})? write `rules: {stem}`",
                        s.origin.display()
                    );
                }
            }
            Diagnostic::new(&spec.path, message).at(line, None)
        })?;
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Ok(Script::new(stem, shown(path), source));
    }
    let dirs = rule_dirs(&base)?;
    let reach = Reach::new(&base, &dirs);
    for dir in &dirs {
        let path = dir.join(format!("{name}.rhai"));
        if path.is_dir() {
            return Err(Diagnostic::new(
                &spec.path,
                format!(
                    "rule family `{name}`: {} is a directory, not a rule script",
                    shown(path).display()
                ),
            )
            .at(line, None));
        }
        // A FIFO, socket or device named like a script is said to be one (never opened:
        // reading a FIFO would wait for a writer), not passed over as if it were absent.
        if let Ok(meta) = std::fs::metadata(&path)
            && !meta.is_file()
        {
            return Err(Diagnostic::new(
                &spec.path,
                format!(
                    "rule family `{name}`: {} is {}, not a rule script (not opened)",
                    shown(path).display(),
                    special_kind(&meta.file_type())
                ),
            )
            .at(line, None));
        }
        if path.is_file() {
            let refuse = |why: String| {
                Diagnostic::new(
                    &spec.path,
                    format!(
                        "rule family `{name}`: {} is {why}: not read; copy the script in",
                        shown(path.clone()).display(),
                    ),
                )
                .at(line, None)
            };
            // By its name (a link to `/proc` is said to be one), then on the file opened: a
            // name swapped for a link out between the two had a stranger's file compiled and
            // its errors quoted.
            if let Some(why) = reach.refused(&path) {
                return Err(refuse(why));
            }
            let judge = |real: &Path| reach.refused_real(real);
            let source = read_judged(&path, &judge).map_err(|e| match *e {
                (_, Some(why)) => refuse(why),
                (d, None) => d,
            })?;
            return Ok(Script::new(name.to_string(), shown(path), source));
        }
    }
    if let Some((n, src)) = BUILTIN.iter().find(|(n, _)| *n == name) {
        return Ok(Script::new(
            n.to_string(),
            PathBuf::from(format!("<builtin>/{n}.rhai")),
            src.to_string(),
        ));
    }
    let known = known_families(&base, &dirs);
    // A script of that name in a `rules/` folder the search does not reach (above the
    // project's boundary, or above a spec with no boundary over it) is what was meant.
    if let Some(beyond) = beyond_boundary(&base, &dirs, name) {
        // The top `rules/` of the climb: the boundary's, else the one beside the spec.
        let top = dirs
            .iter()
            .find(|d| d.parent().is_some_and(is_boundary))
            .unwrap_or(&dirs[0]);
        let reach = match top.parent() {
            Some(folder) if is_boundary(folder) => {
                format!(
                    "the search stops at {}, a project's boundary",
                    shown(folder.to_path_buf()).display()
                )
            }
            _ => "with no marbles.toml or .git above the puzzle, only the `rules/` beside it is searched"
                .to_string(),
        };
        return Err(Diagnostic::new(
            &spec.path,
            format!(
                "rule family `{name}`: {} is not searched ({reach}): move it into {}, or name it by its path",
                shown(beyond).display(),
                shown(top.clone()).display()
            ),
        )
        .at(line, None));
    }
    let hint = crate::diag::did_you_mean(name, &known);
    // A folder looked in that is not there is said to be absent: "searched sub/rules" read as
    // if it held scripts.
    let searched: Vec<String> = dirs
        .iter()
        .map(|d| {
            let absent = if d.is_dir() { "" } else { ", no such folder" };
            format!("{}{absent}", shown(d.clone()).display())
        })
        .collect();
    Err(Diagnostic::new(
        &spec.path,
        format!(
            "unknown rule family `{name}`: {hint}known families: {} (searched {})",
            known.join(", "),
            searched.join("; ")
        ),
    )
    .at(line, None))
}

/// What a file that is neither a regular file nor a folder is, in words: `a FIFO`, ….
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    let _ = kind;
    "not a regular file"
}

/// The script a puzzle in folder `base` names by the path `name`, if it may read it: a path
/// ending in `.rhai`, relative to the puzzle, that stays inside the puzzle's project (the
/// nearest folder above it holding `marbles.toml` or `.git`, else the puzzle's own folder),
/// links followed. A puzzle may come from anybody: `rules: /etc/passwd` or `../../.env` had
/// marbles read the file and quote its parse errors into reports. Else why not, in words.
fn inside_project(base: &Path, name: &str) -> std::result::Result<PathBuf, String> {
    if !name.ends_with(".rhai") {
        return Err("a path to a rule script ends in `.rhai` (or name a family: `rules: peg_hop`)".into());
    }
    if Path::new(name).is_absolute() {
        return Err(
            "an absolute path; a puzzle names its script by a path relative to itself, inside its project"
                .into(),
        );
    }
    let top = project_top(base);
    let project = match top == base && !is_boundary(base) {
        true => "the puzzle's own folder, as no marbles.toml or .git is above it".to_string(),
        false => format!(
            "{}, the folder holding its marbles.toml or .git",
            shown(top.to_path_buf()).display()
        ),
    };
    // Spelled out of the project (`..` past its top), it is refused unread: not even whether
    // the file is there is told. A link inside to a file outside is refused once followed.
    let mut spelled = base.to_path_buf();
    for part in Path::new(name).components() {
        match part {
            std::path::Component::ParentDir => {
                spelled.pop();
            }
            std::path::Component::Normal(p) => spelled.push(p),
            _ => {}
        }
    }
    let real = std::fs::canonicalize(&spelled).unwrap_or_else(|_| spelled.clone());
    if real.extension().is_some_and(|e| e != "rhai") {
        return Err(format!(
            "a link to {}, which is no `.rhai` script",
            real.display()
        ));
    }
    match spelled.starts_with(top) && real.starts_with(top) {
        true => Ok(base.join(name)),
        false => Err(format!(
            "outside the puzzle's project ({project}): a puzzle may read rule scripts inside it only; \
             copy the script in, or put a marbles.toml at the top of the folders you trust"
        )),
    }
}

/// A rule script's text, the file once opened judged by `judge` on its real path; an error
/// says whether it was the judge's refusal (its words), or reading that failed. (A script
/// not there is not judged by its folder: its name was judged before.)
fn read_judged(
    path: &Path,
    judge: &dyn Fn(&Path) -> Option<String>,
) -> std::result::Result<String, Box<(Diagnostic, Option<String>)>> {
    let refused = std::cell::RefCell::new(None);
    let judge = |real: &Path| {
        let why = judge(real);
        refused.borrow_mut().clone_from(&why);
        why
    };
    let judges = crate::spec::input::Judges {
        file: Some(&judge),
        folder: None,
    };
    crate::spec::input::read_text_judged(path, sandbox::MAX_SCRIPT_BYTES as u64, judges)
        .map_err(|d| Box::new((d, refused.take())))
}

/// The folder a file really sits in: symlinks and `..` resolved, so that every spelling of
/// its path finds the same rules.
fn real_folder(file: &Path) -> PathBuf {
    let real = std::fs::canonicalize(file)
        .or_else(|_| std::path::absolute(file))
        .unwrap_or_else(|_| file.to_path_buf());
    real.parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
}

/// Folders searched for `NAME.rhai`: `rules/` in `base` and in each folder above it, up to and
/// including the first boundary, a folder holding `marbles.toml` or `.git`, then the folders
/// that `marbles.toml` lists under `rules`. Without a boundary above `base`, only `base/rules`.
/// A `marbles.toml` there that cannot be read is the error.
fn rule_dirs(base: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for a in base.ancestors() {
        dirs.push(a.join("rules"));
        if is_boundary(a) {
            // Then the folders the project's marbles.toml names, in its order.
            let toml = shown(a.join(crate::project::FILE));
            dirs.extend(crate::project::rule_folders(a, &toml)?);
            return Ok(dirs);
        }
    }
    Ok(vec![base.join("rules")])
}

/// The top of the project a puzzle in folder `base` belongs to: the nearest boundary at or
/// above it, else `base` itself. Scripts are read from inside it.
fn project_top(base: &Path) -> &Path {
    base.ancestors().find(|a| is_boundary(a)).unwrap_or(base)
}

/// A folder holding `marbles.toml` or `.git`: a project's top.
fn is_boundary(folder: &Path) -> bool {
    folder.join("marbles.toml").exists() || folder.join(".git").exists()
}

/// The nearest `rules/NAME.rhai` above `base` that [`rule_dirs`] leaves out.
fn beyond_boundary(base: &Path, dirs: &[PathBuf], name: &str) -> Option<PathBuf> {
    base.ancestors()
        .map(|a| a.join("rules"))
        .filter(|d| !dirs.contains(d))
        .map(|d| d.join(format!("{name}.rhai")))
        .find(|p| p.is_file())
}

fn known_families(base: &Path, dirs: &[PathBuf]) -> Vec<String> {
    families_in(base, dirs).into_iter().map(|f| f.name).collect()
}

/// Where scripts found by name may be read from: inside the project of the folder `base`,
/// or the rule folders its `marbles.toml` lists. A `rules/` folder or script linked out of
/// them is refused unread.
struct Reach<'a> {
    top: &'a Path,
    listed: Vec<PathBuf>,
}

impl<'a> Reach<'a> {
    fn new(base: &'a Path, dirs: &[PathBuf]) -> Self {
        let top = project_top(base);
        let listed = dirs
            .iter()
            .filter(|d| !d.starts_with(top))
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .collect();
        Reach { top, listed }
    }

    /// Whether the real path `real` lies inside the project or a rule folder it lists.
    fn holds(&self, real: &Path) -> bool {
        real.starts_with(self.top) || self.listed.iter().any(|l| real.starts_with(l))
    }

    /// Why the script at `path` may not be read, links followed: what it is a link to.
    fn refused(&self, path: &Path) -> Option<String> {
        self.refused_real(&std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
    }

    /// [`Reach::refused`], of the script at the real path `real`.
    fn refused_real(&self, real: &Path) -> Option<String> {
        let why = if !self.holds(real) {
            OUT_OF_REACH
        } else if real.extension().is_none_or(|e| e != "rhai") {
            "which is no `.rhai` script"
        } else {
            return None;
        };
        Some(format!("a link to {}, {why}", real.display()))
    }
}

const OUT_OF_REACH: &str = "outside the puzzle's project and the rule folders its marbles.toml lists";

/// Why a rule script may not be written into `folder` for a puzzle in the folder `base`:
/// `folder` is a link that leads where such a puzzle's scripts may not be read from (out of
/// its project and the rule folders its `marbles.toml` lists), or nowhere. `None` for a
/// real folder, a link within, or no folder yet.
pub fn write_refused(base: &Path, folder: &Path) -> Result<Option<String>> {
    let Ok(to) = std::fs::read_link(folder.components().as_path()) else {
        return Ok(None);
    };
    let Ok(real) = std::fs::canonicalize(folder) else {
        return Ok(Some(format!("a link to {}, which does not exist", to.display())));
    };
    let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let reach = Reach::new(&base, &rule_dirs(&base)?);
    Ok((!reach.holds(&real)).then(|| format!("a link to {}, {OUT_OF_REACH}", real.display())))
}

/// Why a rule script just made at the real path `real`, for a puzzle in the folder `base`,
/// lies where such a puzzle may not read it from (its `rules` swapped for a link out after
/// [`write_refused`] looked).
pub fn made_out_of_reach(base: &Path, real: &Path) -> Result<Option<String>> {
    let base = std::fs::canonicalize(base).unwrap_or_else(|_| base.to_path_buf());
    let reach = Reach::new(&base, &rule_dirs(&base)?);
    Ok((!reach.holds(real)).then(|| format!("it was made at {}, {OUT_OF_REACH}", real.display())))
}

/// A rule family a puzzle in some folder can name, and where it would be found.
#[derive(Debug, Clone, PartialEq)]
pub struct Family {
    pub name: String,
    /// The script file, or `<builtin>/NAME.rhai`.
    pub origin: PathBuf,
    pub builtin: bool,
    /// A script file named like a built-in family, used instead of it.
    pub hides_builtin: bool,
    /// The first sentence of the script's opening comment, without `//` and a leading `NAME:`.
    pub about: String,
}

/// Every family a puzzle in folder `base` can name, by name, each as [`resolve`] would find
/// it: the first `rules/NAME.rhai` of the folders it searches, else the built-in.
/// A `marbles.toml` on the way that cannot be read is the error.
pub fn families(base: &Path) -> Result<Vec<Family>> {
    let base = std::fs::canonicalize(base)
        .or_else(|_| std::path::absolute(base))
        .unwrap_or_else(|_| base.to_path_buf());
    Ok(families_in(&base, &rule_dirs(&base)?))
}

/// Every family found in `dirs`, the first folder winning, then the built-ins not hidden.
fn families_in(base: &Path, dirs: &[PathBuf]) -> Vec<Family> {
    let reach = Reach::new(base, dirs);
    let mut out: Vec<Family> = Vec::new();
    for dir in dirs {
        let Ok(rd) = std::fs::read_dir(dir) else { continue };
        let mut files: Vec<PathBuf> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rhai") && !p.is_dir())
            .collect();
        files.sort();
        for path in files {
            let name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if out.iter().any(|f| f.name == name) {
                continue;
            }
            // Said as `solve` would find it: a FIFO or device is named, never opened, and a
            // file too long to compile is said to be.
            let about = match std::fs::metadata(&path) {
                Ok(m) if !m.is_file() => format!(
                    "(not a rule script: it is {}; not opened)",
                    special_kind(&m.file_type())
                ),
                Ok(_) if let Some(why) = reach.refused(&path) => format!("({why}: not read)"),
                Ok(m) if m.len() > sandbox::MAX_SCRIPT_BYTES as u64 => format!(
                    "(too long: {} bytes; a rule script may have {} at most)",
                    m.len(),
                    sandbox::MAX_SCRIPT_BYTES
                ),
                _ => match crate::spec::read_text(&path) {
                    Ok(text) => about(&name, &text),
                    Err(d) => format!("(cannot read it: {})", d.message),
                },
            };
            out.push(Family {
                hides_builtin: BUILTIN.iter().any(|(n, _)| *n == name),
                name,
                origin: shown(path),
                builtin: false,
                about,
            });
        }
    }
    for (name, src) in BUILTIN {
        if !out.iter().any(|f| f.name == *name) {
            out.push(Family {
                name: name.to_string(),
                origin: PathBuf::from(format!("<builtin>/{name}.rhai")),
                builtin: true,
                hides_builtin: false,
                about: about(name, src),
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A script's first sentence: its first paragraph of `//` comment lines joined, without `//`
/// and a leading `NAME:`, to the first `. ` (a sentence may wrap onto the next line).
fn about(name: &str, source: &str) -> String {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    let paragraph: Vec<&str> = source
        .lines()
        .map(str::trim)
        .skip_while(|l| !l.starts_with("//"))
        .map_while(|l| l.strip_prefix("//"))
        .map(|l| l.trim_start_matches('/').trim())
        .take_while(|l| !l.is_empty())
        .collect();
    let text = paragraph.join(" ");
    let text = text
        .strip_prefix(name)
        .and_then(|t| t.strip_prefix(':'))
        .unwrap_or(&text)
        .trim();
    match text.find(". ") {
        Some(end) => text[..=end].to_string(),
        None => text.to_string(),
    }
}

impl Script {
    /// An error in this script about the value of map key `key`: at the one line that writes
    /// the key, else at `fn rules`.
    pub fn error_at_key(&self, key: &str, msg: impl Into<String>) -> Diagnostic {
        let src = &self.source;
        let line = (!key.is_empty())
            .then(|| locate::key_line(src, key))
            .flatten()
            .or_else(|| src.lines().position(|l| l.contains("fn rules")).map(|i| i + 1));
        Diagnostic::new(&self.origin, msg).at(line, None)
    }
}

/// The 1-based line of a script that writes map key `key`, when exactly one line does.
pub fn key_line(source: &str, key: &str) -> Option<usize> {
    locate::key_line(source, key)
}

/// A script stopped by a limit of its own on a board larger than hop families and pieces of
/// kinds take (only a slide family's may be): told as the puzzle's, at its `board:`, with the
/// script's reason. A script building the jumps of 4,096 holes runs out of time before its
/// model could refuse the board.
fn too_big_for_its_script(spec: &Spec, script: &Script, d: Diagnostic) -> Diagnostic {
    let holes = match &spec.board {
        BoardSpec::Grid(g) => g.holes(),
        BoardSpec::Tilt(_) => 0,
    };
    let stopped = d.message.strip_prefix("rule script stopped: ");
    let Some(why) = stopped.filter(|_| holes > crate::limits::MAX_HOP_CELLS && d.gave_up.is_none()) else {
        return d;
    };
    // The board's size is the likelier cause here than a loop.
    let why = why.replace("; an endless loop?", "");
    Diagnostic::new(
        &spec.path,
        format!(
            "the board has {holes} holes, and rule family `{}` stopped on it: {why} ({}{}); hop \
             families and pieces of kinds take {} holes at most, slide families {}",
            script.name,
            d.file.display(),
            d.line.map_or(String::new(), |l| format!(":{l}")),
            crate::limits::MAX_HOP_CELLS,
            crate::limits::MAX_DRAWN_CELLS
        ),
    )
    .at(crate::spec::key_line(&spec.source, "board"), None)
    .printed(&script.origin, d.printed.map(|p| p.lines).unwrap_or_default())
}

/// The tables `script` gives for `spec`'s board: kept from an earlier run that saw the same
/// inputs (see [`cache`]), or from running the script now, once, in its sandbox.
pub fn run(script: &Script, spec: &Spec, limits: &ScriptLimits) -> Result<Arc<RuleTables>> {
    let shape = ScriptBoard::shape(&spec.board);
    let walls = ScriptBoard::walls(&spec.board);
    if let Some(tables) = cache::get(&script.hash, limits, &shape, &walls).filter(|_| crate::memo::enabled())
    {
        return Ok(tables);
    }
    let board = match &spec.board {
        BoardSpec::Grid(g) => ScriptBoard::grid(g),
        BoardSpec::Tilt(t) => ScriptBoard::tilt(t),
    };
    let probe = board.clone();
    match worker::run(script, board, limits) {
        Ok(tables) => {
            let tables = Arc::new(tables);
            let read = probe.read_walls().then_some(walls);
            cache::put(&script.hash, limits, shape, read, tables.clone());
            Ok(tables)
        }
        Err(sandbox::Failed::Script(d)) => Err(too_big_for_its_script(spec, script, d)),
        Err(sandbox::Failed::Misfit(m, printed)) => {
            let (line, column) = spec.cell_location(m.cell);
            Err(Diagnostic::new(
                &spec.path,
                format!("rule family `{}`: {}", script.name, m.message),
            )
            .at(line, column)
            .printed(&script.origin, printed))
        }
    }
}

/// Runs a script and reads back its tables; done on the script thread (see [`worker`]).
fn run_here(
    script: &Script,
    board: ScriptBoard,
    limits: &ScriptLimits,
) -> std::result::Result<RuleTables, sandbox::Failed> {
    sandbox::call_rules(script, board, limits, |called| {
        let (value, printed) = called?;
        let out = Reader { script };
        Ok(out
            .tables(value, printed.clone())
            .map_err(|d| d.printed(&script.origin, printed))?)
    })
}

/// Turns the script's returned map into tables, with errors naming the script, the line that
/// wrote the bad part where that can be told, and the bad value itself.
struct Reader<'a> {
    script: &'a Script,
}

/// A value as Rhai would write it, cut short if long.
fn shown_value(v: &Dynamic) -> String {
    const MAX: usize = 60;
    // Written out only as far as shown: a map sharing one long string many times is small
    // to hold but enormous as text.
    let text = sandbox::bounded(4 * MAX, format_args!("{v:?}"));
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text,
    }
}

impl Reader<'_> {
    /// An error about `what`, a path into the returned map such as `moves[3].from`: at the one
    /// line that writes its last key (`from:`), else at `fn rules`.
    fn err(&self, what: &str, msg: impl Into<String>) -> Diagnostic {
        let key = what.rsplit('.').next().unwrap_or(what);
        let key = key.split('[').next().unwrap_or(key);
        self.script.error_at_key(key, msg)
    }

    /// An error that `what` holds `v`, which is not what it should be.
    fn bad(&self, what: &str, should: &str, v: &Dynamic) -> Diagnostic {
        self.err(what, format!("{what} must be {should}, not {}", shown_value(v)))
    }

    /// Refuses keys a map may not have, as YAML specs do, naming the nearest known one, at
    /// the line that writes the key if one line does.
    fn known_keys(&self, map: &Map, what: &str, known: &[&str]) -> Result<()> {
        let Some(key) = map.keys().find(|k| !known.contains(&k.as_str())) else {
            return Ok(());
        };
        let msg = format!(
            "{what} has an unknown key `{key}`: {}known keys are {}",
            crate::diag::did_you_mean(key, known),
            known.join(", ")
        );
        Err(self.err(key, msg))
    }

    /// The rule table under `key`, no longer than a model may hold.
    fn table(&self, map: &Map, key: &str) -> Result<Array> {
        let a = self.array(map, key)?;
        crate::limits::check_rule_table(key, a.len()).map_err(|why| self.err(key, why))?;
        Ok(a)
    }

    fn tables(&self, value: Dynamic, printed: Vec<String>) -> Result<RuleTables> {
        let map: Map = match value.clone().try_cast::<Map>() {
            Some(m) => m,
            None => {
                return Err(self.err(
                    "",
                    format!(
                        "`rules(board)` must return a map (#{{ kind: ..., ... }}), not {}",
                        shown_value(&value)
                    ),
                ));
            }
        };
        self.known_keys(
            &map,
            "the returned map",
            &[
                "kind",
                "layout",
                "directions",
                "moves",
                "jumps",
                "links",
                "pieces",
                "goal",
            ],
        )?;
        let kind = match self.string(&map, "kind")?.as_deref() {
            Some("hop") => Kind::Hop,
            Some("tilt") => Kind::Tilt,
            Some("rewrite") => Kind::Rewrite,
            Some("slide") => Kind::Slide,
            Some(other) => {
                return Err(self.err(
                    "kind",
                    format!("`kind` must be \"hop\", \"tilt\", \"rewrite\" or \"slide\", not \"{other}\""),
                ));
            }
            None => {
                return Err(self.err(
                    "",
                    "the returned map needs `kind`: \"hop\", \"tilt\", \"rewrite\" or \"slide\"",
                ));
            }
        };
        let layout = match self.string(&map, "layout")?.as_deref() {
            None | Some("square") => Layout::Square,
            Some("triangle") => Layout::Triangle,
            Some(other) => {
                return Err(self.err(
                    "layout",
                    format!("`layout` must be \"square\" or \"triangle\", not \"{other}\""),
                ));
            }
        };
        let directions = self.directions(&map)?;
        let dir_index = |what: &str, name: &str| {
            directions.iter().position(|d| d.name == name).ok_or_else(|| {
                self.err(
                    what,
                    format!("{what}: direction \"{name}\" is not in `directions`"),
                )
            })
        };
        let mut hops = Vec::new();
        let mut links: Vec<Link> = Vec::new();
        let mut rewrites = Vec::new();
        let mut pieces = Vec::new();
        // Keys another kind of family takes would be ignored here: refused instead, the
        // first in each kind's list that is given.
        const JUMPS: (&str, &str) = (
            "jumps",
            "`jumps` is for hop families: a tilt, rewrite or slide family gives its moves otherwise",
        );
        const PIECES: (&str, &str) = (
            "pieces",
            "`pieces` is for families of kind \"rewrite\" or \"slide\": hop and tilt families have one kind of piece",
        );
        let foreign: &[(&str, &str)] = match kind {
            Kind::Hop => &[
                (
                    "links",
                    "`links` is for tilt families: a hop family gives its moves in `jumps`",
                ),
                PIECES,
            ],
            Kind::Tilt => &[
                (
                    "goal",
                    "a tilt family takes no `goal`: its goal is every marble in its own hole",
                ),
                (
                    "layout",
                    "a tilt family takes no `layout`: a tilt board is a square of n×n squares",
                ),
                JUMPS,
                (
                    "moves",
                    "a tilt family takes no `moves`: marbles rolls the marbles itself, square by square along `links`",
                ),
                PIECES,
            ],
            Kind::Rewrite => &[
                (
                    "links",
                    "`links` is for tilt families: a family of kind \"rewrite\" gives its moves in `moves`",
                ),
                JUMPS,
            ],
            Kind::Slide => &[
                (
                    "goal",
                    "a slide family takes no `goal`: a slide puzzle's goal is its own, a robot reaching a target",
                ),
                JUMPS,
                (
                    "moves",
                    "`moves` is not for a family of kind \"slide\": marbles works out every slide from \
                     `directions`, the board's walls and the robots",
                ),
                (
                    "links",
                    "`links` is not for a family of kind \"slide\": marbles works out every slide from \
                     `directions`, the board's walls and the robots",
                ),
            ],
        };
        if let Some((key, why)) = foreign.iter().find(|(k, _)| map.contains_key(*k)) {
            return Err(self.err(key, *why));
        }
        match kind {
            Kind::Slide => {
                pieces = self.pieces_at_most(&map, crate::limits::MAX_SLIDE_KINDS)?;
                if directions.is_empty() {
                    return Err(self.err(
                        "directions",
                        "a slide family needs `directions`, each with its `step`, e.g. #{ name: \"up\", step: [-1, 0] }",
                    ));
                }
                if directions.iter().any(|d| d.step.is_none()) {
                    return Err(self.err(
                        "directions",
                        "slide directions need a `step`, e.g. #{ name: \"up\", step: [-1, 0] }",
                    ));
                }
                // A robot slides square by square, stopped by each wall and `#` on its way.
                if let Some(d) = directions
                    .iter()
                    .find(|d| d.step.is_some_and(|[r, c]| r.abs() + c.abs() != 1))
                {
                    let [r, c] = d.step.unwrap_or_default();
                    return Err(self.err(
                        "directions",
                        format!(
                            "direction \"{}\" steps [{r}, {c}]: a slide steps to a side-by-side square, \
                             [-1, 0], [0, 1], [1, 0] or [0, -1] (a robot stops at each wall and `#` on its way)",
                            d.name
                        ),
                    ));
                }
            }
            Kind::Rewrite => {
                pieces = self.pieces(&map)?;
                for (i, m) in self.table(&map, "moves")?.into_iter().enumerate() {
                    let dir = |name: &str| dir_index(&format!("moves[{i}].dir"), name);
                    rewrites.push(self.rewrite(i, m, &pieces, dir)?);
                }
            }
            Kind::Hop => {
                // A hop family's table lists jumps (a move is a chain of them): `jumps`, or
                // `moves` as scripts written before had it.
                let key = match (map.contains_key("jumps"), map.contains_key("moves")) {
                    (true, true) => {
                        return Err(self.err(
                            "moves",
                            "give a hop family's jumps once, in `jumps` (not also in `moves`)",
                        ));
                    }
                    (true, false) => "jumps",
                    (false, _) => "moves",
                };
                for (i, m) in self.table(&map, key)?.into_iter().enumerate() {
                    let what = format!("{key}[{i}]");
                    let m = self.as_map(m, &what)?;
                    self.known_keys(&m, &what, &["dir", "from", "over", "to"])?;
                    let dir = match self.string_named(&m, "dir", &format!("{what}.dir"))? {
                        None => None,
                        Some(d) => Some(dir_index(&format!("{what}.dir"), &d)?),
                    };
                    let from = self.cell(m.get("from"), &format!("{what}.from"))?;
                    let to = self.cell(m.get("to"), &format!("{what}.to"))?;
                    let over = self.cells(m.get("over"), &format!("{what}.over"))?;
                    hops.push(HopRule { dir, from, over, to });
                }
            }
            Kind::Tilt => {
                // Each square's link each way, by the link that gave it (a 40 × 40 board has
                // 6,400 links: looking each up among the others was quadratic).
                let mut given: rustc_hash::FxHashMap<(usize, Cell), usize> = Default::default();
                // No `links`: one step each way (`RuleTables::links_from_steps`).
                let listed = match map.contains_key("links") {
                    true => self.table(&map, "links")?,
                    false => Array::new(),
                };
                for (i, m) in listed.into_iter().enumerate() {
                    let what = format!("links[{i}]");
                    let m = self.as_map(m, &what)?;
                    self.known_keys(&m, &what, &["dir", "from", "to"])?;
                    let d = self
                        .string(&m, "dir")?
                        .ok_or_else(|| self.err("links", format!("{what} needs `dir`, a direction name")))?;
                    let dir = dir_index(&format!("{what}.dir"), &d)?;
                    let from = self.cell(m.get("from"), &format!("{what}.from"))?;
                    let to = self.cell(m.get("to"), &format!("{what}.to"))?;
                    if let Some(&j) = given.get(&(dir, from)) {
                        let other = links[j].to;
                        return Err(self.err(
                            "links",
                            format!(
                                "links[{j}] and links[{i}] both lead a marble at [{}, {}] rolling {d}: to [{}, {}] and to [{}, {}]; a square has at most one link each way",
                                from[0], from[1], other[0], other[1], to[0], to[1]
                            ),
                        ));
                    }
                    given.insert((dir, from), i);
                    links.push(Link { dir, from, to });
                }
                if directions.iter().any(|d| d.step.is_none()) {
                    return Err(self.err(
                        "directions",
                        "tilt directions need a `step`, e.g. #{ name: \"up\", step: [-1, 0] }",
                    ));
                }
                if let Some(d) = directions.iter().find(|d| d.step == Some([0, 0])) {
                    return Err(self.err(
                        "directions",
                        format!(
                            "direction \"{}\" steps [0, 0]: a tilt's step is the way marbles roll, \
                             e.g. [-1, 0] for up",
                            d.name
                        ),
                    ));
                }
            }
        }
        let default_pegs = match map.get("goal") {
            None => None,
            Some(g) => {
                let g = self.as_map(g.clone(), "goal")?;
                self.known_keys(&g, "goal", &["pegs"])?;
                match g.get("pegs") {
                    None => None,
                    Some(p) => Some(
                        p.as_int()
                            .ok()
                            .and_then(|n| u32::try_from(n).ok())
                            .filter(|&n| n > 0)
                            .ok_or_else(|| self.bad("goal.pegs", "a whole number from 1 to 4294967295", p))?,
                    ),
                }
            }
        };
        Ok(RuleTables {
            links_from_steps: kind == Kind::Tilt && !map.contains_key("links"),
            kind,
            layout,
            directions,
            hops,
            links,
            rewrites,
            pieces,
            default_pegs,
            printed,
        })
    }

    /// A rewrite family's `pieces`: each kind's letter, a capital or `o`, at most
    /// [`crate::limits::MAX_KINDS`] of them.
    fn pieces(&self, map: &Map) -> Result<Vec<u8>> {
        self.pieces_at_most(map, crate::limits::MAX_KINDS)
    }

    /// A family's `pieces`, at most `max` kinds.
    fn pieces_at_most(&self, map: &Map, max: usize) -> Result<Vec<u8>> {
        let should = "a kind's letter: one capital letter, or \"o\" for plain pegs";
        let list = self.array(map, "pieces")?;
        if list.is_empty() || list.len() > max {
            return Err(self.err(
                "pieces",
                format!("`pieces` lists {} kinds: a family has 1 to {max}", list.len()),
            ));
        }
        let mut out = Vec::new();
        for (i, p) in list.iter().enumerate() {
            let what = format!("pieces[{i}]");
            let letter = p
                .clone()
                .into_string()
                .ok()
                .and_then(|t| match t.as_bytes() {
                    [b] if b.is_ascii_uppercase() || *b == b'o' => Some(*b),
                    _ => None,
                })
                .ok_or_else(|| self.bad(&what, should, p))?;
            if out.contains(&letter) {
                return Err(self.err("pieces", format!("`pieces` lists \"{}\" twice", letter as char)));
            }
            out.push(letter);
        }
        Ok(out)
    }

    /// Rewrite `i` of `moves`: `at` cells, `was` and `becomes` strings of one character a cell.
    fn rewrite(
        &self,
        i: usize,
        m: Dynamic,
        pieces: &[u8],
        dir_index: impl Fn(&str) -> Result<usize>,
    ) -> Result<RewriteRule> {
        let what = format!("moves[{i}]");
        let m = self.as_map(m, &what)?;
        self.known_keys(&m, &what, &["dir", "at", "was", "becomes"])?;
        let dir = match self.string_named(&m, "dir", &format!("{what}.dir"))? {
            None => None,
            Some(d) => Some(dir_index(&d)?),
        };
        let at = self.cells(m.get("at"), &format!("{what}.at"))?;
        let kinds: String = pieces.iter().map(|&p| p as char).collect();
        let pattern = |key: &str| -> Result<Vec<u8>> {
            let text = self.string_named(&m, key, &format!("{what}.{key}"))?;
            let text = text.ok_or_else(|| {
                self.err(
                    key,
                    format!("{what} needs `{key}`: a string of one character for each `at` cell"),
                )
            })?;
            if text.chars().count() != at.len() {
                return Err(self.err(
                    key,
                    format!(
                        "{what}.{key} is \"{text}\", {} for {} `at` cell{}: give one a cell",
                        match text.chars().count() {
                            1 => "1 character".to_string(),
                            n => format!("{n} characters"),
                        },
                        at.len(),
                        if at.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
            for ch in text.chars() {
                let known = ch == '.' || ch == '*' || (ch.is_ascii() && pieces.contains(&(ch as u8)));
                if !known {
                    return Err(self.err(
                        key,
                        format!(
                            "{what}.{key} has `{ch}`: use `.` for empty, `*` for any piece, or a kind of `pieces` ({kinds})"
                        ),
                    ));
                }
            }
            Ok(text.into_bytes())
        };
        let (was, becomes) = (pattern("was")?, pattern("becomes")?);
        if let Some(k) = (0..at.len()).find(|&k| (was[k] == b'*') != (becomes[k] == b'*')) {
            let [r, c] = at[k];
            return Err(self.err(
                "becomes",
                format!(
                    "{what}: cell [{r}, {c}] is `{}` in `was` and `{}` in `becomes`: `*` (any piece, left as it is) must be in both",
                    was[k] as char, becomes[k] as char
                ),
            ));
        }
        if was == becomes {
            return Err(self.err(
                "becomes",
                format!("{what} changes nothing: `was` and `becomes` are the same"),
            ));
        }
        Ok(RewriteRule {
            dir,
            at,
            was,
            becomes,
        })
    }

    fn directions(&self, map: &Map) -> Result<Vec<Direction>> {
        let mut out = Vec::new();
        let listed = self.array(map, "directions")?;
        if listed.len() > crate::limits::MAX_DIRECTIONS {
            return Err(self.err(
                "directions",
                format!(
                    "`directions` lists {} directions: a family names at most {} (each a way to \
                     tilt, slide or jump)",
                    crate::report::thousands(listed.len() as u64),
                    crate::limits::MAX_DIRECTIONS
                ),
            ));
        }
        for (i, d) in listed.into_iter().enumerate() {
            let what = format!("directions[{i}]");
            let (name, step) = if d.is_string() {
                (d.to_string(), None)
            } else {
                let m = self.as_map(d, &what)?;
                self.known_keys(&m, &what, &["name", "step"])?;
                let name = self
                    .string(&m, "name")?
                    .ok_or_else(|| self.err("directions", format!("{what} needs a `name`")))?;
                let step = match m.get("step") {
                    None => None,
                    Some(s) => Some(self.cell(Some(s), &format!("{what}.step"))?),
                };
                (name, step)
            };
            if out.iter().any(|o: &Direction| o.name == name) {
                return Err(self.err("directions", format!("direction \"{name}\" is listed twice")));
            }
            out.push(Direction { name, step });
        }
        Ok(out)
    }

    fn string(&self, map: &Map, key: &str) -> Result<Option<String>> {
        self.string_named(map, key, key)
    }

    /// [`Reader::string`] of an entry's map, a refusal naming the key as `named`
    /// (`jumps[0].dir`).
    fn string_named(&self, map: &Map, key: &str, named: &str) -> Result<Option<String>> {
        match map.get(key) {
            None => Ok(None),
            Some(v) if v.is_string() => Ok(Some(v.to_string())),
            Some(v) => Err(self.bad(named, "a string", v)),
        }
    }

    fn array(&self, map: &Map, key: &str) -> Result<Array> {
        match map.get(key) {
            None => Err(self.err("", format!("the returned map needs `{key}`, an array"))),
            Some(v) => v
                .clone()
                .try_cast::<Array>()
                .ok_or_else(|| self.bad(key, "an array", v)),
        }
    }

    fn as_map(&self, v: Dynamic, what: &str) -> Result<Map> {
        v.clone()
            .try_cast::<Map>()
            .ok_or_else(|| self.bad(what, "a map", &v))
    }

    fn cell(&self, v: Option<&Dynamic>, what: &str) -> Result<Cell> {
        let should = "a cell [row, col] of two integers";
        let Some(v) = v else {
            return Err(self.err(what, format!("{what} is missing: it must be {should}")));
        };
        let bad = || self.bad(what, should, v);
        let a = v.clone().try_cast::<Array>().ok_or_else(bad)?;
        match a.as_slice() {
            [r, c] => Ok([r.as_int().map_err(|_| bad())?, c.as_int().map_err(|_| bad())?]),
            _ => Err(bad()),
        }
    }

    /// One cell, or an array of cells.
    fn cells(&self, v: Option<&Dynamic>, what: &str) -> Result<Vec<Cell>> {
        let should = "a cell [row, col] or an array of cells";
        let Some(v) = v else {
            return Err(self.err(what, format!("{what} is missing: it must be {should}")));
        };
        let a = v
            .clone()
            .try_cast::<Array>()
            .ok_or_else(|| self.bad(what, should, v))?;
        if a.is_empty() {
            return Err(self.err(
                what,
                format!("{what} is empty: it must be {should}; a jump takes at least one peg"),
            ));
        }
        if a.first().is_some_and(|x| x.is_array()) {
            a.iter().map(|x| self.cell(Some(x), what)).collect()
        } else {
            Ok(vec![self.cell(Some(v), what)?])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rule script's name flipped between a link within the project and a link out of it,
    /// as fast as it can be, while puzzles naming it are read: the script is judged once
    /// opened, so the stranger's script is never compiled (by name or by path).
    #[test]
    fn a_script_flipped_to_a_link_out_between_the_check_and_the_open_is_not_read() {
        let (_dir, d) = crate::owned::temp_with(&["pack/rules", "pack/mine", "secret"]);
        std::fs::write(d.join("pack/marbles.toml"), "").unwrap();
        std::fs::write(d.join("pack/mine/fam.rhai"), "fn rules(board) { #{} }\n").unwrap();
        std::fs::write(d.join("secret/fam.rhai"), "SECRET\n").unwrap();
        let link = d.join("pack/rules/fam.rhai");
        std::os::unix::fs::symlink(d.join("pack/mine/fam.rhai"), &link).unwrap();
        let by_name = "rules: fam\nboard: |\n  o o .\n";
        let by_path = "rules: rules/fam.rhai\nboard: |\n  o o .\n";
        std::fs::write(d.join("pack/p.yaml"), by_name).unwrap();
        std::fs::write(d.join("pack/q.yaml"), by_path).unwrap();
        let specs = [
            crate::spec::load(&d.join("pack/p.yaml")).unwrap(),
            crate::spec::load(&d.join("pack/q.yaml")).unwrap(),
        ];
        let targets = [d.join("secret/fam.rhai"), d.join("pack/mine/fam.rhai")];
        let found: Vec<_> = crate::owned::while_flipping(&link, [&targets[0], &targets[1]], || {
            (0..10_000).map(|k| find(&specs[k % 2])).collect()
        });
        let (mut read, mut refused) = (0, 0);
        for f in &found {
            match f {
                Ok(script) => {
                    assert!(!script.source.contains("SECRET"));
                    read += 1;
                }
                Err(d) => {
                    assert!(!d.message.contains("SECRET"), "{}", d.message);
                    refused += 1;
                }
            }
        }
        assert!(read > 0 && refused > 0, "{read} read, {refused} refused");
    }
}
