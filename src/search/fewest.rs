//! The fewest pegs that can be left: a floor from position classes, a quick first answer,
//! then exact searches for each peg count below it.
//!
//! A plain depth-first search for "fewest" must exhaust the whole game to prove its answer,
//! which on a board like Diamond 41 never ends. Instead: position classes give a floor (the
//! least `k` for which some `k`-peg position shares the start's class, or meets the goal cell);
//! a capped fewest search gives a first answer `b` and its moves; beams ([`super::beam`])
//! towards an endgame table of the `k`-peg finishes, from the floor up, may find a better one
//! fast (a finish at the floor is proven at once); then for `k` from the floor up to `b - 1`,
//! an exact "leave `k` pegs" search (with symmetry and endgame tables) either finds a solution
//! — the answer, proven, since every count below it failed or was ruled out — or proves `k`
//! impossible. If a limit or Ctrl-C stops it first, the best found so far is returned as
//! gave-up, with the reason saying it is not proven optimal.

use super::dfs::{self, HopResult, Observer, Pruning};
use super::endgame::goal_positions;
use super::invariants::Invariants;
use super::{Budget, GaveUp, Verdict, beam, portfolio};
use crate::model::HopModel;
use crate::spec::PegGoal;

/// Nodes the first, plain fewest search may spend before the exact searches start.
pub const FIRST_CAP: u64 = 1 << 20;

/// The least peg count the start's position class allows (1, 2, or else 3 as a bound),
/// found under `budget`'s limits.
pub fn floor(model: &HopModel, budget: &Budget) -> Result<u32, GaveUp> {
    let inv = Invariants::find_within(model, budget)?;
    let class = inv.class(model.start);
    Ok((1..=2)
        .find(|&k| goal_positions(model, k).any(|s| inv.class(s) == class))
        .unwrap_or(3)
        .max(u32::from(model.goal.at.is_some())))
}

/// Solves a `pegs: fewest` model; see the module notes.
pub fn solve(model: &HopModel, order: &[usize], budget: &mut Budget, obs: &mut impl Observer) -> HopResult {
    let found = floor(model, budget).and_then(|low| Ok((low, Pruning::for_model_within(model, budget)?)));
    let (low, mut plain) = match found {
        Ok(found) => found,
        Err(why) => {
            return HopResult {
                verdict: Verdict::GaveUp(why),
                path: Vec::new(),
                end: model.start,
                nodes: budget.nodes,
                memory: 0,
            };
        }
    };
    plain.floor = Some(low);
    let mut turn = budget.capped(FIRST_CAP);
    let mut best = dfs::solve_with(model, order, &mut turn, obs, &plain);
    budget.nodes = turn.nodes;
    best.nodes = budget.nodes;
    let reached = best.end.count_ones();
    let mut why = (low > 1).then(|| {
        format!(
            "position class: no {}-peg position shares the start's class",
            low - 1
        )
    });
    let unproven = |stop: &GaveUp, best: u32, known: &Option<String>| {
        Verdict::GaveUp(GaveUp::Unproven {
            stop: Box::new(stop.clone()),
            best,
            known: known.clone(),
        })
    };
    match &best.verdict {
        // Exhausted, or reached the floor: proven.
        Verdict::Solved | Verdict::Unsolvable(_) => return best,
        Verdict::GaveUp(stop) => {
            if budget.exceeded(best.memory).is_some() {
                best.verdict = unproven(stop, reached, &why);
                return best;
            }
        }
    }
    // Beams may find a better answer than the capped search, from the floor up: a finish at
    // the floor needs no exact search.
    let mut line = (std::mem::take(&mut best.path), best.end);
    let mut k = low;
    let stopped = loop {
        if k >= line.1.count_ones() {
            break None;
        }
        super::release_freed();
        let sym = plain.symmetry.as_ref();
        match beam::probe(model, order, k, sym, budget, obs, 0, &mut line) {
            Err(stop) => break Some(stop),
            // No table for this many pegs, nor for more.
            Ok(None) => break None,
            Ok(Some(bytes)) => {
                best.memory = best.memory.max(bytes);
                k += 1;
            }
        }
    };
    (best.path, best.end) = line;
    let reached = best.end.count_ones();
    if let Some(stop) = stopped {
        best.nodes = budget.nodes;
        best.verdict = unproven(&stop, reached, &why);
        return best;
    }
    best.nodes = budget.nodes;
    let proven_below = |k: u32| format!("{k} pegs proven impossible");
    for k in low..reached {
        super::release_freed();
        let mut exact = model.clone();
        exact.goal.pegs = PegGoal::Count(k);
        let r = portfolio::solve(&exact, order, budget, obs, portfolio::FIRST_CAP);
        best.nodes = budget.nodes;
        best.memory = best.memory.max(r.memory);
        match r.verdict {
            Verdict::Solved => {
                return HopResult {
                    nodes: budget.nodes,
                    ..r
                };
            }
            Verdict::Unsolvable(_) => why = Some(proven_below(k)),
            Verdict::GaveUp(stop) => {
                best.verdict = unproven(&stop, reached, &why);
                return best;
            }
        }
    }
    // Every count below the one reached is impossible.
    best.verdict = Verdict::Solved;
    best
}
