//! `pegs: fewest` on small boards: the exact values of `search::dense` (a puzzle's own table,
//! then one shared by every board of the shape) checked against the depth-first searches a
//! node limit keeps, and shown not to depend on what earlier puzzles left in the table.

use crate::many::results;
use crate::support::{Test, random_5x5_boards, root};
use marbles::model::HopModel;
use marbles::search::dfs::{HopResult, Quiet};
use marbles::search::{Budget, Limits, Verdict, plan};
use marbles::solve::{self, MoveOrder};
use std::process::Command;

/// Frees the shared tables of values when a test ends, so that this process stays small for
/// the tests that measure the processes they start (see `support::Test::run_bounded`).
pub struct Cold;

impl Drop for Cold {
    fn drop(&mut self) {
        marbles::search::dense::forget();
    }
}

fn model(board: &str) -> HopModel {
    let rows: Vec<String> = board.lines().map(|r| r.replace(' ', "")).collect();
    solve::hop_model("peg_hop", &rows, "{pegs: fewest}").expect("a 5×5 peg board")
}

fn solved(m: &HopModel, limits: Limits) -> HopResult {
    let order = solve::move_order(m, &MoveOrder::Script);
    let r = plan::hop(m, &order, &mut Budget::new(limits), &mut Quiet);
    assert_eq!(r.verdict, Verdict::Solved, "start {:#x}", m.start);
    let end = solve::hop_end(m, &r.path).expect("the answer's moves replay");
    assert_eq!(
        end, r.end,
        "start {:#x}: the moves end where the search says",
        m.start
    );
    r
}

#[test]
fn exact_values_leave_the_pegs_the_depth_first_searches_prove() {
    let _cold = Cold;
    // Any node limit keeps a puzzle on the depth-first searches (capped search, beams, exact
    // searches per peg count); without one, 5×5 boards take the table of values.
    let dfs = Limits {
        max_nodes: Some(u64::MAX),
        ..Limits::default()
    };
    let mut left = [0; 26];
    for board in random_5x5_boards(300, 0x2545_f491_4f6c_dd1d) {
        let m = model(&board);
        let (by_values, by_dfs) = (solved(&m, Limits::default()), solved(&m, dfs));
        let pegs = by_values.end.count_ones();
        assert_eq!(pegs, by_dfs.end.count_ones(), "{board}");
        // Both answer with the first line, in the move order, to the fewest pegs.
        assert_eq!(by_values.path, by_dfs.path, "{board}");
        left[pegs as usize] += 1;
    }
    assert!(left[1] > 50 && left[2] > 50, "boards by pegs left: {left:?}");
}

#[test]
fn an_answer_does_not_depend_on_what_the_table_held() {
    let _cold = Cold;
    // The first boards of the shape take tables of their own, the later ones the shared
    // table; in reverse order every board finds the shared table filled by all the others.
    let boards: Vec<HopModel> = random_5x5_boards(120, 0x9e37_79b9_7f4a_7c15)
        .iter()
        .map(|b| model(b))
        .collect();
    let forward: Vec<Vec<usize>> = boards.iter().map(|m| solved(m, Limits::default()).path).collect();
    let mut backward: Vec<Vec<usize>> = boards
        .iter()
        .rev()
        .map(|m| solved(m, Limits::default()).path)
        .collect();
    backward.reverse();
    assert_eq!(forward, backward);
}

#[test]
fn one_thread_two_threads_and_no_cache_answer_alike() {
    let t = random_5x5_boards(80, 0x51_7cc1_b727_220a)
        .iter()
        .enumerate()
        .fold(Test::new(), |t, (k, rows)| {
            let board: String = rows.lines().map(|r| format!("  {r}\n")).collect();
            t.file(
                &format!("boards/b{k:03}.yaml"),
                &format!("rules: peg_hop\nboard: |\n{board}goal:\n  pegs: fewest\n"),
            )
        });
    let run = |report: &str, jobs: &str, cached: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_marbles"));
        // One memory limit for all: the default is split between the jobs, and is part of
        // each result's settings.
        cmd.args(["batch", "--quiet", "--max-memory", "1GB", "-j", jobs, "--report"])
            .arg(t.path(report))
            .arg(t.path("boards"))
            .current_dir(root());
        if !cached {
            cmd.env("MARBLES_NO_CACHE", "1");
        }
        let out = cmd.output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // Without time, table bytes and (on these boards) nodes: what describes the work
        // done, which a table filled by earlier boards spares.
        results(&t.path(report))
    };
    let one = run("one", "1", true);
    assert_eq!(one.len(), 80);
    assert!(
        one.iter()
            .all(|r| r["status"] == "solved" && r["moves"].as_array().is_some())
    );
    assert_eq!(one, run("two", "2", true), "-j 2 answered otherwise than -j 1");
    assert_eq!(one, run("fresh", "1", false), "a fresh table answered otherwise");
}

#[test]
fn limits_hold_on_the_table_of_values() {
    let board = "rules: peg_hop\nboard: |\n  o o . o o\n  o o o . o\n  . o o o o\n  o o o o .\n  o . o o o\ngoal:\n  pegs: fewest\n";
    let solve = |extra: &[&str]| {
        let mut args = vec!["solve", "b.yaml", "--format", "json"];
        args.extend(extra);
        Test::new().file("b.yaml", board).args(&args).run().json()[0].clone()
    };
    let free = solve(&[]);
    assert_eq!(free["status"], "solved", "{free}");
    let moves = free["moves"].as_array().unwrap().len() as u64;
    assert_eq!(
        free["pegs_left"].as_u64(),
        Some(20 - moves),
        "20 pegs, one fewer a jump"
    );
    // Too little memory for the shared table (32 MiB, over `solve`'s whole process of some
    // 10 MB): the puzzle keeps a table of its own, counted against the limit, and answers alike.
    let tight = solve(&["--max-memory", "30MB"]);
    assert_eq!(tight["status"], "solved", "{tight}");
    let bytes = tight["stats"]["memory_bytes"].as_u64().unwrap();
    assert!(bytes > 0 && bytes < 30_000_000, "{tight}");
    assert_eq!(
        (&tight["pegs_left"], &tight["moves"]),
        (&free["pegs_left"], &free["moves"])
    );
    // No time at all: given up at the start, with no moves, its pegs the best known.
    let none = solve(&["--timeout", "0"]);
    assert_eq!(none["status"], "gave_up", "{none}");
    assert_eq!(
        (none["pegs_left"].as_u64(), none["moves"].as_array().map(Vec::len)),
        (Some(20), Some(0))
    );
}
