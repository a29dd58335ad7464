//! Tilt boards with exit holes: sliders must leave by an exit, blockers must never fall in.
//! Every figure is checked against the test's own simulator and breadth-first search
//! ([`ExitBoard`]), written apart from marbles' native roll.

use crate::support::{ExitBoard, ExitState, Test, refusal, root, solved_json};

/// The shipped `exit_maze.yaml`, as the test reads it.
fn maze() -> (ExitBoard, ExitState) {
    let board = ExitBoard {
        size: 5,
        walls: vec![
            ((4, 0), (4, 1)),
            ((3, 3), (3, 4)),
            ((1, 1), (1, 2)),
            ((3, 1), (4, 1)),
        ],
        exits: vec![(1, 4)],
        blockers: vec![false, false, true, true],
    };
    (
        board,
        vec![Some((3, 3)), Some((4, 0)), Some((3, 2)), Some((4, 4))],
    )
}

/// Solves `file` as JSON and replays its tilts on `board` from `start`: every tilt is allowed
/// (no blocker falls), and the replay ends won. Returns the number of tilts and the replayed
/// end.
fn replayed(file: &str, board: &ExitBoard, start: &ExitState) -> (usize, ExitState, serde_json::Value) {
    let run = Test::new()
        .in_root()
        .args(["solve", file, "--format", "json"])
        .run()
        .status(0);
    let o = run.json()[0].clone();
    let moves = crate::support::line(&o).as_array().unwrap();
    let mut pos = start.clone();
    for (i, m) in moves.iter().enumerate() {
        let d = ExitBoard::step(m["tilt"].as_str().unwrap());
        pos = board
            .tilt(&pos, d)
            .unwrap_or_else(|| panic!("tilt {} drops a blocker", i + 1));
    }
    (moves.len(), pos, o)
}

#[test]
fn the_exit_maze_takes_exactly_the_fewest_tilts_and_empties_every_slider() {
    let (board, start) = maze();
    // The independent search: 29 tilts, and no fewer.
    assert_eq!(board.fewest(&start), Some(29));
    let (tilts, end, o) = replayed("puzzles/tilt_roll/exit_maze.yaml", &board, &start);
    assert_eq!(tilts, 29);
    // Both sliders gone, both blockers still on the board.
    assert_eq!((end[0], end[1]), (None, None));
    assert!(end[2].is_some() && end[3].is_some(), "{end:?}");
    // marbles' own replay (kept in a batch report) ends in the same place and names the kinds
    // and the exit.
    let (results, _) = report();
    let replay = &results["replay"];
    assert_eq!(replay["pieces"], "ssbb");
    assert_eq!(replay["exits"], serde_json::json!([[1, 4]]));
    let last = replay["frames"].as_array().unwrap().last().unwrap().clone();
    let want: Vec<serde_json::Value> = end
        .iter()
        .map(|p| p.map_or(serde_json::Value::Null, |(r, c)| serde_json::json!([r, c])))
        .collect();
    assert_eq!(last, serde_json::Value::Array(want));
    assert_eq!(crate::support::line(&o), crate::support::line(&results));
}

/// A batch report of the shipped maze: its record in `results.jsonl`, and `index.html`.
fn report() -> (serde_json::Value, String) {
    let run = Test::new()
        .file(
            "m/exit_maze.yaml",
            &std::fs::read_to_string(root().join("puzzles/tilt_roll/exit_maze.yaml")).unwrap(),
        )
        .args(["batch", "m", "--report", "out", "--quiet"])
        .run()
        .status(0);
    let out = run.dir().join("out");
    let results = std::fs::read_to_string(out.join("results.jsonl")).unwrap();
    let record = serde_json::from_str(results.lines().next().unwrap()).unwrap();
    (record, std::fs::read_to_string(out.join("index.html")).unwrap())
}

#[test]
fn a_maze_where_every_way_out_drops_the_blocker_has_no_solution() {
    let guarded = ExitBoard {
        size: 4,
        walls: vec![],
        exits: vec![(3, 2)],
        blockers: vec![false, true],
    };
    let start = vec![Some((0, 3)), Some((2, 3))];
    // No position the search reaches wins; were the blocker a second slider (free to fall),
    // four tilts would do (down, left, down, right), so the blocker is what forbids it.
    assert_eq!(guarded.fewest(&start), None);
    let free = ExitBoard {
        blockers: vec![false, false],
        ..guarded
    };
    assert_eq!(free.fewest(&start), Some(4));
    Test::new()
        .in_root()
        .args(["solve", "puzzles/tilt_roll/exit_blocked.yaml"])
        .run()
        // Its file says `expect: unsolvable`.
        .status(0)
        .stdout_has(
            "unsolvable: exhaustive search: none of the 6 positions tried reaches the goal; they are every position reachable from the start\n",
        );
}

#[test]
fn answers_draw_exits_sliders_and_blockers_by_letter() {
    Test::new()
        .in_root()
        .args(["solve", "puzzles/tilt_roll/exit_blocked.yaml"])
        .run()
        .stdout_has(
            "start:\n     .   .   .   s\n     .   .   .   .\n     .   .   .   b\n     .   .   E   .\n",
        );
    let (_, html) = report();
    assert_eq!(html.matches("<g class=\"exit\"").count(), 1, "one exit drawn");
    assert_eq!(html.matches(" slider\" data-k").count(), 2);
    assert_eq!(html.matches(" blocker\" data-k").count(), 2);
}

#[test]
fn a_slider_that_leaves_ends_the_game_in_one_tilt() {
    // The smallest case, checked by hand: tilting right rolls the slider along row 0 into
    // the exit at its end; the blocker in row 1 stops at the wall of the box.
    let yaml = "rules: tilt_roll\nsize: 3\nexits: [[0, 2]]\nsliders: [[0, 0]]\nblockers: [[1, 0]]\n";
    assert_eq!(
        solved_json("one.yaml", yaml)[0]["moves"],
        serde_json::json!([{ "tilt": "right" }])
    );
}

#[test]
fn exit_boards_refuse_bad_parts_naming_the_line() {
    let cases = [
        (
            "size: 3\nexits: [[0, 3]]\nsliders: [[1, 1]]\n",
            "p.yaml:3: exit 1 at [0, 3] is off the 3×3 board",
        ),
        (
            "size: 3\nexits: [[0, 2]]\nsliders: [[1, 1]]\nblockers: [[0, 2]]\n",
            "p.yaml:5: blocker 1 at [0, 2] starts on an exit",
        ),
        (
            "size: 3\nexits: [[0, 2]]\nsliders: [[0, 2]]\n",
            "p.yaml:4: slider 1 at [0, 2] starts on an exit",
        ),
        (
            "size: 3\nexits: [[0, 2]]\nsliders: [[1, 1], [2, 2]]\nblockers: [[2, 0], [2, 2]]\n",
            "p.yaml:5: slider 2 and blocker 2 share the cell [2, 2]",
        ),
        (
            "size: 3\nexits: [[0, 2], [0, 2]]\nsliders: [[1, 1]]\n",
            "p.yaml:3: exits 1 and 2 share the cell [0, 2]",
        ),
        (
            "size: 3\nmarbles: [[0, 0]]\nholes: [[1, 1]]\nexits: [[0, 2]]\nsliders: [[2, 2]]\n",
            "p.yaml:3: numbered `marbles:` and `holes:` do not mix with `exits:`, `sliders:` and `blockers:`: a tilt puzzle has one kind or the other",
        ),
        (
            "size: 3\nsliders: [[1, 1]]\n",
            "p.yaml:3: a tilt puzzle with sliders needs `exits:`, a list of [row, col] where they leave",
        ),
        (
            "size: 3\nexits: [[0, 2]]\nsliders: []\n",
            "p.yaml:4: `sliders:` is empty: give at least one marble that must leave by an exit",
        ),
        (
            "size: 2\nexits: [[0, 0]]\nsliders: [[0, 1], [1, 0]]\nblockers: [[1, 1], [1, 1], [0, 0]]\n",
            "p.yaml:4: 5 marbles: a 2×2 tilt board takes 1 to 4",
        ),
    ];
    for (body, message) in cases {
        let stderr = refusal("p.yaml", &format!("rules: tilt_roll\n{body}"));
        assert_eq!(stderr, format!("marbles: error: {message}\n"), "{body}");
    }
}

/// Sliders are alike: an unsolvable verdict counts the boards reachable, not which slider is
/// where (it counted 10 positions where the board has 6: the two sliders on [2, 0] and
/// [2, 1], on [2, 1] and [2, 2], and one slider left on [0, 0], [0, 2], [2, 0] or [2, 2]).
#[test]
fn an_unsolvable_verdict_counts_boards_not_which_slider_is_where() {
    let run = Test::new()
        .file(
            "p.yaml",
            "rules: tilt_roll\nsize: 3\nexits: [[1, 1]]\nsliders: [[2, 0], [2, 1]]\n",
        )
        .args(["solve", "p.yaml", "--format", "json"])
        .run()
        .status(1);
    assert_eq!(
        run.json()[0]["reason"],
        "exhaustive search: none of the 6 positions tried reaches the goal; they are every \
         position reachable from the start"
    );
}
