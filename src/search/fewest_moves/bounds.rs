//! Lower bounds on the moves between two positions, from Merson regions: a few masks per
//! board, a few AND and compare per position.
//!
//! A region is a set of cells such that every jump that takes a peg from it, or passes over
//! it, while landing outside it, starts inside it (a 2×2 block or a corner on a square board;
//! a corner, two neighbouring edge holes or a hexagon of seven holes on a triangle). While
//! such a region is full, no jump can land in it, so the first jump that changes it starts
//! inside it, from a peg that has not moved yet: the first jump of a move that starts in the
//! region. Regions that do not overlap each cost a move of their own. So from a position,
//! every region of a packing (regions that do not overlap) that is full there and is not
//! full at the end costs a move; and between the start and a position, every region full at
//! the start and not full in the position does. When the goal is one peg, a region that
//! holds it at the end costs a move too: the last move lands on it, so its hole is empty
//! before that move ends. Nothing here depends on how many pegs a jump takes.

use crate::model::HopModel;
use crate::search::bits::Word;
use crate::spec::PegGoal;

/// The largest region looked for, in cells.
const MAX_REGION: usize = 7;

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
    /// The goal is one peg: the last move lands on it, so its hole is empty before, and a
    /// region holding it, full before, costs a move too.
    one_peg: bool,
    /// `around[cell]`: every region of a packing holding `cell`.
    around: Vec<Vec<W>>,
}

impl<W: Word> Bounds<W> {
    /// The packings for `model`'s start and goal: `goal_pegs` pegs, holding `goal_cells`,
    /// and, when `exact`, those cells are the whole goal position.
    pub(super) fn new(model: &HopModel, goal_pegs: u32, goal_cells: u128, exact: bool) -> Self {
        // Under `pegs: fewest` the goal may be more pegs than the one hoped for.
        let one_peg = goal_pegs == 1 && model.goal.pegs == PegGoal::Count(1) && !model.goal.reach;
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
                let fits = |r: u128| {
                    !one_peg
                        && match exact {
                            true => r & !goal_cells == 0,
                            false => (r & !goal_cells).count_ones() <= spare,
                        }
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
        Bounds {
            packings,
            one_peg,
            around,
        }
    }

    /// Moves at least from `s` to a goal position.
    #[inline]
    pub(super) fn ahead(&self, s: W) -> u32 {
        if self.one_peg && s.pegs() <= 1 {
            return 0;
        }
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

/// The regions of at most [`MAX_REGION`] cells with no smaller region inside: the smallest
/// first. From each cell, a set grows by a cell of a jump that breaks it (its start or its
/// landing, either way), until no jump does; every region holding the cell holds one of
/// the sets so grown, so each minimal region is among them.
fn minimal_regions(model: &HopModel) -> Vec<u128> {
    let mut all: Vec<u128> = Vec::new();
    let mut stack: Vec<u128> = (0..model.geo.cells.len()).map(|c| 1u128 << c).collect();
    while let Some(r) = stack.pop() {
        match model
            .moves
            .iter()
            .find(|m| m.mask & r != 0 && r >> m.to & 1 == 0 && r >> m.from & 1 == 0)
        {
            None => all.push(r),
            Some(_) if r.count_ones() as usize >= MAX_REGION => {}
            Some(m) => stack.extend([r | 1 << m.from, r | 1 << m.to]),
        }
    }
    all.sort_by_key(|r| (r.count_ones(), *r));
    all.dedup();
    let mut found: Vec<u128> = Vec::new();
    for r in all {
        if !found.iter().any(|&f| f & !r == 0) {
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

    /// Every claim the searches take from the bounds, checked on every position reachable
    /// on a small board against the exact moves left, found by trying every jump (a jump
    /// by the peg that jumped last costing nothing):
    /// - from a position, [`Bounds::ahead`] moves at least are needed;
    /// - with a peg just landed on `at`, free to go on, one less when [`Bounds::in_full`];
    /// - a move whose first jump starts in no full region lowers no bound;
    /// - [`Bounds::behind`] moves at least lead from the start to the position.
    fn check_every_position(rules: &str, rows: &[&str], goal_text: &str) {
        use std::collections::{HashMap, VecDeque};
        let m = hop_model(rules, rows, goal_text).unwrap();
        let pegs = m.target_pegs();
        let at = m.goal.at;
        let b: Bounds<u64> = Bounds::new(&m, pegs, m.goal_cells(), false);
        const NONE: usize = usize::MAX;
        const NO: u32 = u32::MAX / 2;
        // The fewest moves from `p`, the peg on `last` free to jump on.
        fn left(
            m: &HopModel,
            goal: &dyn Fn(u128) -> bool,
            p: u128,
            last: usize,
            memo: &mut HashMap<(u128, usize), u32>,
        ) -> u32 {
            if goal(p) {
                return 0;
            }
            if let Some(&d) = memo.get(&(p, last)) {
                return d;
            }
            let mut best = NO;
            for j in m.moves.iter().filter(|j| p & j.mask == j.need) {
                let d = left(m, goal, p ^ j.mask, j.to, memo) + u32::from(j.from != last);
                best = best.min(d);
            }
            memo.insert((p, last), best);
            best
        }
        let goal = |p: u128| p.count_ones() == pegs && at.is_none_or(|a| p >> a & 1 == 1);
        let mut memo = HashMap::new();
        // The fewest moves from the start to each position (0-1 breadth first).
        let mut from_start: HashMap<(u128, usize), u32> = HashMap::from([((m.start, NONE), 0)]);
        let mut queue = VecDeque::from([(m.start, NONE, 0u32)]);
        while let Some((p, last, d)) = queue.pop_front() {
            if from_start[&(p, last)] < d || p.count_ones() <= pegs {
                continue;
            }
            for j in m.moves.iter().filter(|j| p & j.mask == j.need) {
                let (q, cost) = (p ^ j.mask, u32::from(j.from != last));
                let e = from_start.entry((q, j.to)).or_insert(NO);
                if d + cost < *e {
                    *e = d + cost;
                    match cost {
                        0 => queue.push_front((q, j.to, d)),
                        _ => queue.push_back((q, j.to, d + 1)),
                    }
                }
            }
        }
        let mut behind: HashMap<u128, u32> = HashMap::new();
        for (&(p, _), &d) in &from_start {
            let e = behind.entry(p).or_insert(d);
            *e = (*e).min(d);
        }
        let mut checked = 0;
        for (&p, &d) in &behind {
            let w = p as u64;
            assert!(b.behind(w) <= d, "behind {:#x}: {} > {d}", p, b.behind(w));
            let exact = left(&m, &goal, p, NONE, &mut memo);
            if exact == NO {
                continue;
            }
            checked += 1;
            assert!(b.ahead(w) <= exact, "ahead {p:#x}: {} > {exact}", b.ahead(w));
            for j in m.moves.iter().filter(|j| p & j.mask == j.need) {
                let q = p ^ j.mask;
                let rest = left(&m, &goal, q, j.to, &mut memo);
                let claim = b
                    .ahead(q as u64)
                    .saturating_sub(u32::from(b.in_full(q as u64, j.to)));
                assert!(claim <= rest, "chain {q:#x} at {}: {claim} > {rest}", j.to);
                if b.in_full(w, j.from) {
                    continue;
                }
                // Every move this jump starts: each keeps the bound.
                let mut stack = vec![(q, j.to)];
                while let Some((r, on)) = stack.pop() {
                    assert!(
                        b.ahead(r as u64) >= b.ahead(w) || goal(r),
                        "move {p:#x} to {r:#x}"
                    );
                    for k in m.moves.iter().filter(|k| k.from == on && r & k.mask == k.need) {
                        stack.push((r ^ k.mask, k.to));
                    }
                }
            }
        }
        assert!(
            checked > 100,
            "{goal_text} on {rows:?}: {checked} positions checked"
        );
        eprintln!("{checked} positions checked");
    }

    #[test]
    fn the_bounds_hold_on_every_position_of_small_boards() {
        let t5 = ["    o", "   oo", "  ooo", " .ooo", "ooooo"];
        check_every_position("triangle_hop", &t5, "{pegs: 1}");
        let t5 = ["    .", "   oo", "  ooo", " oooo", "ooooo"];
        // To the middle of the bottom edge.
        let [r, c] = hop_model("triangle_hop", &t5, "{pegs: 1}").unwrap().geo.cells[12];
        check_every_position("triangle_hop", &t5, &format!("{{pegs: 1, at: [{r}, {c}]}}"));
        // The inner ring of the 19-hole hexagon is a region of seven holes.
        let hex = ["  ooo", " oooo", "oo.oo", " oooo", "  ooo"];
        let m = hop_model("triangle_hop", &hex, "{pegs: 2}").unwrap();
        assert!(minimal_regions(&m).iter().any(|r| r.count_ones() == 7));
        check_every_position("triangle_hop", &hex, "{pegs: 2}");
        let square = ["o.oo", "oooo", "oooo", "oooo"];
        check_every_position("peg_hop", &square, "{pegs: 1}");
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
