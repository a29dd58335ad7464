//! The report folder, opened once: every file a batch (or merge) writes or reads back there
//! is reached through the open folder, not by the folder's name again.
//!
//! The name is judged when the folder is opened (a link there is refused); after that, a
//! folder renamed away and a link put in its place while the batch runs leads nowhere: the
//! lock, the journal and the reports go on into the folder that was opened. Each file is
//! reached by the kernel's name for the open folder, `/proc/self/fd/N/<file>`, so every
//! writer keeps its plain `std::fs` calls (and [`crate::owned`]'s refusals of links and
//! special files at the file itself). Where `/proc` is not mounted, files are reached by the
//! folder's name, as if it were not opened.

use std::fs::File;
use std::io;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// A folder opened once, by the name it is shown by.
#[derive(Debug)]
pub struct Folder {
    /// Its name as the user gave it: what messages say.
    shown: PathBuf,
    /// The open folder, and the path that reaches it through the handle.
    handle: File,
    at: PathBuf,
}

impl Folder {
    /// Creates the report folder `dir` if it is not there, and opens it. A link there is
    /// refused, not followed (a puzzle pack shipping `reports -> /var/www` would have every
    /// run of `marbles batch .` in it write a report set wherever the link leads), and so is
    /// one put there between the folder's making and its opening.
    pub fn make(dir: &Path) -> anyhow::Result<Folder> {
        create(dir)?;
        Self::open(dir).map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP | libc::ENOTDIR) => link_refused(dir),
            _ => anyhow::anyhow!("cannot open report folder {}: {e}", dir.display()),
        })
    }

    /// The report folder `dir` opened, if it is there (`--failed` reading the results of a
    /// folder it does not make).
    pub fn existing(dir: &Path) -> anyhow::Result<Option<Folder>> {
        match std::fs::symlink_metadata(dir) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            _ => Self::make(dir).map(Some),
        }
    }

    /// `dir` opened as a folder, never through a link at its name.
    fn open(dir: &Path) -> io::Result<Folder> {
        let handle = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH | libc::O_DIRECTORY | libc::O_NOFOLLOW)
            .open(dir)?;
        let by_fd = crate::owned::by_fd(&handle);
        let same = |a: &std::fs::Metadata, b: &std::fs::Metadata| (a.dev(), a.ino()) == (b.dev(), b.ino());
        let reached = match (std::fs::metadata(&by_fd), handle.metadata()) {
            (Ok(a), Ok(b)) => same(&a, &b),
            _ => false,
        };
        Ok(Folder {
            shown: dir.to_path_buf(),
            at: if reached { by_fd } else { dir.to_path_buf() },
            handle,
        })
    }

    /// Where the file `name` in the folder is reached, for the calls that read or write it.
    pub fn at(&self, name: impl AsRef<Path>) -> PathBuf {
        self.at.join(name)
    }

    /// The file `name` in the folder as messages show it.
    pub fn shown(&self, name: impl AsRef<Path>) -> PathBuf {
        self.shown.join(name)
    }

    /// Where the open folder really is, from the root, links worked out (by the kernel's
    /// path to the open folder); the name given, where that cannot be had.
    pub fn real(&self) -> PathBuf {
        std::fs::canonicalize(self.at("")).unwrap_or_else(|_| self.shown.clone())
    }

    /// The folder as messages show it.
    pub fn name(&self) -> &Path {
        &self.shown
    }

    /// The folder opened again, for a holder that outlives its opener (the lock, the
    /// journal): the path [`Folder::at`] gives is good while its own handle is open.
    pub fn again(&self) -> io::Result<Folder> {
        let handle = self.handle.try_clone()?;
        let at = match self.at.starts_with("/proc/self/fd") {
            true => crate::owned::by_fd(&handle),
            false => self.at.clone(),
        };
        Ok(Folder {
            shown: self.shown.clone(),
            handle,
            at,
        })
    }

    /// The folder `name` inside this one, opened (not through a link at its name), shown as
    /// inside this one.
    pub fn sub(&self, name: &str) -> io::Result<Folder> {
        let mut sub = Self::open(&self.at(name))?;
        sub.shown = self.shown(name);
        Ok(sub)
    }

    /// This folder, or, if it was removed while marbles held it open (it could hold no new
    /// file), a folder made anew at its name, locked: a batch whose report folder was removed
    /// mid-run still writes its reports. Only a folder this call makes is taken: one made
    /// there since by another batch or by the user is theirs, not written into.
    pub fn or_made_again(&self) -> anyhow::Result<(Folder, Option<super::lock::ReportLock>)> {
        if !self.handle.metadata().is_ok_and(|m| m.nlink() == 0) {
            return Ok((self.again()?, None));
        }
        let taken = |why: &str| {
            anyhow::anyhow!(
                "cannot write the reports: the report folder {} was removed while the batch ran, \
                 and {why}; this run's results are in the summary printed (its journal went with \
                 the folder)",
                self.shown.display()
            )
        };
        // The folders above it are made again too, as [`Folder::make`] makes them; the report
        // folder itself only by this `mkdir`.
        if let Some(parent) = self.shown.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| taken(&format!("it cannot be made again: {e}")))?;
        }
        match std::fs::create_dir(&self.shown) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(taken(
                    "another stands at its name now (made since by another batch, or by you): \
                     marbles does not write into a folder it did not make",
                ));
            }
            Err(e) => return Err(taken(&format!("it cannot be made again: {e}"))),
            Ok(()) => {}
        }
        // The folder opened must be the one made, still empty: not one put at its name since.
        let fresh = Self::open(&self.shown)
            .ok()
            .filter(|f| std::fs::read_dir(f.at("")).is_ok_and(|mut entries| entries.next().is_none()));
        let fresh = fresh.ok_or_else(|| {
            taken(
                "another was put at its name as it was made again: marbles does not write into a \
                 folder it did not make",
            )
        })?;
        let lock = super::lock::acquire(&fresh)?;
        Ok((fresh, Some(lock)))
    }
}

/// Creates the report folder `dir` (and the folders above it), saying so plainly when a file
/// stands where it or a folder above it would be, and refusing a link at its name.
fn create(dir: &Path) -> anyhow::Result<()> {
    // (`reports/` would be looked up through the link: the name alone is asked about.)
    if std::fs::read_link(dir.components().as_path()).is_ok() {
        return Err(link_refused(dir));
    }
    std::fs::create_dir_all(dir).map_err(|e| {
        let file = dir.ancestors().find(|a| a.is_file());
        match file {
            Some(f) if f == dir => anyhow::anyhow!(
                "cannot create report folder {}: a file of that name is there; give --report a folder",
                dir.display()
            ),
            Some(f) => anyhow::anyhow!(
                "cannot create report folder {}: {} is a file, not a folder; give --report a folder",
                dir.display(),
                f.display()
            ),
            None => anyhow::anyhow!("cannot create report folder {}: {e}", dir.display()),
        }
    })
}

/// The refusal of a report folder that is a link.
fn link_refused(dir: &Path) -> anyhow::Error {
    let to = std::fs::read_link(dir.components().as_path())
        .map_or_else(|_| "somewhere else".into(), |t| t.display().to_string());
    anyhow::anyhow!(
        "{}: a link (to {to}), not a folder; marbles writes its reports only into a folder, \
         never through a link (one in a folder from somebody else could lead anywhere): \
         give --report the folder itself; nothing was written through it",
        dir.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attack: the report folder renamed away and a link to another folder put in its
    /// place while marbles holds it. Nothing reaches the other folder; the lock, the
    /// journal and the reports all go into the folder opened.
    #[test]
    fn a_report_folder_swapped_for_a_link_after_its_opening_leads_nowhere() {
        let (_t, d) = crate::owned::temp_with(&["victim"]);
        let rep = d.join("rep");
        let folder = Folder::make(&rep).unwrap();
        let lock = super::super::lock::acquire(&folder).unwrap();
        super::super::journal::check_ours(&folder, "nothing was solved").unwrap();
        let mut j = super::super::journal::Journal::open(&folder, false, 1).unwrap();
        std::fs::rename(&rep, d.join("away")).unwrap();
        std::os::unix::fs::symlink("victim", &rep).unwrap();
        j.record(0, b"{\"index\":0}\n".to_vec()).unwrap();
        j.flush().unwrap();
        let finished = crate::report::Finished::of(Vec::new());
        super::super::journal::write_reports(&folder, &finished, &mut |path| j.place_results(path)).unwrap();
        j.finish();
        drop(lock);
        assert_eq!(std::fs::read_dir(d.join("victim")).unwrap().count(), 0);
        let away = d.join("away");
        assert_eq!(
            std::fs::read_to_string(away.join("results.jsonl")).unwrap(),
            "{\"index\":0}\n"
        );
        assert!(away.join("summary.json").is_file());
        // The name shown is the one given, not the kernel's.
        assert_eq!(folder.shown("summary.json"), rep.join("summary.json"));
        // A link at the name is refused when it is opened.
        let e = Folder::make(&rep).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("{}: a link (to victim), not a folder", rep.display())),
            "{e}"
        );
    }

    /// A report folder removed while marbles holds it is made again for the reports, and
    /// locked; a folder put at its name since is not written into.
    #[test]
    fn a_report_folder_removed_while_held_is_made_again_if_nothing_took_its_name() {
        let (_t, d) = crate::owned::temp_with(&[]);
        let rep = d.join("par/rep");
        let folder = Folder::make(&rep).unwrap();
        // The folder above it removed too: made again as well.
        std::fs::remove_dir_all(d.join("par")).unwrap();
        let (again, lock) = folder.or_made_again().unwrap();
        assert!(lock.is_some() && rep.join(".lock").is_file());
        std::fs::write(again.at("x"), "").unwrap();
        assert!(rep.join("x").is_file());
        drop(lock);
        // Removed again, and a folder of the user's put there: refused, untouched.
        std::fs::remove_dir_all(&rep).unwrap();
        std::fs::create_dir(&rep).unwrap();
        std::fs::write(rep.join("index.html"), "mine").unwrap();
        let e = again.or_made_again().unwrap_err().to_string();
        assert_eq!(
            e,
            format!(
                "cannot write the reports: the report folder {} was removed while the batch ran, \
                 and another stands at its name now (made since by another batch, or by you): \
                 marbles does not write into a folder it did not make; this run's results are in \
                 the summary printed (its journal went with the folder)",
                rep.display()
            )
        );
        assert_eq!(std::fs::read_dir(&rep).unwrap().count(), 1);
    }
}
