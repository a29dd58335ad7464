//! Robots that slide (Ricochet Robots): the script names the robots' kinds and the directions;
//! the board's `#` squares, its edge, the walls between squares and every other robot stop a
//! sliding robot. Compiled here into native tables: for each square and direction, where a
//! robot stops with no robot in its way, and the line and place along it that tell, with a few
//! comparisons a robot, which robot cuts the slide short. A position is each robot's square.

use super::{Geometry, grid_geometry_within};
use crate::diag::{Diagnostic, Result};
use crate::script::{RuleTables, Script};
use crate::spec::{Cell, GridBoard, MoveGoal, Spec, Token};

/// A position holds at most this many robots (their squares packed in a key of
/// [`KEY_BITS`]).
pub const MAX_ROBOTS: usize = 8;

/// The bits of a position's key: a search keeps it beside a byte in one word.
pub const KEY_BITS: usize = 56;

/// The marker for a square no slide can bring the goal's robot to.
pub const FAR: u8 = u8::MAX;

/// A slide from one square in one direction, in one word so that a slide reads one a robot.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ray {
    /// Where a robot stops with no robot in its way (the square itself when blocked at once).
    pub stop: u16,
    /// The square one step back, where a robot stops when this square holds a robot (the
    /// square itself where there is none).
    pub back: u16,
    /// The line of the direction through the square, and how far along it the square lies:
    /// robot `q` cuts a slide from `c` short when it lies on the same line, past `c` and not
    /// past the stop.
    pub line: i16,
    pub place: i16,
}

/// The goal: a robot (of a kind, or any) on the target square.
#[derive(Debug, Clone)]
pub struct SlideGoal {
    pub target: u16,
    /// The kind that must stand there (an index into `kinds`), or any robot.
    pub kind: Option<usize>,
    /// `moves: N`: no answer longer than N; the answer always has the fewest moves.
    pub within: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct SlideModel {
    pub geo: Geometry,
    /// The robots' kinds, their letters as the family lists them.
    pub kinds: Vec<u8>,
    pub directions: Vec<String>,
    /// `reverse[d]`: the direction opposite `d`, if the family has it.
    pub reverse: Vec<Option<usize>>,
    /// `rays[d * n + c]`: a slide from square `c` in direction `d` (see [`Ray`]).
    pub rays: Vec<Ray>,
    /// Each robot's kind (an index into `kinds`) and square at the start, in board order.
    pub kind_of: Vec<usize>,
    pub start: Vec<u16>,
    pub goal: SlideGoal,
    /// `active[r]`: robot `r` may meet the goal; the others only help.
    pub active: Vec<bool>,
    /// `dist[c]`: the fewest slides that bring a robot on `c` to the target if it could stop
    /// on any square it passes and nothing but walls and the edge were in its way ([`FAR`]:
    /// never). No robot changes where a slide can go, only where it stops, so this is a
    /// lower bound on the moves left.
    pub dist: Vec<u8>,
    /// Bits a square takes in a position's key.
    pub bits: u32,
    /// The robots in the order a search tries them: the goal robots first.
    pub order: Vec<usize>,
}

impl SlideModel {
    /// The number of squares.
    #[inline]
    pub fn squares(&self) -> usize {
        self.geo.cells.len()
    }

    /// Where robot `r` stops sliding in direction `d` from the position `s`.
    #[inline]
    pub fn slide(&self, s: &[u16], r: usize, d: usize) -> u16 {
        let base = d * self.squares();
        let ray = self.rays[base + s[r] as usize];
        if ray.stop == s[r] {
            return ray.stop;
        }
        let mut end = ray.stop;
        let mut limit = self.rays[base + end as usize].place;
        for (q, &sq) in s.iter().enumerate() {
            let other = self.rays[base + sq as usize];
            if q != r && other.line == ray.line && other.place > ray.place && other.place <= limit {
                limit = other.place - 1;
                end = other.back;
            }
        }
        end
    }

    /// Whether the position meets the goal.
    #[inline]
    pub fn is_goal(&self, s: &[u16]) -> bool {
        s.iter()
            .zip(&self.active)
            .any(|(&sq, &a)| a && sq == self.goal.target)
    }

    /// The fewest moves the position may still need: the nearest goal robot's [`Self::dist`].
    #[inline]
    pub fn bound(&self, s: &[u16]) -> u8 {
        s.iter()
            .zip(&self.active)
            .filter(|(_, a)| **a)
            .map(|(&sq, _)| self.dist[sq as usize])
            .min()
            .unwrap_or(FAR)
    }

    /// Move `i` as (robot, direction).
    #[inline]
    pub fn unpack(&self, i: usize) -> (usize, usize) {
        (i / self.directions.len(), i % self.directions.len())
    }
}

/// Compiles a slide family's board: squares, walls, robots and the goal.
pub fn compile(spec: &Spec, script: &Script, t: &RuleTables, g: &GridBoard) -> Result<SlideModel> {
    let (geo, tokens) = grid_geometry_within(spec, t.layout, g, crate::limits::check_drawn)?;
    let n = geo.cells.len();
    let kinds = t.pieces.clone();
    let letters: String = kinds.iter().map(|&k| k as char).collect();
    let (mut kind_of, mut start) = (Vec::new(), Vec::new());
    for (i, &tok) in tokens.iter().enumerate() {
        let letter = match tok {
            Token::Piece(l) => l,
            Token::Peg => b'o',
            Token::Hole | Token::Blocked => continue,
        };
        let [r, c] = geo.cells[i];
        let Some(k) = kinds.iter().position(|&x| x == letter) else {
            let (line, col) = spec.cell_location([r, c]);
            return Err(Diagnostic::new(
                &spec.path,
                format!(
                    "the board has a robot `{}` at [{r}, {c}], but the robots of `{}` are {letters}: draw each by its kind's letter",
                    letter as char, script.name
                ),
            )
            .at(line, col));
        };
        kind_of.push(k);
        start.push(i as u16);
    }
    let board_line = crate::spec::key_line(&spec.source, "board");
    let bits = usize::BITS - (n.max(2) - 1).leading_zeros();
    if start.is_empty() || start.len() > MAX_ROBOTS || bits as usize * start.len() > KEY_BITS {
        return Err(Diagnostic::new(
            &spec.path,
            format!(
                "the board has {} robots: a slide puzzle has 1 to {} on a board of {n} squares",
                start.len(),
                (KEY_BITS / bits as usize).min(MAX_ROBOTS)
            ),
        )
        .at(board_line, None));
    }
    if geo.cells.iter().flatten().any(|&x| x >= 1 << 13) {
        return Err(
            Diagnostic::new(&spec.path, "a slide board is at most 8,192 rows and columns wide")
                .at(board_line, None),
        );
    }
    let goal = goal(spec, &geo, &kinds)?;
    let active: Vec<bool> = kind_of
        .iter()
        .map(|&k| goal.kind.is_none_or(|g| g == k))
        .collect();
    if !active.contains(&true) {
        let letter = kinds[goal.kind.unwrap_or(0)] as char;
        return Err(Diagnostic::new(
            &spec.path,
            format!("goal: `piece: {letter}`, but the board has no robot `{letter}`"),
        )
        .at(spec.goal.kinds_line, None));
    }
    // Neighbours by each direction's step, cut by the walls.
    let walls: rustc_hash::FxHashSet<(usize, usize)> = g
        .walls
        .iter()
        .flat_map(|[a, b]| {
            let (a, b) = (geo.index[a], geo.index[b]);
            [(a, b), (b, a)]
        })
        .collect();
    let steps: Vec<[i64; 2]> = t.directions.iter().map(|d| d.step.unwrap_or([0, 0])).collect();
    let next = |c: usize, [dr, dc]: [i64; 2]| -> Option<usize> {
        let [r, col] = geo.cells[c];
        let to = *geo.index.get(&[r + dr, col + dc])?;
        (!walls.contains(&(c, to))).then_some(to)
    };
    let nd = steps.len();
    let mut rays = vec![Ray::default(); nd * n];
    for (d, &[dr, dc]) in steps.iter().enumerate() {
        for c in 0..n {
            let [r, col] = geo.cells[c];
            let mut end = c;
            while let Some(to) = next(end, [dr, dc]).filter(|&to| to != c) {
                end = to;
            }
            rays[d * n + c] = Ray {
                stop: end as u16,
                back: geo.index.get(&[r - dr, col - dc]).map_or(c, |&b| b) as u16,
                line: (r * dc - col * dr) as i16,
                place: (r * dr + col * dc) as i16,
            };
        }
    }
    let reverse = steps
        .iter()
        .map(|&[dr, dc]| steps.iter().position(|&s| s == [-dr, -dc]))
        .collect();
    // Backwards from the target: every square whose slide passes the one at hand.
    let mut dist = vec![FAR; n];
    dist[goal.target as usize] = 0;
    let mut queue = std::collections::VecDeque::from([goal.target as usize]);
    while let Some(sq) = queue.pop_front() {
        let k = dist[sq];
        for &[dr, dc] in &steps {
            let mut at = sq;
            while let Some(&from) = geo.index.get(&[geo.cells[at][0] - dr, geo.cells[at][1] - dc]) {
                if next(from, [dr, dc]) != Some(at) || from == sq {
                    break;
                }
                if dist[from] == FAR && k < FAR - 1 {
                    dist[from] = k + 1;
                    queue.push_back(from);
                }
                at = from;
            }
        }
    }
    let mut order: Vec<usize> = (0..active.len()).collect();
    order.sort_by_key(|&r| !active[r]);
    Ok(SlideModel {
        order,
        geo,
        kinds,
        directions: t.directions.iter().map(|d| d.name.clone()).collect(),
        reverse,
        rays,
        kind_of,
        start,
        goal,
        active,
        dist,
        bits,
    })
}

/// The goal: `reach:` (or `at:`) a square of the board, with `piece:` a kind or any robot.
fn goal(spec: &Spec, geo: &Geometry, kinds: &[u8]) -> Result<SlideGoal> {
    let sg = &spec.goal;
    let err = |msg: String, line: Option<usize>| Diagnostic::new(&spec.path, msg).at(line, None);
    let given = [
        ("pegs", sg.pegs.is_some()),
        ("board", sg.board.is_some()),
        ("left", !sg.left.is_empty()),
    ];
    if let Some((key, _)) = given.iter().find(|(_, g)| *g) {
        return Err(err(
            format!(
                "goal: `{key}:` is not a goal of a slide puzzle: give `reach: [r, c]` (a target square), with `piece:` the robot's kind"
            ),
            crate::spec::goal_key_line(&spec.source, key),
        ));
    }
    let (cell, line): (Cell, Option<usize>) = match (sg.reach, sg.at) {
        (Some(c), _) => (c, sg.reach_line),
        (None, Some(c)) => (c, sg.at_line),
        (None, None) => {
            return Err(err(
                "a slide puzzle needs `goal: reach: [r, c]`, the target square (with `piece:` the robot's kind, or any robot)".into(),
                crate::spec::key_line(&spec.source, "goal"),
            ));
        }
    };
    let Some(&target) = geo.index.get(&cell) else {
        return Err(err(
            format!(
                "goal: the target [{}, {}] is off the board: name a square of it (not `#`)",
                cell[0], cell[1]
            ),
            line,
        ));
    };
    let kind = match sg.piece {
        None => None,
        Some(letter) => Some(kinds.iter().position(|&k| k == letter).ok_or_else(|| {
            err(
                format!(
                    "goal: `piece: {}` is not a robot of this family, whose kinds are {}",
                    letter as char,
                    kinds.iter().map(|&k| k as char).collect::<String>()
                ),
                sg.kinds_line,
            )
        })?),
    };
    Ok(SlideGoal {
        target: target as u16,
        kind,
        within: match sg.moves {
            Some(MoveGoal::Within(n)) => Some(n),
            _ => None,
        },
    })
}
