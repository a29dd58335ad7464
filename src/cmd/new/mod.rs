//! `marbles new NAME`: a commented rule script of one of the kinds docs/rules.md describes
//! (hop, tilt, rewrite, slide) and a puzzle that uses it, to start a variant from; nothing is
//! overwritten.

use super::{Error, ExitCode};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The kinds of family a template is written for: each a script and a puzzle, `NAME` in them
/// replaced by the family's name.
pub const KINDS: &[Kind] = &[
    Kind {
        name: "hop",
        about: "pegs jump over pegs, which are taken (peg solitaire)",
        script: include_str!("hop.rhai"),
        puzzle: include_str!("hop.yaml"),
    },
    Kind {
        name: "tilt",
        about: "tilting rolls every marble into holes (tilt mazes)",
        script: include_str!("tilt.rhai"),
        puzzle: include_str!("tilt.yaml"),
    },
    Kind {
        name: "rewrite",
        about: "pieces of kinds whose moves rewrite a few cells (Frogs and Toads)",
        script: include_str!("rewrite.rhai"),
        puzzle: include_str!("rewrite.yaml"),
    },
    Kind {
        name: "slide",
        about: "robots that slide until something stops them (Ricochet Robots)",
        script: include_str!("slide.rhai"),
        puzzle: include_str!("slide.yaml"),
    },
];

/// One kind's templates.
#[derive(Debug, PartialEq, Eq)]
pub struct Kind {
    pub name: &'static str,
    pub about: &'static str,
    script: &'static str,
    puzzle: &'static str,
}

#[derive(Debug, Clone)]
pub struct Config {
    /// The family's name: the script's stem and what the puzzle's `rules:` says.
    pub name: String,
    pub kind: &'static Kind,
    /// Where the puzzle goes; the script goes into its `rules/` folder.
    pub dir: PathBuf,
}

pub fn run(config: &Config) -> Result<ExitCode, Error> {
    let name = &config.name;
    let good = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !good {
        // Shown on one line: a name typed with a line break in it is written as `\n`.
        let name = crate::render::one_line(name);
        return Err(Error::Usage(format!(
            "`{name}` cannot name a family: use lower-case letters, digits and `_`, starting with a \
             letter (it becomes rules/{name}.rhai and the puzzle's `rules: {name}`)"
        )));
    }
    if crate::script::BUILTIN.iter().any(|(b, _)| b == name) {
        return Err(Error::Usage(format!(
            "`{name}` is a built-in family: a rules/{name}.rhai would take its place for every puzzle \
             here that says `rules: {name}`; pick another name (`marbles rules` lists the families)"
        )));
    }
    // Paths as the user would write them: `var.yaml`, not `./var.yaml`.
    let within = |p: String| match config.dir == Path::new(".") {
        true => PathBuf::from(p),
        false => config.dir.join(p),
    };
    let script = within(format!("rules/{name}.rhai"));
    let puzzle = within(format!("{name}.yaml"));
    // Both checked before either is written: a half-made pair helps nobody.
    for path in [&script, &puzzle] {
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(Error::Usage(format!(
                "{} already exists: marbles new writes only new files (pick another name, or move it away)",
                path.display()
            )));
        }
    }
    let rules = within("rules".into());
    // A `rules` linked out of the project, shipped in a pack: a script written through it
    // would land in someone else's folder, where the puzzle then may not read it.
    if let Some(why) = crate::script::write_refused(&config.dir, &rules)? {
        return Err(Error::Usage(format!(
            "{}: {why}; marbles new writes a script only where the puzzle may read it (make \
             `rules` a folder of this project)",
            rules.display()
        )));
    }
    std::fs::create_dir_all(&rules)
        .map_err(|e| Error::Usage(format!("{}: cannot make the folder: {e}", rules.display())))?;
    let made = write_new(&script, &config.kind.script.replace("NAME", name))?;
    // Judged again where the script was made: `rules` may have been swapped meanwhile.
    let real = crate::owned::real_path(&made, &script)?;
    if let Some(why) = crate::script::made_out_of_reach(&config.dir, &real)? {
        let _ = std::fs::remove_file(&real);
        return Err(Error::Usage(format!(
            "{}: {why}; removed (`rules` changed while marbles new wrote it)",
            script.display()
        )));
    }
    write_new(&puzzle, &config.kind.puzzle.replace("NAME", name))?;
    println!(
        "wrote {} (a {} family: {}) and {}, which uses it\nnext: marbles solve {}",
        script.display(),
        config.kind.name,
        config.kind.about,
        puzzle.display(),
        puzzle.display()
    );
    Ok(ExitCode::Solved)
}

/// Writes a file that must not exist yet (a file appearing meanwhile is left alone), and
/// returns it.
fn write_new(path: &Path, text: &str) -> Result<std::fs::File, Error> {
    let mut f = crate::owned::create_new(path)
        .map_err(|e| Error::Usage(format!("{}: cannot write: {e}", path.display())))?;
    f.write_all(text.as_bytes())?;
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rules` flipped between a link within the project and a link out of it while scripts
    /// are made: a script made out there (after the check of `rules`) is removed, and none
    /// stays where the link led.
    #[test]
    fn a_rules_link_flipped_out_while_new_writes_leaves_nothing_out_there() {
        let (_dir, d) = crate::owned::temp_with(&["pack/mine", "victim"]);
        std::fs::write(d.join("pack/marbles.toml"), "").unwrap();
        let rules = d.join("pack/rules");
        std::os::unix::fs::symlink("mine", &rules).unwrap();
        let targets = [Path::new("../victim"), Path::new("mine")];
        let refused = crate::owned::while_flipping(&rules, targets, || {
            let made = |k: usize| Config {
                name: format!("z{k}"),
                kind: &KINDS[0],
                dir: d.join("pack"),
            };
            (0..1_000).filter(|&k| run(&made(k)).is_err()).count()
        });
        let left: Vec<_> = std::fs::read_dir(d.join("victim")).unwrap().flatten().collect();
        assert!(left.is_empty(), "{left:?}");
        assert!(refused > 0 && refused < 1_000, "{refused} refused");
    }
}
