//! Pagoda functions constant on symmetry orbits, with negative weights allowed, picked by
//! how many positions of a sample they prove unable to reach a target set.
//!
//! A weighting `w` of the cells is a pagoda when no hop raises the weight of the pegs: the
//! cells a hop fills weigh at most the cells it empties. A position weighing less than every
//! target then cannot reach one. Weights constant on the orbits of a symmetry group give
//! every image of a position the same weight, so a canonical representative can be judged
//! by its own. Each orbit's weight is tried from `LOW` to `HIGH`: few enough orbits (the
//! English and French boards have 7 and 8) make that a small exhaustive search.

use super::{Budget, GaveUp};
use crate::model::HopModel;
use rustc_hash::{FxHashMap, FxHashSet};

/// Boards with more orbits than this are not searched (the candidates grow as 6^orbits).
const MAX_ORBITS: usize = 8;
const LOW: i32 = -2;
const HIGH: i32 = 3;
/// Boards with more pagodas than this in that range are not served: choosing among them
/// would cost more than it saves (a board whose hops constrain little has little to cut).
const MAX_CANDIDATES: usize = 1 << 17;

/// The orbit of each cell, and how many orbits there are.
fn orbits(n: usize, perms: &[Vec<usize>]) -> (Vec<usize>, usize) {
    let mut of = vec![usize::MAX; n];
    let mut count = 0;
    for c in 0..n {
        if of[c] != usize::MAX {
            continue;
        }
        for p in perms {
            of[p[c]] = count;
        }
        of[c] = count;
        count += 1;
    }
    (of, count)
}

/// Pegs per orbit in `s`.
fn census(s: u64, of: &[usize], k: usize) -> Vec<i32> {
    let mut v = vec![0; k];
    for (c, &o) in of.iter().enumerate() {
        v[o] += (s >> c & 1) as i32;
    }
    v
}

fn dot(w: &[i32], v: &[i32]) -> i32 {
    w.iter().zip(v).map(|(a, b)| a * b).sum()
}

/// Every orbit-constant pagoda of a board, to choose from.
pub struct Candidates {
    /// The orbit of each cell.
    of: Vec<usize>,
    orbits: usize,
    /// One weight per orbit each.
    valid: Vec<Vec<i32>>,
}

impl Candidates {
    /// Every weighting with orbit weights in `LOW..=HIGH` that no hop of `model` raises;
    /// `None` when the board has too many orbits under `perms` to try them all, or more
    /// than `MAX_CANDIDATES` such weightings.
    pub fn find(model: &HopModel, perms: &[Vec<usize>], budget: &Budget) -> Result<Option<Self>, GaveUp> {
        let n = model.geo.cells.len();
        let (of, k) = orbits(n, perms);
        if k > MAX_ORBITS || n > 64 {
            return Ok(None);
        }
        // What each hop does to the pegs per orbit: filled minus emptied.
        let moves: FxHashSet<Vec<i32>> = model
            .moves
            .iter()
            .map(|m| {
                let filled = census((m.mask & !m.need) as u64, &of, k);
                let emptied = census(m.need as u64, &of, k);
                filled.iter().zip(&emptied).map(|(f, e)| f - e).collect()
            })
            .collect();
        let mut valid = Vec::new();
        let mut w = vec![LOW; k];
        let mut tried = 0u64;
        loop {
            tried += 1;
            if tried.is_multiple_of(1 << 16)
                && let Some(why) = budget.exceeded(0)
            {
                return Err(why);
            }
            if moves.iter().all(|d| dot(&w, d) <= 0) {
                if valid.len() == MAX_CANDIDATES {
                    return Ok(None);
                }
                valid.push(w.clone());
            }
            // The next weighting, as a counter in base HIGH - LOW + 1.
            let Some(i) = w.iter().position(|&x| x < HIGH) else {
                break;
            };
            w[i] += 1;
            w[..i].fill(LOW);
        }
        Ok(Some(Candidates { of, orbits: k, valid }))
    }

    /// The pagoda (as one weight per cell) that rules out the most `sample` positions for
    /// reaching any of `targets`, and the least weight of a target; `None` when none rules
    /// out any.
    pub fn best(
        &self,
        targets: &[u64],
        sample: &[u64],
        budget: &Budget,
    ) -> Result<Option<(Vec<i32>, i32)>, GaveUp> {
        let (of, k) = (&self.of, self.orbits);
        // Positions with the same pegs per orbit weigh the same: each census once, counted.
        let distinct = |ps: &[u64]| -> Vec<(Vec<i32>, usize)> {
            let mut by: FxHashMap<Vec<i32>, usize> = FxHashMap::default();
            for &s in ps {
                *by.entry(census(s, of, k)).or_default() += 1;
            }
            by.into_iter().collect()
        };
        let targets = distinct(targets);
        let sample = distinct(sample);
        let mut best: Option<(usize, &Vec<i32>, i32)> = None;
        for (i, w) in self.valid.iter().enumerate() {
            if i % 4096 == 0
                && let Some(why) = budget.exceeded(0)
            {
                return Err(why);
            }
            let Some(bar) = targets.iter().map(|t| dot(w, &t.0)).min() else {
                return Ok(None);
            };
            let cut: usize = sample.iter().filter(|s| dot(w, &s.0) < bar).map(|s| s.1).sum();
            if cut > best.map_or(0, |b| b.0) {
                best = Some((cut, w, bar));
            }
        }
        Ok(best.map(|(_, w, bar)| (of.iter().map(|&o| w[o]).collect(), bar)))
    }
}
