//! Search at the limit: symmetries, position classes, pagodas and exhaustive counts, checked
//! against exact figures and against brute force on boards small enough for it.

use crate::support::{Test, random_5x5_boards};
use marbles::model::{HopModel, Model};
use marbles::search::count::{self as counting, count};
use marbles::search::dfs::{self, Pruning, Quiet};
use marbles::search::invariants::Invariants;
use marbles::search::symmetry::Symmetry;
use marbles::search::{Budget, Limits, Verdict};
use marbles::solve::{self, Options};
use marbles::spec::{self, PegGoal};
use std::collections::HashMap;
use std::path::Path;

fn model(yaml: &str) -> HopModel {
    let spec = spec::parse(Path::new("in-memory.yaml"), yaml).expect("spec parses");
    match solve::prepare_spec(spec, &Options::default())
        .expect("spec compiles")
        .model
    {
        Model::Hop(m) => m,
        _ => panic!("expected a hop model"),
    }
}

fn puzzle(rules: &str, board: &str, goal: &str) -> HopModel {
    let board: String = board.lines().map(|l| format!("  {l}\n")).collect();
    model(&format!(
        "name: t\nrules: {rules}\nboard: |2\n{board}goal: {goal}\n"
    ))
}

const ENGLISH: &str = "\
# # o o o # #
# # o o o # #
o o o o o o o
o o o . o o o
o o o o o o o
# # o o o # #
# # o o o # #";

const FRENCH: &str = "\
# # o o o # #
# o o o o o #
o o o o o o o
o o o . o o o
o o o o o o o
# o o o o o #
# # o o o # #";

// No `\` after the opening quote: it would swallow the apex's leading spaces, and the board
// is what the drawing shows.
const TRIANGLE_CORNER: &str = "    .
   o o
  o o o
 o o o o
o o o o o";

/// A 19-hole hexagon on the triangular lattice: rows 3, 4, 5, 4, 3, the lower rows shifted
/// by blocked cells so that columns follow the lattice.
const HEXAGON: &str = "\
o o o
o o o o
o o . o o
# o o o o
# # o o o";

/// A board whose only symmetry is the transposition.
const ELL: &str = "\
o o o o
o . o o
o o # #
o o # #";

fn unlimited() -> Budget {
    Budget::new(Limits::default())
}

#[test]
fn symmetry_groups_are_found_for_any_geometry() {
    let english = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [3, 3]}");
    assert_eq!(Symmetry::find(&english).order(), 8);
    assert_eq!(Symmetry::for_goal(&english).order(), 8);
    let off_centre = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [2, 3]}");
    assert_eq!(Symmetry::for_goal(&off_centre).order(), 2);
    let diagonal = puzzle("diagonal_hop", ENGLISH, "{pegs: 1}");
    assert_eq!(Symmetry::find(&diagonal).order(), 8);
    let triangle = puzzle("triangle_hop", TRIANGLE_CORNER, "{pegs: 1}");
    assert_eq!(Symmetry::find(&triangle).order(), 6);
    assert_eq!(Symmetry::find(&triangle).stabilizer(triangle.start).order(), 2);
    let hexagon = puzzle("triangle_hop", HEXAGON, "{pegs: 1}");
    assert_eq!(Symmetry::find(&hexagon).order(), 12);
    let ell = puzzle("peg_hop", ELL, "{pegs: 1}");
    assert_eq!(Symmetry::find(&ell).order(), 2);
    let wide = puzzle("peg_hop", "o o o o o\no o . o o\no o o o o", "{pegs: 1}");
    let tall = puzzle("peg_hop", "o o o\no o o\no . o\no o o\no o o", "{pegs: 1}");
    assert_eq!(Symmetry::find(&wide).order(), 4);
    assert_eq!(Symmetry::find(&tall).order(), 4);
    // On the triangular lattice a 3×3 "square" is a rhombus: its two mirrors and a half turn,
    // but no quarter turn.
    let rhombus = puzzle("triangle_hop", "o o o\no . o\no o o", "{pegs: 1}");
    assert_eq!(Symmetry::find(&rhombus).order(), 4);
}

#[test]
fn every_symmetry_maps_moves_onto_moves() {
    for m in [
        puzzle("triangle_hop", HEXAGON, "{pegs: 1}"),
        puzzle("peg_hop", FRENCH, "{pegs: 1}"),
    ] {
        let sym = Symmetry::find(&m);
        let moves: std::collections::HashSet<(u128, u128)> =
            m.moves.iter().map(|x| (x.need, x.mask)).collect();
        for g in 0..sym.order() {
            for x in &m.moves {
                assert!(moves.contains(&(sym.apply(g, x.need), sym.apply(g, x.mask))));
            }
        }
    }
}

#[test]
fn position_classes_refute_impossible_goals() {
    let french = puzzle("peg_hop", FRENCH, "{pegs: 1, at: [3, 3]}");
    let why = Invariants::find(&french)
        .refute(&french)
        .expect("French central is impossible");
    assert!(why.starts_with("position class"), "{why}");
    let english = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [3, 3]}");
    assert_eq!(Invariants::find(&english).refute(&english), None);
    let beside = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [3, 4]}");
    assert!(Invariants::find(&beside).refute(&beside).is_some());
    // The classes of the English board: two parities along each diagonal direction.
    assert_eq!(Invariants::find(&english).basis().len(), 4);
    // On the hexagon, a goal far from the start's class.
    let hexagon = puzzle("triangle_hop", HEXAGON, "{pegs: 1, at: [2, 3]}");
    let verdict = solve_verdict(&hexagon, &Pruning::for_model(&hexagon));
    assert_eq!(verdict, plain_verdict(&hexagon));
}

#[test]
fn french_central_is_refuted_without_search() {
    let spec = spec::parse(
        Path::new("french.yaml"),
        &format!(
            "name: French\nrules: peg_hop\nboard: |\n{}\ngoal: {{pegs: 1, at: [3, 3]}}\n",
            FRENCH
                .lines()
                .map(|l| format!("  {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    )
    .expect("parses");
    let p = solve::prepare_spec(spec, &Options::default()).expect("compiles");
    let out = solve::solve_prepared(&p, &Options::default());
    assert_eq!(out.status, marbles::outcome::Status::Unsolvable);
    assert_eq!(out.stats.nodes, 0);
    assert!(out.reason.unwrap_or_default().contains("position class"));
}

fn solve_verdict(m: &HopModel, pruning: &Pruning) -> (Verdict, Vec<usize>) {
    let order: Vec<usize> = (0..m.moves.len()).collect();
    let r = dfs::solve_with(m, &order, &mut unlimited(), &mut Quiet, pruning);
    (bare(r.verdict), r.path)
}

fn plain_verdict(m: &HopModel) -> (Verdict, Vec<usize>) {
    let order: Vec<usize> = (0..m.moves.len()).collect();
    let r = dfs::solve(m, &order, &mut unlimited(), &mut Quiet);
    (bare(r.verdict), r.path)
}

/// `v` without an unsolvable verdict's reason, which differs between searches (each says
/// how it refuted the goal and how many positions it tried), after checking it has one.
fn bare(v: Verdict) -> Verdict {
    match v {
        Verdict::Unsolvable(why) => {
            let why = why.expect("every unsolvable verdict carries its reason");
            assert!(
                why.starts_with("exhaustive search: ") || why.starts_with("position class"),
                "{why}"
            );
            Verdict::Unsolvable(None)
        }
        v => v,
    }
}

/// Every single-vacancy problem of the 15-hole triangle: each empty hole, with each finishing
/// hole and (when `anywhere`) with "one peg anywhere", as `(vacancy, finish, model)`.
fn triangle_problems(anywhere: bool) -> impl Iterator<Item = (usize, Option<usize>, HopModel)> {
    let base = puzzle("triangle_hop", TRIANGLE_CORNER, "{pegs: 1}");
    let n = base.geo.cells.len();
    (0..n).flat_map(move |vacancy| {
        let base = base.clone();
        let finishes: Vec<Option<usize>> = (0..n).map(Some).chain(anywhere.then_some(None)).collect();
        finishes.into_iter().map(move |finish| {
            let mut m = base.clone();
            m.start = ((1u128 << n) - 1) & !(1 << vacancy);
            m.goal.at = finish;
            (vacancy, finish, m)
        })
    })
}

#[test]
fn pruning_finds_the_same_first_solution_as_plain_search() {
    for (vacancy, finish, m) in triangle_problems(false) {
        let finish = finish.unwrap();
        let (plain, plain_path) = plain_verdict(&m);
        let (pruned, path) = solve_verdict(&m, &Pruning::for_model(&m));
        assert_eq!(
            plain == Verdict::Solved,
            pruned == Verdict::Solved,
            "{vacancy} → {finish}"
        );
        assert_eq!(plain_path, path, "{vacancy} → {finish}");
        let refuted = Invariants::find(&m).refute(&m).is_some();
        assert!(!(refuted && plain == Verdict::Solved), "{vacancy} → {finish}");
    }
}

/// Brute force: every reachable position and the number of jump sequences reaching it, by
/// layer: positions, and complete games (sequences ending where no jump is left); and the
/// sequences reaching the goal.
fn brute_force(m: &HopModel) -> (HashMap<u32, (u64, u128)>, u128) {
    let mut layer: HashMap<u128, u128> = HashMap::from([(m.start, 1)]);
    let mut per_layer = HashMap::new();
    let mut solutions = 0;
    while !layer.is_empty() {
        let pegs = layer.keys().next().map_or(0, |s| s.count_ones());
        let mut games = 0;
        let mut next: HashMap<u128, u128> = HashMap::new();
        for (&s, &paths) in &layer {
            if m.is_goal(s, m.target_pegs()) {
                solutions += paths;
            }
            let mut moves = 0;
            for mv in m.moves.iter().filter(|mv| s & mv.mask == mv.need) {
                *next.entry(s ^ mv.mask).or_default() += paths;
                moves += 1;
            }
            if moves == 0 {
                games += paths;
            }
        }
        per_layer.insert(pegs, (layer.len() as u64, games));
        layer = next;
    }
    (per_layer, solutions)
}

fn assert_count_matches_brute_force(m: &HopModel) {
    let r = count(m, true, &mut unlimited()).expect("count finishes");
    let (per_layer, solutions) = brute_force(m);
    assert_eq!(r.solutions, solutions);
    for l in &r.layers {
        assert_eq!(
            Some(&(l.positions, l.games)),
            per_layer.get(&l.pegs),
            "layer {}",
            l.pegs
        );
        assert!(l.canonical <= l.positions);
    }
    assert_eq!(r.positions, per_layer.values().map(|l| l.0).sum::<u64>());
    let games: u128 = per_layer.values().map(|l| l.1).sum();
    assert!(games > 0);
    assert_eq!(r.games, games);
}

/// The 15-hole triangle drawn centred, with one hole empty.
fn triangle(vacancy: (usize, usize)) -> String {
    (0..5)
        .map(|r| {
            let holes: Vec<&str> = (0..=r)
                .map(|c| if (r, c) == vacancy { "." } else { "o" })
                .collect();
            format!("{}{}", " ".repeat(4 - r), holes.join(" "))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Jump sequences to one peg from each distinct single vacancy of the 15-hole triangle.
const TRIANGLE_SOLUTIONS: [((usize, usize), u128); 4] = [
    ((0, 0), 29_760),
    ((1, 0), 14_880),
    ((2, 0), 85_258),
    ((2, 1), 1_550),
];

#[test]
fn triangle_solution_counts_are_exact() {
    for (vacancy, expected) in TRIANGLE_SOLUTIONS {
        let m = puzzle("triangle_hop", &triangle(vacancy), "{pegs: 1}");
        let r = count(&m, false, &mut unlimited()).expect("count finishes");
        assert_eq!(r.solutions, expected, "vacancy {vacancy:?}");
        assert_count_matches_brute_force(&m);
    }
}

#[test]
fn counts_match_brute_force_on_small_boards() {
    assert_count_matches_brute_force(&puzzle("peg_hop", "o o o o o\no o . o o\no o o o o", "{pegs: 1}"));
    assert_count_matches_brute_force(&puzzle("peg_hop", ELL, "{pegs: 1, at: [1, 1]}"));
    assert_count_matches_brute_force(&puzzle(
        "diagonal_hop",
        "o o o o\no . o o\no o o o\no o o o",
        "{pegs: 1}",
    ));
    assert_count_matches_brute_force(&puzzle("triangle_hop", "o o\no . o\n# o o", "{pegs: 1}"));
    let hexagon = puzzle("triangle_hop", "o o\no . o\n# o o", "{pegs: 1}");
    assert_eq!(Symmetry::find(&hexagon).order(), 12);
}

/// A count taken one partition a round (each layer's successors added into its tables in
/// as many rounds as it has partitions), with and without sequences, against brute force.
#[test]
fn counts_in_tiny_rounds_and_positions_only_match_brute_force() {
    for m in [
        puzzle("peg_hop", "o o o o o\no o . o o\no o o o o", "{pegs: 1}"),
        puzzle("peg_hop", ELL, "{pegs: 1, at: [1, 1]}"),
        puzzle("triangle_hop", &triangle((2, 0)), "{pegs: 1}"),
        puzzle(
            "peg_hop",
            "# o o o #\no o o o o\no o . o o\no o o o o\n# o o o #",
            "{pegs: 1, at: [2, 2]}",
        ),
    ] {
        let (per_layer, solutions) = brute_force(&m);
        let whole = count(&m, false, &mut unlimited()).expect("count finishes");
        for sequences in [true, false] {
            let options = counting::Options {
                sequences,
                round: Some(1),
                ..counting::Options::default()
            };
            let r = counting::count_with(&m, &options, &mut unlimited()).expect("count finishes");
            for (l, w) in r.layers.iter().zip(&whole.layers) {
                let want = per_layer
                    .get(&l.pegs)
                    .map(|&(n, games)| (n, games * u128::from(sequences)));
                assert_eq!(Some((l.positions, l.games)), want, "layer {}", l.pegs);
                assert_eq!(
                    (l.pegs, l.canonical, l.dead_ends),
                    (w.pegs, w.canonical, w.dead_ends)
                );
            }
            assert_eq!(r.layers.len(), whole.layers.len());
            assert_eq!(r.positions_only, !sequences);
            assert_eq!(r.solutions, if sequences { solutions } else { 0 });
            assert_eq!(r.games, if sequences { whole.games } else { 0 });
        }
    }
}

/// The bidirectional count (forced, no fallback) against the full enumeration with its
/// feasible pass: the same solutions and, layer by layer, the same feasible positions.
fn assert_meet_matches_full(m: &HopModel) -> marbles::search::meet::MeetResult {
    let full = count(m, true, &mut unlimited()).expect("count finishes");
    let meet = marbles::search::meet::meet(m, &mut unlimited()).expect("bidirectional count applies");
    assert_eq!(meet.solutions, full.solutions);
    let by_pegs: HashMap<u32, (u64, u64)> = meet
        .layers
        .iter()
        .map(|l| (l.pegs, (l.feasible, l.feasible_canonical)))
        .collect();
    for l in &full.layers {
        let want = (l.feasible.unwrap(), l.feasible_canonical.unwrap());
        assert_eq!(
            by_pegs.get(&l.pegs).copied().unwrap_or((0, 0)),
            want,
            "layer {}",
            l.pegs
        );
    }
    let total: u64 = full.layers.iter().filter_map(|l| l.feasible).sum();
    assert_eq!(meet.feasible, total);
    meet
}

#[test]
fn bidirectional_counts_match_the_full_enumeration_on_triangles() {
    for (vacancy, expected) in TRIANGLE_SOLUTIONS {
        let m = puzzle("triangle_hop", &triangle(vacancy), "{pegs: 1}");
        let r = assert_meet_matches_full(&m);
        assert_eq!(r.solutions, expected, "vacancy {vacancy:?}");
        assert!(!r.self_dual);
        // A fixed finishing hole as well: the goal set is then one position.
        let m = puzzle("triangle_hop", &triangle(vacancy), "{pegs: 1, at: [4, 2]}");
        assert_meet_matches_full(&m);
    }
}

#[test]
fn bidirectional_counts_match_the_full_enumeration_on_squares_and_crosses() {
    const SQUARE: &str = "o o o o o\no o o o o\no o . o o\no o o o o\no o o o o";
    const CROSS: &str = "# o o o #\no o o o o\no o . o o\no o o o o\n# o o o #";
    // Centre to centre: the goal is the complemented start, so one pass serves both sides.
    for board in [SQUARE, CROSS] {
        let r = assert_meet_matches_full(&puzzle("peg_hop", board, "{pegs: 1, at: [2, 2]}"));
        assert!(r.self_dual);
        assert_meet_matches_full(&puzzle("peg_hop", board, "{pegs: 1}"));
        assert_meet_matches_full(&puzzle("peg_hop", board, "{pegs: 2}"));
    }
    assert_meet_matches_full(&puzzle(
        "diagonal_hop",
        "o o o o\no . o o\no o o o\no o o o",
        "{pegs: 1}",
    ));
    assert_meet_matches_full(&puzzle("triangle_hop", "o o\no . o\n# o o", "{pegs: 1}"));
    assert_meet_matches_full(&puzzle("peg_hop", ELL, "{pegs: 1, at: [1, 1]}"));
}

/// The passes store only positions a pagoda cannot rule out: on the 5×5 square's centre
/// game some forward layers hold fewer positions than are reachable, none more, and every
/// figure still matches the full enumeration.
#[test]
fn bidirectional_count_stores_fewer_positions_than_are_reachable() {
    const SQUARE: &str = "o o o o o\no o o o o\no o . o o\no o o o o\no o o o o";
    let m = puzzle("peg_hop", SQUARE, "{pegs: 1, at: [2, 2]}");
    let full = count(&m, false, &mut unlimited()).expect("count finishes");
    let meet = assert_meet_matches_full(&m);
    let reachable: HashMap<u32, u64> = full.layers.iter().map(|l| (l.pegs, l.canonical)).collect();
    let mut fewer = 0;
    for l in meet.layers.iter().filter(|l| l.pass == "forward") {
        assert!(l.searched_canonical <= reachable[&l.pegs], "layer {}", l.pegs);
        fewer += (l.searched_canonical < reachable[&l.pegs]) as usize;
    }
    assert!(fewer > 0, "no layer was cut: {:?}", meet.layers);
}

#[test]
fn count_falls_back_to_the_full_enumeration_for_fewest_pegs() {
    let m = puzzle("peg_hop", "o o o o o\no o . o o\no o o o o", "{pegs: fewest}");
    match marbles::search::meet::count(&m, &mut unlimited()).expect("counts") {
        marbles::search::meet::Counted::All(r) => assert!(r.positions > 0),
        marbles::search::meet::Counted::Meet(_) => panic!("a fewest goal has no known goal set"),
    }
}

/// `pegs: fewest` beside `at:` counts to the fewest pegs with one on the cell, not to the
/// fewest anywhere; `--feasible` counts the positions on the way to the fewest pegs, which
/// are goals, not dead ends; and a goal's `moves:`, which a count cannot hold to, is refused
/// at its line.
#[test]
fn count_of_a_fewest_goal_counts_to_the_fewest_pegs_the_goal_allows() {
    let count = |board: &str, goal: &str, flags: &[&str]| {
        let yaml = format!("rules: peg_hop\nboard: |\n  {board}\ngoal:\n  pegs: fewest\n{goal}");
        let t = Test::new().file("f.yaml", &yaml);
        t.args(["count", "f.yaml", "--format", "json"].iter().chain(flags))
            .run()
            .status(0)
            .json()
    };
    // `o o . o`: the one first jump leaves pegs on [0, 2] and [0, 3]; the next one leaves a
    // single peg, on [0, 1]. So two pegs with one on [0, 3], by one sequence.
    for flags in [&[][..], &["--all"]] {
        let v = count("o o . o", "  at: [0, 3]\n", flags);
        assert_eq!(
            (&v["fewest_pegs"], &v["solutions"]),
            (&2.into(), &1.into()),
            "{flags:?}: {v}"
        );
    }
    // `o o . o o`: two jumps each way leave two pegs, by two sequences through five positions.
    // `--fewest` asks for them as the goal's `pegs: fewest` does.
    let t = Test::new().file("g.yaml", "rules: peg_hop\nboard: |\n  o o . o o\n");
    let v = t
        .args(["count", "g.yaml", "--fewest", "--format", "json"])
        .run()
        .status(0)
        .json();
    assert_eq!(
        (&v["fewest_pegs"], &v["solutions"]),
        (&2.into(), &2.into()),
        "{v}"
    );
    let v = count("o o . o o", "", &["--feasible"]);
    let layers = v["layers"].as_array().unwrap();
    let sum = |key: &str| layers.iter().map(|l| l[key].as_u64().unwrap()).sum::<u64>();
    assert_eq!((sum("feasible"), sum("dead_ends")), (5, 0), "{v}");
    assert_eq!(
        (&v["fewest_pegs"], &v["solutions"]),
        (&2.into(), &2.into()),
        "{v}"
    );
    // (Flow-style, the `goal:` line stands for the key's.)
    for (moves, goal, line) in [
        ("2", "goal:\n  pegs: 1\n  moves: 2", 6),
        ("fewest", "goal:\n  pegs: 1\n  moves: fewest", 6),
        ("2", "goal: {pegs: 1, moves: 2}", 4),
    ] {
        Test::new()
            .file("m.yaml", &format!("rules: peg_hop\nboard: |\n  o o . o\n{goal}\n"))
            .args(["count", "m.yaml"])
            .run()
            .status(2)
            .stderr_has(&format!(
                "marbles: error: m.yaml:{line}: count counts every jump sequence to the goal's pegs, whatever its \
                 moves: it cannot hold them to `moves: {moves}` (a goal for solve and batch); leave `moves:` out to count\n"
            ));
    }
}

#[test]
fn count_of_a_fewest_goal_counts_the_sequences_leaving_the_fewest_pegs() {
    let board = "o o o . o\no . o o o";
    let (layers, _) = brute_force(&puzzle("peg_hop", board, "{pegs: fewest}"));
    let low = layers.keys().min().copied().unwrap();
    assert_eq!(low, 4, "the board this test was written for");
    let file = "rules: peg_hop\nboard: |\n  o o o . o\n  o . o o o\ngoal:\n  pegs: fewest\n";
    let v = Test::new()
        .file("f.yaml", file)
        .args(["count", "f.yaml", "--format", "json"])
        .run()
        .status(0)
        .json();
    assert_eq!(v["fewest_pegs"], 4);
    assert_eq!(v["solutions"].as_u64().map(u128::from), Some(layers[&low].1));
    // Stopped before the fewest pegs are proven, the JSON gives the floor proven, as `solve`'s.
    let v = Test::new()
        .file("f.yaml", file)
        .args(["count", "f.yaml", "--format", "json", "--max-nodes", "2"])
        .run()
        .status(1)
        .json();
    assert_eq!(
        (&v["status"], &v["pegs_floor"]),
        (&"gave_up".into(), &2.into()),
        "{v}"
    );
    // Flags that choose among answers mean nothing to a count: refused, not ignored.
    for (flags, named) in [
        (
            &["--fewest-moves", "--shuffle"][..],
            "--fewest-moves and --shuffle would change nothing here (they are",
        ),
        (
            &["--order", "reverse"],
            "--order would change nothing here (it is",
        ),
        (
            &["--fewest-moves"],
            "--fewest-moves would change nothing here (it is",
        ),
    ] {
        let t = Test::new().file("f.yaml", "rules: peg_hop\nboard: |\n  o o . o\n");
        t.args(["count", "f.yaml"].iter().chain(flags))
            .run()
            .status(2)
            .stderr_has(&format!(
                "marbles: error: count counts every jump sequence, whatever its order or length: {named} for solve and batch)\n"
            ));
    }
    // Nor does `count --help` offer them, where `solve --help` does.
    let help = |cmd: &str| Test::new().args([cmd, "--help"]).run().status(0).stdout;
    let (count_help, solve_help) = (help("count"), help("solve"));
    for flag in ["--fewest-moves", "--order", "--shuffle", "--seed"] {
        assert!(
            !count_help.contains(flag),
            "count --help offers {flag}:\n{count_help}"
        );
        assert!(solve_help.contains(flag), "solve --help lacks {flag}");
    }
}

#[test]
fn count_gives_up_at_the_memory_limit() {
    let m = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [3, 3]}");
    let mut budget = Budget::new(Limits {
        max_memory: Some(1 << 20),
        ..Limits::default()
    });
    match count(&m, false, &mut budget) {
        Err(why) => assert!(why.to_string().contains("memory"), "{why}"),
        other => panic!("expected to give up, got {other:?}"),
    }
}

#[test]
fn pagodas_found_are_valid() {
    let m = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [3, 3]}");
    let p = marbles::search::pagoda::Pagodas::find(&m);
    assert!(!p.is_empty());
    for pagoda in &p.0 {
        for mv in &m.moves {
            let paid: u32 = (0..m.geo.cells.len())
                .filter(|&c| mv.need >> c & 1 == 1)
                .map(|c| pagoda.weights[c])
                .sum();
            assert!(paid >= pagoda.weights[mv.to]);
        }
        assert!(!pagoda.cuts(m.start));
    }
    assert_eq!(m.goal.pegs, PegGoal::Count(1));
}

#[test]
fn count_command_prints_json() {
    let out = Test::new()
        .in_root()
        .args(["count", "--format", "json", "puzzles/triangle_hop/corner.yaml"])
        .run()
        .status(0);
    let v = out.json();
    assert_eq!(v["solutions"], serde_json::json!(29760));
    // Complete games are counted by the full enumeration, in JSON and text, as brute force
    // counts them on the same board.
    let (layers, _) = brute_force(&puzzle("triangle_hop", &triangle((0, 0)), "{pegs: 1}"));
    let games: u128 = layers.values().map(|l| l.1).sum();
    let out = Test::new()
        .in_root()
        .args([
            "count",
            "--all",
            "--format",
            "json",
            "puzzles/triangle_hop/corner.yaml",
        ])
        .run()
        .status(0);
    assert_eq!(out.json()["games"].as_u64().map(u128::from), Some(games));
    Test::new()
        .in_root()
        .args(["count", "--all", "puzzles/triangle_hop/corner.yaml"])
        .run()
        .status(0)
        .stdout_has(&format!(
            "complete games (jump sequences played until no jump is left, wins included): {games}\n"
        ))
        // The tables' figure is the memory limit's reckoning, said as such: it read as the
        // process's peak, which is lower.
        .stdout_has(" (as --max-memory counts them)\n");
}

#[test]
fn a_count_that_gives_up_says_so_in_its_json_too() {
    // The reason was on stderr only: a reader of the JSON got an empty stream.
    let out = Test::new()
        .in_root()
        .args([
            "count",
            "--format",
            "json",
            "--max-nodes",
            "1",
            "puzzles/peg_hop/english_central.yaml",
        ])
        .run()
        .status(1);
    let v = out.json();
    assert_eq!(v["status"], "gave_up");
    assert_eq!(v["reason"], "node limit (1 node)", "{v}");
}

#[test]
fn positions_only_counts_the_same_positions_and_says_sequences_were_not() {
    let count = |args: &[&str]| {
        Test::new()
            .in_root()
            .args(
                ["count"]
                    .iter()
                    .chain(args)
                    .chain(&["puzzles/triangle_hop/corner.yaml"]),
            )
            .run()
            .status(0)
    };
    let all = count(&["--all", "--format", "json"]).json();
    let only = count(&["--positions-only", "--format", "json"]).json();
    // The same layers, but for the complete games, which only sequences count.
    let without_games = |v: &serde_json::Value| {
        let mut layers = v["layers"].clone();
        for l in layers.as_array_mut().unwrap() {
            l.as_object_mut().unwrap().remove("games");
        }
        layers
    };
    assert_eq!(without_games(&only), without_games(&all));
    // What it does not count is null, not 0.
    assert!(
        only["layers"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["games"].is_null())
    );
    assert!(only["solutions"].is_null() && only["games"].is_null(), "{only}");
    assert_eq!(only["canonical"], all["canonical"]);
    assert_eq!(only["positions_only"], serde_json::json!(true));
    assert_eq!(all.get("positions_only"), None);
    assert_eq!(all["solutions"], serde_json::json!(29760));
    count(&["--positions-only"])
        .stdout_has("solutions (jump sequences to the goal): not counted (--positions-only)");
}

/// Replays `path` from the start: every move legal, ending in a goal position.
fn replays_to_goal(m: &HopModel, path: &[usize]) -> bool {
    let mut s = m.start;
    for &i in path {
        let mv = &m.moves[i];
        if s & mv.mask != mv.need {
            return false;
        }
        s ^= mv.mask;
    }
    m.is_goal(s, m.target_pegs())
}

/// Pruning that builds a small endgame table at once.
fn eager_endgame() -> Pruning {
    Pruning {
        endgame_after: Some(0),
        endgame_positions: 200,
        ..Pruning::default()
    }
}

#[test]
fn endgame_tables_decide_the_same_problems_with_valid_solutions() {
    let eager = eager_endgame();
    for (vacancy, finish, m) in triangle_problems(true) {
        let (plain, _) = plain_verdict(&m);
        let (verdict, path) = solve_verdict(&m, &eager);
        assert_eq!(plain, verdict, "{vacancy} → {finish:?}");
        if verdict == Verdict::Solved {
            assert!(replays_to_goal(&m, &path), "{vacancy} → {finish:?}");
        }
    }
    let english = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [3, 3]}");
    let unlimited = Budget::new(Limits::default());
    let table = marbles::search::endgame::Endgame::build(&english, 10_000, &unlimited, 0)
        .expect("no limits to reach")
        .expect("one-peg goal");
    assert!(table.max_pegs() >= 4 && table.positions() <= 10_000 + 10_000);
    assert!(table.wins(1 << english.goal.at.unwrap_or(0)));
}

#[test]
fn reversed_problems_taking_turns_give_valid_solutions() {
    for (vacancy, finish, m) in triangle_problems(false) {
        let finish = finish.unwrap();
        assert_eq!(
            marbles::search::portfolio::reversed(&m).is_some(),
            vacancy != finish
        );
        let (plain, _) = plain_verdict(&m);
        let order: Vec<usize> = (0..m.moves.len()).collect();
        let r = marbles::search::portfolio::solve(&m, &order, &mut unlimited(), &mut Quiet, 4);
        assert_eq!(plain, bare(r.verdict.clone()), "{vacancy} → {finish}");
        if r.verdict == Verdict::Solved {
            assert!(replays_to_goal(&m, &r.path), "{vacancy} → {finish}");
            assert_eq!(r.end, 1 << finish);
        }
    }
}

#[test]
fn a_capped_budget_still_honours_the_outer_limit() {
    let m = puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [0, 2]}");
    let mut budget = Budget::new(Limits {
        max_nodes: Some(5_000),
        ..Limits::default()
    });
    let order: Vec<usize> = (0..m.moves.len()).collect();
    let r = marbles::search::portfolio::solve(&m, &order, &mut budget, &mut Quiet, 1_000);
    assert!(
        matches!(r.verdict, Verdict::GaveUp(ref why) if why.to_string().contains("node limit (5000")),
        "{:?}",
        r.verdict
    );
    // Limits are checked every 4,096 nodes.
    assert!(budget.nodes <= 5_000 + 4_096);
}

#[test]
fn symmetries_are_found_when_coordinates_are_no_lattice() {
    // The English board with every cell moved to a made-up spot: no lattice isometry fits,
    // so the backtracking fallback must find the 8 symmetries from the moves alone.
    let scramble = |mut m: HopModel| {
        m.geo.cells = (0..m.geo.cells.len() as i64)
            .map(|i| [i * i, 7 * i % 5])
            .collect();
        m.geo.index = m.geo.cells.iter().enumerate().map(|(i, c)| (*c, i)).collect();
        m
    };
    let m = scramble(puzzle("peg_hop", ENGLISH, "{pegs: 1, at: [3, 3]}"));
    assert_eq!(Symmetry::find(&m).order(), 8);
    assert_eq!(Symmetry::for_goal(&m).order(), 8);
    let triangle = scramble(puzzle("triangle_hop", TRIANGLE_CORNER, "{pegs: 1}"));
    assert_eq!(Symmetry::find(&triangle).order(), 6);
    assert_eq!(
        Symmetry::find(&scramble(puzzle("triangle_hop", HEXAGON, "{pegs: 1}"))).order(),
        12
    );
    // Counting with the symmetries found this way is still exact.
    assert_eq!(
        count(&triangle, false, &mut unlimited())
            .map(|r| r.solutions)
            .ok(),
        Some(29_760)
    );
    let r = count(
        &puzzle("triangle_hop", TRIANGLE_CORNER, "{pegs: 1}"),
        false,
        &mut unlimited(),
    );
    assert_eq!(r.map(|r| r.solutions).ok(), Some(29_760));
}

#[test]
fn bench_command_runs_a_case_in_a_child_process() {
    let out = Test::new()
        .in_root()
        .args(["bench", "--runs", "1", "--only", "tilt", "--markdown"])
        .run()
        .status(0);
    let table = out.stdout;
    assert!(table.contains("solved in 5 tilts"), "{table}");
    assert!(table.starts_with("| puzzle"), "{table}");
    // `--only` chooses in any case, as `batch -k` does, and one that chooses nothing is
    // refused (it printed an empty table and exited 0).
    Test::new()
        .in_root()
        .args(["bench", "--only", "no such workload"])
        .run()
        .status(2)
        .stderr_has(
            "--only no such workload matches no workload: `marbles bench` with no --only lists them all",
        );
}

/// The whole-process row is chosen by its question, as every row is (only "whole process"
/// chose it).
#[test]
fn the_whole_process_row_is_chosen_by_its_question() {
    let out = Test::new()
        .in_root()
        .args(["bench", "--runs", "1", "--only", "marbles solve FILE"])
        .run()
        .status(0);
    assert!(
        out.stdout
            .contains("English central   whole process: `marbles solve FILE`   solved"),
        "{}",
        out.stdout
    );
}

/// `bench --runs 1 --only ONLY`'s table, which must show `result` as a cell.
fn bench_row_shows(only: &str, result: &str) {
    let out = Test::new()
        .in_root()
        .args(["bench", "--runs", "1", "--only", only])
        .run()
        .status(0);
    assert!(out.stdout.contains(&format!("   {result}   ")), "{}", out.stdout);
}

/// A triangle's row is the least over its start classes, each held below the least found
/// before it: T6's 9 (Bell 2008).
#[test]
fn the_triangle_row_is_the_least_over_its_start_classes() {
    bench_row_shows("Triangle 6", "9 moves, the least over 5 start classes");
}

/// The hand-written baseline counts jumps as the rest of marbles does: its 31 on the English
/// board are 31 jumps, not moves (18 moves at best).
#[test]
fn the_hand_written_baseline_says_jumps() {
    bench_row_shows("hand-written", "solved in 31 jumps");
}

/// Every two-peg goal board of the corner game, as `(pattern, model)`.
fn two_peg_goal_boards() -> impl Iterator<Item = (u128, HopModel)> {
    let base = puzzle("triangle_hop", TRIANGLE_CORNER, "{pegs: 1}");
    let n = base.geo.cells.len();
    (0..n).flat_map(move |a| {
        let base = base.clone();
        (a + 1..n).map(move |b| {
            let pattern = 1u128 << a | 1u128 << b;
            let mut m = base.clone();
            m.goal.pattern = Some(pattern);
            m.goal.pegs = PegGoal::Count(2);
            m.goal.at = None;
            (pattern, m)
        })
    })
}

/// Where `path` leads from the start, every move checked legal.
fn end_of(m: &HopModel, path: &[usize]) -> u128 {
    path.iter().fold(m.start, |s, &i| {
        let mv = &m.moves[i];
        assert_eq!(s & mv.mask, mv.need, "move {i} is not legal here");
        s ^ mv.mask
    })
}

#[test]
fn goal_boards_are_decided_alike_by_every_search_and_replay_to_exactly_the_board() {
    let eager = eager_endgame();
    let mut solved = std::collections::BTreeSet::new();
    let mut reachable = std::collections::BTreeSet::new();
    for (pattern, m) in two_peg_goal_boards() {
        if reachable.is_empty() {
            reachable = reachable_with(&m, 2);
        }
        let order: Vec<usize> = (0..m.moves.len()).collect();
        let (plain, _) = plain_verdict(&m);
        let mut pruned = Pruning::for_model(&m);
        pruned.endgame_after = eager.endgame_after;
        pruned.endgame_positions = eager.endgame_positions;
        // The pruned search (symmetry, pagodas, endgame) and the reversed problem taking turns
        // from the first node on must agree with plain search, and end on the board exactly.
        let runs = [
            dfs::solve_with(&m, &order, &mut unlimited(), &mut Quiet, &pruned),
            marbles::search::portfolio::solve(&m, &order, &mut unlimited(), &mut Quiet, 1),
        ];
        for r in runs {
            assert_eq!(bare(r.verdict.clone()), plain, "goal board {pattern:#b}");
            if r.verdict == Verdict::Solved {
                assert_eq!(end_of(&m, &r.path), pattern, "goal board {pattern:#b}");
                assert_eq!(r.end, pattern);
            }
        }
        if plain == Verdict::Solved {
            solved.insert(pattern);
            assert_eq!(Invariants::find(&m).refute(&m), None);
        }
    }
    // Exactly the two-peg positions that exhaustive play reaches.
    assert_eq!(solved, reachable);
    assert_eq!(solved.len(), 18);
}

/// Every position with `pegs` pegs reachable from the start, by exhaustive play.
fn reachable_with(m: &HopModel, pegs: u32) -> std::collections::BTreeSet<u128> {
    let mut layer = std::collections::HashSet::from([m.start]);
    while layer.iter().next().is_some_and(|s| s.count_ones() > pegs) {
        layer = layer
            .iter()
            .flat_map(|&s| {
                m.moves
                    .iter()
                    .filter(move |mv| s & mv.mask == mv.need)
                    .map(move |mv| s ^ mv.mask)
            })
            .collect();
    }
    layer.into_iter().collect()
}

/// A stand-in for feschber/peg-solitaire: answers like it only when asked for
/// `--threads N unique-paths`, else fails with exit 3.
const FAKE_PEER: &str = "#!/bin/sh\n\
if [ \"$1\" = --threads ] && [ \"$3\" = unique-paths ]; then\n\
  echo 'INFO peg_solitaire] distinct move sequences:  40861647040079968' >&2; exit 0\n\
fi\n\
echo \"unexpected arguments: $*\" >&2; exit 3\n";

fn fake_peer(t: &Test, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = t.path("peer.sh");
    std::fs::write(&path, body).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    format!("feschber={}", path.display())
}

#[test]
fn bench_times_a_given_peer_and_reads_its_answer() {
    let t = Test::new();
    let peer = fake_peer(&t, FAKE_PEER);
    let out = t
        .args(["bench", "--runs", "1", "--only", "feschber", "--peer", &peer])
        .run()
        .status(0);
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("feschber"))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(line.contains("40861647040079968 solutions"), "{line}");
    assert!(line.contains(" s "), "no time: {line}");
}

#[test]
fn bench_reports_a_failing_peer_in_its_row() {
    let t = Test::new();
    let peer = fake_peer(&t, "#!/bin/sh\necho 'no such board' >&2\nexit 3\n");
    let out = t
        .args(["bench", "--runs", "1", "--only", "feschber", "--peer", &peer])
        .run()
        .status(0);
    assert!(
        out.stdout.contains("failed (exit 3): no such board"),
        "{}",
        out.stdout
    );
}

#[test]
fn bench_without_the_peer_says_how_to_get_it() {
    let out = Test::new()
        .args(["bench", "--runs", "1", "--only", "feschber"])
        .run()
        .status(0);
    assert!(
        out.stdout
            .contains("not run: build it (git clone https://github.com/feschber/peg-solitaire"),
        "{}",
        out.stdout
    );
}

#[test]
fn bench_refuses_an_unknown_or_missing_peer() {
    for (peer, message) in [
        (
            "nobody=/bin/sh",
            "no peer called `nobody` (known peers: feschber)",
        ),
        ("feschber=no/such/file", "no/such/file is not a file"),
        ("feschber", "expected NAME=PATH (known peers: feschber)"),
        (
            "feschber=Cargo.toml",
            "cannot run it: Permission denied (os error 13)",
        ),
    ] {
        let out = Test::new()
            .in_root()
            .args(["bench", "--only", "feschber", "--peer", peer])
            .run()
            .status(2);
        assert_eq!(
            out.stderr.trim(),
            format!("marbles: error: --peer {peer}: {message}")
        );
    }
}

#[test]
fn fewest_pegs_match_brute_force_on_random_5x5_boards() {
    // The long searches are where the fewest search cuts positions by a table of the floor's
    // finishes, shared between boards of one start class: their answers are checked against
    // every reachable position, and every answer is replayed. A node limit keeps the boards on
    // the depth-first searches; without one they take `search::dense`'s exact values, whose
    // answers are checked the same way.
    let _cold = crate::fewest::Cold;
    let (mut long, mut checked) = (0, 0);
    let depth_first = Limits {
        max_nodes: Some(u64::MAX),
        ..Limits::default()
    };
    for (i, board) in random_5x5_boards(100, 0x2545_f491_4f6c_dd1d).iter().enumerate() {
        let m = puzzle("peg_hop", board, "{pegs: fewest}");
        let order: Vec<usize> = (0..m.moves.len()).collect();
        let mut budget = Budget::new(depth_first);
        let r = marbles::search::plan::hop(&m, &order, &mut budget, &mut Quiet);
        let by_values = marbles::search::plan::hop(&m, &order, &mut unlimited(), &mut Quiet);
        for r in [&r, &by_values] {
            assert_eq!(r.verdict, Verdict::Solved, "board {i}:\n{board}");
            assert_eq!(solve::hop_end(&m, &r.path), Ok(r.end), "board {i}:\n{board}");
        }
        let is_long = budget.nodes > 4096;
        long += usize::from(is_long);
        if is_long || i % 10 == 0 {
            let (layers, _) = brute_force(&m);
            let fewest = layers.keys().min().copied();
            assert_eq!(Some(r.end.count_ones()), fewest, "board {i}:\n{board}");
            assert_eq!(Some(by_values.end.count_ones()), fewest, "board {i}:\n{board}");
            checked += 1;
        }
    }
    assert!(
        long >= 3 && checked >= 13,
        "{long} long searches, {checked} checked"
    );
}
