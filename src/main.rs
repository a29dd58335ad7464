//! The `marbles` binary: parse the command line and run it; [`marbles::run`] prints any error
//! and gives the exit code.

fn main() -> std::process::ExitCode {
    marbles::run(marbles::cli::parse()).into()
}
