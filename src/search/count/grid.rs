//! A count's positions on a grid bitboard: cell `(r, c)` of a board whose bounding box has
//! at most 64 holes becomes bit `(r - r0) · width + (c - c0)`, so that every hop in one
//! direction is the same shift and moves fall into a few families (the English and French
//! boards: 4 instead of 12), which generating moves, the bulk of a count, loops over.

use super::super::symmetry::Symmetry;
use crate::model::HopModel;

/// The model and symmetries relabeled onto the grid of the board's bounding box, for
/// counting only (the geometry's drawing is left behind), or `None` when that grid is the
/// board's own numbering already or has more than 64 holes.
pub fn regrid(model: &HopModel, sym: &Symmetry) -> Option<(HopModel, Symmetry)> {
    let cells = &model.geo.cells;
    let span = |axis: usize| {
        let v = cells.iter().map(|c| c[axis]);
        (v.clone().min().unwrap_or(0), v.max().unwrap_or(0))
    };
    let ((r0, r1), (c0, c1)) = (span(0), span(1));
    let (height, width) = ((r1 - r0 + 1) as usize, (c1 - c0 + 1) as usize);
    if height.saturating_mul(width) > 64 {
        return None;
    }
    let map: Vec<usize> = cells
        .iter()
        .map(|c| (c[0] - r0) as usize * width + (c[1] - c0) as usize)
        .collect();
    if map.iter().enumerate().all(|(i, &b)| i == b) {
        return None;
    }
    let remap = |bits: u128| -> u128 {
        (0..cells.len())
            .filter(|&c| bits >> c & 1 == 1)
            .fold(0, |out, c| out | 1 << map[c])
    };
    let mut m = model.clone();
    for mv in &mut m.moves {
        mv.mask = remap(mv.mask);
        mv.need = remap(mv.need);
        mv.from = map[mv.from];
        mv.to = map[mv.to];
        mv.over.iter_mut().for_each(|o| *o = map[*o]);
    }
    m.start = remap(m.start);
    m.goal.at = m.goal.at.map(|a| map[a]);
    m.goal.pattern = m.goal.pattern.map(remap);
    // What move generation reads of the geometry: a cell per bit.
    m.geo.cells = (0..height * width)
        .map(|b| [r0 + (b / width) as i64, c0 + (b % width) as i64])
        .collect();
    m.geo.index = m.geo.cells.iter().enumerate().map(|(i, c)| (*c, i)).collect();
    Some((m, sym.relabeled(&map, height * width)))
}
