//! Fewest moves by breadth-first search over moves from both ends at once, for goals whose
//! positions can be listed.
//!
//! One side grows from the start by moves (every chain one peg can jump from each position
//! of its frontier), the other from the goal positions by reversed moves (a peg unjumping
//! back along its chain), always the smaller frontier. Each position met on a chain is
//! recorded with the moves it is from its end, so a position's number is the fewest moves
//! to it. The first layer that meets the other side holds the answer: a position `a` moves
//! from the start and `b` from the goal gives a line of at most `a + b` moves, and while no
//! position at most `a - 1` from one end and `b` from the other had met, none shorter than
//! `a + b` exists (the position an optimal line reaches after its first moves would be one).
//! Pagoda functions cut positions that cannot reach the goal, and backward ones the start
//! cannot reach. Only the layers' depths are kept: the frontiers are a walk apart.
//!
//! When a limit stops it first, no line of `a + b` moves or fewer exists for the depths `a`
//! and `b` it completed: that is the lower bound it proves.

use super::{Found, Search, Stop, walk};
use crate::search::Budget;
use crate::search::bits::Word;
use crate::search::table_peak;
use rustc_hash::FxHashMap;

/// Chain steps between budget checks.
const CHECK_EVERY: u64 = 1 << 12;

/// The fewest moves from the start to one of `goals` (canonical positions), or the moves
/// proven needed when a limit stops it (in [`Stop::GaveUp`]'s place: `Err((stop, least))`).
pub(super) fn run<W: Word>(
    s: &Search<'_, W>,
    goals: Vec<W>,
    budget: &mut Budget,
) -> Result<Found, (Stop, u32)> {
    let start = s.canon(W::narrow(s.model.start));
    let mut sides = [Side::new(vec![start]), Side::new(goals)];
    if let Some(&0) = sides[1].depth.get(&start) {
        return Ok(Found {
            moves: 0,
            path: Vec::new(),
            end: start.wide(),
            memory: 0,
        });
    }
    let mut memory = 0u64;
    let mut check_at = budget.nodes + 1;
    let meet = loop {
        let least = sides[0].reached + sides[1].reached + 1;
        if sides.iter().any(|side| side.frontier.is_empty()) {
            return Err((
                Stop::Unsolvable(Some("no goal position can be reached".into()), memory),
                least,
            ));
        }
        // The smaller frontier. (Weighing each by its last layer's chain steps a position,
        // as reversed chains run long in sparse positions, took the 28-hole triangle past
        // twice as long.)
        let back = sides[1].frontier.len() < sides[0].frontier.len();
        let (me, other) = match back {
            false => {
                let [a, b] = &mut sides;
                (a, &*b)
            }
            true => {
                let [a, b] = &mut sides;
                (b, &*a)
            }
        };
        let d = me.reached + 1;
        let mut next = Vec::new();
        let mut best: Option<(u32, W)> = None;
        let mut stack: Vec<(W, usize)> = Vec::new();
        for &p in &me.frontier {
            for j in &s.jumps {
                if if back { j.backward(p) } else { j.forward(p) } {
                    stack.push((p ^ j.mask, if back { j.from } else { j.to }));
                }
            }
            while let Some((q, at)) = stack.pop() {
                budget.nodes += 1;
                if budget.nodes >= check_at {
                    check_at = budget.next_check(CHECK_EVERY);
                    let more = (check_at - budget.nodes + 1) as usize;
                    let used = table_peak::<(W, u8)>(me.depth.len(), me.depth.capacity(), more)
                        + other.bytes()
                        + ((next.capacity() + me.frontier.capacity() + more) * size_of::<W>()) as u64;
                    memory = memory.max(used);
                    if let Some(why) = budget.exceeded_or_grown(used) {
                        return Err((Stop::GaveUp(why, memory), least));
                    }
                }
                let cut = match back {
                    false => s.ahead.cuts(q.wide()),
                    true => s.behind.cuts(s.full & !q.wide()),
                };
                if cut {
                    continue;
                }
                let c = s.canon(q);
                if let std::collections::hash_map::Entry::Vacant(e) = me.depth.entry(c) {
                    e.insert(d as u8);
                    next.push(c);
                    if let Some(&o) = other.depth.get(&c) {
                        let total = d + u32::from(o);
                        if best.is_none_or(|b| total < b.0) {
                            best = Some((total, c));
                        }
                    }
                }
                let adj = if back { &s.by_to[at] } else { &s.by_from[at] };
                for &i in adj {
                    let j = &s.jumps[i];
                    if if back { j.backward(q) } else { j.forward(q) } {
                        stack.push((q ^ j.mask, if back { j.from } else { j.to }));
                    }
                }
            }
        }
        me.frontier = next;
        me.reached = d;
        if let Some(found) = best {
            break found;
        }
    };
    let (moves, at) = meet;
    let [fwd, bwd] = &sides;
    let a = u32::from(fwd.depth[&at]);
    let mut path = walk(s.model, &s.by_to, true, at, a, |p| fwd.moves_to(s, p));
    path.reverse();
    let on = walk(s.model, &s.by_from, false, at, moves - a, |p| bwd.moves_to(s, p));
    let mut end = at;
    for &i in &on {
        end = end ^ W::narrow(s.model.moves[i].mask);
    }
    path.extend(on);
    memory = memory.max(fwd.bytes() + bwd.bytes());
    Ok(Found {
        moves,
        path,
        end: end.wide(),
        memory,
    })
}

/// One end's positions met, each with its moves from that end, and its newest layer.
struct Side<W> {
    depth: FxHashMap<W, u8>,
    frontier: Vec<W>,
    reached: u32,
}

impl<W: Word> Side<W> {
    fn new(frontier: Vec<W>) -> Self {
        Side {
            depth: frontier.iter().map(|&p| (p, 0)).collect(),
            frontier,
            reached: 0,
        }
    }

    /// The moves from this side's end to `p`, if met.
    fn moves_to(&self, s: &Search<'_, W>, p: W) -> Option<u32> {
        self.depth.get(&s.canon(p)).map(|&d| u32::from(d))
    }

    fn bytes(&self) -> u64 {
        crate::search::table_bytes::<(W, u8)>(self.depth.capacity())
            + (self.frontier.capacity() * size_of::<W>()) as u64
    }
}
