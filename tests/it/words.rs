//! One vocabulary: on a hop board a jump is one peg's hop and a move one peg's chain of jumps,
//! in the text answer, the table, CSV, Markdown, HTML and JSON alike (the terminal table shows
//! moves only); a tilt or a rewrite is a move.

use crate::support::Test;

const CORNER: &str =
    "rules: triangle_hop\nboard: |2\n      .\n     o o\n    o o o\n   o o o o\n  o o o o o\n";

/// The moves of a list of jumps, counted here: a jump that starts where the one before
/// landed goes on with the same peg's move.
fn chains(jumps: &[serde_json::Value]) -> u64 {
    let mut landed = None;
    let mut n = 0;
    for j in jumps {
        if landed.as_ref() != Some(&j["from"]) {
            n += 1;
        }
        landed = Some(j["to"].clone());
    }
    n
}

#[test]
fn a_hop_answer_counts_moves_as_chains_of_jumps_in_every_format() {
    let o = &crate::support::solved_json("c.yaml", CORNER)[0];
    let jumps = o["jumps"].as_array().expect("a hop line is written as `jumps`");
    assert!(o.get("moves").is_none(), "{o}");
    let moves = chains(jumps);
    assert!(moves < jumps.len() as u64, "the corner's line has a chain: {o}");
    assert_eq!(o["move_count"].as_u64(), Some(moves));
    assert_eq!(o["jump_count"].as_u64(), Some(jumps.len() as u64));
    let words = format!("solved in {moves} moves ({} jumps), 1 peg left\n", jumps.len());
    Test::new()
        .file("c.yaml", CORNER)
        .args(["solve", "c.yaml"])
        .run()
        .status(0)
        .stdout_has(&words)
        .stdout_has("\nmove 1: [2, 0] → [0, 0]\n\njump 1: [2, 0] over [1, 0] to [0, 0] (up-right)\n");
    Test::new()
        .file("c.yaml", CORNER)
        .args(["solve", "c.yaml", "--format", "moves"])
        .run()
        .status(0)
        .stdout_has(&format!("{moves} moves\n"));
    // The batch table, CSV and Markdown: a moves and a jumps column.
    let batch = |format: &str| {
        Test::new()
            .file("set/c.yaml", CORNER)
            .args(["batch", "set", "--no-report", "--quiet", "--format", format])
            .run()
            .status(0)
            .stdout
    };
    // The terminal table keeps to moves (its 80 columns go to the names).
    let table = batch("table");
    assert!(table.contains("| moves | pegs |"), "{table}");
    assert!(
        table.contains(&format!("| {moves:>5} |     1 |"))
            || table.contains(&format!("| {moves:>5} |    1 |")),
        "{table}"
    );
    let csv = batch("csv");
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let head = rows.headers().unwrap().clone();
    let row = rows.records().next().unwrap().unwrap();
    let at = |name: &str| row[head.iter().position(|h| h == name).unwrap()].to_string();
    assert_eq!(
        (at("moves"), at("jumps")),
        (moves.to_string(), jumps.len().to_string())
    );
    let md = batch("markdown");
    assert!(md.contains("| moves | jumps | pegs left |"), "{md}");
}

#[test]
fn a_tilt_is_a_move_and_has_no_jumps() {
    let sample =
        std::fs::read_to_string(crate::support::root().join("puzzles/classic/wf2007_sample.icpc")).unwrap();
    let run = Test::new()
        .file("s.icpc", &sample)
        .args(["solve", "s.icpc", "--format", "json"])
        .run()
        .status(0);
    let o = &run.json()[0];
    assert_eq!(o["moves"].as_array().map(Vec::len), Some(5), "{o}");
    assert_eq!((o["move_count"].as_u64(), o.get("jump_count")), (Some(5), None));
}

#[test]
fn expect_counts_moves_and_jumps_as_the_answer_does() {
    let o = &crate::support::solved_json("c.yaml", CORNER)[0];
    let (moves, jumps) = (
        o["move_count"].as_u64().unwrap(),
        o["jump_count"].as_u64().unwrap(),
    );
    let run = |expect: &str| {
        Test::new()
            .file("p.yaml", &format!("{CORNER}expect: {expect}\n"))
            .args(["solve", "p.yaml"])
            .run()
    };
    run(&format!("{moves} moves, {jumps} jumps, 1 peg")).status(0);
    run(&format!("{{moves: {moves}, jumps: {jumps}}}")).status(0);
    // The jumps are not the moves.
    run(&format!("{jumps} moves")).status(1).stderr_has(&format!(
        "expected solved: {jumps} moves, got solved: {moves} moves, {jumps} jumps, 1 peg"
    ));
}

#[test]
fn a_hop_script_lists_its_jumps_once_under_one_name() {
    let peg_hop = std::fs::read_to_string(crate::support::root().join("rules/peg_hop.rhai")).unwrap();
    assert!(
        peg_hop.contains("jumps: jumps,"),
        "the shipped script uses the word"
    );
    let check = |script: String| {
        Test::new()
            .file("rules/fam.rhai", &script)
            .file("p.yaml", "rules: fam\nboard: |\n  o o .\n")
            .args(["check", "p.yaml"])
            .run()
    };
    // The older name still reads.
    check(peg_hop.replace("jumps: jumps,", "moves: jumps,"))
        .status(0)
        .stdout_has("(fam: 3 holes, 2 pegs, 2 jumps, 2 symmetries)");
    check(peg_hop.replace("jumps: jumps,", "jumps: jumps, moves: jumps,"))
        .status(2)
        .stderr_has("give a hop family's jumps once, in `jumps` (not also in `moves`)");
}
