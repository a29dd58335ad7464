//! The guided move order: at every position, the moves leaving the pegs closest to the goal
//! first, for problems where a fixed move order wanders.
//!
//! A position's "spread" is the sum over its pegs of the squared distance (rows plus columns)
//! to the goal cell (the nearest peg of a goal board), or to the board's middle when the goal
//! names no cell. Children are tried least spread first, so the search clears the far arms early
//! and keeps the pegs together, as people solve cross boards. Since a move changes the spread
//! by the same amount wherever it is made, that is one fixed move order ([`spread_order`]),
//! and the search is [`super::dfs`] itself with it ([`super::portfolio`]'s later turns): its
//! failure table of canonical positions, pagoda cuts and endgame table, under the same budget.
//! On Wiegleb's 45-hole board it finds the central game in ~3 M nodes where the fixed order
//! needs 359 M.

use crate::model::HopModel;

/// Each cell's weight in the spread: its squared distance to the nearest goal cell, or the middle.
pub fn spread_weights(model: &HopModel) -> Vec<i64> {
    let cells = &model.geo.cells;
    // Doubled coordinates, so that the middle of an even-sized board is on the grid.
    let goal = model.goal_cells();
    let centres: Vec<(i64, i64)> = if goal != 0 {
        (0..cells.len())
            .filter(|&a| goal >> a & 1 == 1)
            .map(|a| (2 * cells[a][0], 2 * cells[a][1]))
            .collect()
    } else {
        let span = |k: usize| {
            let lo = cells.iter().map(|c| c[k]).min().unwrap_or(0);
            let hi = cells.iter().map(|c| c[k]).max().unwrap_or(0);
            lo + hi
        };
        vec![(span(0), span(1))]
    };
    cells
        .iter()
        .map(|&[r, c]| {
            // To the nearest goal peg: a goal board draws the pegs towards its own pegs.
            let d = centres
                .iter()
                .map(|&(gr, gc)| (2 * r - gr).abs() + (2 * c - gc).abs())
                .min()
                .unwrap_or(0);
            d * d
        })
        .collect()
}

/// `order` sorted so that at every position the moves leaving the least spread come first.
/// A move changes the spread by the same amount wherever it is made (its landing cell's
/// weight gained, its jumping and jumped cells' lost), so sorting each position's children
/// by that change is a fixed order of the moves: least change first, and among equal changes
/// the latest in `order` first. The tie rule matters: earliest-first needs over 10 M nodes on
/// Wiegleb's board, latest-first 3 M.
pub fn spread_order(model: &HopModel, order: &[usize]) -> Vec<usize> {
    let weights = spread_weights(model);
    let change = |i: usize| {
        let m = &model.moves[i];
        weights[m.to] - weights[m.from] - m.over.iter().map(|&o| weights[o]).sum::<i64>()
    };
    let mut ranked: Vec<(i64, std::cmp::Reverse<usize>, usize)> = order
        .iter()
        .enumerate()
        .map(|(k, &i)| (change(i), std::cmp::Reverse(k), i))
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().map(|(_, _, i)| i).collect()
}
