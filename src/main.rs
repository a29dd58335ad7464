//! The `marbles` binary: parse the command line, run, map errors to exit codes.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = marbles::cli::Cli::parse();
    match marbles::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // A closed pipe (`marbles batch … | head`) is the reader's choice, not a failure.
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                return ExitCode::SUCCESS;
            }
            eprintln!("marbles: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
