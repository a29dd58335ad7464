//! marbles: solve marble and peg puzzles defined by YAML files and Rhai rule scripts.
//!
//! The layers: each module uses only modules drawn below it (no import points upwards, so
//! there are no cycles; `docs/architecture.md` follows one file through them).
//!
//! ```text
//! main ─→ lib::run ─→ cli      clap definitions → each command's plain config
//!                      │
//!                     cmd/      one file per subcommand; ExitCode, Error, the one error printer
//!            ┌─────────┼───────────┐
//!          batch/      │        formats/   folders in parallel, resume journal · Lisp/matrix/ICPC readers
//!            │         │           │
//!          report/     │           │       summary table, JSON, CSV, Markdown, HTML
//!            │         │           │
//!          render/ ────┘           │       one puzzle as text: boards, answers, traces
//!            └───────────┬─────────┘
//!                      solve               one puzzle end to end
//!                        │
//!                     outcome → search/ → model → script/ → lattice, spec/ → limits, diag, memo
//!                                                              │
//!                                  process, fingerprint, owned   the ground floor: Ctrl-C flag,
//!                                                                 allocator knobs, SHA-256, the
//!                                                                 files marbles owns
//! ```
//!
//! Inside `search/` one module, `search::plan`, chooses which search runs; the imports there
//! run one way too (`docs/architecture.md`).
//!
//! The flow of one puzzle is `spec` (YAML) → `script` (run once) → `model` (native tables) →
//! `search` → `outcome` → `render` or `report`. [`run`] is what the binary calls. The files
//! users hand marbles (puzzles, rule scripts, Lisp, matrix, ICPC and shard files) are read
//! through [`spec::input`], bounded; the files marbles writes (and reads back) through
//! [`owned`], never through a link planted in their place.

pub mod batch;
pub mod cli;
pub mod cmd;
pub mod diag;
pub mod fingerprint;
pub mod formats;
pub mod lattice;
pub mod limits;
pub mod memo;
pub mod model;
pub mod outcome;
pub mod owned;
pub mod process;
pub mod project;
pub mod render;
pub mod report;
pub mod script;
pub mod search;
pub mod solve;
pub mod spec;

/// Counts a rule script's bytes while it runs; see [`script::alloc`].
#[global_allocator]
static ALLOCATOR: script::alloc::Counting = script::alloc::Counting;

use cli::{Cli, Command};
use cmd::ExitCode;
use std::path::Path;

/// Runs a parsed command line: its command's config to its command, any error printed once.
pub fn run(cli: Cli) -> ExitCode {
    process::map_large_tables();
    process::fit_allocator_to_rlimit();
    // The project's marbles.toml, found from where marbles runs, as cargo finds its manifest:
    // a file that cannot be read or says what marbles does not know stops every command that
    // solves, lists rule families or writes, before anything is solved or written (rule
    // lookup reads its `rules` folders: a typo there would hide a family quietly).
    let reading = !matches!(cli.command, Command::Bench(_) | Command::Completions { .. });
    let project = match reading {
        true => match project::find(Path::new(".")) {
            Ok(found) => found,
            Err(d) => return cmd::finish(Err(d.into())),
        },
        false => project::Found::default(),
    };
    cmd::finish(match cli.command {
        Command::Solve(args) => cmd::solve::run(&args.config(&project)),
        Command::Play(args) => cmd::play::run(&args.config(&project)),
        Command::Check(args) => cmd::check::run(&args.config(&project)),
        Command::Rules(args) => cmd::rules::run(&args.config()),
        Command::New(args) => cmd::new::run(&args.config()),
        Command::Batch(args) => cmd::batch::run(&args.config(&project)),
        Command::Merge(args) => cmd::merge::run(&args.config()),
        Command::Import(args) => cmd::import::run(&args.config()),
        Command::Count(args) => cmd::count::run(&args.config(&project)),
        Command::Bench(args) => cmd::bench::run(&args.config()),
        Command::Completions { shell } => {
            // Written whole here, not by `generate`, which panics when stdout is closed: a
            // closed pipe ends every command quietly with success (`cmd::finish`).
            let mut text = Vec::new();
            clap_complete::generate(shell, &mut cli::command(), "marbles", &mut text);
            std::io::Write::write_all(&mut std::io::stdout().lock(), &text)
                .map(|()| ExitCode::Solved)
                .map_err(cmd::Error::from)
        }
    })
}
