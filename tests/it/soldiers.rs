//! Conway's soldiers on a bounded half-plane (`puzzles/soldiers/`): each shipped army is
//! solved and its answer replayed here, independently of marbles, to a soldier on its row;
//! and the smallest armies are searched for over the whole region below the line, each one
//! found then solved and replayed like the shipped ones; and row 5 is out of reach.

use crate::cli::{SQUARE, replay_hops};
use crate::support::{Test, root};
use marbles::model::{HopModel, Model};
use marbles::search::soldiers::fewest_army;
use marbles::search::{Budget, Limits};
use marbles::solve::{self, Options};

/// The rows of the board above the line: row `k` above it is the board's row `LINE - k`.
const LINE: i64 = 4;
/// The column the soldiers head for: the middle of the board's 11.
const MIDDLE: i64 = 5;

fn shipped(k: i64) -> String {
    format!("puzzles/soldiers/soldiers_row{k}.yaml")
}

/// The shipped row-`k` puzzle, compiled.
fn board(k: i64) -> HopModel {
    match solve::prepare(&root().join(shipped(k)), &Options::default())
        .expect("the shipped puzzle compiles")
        .model
    {
        Model::Hop(m) => m,
        _ => panic!("soldiers hop"),
    }
}

/// The cells of the board below the line, one bit each.
fn below_the_line(m: &HopModel) -> u128 {
    (0..m.geo.cells.len())
        .filter(|&c| m.geo.cells[c][0] >= LINE)
        .fold(0, |r, c| r | 1 << c)
}

/// `marbles solve` of the puzzle `yaml` (written as `name`), which must be solved: its moves,
/// replayed here from its board, leave a soldier on row `k` above the line. Returns the
/// soldiers the board starts with.
fn reaches_row(name: &str, yaml: &str, k: i64) -> usize {
    let run = Test::new()
        .file(name, yaml)
        .args(["solve", name, "--format", "json"])
        .run()
        .no_panic()
        .status(0);
    let o = &run.json()[0];
    assert_eq!(o["status"], "solved", "{o}");
    let spec: serde_yaml::Value = serde_yaml::from_str(yaml).unwrap();
    let (army, _) = crate::cli::drawing(spec["board"].as_str().unwrap());
    assert!(
        army.iter().all(|&(r, _)| r >= LINE),
        "the army starts below the line"
    );
    let left = replay_hops(yaml, crate::support::line(o), &SQUARE);
    assert!(
        left.contains(&(LINE - k, MIDDLE)),
        "{name}: the moves leave no soldier on row {k}: {left:?}"
    );
    army.len()
}

#[test]
fn each_shipped_army_reaches_its_row() {
    for (k, men) in [(1, 2), (2, 4), (3, 8), (4, 20)] {
        let yaml = std::fs::read_to_string(root().join(shipped(k))).unwrap();
        assert_eq!(reaches_row("army.yaml", &yaml, k), men, "row {k}");
    }
}

/// The row-`k` puzzle with the soldiers standing on `army` instead.
fn with_army(m: &HopModel, army: u128, k: i64) -> String {
    let mut rows = vec![vec!["."; 11]; 11];
    for c in (0..m.geo.cells.len()).filter(|&c| army >> c & 1 == 1) {
        let [r, col] = m.geo.cells[c];
        rows[r as usize][col as usize] = "o";
    }
    let board: Vec<String> = rows.iter().map(|r| format!("  {}\n", r.join(" "))).collect();
    format!(
        "rules: peg_hop\nboard: |\n{}goal:\n  reach: [{}, {MIDDLE}]\n",
        board.concat(),
        LINE - k
    )
}

#[test]
fn rows_one_to_three_take_two_four_and_eight_men_and_no_fewer() {
    for (k, men) in [(1, 2), (2, 4), (3, 8)] {
        let m = board(k);
        let cell = m.geo.index[&[LINE - k, MIDDLE]];
        let region = below_the_line(&m);
        let mut budget = Budget::new(Limits::default());
        // No army of men − 1 anywhere below the line reaches the cell …
        let fewer = fewest_army(&m, cell, region, men - 1, &mut budget).unwrap();
        assert_eq!(fewer, None, "row {k}");
        // … and the search finds one of `men`, which marbles then solves, replayed here.
        let army = fewest_army(&m, cell, region, men, &mut budget)
            .unwrap()
            .unwrap_or_else(|| panic!("row {k}: no army of {men}"));
        assert_eq!(army.pegs, men, "row {k}");
        assert_eq!(
            army.position & !region,
            0,
            "row {k}: the army stands below the line"
        );
        let yaml = with_army(&m, army.position, k);
        assert_eq!(reaches_row("found.yaml", &yaml, k), men as usize, "row {k}");
    }
}

#[test]
fn no_army_of_nineteen_reaches_row_four() {
    let m = board(4);
    let cell = m.geo.index[&[LINE - 4, MIDDLE]];
    let mut budget = Budget::new(Limits::default());
    let found = fewest_army(&m, cell, below_the_line(&m), 19, &mut budget).unwrap();
    assert_eq!(found, None);
}

#[test]
fn no_army_reaches_row_five() {
    // Nine columns, five empty rows above the line and eight full ones below: 72 men.
    let rows: Vec<String> = (0..13)
        .map(|r| format!("  {}\n", [if r < 5 { "." } else { "o" }; 9].join(" ")))
        .collect();
    let yaml = format!(
        "rules: peg_hop\nboard: |\n{}goal:\n  reach: [0, 4]\n",
        rows.concat()
    );
    let run = Test::new()
        .file("row5.yaml", &yaml)
        .args(["solve", "row5.yaml", "--format", "json"])
        .run()
        .no_panic()
        .status(1);
    assert_eq!(run.json()[0]["status"], "unsolvable");
    // With its reason, before any search: Conway's pagoda weighs the army below one man on
    // the cell (in whole Fibonacci numbers: F(18) on the cell, twelve rows from the farthest).
    assert_eq!(
        run.json()[0]["reason"],
        "pagoda function: the start weighs 2247, every goal position at least 2584, \
         and no move adds weight"
    );
    assert_eq!(run.json()[0]["stats"]["nodes"], 0);
}
