//! Whole tables of one-vacancy → one-fixed-peg problems, as files through `marbles batch`:
//! the solvable set the literature gives, each solution replayed here move by move, and the
//! beam search that finds the French board's solutions under its budget.

use crate::cli::{SQUARE, replay_hops};
use crate::support::Test;
use marbles::search::dfs::HopResult;
use marbles::search::dfs::{Pruning, Quiet};
use marbles::search::{Budget, GaveUp, Limits, Verdict, beam};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

const ENGLISH: [&str; 7] = [
    "##ooo##", "##ooo##", "ooooooo", "ooooooo", "ooooooo", "##ooo##", "##ooo##",
];
const FRENCH: [&str; 7] = [
    "##ooo##", "#ooooo#", "ooooooo", "ooooooo", "ooooooo", "#ooooo#", "##ooo##",
];

type Cell = (i64, i64);

fn holes(rows: &[&str]) -> Vec<Cell> {
    (0..7)
        .flat_map(|r| (0..7).map(move |c| (r, c)))
        .filter(|&(r, c)| rows[r as usize].as_bytes()[c as usize] == b'o')
        .collect()
}

/// The board with hole `v` empty, to one peg at `f`.
fn problem(rows: &[&str], v: Cell, f: Cell) -> String {
    let board: String = (0..7)
        .map(|r| {
            let row: Vec<&str> = (0..7)
                .map(|c| match rows[r as usize].as_bytes()[c as usize] {
                    b'#' => "#",
                    _ if (r, c) == v => ".",
                    _ => "o",
                })
                .collect();
            format!("  {}\n", row.join(" "))
        })
        .collect();
    format!(
        "rules: peg_hop\nboard: |\n{board}goal:\n  pegs: 1\n  at: [{}, {}]\n",
        f.0, f.1
    )
}

/// Runs `marbles batch` (with `args`) on every problem of `rows` whose vacancy is in `starts`
/// and returns each problem's status; every solution is replayed here to one peg at its
/// finishing hole, and every refusal must be a proof, not a limit.
fn table(rows: &[&str], starts: &[Cell], args: &[&str]) -> BTreeMap<(Cell, Cell), String> {
    let mut test = Test::new();
    let mut files = BTreeMap::new();
    for &v in starts {
        for f in holes(rows) {
            let name = format!("p/v{}{}-f{}{}.yaml", v.0, v.1, f.0, f.1);
            test = test.file(&name, &problem(rows, v, f));
            files.insert(name, (v, f));
        }
    }
    let mut all = vec!["batch", "p", "--report", "rep", "-q"];
    all.extend(args);
    let run = test.args(all).run();
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(run.dir().join("rep/summary.json")).unwrap()).unwrap();
    let mut verdicts = BTreeMap::new();
    for o in summary["results"].as_array().unwrap() {
        let file = o["file"].as_str().unwrap();
        let &(v, f) = files.get(file).unwrap_or_else(|| panic!("{file}"));
        let status = o["status"].as_str().unwrap().to_string();
        match status.as_str() {
            "solved" => {
                let yaml = problem(rows, v, f);
                let left = replay_hops(&yaml, crate::support::line(o), &SQUARE);
                assert_eq!(left, BTreeSet::from([f]), "{file}");
            }
            "unsolvable" => {}
            other => panic!("{file}: {other} {}", o["reason"]),
        }
        verdicts.insert((v, f), status);
    }
    assert_eq!(verdicts.len(), files.len());
    verdicts
}

/// The 8 symmetries of a 7×7 board about its centre.
fn images(c: Cell) -> [Cell; 8] {
    let (r, c) = c;
    [
        (r, c),
        (c, 6 - r),
        (6 - r, 6 - c),
        (6 - c, r),
        (r, 6 - c),
        (6 - c, 6 - r),
        (6 - r, c),
        (c, r),
    ]
}

#[test]
fn english_table_solves_125_problems_and_proves_the_964_others_impossible() {
    // One vacancy per symmetry class, each counted as often as its class has holes: the
    // table's 33 × 33 problems (Beasley; docs/benchmarks.md) at a seventh of the work.
    let mut classes: BTreeMap<Cell, usize> = BTreeMap::new();
    for h in holes(&ENGLISH) {
        *classes.entry(*images(h).iter().min().unwrap()).or_default() += 1;
    }
    assert_eq!(classes.len(), 7);
    let starts: Vec<Cell> = classes.keys().copied().collect();
    let verdicts = table(&ENGLISH, &starts, &["--max-nodes", "3000000"]);
    let count = |want: &str| -> usize {
        verdicts
            .iter()
            .filter(|(_, s)| *s == want)
            .map(|((v, _), _)| classes[v])
            .sum()
    };
    assert_eq!((count("solved"), count("unsolvable")), (125, 964));
}

#[test]
fn french_fixed_finishes_are_found_within_two_million_nodes() {
    // The literature's answer (Beasley, The Ins and Outs of Peg Solitaire): from each of these
    // vacancies exactly four finishing holes. A depth-first search alone needed 2-30+ M nodes
    // each (hole (3,4) to (6,2): 20 M; hole (6,2) to (3,4): over 60 M).
    let want: BTreeMap<Cell, Vec<Cell>> = BTreeMap::from([
        ((1, 3), vec![(2, 0), (2, 3), (2, 6), (5, 3)]),
        ((3, 4), vec![(0, 2), (3, 2), (3, 5), (6, 2)]),
        ((6, 2), vec![(0, 4), (3, 1), (3, 4), (6, 4)]),
    ]);
    let starts: Vec<Cell> = want.keys().copied().collect();
    let verdicts = table(&FRENCH, &starts, &["--max-nodes", "2000000"]);
    let solved: BTreeMap<Cell, Vec<Cell>> =
        verdicts
            .iter()
            .filter(|(_, s)| *s == "solved")
            .fold(BTreeMap::new(), |mut by, (&(v, f), _)| {
                by.entry(v).or_insert_with(Vec::new).push(f);
                by
            });
    assert_eq!(solved, want);
}

/// The French problem hole (3,4) empty → one peg at (6,2), as a model.
fn french_hard() -> marbles::model::HopModel {
    let yaml = problem(&FRENCH, (3, 4), (6, 2));
    let spec = marbles::spec::parse(std::path::Path::new("p.yaml"), &yaml).unwrap();
    let p = marbles::solve::prepare_spec(spec, &Default::default()).unwrap();
    match p.model {
        marbles::model::Model::Hop(m) => m,
        _ => unreachable!(),
    }
}

/// Why a beam stopped, when a limit stopped it.
fn gave_up(r: Option<HopResult>) -> GaveUp {
    match r.map(|r| r.verdict) {
        Some(Verdict::GaveUp(why)) => why,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_beam_finds_a_french_solution_and_stops_at_every_limit() {
    let m = french_hard();
    let order: Vec<usize> = (0..m.moves.len()).collect();
    let pruning = Pruning::for_model(&m);
    let find = |limits: Limits, width: usize| {
        let mut budget = Budget::new(limits);
        let r = beam::find(&m, &order, width, &mut budget, &mut Quiet, &pruning);
        (r, budget.nodes)
    };
    let (r, nodes) = find(Limits::default(), beam::FIRST_WIDTH);
    let r = r.expect("a solution");
    assert_eq!(r.verdict, Verdict::Solved);
    let end = marbles::solve::hop_end(&m, &r.path).unwrap();
    assert!(m.is_goal(end, 1) && r.end == end && r.path.len() == 35);
    assert!(nodes < 1_000_000, "{nodes}");
    // A node limit holds exactly; a time limit of 0 stops before the first node.
    let (r, nodes) = find(
        Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        },
        beam::FIRST_WIDTH,
    );
    assert_eq!((gave_up(r), nodes), (GaveUp::Nodes(5_000), 5_000));
    let (r, nodes) = find(
        Limits {
            timeout: Some(Duration::ZERO),
            ..Limits::default()
        },
        beam::FIRST_WIDTH,
    );
    assert_eq!((gave_up(r), nodes), (GaveUp::Time(Duration::ZERO), 0));
    // A wide beam's layers outgrow a 1 MB limit: it stops before they pass it.
    let (r, _) = find(
        Limits {
            max_memory: Some(1 << 20),
            ..Limits::default()
        },
        1 << 20,
    );
    let r = r.expect("a limit");
    assert!(r.memory < 1 << 20, "{}", r.memory);
    assert_eq!(gave_up(Some(r)), GaveUp::Memory(1 << 20));
}

#[test]
fn a_node_limit_inside_the_beam_is_reported_as_the_limit() {
    // The first depth-first turn ends at 2^20 nodes; the beam runs next and meets the limit.
    Test::new()
        .file("p.yaml", &problem(&FRENCH, (3, 4), (6, 2)))
        .args(["solve", "p.yaml", "--max-nodes", "1100000"])
        .run()
        .status(1)
        .stdout_has("node limit (1100000 nodes)");
}
