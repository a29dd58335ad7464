//! Lower bounds on the moves between two positions, from Merson regions: a few masks per
//! board, a few AND and compare per position.
//!
//! A region is a set of cells such that every jump that takes a peg from it, or passes over
//! it, while landing outside it, starts inside it (a 2×2 block or a corner on a square board,
//! a corner or two neighbouring edge holes on a triangle). While such a region is full, no
//! jump can land in it, so the first jump that changes it starts inside it, from a peg that
//! has not moved yet: the first jump of a move that starts in the region. Regions that do
//! not overlap each cost a move of their own. So from a position, every region of a packing
//! (regions that do not overlap) that is full there and is not full at the end costs a move;
//! and between the start and a position, every region full at the start and not full in the
//! position does. Nothing here depends on how many pegs a jump takes.

use crate::model::HopModel;
use crate::search::bits::Word;

/// The largest region looked for, in cells.
const MAX_REGION: usize = 4;

/// Packings kept: a position's bound is the best over them.
const PACKINGS: usize = 4;

/// Regions that do not overlap, split by what the goal allows.
struct Packing<W> {
    /// Regions no goal position holds full: each full one costs a move.
    always: Vec<W>,
    /// Regions some goal position may hold full, of which at most `kept` can be at once.
    maybe: Vec<W>,
    kept: u32,
    /// Every region full at the start.
    at_start: Vec<W>,
}

/// The regions of a board, in packings, for one start and goal.
pub(super) struct Bounds<W> {
    packings: Vec<Packing<W>>,
    /// `around[cell]`: every region of a packing holding `cell`.
    around: Vec<Vec<W>>,
}

impl<W: Word> Bounds<W> {
    /// The packings for `model`'s start and goal: `goal_pegs` pegs, holding `goal_cells`,
    /// and, when `exact`, those cells are the whole goal position.
    pub(super) fn new(model: &HopModel, goal_pegs: u32, goal_cells: u128, exact: bool) -> Self {
        let regions = minimal_regions(model);
        let packings = packings(&regions);
        let mut around = vec![Vec::new(); model.geo.cells.len()];
        for &r in packings.iter().flatten() {
            for (c, list) in around.iter_mut().enumerate() {
                if r >> c & 1 == 1 && !list.contains(&W::narrow(r)) {
                    list.push(W::narrow(r));
                }
            }
        }
        let packings = packings
            .into_iter()
            .map(|p| {
                // A region can be full at the end only if it fits the goal's pegs beside
                // the cells the goal holds.
                let spare = goal_pegs.saturating_sub(goal_cells.count_ones());
                let fits = |r: u128| match exact {
                    true => r & !goal_cells == 0,
                    false => (r & !goal_cells).count_ones() <= spare,
                };
                let (maybe, always): (Vec<u128>, Vec<u128>) = p.iter().partition(|&&r| fits(r));
                // As many as fit beside each other, the smallest first: no goal position
                // holds more of them.
                let mut sizes: Vec<u32> = maybe.iter().map(|r| (r & !goal_cells).count_ones()).collect();
                sizes.sort_unstable();
                let mut used = 0;
                let kept = match exact {
                    true => maybe.len() as u32,
                    false => sizes
                        .iter()
                        .take_while(|&&n| {
                            used += n;
                            used <= spare
                        })
                        .count() as u32,
                };
                Packing {
                    always: always.into_iter().map(W::narrow).collect(),
                    maybe: maybe.into_iter().map(W::narrow).collect(),
                    kept,
                    at_start: p
                        .iter()
                        .filter(|&&r| r & model.start == r)
                        .map(|&r| W::narrow(r))
                        .collect(),
                }
            })
            .collect();
        Bounds { packings, around }
    }

    /// Moves at least from `s` to a goal position.
    #[inline]
    pub(super) fn ahead(&self, s: W) -> u32 {
        let full = |rs: &[W]| rs.iter().filter(|&&r| s & r == r).count() as u32;
        self.packings
            .iter()
            .map(|p| full(&p.always) + full(&p.maybe).saturating_sub(p.kept))
            .max()
            .unwrap_or(0)
    }

    /// Whether the peg on `at` sits in a full region of `s`: only then can the rest of a
    /// move whose peg has just landed there start a region's first change, so the moves
    /// from `s` besides that rest are [`Bounds::ahead`]'s, less one only then.
    #[inline]
    pub(super) fn in_full(&self, s: W, at: usize) -> bool {
        self.around[at].iter().any(|&r| s & r == r)
    }

    /// Moves at least from the start to `s`.
    #[inline]
    pub(super) fn behind(&self, s: W) -> u32 {
        self.packings
            .iter()
            .map(|p| p.at_start.iter().filter(|&&r| s & r != r).count() as u32)
            .max()
            .unwrap_or(0)
    }
}

/// Whether every jump that changes `r` while landing outside it starts inside it.
fn is_region(model: &HopModel, r: u128) -> bool {
    model
        .moves
        .iter()
        .all(|m| m.mask & r == 0 || r >> m.to & 1 == 1 || r >> m.from & 1 == 1)
}

/// The regions of at most [`MAX_REGION`] cells, each connected by jumps, with no smaller
/// region inside: the smallest first.
fn minimal_regions(model: &HopModel) -> Vec<u128> {
    let n = model.geo.cells.len();
    // Cells a jump passes through together are neighbours.
    let mut near = vec![0u128; n];
    for m in &model.moves {
        let cells = m.over.iter().copied().chain([m.from, m.to]);
        for c in cells {
            near[c] |= m.mask & !(1 << c);
        }
    }
    let mut sets: Vec<u128> = (0..n).map(|c| 1u128 << c).collect();
    let mut all = sets.clone();
    for _ in 1..MAX_REGION {
        let mut grown: Vec<u128> = Vec::new();
        for &s in &sets {
            let mut rim = (0..n)
                .filter(|&c| s >> c & 1 == 1)
                .fold(0u128, |a, c| a | near[c])
                & !s;
            while rim != 0 {
                let c = rim.trailing_zeros();
                rim &= rim - 1;
                grown.push(s | 1 << c);
            }
        }
        grown.sort_unstable();
        grown.dedup();
        all.extend(&grown);
        sets = grown;
    }
    all.sort_by_key(|r| (r.count_ones(), *r));
    let mut found: Vec<u128> = Vec::new();
    for r in all {
        if is_region(model, r) && !found.iter().any(|&f| f & !r == 0) {
            found.push(r);
        }
    }
    found
}

/// Up to [`PACKINGS`] packings of `regions`, the most regions first: each greedy, the
/// smallest regions first, after one region chosen first.
fn packings(regions: &[u128]) -> Vec<Vec<u128>> {
    let mut out: Vec<Vec<u128>> = Vec::new();
    for first in 0..regions.len() {
        let mut taken = vec![regions[first]];
        let mut cover = regions[first];
        for &r in regions {
            if r & cover == 0 {
                taken.push(r);
                cover |= r;
            }
        }
        taken.sort_unstable();
        if !out.contains(&taken) {
            out.push(taken);
        }
    }
    out.sort_by_key(|p| std::cmp::Reverse(p.len()));
    out.truncate(PACKINGS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::hop_model;

    #[test]
    fn a_triangle_has_corners_and_edge_pairs() {
        let rows = ["    .", "   oo", "  ooo", " oooo", "ooooo"];
        let m = hop_model("triangle_hop", &rows, "{pegs: 1}").unwrap();
        let regions = minimal_regions(&m);
        let sizes: Vec<u32> = regions.iter().map(|r| r.count_ones()).collect();
        // Three corners; each edge's three inner holes give two pairs.
        assert_eq!(sizes, [1, 1, 1, 2, 2, 2, 2, 2, 2]);
    }

    #[test]
    fn the_english_board_has_its_corners_and_blocks() {
        let rows = [
            "##ooo##", "##ooo##", "ooooooo", "ooo.ooo", "ooooooo", "##ooo##", "##ooo##",
        ];
        let m = hop_model("peg_hop", &rows, "{pegs: 1}").unwrap();
        let regions = minimal_regions(&m);
        // The eight arm corners can never be jumped over.
        assert_eq!(regions.iter().filter(|r| r.count_ones() == 1).count(), 8);
        assert!(regions.iter().any(|r| r.count_ones() == 4));
    }
}
