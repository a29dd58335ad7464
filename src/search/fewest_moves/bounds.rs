//! Lower bounds on the moves between two positions, from Merson regions: a few masks per
//! board, a few AND and compare per position.
//!
//! A region is a set of cells such that every jump that takes a peg from it, or passes over
//! it, while landing outside it, starts inside it (a 2×2 block or a corner on a square board;
//! a corner, two neighbouring edge holes or a hexagon of seven holes on a triangle). While
//! such a region is full, no jump can land in it, so the first jump that changes it starts
//! inside it, from a peg that has not moved yet: the first jump of a move that starts in the
//! region. Regions that do not overlap each cost a move of their own. So from a position,
//! every region of a set of regions that do not overlap, full there and not full at the end,
//! costs a move; and between the start and a position, every region full at the start and
//! not full in the position does. When the goal is one peg, a region that holds it at the
//! end costs a move too: the last move lands on it, so its hole is empty before that move
//! ends. Nothing here depends on how many pegs a jump takes.
//!
//! The sets are a few packings fixed beforehand, and, chosen for each position, the most
//! of its full corners and edge pairs of which no two overlap: on an edge with pegs on its
//! second, third, fifth and sixth holes the pairs 2–3 and 5–6 both count, where a packing
//! of pairs 1–2, 3–4, 5–6 counts one. Moves from a position get the better of the two;
//! moves from the start only the packings (the backward search on the triangles met the
//! same positions with both, and paid for the choice).

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
    /// `around[cell]`: every region of a packing or of `small` holding `cell`.
    around: Vec<Vec<W>>,
    /// The regions of at most [`SMALL_REGION`] cells, at most [`MOST_SMALL`] of them: a
    /// position's bound is also the most of them full there, none overlapping (none when
    /// there are more).
    small: Vec<W>,
    /// `overlaps[i]`: the regions of `small` sharing a cell with its region `i`, as bits.
    overlaps: Vec<u128>,
    /// The regions of `small` no goal position holds full, as bits.
    never_at_goal: u128,
}

/// The largest region whose sets apart are chosen per position: corners and pairs of edge
/// holes, which overlap along a line, so that the choice is made without trying both ways.
/// (All regions, the triangle's hexagons and the square boards' 2×2 blocks among them,
/// took the English board's fewest moves from 1.2 to 1.5 s; on the 45-hole triangle they
/// halved the largest layer again, for no time saved.)
const SMALL_REGION: u32 = 2;

/// The most regions of `small`: their sets are bits of a `u128`.
const MOST_SMALL: usize = 128;

impl<W: Word> Bounds<W> {
    /// The packings for `model`'s start and goal: `goal_pegs` pegs, holding `goal_cells`,
    /// and, when `exact`, those cells are the whole goal position.
    pub(super) fn new(model: &HopModel, goal_pegs: u32, goal_cells: u128, exact: bool) -> Self {
        // Under `pegs: fewest` the goal may be more pegs than the one hoped for.
        let one_peg = goal_pegs == 1 && model.goal.pegs == PegGoal::Count(1) && !model.goal.reach;
        let regions = minimal_regions(model);
        let packings = packings(&regions);
        let mut small: Vec<u128> = regions
            .iter()
            .copied()
            .filter(|r| r.count_ones() <= SMALL_REGION)
            .collect();
        // Where one packing holds them all (the English board's corners), none overlap and
        // that packing counts each full one already.
        if small.len() > MOST_SMALL || packings.iter().any(|p| small.iter().all(|r| p.contains(r))) {
            small.clear();
        }
        let mut around = vec![Vec::new(); model.geo.cells.len()];
        for &r in packings.iter().flatten().chain(&small) {
            for (c, list) in around.iter_mut().enumerate() {
                if r >> c & 1 == 1 && !list.contains(&W::narrow(r)) {
                    list.push(W::narrow(r));
                }
            }
        }
        // A region can be full at the end only if it fits the goal's pegs beside the cells
        // the goal holds.
        let spare = goal_pegs.saturating_sub(goal_cells.count_ones());
        let fits = |r: u128| {
            !one_peg
                && match exact {
                    true => r & !goal_cells == 0,
                    false => (r & !goal_cells).count_ones() <= spare,
                }
        };
        let bits = |keep: &dyn Fn(u128) -> bool| {
            small
                .iter()
                .enumerate()
                .filter(|&(_, &r)| keep(r))
                .fold(0u128, |acc, (i, _)| acc | 1 << i)
        };
        let overlaps = small.iter().map(|&r| bits(&|o| o != r && o & r != 0)).collect();
        let never_at_goal = bits(&|r| !fits(r));
        let packings: Vec<Packing<W>> = packings
            .into_iter()
            .map(|p| {
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
            small: small.into_iter().map(W::narrow).collect(),
            overlaps,
            never_at_goal,
        }
    }

    /// The regions of `small` full in `s`, as bits.
    #[inline]
    fn full(&self, s: W) -> u128 {
        self.small
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &r)| acc | u128::from(s & r == r) << i)
    }

    /// Moves at least from `s` to a goal position.
    #[inline]
    pub(super) fn ahead(&self, s: W) -> u32 {
        if self.one_peg && s.pegs() <= 1 {
            return 0;
        }
        let packed = self.packed(s);
        let f = self.full(s) & self.never_at_goal;
        match f.count_ones() <= packed {
            true => packed,
            false => packed.max(most_apart(&self.overlaps, f)),
        }
    }

    /// Moves at least from `s` to a goal position, by the packings alone: what the beam
    /// ranks by (ranked by [`Bounds::ahead`], its line on the 45-hole triangle from (4, 0)
    /// is 17 moves, not the fewest, 16).
    #[inline]
    pub(super) fn packed(&self, s: W) -> u32 {
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

/// The most of the regions `f` (bits) of which no two overlap (`overlaps`). A region with
/// at most one overlapping region left is in some largest choice, so it is taken; when none
/// is left so (never on corners and edge pairs), the region overlapping the most is tried
/// in and out.
fn most_apart(overlaps: &[u128], mut f: u128) -> u32 {
    let mut n = 0;
    loop {
        let mut taken = false;
        let mut rest = f;
        while rest != 0 {
            let v = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if (overlaps[v] & f).count_ones() <= 1 {
                n += 1;
                f &= !(overlaps[v] | 1 << v);
                rest &= f;
                taken = true;
            }
        }
        if f == 0 {
            return n;
        }
        if !taken {
            let v = (0..overlaps.len())
                .filter(|&v| f >> v & 1 == 1)
                .max_by_key(|&v| (overlaps[v] & f).count_ones())
                .expect("a region left");
            let with = 1 + most_apart(overlaps, f & !(overlaps[v] | 1 << v));
            return n + with.max(most_apart(overlaps, f & !(1 << v)));
        }
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

    /// Pegs on the second and third, and the fifth and sixth, of the bottom edge's seven
    /// holes: two pairs apart, each a move. A packing of pairs fixed beforehand (the first
    /// and second holes, the third and fourth, …) holds one of them.
    #[test]
    fn two_pairs_apart_on_an_edge_cost_two_moves() {
        let rows = [
            "      .", "     oo", "    ooo", "   oooo", "  ooooo", " oooooo", "ooooooo",
        ];
        let m = hop_model("triangle_hop", &rows, "{pegs: 1}").unwrap();
        let b: Bounds<u64> = Bounds::new(&m, 1, m.goal_cells(), false);
        let cell = |rc: [i64; 2]| m.geo.cells.iter().position(|&c| c == rc).unwrap();
        let pegs = [1, 2, 4, 5]
            .map(|c| 1u64 << cell([6, c]))
            .iter()
            .fold(0, |a, b| a | b);
        assert_eq!(b.ahead(pegs), 2);
        let one_pair = [1, 2, 3]
            .map(|c| 1u64 << cell([6, c]))
            .iter()
            .fold(0, |a, b| a | b);
        assert_eq!(b.ahead(one_pair), 1);
    }

    /// The largest choice of regions apart, against every subset, on random overlaps.
    #[test]
    fn most_apart_agrees_with_every_subset() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..200 {
            let n = 1 + (next() % 10) as usize;
            // Regions as random sets of a few of 12 cells.
            let regions: Vec<u16> = (0..n)
                .map(|_| (next() as u16 & next() as u16) | 1 << (next() % 12))
                .collect();
            let overlaps: Vec<u128> = regions
                .iter()
                .enumerate()
                .map(|(i, &r)| {
                    (0..n)
                        .filter(|&j| j != i && regions[j] & r != 0)
                        .fold(0u128, |a, j| a | 1 << j)
                })
                .collect();
            let f = (next() as u128) & ((1 << n) - 1);
            let best = (0u32..1 << n)
                .filter(|&set| u128::from(set) & !f == 0)
                .filter(|&set| (0..n).all(|i| set >> i & 1 == 0 || overlaps[i] & u128::from(set) == 0))
                .map(u32::count_ones)
                .max()
                .unwrap_or(0);
            assert_eq!(most_apart(&overlaps, f), best, "{regions:?} {f:#b}");
        }
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
