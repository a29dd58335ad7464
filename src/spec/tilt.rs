//! The checks a tilt board's parts pass, written once for every reader: `board` (YAML puzzles)
//! and `formats::icpc` (ICPC cases) feed them each part in their own reading order and put what
//! fails in their own words (`[r, c]` at a YAML key; `(r, c)` and the case number at the
//! part's line in an ICPC file).
//!
//! The size and marble count are checked first, by [`crate::limits::check_tilt`] (the model's
//! limits); then each marble and hole (on the board, on a cell of its own within its list) and
//! each wall (both cells on the board, side by side).

use super::Cell;
use crate::limits::{TiltPart, check_tilt};

/// What is wrong with a marble or a hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ItemFault {
    /// Its cell is off the board.
    OffBoard,
    /// It stands on the cell of the earlier item of its list at this index (0-based).
    Shared(usize),
}

/// What is wrong with a wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WallFault {
    /// One of its two cells (or both) is off the board.
    OffBoard,
    /// Its two cells are on the board but not side by side.
    NotSideBySide,
}

/// The checks of a tilt board whose size and marble count have passed the model's limits.
#[derive(Debug, Clone, Copy)]
pub struct TiltChecks {
    size: i64,
}

impl TiltChecks {
    /// A `size` × `size` board of `marbles` marbles, or the part the model's limits refuse and
    /// why ([`check_tilt`], the same message whichever reader asks).
    pub fn new(size: i64, marbles: i64) -> Result<Self, (TiltPart, String)> {
        check_tilt(size, marbles).map(|()| TiltChecks { size })
    }

    /// The board's width (and height).
    pub fn size(self) -> i64 {
        self.size
    }

    /// Whether `[r, c]` is on the board: both run from 0 to size − 1.
    pub fn on_board(self, [r, c]: Cell) -> bool {
        (0..self.size).contains(&r) && (0..self.size).contains(&c)
    }

    /// A marble or a hole at `cell`, after the `earlier` items of its own list: on the board,
    /// and on none of their cells (the first one shared is named).
    pub fn item(self, earlier: &[Cell], cell: Cell) -> Result<(), ItemFault> {
        if !self.on_board(cell) {
            return Err(ItemFault::OffBoard);
        }
        match earlier.iter().position(|&o| o == cell) {
            Some(j) => Err(ItemFault::Shared(j)),
            None => Ok(()),
        }
    }

    /// A wall between `a` and `b`: both on the board, and side by side.
    pub fn wall(self, [a, b]: [Cell; 2]) -> Result<(), WallFault> {
        if !self.on_board(a) || !self.on_board(b) {
            return Err(WallFault::OffBoard);
        }
        match side_by_side(a, b) {
            true => Ok(()),
            false => Err(WallFault::NotSideBySide),
        }
    }
}

/// Whether two cells on the board share a side (a wall stands only between such cells).
fn side_by_side(a: Cell, b: Cell) -> bool {
    (a[0] - b[0]).abs() + (a[1] - b[1]).abs() == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_checked_against_the_board() {
        let checks = TiltChecks::new(3, 2).unwrap();
        assert_eq!(checks.item(&[], [2, 2]), Ok(()));
        assert_eq!(checks.item(&[], [3, 0]), Err(ItemFault::OffBoard));
        assert_eq!(checks.item(&[[0, 0], [1, 1]], [1, 1]), Err(ItemFault::Shared(1)));
        assert_eq!(checks.wall([[0, 0], [0, 1]]), Ok(()));
        assert_eq!(checks.wall([[0, 0], [1, 1]]), Err(WallFault::NotSideBySide));
        assert_eq!(checks.wall([[0, 2], [0, 3]]), Err(WallFault::OffBoard));
        assert_eq!(TiltChecks::new(0, 1).unwrap_err().0, TiltPart::Size);
    }
}
