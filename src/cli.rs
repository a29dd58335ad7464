//! Command-line definitions (clap), and their translation into each command's plain config
//! (`SolveArgs::config` → [`cmd::solve::Config`], and so on). Only this module knows clap's
//! types; nothing below [`crate::cmd`] imports it.

use crate::batch::shard;
use crate::cmd;
use crate::diag::listed;
use crate::formats::{self, Notation};
use crate::project::Found;
use crate::render::answer::{self, Answer};
use crate::report::Summary;
use crate::script::ScriptLimits;
use crate::search::Limits;
use crate::solve::{MoveOrder, Options};
use crate::spec::ByteSize;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;

/// Solve marble and peg puzzles: peg solitaire, the Cracker Barrel triangle, tilt mazes, and
/// any family you script.
///
/// A puzzle is a YAML file naming its board, its rule family and its goal. A rule family is a
/// Rhai script (rules/*.rhai) that defines the board's geometry and moves; marbles runs it
/// once per puzzle and searches natively.
#[derive(Debug, Parser)]
#[command(name = "marbles", version, propagate_version = true, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

const EXAMPLES: &str = "\
Examples:
  marbles solve puzzles/peg_hop/english_central.yaml
  marbles solve puzzles/triangle_hop/*.yaml --format json
  marbles check puzzles/
  marbles check rules/my_family.rhai puzzles/
  marbles rules
  marbles new my_family --kind hop
  marbles batch puzzles --report reports
  marbles completions bash > /etc/bash_completion.d/marbles

Exit status: 0 every puzzle as its `expect:` says, or solved where it states none; 1 some puzzle
not as expected, or, stating nothing, unsolvable or given up; 2 bad input or failure; 130
interrupted (Ctrl-C, SIGTERM, SIGHUP: what finished is still reported).";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve puzzle files and show each verdict, move and board.
    Solve(SolveArgs),
    /// Play a puzzle yourself, move by move; `solve` lets marbles finish from where you are.
    #[command(after_long_help = crate::cmd::play::help_all())]
    Play(PlayArgs),
    /// Validate puzzle files and their rule scripts without solving; a script (x.rhai) is
    /// checked on the puzzles given that use it, or on a sample board.
    Check(CheckArgs),
    /// List the rule families a puzzle can name: where each is found and the first sentence of its opening comment.
    Rules(RulesArgs),
    /// Start a new rule family: write a commented script (rules/NAME.rhai) of one kind and a
    /// puzzle that uses it (NAME.yaml); nothing is overwritten.
    New(NewArgs),
    /// Solve every puzzle under folders in parallel; print a table and write reports.
    Batch(BatchArgs),
    /// Combine shard results (from `batch --shard`: the files, or the shards' report folders)
    /// into the reports a single run writes.
    Merge(MergeArgs),
    #[command(about = import_about())]
    Import(ImportArgs),
    /// Enumerate every position reachable from a hop puzzle's start, layer by layer, and count
    /// the jump sequences that reach its goal.
    Count(CountArgs),
    /// Time fixed search workloads (generated in memory) and print one table.
    Bench(BenchArgs),
    /// Print a shell completion script.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CountFormat {
    /// A table per layer, then the totals.
    Text,
    /// The same numbers as one JSON object.
    Json,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[arg(required = true, value_name = "FILE", help = solve_files_help())]
    pub files: Vec<PathBuf>,
    #[arg(long, value_parser = answer_format(), default_value = "text")]
    pub format: Answer,
    /// Read every FILE in this notation (default: by extension; anything else is YAML).
    #[arg(long, value_parser = notation(), value_name = "NOTATION")]
    pub from: Option<&'static Notation>,
    /// Print the search on stderr as it runs: each position tried, dead ends, skips, the goal.
    /// (A Lisp call `(peg-puzzle '… #t)` asks for its own trace.)
    #[arg(long)]
    pub trace: bool,
    /// Stop printing a trace after this many lines (the search goes on).
    #[arg(long, value_name = "LINES", default_value_t = crate::render::trace::DEFAULT_LIMIT)]
    pub trace_limit: usize,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    #[arg(required = true, value_name = "FILE", help = import_files_help())]
    pub files: Vec<PathBuf>,
    #[arg(long, value_name = "DIR", help = import_out_help())]
    pub out: PathBuf,
    /// Read every FILE in this notation (default: by extension).
    #[arg(long, value_parser = notation(), value_name = "NOTATION")]
    pub from: Option<&'static Notation>,
    /// Overwrite specs already in the --out folder (two FILEs importing to one name are
    /// refused all the same).
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct CountArgs {
    #[arg(value_name = "FILE", help = count_file_help())]
    pub file: PathBuf,
    #[arg(long, default_value_t = 1, value_name = "K", help = play_case_help())]
    pub case: usize,
    /// Read FILE in this notation (default: by extension).
    #[arg(long, value_parser = notation(), value_name = "NOTATION")]
    pub from: Option<&'static Notation>,
    /// Enumerate every reachable position (the default counts only those on a solution,
    /// by passes from the start and from the goal that meet in the middle).
    #[arg(long)]
    pub all: bool,
    /// With --all: also count the positions that can still reach the goal (keeps every layer in memory).
    #[arg(long)]
    pub feasible: bool,
    /// Count positions only, not jump sequences (implies --all): 8 bytes a position instead
    /// of 16 to 24, for the largest boards.
    #[arg(long)]
    pub positions_only: bool,
    #[arg(long, value_enum, default_value = "text")]
    pub format: CountFormat,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Timed runs per case; the median is shown.
    #[arg(long, default_value_t = 3, value_name = "N")]
    pub runs: usize,
    /// Only cases whose name or question contains this text.
    #[arg(long, value_name = "TEXT")]
    pub only: Option<String>,
    /// Print the table as Markdown.
    #[arg(long)]
    pub markdown: bool,
    /// Also run the cases that take minutes (marked "(long)": the French count).
    #[arg(long)]
    pub long: bool,
    /// Run one case in this process and print its measurement as JSON (used by the parent).
    #[arg(long, hide = true, value_name = "INDEX")]
    pub case: Option<usize>,
    /// Time another solver beside the case it pairs with, both as whole processes taking
    /// turns, and show the ratio ours/peer (known: feschber, the English count).
    #[arg(long, value_name = "NAME=PATH")]
    pub peer: Vec<String>,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[arg(value_name = "FILE", help = play_file_help())]
    pub file: PathBuf,
    #[arg(long, default_value_t = 1, value_name = "K", help = play_case_help())]
    pub case: usize,
    /// Read FILE in this notation (default: by extension).
    #[arg(long, value_parser = notation(), value_name = "NOTATION")]
    pub from: Option<&'static Notation>,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// A puzzle file or folder: list what its puzzles can name (default: the current folder).
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The family's name (lower-case letters, digits, `_`).
    #[arg(value_name = "NAME")]
    pub name: String,
    /// The kind of family, as docs/rules.md describes them.
    #[arg(long, value_parser = family_kind(), default_value = "hop", value_name = "KIND")]
    pub kind: &'static cmd::new::Kind,
    /// The folder to write the puzzle in (the script goes into its rules/).
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub dir: PathBuf,
}

/// `new --kind`'s values: the kinds of [`cmd::new::KINDS`], each with its help.
fn family_kind() -> impl TypedValueParser<Value = &'static cmd::new::Kind> {
    let values = cmd::new::KINDS
        .iter()
        .map(|k| PossibleValue::new(k.name).help(k.about));
    PossibleValuesParser::new(values).map(|name| {
        cmd::new::KINDS
            .iter()
            .find(|k| k.name == name)
            .expect("one of the possible values")
    })
}

impl NewArgs {
    pub fn config(&self) -> cmd::new::Config {
        cmd::new::Config {
            name: self.name.clone(),
            kind: self.kind,
            dir: self.dir.clone(),
        }
    }
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Puzzle files, folders to check every puzzle file under, or rule scripts (*.rhai).
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub script: ScriptArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Table,
    Markdown,
    Csv,
    Json,
}

#[derive(Debug, Args)]
pub struct BatchArgs {
    #[arg(required = true, value_name = "DIR", help = batch_dirs_help())]
    pub dirs: Vec<PathBuf>,
    /// Format of the summary printed on stdout.
    #[arg(long, value_enum, default_value = "table")]
    pub format: TableFormat,
    /// Where to write results.jsonl, summary.json, summary.csv, summary.md, index.html and
    /// junit.xml (default: marbles.toml's `report`, else reports).
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Write no report files.
    #[arg(long, conflicts_with = "resume")]
    pub no_report: bool,
    /// Reuse the report folder's results (results.jsonl and the journal of an interrupted run)
    /// for puzzles whose spec, scripts and settings are unchanged.
    #[arg(long)]
    pub resume: bool,
    /// Puzzles solved at once (default, and at most: one per core; never more than there are
    /// puzzle files).
    #[arg(long, short = 'j', value_name = "N", value_parser = jobs, allow_negative_numbers = true)]
    pub jobs: Option<usize>,
    /// No progress bar and no closing notes on stderr (what --resume reused, where the
    /// reports went, the slowest files); warnings and errors are still shown.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Solve only share K of N (0 <= K < N), chosen by a hash of each file's path under DIR,
    /// and leave shard-K-of-N.json in the report folder; `auto` reads SLURM_ARRAY_TASK_ID and
    /// SLURM_ARRAY_TASK_COUNT, or JOB_COMPLETION_INDEX with --shard-count.
    #[arg(long, value_name = "K/N|auto", value_parser = shard::Choice::parse, allow_hyphen_values = true)]
    pub shard: Option<shard::Choice>,
    /// How many shards `--shard auto` splits into (default: SLURM_ARRAY_TASK_COUNT or
    /// MARBLES_SHARD_COUNT; where several are set they must agree).
    #[arg(long, value_name = "N", requires = "shard", value_parser = clap::value_parser!(u32).range(1..))]
    pub shard_count: Option<u32>,
    /// Solve only the puzzle files whose path, or the name of a puzzle in them, contains TEXT
    /// (ignoring case), as pytest's -k.
    #[arg(short = 'k', value_name = "TEXT", help_heading = "Selecting")]
    pub select: Option<String>,
    /// Stop at the first puzzle that does not pass (an error, a give-up, an answer not as its
    /// `expect:` says, or unsolvable stating none); the files not run are listed.
    #[arg(long, help_heading = "Selecting")]
    pub fail_fast: bool,
    /// Solve only the puzzle files that did not pass in the report folder's last results.
    #[arg(long, conflicts_with_all = ["no_report", "resume"], help_heading = "Selecting")]
    pub failed: bool,
    #[command(flatten)]
    pub search: SearchArgs,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// shard-K-of-N.json files, one per shard, or folders holding them (each shard's report
    /// folder; only the folder itself is searched, not its subfolders).
    #[arg(required = true, value_name = "RESULTS")]
    pub files: Vec<PathBuf>,
    /// Where to write results.jsonl, summary.json, summary.csv, summary.md, index.html and
    /// junit.xml.
    #[arg(long, value_name = "DIR", required = true)]
    pub report: PathBuf,
    /// A puzzle folder the shards solved that lies outside the folder merge runs in: merge
    /// walks and reads the shards' folders to replay their results, and only those inside the
    /// working folder or one named here (repeat it for several).
    #[arg(long, value_name = "DIR")]
    pub puzzles: Vec<PathBuf>,
    /// Format of the summary printed on stdout.
    #[arg(long, value_enum, default_value = "table")]
    pub format: TableFormat,
}

/// Options every solving command shares.
#[derive(Debug, Args, Clone)]
pub struct SearchArgs {
    /// Give up on a puzzle's search after this many seconds (its rule script, run before the
    /// search, is held to --script-timeout).
    #[arg(long, value_name = "SECONDS", value_parser = seconds, allow_negative_numbers = true, help_heading = "Limits (per puzzle)")]
    pub timeout: Option<f64>,
    /// Give up on a puzzle once its search has looked at this many nodes (positions): an
    /// answer found at its Nth node is found under N.
    #[arg(
        long,
        value_name = "N",
        allow_negative_numbers = true,
        help_heading = "Limits (per puzzle)"
    )]
    pub max_nodes: Option<u64>,
    /// Give up when a search's tables reach this size, e.g. 512MB or 2GiB (default: a
    /// quarter of the machine's memory, or half of a tighter cgroup or address-space limit,
    /// shared between jobs).
    #[arg(
        long,
        value_name = "SIZE",
        allow_negative_numbers = true,
        help_heading = "Limits (per puzzle)"
    )]
    pub max_memory: Option<ByteSize>,
    /// Leave as few pegs as possible instead of meeting the spec's peg count.
    #[arg(long, help_heading = "Search")]
    pub fewest: bool,
    /// Solve in the fewest moves, a move being one peg's chain of jumps (exact).
    #[arg(long, help_heading = "Search")]
    pub fewest_moves: bool,
    /// Try jumps (of hop families) in the script's order, reversed, or cell by cell with each
    /// cell's jumps in an order of the family's direction names, e.g. up,down,left,right
    /// (every name once).
    #[arg(long, value_name = "ORDER", default_value = "script", value_parser = parse_order, help_heading = "Search")]
    pub order: OrderArg,
    /// Try jumps (of hop families) in a random but reproducible order (see --seed).
    #[arg(long, conflicts_with = "order", help_heading = "Search")]
    pub shuffle: bool,
    /// The seed for --shuffle.
    #[arg(
        long,
        default_value_t = 1,
        allow_negative_numbers = true,
        requires = "shuffle",
        help_heading = "Search"
    )]
    pub seed: u64,
    #[command(flatten)]
    pub script: ScriptArgs,
}

// Values and help that name the notations or the answer formats are made from their tables,
// formats::NOTATIONS and answer::FORMATS, so that a new one is offered and named everywhere
// by its row alone.

/// `--from`'s values: the notations of [`formats::NOTATIONS`], each with its help.
fn notation() -> impl TypedValueParser<Value = &'static Notation> {
    let values = formats::NOTATIONS
        .iter()
        .map(|n| PossibleValue::new(n.name).help(n.about));
    PossibleValuesParser::new(values).map(|name| Notation::named(&name).expect("one of the possible values"))
}

/// `marbles import`'s line in the list of commands.
fn import_about() -> String {
    let files: Vec<&str> = formats::others().map(|n| n.files).collect();
    format!("Turn {} into YAML puzzle specs", listed(&files, "and"))
}

/// `solve`'s FILE: YAML, and each other notation's files with their extensions.
fn solve_files_help() -> String {
    let files: Vec<String> = formats::NOTATIONS
        .iter()
        .map(|n| match n == formats::YAML {
            true => n.files.to_string(),
            false => n.with_extensions(n.files),
        })
        .collect();
    format!("Puzzle files: {}", listed(&files, "or"))
}

/// `import`'s FILE: the notations it reads, with their extensions.
fn import_files_help() -> String {
    let files: Vec<String> = formats::others().map(|n| n.with_extensions(n.label)).collect();
    format!("{} files", listed(&files, "or"))
}

/// `import --out`: the names of the specs written, as [`formats::import`] makes them.
fn import_out_help() -> String {
    let (always, some): (Vec<_>, Vec<_>) = formats::NOTATIONS
        .iter()
        .filter_map(|n| n.several.as_ref().map(|s| (n.label, s)))
        .partition(|(_, s)| s.even_one);
    let mut help = "Where to write the specs: <stem>.yaml for one board".to_string();
    if !some.is_empty() {
        let names: Vec<String> = some
            .iter()
            .map(|(_, s)| format!("<stem>_{}<k>.yaml", s.word))
            .collect();
        let what: Vec<&str> = some.iter().map(|(_, s)| s.named).collect();
        help += &format!(", {} for several {}", names.join(" / "), what.join(" / "));
    }
    for (label, s) in always {
        help += &format!(", <stem>_{}<k>.yaml per {label} {}", s.word, s.word);
    }
    help
}

/// `play`'s FILE: every notation.
fn play_file_help() -> String {
    let labels: Vec<&str> = formats::NOTATIONS.iter().map(|n| n.label).collect();
    format!("A puzzle file ({})", listed(&labels, "or"))
}

/// `count`'s FILE: a hop puzzle in any notation.
fn count_file_help() -> String {
    let labels: Vec<&str> = formats::NOTATIONS.iter().map(|n| n.label).collect();
    format!("A hop puzzle file ({})", listed(&labels, "or"))
}

/// `play --case`: what the puzzles of a file holding several are.
fn play_case_help() -> String {
    let several: Vec<&str> = formats::NOTATIONS
        .iter()
        .filter_map(|n| n.several.as_ref().map(|s| s.named))
        .collect();
    format!(
        "Which puzzle of a file holding several ({}), from 1",
        several.join(", ")
    )
}

/// `batch`'s DIR: the puzzle files a batch takes.
fn batch_dirs_help() -> String {
    format!(
        "Folders to walk for puzzle files ({}; files may be named too)",
        formats::globs()
    )
}

/// `--format`'s values: the answer formats of [`answer::FORMATS`], each with its help.
fn answer_format() -> impl TypedValueParser<Value = Answer> {
    let values = answer::FORMATS
        .iter()
        .map(|f| PossibleValue::new(f.name).help(f.about));
    PossibleValuesParser::new(values).map(|name| Answer::named(&name).expect("one of the possible values"))
}

/// `--order`: `script`, `reverse`, or direction names separated by commas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderArg {
    Script,
    Reverse,
    Directions(Vec<String>),
}

/// Reads `--order`; direction names are checked against each puzzle's family when it is
/// compiled (see [`solve::check_order`]), since only the family knows its names.
fn parse_order(s: &str) -> Result<OrderArg, String> {
    match s.trim() {
        "script" => return Ok(OrderArg::Script),
        "reverse" => return Ok(OrderArg::Reverse),
        _ => {}
    }
    let names: Vec<String> = s.split(',').map(|n| n.trim().to_string()).collect();
    if names.iter().any(String::is_empty) {
        return Err(format!(
            "`{s}` has an empty direction name: write `script`, `reverse`, or direction names separated by commas, e.g. up,down,left,right"
        ));
    }
    Ok(OrderArg::Directions(names))
}

#[derive(Debug, Args, Clone)]
pub struct ScriptArgs {
    #[arg(long, value_name = "N", value_parser = script_ops, allow_negative_numbers = true, help = script_ops_help(), help_heading = "Rule script limits")]
    pub script_ops: Option<u64>,
    #[arg(long, value_name = "SECONDS", value_parser = script_seconds, allow_negative_numbers = true, help = script_timeout_help(), help_heading = "Rule script limits")]
    pub script_timeout: Option<f64>,
}

/// `--script-ops`: its default, from [`ScriptLimits::default`].
fn script_ops_help() -> String {
    format!(
        "Stop a rule script after this many operations (default: marbles.toml's, else {})",
        ScriptLimits::default().max_operations
    )
}

/// `--script-timeout`: its default, from [`ScriptLimits::default`].
fn script_timeout_help() -> String {
    format!(
        "Stop a rule script after this many seconds (default: marbles.toml's, else {})",
        ScriptLimits::default().timeout.as_secs_f64()
    )
}

/// A whole number of `what` from 1, `zero` saying why 0 is refused.
fn at_least_one(s: &str, what: &str, zero: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err(zero.into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a whole number of {what}")),
    }
}

/// Puzzles solved at once: at least 1, as `jobs` in marbles.toml.
fn jobs(s: &str) -> Result<usize, String> {
    at_least_one(s, "jobs", "-j must be at least 1").map(|n| n as usize)
}

/// An operation limit: at least 1, since Rhai reads 0 as "no limit at all".
fn script_ops(s: &str) -> Result<u64, String> {
    at_least_one(
        s,
        "operations",
        "--script-ops must be at least 1 (0 would mean no limit)",
    )
}

/// A number of seconds that makes a time limit (see [`crate::limits::seconds`]).
fn seconds(s: &str) -> Result<f64, String> {
    let v = crate::limits::parse_seconds(s)?;
    crate::limits::seconds(v).map(|_| v)
}

/// A rule script's time limit: [`seconds`], and more than 0, which no script could meet.
fn script_seconds(s: &str) -> Result<f64, String> {
    let v = seconds(s)?;
    crate::limits::script_seconds(v).map(|_| v)
}

impl ScriptArgs {
    /// The flags' limits, else the project's, else the defaults.
    pub fn limits(&self, project: &Found) -> ScriptLimits {
        let given = &project.project.limits;
        let default = ScriptLimits::default();
        ScriptLimits {
            max_operations: self
                .script_ops
                .or(given.script_ops)
                .unwrap_or(default.max_operations),
            timeout: self
                .script_timeout
                .or(given.script_timeout)
                .map_or(default.timeout, |s| Duration::from_secs_f64(s.max(0.0))),
            ..default
        }
    }
}

/// A time limit in seconds as a duration.
fn duration(s: f64) -> Duration {
    Duration::from_secs_f64(s.max(0.0))
}

impl SearchArgs {
    /// Solve options for running `jobs` puzzles at once, the project's limits beneath.
    pub fn options(&self, jobs: usize, project: &Found) -> Options {
        let given = &project.project.limits;
        Options {
            limits: Limits {
                timeout: self.timeout.map(duration),
                max_nodes: self.max_nodes,
                max_memory: self.max_memory.map(|b| b.0),
            },
            project: Limits {
                timeout: given.timeout.map(duration),
                max_nodes: given.max_nodes,
                max_memory: given.max_memory.map(|b| b.0),
            },
            default_max_memory: crate::process::default_memory_limit(jobs),
            whole_process: true,
            script: {
                // The whole process is held to its memory limit: a script's bytes too.
                let mut script = self.script.limits(project);
                if let Some(b) = self.max_memory.or(given.max_memory) {
                    script.run_bytes = b.0 < script.max_bytes;
                    script.max_bytes = script.max_bytes.min(b.0);
                }
                script
            },
            order: match &self.order {
                _ if self.shuffle => MoveOrder::Shuffle(self.seed),
                OrderArg::Script => MoveOrder::Script,
                OrderArg::Reverse => MoveOrder::Reverse,
                OrderArg::Directions(names) => MoveOrder::Directions(names.clone()),
            },
            fewest: self.fewest,
            fewest_moves: self.fewest_moves,
            where_they_apply: false,
            bare: false,
            inside: None,
        }
    }
}

impl From<TableFormat> for Summary {
    fn from(f: TableFormat) -> Self {
        match f {
            TableFormat::Table => Summary::Table,
            TableFormat::Markdown => Summary::Markdown,
            TableFormat::Csv => Summary::Csv,
            TableFormat::Json => Summary::Json,
        }
    }
}

impl SolveArgs {
    pub fn config(&self, project: &Found) -> cmd::solve::Config {
        cmd::solve::Config {
            files: self.files.clone(),
            answer: self.format,
            notation: self.from,
            trace: self.trace,
            trace_limit: self.trace_limit,
            options: Options {
                bare: self.format.format().bare,
                ..self.search.options(1, project)
            },
        }
    }
}

impl PlayArgs {
    pub fn config(&self, project: &Found) -> cmd::play::Config {
        cmd::play::Config {
            file: self.file.clone(),
            case: self.case,
            notation: self.from,
            options: self.search.options(1, project),
        }
    }
}

impl CheckArgs {
    pub fn config(&self, project: &Found) -> cmd::check::Config {
        cmd::check::Config {
            paths: self.paths.clone(),
            options: Options {
                script: self.script.limits(project),
                ..Options::default()
            },
        }
    }
}

impl RulesArgs {
    pub fn config(&self) -> cmd::rules::Config {
        cmd::rules::Config {
            path: self.path.clone(),
        }
    }
}

impl BatchArgs {
    pub fn config(&self, project: &Found) -> cmd::batch::Config {
        let jobs = self
            .jobs
            .or(project.project.jobs)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1);
        cmd::batch::Config {
            dirs: self.dirs.clone(),
            summary: self.format.into(),
            report: (!self.no_report).then(|| {
                self.report
                    .clone()
                    .or_else(|| project.report())
                    .unwrap_or_else(|| PathBuf::from("reports"))
            }),
            resume: self.resume,
            jobs,
            quiet: self.quiet,
            options: self.search.options(jobs, project),
            shard: self.shard,
            shard_count: self.shard_count,
            select: self.select.clone(),
            fail_fast: self.fail_fast,
            failed: self.failed,
        }
    }
}

impl MergeArgs {
    pub fn config(&self) -> cmd::merge::Config {
        cmd::merge::Config {
            files: self.files.clone(),
            summary: self.format.into(),
            report: self.report.clone(),
            puzzles: self.puzzles.clone(),
        }
    }
}

impl ImportArgs {
    pub fn config(&self) -> cmd::import::Config {
        cmd::import::Config {
            files: self.files.clone(),
            out: self.out.clone(),
            notation: self.from,
            force: self.force,
        }
    }
}

impl CountArgs {
    pub fn config(&self, project: &Found) -> cmd::count::Config {
        cmd::count::Config {
            file: self.file.clone(),
            all: self.all,
            feasible: self.feasible,
            positions_only: self.positions_only,
            json: self.format == CountFormat::Json,
            notation: self.from,
            case: self.case,
            options: self.search.options(1, project),
        }
    }
}

impl BenchArgs {
    pub fn config(&self) -> cmd::bench::Config {
        cmd::bench::Config {
            runs: self.runs,
            only: self.only.clone(),
            markdown: self.markdown,
            long: self.long,
            case: self.case,
            peers: self.peer.clone(),
        }
    }
}

/// The command line as clap reads it, with the search flags `count` refuses (it counts every
/// jump sequence, whatever their order or length) left out of its help.
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().mut_subcommand("count", |c| {
        ["fewest_moves", "order", "shuffle", "seed"]
            .into_iter()
            .fold(c, |c, id| c.mut_arg(id, |a| a.hide(true)))
    })
}

/// Reads the process's arguments as [`command`] describes them, exiting as clap does on a
/// usage error or `--help`.
pub fn parse() -> Cli {
    use clap::FromArgMatches;
    Cli::from_arg_matches(&command().get_matches()).unwrap_or_else(|e| e.exit())
}
