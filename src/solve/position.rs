//! A position in any kind of puzzle and the legal moves from it, numbered and named as the
//! solver numbers and names them: what `play` offers, and how `--resume` follows an earlier
//! run's line move by move.

use crate::model::rewrite::{Kinds, RewriteModel, occupied};
use crate::model::{Model, NONE, SlideModel};
use crate::outcome::MoveOut;
use crate::search::tilt::roll;

/// A position in any kind of puzzle.
#[derive(Debug, Clone, PartialEq)]
pub enum Position {
    Hop(u128),
    /// Marble k's cell, or `NO_CELL` once it is home.
    Tilt(Vec<crate::model::TiltCell>),
    /// Pieces of kinds: a bitboard per kind.
    Rewrite(Kinds),
    /// Sliding robots: each robot's square.
    Slide(Vec<u16>),
}

impl Position {
    /// Where a game of `model` starts.
    pub fn start(model: &Model) -> Position {
        match model {
            Model::Hop(m) => Position::Hop(m.start),
            Model::Tilt(m) => Position::Tilt(m.start.clone()),
            Model::Rewrite(m) => Position::Rewrite(m.start),
            Model::Slide(m) => Position::Slide(m.start.clone()),
        }
    }
}

/// The slides that move a robot in `s`: (move index as the solver numbers it, the position
/// after).
pub fn slides(m: &SlideModel, s: &[u16]) -> impl Iterator<Item = (usize, Vec<u16>)> {
    (0..s.len() * m.directions.len()).filter_map(move |i| {
        let (r, d) = m.unpack(i);
        let to = m.slide(s, r, d);
        (to != s[r]).then(|| {
            let mut next = s.to_vec();
            next[r] = to;
            (i, next)
        })
    })
}

/// The rewrites that can be made in `s`: (index, the position after).
pub fn rewrites(m: &RewriteModel, s: &Kinds) -> impl Iterator<Item = (usize, Kinds)> {
    let occ = occupied(s);
    m.moves
        .iter()
        .enumerate()
        .filter(move |(_, mv)| mv.applies(s, occ))
        .map(|(i, mv)| (i, mv.apply(s)))
}

/// Every legal move from `pos`: its index as the solver numbers it (a tilt's, its
/// direction's), the move as an answer writes it, and the position it leads to.
pub fn legal_moves(model: &Model, pos: &Position) -> Vec<(usize, MoveOut, Position)> {
    match (model, pos) {
        (Model::Hop(m), Position::Hop(s)) => m
            .moves
            .iter()
            .enumerate()
            .filter(|(_, mv)| s & mv.mask == mv.need)
            .map(|(i, mv)| (i, super::hop_move(m, i), Position::Hop(s ^ mv.mask)))
            .collect(),
        (Model::Tilt(m), Position::Tilt(s)) => {
            let mut occ = vec![NONE; m.geo.cells.len()];
            (0..m.dirs.len())
                .filter_map(|d| {
                    let next = roll(m, d, s, &mut occ)?;
                    let tilt = MoveOut::Tilt {
                        tilt: m.dirs[d].name.clone(),
                    };
                    (next != *s).then_some((d, tilt, Position::Tilt(next)))
                })
                .collect()
        }
        (Model::Rewrite(m), Position::Rewrite(s)) => rewrites(m, s)
            .map(|(i, next)| (i, super::rewrite::move_out(m, i), Position::Rewrite(next)))
            .collect(),
        (Model::Slide(m), Position::Slide(s)) => slides(m, s)
            .map(|(i, next)| {
                let out = super::slide::move_out(m, &[s.clone(), next.clone()], 0, i);
                (i, out, Position::Slide(next))
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// The move indices of `steps` played from the start of `model`, each a legal move where it
/// is made; `None` at the first that is not.
pub fn path_of(model: &Model, steps: &[MoveOut]) -> Option<Vec<usize>> {
    let mut pos = Position::start(model);
    let mut path = Vec::with_capacity(steps.len());
    for step in steps {
        let (i, _, next) = legal_moves(model, &pos)
            .into_iter()
            .find(|(_, out, _)| out == step)?;
        path.push(i);
        pos = next;
    }
    Some(path)
}
