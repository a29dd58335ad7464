//! The `marbles` binary: parse the command line and run it; [`marbles::run`] prints any error
//! and gives the exit code.

use clap::Parser;

fn main() -> std::process::ExitCode {
    marbles::run(marbles::cli::Cli::parse()).into()
}
