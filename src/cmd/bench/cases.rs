//! The workloads `marbles bench` and `cargo bench` time: fixed puzzles generated in memory,
//! each a function returning its work in nodes and a one-line result, and how one is measured.
//!
//! A hand-written English-board DFS, with no script and no model, is a baseline row for what
//! the script-defined model costs.

use crate::model::HopModel;
use crate::outcome::Status;
use crate::search::count::count;
use crate::search::dfs::{self, Quiet};
use crate::search::{Budget, Limits, Verdict};
use crate::solve::{self, MoveOrder, Options};
use crate::spec;
use rayon::prelude::*;
use rustc_hash::FxHashSet;
use std::path::Path;
use std::time::{Duration, Instant};

pub const ENGLISH: [&str; 7] = [
    "##ooo##", "##ooo##", "ooooooo", "ooooooo", "ooooooo", "##ooo##", "##ooo##",
];
pub const FRENCH: [&str; 7] = [
    "##ooo##", "#ooooo#", "ooooooo", "ooooooo", "ooooooo", "#ooooo#", "##ooo##",
];

/// Every case gives up after this long, so a slow machine still finishes.
const CASE_TIMEOUT: Duration = Duration::from_secs(120);

/// A case that takes minutes ([`is_long`]) gives up after this long.
const LONG_TIMEOUT: Duration = Duration::from_secs(900);

/// A case that takes minutes, run only with `bench --long`: its question ends in "(long)".
pub fn is_long(case: &Case) -> bool {
    case.asked.ends_with("(long)")
}

/// What one run of a case did: the work in nodes and a one-line result.
#[derive(Debug, Clone)]
pub struct Run {
    pub nodes: u64,
    pub result: String,
}

/// One benchmark: a puzzle, what was asked of it, and how to run it once.
pub struct Case {
    pub name: &'static str,
    pub asked: &'static str,
    pub run: fn() -> Result<Run, String>,
}

pub fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "English central",
            asked: "first solution",
            run: english_central,
        },
        Case {
            name: "English central",
            asked: "first solution, plain DFS (no symmetry/pagoda)",
            run: english_central_plain,
        },
        Case {
            name: "English central",
            asked: "first solution, hand-written DFS baseline",
            run: english_baseline,
        },
        Case {
            name: "English central",
            asked: "count, bidirectional (the default)",
            run: english_count_meet,
        },
        Case {
            name: "English central",
            asked: "count --all: every position and solution",
            run: english_count,
        },
        Case {
            name: "English central",
            asked: "count, with --feasible",
            run: english_count_feasible,
        },
        Case {
            name: "English central",
            asked: "fewest moves (18: Bergholt 1912, Beasley 1964)",
            run: english_fewest_moves,
        },
        Case {
            name: "French central",
            asked: "prove impossible",
            run: french_central,
        },
        Case {
            name: "French central",
            asked: "count --positions-only: every reachable position (long)",
            run: french_count,
        },
        Case {
            name: "French, hole (2,6) empty",
            asked: "first solution, 1 peg anywhere",
            run: || french_solvable(2, 6),
        },
        Case {
            name: "French, hole (1,3) empty",
            asked: "first solution, 1 peg anywhere",
            run: || french_solvable(1, 3),
        },
        Case {
            name: "English, 33×33 problems",
            asked: "every single vacancy × every finishing hole",
            run: english_batch,
        },
        Case {
            name: "English, 33×33 problems",
            asked: "the same, one search per symmetry/time-reversal class",
            run: english_batch_classes,
        },
        Case {
            name: "French, 37×37 problems",
            asked: "every single vacancy × every finishing hole, 1 s each",
            run: french_table,
        },
        Case {
            name: "French, 37×37 problems",
            asked: "the same as 1,369 YAML files, `marbles batch --timeout 1`",
            run: french_table_files,
        },
        Case {
            name: "Wiegleb 45, centre",
            asked: "first solution, 1 peg at the centre",
            run: wiegleb,
        },
        Case {
            name: "Diamond 41, centre",
            asked: "fewest pegs, 10 s limit",
            run: diamond_fewest,
        },
        Case {
            name: "5×5 boards, 1,000 random",
            asked: "fewest pegs, each board on its own",
            run: || small_fewest(None),
        },
        Case {
            name: "5×5 boards, 1,000 random",
            asked: "the same under a node limit (depth-first searches)",
            run: || small_fewest(Some(u64::MAX)),
        },
        Case {
            name: "Triangle 15, every start",
            asked: "first solution, 1 peg anywhere",
            run: || triangle_starts(5),
        },
        Case {
            name: "Triangle 21, every start",
            asked: "first solution, 1 peg anywhere",
            run: || triangle_starts(6),
        },
        Case {
            name: "Triangle 28, every start",
            asked: "first solution, 1 peg anywhere",
            run: || triangle_starts(7),
        },
        Case {
            name: "Triangle 4",
            asked: "fewest moves, best single vacancy to 1 peg (5: Bell 2008, OEIS A127500)",
            run: || triangle_fewest_moves(4),
        },
        Case {
            name: "Triangle 5",
            asked: "fewest moves, best single vacancy to 1 peg (9: Bell 2008, OEIS A127500)",
            run: || triangle_fewest_moves(5),
        },
        Case {
            name: "Triangle 6",
            asked: "fewest moves, best single vacancy to 1 peg (9: Bell 2008, OEIS A127500)",
            run: || triangle_fewest_moves(6),
        },
        Case {
            name: "Triangle 7",
            asked: "fewest moves, best single vacancy to 1 peg (12: Bell 2008, OEIS A127500)",
            run: || triangle_fewest_moves(7),
        },
        Case {
            name: "Triangle 8",
            asked: "fewest moves, best single vacancy to 1 peg (13: Bell 2008, OEIS A127500)",
            run: || triangle_fewest_moves(8),
        },
        Case {
            name: "Triangle 9",
            asked: "fewest moves, best single vacancy to 1 peg (16: Bell 2008, OEIS A127500) (long)",
            run: || triangle_fewest_moves(9),
        },
        Case {
            name: "Triangle 10",
            asked: "fewest moves, best single vacancy to 1 peg (18: Bell 2008, OEIS A127500) (long)",
            run: || triangle_fewest_moves(10),
        },
        Case {
            name: "Triangle 11",
            asked: "fewest moves, best single vacancy to 1 peg (19 to 28: Bell 2008, OEIS A127500) (long)",
            run: || triangle_best_line(11),
        },
        Case {
            name: "Tilt four_by_four",
            asked: "shortest tilt sequence",
            run: tilt_example,
        },
    ]
}

fn budget() -> Budget {
    Budget::new(Limits {
        timeout: Some(CASE_TIMEOUT),
        ..Limits::default()
    })
}

/// Solves with everything `marbles solve` uses: classes, symmetry, pagodas.
fn solve_model(m: &HopModel) -> (Verdict, u64) {
    let order = solve::move_order(m, &MoveOrder::Script);
    let mut b = budget();
    let r = crate::search::plan::hop(m, &order, &mut b, &mut Quiet);
    (r.verdict, b.nodes)
}

/// [`solve_model`] as a bench result: its nodes and its verdict in words.
fn solve_run(m: &HopModel) -> Result<Run, String> {
    let (v, nodes) = solve_model(m);
    Ok(Run {
        nodes,
        result: verdict_word(&v),
    })
}

fn verdict_word(v: &Verdict) -> String {
    match v {
        Verdict::Solved => "solved".into(),
        Verdict::Unsolvable(Some(why)) => format!("unsolvable ({})", why.split(':').next().unwrap_or(why)),
        Verdict::Unsolvable(None) => "unsolvable (searched)".into(),
        Verdict::GaveUp(why) => format!("gave up: {why}"),
    }
}

fn english_central() -> Result<Run, String> {
    solve_run(&solve::hop_model(
        "peg_hop",
        &with_vacancy(&ENGLISH, 3, 3),
        "{pegs: 1, at: [3, 3]}",
    )?)
}

fn english_fewest_moves() -> Result<Run, String> {
    let m = solve::hop_model("peg_hop", &with_vacancy(&ENGLISH, 3, 3), "{pegs: 1, at: [3, 3]}")?;
    let mut b = budget();
    let r = crate::search::fewest_moves::solve(&m, crate::spec::MoveGoal::Fewest, &mut b);
    let moves = crate::search::fewest_moves::count_moves(&m, &r.path);
    Ok(Run {
        nodes: b.nodes,
        result: match r.verdict {
            Verdict::Solved => format!("{moves} moves ({} jumps)", r.path.len()),
            v => verdict_word(&v),
        },
    })
}

fn english_central_plain() -> Result<Run, String> {
    let m = solve::hop_model("peg_hop", &with_vacancy(&ENGLISH, 3, 3), "{pegs: 1, at: [3, 3]}")?;
    let order: Vec<usize> = (0..m.moves.len()).collect();
    let mut b = budget();
    let r = dfs::solve(&m, &order, &mut b, &mut Quiet);
    Ok(Run {
        nodes: b.nodes,
        result: verdict_word(&r.verdict),
    })
}

fn english_count_with(feasible: bool) -> Result<Run, String> {
    let m = solve::hop_model("peg_hop", &with_vacancy(&ENGLISH, 3, 3), "{pegs: 1, at: [3, 3]}")?;
    let mut b = budget();
    let r = count(&m, feasible, &mut b).map_err(|why| format!("gave up: {why}"))?;
    let feasible: u64 = r.layers.iter().filter_map(|l| l.feasible_canonical).sum();
    Ok(Run {
        nodes: r.canonical,
        result: format!(
            "{} positions ({} canonical){}; {} solutions",
            r.positions,
            r.canonical,
            if feasible > 0 {
                format!(", {feasible} canonical feasible")
            } else {
                String::new()
            },
            r.solutions
        ),
    })
}

/// `marbles count`'s default: 40,861,647,040,079,968 solutions through 1,679,072 feasible
/// canonical positions (peer: feschber/peg-solitaire `unique-paths`).
fn english_count_meet() -> Result<Run, String> {
    let m = solve::hop_model("peg_hop", &with_vacancy(&ENGLISH, 3, 3), "{pegs: 1, at: [3, 3]}")?;
    let mut b = budget();
    let r = crate::search::meet::meet(&m, &mut b).map_err(|s| format!("{s:?}"))?;
    Ok(Run {
        nodes: r.searched_canonical,
        result: format!(
            "{} feasible ({} canonical); {} solutions",
            r.feasible, r.feasible_canonical, r.solutions
        ),
    })
}

fn english_count() -> Result<Run, String> {
    english_count_with(false)
}

fn english_count_feasible() -> Result<Run, String> {
    english_count_with(true)
}

/// Every position reachable in the French central game: 374,349,517 canonical,
/// 2,993,979,754 in all, the emptiest with 2 pegs (Amend's count).
fn french_count() -> Result<Run, String> {
    let m = solve::hop_model("peg_hop", &with_vacancy(&FRENCH, 3, 3), "{pegs: 1, at: [3, 3]}")?;
    let mut b = Budget::new(Limits {
        timeout: Some(LONG_TIMEOUT),
        ..Limits::default()
    });
    let options = crate::search::count::Options {
        sequences: false,
        ..Default::default()
    };
    let r =
        crate::search::count::count_with(&m, &options, &mut b).map_err(|why| format!("gave up: {why}"))?;
    let fewest = r.layers.iter().map(|l| l.pegs).min().unwrap_or(0);
    Ok(Run {
        nodes: r.canonical,
        result: format!(
            "{} positions ({} canonical); fewest pegs reached {fewest}",
            r.positions, r.canonical
        ),
    })
}

fn french_central() -> Result<Run, String> {
    solve_run(&solve::hop_model(
        "peg_hop",
        &with_vacancy(&FRENCH, 3, 3),
        "{pegs: 1, at: [3, 3]}",
    )?)
}

fn french_solvable(r: usize, c: usize) -> Result<Run, String> {
    solve_run(&solve::hop_model(
        "peg_hop",
        &with_vacancy(&FRENCH, r, c),
        "{pegs: 1}",
    )?)
}

/// Wiegleb's 45-hole board: a 9×9 cross with arms 3 wide.
pub const WIEGLEB: [&str; 9] = [
    "###ooo###",
    "###ooo###",
    "###ooo###",
    "ooooooooo",
    "ooooooooo",
    "ooooooooo",
    "###ooo###",
    "###ooo###",
    "###ooo###",
];

/// The 41-hole diamond board.
pub const DIAMOND41: [&str; 9] = [
    "####o####",
    "###ooo###",
    "##ooooo##",
    "#ooooooo#",
    "ooooooooo",
    "#ooooooo#",
    "##ooooo##",
    "###ooo###",
    "####o####",
];

fn wiegleb() -> Result<Run, String> {
    let m = solve::hop_model("peg_hop", &with_vacancy(&WIEGLEB, 4, 4), "{pegs: 1, at: [4, 4]}")?;
    let (v, nodes) = solve_model(&m);
    Ok(Run {
        nodes,
        result: verdict_word(&v),
    })
}

fn diamond_fewest() -> Result<Run, String> {
    let m = solve::hop_model("peg_hop", &with_vacancy(&DIAMOND41, 4, 4), "{pegs: fewest}")?;
    let order = solve::move_order(&m, &MoveOrder::Script);
    let mut b = Budget::new(Limits {
        timeout: Some(Duration::from_secs(10)),
        ..Limits::default()
    });
    let r = crate::search::plan::hop(&m, &order, &mut b, &mut Quiet);
    let pegs = r.end.count_ones();
    Ok(Run {
        nodes: b.nodes,
        result: match r.verdict {
            Verdict::Solved => format!("{pegs} pegs, proven fewest"),
            other => format!("{pegs} pegs, not proven ({})", verdict_word(&other)),
        },
    })
}

/// 1,000 small 5×5 boards, each hole empty with chance 1/3 (from a fixed generator, so every
/// run solves the same boards), each asked for the fewest pegs: a batch of many small puzzles,
/// where most searches take a few thousand nodes and the few of a few hundred thousand
/// take most of the time. The board is compiled once and each start set on it, so the time
/// is the searches'. The result counts the boards by the pegs they leave. Without a node limit
/// the boards take exact values (`search::dense`: the first 16 a table each, then one table
/// shared by all, filled from cold in each run: [`crate::search::dense::forget`]); under one,
/// `max_nodes`, the depth-first searches.
fn small_fewest(max_nodes: Option<u64>) -> Result<Run, String> {
    let board = ["ooooo"; 5];
    let base = solve::hop_model("peg_hop", &board, "{pegs: fewest}")?;
    let order = solve::move_order(&base, &MoveOrder::Script);
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = move || {
        // xorshift64
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut nodes, mut left) = (0, std::collections::BTreeMap::new());
    // Each run from cold: the runs of a case share a process, and with it the table.
    crate::search::dense::forget();
    for _ in 0..1000 {
        let mut m = base.clone();
        m.start = (0..25)
            .filter(|_| random() % 3 != 0)
            .fold(0, |s, c| s | 1u128 << c);
        let mut b = Budget::new(Limits {
            timeout: Some(CASE_TIMEOUT),
            max_nodes,
            ..Limits::default()
        });
        let r = crate::search::plan::hop(&m, &order, &mut b, &mut Quiet);
        if r.verdict != Verdict::Solved {
            return Err(format!("start {:#x}: {}", m.start, verdict_word(&r.verdict)));
        }
        nodes += b.nodes;
        *left.entry(r.end.count_ones()).or_insert(0) += 1;
    }
    let counts: Vec<String> = left.iter().map(|(pegs, n)| format!("{n} × {pegs}")).collect();
    Ok(Run {
        nodes,
        result: format!("1000 proven fewest: boards × pegs {}", counts.join(", ")),
    })
}

/// Every (vacancy, finishing hole) pair of the French board, each under a 1 s limit: the
/// counts, the solvable starts, and the slowest problem. A solution counts only once its
/// moves, replayed from the start, leave the one peg on the finishing hole.
fn french_table() -> Result<Run, String> {
    let base = solve::hop_model("peg_hop", &FRENCH, "{pegs: 1, at: [3, 3]}")?;
    let n = base.geo.cells.len();
    let full = (1u128 << n) - 1;
    let problems: Vec<(usize, usize)> = (0..n).flat_map(|v| (0..n).map(move |f| (v, f))).collect();
    let results: Vec<(Verdict, u64, f64)> = problems
        .par_iter()
        .map(|&(v, f)| {
            let mut m = base.clone();
            m.start = full & !(1 << v);
            m.goal.at = Some(f);
            let order = solve::move_order(&m, &MoveOrder::Script);
            let mut b = Budget::new(Limits {
                timeout: Some(Duration::from_secs(1)),
                ..Limits::default()
            });
            let t = Instant::now();
            let r = crate::search::plan::hop(&m, &order, &mut b, &mut Quiet);
            let replayed = solve::hop_end(&m, &r.path).is_ok_and(|end| m.is_goal(end, 1));
            let verdict = match r.verdict {
                Verdict::Solved if !replayed => Verdict::Unsolvable(Some("wrong solution".into())),
                v => v,
            };
            (verdict, b.nodes, t.elapsed().as_secs_f64())
        })
        .collect();
    let solved: Vec<(usize, usize)> = problems
        .iter()
        .zip(&results)
        .filter(|(_, r)| r.0 == Verdict::Solved)
        .map(|(&p, _)| p)
        .collect();
    let unsolvable = results
        .iter()
        .filter(|r| matches!(r.0, Verdict::Unsolvable(_)))
        .count();
    let slowest = results.iter().map(|r| r.2).fold(0.0, f64::max);
    Ok(Run {
        nodes: results.iter().map(|r| r.1).sum(),
        result: format!(
            "{} problems: {} solved ({}), {unsolvable} unsolvable, {} gave up; slowest {slowest:.2} s",
            problems.len(),
            solved.len(),
            starts_by_finishes(&solved),
            problems.len() - solved.len() - unsolvable
        ),
    })
}

/// The French table as files: each problem written as YAML into a temporary folder, then
/// solved the way `marbles batch DIR --timeout 1` solves them (one job per core), every
/// solution replayed into its outcome.
fn french_table_files() -> Result<Run, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let cells: Vec<(usize, usize)> = (0..7)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .filter(|&(r, c)| FRENCH[r].as_bytes()[c] == b'o')
        .collect();
    for &(vr, vc) in &cells {
        for &(fr, fc) in &cells {
            let board: String = with_vacancy(&FRENCH, vr, vc)
                .iter()
                .map(|row| {
                    format!(
                        "  {}\n",
                        row.chars().map(String::from).collect::<Vec<_>>().join(" ")
                    )
                })
                .collect();
            let yaml = format!("rules: peg_hop\nboard: |\n{board}goal:\n  pegs: 1\n  at: [{fr}, {fc}]\n");
            std::fs::write(dir.path().join(format!("v{vr}{vc}-f{fr}{fc}.yaml")), yaml)
                .map_err(|e| e.to_string())?;
        }
    }
    let found = crate::batch::collect(&[dir.path().to_path_buf()]);
    let opts = Options {
        limits: Limits {
            timeout: Some(Duration::from_secs(1)),
            ..Limits::default()
        },
        ..Options::default()
    };
    let jobs = std::thread::available_parallelism().map_or(1, usize::from);
    let bar = indicatif::ProgressBar::hidden();
    let mut outcomes = Vec::new();
    crate::batch::solve_all(
        &found.puzzles,
        &opts,
        jobs,
        &Default::default(),
        crate::batch::Progress {
            bar: &bar,
            cases: &[],
        },
        &crate::batch::no_encoding,
        &mut |done: crate::batch::Done| {
            outcomes.extend(done.outcomes);
            Ok(())
        },
    )
    .map_err(|e| e.to_string())?;
    let name = |o: &crate::outcome::Outcome| -> Option<(usize, usize)> {
        let stem = Path::new(&o.file).file_stem()?.to_str()?.as_bytes();
        let cell = |r: u8, c: u8| {
            cells
                .iter()
                .position(|&x| x == (usize::from(r - b'0'), usize::from(c - b'0')))
        };
        Some((cell(stem[1], stem[2])?, cell(stem[5], stem[6])?))
    };
    let solved: Vec<(usize, usize)> = outcomes
        .iter()
        .filter(|o| o.status == Status::Solved && o.pegs_left == Some(1))
        .filter_map(name)
        .collect();
    let unsolvable = outcomes.iter().filter(|o| o.status == Status::Unsolvable).count();
    let slowest = outcomes.iter().map(|o| o.stats.seconds).fold(0.0, f64::max);
    Ok(Run {
        nodes: outcomes.iter().map(|o| o.stats.nodes).sum(),
        result: format!(
            "{} files: {} solved ({}), {unsolvable} unsolvable, {} other; slowest {slowest:.2} s",
            outcomes.len(),
            solved.len(),
            starts_by_finishes(&solved),
            outcomes.len() - solved.len() - unsolvable
        ),
    })
}

/// `16 starts × 4 finishes` when every solvable start has the same number of finishes, else
/// `16 starts, 3-5 finishes each`.
fn starts_by_finishes(solved: &[(usize, usize)]) -> String {
    let mut per: std::collections::BTreeMap<usize, usize> = Default::default();
    for &(v, _) in solved {
        *per.entry(v).or_default() += 1;
    }
    let lo = per.values().min().copied().unwrap_or(0);
    let hi = per.values().max().copied().unwrap_or(0);
    if lo == hi {
        format!("{} starts × {lo} finishes", per.len())
    } else {
        format!("{} starts, {lo}-{hi} finishes each", per.len())
    }
}

/// Board rows with the hole at `(r, c)` emptied.
fn with_vacancy(rows: &[&str], r: usize, c: usize) -> Vec<String> {
    rows.iter()
        .enumerate()
        .map(|(i, row)| {
            row.chars()
                .enumerate()
                .map(|(j, ch)| if (i, j) == (r, c) { '.' } else { ch })
                .collect()
        })
        .collect()
}

/// Every (vacancy, finishing hole) pair of the English board as (start, goal cell).
fn english_problems(base: &HopModel) -> Vec<(usize, usize)> {
    let n = base.geo.cells.len();
    (0..n).flat_map(|v| (0..n).map(move |f| (v, f))).collect()
}

fn batch_run(base: &HopModel, problems: &[(usize, usize)], weights: &[usize]) -> Run {
    let full = (1u128 << base.geo.cells.len()) - 1;
    let as_goals: Vec<(u128, Option<usize>)> = problems
        .iter()
        .map(|&(v, f)| (full & !(1 << v), Some(f)))
        .collect();
    let verdicts = solve_each(base, &as_goals);
    let total: usize = weights.iter().sum();
    let count = |want: fn(&Verdict) -> bool| -> usize {
        verdicts
            .iter()
            .zip(weights)
            .filter(|((v, _), _)| want(v))
            .map(|(_, w)| w)
            .sum()
    };
    let solved = count(|v| *v == Verdict::Solved);
    let unsolvable = count(|v| matches!(v, Verdict::Unsolvable(_)));
    Run {
        nodes: verdicts.iter().map(|(_, n)| n).sum(),
        result: format!(
            "{total} problems ({} searched): {solved} solved, {unsolvable} unsolvable, {} gave up",
            problems.len(),
            total - solved - unsolvable
        ),
    }
}

fn english_batch() -> Result<Run, String> {
    let base = solve::hop_model("peg_hop", &ENGLISH, "{pegs: 1, at: [3, 3]}")?;
    let problems = english_problems(&base);
    Ok(batch_run(&base, &problems, &vec![1; problems.len()]))
}

/// The batch with equivalent problems searched once: a board symmetry maps (v, f) to
/// (g v, g f), and reversing a game maps it to (f, v) — the reverse of a hop sequence from
/// `P` to `Q` is one from the complement of `Q` to the complement of `P`.
fn english_batch_classes() -> Result<Run, String> {
    let base = solve::hop_model("peg_hop", &ENGLISH, "{pegs: 1, at: [3, 3]}")?;
    let sym = crate::search::symmetry::Symmetry::find(&base);
    let image = |g: usize, c: usize| sym.perms()[g][c];
    let mut classes: std::collections::BTreeMap<(usize, usize), usize> = Default::default();
    for (v, f) in english_problems(&base) {
        let key = (0..sym.order())
            .flat_map(|g| [(image(g, v), image(g, f)), (image(g, f), image(g, v))])
            .min()
            .unwrap_or((v, f));
        *classes.entry(key).or_default() += 1;
    }
    let (problems, weights): (Vec<_>, Vec<_>) = classes.into_iter().unzip();
    Ok(batch_run(&base, &problems, &weights))
}

/// Solves each (start, goal cell) on `base` in parallel: each verdict and its nodes.
fn solve_each(base: &HopModel, problems: &[(u128, Option<usize>)]) -> Vec<(Verdict, u64)> {
    problems
        .par_iter()
        .map(|&(start, at)| {
            let mut m = base.clone();
            m.start = start;
            m.goal.at = at;
            solve_model(&m)
        })
        .collect()
}

fn triangle_starts(rows: usize) -> Result<Run, String> {
    let board: Vec<String> = (0..rows)
        .map(|r| format!("{}{}", " ".repeat(rows - 1 - r), "o".repeat(r + 1)))
        .collect();
    let base = solve::hop_model("triangle_hop", &board, "{pegs: 1}")?;
    let n = base.geo.cells.len();
    let full = (1u128 << n) - 1;
    let problems: Vec<(u128, Option<usize>)> = (0..n).map(|v| (full & !(1 << v), None)).collect();
    let verdicts = solve_each(&base, &problems);
    let solved = verdicts.iter().filter(|(v, _)| *v == Verdict::Solved).count();
    let unsolvable = verdicts
        .iter()
        .filter(|(v, _)| matches!(v, Verdict::Unsolvable(_)))
        .count();
    let nodes = verdicts.iter().map(|(_, n)| n).sum();
    Ok(Run {
        nodes,
        result: format!("{n} starts: {solved} solved, {unsolvable} unsolvable"),
    })
}

/// A start: its vacancy (row from the apex, hole in the row) and its model.
type Start = ((usize, usize), HopModel);

/// One start of each class of the triangle of `rows` rows under its six symmetries (a
/// vacancy's sorted distances to the three sides), as its model with the goal of one peg.
fn triangle_start_classes(rows: usize) -> Result<Vec<Start>, String> {
    let board: Vec<String> = (0..rows)
        .map(|r| format!("{}{}", " ".repeat(rows - 1 - r), "o".repeat(r + 1)))
        .collect();
    let board: Vec<&str> = board.iter().map(String::as_str).collect();
    let mut seen = FxHashSet::default();
    let mut starts = Vec::new();
    for r in 0..rows {
        for c in 0..=r {
            let mut key = [r - c, c, rows - 1 - r];
            key.sort_unstable();
            if seen.insert(key) {
                // Row `r` is drawn after `rows - 1 - r` spaces.
                let hole = rows - 1 - r + c;
                let m = solve::hop_model("triangle_hop", &with_vacancy(&board, r, hole), "{pegs: 1}")?;
                starts.push(((r, c), m));
            }
        }
    }
    Ok(starts)
}

/// The fewest moves from the best single vacancy of the triangle of `rows`: each start
/// class searched under its own time limit, the class whose beam found the shortest line
/// first, the others held below the least found so far (their passes stop there: a class
/// that cannot beat it is refuted, not solved exactly). A class that gives up leaves the
/// answer between the floors proven and the least found, and says so.
fn triangle_fewest_moves(rows: usize) -> Result<Run, String> {
    let limits = Limits {
        timeout: Some(if rows > 8 { LONG_TIMEOUT } else { CASE_TIMEOUT }),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut starts: Vec<(Option<crate::search::fewest_moves::Line>, Start)> = triangle_start_classes(rows)?
        .into_iter()
        .map(|start| {
            let mut b = Budget::new(limits);
            let beam = crate::search::fewest_moves::beam_line(&start.1, &mut b);
            nodes += b.nodes;
            (beam, start)
        })
        .collect();
    starts.sort_by_key(|(beam, ((r, c), _))| (beam.as_ref().map_or(u32::MAX, |b| b.0), *r, *c));
    let classes = starts.len();
    let mut least: Option<u32> = None;
    // Classes that gave up: the floor each proved, and the first one's reason.
    let mut open: Vec<u32> = Vec::new();
    let mut why = None;
    for (beam, (_, m)) in starts {
        let mut b = Budget::new(limits);
        let goal = match least {
            Some(l) => crate::spec::MoveGoal::Within(l.saturating_sub(1)),
            None => crate::spec::MoveGoal::Fewest,
        };
        let run = crate::search::fewest_moves::solve_given_beam(&m, goal, beam, &mut b);
        nodes += b.nodes;
        // A line found is what its jumps do: replayed to one peg.
        if !run.path.is_empty() && solve::hop_end(&m, &run.path)?.count_ones() == 1 {
            let moves = crate::search::fewest_moves::count_moves(&m, &run.path);
            least = Some(least.map_or(moves, |l| l.min(moves)));
        }
        match run.verdict {
            Verdict::Solved | Verdict::Unsolvable(_) => {}
            Verdict::GaveUp(g) => {
                open.push(match &g {
                    crate::search::GaveUp::UnprovenMoves { least, .. } => *least,
                    _ => 0,
                });
                why.get_or_insert(g.stop().to_string());
            }
        }
    }
    Ok(Run {
        nodes,
        result: least_over(classes, least, &open, why.as_deref()),
    })
}

/// The fewest moves over `classes` start classes in words: the least line found (`least`),
/// and the floors of the classes that gave up (`open`, the first stopped by `why`).
fn least_over(classes: usize, least: Option<u32>, open: &[u32], why: Option<&str>) -> String {
    match (least, open.iter().min()) {
        (None, None) => format!("no start of the {classes} classes finishes"),
        (Some(l), None) => format!("{l} moves, the least over {classes} start classes"),
        (Some(l), Some(&f)) if f >= l => format!(
            "{l} moves, the least over {classes} start classes ({} gave up at a floor of {f} or more)",
            open.len()
        ),
        (l, Some(f)) => format!(
            "gave up on {} of {classes} start classes ({}): {}at least {f}",
            open.len(),
            why.unwrap_or_default(),
            l.map(|l| format!("fewest found {l} moves, ")).unwrap_or_default()
        ),
    }
}

/// Where the exact search is out of reach (the 66-hole triangle): from each start class, the
/// fewest-moves search under 4 GB, its best line replayed to one peg, and the least of the
/// floors it proved over every start.
fn triangle_best_line(rows: usize) -> Result<Run, String> {
    let mut nodes = 0;
    let mut best: Option<(u32, (usize, usize))> = None;
    let mut floor: Option<u32> = None;
    for ((r, c), m) in triangle_start_classes(rows)? {
        let mut b = Budget::new(Limits {
            timeout: Some(CASE_TIMEOUT),
            max_memory: Some(4 << 30),
            ..Limits::default()
        });
        let run = crate::search::fewest_moves::solve(&m, crate::spec::MoveGoal::Fewest, &mut b);
        nodes += b.nodes;
        let least = match &run.verdict {
            Verdict::Solved => crate::search::fewest_moves::count_moves(&m, &run.path),
            Verdict::GaveUp(crate::search::GaveUp::UnprovenMoves { least, .. }) => *least,
            Verdict::Unsolvable(_) => continue,
            v => return Err(format!("from ({r}, {c}): {}", verdict_word(v))),
        };
        floor = Some(floor.map_or(least, |f| f.min(least)));
        // The line is what its jumps do: replayed from the start to one peg.
        let end = solve::hop_end(&m, &run.path)?;
        if !run.path.is_empty() && end.count_ones() == 1 {
            let moves = crate::search::fewest_moves::count_moves(&m, &run.path);
            if best.is_none_or(|(b, _)| moves < b) {
                best = Some((moves, (r, c)));
            }
        }
    }
    Ok(Run {
        nodes,
        result: match best {
            Some((moves, (r, c))) => format!(
                "a line of {moves} moves from ({r}, {c}), replayed to one peg; at least {} from any start",
                floor.unwrap_or(0)
            ),
            None => "no line found".into(),
        },
    })
}

fn tilt_example() -> Result<Run, String> {
    let yaml = include_str!("../../../puzzles/tilt_roll/four_by_four.yaml");
    let spec = spec::parse(Path::new("four_by_four.yaml"), yaml).map_err(|d| d.to_string())?;
    let p = solve::prepare_spec(spec, &Options::default()).map_err(|d| d.to_string())?;
    let out = solve::solve_prepared(&p, &Options::default());
    Ok(Run {
        nodes: out.stats.nodes,
        result: format!("{} in {} tilts", out.status.as_str(), out.moves.len()),
    })
}

/// The baseline: the English board and its 76 hops written out by hand in Rust, searched by
/// the same DFS with a failure table — no script, no model, no symmetry.
pub fn english_baseline() -> Result<Run, String> {
    let mut index = [[usize::MAX; 7]; 7];
    let mut n = 0;
    for (r, row) in ENGLISH.iter().enumerate() {
        for (c, ch) in row.bytes().enumerate() {
            if ch == b'o' {
                index[r][c] = n;
                n += 1;
            }
        }
    }
    let at = |r: i64, c: i64| {
        (0..7).contains(&r) && (0..7).contains(&c) && index[r as usize][c as usize] != usize::MAX
    };
    // The script's order: cells row by row, then up, down, left, right.
    let mut moves: Vec<(u64, u64)> = Vec::new();
    for r in 0..7i64 {
        for c in 0..7i64 {
            if !at(r, c) {
                continue;
            }
            for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                if at(r + dr, c + dc) && at(r + 2 * dr, c + 2 * dc) {
                    let bit = |r: i64, c: i64| 1u64 << index[r as usize][c as usize];
                    let need = bit(r, c) | bit(r + dr, c + dc);
                    moves.push((need | bit(r + 2 * dr, c + 2 * dc), need));
                }
            }
        }
    }
    let centre = 1u64 << index[3][3];
    let start = ((1u64 << n) - 1) & !centre;
    let mut failed: FxHashSet<u64> = FxHashSet::default();
    let mut stack: Vec<(u64, usize)> = vec![(start, 0)];
    let mut nodes = 0u64;
    while let Some(&mut (state, ref mut next)) = stack.last_mut() {
        let Some(k) = moves[*next..]
            .iter()
            .position(|&(mask, need)| state & mask == need)
        else {
            failed.insert(state);
            stack.pop();
            continue;
        };
        let ns = state ^ moves[*next + k].0;
        *next += k + 1;
        nodes += 1;
        if ns == centre {
            return Ok(Run {
                nodes,
                result: format!("solved in {} jumps", stack.len()),
            });
        }
        if ns.count_ones() > 1 && !failed.contains(&ns) {
            stack.push((ns, 0));
        }
    }
    Ok(Run {
        nodes,
        result: "unsolvable".into(),
    })
}

/// The process's peak resident memory so far, in bytes (Linux; 0 elsewhere).
pub fn peak_memory() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// One case measured: the median of `runs` timings.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Measured {
    pub seconds: f64,
    pub nodes: u64,
    pub result: String,
    pub peak_bytes: u64,
}

/// Runs case `index` `runs` times in this process and reports the median.
pub fn measure(index: usize, runs: usize) -> Result<Measured, String> {
    let cases = cases();
    let case = cases.get(index).ok_or_else(|| format!("no bench case {index}"))?;
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let r = (case.run)()?;
        times.push(t.elapsed().as_secs_f64());
        last = Some(r);
    }
    let run = last.ok_or("no run")?;
    Ok(Measured {
        seconds: median(times),
        nodes: run.nodes,
        result: run.result,
        peak_bytes: peak_memory(),
    })
}

/// The median wall time of `runs` whole `marbles solve` processes on `file`.
pub fn whole_process(exe: &Path, file: &Path, runs: usize) -> Result<(f64, Status), String> {
    let mut times = Vec::new();
    let mut status = Status::Error;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        let out = std::process::Command::new(exe)
            .arg("solve")
            .arg(file)
            .output()
            .map_err(|e| e.to_string())?;
        times.push(t.elapsed().as_secs_f64());
        status = if out.status.success() {
            Status::Solved
        } else {
            Status::Error
        };
    }
    Ok((median(times), status))
}

/// The middle of some timings (the upper middle of an even number).
fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::least_over;

    /// A class that gave up bounds the least over the classes only by its floor: the row says
    /// both ends, never one class's line and bound as the answer.
    #[test]
    fn the_least_over_start_classes_says_what_a_give_up_leaves_open() {
        assert_eq!(
            least_over(8, Some(13), &[], None),
            "13 moves, the least over 8 start classes"
        );
        assert_eq!(
            least_over(8, Some(13), &[13, 14], Some("time limit (120 s)")),
            "13 moves, the least over 8 start classes (2 gave up at a floor of 13 or more)"
        );
        assert_eq!(
            least_over(8, Some(15), &[12], Some("time limit (120 s)")),
            "gave up on 1 of 8 start classes (time limit (120 s)): fewest found 15 moves, at least 12"
        );
        assert_eq!(
            least_over(8, None, &[11], Some("memory limit")),
            "gave up on 1 of 8 start classes (memory limit): at least 11"
        );
        assert_eq!(
            least_over(3, None, &[], None),
            "no start of the 3 classes finishes"
        );
    }
}
