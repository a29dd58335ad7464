//! `moves: fewest` on the 15- and 28-hole triangles, small squares, crosses and English goal
//! boards: each answer replayed and checked against a 0-1 breadth-first search over the
//! model's own jumps; and a 23-move line on the 66-hole triangle replayed.

use marbles::model::HopModel;
use marbles::search::fewest_moves::{count_moves, solve};
use marbles::search::{Budget, GaveUp, Limits, Verdict};
use marbles::solve::hop_model;
use marbles::spec::{MoveGoal, PegGoal};
use std::collections::{HashMap, VecDeque};

/// The fewest moves by brute force: 0-1 breadth-first search over (position, cell of
/// the peg that jumped last), a jump by that peg costing nothing. No symmetry, no layers.
fn brute(m: &HopModel) -> Option<u32> {
    let none = u8::MAX;
    let mut dist: HashMap<(u128, u8), u32> = HashMap::new();
    let mut queue = VecDeque::from([(m.start, none, 0u32)]);
    dist.insert((m.start, none), 0);
    while let Some((s, last, d)) = queue.pop_front() {
        if dist[&(s, last)] < d {
            continue;
        }
        for j in &m.moves {
            if s & j.mask != j.need {
                continue;
            }
            let (t, cost) = (s ^ j.mask, u32::from(last != j.from as u8));
            // Every jump here takes a peg: past the goal's pegs, no goal is ahead.
            if matches!(m.goal.pegs, PegGoal::Count(n) if t.count_ones() < n) {
                continue;
            }
            let e = dist.entry((t, j.to as u8)).or_insert(u32::MAX);
            if d + cost < *e {
                *e = d + cost;
                if cost == 0 {
                    queue.push_front((t, j.to as u8, d));
                } else {
                    queue.push_back((t, j.to as u8, d + 1));
                }
            }
        }
    }
    let goal_cell =
        |s: u128| m.goal.at.is_none_or(|a| s >> a & 1 == 1) && m.goal.pattern.is_none_or(|p| s == p);
    let pegs = match m.goal.pegs {
        PegGoal::Count(n) => n,
        PegGoal::Fewest => dist
            .keys()
            .filter(|k| goal_cell(k.0))
            .map(|k| k.0.count_ones())
            .min()?,
    };
    dist.iter()
        .filter(|(k, _)| k.0.count_ones() == pegs && goal_cell(k.0))
        .map(|(_, &d)| d)
        .min()
}

/// Solves, checks the answer is a legal jump sequence ending in a goal position with the
/// moves claimed, and that brute force finds no fewer; returns the moves.
fn checked(m: &HopModel) -> Option<u32> {
    let r = solve(m, MoveGoal::Fewest, &mut Budget::new(Limits::default()));
    let expect = brute(m);
    let Verdict::Solved = r.verdict else {
        assert_eq!(expect, None, "{:?}", r.verdict);
        return None;
    };
    let mut s = m.start;
    for &i in &r.path {
        let j = &m.moves[i];
        assert_eq!(s & j.mask, j.need, "jump {i} is not legal");
        s ^= j.mask;
    }
    assert_eq!(s, r.end);
    assert!(m.goal.at.is_none_or(|a| s >> a & 1 == 1));
    assert!(m.goal.pattern.is_none_or(|p| s == p));
    if let PegGoal::Count(n) = m.goal.pegs {
        assert_eq!(s.count_ones(), n);
    }
    let moves = count_moves(m, &r.path);
    assert_eq!(Some(moves), expect, "brute force disagrees");
    Some(moves)
}

fn triangle() -> Vec<&'static str> {
    vec!["    o", "   oo", "  ooo", " oooo", "ooooo"]
}

fn with_hole(rows: &[&str], hole: usize) -> Vec<String> {
    let mut k = 0;
    rows.iter()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c == 'o' {
                        k += 1;
                        if k - 1 == hole {
                            return '.';
                        }
                    }
                    c
                })
                .collect()
        })
        .collect()
}

#[test]
fn triangle_15_from_every_start_matches_brute_force_and_bell() {
    let mut best = Vec::new();
    for v in 0..15 {
        let m = hop_model("triangle_hop", &with_hole(&triangle(), v), "{pegs: 1}").unwrap();
        best.push(checked(&m).expect("every single-vacancy start of T5 solves"));
    }
    // Bell (2008), OEIS A127500: the shortest solution of any T5 problem is 9 moves;
    // the corner start needs 10 (rows 0, 1, …: hole 0 is the apex).
    assert_eq!(best.iter().min(), Some(&9));
    assert_eq!(best[0], 10);
    // By symmetry class: corners 10, next to a corner 10, mid-edge 9, interior 11.
    assert_eq!(best, [10, 10, 10, 9, 11, 9, 10, 11, 11, 10, 10, 10, 9, 10, 10]);
}

#[test]
fn triangle_to_a_given_cell_and_back_to_its_own_vacancy() {
    let at = |v: usize, finish: usize, pegs: u32| {
        let m = hop_model("triangle_hop", &with_hole(&triangle(), v), "{pegs: 1}").unwrap();
        let [r, c] = m.geo.cells[finish];
        hop_model(
            "triangle_hop",
            &with_hole(&triangle(), v),
            &format!("{{pegs: {pegs}, at: [{r}, {c}]}}"),
        )
        .unwrap()
    };
    // A vacancy back to one peg in it: a game that is its own reverse.
    assert_eq!(checked(&at(3, 3, 1)), Some(9));
    checked(&at(0, 0, 1));
    checked(&at(0, 12, 1));
    checked(&at(4, 10, 1));
    checked(&at(4, 10, 3));
}

#[test]
fn small_squares_and_crosses_match_brute_force() {
    let square4 = ["o.oo", "oooo", "oooo", "oooo"];
    let m = hop_model("peg_hop", &square4, "{pegs: 1}").unwrap();
    assert_eq!(checked(&m), Some(9));
    let square5 = ["ooooo", "ooooo", "oo.oo", "ooooo", "....."];
    let m = hop_model("peg_hop", &square5, "{pegs: fewest}").unwrap();
    assert_eq!(checked(&m), Some(7));
    let cross = ["#o#", "o.o", "ooo", "#o#", "#o#"];
    let m = hop_model("peg_hop", &cross, "{pegs: fewest}").unwrap();
    assert_eq!(checked(&m), Some(2));
}

/// Goal boards a few random jumps from the English centre, in no symmetry of the start's:
/// the bounds' tightest cut once emptied the first layer and read as "no goal position can
/// be reached" where three moves do.
#[test]
fn english_goal_boards_a_few_jumps_away_match_brute_force() {
    let english = [
        "##ooo##", "##ooo##", "ooooooo", "ooo.ooo", "ooooooo", "##ooo##", "##ooo##",
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for round in 0..40 {
        let mut m = hop_model("peg_hop", &english, "{pegs: 1}").unwrap();
        let mut s = m.start;
        for _ in 0..2 + round % 5 {
            let legal: Vec<u128> = m
                .moves
                .iter()
                .filter(|j| s & j.mask == j.need)
                .map(|j| j.mask)
                .collect();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s ^= legal[(seed % legal.len() as u64) as usize];
        }
        m.goal.pattern = Some(s);
        m.goal.pegs = PegGoal::Count(s.count_ones());
        assert!(checked(&m).is_some(), "round {round}: {s:#x}");
    }
}

#[test]
fn a_move_limit_is_met_or_refuted() {
    let m = hop_model("triangle_hop", &with_hole(&triangle(), 0), "{pegs: 1}").unwrap();
    let run = |n| solve(&m, MoveGoal::Within(n), &mut Budget::new(Limits::default())).verdict;
    assert_eq!(run(10), Verdict::Solved);
    assert!(matches!(run(9), Verdict::Unsolvable(Some(why)) if why.contains("10")));
}

#[test]
fn a_search_stopped_early_proves_the_regions_bound() {
    // The 28-hole triangle from the hole next to a corner: 12 moves (Bell). Its corners,
    // edge pairs and inner hexagon prove 10 before anything is searched (the last move
    // lands on the last peg, so its corner counts too); the layers alone proved 3 by this
    // point.
    let rows = [
        "      o", "     .o", "    ooo", "   oooo", "  ooooo", " oooooo", "ooooooo",
    ];
    let m = hop_model("triangle_hop", &rows, "{pegs: 1}").unwrap();
    let limits = Limits {
        max_nodes: Some(20_000),
        ..Limits::default()
    };
    let r = solve(&m, MoveGoal::Fewest, &mut Budget::new(limits));
    let Verdict::GaveUp(GaveUp::UnprovenMoves { best, least, .. }) = r.verdict else {
        panic!("{:?}", r.verdict);
    };
    assert_eq!(least, 10);
    assert!(best.is_some_and(|b| b >= 12) && Some(count_moves(&m, &r.path)) == best);
}

#[test]
fn limits_stop_it() {
    let m = hop_model("triangle_hop", &with_hole(&triangle(), 0), "{pegs: 1}").unwrap();
    let limits = Limits {
        max_nodes: Some(10),
        ..Limits::default()
    };
    let r = solve(&m, MoveGoal::Fewest, &mut Budget::new(limits));
    assert!(matches!(r.verdict, Verdict::GaveUp(_)), "{:?}", r.verdict);
}

/// A line of 23 moves on the 66-hole triangle from the hole at (2, 0), as from>to of each
/// jump: found by `marbles solve --fewest-moves --max-memory 4GB` on that board (its beam).
const T11_LINE: &str = concat!(
    "0,0>2,0 3,0>1,0 5,0>3,0 2,2>0,0 0,0>2,0 2,0>4,0 7,0>5,0 5,0>3,0 8,2>6,0 7,3>7,1 9,0>7,0 ",
    "7,0>7,2 7,2>5,0 5,0>7,0 10,2>8,0 8,0>6,0 10,4>10,2 10,2>8,2 8,2>10,4 10,5>10,3 4,4>2,2 ",
    "2,2>2,0 2,0>4,0 6,6>4,4 10,7>10,5 8,8>6,6 10,0>10,2 10,2>10,4 10,4>10,6 5,3>5,5 5,5>3,3 ",
    "3,3>5,3 5,3>7,3 7,3>9,3 4,1>6,3 6,3>6,1 6,1>4,1 4,1>4,3 4,3>2,1 2,1>4,1 8,5>10,7 ",
    "10,7>10,5 10,5>8,3 8,3>8,5 8,5>6,3 9,8>9,6 9,6>9,4 9,4>9,2 9,2>7,0 7,0>5,0 5,0>3,0 ",
    "3,0>5,2 5,2>7,4 7,5>5,5 5,5>7,7 7,7>9,7 10,9>10,7 10,7>8,7 8,7>8,5 8,5>6,3 6,3>6,5 ",
    "6,5>8,7 10,10>8,8 8,8>8,6 ",
);

/// The 23-move line replays to one peg: the published bound for the 66-hole triangle
/// (Bell 2008, OEIS A127500: 19 <= a(11) <= 28) comes down to 23.
#[test]
fn a_23_move_line_on_the_66_hole_triangle_replays_to_one_peg() {
    // Row r drawn after 10 - r spaces, each hole a character (hole c of row r is cell [r, c]).
    let rows: Vec<String> = (0..11)
        .map(|r| {
            let holes: String = (0..=r)
                .map(|c| if (r, c) == (2, 0) { '.' } else { 'o' })
                .collect();
            format!("{}{holes}", " ".repeat(10 - r))
        })
        .collect();
    let m = hop_model("triangle_hop", &rows, "{pegs: 1}").unwrap();
    let cell = |t: &str| -> usize {
        let (r, c) = t.split_once(',').unwrap();
        let (r, c): (i64, i64) = (r.parse().unwrap(), c.parse().unwrap());
        m.geo.index[&[r, c]]
    };
    let path: Vec<usize> = T11_LINE
        .split_whitespace()
        .map(|j| {
            let (from, to) = j.split_once('>').unwrap();
            let (from, to) = (cell(from), cell(to));
            m.moves
                .iter()
                .position(|mv| mv.from == from && mv.to == to)
                .expect(j)
        })
        .collect();
    let end = marbles::solve::hop_end(&m, &path).unwrap();
    assert_eq!(
        (path.len(), end.count_ones(), count_moves(&m, &path)),
        (64, 1, 23)
    );
}
