//! The shipped library, `puzzles/`: every puzzle solves or is refuted, and every hop answer is
//! replayed here, move by move and independently of marbles, to its goal (a drawn goal board
//! exactly). Tilt and classic-notation answers are replayed by their own tests (cli.rs,
//! classic.rs, seeds.rs).

use crate::cli::{Cell, SQUARE, TRIANGLE, drawing, replay_hops};
use crate::support::{Test, root};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Puzzles that take minutes in a debug build (a minute in a release one): solved when the
/// tests are built with optimisations (`cargo test --release`), skipped otherwise.
const SLOW_IN_DEBUG: [&str; 2] = crate::support::LONG_SHIPPED;

/// The shipped puzzles with no way to win (a marble starts on another's hole; no tilt works).
const REFUTED: [&str; 3] = [
    "tilt_roll/crossed_holes.yaml",
    "tilt_roll/exit_blocked.yaml",
    "tilt_roll/no_solution.yaml",
];

fn yaml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "yaml") {
            out.push(p);
        }
    }
}

/// Checks one hop answer: replayed, it ends where the puzzle's goal says.
fn check_hop_answer(rel: &str, yaml: &str, o: &serde_json::Value) {
    let v: serde_yaml::Value = serde_yaml::from_str(yaml).unwrap();
    let mut dirs = match v["rules"].as_str().unwrap() {
        "peg_hop" | "diagonal_hop" => SQUARE.to_vec(),
        "triangle_hop" => TRIANGLE.to_vec(),
        other => panic!("{rel}: no replay for family {other}"),
    };
    if v["rules"] == "diagonal_hop" {
        dirs.extend([(1, 1), (1, -1), (-1, 1), (-1, -1)]);
    }
    let left = replay_hops(yaml, crate::support::line(o), &dirs);
    assert_eq!(o["pegs_left"], left.len(), "{rel}");
    let goal = &v["goal"];
    if let Some(board) = goal["board"].as_str() {
        assert_eq!(left, drawing(board).0, "{rel}: not the goal board");
        return;
    }
    match &goal["pegs"] {
        serde_yaml::Value::String(w) if w == "fewest" => {}
        serde_yaml::Value::Number(n) => assert_eq!(Some(left.len() as u64), n.as_u64(), "{rel}"),
        _ => assert_eq!(left.len(), 1, "{rel}: the families' default is one peg"),
    }
    if let Some(at) = goal["at"].as_sequence() {
        let at: Cell = (at[0].as_i64().unwrap(), at[1].as_i64().unwrap());
        assert!(left.contains(&at), "{rel}: no peg at {at:?}");
    }
}

#[test]
fn every_shipped_puzzle_solves_or_is_refuted_and_every_hop_answer_replays_to_its_goal() {
    let puzzles = root().join("puzzles");
    let mut files = Vec::new();
    yaml_files(&puzzles, &mut files);
    files.sort();
    let rel = |p: &Path| p.strip_prefix(&puzzles).unwrap().display().to_string();
    let (slow, files): (Vec<_>, Vec<_>) = files
        .into_iter()
        .partition(|p| cfg!(debug_assertions) && SLOW_IN_DEBUG.contains(&rel(p).as_str()));
    if !slow.is_empty() {
        eprintln!(
            "SKIPPED in a debug build (run `cargo test --release` to replay them): {}",
            slow.iter().map(|p| rel(p)).collect::<Vec<_>>().join(", ")
        );
    }
    let mut args = vec!["solve".to_string(), "--format".into(), "json".into()];
    args.extend(files.iter().map(|p| p.display().to_string()));
    // The refuted ones say `expect: unsolvable`: every answer is as its file expects.
    let run = Test::new().args(&args).run().no_panic().status(0);
    let outcomes = run.json();
    let outcomes = outcomes.as_array().unwrap();
    assert_eq!(outcomes.len(), files.len());
    let mut hop = 0;
    for (path, o) in files.iter().zip(outcomes) {
        let name = rel(path);
        if REFUTED.contains(&name.as_str()) {
            assert_eq!(o["status"], "unsolvable", "{name}");
            continue;
        }
        assert_eq!(o["status"], "solved", "{name}: {o}");
        let yaml = std::fs::read_to_string(path).unwrap();
        // Tilt answers, and those of pieces of kinds and of sliding robots, are replayed by
        // tests of their own (exits.rs, kinds.rs).
        let kinds = ["frogs_toads/", "hoppers/", "slide_maze/", "ricochet/"];
        if !name.starts_with("tilt_roll/") && !kinds.iter().any(|k| name.starts_with(k)) {
            check_hop_answer(&name, &yaml, o);
            hop += 1;
        }
    }
    // The classic English pattern problems, Wiegleb's and the diamond's, triangles of 5 to 8
    // rows: at least these are among the hop answers replayed.
    let names: BTreeSet<&str> = outcomes.iter().map(|o| o["puzzle"].as_str().unwrap()).collect();
    for name in [
        "Latin cross",
        "Greek cross",
        "Fireplace",
        "Pyramid",
        "Arrow",
        "Double arrow",
        "Diamond",
        "Diamond 41, ring",
        "Wiegleb, middle cross",
        "Triangle 6, corner",
        "Triangle 7, corner",
        "Triangle 8, third row",
    ] {
        assert!(names.contains(name), "{name} is not shipped");
    }
    assert!(hop >= 20, "{hop} hop answers replayed");
}

#[test]
fn the_seven_row_triangle_leaves_two_pegs_and_one_is_impossible() {
    // No single vacancy of the 28-hole triangle finishes with one peg: its position class.
    let one_peg = std::fs::read_to_string(root().join("puzzles/triangle_hop/triangle7.yaml"))
        .unwrap()
        .replace("pegs: fewest", "pegs: 1");
    let run = Test::new()
        .file("t7.yaml", &one_peg)
        .args(["solve", "t7.yaml"])
        .run()
        .status(1);
    assert!(
        run.stdout
            .contains("unsolvable: position class: no single peg is in the class of the start (2 invariant parities checked)"),
        "{}",
        run.stdout
    );
    let run = Test::new()
        .in_root()
        .args(["solve", "puzzles/triangle_hop/triangle7.yaml", "--format", "json"])
        .run()
        .status(0);
    assert_eq!(run.json()[0]["pegs_left"], 2);
}
