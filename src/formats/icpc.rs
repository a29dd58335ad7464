//! ICPC World Finals 2007 "Marble Game" files: cases of `N M W`, M marble lines `r c`, M hole lines `r c`, W wall lines `r1 c1 r2 c2`, ended by `0 0 0`.
//!
//! Each case becomes a `tilt_roll` puzzle. A file may leave out the closing `0 0 0` (the
//! classroom version of the problem does; cases are read one at a time, so a missing end is
//! known only after the last case). Boards may be up to [`crate::limits::MAX_TILT_SIZE`]
//! wide, the contest's 40 (the classroom version's is 6). Each case passes the checks YAML
//! tilt boards pass ([`crate::spec::tilt`]: size and marble count, each marble and
//! hole on the board and on a cell of its own, each wall between side-by-side cells), fed in
//! reading order so that the first fault is the one reported, in this file's words (`(r, c)`,
//! the case, the line it was read on). Answers in the judge's and the classroom's words are
//! written by `render::answer`.
//!
//! The official sample (two cases, the second impossible: hole 2 is walled off from above and
//! from the right) is kept in tests/it/classic.rs; it was checked against the problem statement
//! reproduced in the README of the public repository arsulegai/Marble-Game.

use super::Pos;
use crate::diag::{Diagnostic, Result};
use crate::limits::TiltPart;
use crate::spec::expect::Lines;
use crate::spec::tilt::{ItemFault, TiltChecks};
use crate::spec::{BoardSpec, Cell, GoalSpec, LimitSpec, Spec, TiltBoard};
use std::ops::ControlFlow;
use std::path::Path;

/// Reads the numbers of a file in order, with their positions.
struct Numbers<'a> {
    path: &'a Path,
    toks: super::Lexer<'a>,
    end: Pos,
    /// The line of the last number read.
    last_line: usize,
    /// How many numbers were read.
    read: usize,
    /// Whether a number was missing or was no number: the file cannot be followed past it.
    broken: bool,
}

impl Numbers<'_> {
    /// The next number; `what` says what it should be, in words, for the error if it is not
    /// (written only then: a file of 20,000 cases reads 200,000 numbers).
    fn next(&mut self, what: impl Fn() -> String) -> Result<(i64, Pos)> {
        let read = match self.toks.next() {
            None => Err(self
                .end
                .error(self.path, format!("the file ends early: expected {}", what()))),
            Some((pos, t)) => {
                self.last_line = pos.line;
                self.read += 1;
                t.parse().map(|n| (n, pos)).map_err(|_| {
                    pos.error(
                        self.path,
                        format!("expected {}, a whole number, found `{t}`", what()),
                    )
                })
            }
        };
        self.broken |= read.is_err();
        read
    }

    /// A cell `r c` of `what` (in case `case`), with where its row was read.
    fn cell(&mut self, case: usize, what: &dyn Fn() -> String) -> Result<(Cell, Pos)> {
        let (r, pos) = self.next(|| format!("the row of {} (case {case})", what()))?;
        let (c, _) = self.next(|| format!("the column of {} (case {case})", what()))?;
        Ok(([r, c], pos))
    }

    /// A cell of `what` that must be on the board `checks` knows: its error is at its row.
    fn cell_on_board(
        &mut self,
        checks: TiltChecks,
        case: usize,
        what: &dyn Fn() -> String,
    ) -> Result<(Cell, Pos)> {
        let (cell, pos) = self.cell(case, what)?;
        match checks.on_board(cell) {
            true => Ok((cell, pos)),
            false => Err(off_board(self.path, pos, checks, case, &what(), cell)),
        }
    }

    /// `count` cells, none of them shared: `noun` 1, `noun` 2, …
    fn cells(&mut self, checks: TiltChecks, case: usize, count: i64, noun: &str) -> Result<Vec<Cell>> {
        let mut out: Vec<Cell> = Vec::new();
        for k in 1..=count {
            let what = || format!("{noun} {k}");
            let (cell, pos) = self.cell(case, &what)?;
            match checks.item(&out, cell) {
                Ok(()) => out.push(cell),
                Err(ItemFault::OffBoard) => {
                    return Err(off_board(self.path, pos, checks, case, &what(), cell));
                }
                Err(ItemFault::Shared(j)) => {
                    return Err(pos.error(
                        self.path,
                        format!(
                            "case {case}: {noun}s {} and {k} share the cell [{}, {}]",
                            j + 1,
                            cell[0],
                            cell[1]
                        ),
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// The error for `what` at `cell`, off the board of case `case`, at `pos`.
fn off_board(path: &Path, pos: Pos, checks: TiltChecks, case: usize, what: &str, [r, c]: Cell) -> Diagnostic {
    let n = checks.size();
    pos.error(
        path,
        format!(
            "case {case}: {what} at [{r}, {c}] is off the {n}×{n} board (rows and columns run 0 to {})",
            n - 1
        ),
    )
}

/// Reads every case of an ICPC "Marble Game" file into a `tilt_roll` spec.
pub fn parse(path: &Path, source: &str) -> Result<Vec<Spec>> {
    super::collect(path, source, parse_each)
}

/// [`parse`], handing each spec to `emit` as it is read (see [`super::parse_each`]). A case
/// that breaks a check (a size out of range, a marble off its board) is handed on as its
/// error and the reading goes on past its numbers: its `N M W` say how many there are. A file
/// whose numbers cannot be followed (one missing, a word, a negative count) stops there.
pub fn parse_each(
    path: &Path,
    source: &str,
    emit: &mut dyn FnMut(Result<Spec>) -> ControlFlow<()>,
) -> Result<()> {
    let mut nums = Numbers {
        path,
        toks: super::tokens(source),
        end: super::end_pos(source),
        last_line: 1,
        read: 0,
        broken: false,
    };
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Where each case's lines start and end, found moving forwards (a table of every line
    // of a file of a million cases held 64 MB).
    let (mut starts, mut ends) = (Lines::default(), Lines::default());
    let mut cases = 0;
    while nums.toks.peek().is_some() {
        let case = cases + 1;
        let (n, n_pos) = nums.next(|| format!("the board size N of case {case}"))?;
        let (m, m_pos) = nums.next(|| format!("the number of marbles M of case {case}"))?;
        let (w, w_pos) = nums.next(|| format!("the number of walls W of case {case}"))?;
        if (n, m, w) == (0, 0, 0) {
            if let Some((pos, t)) = nums.toks.next() {
                return Err(pos.error(path, format!("unexpected `{t}` after the closing `0 0 0`")));
            }
            break;
        }
        let numbers = nums.read.saturating_add(
            (m.max(0) as usize)
                .saturating_add(w.max(0) as usize)
                .saturating_mul(4),
        );
        let read = read_case(&mut nums, case, [(n, n_pos), (m, m_pos), (w, w_pos)]).map(|board| {
            let (from, to) = (
                starts.start(source, n_pos.line),
                ends.start(source, nums.last_line + 1),
            );
            let text = source
                .get(from..to)
                .map(|t| t.lines().collect::<Vec<_>>().join("\n"))
                .unwrap_or_default();
            Spec {
                path: path.to_path_buf(),
                source: text,
                name: format!("{stem} case {case}"),
                rules: "tilt_roll".into(),
                board: BoardSpec::Tilt(board),
                goal: GoalSpec::default(),
                limits: LimitSpec::default(),
                ratings: Default::default(),
                trace: false,
                line: Some(n_pos.line),
                expect: None,
                expect_line: None,
            }
        });
        let read = match read {
            // A negative count leaves no way to find the next case.
            Err(d) if nums.broken || m < 0 || w < 0 => return Err(d),
            Err(d) => {
                // Past the rest of the case's numbers, to the next case; where they run out,
                // the case's own fault is the one to show.
                while nums.read < numbers {
                    if nums.next(String::new).is_err() {
                        return Err(d);
                    }
                }
                Err(d.of_case(&format!("{stem} case {case}")))
            }
            ok => ok,
        };
        cases += 1;
        if emit(read).is_break() {
            return Ok(());
        }
    }
    if cases == 0 {
        return Err(Diagnostic::new(
            path,
            "no cases: an ICPC Marble Game file starts with `N M W` (board size, marbles, walls)",
        )
        .at(Some(1), Some(1)));
    }
    Ok(())
}

/// The board of case `case` after its `N M W` (each with where it was read): its marbles,
/// holes and walls read and checked, the first fault its error.
fn read_case(
    nums: &mut Numbers,
    case: usize,
    [(n, n_pos), (m, m_pos), (w, w_pos)]: [(i64, Pos); 3],
) -> Result<TiltBoard> {
    let bad = |pos: Pos, msg: String| Err(pos.error(nums.path, format!("case {case}: {msg}")));
    let checks = match TiltChecks::new(n, m) {
        Ok(checks) => checks,
        Err((part, why)) => return bad(if part == TiltPart::Size { n_pos } else { m_pos }, why),
    };
    if w < 0 {
        return bad(
            w_pos,
            format!("{w} walls: the number of walls cannot be negative"),
        );
    }
    let marbles = nums.cells(checks, case, m, "marble")?;
    let holes = nums.cells(checks, case, m, "hole")?;
    let mut walls = Vec::new();
    for k in 1..=w {
        let what = || format!("wall {k}");
        let (a, pos) = nums.cell_on_board(checks, case, &|| format!("the first square of {}", what()))?;
        let (b, _) = nums.cell_on_board(checks, case, &|| format!("the second square of {}", what()))?;
        // Each square was checked as it was read, so what is left to fail is the side.
        if checks.wall([a, b]).is_err() {
            return bad(
                pos,
                format!(
                    "{} stands between [{}, {}] and [{}, {}], which are not side by side",
                    what(),
                    a[0],
                    a[1],
                    b[0],
                    b[1]
                ),
            );
        }
        walls.push([a, b]);
    }
    Ok(TiltBoard {
        size: n as usize,
        marbles,
        holes,
        walls,
        exits: Vec::new(),
        pieces: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(src: &str) -> Result<Vec<Spec>> {
        parse(Path::new("t.icpc"), src)
    }

    #[test]
    fn reads_cases_with_or_without_the_end_marker() {
        let one = "2 1 0\n0 0\n1 1\n";
        assert_eq!(p(one).unwrap().len(), 1);
        let two = p(&format!("{one}{one}0 0 0\n")).unwrap();
        assert_eq!(two.len(), 2);
        assert_eq!(two[1].name, "t case 2");
        assert_eq!(two[1].source, "2 1 0\n0 0\n1 1");
        let BoardSpec::Tilt(t) = &two[0].board else {
            panic!()
        };
        assert_eq!(
            (t.size, t.marbles.clone(), t.holes.clone()),
            (2, vec![[0, 0]], vec![[1, 1]])
        );
    }

    #[test]
    fn errors_are_located() {
        let msg = |src: &str| p(src).unwrap_err().to_string();
        assert_eq!(
            msg("2 1 0\n0 0\n1 x\n"),
            "t.icpc:3:3: expected the column of hole 1 (case 1), a whole number, found `x`"
        );
        assert_eq!(
            msg("2 1 0\n0 0\n"),
            "t.icpc:2:4: the file ends early: expected the row of hole 1 (case 1)"
        );
        assert_eq!(
            msg("2 1 0\n0 0\n2 0\n"),
            "t.icpc:3:1: case 1: hole 1 at [2, 0] is off the 2×2 board (rows and columns run 0 to 1)"
        );
        assert_eq!(
            msg("2 2 0\n0 0\n0 0\n"),
            "t.icpc:3:1: case 1: marbles 1 and 2 share the cell [0, 0]"
        );
        assert!(msg("2 1 1\n0 0\n1 1\n0 0 1 1\n").contains("wall 1 stands between [0, 0] and [1, 1]"));
        assert!(msg("41 1 0\n0 0\n1 1\n").starts_with("t.icpc:1:1: case 1: size 41"));
        assert!(msg("0 0 0\n").contains("no cases"));
        assert!(msg("2 1 0\n0 0\n1 1\n0 0 0\n5\n").starts_with("t.icpc:5:1: unexpected `5`"));
    }
}
