//! Beam search down to an endgame table (merged from diamond12 beside [`super::beam`], to be made one): a quick way to *find* a finish with few pegs when a
//! depth-first search wanders, for [`super::fewest`].
//!
//! The table ([`Endgame`]) holds every position with few pegs that can still reach a
//! `target`-peg finish in the start's position class, built backwards from those finishes.
//! The beam goes forwards one move (one peg) at a time, keeping of each layer's children
//! (one per symmetry orbit) the `width` least spread out (the sum of the squared distances of
//! the pegs to the goal cell or the middle, as in [`super::guided`]); once a layer has few
//! enough pegs for the table, a child in it finishes by walking the table down. A beam proves
//! nothing when it misses: it is tried at a few widths, each four times the last, and the
//! exact searches decide the rest. On Diamond 41 (centre vacant) a beam of 1,024 leaves two
//! pegs in a few hundred thousand nodes, where depth-first search ran for minutes.
//!
//! Every child counts as a node of the [`Budget`]; the table, the layers kept for the way back
//! and the children being chosen are counted against the memory limit before they grow.

use super::dfs::{HopResult, Observer};
use super::endgame::Endgame;
use super::guided::spread_weights;
use super::symmetry::Symmetry;
use super::{Budget, GaveUp, Verdict, portfolio, table_peak, vec_peak};
use crate::model::HopModel;
use crate::spec::PegGoal;
use rustc_hash::FxHashSet;

/// The beam widths tried, in turn.
pub const WIDTHS: [usize; 4] = [1 << 10, 1 << 12, 1 << 14, 1 << 16];
/// The endgame table's size: on Diamond 41, every position of up to 7 pegs that can still
/// leave 2 (127 K); built in a few hundredths of a second.
pub const TABLE_POSITIONS: usize = 1 << 18;
/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;
/// How often (in positions expanded) the budget is checked, nodes or not.
const CHECK_STATES: usize = 1 << 8;

/// A way from the start: the moves (indices into the model's moves) and where they end.
pub type Line = (Vec<usize>, u128);

/// Beams from `model`'s start towards a finish of `target` pegs (1 or 2, or the goal board),
/// widths [`WIDTHS`] in turn until one meets the endgame table. `best` is the way to the
/// fewest pegs found so far (meeting the goal's cells): every beam that goes further
/// replaces it at once, so that a limit or Ctrl-C keeps it, and a hit leaves the way to
/// `target` pegs there. The peak bytes the beams held (the table included), or `Ok(None)`
/// when no table can be built for the target (see [`Endgame::build`]) and no beam ran. `sym` merges children that are images of each other
/// under symmetries fixing the goal; `held` is what the caller holds already.
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
    let beam = Beam {
        model,
        order,
        table: &table,
        sym,
        weights: spread_weights(model),
        at: model.goal_cells(),
        held: held + table.bytes(),
    };
    let mut peak = beam.held;
    for width in WIDTHS {
        let (hit, bytes) = beam.run(width, budget, obs, best)?;
        peak = peak.max(bytes);
        if hit {
            obs.goal(best.0.len(), best.1);
            break;
        }
    }
    Ok(Some(peak))
}

/// Solves a goal of 1 or 2 pegs anywhere (no cell, no goal board): the usual searches
/// ([`portfolio`]) for their first [`portfolio::FIRST_CAP`] nodes, so that easy puzzles keep
/// their first solution; then beams towards the table of the goal's finishes, which leave 2
/// pegs on Diamond 41 where depth-first search never did; then the usual searches again with
/// the rest of the budget, to find or refute what the beams missed.
pub fn solve_count(
    model: &HopModel,
    order: &[usize],
    budget: &mut Budget,
    obs: &mut impl Observer,
) -> HopResult {
    let first = portfolio::FIRST_CAP;
    let mut turn = budget.capped(first);
    let r = portfolio::solve(model, order, &mut turn, obs, first);
    budget.nodes = turn.nodes;
    let (Verdict::GaveUp(_), None, PegGoal::Count(k)) =
        (&r.verdict, budget.exceeded(r.memory), model.goal.pegs)
    else {
        return HopResult {
            nodes: budget.nodes,
            ..r
        };
    };
    drop(r);
    super::release_freed();
    let mut line = (Vec::new(), model.start);
    let found = Symmetry::for_goal_within(model, budget).and_then(|sym| {
        let sym = (sym.order() > 1).then_some(sym);
        probe(model, order, k, sym.as_ref(), budget, obs, 0, &mut line)
    });
    match found {
        Err(why) => HopResult {
            verdict: Verdict::GaveUp(why),
            path: Vec::new(),
            end: model.start,
            nodes: budget.nodes,
            memory: 0,
        },
        Ok(Some(memory)) if model.is_goal(line.1, k) => HopResult {
            verdict: Verdict::Solved,
            path: line.0,
            end: line.1,
            nodes: budget.nodes,
            memory,
        },
        Ok(_) => {
            super::release_freed();
            obs.restart(false);
            portfolio::solve(model, order, budget, obs, first)
        }
    }
}

/// One beam's fixed inputs.
struct Beam<'a> {
    model: &'a HopModel,
    order: &'a [usize],
    table: &'a Endgame,
    sym: Option<&'a Symmetry>,
    weights: Vec<i64>,
    /// The goal's cells: a position counts as reached only when it holds them.
    at: u128,
    /// Bytes held outside this beam (the caller's, and the table).
    held: u64,
}

/// A kept position's way back: the index of its parent in the layer before, and its move.
type Back = (u32, u32);
/// A child: its spread, the position, its parent's index in the layer and its move.
type Kid = (i64, u128, u32, u32);

impl Beam<'_> {
    /// One beam of `width`: true when it met the table, with the way to the target's finish
    /// left in `best`, and the peak bytes held at its checks. Each layer with fewer pegs than `best` that meets the goal's cells
    /// replaces it with the way to its first position.
    fn run(
        &self,
        width: usize,
        budget: &mut Budget,
        obs: &mut impl Observer,
        best: &mut Line,
    ) -> Result<(bool, u64), GaveUp> {
        let (model, at) = (self.model, self.at);
        let mut layer: Vec<u128> = vec![model.start];
        let mut backs: Vec<Vec<Back>> = vec![vec![(0, 0)]];
        let mut check_at = budget.nodes + 1;
        let mut history = 0u64;
        let mut peak = 0;
        loop {
            let depth = backs.len() - 1;
            if layer[0].count_ones() <= self.table.max_pegs()
                && let Some(j) = layer.iter().position(|&s| self.table.wins(s))
            {
                let mut path = self.walk(&backs, j);
                path.extend(self.table.finish(model, self.order, layer[j]));
                *best = self.ending(path);
                return Ok((true, peak));
            }
            let mut kids: Vec<Kid> = Vec::new();
            let mut seen: FxHashSet<u128> = FxHashSet::default();
            // What is held at a check with `more` children to come before the next: the
            // next layer and its way back are made from the children kept.
            let next = vec_peak::<u128>(0, 0, width) + vec_peak::<Back>(0, 0, width);
            let held = |more: usize, seen: &FxHashSet<u128>, kids: &Vec<Kid>| {
                self.held
                    + history
                    + next
                    + vec_peak::<u128>(layer.len(), layer.capacity(), 0)
                    + table_peak::<u128>(seen.len(), seen.capacity(), more)
                    + vec_peak::<Kid>(kids.len(), kids.capacity(), more)
            };
            for (j, &s) in layer.iter().enumerate() {
                // Positions with few moves among many scanned make few nodes: the clock and
                // Ctrl-C are checked every `CHECK_STATES` positions too.
                if j % CHECK_STATES == CHECK_STATES - 1
                    && let Some(why) = budget.exceeded(held(self.order.len(), &seen, &kids))
                {
                    return Err(why);
                }
                for &m in self.order {
                    let mv = &model.moves[m];
                    if s & mv.mask != mv.need {
                        continue;
                    }
                    let c = s ^ mv.mask;
                    budget.nodes += 1;
                    if budget.nodes >= check_at {
                        check_at = budget.next_check(CHECK_EVERY);
                        let more = (check_at - budget.nodes) as usize;
                        let now = held(more, &seen, &kids);
                        peak = peak.max(now);
                        if let Some(why) = budget.exceeded(now) {
                            return Err(why);
                        }
                    }
                    if !seen.insert(self.sym.map_or(c, |g| g.canon(c))) {
                        continue;
                    }
                    obs.advance(depth + 1, m, c);
                    kids.push((self.spread(c), c, j as u32, m as u32));
                }
                if kids.len() >= 4 * width {
                    keep_least(&mut kids, width);
                }
            }
            if kids.is_empty() {
                return Ok((false, peak));
            }
            keep_least(&mut kids, width);
            kids.sort_unstable_by_key(rank);
            drop(seen);
            layer = kids.iter().map(|k| k.1).collect();
            let back: Vec<Back> = kids.iter().map(|k| (k.2, k.3)).collect();
            history += vec_peak::<Back>(back.len(), back.capacity(), 0);
            backs.push(back);
            if layer[0].count_ones() < best.1.count_ones()
                && let Some(j) = layer.iter().position(|&s| s & at == at)
            {
                *best = self.ending(self.walk(&backs, j));
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

    /// The moves to the `j`th position of the last layer of `backs`.
    fn walk(&self, backs: &[Vec<Back>], mut j: usize) -> Vec<usize> {
        let mut path = Vec::with_capacity(backs.len());
        for back in backs[1..].iter().rev() {
            let (parent, m) = back[j];
            path.push(m as usize);
            j = parent as usize;
        }
        path.reverse();
        path
    }

    /// `path` and the position it ends on.
    fn ending(&self, path: Vec<usize>) -> Line {
        let end = path
            .iter()
            .fold(self.model.start, |s, &m| s ^ self.model.moves[m].mask);
        (path, end)
    }
}

/// A child's rank: least spread first, ties by its parent's rank, then by its move.
fn rank(k: &Kid) -> (i64, u32, u32) {
    (k.0, k.2, k.3)
}

/// Keeps the `width` children of least [`rank`] (in no particular order).
fn keep_least(kids: &mut Vec<Kid>, width: usize) {
    if kids.len() > width {
        kids.select_nth_unstable_by_key(width, rank);
        kids.truncate(width);
    }
}
