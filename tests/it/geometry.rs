//! Boards mean what they look like: lattice families place holes where they are drawn, a
//! drawing that fits no lattice is refused at its line, and symmetry is found on the lattice.

use crate::support::Test;

/// The 19-hole hexagon drawn centred, block-indented by 2 for `board: |2`.
const CENTRED: &str = "    o o o\n   o o o o\n  o o . o o\n   o o o o\n    o o o\n";
/// The same hexagon left-aligned, each row half a step left of the one above, `#` padding.
const PADDED: &str = "  o o o # #\n  o o o o #\n  o o . o o\n  # o o o o\n  # # o o o\n";

fn hexagon(board: &str, pegs: u32) -> String {
    format!("rules: triangle_hop\nboard: |2\n{board}goal:\n  pegs: {pegs}\n")
}

/// Line 2 of `marbles solve FILE`: the verdict.
fn verdict(file: &str, yaml: &str) -> String {
    let run = Test::new().file(file, yaml).args(["solve", file]).run();
    run.stdout.lines().nth(1).unwrap_or_default().to_string()
}

#[test]
fn a_centred_and_a_padded_hexagon_are_one_puzzle() {
    for (file, board) in [("centred.yaml", CENTRED), ("padded.yaml", PADDED)] {
        Test::new()
            .file(file, &hexagon(board, 1))
            .args(["check", file])
            .run()
            .status(0)
            .stdout_has(&format!(
                "ok    {file}  (triangle_hop: 19 holes, 18 pegs, 54 jumps, 12 symmetries)\n"
            ));
        // Read as rows shifted half a step each, the centred drawing was another board that
        // "solved in 17 moves, 1 peg left".
        assert_eq!(
            verdict(file, &hexagon(board, 1)),
            "unsolvable: position class: no single peg is in the class of the start (2 invariant parities checked)"
        );
        assert_eq!(
            verdict(file, &hexagon(board, 2)),
            "solved in 16 moves (16 jumps), 2 pegs left"
        );
    }
}

#[test]
fn no_single_vacancy_start_of_the_19_hole_hexagon_finishes_with_one_peg() {
    let full = CENTRED.replace('.', "o");
    for v in 0..19 {
        let mut k = 0;
        let board: String = full
            .chars()
            .map(|ch| match ch {
                'o' => {
                    k += 1;
                    if k - 1 == v { '.' } else { 'o' }
                }
                other => other,
            })
            .collect();
        Test::new()
            .file("h.yaml", &hexagon(&board, 1))
            .args(["count", "--all", "h.yaml"])
            .run()
            .status(0)
            .stdout_has("\nsolutions (jump sequences to the goal): 0\n");
    }
    // The count does find finishes where there are some: two pegs from the centre.
    Test::new()
        .file("h.yaml", &hexagon(CENTRED, 2))
        .args(["count", "--all", "h.yaml"])
        .run()
        .status(0)
        .stdout_has("\nsolutions (jump sequences to the goal): 2155095132\n");
}

#[test]
fn a_drawing_off_the_lattice_is_refused_at_its_line() {
    // Row 3 of the hexagon one column too far right: half a step off both readings.
    let shifted = CENTRED.replace("\n   o o o o\n    o", "\n    o o o o\n    o");
    Test::new()
        .file("bad.yaml", &hexagon(&shifted, 1))
        .args(["check", "bad.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "bad.yaml:6:5: rule family `triangle_hop`: the board fits no triangular lattice: hole [3, 0] \
             is drawn half a step off the holes before it (draw the rows centred, each half a step \
             from the next, or left-aligned with `#` padding, holes one space apart)\n",
        );
    // A square row shifted by one column, and holes two spaces apart (a column and a half of
    // the lattice from the one before): both an odd number of columns off.
    let square = |name: &str, board: &str| {
        Test::new()
            .file(name, &format!("rules: peg_hop\nboard: |2\n{board}"))
            .args(["check", name])
            .run()
            .status(2)
    };
    let off = "is drawn an odd number of columns from the first hole, between the lattice's columns \
               (draw holes one space apart with the rows lined up, `#` or spaces where there is no hole)\n";
    square("sq.yaml", "  o o o\n   o o\n").stderr_has(&format!(
        "sq.yaml:4:4: rule family `peg_hop`: the board fits no square lattice: hole [1, 0] {off}"
    ));
    square("wide.yaml", "  o  o  .\n").stderr_has(&format!(
        "wide.yaml:3:6: rule family `peg_hop`: the board fits no square lattice: hole [0, 1] {off}"
    ));
}

/// Holes three spaces apart are holes a lattice step apart with none between, which no jump
/// joins: said so (their position class refuted them, in words that hid the spacing).
#[test]
fn a_board_no_jump_joins_says_so() {
    Test::new()
        .file("wider.yaml", "rules: peg_hop\nboard: |\n  o   o   .\n")
        .args(["solve", "wider.yaml"])
        .run()
        .status(1)
        .stdout_has(
            "unsolvable: the rules make no move on this board: no peg can ever move (are its holes \
             drawn more than one space apart?)\n",
        );
    // Holes drawn side by side that no jump fits are not asked about their spacing.
    Test::new()
        .file(
            "small.yaml",
            "rules: triangle_hop\nboard: |\n  o\n  o .\n  # o #\n",
        )
        .args(["solve", "small.yaml"])
        .run()
        .status(1)
        .stdout_has(
            "unsolvable: the rules make no move on this board: no peg can ever move (no jump of the \
             family fits its holes)\n",
        );
}

/// `marbles check p.yaml` of `board` (block-indented by 2) with the family `rules/x.rhai`.
fn checked_with(script: &str, board: &str) -> crate::support::Run {
    Test::new()
        .file("rules/x.rhai", script)
        .file("p.yaml", &format!("rules: x\nboard: |2\n{board}"))
        .args(["check", "p.yaml"])
        .run()
        .no_panic()
}

#[test]
fn a_misfit_stops_the_script_even_when_it_is_caught() {
    let script = "fn rules(board) {\n  let g = board;\n  try { g = board.lattice(\"square\"); } catch (e) { print(e); }\n  #{ kind: \"hop\", directions: [], moves: [] }\n}\n";
    let r = checked_with(script, "  o o o\n   o o\n").status(2);
    assert_eq!(
        r.stderr,
        // What the script caught and printed is the message, never a Rust type's name, shown
        // after the script's path (the error after it is the puzzle's).
        "rules/x.rhai: the board fits no square lattice: hole [1, 0] is drawn an odd number of columns from the first hole, \
         between the lattice's columns (draw holes one space apart with the rows lined up, `#` or spaces where there is no hole)\n\
         marbles: error: p.yaml:4:4: rule family `x`: the board fits no square lattice: hole [1, 0] is drawn \
         an odd number of columns from the first hole, between the lattice's columns (draw holes one space apart \
         with the rows lined up, `#` or spaces where there is no hole)\n"
    );
}

#[test]
fn placing_a_board_twice_is_the_scripts_error_at_its_line() {
    let script = "fn rules(board) {\n  let s = board.lattice(\"square\");\n  let t = s.lattice(\"square\");\n  #{ kind: \"hop\", directions: [], moves: [] }\n}\n";
    let r = checked_with(script, "  o o .\n  o o .\n").status(2);
    assert_eq!(
        r.stderr,
        "marbles: error: rules/x.rhai:3:13: rule script failed: Runtime error: board.lattice(\"square\"): this board is already on \
         the square lattice; call `lattice` once, on the board `rules` receives\n"
    );
}

#[test]
fn a_tab_in_a_board_is_refused_at_its_place() {
    // An editor may show the tab as 2, 4 or 8 columns: which lattice point is meant is unknown.
    Test::new()
        .file("tab.yaml", "rules: peg_hop\nboard: |\n  o o .\n  o\to .\n")
        .args(["check", "tab.yaml"])
        .run()
        .status(2)
        .stderr_has(
            "tab.yaml:4:4: a tab in the board: draw it with spaces (where each token stands decides the board)\n",
        );
}

#[test]
fn a_square_board_drawn_with_spaces_for_missing_holes_is_the_same_board() {
    let english = "rules: peg_hop\nboard: |2\n      o o o\n      o o o\n  o o o o o o o\n  o o o . o o o\n  o o o o o o o\n      o o o\n      o o o\ngoal:\n  pegs: 1\n  at: [3, 3]\n";
    Test::new()
        .file("e.yaml", english)
        .args(["check", "e.yaml"])
        .run()
        .status(0)
        .stdout_has("ok    e.yaml  (peg_hop: 33 holes, 32 pegs, 76 jumps, 8 symmetries)\n");
}

#[test]
fn the_shipped_hexagons_solve_as_their_comments_say() {
    for (file, verdict) in [
        (
            "puzzles/triangle_hop/hexagon19.yaml",
            "solved in 16 moves (16 jumps), 2 pegs left",
        ),
        (
            "puzzles/triangle_hop/hexagon37.yaml",
            "solved in 28 moves (35 jumps), 1 peg left",
        ),
    ] {
        let run = Test::new().in_root().args(["solve", file]).run().status(0);
        assert_eq!(run.stdout.lines().nth(1), Some(verdict), "{file}");
    }
    // From the centre the 37-hole hexagon cannot finish with one peg.
    let centre = std::fs::read_to_string(crate::support::root().join("puzzles/triangle_hop/hexagon37.yaml"))
        .unwrap()
        .replace("o . o o", "o o o o")
        .replace("  o o o o o o o\n", "  o o o . o o o\n");
    assert_eq!(
        verdict("c.yaml", &centre),
        "unsolvable: position class: no single peg is in the class of the start (2 invariant parities checked)"
    );
}

/// The `translate(x y)` of every hole in a report's board pictures.
fn hole_places(html: &str) -> Vec<String> {
    html.split("transform=\"translate(")
        .skip(1)
        .map(|s| s.split(')').next().unwrap().to_string())
        .collect()
}

#[test]
fn answers_and_reports_draw_both_hexagons_as_a_hexagon() {
    let mut starts = Vec::new();
    let mut places = Vec::new();
    for board in [CENTRED, PADDED] {
        let run = Test::new()
            .file("set/h.yaml", &hexagon(board, 2))
            .args(["batch", "set", "--report", "r"])
            .run()
            .status(0);
        places.push(hole_places(
            &std::fs::read_to_string(run.dir().join("r/index.html")).unwrap(),
        ));
        let run = Test::new()
            .file("h.yaml", &hexagon(board, 2))
            .args(["solve", "h.yaml"])
            .run()
            .status(0);
        let start = run.stdout.split("\n\n").nth(1).unwrap_or_default().to_string();
        starts.push(start);
    }
    let hexagon = "start:\n      o o o\n     o o o o\n    o o . o o\n     o o o o\n      o o o";
    assert_eq!(starts, [hexagon, hexagon]);
    // Equilateral: row 0 one apart, row 1 half a step left of it and 0.866 lower.
    assert_eq!(places[0][..4], ["1 0", "2 0", "3 0", "0.5 0.866"]);
    assert_eq!(places[0].len(), 19);
    assert_eq!(places[0], places[1]);
}

#[test]
fn a_board_drawn_far_apart_is_drawn_up_to_a_bound() {
    // A left-aligned triangle whose rows are 60,000 blank lines apart: row 14 is pictured
    // 14 × 60,001 half steps left of row 0, so a picture of every line in full would be
    // hundreds of MB per board.
    let mut rows = Vec::new();
    for r in 1..=15 {
        rows.push(format!("  {}", vec!["o"; r].join(" ")));
        rows.extend(std::iter::repeat_n(String::new(), 60_000));
    }
    let yaml = format!(
        "rules: triangle_hop\nboard: |2\n{}\ngoal:\n  pegs: 1\n",
        rows.join("\n").trim_end()
    );
    let run = Test::new()
        .file("tall.yaml", &yaml)
        .args(["solve", "tall.yaml"])
        .run()
        .status(1);
    assert!(run.stdout.len() < 2_200_000, "{} bytes", run.stdout.len());
    assert!(
        run.stdout
            .trim_end()
            .ends_with("… the rest of this board is not drawn (a board is drawn in at most 2 MiB)")
    );
}
