//! `pegs: fewest` on small boards: the exact values of `search::dense` (a puzzle's own table,
//! then one shared by every board of the shape) checked against the depth-first searches a
//! node limit keeps, and shown not to depend on what earlier puzzles left in the table. And
//! `moves: fewest` for families whose jumps take two pegs, or none, checked against a plain
//! breadth-first search of the test's own.

use crate::many::results;
use crate::support::{Test, no_line_yet, random_5x5_boards, root};
use marbles::model::{HopModel, HopMove, Model};
use marbles::search::dfs::{HopResult, Quiet};
use marbles::search::{Budget, GaveUp, Limits, Verdict, plan};
use marbles::solve::{self, MoveOrder};
use std::collections::{HashMap, HashSet};
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
            .all(|r| r["status"] == "solved" && crate::support::line(r).as_array().is_some())
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
    let moves = crate::support::line(&free).as_array().unwrap().len() as u64;
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
        (&tight["pegs_left"], &crate::support::line(&tight)),
        (&free["pegs_left"], &crate::support::line(&free))
    );
    // No time at all: given up at the start, with no moves, its pegs the best known.
    let none = solve(&["--timeout", "0"]);
    assert_eq!(none["status"], "gave_up", "{none}");
    assert_eq!(
        (
            none["pegs_left"].as_u64(),
            crate::support::line(&none).as_array().map(Vec::len)
        ),
        (Some(20), Some(0))
    );
}

/// A peg jumps along a row or column over one peg or over two in a line, into the hole beyond.
const HOP12: &str = r#"
fn rules(board) {
    let grid = board.lattice("square");
    let directions = [#{ name: "up", by: [0, -1] }, #{ name: "down", by: [0, 1] },
                      #{ name: "left", by: [-1, 0] }, #{ name: "right", by: [1, 0] }];
    let moves = [];
    for cell in grid.cells {
        let x = grid.x(cell[0], cell[1]);
        let y = grid.y(cell[0], cell[1]);
        for d in directions {
            let a = grid.at(x + d.by[0], y + d.by[1]);
            let b = grid.at(x + 2 * d.by[0], y + 2 * d.by[1]);
            let c = grid.at(x + 3 * d.by[0], y + 3 * d.by[1]);
            if a != () && b != () && grid.has(a[0], a[1]) && grid.has(b[0], b[1]) {
                moves.push(#{ dir: d.name, from: cell, over: a, to: b });
                if c != () && grid.has(c[0], c[1]) {
                    moves.push(#{ dir: d.name, from: cell, over: [a, b], to: c });
                }
            }
        }
    }
    #{ kind: "hop", layout: "square", directions: ["up", "down", "left", "right"], moves: moves }
}
"#;

#[test]
fn a_jump_over_two_pegs_is_one_move_to_the_fewest_moves_search() {
    let row = |holes: usize, args: &[&str]| {
        let yaml = format!(
            "rules: hop12\nboard: |\n  o o o{}\ngoal:\n  pegs: 1\n",
            " .".repeat(holes)
        );
        Test::new()
            .file("rules/hop12.rhai", HOP12)
            .file("row.yaml", &yaml)
            .args(["solve", "--fewest-moves", "row.yaml"].iter().chain(args))
            .run()
    };
    // Positions in 64 bits, and (70 holes) in 128.
    for holes in [1, 67] {
        row(holes, &[])
            .status(0)
            .stdout_has("solved in 1 move, proven the fewest (1 jump), 1 peg left");
    }
    // Its search spends the budget like every other.
    row(1, &["--max-nodes", "0"])
        .status(1)
        .stdout_has("gave up: node limit (0 nodes)");
}

/// Stopped by a limit, the search over chains returns the quick line it found first (plain
/// `solve` finds one at once), beside the moves it proved needed: 9 are the fewest here.
#[test]
fn a_limit_that_stops_the_search_over_chains_returns_a_line() {
    let run = Test::new()
        .file("rules/hop12.rhai", HOP12)
        .file(
            "f.yaml",
            "rules: hop12\nboard: |\n  o o o o o\n  o o o o o\n  o o . o o\n  o o o o o\n  o o o o o\ngoal:\n  pegs: 1\n",
        )
        .args(["solve", "--fewest-moves", "f.yaml", "--max-nodes", "10000", "--format", "json"])
        .run()
        .status(1);
    crate::support::stopped_with_a_line(&run.json()[0], "node limit (10000 nodes)", 9);
}

/// A position class of one parity says so in the singular ("1 invariant parities checked").
#[test]
fn a_position_class_of_one_parity_says_so_in_the_singular() {
    // From [0, 0] over [0, 1], then back from [0, 3]: one peg is left on [0, 1] alone.
    Test::new()
        .file("rules/hop12.rhai", HOP12)
        .file(
            "row.yaml",
            "rules: hop12\nboard: |\n  o o . o\ngoal:\n  pegs: 1\n  at: [0, 0]\n",
        )
        .args(["solve", "row.yaml"])
        .run()
        .status(1)
        .stdout_has(
            "unsolvable: position class: a single peg at [0, 0] is not in the class of the start \
             (1 invariant parity checked)\n",
        );
}

type Cell = [i64; 2];

/// One of the test's own jumps: from, the cells jumped over, to.
type Jump = (Cell, Vec<Cell>, Cell);

/// Every jump on a `rows`×`cols` rectangle of holes along a row or column over `k` cells, for
/// each `k` in `over` (0: a step to the next hole).
fn own_rules(rows: i64, cols: i64, over: &[i64]) -> Vec<Jump> {
    let on = |[r, c]: Cell| (0..rows).contains(&r) && (0..cols).contains(&c);
    let mut out = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                for &k in over {
                    let to = [r + dr * (k + 1), c + dc * (k + 1)];
                    if on(to) {
                        let cells = (1..=k).map(|i| [r + dr * i, c + dc * i]).collect();
                        out.push(([r, c], cells, to));
                    }
                }
            }
        }
    }
    out
}

/// What the goal asks: `pegs` (`None`: the fewest) and a cell that must hold one.
struct Goal {
    pegs: Option<u32>,
    at: Option<Cell>,
}

/// The fewest pegs a goal position reached has and the fewest moves to one, by breadth-first
/// search over positions (sets of cells), a move being every chain of jumps one peg can make.
fn own_fewest(rules: &[Jump], start: &HashSet<Cell>, goal: &Goal) -> Option<(u32, u32)> {
    let cells: Vec<Cell> = rules
        .iter()
        .flat_map(|(f, o, t)| o.iter().chain([f, t]))
        .chain(start)
        .copied()
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let bit = |c: &Cell| 1u32 << cells.iter().position(|d| d == c).unwrap();
    // Each jump as (need, mask, to), filed under its from cell.
    let mut by_from: HashMap<Cell, Vec<(u32, u32, Cell)>> = HashMap::new();
    for (f, o, t) in rules {
        let need = bit(f) | o.iter().map(bit).fold(0, |a, b| a | b);
        by_from.entry(*f).or_default().push((need, need | bit(t), *t));
    }
    let start = start.iter().map(bit).fold(0, |a, b| a | b);
    let mut dist = HashMap::from([(start, 0u32)]);
    let mut frontier = vec![start];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for p in frontier {
            let d = dist[&p];
            let mut seen = HashSet::new();
            // A chain starts with any jump; each jump after it is made from where it landed.
            let mut chains: Vec<(u32, Cell)> = Vec::new();
            let mut jump = |q: u32, jumps: &[(u32, u32, Cell)], chains: &mut Vec<(u32, Cell)>| {
                for &(need, mask, to) in jumps {
                    let r = q ^ mask;
                    if q & mask == need && seen.insert((r, to)) {
                        chains.push((r, to));
                        if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(r) {
                            e.insert(d + 1);
                            next.push(r);
                        }
                    }
                }
            };
            for jumps in by_from.values() {
                jump(p, jumps, &mut chains);
            }
            while let Some((q, at)) = chains.pop() {
                jump(q, by_from.get(&at).map_or(&[], Vec::as_slice), &mut chains);
            }
        }
        frontier = next;
    }
    let ends = dist
        .iter()
        .filter(|(s, _)| goal.at.is_none_or(|a| *s & bit(&a) != 0))
        .map(|(s, d)| (s.count_ones(), *d));
    match goal.pegs {
        Some(n) => ends.filter(|e| e.0 == n).min(),
        None => ends.min(),
    }
}

/// Checks marbles' `moves: fewest` answer on one board against [`own_fewest`]: every jump one
/// of the test's own rules and legal where it is made, the end a goal position, the pegs and
/// the moves (a jump from where the last one landed continuing its move) the fewest.
fn check_fewest_moves(m: &HopModel, rules: &[Jump], goal: &Goal, what: &str) {
    let mut pegs: HashSet<Cell> = (0..m.geo.cells.len())
        .filter(|&i| m.start >> i & 1 == 1)
        .map(|i| m.geo.cells[i])
        .collect();
    let expect = own_fewest(rules, &pegs, goal);
    let order = |m: &HopModel| solve::move_order(m, &MoveOrder::Script);
    let model = Model::Hop(m.clone());
    let found = plan::solve(&model, order, &mut Budget::new(Limits::default()), &mut Quiet);
    let Some((want_pegs, want_moves)) = expect else {
        // Refuted with its reason: what was searched, all of it.
        assert!(
            matches!(&found.verdict, Verdict::Unsolvable(Some(why)) if why.starts_with("exhaustive search")
                || why.starts_with("position class") || why.starts_with("the start has fewer pegs")),
            "{what}: no goal position is reachable, yet {:?}",
            found.verdict
        );
        return;
    };
    // Stopped after a few chain steps, a search for a peg count says the floor it proved,
    // never above the truth.
    if goal.pegs.is_some() {
        let limits = Limits {
            max_nodes: Some(30),
            ..Limits::default()
        };
        let stopped = plan::solve(&model, order, &mut Budget::new(limits), &mut Quiet);
        match stopped.verdict {
            Verdict::GaveUp(GaveUp::UnprovenMoves { least, .. }) => {
                assert!(
                    least <= want_moves,
                    "{what}: at least {least}, where {want_moves} do"
                )
            }
            Verdict::Solved => {}
            other => panic!("{what}: stopped without a floor: {other:?}"),
        }
    }
    assert_eq!(found.verdict, Verdict::Solved, "{what}");
    let (mut moves, mut last) = (0, None);
    for &i in &found.path {
        let mv = &m.moves[i];
        let jump = (
            m.geo.cells[mv.from],
            mv.over.iter().map(|&c| m.geo.cells[c]).collect(),
            m.geo.cells[mv.to],
        );
        assert!(rules.contains(&jump), "{what}: {jump:?} is no jump of the rules");
        let (from, over, to) = jump;
        let legal = pegs.contains(&from) && over.iter().all(|c| pegs.contains(c)) && !pegs.contains(&to);
        assert!(
            legal,
            "{what}: {from:?} over {over:?} to {to:?} is not legal there"
        );
        pegs.remove(&from);
        over.iter().for_each(|c| _ = pegs.remove(c));
        pegs.insert(to);
        if last != Some(from) {
            moves += 1;
        }
        last = Some(to);
    }
    assert!(
        goal.at.is_none_or(|a| pegs.contains(&a)),
        "{what}: ends off the goal cell"
    );
    assert_eq!(
        (pegs.len() as u32, moves),
        (want_pegs, want_moves),
        "{what}: (pegs, moves)"
    );
}

/// Random rectangles of at most `most` holes, each hole a peg with probability 5/8, at least
/// two pegs and one hole, with a goal of one peg, two, the fewest, or one peg on a cell.
fn random_boards(count: usize, mut seed: u64, most: i64) -> Vec<(i64, i64, Vec<String>, Goal)> {
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let shapes: Vec<(i64, i64)> = [
        (1, 7),
        (1, 8),
        (2, 4),
        (2, 5),
        (3, 3),
        (2, 6),
        (3, 4),
        (3, 5),
        (4, 4),
    ]
    .into_iter()
    .filter(|(r, c)| r * c <= most)
    .collect();
    let mut out = Vec::new();
    while out.len() < count {
        let (rows, cols) = shapes[next() as usize % shapes.len()];
        let board: Vec<String> = (0..rows)
            .map(|_| {
                (0..cols)
                    .map(|_| if next() % 8 < 5 { 'o' } else { '.' })
                    .collect()
            })
            .collect();
        let pegs = board.iter().flat_map(|r| r.chars()).filter(|&c| c == 'o').count();
        if pegs < 2 || pegs == (rows * cols) as usize {
            continue;
        }
        let goal = match next() % 4 {
            0 => Goal {
                pegs: Some(1),
                at: None,
            },
            1 => Goal {
                pegs: Some(2),
                at: None,
            },
            2 => Goal { pegs: None, at: None },
            _ => {
                let at = [next() as i64 % rows, next() as i64 % cols].map(i64::abs);
                Goal {
                    pegs: Some(1),
                    at: Some(at),
                }
            }
        };
        out.push((rows, cols, board, goal));
    }
    out
}

/// The model of `board` under `rules` (a built-in family or the test's `rules/hop12.rhai`) with `goal` and the fewest moves asked.
fn fewest_moves_model(t: &Test, k: usize, rules: &str, board: &[String], goal: &Goal) -> HopModel {
    let drawn: String = board
        .iter()
        .map(|r| {
            format!(
                "  {}\n",
                r.chars().map(String::from).collect::<Vec<_>>().join(" ")
            )
        })
        .collect();
    let pegs = goal.pegs.map_or("fewest".to_string(), |n| n.to_string());
    let at = goal
        .at
        .map_or(String::new(), |[r, c]| format!("  at: [{r}, {c}]\n"));
    let yaml = format!("rules: {rules}\nboard: |\n{drawn}goal:\n  pegs: {pegs}\n{at}  moves: fewest\n");
    let path = t.path(&format!("b{k}.yaml"));
    std::fs::write(&path, &yaml).unwrap();
    match solve::prepare(&path, &solve::Options::default())
        .unwrap_or_else(|e| panic!("{yaml}: {e}"))
        .model
    {
        Model::Hop(m) => m,
        _ => panic!("a hop family"),
    }
}

#[test]
fn fewest_moves_match_a_plain_breadth_first_search_whatever_a_jump_takes() {
    let t = Test::new().file("rules/hop12.rhai", HOP12);
    // Over one peg or two in a line; over one (the ordinary game, as a control).
    for (rules, over, seed) in [
        ("hop12", &[1, 2][..], 0x2545_f491_4f6c_dd1d),
        ("peg_hop", &[1][..], 0x9e37_79b9),
    ] {
        for (k, (rows, cols, board, goal)) in random_boards(40, seed, 16).into_iter().enumerate() {
            let m = fewest_moves_model(&t, k, rules, &board, &goal);
            let what = format!("{rules} {board:?} pegs {:?} at {:?}", goal.pegs, goal.at);
            check_fewest_moves(&m, &own_rules(rows, cols, over), &goal, &what);
        }
    }
    // Steps to the next hole as well as jumps over one peg: no script can say `over: []`,
    // so the steps are added to the compiled ordinary game.
    for (k, (rows, cols, board, goal)) in random_boards(40, 0x51_7cc1_b727, 8).into_iter().enumerate() {
        let mut m = fewest_moves_model(&t, k, "peg_hop", &board, &goal);
        let rules = own_rules(rows, cols, &[0, 1]);
        for (from, _, to) in rules.iter().filter(|j| j.1.is_empty()) {
            let (from, to) = (m.geo.index[from], m.geo.index[to]);
            let (from_bit, to_bit) = (1u128 << from, 1u128 << to);
            m.moves.push(HopMove {
                mask: from_bit | to_bit,
                need: from_bit,
                from,
                over: Vec::new(),
                to,
                dir: None,
            });
        }
        let what = format!("steps {board:?} pegs {:?} at {:?}", goal.pegs, goal.at);
        check_fewest_moves(&m, &rules, &goal, &what);
    }
}

#[test]
fn an_unsolvable_verdict_in_the_fewest_moves_says_what_was_searched() {
    // Six positions are reachable from `o o . o o o`, none with one peg: the fewest-moves
    // search refutes it as the plain one does, by every position it tried.
    let t = Test::new().file("p.yaml", "rules: peg_hop\nboard: |\n  o o . o o o\n");
    let reason = |args: &[&str]| {
        let run = Test::new()
            .in_dir(&t.path(""))
            .args(["solve", "p.yaml", "--format", "json"].iter().chain(args))
            .run()
            .status(1);
        run.json()[0]["reason"].as_str().unwrap().to_string()
    };
    for why in [reason(&[]), reason(&["--fewest-moves"])] {
        assert!(
            why.starts_with("exhaustive search: none of the 6 positions tried")
                && why.ends_with("reaches the goal; they are every position reachable from the start"),
            "{why}"
        );
    }
    // A board with no jump at all: said to be one, not refuted by pagodas or anything.
    let t = Test::new().file(
        "n.yaml",
        "rules: peg_hop\nboard: |\n  o # o\n  o # .\ngoal:\n  pegs: 2\n  at: [0, 0]\n",
    );
    let run = Test::new()
        .in_dir(&t.path(""))
        .args(["solve", "n.yaml", "--format", "json"])
        .run()
        .status(1);
    assert_eq!(
        run.json()[0]["reason"],
        "the rules make no move on this board: no peg can ever move (no jump of the family fits \
         its holes)"
    );
    // A goal board no line reaches in any number of moves: refuted by the plain search's
    // every position, before any search by moves (whose pass from the goal's side would say
    // three positions: one peg on [1, 1] is left only from [1, 3] over [1, 2], and that only
    // from [1, 0] over [1, 1]).
    let t = Test::new().file(
        "g.yaml",
        "rules: peg_hop\nboard: |\n  o o . o o\n  . o o o o\n  o . o . o\ngoal:\n  board: |\n    \
         . . . . .\n    . o . . .\n    . . . . .\n",
    );
    let run = Test::new()
        .in_dir(&t.path(""))
        .args(["solve", "g.yaml", "--fewest-moves", "--format", "json"])
        .run()
        .status(1);
    assert_eq!(
        run.json()[0]["reason"],
        "exhaustive search: none of the 181 positions tried reaches the goal; they are every \
         position reachable from the start"
    );
}

/// The triangle of six rows with one hole, the second of its edge.
const T6: &str = "rules: triangle_hop\nboard: |2\n       o\n      . o\n     o o o\n    o o o o\n   o o o o o\n  o o o o o o\ngoal:\n  pegs: 1\n";

#[test]
fn a_fewest_moves_search_stopped_early_says_its_best_line_and_its_lower_bound() {
    let run = |args: &[&str]| {
        Test::new()
            .file("t6.yaml", T6)
            .args(["solve", "--fewest-moves", "t6.yaml"].iter().chain(args))
            .run()
    };
    // Unstopped: 9 moves (Bell).
    run(&[])
        .status(0)
        .stdout_has("solved in 9 moves, proven the fewest (19 jumps)");
    // Stopped, it returns the quick first line, replayed, and what it proved on the way.
    let stopped = run(&["--max-nodes", "20000"]);
    let stopped = stopped.status(1).stdout_has("best found so far ");
    let text = stopped.stdout.clone();
    let (best, least) = bounds(&text);
    assert!(least <= 9 && 9 <= best, "{text}");
    // The line is replayed: its last jump is listed.
    assert!(text.contains("\njump 19: "), "{text}");
    let json = &run(&["--max-nodes", "20000", "--format", "json"])
        .status(1)
        .json()[0];
    assert_eq!(json["status"], "gave_up", "{json}");
    assert_eq!(json["move_count"], best, "{json}");
    assert!(
        json["reason"]
            .as_str()
            .is_some_and(|r| r.ends_with(&format!("best found so far {best} moves, at least {least}"))),
        "{json}"
    );
    assert_eq!(json["moves_floor"], least, "{json}");
}

/// Where the quick depth-first line finds nothing at once, the searches `solve` uses for a
/// first solution look for one: a fewest-moves search stopped early had no line to return
/// on boards that `solve` finished in a moment (here 103,000 nodes).
#[test]
fn a_fewest_moves_search_stopped_early_has_the_line_solve_would_find() {
    let json = &Test::new()
        .in_root()
        .args([
            "solve",
            "--fewest-moves",
            "--max-nodes",
            "200000",
            "--format",
            "json",
            "puzzles/diagonal_hop/square5_centre.yaml",
        ])
        .run()
        .status(1)
        .json()[0];
    assert_eq!(json["status"], "gave_up", "{json}");
    let reason = json["reason"].as_str().unwrap();
    let (best, least) = bounds(reason);
    // The fewest is 11 (`solve --fewest-moves` unstopped).
    assert!(least <= 11 && 11 <= best, "{json}");
    assert_eq!(json["move_count"], best, "{json}");
    assert_eq!(json["pegs_left"], 1, "{json}");
    assert_eq!(json["jumps"].as_array().unwrap().len(), 23, "{json}");
}

/// `pegs: fewest` in the fewest moves finds the fewest pegs first, then the fewest moves to
/// them: stopped in the second search, it returns a line to the fewest pegs and the moves it
/// proved needed, as the search for a peg count does.
#[test]
fn the_fewest_pegs_in_the_fewest_moves_stopped_says_its_best_line_and_its_lower_bound() {
    let t6 = T6.replace("pegs: 1", "pegs: fewest");
    let run = |args: &[&str]| {
        Test::new()
            .file("t6.yaml", &t6)
            .args(["solve", "--fewest-moves", "t6.yaml"].iter().chain(args))
            .run()
    };
    run(&[])
        .status(0)
        .stdout_has("solved in 9 moves, proven the fewest (19 jumps), 1 peg left");
    let json = &run(&["--max-nodes", "20000", "--format", "json"])
        .status(1)
        .json()[0];
    assert_eq!(json["status"], "gave_up", "{json}");
    assert_eq!(json["pegs_left"], 1, "{json}");
    let (best, least) = (&json["move_count"], &json["moves_floor"]);
    let (best, least) = (best.as_u64().expect("a line"), least.as_u64().expect("a floor"));
    assert!(least <= 9 && 9 <= best, "{json}");
    assert_eq!(json["jumps"].as_array().map(Vec::len), Some(19), "{json}");
    assert!(
        json["reason"].as_str().is_some_and(|r| r.ends_with(&format!(
            "best found so far {best} moves, at least {least}; 1 peg, proven the fewest"
        ))),
        "{json}"
    );
}

/// No jump adds a peg, so no position of a line has more pegs than the start nor fewer than a
/// goal of a peg count: the searches from both ends and the walk back along the answer keep to
/// that. Without it, a peg on a large, nearly empty board unjumped in every direction: the
/// 105-hole triangle below ran past its 5 s and 500 MB to 3 GB, the 55-hole one gave up at
/// 200 MB on a line of 4 moves a plain breadth-first search proves the fewest.
#[test]
fn lines_on_large_nearly_empty_boards_keep_to_the_pegs_of_their_ends() {
    let blank = |n: usize| " .".repeat(n);
    let mut tri = String::from("rules: triangle_hop\nboard: |2\n");
    for r in 0..14 {
        let row = match r {
            0 => " o".to_string(),
            13 => format!(" o o{} o", blank(11)),
            _ => blank(r + 1),
        };
        tri += &format!("  {}{}\n", " ".repeat(13 - r), &row[1..]);
    }
    tri += "goal:\n  pegs: fewest\n";
    let bounded = Test::new()
        .file("t105.yaml", &tri)
        .args([
            "solve",
            "--fewest-moves",
            "--timeout",
            "5",
            "--max-memory",
            "500MB",
            "t105.yaml",
        ])
        .run_bounded(std::time::Duration::from_secs(20), None);
    assert!(!bounded.killed, "past its limits");
    bounded
        .run
        .status(0)
        .stdout_has("solved in 1 move, proven the fewest (1 jump), 3 pegs left");
    let t55 = "rules: triangle_hop\nboard: |2\n           .\n          . .\n         . . .\n        . . . .\n       . . . . .\n      . . . . . .\n     . o . . . . .\n    . o . o o . . .\n   . o o o o . . . .\n  o . o . . . . . . .\ngoal:\n  pegs: 1\n  moves: fewest\n";
    Test::new()
        .file("t55.yaml", t55)
        .args(["solve", "--max-memory", "200MB", "t55.yaml"])
        .run()
        .status(0)
        .stdout_has("solved in 4 moves, proven the fewest (9 jumps), 1 peg left");
}

/// Under a goal of at most N moves, a stopped search that has proven more needed has decided
/// the goal, and a line longer than N is no best so far.
#[test]
fn a_stopped_search_under_a_cap_on_the_moves_keeps_to_the_cap() {
    let run = |cap: u32, nodes: &str, format: &str| {
        let t6 = T6.replace("pegs: 1\n", &format!("pegs: 1\n  moves: {cap}\n"));
        Test::new()
            .file("t6.yaml", &t6)
            .args(["solve", "--max-nodes", nodes, "--format", format, "t6.yaml"])
            .run()
    };
    // The regions prove 8 moves needed before any node is spent.
    run(1, "0", "text")
        .status(1)
        .stdout_has("unsolvable: at least 8 moves are needed, more than 1\n");
    // Stopped with only the quick 17-move line, under a cap of 12 (the fewest is 9).
    let json = &run(12, "20000", "json").status(1).json()[0];
    assert_eq!(json["status"], "gave_up", "{json}");
    assert!(json.get("move_count").is_none(), "{json}");
    assert_eq!(json["jumps"], serde_json::json!([]), "{json}");
    assert!(
        json["reason"]
            .as_str()
            .is_some_and(|r| r.ends_with("; no line found yet, at least 8 moves")),
        "{json}"
    );
    run(12, "100000000", "text")
        .status(0)
        .stdout_has("solved in 9 moves, proven the fewest (19 jumps)");
}

/// Under `pegs: fewest` and `at:`, a search stopped before any position with a peg on the
/// cell has no best so far: it said "best found so far 4 pegs", the start, which holds no
/// peg there.
#[test]
fn the_fewest_pegs_on_a_cell_stopped_early_claims_no_line() {
    let board = "  o o . . . .\n  o o . . . .\n  . . . . . .\n";
    let run = Test::new()
        .file(
            "p.yaml",
            &format!("rules: peg_hop\nboard: |\n{board}goal:\n  pegs: fewest\n  at: [0, 2]\n"),
        )
        .args(["solve", "--max-nodes", "1", "--format", "json", "p.yaml"])
        .run()
        .status(1);
    let json = &run.json()[0];
    assert_eq!(json["status"], "gave_up", "{json}");
    assert!(
        json["reason"]
            .as_str()
            .is_some_and(|r| r
                .starts_with("node limit (1 node); no line found yet, at least 2 pegs (position class: ")),
        "{json}"
    );
    assert_eq!(json["pegs_floor"], 2, "{json}");
}

/// Under `pegs: fewest` and `moves: N`, a search stopped before the fewest pegs were proven
/// shows no line longer than N either: the start is its best so far.
#[test]
fn the_fewest_pegs_stopped_under_a_cap_on_the_moves_shows_no_longer_line() {
    let run = |cap: u32, nodes: &str| {
        let t6 = T6.replace("pegs: 1\n", &format!("pegs: fewest\n  moves: {cap}\n"));
        Test::new()
            .file("t6.yaml", &t6)
            .args(["solve", "--max-nodes", nodes, "--format", "json", "t6.yaml"])
            .run()
            .status(1)
            .json()[0]
            .clone()
    };
    let json = &run(2, "10");
    assert_eq!(json["status"], "gave_up", "{json}");
    assert!(json.get("move_count").is_none(), "{json}");
    assert_eq!(json["pegs_left"], 20, "{json}");
    assert!(
        json["reason"]
            .as_str()
            .is_some_and(|r| r.starts_with("node limit (10 nodes); best found so far 20 pegs, at least ")),
        "{json}"
    );
    // Stopped later, in the fewest-moves search with no line within 9 yet: no pegs left are
    // claimed (the start's were), the fewest pegs proven are said, and each floor names
    // what it counts.
    let json = &run(9, "100");
    assert!(json.get("pegs_left").is_none(), "{json}");
    assert_eq!(
        json["reason"],
        "node limit (100 nodes); no line found yet, at least 8 moves; 1 peg, proven the fewest",
        "{json}"
    );
    assert_eq!(
        (&json["moves_floor"], &json["pegs_floor"]),
        (&8.into(), &1.into()),
        "{json}"
    );
}

/// A line found as short as the floor proven is the answer, proven, whatever limit stopped the
/// search: for a goal of a peg count and for `pegs: fewest` (whose line comes from the
/// fewest-pegs search before the fewest-moves one).
#[test]
fn a_line_as_short_as_its_floor_is_the_answer_under_any_limit() {
    for pegs in ["3", "fewest"] {
        Test::new()
            .file(
                "b.yaml",
                &format!("rules: peg_hop\nboard: |\n  o . . .\n  o o o .\ngoal:\n  pegs: {pegs}\n"),
            )
            .args(["solve", "--fewest-moves", "--max-nodes", "2", "b.yaml"])
            .run()
            .status(0)
            .stdout_has("solved in 1 move, proven the fewest (1 jump), 3 pegs left");
    }
}

/// Where no region is full at the start, a search stopped before its first layer still says
/// the one move a start with pegs to spare needs.
#[test]
fn a_start_with_pegs_to_spare_needs_a_move_at_least() {
    Test::new()
        .in_root()
        .args([
            "solve",
            "--fewest-moves",
            "--max-nodes",
            "0",
            "puzzles/peg_hop/greek_cross.yaml",
        ])
        .run()
        .status(1)
        .stdout_has("gave up: node limit (0 nodes); no line found yet, at least 1 move\n");
}

/// A hop start that already meets its goal is solved under any limit, as other families' are.
#[test]
fn a_start_at_its_goal_is_solved_at_a_node_limit_of_none() {
    for flag in [None, Some("--fewest-moves")] {
        let mut args = vec!["solve", "--max-nodes", "0", "one.yaml"];
        args.extend(flag);
        Test::new()
            .file(
                "one.yaml",
                "rules: peg_hop\nboard: |\n  . o .\n  . . .\ngoal:\n  pegs: 1\n",
            )
            .args(args)
            .run()
            .status(0)
            .stdout_has("already solved: the start meets the goal, 1 peg left");
    }
}

/// `--fewest-moves` keeps a puzzle's own `moves: N`: the fewest, held to N. Where the beam's
/// line is longer than N + 1, the search stops once N is refuted, without finding the fewest
/// (T6); a game small enough to search whole forward (T5) is refuted by its fewest.
#[test]
fn the_fewest_moves_flag_keeps_the_goals_own_limit_on_the_moves() {
    let t6 = T6.replace("  pegs: 1\n", "  pegs: 1\n  moves: ");
    let corner = "rules: triangle_hop\nboard: |2\n       .\n      o o\n     o o o\n    o o o o\n   o o o o o\ngoal:\n  pegs: 1\n  moves: ";
    for (puzzle, within, said) in [
        (
            t6.as_str(),
            "7",
            "unsolvable: at least 8 moves are needed, more than 7\n",
        ),
        (
            t6.as_str(),
            "8",
            "unsolvable: the fewest moves is 9, more than 8\n",
        ),
        (
            t6.as_str(),
            "9",
            "solved in 9 moves, proven the fewest (19 jumps), 1 peg left",
        ),
        (corner, "8", "unsolvable: the fewest moves is 10, more than 8\n"),
        (
            corner,
            "10",
            "solved in 10 moves, proven the fewest (13 jumps), 1 peg left",
        ),
    ] {
        for flag in [None, Some("--fewest-moves")] {
            let mut args = vec!["solve", "p.yaml"];
            args.extend(flag);
            Test::new()
                .file("p.yaml", &format!("{puzzle}{within}\n"))
                .args(args)
                .run()
                .stdout_has(said);
        }
    }
}

/// A goal no line meets in any number of moves is refuted by every position reachable, under
/// any `moves: N`: "at least 13 moves are needed, more than 12" said that a longer line might
/// exist.
#[test]
fn a_goal_no_line_meets_is_refuted_whatever_the_cap() {
    let puzzle = "rules: triangle_hop\nboard: |\n  o\n  . o\n  o o o\n  o o o o\n  o o o o o\ngoal:\n  pegs: 1\n  at: [3, 1]\n  moves: ";
    for within in ["12", "13"] {
        Test::new()
            .file("t5.yaml", &format!("{puzzle}{within}\n"))
            .args(["solve", "t5.yaml"])
            .run()
            .status(1)
            .stdout_has(
                "unsolvable: exhaustive search: none of the 2377 positions tried reaches the goal; \
                 they are every position reachable from the start\n",
            );
    }
}

/// A batch's table and CSV count a give-up's best line as JSON does: its moves and jumps.
#[test]
fn a_batch_shows_the_moves_of_the_best_line_a_stopped_search_found() {
    let run = Test::new()
        .file("in/t6.yaml", T6)
        .args([
            "batch",
            "in",
            "--fewest-moves",
            "--max-nodes",
            "20000",
            "--report",
            "r",
        ])
        .run()
        .status(1);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.dir().join("r/summary.json")).unwrap()).unwrap();
    let r = &json["results"][0];
    assert_eq!(r["status"], "gave_up", "{r}");
    let (moves, jumps) = (r["move_count"].to_string(), r["jump_count"].to_string());
    // The line is T6's 19 jumps, in at least the 9 moves Bell proved the fewest.
    assert_eq!(jumps, "19", "{r}");
    assert!(moves.parse::<u32>().unwrap() >= 9, "{r}");
    let row = run.stdout.lines().find(|l| l.contains("gave_up")).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    // The line ends on the goal's one peg: its pegs left, in every report.
    assert_eq!(r["pegs_left"], 1, "{r}");
    assert_eq!((cells[3], cells[4]), (&*moves, "1"), "{row}");
    let csv = std::fs::read_to_string(run.dir().join("r/summary.csv")).unwrap();
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let head = rows.headers().unwrap().clone();
    let rec = rows.records().next().unwrap().unwrap();
    let cell = |name: &str| &rec[head.iter().position(|h| h == name).unwrap()];
    assert_eq!(
        (cell("status"), cell("moves"), cell("jumps"), cell("pegs_left")),
        ("gave_up", &*moves, &*jumps, "1")
    );
}

/// Stopped before any line is found, the search still says the moves it proved needed.
#[test]
fn a_fewest_moves_search_stopped_before_any_line_still_says_its_lower_bound() {
    let run = |format: &str| {
        Test::new()
            .file("t6.yaml", T6)
            .args([
                "solve",
                "--fewest-moves",
                "--max-nodes",
                "10",
                "--format",
                format,
                "t6.yaml",
            ])
            .run()
            .status(1)
    };
    let text = run("text").stdout.clone();
    let said = "no line found yet, at least ";
    let at = text.find(said).expect(&text) + said.len();
    let least: u64 = text[at..].split(' ').next().unwrap().parse().unwrap();
    // The regions' bound, and no more than the 9 moves T6 takes from here.
    assert!((2..=9).contains(&least), "{text}");
    assert!(text.contains("gave up: node limit (10 nodes); "), "{text}");
    let json = &run("json").json()[0];
    assert_eq!(json["moves_floor"], least, "{json}");
    assert_eq!(json["jumps"], serde_json::json!([]), "{json}");
    assert!(json.get("move_count").is_none(), "{json}");
    // Stopped before its first layer, by any limit, it says the same bound.
    for (flag, value, stop) in [
        ("--max-nodes", "0", "node limit (0 nodes)"),
        ("--timeout", "0", "time limit (0.000 s)"),
        // (Where the rule script's 21-hole table fits: it counts the stack its values would
        // take to drop, and stopped at 146.5 KiB.)
        ("--max-memory", "300KB", "memory limit (293.0 KiB)"),
    ] {
        Test::new()
            .file("t6.yaml", T6)
            .args(["solve", "--fewest-moves", flag, value, "t6.yaml"])
            .run()
            .status(1)
            .stdout_has(&format!("gave up: {stop}"))
            .stdout_has(&format!("; {}\n", no_line_yet(least)));
    }
}

/// The two numbers of "best found so far N moves, at least M".
fn bounds(text: &str) -> (u64, u64) {
    let at = text.find("best found so far ").expect("a best so far") + "best found so far ".len();
    let words: Vec<&str> = text[at..]
        .split([' ', ',', '\n'])
        .filter(|w| !w.is_empty())
        .collect();
    (words[0].parse().unwrap(), words[4].parse().unwrap())
}

#[test]
fn a_node_limit_holds_the_fewest_moves_search_from_its_first_node() {
    // The beam that finds a line to beat counted its positions in chunks of a layer and
    // checked the limit only after 4,096 of a chunk: `--max-nodes 1` ran 137,107 nodes.
    // The two threads claim their nodes before they take them: together they take N (each
    // counting its own, they took one more a thread, and thousands more at 100,000).
    for limit in [1u64, 10, 20_000] {
        let run = Test::new()
            .in_root()
            .args([
                "solve",
                "--fewest-moves",
                "--max-nodes",
                &limit.to_string(),
                "--format",
                "json",
                "puzzles/peg_hop/english_central.yaml",
            ])
            .run()
            .status(1);
        let v = &run.json()[0];
        // Stopped before any line, it says the moves it proved needed (English takes 18).
        let least = v["moves_floor"].as_u64().unwrap();
        assert!((1..=18).contains(&least), "{v}");
        let nodes = if limit == 1 { "node" } else { "nodes" };
        let said = format!("node limit ({limit} {nodes}); {}", no_line_yet(least));
        assert_eq!(v["reason"], said, "{v}");
        let nodes = v["stats"]["nodes"].as_u64().unwrap();
        assert_eq!(nodes, limit);
    }
}

/// A fewest-pegs search with goal cells stops at its class floor: the positions below it are
/// ruled out by position class, not tried, and its reason says so, not that every reachable
/// position was tried. Four pegs, none of which can reach [0, 2]; the three-peg positions sit
/// at the floor.
#[test]
fn a_fewest_search_at_goal_cells_names_the_class_floor_in_its_reason() {
    Test::new()
        .file(
            "p.yaml",
            "rules: peg_hop\nboard: |\n  . . . . .\n  . . . . .\n  . . o . .\n  . . o . .\n  . . o o .\ngoal:\n  pegs: fewest\n  at: [0, 2]\n",
        )
        .args(["solve", "p.yaml"])
        .run()
        .status(1)
        .stdout_has(
            "unsolvable: exhaustive search: none of the 4 positions tried (one per symmetry class: positions the rules' moves treat alike) reaches the goal; \
             every other position reachable from the start was ruled out by position class\n",
        );
}

/// A game that reaches few positions is decided by the search forward by moves, whatever the
/// board's size: from both ends, the goal's side of this sparse board took 5.8 M nodes where
/// the game reaches some 2,600 positions.
#[test]
fn a_small_game_on_a_sparse_board_is_decided_within_a_few_thousand_nodes() {
    let board = "rules: diagonal_hop\nboard: |\n  . o . . . .\n  . o o . o .\n  . . . . . o\n  \
                 o . . o . .\n  . . o o o o\ngoal:\n  pegs: 2\n";
    Test::new()
        .file("p.yaml", board)
        .args(["solve", "--fewest-moves", "p.yaml", "--max-nodes", "100000"])
        .run()
        .status(0)
        .stdout_has("solved in 4 moves, proven the fewest (9 jumps), 2 pegs left\n");
}
