//! Beam search: move by move, keep only the `width` positions whose pegs lie nearest the goal,
//! so that a finish is found in a few hundred thousand nodes where a depth-first search
//! wanders for tens of millions. It finds but proves nothing; the exact searches decide the
//! rest.
//!
//! One engine (`Beam::run`) serves two callers, which differ only in where a beam stops:
//!
//! * [`find`], for [`super::portfolio`]: a beam stops at the first child that is a goal
//!   position (children with no more pegs than the goal's count are dropped: every move takes
//!   pegs away). On the French board's 64 solvable one-vacancy → one-fixed-peg problems a
//!   width of 300 finds every one, forward and reversed; `portfolio` starts at
//!   [`FIRST_WIDTH`].
//! * [`probe`], for [`super::plan`]'s `fewest` and `count` plans: a beam stops at the first layer
//!   holding a position of an endgame table ([`Endgame`]) of every position with few pegs that
//!   can still reach a `target`-peg finish in the start's position class, and walks the table
//!   down; on the way it keeps the best line found so far, so that a limit or Ctrl-C returns
//!   it. Widths [`WIDTHS`]. On Diamond 41 (centre vacant) a beam of 1,024 leaves two pegs in a
//!   few hundred thousand nodes, where depth-first search ran for minutes.
//!
//! Each layer holds the children of the last one, each once per symmetry class, optionally
//! cut by pagodas, ranked by their spread ([`super::guided::spread_weights`]: the sum of the
//! pegs' weights, least first, ties in the order generated) and cut down to `width`; each kept
//! position remembers its parent and move, to walk the way back. Every child counts as a node
//! of the [`Budget`]; the layers kept for the way back, the children being chosen and their
//! seen set (and the caller's table) are counted against the memory limit before they grow,
//! and the clock and Ctrl-C are checked every `CHECK_STATES` positions too.

use super::dfs::{HopResult, Observer, Pruning};
use super::endgame::Endgame;
use super::guided::spread_weights;
use super::pagoda::Pagodas;
use super::symmetry::Symmetry;
use super::{Budget, GaveUp, Verdict, table_peak, vec_peak};
use crate::model::HopModel;
use crate::spec::PegGoal;
use rustc_hash::FxHashSet;

/// The width of the first beam a portfolio runs; each later one is four times wider.
pub const FIRST_WIDTH: usize = 1000;
/// The widths of the beams [`probe`] tries, in turn.
pub const WIDTHS: [usize; 4] = [1 << 10, 1 << 12, 1 << 14, 1 << 16];
/// The endgame table's size for [`probe`]: on Diamond 41, every position of up to 7 pegs that
/// can still leave 2 (127 K); built in a few hundredths of a second.
pub const TABLE_POSITIONS: usize = 1 << 18;
/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;
/// How often (in positions expanded) the budget is checked, nodes or not.
const CHECK_STATES: usize = 1 << 8;

/// A way from the start: the moves (indices into the model's moves) and where they end.
pub type Line = (Vec<usize>, u128);

/// Searches `model` layer by layer with at most `width` positions a layer, moves generated in
/// `order`, stopping at the first child that is a goal: solved with the solution's moves, or
/// given up when a limit of `budget` came first (with the bytes held then); `None` when the
/// beam emptied without a solution (nothing proven), or the goal is no peg count.
pub fn find(
    model: &HopModel,
    order: &[usize],
    width: usize,
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> Option<HopResult> {
    let PegGoal::Count(target) = model.goal.pegs else {
        return None;
    };
    if width == 0 || width > u32::MAX as usize {
        return None;
    }
    let stop = Stop::Goal(target);
    let beam = Beam::new(
        model,
        order,
        pruning.symmetry.as_ref(),
        Some(&pruning.pagodas),
        stop,
        0,
    );
    obs.beam(width);
    let mut peak = 0;
    let (verdict, path) = match beam.run(width, budget, obs, None, &mut peak) {
        Err(why) => (Verdict::GaveUp(why), Vec::new()),
        Ok(None) => return None,
        Ok(Some(path)) => (Verdict::Solved, path),
    };
    let mut end = model.start;
    for (depth, &i) in path.iter().enumerate() {
        end ^= model.moves[i].mask;
        obs.advance(depth + 1, i, end);
    }
    if verdict == Verdict::Solved {
        obs.goal(path.len(), end);
    }
    Some(HopResult {
        verdict,
        path,
        end,
        nodes: budget.nodes,
        memory: peak,
    })
}

/// Beams from `model`'s start towards a finish of `target` pegs (1 or 2, or the goal board),
/// widths [`WIDTHS`] in turn until one meets the endgame table. `best` is the way to the
/// fewest pegs found so far (meeting the goal's cells): every beam that goes further
/// replaces it at once, so that a limit or Ctrl-C keeps it, and a hit leaves the way to
/// `target` pegs there. The peak bytes the beams held (the table included), or `Ok(None)`
/// when no table can be built for the target (see [`Endgame::build`]) and no beam ran. `sym`
/// merges children that are images of each other under symmetries fixing the goal; `held` is
/// what the caller holds already.
#[allow(clippy::too_many_arguments)]
pub fn probe(
    model: &HopModel,
    order: &[usize],
    target: u32,
    sym: Option<&Symmetry>,
    budget: &mut Budget,
    obs: &mut impl Observer,
    held: u64,
    best: &mut Line,
) -> Result<Option<u64>, GaveUp> {
    let mut exact = model.clone();
    exact.goal.pegs = PegGoal::Count(target);
    let Some(table) = Endgame::build(&exact, TABLE_POSITIONS, budget, held)? else {
        return Ok(None);
    };
    let beam = Beam::new(model, order, sym, None, Stop::Table(&table), held + table.bytes());
    let mut peak = beam.held;
    for width in WIDTHS {
        if let Some(mut path) = beam.run(width, budget, obs, Some(best), &mut peak)? {
            let at = beam.ending(&path);
            path.extend(table.finish(model, order, at));
            let end = beam.ending(&path);
            *best = (path, end);
            obs.goal(best.0.len(), best.1);
            break;
        }
    }
    Ok(Some(peak))
}

/// Where a beam stops.
enum Stop<'a> {
    /// At a child that is a goal position of this many pegs; children of no more pegs are
    /// dropped. Only the way found is shown to the observer, once found.
    Goal(u32),
    /// At a layer holding a position the table wins. Every child is shown to the observer as
    /// it comes (fewest's progress counts them).
    Table(&'a Endgame),
}

/// One beam's fixed inputs.
struct Beam<'a> {
    model: &'a HopModel,
    order: &'a [usize],
    sym: Option<&'a Symmetry>,
    pagodas: Option<&'a Pagodas>,
    stop: Stop<'a>,
    /// For each move of `order`: its mask, what it needs, and its change of the spread.
    moves: Vec<(u128, u128, i64)>,
    weights: Vec<i64>,
    /// Bytes held outside this beam (the caller's, and its table).
    held: u64,
}

/// A kept position's way back: the index of its parent in the layer before, and its move.
type Back = (u32, u32);

/// A child: its spread, the position, its parent's index in the layer and its move's index in
/// the order.
type Kid = (i64, u128, u32, u32);

impl<'a> Beam<'a> {
    fn new(
        model: &'a HopModel,
        order: &'a [usize],
        sym: Option<&'a Symmetry>,
        pagodas: Option<&'a Pagodas>,
        stop: Stop<'a>,
        held: u64,
    ) -> Self {
        let weights = spread_weights(model);
        // A child's spread is its parent's plus its move's change.
        let moves = order
            .iter()
            .map(|&i| {
                let m = &model.moves[i];
                let delta = weights[m.to] - weights[m.from] - m.over.iter().map(|&o| weights[o]).sum::<i64>();
                (m.mask, m.need, delta)
            })
            .collect();
        Beam {
            model,
            order,
            sym,
            pagodas,
            stop,
            moves,
            weights,
            held,
        }
    }

    /// One beam of `width`: the moves to where it stopped (a goal child, or a layer's position
    /// the table wins), or `None` when a layer emptied first. With `best`, each layer with
    /// fewer pegs than `best` that meets the goal's cells replaces it with the way to its first
    /// such position. `peak` rises to the bytes held at each check.
    fn run(
        &self,
        width: usize,
        budget: &mut Budget,
        obs: &mut impl Observer,
        mut best: Option<&mut Line>,
        peak: &mut u64,
    ) -> Result<Option<Vec<usize>>, GaveUp> {
        let model = self.model;
        let at = model.goal_cells();
        let mut layer: Vec<u128> = vec![model.start];
        let mut spreads: Vec<i64> = vec![self.spread(model.start)];
        let mut backs: Vec<Vec<Back>> = vec![vec![(0, 0)]];
        // Checked before each node is counted and looked at: a node limit of N lets it look at N.
        let mut check_at = budget.nodes;
        let mut history = 0u64;
        loop {
            let depth = backs.len() - 1;
            if let Stop::Table(table) = self.stop
                && layer[0].count_ones() <= table.max_pegs()
                && let Some(j) = layer.iter().position(|&s| table.wins(s))
            {
                return Ok(Some(walk(&backs, j)));
            }
            let mut kids: Vec<Kid> = Vec::new();
            let mut seen: FxHashSet<u128> = FxHashSet::default();
            // What is held at a check with `more` children to come before the next: the next
            // layer (positions, spreads, ways back) is made from the children kept.
            let held = |more: usize, seen: &FxHashSet<u128>, kids: &Vec<Kid>| {
                let keeping = kids.len().saturating_add(more).min(width);
                self.held
                    + history
                    + (keeping * (size_of::<u128>() + size_of::<i64>() + size_of::<Back>())) as u64
                    + vec_peak::<u128>(layer.len(), layer.capacity(), 0)
                    + vec_peak::<i64>(spreads.len(), spreads.capacity(), 0)
                    + table_peak::<u128>(seen.len(), seen.capacity(), more)
                    + vec_peak::<Kid>(kids.len(), kids.capacity(), more)
            };
            for (j, &s) in layer.iter().enumerate() {
                // Positions with few moves among many scanned make few nodes: the clock and
                // Ctrl-C are checked every `CHECK_STATES` positions too.
                if j % CHECK_STATES == CHECK_STATES - 1
                    && let Some(why) = budget.exceeded(held(self.moves.len(), &seen, &kids))
                {
                    return Err(why);
                }
                for (k, &(mask, need, delta)) in self.moves.iter().enumerate() {
                    if s & mask != need {
                        continue;
                    }
                    if budget.nodes >= check_at {
                        check_at = budget.next_check(CHECK_EVERY);
                        let more = (check_at - budget.nodes) as usize + 1;
                        let now = held(more, &seen, &kids);
                        if let Some(why) = budget.exceeded(now) {
                            return Err(why);
                        }
                        *peak = (*peak).max(now);
                    }
                    budget.nodes += 1;
                    let c = s ^ mask;
                    if self.pagodas.is_some_and(|p| p.cuts(c))
                        || !seen.insert(self.sym.map_or(c, |g| g.canon(c)))
                    {
                        continue;
                    }
                    let m = self.order[k];
                    match self.stop {
                        Stop::Goal(target) if model.is_goal(c, target) => {
                            let mut path = walk(&backs, j);
                            path.push(m);
                            return Ok(Some(path));
                        }
                        Stop::Goal(target) if c.count_ones() <= target => continue,
                        Stop::Goal(_) => {}
                        Stop::Table(_) => obs.advance(depth + 1, m, c),
                    }
                    kids.push((spreads[j] + delta, c, j as u32, k as u32));
                }
                if kids.len() >= 4 * width {
                    keep_least(&mut kids, width);
                }
            }
            if kids.is_empty() {
                return Ok(None);
            }
            keep_least(&mut kids, width);
            kids.sort_unstable_by_key(rank);
            drop(seen);
            layer = kids.iter().map(|k| k.1).collect();
            spreads = kids.iter().map(|k| k.0).collect();
            let back: Vec<Back> = kids
                .iter()
                .map(|k| (k.2, self.order[k.3 as usize] as u32))
                .collect();
            history += vec_peak::<Back>(back.len(), back.capacity(), 0);
            backs.push(back);
            if let Some(best) = best.as_deref_mut()
                && layer[0].count_ones() < best.1.count_ones()
                && let Some(j) = layer.iter().position(|&s| s & at == at)
            {
                let path = walk(&backs, j);
                let end = self.ending(&path);
                *best = (path, end);
            }
        }
    }

    fn spread(&self, s: u128) -> i64 {
        let mut rest = s;
        let mut sum = 0;
        while rest != 0 {
            sum += self.weights[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        sum
    }

    /// Where `path` ends, from the start.
    fn ending(&self, path: &[usize]) -> u128 {
        path.iter()
            .fold(self.model.start, |s, &m| s ^ self.model.moves[m].mask)
    }
}

/// The moves to the `j`th position of the last layer of `backs`.
fn walk(backs: &[Vec<Back>], mut j: usize) -> Vec<usize> {
    let mut path = Vec::with_capacity(backs.len());
    for back in backs[1..].iter().rev() {
        let (parent, m) = back[j];
        path.push(m as usize);
        j = parent as usize;
    }
    path.reverse();
    path
}

/// A child's rank: least spread first, ties in the order generated (by its parent's rank,
/// then its move's place in the order).
fn rank(k: &Kid) -> (i64, u32, u32) {
    (k.0, k.2, k.3)
}

/// Keeps the `width` children of least [`rank`] (in no particular order): ranks are distinct,
/// so trimming as they come keeps the same children as trimming once at the end.
fn keep_least(kids: &mut Vec<Kid>, width: usize) {
    if kids.len() > width {
        kids.select_nth_unstable_by_key(width, rank);
        kids.truncate(width);
    }
}
