//! What a slide answer shows, from replaying it: the robots' squares after each move, each
//! move as a robot going from one square to another, the boards drawn with each robot's
//! letter, the goal in words.

use crate::model::SlideModel;
use crate::outcome::{MoveOut, Replay};
use crate::spec::Spec;

/// The positions `path` passes through from the start, each move a slide that moves a robot.
pub fn states(m: &SlideModel, path: &[usize]) -> Result<Vec<Vec<u16>>, String> {
    let mut out = vec![m.start.clone()];
    for (k, &i) in path.iter().enumerate() {
        let (r, d) = m.unpack(i);
        let mut s = out[out.len() - 1].clone();
        if r >= s.len() || m.slide(&s, r, d) == s[r] {
            return Err(format!("move {} cannot be made where it is", k + 1));
        }
        s[r] = m.slide(&s, r, d);
        out.push(s);
    }
    Ok(out)
}

/// Move `k` of a replay: the robot that slid, from where to where.
pub fn move_out(m: &SlideModel, states: &[Vec<u16>], k: usize, i: usize) -> MoveOut {
    let (r, d) = m.unpack(i);
    let cell = |sq: u16| m.geo.cells[sq as usize];
    MoveOut::Step {
        piece: (m.kinds[m.kind_of[r]] as char).to_string(),
        from: cell(states[k][r]),
        to: cell(states[k + 1][r]),
        takes: Vec::new(),
        dir: Some(m.directions[d].clone()),
        changes: Vec::new(),
    }
}

/// The boards, one per position, drawn as hop boards with each robot's letter.
pub fn replay(spec: &Spec, m: &SlideModel, states: &[Vec<u16>]) -> Replay {
    let frames = states
        .iter()
        .map(|s| {
            let mut f = vec!['0'; m.squares()];
            for (r, &sq) in s.iter().enumerate() {
                f[sq as usize] = m.kinds[m.kind_of[r]] as char;
            }
            f.into_iter().collect()
        })
        .collect();
    let mut replay = super::drawn_replay(spec, &m.geo, frames);
    if let Replay::Hop { targets, .. } = &mut replay {
        targets.push(m.geo.cells[m.goal.target as usize]);
    }
    replay
}

/// The goal in words: `R robot on [3, 4]`, or `a robot on [3, 4]`.
pub fn goal_words(m: &SlideModel) -> String {
    let [r, c] = m.geo.cells[m.goal.target as usize];
    match m.goal.kind {
        Some(k) => format!("{} robot on [{r}, {c}]", m.kinds[k] as char),
        None => format!("a robot on [{r}, {c}]"),
    }
}
