//! `cargo bench`: the quick cases of `marbles bench` under divan (the slow ones — English
//! count, the 1,089-problem batch — are left to `marbles bench`, which runs each once per
//! child process and reports peak memory).

use marbles::cmd::bench::cases::{self as bench, Run};

fn main() {
    divan::main();
}

/// Runs a case once; its nodes. A case that fails stops the benchmark: a failure timed as a
/// few nanoseconds would read as a speed-up.
fn run(case: fn() -> Result<Run, String>) -> u64 {
    case().unwrap_or_else(|e| panic!("bench case failed: {e}")).nodes
}

/// The case named `name` whose question starts with `asked`; a name no case has stops the
/// benchmark.
fn case(name: &str, asked: &str) -> fn() -> Result<Run, String> {
    bench::cases()
        .into_iter()
        .find(|c| c.name == name && c.asked.starts_with(asked))
        .unwrap_or_else(|| panic!("no bench case {name:?} asking {asked:?}"))
        .run
}

#[divan::bench]
fn english_central_first_solution() -> u64 {
    run(case("English central", "first solution"))
}

#[divan::bench]
fn english_central_hand_written_baseline() -> u64 {
    run(bench::english_baseline)
}

#[divan::bench]
fn french_central_proof() -> u64 {
    run(case("French central", "prove impossible"))
}

#[divan::bench(sample_count = 5)]
fn french_hole_2_6() -> u64 {
    run(case("French, hole (2,6) empty", "first solution"))
}

#[divan::bench]
fn triangle_15_every_start() -> u64 {
    run(case("Triangle 15, every start", "first solution"))
}

#[divan::bench(sample_count = 10)]
fn triangle_28_every_start() -> u64 {
    run(case("Triangle 28, every start", "first solution"))
}

#[divan::bench]
fn tilt_four_by_four() -> u64 {
    run(case("Tilt four_by_four", "shortest"))
}
