//! What a rewrite answer shows, from replaying it: the positions it passes through, each move
//! in words, the boards drawn with each kind's letter, the goal in words.

use crate::model::rewrite::{Kinds, RewriteModel, occupied};
use crate::outcome::{Change, MoveOut, Replay};
use crate::spec::{PegGoal, Spec};

/// The positions `path` passes through from the start, each move checked to be legal where it
/// is made.
pub fn states(m: &RewriteModel, path: &[usize]) -> Result<Vec<Kinds>, String> {
    let mut out = vec![m.start];
    for (k, &i) in path.iter().enumerate() {
        let s = out[out.len() - 1];
        match m.moves.get(i) {
            Some(mv) if mv.applies(&s, occupied(&s)) => out.push(mv.apply(&s)),
            _ => return Err(format!("move {} cannot be made where it is", k + 1)),
        }
    }
    Ok(out)
}

/// Move `i` as users see it.
pub fn move_out(m: &RewriteModel, i: usize) -> MoveOut {
    let mv = &m.moves[i];
    let cell = |k: usize| m.geo.cells[k];
    MoveOut::Step {
        piece: (m.kinds[mv.kind] as char).to_string(),
        from: cell(mv.from),
        to: cell(mv.to),
        takes: mv.takes.iter().map(|&k| cell(k)).collect(),
        dir: mv.dir.map(|d| m.directions[d].clone()),
        changes: mv
            .changes
            .iter()
            .map(|&(k, was, becomes)| Change {
                at: cell(k),
                was: (was as char).to_string(),
                becomes: (becomes as char).to_string(),
            })
            .collect(),
    }
}

/// A position as a replay frame: each cell's kind letter, or `0`.
fn frame(m: &RewriteModel, s: &Kinds) -> String {
    (0..m.geo.cells.len())
        .map(|c| {
            (0..m.kinds.len())
                .find(|&k| s[k] >> c & 1 == 1)
                .map_or('0', |k| m.kinds[k] as char)
        })
        .collect()
}

/// The boards of a rewrite game, one per position, drawn as hop boards with letters.
pub fn replay(spec: &Spec, m: &RewriteModel, states: &[Kinds]) -> Replay {
    super::drawn_replay(spec, &m.geo, states.iter().map(|s| frame(m, s)).collect())
}

/// The goal in words: `the goal board: F at [0, 4], …; 1 R left; a piece on [2, 3]`.
pub fn goal_words(m: &RewriteModel) -> String {
    let g = &m.goal;
    let cell = |k: usize| format!("[{}, {}]", m.geo.cells[k][0], m.geo.cells[k][1]);
    let letter = |k: usize| m.kinds[k] as char;
    let mut parts = Vec::new();
    if let Some(b) = &g.board {
        let at: Vec<String> = (0..m.kinds.len())
            .flat_map(|k| {
                (0..m.geo.cells.len())
                    .filter(move |&c| b[k] >> c & 1 == 1)
                    .map(move |c| (k, c))
            })
            .map(|(k, c)| format!("{} at {}", letter(k), cell(c)))
            .collect();
        parts.push(format!("the goal board: {}", at.join(", ")));
    }
    match g.pieces {
        Some(PegGoal::Count(n)) => parts.push(format!("{n} piece{} left", if n == 1 { "" } else { "s" })),
        Some(PegGoal::Fewest) => parts.push("the fewest pieces left".into()),
        None => {}
    }
    for (k, n) in g.left.iter().enumerate() {
        if let Some(n) = n {
            parts.push(format!("{n} {} left", letter(k)));
        }
    }
    if let Some((c, kind)) = g.cell {
        let what = kind.map_or("a piece".to_string(), |k| format!("{} piece", letter(k)));
        parts.push(format!("{what} on {}", cell(c)));
    }
    parts.join("; ")
}
