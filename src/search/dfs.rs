//! Depth-first search for hop families over bitboards, with a table of positions known to fail.

use super::endgame::Endgame;
use super::pagoda::Pagodas;
use super::symmetry::Symmetry;
use super::{Budget, Verdict, table_bytes};
use crate::model::HopModel;
use crate::spec::PegGoal;
use rustc_hash::FxHashSet;

/// Events a search reports as it goes, for traces. The default methods do nothing, so a
/// search without an observer compiles to the bare loop.
pub trait Observer {
    /// A move was made; `depth` is the number of moves made so far, this one included.
    fn advance(&mut self, _depth: usize, _mv: usize, _state: u128) {}
    /// `state` was reached before and is known to fail.
    fn known_failure(&mut self, _depth: usize, _mv: usize, _state: u128) {}
    /// No move from `state` leads to the goal: the search backs up one move.
    fn dead_end(&mut self, _depth: usize, _state: u128) {}
    fn goal(&mut self, _depth: usize, _state: u128) {}
    /// `state` was cut without a visit: a pagoda function or endgame table shows it cannot
    /// reach the goal.
    fn pruned(&mut self, _depth: usize, _mv: usize, _state: u128) {}
    /// The search starts again from scratch, on the reversed problem (hole and finishing cell
    /// swapped) when `reversed`; see [`super::portfolio`].
    fn restart(&mut self, _reversed: bool) {}
}

/// The observer that observes nothing.
pub struct Quiet;
impl Observer for Quiet {}

#[derive(Debug, Clone)]
pub struct HopResult {
    pub verdict: Verdict,
    /// Indices into the model's moves, first move first: the solution, or for `fewest` the
    /// way to the best position found.
    pub path: Vec<usize>,
    /// The position the path ends in.
    pub end: u128,
    pub nodes: u64,
    /// The peak estimate of the failure table's memory.
    pub memory: u64,
}

/// Positions known to fail: 64-bit keys for boards of at most 64 cells, half the memory.
enum Failed {
    Narrow(FxHashSet<u64>),
    Wide(FxHashSet<u128>),
}

impl Failed {
    fn new(narrow: bool) -> Self {
        if narrow {
            Failed::Narrow(FxHashSet::default())
        } else {
            Failed::Wide(FxHashSet::default())
        }
    }

    #[inline]
    fn insert(&mut self, s: u128) {
        match self {
            Failed::Narrow(t) => t.insert(s as u64),
            Failed::Wide(t) => t.insert(s),
        };
    }

    #[inline]
    fn contains(&self, s: u128) -> bool {
        match self {
            Failed::Narrow(t) => t.contains(&(s as u64)),
            Failed::Wide(t) => t.contains(&s),
        }
    }

    fn bytes(&self) -> u64 {
        match self {
            Failed::Narrow(t) => table_bytes::<u64>(t.capacity()),
            Failed::Wide(t) => table_bytes::<u128>(t.capacity()),
        }
    }
}

/// How often (in nodes) the budget is checked.
const CHECK_EVERY: u64 = 1 << 12;

/// What a search may use to skip positions. Symmetry and pagodas keep the first solution
/// found the same; an endgame table may find another one, sooner.
#[derive(Debug, Clone, Default)]
pub struct Pruning {
    /// Symmetries fixing the goal: the failure table holds one position per orbit.
    pub symmetry: Option<Symmetry>,
    /// Pagoda functions: a position valued below every goal position is cut.
    pub pagodas: Pagodas,
    /// After this many nodes without a solution, build an endgame table (for one-peg goals)
    /// of at most `endgame_positions` positions and decide positions with few pegs by it.
    pub endgame_after: Option<u64>,
    pub endgame_positions: usize,
}

/// The endgame table is built once a search has run this long: easy puzzles never pay for it.
pub const ENDGAME_AFTER: u64 = 1 << 20;
/// The endgame table's size: about a million positions, a few tenths of a second to build.
pub const ENDGAME_POSITIONS: usize = 1 << 20;

impl Pruning {
    /// Everything found automatically for `model`: its goal's symmetries and pagodas.
    pub fn for_model(model: &HopModel) -> Self {
        let symmetry = Symmetry::for_goal(model);
        Pruning {
            symmetry: (symmetry.order() > 1).then_some(symmetry),
            pagodas: Pagodas::find(model),
            endgame_after: Some(ENDGAME_AFTER),
            endgame_positions: ENDGAME_POSITIONS,
        }
    }
}

/// Searches `model` trying moves in `order` (indices into `model.moves`).
pub fn solve(model: &HopModel, order: &[usize], budget: &mut Budget, obs: &mut impl Observer) -> HopResult {
    solve_with(model, order, budget, obs, &Pruning::default())
}

/// [`solve`], skipping positions that `pruning` shows cannot reach the goal.
pub fn solve_with(
    model: &HopModel,
    order: &[usize],
    budget: &mut Budget,
    obs: &mut impl Observer,
    pruning: &Pruning,
) -> HopResult {
    let narrow = model.geo.cells.len() <= 64;
    let key = |s: u128| match &pruning.symmetry {
        None => s,
        Some(g) if narrow => g.canon64(s as u64) as u128,
        Some(g) => g.canon(s),
    };
    // The moves in search order, flat: the inner loop reads nothing else.
    let flat: Vec<(u128, u128)> = order
        .iter()
        .map(|&m| (model.moves[m].mask, model.moves[m].need))
        .collect();
    let pagodas = if model.goal.pegs == PegGoal::Fewest {
        None
    } else {
        Some(&pruning.pagodas).filter(|p| !p.is_empty())
    };
    let target = model.target_pegs();
    let fewest = model.goal.pegs == PegGoal::Fewest;
    let start = model.start;
    let mut best = (start, Vec::new());
    let eligible = |s: u128| model.goal.at.is_none_or(|a| s >> a & 1 == 1);
    let done = |verdict, path: Vec<usize>, end, budget: &Budget, memory| HopResult {
        verdict,
        path,
        end,
        nodes: budget.nodes,
        memory,
    };
    if model.is_goal(start, target) {
        obs.goal(0, start);
        return done(super::Verdict::Solved, Vec::new(), start, budget, 0);
    }
    let mut failed = Failed::new(narrow);
    // Each frame: a position and the next index into `order` to try from it.
    let mut stack: Vec<(u128, usize)> = vec![(start, 0)];
    let mut path: Vec<usize> = Vec::new();
    let mut memory = 0;
    let endgame_after = pruning.endgame_after.filter(|_| !fewest);
    let mut endgame: Option<Endgame> = endgame_after
        .filter(|&n| n == 0)
        .and_then(|_| Endgame::build(model, pruning.endgame_positions));
    while let Some(&mut (state, ref mut next)) = stack.last_mut() {
        let found = flat[*next..]
            .iter()
            .position(|&(mask, need)| state & mask == need);
        let Some(k) = found else {
            obs.dead_end(path.len(), state);
            failed.insert(key(state));
            stack.pop();
            path.pop();
            continue;
        };
        let m = order[*next + k];
        *next += k + 1;
        let ns = state ^ flat[*next - 1].0;
        budget.nodes += 1;
        if budget.nodes.is_multiple_of(CHECK_EVERY) {
            if endgame.is_none() && endgame_after.is_some_and(|n| budget.nodes >= n) {
                endgame = Endgame::build(model, pruning.endgame_positions);
            }
            let table = endgame.as_ref().map_or(0, |e| table_bytes::<u128>(e.positions()));
            memory = memory.max(failed.bytes() + (stack.capacity() * 32) as u64 + table);
            if let Some(reason) = budget.exceeded(memory) {
                let (end, best_path) = if fewest { best } else { (state, path) };
                return done(Verdict::GaveUp(reason), best_path, end, budget, memory);
            }
        }
        if failed.contains(key(ns)) {
            obs.known_failure(path.len() + 1, m, ns);
            continue;
        }
        if pagodas.is_some_and(|p| p.cuts(ns)) {
            obs.pruned(path.len() + 1, m, ns);
            continue;
        }
        if let Some(e) = endgame.as_ref().filter(|e| ns.count_ones() <= e.max_pegs()) {
            if !e.wins(ns) {
                obs.pruned(path.len() + 1, m, ns);
                continue;
            }
            let mut end = ns;
            for i in std::iter::once(m).chain(e.finish(model, order, ns)) {
                end = if i == m { ns } else { end ^ model.moves[i].mask };
                path.push(i);
                obs.advance(path.len(), i, end);
            }
            obs.goal(path.len(), end);
            return done(Verdict::Solved, path, end, budget, memory);
        }
        path.push(m);
        obs.advance(path.len(), m, ns);
        let pegs = ns.count_ones();
        if eligible(ns) && pegs < best.0.count_ones() {
            best = (ns, path.clone());
        }
        if model.is_goal(ns, target) {
            obs.goal(path.len(), ns);
            return done(Verdict::Solved, path, ns, budget, memory);
        }
        if pegs <= target {
            // Every move removes a peg: below the target there is no way back up.
            obs.dead_end(path.len(), ns);
            failed.insert(key(ns));
            path.pop();
            continue;
        }
        stack.push((ns, 0));
    }
    memory = memory.max(failed.bytes());
    if fewest && eligible(best.0) {
        let (end, p) = best;
        return done(Verdict::Solved, p, end, budget, memory);
    }
    done(Verdict::Unsolvable(None), Vec::new(), start, budget, memory)
}
