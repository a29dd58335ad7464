//! Pieces of several kinds and moves as rewrites: Frogs and Toads, Hoppers and the slide maze,
//! each answer replayed by the test's own rules (written here, apart from marbles' masks) and
//! its figure checked against the literature or the test's own breadth-first search; and the
//! exact messages for the ways a board, a goal or a rewrite script goes wrong.

use crate::support::{Test, refusal, root, solved_json};
use serde_json::Value;
use std::collections::{HashMap, HashSet, VecDeque};

/// `solve FILE --format json` of a shipped puzzle: the one outcome.
fn solved(file: &str) -> Value {
    Test::new()
        .in_root()
        .args(["solve", file, "--format", "json"])
        .run()
        .status(0)
        .json()[0]
        .clone()
}

fn cell(v: &Value) -> (usize, usize) {
    (v[0].as_u64().unwrap() as usize, v[1].as_u64().unwrap() as usize)
}

type Square = (usize, usize);

/// One move of an answer: the piece's letter, where it starts and lands, the cells it takes.
type Step = (char, Square, Square, Vec<Square>);

/// The moves of an outcome.
fn steps(o: &Value) -> Vec<Step> {
    crate::support::line(o)
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let takes = m["takes"]
                .as_array()
                .map_or(Vec::new(), |t| t.iter().map(cell).collect());
            (
                m["piece"].as_str().unwrap().chars().next().unwrap(),
                cell(&m["from"]),
                cell(&m["to"]),
                takes,
            )
        })
        .collect()
}

/// Frogs and Toads on one row: `F` moves right, `T` left, a step into the empty hole or a jump
/// over one of the other kind.
fn frog_moves(row: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (i, &p) in row.iter().enumerate() {
        let (dir, other): (i64, char) = match p {
            'F' => (1, 'T'),
            'T' => (-1, 'F'),
            _ => continue,
        };
        let at = |k: i64| {
            let j = i as i64 + k * dir;
            (0..row.len() as i64).contains(&j).then_some(j as usize)
        };
        if let Some(a) = at(1).filter(|&a| row[a] == '.') {
            out.push((i, a));
        }
        if let (Some(a), Some(b)) = (at(1), at(2))
            && row[a] == other
            && row[b] == '.'
        {
            out.push((i, b));
        }
    }
    out
}

/// The fewest frog moves from `start` to `goal`, by the test's own breadth-first search.
fn frogs_fewest(start: &str, goal: &str) -> Option<usize> {
    let (start, goal): (Vec<char>, Vec<char>) = (start.chars().collect(), goal.chars().collect());
    let mut depth = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(row) = queue.pop_front() {
        if row == goal {
            return Some(depth[&row]);
        }
        for (a, b) in frog_moves(&row) {
            let mut next = row.clone();
            next.swap(a, b);
            if !depth.contains_key(&next) {
                depth.insert(next.clone(), depth[&row] + 1);
                queue.push_back(next);
            }
        }
    }
    None
}

#[test]
fn frogs_and_toads_take_n_times_n_plus_2_moves_and_each_one_is_legal() {
    for (n, file) in [
        (3, "puzzles/frogs_toads/frogs_toads_3.yaml"),
        (4, "puzzles/frogs_toads/frogs_toads_4.yaml"),
    ] {
        let start = format!("{}.{}", "F".repeat(n), "T".repeat(n));
        let goal = format!("{}.{}", "T".repeat(n), "F".repeat(n));
        // The published figure, n(n + 2), and the test's own search agree.
        assert_eq!(frogs_fewest(&start, &goal), Some(n * (n + 2)));
        let o = solved(file);
        assert_eq!(o["status"], "solved");
        assert_eq!(o["move_count"], n * (n + 2));
        let mut row: Vec<char> = start.chars().collect();
        for (k, (piece, from, to, takes)) in steps(&o).into_iter().enumerate() {
            assert_eq!((from.0, to.0), (0, 0));
            assert!(takes.is_empty(), "move {k} takes a piece");
            assert_eq!(row[from.1], piece, "move {k}");
            assert!(
                frog_moves(&row).contains(&(from.1, to.1)),
                "move {k} is not legal"
            );
            row.swap(from.1, to.1);
        }
        assert_eq!(row.iter().collect::<String>(), goal);
        assert_eq!(o["pegs_left"], 2 * n);
    }
}

/// Hoppers' pond: 13 pads, `(r + c)` even on a 5 × 5 square.
fn pad(r: i64, c: i64) -> bool {
    (0..5).contains(&r) && (0..5).contains(&c) && (r + c) % 2 == 0
}

/// Replays a Hoppers answer on `board` (rows of `G R . #`, one character a square): each jump
/// along a line of pads over a frog onto an empty pad, the frog jumped over removed. Returns
/// the frogs left and where.
fn hoppers_replay(board: &[&str], o: &Value) -> Vec<(char, (usize, usize))> {
    let mut pond: Vec<Vec<char>> = board.iter().map(|r| r.chars().collect()).collect();
    for (k, (piece, (r0, c0), (r1, c1), takes)) in steps(o).into_iter().enumerate() {
        let (dr, dc) = (r1 as i64 - r0 as i64, c1 as i64 - c0 as i64);
        // Straight jumps cross two squares each way (pads stand two apart), diagonal ones one.
        let line = matches!((dr.abs(), dc.abs()), (4, 0) | (0, 4) | (2, 2));
        assert!(
            line && pad(r1 as i64, c1 as i64),
            "move {k}: not a jump along a line of pads"
        );
        let over = ((r0 + r1) / 2, (c0 + c1) / 2);
        assert_eq!(takes, vec![over], "move {k}");
        assert_eq!(pond[r0][c0], piece, "move {k}");
        assert!(
            matches!(pond[over.0][over.1], 'G' | 'R'),
            "move {k}: no frog to jump"
        );
        assert_eq!(pond[r1][c1], '.', "move {k}: the pad is taken");
        pond[r1][c1] = piece;
        pond[r0][c0] = '.';
        pond[over.0][over.1] = '.';
    }
    let mut left = Vec::new();
    for (r, row) in pond.iter().enumerate() {
        for (c, &x) in row.iter().enumerate() {
            if matches!(x, 'G' | 'R') {
                left.push((x, (r, c)));
            }
        }
    }
    left
}

#[test]
fn the_hoppers_challenges_end_with_the_red_frog_alone() {
    let o = solved("puzzles/hoppers/hoppers_red_last.yaml");
    assert_eq!(o["status"], "solved");
    let board = ["..G.G", ".G.G.", "G.G.G", ".G.G.", "R.G.G"];
    let left = hoppers_replay(&board, &o);
    assert_eq!(left.len(), 1);
    assert_eq!(left[0].0, 'R');
    // Every jump takes a frog: eleven greens, eleven jumps.
    assert_eq!(crate::support::line(&o).as_array().unwrap().len(), 11);
    assert_eq!(o["pegs_left"], 1);

    let o = solved("puzzles/hoppers/hoppers_corner.yaml");
    let board = ["G.G..", "...G.", "G.G.G", ".G.G.", "..G.R"];
    assert_eq!(hoppers_replay(&board, &o), vec![('R', (0, 0))]);
}

#[test]
fn a_red_frog_that_can_only_be_jumped_is_unsolvable() {
    // The green frog can jump the red one and nothing else can move: the red frog cannot be last.
    let pond =
        "rules: hoppers\nboard: |\n  G # R # .\n  # . # . #\n  . # . # .\n  # . # . #\n  . # . # .\ngoal:\n";
    let run = |goal: &str| {
        let t = Test::new().file("p.yaml", &format!("{pond}{goal}"));
        t.args(["solve", "p.yaml", "--format", "json"]).run()
    };
    let o = run("  pegs: 1\n  left: {R: 1}\n").status(1).json()[0].clone();
    assert_eq!(o["status"], "unsolvable");
    assert_eq!(
        o["reason"],
        "exhaustive search: the one position tried is not the goal; every other position reachable \
         from the start was ruled out by counts of pieces from which no move can return to the goal's counts"
    );
    // The same pond with the green frog to be last is solved by that one jump.
    let o = run("  pegs: 1\n  left: {G: 1}\n").status(0).json()[0].clone();
    assert_eq!(crate::support::line(&o)[0]["takes"][0], serde_json::json!([0, 2]));
}

#[test]
fn an_unsolvable_pond_names_every_position_it_tried_and_nothing_ruled_out() {
    // Frogs only move right and toads left: no toad gets past the frog at the left end.
    let (start, goal) = ("FTT.TTTF", "TF.TTTTF");
    let mut seen = HashSet::from([start.chars().collect::<Vec<char>>()]);
    let mut queue: VecDeque<Vec<char>> = seen.iter().cloned().collect();
    while let Some(row) = queue.pop_front() {
        for (a, b) in frog_moves(&row) {
            let mut next = row.clone();
            next.swap(a, b);
            if seen.insert(next.clone()) {
                queue.push_back(next);
            }
        }
    }
    assert!(!seen.contains(&goal.chars().collect::<Vec<char>>()));
    let spaced = |r: &str| r.chars().map(String::from).collect::<Vec<_>>().join(" ");
    let yaml = format!(
        "rules: frogs_toads\nboard: |\n  {}\ngoal:\n  board: |\n    {}\n",
        spaced(start),
        spaced(goal)
    );
    let o = Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(1)
        .json()[0]
        .clone();
    assert_eq!(
        o["reason"],
        format!(
            "exhaustive search: none of the {} positions tried reaches the goal; they are every \
             position reachable from the start",
            seen.len()
        )
    );
}

/// The slide maze as the test reads `slide_ricochet.yaml`: rows of `.`, `#`, `R`, `B`.
const MAZE: [&str; 8] = [
    "R...#...", "..#.....", "......#.", ".#......", ".....B..", "...#....", "......#.", "B.......",
];

/// Where a robot at `from` stops sliding by `d` among `robots`: before a wall, the edge or a robot.
fn slide(robots: &[(i64, i64)], from: (i64, i64), d: (i64, i64)) -> (i64, i64) {
    let open = |(r, c): (i64, i64)| {
        (0..8).contains(&r)
            && (0..8).contains(&c)
            && MAZE[r as usize].as_bytes()[c as usize] != b'#'
            && !robots.contains(&(r, c))
    };
    let mut at = from;
    while open((at.0 + d.0, at.1 + d.1)) {
        at = (at.0 + d.0, at.1 + d.1);
    }
    at
}

const DIRS: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The fewest slides that bring robot 0 to `target`, by the test's own breadth-first search.
fn maze_fewest(start: Vec<(i64, i64)>, target: (i64, i64)) -> Option<usize> {
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([(start, 0)]);
    while let Some((robots, n)) = queue.pop_front() {
        if robots[0] == target {
            return Some(n);
        }
        for k in 0..robots.len() {
            for d in DIRS {
                let to = slide(&robots, robots[k], d);
                let mut next = robots.clone();
                next[k] = to;
                if to != robots[k] && seen.insert(next.clone()) {
                    queue.push_back((next, n + 1));
                }
            }
        }
    }
    None
}

#[test]
fn the_slide_maze_takes_the_fewest_slides_and_each_one_stops_where_it_must() {
    let start = vec![(0, 0), (4, 5), (7, 0)];
    let fewest = maze_fewest(start.clone(), (3, 4)).unwrap();
    assert_eq!(fewest, 9);
    let o = solved("puzzles/slide_maze/slide_ricochet.yaml");
    assert_eq!(o["move_count"], fewest);
    let mut robots = start;
    for (k, (piece, from, to, takes)) in steps(&o).into_iter().enumerate() {
        assert!(takes.is_empty());
        let from = (from.0 as i64, from.1 as i64);
        let i = robots
            .iter()
            .position(|&r| r == from)
            .expect("a robot where the move starts");
        assert_eq!(piece, if i == 0 { 'R' } else { 'B' }, "move {k}");
        let to = (to.0 as i64, to.1 as i64);
        assert!(
            DIRS.iter().any(|&d| slide(&robots, from, d) == to && to != from),
            "move {k}"
        );
        robots[i] = to;
    }
    assert_eq!(robots[0], (3, 4));
}

#[test]
fn a_text_answer_draws_each_kind_by_its_letter() {
    Test::new()
        .in_root()
        .args(["solve", "puzzles/frogs_toads/frogs_toads_3.yaml"])
        .run()
        .status(0)
        .stdout_has("solved in 15 moves, proven the fewest, 6 pieces left")
        .stdout_has("1. F [0, 2] to [0, 3] (right)\n    F F . F T T T\n")
        .stdout_has("2. T [0, 4] to [0, 2] (left)\n    F F T F . T T\n");
}

/// A rule family `kinds` in the test's `rules/`, with `moves` as its move list.
fn family(moves: &str, pieces: &str) -> String {
    format!(
        "fn rules(board) {{\n    #{{\n        kind: \"rewrite\",\n        pieces: {pieces},\n        directions: [\"right\"],\n        moves: {moves},\n    }}\n}}\n"
    )
}

fn script_refusal(script: &str) -> String {
    Test::new()
        .file("rules/kinds.rhai", script)
        .file("p.yaml", "rules: kinds\nboard: |\n  F . T\ngoal:\n  pegs: 2\n")
        .args(["solve", "p.yaml"])
        .run()
        .status(2)
        .stderr
}

#[test]
fn a_rewrite_script_that_goes_wrong_is_told_where_and_how() {
    let step = "[#{ dir: \"right\", at: [[0, 0], [0, 1]], was: \"F.\", becomes: \".F\" }]";
    let cases = [
        (
            family(&step.replace("\"F.\"", "\"X.\""), "[\"F\", \"T\"]"),
            "rules/kinds.rhai:6: moves[0].was has `X`: use `.` for empty, `*` for any piece, or a kind of `pieces` (FT)",
        ),
        (
            family(&step.replace("\"F.\"", "\"F..\""), "[\"F\", \"T\"]"),
            "rules/kinds.rhai:6: moves[0].was is \"F..\", 3 characters for 2 `at` cells: give one a cell",
        ),
        (
            family(&step.replace("\"F.\"", "\"F*\""), "[\"F\", \"T\"]"),
            "rules/kinds.rhai:6: moves[0]: cell [0, 1] is `*` in `was` and `F` in `becomes`: `*` (any piece, left as it is) must be in both",
        ),
        (
            family(&step.replace("\".F\"", "\"F.\""), "[\"F\", \"T\"]"),
            "rules/kinds.rhai:6: moves[0] changes nothing: `was` and `becomes` are the same",
        ),
        (
            family(step, "[\"F\", \"T\", \"A\", \"B\", \"C\"]"),
            "rules/kinds.rhai:4: `pieces` lists 5 kinds: a family has 1 to 4",
        ),
        (
            family(step, "[\"F\", \"toad\"]"),
            "rules/kinds.rhai:4: pieces[1] must be a kind's letter: one capital letter, or \"o\" for plain pegs, not \"toad\"",
        ),
        (
            family(&step.replace("[0, 1]]", "[0, 7]]"), "[\"F\", \"T\"]"),
            "rules/kinds.rhai:6: moves[0] (at [0, 7]) names a cell that is not a hole of the board in p.yaml",
        ),
    ];
    for (script, want) in cases {
        let err = script_refusal(&script);
        assert_eq!(err.trim_end(), format!("marbles: error: {want}"), "{script}");
    }
}

#[test]
fn boards_and_goals_of_kinds_are_checked_against_the_family() {
    let cases = [
        (
            "rules: peg_hop\nboard: |\n  o F .\n",
            "p.yaml:3:5: the board has a piece `F` at [0, 1], but `peg_hop` has one kind of peg: draw pegs `o` \
             (lettered pieces are for families whose moves are rewrites, see docs/rules.md)",
        ),
        (
            "rules: frogs_toads\nboard: |\n  F X . T\ngoal:\n  pegs: 2\n",
            "p.yaml:3:5: the board has a piece `X` at [0, 1], but the kinds of `frogs_toads` are F, T: draw each \
             piece by its kind's letter",
        ),
        (
            "rules: hoppers\nboard: |\n  G # R # .\ngoal:\n  left: {Q: 1}\n",
            "p.yaml:5: goal: `left:` names `Q`, but the kinds of `hoppers` are G, R",
        ),
        (
            "rules: hoppers\nboard: |\n  G # R # .\ngoal:\n  left: {red: 1}\n",
            "p.yaml:5: goal: `red` is not a kind: a kind is named by the capital letter its pieces are drawn \
             with (or `o` for pegs)",
        ),
        (
            "rules: peg_hop\nboard: |\n  o o .\ngoal:\n  left: {o: 1}\n",
            "p.yaml:5: goal: `left:` names kinds of pieces, but `peg_hop` has one kind of peg: say `pegs:` instead",
        ),
        (
            "rules: frogs_toads\nboard: |\n  F . T\n",
            "p.yaml: no goal: `frogs_toads` moves pieces of kinds; say where they must end with `goal:` and \
             `board:` (the end position), `left:` (pieces of each kind, e.g. {F: 1}), `pegs:` (pieces in all) \
             or `reach:` (a cell)",
        ),
        (
            "rules: hoppers\nboard: |\n  G # R # .\ngoal:\n  pegs: 1\n  piece: R\n",
            "p.yaml:6: goal: `piece:` names the kind that must stand on the `at:` or `reach:` cell: give one",
        ),
    ];
    for (yaml, want) in cases {
        assert_eq!(
            refusal("p.yaml", yaml).trim_end(),
            format!("marbles: error: {want}"),
            "{yaml}"
        );
    }
}

#[test]
fn hop_only_answer_formats_refuse_boards_of_kinds() {
    Test::new()
        .in_root()
        .args(["solve", "puzzles/frogs_toads/frogs_toads_3.yaml", "--format", "lisp"])
        .run()
        .status(2)
        .stderr_has("`Frogs and Toads, 3 + 3` has pieces of kinds; `--format lisp` writes boards of one kind of peg (use text, json, icpc or moves)");
    Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/frogs_toads/frogs_toads_3.yaml",
            "--format",
            "moves",
        ])
        .run()
        .status(0)
        .stdout_has("15 moves");
}

/// peg_hop written as a rewrite family of one kind, `o`.
const REWRITE_HOP: &str = r#"
fn rules(board) {
    let grid = board.lattice("square");
    let moves = [];
    for cell in grid.cells {
        let x = grid.x(cell[0], cell[1]);
        let y = grid.y(cell[0], cell[1]);
        for d in [[0, -1], [0, 1], [-1, 0], [1, 0]] {
            let over = grid.at(x + d[0], y + d[1]);
            let to = grid.at(x + 2 * d[0], y + 2 * d[1]);
            if over != () && to != () && grid.has(over[0], over[1]) && grid.has(to[0], to[1]) {
                moves.push(#{ at: [cell, over, to], was: "oo.", becomes: "..o" });
            }
        }
    }
    #{ kind: "rewrite", pieces: ["o"], directions: [], moves: moves }
}
"#;

#[test]
fn peg_solitaire_as_rewrites_leaves_the_same_fewest_pegs_as_the_hop_search() {
    // 40 boards of 4 × 5 holes, pegs drawn by a fixed generator: the rewrite search (every
    // position, no hop argument) and the hop searches (classes, pagodas, beams, endgames)
    // must agree on the fewest pegs every time.
    let mut t = Test::new().file("rules/rhop.rhai", REWRITE_HOP);
    let mut x: u64 = 7;
    let mut names = Vec::new();
    for k in 0..40 {
        let mut rows = String::new();
        for _ in 0..4 {
            let row: Vec<&str> = (0..5)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if (x >> 33).is_multiple_of(3) { "." } else { "o" }
                })
                .collect();
            rows += &format!("  {}\n", row.join(" "));
        }
        for family in ["peg_hop", "rhop"] {
            let name = format!("{family}{k:02}.yaml");
            t = t.file(
                &name,
                &format!("rules: {family}\nboard: |\n{rows}goal:\n  pegs: fewest\n"),
            );
            names.push(name);
        }
    }
    let mut args = vec!["solve".to_string(), "--format".into(), "json".into()];
    args.extend(names);
    let out = t.args(&args).run().status(0).json();
    let out = out.as_array().unwrap();
    for pair in out.chunks(2) {
        assert_eq!(pair[0]["status"], "solved", "{}", pair[0]);
        assert_eq!(pair[1]["status"], "solved", "{}", pair[1]);
        assert_eq!(
            pair[0]["pegs_left"], pair[1]["pegs_left"],
            "{} and {}",
            pair[0]["file"], pair[1]["file"]
        );
        // Each jump takes a peg: as many moves as pegs taken, both ways.
        assert_eq!(
            crate::support::line(&pair[0]).as_array().unwrap().len(),
            crate::support::line(&pair[1]).as_array().unwrap().len()
        );
    }
}

/// Pieces that step to a neighbouring hole, taking nothing, or jump one, taking it.
const STEP_JUMP: &str = r#"
fn rules(board) {
    let dirs = [[-1, 0], [1, 0], [0, -1], [0, 1]];
    let names = ["up", "down", "left", "right"];
    let moves = [];
    for cell in board.cells {
        for i in 0..4 {
            let a = [cell[0] + dirs[i][0], cell[1] + dirs[i][1]];
            let b = [cell[0] + 2 * dirs[i][0], cell[1] + 2 * dirs[i][1]];
            if board.has(a[0], a[1]) {
                moves.push(#{ dir: names[i], at: [cell, a], was: "o.", becomes: ".o" });
                if board.has(b[0], b[1]) {
                    moves.push(#{ dir: names[i], at: [cell, a, b], was: "oo.", becomes: "..o" });
                }
            }
        }
    }
    #{ kind: "rewrite", layout: "square", pieces: ["o"], directions: names, moves: moves }
}
"#;

/// The breadth-first search for the fewest moves, stopped by a limit, returns the quick
/// depth-first line it found first beside the moves it proved needed (10 are the fewest).
#[test]
fn a_limit_that_stops_the_fewest_moves_of_kinds_returns_a_line() {
    let run = Test::new()
        .file("rules/stepjump.rhai", STEP_JUMP)
        .file(
            "p.yaml",
            "rules: stepjump\nboard: |\n  o . o . o\n  . o . o .\n  o . o . o\ngoal:\n  pegs: 1\n  moves: fewest\n",
        )
        .args(["solve", "p.yaml", "--max-nodes", "1000", "--format", "json"])
        .run()
        .status(1);
    let v = &run.json()[0];
    crate::support::stopped_with_a_line(v, "node limit (1000 nodes)", 10);
    // The line is its moves, one rewrite each.
    assert_eq!(
        crate::support::line(v).as_array().unwrap().len() as u64,
        v["move_count"],
        "{v}"
    );
}

#[test]
fn limits_hold_for_searches_of_kinds() {
    // The rule scripts get a generous time of their own: on a loaded machine the slide maze's
    // script outran the default 2 s, and this test is about the search's limits.
    for (file, limit, reason) in [
        (
            "puzzles/slide_maze/slide_ricochet.yaml",
            ["--max-nodes", "100"],
            "node limit (100 nodes); no line found yet, at least 4 moves",
        ),
        (
            "puzzles/hoppers/hoppers_red_last.yaml",
            ["--max-nodes", "5"],
            "node limit (5 nodes)",
        ),
        (
            "puzzles/slide_maze/slide_ricochet.yaml",
            ["--max-memory", "4MB"],
            "memory limit (3.8 MiB)",
        ),
    ] {
        let o = Test::new()
            .in_root()
            .args([
                "solve",
                file,
                "--format",
                "json",
                "--script-timeout",
                "60",
                limit[0],
                limit[1],
            ])
            .run()
            .status(1)
            .json()[0]
            .clone();
        // A limit below what the process held before the search says so after the limit.
        assert_eq!(o["status"], "gave_up", "{o}");
        let said = o["reason"].as_str().unwrap();
        assert!(
            said == reason
                || said.starts_with(&format!("{reason}, below the "))
                || said.starts_with(&format!("{reason}; ")),
            "{said}"
        );
        if limit[0] == "--max-nodes" {
            assert_eq!(o["stats"]["nodes"].to_string(), limit[1]);
        } else {
            // What was held, not the growth refused (7.9 MB beside this 3.8 MiB limit).
            let held = o["stats"]["memory_bytes"].as_u64().unwrap();
            assert!(held < 4_000_000, "{held} bytes held under a 4 MB limit");
        }
    }
}

#[test]
fn the_fewest_pieces_come_first_then_the_fewest_moves() {
    // Every Hoppers jump takes a frog: ten frogs down to one is nine jumps, whatever the
    // order; the search must not stop at the first position meeting the rest of the goal.
    let o = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/hoppers/hoppers_corner.yaml",
            "--fewest",
            "--fewest-moves",
            "--format",
            "json",
        ])
        .run()
        .status(0)
        .json()[0]
        .clone();
    assert_eq!(
        (o["pegs_left"].as_u64(), o["move_count"].as_u64()),
        (Some(1), Some(9))
    );
    let board = ["G.G..", "...G.", "G.G.G", ".G.G.", "..G.R"];
    assert_eq!(hoppers_replay(&board, &o), vec![('R', (0, 0))]);
}

/// A family `kinds` of one move, `rule`, on the board `F . T . .`, with `goal`.
fn one_rule(rule: &str, goal: &str) -> Test {
    let script = format!(
        "fn rules(board) {{\n    #{{ kind: \"rewrite\", pieces: [\"F\", \"T\"], directions: [\"right\"], moves: [{rule}] }}\n}}\n"
    );
    Test::new().file("rules/kinds.rhai", &script).file(
        "p.yaml",
        &format!("rules: kinds\nboard: |\n  F . T . .\ngoal:\n{goal}"),
    )
}

#[test]
fn a_rewrite_that_is_not_one_piece_moving_lists_every_cell_it_changes() {
    let turn = "#{ dir: \"right\", at: [[0, 0], [0, 1]], was: \"F.\", becomes: \".T\" }";
    one_rule(turn, "  left: {F: 0}\n")
        .args(["solve", "p.yaml"])
        .run()
        .status(0)
        .stdout_has("1. changes [0, 0] F to ., [0, 1] . to T (right)\n    . T T . .\n");
    // A piece that goes leaves an empty hole, not a mark.
    let gone = "#{ dir: \"right\", at: [[0, 0]], was: \"F\", becomes: \".\" }";
    one_rule(gone, "  left: {F: 0}\n")
        .args(["solve", "p.yaml"])
        .run()
        .status(0)
        .stdout_has("1. changes [0, 0] F to . (right)\n    . . T . .\n");
    // Both pieces taken: `pegs: 0` is a goal a family of kinds can meet.
    let both = "#{ dir: \"right\", at: [[0, 0], [0, 1], [0, 2]], was: \"F.T\", becomes: \"...\" }";
    let o = one_rule(both, "  pegs: 0\n")
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(0)
        .json()[0]
        .clone();
    assert_eq!(o["pegs_left"], 0);
    assert_eq!(
        crate::support::line(&o)[0]["changes"][1],
        serde_json::json!({"at": [0, 2], "was": "T", "becomes": "."})
    );
}

#[test]
fn more_mistakes_in_families_and_goals_of_kinds_are_refused_or_warned() {
    let step = "#{ dir: \"right\", at: [[0, 0], [0, 1]], was: \"F.\", becomes: \".F\" }";
    let cases = [
        (
            one_rule(step, "  board: |\n    . F T . .\n  left: {F: 1}\n"),
            "p.yaml:7: goal: `left:` and `board:` together: the goal board already says how many pegs are left \
             and where; drop `left:`",
        ),
        (
            one_rule(&step.replace("\"F.\"", "5"), "  pegs: 2\n"),
            "rules/kinds.rhai:2: moves[0].was must be a string, not 5",
        ),
        (
            one_rule(&step.replace("\"F.\"", "\"F\""), "  pegs: 2\n"),
            "rules/kinds.rhai:2: moves[0].was is \"F\", 1 character for 2 `at` cells: give one a cell",
        ),
        (
            one_rule(
                &step.replace("[[0, 0], [0, 1]]", "[[0, 0], [0, 0]]"),
                "  pegs: 2\n",
            ),
            "rules/kinds.rhai:2: moves[0] names the cell [0, 0] twice in `at`",
        ),
        (
            Test::new().file("p.yaml", "rules: peg_hop\nboard: |\n  o o .\ngoal:\n  pegs: 0\n"),
            "p.yaml:5: goal pegs must be at least 1",
        ),
    ];
    for (t, want) in cases {
        let err = t.args(["solve", "p.yaml"]).run().status(2).stderr;
        assert_eq!(err.trim_end(), format!("marbles: error: {want}"));
    }
    let links = family("[]", "[\"F\"]").replace("moves: [],", "moves: [], links: [],");
    assert_eq!(
        script_refusal(&links).trim_end(),
        "marbles: error: rules/kinds.rhai:6: `links` is for tilt families: a family of kind \"rewrite\" gives \
         its moves in `moves`"
    );
    let twice = family("[]", "[\"F\"]").replace("[\"right\"]", "[\"right\", \"right\"]");
    assert_eq!(
        script_refusal(&twice).trim_end(),
        "marbles: error: rules/kinds.rhai:5: direction \"right\" is listed twice"
    );
    // A board its family makes no move on is a warning for `check` and a reason for `solve`.
    let t = Test::new().file(
        "p.yaml",
        "rules: frogs_toads\nboard: |\n  F # . # T\ngoal:\n  board: |\n    T # . # F\n",
    );
    let t = t.args(["check", "p.yaml"]).run().status(0);
    assert!(
        t.stdout
            .contains("warn  p.yaml  the rules make no move on this board: no piece can ever move"),
        "{}",
        t.stdout
    );
    let o = Test::new()
        .file(
            "p.yaml",
            "rules: frogs_toads\nboard: |\n  F # . # T\ngoal:\n  board: |\n    T # . # F\n",
        )
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(1)
        .json()[0]
        .clone();
    assert_eq!(o["reason"], "the rules make no move on this board");
}

/// `p.yaml` of `t` solved: the pieces left and the moves made.
fn left_and_moves(t: Test) -> (Option<u64>, Option<usize>) {
    let o = t
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(0)
        .json()[0]
        .clone();
    (
        o["pegs_left"].as_u64(),
        crate::support::line(&o).as_array().map(Vec::len),
    )
}

#[test]
fn goals_a_hop_cannot_meet_are_goals_pieces_of_kinds_can() {
    // Both pieces taken: an empty goal board is the same goal as `pegs: 0`.
    let both = "#{ dir: \"right\", at: [[0, 0], [0, 1], [0, 2]], was: \"F.T\", becomes: \"...\" }";
    for goal in ["  board: |\n    . . . . .\n", "  pegs: 0\n"] {
        assert_eq!(left_and_moves(one_rule(both, goal)), (Some(0), Some(1)), "{goal}");
    }
    // A family drawn with `o` whose move adds a piece: more pieces than the start is a goal.
    let grow = family(
        "[#{ dir: \"right\", at: [[0, 0], [0, 1]], was: \"o.\", becomes: \"oo\" }]",
        "[\"o\"]",
    );
    for goal in ["  board: |\n    o o .\n", "  pegs: 2\n"] {
        let t = Test::new().file("rules/kinds.rhai", &grow).file(
            "p.yaml",
            &format!("rules: kinds\nboard: |\n  o . .\ngoal:\n{goal}"),
        );
        assert_eq!(left_and_moves(t), (Some(2), Some(1)), "{goal}");
    }
    // A hop family still refuses both, at the goal's line.
    for (goal, want) in [
        (
            "  board: |\n    . . .\n",
            "p.yaml:5: goal: `board:` has no pegs, but a hop never takes the last one",
        ),
        (
            "  pegs: 2\n",
            "p.yaml:5: goal: 2 pegs to leave, but the board starts with 1 peg and a jump only removes pegs",
        ),
    ] {
        let err = Test::new()
            .file(
                "p.yaml",
                &format!("rules: peg_hop\nboard: |\n  o . .\ngoal:\n{goal}"),
            )
            .args(["solve", "p.yaml"])
            .run()
            .status(2)
            .no_panic()
            .stderr;
        assert_eq!(err.trim_end(), format!("marbles: error: {want}"));
    }
}

/// A random slide board of the test's own: its size, its `#` squares, the walls between
/// side-by-side squares, the robots (letter and square, the first one R) and the target.
struct SlideBoard {
    size: i64,
    blocked: HashSet<(i64, i64)>,
    walls: HashSet<((i64, i64), (i64, i64))>,
    robots: Vec<(char, (i64, i64))>,
    target: (i64, i64),
    /// The robot that must reach the target (else any robot).
    piece: Option<char>,
}

impl SlideBoard {
    fn random(seed: &mut u64) -> Self {
        let mut roll = |n: u64| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed % n) as i64
        };
        let size = 4 + roll(3);
        let squares: Vec<(i64, i64)> = (0..size).flat_map(|r| (0..size).map(move |c| (r, c))).collect();
        let blocked: HashSet<_> = squares.iter().copied().filter(|_| roll(9) == 0).collect();
        let open: Vec<_> = squares.iter().copied().filter(|s| !blocked.contains(s)).collect();
        let mut walls = HashSet::new();
        for &(r, c) in &open {
            for n in [(r, c + 1), (r + 1, c)] {
                if open.contains(&n) && roll(5) == 0 {
                    walls.insert(((r, c), n));
                }
            }
        }
        let mut robots = Vec::new();
        for letter in &['R', 'G', 'G', 'B'][..2 + roll(3) as usize] {
            let at = loop {
                let s = open[roll(open.len() as u64) as usize];
                if robots.iter().all(|&(_, o)| o != s) {
                    break s;
                }
            };
            robots.push((*letter, at));
        }
        let target = open[roll(open.len() as u64) as usize];
        let piece = (roll(4) != 0).then_some('R');
        SlideBoard {
            size,
            blocked,
            walls,
            robots,
            target,
            piece,
        }
    }

    fn yaml(&self) -> String {
        let mut board = String::new();
        for r in 0..self.size {
            let row: Vec<String> = (0..self.size)
                .map(|c| match self.robots.iter().find(|&&(_, at)| at == (r, c)) {
                    Some((letter, _)) => letter.to_string(),
                    None if self.blocked.contains(&(r, c)) => "#".into(),
                    None => ".".into(),
                })
                .collect();
            board += &format!("  {}\n", row.join(" "));
        }
        let walls: Vec<String> = self
            .walls
            .iter()
            .map(|(a, b)| format!("[[{}, {}], [{}, {}]]", a.0, a.1, b.0, b.1))
            .collect();
        let piece = self.piece.map_or(String::new(), |p| format!("\n  piece: {p}"));
        format!(
            "rules: ricochet\nboard: |\n{board}walls: [{}]\ngoal:\n  reach: [{}, {}]{piece}\n  moves: fewest\n",
            walls.join(", "),
            self.target.0,
            self.target.1
        )
    }

    /// Where the robot at `from` stops sliding by `d` among the robots `at`.
    fn slide(&self, at: &[(i64, i64)], from: (i64, i64), d: (i64, i64)) -> (i64, i64) {
        let mut now = from;
        loop {
            let next = (now.0 + d.0, now.1 + d.1);
            let inside = (0..self.size).contains(&next.0) && (0..self.size).contains(&next.1);
            let walled = self.walls.contains(&(now, next)) || self.walls.contains(&(next, now));
            if !inside || walled || self.blocked.contains(&next) || at.contains(&next) {
                return now;
            }
            now = next;
        }
    }

    /// Replays an answer by the test's own rules: each move a slide of the robot on its
    /// square, the last one leaving a robot the goal wants on the target.
    fn replay(&self, o: &Value, what: &str) {
        let mut at: Vec<_> = self.robots.iter().map(|&(_, s)| s).collect();
        for (piece, from, to, _) in steps(o) {
            let (from, to) = ((from.0 as i64, from.1 as i64), (to.0 as i64, to.1 as i64));
            let k = at
                .iter()
                .position(|&s| s == from)
                .expect("a robot where a move starts");
            assert_eq!(piece, self.robots[k].0, "{what}");
            assert!(DIRS.iter().any(|&d| self.slide(&at, from, d) == to), "{what}");
            at[k] = to;
        }
        assert!(self.won(&at), "{what}");
    }

    /// A shipped slide puzzle, read by the test from its YAML.
    fn shipped(rel: &str) -> Self {
        Self::read(&std::fs::read_to_string(root().join("puzzles").join(rel)).unwrap())
    }

    /// A slide puzzle of a square board, read by the test from its YAML.
    fn read(text: &str) -> Self {
        let v: serde_yaml::Value = serde_yaml::from_str(text).unwrap();
        let rows: Vec<Vec<&str>> = v["board"]
            .as_str()
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        let (mut blocked, mut robots) = (HashSet::new(), Vec::new());
        for (r, row) in rows.iter().enumerate() {
            for (c, sym) in row.iter().enumerate() {
                let at = (r as i64, c as i64);
                match *sym {
                    "#" => _ = blocked.insert(at),
                    "." => {}
                    robot => robots.push((robot.chars().next().unwrap(), at)),
                }
            }
        }
        let square = |v: &serde_yaml::Value| (v[0].as_i64().unwrap(), v[1].as_i64().unwrap());
        let walls = v["walls"]
            .as_sequence()
            .unwrap()
            .iter()
            .map(|w| (square(&w[0]), square(&w[1])))
            .collect();
        SlideBoard {
            size: rows.len() as i64,
            blocked,
            walls,
            robots,
            target: square(&v["goal"]["reach"]),
            piece: v["goal"]["piece"].as_str().map(|p| p.chars().next().unwrap()),
        }
    }

    fn won(&self, at: &[(i64, i64)]) -> bool {
        at.iter()
            .enumerate()
            .any(|(k, &s)| s == self.target && self.piece.is_none_or(|p| self.robots[k].0 == p))
    }

    /// The fewest slides to the goal, by plain breadth-first search over every robot's square.
    fn fewest(&self) -> Option<usize> {
        self.search().0
    }

    /// [`SlideBoard::fewest`], and the positions the search met (all those reachable when
    /// there is no answer).
    fn search(&self) -> (Option<usize>, usize) {
        let start: Vec<_> = self.robots.iter().map(|&(_, s)| s).collect();
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([(start, 0)]);
        while let Some((at, n)) = queue.pop_front() {
            if self.won(&at) {
                return (Some(n), seen.len());
            }
            for k in 0..at.len() {
                for d in DIRS {
                    let mut next = at.clone();
                    next[k] = self.slide(&at, at[k], d);
                    if seen.insert(next.clone()) {
                        queue.push_back((next, n + 1));
                    }
                }
            }
        }
        (None, seen.len())
    }
}

/// A board whose answer is far or absent is decided in about one pass over its positions:
/// iterative deepening went over them again at each depth (here 1.57 million nodes for 5,243
/// positions; on a 40 × 100 board, 65 s where one pass takes 1.5).
#[test]
fn a_slide_puzzle_with_no_answer_is_decided_in_about_one_pass_over_its_positions() {
    let yaml = "rules: ricochet\nboard: |\n  # . . . . . # . . . . .\n  . . . . . . . . . . . .\n  \
                . . . . . . . . . . . .\n  . . . # . . . R . . . .\n  . . . . . . . . . . . .\n  \
                . . . . . . . . . . # .\n  . . . . . . . . . . . .\n  . . . . . . . . # . . .\n  \
                . . . . . . . . . . . .\n  # . . . . . . . . . . .\n  . . . . . . . B . . . .\n  \
                . . . . . . . . # . . .\nwalls: [[[8, 9], [8, 10]], [[6, 3], [6, 4]], [[9, 8], [9, 9]], \
                [[10, 10], [10, 11]]]\ngoal:\n  reach: [3, 8]\n  piece: B\n  moves: fewest\n";
    let (fewest, reachable) = SlideBoard::read(yaml).search();
    assert_eq!(fewest, None);
    let o = &Test::new()
        .file("far.yaml", yaml)
        .args(["solve", "--format", "json", "far.yaml"])
        .run()
        .status(1)
        .json()[0];
    assert_eq!(
        o["reason"],
        format!(
            "exhaustive search: none of the {reachable} positions tried reaches the goal; they are \
             every position reachable from the start"
        )
    );
    let nodes = o["stats"]["nodes"].as_u64().unwrap();
    assert!(
        nodes < 32 * reachable as u64,
        "{nodes} nodes for {reachable} positions"
    );
}

#[test]
fn slides_on_random_walled_boards_take_as_few_moves_as_a_plain_breadth_first_search() {
    let mut seed = 0x5eed_2026_u64;
    let boards: Vec<SlideBoard> = (0..80).map(|_| SlideBoard::random(&mut seed)).collect();
    let mut t = Test::new();
    let mut args = vec!["solve".to_string(), "--format".into(), "json".into()];
    for (i, b) in boards.iter().enumerate() {
        t = t.file(&format!("b{i:03}.yaml"), &b.yaml());
        args.push(format!("b{i:03}.yaml"));
    }
    let out = t.args(args).run().json();
    let (mut solved, mut none) = (0, 0);
    for (i, (b, o)) in boards.iter().zip(out.as_array().unwrap()).enumerate() {
        let want = b.fewest();
        match want {
            Some(n) => {
                assert_eq!(o["status"], "solved", "board {i}:\n{}", b.yaml());
                assert_eq!(o["move_count"], n, "board {i}:\n{}", b.yaml());
                solved += 1;
            }
            None => {
                assert_eq!(o["status"], "unsolvable", "board {i}:\n{}", b.yaml());
                none += 1;
                continue;
            }
        }
        b.replay(o, &format!("board {i}"));
    }
    assert!(solved > 40 && none > 0, "{solved} solved, {none} unsolvable");
}

/// A 3 × 3 slide puzzle with `walls` and the goal lines `goal`.
fn slide_puzzle(walls: &str, goal: &str) -> String {
    format!("rules: ricochet\nboard: |\n  R . .\n  . # .\n  G . .\nwalls: {walls}\ngoal:\n{goal}")
}

#[test]
fn mistakes_in_a_slide_puzzle_are_told_at_their_line() {
    let reach = "  reach: [0, 2]\n  piece: R\n";
    let cases = [
        (
            slide_puzzle("[[[0, 0], [2, 2]]]", reach),
            "p.yaml:6: wall 1 is between [0, 0] and [2, 2], which are not neighbours: a wall stands on the edge between two side-by-side squares",
        ),
        (
            slide_puzzle("[[[0, 1], [1, 1]]]", reach),
            "p.yaml:6: wall 1 names [1, 1], which is not a square of the board (off it, or `#`)",
        ),
        (
            slide_puzzle("[[[0, 2], [0, 3]]]", reach),
            "p.yaml:6: wall 1 names [0, 3], which is not a square of the board (off it, or `#`)",
        ),
        (
            slide_puzzle("[]", "  reach: [1, 1]\n  piece: R\n"),
            "p.yaml:8: goal: the target [1, 1] is off the board: name a square of it (not `#`)",
        ),
        (
            slide_puzzle("[]", "  reach: [5, 0]\n"),
            "p.yaml:8: goal: the target [5, 0] is off the board: name a square of it (not `#`)",
        ),
        (
            slide_puzzle("[]", "  reach: [0, 2]\n  piece: Y\n"),
            "p.yaml:9: goal: `piece: Y`, but the board has no robot `Y`",
        ),
        (
            slide_puzzle("[]", "  pegs: 1\n"),
            "p.yaml:8: goal: `pegs:` is not a goal of a slide puzzle",
        ),
        (
            "rules: ricochet\nboard: |\n  R . X\ngoal:\n  reach: [0, 1]\n".to_string(),
            "p.yaml:3:7: the board has a robot `X` at [0, 2], but the robots of `ricochet` are RGBYS",
        ),
        (
            "rules: slide_maze\nboard: |\n  R . .\nwalls: [[[0, 0], [0, 1]]]\ngoal:\n  reach: [0, 2]\n  piece: R\n"
                .to_string(),
            "p.yaml:4: `walls:` between squares are for slide families; `slide_maze` draws no walls",
        ),
    ];
    for (yaml, want) in cases {
        let err = refusal("p.yaml", &yaml);
        assert!(err.contains(want), "{want}\nnot in\n{err}");
    }
}

/// A family script whose keys or steps would be ignored or would carry a robot past a wall is
/// refused at the line of its map, whatever its kind.
#[test]
fn keys_a_kind_does_not_take_and_steps_no_slide_can_make_are_refused() {
    let slide = |dirs: &str, extra: &str| {
        format!(
            "fn rules(board) {{\n    #{{ kind: \"slide\", pieces: [\"R\"], directions: {dirs}{extra} }}\n}}\n"
        )
    };
    let down = "[#{ name: \"down\", step: [1, 0] }]";
    let tilt = |dirs: &str, extra: &str| {
        format!("fn rules(board) {{\n    #{{ kind: \"tilt\", directions: {dirs}, links: []{extra} }}\n}}\n")
    };
    let tilts = "[#{ name: \"down\", step: [1, 0] }]";
    let slider = "board: |\n  R . .\n  . . .\n  . . .\nwalls: [[[0, 0], [1, 0]]]\ngoal:\n  reach: [2, 0]\n";
    let tilter = "size: 2\nmarbles: [[0, 0]]\nholes: [[1, 0]]\n";
    let hop = "fn rules(board) {\n    #{ kind: \"hop\", directions: [\"x\"], jumps: [], links: [] }\n}\n";
    for (script, puzzle, want) in [
        (
            slide("[#{ name: \"jump\", step: [2, 0] }]", ""),
            slider,
            "rules/f.rhai:2: direction \"jump\" steps [2, 0]: a slide steps to a side-by-side square, \
             [-1, 0], [0, 1], [1, 0] or [0, -1] (a robot stops at each wall and `#` on its way)",
        ),
        (
            slide("[]", ""),
            slider,
            "rules/f.rhai:2: a slide family needs `directions`, each with its `step`, e.g. #{ name: \"up\", step: [-1, 0] }",
        ),
        (
            slide(down, ", goal: #{ pegs: 1 }"),
            slider,
            "rules/f.rhai:2: a slide family takes no `goal`: a slide puzzle's goal is its own, a robot \
             reaching a target",
        ),
        (
            tilt(tilts, ", goal: #{ pegs: 1 }"),
            tilter,
            "rules/f.rhai:2: a tilt family takes no `goal`: its goal is every marble in its own hole",
        ),
        (
            tilt(tilts, ", moves: []"),
            tilter,
            "rules/f.rhai:2: a tilt family takes no `moves`: marbles rolls the marbles itself, square by \
             square along `links`",
        ),
        (
            tilt(tilts, ", layout: \"triangle\""),
            tilter,
            "rules/f.rhai:2: a tilt family takes no `layout`: a tilt board is a square of n×n squares",
        ),
        (
            // Tables grow with every direction: 40,000 built gigabytes outside every limit.
            tilt(
                &format!(
                    "[{}]",
                    (0..65)
                        .map(|i| format!("#{{ name: \"d{i}\", step: [1, 0] }}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "",
            ),
            tilter,
            "rules/f.rhai:2: `directions` lists 65 directions: a family names at most 64 (each a way \
             to tilt, slide or jump)",
        ),
        (
            tilt("[#{ name: \"still\", step: [0, 0] }]", ""),
            tilter,
            "rules/f.rhai:2: direction \"still\" steps [0, 0]: a tilt's step is the way marbles roll, \
             e.g. [-1, 0] for up",
        ),
        (
            hop.to_string(),
            "board: |\n  o o .\n",
            "rules/f.rhai:2: `links` is for tilt families: a hop family gives its moves in `jumps`",
        ),
    ] {
        let err = Test::new()
            .file("rules/f.rhai", &script)
            .file("p.yaml", &format!("rules: f\n{puzzle}"))
            .args(["check", "p.yaml"])
            .run()
            .status(2)
            .stderr;
        assert_eq!(err, format!("marbles: error: {want}\n"), "{script}");
    }
}

#[test]
fn a_fifth_robot_and_a_target_for_any_robot_are_solved_exactly() {
    // The red robot reaches [0, 2] only by stopping against the silver one, which must move
    // first; any robot reaches it at once.
    let board = "rules: ricochet\nboard: |\n  . . . .\n  R . . .\n  . . . .\n  G B Y S\n";
    let red = solved_json("p.yaml", &format!("{board}goal:\n  reach: [0, 2]\n  piece: R\n"));
    assert_eq!(red[0]["move_count"], 3, "{red}");
    let any = solved_json("p.yaml", &format!("{board}goal:\n  reach: [0, 3]\n"));
    assert_eq!(any[0]["move_count"], 1, "{any}");
    assert_eq!(any[0]["moves"][0]["piece"], "S");
    // The settings name a piece reaching the target, not pegs; no pieces are counted.
    let settings = any[0]["settings"].as_str().unwrap_or_default();
    assert!(
        settings.starts_with("goal: a piece reaching [0, 3]; order: script;"),
        "{settings}"
    );
    assert!(
        red[0]["settings"]
            .as_str()
            .unwrap_or_default()
            .starts_with("goal: a piece reaching [0, 2] (kind R);"),
        "{red}"
    );
    assert_eq!(any[0]["pegs_left"], Value::Null, "{any}");
}

#[test]
fn a_slide_answer_names_the_robot_on_the_target_and_draws_the_walls_between_squares() {
    // The red robot stops against the wall right of [0, 1]; the wall under [1, 2] is drawn
    // too, as `---` on a line of its own.
    let yaml = slide_puzzle(
        "[[[0, 1], [0, 2]], [[1, 2], [2, 2]]]",
        "  reach: [0, 1]\n  piece: R\n",
    );
    Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml"])
        .run()
        .status(0)
        .stdout_has("solved in 1 move, proven the fewest, R robot on [0, 1]\ngoal: R robot on [0, 1]\n")
        .stdout_has("start:\n    R +|.\n    . # .\n       ---\n    G . .\n")
        .stdout_has("1. R [0, 0] to [0, 1] (right)\n    . R|.\n");
    let report = tempfile::tempdir().expect("temp dir");
    let at = report.path().display().to_string();
    Test::new()
        .file("p.yaml", &yaml)
        .args(["batch", "p.yaml", "--report", &at, "--quiet"])
        .run()
        .status(0);
    let page = std::fs::read_to_string(report.path().join("index.html")).expect("index.html");
    // The edge right of [0, 1] and the one under [1, 2], squares 1 apart, centres at [x, y].
    assert!(
        page.contains("<path class=\"wall\" d=\"M1.5 -0.5L1.5 0.5M1.5 1.5L2.5 1.5\"/>"),
        "{page}"
    );
    // The target [0, 1], ringed.
    assert!(
        page.contains("<circle class=\"target\" cx=\"1\" cy=\"0\" r=\".44\"/>"),
        "{page}"
    );
    // A wall under the leftmost column is drawn whole: the board moves right by one.
    let yaml = slide_puzzle("[[[0, 0], [1, 0]]]", "  reach: [0, 2]\n  piece: R\n");
    Test::new()
        .file("p.yaml", &yaml)
        .args(["solve", "p.yaml"])
        .run()
        .status(0)
        .stdout_has("start:\n     R . +\n    ---\n     . # .\n     G . .\n");
}

#[test]
fn the_hardest_problem_ten_moves_along_its_published_line_takes_the_fifteen_left() {
    // The published solution of the 25-move problem (DriftingDroids, "minimum number of
    // robots moved"), robot and direction a move. The whole problem takes a minute in a
    // release build (benches/ricochet.py); from the position after its first 10 moves the
    // fewest left must be 15: fewer would make the whole problem shorter than its proven 25.
    let line = "gS gE gN gE gS gE bN bW bS bW bS bW bS bE gS gW gS gW gN bW gS gE bS bE bN";
    let mut board = SlideBoard::shipped("ricochet/hardest_25_moves.yaml");
    let mut at: Vec<_> = board.robots.iter().map(|&(_, s)| s).collect();
    let mut halfway = None;
    for (n, m) in line.split(' ').enumerate() {
        let letter = m.chars().next().unwrap().to_ascii_uppercase();
        let k = board.robots.iter().position(|&(l, _)| l == letter).unwrap();
        let d = match &m[1..] {
            "N" => (-1, 0),
            "S" => (1, 0),
            "W" => (0, -1),
            _ => (0, 1),
        };
        let to = board.slide(&at, at[k], d);
        assert_ne!(to, at[k], "move {} of the published line goes nowhere", n + 1);
        at[k] = to;
        if n + 1 == 10 {
            halfway = Some(at.clone());
        }
    }
    // The shipped board, walls and target are the published ones: the line ends on the target.
    assert!(board.won(&at), "the published line misses the target: {at:?}");
    for (robot, s) in board.robots.iter_mut().zip(halfway.unwrap()) {
        robot.1 = s;
    }
    let o = &solved_json("p.yaml", &board.yaml())[0];
    assert_eq!(o["move_count"], 15, "{o}");
    board.replay(o, "the second half");
}

/// A `pegs: fewest` search of pieces stopped by a limit says what it counts, pieces (it said
/// "7 pieces left … best found so far 7 pegs"), and the line it found gets there.
#[test]
fn a_fewest_pieces_give_up_counts_pieces() {
    let board = "  G # G # .\n  # . # G #\n  G # G # G\n  # G # G #\n  . # G # R\n";
    let run = Test::new()
        .file(
            "f.yaml",
            &format!("rules: hoppers\nboard: |\n{board}goal:\n  pegs: fewest\n"),
        )
        .args(["solve", "f.yaml", "--max-nodes", "5", "--format", "json"])
        .run()
        .status(1);
    let o = &run.json()[0];
    let left = o["pegs_left"].as_u64().unwrap();
    assert_eq!(
        o["reason"],
        format!("node limit (5 nodes); best found so far {left} pieces, not proven the fewest"),
        "{o}"
    );
    let rows: Vec<String> = board.lines().map(|r| r.replace(' ', "")).collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    assert_eq!(hoppers_replay(&rows, o).len(), left as usize, "{o}");
}
