//! The core: solving shipped and scripted puzzles, with every answer replayed independently, and bad input.

use crate::support::{Enter, Test, root, tilt_box};
use serde_json::Value;
use std::collections::BTreeSet;

pub type Cell = (i64, i64);

/// Pegs and holes of a YAML board picture, read independently of marbles' own parser.
fn board_of(yaml: &str) -> (BTreeSet<Cell>, BTreeSet<Cell>) {
    let v: serde_yaml::Value = serde_yaml::from_str(yaml).unwrap();
    drawing(v["board"].as_str().unwrap())
}

/// Pegs and holes of a drawing of rows of `o . #`.
pub fn drawing(text: &str) -> (BTreeSet<Cell>, BTreeSet<Cell>) {
    let (mut pegs, mut holes) = (BTreeSet::new(), BTreeSet::new());
    for (r, line) in text.lines().enumerate() {
        for (c, t) in line.split_whitespace().enumerate() {
            let cell = (r as i64, c as i64);
            match t {
                "o" => {
                    pegs.insert(cell);
                    holes.insert(cell);
                }
                "." => {
                    holes.insert(cell);
                }
                _ => {}
            }
        }
    }
    (pegs, holes)
}

fn cell(v: &Value) -> Cell {
    (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
}

/// Each move's `from` and `to` cells.
fn from_to(moves: &Value) -> Vec<(Cell, Cell)> {
    let moves = moves.as_array().unwrap().iter();
    moves.map(|m| (cell(&m["from"]), cell(&m["to"]))).collect()
}

/// Where each token of a YAML board stands on its lattice, in coordinates where `dirs` are the
/// unit steps: `(line, column / 2)` on the square lattice; on the triangular one (`TRIANGLE`)
/// `(line, (x + line) / 2)` with `x` the column as drawn centred (a left-aligned drawing,
/// each row half a step left of the one above, is `x = column − line`).
fn lattice_of(yaml: &str, dirs: &[Cell]) -> std::collections::BTreeMap<Cell, Cell> {
    let v: serde_yaml::Value = serde_yaml::from_str(yaml).unwrap();
    let mut drawn = Vec::new();
    for (y, line) in v["board"].as_str().unwrap().lines().enumerate() {
        let mut c = 0;
        for (x, ch) in line.chars().enumerate() {
            if !ch.is_whitespace() {
                drawn.push(((y as i64, c), (x as i64, y as i64), ch != '#'));
                c += 1;
            }
        }
    }
    let uniform = |key: fn(i64, i64) -> i64| {
        let mut k = drawn
            .iter()
            .filter(|t| t.2)
            .map(|t| key(t.1.0, t.1.1).rem_euclid(2));
        let first = k.next();
        k.all(|p| Some(p) == first)
    };
    let centred = uniform(|x, y| x + y);
    drawn
        .iter()
        .map(|&(cell, (x, y), _)| {
            let point = if dirs == TRIANGLE {
                let x = if centred { x } else { x - y };
                (y, (x + y).div_euclid(2))
            } else {
                (y, x.div_euclid(2))
            };
            (cell, point)
        })
        .collect()
}

/// Replays hop moves, checking each is a legal jump along one of `dirs` on the board's lattice
/// as drawn; returns the pegs left.
pub fn replay_hops(yaml: &str, moves: &Value, dirs: &[Cell]) -> BTreeSet<Cell> {
    let (mut pegs, holes) = board_of(yaml);
    let at = lattice_of(yaml, dirs);
    for (i, m) in moves.as_array().unwrap().iter().enumerate() {
        let (from, over, to) = (cell(&m["from"]), cell(&m["over"]), cell(&m["to"]));
        let [f, o, t] = [from, over, to].map(|c| at[&c]);
        let d = (o.0 - f.0, o.1 - f.1);
        assert!(
            dirs.contains(&d),
            "move {i}: {from:?}→{over:?} is not a listed direction"
        );
        assert_eq!(t, (o.0 + d.0, o.1 + d.1), "move {i}: not a straight jump");
        assert!(
            pegs.contains(&from) && pegs.contains(&over),
            "move {i}: needs pegs at from and over"
        );
        assert!(
            holes.contains(&to) && !pegs.contains(&to),
            "move {i}: needs an empty hole at to"
        );
        pegs.remove(&from);
        pegs.remove(&over);
        pegs.insert(to);
    }
    pegs
}

pub const SQUARE: [Cell; 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
pub const TRIANGLE: [Cell; 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];

fn shipped(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
}

#[test]
fn english_central_game_replays_to_one_peg_in_the_centre() {
    let run = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/peg_hop/english_central.yaml",
            "--format",
            "json",
        ])
        .run()
        .status(0);
    let v = run.json();
    let o = &v[0];
    assert_eq!(o["status"], "solved");
    assert_eq!(o["rules"], "peg_hop");
    assert_eq!(crate::support::line(o).as_array().unwrap().len(), 31);
    let left = replay_hops(
        &shipped("puzzles/peg_hop/english_central.yaml"),
        crate::support::line(o),
        &SQUARE,
    );
    assert_eq!(left, BTreeSet::from([(3, 3)]));
    assert_eq!(o["pegs_left"], 1);
    assert!(o["stats"]["nodes"].as_u64().unwrap() >= 31);
}

#[test]
fn every_shipped_triangle_ends_with_one_peg_after_13_jumps() {
    for stem in ["corner", "next_to_corner", "edge_middle", "interior"] {
        let rel = format!("puzzles/triangle_hop/{stem}.yaml");
        let run = Test::new()
            .in_root()
            .args(["solve", &rel, "--format", "json"])
            .run()
            .status(0);
        let o = &run.json()[0];
        assert_eq!(crate::support::line(o).as_array().unwrap().len(), 13, "{stem}");
        assert_eq!(
            replay_hops(&shipped(&rel), crate::support::line(o), &TRIANGLE).len(),
            1,
            "{stem}"
        );
        assert_eq!(o["rating"], "genius", "{stem}");
    }
}

#[test]
fn text_answer_shows_each_board_with_the_moved_peg_marked() {
    Test::new()
        .in_root()
        .args(["solve", "puzzles/triangle_hop/corner.yaml"])
        .run()
        .status(0)
        .stdout_has("solved in 12 moves (13 jumps), 1 peg left (genius)")
        .stdout_has("start:\n        .\n       o o\n      o o o\n     o o o o\n    o o o o o\n")
        .stdout_has("jump 1: [2, 0] over [1, 0] to [0, 0] (up-right)\n        *\n       . o\n      . o o\n");
}

/// Marble positions (None once home) after tilting, simulated independently of marbles.
fn tilt(n: i64, walls: &[(Cell, Cell)], holes: &[Cell], pos: &mut [Option<Cell>], d: Cell) -> bool {
    // A hole is open until its own marble is in it; another marble entering loses the game.
    let enter = |k: usize, p, pos: &[Option<Cell>]| match holes
        .iter()
        .position(|h| *h == p)
        .filter(|&h| pos[h].is_some())
    {
        None => Enter::Roll,
        Some(h) if h != k => Enter::Lose,
        Some(_) => Enter::Leave,
    };
    tilt_box(n, walls, pos, d, enter)
}

#[test]
fn tilt_example_takes_exactly_five_tilts_that_drop_every_marble_home() {
    let run = Test::new()
        .in_root()
        .args(["solve", "puzzles/tilt_roll/four_by_four.yaml", "--format", "json"])
        .run()
        .status(0);
    let o = &run.json()[0];
    let moves = crate::support::line(o).as_array().unwrap();
    assert_eq!(moves.len(), 5);
    let holes = [(2, 3), (2, 1), (3, 2)];
    let mut pos = [Some((0, 1)), Some((1, 0)), Some((1, 2))];
    for m in moves {
        let d = match m["tilt"].as_str().unwrap() {
            "up" => (-1, 0),
            "down" => (1, 0),
            "left" => (0, -1),
            "right" => (0, 1),
            other => panic!("{other}"),
        };
        assert!(
            tilt(4, &[((1, 1), (1, 2))], &holes, &mut pos, d),
            "a marble fell into a wrong hole"
        );
    }
    assert_eq!(pos, [None, None, None]);
}

#[test]
fn tilt_puzzles_without_a_solution_say_so() {
    let run = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/tilt_roll/no_solution.yaml",
            "puzzles/tilt_roll/crossed_holes.yaml",
        ])
        .run()
        // Their files say `expect: unsolvable`: an answer as expected exits 0.
        .status(0);
    assert!(run.stdout.contains("Tilt 3x3 no way"));
    assert!(run.stdout.contains(
        "unsolvable: exhaustive search: none of the 5 positions tried reaches the goal; they are every position reachable from the start\n"
    ));
    assert!(
        run.stdout
            .contains("unsolvable: marble 1 starts on hole 2, which it can never leave")
    );
}

#[test]
fn a_brand_new_family_needs_only_a_script_and_a_puzzle() {
    let script = r#"
// right_hop: pegs jump only rightwards along a row.
fn rules(board) {
    let moves = [];
    for cell in board.cells {
        let over = [cell[0], cell[1] + 1];
        let to = [cell[0], cell[1] + 2];
        if board.has(over[0], over[1]) && board.has(to[0], to[1]) {
            moves.push(#{ dir: "right", from: cell, over: over, to: to });
        }
    }
    #{ kind: "hop", directions: ["right"], moves: moves, goal: #{ pegs: 2 } }
}
"#;
    // marbles.toml marks the project folder: rule lookup by name climbs up to it.
    let run = Test::new()
        .file("marbles.toml", "")
        .file("rules/right_hop.rhai", script)
        .file(
            "puzzles/by_name.yaml",
            "rules: right_hop\nboard: |\n  o o . o o .\n",
        )
        .file(
            "elsewhere/by_path.yaml",
            "rules: ../rules/right_hop.rhai\nboard: |\n  o o . o o .\n",
        )
        .args([
            "solve",
            "puzzles/by_name.yaml",
            "elsewhere/by_path.yaml",
            "--format",
            "json",
        ])
        .run()
        .status(0);
    for o in run.json().as_array().unwrap() {
        assert_eq!(o["rules"], "right_hop");
        assert_eq!(o["status"], "solved");
        assert_eq!(o["pegs_left"], 2);
        let moves = from_to(crate::support::line(o));
        assert_eq!(moves, [((0, 0), (0, 2)), ((0, 3), (0, 5))]);
    }
}

#[test]
fn diagonal_family_solves_its_shipped_puzzle() {
    let run = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/diagonal_hop/square5_centre.yaml",
            "--format",
            "json",
        ])
        .run()
        .status(0);
    let o = &run.json()[0];
    let mut dirs = SQUARE.to_vec();
    dirs.extend([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
    let left = replay_hops(
        &shipped("puzzles/diagonal_hop/square5_centre.yaml"),
        crate::support::line(o),
        &dirs,
    );
    assert_eq!(left, BTreeSet::from([(2, 2)]));
}

#[test]
fn limits_end_a_search_as_gave_up_with_the_reason() {
    let run = Test::new()
        .in_root()
        .args([
            "solve",
            "puzzles/peg_hop/english_central.yaml",
            "--max-nodes",
            "10",
            "--format",
            "json",
        ])
        .run()
        .status(1);
    let o = &run.json()[0];
    assert_eq!(o["status"], "gave_up");
    assert_eq!(o["reason"], "node limit (10 nodes)");
}

/// One bad input: the message marbles must print and the exit status 2.
fn bad(files: &[(&str, &str)], target: &str, message: &str) {
    let mut t = Test::new();
    for (name, text) in files {
        t = t.file(name, text);
    }
    t.args(["solve", target])
        .run()
        .status(2)
        .no_panic()
        .stderr_has(message);
}

#[test]
fn malformed_yaml_names_file_line_and_column() {
    bad(
        &[(
            "p.yaml",
            "rules: peg_hop\nboard: |\n  o o .\ngoal: {pegs: 1\nname: x}\n",
        )],
        "p.yaml",
        "marbles: error: p.yaml:5:5: invalid puzzle YAML: did not find expected ',' or '}'",
    );
    // Where the file ends inside the `{`, at the `{`.
    bad(
        &[("p.yaml", "rules: peg_hop\nboard: |\n  o o .\ngoal: {pegs: 1\n")],
        "p.yaml",
        "marbles: error: p.yaml:4:7: invalid puzzle YAML: the `{` opened here is never closed: the file ends inside it",
    );
    bad(
        &[("p.yaml", "rules: peg_hop\nboard: |\n  o o .\ngoal: [1]\n")],
        "p.yaml",
        "marbles: error: p.yaml:4:7: invalid puzzle YAML: goal: invalid type: sequence, expected a map with `pegs:` and optionally `at:`",
    );
    // What serde_yaml places at a mapping's or the document's start, at its own line.
    let top = "rules: peg_hop\nboard: |\n  o o .\n";
    for (text, said) in [
        (
            format!("{top}goal:\n  pegs: 1\ngoal:\n  pegs: 2\n"),
            "p.yaml:6:1: invalid puzzle YAML: `goal:` is given twice, first at line 4: keep one",
        ),
        (
            format!("{top}goal:\n  pegs: 1\n  pegs: 2\n"),
            "p.yaml:6:3: invalid puzzle YAML: goal: `pegs:` is given twice, first at line 5: keep one",
        ),
        (
            format!("{top}---\n{top}"),
            "p.yaml:4:1: invalid puzzle YAML: this `---` starts a second YAML document; a puzzle file holds one puzzle (put each in a file of its own)",
        ),
    ] {
        bad(&[("p.yaml", &text)], "p.yaml", &format!("marbles: error: {said}"));
    }
}

#[test]
fn unknown_rule_names_suggest_the_closest() {
    bad(
        &[("p.yaml", "rules: peg_hopp\nboard: |\n  o o .\n")],
        "p.yaml",
        "p.yaml:1: unknown rule family `peg_hopp`: did you mean `peg_hop`? known families: diagonal_hop, frogs_toads, hoppers, peg_hop, ricochet, slide_maze, tilt_roll, triangle_hop",
    );
    // The folders looked in are named, one that is not there said to be absent.
    bad(
        &[("sub/p.yaml", "rules: peg_hopp\nboard: |\n  o o .\n")],
        "sub/p.yaml",
        "hoppers, peg_hop, ricochet, slide_maze, tilt_roll, triangle_hop (searched sub/rules, no such folder)\n",
    );
}

#[test]
fn unknown_board_token_is_located() {
    bad(
        &[("p.yaml", "rules: peg_hop\nboard: |\n  o o .\n  o x o\n")],
        "p.yaml",
        "p.yaml:4:5: unknown board token `x` at [1, 1]",
    );
}

#[test]
fn goal_cell_off_the_board() {
    bad(
        &[(
            "p.yaml",
            "rules: peg_hop\nboard: |\n  o o .\ngoal:\n  pegs: 1\n  at: [5, 5]\n",
        )],
        "p.yaml",
        "p.yaml:6: goal cell [5, 5] is not a hole of the board",
    );
    // Written flow-style, the goal's own line stands for the key's.
    bad(
        &[(
            "p.yaml",
            "rules: peg_hop\nboard: |\n  o o .\ngoal: {pegs: 1, at: [5, 5]}\n",
        )],
        "p.yaml",
        "p.yaml:4: goal cell [5, 5] is not a hole of the board",
    );
}

#[test]
fn tilt_specs_are_checked() {
    let head = "rules: tilt_roll\nsize: 4\n";
    bad(
        &[(
            "p.yaml",
            &format!("{head}marbles: [[0,0],[1,1]]\nholes: [[2,2]]\n"),
        )],
        "p.yaml",
        "p.yaml:4: 2 marbles but 1 hole: hole k takes marble k, so the counts must match",
    );
    bad(
        &[(
            "p.yaml",
            &format!("{head}marbles: [[0,0]]\nholes: [[2,2]]\nwalls: [[[0,0],[0,2]]]\n"),
        )],
        "p.yaml",
        "p.yaml:5: a wall stands between two side-by-side cells; [0, 0] and [0, 2] are not side by side",
    );
    bad(
        &[("p.yaml", &format!("{head}marbles: [[0,9]]\nholes: [[2,2]]\n"))],
        "p.yaml",
        "p.yaml:3: marble 1 at [0, 9] is off the 4×4 board",
    );
}

#[test]
fn broken_scripts_are_named_with_their_line() {
    bad(
        &[
            ("rules/broken.rhai", "fn rules(board) {\n  let x = ;\n}\n"),
            ("p.yaml", "rules: broken\nboard: |\n  o o .\n"),
        ],
        "p.yaml",
        "rules/broken.rhai:2:11: rule script does not compile:",
    );
    bad(
        &[
            (
                "rules/throws.rhai",
                "fn rules(board) {\n  let a = [];\n  a[3]\n}\n",
            ),
            ("p.yaml", "rules: throws\nboard: |\n  o o .\n"),
        ],
        "p.yaml",
        "rules/throws.rhai:3:5: rule script failed: Array index 3 out of bounds",
    );
    bad(
        &[
            ("rules/empty.rhai", "let x = 1;\n"),
            ("p.yaml", "rules: empty\nboard: |\n  o o .\n"),
        ],
        "p.yaml",
        "rules/empty.rhai: rule script defines no `fn rules(board)`",
    );
}

#[test]
fn a_runaway_script_is_stopped_quickly() {
    let started = std::time::Instant::now();
    // Operations unbounded, so that the time limit is what stops it however fast the build.
    Test::new()
        .file(
            "rules/spin.rhai",
            "fn rules(board) {\n  let n = 0;\n  loop { n += 1; }\n}\n",
        )
        .file("p.yaml", "rules: spin\nboard: |\n  o o .\n")
        .args(["solve", "p.yaml", "--script-ops", "1000000000000"])
        .run()
        .status(2)
        .no_panic()
        .stderr_has("rules/spin.rhai:1: rule script stopped: time limit reached (2.0 s; an endless loop?)");
    // Rhai reports limits at the outermost call: the line of `fn rules` stands in.
    bad(
        &[
            ("rules/idle.rhai", "\nfn rules(board) {\n  loop { }\n}\n"),
            ("p.yaml", "rules: idle\nboard: |\n  o o .\n"),
        ],
        "p.yaml",
        "rules/idle.rhai:2: rule script stopped: ",
    );
    // A generous bound: the limit itself is 2 s of wall time.
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn check_validates_without_solving() {
    Test::new()
        .in_root()
        .args(["check", "puzzles"])
        .run()
        .status(0)
        .stdout_has("ok    puzzles/peg_hop/english_central.yaml  (peg_hop: 33 holes, 32 pegs, 76 jumps, 8 symmetries)")
        .stdout_has("ok    puzzles/tilt_roll/four_by_four.yaml  (tilt_roll: 4×4 board, 3 marbles)")
        .stdout_lacks("warn");
}

#[test]
fn check_warns_of_holes_no_move_reaches() {
    // The last column is cut off by the `#` column: no jump of two steps reaches it.
    let run = Test::new()
        .file("p.yaml", "rules: peg_hop\nboard: |\n  o o . # o\n  o o o # .\n")
        .args(["check", "p.yaml"])
        .run()
        .status(0);
    assert_eq!(
        run.stdout,
        "ok    p.yaml  (peg_hop: 8 holes, 6 pegs, 4 jumps, 2 symmetries)\n\
         warn  p.yaml  2 holes take no part in any move: [0, 4], [1, 4] (a peg there can never move or be taken: is a row drawn a column off?)\n"
    );
}

const BOTTOM_ROW: &str = "rules: triangle_hop
board: |2
      .
     . .
    . . .
   . . . o
  o o . o o
ratings:
  1: genius
  2: above average
  3: mental midget
";

#[test]
fn fewest_finds_the_best_position_when_one_peg_is_impossible() {
    let run = Test::new()
        .file("p.yaml", BOTTOM_ROW)
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(1);
    assert_eq!(run.json()[0]["status"], "unsolvable");
    let fewest = format!("{BOTTOM_ROW}goal:\n  pegs: fewest\n");
    for args in [
        vec!["solve", "p.yaml", "--fewest", "--format", "json"],
        vec!["solve", "q.yaml", "--format", "json"],
    ] {
        let run = Test::new()
            .file("p.yaml", BOTTOM_ROW)
            .file("q.yaml", &fewest)
            .args(args)
            .run()
            .status(0);
        let o = &run.json()[0];
        assert_eq!(o["pegs_left"], 2);
        assert_eq!(o["rating"], "above average");
        assert_eq!(
            replay_hops(BOTTOM_ROW, crate::support::line(o), &TRIANGLE).len(),
            2
        );
    }
}

/// A square board of `rows` × `cols` holes, `empty` empty, with `goal` (YAML lines).
fn square(rows: usize, cols: usize, empty: (usize, usize), goal: &str) -> String {
    let line = |r| {
        let holes: Vec<&str> = (0..cols)
            .map(|c| if (r, c) == empty { "." } else { "o" })
            .collect();
        format!("  {}\n", holes.join(" "))
    };
    let board: String = (0..rows).map(line).collect();
    format!("rules: peg_hop\nboard: |\n{board}goal:\n{goal}")
}

#[test]
fn a_fewest_search_stopped_before_its_first_move_reports_the_start_as_its_best() {
    // The reason said "best found so far 40 pegs" while the answer had no pegs left at all.
    let out = Test::new()
        .in_root()
        .args([
            "solve",
            "benches/diamond41.yaml",
            "--fewest",
            "--max-nodes",
            "0",
            "--format",
            "json",
        ])
        .run()
        .status(1);
    let v = out.json();
    assert_eq!(v[0]["pegs_left"], 40, "{v}");
    assert!(
        v[0]["reason"]
            .as_str()
            .is_some_and(|r| r.contains("node limit (0 nodes); best found so far 40 pegs, at least 1")),
        "{v}"
    );
    // Under a limit of no node no phase runs, the position class's floor neither.
    assert_eq!(v[0]["pegs_floor"], 1, "{v}");
}

#[test]
fn fewest_proves_two_pegs_where_the_position_class_rules_out_one() {
    // The 5×5 square and the 41-hole diamond, centre empty: no single peg shares the start's
    // position class, so two pegs left is the optimum once found. On the diamond depth-first
    // search never found two (5 pegs after 10 s, nothing better in minutes); beams towards
    // the table of positions that can still leave two find them.
    let diamond = std::fs::read_to_string(root().join("benches/diamond41.yaml")).unwrap();
    for yaml in [square(5, 5, (2, 2), "  pegs: fewest\n"), diamond] {
        let one = yaml.replace("pegs: fewest", "pegs: 1");
        let run = Test::new()
            .file("one.yaml", &one)
            .args(["solve", "one.yaml", "--format", "json"])
            .run()
            .status(1);
        let refuted = &run.json()[0];
        assert_eq!(refuted["status"], "unsolvable");
        assert!(
            refuted["reason"]
                .as_str()
                .unwrap()
                .starts_with("position class: no single peg is in the class of the start"),
            "{refuted}"
        );
        // Asked for the fewest, or for exactly two (beams serve that goal too).
        for yaml in [yaml.clone(), yaml.replace("pegs: fewest", "pegs: 2")] {
            let run = Test::new()
                .file("p.yaml", &yaml)
                .args(["solve", "p.yaml", "--format", "json", "--timeout", "60"])
                .run()
                .status(0);
            let o = &run.json()[0];
            assert_eq!(o["status"], "solved", "{o}");
            assert_eq!(o["pegs_left"], 2);
            assert_eq!(replay_hops(&yaml, crate::support::line(o), &SQUARE).len(), 2);
        }
    }
}

#[test]
fn scripts_read_where_each_cell_is_drawn() {
    // Hops down-left as drawn: one line down and one character column left, twice.
    let script = r#"
fn rules(board) {
    let moves = [];
    for c in board.cells {
        let x = board.x(c[0], c[1]);
        let y = board.y(c[0], c[1]);
        let to = board.at(x - 2, y + 2);
        if to != () {
            moves.push(#{ dir: "down-left", from: c, over: board.at(x - 1, y + 1), to: to });
        }
    }
    #{ kind: "hop", directions: ["down-left"], moves: moves, goal: #{ pegs: 1 } }
}
"#;
    // Leading spaces count: the apex is drawn two columns right of the bottom row's first
    // hole, so it jumps over [1, 0] into [2, 0]; read left-aligned it would have no move.
    let run = Test::new()
        .file("rules/drawn_hop.rhai", script)
        .file("p.yaml", "rules: drawn_hop\nboard: |2\n    o\n   o .\n  . . .\n")
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(0);
    let out = run.json();
    let o = &out.as_array().unwrap()[0];
    assert_eq!(o["status"], "solved");
    let moves = from_to(crate::support::line(o));
    assert_eq!(moves, [((0, 0), (2, 0))]);
}

#[test]
fn asking_where_a_missing_cell_is_drawn_is_an_error() {
    bad(
        &[
            ("rules/nowhere.rhai", "fn rules(board) {\n  board.x(9, 9)\n}\n"),
            ("p.yaml", "rules: nowhere\nboard: |\n  o o .\n"),
        ],
        "p.yaml",
        "rules/nowhere.rhai:2:9: rule script failed: Runtime error: [9, 9] is not drawn on the board",
    );
}

#[test]
fn a_zero_operation_limit_is_refused_not_read_as_none() {
    // Rhai reads 0 as "no limit": an endless script would run to the time limit instead.
    Test::new()
        .file("p.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
        .args(["solve", "p.yaml", "--script-ops", "0"])
        .run()
        .status(2)
        .no_panic()
        .stderr_has("--script-ops must be at least 1");
}

#[test]
fn a_mistyped_folder_is_refused_before_any_report_is_touched() {
    let t = Test::new().file("puzzles/a.yaml", "rules: peg_hop\nboard: |\n  o o .\n");
    t.command().args(["batch", "puzzles"]).output().unwrap();
    let before = std::fs::read(t.path("reports/summary.json")).expect("a first report");
    for (named, said) in [
        (
            "puzzels",
            "puzzels: no such file or folder; did you mean `puzzles`? ",
        ),
        (
            "puzzles/b.yaml",
            "puzzles/b.yaml: no such file or folder; did you mean `a.yaml`? ",
        ),
        (
            "puzzles/a.yaml/",
            "puzzles/a.yaml/: a file named as a folder (a `/` after a file's name?); ",
        ),
    ] {
        let out = t.command().args(["batch", "puzzles", named]).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!("marbles: error: {said}nothing was solved and no report was touched\n")
        );
        assert_eq!(std::fs::read(t.path("reports/summary.json")).unwrap(), before);
    }
    // A link to nothing says where it leads; a loop of links is refused as well.
    std::os::unix::fs::symlink("nowhere", t.path("dangling")).unwrap();
    std::os::unix::fs::symlink("loop", t.path("loop")).unwrap();
    let out = t.command().args(["batch", "dangling", "loop"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "marbles: error: dangling: a link to nothing (to nowhere); \
         loop: cannot be read: Too many levels of symbolic links (os error 40); \
         nothing was solved and no report was touched\n"
    );
    assert_eq!(std::fs::read(t.path("reports/summary.json")).unwrap(), before);
    // A line break in a name is shown escaped: the message stays one line.
    let out = t.command().args(["batch", "puz\nzles"]).output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.starts_with("marbles: error: puz\\u{a}zles: no such file or folder;"),
        "{said}"
    );
    assert_eq!(said.lines().count(), 1, "{said}");
    // Every name mistyped is said at once, not the first alone.
    let out = t
        .command()
        .args(["batch", "puzzels", "puzzles", "puzzles/b.yaml"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "marbles: error: puzzels: no such file or folder; did you mean `puzzles`? \
         puzzles/b.yaml: no such file or folder; did you mean `a.yaml`? \
         nothing was solved and no report was touched\n"
    );
}

/// `solve` and `check` name the file a mistyped path was likely meant to be, as `batch` does.
#[test]
fn a_mistyped_file_gets_the_nearest_name_beside_it() {
    for cmd in ["solve", "check"] {
        Test::new()
            .file("puzzles/corner.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
            .args([cmd, "puzzles/corner.yml"])
            .run()
            .status(2)
            .stderr_has(
                "marbles: error: puzzles/corner.yml: cannot read: no such file; did you mean `corner.yaml`?\n",
            );
    }
}

/// A negative or out-of-range number is refused as the flag's value, saying what it takes,
/// not read as an unknown flag ("use '-- -1'") or quietly made another number.
#[test]
fn numbers_a_flag_cannot_take_are_refused_with_what_it_takes() {
    for (args, said) in [
        (
            ["-j", "0"],
            "invalid value '0' for '--jobs <N>': -j must be at least 1",
        ),
        (
            ["-j", "-1"],
            "invalid value '-1' for '--jobs <N>': `-1` is not a whole number of jobs",
        ),
        (["--max-nodes", "-1"], "invalid value '-1' for '--max-nodes <N>'"),
        (
            ["--script-ops", "-1"],
            "invalid value '-1' for '--script-ops <N>': `-1` is not a whole number of operations",
        ),
        (
            ["--max-memory", "-1"],
            "invalid value '-1' for '--max-memory <SIZE>': `-1` is not a size",
        ),
        (
            ["--max-memory", "0.5"],
            "invalid value '0.5' for '--max-memory <SIZE>': `0.5` is not a whole number of bytes up to 18446744073709551615 (16 EiB)",
        ),
        (
            ["--max-memory", "99999999999999999999"],
            "`99999999999999999999` is not a whole number of bytes up to 18446744073709551615 (16 EiB)",
        ),
    ] {
        Test::new()
            .file("set/p.yaml", "rules: peg_hop\nboard: |\n  o o .\n")
            .args(["batch", "set", "--no-report"].iter().chain(&args))
            .run()
            .status(2)
            .stderr_has(said);
    }
    // The largest it names is a size, written as a number or quoted in a puzzle alike (the
    // quoted one was read as a float, rounded past 64 bits, and refused in these words).
    let quoted = "rules: peg_hop\nboard: |\n  o o .\nsolve:\n  max_memory: \"18446744073709551615\"\n";
    Test::new()
        .file("p.yaml", quoted)
        .args(["solve", "p.yaml", "--max-memory", "18446744073709551615"])
        .run()
        .status(0);
}
