//! Which search runs: the one place that looks at a model and its goal and picks the searches,
//! in order. `solve` asks it once a puzzle; everything below it is a search or a table.
//!
//! | model and goal | what runs |
//! |---|---|
//! | tilt | [`tilt::solve`]: breadth-first over tilts |
//! | pieces of kinds, rewrite moves | [`rewrite::solve`]: breadth-first for `moves:`, else depth-first with a visited set |
//! | sliding robots | [`slide::solve`]: iterative deepening on a lower bound, the fewest slides |
//! | hop, `pegs: fewest` and `moves: fewest`, every jump taking a peg | `fewest` (below), then [`fewest_moves::solve`] to that many pegs |
//! | hop, `moves: fewest` | [`fewest_moves::solve`]: by layers of peg count, or breadth-first by chains where a jump does not take exactly one peg |
//! | hop, more goal pegs than the start has, or a goal the position classes or a pagoda function refute | nothing: unsolvable, with the reason |
//! | hop, `reach:` a cell | `reach`: [`dfs::solve_with`], symmetry and pagodas only (see `reach` below) |
//! | hop, `pegs: fewest` and nothing else, at most [`dense::MAX_CELLS`] cells, no node limit | `fewest`: [`dense::fewest`]'s exact values after the floor |
//! | hop, `pegs: fewest` | `fewest`: see below |
//! | hop, 1 or 2 pegs anywhere (no cell, no goal board) | `count`: [`portfolio`], beams towards the finishes, [`portfolio`] again |
//! | hop, any other goal | [`portfolio`]: depth-first and guided turns on the problem and its reverse |
//!
//! **`fewest`.** A plain depth-first search for "fewest" must exhaust the whole game to prove
//! its answer, which on a board like Diamond 41 never ends. Instead: position classes give a
//! floor ([`floor`]: the least `k` for which some `k`-peg position shares the start's class,
//! or meets the goal cell); a capped fewest search gives a first answer `b` and its moves;
//! beams ([`beam::probe`]) towards an endgame table of the `k`-peg finishes, from the floor
//! up, may find a better one fast (a finish at the floor is proven at once); then for `k` from
//! the floor up to `b - 1`, an exact "leave `k` pegs" search ([`portfolio`], with symmetry and
//! endgame tables) either finds a solution — the answer, proven, since every count below it
//! failed or was ruled out — or proves `k` impossible. If a limit or Ctrl-C stops it first,
//! the best found so far is returned as gave-up, with the floor proven on the way (the class
//! floor, or one above the last count proven impossible): "best found so far 3 pegs, at
//! least 2".
//!
//! On a small board ([`dense::fits`]: at most 25 cells, a 5×5 board's table being 32 MiB) the
//! floor is followed instead by [`dense::fewest`]: the exact fewest pegs of every position on
//! the way, kept from one board to the next of the same shape, and the first line in the move
//! order that keeps the start's. On 25,000 generated 5×5 boards it looks at 35 M children where
//! the searches above spent 270 M nodes, and answers with the same moves. Not under a node
//! limit: a board's nodes there depend on what earlier boards left in the shared table.

use super::dfs::{self, HopResult, Observer, Pruning};
use super::endgame::goal_positions;
use super::invariants::Invariants;
use super::pagoda::Pagodas;
use super::symmetry::Symmetry;
use super::{Budget, GaveUp, Verdict, beam, dense, fewest_moves, portfolio, rewrite, slide, tilt};
use crate::model::{HopModel, Model};
use crate::spec::PegGoal;

/// What a search found: its verdict, its moves (hop indices or tilt directions, first first)
/// and the peak of its tables' memory.
#[derive(Debug)]
pub struct Found {
    pub verdict: Verdict,
    pub path: Vec<usize>,
    pub memory: u64,
}

/// Solves `model` under `budget`; `order` gives a hop model's move order (indices into its
/// moves), reporting hop search events to `obs`.
pub fn solve(
    model: &Model,
    order: impl FnOnce(&HopModel) -> Vec<usize>,
    budget: &mut Budget,
    obs: &mut impl Observer,
) -> Found {
    let (verdict, path, memory) = match model {
        // A start that already meets a goal of a peg count is its answer, under any limit
        // (at `--max-nodes 0` it gave up, where the other families say it is solved).
        Model::Hop(m) if matches!(m.goal.pegs, PegGoal::Count(k) if m.is_goal(m.start, k)) => {
            (Verdict::Solved, Vec::new(), 0)
        }
        Model::Hop(m) => {
            let r = match m.goal.moves {
                Some(goal)
                    if m.goal.pegs == PegGoal::Fewest && m.moves.iter().all(|j| !j.over.is_empty()) =>
                {
                    fewest_pegs_in_fewest_moves(m, goal, order, budget, obs)
                }
                Some(goal) => fewest_moves::solve(m, goal, budget),
                None => hop(m, &order(m), budget, obs),
            };
            (r.verdict, r.path, r.memory)
        }
        Model::Tilt(m) => {
            let r = tilt::solve(m, budget);
            (r.verdict, r.path, r.memory)
        }
        Model::Rewrite(m) => {
            let r = rewrite::solve(m, budget);
            (r.verdict, r.path, r.memory)
        }
        Model::Slide(m) => {
            let r = slide::solve(m, budget);
            (r.verdict, r.path, r.memory)
        }
    };
    Found {
        verdict,
        path,
        memory,
    }
}

/// Whether no two holes of `geo` are neighbours where they are pictured: holes drawn further
/// apart than the layout's step (a board that fits no jump because of its size is drawn
/// right, and is not asked about its spacing).
fn spaced_out(geo: &crate::model::Geometry) -> bool {
    // Pictured in half steps across: a square's neighbours two across or one down, a
    // triangle's two across or one across and one down.
    let near: &[[i64; 2]] = match geo.layout {
        crate::lattice::Layout::Square => &[[2, 0], [0, 1]],
        crate::lattice::Layout::Triangle => &[[2, 0], [1, 1], [-1, 1]],
    };
    let at: rustc_hash::FxHashSet<[i64; 2]> = geo.pictured.iter().copied().collect();
    !(geo.pictured.iter()).any(|p| near.iter().any(|d| at.contains(&[p[0] + d[0], p[1] + d[1]])))
}

/// `pegs: fewest` in the fewest moves, every jump taking a peg (the fewest-pegs searches stand
/// on each jump leaving fewer): the fewest pegs first (`fewest`, below), then the
/// fewest moves to that many (a goal whose positions can be listed, searched from both ends;
/// layering the whole game for an unknown count took Diamond 41 past any limit). A limit that
/// stops the first search returns its best line and pegs floor; one that stops the second, its
/// best line (the first search's, if it found none of its own and it meets a `moves: N`) and
/// moves floor.
fn fewest_pegs_in_fewest_moves(
    m: &HopModel,
    goal: crate::spec::MoveGoal,
    order: impl FnOnce(&HopModel) -> Vec<usize>,
    budget: &mut Budget,
    obs: &mut impl Observer,
) -> HopResult {
    let mut pegs = m.clone();
    pegs.goal.moves = None;
    let mut first = fewest(&pegs, &order(&pegs), budget, obs);
    let cap = goal.most();
    let moves = fewest_moves::count_moves(m, &first.path);
    if first.verdict != Verdict::Solved {
        // A best line past a `moves: N` meets no goal: the start is the best so far.
        if moves > cap {
            if let Verdict::GaveUp(GaveUp::Unproven { best, .. }) = &mut first.verdict {
                *best = best_so_far(m, m.start);
            }
            first.path.clear();
            first.end = m.start;
        }
        return first;
    }
    let k = first.end.count_ones();
    let mut count = m.clone();
    count.goal.pegs = PegGoal::Count(k);
    if count.is_goal(count.start, k) {
        return HopResult {
            path: Vec::new(),
            end: count.start,
            ..first
        };
    }
    let mut r = fewest_moves::solve(&count, goal, budget);
    if let Verdict::GaveUp(GaveUp::UnprovenMoves {
        stop,
        best: None,
        least,
        ..
    }) = &r.verdict
        && moves <= cap
    {
        r.verdict = fewest_moves::stopped_with((**stop).clone(), Some(moves), *least);
        r.path = first.path;
        r.end = first.end;
    }
    // A give-up in the moves says the fewest pegs proven before them.
    if let Verdict::GaveUp(GaveUp::UnprovenMoves { pegs, .. }) = &mut r.verdict {
        *pegs = Some(k);
    }
    r.memory = r.memory.max(first.memory);
    r
}

/// Refutes the goal by position classes when it can, else searches with every pruning found.
pub fn hop(m: &HopModel, order: &[usize], budget: &mut Budget, obs: &mut impl Observer) -> HopResult {
    if m.goal.reach {
        return reach(m, order, budget, obs);
    }
    if m.goal.pegs == PegGoal::Fewest {
        return fewest(m, order, budget, obs);
    }
    // A board whose holes no jump joins (drawn two spaces apart) is said to be one: its
    // position classes would refute it in words that hide the mistake.
    if m.moves.is_empty() && !m.is_goal(m.start, m.target_pegs()) {
        let why = match spaced_out(&m.geo) {
            true => {
                "the rules make no move on this board: no peg can ever move (are its holes drawn more than one space apart?)"
            }
            false => {
                "the rules make no move on this board: no peg can ever move (no jump of the family fits its holes)"
            }
        };
        return unmoved(m, Verdict::Unsolvable(Some(why.into())), budget);
    }
    let more = m
        .goal
        .pattern
        .filter(|p| p.count_ones() > m.start.count_ones())
        .map(|p| {
            format!(
                "the goal board has {} pegs but the start only {}: every hop takes pegs away",
                p.count_ones(),
                m.start.count_ones()
            )
        });
    let verdict = match more.map_or_else(|| refutation(m, budget), |why| Ok(Some(why))) {
        Ok(why) => why.map(|why| Verdict::Unsolvable(Some(why))),
        Err(why) => Some(Verdict::GaveUp(why)),
    };
    if let Some(verdict) = verdict {
        return unmoved(m, verdict, budget);
    }
    if matches!(m.goal.pegs, PegGoal::Count(1..=2)) && m.goal_cells() == 0 {
        return count(m, order, budget, obs);
    }
    portfolio::solve(m, order, budget, obs, portfolio::FIRST_CAP)
}

/// Why no search is needed: the position classes, then a pagoda function, refuting the goal
/// (or the limit that stopped finding them).
fn refutation(m: &HopModel, budget: &Budget) -> Result<Option<String>, GaveUp> {
    if let Some(why) = Invariants::find_within(m, budget)?.refute(m) {
        return Ok(Some(why));
    }
    Ok(Pagodas::find_within(m, budget)?.refute(m.start))
}

/// A verdict reached without a move: the start, and the nodes spent so far.
fn unmoved(model: &HopModel, verdict: Verdict, budget: &Budget) -> HopResult {
    HopResult {
        verdict,
        path: Vec::new(),
        end: model.start,
        nodes: budget.nodes,
        memory: 0,
    }
}

/// Solves a goal of reaching a cell (`goal: reach:`, [`crate::model::HopGoal::reach`]): the plain
/// depth-first search, whose goal test is [`HopModel::is_goal`], with only the prunings that
/// hold for it.
///
/// - Symmetry: the group fixing the cell ([`Symmetry::for_goal_within`] fixes `goal.at`) maps
///   positions with a peg there onto positions with a peg there, so a position fails exactly
///   when its images do: the failure table may keep one per orbit.
/// - Pagodas ([`super::pagoda`]) are kept, and Conway's own joins them
///   ([`Pagodas::towards`]): they are priced at one peg on the cell, the goal
///   `goal.pegs` and `goal.at` say, and since no weight is negative every position with a peg
///   on the cell weighs at least that; a position weighing less can never reach one, as no
///   move adds weight.
/// - Position classes are not used: they refute a single peg on the cell, not a peg there
///   among others, so they would call reachable cells unsolvable.
/// - Endgame and finish tables and beams are not used: they are tables and searches of
///   positions with a goal's peg count.
fn reach(model: &HopModel, order: &[usize], budget: &mut Budget, obs: &mut impl Observer) -> HopResult {
    let found = Symmetry::for_goal_within(model, budget)
        .and_then(|sym| Ok((sym, Pagodas::find_within(model, budget)?)));
    match found {
        Ok((symmetry, mut pagodas)) => {
            let conway = model.goal.at.and_then(|at| Pagodas::towards(model, at));
            pagodas.0.extend(conway);
            if let Some(why) = pagodas.refute(model.start) {
                return unmoved(model, Verdict::Unsolvable(Some(why)), budget);
            }
            let pruning = Pruning {
                symmetry: (symmetry.order() > 1).then_some(symmetry),
                pagodas,
                ..Pruning::default()
            };
            dfs::solve_with(model, order, budget, obs, &pruning)
        }
        Err(why) => unmoved(model, Verdict::GaveUp(why), budget),
    }
}

/// Solves a goal of 1 or 2 pegs anywhere (no cell, no goal board): the usual searches
/// ([`portfolio`]) for their first [`portfolio::FIRST_CAP`] nodes, so that easy puzzles keep
/// their first solution; then [`beam::probe`]'s beams towards the table of the goal's finishes,
/// which leave 2 pegs on Diamond 41 where depth-first search never did (the portfolio's own
/// beams run only before its reversed turns, on fixed finishes); then the usual searches
/// again with the rest of the budget, to find or refute what the beams missed.
fn count(model: &HopModel, order: &[usize], budget: &mut Budget, obs: &mut impl Observer) -> HopResult {
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
    crate::process::release_freed();
    let mut line = (Vec::new(), model.start);
    let found = Symmetry::for_goal_within(model, budget).and_then(|sym| {
        let sym = (sym.order() > 1).then_some(sym);
        beam::probe(model, order, k, sym.as_ref(), budget, obs, 0, &mut line)
    });
    match found {
        Err(why) => unmoved(model, Verdict::GaveUp(why), budget),
        Ok(Some(memory)) if model.is_goal(line.1, k) => HopResult {
            verdict: Verdict::Solved,
            path: line.0,
            end: line.1,
            nodes: budget.nodes,
            memory,
        },
        Ok(_) => {
            crate::process::release_freed();
            obs.restart(false);
            portfolio::solve(model, order, budget, obs, first)
        }
    }
}

/// Nodes the first, plain fewest search may spend before the exact searches start.
const FEWEST_CAP: u64 = 1 << 20;

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

/// A `pegs: fewest` search stopped by `why` before any move: the start is its best so far,
/// `low` pegs at least.
fn start_is_best(model: &HopModel, why: GaveUp, low: u32) -> Verdict {
    Verdict::GaveUp(GaveUp::Unproven {
        stop: Box::new(why),
        best: best_so_far(model, model.start),
        floor: Some(low),
        known: None,
        pieces: false,
    })
}

/// The pegs of `end` as a `fewest` search's best so far: none where it holds no peg on the
/// goal's `at:` cell (the start, reported as "best found so far 4 pegs", was no answer).
fn best_so_far(model: &HopModel, end: u128) -> Option<u32> {
    let holds = model.goal.at.is_none_or(|c| end >> c & 1 == 1);
    holds.then(|| end.count_ones())
}

/// Solves a `pegs: fewest` model on a small board by [`dense`]'s table, when it [`dense::fits`]
/// and no node limit is set (a table filled by earlier puzzles saves nodes, so under a node
/// limit it could decide whether a puzzle finishes); `None` for the other searches.
fn dense(
    model: &HopModel,
    order: &[usize],
    low: u32,
    budget: &mut Budget,
    obs: &mut impl Observer,
) -> Option<HopResult> {
    if !dense::fits(model) || budget.nodes_left().is_some() {
        return None;
    }
    let found = dense::fewest(model, order, low, budget, obs);
    let (verdict, path, end) = match found.line {
        Ok((path, end)) => (Verdict::Solved, path, end),
        Err(stop) => (start_is_best(model, stop, low), Vec::new(), model.start),
    };
    Some(HopResult {
        verdict,
        path,
        end,
        nodes: budget.nodes,
        memory: found.memory,
    })
}

/// Solves a `pegs: fewest` model: a floor from position classes, a quick first answer, then
/// exact searches for each peg count below it (see `fewest` in the module notes).
fn fewest(model: &HopModel, order: &[usize], budget: &mut Budget, obs: &mut impl Observer) -> HopResult {
    // Stopped before its first move: the start is the best found, and a peg stays.
    let low = match floor(model, budget) {
        Ok(low) => low,
        Err(why) => {
            let verdict = start_is_best(model, why, model.start.count_ones().min(1));
            return unmoved(model, verdict, budget);
        }
    };
    if let Some(r) = dense(model, order, low, budget, obs) {
        return r;
    }
    let mut plain = match Pruning::for_model_within(model, budget) {
        Ok(plain) => plain,
        Err(why) => return unmoved(model, start_is_best(model, why, low), budget),
    };
    plain.floor = Some(low);
    let mut turn = budget.capped(FEWEST_CAP);
    let mut best = dfs::solve_with(model, order, &mut turn, obs, &plain);
    budget.nodes = turn.nodes;
    best.nodes = budget.nodes;
    let mut why = (low > 1).then(|| {
        format!(
            "position class: no {}-peg position shares the start's class",
            low - 1
        )
    });
    // The fewest pegs proven possible at best: the class floor, then one above each count
    // the exact searches prove impossible.
    let mut at_least = low;
    let unproven = |stop: &GaveUp, end: u128, at_least: u32, known: &Option<String>| {
        Verdict::GaveUp(GaveUp::Unproven {
            stop: Box::new(stop.clone()),
            best: best_so_far(model, end),
            floor: Some(at_least),
            known: known.as_deref().map(Box::from),
            pieces: false,
        })
    };
    match &best.verdict {
        // Exhausted, or reached the floor: proven.
        Verdict::Solved | Verdict::Unsolvable(_) => return best,
        Verdict::GaveUp(stop) => {
            if budget.exceeded(best.memory).is_some() {
                best.verdict = unproven(stop, best.end, at_least, &why);
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
        crate::process::release_freed();
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
        best.verdict = unproven(&stop, best.end, at_least, &why);
        return best;
    }
    best.nodes = budget.nodes;
    let proven_below = |k: u32| format!("{k} pegs proven impossible");
    for k in low..reached {
        crate::process::release_freed();
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
            Verdict::Unsolvable(_) => {
                why = Some(proven_below(k));
                at_least = k + 1;
            }
            Verdict::GaveUp(stop) => {
                best.verdict = unproven(&stop, best.end, at_least, &why);
                return best;
            }
        }
    }
    // Every count below the one reached is impossible.
    best.verdict = Verdict::Solved;
    best
}
