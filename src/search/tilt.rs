//! Breadth-first search for tilt families: the fewest tilts that drop every marble home (or,
//! on a board with exits, that take every slider off the board and drop no blocker).

use super::{Budget, GaveUp, Verdict, table_peak, vec_peak};
use crate::model::{EXIT, NO_CELL, NONE, TiltCell, TiltModel};
use crate::spec::Piece;
use rustc_hash::FxHashSet;

#[derive(Debug, Clone)]
pub struct TiltResult {
    pub verdict: Verdict,
    /// Direction indices, first tilt first.
    pub path: Vec<usize>,
    /// Marble positions before each tilt and after the last (`NO_CELL` = in its hole).
    pub states: Vec<Vec<TiltCell>>,
    pub nodes: u64,
    pub memory: u64,
}

/// Tilts the board in direction `d`: returns the marbles' new cells, or `None` when a marble
/// drops into a hole that is not its own or a blocker into an exit (the game is lost, so that
/// tilt is never taken). A slider that rolls into an exit leaves the board (`NO_CELL`).
///
/// `occ` notes which marble is on each cell: all `NONE` when called, and left so. Only the
/// marbles are visited, nearest the side first (a 40 × 40 board has 1,600 cells and a
/// handful of marbles).
pub fn roll(model: &TiltModel, d: usize, pos: &[TiltCell], occ: &mut [u8]) -> Option<Vec<TiltCell>> {
    let mut out = Vec::with_capacity(pos.len());
    roll_into(model, d, pos, occ, &mut out).then_some(out)
}

/// [`roll`] into `out`, allocating nothing: false when the tilt loses the game.
fn roll_into(model: &TiltModel, d: usize, pos: &[TiltCell], occ: &mut [u8], out: &mut Vec<TiltCell>) -> bool {
    let dir = &model.dirs[d];
    let mut turns = [(0, 0); crate::limits::MAX_TILT_MARBLES];
    let mut moving = 0;
    for (k, &p) in pos.iter().enumerate() {
        if p != NO_CELL {
            occ[p as usize] = k as u8;
            turns[moving] = (dir.rank[p as usize], k);
            moving += 1;
        }
    }
    let turns = &mut turns[..moving];
    turns.sort_unstable();
    out.clear();
    out.extend_from_slice(pos);
    let rolled = rolled(model, dir, turns, pos, out, occ);
    for &p in pos.iter().chain(out.iter()) {
        if p != NO_CELL {
            occ[p as usize] = NONE;
        }
    }
    rolled
}

/// Rolls the marbles of `turns` in turn from `pos` into `out`, `occ` noting where each is;
/// false when the tilt loses the game.
fn rolled(
    model: &TiltModel,
    dir: &crate::model::TiltDir,
    turns: &[(TiltCell, usize)],
    pos: &[TiltCell],
    out: &mut [TiltCell],
    occ: &mut [u8],
) -> bool {
    for &(_, k) in turns {
        let cell = pos[k];
        occ[cell as usize] = NONE;
        let mut c = cell;
        let mut dropped = false;
        // Compiled links never cycle (see `model::compile`); the bound makes sure of it.
        for _ in 0..dir.next.len() {
            let n = dir.next[c as usize];
            if n == NO_CELL || occ[n as usize] != NONE {
                break;
            }
            c = n;
            let h = model.hole_at[c as usize];
            if h == EXIT {
                if model.pieces[k] == Piece::Blocker {
                    return false;
                }
                dropped = true;
                break;
            }
            // A hole is empty until its own marble has dropped into it.
            if h != NONE && out[h as usize] != NO_CELL {
                if h as usize != k {
                    return false;
                }
                dropped = true;
                break;
            }
        }
        if dropped {
            out[k] = NO_CELL;
        } else {
            occ[c as usize] = k as u8;
            out[k] = c;
        }
    }
    true
}

/// Finds the fewest tilts that put every marble in its hole.
pub fn solve(model: &TiltModel, budget: &mut Budget) -> TiltResult {
    if let Some(why) = &model.doomed {
        return TiltResult {
            verdict: Verdict::Unsolvable(Some(why.clone())),
            path: vec![],
            states: vec![model.start.clone()],
            nodes: budget.nodes,
            memory: 0,
        };
    }
    // A state's marbles packed `bits` to a cell, all ones for home: a word holds 5 marbles of
    // a 40 × 40 board (11 bits a cell), 8 of a 15 × 15 one.
    let bits = (model.geo.cells.len() + 1).next_power_of_two().trailing_zeros();
    match model.start.len() * bits as usize {
        0..=64 => search::<u64>(model, budget, bits),
        65..=128 => search::<u128>(model, budget, bits),
        _ => search::<Box<[TiltCell]>>(model, budget, bits),
    }
}

/// How the search keeps a state: packed into a word when its marbles' cells fit, boxed
/// otherwise.
trait Key: Clone + Eq + std::hash::Hash {
    /// The bytes each copy of a state holds beside the tables (a box's allocation) for
    /// `marbles` marbles.
    fn held(marbles: usize) -> u64;
    fn pack(s: &[TiltCell], bits: u32) -> Self;
    /// The state's `marbles` cells, into `out`.
    fn unpack(&self, bits: u32, marbles: usize, out: &mut Vec<TiltCell>);
}

macro_rules! packed_key {
    ($word:ty) => {
        impl Key for $word {
            fn held(_: usize) -> u64 {
                0
            }
            fn pack(s: &[TiltCell], bits: u32) -> Self {
                let home: $word = (1 << bits) - 1;
                s.iter().rev().fold(0, |acc, &c| {
                    acc << bits | if c == NO_CELL { home } else { <$word>::from(c) }
                })
            }
            fn unpack(&self, bits: u32, marbles: usize, out: &mut Vec<TiltCell>) {
                let home: $word = (1 << bits) - 1;
                out.clear();
                out.extend(
                    (0..marbles).map(|k| match self >> (k as u32 * bits) & home {
                        c if c == home => NO_CELL,
                        c => c as TiltCell,
                    }),
                );
            }
        }
    };
}
packed_key!(u64);
packed_key!(u128);

impl Key for Box<[TiltCell]> {
    // Boxed: its bytes rounded up to the allocator's 16, and a 16-byte header.
    fn held(marbles: usize) -> u64 {
        ((marbles * std::mem::size_of::<TiltCell>()).div_ceil(16).max(1) * 16 + 16) as u64
    }
    fn pack(s: &[TiltCell], _: u32) -> Self {
        s.into()
    }
    fn unpack(&self, _: u32, _: usize, out: &mut Vec<TiltCell>) {
        out.clear();
        out.extend_from_slice(self);
    }
}

/// The breadth-first search of [`solve`], each state kept as a `K`.
fn search<K: Key>(model: &TiltModel, budget: &mut Budget, bits: u32) -> TiltResult {
    let finish = |verdict, path: Vec<usize>, states, budget: &Budget, memory| TiltResult {
        verdict,
        path,
        states,
        nodes: budget.nodes,
        memory,
    };
    let marbles = model.start.len();
    let home = |s: &[TiltCell]| model.is_home(s);
    // Sliders are alike, and blockers: a state holds each kind's cells in order, so that two
    // boards told apart only by which slider is where are one state (the count of positions
    // an unsolvable verdict gives counted 10 where the board has 6).
    let alike: Vec<Vec<usize>> = [Piece::Slider, Piece::Blocker]
        .map(|kind| {
            (0..marbles)
                .filter(|&k| model.pieces[k] == kind)
                .collect::<Vec<usize>>()
        })
        .into_iter()
        .filter(|group| group.len() > 1)
        .collect();
    let mut cells = Vec::new();
    let mut in_order = |s: &mut Vec<TiltCell>| {
        for group in &alike {
            cells.clear();
            cells.extend(group.iter().map(|&k| s[k]));
            cells.sort_unstable();
            for (&k, &c) in group.iter().zip(&cells) {
                s[k] = c;
            }
        }
    };
    // Every state seen, with the index of the state it came from and the tilt taken.
    let mut start = model.start.clone();
    in_order(&mut start);
    let first = K::pack(&start, bits);
    let mut states: Vec<(K, u32, u32)> = vec![(first.clone(), u32::MAX, 0)];
    let mut seen: FxHashSet<K> = FxHashSet::default();
    seen.insert(first);
    let mut occ = vec![NONE; model.geo.cells.len()];
    let (mut cur, mut next) = (Vec::with_capacity(marbles), Vec::with_capacity(marbles));
    let mut head = 0;
    let mut goal = home(&model.start).then_some(0);
    // Each state is kept twice (the queue and the set).
    let held = K::held(marbles) * 2;
    // The queue and the set, as they may grow by `more` states: counted before they grow.
    let used = |seen: &FxHashSet<K>, states: &Vec<_>, more: usize| {
        table_peak::<K>(seen.len(), seen.capacity(), more)
            + vec_peak::<(K, u32, u32)>(states.len(), states.capacity(), more)
            + (states.len() + more) as u64 * held
    };
    let mut memory = 0;
    // Checked before each node is counted and looked at: a node limit of N lets it look at N.
    let mut check_at = budget.nodes;
    while goal.is_none() && head < states.len() {
        if budget.nodes >= check_at {
            check_at = budget.next_check(1024);
            // Each state expanded adds at most one state a direction.
            let more = (check_at - budget.nodes + 1) as usize * model.dirs.len();
            // What a give-up reports is the largest figure a check passed, not the one refused.
            let ahead = memory.max(used(&seen, &states, more));
            if let Some(reason) = budget.exceeded(ahead) {
                // Breadth-first: every state as near the start as the one expanded next was
                // met, and none is home, so no fewer tilts than one more can do it.
                let mut depth = 0;
                let mut i = head;
                while states[i].1 != u32::MAX {
                    depth += 1;
                    i = states[i].1 as usize;
                }
                let reason = GaveUp::no_line_yet(reason, depth + 1);
                return finish(
                    Verdict::GaveUp(reason),
                    vec![],
                    vec![model.start.clone()],
                    budget,
                    memory,
                );
            }
            memory = ahead;
        }
        budget.nodes += 1;
        states[head].0.unpack(bits, marbles, &mut cur);
        for d in 0..model.dirs.len() {
            if !roll_into(model, d, &cur, &mut occ, &mut next) {
                continue;
            }
            in_order(&mut next);
            // One hash a child: a word is copied for nothing when seen, a box only past 128 bits.
            let key = K::pack(&next, bits);
            if !seen.insert(key.clone()) {
                continue;
            }
            states.push((key, head as u32, d as u32));
            if home(&next) {
                goal = Some(states.len() - 1);
                break;
            }
        }
        head += 1;
    }
    memory = memory.max(used(&seen, &states, 0));
    let Some(mut i) = goal else {
        return finish(
            Verdict::Unsolvable(Some(super::exhausted(states.len() as u64, false, &[]))),
            vec![],
            vec![model.start.clone()],
            budget,
            memory,
        );
    };
    let unpacked = |k: &K| {
        let mut s = Vec::with_capacity(marbles);
        k.unpack(bits, marbles, &mut s);
        s
    };
    let mut path = Vec::new();
    let mut trail = vec![unpacked(&states[i].0)];
    while states[i].1 != u32::MAX {
        path.push(states[i].2 as usize);
        i = states[i].1 as usize;
        trail.push(unpacked(&states[i].0));
    }
    path.reverse();
    trail.reverse();
    finish(Verdict::Solved, path, trail, budget, memory)
}
